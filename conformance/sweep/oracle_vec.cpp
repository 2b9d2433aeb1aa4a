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

// Note [The cheap boundary test in lanes]
// The cheap boundary test (oracle.cpp) is integer work on a double's bits: the exponent in the
// format's normal range, the dropped bits more than 2^14 from the midpoint pattern, no carry to
// infinity; then the format's bits are the rounded double's sign, rebiased exponent and leading
// significand bits (a normal value of the format: exact). Eight lanes of AVX-512 take a block at
// once, about a quarter of the scalar loop's time; the lanes that fail go the scalar way
// (special, interval, MPFR). SweepOracle.VectorDoublePathGivesTheScalarPathsBits holds both to
// the same bits.
template <int P, int Emin, int Emax, int Width>
__attribute__((target("avx512f"))) size_t boundary512(const double* y, size_t n, uint32_t* want,
                                                      uint8_t* decided) {
  constexpr int kDrop = 53 - P;
  const __m512i mask = _mm512_set1_epi64((int64_t{1} << kDrop) - 1);
  const __m512i half = _mm512_set1_epi64(int64_t{1} << (kDrop - 1));
  const __m512i exponent_bits = _mm512_set1_epi64(0x7ff), far = _mm512_set1_epi64(1 << 14);
  const __m512i lo = _mm512_set1_epi64(Emin + 1023), hi = _mm512_set1_epi64(Emax + 1023);
  const __m512i rebias = _mm512_set1_epi64(Emax - 1023);
  const __m512i significand = _mm512_set1_epi64((int64_t{1} << (P - 1)) - 1);
  const size_t blocks = n / 8;
  for (size_t b = 0; b < blocks; ++b) {
    const __m512i bits = _mm512_castpd_si512(_mm512_loadu_pd(y + 8 * b));
    const __m512i e = _mm512_and_si512(_mm512_srli_epi64(bits, 52), exponent_bits);
    __mmask8 ok = _mm512_cmpge_epu64_mask(e, lo) & _mm512_cmple_epu64_mask(e, hi);
    const __m512i low = _mm512_and_si512(bits, mask);
    ok &= _mm512_cmpgt_epu64_mask(_mm512_abs_epi64(_mm512_sub_epi64(low, half)), far);
    const __m512i r = _mm512_andnot_si512(mask, _mm512_add_epi64(bits, half));
    const __m512i re = _mm512_and_si512(_mm512_srli_epi64(r, 52), exponent_bits);
    ok &= _mm512_cmple_epu64_mask(re, hi);
    const __m512i out =
        _mm512_or_si512(_mm512_or_si512(_mm512_slli_epi64(_mm512_srli_epi64(r, 63), Width - 1),
                                        _mm512_slli_epi64(_mm512_add_epi64(re, rebias), P - 1)),
                        _mm512_and_si512(_mm512_srli_epi64(r, kDrop), significand));
    _mm512_mask_cvtepi64_storeu_epi32(want + 8 * b, ok, out);
    decided[b] = ok;
  }
  return blocks;
}

}  // namespace

BoundaryTestFn boundary_test_lanes(int precision, int emax) {
  if (!__builtin_cpu_supports("avx512f")) return nullptr;
  if (precision == 24) return boundary512<24, -126, 127, 32>;
  if (precision == 11) return boundary512<11, -14, 15, 16>;
  return precision == 8 && emax == 127 ? boundary512<8, -126, 127, 16> : nullptr;
}

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
BoundaryTestFn boundary_test_lanes(int, int) {
  return nullptr;
}
}  // namespace ts::sweep

#endif
