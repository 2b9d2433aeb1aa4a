// Unary elementwise ops: values (hand-computed or from PyTorch's documentation), special values,
// promotion, every variant, non-contiguous/0-dim/empty inputs, and every error path.
#include <gtest/gtest.h>

#include <numbers>
#include <optional>
#include <vector>

#include "test_util.h"
#include "touchstone/touchstone.h"

namespace {

using namespace ts::testing;
using ts::Tensor;

const double kE32 = 2.7182817459106445;  // e rounded to float32

// ---- neg, abs, sign ----

TEST(Neg, FloatingDtypesIncludingSignedZeroInfAndNaN) {
  const Tensor x = make(kFloat, {1, -2.5, 0, kInf, kNaN});
  const Tensor y = ts::neg(x);
  EXPECT_TENSOR(y, kFloat, {5}, {-1, 2.5, 0, -kInf, kNaN});
  EXPECT_TRUE(signbit_at(y, 2));                            // -0.0
  EXPECT_TENSOR(x, kFloat, {5}, {1, -2.5, 0, kInf, kNaN});  // the input is untouched
  EXPECT_TENSOR(make(kDouble, {0.1, -3}).neg(), kDouble, {2}, {-0.1, 3});
  EXPECT_TENSOR(-make(kHalf, {0.5, -3}), kHalf, {2}, {-0.5, 3});
  EXPECT_TENSOR(ts::neg(make(kBFloat16, {1.5, -256})), kBFloat16, {2}, {-1.5, 256});
}

TEST(Neg, IntegersWrapAround) {
  EXPECT_TENSOR(ts::neg(make(kChar, {-128, 127, 0, 5})), kChar, {4}, {-128, -127, 0, -5});
  EXPECT_TENSOR(ts::neg(make(kByte, {1, 0, 255})), kByte, {3}, {255, 0, 1});
  EXPECT_TENSOR(ts::neg(make(kShort, {-32768, 3})), kShort, {2}, {-32768, -3});
  EXPECT_TENSOR(ts::neg(make(kInt, {2147483647, -7})), kInt, {2}, {-2147483647, 7});
  EXPECT_EQ(long_values(ts::neg(make_long({kI64Min, 7, kI64Max}))),
            (std::vector<int64_t>{kI64Min, -7, -kI64Max}));
}

TEST(Neg, BoolIsAnErrorInEveryVariant) {
  const Tensor b = make(kBool, {1, 0});
  const char* msg = "Negation, the `-` operator, on a bool tensor is not supported";
  EXPECT_ERROR(ts::neg(b), msg);
  EXPECT_ERROR(-b, msg);
  EXPECT_ERROR(b.neg_(), msg);
  const Tensor out = make(kBool, {0, 0});
  EXPECT_ERROR(ts::neg_out(out, b), msg);
  EXPECT_TENSOR(b, kBool, {2}, {1, 0});
  EXPECT_TENSOR(out, kBool, {2}, {0, 0});
}

TEST(Abs, DocsExampleAndSpecialValues) {
  EXPECT_TENSOR(ts::abs(make(kLong, {-1, -2, 3})), kLong, {3}, {1, 2, 3});  // PyTorch docs
  const Tensor y = ts::abs(make(kFloat, {-0.0, -kInf, kNaN, -1.5}));
  EXPECT_TENSOR(y, kFloat, {4}, {0, kInf, kNaN, 1.5});
  EXPECT_FALSE(signbit_at(y, 0));
  EXPECT_TENSOR(ts::abs(make(kChar, {-128, -1})), kChar, {2}, {-128, 1});  // wraps
  EXPECT_TENSOR(make(kByte, {200, 0}).abs(), kByte, {2}, {200, 0});
  EXPECT_TENSOR(ts::abs(make(kHalf, {-1.5})), kHalf, {1}, {1.5});
  EXPECT_TENSOR(ts::abs(make(kBFloat16, {-2})), kBFloat16, {1}, {2});
  EXPECT_TENSOR(ts::abs(make(kDouble, {-1e300})), kDouble, {1}, {1e300});
  EXPECT_ERROR(ts::abs(make(kBool, {1})), "abs: not implemented for dtype bool");
}

TEST(Sign, DocsExampleNaNZeroAndEveryCategory) {
  EXPECT_TENSOR(ts::sign(make(kFloat, {0.7, -1.2, 0., 2.3})), kFloat, {4}, {1, -1, 0, 1});
  // PyTorch's sign is (0 < x) - (x < 0): NaN gives 0 and -0.0 gives +0.0.
  const Tensor y = ts::sign(make(kDouble, {kNaN, -0.0, -kInf, kInf}));
  EXPECT_TENSOR(y, kDouble, {4}, {0, 0, -1, 1});
  EXPECT_FALSE(signbit_at(y, 1));
  EXPECT_TENSOR(ts::sign(make(kInt, {-5, 0, 7})), kInt, {3}, {-1, 0, 1});
  EXPECT_TENSOR(ts::sign(make(kByte, {0, 200})), kByte, {2}, {0, 1});
  EXPECT_TENSOR(ts::sign(make(kBool, {1, 0})), kBool, {2}, {1, 0});
  EXPECT_TENSOR(make(kHalf, {-0.5}).sign(), kHalf, {1}, {-1});
  EXPECT_TENSOR(ts::sign(make(kBFloat16, {3})), kBFloat16, {1}, {1});
}

// ---- ops that compute integers in float ----

TEST(FloatingUnary, IntegerAndBoolInputsGiveFloat32) {
  EXPECT_TENSOR(ts::exp(make(kLong, {0, 1})), kFloat, {2}, {1, kE32});
  EXPECT_TENSOR(ts::exp(make(kBool, {1, 0})), kFloat, {2}, {kE32, 1});
  EXPECT_TENSOR(ts::sqrt(make(kInt, {4, 9})), kFloat, {2}, {2, 3});
  EXPECT_TENSOR(ts::reciprocal(make(kShort, {0, 2, -4})), kFloat, {3}, {kInf, 0.5, -0.25});
  EXPECT_TENSOR(ts::rsqrt(make(kByte, {4})), kFloat, {1}, {0.5});
  EXPECT_TENSOR(ts::sigmoid(make(kChar, {0})), kFloat, {1}, {0.5});
  EXPECT_TENSOR(ts::log(make(kLong, {1})), kFloat, {1}, {0});
  EXPECT_TENSOR(ts::log1p(make(kInt, {0})), kFloat, {1}, {0});
  EXPECT_TENSOR(ts::expm1(make(kBool, {0})), kFloat, {1}, {0});
  EXPECT_TENSOR(ts::sin(make(kInt, {0})), kFloat, {1}, {0});
  EXPECT_TENSOR(ts::cos(make(kInt, {0})), kFloat, {1}, {1});
  EXPECT_TENSOR(ts::tanh(make(kLong, {0})), kFloat, {1}, {0});
  EXPECT_TENSOR(ts::erf(make(kLong, {0})), kFloat, {1}, {0});
}

TEST(ExpLog, ValuesAndSpecialValues) {
  // float32: exp(log 2) is 2 exactly after rounding; exp(-inf) = 0.
  EXPECT_TENSOR(ts::exp(make(kFloat, {0, 0.6931471824645996, -kInf, kInf, kNaN})), kFloat, {5},
                {1, 2, 0, kInf, kNaN});
  EXPECT_TENSOR(ts::exp(make(kDouble, {1})), kDouble, {1}, {2.718281828459045}, 1e-15);
  EXPECT_TENSOR(ts::exp(make(kHalf, {1})), kHalf, {1}, {2.71875});
  EXPECT_TENSOR(ts::exp(make(kBFloat16, {1})), kBFloat16, {1}, {2.71875});
  // PyTorch docs: expm1([0, log 2]) = [0, 1]; expm1 keeps precision near 0.
  EXPECT_TENSOR(ts::expm1(make(kFloat, {0, 0.6931471824645996})), kFloat, {2}, {0, 1}, 1e-6);
  EXPECT_TENSOR(ts::expm1(make(kDouble, {1e-10, -kInf})), kDouble, {2}, {1.00000000005e-10, -1},
                1e-15);
  EXPECT_TENSOR(ts::log(make(kFloat, {1, 100, 0, -1, kInf})), kFloat, {5},
                {0, 4.605170249938965, -kInf, kNaN, kInf});
  EXPECT_TENSOR(ts::log1p(make(kDouble, {1e-10, -1, -2})), kDouble, {3},
                {9.999999999500001e-11, -kInf, kNaN}, 1e-15);
  EXPECT_TENSOR(ts::log(make(kHalf, {1})), kHalf, {1}, {0});
}

TEST(SqrtRsqrtReciprocal, ValuesAndSpecialValues) {
  const Tensor s = ts::sqrt(make(kFloat, {4, 0, -0.0, -1, kInf, 2}));
  EXPECT_TENSOR(s, kFloat, {6}, {2, 0, 0, kNaN, kInf, 1.4142135381698608});
  EXPECT_TRUE(signbit_at(s, 2));  // sqrt(-0.0) = -0.0
  EXPECT_TENSOR(ts::sqrt(make(kHalf, {2})), kHalf, {1}, {1.4140625});
  EXPECT_TENSOR(ts::sqrt(make(kBFloat16, {2})), kBFloat16, {1}, {1.4140625});
  EXPECT_TENSOR(ts::rsqrt(make(kDouble, {4, 0, -0.0, -1, kInf})), kDouble, {5},
                {0.5, kInf, -kInf, kNaN, 0});
  EXPECT_TENSOR(ts::reciprocal(make(kFloat, {2, 0, -0.0, kInf, -4})), kFloat, {5},
                {0.5, kInf, -kInf, 0, -0.25});
  EXPECT_TENSOR(ts::reciprocal(make(kHalf, {3})), kHalf, {1}, {0.333251953125});
  EXPECT_TENSOR(ts::reciprocal(make(kBFloat16, {3})), kBFloat16, {1}, {0.333984375});
}

TEST(Trig, SinCosTanh) {
  EXPECT_TENSOR(ts::sin(make(kDouble, {0, 1, kInf})), kDouble, {3}, {0, 0.8414709848078965, kNaN},
                1e-15);
  EXPECT_TENSOR(ts::sin(make(kFloat, {1})), kFloat, {1}, {0.8414709568023682});
  EXPECT_TENSOR(ts::cos(make(kDouble, {0, 1, std::numbers::pi})), kDouble, {3},
                {1, 0.5403023058681398, -1}, 1e-15);
  EXPECT_TENSOR(ts::cos(make(kFloat, {1})), kFloat, {1}, {0.5403022766113281});
  EXPECT_TENSOR(ts::tanh(make(kDouble, {0, 1, kInf, -kInf})), kDouble, {4},
                {0, 0.7615941559557649, 1, -1}, 1e-15);
  EXPECT_TENSOR(ts::tanh(make(kFloat, {1})), kFloat, {1}, {0.7615941762924194});
}

TEST(Trig, TanValuesSignedZeroAndGradient) {
  EXPECT_TENSOR(ts::tan(make(kDouble, {0, 1, -1.5, kInf})), kDouble, {4},
                {0, 1.5574077246549023, -14.101419947171719, kNaN}, 1e-15);
  EXPECT_TENSOR(ts::tan(make(kFloat, {1, 0.5})), kFloat, {2},
                {1.5574077367782593, 0.5463024973869324});
  EXPECT_TENSOR(ts::tan(make(kInt, {0})), kFloat, {1}, {0});  // integers give float32
  EXPECT_TRUE(signbit_at(ts::tan(make(kDouble, {-0.0})), 0));
  // d/dx tan x = 1 + tan^2 x: 3.42551882081476 at x = 1.
  const Tensor x = make(kDouble, {1}).requires_grad_();
  ts::tan(x).sum().backward();
  EXPECT_TENSOR(x.grad(), kDouble, {1}, {3.42551882081476}, 1e-14);
}

TEST(SigmoidErf, ValuesInEveryFloatingDtype) {
  EXPECT_TENSOR(ts::sigmoid(make(kDouble, {0, 1, -1, kInf, -kInf})), kDouble, {5},
                {0.5, 0.7310585786300049, 0.2689414213699951, 1, 0}, 1e-15);
  EXPECT_TENSOR(ts::sigmoid(make(kFloat, {1})), kFloat, {1}, {0.7310585975646973});
  EXPECT_TENSOR(ts::sigmoid(make(kHalf, {1})), kHalf, {1}, {0.73095703125});
  EXPECT_TENSOR(ts::sigmoid(make(kBFloat16, {1})), kBFloat16, {1}, {0.73046875});
  // PyTorch docs: erf([0, -1, 10]) = [0, -0.8427, 1].
  EXPECT_TENSOR(ts::erf(make(kFloat, {0, -1, 10})), kFloat, {3}, {0, -0.8427007794380188, 1});
  EXPECT_TENSOR(ts::erf(make(kDouble, {1, kInf, -kInf})), kDouble, {3}, {0.8427007929497149, 1, -1},
                1e-15);
  EXPECT_TENSOR(ts::erf(make(kHalf, {1})), kHalf, {1}, {0.8427734375});
  EXPECT_TENSOR(ts::erf(make(kBFloat16, {1})), kBFloat16, {1}, {0.84375});
}

// ---- activations ----

TEST(Relu, FloatsIntegersAndBool) {
  EXPECT_TENSOR(ts::relu(make(kFloat, {-1, 0, 2, kNaN, -kInf, kInf})), kFloat, {6},
                {0, 0, 2, kNaN, 0, kInf});
  EXPECT_TENSOR(ts::relu(make(kChar, {-5, 3, -128})), kChar, {3}, {0, 3, 0});
  EXPECT_TENSOR(make(kByte, {0, 255}).relu(), kByte, {2}, {0, 255});
  EXPECT_TENSOR(ts::relu(make(kLong, {-7, 7})), kLong, {2}, {0, 7});
  EXPECT_TENSOR(ts::relu(make(kHalf, {-0.5, 0.5})), kHalf, {2}, {0, 0.5});
  EXPECT_TENSOR(ts::relu(make(kBFloat16, {-2, 2})), kBFloat16, {2}, {0, 2});
  EXPECT_ERROR(ts::relu(make(kBool, {1})), "relu: not implemented for dtype bool");
}

TEST(Gelu, ExactAndTanhApproximation) {
  const Tensor x = make(kDouble, {0, 1, -1, 2, kInf});
  EXPECT_TENSOR(ts::gelu(x), kDouble, {5},
                {0, 0.8413447460685429, -0.15865525393145707, 1.9544997361036416, kInf}, 1e-15);
  EXPECT_TENSOR(ts::gelu(x, "tanh"), kDouble, {5},
                {0, 0.8411919906082768, -0.15880800939172324, 1.954597694087775, kInf}, 1e-15);
  EXPECT_TENSOR(ts::gelu(make(kFloat, {1})), kFloat, {1}, {0.8413447737693787});
  EXPECT_TENSOR(ts::gelu(make(kFloat, {1}), "tanh"), kFloat, {1}, {0.8411920070648193});
  EXPECT_TENSOR(ts::gelu(make(kHalf, {1})), kHalf, {1}, {0.84130859375});
  EXPECT_TENSOR(ts::gelu(make(kBFloat16, {1})), kBFloat16, {1}, {0.83984375});
  const Tensor y = make(kFloat, {0, 1});
  EXPECT_TRUE(ts::gelu_(y, "tanh").is_same(y));
  EXPECT_TENSOR(y, kFloat, {2}, {0, 0.8411920070648193});
  const Tensor out = ts::empty({0}, kFloat);
  ts::gelu_out(out, make(kFloat, {1}));
  EXPECT_TENSOR(out, kFloat, {1}, {0.8413447737693787});
  // ATen 1.13: gelu_out(float64 out, float32 self) is "Found dtype Double but expected Float".
  EXPECT_ERROR(ts::gelu_out(ts::empty({0}, kDouble), make(kFloat, {1})),
               "gelu: Found dtype float64 but expected float32 (argument 'out')");
}

TEST(Gelu, IntegersAndBadApproximationAreErrors) {
  const Tensor i = make(kLong, {1, 2});
  EXPECT_ERROR(ts::gelu(i), "gelu: not implemented for dtype int64");
  EXPECT_ERROR(ts::gelu_(i), "gelu_: not implemented for dtype int64");
  EXPECT_ERROR(ts::gelu(make(kBool, {1})), "gelu: not implemented for dtype bool");
  EXPECT_ERROR(ts::gelu(make(kFloat, {1}), "exact"),
               "gelu: approximate argument must be either none or tanh");
  EXPECT_TENSOR(i, kLong, {2}, {1, 2});
}

TEST(Silu, ValuesVariantsAndErrors) {
  EXPECT_TENSOR(ts::silu(make(kDouble, {0, 1, -1, 2})), kDouble, {4},
                {0, 0.7310585786300049, -0.2689414213699951, 1.7615941559557646}, 1e-15);
  EXPECT_TENSOR(ts::silu(make(kFloat, {1})), kFloat, {1}, {0.7310585975646973});
  const Tensor x = make(kHalf, {0});
  ts::silu_(x);
  EXPECT_TENSOR(x, kHalf, {1}, {0});
  const Tensor out = make(kBFloat16, {7});
  ts::silu_out(out, make(kBFloat16, {1}));
  EXPECT_TENSOR(out, kBFloat16, {1}, {0.73046875});
  EXPECT_ERROR(ts::silu(make(kInt, {1})), "silu: not implemented for dtype int32");
}

// ---- rounding ----

TEST(Rounding, DocsExamples) {
  EXPECT_TENSOR(ts::floor(make(kFloat, {-0.8166, 1.5308, -0.2530, -0.2091})), kFloat, {4},
                {-1, 1, -1, -1});
  const Tensor c = ts::ceil(make(kFloat, {-0.6341, -1.4208, -1.0900, 0.5826}));
  EXPECT_TENSOR(c, kFloat, {4}, {0, -1, -1, 1});
  EXPECT_TRUE(signbit_at(c, 0));  // -0.
  EXPECT_TENSOR(ts::round(make(kFloat, {4.7, -2.3, 9.1, -7.7})), kFloat, {4}, {5, -2, 9, -8});
  const Tensor t = ts::trunc(make(kFloat, {3.4742, 0.5466, -0.8008, -0.9079}));
  EXPECT_TENSOR(t, kFloat, {4}, {3, 0, 0, 0});
  EXPECT_TRUE(signbit_at(t, 2));
  EXPECT_TRUE(signbit_at(t, 3));
}

TEST(Rounding, RoundHalfToEvenAndSpecialValues) {
  const Tensor r = ts::round(make(kDouble, {-0.5, 0.5, 1.5, 2.5, -1.5, -2.5, 0.49999999999999994}));
  EXPECT_TENSOR(r, kDouble, {7}, {0, 0, 2, 2, -2, -2, 0});
  EXPECT_TRUE(signbit_at(r, 0));
  EXPECT_TENSOR(ts::round(make(kHalf, {2.5, 3.5})), kHalf, {2}, {2, 4});
  EXPECT_TENSOR(ts::round(make(kBFloat16, {-0.5, 1.5})), kBFloat16, {2}, {0, 2});
  const Values special = {kInf, -kInf, kNaN, 1e300};
  EXPECT_TENSOR(ts::floor(make(kDouble, special)), kDouble, {4}, special);
  EXPECT_TENSOR(ts::ceil(make(kDouble, special)), kDouble, {4}, special);
  EXPECT_TENSOR(ts::round(make(kDouble, special)), kDouble, {4}, special);
  EXPECT_TENSOR(ts::trunc(make(kDouble, special)), kDouble, {4}, special);
  EXPECT_TENSOR(ts::floor(make(kHalf, {-1.5})), kHalf, {1}, {-2});
  EXPECT_TENSOR(ts::ceil(make(kBFloat16, {-1.5})), kBFloat16, {1}, {-1});
}

TEST(Rounding, IntegersAreUnchangedAndBoolIsAnError) {
  const std::vector<int64_t> v = {-3, 5, kI64Max, kI64Min};
  EXPECT_EQ(long_values(ts::floor(make_long(v))), v);
  EXPECT_EQ(long_values(ts::ceil(make_long(v))), v);
  EXPECT_EQ(long_values(ts::round(make_long(v))), v);
  EXPECT_EQ(long_values(ts::trunc(make_long(v))), v);
  EXPECT_TENSOR(ts::floor(make(kByte, {7})), kByte, {1}, {7});
  EXPECT_TENSOR(make(kChar, {-7}).round(), kChar, {1}, {-7});
  EXPECT_ERROR(ts::floor(make(kBool, {1})), "floor: not implemented for dtype bool");
  EXPECT_ERROR(ts::ceil(make(kBool, {1})), "ceil: not implemented for dtype bool");
  EXPECT_ERROR(ts::round(make(kBool, {1})), "round: not implemented for dtype bool");
  EXPECT_ERROR(ts::trunc(make(kBool, {1})), "trunc: not implemented for dtype bool");
}

// ---- predicates and logical/bitwise not ----

TEST(Isnan, EveryDtypeGivesBool) {
  EXPECT_TENSOR(ts::isnan(make(kFloat, {1, kNaN, 2})), kBool, {3}, {0, 1, 0});  // PyTorch docs
  EXPECT_TENSOR(make(kHalf, {kNaN, kInf}).isnan(), kBool, {2}, {1, 0});
  EXPECT_TENSOR(ts::isnan(make(kBFloat16, {kNaN})), kBool, {1}, {1});
  EXPECT_TENSOR(ts::isnan(make(kDouble, {-kNaN, 0})), kBool, {2}, {1, 0});
  EXPECT_TENSOR(ts::isnan(make(kInt, {1, 0})), kBool, {2}, {0, 0});
  EXPECT_TENSOR(ts::isnan(make(kBool, {1})), kBool, {1}, {0});
}

TEST(LogicalNot, DocsExamples) {
  EXPECT_TENSOR(ts::logical_not(make(kBool, {1, 0})), kBool, {2}, {0, 1});
  EXPECT_TENSOR(ts::logical_not(make(kChar, {0, 1, -10})), kBool, {3}, {1, 0, 0});
  EXPECT_TENSOR(ts::logical_not(make(kDouble, {0., 1.5, -10.})), kBool, {3}, {1, 0, 0});
  const Tensor out = ts::empty({3}, kShort);
  ts::logical_not_out(out, make(kDouble, {0., 1., -10.}));
  EXPECT_TENSOR(out, kShort, {3}, {1, 0, 0});
  // NaN is nonzero, hence true.
  EXPECT_TENSOR(ts::logical_not(make(kHalf, {kNaN, -0.0})), kBool, {2}, {0, 1});
  const Tensor f = make(kFloat, {2, 0});
  f.logical_not_();  // bool results fit any dtype
  EXPECT_TENSOR(f, kFloat, {2}, {0, 1});
}

TEST(BitwiseNot, DocsExampleUnsignedBoolAndFloatError) {
  EXPECT_TENSOR(ts::bitwise_not(make(kChar, {-1, -2, 3})), kChar, {3}, {0, 1, -4});
  EXPECT_TENSOR(ts::bitwise_not(make(kByte, {0, 255, 15})), kByte, {3}, {255, 0, 240});
  EXPECT_TENSOR(ts::bitwise_not(make(kBool, {1, 0})), kBool, {2}, {0, 1});
  EXPECT_EQ(long_values(ts::bitwise_not(make_long({0, kI64Max}))),
            (std::vector<int64_t>{-1, kI64Min}));
  const Tensor b = make(kBool, {1, 0});
  b.bitwise_not_();
  EXPECT_TENSOR(b, kBool, {2}, {0, 1});
  EXPECT_ERROR(ts::bitwise_not(make(kFloat, {1})),
               "bitwise_not: not implemented for dtype float32");
  EXPECT_ERROR(ts::bitwise_not(make(kHalf, {1})), "bitwise_not: not implemented for dtype float16");
}

// ---- clamp ----

TEST(Clamp, DocsExampleAndOneSidedBounds) {
  const Values a = {-1.7120, 0.1734, -0.0478, -0.0922};
  EXPECT_TENSOR(ts::clamp(make(kFloat, a), -0.5, 0.5), kFloat, {4},
                {-0.5, 0.1734, -0.0478, -0.0922}, 1e-7);
  EXPECT_TENSOR(ts::clamp(make(kFloat, a), 0.5), kFloat, {4}, {0.5, 0.5, 0.5, 0.5});
  EXPECT_TENSOR(make(kFloat, a).clamp(std::nullopt, 0), kFloat, {4}, {-1.7120, 0, -0.0478, -0.0922},
                1e-7);
}

TEST(Clamp, MinAboveMaxGivesMaxAndNaNPropagates) {
  EXPECT_TENSOR(ts::clamp(make(kLong, {1, 2, 3}), 5, 0), kLong, {3}, {0, 0, 0});
  EXPECT_TENSOR(ts::clamp(make(kDouble, {1, 9}), 5.0, 0.0), kDouble, {2}, {0, 0});
  EXPECT_TENSOR(ts::clamp(make(kFloat, {kNaN, 1, -kInf}), 0, 0.5), kFloat, {3}, {kNaN, 0.5, 0});
  EXPECT_TENSOR(ts::clamp(make(kFloat, {1, 2}), kNaN), kFloat, {2}, {kNaN, kNaN});
  EXPECT_TENSOR(ts::clamp(make(kFloat, {1, 2}), std::nullopt, kNaN), kFloat, {2}, {kNaN, kNaN});
}

TEST(Clamp, DtypesAndPromotion) {
  EXPECT_TENSOR(ts::clamp(make(kInt, {-5, 0, 9}), -1, 3), kInt, {3}, {-1, 0, 3});
  EXPECT_TENSOR(ts::clamp(make(kByte, {0, 100, 255}), 10, 200), kByte, {3}, {10, 100, 200});
  EXPECT_TENSOR(ts::clamp(make(kChar, {-128, 127}), -100, 100), kChar, {2}, {-100, 100});
  EXPECT_TENSOR(ts::clamp(make(kHalf, {-3, 0.25, 3}), -1, 1), kHalf, {3}, {-1, 0.25, 1});
  EXPECT_TENSOR(ts::clamp(make(kBFloat16, {-3, 3}), -1.5, 1.5), kBFloat16, {2}, {-1.5, 1.5});
  // A float bound promotes an integer tensor to the default dtype.
  EXPECT_TENSOR(ts::clamp(make(kInt, {1, 5, 9}), 2.5), kFloat, {3}, {2.5, 5, 9});
  EXPECT_TENSOR(ts::clamp(make(kLong, {1, 5}), std::nullopt, 2.5), kFloat, {2}, {1, 2.5});
}

TEST(Clamp, InPlaceAndOut) {
  const Tensor x = make(kFloat, {-2, 0.5, 2});
  EXPECT_TRUE(x.clamp_(0, 1).is_same(x));
  EXPECT_TENSOR(x, kFloat, {3}, {0, 0.5, 1});
  const Tensor y = make(kInt, {-2, 5});
  ts::clamp_(y, 0);
  EXPECT_TENSOR(y, kInt, {2}, {0, 5});
  const Tensor out = ts::empty({0}, kLong);
  ts::clamp_out(out, make(kLong, {-3, 3}), -1, 1);
  EXPECT_TENSOR(out, kLong, {2}, {-1, 1});
  // A float bound makes the result float32: out= must be float32 (Note [Unary out= dtype]).
  const Tensor float_out = ts::empty({0}, kFloat);
  ts::clamp_out(float_out, make(kByte, {0, 3}), 0.5);
  EXPECT_TENSOR(float_out, kFloat, {2}, {0.5, 3});
}

TEST(Clamp, Errors) {
  const Tensor x = make(kInt, {1, 2});
  EXPECT_ERROR(ts::clamp(x, std::nullopt, std::nullopt),
               "clamp: At least one of 'min' or 'max' must not be None");
  EXPECT_ERROR(x.clamp_(0.5),
               "clamp_: result type float32 can't be cast to the desired output type int32");
  EXPECT_TENSOR(x, kInt, {2}, {1, 2});
  EXPECT_ERROR(ts::clamp(make(kBool, {1}), false, true), "clamp: not implemented for dtype bool");
  EXPECT_ERROR(ts::clamp(make(kByte, {1}), std::nullopt, 300),
               "value cannot be converted to type uint8 without overflow");
  EXPECT_ERROR(ts::clamp(make(kChar, {1}), -200), "cannot be converted to type int8");
  EXPECT_ERROR(ts::clamp(make(kHalf, {1}), std::nullopt, 1e6),
               "cannot be converted to type float16 without overflow");
  const Tensor out = ts::empty({0}, kByte);
  EXPECT_ERROR(ts::clamp_out(out, make(kByte, {1}), 0, 1000), "without overflow");
  EXPECT_EQ(out.numel(), 0);
}

// ---- variants, layouts and shared error paths ----

TEST(UnaryVariants, InPlaceReturnsSelfAndMethodsMatchFunctions) {
  const Tensor x = make(kFloat, {0, 0.6931471824645996});
  Tensor& r = x.exp_();
  EXPECT_TRUE(r.is_same(x));
  EXPECT_TENSOR(x, kFloat, {2}, {1, 2});
  const Tensor y = make(kDouble, {-4, 9});
  ts::abs_(y);
  y.sqrt_();
  EXPECT_TENSOR(y, kDouble, {2}, {2, 3});
  EXPECT_TENSOR(make(kDouble, {4}).rsqrt(), kDouble, {1}, {0.5});
  EXPECT_TENSOR(make(kDouble, {2}).reciprocal(), kDouble, {1}, {0.5});
  const Tensor z = make(kChar, {-3});
  z.neg_();
  EXPECT_TENSOR(z, kChar, {1}, {3});
}

TEST(UnaryVariants, OutComputesInTheResultDtypeThenCasts) {
  // exp of float32 is rounded to float32, then stored into the float64 out.
  const Tensor out = ts::empty({1}, kDouble);
  Tensor& r = ts::exp_out(out, make(kFloat, {1}));
  EXPECT_TRUE(r.is_same(out));
  EXPECT_TENSOR(out, kDouble, {1}, {kE32});
  const Tensor half_out = ts::empty({1}, kHalf);
  ts::exp_out(half_out, make(kFloat, {1}));
  EXPECT_TENSOR(half_out, kHalf, {1}, {2.71875});
  // exp_out(float64 out, uint8 self) computes in float32 (ATen 1.13: 2.7183, 7.3891, 20.0855).
  const Tensor wide = ts::empty({0}, kDouble);
  ts::exp_out(wide, make(kByte, {0, 1}));
  EXPECT_TENSOR(wide, kDouble, {2}, {1, kE32});
}

// ATen 1.13 refuses out= of another dtype for the Unary class, wider or not (neg_out(float64
// out, uint8 self): "Found dtype Double but expected Byte"); exp, logical_not accept it.
TEST(UnaryVariants, OutOfAnotherDtypeIsRefusedForTheUnaryClass) {
  const Tensor out = ts::empty({0}, kDouble);
  const char* msg = ": Found dtype float64 but expected uint8 (argument 'out')";
  const Tensor u8 = make(kByte, {1, 2});
  EXPECT_ERROR(ts::neg_out(out, u8), std::string("neg") + msg);
  EXPECT_ERROR(ts::abs_out(out, u8), std::string("abs") + msg);
  EXPECT_ERROR(ts::sign_out(out, u8), std::string("sign") + msg);
  EXPECT_ERROR(ts::floor_out(out, u8), std::string("floor") + msg);
  EXPECT_ERROR(ts::ceil_out(out, u8), std::string("ceil") + msg);
  EXPECT_ERROR(ts::round_out(out, u8), std::string("round") + msg);
  EXPECT_ERROR(ts::trunc_out(out, u8), std::string("trunc") + msg);
  EXPECT_ERROR(ts::bitwise_not_out(out, u8), std::string("bitwise_not") + msg);
  EXPECT_ERROR(ts::clamp_out(out, u8, 0, 2), std::string("clamp") + msg);
  EXPECT_ERROR(ts::silu_out(out, make(kHalf, {1})),
               "silu: Found dtype float64 but expected float16");
  EXPECT_ERROR(ts::neg_out(ts::empty({2}, kLong), make(kChar, {-128, 5})),
               "neg: Found dtype int64 but expected int8");
  // clamp's result dtype is the promoted one: a float bound gives float32 (ATen "expected Float").
  EXPECT_ERROR(ts::clamp_out(out, u8, 0.5), "clamp: Found dtype float64 but expected float32");
  EXPECT_EQ(out.numel(), 0);  // never resized
  ts::logical_not_out(out, u8);
  EXPECT_TENSOR(out, kDouble, {2}, {0, 0});
}

TEST(UnaryVariants, EmptyOutIsResizedAndStridedOutIsWrittenInPlace) {
  const Tensor out = ts::empty({0}, kFloat);
  ts::neg_out(out, make(kFloat, {1, 2, 3, 4, 5, 6}, Shape{2, 3}));
  EXPECT_TENSOR(out, kFloat, {2, 3}, {-1, -2, -3, -4, -5, -6});
  // A column-major out keeps its strides: logical [[-1,-2],[-3,-4]] sits in memory as -1,-3,-2,-4.
  const Tensor strided = ts::empty_strided({2, 2}, {1, 2}, kFloat);
  ts::neg_out(strided, make(kFloat, {1, 2, 3, 4}, Shape{2, 2}));
  EXPECT_TENSOR(strided, kFloat, {2, 2}, {-1, -2, -3, -4});
  const float* p = strided.data_ptr<float>();
  EXPECT_EQ(p[1], -3);
  EXPECT_EQ(p[2], -2);
}

TEST(UnaryVariants, OutErrorsLeaveOutUntouched) {
  const Tensor x = make(kFloat, {1, 2});
  const Tensor wrong_shape = make(kFloat, {7, 7, 7});
  EXPECT_ERROR(ts::neg_out(wrong_shape, x),
               "neg: output with shape [3] doesn't match the result shape [2]");
  EXPECT_TENSOR(wrong_shape, kFloat, {3}, {7, 7, 7});
  const Tensor int_out = make(kInt, {7, 7});
  EXPECT_ERROR(ts::exp_out(int_out, x),
               "exp: result type float32 can't be cast to the desired output type int32");
  EXPECT_ERROR(ts::sqrt_out(int_out, make(kInt, {4, 9})),
               "result type float32 can't be cast to the desired output type int32");
  EXPECT_TENSOR(int_out, kInt, {2}, {7, 7});
  const Tensor bool_out = make(kBool, {1, 1});
  EXPECT_ERROR(ts::abs_out(bool_out, make(kInt, {-1, 1})),
               "abs: Found dtype bool but expected int32 (argument 'out')");
  EXPECT_TENSOR(bool_out, kBool, {2}, {1, 1});
  const Tensor empty_out = ts::empty({0}, kFloat);
  EXPECT_ERROR(ts::gelu_out(empty_out, make(kLong, {1})), "gelu: not implemented for dtype int64");
  EXPECT_EQ(empty_out.numel(), 0);  // not resized by a failed call
}

TEST(UnaryVariants, InPlaceCastErrorLeavesSelfUntouched) {
  const Tensor x = make(kInt, {1, 4});
  EXPECT_ERROR(x.exp_(),
               "exp_: result type float32 can't be cast to the desired output type int32");
  EXPECT_ERROR(ts::sigmoid_(x), "can't be cast to the desired output type int32");
  EXPECT_ERROR(x.sqrt_(), "can't be cast to the desired output type int32");
  EXPECT_TENSOR(x, kInt, {2}, {1, 4});
  const Tensor b = make(kBool, {1});
  EXPECT_ERROR(b.exp_(), "exp_: result type float32 can't be cast to the desired output type bool");
  EXPECT_TENSOR(b, kBool, {1}, {1});
}

TEST(UnaryVariants, OverlappingOutIsRejected) {
  // An expanded out: three elements share one location.
  const Tensor one = make(kFloat, {5});
  EXPECT_ERROR(ts::neg_out(one.expand({3}), make(kFloat, {1, 2, 3})),
               "neg: unsupported operation: more than one element of the written-to tensor "
               "(argument 'out') refers to a single memory location");
  EXPECT_TENSOR(one, kFloat, {1}, {5});
  // out and the input overlap partly (shifted by one element of the same storage).
  const Tensor base = make(kFloat, {1, 2, 3, 4});
  const Tensor in = ts::make_view(base, {3}, {1}, 0);
  const Tensor out = ts::make_view(base, {3}, {1}, 1);
  EXPECT_ERROR(ts::neg_out(out, in),
               "neg: unsupported operation: some elements of the input tensor (argument 'self') "
               "and the written-to tensor (argument 'out') refer to a single memory location");
  EXPECT_TENSOR(base, kFloat, {4}, {1, 2, 3, 4});
  // Full overlap (out is the input) is in-place and fine.
  ts::neg_out(base, base);
  EXPECT_TENSOR(base, kFloat, {4}, {-1, -2, -3, -4});
}

TEST(UnaryLayouts, NonContiguousInputs) {
  // Column-major storage of [[1,-2,3],[-4,5,-6]].
  const Tensor cm = make_strided(kFloat, {1, -2, 3, -4, 5, -6}, {2, 3}, {1, 2});
  EXPECT_TENSOR(ts::abs(cm), kFloat, {2, 3}, {1, 2, 3, 4, 5, 6});
  // Transposed view.
  const Tensor m = make(kDouble, {1, 2, 3, 4, 5, 6}, Shape{2, 3});
  EXPECT_TENSOR(ts::neg(m.transpose(0, 1)), kDouble, {3, 2}, {-1, -4, -2, -5, -3, -6});
  // Every other element (stride 2), as a view and as an empty_strided layout.
  EXPECT_TENSOR(ts::sqrt(make(kFloat, {1, 0, 4, 0, 9, 0}).slice(0, 0, 6, 2)), kFloat, {3},
                {1, 2, 3});
  EXPECT_TENSOR(ts::bitwise_not(make_strided(kChar, {1, 2, 3}, {3}, {2})), kChar, {3},
                {-2, -3, -4});
  // Broadcast (stride 0) input.
  EXPECT_TENSOR(ts::exp(make(kFloat, {0, 0.6931471824645996}, Shape{2, 1}).expand({2, 3})), kFloat,
                {2, 3}, {1, 1, 1, 2, 2, 2});
  // An in-place op on a non-contiguous view writes through to the base.
  const Tensor base = make(kInt, {1, 2, 3, 4}, Shape{2, 2});
  base.transpose(0, 1).neg_();
  EXPECT_TENSOR(base, kInt, {2, 2}, {-1, -2, -3, -4});
}

TEST(UnaryLayouts, ZeroDimAndEmptyTensors) {
  EXPECT_TENSOR(ts::sqrt(make(kFloat, {4}, Shape{})), kFloat, {}, {2});
  EXPECT_TENSOR(ts::isnan(make(kDouble, {kNaN}, Shape{})), kBool, {}, {1});
  EXPECT_TENSOR(ts::clamp(make(kInt, {9}, Shape{}), 0, 3), kInt, {}, {3});
  EXPECT_TENSOR(ts::exp(ts::empty({0}, kLong)), kFloat, {0}, {});
  EXPECT_TENSOR(ts::neg(ts::empty({2, 0, 3}, kChar)), kChar, {2, 0, 3}, {});
  EXPECT_TENSOR(ts::logical_not(ts::empty({0, 4}, kFloat)), kBool, {0, 4}, {});
  const Tensor e = ts::empty({0}, kFloat);
  e.abs_();
  EXPECT_EQ(e.numel(), 0);
}

}  // namespace
