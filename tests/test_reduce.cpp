// Reductions with an identity: sum, mean, prod, all, any, and cumsum. Values are hand-computed
// (or PyTorch's, where noted); dtypes, shapes and every error message are checked.
// Extremes, var/std, norm and logsumexp are in test_reduce_stats.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "test_util.h"
#include "touchstone/kernel_family.h"
#include "touchstone/touchstone.h"

namespace {

using namespace ts::testing;

// x = [[1, 2, 3], [4, 5, 6]] as float32: the running example.
ts::Tensor x23(ts::ScalarType dtype = kFloat) {
  return make(dtype, {1, 2, 3, 4, 5, 6}, {2, 3});
}

// `op`'s out= form over dim 0 of x23() refuses an int64 out for its float32 result (mean only:
// sum, prod and cumsum compute in out's dtype, Note [Reduction out= dtypes]) and a float32
// out for dtype=float64, leaving both outs untouched.
void expect_out_dtype_errors(
    const std::string& op,
    const std::function<void(const ts::Tensor&, std::optional<ts::ScalarType>)>& out_call) {
  const ts::Tensor int_out = ts::empty({0}, kLong);
  EXPECT_ERROR(out_call(int_out, std::nullopt),
               op + ": result type float32 can't be cast to the desired output type int64");
  const ts::Tensor f_out = ts::empty({0}, kFloat);
  EXPECT_ERROR(out_call(f_out, kDouble),
               op + ": Expected out tensor to have dtype float64, but got float32 instead");
  EXPECT_EQ(shape_of(int_out), Shape{0});
  EXPECT_EQ(shape_of(f_out), Shape{0});
}

// ---- sum ----

// Found by fuzz/ (issue 12): the reference set walked the 2^40 empty lines of an expanded
// [2^40, 0] input (hours); every set returns the empty result at once.
TEST(Cumsum, EmptyLinesOfAHugeExpandedInputReturnAtOnce) {
  const ts::Tensor x = ts::empty({1, 0}).expand({int64_t{1} << 40, 0});
  for (const char* set : {"reference", "optimized"}) {
    ts::KernelSetGuard g(set);
    EXPECT_EQ(ts::cumsum(x, 1).sizes(), x.sizes()) << set;
  }
}

// Found by fuzz/: an empty out= tensor that is also the input was resized, changing the input
// under the kernel (garbage sums, or errors not naming the op). Refused, leaving it untouched.
TEST(Sum, AnOutThatIsTheInputAndWouldBeResizedIsRefused) {
  for (const char* set : {"reference", "optimized"}) {
    ts::KernelSetGuard g(set);
    const ts::Tensor x = ts::empty({0, 3});
    EXPECT_ERROR(ts::sum_out(x, x, {0}), "sum: the out= tensor is also an input");
    EXPECT_ERROR(ts::mv_out(x, x, ts::empty({3})), "mv: the out= tensor is also an input");
    EXPECT_EQ(x.sizes(), ts::IntArrayRef({0, 3})) << set;
    // Two outputs: both are checked before either is resized.
    const ts::Tensor i = ts::empty({0, 3}, ts::kLong), values = ts::empty({0}, ts::kLong);
    EXPECT_ERROR(ts::min_out(values, i, i, 1), "min: the indices= tensor is also an input");
    EXPECT_EQ(values.sizes(), ts::IntArrayRef({0})) << set;
  }
}

TEST(Sum, FullReductionGivesZeroDimResult) {
  EXPECT_TENSOR_NEAR(ts::sum(x23()), kFloat, {}, {21});
  EXPECT_TENSOR_NEAR(x23().sum(), kFloat, {}, {21});
  EXPECT_TENSOR_NEAR(ts::sum(x23(), ts::IntArrayRef{}), kFloat, {}, {21});  // empty list: every dim
}

TEST(Sum, OverOneDimWithAndWithoutKeepdim) {
  EXPECT_TENSOR_NEAR(ts::sum(x23(), {0}), kFloat, {3}, {5, 7, 9});
  EXPECT_TENSOR_NEAR(ts::sum(x23(), {1}), kFloat, {2}, {6, 15});
  EXPECT_TENSOR_NEAR(ts::sum(x23(), {-1}, true), kFloat, {2, 1}, {6, 15});
  EXPECT_TENSOR_NEAR(x23().sum({0}, true), kFloat, {1, 3}, {5, 7, 9});
}

TEST(Sum, OverSeveralDimsInAnyOrderAndSign) {
  // sum over i, k of 12i + 4j + k = 32j + 60.
  EXPECT_TENSOR_NEAR(ts::sum(iota({2, 3, 4}, kFloat), {0, 2}), kFloat, {3}, {60, 92, 124});
  EXPECT_TENSOR_NEAR(ts::sum(iota({2, 3, 4}, kFloat), {-1, 0}), kFloat, {3}, {60, 92, 124});
  EXPECT_TENSOR_NEAR(ts::sum(iota({2, 3, 4}, kFloat), {2, 0}, true), kFloat, {1, 3, 1},
                     {60, 92, 124});
  EXPECT_TENSOR_NEAR(ts::sum(iota({2, 3, 4}, kFloat), {0, 1, 2}, true), kFloat, {1, 1, 1}, {276});
}

TEST(Sum, BoolAndIntegerInputsSumInInt64) {
  EXPECT_TENSOR_NEAR(ts::sum(make(kInt, {1, 2, 3}, {3})), kLong, {}, {6});
  EXPECT_TENSOR_NEAR(ts::sum(make(kBool, {1, 0, 1}, {3})), kLong, {}, {2});
  EXPECT_TENSOR_NEAR(ts::sum(make(kByte, {200, 100}, {2})), kLong, {}, {300});  // no uint8 wrap
  EXPECT_TENSOR_NEAR(ts::sum(make(kChar, {-100, -100}, {2})), kLong, {}, {-200});
}

TEST(Sum, Int64WrapsAroundLikeTwosComplement) {
  const ts::Tensor t = make_long({INT64_MAX, 1}, {2});
  EXPECT_EQ(long_values(ts::sum(t)), std::vector<int64_t>{INT64_MIN});
}

TEST(Sum, DtypeCastsTheInputFirst) {
  EXPECT_TENSOR_NEAR(ts::sum(make(kChar, {100, 100, 100}, {3}), kInt), kInt, {}, {300});
  // int8 casts: 100 + 100 = 200 wraps to -56.
  EXPECT_TENSOR_NEAR(ts::sum(make(kInt, {100, 100}, {2}), {0}, false, kChar), kChar, {}, {-56});
  // Each float truncates to int64 before summing: 1 + 2 - 1.
  EXPECT_TENSOR_NEAR(ts::sum(make(kFloat, {1.5, 2.5, -1.7}, {3}), kLong), kLong, {}, {2});
  EXPECT_TENSOR_NEAR(ts::sum(x23(), {1}, false, kDouble), kDouble, {2}, {6, 15});
  EXPECT_TENSOR_NEAR(ts::sum(make(kBool, {1, 1}, {2}), kBool), kBool, {}, {1});
}

TEST(Sum, ReducedFloatsRoundOnce) {
  // float16 steps by 2 above 2048: summing pairwise in half would stay at 2048.
  EXPECT_TENSOR_NEAR(ts::sum(make(kHalf, {2048, 1, 1}, {3})), kHalf, {}, {2050});
  // bfloat16 steps by 2 above 256.
  EXPECT_TENSOR_NEAR(ts::sum(make(kBFloat16, {256, 1, 1}, {3})), kBFloat16, {}, {258});
  // PyTorch: torch.tensor([0.1, 0.2, 0.3], dtype=torch.bfloat16).sum() == 0.601562.
  EXPECT_TENSOR_NEAR(ts::sum(make(kBFloat16, {0.1, 0.2, 0.3}, {3})), kBFloat16, {}, {0.6015625});
}

TEST(Sum, NonContiguousInputs) {
  const ts::Tensor xt = x23().t();  // [[1, 4], [2, 5], [3, 6]]
  EXPECT_TENSOR_NEAR(ts::sum(xt, {0}), kFloat, {2}, {6, 15});
  EXPECT_TENSOR_NEAR(ts::sum(xt, {1}), kFloat, {3}, {5, 7, 9});
  const ts::Tensor stepped =
      iota({2, 3, 4}, kFloat).reshape({24}).slice(0, 0, 24, 5);  // 0, 5, 10, 15, 20
  EXPECT_TENSOR_NEAR(ts::sum(stepped), kFloat, {}, {50});
  const ts::Tensor expanded = make(kFloat, {1, 2, 3}, {3}).expand({4, 3});
  EXPECT_TENSOR_NEAR(ts::sum(expanded, {0}), kFloat, {3}, {4, 8, 12});
  EXPECT_TENSOR_NEAR(ts::sum(expanded, {1}), kFloat, {4}, {6, 6, 6, 6});
  // permute(2, 0, 1) of iota: summing its dims 1 and 2 sums the original dims 0 and 1.
  EXPECT_TENSOR_NEAR(ts::sum(iota({2, 3, 4}, kFloat).permute({2, 0, 1}), {1, 2}), kFloat, {4},
                     {60, 66, 72, 78});
}

TEST(Sum, EmptyInputsGiveZero) {
  EXPECT_TENSOR_NEAR(ts::sum(make(kFloat, {}, {0})), kFloat, {}, {0});
  EXPECT_TENSOR_NEAR(ts::sum(make(kFloat, {}, {2, 0}), {1}), kFloat, {2}, {0, 0});
  EXPECT_TENSOR_NEAR(ts::sum(make(kFloat, {}, {2, 0}), {0}), kFloat, {0}, {});
  EXPECT_TENSOR_NEAR(ts::sum(make(kInt, {}, {0})), kLong, {}, {0});
}

TEST(Sum, ZeroDimInputAcceptsDimZeroAndMinusOne) {
  const ts::Tensor s = make(kFloat, {3.5}, {});
  EXPECT_TENSOR_NEAR(ts::sum(s), kFloat, {}, {3.5});
  EXPECT_TENSOR_NEAR(ts::sum(s, {0}), kFloat, {}, {3.5});
  EXPECT_TENSOR_NEAR(ts::sum(s, {-1}, true), kFloat, {}, {3.5});
  EXPECT_ERROR(ts::sum(s, {1}),
               "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
}

TEST(Sum, DimErrors) {
  EXPECT_ERROR(ts::sum(x23(), {0, -2}), "sum: dim 0 appears multiple times in the list of dims");
  EXPECT_ERROR(ts::sum(x23(), {2}),
               "sum: Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  EXPECT_ERROR(ts::sum(ts::Tensor()), "sum: expected a defined tensor for argument 'self'");
}

TEST(SumOut, ResizesAnEmptyOutAndWritesInPlace) {
  ts::Tensor out = ts::empty({0}, kFloat);
  ts::Tensor& r = ts::sum_out(out, x23(), {1});
  EXPECT_TRUE(r.is_same(out));
  EXPECT_TENSOR_NEAR(out, kFloat, {2}, {6, 15});
  ts::Tensor full = ts::empty({1, 3}, kFloat);
  ts::sum_out(full, x23(), {0}, true);
  EXPECT_TENSOR_NEAR(full, kFloat, {1, 3}, {5, 7, 9});
}

TEST(SumOut, WritesThroughAStridedOut) {
  ts::Tensor out = ts::empty({3, 2}, kFloat).t();  // shape [2, 3], strides [1, 2]
  ts::sum_out(out, iota({2, 3, 4}, kFloat), {2});  // sum over k of 12i + 4j + k
  EXPECT_TENSOR_NEAR(out, kFloat, {2, 3}, {6, 22, 38, 54, 70, 86});
  EXPECT_EQ(out.strides().vec(), (Shape{1, 2}));
  ts::Tensor cs = ts::empty({3, 2}, kFloat).t();
  ts::cumsum_out(cs, x23(), 1);
  EXPECT_TENSOR_NEAR(cs, kFloat, {2, 3}, {1, 3, 6, 4, 9, 15});
}

TEST(SumOut, ComputesInTheOutDtype) {
  // As ATen: the int32 input is summed as int32 (wrapping), not promoted to int64.
  ts::Tensor out = ts::empty({0}, kInt);
  ts::sum_out(out, make(kInt, {2147483647, 1}, {2}), {0});
  EXPECT_TENSOR_NEAR(out, kInt, {}, {-2147483648.0});
  ts::Tensor dbl = ts::empty({0}, kDouble);
  ts::sum_out(dbl, make(kFloat, {0.1, 0.2}, {2}), {0});
  EXPECT_TENSOR_NEAR(dbl, kDouble, {}, {static_cast<double>(0.1f) + static_cast<double>(0.2f)});
}

TEST(SumOut, Errors) {
  ts::Tensor f_out = ts::empty({0}, kFloat);
  EXPECT_ERROR(ts::sum_out(f_out, x23(), {0}, false, kDouble),
               "sum: Expected out tensor to have dtype float64, but got float32 instead");
  EXPECT_EQ(shape_of(f_out), Shape{0});
  ts::Tensor wrong = ts::empty({2}, kFloat);
  EXPECT_ERROR(ts::sum_out(wrong, x23(), {0}), "sum: output with shape [2] doesn't match");
  ts::Tensor x = x23();
  ts::Tensor flat = x.reshape({6}).slice(0, 1, 4);
  EXPECT_ERROR(ts::sum_out(flat, x, {0}), "sum: unsupported operation: some elements");
  ts::Tensor undefined;
  EXPECT_ERROR(ts::sum_out(undefined, x, {0}), "sum: expected a defined tensor for argument 'out'");
  // A failing call leaves the input untouched.
  EXPECT_TENSOR_NEAR(x, kFloat, {2, 3}, {1, 2, 3, 4, 5, 6});
}

// ---- mean ----

TEST(Mean, Values) {
  EXPECT_TENSOR_NEAR(ts::mean(x23()), kFloat, {}, {3.5});
  EXPECT_TENSOR_NEAR(x23().mean({0}), kFloat, {3}, {2.5, 3.5, 4.5});
  EXPECT_TENSOR_NEAR(ts::mean(x23(), {1}, true), kFloat, {2, 1}, {2, 5});
  EXPECT_TENSOR_NEAR(ts::mean(iota({2, 3, 4}, kFloat), {0, -1}), kFloat, {3}, {7.5, 11.5, 15.5});
  EXPECT_TENSOR_NEAR(ts::mean(x23(kDouble), {-2, -1}), kDouble, {}, {3.5});
  EXPECT_TENSOR_NEAR(ts::mean(x23().t(), {1}), kFloat, {3}, {2.5, 3.5, 4.5});
}

TEST(Mean, ReducedFloatsRoundOnce) {
  EXPECT_TENSOR_NEAR(ts::mean(make(kHalf, {1, 2}, {2})), kHalf, {}, {1.5});
  // PyTorch: torch.tensor([0.1, 0.2, 0.3], dtype=torch.bfloat16).mean() == 0.200195.
  EXPECT_TENSOR_NEAR(ts::mean(make(kBFloat16, {0.1, 0.2, 0.3}, {3})), kBFloat16, {},
                     {0.2001953125});
}

TEST(Mean, DtypeAllowsIntegerInputs) {
  EXPECT_TENSOR_NEAR(ts::mean(make(kInt, {1, 2}, {2}), kFloat), kFloat, {}, {1.5});
  EXPECT_TENSOR_NEAR(ts::mean(x23(), {0}, false, kDouble), kDouble, {3}, {2.5, 3.5, 4.5});
}

TEST(Mean, EmptyAndZeroDim) {
  EXPECT_TENSOR_NEAR(ts::mean(make(kFloat, {}, {0})), kFloat, {}, {kNaN});
  EXPECT_TENSOR_NEAR(ts::mean(make(kFloat, {}, {2, 0}), {1}), kFloat, {2}, {kNaN, kNaN});
  EXPECT_TENSOR_NEAR(ts::mean(make(kFloat, {4.0}, {}), {-1}), kFloat, {}, {4});
}

TEST(Mean, Errors) {
  EXPECT_ERROR(ts::mean(make(kLong, {1, 2}, {2})),
               "mean: could not infer output dtype. Input dtype must be either a floating point "
               "or complex dtype. Got: int64");
  EXPECT_ERROR(ts::mean(make(kBool, {1, 2}, {2})), "Input dtype must be either a floating");
  EXPECT_ERROR(ts::mean(x23(), kInt),
               "mean: could not infer output dtype. Optional dtype must be either a floating "
               "point or complex dtype. Got: int32");
  EXPECT_ERROR(ts::mean(x23(), {0, 0}), "mean: dim 0 appears multiple times");
  expect_out_dtype_errors("mean", [](const ts::Tensor& out, std::optional<ts::ScalarType> dtype) {
    ts::mean_out(out, x23(), {0}, false, dtype);
  });
}

TEST(MeanOut, WritesAndResizes) {
  ts::Tensor out = ts::empty({0}, kDouble);
  ts::mean_out(out, x23(), {1});
  EXPECT_TENSOR_NEAR(out, kDouble, {2}, {2, 5});
}

// ---- prod ----

TEST(Prod, Values) {
  EXPECT_TENSOR_NEAR(ts::prod(make(kFloat, {1, 2, 3, 4}, {4})), kFloat, {}, {24});
  EXPECT_TENSOR_NEAR(x23().prod(), kFloat, {}, {720});
  EXPECT_TENSOR_NEAR(ts::prod(x23(), 1), kFloat, {2}, {6, 120});
  EXPECT_TENSOR_NEAR(ts::prod(x23(), -2, true), kFloat, {1, 3}, {4, 10, 18});
  EXPECT_TENSOR_NEAR(x23().t().prod(0), kFloat, {2}, {6, 120});
  EXPECT_TENSOR_NEAR(ts::prod(make(kFloat, {2, kNaN, 0}, {3})), kFloat, {}, {kNaN});
}

TEST(Prod, IntegersInInt64WithWrapAround) {
  // PyTorch: torch.tensor([100, 100], dtype=torch.int8).prod() == 10000 (int64).
  EXPECT_TENSOR_NEAR(ts::prod(make(kChar, {100, 100}, {2})), kLong, {}, {10000});
  EXPECT_TENSOR_NEAR(ts::prod(make(kBool, {1, 1}, {2})), kLong, {}, {1});
  EXPECT_EQ(long_values(ts::prod(make_long({INT64_C(1) << 62, 4}, {2}))), std::vector<int64_t>{0});
  EXPECT_EQ(long_values(ts::prod(make_long({INT64_MAX, 2}, {2}))), std::vector<int64_t>{-2});
  EXPECT_TENSOR_NEAR(ts::prod(make(kInt, {100, 3}, {2}), kChar), kChar, {}, {44});  // 300 - 256
  EXPECT_TENSOR_NEAR(ts::prod(make(kBool, {1, 0}, {2}), kBool), kBool, {}, {0});
}

TEST(Prod, ReducedFloatsRoundOnce) {
  EXPECT_TENSOR_NEAR(ts::prod(make(kHalf, {1.5, 1.5}, {2})), kHalf, {}, {2.25});
  EXPECT_TENSOR_NEAR(ts::prod(make(kBFloat16, {3, 3, 3}, {3})), kBFloat16, {}, {27});
}

TEST(Prod, EmptyAndZeroDim) {
  EXPECT_TENSOR_NEAR(ts::prod(make(kFloat, {}, {0})), kFloat, {}, {1});
  EXPECT_TENSOR_NEAR(ts::prod(make(kFloat, {}, {2, 0}), 1), kFloat, {2}, {1, 1});
  EXPECT_TENSOR_NEAR(ts::prod(make(kFloat, {-2.0}, {}), 0, true), kFloat, {}, {-2});
}

TEST(Prod, Errors) {
  EXPECT_ERROR(ts::prod(x23(), 2),
               "prod: Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  ts::Tensor out = ts::empty({0}, kFloat);
  EXPECT_ERROR(ts::prod_out(out, x23(), 0, false, kDouble),
               "prod: Expected out tensor to have dtype float64, but got float32 instead");
  EXPECT_EQ(shape_of(out), Shape{0});
}

TEST(ProdOut, Writes) {
  ts::Tensor out = ts::empty({0}, kLong);
  ts::prod_out(out, make(kShort, {2, 3, 4, 5}, {2, 2}), 1, true);
  EXPECT_TENSOR_NEAR(out, kLong, {2, 1}, {6, 20});
}

// ---- all, any ----

TEST(AllAny, FullReductions) {
  const ts::Tensor b = make(kBool, {1, 0, 1}, {3});
  EXPECT_TENSOR_NEAR(ts::all(b), kBool, {}, {0});
  EXPECT_TENSOR_NEAR(ts::any(b), kBool, {}, {1});
  EXPECT_TENSOR_NEAR(make(kBool, {1, 1}, {2}).all(), kBool, {}, {1});
  EXPECT_TENSOR_NEAR(make(kBool, {0, 0}, {2}).any(), kBool, {}, {0});
  EXPECT_TENSOR_NEAR(ts::all(make(kDouble, {kNaN, 1}, {2})), kBool, {}, {1});  // NaN is truthy
  EXPECT_TENSOR_NEAR(ts::any(make(kFloat, {0.0, -0.0}, {2})), kBool, {}, {0});
  EXPECT_TENSOR_NEAR(ts::any(make(kChar, {0, -3}, {2})), kBool, {}, {1});
}

TEST(AllAny, Uint8InputsGiveUint8) {
  EXPECT_TENSOR_NEAR(ts::all(make(kByte, {1, 2}, {2})), kByte, {}, {1});
  EXPECT_TENSOR_NEAR(ts::any(make(kByte, {0, 0, 0, 5}, {2, 2}), 1), kByte, {2}, {0, 1});
}

TEST(AllAny, OverADim) {
  const ts::Tensor b = make(kBool, {1, 1, 0, 1}, {2, 2});
  EXPECT_TENSOR_NEAR(ts::all(b, 0), kBool, {2}, {0, 1});
  EXPECT_TENSOR_NEAR(ts::all(b, 1, true), kBool, {2, 1}, {1, 0});
  EXPECT_TENSOR_NEAR(b.any(-1), kBool, {2}, {1, 1});
  EXPECT_TENSOR_NEAR(ts::all(b.t(), 1), kBool, {2}, {0, 1});
  EXPECT_TENSOR_NEAR(ts::any(make(kBool, {0, 0, 0, 1}, {2, 2}).t(), 0, true), kBool, {1, 2},
                     {0, 1});
}

TEST(AllAny, EmptyAndZeroDim) {
  EXPECT_TENSOR_NEAR(ts::all(make(kFloat, {}, {0})), kBool, {}, {1});
  EXPECT_TENSOR_NEAR(ts::any(make(kFloat, {}, {0})), kBool, {}, {0});
  EXPECT_TENSOR_NEAR(ts::all(make(kFloat, {}, {2, 0}), 1), kBool, {2}, {1, 1});
  EXPECT_TENSOR_NEAR(ts::any(make(kFloat, {}, {2, 0}), 1), kBool, {2}, {0, 0});
  EXPECT_TENSOR_NEAR(ts::all(make(kFloat, {0.0}, {}), -1), kBool, {}, {0});
  EXPECT_TENSOR_NEAR(ts::any(make(kFloat, {2.0}, {}), 0, true), kBool, {}, {1});
}

TEST(AllAny, OutAcceptsBoolOrUint8Only) {
  ts::Tensor u8 = ts::empty({0}, kByte);
  ts::all_out(u8, x23(), 1);
  EXPECT_TENSOR_NEAR(u8, kByte, {2}, {1, 1});
  ts::Tensor b = ts::empty({0}, kBool);
  ts::any_out(b, make(kByte, {0, 0, 0, 7}, {2, 2}), 0, true);
  EXPECT_TENSOR_NEAR(b, kBool, {1, 2}, {0, 1});
  ts::Tensor f = ts::empty({0}, kFloat);
  EXPECT_ERROR(ts::all_out(f, x23(), 0),
               "all: only supports bool tensor for result (argument 'out'), got: float32");
  EXPECT_ERROR(ts::any_out(f, x23(), 0),
               "any: only supports bool tensor for result (argument 'out'), got: float32");
  EXPECT_ERROR(ts::all(x23(), 2), "all: Dimension out of range");
  EXPECT_ERROR(ts::any(make(kFloat, {1.0}, {}), 1), "any: Dimension out of range");
}

// ---- cumsum ----

TEST(Cumsum, Values) {
  EXPECT_TENSOR_NEAR(ts::cumsum(make(kFloat, {1, 2, 3, 4}, {4}), 0), kFloat, {4}, {1, 3, 6, 10});
  EXPECT_TENSOR_NEAR(ts::cumsum(x23(), 0), kFloat, {2, 3}, {1, 2, 3, 5, 7, 9});
  EXPECT_TENSOR_NEAR(x23().cumsum(1), kFloat, {2, 3}, {1, 3, 6, 4, 9, 15});
  EXPECT_TENSOR_NEAR(ts::cumsum(x23(), -1), kFloat, {2, 3}, {1, 3, 6, 4, 9, 15});
  EXPECT_TENSOR_NEAR(ts::cumsum(make(kFloat, {1, kNaN, 2}, {3}), 0), kFloat, {3}, {1, kNaN, kNaN});
}

TEST(Cumsum, DtypesFollowSum) {
  EXPECT_TENSOR_NEAR(ts::cumsum(make(kInt, {1, 2, 3}, {3}), 0), kLong, {3}, {1, 3, 6});
  EXPECT_TENSOR_NEAR(ts::cumsum(make(kBool, {1, 1, 0, 1}, {4}), 0), kLong, {4}, {1, 2, 2, 3});
  EXPECT_TENSOR_NEAR(ts::cumsum(make(kChar, {100, 100}, {2}), 0, kChar), kChar, {2}, {100, -56});
  EXPECT_TENSOR_NEAR(ts::cumsum(make(kFloat, {1.5, 1.5}, {2}), 0, kInt), kInt, {2}, {1, 2});
  EXPECT_TENSOR_NEAR(ts::cumsum(make(kFloat, {0.5, 0.25}, {2}), 0, kDouble), kDouble, {2},
                     {0.5, 0.75});
  EXPECT_EQ(long_values(ts::cumsum(make_long({INT64_MAX, 1}, {2}), 0)),
            (std::vector<int64_t>{INT64_MAX, INT64_MIN}));
}

TEST(Cumsum, ReducedFloatsRoundEachOutputOnce) {
  // Running sums 2048, 2049, 2050: 2049 ties to even (2048) but 2050 is kept.
  EXPECT_TENSOR_NEAR(ts::cumsum(make(kHalf, {2048, 1, 1}, {3}), 0), kHalf, {3}, {2048, 2048, 2050});
  EXPECT_TENSOR_NEAR(ts::cumsum(make(kBFloat16, {256, 1, 1}, {3}), 0), kBFloat16, {3},
                     {256, 256, 258});
}

TEST(Cumsum, NonContiguousEmptyAndZeroDim) {
  EXPECT_TENSOR_NEAR(ts::cumsum(x23().t(), 0), kFloat, {3, 2}, {1, 4, 3, 9, 6, 15});
  EXPECT_TENSOR_NEAR(ts::cumsum(make(kFloat, {1, 2, 3}, {3}).expand({2, 3}), 0), kFloat, {2, 3},
                     {1, 2, 3, 2, 4, 6});
  EXPECT_TENSOR_NEAR(ts::cumsum(iota({2, 3, 4}, kFloat).slice(2, 1, 4, 2), 2), kFloat, {2, 3, 2},
                     {1, 4, 5, 12, 9, 20, 13, 28, 17, 36, 21, 44});
  EXPECT_TENSOR_NEAR(ts::cumsum(make(kFloat, {}, {0}), 0), kFloat, {0}, {});
  EXPECT_TENSOR_NEAR(ts::cumsum(make(kFloat, {}, {2, 0}), 1), kFloat, {2, 0}, {});
  EXPECT_TENSOR_NEAR(ts::cumsum(make(kFloat, {5.0}, {}), -1), kFloat, {}, {5});
  EXPECT_TENSOR_NEAR(ts::cumsum(make(kInt, {5.0}, {}), 0), kLong, {}, {5});
}

TEST(Cumsum, InPlaceKeepsTheDtype) {
  ts::Tensor x = x23();
  ts::Tensor& r = x.cumsum_(1);
  EXPECT_TRUE(r.is_same(x));
  EXPECT_TENSOR_NEAR(x, kFloat, {2, 3}, {1, 3, 6, 4, 9, 15});
  ts::Tensor i = make(kInt, {2147483647, 1}, {2});
  i.cumsum_(0);  // int32 stays int32 and wraps, as in ATen
  EXPECT_TENSOR_NEAR(i, kInt, {2}, {2147483647, -2147483648.0});
  ts::Tensor y = x23();
  y.t().cumsum_(0, kFloat);  // through a transposed view: cumsum along y's dim 1
  EXPECT_TENSOR_NEAR(y, kFloat, {2, 3}, {1, 3, 6, 4, 9, 15});
}

TEST(Cumsum, Errors) {
  ts::Tensor x = x23();
  EXPECT_ERROR(x.cumsum_(0, kDouble),
               "cumsum_: Bad in-place call: input tensor dtype float32 and output tensor dtype "
               "float64 should match");
  ts::Tensor e = make(kFloat, {1, 2, 3}, {3}).expand({2, 3});
  EXPECT_ERROR(e.cumsum_(1), "cumsum_: unsupported operation: more than one element");
  EXPECT_ERROR(ts::cumsum(x, 2),
               "cumsum: Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  ts::Tensor f = ts::empty({0}, kFloat);
  EXPECT_ERROR(ts::cumsum_out(f, x, 0, kDouble),
               "cumsum: Expected out tensor to have dtype float64, but got float32 instead");
  // ATen: "cumsum_out_cpu" not implemented for 'Bool'.
  ts::Tensor b = ts::empty({0}, kBool);
  EXPECT_ERROR(ts::cumsum_out(b, x, 0), "cumsum: not implemented for dtype bool (argument 'out')");
  EXPECT_ERROR(ts::cumsum(x, 0, kBool),
               "cumsum: not implemented for dtype bool (argument 'dtype')");
  ts::Tensor xb = make(kBool, {1, 0}, {2});
  EXPECT_ERROR(xb.cumsum_(0), "cumsum_: not implemented for dtype bool (argument 'self')");
  // ATen 1.13 reaches no kernel for a 0-dim or empty self: a bool one is returned unchanged.
  ts::Tensor b0 = make(kBool, {1}, {});
  EXPECT_EQ(&b0.cumsum_(0), &b0);
  EXPECT_EQ(values(b0), std::vector<double>{1});
  ts::Tensor be = ts::empty({0, 3}, kBool);
  EXPECT_EQ(shape_of(be.cumsum_(1)), (Shape{0, 3}));
  EXPECT_EQ(shape_of(b), Shape{0});
  ts::Tensor wrong = ts::empty({3, 2}, kFloat);
  EXPECT_ERROR(ts::cumsum_out(wrong, x, 0), "cumsum: output with shape [3, 2] doesn't match");
  EXPECT_EQ(shape_of(f), Shape{0});
  EXPECT_TENSOR_NEAR(x, kFloat, {2, 3}, {1, 2, 3, 4, 5, 6});
}

TEST(CumsumOut, WritesInTheOutDtype) {
  ts::Tensor out = ts::empty({0}, kShort);
  ts::cumsum_out(out, make(kShort, {30000, 30000, 10}, {3}), 0);
  EXPECT_TENSOR_NEAR(out, kShort, {3}, {30000, -5536, -5526});  // int16 wraps, as ATen
  ts::Tensor d = ts::empty({2, 3}, kDouble);
  ts::cumsum_out(d, x23(), 0);
  EXPECT_TENSOR_NEAR(d, kDouble, {2, 3}, {1, 2, 3, 5, 7, 9});
}

// ---- the typed parameters meta passes (lib/src/ops/reduce.cpp's Params block) ----

using ts::OpId;
using ts::OpSignature;

// What the last call of the capture set's kernels carried.
ts::OpParams captured;
size_t captured_outputs = 0;

void capture(const ts::KernelCall& c) {
  captured = c.p;
  captured_outputs = c.outputs.size();
}

// A kernel set whose every reduction and scan kernel only records its call.
const char* capture_set() {
  static const char* name = [] {
    ts::KernelRegistrar m("test_reduce_capture");
    ts::for_each_kernel_op<OpSignature::Reduction, OpSignature::Scan>(
        [&](auto op) { m.impl(op, ts::kCPU, capture); });
    return "test_reduce_capture";
  }();
  return name;
}

using Dims = std::vector<int64_t>;
Dims dims_of(const ts::ReduceParams& r) {
  return Dims(r.dims.begin(), r.dims.end());
}

// Sixteen ops, and the scans of issue 16 (cumprod, logcumsumexp).
TEST(ReduceParams, TheFamilysKernelOpsAreItsSixteenOps) {
  std::vector<OpId> ops;
  ts::for_each_kernel_op<OpSignature::Reduction, OpSignature::Scan>(
      [&](auto op) { ops.push_back(op); });
  const std::vector<OpId> family = {
      OpId::sum,       OpId::mean,   OpId::prod,   OpId::amax,   OpId::amin,    OpId::max,
      OpId::min,       OpId::argmax, OpId::argmin, OpId::var,    OpId::std,     OpId::norm,
      OpId::logsumexp, OpId::all,    OpId::any,    OpId::cumsum, OpId::cumprod, OpId::logcumsumexp};
  EXPECT_EQ(ops, family);
}

TEST(ReduceParams, SetsRegisterTheDeclaredDtypes) {
  for (const char* name : {"reference", "optimized"}) {
    const ts::KernelSetId set = *ts::find_kernel_set(name);
    ts::for_each_kernel_op<OpSignature::Reduction, OpSignature::Scan>([&](auto op) {
      EXPECT_EQ(ts::get_kernel(op, ts::kCPU, set).dtypes.bits(), ts::op_info(op).dtypes.bits())
          << name << " " << ts::op_info(op).name;
    });
  }
  EXPECT_FALSE(ts::op_info(OpId::argmax).dtypes.has(ts::kBool));  // as PyTorch's CPU kernels
  EXPECT_EQ(ts::op_info(OpId::logsumexp).dtypes.bits(), ts::DTypeSet::floating().bits());
}

TEST(ReduceParams, SumAndMeanCarrySortedWrappedDimsAndKeepdim) {
  ts::KernelSetGuard g(capture_set());
  ts::sum(x23(), {-1, 0}, /*keepdim=*/true);
  EXPECT_EQ(dims_of(captured.get<ts::ReduceParams>()), (Dims{0, 1}));
  EXPECT_TRUE(captured.get<ts::ReduceParams>().keepdim);
  EXPECT_EQ(captured.compute_dtype, kFloat);
  ts::mean(x23(), {1});
  EXPECT_EQ(dims_of(captured.get<ts::ReduceParams>()), (Dims{1}));
  EXPECT_FALSE(captured.get<ts::ReduceParams>().keepdim);
  ts::sum(x23(ts::kInt));  // every dim; integers accumulate in int64
  EXPECT_EQ(dims_of(captured.get<ts::ReduceParams>()), (Dims{0, 1}));
  EXPECT_EQ(captured.compute_dtype, ts::kLong);
}

TEST(ReduceParams, SingleDimFormsCarryThatDimOrNoneForAZeroDimInput) {
  ts::KernelSetGuard g(capture_set());
  ts::prod(x23(), -1);
  EXPECT_EQ(dims_of(captured.get<ts::ReduceParams>()), (Dims{1}));
  ts::max(x23(), 0, /*keepdim=*/true);
  EXPECT_EQ(dims_of(captured.get<ts::ReduceParams>()), (Dims{0}));
  EXPECT_TRUE(captured.get<ts::ReduceParams>().keepdim);
  EXPECT_EQ(captured_outputs, 2u);  // values and indices
  ts::max(x23());
  EXPECT_EQ(dims_of(captured.get<ts::ReduceParams>()), (Dims{0, 1}));
  EXPECT_EQ(captured_outputs, 1u);
  ts::argmin(x23(), -2);
  EXPECT_EQ(dims_of(captured.get<ts::ReduceParams>()), (Dims{0}));
  ts::argmax(x23());
  EXPECT_EQ(dims_of(captured.get<ts::ReduceParams>()), (Dims{0, 1}));
  ts::all(x23(), 1);
  EXPECT_EQ(dims_of(captured.get<ts::ReduceParams>()), (Dims{1}));
  ts::any(make(kFloat, {2}, {}), -1);  // a 0-dim input reduces over nothing
  EXPECT_EQ(dims_of(captured.get<ts::ReduceParams>()), Dims{});
}

TEST(ReduceParams, VarStdNormAndCumsumCarryTheirOwnStructs) {
  ts::KernelSetGuard g(capture_set());
  ts::var(x23(), {1}, /*correction=*/0.5, /*keepdim=*/true);
  EXPECT_EQ(captured.get<ts::VarParams>().correction, 0.5);
  EXPECT_EQ(dims_of(captured.get<ts::VarParams>()), (Dims{1}));
  EXPECT_TRUE(captured.get<ts::VarParams>().keepdim);
  // reduce_params reads the dims of every reduction's struct; get<> wants the exact one.
  EXPECT_EQ(dims_of(ts::reduce_params(captured)), (Dims{1}));
  EXPECT_ERROR(captured.get<ts::ReduceParams>(),
               "the kernel read ReduceParams but the call carries VarParams");
  ts::std(x23(), {}, 0.0, false);
  EXPECT_EQ(captured.get<ts::VarParams>().correction, 0.0);
  EXPECT_EQ(dims_of(captured.get<ts::VarParams>()), (Dims{0, 1}));
  ts::norm(x23(), INFINITY, {0});
  EXPECT_EQ(captured.get<ts::NormParams>().p, INFINITY);
  EXPECT_EQ(dims_of(captured.get<ts::NormParams>()), (Dims{0}));
  ts::norm(x23(), 1, {});
  EXPECT_EQ(captured.get<ts::NormParams>().p, 1.0);
  ts::cumsum(x23(), -1);
  EXPECT_EQ(captured.get<ts::DimParams>().dim, 1);
  EXPECT_ERROR(ts::reduce_params(captured),
               "the kernel read ReduceParams but the call carries DimParams");
}

}  // namespace

// Note [Reduction out= dtypes]: with no dtype=, out's dtype is the dtype= (ATen 1.13's
// get_dtype_from_result): each element is cast first, so 0.5 and 0.7 count 0 in an int64 sum.
TEST(ReductionOut, OutDtypeIsTheComputeDtype) {
  const ts::Tensor x = make(kFloat, {0.5, 0.5, 0.7, 1.5, -0.5, 2}, {2, 3});
  ts::Tensor s = ts::empty({0}, kLong);
  ts::sum_out(s, x, {1});
  EXPECT_TENSOR_NEAR(s, kLong, {2}, {0, 3});  // [0 + 0 + 0, 1 + 0 + 2]
  ts::Tensor c = ts::empty({0}, kInt);
  ts::cumsum_out(c, x, 1);
  EXPECT_TENSOR_NEAR(c, kInt, {2, 3}, {0, 0, 0, 1, 1, 3});
  ts::Tensor p = ts::empty({0}, kByte);
  ts::prod_out(p, make(kFloat, {2.5, 3.9, 1, 2}, {2, 2}), 1);
  EXPECT_TENSOR_NEAR(p, kByte, {2}, {6, 2});  // [2 * 3, 1 * 2]
  // Into bool, a sum is an any and a product an all (200 + 100 does not wrap to a uint8 44).
  const ts::Tensor u = make(kByte, {200, 100, 0, 3, 0, 0}, {2, 3});
  ts::Tensor sb = ts::empty({0}, kBool);
  ts::sum_out(sb, u, {1});
  EXPECT_TENSOR_NEAR(sb, kBool, {2}, {1, 1});
  ts::Tensor pb = ts::empty({0}, kBool);
  ts::prod_out(pb, make(kInt, {2, -1, 0, 5}, {2, 2}), 1);
  EXPECT_TENSOR_NEAR(pb, kBool, {2}, {1, 0});
}
