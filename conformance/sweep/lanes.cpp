// The float32 sweep's per-input passes (lanes.h).
#include "conformance/sweep/lanes.h"

#include <algorithm>
#include <atomic>
#include <bit>

#if defined(__x86_64__)
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace ts::sweep::lanes {

// Note [The engine's passes in lanes]
// A full float32 sweep runs each of these 2^32 times per op: generating the inputs, widening them
// for the oracle, rounding its double results and comparing every set's results with them. As
// scalar loops of the baseline x86-64 target (SSE2, no 64-bit integer compares) they cost about
// as much as a cheap op's four kernels together. The bodies below are plain loops that GCC (with
// -fvect-cost-model=dynamic for this file) and clang vectorize; each is compiled for the baseline
// and again for AVX2 and AVX-512, picked once by the CPU, and every variant gives the same bits.
namespace {

[[gnu::always_inline]] inline void fill_keys_body(uint32_t key_lo, size_t n, uint32_t* in,
                                                  uint8_t* bins) {
  for (size_t i = 0; i < n; ++i) {
    const uint32_t k = key_lo + static_cast<uint32_t>(i);
    const uint32_t top = 0u - (k >> 31);  // all ones for the keys of +0 .. +NaN
    in[i] = k ^ ~(top & 0x7FFFFFFFu);     // from_key: k & ~sign there, else ~k
    bins[i] = static_cast<uint8_t>(k >> 24);
  }
}

[[gnu::always_inline]] inline void widen_floats_body(const uint32_t* bits, size_t n, double* out) {
  for (size_t i = 0; i < n; ++i) out[i] = static_cast<double>(std::bit_cast<float>(bits[i]));
}

// The float32 decisions of oracle.cpp without a branch: far_from_midpoint (29 low bits dropped,
// the midpoint pattern 1 << 28, a normal float32 result, biased exponents 897 .. 1150, that does
// not round to infinity) and the results special_result and the interval test settle by their
// exponent alone: NaN (but `keep`, the undecided pattern) and infinities, |y| >= 2^128 (rounds
// to infinity), |y| < 2^-900 (to a signed zero). Rounding to nearest gives each of them.
[[gnu::always_inline]] inline bool round_far_body(const double* approx, size_t n, uint32_t* want,
                                                  uint8_t* undecided, uint64_t keep) {
  constexpr int64_t kHalf = int64_t{1} << 28, kLow = (int64_t{1} << 29) - 1;
  constexpr int64_t kMinExp = 1023 - 126, kMaxExp = 1023 + 127, kTiny = 1023 - 900;
  uint8_t any = 0;
  for (size_t i = 0; i < n; ++i) {
    const auto b = std::bit_cast<int64_t>(approx[i]);
    const int64_t e = (b >> 52) & 0x7ff, rounded_e = ((b + kHalf) >> 52) & 0x7ff;
    const int64_t d = (b & kLow) - kHalf;
    const bool far = (d > (int64_t{1} << 14)) | (d < -(int64_t{1} << 14));
    const bool normal = far & (e >= kMinExp) & (e <= kMaxExp) & (rounded_e <= kMaxExp);
    const bool settled = (e > kMaxExp) | (e < kTiny);
    const bool ok = (normal | settled) & (static_cast<uint64_t>(b) != keep);
    want[i] = std::bit_cast<uint32_t>(static_cast<float>(approx[i]));
    undecided[i] = static_cast<uint8_t>(!ok);
    any |= static_cast<uint8_t>(!ok);
  }
  return any != 0;
}

uint64_t differing_scalar(const uint32_t* a, const uint32_t* b, size_t m) {
  uint64_t mask = 0;
  for (size_t i = 0; i < m; ++i) mask |= static_cast<uint64_t>(a[i] != b[i]) << i;
  return mask;
}

uint64_t differing_base(const uint32_t* a, const uint32_t* b, size_t m) {
  size_t i = 0;
  uint64_t mask = 0;
#if defined(__SSE2__)  // four lanes a compare, which x86-64 has
  for (; i + 4 <= m; i += 4) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a + i));
    const __m128i y = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + i));
    const int eq = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(x, y)));
    mask |= static_cast<uint64_t>(~eq & 0xF) << i;
  }
#endif
  return mask | (i < m ? differing_scalar(a + i, b + i, m - i) << i : 0);
}

void fill_keys_base(uint32_t k, size_t n, uint32_t* in, uint8_t* bins) {
  fill_keys_body(k, n, in, bins);
}
void widen_floats_base(const uint32_t* bits, size_t n, double* out) {
  widen_floats_body(bits, n, out);
}
bool round_far_base(const double* approx, size_t n, uint32_t* want, uint8_t* undecided,
                    uint64_t keep) {
  return round_far_body(approx, n, want, undecided, keep);
}

#if defined(__x86_64__)
#define TS_SWEEP_AVX2 __attribute__((target("avx2")))
#define TS_SWEEP_AVX512 __attribute__((target("avx512f,avx512vl,avx512dq,avx512bw")))

TS_SWEEP_AVX2 void fill_keys_avx2(uint32_t k, size_t n, uint32_t* in, uint8_t* bins) {
  fill_keys_body(k, n, in, bins);
}
TS_SWEEP_AVX2 void widen_floats_avx2(const uint32_t* bits, size_t n, double* out) {
  widen_floats_body(bits, n, out);
}
TS_SWEEP_AVX2 bool round_far_avx2(const double* approx, size_t n, uint32_t* want, uint8_t* u,
                                  uint64_t keep) {
  return round_far_body(approx, n, want, u, keep);
}
TS_SWEEP_AVX2 uint64_t differing_avx2(const uint32_t* a, const uint32_t* b, size_t m) {
  uint64_t mask = 0;
  size_t i = 0;
  for (; i + 8 <= m; i += 8) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + i));
    const __m256i y = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + i));
    const int eq = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(x, y)));
    mask |= static_cast<uint64_t>(~eq & 0xFF) << i;
  }
  return mask | (i < m ? differing_scalar(a + i, b + i, m - i) << i : 0);
}

TS_SWEEP_AVX512 void fill_keys_avx512(uint32_t k, size_t n, uint32_t* in, uint8_t* bins) {
  fill_keys_body(k, n, in, bins);
}
TS_SWEEP_AVX512 void widen_floats_avx512(const uint32_t* bits, size_t n, double* out) {
  widen_floats_body(bits, n, out);
}
TS_SWEEP_AVX512 bool round_far_avx512(const double* approx, size_t n, uint32_t* want, uint8_t* u,
                                      uint64_t keep) {
  return round_far_body(approx, n, want, u, keep);
}
TS_SWEEP_AVX512 uint64_t differing_avx512(const uint32_t* a, const uint32_t* b, size_t m) {
  uint64_t mask = 0;
  size_t i = 0;
  for (; i + 16 <= m; i += 16) {
    const __m512i x = _mm512_loadu_si512(a + i), y = _mm512_loadu_si512(b + i);
    mask |= static_cast<uint64_t>(_mm512_cmpneq_epu32_mask(x, y)) << i;
  }
  return mask | (i < m ? differing_scalar(a + i, b + i, m - i) << i : 0);
}

// 2 = AVX-512, 1 = AVX2, 0 = the baseline: the best the CPU has, or force_level's.
std::atomic<int> g_forced{-1};  // tests set it; the sweep's workers read it
int detected() {
  static const int l = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
                               __builtin_cpu_supports("avx512dq") &&
                               __builtin_cpu_supports("avx512bw")
                           ? 2
                       : __builtin_cpu_supports("avx2") ? 1
                                                        : 0;
  return l;
}
int level() {
  const int forced = g_forced.load(std::memory_order_relaxed);
  return forced >= 0 ? std::min(forced, detected()) : detected();
}
#endif

}  // namespace

#if defined(__x86_64__)
int force_level(int l) {
  g_forced = l;
  return level();
}
void fill_keys(uint32_t key_lo, size_t n, uint32_t* in, uint8_t* bins) {
  const int l = level();
  const auto f = l == 2 ? fill_keys_avx512 : l == 1 ? fill_keys_avx2 : fill_keys_base;
  f(key_lo, n, in, bins);
}
void widen_floats(const uint32_t* bits, size_t n, double* out) {
  const int l = level();
  const auto f = l == 2 ? widen_floats_avx512 : l == 1 ? widen_floats_avx2 : widen_floats_base;
  f(bits, n, out);
}
bool round_far_from_midpoints(const double* approx, size_t n, uint32_t* want, uint8_t* undecided,
                              uint64_t keep) {
  const int l = level();
  const auto f = l == 2 ? round_far_avx512 : l == 1 ? round_far_avx2 : round_far_base;
  return f(approx, n, want, undecided, keep);
}
uint64_t differing_lanes(const uint32_t* a, const uint32_t* b, size_t m) {
  const int l = level();
  const auto f = l == 2 ? differing_avx512 : l == 1 ? differing_avx2 : differing_base;
  return f(a, b, m);
}
#else
int force_level(int) {
  return 0;
}
void fill_keys(uint32_t key_lo, size_t n, uint32_t* in, uint8_t* bins) {
  fill_keys_base(key_lo, n, in, bins);
}
void widen_floats(const uint32_t* bits, size_t n, double* out) {
  widen_floats_base(bits, n, out);
}
bool round_far_from_midpoints(const double* approx, size_t n, uint32_t* want, uint8_t* undecided,
                              uint64_t keep) {
  return round_far_base(approx, n, want, undecided, keep);
}
uint64_t differing_lanes(const uint32_t* a, const uint32_t* b, size_t m) {
  return differing_base(a, b, m);
}
#endif

}  // namespace ts::sweep::lanes
