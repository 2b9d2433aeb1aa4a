// libmvec's double functions over arrays (oracle_vec.h).
#include "conformance/sweep/oracle_vec.h"

#if TS_SWEEP_LIBMVEC
#include <immintrin.h>
#include <math.h>

// The x86_64 vector function ABI's names: 'e' AVX-512 with 8 lanes, 'd' AVX2 with 4.
#define TS_LIBMVEC_DECLARE(f)                 \
  extern "C" __m512d _ZGVeN8v_##f(__m512d x); \
  extern "C" __m256d _ZGVdN4v_##f(__m256d x);
// clang-format off
#define TS_LIBMVEC_FUNCTIONS(_)                                                        \
  _(exp) _(expm1) _(exp2) _(log) _(log1p) _(log2) _(log10) _(sin) _(cos) _(tan)       \
  _(tanh) _(erf) _(erfc) _(asin) _(acos) _(atan) _(sinh) _(cosh) _(asinh) _(acosh)    \
  _(atanh)
// clang-format on
TS_LIBMVEC_FUNCTIONS(TS_LIBMVEC_DECLARE)
#undef TS_LIBMVEC_DECLARE

namespace ts::sweep {
namespace {

template <__m512d (*V)(__m512d), double (*S)(double)>
__attribute__((target("avx512f"))) void batch512(const double* x, double* y, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) _mm512_storeu_pd(y + i, V(_mm512_loadu_pd(x + i)));
  for (; i < n; ++i) y[i] = S(x[i]);
}

template <__m256d (*V)(__m256d), double (*S)(double)>
__attribute__((target("avx2,fma"))) void batch256(const double* x, double* y, size_t n) {
  size_t i = 0;
  for (; i + 4 <= n; i += 4) _mm256_storeu_pd(y + i, V(_mm256_loadu_pd(x + i)));
  for (; i < n; ++i) y[i] = S(x[i]);
}

struct Batches {
  std::string_view name;
  DoubleBatchFn avx512, avx2;
};

}  // namespace

DoubleBatchFn libmvec_batch(std::string_view name) {
#define TS_LIBMVEC_ROW(f) {#f, batch512<_ZGVeN8v_##f, ::f>, batch256<_ZGVdN4v_##f, ::f>},
  static const Batches kBatches[] = {TS_LIBMVEC_FUNCTIONS(TS_LIBMVEC_ROW)};
#undef TS_LIBMVEC_ROW
  static const bool avx512 = __builtin_cpu_supports("avx512f");
  static const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  for (const Batches& b : kBatches) {
    if (b.name != name) continue;
    return avx512 ? b.avx512 : avx2 ? b.avx2 : nullptr;
  }
  return nullptr;
}

}  // namespace ts::sweep

#else  // no libmvec here: the scalar double path

namespace ts::sweep {
DoubleBatchFn libmvec_batch(std::string_view) {
  return nullptr;
}
}  // namespace ts::sweep

#endif
