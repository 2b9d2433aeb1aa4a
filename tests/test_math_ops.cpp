// The math ops of issue 16 (square, lgamma, digamma, isinf, isfinite, nan_to_num, hypot, copysign,
// nextafter, fmod, floor_divide, xlogy, logaddexp, logaddexp2, heaviside, clamp_min, clamp_max,
// isclose): values worked by hand or from closed forms, special values, signs of zero, promotion,
// errors and gradients by hand, in the reference and the optimized sets alike.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <numbers>

#include "cpu_sets_util.h"
#include "test_util.h"
#include "touchstone/touchstone.h"

namespace {

using namespace ts::testing;
using std::numbers::pi;
using ts::Tensor;

constexpr double kEuler = 0.5772156649015329;

// The gradients of a binary op at (x, y) (float64), by autograd.
template <class F>
std::pair<double, double> grads_at(F op, double x, double y) {
  const Tensor a = make(kDouble, {x}).requires_grad_();
  const Tensor b = make(kDouble, {y}).requires_grad_();
  op(a, b).sum().backward();
  return {values(a.grad())[0], values(b.grad())[0]};
}

TEST(MathSquare, PowerOfTwoWithItsPromotion) {
  each_set([] {
    EXPECT_TENSOR(ts::square(make(kFloat, {3, -1.5, -0.0, kInf})), kFloat, {4}, {9, 2.25, 0, kInf});
    EXPECT_FALSE(signbit_at(ts::square(make(kDouble, {-0.0})), 0));
    // Integers stay integers and wrap (12^2 = 144 = -112 in int8); bool gives int64 (ATen's
    // pow(self, 2): the int Scalar promotes bool).
    EXPECT_TENSOR(ts::square(make(kChar, {12, -3})), kChar, {2}, {-112, 9});
    EXPECT_TENSOR(ts::square(make(kBool, {1, 0})), kLong, {2}, {1, 0});
    Tensor x = make(kInt, {4});
    x.square_();
    EXPECT_TENSOR(x, kInt, {1}, {16});
    EXPECT_NEAR(grad_at([](const Tensor& t) { return ts::square(t); }, 3), 6, 0);
  });
}

TEST(MathGamma, LgammaAndDigammaValuesAndPoles) {
  each_set([] {
    // lgamma(1/2) = log(sqrt(pi)); lgamma(3) = log 2; lgamma(-1/2) = log(2 sqrt(pi)).
    EXPECT_TENSOR(ts::lgamma(make(kDouble, {0.5, 1, 2, 3, -0.5})), kDouble, {5},
                  {0.5723649429247001, 0, 0, std::numbers::ln2, 1.2655121234846454}, kF64);
    EXPECT_TENSOR(ts::lgamma(make(kFloat, {0.5, 0, -0.0, -2, kInf, -kInf, kNaN})), kFloat, {7},
                  {0.5723649429247001, kInf, kInf, kInf, kInf, kInf, kNaN}, kF32);
    // digamma(1) = -gamma, digamma(1/2) = -gamma - 2 ln 2, digamma(2) = 1 - gamma,
    // digamma(-1/2) = digamma(3/2) = digamma(1/2) + 2.
    EXPECT_TENSOR(ts::digamma(make(kDouble, {1, 0.5, 2, -0.5})), kDouble, {4},
                  {-kEuler, -kEuler - 2 * std::numbers::ln2, 1 - kEuler, 0.03648997397857652},
                  kF64);
    // Poles: digamma(+-0) = -+inf (current PyTorch), NaN at the negative integers.
    EXPECT_TENSOR(ts::digamma(make(kFloat, {1, 0, -0.0, -1, kInf, -kInf})), kFloat, {6},
                  {-kEuler, -kInf, kInf, kNaN, kInf, kNaN}, kF32);
    // Integers compute in the default float dtype.
    EXPECT_TENSOR(ts::lgamma(make(kInt, {3})), kFloat, {1}, {std::numbers::ln2}, kF32);
  });
}

// op over a float32 tensor of n elements cycling through (x, expected) cases, so that every path
// of a lane kernel meets the others within a vector and the tail: each value within kF32 of its
// expected one, and the same bits as the element gets alone. Returns the results.
std::vector<double> expect_in_lanes(const std::function<Tensor(const Tensor&)>& op,
                                    const std::vector<std::pair<double, double>>& cases,
                                    int64_t n) {
  std::vector<double> x, want;
  for (int64_t i = 0; i < n; ++i) {
    x.push_back(cases[i % cases.size()].first);
    want.push_back(cases[i % cases.size()].second);
  }
  const Tensor got = op(make(kFloat, x));
  EXPECT_TENSOR(got, kFloat, {n}, want, kF32);
  const std::vector<double> all = values(got);
  for (int64_t i = 0; i < n; ++i) {
    const double alone = values(op(make(kFloat, {x[i]})))[0];
    EXPECT_TRUE(alone == all[i] || (std::isnan(alone) && std::isnan(all[i]))) << "x = " << x[i];
  }
  return all;
}

// float32 digamma runs whole vectors in double lanes and sends x <= 0, NaN and +inf to a scalar
// path (Note [digamma in double lanes]): a 45-element tensor mixes them within every vector and
// the tail; each value is worked by hand, and each element's bits are those it gets alone.
TEST(MathGamma, DigammaInLanesTakesSpecialValuesAnywhere) {
  each_set([] {
    const double ln2 = std::numbers::ln2;
    // psi(x + 1) = psi(x) + 1/x from psi(1/2), psi(1) and psi(-1/2); psi(100) by its series.
    const std::vector<std::pair<double, double>> cases = {
        {1, -kEuler},
        {0.5, -kEuler - 2 * ln2},
        {0, -kInf},
        {2, 1 - kEuler},
        {-0.5, 0.03648997397857652},
        {1.5, 0.03648997397857652},
        {kNaN, kNaN},
        {10, 2.8289682539682538 - kEuler},
        {-1.5, 0.03648997397857652 + 2.0 / 3},
        {0.1, -10.423754940411076},
        {8, 2.5928571428571425 - kEuler},
        {kInf, kInf},
        {-2.5, 0.03648997397857652 + 2.0 / 3 + 0.4},
        {100, 4.600161852738087},
        {-3, kNaN},
        {-0.0, kInf},
        {1e-30, -1e30},
        {-kInf, kNaN},
    };
    expect_in_lanes([](const Tensor& t) { return ts::digamma(t); }, cases, 45);
  });
}

// float32 lgamma in double lanes (Note [lgamma in double lanes]): its zeros' series, Stirling's
// side, and the C library's lanes mixed within every vector and the tail; values from closed
// forms (Gamma(1/2) = sqrt(pi), Gamma(x + 1) = x Gamma(x)) or 30-digit mpmath (1 + 2^-10,
// 2 - 2^-12, 1 - 2^-20, 0.75, 1.25, 1.75, 2.25), each element's bits those it gets alone.
TEST(MathGamma, LgammaInLanesTakesSpecialValuesAnywhere) {
  each_set([] {
    const double half = 0.57236494292470009;  // log sqrt(pi)
    const std::vector<std::pair<double, double>> cases = {
        {1, 0},
        {0.5, half},
        {0, kInf},
        {2, 0},
        {1.5, half - std::numbers::ln2},
        {-0.5, 1.2655121234846454},
        {kNaN, kNaN},
        {2.5, 0.28468287047291916},
        {1.0009765625, -0.00056290317999120463},
        {1.999755859375, -0.00010319961029799209},
        {0.99999904632568359375, 5.5047650267370524e-7},
        {-2.5, -0.056243716497674051},
        {0.75, 0.20328095143129537},
        {1.25, -0.098271836421813161},
        {kInf, kInf},
        {1.75, -0.084401121020485556},
        {2.25, 0.12487171489239659},
        {7, 6.579251212010101},
        {-3, kInf},
        {100, 359.1342053695754},
        {1e-30, 69.077552789821368},
        {-0.0, kInf},
        {3e38, kInf},
        {-kInf, kInf},
    };
    const std::vector<double> all =
        expect_in_lanes([](const Tensor& t) { return ts::lgamma(t); }, cases, 53);
    for (size_t i = 0; i < all.size(); ++i) {
      if (cases[i % cases.size()].second == 0) {
        EXPECT_EQ(all[i], 0.0) << "x = " << cases[i % cases.size()].first;  // not ~1e-15
      }
    }
  });
}

TEST(MathGamma, GradientsByHand) {
  each_set([] {
    // lgamma' = digamma; digamma' = trigamma: pi^2 / 6 at 1, pi^2 / 2 at 1/2, and by reflection
    // pi^2 / sin^2(-pi / 2) - trigamma(3/2) = pi^2 - (pi^2 / 2 - 4) at -1/2.
    const auto lgamma = [](const Tensor& t) { return ts::lgamma(t); };
    const auto digamma = [](const Tensor& t) { return ts::digamma(t); };
    EXPECT_NEAR(grad_at(lgamma, 1), -kEuler, 1e-15);
    EXPECT_NEAR(grad_at(digamma, 1), pi * pi / 6, 1e-14);
    EXPECT_NEAR(grad_at(digamma, 0.5), pi * pi / 2, 1e-14);
    EXPECT_NEAR(grad_at(digamma, -0.5), pi * pi / 2 + 4, 1e-13);
    // trigamma(30) = 1/z + 1/(2 z^2) + 1/(6 z^3) - 1/(30 z^5) + O(z^-7), z = 30.
    EXPECT_NEAR(grad_at(digamma, 30), 1 / 30.0 + 1 / 1800.0 + 1 / 162000.0 - 1 / 729000000.0,
                2e-12);
  });
}

TEST(MathPredicates, IsinfAndIsfiniteOfEveryDtype) {
  each_set([] {
    const Tensor x = make(kFloat, {kInf, -kInf, kNaN, 1, -0.0, 3e38});
    EXPECT_TENSOR(ts::isinf(x), kBool, {6}, {1, 1, 0, 0, 0, 0});
    EXPECT_TENSOR(ts::isfinite(x), kBool, {6}, {0, 0, 0, 1, 1, 1});
    EXPECT_TENSOR(x.to(kHalf).isinf(), kBool, {6}, {1, 1, 0, 0, 0, 1});  // 3e38 overflows f16
    EXPECT_TENSOR(ts::isinf(make(kLong, {-7})), kBool, {1}, {0});
    EXPECT_TENSOR(ts::isfinite(make(kBool, {1, 0})), kBool, {2}, {1, 1});
  });
}

TEST(MathNanToNum, DefaultsAreTheDtypesLimits) {
  each_set([] {
    const Tensor x = make(kFloat, {kNaN, kInf, -kInf, 1.5});
    EXPECT_TENSOR(ts::nan_to_num(x), kFloat, {4},
                  {0, 3.4028234663852886e38, -3.4028234663852886e38, 1.5});
    EXPECT_TENSOR(ts::nan_to_num(x.to(kHalf)), kHalf, {4}, {0, 65504, -65504, 1.5});
    EXPECT_TENSOR(ts::nan_to_num(x, 2.0, 100.0, -1e300), kFloat, {4}, {2, 100, -kInf, 1.5});
    Tensor y = x.clone();
    y.nan_to_num_(-1.0);
    EXPECT_TENSOR(y, kFloat, {4}, {-1, 3.4028234663852886e38, -3.4028234663852886e38, 1.5});
    EXPECT_TENSOR(ts::nan_to_num(make(kInt, {7, -7})), kInt, {2}, {7, -7});
    // The gradient passes where self is finite: grad * isfinite(self).
    const Tensor g = make(kDouble, {kNaN, kInf, 2}).requires_grad_();
    ts::nan_to_num(g).sum().backward();
    EXPECT_TENSOR(g.grad(), kDouble, {3}, {0, 0, 1});
  });
}

TEST(MathHypot, PythagorasInfinitiesAndGradient) {
  each_set([] {
    EXPECT_TENSOR(
        ts::hypot(make(kFloat, {3, 5, -0.0, kInf, kNaN}), make(kFloat, {4, 12, 0, kNaN, 1})),
        kFloat, {5}, {5, 13, 0, kInf, kNaN});
    // No overflow in float64: hypot(3e300, 4e300) = 5e300.
    EXPECT_TENSOR(ts::hypot(make(kDouble, {3e300}), make(kDouble, {4e300})), kDouble, {1}, {5e300},
                  kF64);
    const auto [gx, gy] =
        grads_at([](const Tensor& a, const Tensor& b) { return ts::hypot(a, b); }, 3, 4);
    EXPECT_NEAR(gx, 0.6, 1e-15);
    EXPECT_NEAR(gy, 0.8, 1e-15);
    EXPECT_ERROR(ts::hypot(make(kLong, {3}), make(kLong, {4})), "hypot");
  });
}

TEST(MathCopysign, SignsOfZeroAndPromotion) {
  each_set([] {
    const Tensor r = ts::copysign(make(kFloat, {3, -2, 0, kInf}), make(kFloat, {-0.0, 1, -1, -5}));
    EXPECT_TENSOR(r, kFloat, {4}, {-3, 2, -0.0, -kInf});
    EXPECT_TRUE(signbit_at(r, 2));
    EXPECT_TENSOR(ts::copysign(make(kInt, {3}), -1), kFloat, {1}, {-3});
    // self: grad * result / self (-1 where the sign flips), 0 at self == 0; other: 0.
    const auto [gx, gy] =
        grads_at([](const Tensor& a, const Tensor& b) { return ts::copysign(a, b); }, -2, 1);
    EXPECT_EQ(gx, -1);
    EXPECT_EQ(gy, 0);
  });
}

TEST(MathNextafter, OneStepInTheDtype) {
  each_set([] {
    EXPECT_TENSOR(ts::nextafter(make(kFloat, {1, 1, 0, 0}), make(kFloat, {2, 0, 1, -1})), kFloat,
                  {4}, {1 + 0x1p-23, 1 - 0x1p-24, 0x1p-149, -0x1p-149});
    EXPECT_TENSOR(ts::nextafter(make(kDouble, {1, 0}), make(kDouble, {2, 1})), kDouble, {2},
                  {1 + 0x1p-52, 0x1p-1074});
    EXPECT_TENSOR(ts::nextafter(make(kHalf, {1, 65504, 1}), make(kHalf, {2, kInf, 1})), kHalf, {3},
                  {1 + 0x1p-10, kInf, 1});
    EXPECT_TENSOR(ts::nextafter(make(kBFloat16, {1, kInf}), make(kBFloat16, {2, 0})), kBFloat16,
                  {2}, {1 + 0x1p-7, 3.3895313892515355e38});
    EXPECT_TENSOR(ts::nextafter(make(kFloat, {kNaN, 1}), make(kFloat, {1, kNaN})), kFloat, {2},
                  {kNaN, kNaN});
  });
}

// Long enough for whole vectors of every target: each element against the C library's
// nextafter, bit for bit (a NaN: any NaN), over zeros, subnormals, infinities and NaN.
TEST(MathNextafter, VectorsAgreeWithTheCLibrary) {
  const double specials[] = {0.0,
                             -0.0,
                             1.0,
                             -1.0,
                             0x1p-149,
                             -0x1p-149,
                             0x1p-126,
                             kInf,
                             -kInf,
                             kNaN,
                             3.4028234663852886e38,
                             -2.5,
                             1e-40,
                             7.0};
  Values a, b;
  for (double x : specials) {
    for (double y : specials) {
      a.push_back(x);
      b.push_back(y);
    }
  }
  each_set([&] {
    const std::vector<double> f = values(ts::nextafter(make(kFloat, a), make(kFloat, b)));
    const std::vector<double> d = values(ts::nextafter(make(kDouble, a), make(kDouble, b)));
    for (size_t i = 0; i < a.size(); ++i) {
      SCOPED_TRACE(testing::Message() << "nextafter(" << a[i] << ", " << b[i] << ")");
      const float wf = std::nextafter(static_cast<float>(a[i]), static_cast<float>(b[i]));
      const double wd = std::nextafter(a[i], b[i]);
      if (std::isnan(wf)) {
        EXPECT_TRUE(std::isnan(f[i]));
        EXPECT_TRUE(std::isnan(d[i]));
        continue;
      }
      EXPECT_EQ(f[i], wf);
      EXPECT_EQ(std::signbit(f[i]), std::signbit(wf));
      EXPECT_EQ(d[i], wd);
      EXPECT_EQ(std::signbit(d[i]), std::signbit(wd));
    }
  });
}

TEST(MathFmod, TheSignOfTheDividend) {
  each_set([] {
    EXPECT_TENSOR(ts::fmod(make(kLong, {-5, 5, -5, 7}), make(kLong, {3, -3, -3, 7})), kLong, {4},
                  {-2, 2, -2, 0});
    const Tensor r =
        ts::fmod(make(kFloat, {-5, 5.5, -0.0, 1, kInf, 2}), make(kFloat, {3, 2, 1, 0, 1, kInf}));
    EXPECT_TENSOR(r, kFloat, {6}, {-2, 1.5, -0.0, kNaN, kNaN, 2});
    EXPECT_TRUE(signbit_at(r, 2));
    EXPECT_TENSOR(ts::fmod(make(kChar, {-128}), -1), kChar, {1}, {0});
    EXPECT_ERROR(ts::fmod(make(kInt, {1, 2}), make(kInt, {1, 0})), "fmod: ZeroDivisionError");
    EXPECT_ERROR(make(kInt, {1}).fmod_(0), "ZeroDivisionError");
    // self: grad; other: -grad * trunc(self / other) = -2 at (5.5, 2).
    const auto [gx, gy] =
        grads_at([](const Tensor& a, const Tensor& b) { return ts::fmod(a, b); }, 5.5, 2);
    EXPECT_EQ(gx, 1);
    EXPECT_EQ(gy, -2);
  });
}

TEST(MathFloorDivide, RoundsTowardMinusInfinity) {
  each_set([] {
    EXPECT_TENSOR(ts::floor_divide(make(kLong, {-5, 5, 7, -6}), make(kLong, {3, -3, 2, 3})), kLong,
                  {4}, {-2, -2, 3, -2});
    EXPECT_TENSOR(ts::floor_divide(make(kFloat, {-5, 1, -1, 1}), make(kFloat, {3, 0.1, 0, 0})),
                  kFloat, {4}, {-2, 9, -kInf, kInf});
    EXPECT_TENSOR(ts::floor_divide(make(kChar, {-128}), -1), kChar, {1}, {-128});
    EXPECT_ERROR(ts::floor_divide(make(kLong, {1}), make(kLong, {0})),
                 "floor_divide: ZeroDivisionError");
    EXPECT_FALSE(ts::floor_divide(make(kDouble, {3}).requires_grad_(), 2).requires_grad());
  });
}

TEST(MathXlogy, ZeroTimesLogIsZero) {
  each_set([] {
    EXPECT_TENSOR(ts::xlogy(make(kDouble, {0, 0, 0, 2, 3, 1}),
                            make(kDouble, {0, kNaN, kInf, std::numbers::e, 0, -1})),
                  kDouble, {6}, {0, kNaN, 0, 2, -kInf, kNaN}, kF64);
    EXPECT_TENSOR(ts::xlogy(make(kInt, {2}), make(kInt, {1})), kFloat, {1}, {0});
    EXPECT_TENSOR(ts::xlogy(make(kFloat, {3}), 1.0), kFloat, {1}, {0});
    // self: log(other); other: self / other.
    const auto [gx, gy] =
        grads_at([](const Tensor& a, const Tensor& b) { return ts::xlogy(a, b); }, 2, 3);
    EXPECT_NEAR(gx, std::log(3.0), 1e-15);
    EXPECT_NEAR(gy, 2.0 / 3, 1e-15);
  });
}

TEST(MathLogaddexp, NoOverflowAndEqualInfinities) {
  each_set([] {
    EXPECT_TENSOR(ts::logaddexp(make(kFloat, {1000, 0, -kInf, kInf, kNaN}),
                                make(kFloat, {1000, 0, -kInf, 1, 0})),
                  kFloat, {5}, {1000 + std::numbers::ln2, std::numbers::ln2, -kInf, kInf, kNaN},
                  kF32);
    EXPECT_TENSOR(ts::logaddexp(make(kDouble, {1000, -1000}), make(kDouble, {1000, -1000})),
                  kDouble, {2}, {1000 + std::numbers::ln2, -1000 + std::numbers::ln2}, kF64);
    // log2(2^1 + 2^1) = 2; log2(2^0 + 2^1) = log2(3).
    EXPECT_TENSOR(ts::logaddexp2(make(kDouble, {1, 0, 1024}), make(kDouble, {1, 1, 1024})), kDouble,
                  {3}, {2, 1.584962500721156, 1025}, kF64);
    // d/da = 1 / (1 + e^(b - a)): 1 / (1 + e) at (1, 2); logaddexp2's with 2^(b - a).
    const auto [gx, gy] =
        grads_at([](const Tensor& a, const Tensor& b) { return ts::logaddexp(a, b); }, 1, 2);
    EXPECT_NEAR(gx, 1 / (1 + std::numbers::e), 1e-15);
    EXPECT_NEAR(gy, 1 / (1 + 1 / std::numbers::e), 1e-15);
    const auto [hx, hy] =
        grads_at([](const Tensor& a, const Tensor& b) { return ts::logaddexp2(a, b); }, 0, 1);
    EXPECT_NEAR(hx, 1.0 / 3, 1e-15);
    EXPECT_NEAR(hy, 2.0 / 3, 1e-15);
  });
}

TEST(MathHeaviside, ValuesAtZeroAndOneDtype) {
  each_set([] {
    EXPECT_TENSOR(ts::heaviside(make(kFloat, {-1, 0, -0.0, 2, kNaN}), make(kFloat, {5})), kFloat,
                  {5}, {0, 5, 5, 1, 0});
    EXPECT_TENSOR(ts::heaviside(make(kLong, {-3, 0, 3}), make(kLong, {7, 7, 7})), kLong, {3},
                  {0, 7, 1});
    EXPECT_ERROR(ts::heaviside(make(kFloat, {1}), make(kDouble, {1})),
                 "heaviside is not yet implemented for tensors with different dtypes");
  });
}

TEST(MathClampBounds, ScalarAndTensorBoundsWithNaN) {
  each_set([] {
    EXPECT_TENSOR(ts::clamp_min(make(kFloat, {1, 5, kNaN}), 3), kFloat, {3}, {3, 5, kNaN});
    EXPECT_TENSOR(ts::clamp_max(make(kFloat, {1, 5, kNaN}), 3), kFloat, {3}, {1, 3, kNaN});
    EXPECT_TENSOR(ts::clamp_min(make(kFloat, {1, 5}), make(kFloat, {kNaN, 0})), kFloat, {2},
                  {kNaN, 5});
    EXPECT_TENSOR(ts::clamp_max(make(kLong, {1, 5, -9}), make(kLong, {2})), kLong, {3}, {1, 2, -9});
    // An int tensor with a float bound computes in float, as ATen's result_type(self, min).
    EXPECT_TENSOR(ts::clamp_min(make(kInt, {1, 5}), 2.5), kFloat, {2}, {2.5, 5});
    // self: where(self >= min, grad, 0); min: where(self < min, grad, 0) (ties go to self).
    const auto min = [](const Tensor& a, const Tensor& b) { return ts::clamp_min(a, b); };
    EXPECT_EQ(grads_at(min, 1, 3), std::make_pair(0.0, 1.0));
    EXPECT_EQ(grads_at(min, 3, 3), std::make_pair(1.0, 0.0));
    const auto max = [](const Tensor& a, const Tensor& b) { return ts::clamp_max(a, b); };
    EXPECT_EQ(grads_at(max, 1, 3), std::make_pair(1.0, 0.0));
    EXPECT_EQ(grads_at(max, 4, 3), std::make_pair(0.0, 1.0));
  });
}

TEST(MathIsclose, TolerancesNanAndInfinities) {
  each_set([] {
    const Tensor a = make(kFloat, {1, 1 + 1e-6, 1.1, kNaN, kInf, kInf, 0});
    const Tensor b = make(kFloat, {1, 1, 1, kNaN, kInf, -kInf, 1e-9});
    EXPECT_TENSOR(ts::isclose(a, b), kBool, {7}, {1, 1, 0, 0, 1, 0, 1});
    EXPECT_TENSOR(ts::isclose(a, b, 1e-5, 1e-8, /*equal_nan=*/true), kBool, {7},
                  {1, 1, 0, 1, 1, 0, 1});
    EXPECT_TENSOR(a.isclose(b, 0, 0), kBool, {7}, {1, 0, 0, 0, 1, 0, 0});
    EXPECT_TENSOR(ts::isclose(make(kLong, {10, 10}), make(kLong, {10, 11}), 0.1), kBool, {2},
                  {1, 1});
    EXPECT_ERROR(ts::isclose(a, b.to(kDouble)), "isclose: float32 did not match float64");
    EXPECT_ERROR(ts::isclose(a, b, -1), "rtol must be greater than or equal to zero");
  });
}

}  // namespace
