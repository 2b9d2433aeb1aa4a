// Plain elementwise ops (Note [Generated declarations] in touchstone/plain_ops.h): which lines of
// op_list.def are plain, the forms generated from their variants, the meta spec taken from their
// signature class, and the kernel sets' tables built from the op list.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_util.h"
#include "touchstone/kernel_family.h"
#include "touchstone/touchstone.h"

namespace {

using namespace ts::testing;
using ts::OpId;
using ts::PlainOp;
using ts::Tensor;

std::vector<std::string> plain_op_names(PlainOp arity) {
  std::vector<std::string> names;
  for (const ts::OpTraits& t : ts::kOpTraits) {
    if (t.plain == arity) names.emplace_back(ts::op_info(t.op).name);
  }
  return names;
}

TEST(PlainOps, KernelOpsOfAnElementwiseSignatureWithoutParametersArePlain) {
  EXPECT_EQ(plain_op_names(PlainOp::Unary),
            (std::vector<std::string>{
                "neg",         "abs",         "sign",        "exp",     "expm1", "exp2",
                "log",         "log1p",       "log2",        "log10",   "sqrt",  "rsqrt",
                "reciprocal",  "sin",         "cos",         "tan",     "asin",  "acos",
                "atan",        "sinh",        "cosh",        "tanh",    "asinh", "acosh",
                "atanh",       "sinc",        "sigmoid",     "relu",    "silu",  "hardsigmoid",
                "hardswish",   "mish",        "log_sigmoid", "erf",     "erfc",  "erfinv",
                "floor",       "ceil",        "round",       "trunc",   "frac",  "isnan",
                "logical_not", "bitwise_not", "lgamma",      "digamma", "isinf", "isfinite"}));
  EXPECT_EQ(
      plain_op_names(PlainOp::Binary),
      (std::vector<std::string>{
          "mul",         "remainder",  "pow",         "maximum",      "minimum",     "atan2",
          "eq",          "ne",         "lt",          "le",           "gt",          "ge",
          "logical_and", "logical_or", "bitwise_and", "bitwise_or",   "bitwise_xor", "hypot",
          "copysign",    "nextafter",  "fmod",        "floor_divide", "xlogy",       "logaddexp",
          "logaddexp2",  "heaviside",  "clamp_min",   "clamp_max"}));
  // Parameters (gelu, clamp, add, div), a composite (dropout) or another class (where): not plain.
  for (OpId op : {OpId::gelu, OpId::clamp, OpId::add, OpId::sub, OpId::div, OpId::dropout,
                  OpId::where, OpId::sum}) {
    EXPECT_EQ(ts::op_traits(op).plain, PlainOp::None) << ts::op_info(op).name;
  }
}

TEST(PlainOps, FormsFollowTheVariantsColumn) {
  // fmio: function, in-place function, out=, method, in-place method.
  const Tensor x = make(kDouble, {0, 1});
  EXPECT_TENSOR_NEAR(ts::exp(x), kDouble, {2}, {1, 2.718281828459045});
  EXPECT_TENSOR_NEAR(x.exp(), kDouble, {2}, {1, 2.718281828459045});
  const Tensor out = make(kDouble, {});
  ts::exp_out(out, x);
  EXPECT_TENSOR_NEAR(out, kDouble, {2}, {1, 2.718281828459045});
  const Tensor y = make(kDouble, {-1, 2});
  EXPECT_TRUE(y.abs_().is_same(y));
  EXPECT_TENSOR(y, kDouble, {2}, {1, 2});
  EXPECT_TRUE(ts::neg_(y).is_same(y));
  EXPECT_TENSOR(y, kDouble, {2}, {-1, -2});
  // fio (silu): an in-place function, no method.
  const Tensor z = make(kDouble, {0});
  EXPECT_TRUE(ts::silu_(z).is_same(z));
  EXPECT_TENSOR(z, kDouble, {1}, {0});
  // fm (isnan): function and method only.
  EXPECT_TENSOR(make(kFloat, {kNaN, 1}).isnan(), kBool, {2}, {1, 0});
  // Binary fmio: Tensor and Scalar operands, in place through the method.
  const Tensor a = make(kInt, {3, -4});
  EXPECT_TENSOR(ts::mul(a, 2), kInt, {2}, {6, -8});
  EXPECT_TENSOR(a.mul(make(kInt, {2, 3})), kInt, {2}, {6, -12});
  EXPECT_TRUE(a.remainder_(3).is_same(a));
  EXPECT_TENSOR(a, kInt, {2}, {0, 2});
  // Binary fmo (maximum): function, out= and method, with a Scalar too.
  EXPECT_TENSOR(make(kFloat, {1, 5}).maximum(2.5), kFloat, {2}, {2.5, 5});
  const Tensor m = make(kFloat, {});
  ts::minimum_out(m, make(kFloat, {1, 5}), make(kFloat, {3, 3}));
  EXPECT_TENSOR(m, kFloat, {2}, {1, 3});
}

TEST(PlainOps, MetaTakesItsSpecFromTheSignatureClass) {
  // UnaryFloat and BinaryFloat: integers compute in the default float dtype.
  EXPECT_TENSOR_NEAR(ts::sqrt(make(kLong, {4, 2})), kFloat, {2}, {2, 1.4142135381698608});
  EXPECT_TENSOR_NEAR(ts::atan2(make(kInt, {1}), make(kInt, {0})), kFloat, {1},
                     {1.5707963705062866});
  // UnaryBool and BinaryBool: a bool result, computed in the inputs' dtype.
  EXPECT_TENSOR(ts::logical_not(make(kInt, {0, 7})), kBool, {2}, {1, 0});
  EXPECT_TENSOR(ts::lt(make(kChar, {-1, 1}), 0), kBool, {2}, {1, 0});
  // Otherwise the op's dtypes from op_list.def.
  EXPECT_ERROR(ts::bitwise_not(make(kFloat, {1})),
               "bitwise_not: not implemented for dtype float32 (argument 'self')");
  EXPECT_ERROR(ts::floor(make(kBool, {1})), "floor: not implemented for dtype bool");
  EXPECT_TENSOR(ts::sign(make(kBool, {1, 0})), kBool, {2}, {1, 0});
  // div computes integers as integers with a rounding mode, in float without one.
  EXPECT_TENSOR(ts::div(make(kLong, {-7}), make(kLong, {2}), "floor"), kLong, {1}, {-4});
  EXPECT_TENSOR(ts::div(make(kLong, {-7}), make(kLong, {2})), kFloat, {1}, {-3.5});
  EXPECT_ERROR(ts::div(make(kBool, {1}), make(kBool, {1}), "trunc"),
               "div: not implemented for dtype bool");
  // neg on bool keeps its own message; pow's Scalar exponent its own check.
  EXPECT_ERROR(ts::neg(make(kBool, {1})), "neg: Negation, the `-` operator, on a bool tensor");
  EXPECT_ERROR(ts::pow(make(kInt, {2}), -1),
               "pow: Integers to negative integer powers are not allowed (argument 'exponent')");
  EXPECT_ERROR(make(kInt, {2}).pow_(-1), "pow_: Integers to negative integer powers");
}

TEST(PlainOps, EveryKernelSetRegistersEveryPlainOpInItsDeclaredDtypes) {
  for (const char* set : {"reference", "optimized"}) {
    const ts::KernelSetId id = *ts::find_kernel_set(set);
    for (const ts::OpTraits& t : ts::kOpTraits) {
      if (t.plain == PlainOp::None) continue;
      EXPECT_EQ(ts::supported_dtypes(t.op, ts::kCPU, id).bits(), t.dtypes.bits())
          << set << " " << ts::op_info(t.op).name;
    }
  }
}

}  // namespace
