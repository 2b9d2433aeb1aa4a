// sin, cos and tan for the reference's formulas (trig.h).
#include "trig.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace ts::reference {
namespace {

// Note [Huge float32 arguments of sin, cos and tan]
// From |x| = 105414350 on glibc reduces x modulo pi/2 by a general Payne-Hanek in double, about
// 45 ns an input, and 4 in 10 float32 values lie beyond. A float32 value is m 2^e with an integer
// m < 2^24, so |x| (2/pi) mod 4 needs only the 128 bits of 2/pi from b_(e-1) on (b_i the bits
// after the point; conformance/sweep/oracle_trig.cpp's Note [Exact reduction of float32
// arguments] derives it): k + f with k mod 4 the quadrant and |f| in (2^-30, 1/2], f known to
// 2^-70 relatively. r = f pi/2 is then rounded once, and glibc's sin, cos or tan of r (fast for
// |r| <= pi/4) is within about 2 double ULPs of the exact value, as glibc's own within 1. To keep
// every float32, float16 and bfloat16 result the same as glibc's, that value is used only where
// it lies more than 16 of its ULPs from every number of 25 significant bits (the values and the
// midpoints of those formats): no rounding into them can then tell the two apart. Elsewhere
// (about 1 input in 2^23) and in float64 results, glibc's value is computed: float64 outputs of
// huge float32-valued inputs may differ from glibc's in the last bit.

// The bits of 2/pi after the point, 64 a word: b_1 .. b_256 (a wrong one fails
// ReferenceTrig.HugeFloat32ArgumentsAsGlibc).
constexpr uint64_t kTwoOverPi[] = {0xA2F9836E4E441529, 0xFC2757D1F534DDC0, 0xDB6295993C439041,
                                   0xFE5163ABDEBBC561};
constexpr double kHugeFrom = 0x1p27;  // glibc's own reduction is fast below 105414350
constexpr double kPiOver2Hi = 0x1.921fb54442d18p0, kPiOver2Lo = 0x1.1a62633145c07p-54;

// |x| = k pi/2 + r for a float32 value |x| >= 2^27: returns k mod 4, r rounded once.
int reduce(double x, double& r) {
  const auto a = static_cast<float>(std::fabs(x));
  uint32_t bits = 0;
  std::memcpy(&bits, &a, sizeof bits);
  const uint64_t m = (bits & 0x7fffffu) | 0x800000u;  // |x| = m 2^e, e >= 4
  const int e = static_cast<int>(bits >> 23) - 150;
  const int o = e - 2, j = o / 64, sh = o % 64;  // b_(e-1) is bit o of the words
  const auto word = [&](int i) {
    return sh == 0 ? kTwoOverPi[i] : kTwoOverPi[i] << sh | kTwoOverPi[i + 1] >> (64 - sh);
  };
  using U128 = unsigned __int128;
  const U128 w = static_cast<U128>(word(j)) << 64 | word(j + 1);
  const U128 half = static_cast<U128>(1) << 125;
  const U128 q = m * w + half;  // (k + f + 1/2) 2^126 mod 2^128
  const int k = static_cast<int>(q >> 126);
  const U128 low = q & ((half << 1) - 1);
  const bool negative = low < half;
  const U128 v = negative ? half - low : low - half;  // |f| 2^126, at least 2^95
  const int lz = __builtin_clzll(static_cast<uint64_t>(v >> 64));
  const U128 t = v << lz;  // |f| = t 2^(-126-lz)
  const auto hi = static_cast<uint64_t>(t >> 64), lo = static_cast<uint64_t>(t);
  const double scale = std::bit_cast<double>(static_cast<uint64_t>(1023 - 126 - lz) << 52);
  const double fh = static_cast<double>(hi >> 11) * 0x1p75 * scale;  // 53 bits, exact
  const double fl = (static_cast<double>(hi & 0x7ff) * 0x1p64 + static_cast<double>(lo)) * scale;
  const double ph = fh * kPiOver2Hi;
  const double pl = std::fma(fh, kPiOver2Hi, -ph) + (fh * kPiOver2Lo + fl * kPiOver2Hi);
  r = negative ? -(ph + pl) : ph + pl;
  return k;
}

// y lies more than 16 ULPs from every number of 25 significant bits.
bool clear_of_boundaries(double y) {
  uint64_t bits = 0;
  std::memcpy(&bits, &y, sizeof bits);
  const uint64_t low = bits & ((uint64_t{1} << 28) - 1);
  return low > 16 && low < (uint64_t{1} << 28) - 16;
}

bool huge_float32(double x) {
  const double a = std::fabs(x);
  return a >= kHugeFrom && a != HUGE_VAL && static_cast<double>(static_cast<float>(a)) == a;
}

enum class Trig { kSin, kCos, kTan };

template <Trig kFn>
double trig(double x) {
  if (!huge_float32(x)) {
    return kFn == Trig::kSin ? std::sin(x) : kFn == Trig::kCos ? std::cos(x) : std::tan(x);
  }
  double r = 0;
  int k = reduce(x, r);
  double y = 0;
  if constexpr (kFn == Trig::kTan) {
    y = (k & 1) ? -1 / std::tan(r) : std::tan(r);
  } else {
    if constexpr (kFn == Trig::kCos) k += 1;  // cos t = sin(t + pi/2)
    y = (k & 1) ? std::cos(r) : std::sin(r);
    if (k & 2) y = -y;
  }
  if (kFn != Trig::kCos && x < 0) y = -y;  // sin and tan are odd
  if (clear_of_boundaries(y)) return y;
  return kFn == Trig::kSin ? std::sin(x) : kFn == Trig::kCos ? std::cos(x) : std::tan(x);
}

}  // namespace

double sin_of(double x) {
  return trig<Trig::kSin>(x);
}
double cos_of(double x) {
  return trig<Trig::kCos>(x);
}
double tan_of(double x) {
  return trig<Trig::kTan>(x);
}

}  // namespace ts::reference
