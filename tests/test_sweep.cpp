// The exhaustive sweep (conformance/sweep/): the correctly rounded oracle on known values and
// midpoint-adjacent inputs, rounding into the 16-bit formats, binary ops on 16-bit pairs, planted
// errors found with their inputs, planted target- and thread-dependent kernels, the HTML page.
#include <gtest/gtest.h>

#include <unistd.h>

#include <bit>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "conformance/sweep/engine.h"
#include "conformance/sweep/internal.h"
#include "conformance/sweep/lanes.h"
#include "conformance/sweep/oracle.h"
#include "conformance/sweep/oracle_vec.h"
#include "sweep_test_util.h"
#include "touchstone/cpu_capability.h"
#include "touchstone/half.h"
#include "touchstone/parallel.h"
#include "touchstone/touchstone.h"

namespace {

using ts::sweep::correctly_rounded;
using ts::sweep::correctly_rounded_bits;
using ts::sweep::correctly_rounded_mpfr;
using ts::sweep::find_oracle;
using ts::sweep::Format;
using ts::sweep::format_of;
using ts::sweep::format_value;
using ts::sweep::round_to_format;

using sweep_test::bf16;
using sweep_test::f16;
using sweep_test::f32;
using sweep_test::kInf;
using sweep_test::oracle;

TEST(SweepOracle, KnownValues) {
  EXPECT_EQ(oracle("exp", 0.0), 1.0);
  EXPECT_EQ(oracle("log", 1.0), 0.0);
  EXPECT_FALSE(std::signbit(oracle("log", 1.0)));  // log(1) = +0
  EXPECT_EQ(oracle("exp", -kInf), 0.0);
  EXPECT_FALSE(std::signbit(oracle("exp", -kInf)));
  EXPECT_EQ(oracle("exp", kInf), kInf);
  EXPECT_EQ(oracle("log", 0.0), -kInf);
  EXPECT_TRUE(std::isnan(oracle("log", -1.0)));
  EXPECT_TRUE(std::signbit(oracle("sqrt", -0.0)));  // sqrt(-0) = -0
  EXPECT_EQ(oracle("rsqrt", 0.0), kInf);
  EXPECT_EQ(oracle("reciprocal", -0.0), -kInf);
  EXPECT_TRUE(std::signbit(oracle("tanh", -0.0)));
  EXPECT_EQ(oracle("sigmoid", 0.0), 0.5);
  EXPECT_EQ(oracle("erf", kInf), 1.0);
  // ATen computes silu(-inf) = -inf / (1 + inf) = NaN, not the limit -0.
  EXPECT_TRUE(std::isnan(oracle("silu", -kInf)));
  // e = 2.718281828...: float32 0x402DF854; float16 and bfloat16 round it to 2.71875
  // (1392 * 2^-9 and 174 * 2^-6).
  EXPECT_EQ(oracle("exp", 1.0), static_cast<double>(ts::detail::bits_float(0x402DF854u)));
  EXPECT_EQ(oracle("exp", 1.0, f16()), 2.71875);
  EXPECT_EQ(oracle("exp", 1.0, bf16()), 2.71875);
  // Underflow: e^-103 = 1.32 * 2^-149 rounds to the least subnormal, e^-104 = 0.486 * 2^-149
  // to +0.
  EXPECT_EQ(oracle("exp", -103.0), std::ldexp(1.0, -149));
  EXPECT_EQ(oracle("exp", -104.0), 0.0);
  // Overflow: e^88.5 < FLT_MAX = 3.4028235e38 < e^89; float16's max 65504 (ln = 11.0898).
  EXPECT_TRUE(std::isfinite(oracle("exp", 88.5)));
  EXPECT_EQ(oracle("exp", 89.0), kInf);
  EXPECT_TRUE(std::isfinite(oracle("exp", 11.0859375, f16())));
  EXPECT_EQ(oracle("exp", 11.09375, f16()), kInf);
}

TEST(SweepOracle, RoundsTiesToEvenIntoSixteenBitFormats) {
  // float16: 11 bits. 1 + 2^-11 is the midpoint of 1 and 1 + 2^-10: ties to 1 (even).
  EXPECT_EQ(round_to_format(1.0 + std::ldexp(1.0, -11), f16()), 1.0);
  EXPECT_EQ(round_to_format(1.0 + 3 * std::ldexp(1.0, -11), f16()), 1.0 + std::ldexp(1.0, -9));
  EXPECT_EQ(round_to_format(65519.0, f16()), 65504.0);
  EXPECT_EQ(round_to_format(65520.0, f16()), kInf);              // the tie goes to 65536: overflow
  EXPECT_EQ(round_to_format(std::ldexp(1.0, -25), f16()), 0.0);  // half the least subnormal
  EXPECT_EQ(round_to_format(3 * std::ldexp(1.0, -25), f16()), std::ldexp(1.0, -23));
  EXPECT_TRUE(std::signbit(round_to_format(-std::ldexp(1.0, -26), f16())));
  // bfloat16: 8 bits, float32's exponent range.
  EXPECT_EQ(round_to_format(1.0 + std::ldexp(1.0, -8), bf16()), 1.0);
  EXPECT_EQ(round_to_format(1.0 + 3 * std::ldexp(1.0, -8), bf16()), 1.0 + std::ldexp(1.0, -6));
  EXPECT_EQ(round_to_format(std::ldexp(1.0, 128), bf16()), kInf);
}

// Inputs whose double evaluation lies within 2^-40 of a float32 midpoint, where the oracle must
// ask MPFR: its answer equals MPFR's alone, and the double value is indeed that close.
TEST(SweepOracle, MidpointAdjacentInputsAgreeWithMpfr) {
  for (const char* op : {"exp", "log", "sin", "tanh", "gelu", "sigmoid"}) {
    int hard = 0;
    const uint32_t start = ts::detail::float_bits(1.0f);
    for (uint32_t b = start; b < start + (1u << 20); ++b) {
      const double x = ts::detail::bits_float(b);
      const ts::sweep::Rounded r = correctly_rounded(*find_oracle(op), x, f32());
      if (!r.used_mpfr) continue;
      ++hard;
      EXPECT_EQ(r.value, correctly_rounded_mpfr(*find_oracle(op), x, f32()).value) << op << x;
      const double ulp = std::ldexp(1.0, std::ilogb(r.value) - 23);
      const double below = std::fabs(r.approx - (r.value - ulp / 2));
      const double above = std::fabs(r.approx - (r.value + ulp / 2));
      EXPECT_LE(std::min(below, above), std::ldexp(std::fabs(r.approx), -40)) << op << x;
    }
    EXPECT_GT(hard, 0) << op << ": no midpoint-adjacent input among 2^20";
  }
}

// sigmoid(x) = 1/2 + x/4 - x^3/48 + ...; at x = 3 * 2^-23 that is the float32 midpoint
// 1/2 + 1.5 * 2^-24 less 2^-70: the answer is 1/2 + 2^-24. Double lands on the midpoint, and a
// double-then-float rounding ties it to even, 1/2 + 2^-23 (as the reference set does).
TEST(SweepOracle, SigmoidJustBelowAMidpoint) {
  const double x = 3 * std::ldexp(1.0, -23);
  const ts::sweep::Rounded r = correctly_rounded(*find_oracle("sigmoid"), x, f32());
  EXPECT_TRUE(r.used_mpfr);
  EXPECT_EQ(r.value, 0.5 + std::ldexp(1.0, -24));
  EXPECT_EQ(static_cast<double>(static_cast<float>(1.0 / (1.0 + std::exp(-x)))),
            0.5 + std::ldexp(1.0, -23));
}

// The reference set's float32 result of `op` at x (the kernels under test of the next tests).
float reference_at(ts::Tensor (*fn)(const ts::Tensor&), float x) {
  const ts::KernelSetGuard guard("reference");
  return fn(ts::full({1}, x, ts::kFloat)).item<float>();
}

// The reference set now rounds sigmoid(3 * 2^-23) down, to the correctly rounded 1/2 + 2^-24
// (Note [sigmoid, silu and gelu near zero]), and silu of a subnormal: silu(x) = x/2 + x^2/4 - ...,
// x = -3 * 2^-149 gives the midpoint -1.5 * 2^-149 plus 2^-298: -2^-149 (toward zero), which a
// double-then-float rounding ties to even, -2^-148.
TEST(SweepOracle, ReferenceSigmoidAndSiluRoundCorrectlyAtMidpoints) {
  const auto sigmoid = [](const ts::Tensor& t) { return ts::sigmoid(t); };
  const auto silu = [](const ts::Tensor& t) { return ts::silu(t); };
  EXPECT_EQ(reference_at(sigmoid, 3 * std::ldexp(1.0f, -23)), 0.5f + std::ldexp(1.0f, -24));
  EXPECT_EQ(reference_at(sigmoid, -3 * std::ldexp(1.0f, -24)), 0.5f - std::ldexp(1.0f, -25));
  const float tiny = -3 * std::ldexp(1.0f, -149);
  EXPECT_EQ(reference_at(silu, tiny), -std::ldexp(1.0f, -149));
  EXPECT_EQ(static_cast<float>(tiny / 2.0), -std::ldexp(1.0f, -148));  // the double rounding
  EXPECT_EQ(reference_at(sigmoid, 2.0f), static_cast<float>(oracle("sigmoid", 2.0)));
}

// gelu(-6) = -6 Phi(-6) = -5.9195...e-9: 0.5 x (1 + erf(x/sqrt2)) had 1 + erf ~ 2^-29 to a few
// bits. The reference (0.5 x erfc(-x/sqrt2)) is correctly rounded there, the optimized set within
// 7 steps (Note [gelu's negative tail]); the old formula was off by 10^8 steps at -5.54.
TEST(SweepOracle, GeluNegativeTailDoesNotCancel) {
  const auto gelu = [](const ts::Tensor& t) { return ts::gelu(t); };
  for (float x : {-6.0f, -5.5625f, -8.375f, -3.5f, -1.5f, -12.5f, -20.0f}) {
    const auto want = static_cast<float>(oracle("gelu", x));
    EXPECT_EQ(reference_at(gelu, x), want) << x;
    const ts::KernelSetGuard guard("optimized");
    const ts::Tensor y = ts::gelu(ts::full({16}, x, ts::kFloat));  // every lane in the tail
    const auto got = static_cast<int64_t>(ts::detail::float_bits(y[15].item<float>()));
    EXPECT_LE(std::llabs(got - static_cast<int64_t>(ts::detail::float_bits(want))), 7) << x;
  }
  EXPECT_NEAR(oracle("gelu", -6.0), -5.919525870e-9, 2.3e-16);  // half a float32 ULP there
}

// Note [The cheap boundary test]: integer-only rounding agrees with MPFR next to the midpoints
// (the double 2^14 + 1 ULPs either side of one decides; 2^14 ULPs does not) and at binade
// carries and the format's largest finite value.
TEST(SweepOracle, CheapBoundaryTestNearMidpointsAndCarries) {
  const double mid = 1.0 + std::ldexp(1.0, -24);  // a float32 midpoint
  for (int k : {-(1 << 14) - 1, -(1 << 14), 1 << 14, (1 << 14) + 1}) {
    const double y = mid + k * std::ldexp(1.0, -52);
    const double want = k < 0 ? 1.0 : 1.0 + std::ldexp(1.0, -23);
    EXPECT_EQ(correctly_rounded(*find_oracle("sqrt"), y * y, f32()).value, want) << k;
  }
  EXPECT_EQ(oracle("exp", std::log(2.0 - std::ldexp(1.0, -30))), 2.0);  // carries to 2
  const double log_max = std::log(3.4028234663852886e38);               // log(FLT_MAX)
  EXPECT_EQ(oracle("exp", log_max), 3.4028234663852886e38);             // not inf
  EXPECT_EQ(oracle("exp", log_max + std::ldexp(1.0, -24)), kInf);       // past FLT_MAX + ulp/2
}

// Note [The engine's passes in lanes]: the baseline, AVX2 and AVX-512 variants (those this CPU
// runs) give the same bits, those of the scalar definitions; a decided rounding is the interval
// test's (Note [Double first, MPFR where double cannot decide]), and what only MPFR or the
// subnormal grid can decide stays open.
TEST(SweepLanes, EveryLevelGivesTheScalarDecisions) {
  namespace lanes = ts::sweep::lanes;
  const double mid = 1.0 + std::ldexp(1.0, -24);  // a float32 midpoint
  std::vector<double> y = {0.0,
                           -0.0,
                           1e-300,
                           -1e-300,
                           std::ldexp(1.0, -900),
                           std::ldexp(1.0, -901),
                           1e-40,
                           -1e-42,
                           3.4028234663852886e38,
                           3.4028235677973366e38,
                           std::ldexp(1.0, 128),
                           -1e300,
                           kInf,
                           -kInf,
                           std::numeric_limits<double>::quiet_NaN(),
                           ts::sweep::undecided(),
                           mid,
                           -mid};
  for (int k : {-(1 << 14) - 1, -(1 << 14), 1 << 14, (1 << 14) + 1}) {
    y.push_back(mid + k * std::ldexp(1.0, -52));
  }
  uint64_t r = 88172645463325252ull;  // xorshift: doubles of every exponent
  for (int i = 0; i < 5000; ++i) {
    r ^= r << 13, r ^= r >> 7, r ^= r << 17;
    y.push_back(std::bit_cast<double>(r));
  }
  const size_t n = y.size();
  const auto keep = std::bit_cast<uint64_t>(ts::sweep::undecided());
  std::vector<uint32_t> base_want(n), want(n);
  std::vector<uint8_t> base_open(n), open(n);
  lanes::force_level(0);
  lanes::round_far_from_midpoints(y.data(), n, base_want.data(), base_open.data(), keep);
  for (size_t i = 0; i < n; ++i) {
    SCOPED_TRACE(y[i]);
    EXPECT_EQ(base_want[i], ts::detail::float_bits(static_cast<float>(y[i])));
    if (base_open[i] != 0) continue;
    const double d = std::fabs(y[i]) * std::ldexp(1.0, -40);
    if (std::isfinite(y[i]) && y[i] != 0 && std::fabs(y[i]) < std::ldexp(1.0, 128)) {
      EXPECT_EQ(ts::detail::float_bits(static_cast<float>(y[i] - d)), base_want[i]);
      EXPECT_EQ(ts::detail::float_bits(static_cast<float>(y[i] + d)), base_want[i]);
    }
  }
  // Open: 2^-900 (the interval test's), float32 subnormals, the overflow midpoint, undecided(),
  // midpoints and 2^14 double ULPs around one.
  for (size_t i : {4, 6, 7, 9, 15, 16, 17, 19, 20}) EXPECT_EQ(base_open[i], 1) << y[i];
  for (size_t i : {0, 1, 2, 3, 5, 8, 10, 11, 12, 13, 14, 18, 21})
    EXPECT_EQ(base_open[i], 0) << y[i];
  for (int level = 1; level <= 2; ++level) {
    if (lanes::force_level(level) != level) break;
    lanes::round_far_from_midpoints(y.data(), n, want.data(), open.data(), keep);
    EXPECT_EQ(want, base_want) << level;
    EXPECT_EQ(open, base_open) << level;
  }
  for (int level = 0; level <= 2; ++level) {
    if (lanes::force_level(level) != level) break;
    for (uint32_t lo : {0u, 0x7FFFFF00u, 0xFFFFFE00u}) {  // the keys of -NaN, around -0 | +0, +NaN
      std::vector<uint32_t> in(512);
      std::vector<uint8_t> bins(512);
      std::vector<double> wide(512);
      lanes::fill_keys(lo, 512, in.data(), bins.data());
      lanes::widen_floats(in.data(), 512, wide.data());
      for (uint32_t i = 0; i < 512; ++i) {
        ASSERT_EQ(in[i], ts::sweep::detail::from_key(lo + i, 32)) << level << " " << lo + i;
        ASSERT_EQ(bins[i], (lo + i) >> 24);
        const double v = ts::detail::bits_float(in[i]);
        ASSERT_EQ(std::bit_cast<uint64_t>(wide[i]), std::bit_cast<uint64_t>(v)) << in[i];
      }
      for (size_t m : {0, 1, 5, 17, 63, 64}) {
        std::vector<uint32_t> other(in.begin(), in.begin() + 64);
        for (size_t i = 0; i < 64; i += 3) other[i] ^= 1;
        uint64_t naive = 0;
        for (size_t i = 0; i < m; ++i) naive |= static_cast<uint64_t>(in[i] != other[i]) << i;
        EXPECT_EQ(lanes::differing_lanes(in.data(), other.data(), m), naive) << level << " " << m;
      }
    }
  }
  lanes::force_level(-1);
}

// The double shortcut against MPFR alone over spread inputs of every op and format.
TEST(SweepOracle, DoubleShortcutMatchesMpfr) {
  for (std::string_view op : ts::sweep::oracle_op_names()) {
    for (const Format* fmt : {&f32(), &f16(), &bf16()}) {
      for (uint32_t b = 0; b < 0xFFFFFFFFu - 7919u * 4099u; b += 7919u * 4099u) {
        const double x = ts::detail::bits_float(b);
        if (std::isnan(x)) continue;
        const double want = correctly_rounded_mpfr(*find_oracle(op), x, *fmt).value;
        const double got = correctly_rounded(*find_oracle(op), x, *fmt).value;
        EXPECT_TRUE(got == want || (std::isnan(got) && std::isnan(want))) << op << " " << x;
      }
    }
  }
}

// The ops without a C library function: values from their definitions (DLMF, PyTorch's docs).
TEST(SweepOracle, KnownValuesOfComposedOps) {
  // erfinv(1/2) = 0.4769362762044699 (DLMF 7.17); erfinv(+-1) = +-inf; NaN outside [-1, 1].
  EXPECT_EQ(oracle("erfinv", 0.5), static_cast<double>(0.4769362762044699f));
  EXPECT_EQ(oracle("erfinv", -0.5), -static_cast<double>(0.4769362762044699f));
  EXPECT_EQ(oracle("erfinv", 1.0), kInf);
  EXPECT_EQ(oracle("erfinv", -1.0), -kInf);
  EXPECT_TRUE(std::isnan(oracle("erfinv", 1.5)));
  // erfinv(1 - 2^-24) = 3.8325067 (the float32 just below 1: the far tail).
  EXPECT_NEAR(oracle("erfinv", 1.0 - std::ldexp(1.0, -24)), 3.832506856900711, 1e-6);
  // sinc(1/2) = 2 / pi, sinc(0) = 1, a zero of x's sign at nonzero integers, NaN at inf.
  EXPECT_EQ(oracle("sinc", 0.5), static_cast<double>(static_cast<float>(2 / M_PI)));
  EXPECT_EQ(oracle("sinc", 0.0), 1.0);
  EXPECT_EQ(oracle("sinc", 3.0), 0.0);
  EXPECT_FALSE(std::signbit(oracle("sinc", 3.0)));
  EXPECT_TRUE(std::signbit(oracle("sinc", -3.0)));
  EXPECT_TRUE(std::isnan(oracle("sinc", kInf)));
  // frac: x - trunc(x), as ATen: frac(-2.5) = -0.5, frac(-2) = +0, frac(inf) = NaN.
  EXPECT_EQ(oracle("frac", -2.5), -0.5);
  EXPECT_FALSE(std::signbit(oracle("frac", -2.0)));
  EXPECT_TRUE(std::isnan(oracle("frac", kInf)));
  // hardsigmoid = relu6(x + 3) / 6, hardswish = x hardsigmoid(x) (-4 * 0 = -0).
  EXPECT_EQ(oracle("hardsigmoid", 0.0), 0.5);
  EXPECT_EQ(oracle("hardsigmoid", 1.0), static_cast<double>(static_cast<float>(4.0 / 6)));
  EXPECT_EQ(oracle("hardsigmoid", 5.0), 1.0);
  EXPECT_TRUE(std::signbit(oracle("hardswish", -4.0)));
  EXPECT_EQ(oracle("hardswish", 1.0), static_cast<double>(static_cast<float>(4.0 / 6)));
  // mish(1) = tanh(log(1 + e)) = 0.8650983882673103; log_sigmoid(0) = -log 2, (+inf) = +0.
  EXPECT_EQ(oracle("mish", 1.0), static_cast<double>(0.8650983882673103f));
  EXPECT_TRUE(std::isnan(oracle("mish", -kInf)));
  EXPECT_EQ(oracle("log_sigmoid", 0.0), static_cast<double>(static_cast<float>(-M_LN2)));
  EXPECT_EQ(oracle("log_sigmoid", kInf), 0.0);
  EXPECT_FALSE(std::signbit(oracle("log_sigmoid", kInf)));
  EXPECT_EQ(oracle("log_sigmoid", -200.0), -200.0);  // -200 - log1p(e^-200)
}

// The composed ops' double definitions (and lgamma's, digamma's and the activations') against
// MPFR alone, over every float32 binade (erfinv's (-1, 1) holds half of all float32 values).
TEST(SweepOracle, ComposedOpsDoubleShortcutMatchesMpfr) {
  for (const char* op :
       {"erfinv", "sinc", "mish", "log_sigmoid", "hardswish", "frac", "square", "lgamma", "digamma",
        "leaky_relu", "elu", "selu", "softplus", "softsign", "hardtanh"}) {
    for (uint32_t b = 0; b < 0xFFFFFFFFu - 1048573u; b += 1048573u) {
      const double x = ts::detail::bits_float(b);
      if (std::isnan(x)) continue;
      const double want = correctly_rounded_mpfr(*find_oracle(op), x, f32()).value;
      const double got = correctly_rounded(*find_oracle(op), x, f32()).value;
      EXPECT_TRUE(got == want || (std::isnan(got) && std::isnan(want))) << op << " " << x;
    }
  }
}

// Note [The vector double path] in oracle.cpp: libmvec's values decide as the scalar ones do,
// and lie within the 2^-45 the oracle assumes of them, over spread inputs and special values.
TEST(SweepOracle, VectorDoublePathGivesTheScalarPathsBits) {
  std::vector<double> x;
  for (uint32_t b = 0; b < 0xFFFFFFFFu - 65537u; b += 65537u)
    x.push_back(ts::detail::bits_float(b));
  for (double v : {0.0, -0.0, kInf, -kInf, std::nan(""), std::ldexp(1.0, -149), 1.0, -1.0, 0.5})
    x.push_back(v);
  // Either side of Note [Saturated lanes]' thresholds and the exact limits inside them.
  for (float v : {709.7f,     709.8f,      710.0f,      710.1f,       710.5f,      711.0f,  711.1f,
                  -745.1f,    -745.2f,     -746.0f,     -746.1f,      1023.9f,     1024.0f, 1030.1f,
                  -1074.9f,   -1075.1f,    -1080.1f,    27.2f,        27.3f,       28.0f,   28.1f,
                  1.0000001f, -1.0000001f, 0.99999994f, -0.99999994f, -1.0000001f, -0.0f,   2.0f}) {
    x.push_back(v);
    x.push_back(-v);
  }
  const size_t n = x.size();
  for (std::string_view op : ts::sweep::oracle_op_names()) {
    for (const Format* fmt : {&f32(), &f16(), &bf16()}) {
      std::vector<uint32_t> vec_bits(n), scalar_bits(n);
      std::vector<double> vec_y(n), scalar_y(n);
      correctly_rounded_bits(*find_oracle(op), x.data(), n, *fmt, vec_bits.data(), vec_y.data());
      correctly_rounded_bits(*find_oracle(op), x.data(), n, *fmt, scalar_bits.data(),
                             scalar_y.data(), /*vector=*/false);
      for (size_t i = 0; i < n; ++i) {
        const double v = format_value(vec_bits[i], *fmt), s = format_value(scalar_bits[i], *fmt);
        EXPECT_TRUE(vec_bits[i] == scalar_bits[i] || (std::isnan(v) && std::isnan(s)))
            << op << " " << x[i] << ": " << v << " vs " << s;
        if (std::isfinite(scalar_y[i]) && scalar_y[i] != 0 && std::fabs(scalar_y[i]) > 1e-300) {
          EXPECT_LE(std::fabs(vec_y[i] - scalar_y[i]), std::ldexp(std::fabs(scalar_y[i]), -45))
              << op << " " << x[i];
        }
      }
    }
  }
}

// A test kernel set whose float32 exp is correctly rounded except at four planted inputs:
// 0.75 is 2 ULPs above, exp(2) is NaN, exp(100) is FLT_MAX (not inf), exp(kTiny) is -0.
constexpr float kPlanted = 0.75f;
const float kTiny = ts::detail::bits_float(0xC34800FFu);  // -200.0039: in the --quick sample
void planted_exp(const ts::KernelCall& c) {
  const float* in = static_cast<const float*>(c.inputs[0].data_ptr());
  auto* out = static_cast<float*>(c.outputs[0].data_ptr());
  for (int64_t i = 0; i < c.outputs[0].numel(); ++i) {
    out[i] = static_cast<float>(std::exp(static_cast<double>(in[i])));
    if (in[i] == kPlanted) out[i] = ts::detail::bits_float(ts::detail::float_bits(out[i]) + 2);
    if (in[i] == 2.0f) out[i] = std::numeric_limits<float>::quiet_NaN();
    if (in[i] == 100.0f) out[i] = std::numeric_limits<float>::max();
    if (in[i] == kTiny) out[i] = -0.0f;
  }
}

ts::sweep::SweepOptions planted_options() {
  ts::KernelRegistrar("sweep_planted").impl(ts::OpId::exp, ts::kCPU, {ts::kFloat}, planted_exp);
  ts::sweep::SweepOptions o;
  o.ops = {"exp"};
  o.kernels = {"sweep_planted"};
  o.dtypes = {ts::kFloat};
  return o;
}

TEST(SweepEngine, FindsAPlantedTwoUlpErrorWithItsInput) {
  ts::sweep::SweepOptions o = planted_options();
  o.range = std::make_pair(0.5, 1.0);
  o.batch = 1 << 18;  // several batches, split over the threads
  for (int threads : {1, 2}) {
    ts::set_num_threads(threads);
    const std::vector<ts::sweep::SweepRow> rows = ts::sweep::run_sweep(o);
    ASSERT_EQ(rows.size(), 1u);
    const ts::sweep::SweepRow& r = rows[0];
    EXPECT_EQ(r.inputs, (1u << 23) + 1);  // [0.5, 1) and 1.0
    EXPECT_EQ(r.inputs - r.correctly_rounded, 1u);
    EXPECT_EQ(r.max_steps, 2u);
    EXPECT_EQ(r.worst_input, ts::detail::float_bits(kPlanted));
    EXPECT_EQ(r.worst_result, r.worst_expected + 2);
    EXPECT_GT(r.max_ulp, 1.5);
    EXPECT_LT(r.max_ulp, 2.5);
    EXPECT_EQ(r.histogram[2], 1u);  // the "2" bucket
    EXPECT_EQ(r.nan_mismatches + r.inf_mismatches + r.zero_sign_mismatches, 0u);
  }
}

// 32 planted 1-step errors in [0.5, 1), at the inputs whose bits end in 18 ones: the row lists
// the first kMaxListed (16) in input order, however the batches fall to the threads.
void planted_many_exp(const ts::KernelCall& c) {
  const float* in = static_cast<const float*>(c.inputs[0].data_ptr());
  auto* out = static_cast<float*>(c.outputs[0].data_ptr());
  for (int64_t i = 0; i < c.outputs[0].numel(); ++i) {
    out[i] = static_cast<float>(std::exp(static_cast<double>(in[i])));
    if ((ts::detail::float_bits(in[i]) & 0x3FFFFu) == 0x3FFFFu)
      out[i] = ts::detail::bits_float(ts::detail::float_bits(out[i]) + 1);
  }
}

TEST(SweepEngine, ListsTheFirstMissesInInputOrder) {
  ts::KernelRegistrar("sweep_planted_many")
      .impl(ts::OpId::exp, ts::kCPU, {ts::kFloat}, planted_many_exp);
  ts::sweep::SweepOptions o;
  o.ops = {"exp"};
  o.kernels = {"sweep_planted_many"};
  o.dtypes = {ts::kFloat};
  o.range = std::make_pair(0.5, 1.0);
  o.batch = 1 << 16;
  for (int threads : {1, 2}) {
    ts::set_num_threads(threads);
    const ts::sweep::SweepRow r = ts::sweep::run_sweep(o).at(0);
    EXPECT_EQ(r.inputs - r.correctly_rounded, 32u);
    ASSERT_EQ(r.first_misses.size(), ts::sweep::kMaxListed);
    for (uint32_t k = 0; k < ts::sweep::kMaxListed; ++k) {
      EXPECT_EQ(r.first_misses[k].input, 0x3F03FFFFu + k * 0x40000u) << k;
      EXPECT_EQ(r.first_misses[k].result, r.first_misses[k].expected + 1) << k;
    }
  }
}

// --quick (every 256th float32 and the special values) holds all four planted inputs.
TEST(SweepEngine, QuickFindsTheSpecialValueMismatches) {
  ts::sweep::SweepOptions o = planted_options();
  o.quick = true;
  const std::vector<ts::sweep::SweepRow> rows = ts::sweep::run_sweep(o);
  ASSERT_EQ(rows.size(), 1u);
  const ts::sweep::SweepRow& r = rows[0];
  // 2^32 / 256 sampled, and the 14 of the 24 special values not among them (+-0, +-inf, NaN,
  // min normal, 0.5, 1, 2, -FLT_MAX, -(1 - 2^-25) and -(min normal - 2^-149) are).
  EXPECT_EQ(r.inputs, (1u << 24) + 14);
  EXPECT_EQ(r.nan_mismatches, 1u);
  EXPECT_EQ(r.inf_mismatches, 1u);
  EXPECT_EQ(r.zero_sign_mismatches, 1u);
  EXPECT_EQ(r.inputs - r.correctly_rounded, 4u);
  EXPECT_EQ(r.max_steps, 2u);
  EXPECT_EQ(r.worst_input, ts::detail::float_bits(kPlanted));
  ASSERT_TRUE(r.first_special.has_value());
  EXPECT_EQ(*r.first_special, ts::detail::float_bits(kTiny));  // inputs run in value order
}

// A --range runs every value between its ends: float16 -inf .. -0 and +0.
TEST(SweepEngine, RangeRunsEveryValueBetweenItsEnds) {
  ts::sweep::SweepOptions o;
  o.ops = {"sqrt"};
  o.kernels = {"libm"};
  o.dtypes = {ts::kHalf};
  o.range = std::make_pair(-kInf, 0.0);
  const std::vector<ts::sweep::SweepRow> rows = ts::sweep::run_sweep(o);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].inputs, 0x7C00u + 2);                // 0x8000 (-0) .. 0xFC00 (-inf), and +0
  EXPECT_EQ(rows[0].correctly_rounded, rows[0].inputs);  // NaN below zero, ±0 kept
}

TEST(SweepEngine, RejectsUnknownOpsAndDtypes) {
  ts::sweep::SweepOptions o;
  o.ops = {"relu"};
  o.kernels = {"reference"};
  o.dtypes = {ts::kFloat};
  EXPECT_THROW(ts::sweep::run_sweep(o), ts::Error);
  EXPECT_THROW(format_of(ts::kDouble, "sweep: --dtypes"), ts::Error);
}

// --- Binary ops over 16-bit pairs (Note [Binary ops of 16-bit inputs] in oracle.cpp).

double binary(const char* op, double a, double b, const Format& fmt = bf16()) {
  return correctly_rounded(*ts::sweep::find_binary_oracle(op), a, b, fmt).value;
}

TEST(SweepBinaryOracle, KnownValues) {
  const double u = std::ldexp(1.0, -7);  // bfloat16's ULP in [1, 2)
  // 1 + 2^-8 is the midpoint of 1 and 1 + 2^-7: ties to 1 (even); from 1 + 2^-7 the tie goes up.
  EXPECT_EQ(binary("add", 1.0, u / 2), 1.0);
  EXPECT_EQ(binary("add", 1.0 + u, u / 2), 1.0 + 2 * u);
  EXPECT_EQ(binary("add", 1.0, u / 2 + u / 256), 1.0 + u);  // just above the midpoint
  EXPECT_EQ(binary("sub", 1.0, -u / 2), 1.0);
  // hypot(3, 4) = 5 exactly; hypot(inf, NaN) = inf (C99, as ATen); hypot(1, 1) = sqrt 2 rounds
  // to 1.4140625 in bfloat16 (181 * 2^-7).
  EXPECT_EQ(binary("hypot", 3.0, 4.0), 5.0);
  EXPECT_EQ(binary("hypot", kInf, std::nan("")), kInf);
  EXPECT_EQ(binary("hypot", 1.0, 1.0), 1.4140625);
  EXPECT_EQ(binary("add", 1.0, std::ldexp(1.0, -60)), 1.0);  // inexact in double: y = 1
  // 1.0625^2 = 1.125 + 2^-8, a midpoint: ties to 1.125 (even); pow asks MPFR for it.
  EXPECT_EQ(binary("mul", 1.0625, 1.0625), 1.125);
  const ts::sweep::Rounded p =
      correctly_rounded(*ts::sweep::find_binary_oracle("pow"), 1.0625, 2.0, bf16());
  EXPECT_EQ(p.value, 1.125);
  EXPECT_TRUE(p.used_mpfr);
  EXPECT_EQ(binary("pow", 2.0, 0.5), 181.0 / 128);    // sqrt2 = 1.41421 = 181.02 / 128
  EXPECT_EQ(binary("atan2", 1.0, 1.0), 201.0 / 256);  // pi/4 = 0.785398 = 201.06 / 256
  EXPECT_EQ(binary("atan2", 0.0, -0.0), 201.0 / 64);  // pi
  EXPECT_EQ(binary("div", 1.0, 3.0), 171.0 / 512);    // 0.33333 = 170.67 / 512
  // Subnormal quotients: 2^-134 is half the least subnormal: ties to +0; 3 * 2^-134 to 2^-132.
  EXPECT_EQ(binary("div", std::ldexp(1.0, -7), std::ldexp(1.0, 127)), 0.0);
  EXPECT_EQ(binary("div", 3 * std::ldexp(1.0, -7), std::ldexp(1.0, 127)), std::ldexp(1.0, -132));
  // Overflow: bfloat16's max is 2^128 - 2^120; + 2^119 is the threshold and ties up to inf.
  const double max = std::ldexp(1.0, 128) - std::ldexp(1.0, 120);
  EXPECT_EQ(binary("add", max, std::ldexp(1.0, 119)), kInf);
  EXPECT_EQ(binary("add", max, std::ldexp(1.0, 118)), max);
  // Special values as IEEE and ATen (std::pow, std::atan2) give them.
  EXPECT_TRUE(std::isnan(binary("pow", -2.0, 0.5)));
  EXPECT_EQ(binary("pow", std::numeric_limits<double>::quiet_NaN(), 0.0), 1.0);
  EXPECT_EQ(binary("div", 1.0, 0.0), kInf);
  EXPECT_TRUE(std::signbit(binary("div", -0.0, 1.0)));
  EXPECT_FALSE(std::signbit(binary("sub", 1.0, 1.0)));
  EXPECT_TRUE(std::signbit(binary("add", -0.0, -0.0)));
  EXPECT_TRUE(std::isnan(binary("sub", kInf, kInf)));
}

// atan2(y, x) = y/x - (y/x)^3/3 + ...: at y = -0.1396484375, x = 0x7F50 * 2^112 (bfloat16s)
// y/x is exactly -5.5 * 2^-133, a midpoint; the cubic term pulls atan2 toward zero, so the
// answer is -5 * 2^-133, while double atan2 gives the midpoint and ties to even, -6 * 2^-133.
TEST(SweepBinaryOracle, Atan2JustInsideASubnormalMidpoint) {
  const double y = -0.1396484375, x = ts::detail::bf16_bits_to_float(0x7F50);
  ASSERT_EQ(y / x, -5.5 * std::ldexp(1.0, -133));
  EXPECT_EQ(binary("atan2", y, x), -5 * std::ldexp(1.0, -133));
  EXPECT_EQ(round_to_format(std::atan2(y, x), bf16()), -6 * std::ldexp(1.0, -133));
}

// The exact path (add, sub, mul, div) and the double-then-MPFR path (pow, atan2) against MPFR
// alone, over spread pairs of both 16-bit formats.
TEST(SweepBinaryOracle, MatchesMpfr) {
  for (std::string_view name : ts::sweep::binary_oracle_op_names()) {
    const auto& op = *ts::sweep::find_binary_oracle(name);
    for (const Format* fmt : {&f16(), &bf16()}) {
      for (uint32_t ia = 0; ia < 0x10000; ia += 509) {
        for (uint32_t ib = 7; ib < 0x10000; ib += 521) {
          const double a = ts::sweep::format_value(ia, *fmt), b = ts::sweep::format_value(ib, *fmt);
          const double want = correctly_rounded_mpfr(op, a, b, *fmt).value;
          const double got = correctly_rounded(op, a, b, *fmt).value;
          EXPECT_TRUE((got == want && std::signbit(got) == std::signbit(want)) ||
                      (std::isnan(got) && std::isnan(want)))
              << name << "(" << a << ", " << b << "): " << got << " vs " << want;
        }
      }
    }
  }
}

uint32_t bf16_bits(float v) {
  return ts::detail::float_to_bf16_bits(v);
}

// A bfloat16 mul computed in float (exact for these pairs: 16 significant bits) and rounded
// once, except (1.5, 2.5): 2 steps above 3.75.
void planted_mul(const ts::KernelCall& c) {
  const auto* a = static_cast<const ts::BFloat16*>(c.inputs[0].data_ptr());
  const auto* b = static_cast<const ts::BFloat16*>(c.inputs[1].data_ptr());
  auto* out = static_cast<ts::BFloat16*>(c.outputs[0].data_ptr());
  for (int64_t i = 0; i < c.outputs[0].numel(); ++i) {
    const float x = static_cast<float>(a[i]), y = static_cast<float>(b[i]);
    out[i] = ts::BFloat16(x * y);
    if (x == 1.5f && y == 2.5f) {
      out[i] = ts::BFloat16(ts::detail::bf16_bits_to_float(bf16_bits(x * y) + 2));
    }
  }
}

TEST(SweepEngine, FindsAPlantedTwoStepBinaryErrorWithItsPair) {
  ts::KernelRegistrar("sweep_planted_mul")
      .impl(ts::OpId::mul, ts::kCPU, {ts::kBFloat16}, planted_mul);
  ts::sweep::SweepOptions o;
  o.ops = {"mul"};
  o.kernels = {"sweep_planted_mul"};
  o.dtypes = {ts::kFloat, ts::kBFloat16};  // float32: no binary rows
  o.range = std::make_pair(1.0, 4.0);
  o.batch = 4096;
  for (int threads : {1, 2}) {
    ts::set_num_threads(threads);
    const std::vector<ts::sweep::SweepRow> rows = ts::sweep::run_sweep(o);
    ASSERT_EQ(rows.size(), 1u);
    const ts::sweep::SweepRow& r = rows[0];
    EXPECT_EQ(r.arity, 2);
    EXPECT_EQ(r.inputs, 257u * 257u);  // [1, 2) and [2, 4): 128 values each, and 4
    EXPECT_EQ(r.inputs - r.correctly_rounded, 1u);
    EXPECT_EQ(r.max_steps, 2u);
    EXPECT_EQ(r.worst_input, (bf16_bits(1.5f) << 16) | bf16_bits(2.5f));
    EXPECT_EQ(r.worst_expected, bf16_bits(3.75f));
    EXPECT_EQ(r.worst_result, bf16_bits(3.75f) + 2);
    EXPECT_EQ(r.histogram[2], 1u);
    EXPECT_EQ(ts::sweep::input_text(r.worst_input, r.dtype, 2), "(1.5, 2.5)");
    const size_t bin = (0x8000u | bf16_bits(1.5f)) >> 8;  // 1.5's key, top 8 bits
    EXPECT_EQ(r.bin_max_steps[bin], 2u);
  }
}

// --quick takes every 257th pair: both operands run through all 2^16 values.
TEST(SweepEngine, QuickBinarySampleCoversEveryOperand) {
  ts::sweep::SweepOptions o;
  o.quick = true;
  const ts::sweep::detail::InputSpace s = ts::sweep::detail::input_space(bf16(), 2, o);
  EXPECT_EQ(s.base_count, (uint64_t{1} << 32) / 257 + 1);
  std::vector<bool> seen_a(0x10000), seen_b(0x10000);
  for (uint64_t i = 0; i < s.base_count; ++i) {
    seen_a[s.bits(i) >> 16] = true;
    seen_b[s.bits(i) & 0xFFFF] = true;
  }
  EXPECT_EQ(std::count(seen_a.begin(), seen_a.end(), true), 0x10000);
  EXPECT_EQ(std::count(seen_b.begin(), seen_b.end(), true), 0x10000);
  // The special pairs: (1, 2) among them, each pair once.
  const uint32_t one_two = (bf16_bits(1.0f) << 16) | bf16_bits(2.0f);
  EXPECT_EQ(std::count(s.specials.begin(), s.specials.end(), one_two), 1);
}

// --- SIMD targets and thread counts (Note [Targets and threads in one process]).

// float32 exp, rounded from double, one step up at 1.5 on the worst supported target only (sse4
// where the build compiles no scalar target: Note [Highway targets]).
void target_planted_exp(const ts::KernelCall& c) {
  const float* in = static_cast<const float*>(c.inputs[0].data_ptr());
  auto* out = static_cast<float*>(c.outputs[0].data_ptr());
  const bool worst = ts::cpu::capability() == ts::cpu::supported_capabilities().front();
  for (int64_t i = 0; i < c.outputs[0].numel(); ++i) {
    out[i] = static_cast<float>(std::exp(static_cast<double>(in[i])));
    if (worst && in[i] == 1.5f) out[i] = ts::detail::bits_float(ts::detail::float_bits(out[i]) + 1);
  }
}

// float32 exp over ts::parallel_for chunks, one step up at the first element of every chunk
// but the first: the result depends on the thread count.
void thread_planted_exp(const ts::KernelCall& c) {
  const float* in = static_cast<const float*>(c.inputs[0].data_ptr());
  auto* out = static_cast<float*>(c.outputs[0].data_ptr());
  ts::parallel_for(0, c.outputs[0].numel(), 1, [&](int64_t b0, int64_t b1) {
    for (int64_t i = b0; i < b1; ++i) out[i] = static_cast<float>(std::exp(double{in[i]}));
    if (b0 != 0) out[b0] = ts::detail::bits_float(ts::detail::float_bits(out[b0]) + 1);
  });
}

ts::sweep::SweepOptions compare_options(const char* set) {
  ts::sweep::SweepOptions o;
  o.ops = {"exp"};
  o.kernels = {set};
  o.dtypes = {ts::kFloat};
  o.range = std::make_pair(1.0, 2.0);  // 2^23 + 1 inputs
  return o;
}

TEST(SweepCompare, FindsAPlantedTargetDependentResult) {
  ts::KernelRegistrar("sweep_target_planted")
      .impl(ts::OpId::exp, ts::kCPU, {ts::kFloat}, target_planted_exp);
  ts::sweep::SweepOptions o = compare_options("sweep_target_planted");
  o.targets = {"all"};
  const std::string before = ts::cpu::capability();
  const std::vector<std::string> supported = ts::cpu::supported_capabilities();  // worst first
  if (supported.size() < 2) GTEST_SKIP() << "one SIMD target (a sanitizer build compiles one)";
  const std::vector<ts::sweep::CompareRow> rows = ts::sweep::run_compare(o);
  EXPECT_EQ(ts::cpu::capability(), before);  // restored
  ASSERT_EQ(rows.size(), supported.size() - 1);
  for (const ts::sweep::CompareRow& r : rows) {
    EXPECT_EQ(r.baseline, supported.back() + " x1");
    EXPECT_EQ(r.inputs, (1u << 23) + 1);
    if (r.config != supported.front() + " x1") {
      EXPECT_EQ(r.differing, 0u) << r.config;
      continue;
    }
    EXPECT_EQ(r.differing, 1u);
    EXPECT_EQ(r.nan_only, 0u);
    ASSERT_TRUE(r.first_input.has_value());
    EXPECT_EQ(*r.first_input, ts::detail::float_bits(1.5f));
    EXPECT_EQ(r.first_baseline, ts::detail::float_bits(static_cast<float>(std::exp(1.5))));
    EXPECT_EQ(r.first_config, r.first_baseline + 1);
  }
  EXPECT_EQ(rows.back().config, supported.front() + " x1");
}

// Batches of 2^20, cut by parallel_for into 4 pieces a thread (Note [Claimed pieces] in
// lib/src/parallel.cpp): 2 threads into 8 of 2^17 (first cut at input 1 + 2^17 * 2^-23 =
// 1.015625, 7 cuts a batch), 3 threads into 12 of ceil(2^20 / 12) = 87382 (11 cuts); 8 full
// batches, the last (one input) uncut.
TEST(SweepCompare, FindsAPlantedThreadDependentResult) {
  ts::KernelRegistrar("sweep_thread_planted")
      .impl(ts::OpId::exp, ts::kCPU, {ts::kFloat}, thread_planted_exp);
  ts::sweep::SweepOptions o = compare_options("sweep_thread_planted");
  o.threads = {1, 2, 3};
  ts::set_num_threads(2);
  const std::vector<ts::sweep::CompareRow> rows = ts::sweep::run_compare(o);
  EXPECT_EQ(ts::get_num_threads(), 2);  // restored
  ASSERT_EQ(rows.size(), 2u);
  const std::string target = ts::cpu::capability();
  EXPECT_EQ(rows[0].baseline, target + " x1");
  EXPECT_EQ(rows[0].config, target + " x2");
  EXPECT_EQ(rows[0].differing, 8u * 7);
  ASSERT_TRUE(rows[0].first_input.has_value());
  EXPECT_EQ(*rows[0].first_input, ts::detail::float_bits(1.015625f));
  EXPECT_EQ(rows[0].first_config, rows[0].first_baseline + 1);
  EXPECT_EQ(rows[1].config, target + " x3");
  EXPECT_EQ(rows[1].differing, 8u * 11);
  ASSERT_TRUE(rows[1].first_input.has_value());
  EXPECT_EQ(*rows[1].first_input, ts::detail::float_bits(1.0f + 87382 * std::ldexp(1.0f, -23)));
}

TEST(SweepCompare, RejectsAnUnknownTarget) {
  ts::sweep::SweepOptions o = compare_options("reference");
  o.targets = {"avx1024"};
  EXPECT_THROW(ts::sweep::run_compare(o), ts::Error);
}

// --- The HTML page.

std::string read_all(const std::filesystem::path& p) {
  std::ifstream f(p);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

TEST(SweepHtml, PlotsTheErrorPerInputBinAndWritesAtomically) {
  ts::sweep::SweepOptions o = planted_options();
  o.range = std::make_pair(0.5, 1.0);
  const std::vector<ts::sweep::SweepRow> rows = ts::sweep::run_sweep(o);
  ASSERT_EQ(rows.size(), 1u);
  // Bin 0x80 | 0x3F = 191 holds 0.5 .. 2 (0x3F000000 .. 0x3FFFFFFF): the whole range.
  EXPECT_EQ(rows[0].bin_inputs[191], (1u << 23) + 1);
  EXPECT_EQ(rows[0].bin_inputs[190] + rows[0].bin_inputs[192], 0u);
  EXPECT_EQ(rows[0].bin_max_steps[191], 2u);
  const std::string html = ts::sweep::sweep_to_html(o, rows);
  EXPECT_NE(html.find("<svg class='sweep-plot'"), std::string::npos);
  EXPECT_NE(html.find("8388609 inputs, max 2 steps, 0 special mismatches"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("http://www.w3.org/2000/svg"), html.find("http"));  // no other URL

  const auto dir =
      std::filesystem::temp_directory_path() / ("ts_sweep_html_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = dir / "sweep.html";
  { std::ofstream(path) << "old"; }
  ts::sweep::write_sweep_html(path.string(), o, rows, {});
  EXPECT_EQ(read_all(path), html);  // replaced whole
  size_t entries = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++entries;
  EXPECT_EQ(entries, 1u);  // the temporary file was renamed, none left behind
  EXPECT_THROW(ts::sweep::write_sweep_html((dir / "no/such/dir.html").string(), o, rows, {}),
               ts::Error);
  std::filesystem::remove_all(dir);
}

}  // namespace
