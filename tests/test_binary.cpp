// Binary elementwise ops: values (hand-computed or from PyTorch's documentation), special
// values, type promotion, broadcasting, every variant, non-contiguous/0-dim/empty inputs, and
// every error path.
#include <gtest/gtest.h>

#include <numbers>
#include <vector>

#include "test_util.h"
#include "touchstone/touchstone.h"

namespace {

using namespace ts::testing;
using ts::Tensor;

const Tensor kNoTensor;

// ---- add, sub, mul ----

TEST(AddSubMul, FloatingDtypes) {
  EXPECT_TENSOR(ts::add(make(kFloat, {1, 2, 3}), make(kFloat, {10, 20, 30}), 2), kFloat, {3},
                {21, 42, 63});
  EXPECT_TENSOR(ts::sub(make(kDouble, {1.5, -kInf}), make(kDouble, {0.25, -kInf})), kDouble, {2},
                {1.25, kNaN});
  EXPECT_TENSOR(ts::mul(make(kFloat, {kInf, -2, 3}), make(kFloat, {0, 0.5, -0.0})), kFloat, {3},
                {kNaN, -1, 0});
  EXPECT_TRUE(signbit_at(ts::mul(make(kFloat, {3}), make(kFloat, {-0.0})), 0));
  // float16: 65504 + 65504 overflows to inf; 2048 + 1 is a tie, rounded to even (2048).
  EXPECT_TENSOR(ts::add(make(kHalf, {65504, 2048}), make(kHalf, {65504, 1})), kHalf, {2},
                {kInf, 2048});
  // bfloat16 has 8 significant bits: 1 + 1/256 ties to 1, 1 + 3/256 ties up to 1 + 2/128.
  EXPECT_TENSOR(ts::add(make(kBFloat16, {1, 1}), make(kBFloat16, {0.00390625, 0.01171875})),
                kBFloat16, {2}, {1, 1.015625});
  EXPECT_TENSOR(make(kHalf, {1.5}).mul(make(kHalf, {-2})), kHalf, {1}, {-3});
}

// Note [Broadcast scalars load once] (reference/common.h): a one-element operand is rounded to
// the compute dtype once. float32 + int64 16777217 computes in float32, where 16777217 is
// 16777216: 1 + 16777216 ties to even (16777216), 2 + -> 16777218, 3 + -> 16777220 (tie up).
TEST(AddSubMul, OneElementOperandRoundsToTheComputeDtype) {
  for (const char* set : {"reference", "optimized"}) {
    SCOPED_TRACE(set);
    const ts::KernelSetGuard guard(set);
    const Tensor big = ts::scalar_tensor(16777217, kLong);
    EXPECT_TENSOR(ts::add(make(kFloat, {1, 2, 3}), big), kFloat, {3},
                  {16777216, 16777218, 16777220});
    EXPECT_TENSOR(ts::mul(make(kFloat, {1, -1}).expand({2, 2}), big), kFloat, {2, 2},
                  {16777216, -16777216, 16777216, -16777216});
    EXPECT_TENSOR(ts::pow(make(kFloat, {3, -0.5}), 2), kFloat, {2}, {9, 0.25});
  }
}

TEST(AddSubMul, IntegersWrapAround) {
  EXPECT_TENSOR(ts::add(make(kChar, {127, -128}), make(kChar, {1, -1})), kChar, {2}, {-128, 127});
  EXPECT_TENSOR(ts::sub(make(kByte, {0, 5}), make(kByte, {1, 3})), kByte, {2}, {255, 2});
  EXPECT_TENSOR(ts::mul(make(kByte, {200}), make(kByte, {2})), kByte, {1}, {144});
  EXPECT_TENSOR(ts::mul(make(kShort, {300}), make(kShort, {300})), kShort, {1}, {24464});
  EXPECT_TENSOR(ts::mul(make(kInt, {65536}), make(kInt, {65536})), kInt, {1}, {0});
  EXPECT_EQ(long_values(ts::add(make_long({kI64Max, kI64Min}), make_long({1, -1}))),
            (std::vector<int64_t>{kI64Min, kI64Max}));
  EXPECT_EQ(long_values(ts::mul(make_long({kI64Max}), make_long({2}))), (std::vector<int64_t>{-2}));
  EXPECT_EQ(long_values(ts::sub(make_long({0}), make_long({kI64Min}))),
            (std::vector<int64_t>{kI64Min}));
  EXPECT_TENSOR(ts::add(make(kInt, {1, 2}), make(kInt, {10, 20}), 3), kInt, {2}, {31, 62});
  EXPECT_TENSOR(ts::sub(make(kLong, {1, 2}), make(kLong, {10, 20}), -1), kLong, {2}, {11, 22});
}

TEST(AddSubMul, BoolAddIsOrAndMulIsAnd) {
  const Tensor a = make(kBool, {1, 1, 0, 0});
  const Tensor b = make(kBool, {1, 0, 1, 0});
  EXPECT_TENSOR(ts::add(a, b), kBool, {4}, {1, 1, 1, 0});
  EXPECT_TENSOR(ts::add(a, b, true), kBool, {4}, {1, 1, 1, 0});
  EXPECT_TENSOR(ts::mul(a, b), kBool, {4}, {1, 0, 0, 0});
  EXPECT_TENSOR(a + b, kBool, {4}, {1, 1, 1, 0});
  EXPECT_TENSOR(a * b, kBool, {4}, {1, 0, 0, 0});
  // ATen 1.13 converts alpha to bool (nonzero is true): add(b, f, alpha=-1) is b | f, [1, 1, 1];
  // alpha=0 gives self (Note [Alpha in the compute dtype]).
  EXPECT_TENSOR(ts::add(a, b, -1), kBool, {4}, {1, 1, 1, 0});
  EXPECT_TENSOR(ts::add(a, b, 0), kBool, {4}, {1, 1, 0, 0});
  EXPECT_TENSOR(ts::add(a, true, -1), kBool, {4}, {1, 1, 1, 1});
  const Tensor c = make(kBool, {1, 1, 0, 0});
  c.add_(b, -1);
  EXPECT_TENSOR(c, kBool, {4}, {1, 1, 1, 0});
}

TEST(AddSubMul, AlphaMustFitTheComputeDtype) {
  // ATen 1.13: "value cannot be converted to type uint8_t without overflow"; -1 wraps to 255.
  const Tensor u8 = make(kByte, {1, 2, 3});
  EXPECT_ERROR(ts::add(u8, u8, 300),
               "add: value cannot be converted to type uint8 without overflow (argument 'alpha')");
  EXPECT_ERROR(ts::sub(u8, u8, 300), "sub: value cannot be converted to type uint8");
  EXPECT_ERROR(u8.add_(u8, 256), "add_: value cannot be converted to type uint8");
  EXPECT_TENSOR(u8, kByte, {3}, {1, 2, 3});
  EXPECT_ERROR(ts::add(ts::empty({0}, kByte), ts::empty({0}, kByte), 300), "add: value cannot");
  EXPECT_TENSOR(ts::add(u8, u8, -1), kByte, {3}, {0, 0, 0});
  EXPECT_ERROR(ts::add(make(kChar, {1}), make(kChar, {1}), -200), "to type int8 without overflow");
  EXPECT_ERROR(ts::add(make(kHalf, {1}), make(kHalf, {1}), 1e10),
               "to type float16 without overflow");
  EXPECT_ERROR(ts::add(make(kFloat, {1}), make(kFloat, {1}), 1e300),
               "to type float32 without overflow");
  EXPECT_TENSOR(ts::add(make(kDouble, {1}), make(kDouble, {1}), 1e300), kDouble, {1}, {1e300});
}

TEST(AddSubMul, Errors) {
  const Tensor b = make(kBool, {1, 0});
  EXPECT_ERROR(ts::sub(b, b),
               "sub: Subtraction, the `-` operator, with two bool tensors is not supported "
               "(arguments 'self' and 'other'). Use the `^` or `logical_xor()` operator instead.");
  EXPECT_ERROR(b - b, "Subtraction, the `-` operator");
  EXPECT_ERROR(ts::sub(b, true), "Subtraction, the `-` operator");
  EXPECT_ERROR(b.sub_(b), "sub_: Subtraction, the `-` operator");
  // ATen's sub_check refuses one bool operand too, a Tensor or a Scalar.
  const char* one_bool =
      "Subtraction, the `-` operator, with a bool tensor is not supported (argument '";
  const char* hint =
      "'). If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.";
  const Tensor l = make(kLong, {1, 2});
  EXPECT_ERROR(ts::sub(b, l), std::string("sub: ") + one_bool + "self" + hint);
  EXPECT_ERROR(ts::sub(l, b), std::string("sub: ") + one_bool + "other" + hint);
  EXPECT_ERROR(ts::sub(b, 1), std::string("sub: ") + one_bool + "self" + hint);
  EXPECT_ERROR(ts::sub(l, true), std::string("sub: ") + one_bool + "other" + hint);
  EXPECT_ERROR(make(kFloat, {1, 2}) - b, one_bool);
  EXPECT_ERROR(l.sub_(b), "sub_: Subtraction, the `-` operator, with a bool tensor");
  const Tensor out = ts::empty({0}, kLong);
  EXPECT_ERROR(ts::sub_out(out, l, b), "sub: Subtraction, the `-` operator, with a bool tensor");
  EXPECT_ERROR(ts::sub(ts::empty({0}, kBool), 1), one_bool);
  EXPECT_TENSOR(l, kLong, {2}, {1, 2});
  EXPECT_EQ(out.numel(), 0);
  const Tensor i = make(kInt, {1, 2});
  EXPECT_ERROR(
      ts::add(i, i, 2.5),
      "add: For integral input tensors, argument alpha must not be a floating point number.");
  EXPECT_ERROR(i.sub_(i, 0.5), "sub_: For integral input tensors, argument alpha must not be");
  EXPECT_ERROR(ts::add(make(kFloat, {1}), make(kFloat, {1}), true),
               "add: Boolean alpha only supported for Boolean results (argument 'alpha').");
  EXPECT_ERROR(ts::add(i, i, true), "add: Boolean alpha only supported for Boolean results");
  EXPECT_ERROR(ts::add(b, b, 2.5), "add: For integral input tensors, argument alpha");
  EXPECT_ERROR(ts::add(i, kNoTensor), "add: expected a defined tensor for argument 'other'");
  EXPECT_TENSOR(i, kInt, {2}, {1, 2});
  // A float alpha is fine when the result is floating.
  EXPECT_TENSOR(ts::add(i, make(kFloat, {1, 1}), 0.5), kFloat, {2}, {1.5, 2.5});
}

// ---- type promotion of results ----

TEST(BinaryPromotion, ResultDtypes) {
  EXPECT_TENSOR(ts::div(make(kInt, {7, -7}), make(kInt, {2, 2})), kFloat, {2}, {3.5, -3.5});
  EXPECT_TENSOR(ts::add(make(kInt, {1, 2}), 2.5), kFloat, {2}, {3.5, 4.5});
  EXPECT_TENSOR(ts::add(make(kByte, {200}), make(kChar, {100})), kShort, {1}, {300});
  EXPECT_TENSOR(ts::add(make(kBool, {1}), make(kByte, {255})), kByte, {1}, {0});
  EXPECT_TENSOR(ts::add(make(kBool, {1, 0}), 1), kLong, {2}, {2, 1});
  EXPECT_TENSOR(ts::add(make(kHalf, {1}), make(kBFloat16, {1})), kFloat, {1}, {2});
  EXPECT_TENSOR(ts::mul(make(kLong, {3}), make(kFloat, {0.5})), kFloat, {1}, {1.5});
  EXPECT_TENSOR(ts::mul(make(kFloat, {3}), make(kDouble, {0.5})), kDouble, {1}, {1.5});
  // A 0-dim tensor of the same category does not widen a dimensioned one...
  EXPECT_TENSOR(ts::add(make(kInt, {2147483647}), make(kLong, {1}, Shape{})), kInt, {1},
                {-2147483648.0});
  EXPECT_TENSOR(ts::add(make(kHalf, {1}), make(kFloat, {0.5}, Shape{})), kHalf, {1}, {1.5});
  // ... but a higher category wins with its own dtype; a wrapped float gives the default dtype.
  EXPECT_TENSOR(ts::add(make(kInt, {1}), make(kDouble, {0.5}, Shape{})), kDouble, {1}, {1.5});
  EXPECT_TENSOR(ts::add(make(kLong, {1}), 0.5), kFloat, {1}, {1.5});
  // A wrapped int is cast to the tensor's dtype: 1000 becomes int8 -24.
  EXPECT_TENSOR(ts::add(make(kChar, {1}), 1000), kChar, {1}, {-23});
  EXPECT_TENSOR(ts::add(make(kByte, {1}), make(kLong, {300}, Shape{})), kByte, {1}, {45});
  // Two 0-dim tensors promote normally.
  EXPECT_TENSOR(ts::add(make(kByte, {1}, Shape{}), make(kChar, {1}, Shape{})), kShort, {}, {2});
}

TEST(BinaryPromotion, ComparisonsGiveBoolAndCompareInTheCommonDtype) {
  EXPECT_TENSOR(ts::lt(make(kLong, {1, 2}), 1.5), kBool, {2}, {1, 0});
  // 0.1 as a wrapped float is rounded to float32 like the tensor: equal, as in PyTorch.
  EXPECT_TENSOR(ts::eq(make(kFloat, {0.1}), 0.1), kBool, {1}, {1});
  EXPECT_TENSOR(ts::eq(make(kDouble, {0.1}), make(kFloat, {0.1})), kBool, {1}, {0});
  // int64 16777217 and float32 16777216 meet in float32, where both are 16777216.
  EXPECT_TENSOR(ts::eq(make(kLong, {16777217}), make(kFloat, {16777216}, Shape{})), kBool, {1},
                {1});
  EXPECT_TENSOR(ts::gt(make(kByte, {255}), make(kChar, {-1})), kBool, {1}, {1});
  EXPECT_TENSOR(ts::eq(make(kBool, {1, 0}), 1), kBool, {2}, {1, 0});
}

// ---- div ----

TEST(Div, TrueDivisionDocsAndSpecialValues) {
  EXPECT_TENSOR(ts::div(make(kFloat, {0.3810, 1.2774, -0.2972, -0.3719, 0.4637}), 0.5), kFloat, {5},
                {0.7620, 2.5548, -0.5944, -0.7438, 0.9274}, 1e-6);
  EXPECT_TENSOR(ts::div(make(kDouble, {1, -1, 0, 1}), make(kDouble, {0, 0, 0, kInf})), kDouble, {4},
                {kInf, -kInf, kNaN, 0});
  EXPECT_TENSOR(ts::div(make(kInt, {1, -1, 0}), make(kInt, {0, 0, 0})), kFloat, {3},
                {kInf, -kInf, kNaN});
  EXPECT_TENSOR(ts::div(make(kBool, {1, 0}), make(kBool, {1, 1})), kFloat, {2}, {1, 0});
  EXPECT_TENSOR(ts::div(make(kFloat, {1}), make(kFloat, {3})), kFloat, {1}, {0.3333333432674408});
  EXPECT_TENSOR(ts::div(make(kHalf, {1}), make(kHalf, {3})), kHalf, {1}, {0.333251953125});
  EXPECT_TENSOR(ts::div(make(kBFloat16, {1}), 3), kBFloat16, {1}, {0.333984375});
  EXPECT_TENSOR(make(kLong, {1}) / make(kLong, {4}), kFloat, {1}, {0.25});
  EXPECT_TENSOR(make(kFloat, {3}) / 2, kFloat, {1}, {1.5});
}

TEST(Div, TruncAndFloorOnIntegers) {
  const Tensor a = make(kLong, {-7, 7, -7, 7, 6});
  const Tensor b = make(kLong, {2, 2, -2, -2, 3});
  EXPECT_TENSOR(ts::div(a, b), kFloat, {5}, {-3.5, 3.5, 3.5, -3.5, 2});
  EXPECT_TENSOR(ts::div(a, b, "trunc"), kLong, {5}, {-3, 3, 3, -3, 2});
  EXPECT_TENSOR(ts::div(a, b, "floor"), kLong, {5}, {-4, 3, 3, -4, 2});
  EXPECT_TENSOR(ts::div(make(kChar, {-128}), make(kChar, {-1}), "trunc"), kChar, {1}, {-128});
  EXPECT_TENSOR(ts::div(make(kChar, {-128}), -1, "floor"), kChar, {1}, {-128});
  EXPECT_EQ(long_values(ts::div(make_long({kI64Min}), -1, "floor")),
            (std::vector<int64_t>{kI64Min}));
  EXPECT_TENSOR(ts::div(make(kByte, {255, 7}), make(kByte, {2, 7}), "floor"), kByte, {2}, {127, 1});
  EXPECT_TENSOR(ts::div(make(kInt, {-1, 1}), make(kInt, {4, -4}), "floor"), kInt, {2}, {-1, -1});
  EXPECT_TENSOR(ts::div(make(kShort, {-1, 1}), make(kShort, {4, -4}), "trunc"), kShort, {2},
                {0, 0});
}

TEST(Div, TruncAndFloorOnFloats) {
  const Tensor a = make(kDouble, {-7.5, 7.5, -7.5, 7.5});
  const Tensor b = make(kDouble, {2, 2, -2, -2});
  EXPECT_TENSOR(ts::div(a, b, "trunc"), kDouble, {4}, {-3, 3, 3, -3});
  EXPECT_TENSOR(ts::div(a, b, "floor"), kDouble, {4}, {-4, 3, 3, -4});
  // Python: 1 // 0.1 == 9.0 (0.1 is a little more than 1/10).
  EXPECT_TENSOR(ts::div(make(kDouble, {1}), 0.1, "floor"), kDouble, {1}, {9});
  EXPECT_TENSOR(ts::div(make(kFloat, {1}), 0.1, "floor"), kFloat, {1}, {9});
  const Tensor z = ts::div(make(kDouble, {0.0, -0.0, 1, -1, 0, 5, -5}),
                           make(kDouble, {-1, 1, 0, 0, 0, kInf, kInf}), "floor");
  EXPECT_TENSOR(z, kDouble, {7}, {0, 0, kInf, -kInf, kNaN, 0, -1});
  EXPECT_TRUE(signbit_at(z, 0));
  EXPECT_TRUE(signbit_at(z, 1));
  EXPECT_TENSOR(ts::div(make(kFloat, {5, -5, kInf}), make(kFloat, {0, 0, 2}), "trunc"), kFloat, {3},
                {kInf, -kInf, kInf});
  EXPECT_TENSOR(ts::div(make(kHalf, {7, -7}), 2, "floor"), kHalf, {2}, {3, -4});
  EXPECT_TENSOR(ts::div(make(kBFloat16, {7, -7}), 2, "trunc"), kBFloat16, {2}, {3, -3});
  // An integer tensor with a float divisor divides in float.
  EXPECT_TENSOR(ts::div(make(kLong, {7}), 2.0, "floor"), kFloat, {1}, {3});
}

TEST(Div, ErrorsAndZeroDivisionLeavesTensorsUntouched) {
  const Tensor a = make(kInt, {6, 4, 2});
  const Tensor zero = make(kInt, {2, 0, 1});
  EXPECT_ERROR(ts::div(a, zero, "trunc"), "ZeroDivisionError");
  EXPECT_ERROR(ts::div(a, zero, "floor"), "ZeroDivisionError");
  EXPECT_ERROR(a.div_(zero, "trunc"), "div: ZeroDivisionError");
  EXPECT_TENSOR(a, kInt, {3}, {6, 4, 2});
  const Tensor out = make(kInt, {9, 9, 9});
  EXPECT_ERROR(ts::div_out(out, a, zero, "floor"), "ZeroDivisionError");
  EXPECT_TENSOR(out, kInt, {3}, {9, 9, 9});
  EXPECT_ERROR(ts::div(a, 0, "trunc"), "ZeroDivisionError");
  EXPECT_ERROR(ts::div(a, a, "round"),
               "div: expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
               "'round'");
  EXPECT_ERROR(ts::div(make(kBool, {1}), make(kBool, {1}), "trunc"),
               "div: not implemented for dtype bool (argument 'self')");
  EXPECT_ERROR(a.div_(a),
               "div_: result type float32 can't be cast to the desired output type int32");
  EXPECT_ERROR(a.div_(2),
               "div_: result type float32 can't be cast to the desired output type int32");
  EXPECT_TENSOR(a, kInt, {3}, {6, 4, 2});
  a.div_(make(kInt, {4, 4, 4}), "floor");
  EXPECT_TENSOR(a, kInt, {3}, {1, 1, 0});
}

// ---- remainder ----

TEST(Remainder, DocsExamplesHaveTheSignOfTheDivisor) {
  EXPECT_TENSOR(ts::remainder(make(kFloat, {-3, -2, -1, 1, 2, 3}), 2), kFloat, {6},
                {1, 0, 1, 1, 0, 1});
  EXPECT_TENSOR(ts::remainder(make(kLong, {1, 2, 3, 4, 5}), -1.5), kFloat, {5},
                {-0.5, -1, 0, -0.5, -1});
  EXPECT_TENSOR(ts::remainder(make(kLong, {-3, -2, -1, 1, 2, 3}), 2), kLong, {6},
                {1, 0, 1, 1, 0, 1});
  EXPECT_TENSOR(ts::remainder(make(kInt, {-3, -2, -1, 1, 2, 3}), make(kInt, {-2})), kInt, {6},
                {-1, 0, -1, -1, 0, -1});
  EXPECT_TENSOR(ts::remainder(make(kChar, {-128, 127}), make(kChar, {-1, -128})), kChar, {2},
                {0, -1});
  EXPECT_TENSOR(ts::remainder(make(kByte, {255}), make(kByte, {7})), kByte, {1}, {3});
  EXPECT_TENSOR(ts::remainder(make(kHalf, {-3}), 2), kHalf, {1}, {1});
  EXPECT_TENSOR(ts::remainder(make(kBFloat16, {5.5}), -2), kBFloat16, {1}, {-0.5});
}

TEST(Remainder, SpecialValuesAndErrors) {
  EXPECT_TENSOR(ts::remainder(make(kDouble, {1, kInf, 5, -5, kNaN, 1e20}),
                              make(kDouble, {0, 2, kInf, kInf, 1, 3})),
                kDouble, {6}, {kNaN, kNaN, 5, kInf, kNaN, 1});
  const Tensor a = make(kLong, {5, 6});
  EXPECT_ERROR(ts::remainder(a, make(kLong, {1, 0})), "remainder: ZeroDivisionError");
  EXPECT_ERROR(a.remainder_(0), "remainder: ZeroDivisionError");
  EXPECT_TENSOR(a, kLong, {2}, {5, 6});
  EXPECT_ERROR(ts::remainder(make(kBool, {1}), make(kBool, {1})),
               "remainder: not implemented for dtype bool");
  EXPECT_ERROR(a.remainder_(1.5), "remainder_: result type float32 can't be cast");
  a.remainder_(4);
  EXPECT_TENSOR(a, kLong, {2}, {1, 2});
}

// ---- pow ----

TEST(Pow, DocsExamplesAndFloatingSpecialValues) {
  const Tensor e = make(kFloat, {1, 2, 3, 4});
  EXPECT_TENSOR(ts::pow(e, e), kFloat, {4}, {1, 4, 27, 256});
  EXPECT_TENSOR(ts::pow(2, e), kFloat, {4}, {2, 4, 8, 16});
  EXPECT_TENSOR(ts::pow(make(kDouble, {0, -8, kNaN, 1, 2, 4}),
                        make(kDouble, {-1, 1.0 / 3, 0, kNaN, -1, 0.5})),
                kDouble, {6}, {kInf, kNaN, 1, 1, 0.5, 2});
  EXPECT_TENSOR(ts::pow(make(kHalf, {2.5}), 2), kHalf, {1}, {6.25});
  EXPECT_TENSOR(ts::pow(make(kBFloat16, {3}), 3), kBFloat16, {1}, {27});
  EXPECT_TENSOR(ts::pow(make(kFloat, {2}), -1), kFloat, {1}, {0.5});
  // An integer base with a float exponent computes in the default dtype.
  EXPECT_TENSOR(ts::pow(make(kInt, {4}), 0.5), kFloat, {1}, {2});
  EXPECT_TENSOR(ts::pow(make(kInt, {2}), -1.0), kFloat, {1}, {0.5});
  EXPECT_TENSOR(ts::pow(2.0, make(kLong, {3})), kFloat, {1}, {8});
}

// Note [float32 pow with a Scalar exponent] (reference/binary.cpp), on both sets: ATen 1.13
// gives -1 for pow(float32 -1, 9999999999.0) (the exponent stays odd in double) and 1 for
// bfloat16 (rounded to bfloat16, it is even); a 0-dim Tensor exponent rounds to float32 (even).
TEST(Pow, Float32ScalarExponentStaysDouble) {
  for (const char* set : {"reference", "optimized"}) {
    SCOPED_TRACE(set);
    const ts::KernelSetGuard guard(set);
    EXPECT_TENSOR(ts::pow(make(kFloat, {-1, -1}), 9999999999.0), kFloat, {2}, {-1, -1});
    EXPECT_TENSOR(ts::pow(make(kBFloat16, {-1}), 9999999999.0), kBFloat16, {1}, {1});
    EXPECT_TENSOR(ts::pow(make(kFloat, {-1}), ts::scalar_tensor(9999999999.0, kDouble)), kFloat,
                  {1}, {1});
  }
}

// The same under no_grad, where the expanded Scalar is a view known by its no_grad root only.
TEST(Pow, Float32ScalarExponentStaysDoubleWithoutGradMode) {
  const ts::NoGradGuard no_grad;
  for (const char* set : {"reference", "optimized"}) {
    SCOPED_TRACE(set);
    const ts::KernelSetGuard guard(set);
    EXPECT_TENSOR(ts::pow(make(kFloat, {-1, -1, 2}), 9999999999.0), kFloat, {3},
                  {-1, -1, INFINITY});
  }
}

// Note [pow backward with a Scalar exponent]: d/dx x ** 1e10 = 1e10 * x ** 9999999999, the
// exponent - 1 formed in double as ATen 1.13 (probed: float32 grad [-1e10, 1e10, 0]); bfloat16
// rounds 9999999999 to 1e10 (even) in its kernel and 1e10 to 9999220736 (ATen: 9.9992e+09).
TEST(Pow, ScalarExponentBackwardFormsExponentMinusOneInDouble) {
  for (const char* set : {"reference", "optimized"}) {
    SCOPED_TRACE(set);
    const ts::KernelSetGuard guard(set);
    const Tensor x = make(kFloat, {-1, 1, 0.5}).requires_grad_();
    ts::pow(x, 1e10).sum().backward();
    EXPECT_TENSOR(x.grad(), kFloat, {3}, {-1e10, 1e10, 0});
    const Tensor b = make(kBFloat16, {-1, 1}).requires_grad_();
    ts::pow(b, 1e10).sum().backward();
    EXPECT_TENSOR(b.grad(), kBFloat16, {2}, {9999220736.0, 9999220736.0});
    const Tensor d = make(kDouble, {-1, 2}).requires_grad_();
    ts::pow(d, 3).sum().backward();  // 3 x^2
    EXPECT_TENSOR(d.grad(), kDouble, {2}, {3, 12});
  }
}

TEST(Pow, IntegersAreExactAndWrap) {
  EXPECT_TENSOR(ts::pow(make(kLong, {2, 3, -2, 0, 7}), 3), kLong, {5}, {8, 27, -8, 0, 343});
  EXPECT_TENSOR(ts::pow(make(kChar, {2, -2}), 7), kChar, {2}, {-128, -128});
  EXPECT_TENSOR(ts::pow(make(kInt, {3}), 21), kInt, {1}, {1870418611});
  EXPECT_EQ(long_values(ts::pow(make_long({3, 2, 2}), make_long({40, 63, 64}))),
            (std::vector<int64_t>{-6289078614652622815, kI64Min, 0}));
  EXPECT_TENSOR(ts::pow(make(kByte, {3}), 5), kByte, {1}, {243});
  EXPECT_TENSOR(ts::pow(make(kByte, {2}), 8), kByte, {1}, {0});
  EXPECT_TENSOR(ts::pow(make(kShort, {5, 0}), make(kShort, {0, 0})), kShort, {2}, {1, 1});
  // Tensor-Tensor negative exponents: 1 for base 1, +-1 for base -1, else 0.
  EXPECT_TENSOR(ts::pow(make(kLong, {1, -1, -1, 2, 0, -3}), make(kLong, {-3, -3, -2, -1, -1, -5})),
                kLong, {6}, {1, -1, 1, 0, 0, 0});
  // pow(Scalar, Tensor) is Tensor-Tensor too: 2 ** -1 is 0 in int64.
  EXPECT_TENSOR(ts::pow(2, make(kLong, {-1, 10})), kLong, {2}, {0, 1024});
}

TEST(Pow, Errors) {
  const Tensor i = make(kInt, {2, 3});
  const char* msg = "Integers to negative integer powers are not allowed (argument 'exponent').";
  EXPECT_ERROR(ts::pow(i, -1), std::string("pow: ") + msg);
  EXPECT_ERROR(i.pow(-2), std::string("pow: ") + msg);
  EXPECT_ERROR(i.pow_(-1), std::string("pow_: ") + msg);
  EXPECT_ERROR(ts::pow(make(kBool, {1}), -1), std::string("pow: ") + msg);
  EXPECT_ERROR(ts::pow(make(kByte, {1}), -1), msg);
  EXPECT_TENSOR(i, kInt, {2}, {2, 3});
  EXPECT_ERROR(ts::pow(make(kBool, {1}), make(kBool, {1})), "pow: not implemented for dtype bool");
  EXPECT_ERROR(i.pow_(0.5),
               "pow_: result type float32 can't be cast to the desired output type int32");
  EXPECT_TENSOR(i, kInt, {2}, {2, 3});
  i.pow_(2);
  EXPECT_TENSOR(i, kInt, {2}, {4, 9});
}

// pow(x, true) is x (PowBackward0): its gradient is 1 * x^0 = 1, as in ATen, whose
// `exponent - 1` of a Scalar is Scalar arithmetic (sub refuses a bool tensor).
TEST(Pow, BoolScalarExponentHasAGradient) {
  const Tensor x = make(kDouble, {-2, 0.5, 3}).requires_grad_();
  ts::pow(x, ts::Scalar(true)).sum().backward();
  EXPECT_TENSOR(x.grad(), kDouble, {3}, {1, 1, 1});
}

TEST(Pow, ScalarExponentMustFitTheComputeDtype) {
  // ATen 1.13's CPU kernel converts the exponent to the compute dtype: pow(u8, 300) says "value
  // cannot be converted to type uint8_t without overflow"; float32 and float64 take a double.
  const Tensor u8 = make(kByte, {1, 2, 3});
  EXPECT_ERROR(ts::pow(u8, 300),
               "pow: value cannot be converted to type uint8 without overflow (argument "
               "'exponent')");
  EXPECT_ERROR(u8.pow_(256), "pow_: value cannot be converted to type uint8");
  EXPECT_TENSOR(u8, kByte, {3}, {1, 2, 3});
  EXPECT_TENSOR(ts::pow(u8, 255), kByte, {3}, {1, 0, 171});  // ATen: 1, 0, 171 (wraps)
  EXPECT_ERROR(ts::pow(make(kChar, {1}), 300), "pow: value cannot be converted to type int8");
  EXPECT_ERROR(ts::pow(ts::empty({0}, kChar), 300), "to type int8 without overflow");
  EXPECT_ERROR(ts::pow(make(kInt, {1}), int64_t{10000000000}), "to type int32 without overflow");
  EXPECT_ERROR(ts::pow(make(kHalf, {1}), 1e10), "to type float16 without overflow");
  EXPECT_ERROR(ts::pow(make(kBFloat16, {1}), 1e300), "to type bfloat16 without overflow");
  EXPECT_TENSOR(ts::pow(make(kHalf, {1, 2}), kInf), kHalf, {2}, {1, kInf});
  EXPECT_TENSOR(ts::pow(make(kFloat, {1, 2}), 1e300), kFloat, {2}, {1, kInf});
  EXPECT_TENSOR(ts::pow(u8, 300.0), kFloat, {3}, {1, kInf, kInf});  // a float32 result
  // pow(Scalar, Tensor) and a 0-dim exponent tensor are Tensor-Tensor: no check (ATen: 44).
  EXPECT_TENSOR(ts::pow(300, make(kByte, {1})), kByte, {1}, {44});
}

// ---- maximum, minimum, atan2 ----

TEST(MaximumMinimum, DocsExamplesNaNAndDtypes) {
  const Tensor a = make(kLong, {1, 2, -1});
  const Tensor b = make(kLong, {3, 0, 4});
  EXPECT_TENSOR(ts::maximum(a, b), kLong, {3}, {3, 2, 4});
  EXPECT_TENSOR(ts::minimum(a, b), kLong, {3}, {1, 0, -1});
  const Tensor x = make(kFloat, {kNaN, 1, -kInf, 2});
  const Tensor y = make(kFloat, {0, kNaN, 5, kInf});
  EXPECT_TENSOR(ts::maximum(x, y), kFloat, {4}, {kNaN, kNaN, 5, kInf});
  EXPECT_TENSOR(x.minimum(y), kFloat, {4}, {kNaN, kNaN, -kInf, 2});
  EXPECT_TENSOR(ts::maximum(make(kBool, {1, 0, 0}), make(kBool, {0, 1, 0})), kBool, {3}, {1, 1, 0});
  EXPECT_TENSOR(ts::minimum(make(kBool, {1, 0, 1}), make(kBool, {0, 1, 1})), kBool, {3}, {0, 0, 1});
  EXPECT_TENSOR(ts::maximum(make(kByte, {200}), make(kChar, {-1})), kShort, {1}, {200});
  EXPECT_TENSOR(ts::minimum(make(kByte, {200}), make(kChar, {-1})), kShort, {1}, {-1});
  EXPECT_TENSOR(ts::maximum(make(kHalf, {1.5}), make(kHalf, {-2})), kHalf, {1}, {1.5});
  EXPECT_TENSOR(ts::minimum(make(kBFloat16, {kNaN}), make(kBFloat16, {1})), kBFloat16, {1}, {kNaN});
  EXPECT_TENSOR(ts::maximum(make(kInt, {1, 5}), 2.5), kFloat, {2}, {2.5, 5});
  const Tensor out = ts::empty({0}, kDouble);
  ts::maximum_out(out, make(kInt, {1, 5}), make(kInt, {3, 3}));
  EXPECT_TENSOR(out, kDouble, {2}, {3, 5});
}

TEST(Atan2, QuadrantsSignedZeroAndPromotion) {
  const double pi = std::numbers::pi;
  const Tensor r = ts::atan2(make(kDouble, {1, 1, 0, -0.0, 0, -1, 1}),
                             make(kDouble, {1, -1, -1, -1, 0, 0, kInf}));
  EXPECT_TENSOR(r, kDouble, {7}, {pi / 4, 3 * pi / 4, pi, -pi, 0, -pi / 2, 0}, 1e-15);
  EXPECT_TENSOR(ts::atan2(make(kFloat, {1}), make(kFloat, {1})), kFloat, {1}, {0.7853981852531433});
  EXPECT_TENSOR(ts::atan2(make(kLong, {1}), make(kInt, {1})), kFloat, {1}, {0.7853981852531433});
  EXPECT_TENSOR(ts::atan2(make(kBool, {0}), make(kBool, {1})), kFloat, {1}, {0});
  EXPECT_TENSOR(ts::atan2(make(kHalf, {1}), 0), kHalf, {1}, {1.5703125});
  EXPECT_TENSOR(ts::atan2(make(kBFloat16, {0}), -1), kBFloat16, {1}, {3.140625});
  const Tensor y = make(kFloat, {0});
  y.atan2_(make(kFloat, {-1}));
  EXPECT_TENSOR(y, kFloat, {1}, {3.1415927410125732});
  EXPECT_ERROR(make(kInt, {1}).atan2_(make(kInt, {1})),
               "atan2_: result type float32 can't be cast to the desired output type int32");
}

// ---- comparisons ----

TEST(Comparisons, DocsExamples) {
  const Tensor a = make(kLong, {1, 2, 3, 4}, Shape{2, 2});
  const Tensor b = make(kLong, {1, 1, 4, 4}, Shape{2, 2});
  EXPECT_TENSOR(ts::eq(a, b), kBool, {2, 2}, {1, 0, 0, 1});
  EXPECT_TENSOR(ts::ne(a, b), kBool, {2, 2}, {0, 1, 1, 0});
  EXPECT_TENSOR(ts::ge(a, b), kBool, {2, 2}, {1, 1, 0, 1});
  EXPECT_TENSOR(ts::gt(a, b), kBool, {2, 2}, {0, 1, 0, 0});
  EXPECT_TENSOR(ts::le(a, b), kBool, {2, 2}, {1, 0, 1, 1});
  EXPECT_TENSOR(ts::lt(a, b), kBool, {2, 2}, {0, 0, 1, 0});
  EXPECT_TENSOR(a.eq(b), kBool, {2, 2}, {1, 0, 0, 1});
  EXPECT_TENSOR(a.gt(2), kBool, {2, 2}, {0, 0, 1, 1});
}

TEST(Comparisons, NaNInfAndEveryDtype) {
  const Tensor x = make(kFloat, {kNaN, kNaN, kInf, -0.0});
  const Tensor y = make(kFloat, {kNaN, 1, kInf, 0});
  EXPECT_TENSOR(ts::eq(x, y), kBool, {4}, {0, 0, 1, 1});
  EXPECT_TENSOR(ts::ne(x, y), kBool, {4}, {1, 1, 0, 0});
  EXPECT_TENSOR(ts::lt(x, y), kBool, {4}, {0, 0, 0, 0});
  EXPECT_TENSOR(ts::le(x, y), kBool, {4}, {0, 0, 1, 1});
  EXPECT_TENSOR(ts::gt(x, y), kBool, {4}, {0, 0, 0, 0});
  EXPECT_TENSOR(ts::ge(x, y), kBool, {4}, {0, 0, 1, 1});
  EXPECT_TENSOR(ts::lt(make(kHalf, {1, 2}), make(kHalf, {2, 2})), kBool, {2}, {1, 0});
  EXPECT_TENSOR(ts::ge(make(kBFloat16, {1, 2}), 1.5), kBool, {2}, {0, 1});
  EXPECT_TENSOR(ts::gt(make(kDouble, {1e-300}), 0), kBool, {1}, {1});
  EXPECT_TENSOR(ts::le(make(kChar, {-128}), make(kChar, {127})), kBool, {1}, {1});
  EXPECT_TENSOR(ts::lt(make(kByte, {0}), make(kByte, {255})), kBool, {1}, {1});
  EXPECT_TENSOR(ts::ne(make(kShort, {3}), make(kInt, {3})), kBool, {1}, {0});
  EXPECT_TENSOR(ts::lt(make_long({kI64Max - 1}), make_long({kI64Max})), kBool, {1}, {1});
  EXPECT_TENSOR(ts::gt(make(kBool, {1, 0}), make(kBool, {0, 0})), kBool, {2}, {1, 0});
}

TEST(Comparisons, InPlaceAndOutStoreZeroAndOne) {
  const Tensor f = make(kFloat, {1, 2, 3});
  EXPECT_TRUE(f.eq_(2).is_same(f));
  EXPECT_TENSOR(f, kFloat, {3}, {0, 1, 0});
  const Tensor i = make(kInt, {1, 5});
  i.lt_(make(kInt, {3, 3}));
  EXPECT_TENSOR(i, kInt, {2}, {1, 0});
  const Tensor out = ts::empty({2}, kLong);
  ts::ge_out(out, make(kFloat, {1, 2}), make(kFloat, {2, 2}));
  EXPECT_TENSOR(out, kLong, {2}, {0, 1});
}

// ---- logical and bitwise ----

TEST(Logical, DocsExamplesNaNAndVariants) {
  EXPECT_TENSOR(ts::logical_and(make(kBool, {1, 0, 1}), make(kBool, {1, 0, 0})), kBool, {3},
                {1, 0, 0});
  EXPECT_TENSOR(ts::logical_or(make(kBool, {1, 0, 1}), make(kBool, {1, 0, 0})), kBool, {3},
                {1, 0, 1});
  const Tensor a = make(kChar, {0, 1, 10, 0});
  const Tensor b = make(kChar, {4, 0, 1, 0});
  EXPECT_TENSOR(ts::logical_and(a, b), kBool, {4}, {0, 0, 1, 0});
  EXPECT_TENSOR(ts::logical_or(a, b), kBool, {4}, {1, 1, 1, 0});
  EXPECT_TENSOR(ts::logical_and(make(kDouble, {0, 1, 10, 0}), make(kDouble, {4, 0, 1, 0})), kBool,
                {4}, {0, 0, 1, 0});
  EXPECT_TENSOR(ts::logical_or(make(kDouble, {0, 1, 10, 0}), make(kChar, {4, 0, 1, 0})), kBool, {4},
                {1, 1, 1, 0});
  const Tensor out = ts::empty({4}, kBool);
  ts::logical_and_out(out, a, b);
  EXPECT_TENSOR(out, kBool, {4}, {0, 0, 1, 0});
  EXPECT_TENSOR(ts::logical_and(make(kFloat, {kNaN, kNaN}), make(kFloat, {1, 0})), kBool, {2},
                {1, 0});
  EXPECT_TENSOR(ts::logical_or(make(kHalf, {0, -0.0}), make(kBFloat16, {0, 0.5})), kBool, {2},
                {0, 1});
  const Tensor f = make(kFloat, {2, 0});
  f.logical_or_(make(kFloat, {0, 0}));
  EXPECT_TENSOR(f, kFloat, {2}, {1, 0});
  EXPECT_TENSOR(make(kLong, {3, 0}).logical_and(true), kBool, {2}, {1, 0});
}

TEST(Bitwise, DocsExamplesAndDtypes) {
  const Tensor a = make(kChar, {-1, -2, 3});
  const Tensor b = make(kChar, {1, 0, 3});
  EXPECT_TENSOR(ts::bitwise_and(a, b), kChar, {3}, {1, 0, 3});
  EXPECT_TENSOR(ts::bitwise_or(a, b), kChar, {3}, {-1, -2, 3});
  EXPECT_TENSOR(ts::bitwise_xor(a, b), kChar, {3}, {-2, -2, 0});
  const Tensor p = make(kBool, {1, 1, 0});
  const Tensor q = make(kBool, {0, 1, 0});
  EXPECT_TENSOR(ts::bitwise_and(p, q), kBool, {3}, {0, 1, 0});
  EXPECT_TENSOR(ts::bitwise_or(p, q), kBool, {3}, {1, 1, 0});
  EXPECT_TENSOR(ts::bitwise_xor(p, q), kBool, {3}, {1, 0, 0});
  EXPECT_TENSOR(ts::bitwise_xor(make(kByte, {0xF0}), make(kByte, {0xFF})), kByte, {1}, {0x0F});
  EXPECT_TENSOR(ts::bitwise_and(make(kByte, {0xFF}), make(kChar, {-1})), kShort, {1}, {0xFF});
  EXPECT_EQ(long_values(ts::bitwise_or(make_long({kI64Min}), 1)),
            (std::vector<int64_t>{kI64Min + 1}));
  EXPECT_TENSOR(make(kInt, {6}).bitwise_and(3), kInt, {1}, {2});
  const Tensor s = make(kShort, {12});
  s.bitwise_xor_(10);
  EXPECT_TENSOR(s, kShort, {1}, {6});
}

TEST(Bitwise, FloatingDtypesAreErrors) {
  EXPECT_ERROR(ts::bitwise_and(make(kFloat, {1}), make(kFloat, {1})),
               "bitwise_and: not implemented for dtype float32");
  EXPECT_ERROR(ts::bitwise_or(make(kInt, {1}), 1.5),
               "bitwise_or: not implemented for dtype float32");
  EXPECT_ERROR(ts::bitwise_xor(make(kHalf, {1}), make(kInt, {1})),
               "bitwise_xor: not implemented for dtype float16");
  const Tensor out = ts::empty({0}, kDouble);
  EXPECT_ERROR(ts::bitwise_and_out(out, make(kDouble, {1}), make(kDouble, {1})),
               "not implemented for dtype float64");
  EXPECT_EQ(out.numel(), 0);
}

// ---- broadcasting, variants, layouts ----

TEST(BinaryBroadcast, ShapesAndMismatch) {
  const Tensor col = make(kFloat, {1, 2}, Shape{2, 1});
  const Tensor row = make(kFloat, {10, 20, 30});
  EXPECT_TENSOR(ts::add(col, row), kFloat, {2, 3}, {11, 21, 31, 12, 22, 32});
  EXPECT_TENSOR(ts::mul(row, make(kFloat, {2}, Shape{})), kFloat, {3}, {20, 40, 60});
  EXPECT_TENSOR(ts::sub(make(kInt, {5}, Shape{}), make(kInt, {1, 2}, Shape{1, 2, 1})), kInt,
                {1, 2, 1}, {4, 3});
  EXPECT_ERROR(ts::add(make(kFloat, {1, 2}), row),
               "add: The size of tensor a (2) must match the size of tensor b (3) at "
               "non-singleton dimension 0");
  EXPECT_ERROR(ts::eq(make(kFloat, {1, 2, 3, 4}, Shape{2, 2}), row),
               "eq: The size of tensor a (2) must match the size of tensor b (3) at non-singleton "
               "dimension 1");
}

TEST(BinaryVariants, InPlaceBroadcastsOtherButNotSelf) {
  const Tensor x = make(kFloat, {1, 2, 3, 4, 5, 6}, Shape{2, 3});
  EXPECT_TRUE(x.add_(make(kFloat, {10, 20, 30})).is_same(x));
  EXPECT_TENSOR(x, kFloat, {2, 3}, {11, 22, 33, 14, 25, 36});
  x.mul_(2);
  x.sub_(1, 2);
  EXPECT_TENSOR(x, kFloat, {2, 3}, {20, 42, 64, 26, 48, 70});
  x.div_(make(kFloat, {2, 4}, Shape{2, 1}));
  EXPECT_TENSOR(x, kFloat, {2, 3}, {10, 21, 32, 6.5, 12, 17.5});
  x.add_(x);  // other is self: full overlap is fine
  EXPECT_TENSOR(x, kFloat, {2, 3}, {20, 42, 64, 13, 24, 35});
  const Tensor small = make(kFloat, {1});
  EXPECT_ERROR(small.add_(make(kFloat, {1, 2, 3})),
               "add_: output with shape [1] doesn't match the broadcast shape [3]");
  EXPECT_TENSOR(small, kFloat, {1}, {1});
  // In-place may narrow within a category: uint8 += int8 computes in int16, stored as uint8.
  const Tensor u = make(kByte, {250});
  u.add_(make(kChar, {10}));
  EXPECT_TENSOR(u, kByte, {1}, {4});
}

TEST(BinaryVariants, InPlaceCastErrorsLeaveSelfUntouched) {
  const Tensor i = make(kInt, {1, 2});
  EXPECT_ERROR(i.add_(2.5),
               "add_: result type float32 can't be cast to the desired output type int32");
  EXPECT_ERROR(i.mul_(make(kFloat, {1, 1})),
               "mul_: result type float32 can't be cast to the desired output type int32");
  EXPECT_ERROR(i.div_(2),
               "div_: result type float32 can't be cast to the desired output type int32");
  EXPECT_TENSOR(i, kInt, {2}, {1, 2});
  const Tensor b = make(kBool, {1});
  EXPECT_ERROR(b.add_(1), "add_: result type int64 can't be cast to the desired output type bool");
  EXPECT_TENSOR(b, kBool, {1}, {1});
}

TEST(BinaryVariants, OutResizesCastsAndChecks) {
  const Tensor a = make(kFloat, {0.1, 1});
  const Tensor b = make(kFloat, {0.2, 2});
  const Tensor out = ts::empty({0}, kDouble);
  Tensor& r = ts::add_out(out, a, b);
  EXPECT_TRUE(r.is_same(out));
  // The sum is rounded to float32 (the result dtype), then widened.
  EXPECT_TENSOR(out, kDouble, {2}, {static_cast<double>(0.1f + 0.2f), 3});
  const Tensor wrong = make(kFloat, {7, 7, 7});
  EXPECT_ERROR(ts::add_out(wrong, a, b),
               "add: output with shape [3] doesn't match the result shape [2]");
  EXPECT_ERROR(ts::mul_out(wrong, a, b),
               "mul: output with shape [3] doesn't match the result shape [2]");
  EXPECT_TENSOR(wrong, kFloat, {3}, {7, 7, 7});
  const Tensor int_out = make(kInt, {7, 7});
  EXPECT_ERROR(ts::div_out(int_out, make(kInt, {1, 2}), make(kInt, {1, 2})),
               "div: result type float32 can't be cast to the desired output type int32");
  EXPECT_ERROR(ts::add_out(int_out, a, b), "can't be cast to the desired output type int32");
  EXPECT_TENSOR(int_out, kInt, {2}, {7, 7});
  const Tensor bool_out = make(kBool, {0, 0});
  EXPECT_ERROR(ts::sub_out(bool_out, make(kInt, {1, 2}), make(kInt, {1, 1})),
               "sub: result type int32 can't be cast to the desired output type bool");
  EXPECT_TENSOR(bool_out, kBool, {2}, {0, 0});
  // Integer results may go to a float out.
  const Tensor f_out = ts::empty({2}, kFloat);
  ts::remainder_out(f_out, make(kInt, {-3, 3}), make(kInt, {2, 2}));
  EXPECT_TENSOR(f_out, kFloat, {2}, {1, 1});
  ts::pow_out(f_out, make(kInt, {2, 3}), make(kInt, {2, 2}));
  EXPECT_TENSOR(f_out, kFloat, {2}, {4, 9});
  const Tensor e_out = ts::empty({0}, kLong);
  ts::bitwise_or_out(e_out, make(kChar, {1, 2}), make(kChar, {4, 4}));
  EXPECT_TENSOR(e_out, kLong, {2}, {5, 6});
}

TEST(BinaryVariants, OverlapErrors) {
  const Tensor base = make(kFloat, {1, 2, 3, 4});
  const Tensor head = ts::make_view(base, {3}, {1}, 0);
  const Tensor tail = ts::make_view(base, {3}, {1}, 1);
  EXPECT_ERROR(ts::add_out(tail, head, head),
               "add: unsupported operation: some elements of the input tensor (argument 'self') "
               "and the written-to tensor (argument 'out') refer to a single memory location");
  EXPECT_ERROR(tail.add_(head),
               "add_: unsupported operation: some elements of the input tensor (argument "
               "'other') and the written-to tensor (argument 'self') refer to a single memory");
  EXPECT_ERROR(ts::eq_out(tail, make(kFloat, {1, 1, 1}), head),
               "eq: unsupported operation: some elements of the input tensor (argument 'other')");
  EXPECT_TENSOR(base, kFloat, {4}, {1, 2, 3, 4});
  const Tensor one = make(kFloat, {5});
  EXPECT_ERROR(one.expand({3}).add_(make(kFloat, {1, 2, 3})),
               "add_: unsupported operation: more than one element of the written-to tensor "
               "(argument 'self') refers to a single memory location");
  EXPECT_ERROR(ts::mul_out(one.expand({3}), make(kFloat, {1, 2, 3}), one),
               "mul: unsupported operation: more than one element of the written-to tensor "
               "(argument 'out') refers to a single memory location");
  EXPECT_TENSOR(one, kFloat, {1}, {5});
}

TEST(BinaryLayouts, NonContiguousInputsAndOutputs) {
  // Column-major storage of [[1,2,3],[4,5,6]] plus a row-major tensor.
  const Tensor cm = make_strided(kFloat, {1, 2, 3, 4, 5, 6}, {2, 3}, {1, 2});
  const Tensor rm = make(kFloat, {10, 20, 30, 40, 50, 60}, Shape{2, 3});
  EXPECT_TENSOR(ts::add(cm, rm), kFloat, {2, 3}, {11, 22, 33, 44, 55, 66});
  // Transposed views.
  const Tensor m = make(kLong, {1, 2, 3, 4, 5, 6}, Shape{2, 3});
  EXPECT_TENSOR(ts::mul(m.transpose(0, 1), make(kLong, {1, 10}, Shape{1, 2})), kLong, {3, 2},
                {1, 40, 2, 50, 3, 60});
  // Every other element.
  const Tensor v = make(kInt, {1, -1, 2, -1, 3, -1});
  EXPECT_TENSOR(ts::sub(v.slice(0, 0, 6, 2), v.slice(0, 1, 6, 2)), kInt, {3}, {2, 3, 4});
  EXPECT_TENSOR(ts::lt(make_strided(kDouble, {1, 5, 3}, {3}, {3}), 3), kBool, {3}, {1, 0, 0});
  // Both inputs broadcast with stride 0.
  EXPECT_TENSOR(ts::maximum(make(kFloat, {1, 5}, Shape{2, 1}).expand({2, 2}),
                            make(kFloat, {3, 4}).expand({2, 2})),
                kFloat, {2, 2}, {3, 4, 5, 5});
  // A strided out and an in-place op on a transposed view.
  const Tensor out = ts::empty_strided({2, 2}, {1, 2}, kFloat);
  ts::sub_out(out, make(kFloat, {1, 2, 3, 4}, Shape{2, 2}), make(kFloat, {1}));
  EXPECT_TENSOR(out, kFloat, {2, 2}, {0, 1, 2, 3});
  EXPECT_EQ(out.data_ptr<float>()[1], 2);  // element (1, 0)
  const Tensor base = make(kInt, {1, 2, 3, 4}, Shape{2, 2});
  base.transpose(0, 1).mul_(make(kInt, {1, 10}));  // columns of the view are rows of base
  EXPECT_TENSOR(base, kInt, {2, 2}, {1, 2, 30, 40});
}

TEST(BinaryLayouts, ZeroDimAndEmptyTensors) {
  EXPECT_TENSOR(ts::add(make(kFloat, {1}, Shape{}), make(kFloat, {2}, Shape{})), kFloat, {}, {3});
  EXPECT_TENSOR(ts::div(make(kLong, {7}, Shape{}), 2, "floor"), kLong, {}, {3});
  EXPECT_TENSOR(ts::eq(make(kInt, {1}, Shape{}), make(kInt, {1, 2})), kBool, {2}, {1, 0});
  EXPECT_TENSOR(ts::add(ts::empty({0}, kFloat), make(kFloat, {1})), kFloat, {0}, {});
  EXPECT_TENSOR(ts::mul(ts::empty({0, 2}, kInt), make(kInt, {1, 2})), kInt, {0, 2}, {});
  EXPECT_TENSOR(ts::lt(ts::empty({2, 0}, kDouble), 1), kBool, {2, 0}, {});
  EXPECT_TENSOR(ts::div(ts::empty({0}, kLong), ts::empty({0}, kLong), "trunc"), kLong, {0}, {});
  EXPECT_ERROR(ts::add(ts::empty({0}, kFloat), make(kFloat, {1, 2})),
               "The size of tensor a (0) must match the size of tensor b (2)");
  const Tensor z = make(kDouble, {3}, Shape{});
  z.pow_(2);
  EXPECT_TENSOR(z, kDouble, {}, {9});
}

}  // namespace
