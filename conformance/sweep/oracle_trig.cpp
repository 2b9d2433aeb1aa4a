// The oracle's sin and cos with float32 arguments reduced exactly (oracle_vec.h).
#include <mpfr.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "conformance/sweep/oracle_vec.h"

namespace ts::sweep {

// Note [Exact reduction of float32 arguments]
// glibc reduces a huge argument of sin and cos by Payne-Hanek in double (libmvec's lanes slow
// down from 2^23 and run at the scalar function's pace from 2^26): about 65 ns an input, and 41%
// of the float32 inputs are beyond 2^23. A float32 x is m 2^e with an integer m < 2^24, so |x|
// (2/pi) mod 4 needs only the bits b_i of 2/pi = sum_i b_i 2^-i from i = e - 1 on (m 2^(e-i) is a
// multiple of 4 for i <= e - 2). With W the 128 bits b_(e-1) .. b_(e+126) as an integer, |x| (2/pi)
// mod 4 = (m W mod 2^128) 2^-126 + d, where the bits left out give 0 <= d < m 2^-126 < 2^-102.
// Rounded to k + f (k an integer, |f| <= 1/2): |x| = k pi/2 + r, r = f pi/2. In every binade the
// float32 input nearest a multiple of pi/2 has |f| > 2^-29.9 (a continued-fraction bound; the test
// asserts it); below 2^-42 r would be undecided() and MPFR would decide. So d < 2^-60 |f|; f's
// leading 64 bits to a double, times pi/2 in double, add three roundings: r is within 2^-51 of
// its exact value relatively. sin r and cos r (|r| <= pi/4) pass that on at most 1:1 (r cos r /
// sin r <= 1, r sin r / cos r < 1), the C function adds its few double ULPs: within 2^-48 of
// the result, inside the 2^-45 of Note [Double first, MPFR where double cannot decide] in
// oracle.cpp. k mod 4 picks +-sin r or +-cos r. The bits of 2/pi come from MPFR, once. This costs
// about 25 ns an input (reduce, then libmvec's sin and cos of the reduced batch). tan keeps
// libmvec's: its vector tan reduces huge arguments in its lanes, about 7 ns an input.
namespace {

constexpr double kReduceFrom = 0x1p23;  // libmvec's own reduction is fast below
constexpr int kWords = 4;               // b_1 .. b_256: a float32 window ends by b_230

// The 64-bit words of 2/pi's fraction: word j holds b_(64j+1) .. b_(64j+64).
const uint64_t* two_over_pi_words() {
  static const auto words = [] {
    std::vector<uint64_t> w(kWords);
    mpfr_t t;
    mpfr_init2(t, 64 * kWords + 64);
    mpfr_const_pi(t, MPFR_RNDN);
    mpfr_ui_div(t, 2, t, MPFR_RNDN);
    for (uint64_t& word : w) {
      mpfr_mul_2ui(t, t, 64, MPFR_RNDN);  // exact
      word = mpfr_get_ui(t, MPFR_RNDZ);
      mpfr_sub_ui(t, t, word, MPFR_RNDN);  // exact: the fraction
    }
    mpfr_clear(t);
    return w;
  }();
  return words.data();
}

// b_s .. b_(s+127) as an integer (b_i = 0 for i < 1).
unsigned __int128 window(int s) {
  const uint64_t* w = two_over_pi_words();
  const int shift_in = s < 1 ? 1 - s : 0;
  const int o = s < 1 ? 0 : s - 1;  // the first bit's offset from b_1
  const int j = o / 64, sh = o % 64;
  const auto at = [&](int k) -> uint64_t {
    const uint64_t hi = w[k] << sh;
    return sh == 0 ? hi : hi | (w[k + 1] >> (64 - sh));
  };
  const unsigned __int128 v = (static_cast<unsigned __int128>(at(j)) << 64) | at(j + 1);
  return v >> shift_in;
}

}  // namespace

namespace {

double pow2(int k) {  // 2^k for a normal double
  const uint64_t bits = static_cast<uint64_t>(1023 + k) << 52;
  double v = 0;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

// reduce_float32_argument for |x| >= kReduceFrom, x a float32 value.
inline void reduce(double x, int& quadrant, double& r) {
  uint32_t bits = 0;
  const float a = std::fabs(static_cast<float>(x));
  std::memcpy(&bits, &a, sizeof bits);
  const uint64_t m = (bits & 0x7fffffu) | 0x800000u;  // a = m 2^e, normal
  const int e = static_cast<int>(bits >> 23) - 150;
  const unsigned __int128 p = m * window(e - 1);  // mod 2^128
  const unsigned __int128 half = static_cast<unsigned __int128>(1) << 125;
  const unsigned __int128 q = p + half;  // k = round(p 2^-126), f = p 2^-126 - k
  quadrant = static_cast<int>(q >> 126);
  const unsigned __int128 low = q & ((half << 1) - 1);  // (f + 1/2) 2^126
  const bool negative = low < half;
  const unsigned __int128 v = negative ? half - low : low - half;  // |f| 2^126
  const auto hi = static_cast<uint64_t>(v >> 64);
  if (hi < (uint64_t{1} << 20)) {  // |f| < 2^-42
    r = undecided();
    return;
  }
  const int lz = __builtin_clzll(hi);
  const auto top = static_cast<uint64_t>((v << lz) >> 64);  // |f|'s leading 64 bits
  const double f = static_cast<double>(top) * pow2(-62 - lz);
  r = (negative ? -f : f) * (M_PI / 2);
}

inline bool reducible(double x) {
  const double a = std::fabs(x);
  return a >= kReduceFrom && a != HUGE_VAL && static_cast<double>(static_cast<float>(a)) == a;
}

}  // namespace

bool reduce_float32_argument(double x, int& quadrant, double& r) {  // oracle_vec.h
  if (!reducible(x)) return false;
  reduce(x, quadrant, r);
  return true;
}

namespace {

// sin (or, kCos, cos) of x = sign (k pi/2 + r) from sin r and cos r.
template <bool kCos>
double combine(double x, int k, double s, double c) {
  if constexpr (kCos) k += 1;  // cos(t) = sin(t + pi/2), an even function
  const double v = (k & 1) ? c : s, y = (k & 2) ? -v : v;
  return std::signbit(x) && !kCos ? -y : y;
}

template <bool kCos>
void trig_staged(const double* x, double* y, size_t n, const Math& m) {
  thread_local std::vector<double> small, r, s, c;
  thread_local std::vector<size_t> at;
  thread_local std::vector<int> quadrant;
  for (auto* v : {&small, &r, &s, &c}) v->resize(n);
  at.resize(n);
  quadrant.resize(n);
  size_t count = 0;  // the reduced inputs: at[j], quadrant[j], r[j] for j < count
  for (size_t i = 0; i < n; ++i) {
    small[i] = x[i];
    if (!reducible(x[i])) continue;
    reduce(x[i], quadrant[count], r[count]);
    small[i] = 0;
    at[count++] = i;
  }
  (kCos ? m.cos : m.sin)(small.data(), y, n);
  m.sin(r.data(), s.data(), count);
  m.cos(r.data(), c.data(), count);
  for (size_t j = 0; j < count; ++j) {
    const size_t i = at[j];
    y[i] = is_undecided(r[j]) ? undecided() : combine<kCos>(x[i], quadrant[j], s[j], c[j]);
  }
}

}  // namespace

void sin_staged(const double* x, double* y, size_t n, const Math& m) {
  trig_staged<false>(x, y, n, m);
}
void cos_staged(const double* x, double* y, size_t n, const Math& m) {
  trig_staged<true>(x, y, n, m);
}

}  // namespace ts::sweep
