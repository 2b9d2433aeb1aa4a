// libmvec's double functions over arrays (oracle_vec.h).
#include "conformance/sweep/oracle_vec.h"

#if TS_SWEEP_LIBMVEC
#include <immintrin.h>
#include <math.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

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

// Note [Saturated lanes]
// libmvec sends a lane whose argument is outside the function's domain, or whose result
// overflows or underflows, to the scalar C function, which sets errno: exp over the float32
// inputs below -1e3 spent three quarters of its time there (perf: xflow, with_errno), and so did
// every composite built on exp (sigmoid, silu, softplus, ...). A screen evaluates those inputs as
// `inside` and gives them the value the function's lanes give at `below` or `above` (computed
// once, all lanes at that input): the same NaN, infinity or zero, bit for bit. The thresholds
// lie where the double result is that value throughout (exp: 2^-1076 rounds to 0 below -746,
// overflows above 710); between them and the exact limits the lanes run as before.
struct Screen {
  double (*f)(double);
  double lo, hi;        // the inputs x < lo or x > hi are screened
  double below, above;  // an input below lo and one above hi: their lanes' value stands for all
  double inside;        // evaluated in the place of a screened input
};
const Screen kScreens[] = {
    {::exp, -746, 710, -800, 800, 0},
    {::exp2, -1080, 1030, -1100, 1100, 0},
    {::expm1, -HUGE_VAL, 710, -HUGE_VAL, 800, 0},
    {::sinh, -711, 711, -800, 800, 0},
    {::cosh, -711, 711, -800, 800, 0},
    {::erfc, -HUGE_VAL, 28, -HUGE_VAL, 30, 0},
    {::log, 0, HUGE_VAL, -1, HUGE_VAL, 1},
    {::log2, 0, HUGE_VAL, -1, HUGE_VAL, 1},
    {::log10, 0, HUGE_VAL, -1, HUGE_VAL, 1},
    {::log1p, -1, HUGE_VAL, -2, HUGE_VAL, 0},
    {::asin, -1, 1, -2, 2, 0},
    {::acos, -1, 1, -2, 2, 0},
    {::atanh, -1, 1, -2, 2, 0},
    {::acosh, 1, HUGE_VAL, 0, HUGE_VAL, 2},
};
const Screen* find_screen(double (*f)(double)) {
  for (const Screen& s : kScreens) {
    if (s.f == f) return &s;
  }
  return nullptr;
}

// y = raw(x) over n inputs with `screen` applied (Note [Saturated lanes]), in chunks that stay
// in L1; `ends` the lanes' values at screen.below and screen.above. y may be x (the composites'
// stages run in place), so the inputs are kept before raw writes. Inlined into each target's
// batch, whose lanes the selects take.
template <DoubleBatchFn Raw>
[[gnu::always_inline]] inline void screened(const Screen& screen, const double (&ends)[2],
                                            const double* x, double* y, size_t n) {
  constexpr size_t kChunk = 512;
  double xs[kChunk], orig[kChunk];
  const double lo = screen.lo, hi = screen.hi, inside = screen.inside;
  const double below = ends[0], above = ends[1];
  for (size_t i0 = 0; i0 < n; i0 += kChunk) {
    const size_t m = std::min(kChunk, n - i0);
    const double* xc = x + i0;
    for (size_t i = 0; i < m; ++i) {
      orig[i] = xc[i];
      xs[i] = ((xc[i] < lo) | (xc[i] > hi)) ? inside : xc[i];
    }
    double* yc = y + i0;
    Raw(xs, yc, m);
    for (size_t i = 0; i < m; ++i) yc[i] = orig[i] < lo ? below : orig[i] > hi ? above : yc[i];
  }
}

template <DoubleBatchFn Raw, double (*S)(double)>
[[gnu::always_inline]] inline void batch_screened(const double* x, double* y, size_t n) {
  static const Screen* const screen = find_screen(S);
  if (screen == nullptr) return Raw(x, y, n);
  static const auto ends = [] {  // all lanes at one input, as a screened lane would have had
    double in[16], out[16];
    std::array<double, 2> v{};
    for (int k = 0; k < 2; ++k) {
      std::fill(in, in + 16, k == 0 ? screen->below : screen->above);
      Raw(in, out, 16);
      v[static_cast<size_t>(k)] = out[0];
    }
    return v;
  }();
  const double e[2] = {ends[0], ends[1]};
  screened<Raw>(*screen, e, x, y, n);
}

template <__m512d (*V)(__m512d), double (*S)(double)>
__attribute__((target("avx512f"))) void raw512(const double* x, double* y, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) _mm512_storeu_pd(y + i, V(_mm512_loadu_pd(x + i)));
  for (; i < n; ++i) y[i] = S(x[i]);
}
template <__m512d (*V)(__m512d), double (*S)(double)>
__attribute__((target("avx512f"))) void batch512(const double* x, double* y, size_t n) {
  batch_screened<raw512<V, S>, S>(x, y, n);
}

template <__m256d (*V)(__m256d), double (*S)(double)>
__attribute__((target("avx2,fma"))) void raw256(const double* x, double* y, size_t n) {
  size_t i = 0;
  for (; i + 4 <= n; i += 4) _mm256_storeu_pd(y + i, V(_mm256_loadu_pd(x + i)));
  for (; i < n; ++i) y[i] = S(x[i]);
}
template <__m256d (*V)(__m256d), double (*S)(double)>
__attribute__((target("avx2,fma"))) void batch256(const double* x, double* y, size_t n) {
  batch_screened<raw256<V, S>, S>(x, y, n);
}

// sqrt, 1/sqrt and 1/x are single instructions, correctly rounded in lanes as in scalar code;
// the scalar loop's std::sqrt checks each result for errno and does not vectorize. (The masked
// sqrt with every lane set: GCC 12 warns that _mm512_sqrt_pd's undefined source is uninitialized.)
__attribute__((target("avx512f"))) __m512d sqrt512(__m512d x) {
  return _mm512_mask_sqrt_pd(x, 0xFF, x);
}
__attribute__((target("avx512f"))) __m512d rsqrt512(__m512d x) {
  return _mm512_div_pd(_mm512_set1_pd(1), _mm512_mask_sqrt_pd(x, 0xFF, x));
}
__attribute__((target("avx512f"))) __m512d reciprocal512(__m512d x) {
  return _mm512_div_pd(_mm512_set1_pd(1), x);
}
__attribute__((target("avx2,fma"))) __m256d sqrt256(__m256d x) {
  return _mm256_sqrt_pd(x);
}
__attribute__((target("avx2,fma"))) __m256d rsqrt256(__m256d x) {
  return _mm256_div_pd(_mm256_set1_pd(1), _mm256_sqrt_pd(x));
}
__attribute__((target("avx2,fma"))) __m256d reciprocal256(__m256d x) {
  return _mm256_div_pd(_mm256_set1_pd(1), x);
}
double rsqrt1(double x) {
  return 1 / std::sqrt(x);
}
double reciprocal1(double x) {
  return 1 / x;
}

struct Batches {
  std::string_view name;
  DoubleBatchFn avx512, avx2;
};

}  // namespace

DoubleBatchFn libmvec_batch(std::string_view name) {
#define TS_LIBMVEC_ROW(f) {#f, batch512<_ZGVeN8v_##f, ::f>, batch256<_ZGVdN4v_##f, ::f>},
  // clang-format off
  static const Batches kBatches[] = {
      TS_LIBMVEC_FUNCTIONS(TS_LIBMVEC_ROW)
      {"sqrt", batch512<sqrt512, ::sqrt>, batch256<sqrt256, ::sqrt>},
      {"rsqrt", batch512<rsqrt512, rsqrt1>, batch256<rsqrt256, rsqrt1>},
      {"reciprocal", batch512<reciprocal512, reciprocal1>, batch256<reciprocal256, reciprocal1>}};
  // clang-format on
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
