// The inverse and hyperbolic trigonometric ops, exp2/log2/log10, erfc/erfinv, sinc, frac and the
// activations hardsigmoid/hardswish/mish/log_sigmoid: values worked by hand (or from their closed
// forms), special values, signs of zero, promotion and one gradient per op, in the reference and
// the optimized sets alike.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "cpu_sets_util.h"
#include "test_util.h"
#include "touchstone/touchstone.h"

namespace {

using namespace ts::testing;
using std::numbers::pi;
using ts::Tensor;

TEST(InverseTrig, ValuesSpecialValuesAndSignedZero) {
  each_set([] {
    EXPECT_TENSOR(ts::asin(make(kDouble, {0.5, 1, -1, 2, kNaN})), kDouble, {5},
                  {pi / 6, pi / 2, -pi / 2, kNaN, kNaN}, kF64);
    EXPECT_TENSOR(ts::asin(make(kFloat, {0.5, -0.25})), kFloat, {2}, {pi / 6, -0.25268025514207865},
                  kF32);
    EXPECT_TRUE(signbit_at(ts::asin(make(kFloat, {-0.0})), 0));
    EXPECT_TENSOR(ts::acos(make(kDouble, {0.5, -1, 1, -1.5})), kDouble, {4}, {pi / 3, pi, 0, kNaN},
                  kF64);
    EXPECT_TENSOR(ts::acos(make(kFloat, {0.5, 0})), kFloat, {2}, {pi / 3, pi / 2}, kF32);
    EXPECT_TENSOR(ts::atan(make(kDouble, {1, -1, kInf, -kInf})), kDouble, {4},
                  {pi / 4, -pi / 4, pi / 2, -pi / 2}, kF64);
    EXPECT_TENSOR(ts::atan(make(kFloat, {1, 1e30f})), kFloat, {2}, {pi / 4, pi / 2}, kF32);
    EXPECT_TRUE(signbit_at(ts::atan(make(kDouble, {-0.0})), 0));
    // Integers compute in the default float dtype, as in PyTorch.
    EXPECT_TENSOR(ts::asin(make(kInt, {0, 1})), kFloat, {2}, {0, pi / 2}, kF32);
  });
}

TEST(Hyperbolic, ValuesOverflowAndSignedZero) {
  each_set([] {
    // sinh 1 = (e - 1/e) / 2, cosh 1 = (e + 1/e) / 2.
    EXPECT_TENSOR(ts::sinh(make(kDouble, {1, -1, 0})), kDouble, {3},
                  {1.1752011936438014, -1.1752011936438014, 0}, kF64);
    EXPECT_TENSOR(ts::cosh(make(kDouble, {1, -1, 0})), kDouble, {3},
                  {1.5430806348152437, 1.5430806348152437, 1}, kF64);
    EXPECT_TENSOR(ts::sinh(make(kFloat, {1, 89, -89, 100, kNaN})), kFloat, {5},
                  {1.1752011936438014, 2.2448064095871728e38, -2.2448064095871728e38, kInf, kNaN},
                  kF32);
    EXPECT_TENSOR(ts::cosh(make(kFloat, {1, 89, -100, -kInf})), kFloat, {4},
                  {1.5430806348152437, 2.2448064095871728e38, kInf, kInf}, kF32);
    EXPECT_TRUE(signbit_at(ts::sinh(make(kFloat, {-0.0})), 0));
    // asinh 1 = ln(1 + sqrt 2), acosh 2 = ln(2 + sqrt 3), atanh 1/2 = ln(3) / 2.
    EXPECT_TENSOR(ts::asinh(make(kDouble, {1, -1, kInf})), kDouble, {3},
                  {0.881373587019543, -0.881373587019543, kInf}, kF64);
    EXPECT_TENSOR(ts::acosh(make(kDouble, {2, 1, 0.5, kInf})), kDouble, {4},
                  {1.3169578969248168, 0, kNaN, kInf}, kF64);
    EXPECT_TENSOR(ts::atanh(make(kDouble, {0.5, -0.5, 1, -1, 2})), kDouble, {5},
                  {0.5493061443340549, -0.5493061443340549, kInf, -kInf, kNaN}, kF64);
    EXPECT_TENSOR(ts::asinh(make(kFloat, {1, 3e38f})), kFloat, {2},
                  {0.881373587019543, 89.28999300483437}, kF32);
    EXPECT_TENSOR(ts::acosh(make(kFloat, {2})), kFloat, {1}, {1.3169578969248168}, kF32);
    EXPECT_TENSOR(ts::atanh(make(kFloat, {0.5})), kFloat, {1}, {0.5493061443340549}, kF32);
    EXPECT_TRUE(signbit_at(ts::asinh(make(kFloat, {-0.0})), 0));
    EXPECT_TRUE(signbit_at(ts::atanh(make(kFloat, {-0.0})), 0));
  });
}

TEST(ExpLogBases, PowersAreExact) {
  each_set([] {
    EXPECT_TENSOR(ts::exp2(make(kFloat, {10, -1, 0, -149, 128, -kInf, kNaN})), kFloat, {7},
                  {1024, 0.5, 1, 0x1p-149, kInf, 0, kNaN});
    EXPECT_TENSOR(ts::exp2(make(kDouble, {10, 0.5, -1074, 1024})), kDouble, {4},
                  {1024, std::numbers::sqrt2, 0x1p-1074, kInf}, kF64);
    EXPECT_TENSOR(ts::log2(make(kFloat, {1024, 0.125, 1, 1e-40f})), kFloat, {4},
                  {10, -3, 0, -132.8771315714809}, kF32);
    EXPECT_TENSOR(ts::log2(make(kDouble, {3, 0, -1, kInf})), kDouble, {4},
                  {1.5849625007211562, -kInf, kNaN, kInf}, kF64);
    EXPECT_TENSOR(ts::log10(make(kDouble, {1000, 0.01, 0})), kDouble, {3}, {3, -2, -kInf}, kF64);
    EXPECT_TENSOR(ts::log10(make(kFloat, {1000, 2})), kFloat, {2}, {3, 0.3010299956639812}, kF32);
    EXPECT_TENSOR(ts::exp2(make(kLong, {3})), kFloat, {1}, {8});
  });
}

TEST(Erfc, ValuesAndTheTailWithoutCancellation) {
  each_set([] {
    EXPECT_TENSOR(ts::erfc(make(kDouble, {0, 1, -1, 3, 10, kInf, -kInf})), kDouble, {7},
                  {1, 0.15729920705028513, 1.8427007929497148, 2.2090496998585441e-05,
                   2.088487583762545e-45, 0, 2},
                  kF64);
    // 1 - erf(5) is 0 in float32; erfc(5) = 1.5374597944280348e-12.
    EXPECT_TENSOR(
        ts::erfc(make(kFloat, {1, -1, 3, 5})), kFloat, {4},
        {0.15729920705028513, 1.8427007929497148, 2.2090496998585441e-05, 1.5374597944280348e-12},
        4 * kF32);
  });
}

TEST(Erfinv, InvertsErfUpToTheEndpoints) {
  each_set([] {
    EXPECT_TENSOR(
        ts::erfinv(make(kDouble, {std::erf(0.3), 0.5, 0.9, 0.999, -0.5})), kDouble, {5},
        {0.3, 0.4769362762044699, 1.1630871536766743, 2.3267537655135246, -0.4769362762044699},
        kF64);
    EXPECT_TENSOR(ts::erfinv(make(kDouble, {1, -1, 1.5, kNaN})), kDouble, {4},
                  {kInf, -kInf, kNaN, kNaN});
    EXPECT_TRUE(signbit_at(ts::erfinv(make(kDouble, {-0.0})), 0));
    // Near 1, erfc(erfinv(1 - q)) = q: the residual is taken through erfc.
    const double q = 0x1p-40;
    const double y = values(ts::erfinv(make(kDouble, {1 - q})))[0];
    EXPECT_NEAR(std::erfc(y) / q, 1, 1e-12);
    EXPECT_TENSOR(ts::erfinv(make(kFloat, {0.5, -0.9, 0.999})), kFloat, {3},
                  {0.4769362762044699, -1.1630871536766743, 2.3267537655135246}, 4 * kF32);
  });
}

TEST(Sinc, ValuesZerosAndTheLimitAtZero) {
  each_set([] {
    EXPECT_TENSOR(ts::sinc(make(kDouble, {0.5, 0, -1.5, 1e-300, kInf})), kDouble, {5},
                  {2 / pi, 1, -0.21220659078919378, 1, kNaN}, kF64);
    // The argument is reduced exactly: 0 at every nonzero integer, 1e7 included.
    EXPECT_TENSOR(ts::sinc(make(kFloat, {1, -2, 20, 1e7f, 3e38f})), kFloat, {5}, {0, 0, 0, 0, 0});
    EXPECT_TENSOR(ts::sinc(make(kFloat, {0.5, 1e-40f})), kFloat, {2}, {2 / pi, 1}, kF32);
    EXPECT_TENSOR(ts::sinc(make(kInt, {0})), kFloat, {1}, {1});
  });
}

TEST(Frac, KeepsTheSignAndRefusesIntegers) {
  each_set([] {
    EXPECT_TENSOR(ts::frac(make(kFloat, {-1.5, 2.75, 3, 1e10f, kInf, kNaN})), kFloat, {6},
                  {-0.5, 0.75, 0, 0, kNaN, kNaN});
    EXPECT_TENSOR(ts::frac(make(kDouble, {-0.25})), kDouble, {1}, {-0.25});
    const Tensor x = make(kBFloat16, {2.5});
    x.frac_();
    EXPECT_TENSOR(x, kBFloat16, {1}, {0.5});
    // As ATen: frac is not defined for integers ("frac_cpu" not implemented for 'Int').
    EXPECT_ERROR(ts::frac(make(kInt, {1})), "frac: not implemented for dtype int32");
  });
}

TEST(HardActivations, ValuesBoundariesAndForms) {
  each_set([] {
    // hardsigmoid = relu6(x + 3) / 6; hardswish = x * hardsigmoid(x).
    EXPECT_TENSOR(ts::hardsigmoid(make(kDouble, {1, 0, -3, 3, -4, 4, kNaN})), kDouble, {7},
                  {2.0 / 3, 0.5, 0, 1, 0, 1, kNaN}, kF64);
    EXPECT_TENSOR(ts::hardswish(make(kDouble, {1, -1, 4, -4, kInf})), kDouble, {5},
                  {2.0 / 3, -1.0 / 3, 4, 0, kInf}, kF64);
    EXPECT_TRUE(signbit_at(ts::hardswish(make(kDouble, {-4})), 0));  // -4 * 0 = -0
    // No overflow: hardswish(x) = x above 3.
    EXPECT_TENSOR(ts::hardswish(make(kFloat, {3e38f})), kFloat, {1}, {3e38f});
    const Tensor y = make(kFloat, {1});
    ts::hardswish_(y);
    EXPECT_TENSOR(y, kFloat, {1}, {2.0 / 3}, kF32);
    const Tensor out = make(kFloat, {0});
    ts::hardsigmoid_out(out, make(kFloat, {1}));
    EXPECT_TENSOR(out, kFloat, {1}, {2.0 / 3}, kF32);
    EXPECT_ERROR(ts::hardsigmoid(make(kLong, {1})), "hardsigmoid: not implemented for dtype int64");
  });
}

TEST(SmoothActivations, MishAndLogSigmoid) {
  each_set([] {
    // mish(1) = tanh(ln(1 + e)); mish(-1) = -tanh(ln(1 + 1/e)).
    EXPECT_TENSOR(ts::mish(make(kDouble, {1, -1, 0, 100, kInf})), kDouble, {5},
                  {0.8650983882673103, -0.3034014613741089, 0, 100, kInf}, kF64);
    EXPECT_TENSOR(ts::mish(make(kFloat, {1, -1})), kFloat, {2},
                  {0.8650983882673103, -0.3034014613741089}, kF32);
    // log_sigmoid(x) = -ln(1 + e^-x): -ln 2 at 0, -e^-100 at 100 (no 1 - 1 cancellation), x far
    // below 0.
    EXPECT_TENSOR(ts::log_sigmoid(make(kDouble, {0, 1, 100, -100, -kInf})), kDouble, {5},
                  {-std::numbers::ln2, -0.31326168751822283, -3.720075976020836e-44, -100, -kInf},
                  kF64);
    EXPECT_TENSOR(ts::log_sigmoid(make(kFloat, {1, 50})), kFloat, {2},
                  {-0.31326168751822283, -1.9287498479639178e-22}, kF32);
    const Tensor out = make(kBFloat16, {0});
    ts::log_sigmoid_out(out, make(kBFloat16, {0}));
    EXPECT_TENSOR(out, kBFloat16, {1}, {-0.69140625});  // -ln 2 in bfloat16
  });
}

TEST(UnaryMoreGradients, ByHand) {
  each_set([] {
    const double s = 1 / std::sqrt(0.75);
    EXPECT_NEAR(grad_at([](const Tensor& x) { return ts::asin(x); }, 0.5), s, 1e-14);
    EXPECT_NEAR(grad_at([](const Tensor& x) { return ts::acos(x); }, 0.5), -s, 1e-14);
    EXPECT_NEAR(grad_at([](const Tensor& x) { return ts::atan(x); }, 1), 0.5, 1e-15);
    EXPECT_NEAR(grad_at([](const Tensor& x) { return ts::sinh(x); }, 1), 1.5430806348152437, 1e-14);
    EXPECT_NEAR(grad_at([](const Tensor& x) { return ts::cosh(x); }, 1), 1.1752011936438014, 1e-14);
    EXPECT_NEAR(grad_at([](const Tensor& x) { return ts::asinh(x); }, 1), M_SQRT1_2, 1e-15);
    EXPECT_NEAR(grad_at([](const Tensor& x) { return ts::acosh(x); }, 2), 1 / std::sqrt(3.0),
                1e-15);
    EXPECT_NEAR(grad_at([](const Tensor& x) { return ts::atanh(x); }, 0.5), 4.0 / 3, 1e-14);
    EXPECT_NEAR(grad_at([](const Tensor& x) { return ts::exp2(x); }, 3), 8 * std::numbers::ln2,
                1e-14);
    EXPECT_NEAR(grad_at([](const Tensor& x) { return ts::log2(x); }, 2), 0.5 / std::numbers::ln2,
                1e-15);
    EXPECT_NEAR(grad_at([](const Tensor& x) { return ts::log10(x); }, 10), 0.1 / std::numbers::ln10,
                1e-15);
    EXPECT_NEAR(grad_at([](const Tensor& x) { return ts::erfc(x); }, 0), -2 / std::sqrt(pi), 1e-15);
    // erfinv'(x) = sqrt(pi) / 2 exp(erfinv(x)^2): 1.1125848189719498 at 1/2.
    EXPECT_NEAR(grad_at([](const Tensor& x) { return ts::erfinv(x); }, 0.5), 1.1125848189719498,
                1e-14);
    EXPECT_NEAR(grad_at([](const Tensor& x) { return ts::frac(x); }, -1.5), 1, 0);
    // mish'(1) = t + sigmoid(1) (1 - t^2), t = tanh(ln(1 + e)).
    EXPECT_NEAR(grad_at([](const Tensor& x) { return ts::mish(x); }, 1), 1.0490362200997922, 1e-14);
    EXPECT_NEAR(grad_at([](const Tensor& x) { return ts::log_sigmoid(x); }, 1), 0.2689414213699951,
                1e-15);
  });
}

TEST(UnaryMoreGradients, SincNearZeroAndAtTheBoundaries) {
  each_set([] {
    // sinc'(1/2) = -4 / pi; sinc'(1) = -1; sinc'(0) = 0.
    const auto sinc = [](const Tensor& x) { return ts::sinc(x); };
    EXPECT_NEAR(grad_at(sinc, 0.5), -4 / pi, 1e-14);
    EXPECT_NEAR(grad_at(sinc, 1), -1, 1e-14);
    EXPECT_EQ(grad_at(sinc, 0), 0);
    // float32 at x = 1e-3 (Note [sinc gradient near 0]): -(pi^2 / 3) x + ..., to float accuracy.
    const Tensor x = make(kFloat, {1e-3f}).requires_grad_();
    ts::sinc(x).sum().backward();
    EXPECT_TENSOR(x.grad(), kFloat, {1}, {-0.0032898648867278963}, kF32);
    // hardsigmoid: 1/6 inside (-3, 3), 0 at and beyond the boundaries.
    const auto hs = [](const Tensor& t) { return ts::hardsigmoid(t); };
    EXPECT_NEAR(grad_at(hs, 1), 1.0 / 6, 1e-16);
    EXPECT_EQ(grad_at(hs, 3), 0);
    EXPECT_EQ(grad_at(hs, -3), 0);
    // hardswish: x / 3 + 1/2 on [-3, 3] (ATen 1.13's boundaries: -1/2 at -3, 3/2 at 3), 0 below,
    // 1 above.
    const auto hw = [](const Tensor& t) { return ts::hardswish(t); };
    EXPECT_NEAR(grad_at(hw, 1), 5.0 / 6, 1e-15);
    EXPECT_EQ(grad_at(hw, -3), -0.5);
    EXPECT_EQ(grad_at(hw, 3), 1.5);
    EXPECT_EQ(grad_at(hw, -4), 0);
    EXPECT_EQ(grad_at(hw, 4), 1);
  });
}

// Note [Huge float32 arguments of sin, cos and tan] in reference/trig.cpp: the reference reduces
// float32 values from 2^27 up itself. Its float32 results must be glibc's double rounded to
// float32, bit for bit, and its float64 results within 4 ULPs of glibc's, in every binade (a wrong
// word of 2/pi would show in some), at the inputs nearest multiples of pi/2 in float32 (cos misses
// -1.10047e19 and -1.727e20 in the sweep's table) and at random ones.
TEST(ReferenceTrig, HugeFloat32ArgumentsAsGlibc) {
  ts::KernelSetGuard g("reference");
  std::vector<double> xs = {-1.10047e19f, -1.727e20f,      1.10047e19f,      1.727e20f,
                            0x1p27f,      0x1.fffffep127f, -0x1.fffffep127f, 105414350.0f,
                            3.4e38f,      0x1.921fb6p27f};
  std::mt19937 rng(18);
  for (int e = 27; e <= 127; ++e) {
    const float lo = std::ldexp(1.0f, e), hi = e == 127 ? 0x1.fffffep127f : 2 * lo;
    std::uniform_real_distribution<float> in_binade(lo, hi);
    for (int i = 0; i < 300; ++i) {
      const float v = in_binade(rng);
      xs.push_back(i % 2 == 0 ? v : -v);
    }
  }
  const auto n = static_cast<int64_t>(xs.size());
  const Tensor f32 = make(kFloat, xs), f64 = make(kDouble, xs);
  using Fn = Tensor (*)(const Tensor&);
  using CFn = double (*)(double);
  const std::pair<Fn, CFn> fns[] = {{ts::sin, ::sin}, {ts::cos, ::cos}, {ts::tan, ::tan}};
  for (const auto& [op, c] : fns) {
    const Tensor y32 = op(f32), y64 = op(f64);
    for (int64_t i = 0; i < n; ++i) {
      const double x = xs[static_cast<size_t>(i)], want = c(x);
      ASSERT_EQ(y32.data_ptr<float>()[i], static_cast<float>(want)) << "x = " << x;
      const double got = y64.data_ptr<double>()[i];
      ASSERT_LE(std::fabs(got - want),
                4 * (std::nextafter(std::fabs(want), HUGE_VAL) - std::fabs(want)))
          << "x = " << x;
    }
  }
}

}  // namespace
