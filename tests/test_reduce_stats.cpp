// Reductions without an identity (amax, amin, max, min, argmax, argmin) and the statistics
// (var, std, norm, logsumexp). Values are hand-computed (or PyTorch's, where noted).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "test_util.h"
#include "touchstone/touchstone.h"

namespace {

using namespace ts::testing;

// x = [[1, 2, 3], [4, 5, 6]] as float32: the running example.
ts::Tensor x23(ts::ScalarType dtype = kFloat) {
  return make(dtype, {1, 2, 3, 4, 5, 6}, {2, 3});
}

// y = [[5, 0, 4], [2, 8, 3]]: no ties, so every index is unambiguous.
ts::Tensor y23(ts::ScalarType dtype = kFloat) {
  return make(dtype, {5, 0, 4, 2, 8, 3}, {2, 3});
}

// ---- amax, amin ----

TEST(Amax, Values) {
  EXPECT_TENSOR_NEAR(ts::amax(x23(), {0}), kFloat, {3}, {4, 5, 6});
  EXPECT_TENSOR_NEAR(ts::amin(x23(), {1}), kFloat, {2}, {1, 4});
  EXPECT_TENSOR_NEAR(ts::amax(x23()), kFloat, {}, {6});  // empty dim list: every dim
  EXPECT_TENSOR_NEAR(x23().amax({0, 1}, true), kFloat, {1, 1}, {6});
  EXPECT_TENSOR_NEAR(x23().amin({-1, 0}), kFloat, {}, {1});
  EXPECT_TENSOR_NEAR(ts::amax(iota({2, 3, 4}, kFloat), {0, 2}), kFloat, {3}, {15, 19, 23});
  EXPECT_TENSOR_NEAR(ts::amin(iota({2, 3, 4}, kFloat), {2, 0}, true), kFloat, {1, 3, 1}, {0, 4, 8});
}

TEST(Amax, KeepsEveryDtype) {
  EXPECT_TENSOR_NEAR(ts::amax(make(kShort, {-3, 7, 2}, {3})), kShort, {}, {7});
  EXPECT_TENSOR_NEAR(ts::amin(make(kShort, {-3, 7, 2}, {3})), kShort, {}, {-3});
  EXPECT_TENSOR_NEAR(ts::amax(make(kBool, {0, 1}, {2})), kBool, {}, {1});
  EXPECT_TENSOR_NEAR(ts::amin(make(kBool, {0, 1}, {2})), kBool, {}, {0});
  EXPECT_TENSOR_NEAR(ts::amax(make(kByte, {200, 100}, {2})), kByte, {}, {200});
  EXPECT_TENSOR_NEAR(ts::amin(make(kHalf, {0.5, -kInf, 2}, {3})), kHalf, {}, {-kInf});
  EXPECT_TENSOR_NEAR(ts::amax(make(kBFloat16, {1.5, 3.25}, {2})), kBFloat16, {}, {3.25});
  // int64 compares exactly (as doubles these two would be equal).
  EXPECT_EQ(long_values(ts::amin(make_long({INT64_MAX, INT64_MAX - 1}, {2}))),
            std::vector<int64_t>{INT64_MAX - 1});
}

TEST(Amax, NaNPropagates) {
  EXPECT_TENSOR_NEAR(ts::amax(make(kFloat, {1, kNaN, 3}, {3})), kFloat, {}, {kNaN});
  EXPECT_TENSOR_NEAR(ts::amin(make(kFloat, {1, kNaN, 3, 4}, {2, 2}), {1}), kFloat, {2}, {kNaN, 3});
}

TEST(Amax, NonContiguous) {
  EXPECT_TENSOR_NEAR(ts::amax(x23().t(), {1}), kFloat, {3}, {4, 5, 6});
  EXPECT_TENSOR_NEAR(ts::amin(make(kFloat, {1, 2, 3}, {3}).expand({2, 3}), {0}), kFloat, {3},
                     {1, 2, 3});
  EXPECT_TENSOR_NEAR(ts::amax(iota({2, 3, 4}, kFloat).slice(2, 0, 4, 2), {2}), kFloat, {2, 3},
                     {2, 6, 10, 14, 18, 22});
}

TEST(Amax, EmptyInputs) {
  const ts::Tensor e = make(kFloat, {}, {0, 3});
  EXPECT_ERROR(ts::amax(e),
               "amax: Expected reduction dim to be specified for input.numel() == 0. Specify "
               "the reduction dim with the 'dim' argument.");
  EXPECT_ERROR(ts::amax(e, {-2}), "amax: Expected reduction dim -2 to have non-zero size.");
  EXPECT_ERROR(ts::amin(e, {1, 0}), "amin: Expected reduction dim 0 to have non-zero size.");
  EXPECT_TENSOR_NEAR(ts::amax(e, {1}), kFloat, {0}, {});
  EXPECT_TENSOR_NEAR(ts::amin(e, {1}, true), kFloat, {0, 1}, {});
}

TEST(Amax, ZeroDimAndErrors) {
  EXPECT_TENSOR_NEAR(ts::amax(make(kFloat, {2.5}, {}), {0}), kFloat, {}, {2.5});
  EXPECT_TENSOR_NEAR(ts::amin(make(kFloat, {2.5}, {}), {-1}, true), kFloat, {}, {2.5});
  EXPECT_ERROR(ts::amax(x23(), {1, -1}), "amax: dim 1 appears multiple times");
  EXPECT_ERROR(ts::amin(x23(), {3}), "amin: Dimension out of range");
}

TEST(AmaxOut, DtypeMustMatchTheInput) {
  ts::Tensor out = ts::empty({0}, kFloat);
  ts::amax_out(out, x23(), {1});
  EXPECT_TENSOR_NEAR(out, kFloat, {2}, {3, 6});
  ts::Tensor d = ts::empty({0}, kDouble);
  EXPECT_ERROR(ts::amax_out(d, x23(), {1}),
               "amax: Expected the dtype for input and out to match, but got float32 for "
               "input's dtype and float64 for out's dtype.");
  EXPECT_ERROR(ts::amin_out(d, x23(), {1}), "amin: Expected the dtype for input and out to match");
  EXPECT_EQ(shape_of(d), Shape{0});
  ts::Tensor wrong = ts::empty({3}, kFloat);
  EXPECT_ERROR(ts::amin_out(wrong, x23(), {1}), "amin: output with shape [3] doesn't match");
}

// ---- max, min ----

TEST(MaxMin, FullReductions) {
  EXPECT_TENSOR_NEAR(ts::max(x23()), kFloat, {}, {6});
  EXPECT_TENSOR_NEAR(x23().min(), kFloat, {}, {1});
  EXPECT_TENSOR_NEAR(ts::max(x23().t()), kFloat, {}, {6});
  EXPECT_TENSOR_NEAR(ts::max(make(kShort, {-3, 7, 2}, {3})), kShort, {}, {7});
  EXPECT_TENSOR_NEAR(ts::min(make(kBool, {1, 0}, {2})), kBool, {}, {0});
  EXPECT_TENSOR_NEAR(ts::max(make(kDouble, {1, kNaN, 3}, {3})), kDouble, {}, {kNaN});
  EXPECT_TENSOR_NEAR(ts::min(make(kHalf, {1, kNaN, -3}, {3})), kHalf, {}, {kNaN});
  EXPECT_TENSOR_NEAR(ts::max(make(kFloat, {2.5}, {})), kFloat, {}, {2.5});
  EXPECT_EQ(long_values(ts::max(make_long({INT64_MAX - 1, INT64_MAX}, {2}))),
            std::vector<int64_t>{INT64_MAX});
}

TEST(MaxMin, FullReductionOfEmptyIsAnError) {
  EXPECT_ERROR(ts::max(make(kFloat, {}, {0})),
               "max: Expected reduction dim to be specified for input.numel() == 0. Specify the "
               "reduction dim with the 'dim' argument.");
  EXPECT_ERROR(ts::min(make(kFloat, {}, {2, 0})),
               "min: Expected reduction dim to be specified for input.numel() == 0.");
}

TEST(MaxMinDim, ValuesAndIndices) {
  auto [v, i] = ts::max(y23(), 1);
  EXPECT_TENSOR_NEAR(v, kFloat, {2}, {5, 8});
  EXPECT_TENSOR_NEAR(i, kLong, {2}, {0, 1});
  auto [v2, i2] = ts::min(y23(), 1);
  EXPECT_TENSOR_NEAR(v2, kFloat, {2}, {0, 2});
  EXPECT_TENSOR_NEAR(i2, kLong, {2}, {1, 0});
  auto [v3, i3] = y23().max(0, true);
  EXPECT_TENSOR_NEAR(v3, kFloat, {1, 3}, {5, 8, 4});
  EXPECT_TENSOR_NEAR(i3, kLong, {1, 3}, {0, 1, 0});
  auto [v4, i4] = y23().min(-2);
  EXPECT_TENSOR_NEAR(v4, kFloat, {3}, {2, 0, 3});
  EXPECT_TENSOR_NEAR(i4, kLong, {3}, {1, 0, 1});
  auto [v5, i5] = ts::max(iota({2, 3, 4}, kFloat), 1, true);
  EXPECT_TENSOR_NEAR(v5, kFloat, {2, 1, 4}, {8, 9, 10, 11, 20, 21, 22, 23});
  EXPECT_TENSOR_NEAR(i5, kLong, {2, 1, 4}, {2, 2, 2, 2, 2, 2, 2, 2});
}

TEST(MaxMinDim, TiesGiveTheFirstIndexAndNaNWins) {
  auto [v, i] = ts::max(make(kInt, {1, 3, 3, 2}, {4}), 0);
  EXPECT_TENSOR_NEAR(v, kInt, {}, {3});
  EXPECT_TENSOR_NEAR(i, kLong, {}, {1});
  auto [v2, i2] = ts::min(make(kFloat, {2, 1, 3, 1}, {4}), 0);
  EXPECT_TENSOR_NEAR(i2, kLong, {}, {1});
  // PyTorch: torch.tensor([1., nan, 3., nan]).max(0) == (nan, 1), and likewise for min.
  auto [v3, i3] = ts::max(make(kDouble, {1, kNaN, 3, kNaN}, {4}), 0);
  EXPECT_TENSOR_NEAR(v3, kDouble, {}, {kNaN});
  EXPECT_TENSOR_NEAR(i3, kLong, {}, {1});
  auto [v4, i4] = ts::min(make(kBFloat16, {1, kNaN, -3, kNaN}, {4}), 0);
  EXPECT_TENSOR_NEAR(v4, kBFloat16, {}, {kNaN});
  EXPECT_TENSOR_NEAR(i4, kLong, {}, {1});
}

TEST(MaxMinDim, BoolIntegerAndNonContiguous) {
  auto [v, i] = ts::max(make(kBool, {0, 1, 1}, {3}), 0);
  EXPECT_TENSOR_NEAR(v, kBool, {}, {1});
  EXPECT_TENSOR_NEAR(i, kLong, {}, {1});
  auto [v2, i2] = ts::min(make(kByte, {200, 7, 9}, {3}), -1);
  EXPECT_TENSOR_NEAR(v2, kByte, {}, {7});
  EXPECT_TENSOR_NEAR(i2, kLong, {}, {1});
  auto [v3, i3] = ts::max(y23().t(), 0);  // columns of y.t() are y's rows
  EXPECT_TENSOR_NEAR(v3, kFloat, {2}, {5, 8});
  EXPECT_TENSOR_NEAR(i3, kLong, {2}, {0, 1});
  auto [v4, i4] = ts::min(make(kFloat, {4, 2, 6}, {3}).expand({2, 3}), 1, true);
  EXPECT_TENSOR_NEAR(v4, kFloat, {2, 1}, {2, 2});
  EXPECT_TENSOR_NEAR(i4, kLong, {2, 1}, {1, 1});
}

TEST(MaxMinDim, EmptyAndZeroDim) {
  const ts::Tensor e = make(kFloat, {}, {0, 3});
  EXPECT_ERROR(ts::max(e, 0), "max: Expected reduction dim 0 to have non-zero size.");
  EXPECT_ERROR(ts::min(e, -2), "min: Expected reduction dim 0 to have non-zero size.");
  auto [v, i] = ts::max(e, 1);
  EXPECT_TENSOR_NEAR(v, kFloat, {0}, {});
  EXPECT_TENSOR_NEAR(i, kLong, {0}, {});
  auto [v2, i2] = ts::min(e, 1, true);
  EXPECT_EQ(shape_of(v2), (Shape{0, 1}));
  auto [v3, i3] = ts::max(make(kFloat, {2.5}, {}), 0);
  EXPECT_TENSOR_NEAR(v3, kFloat, {}, {2.5});
  EXPECT_TENSOR_NEAR(i3, kLong, {}, {0});
  auto [v4, i4] = ts::min(make(kFloat, {2.5}, {}), -1, true);
  EXPECT_TENSOR_NEAR(i4, kLong, {}, {0});
  EXPECT_ERROR(ts::max(make(kFloat, {2.5}, {}), 1),
               "max: Dimension out of range (expected to be in range of [-1, 0], but got 1)");
}

TEST(MaxMinOut, WritesBothOutputs) {
  ts::Tensor values = ts::empty({0}, kFloat), indices = ts::empty({0}, kLong);
  auto [rv, ri] = ts::max_out(values, indices, y23(), 1);
  EXPECT_TRUE(rv.is_same(values));
  EXPECT_TRUE(ri.is_same(indices));
  EXPECT_TENSOR_NEAR(values, kFloat, {2}, {5, 8});
  EXPECT_TENSOR_NEAR(indices, kLong, {2}, {0, 1});
  ts::min_out(values, indices, y23(), 1);
  EXPECT_TENSOR_NEAR(values, kFloat, {2}, {0, 2});
  EXPECT_TENSOR_NEAR(indices, kLong, {2}, {1, 0});
}

TEST(MaxMinOut, WritesThroughStridedOuts) {
  ts::Tensor values = ts::empty({4, 2}, kFloat).t(), indices = ts::empty({4, 2}, kLong).t();
  ts::min_out(values, indices, iota({2, 3, 4}, kFloat),
              1);  // min over j of 12i + 4j + k is at j = 0
  EXPECT_TENSOR_NEAR(values, kFloat, {2, 4}, {0, 1, 2, 3, 12, 13, 14, 15});
  EXPECT_TENSOR_NEAR(indices, kLong, {2, 4}, {0, 0, 0, 0, 0, 0, 0, 0});
}

TEST(MaxMinOut, ChecksBothBeforeWritingEither) {
  ts::Tensor values = ts::empty({0}, kFloat), bad_idx = ts::empty({0}, kInt);
  EXPECT_ERROR(ts::max_out(values, bad_idx, y23(), 1),
               "max: Expected out tensor to have dtype int64, but got int32 instead (argument "
               "'indices')");
  EXPECT_EQ(shape_of(values), Shape{0});  // untouched
  ts::Tensor bad_values = ts::empty({0}, kDouble), indices = ts::empty({0}, kLong);
  EXPECT_ERROR(ts::min_out(bad_values, indices, y23(), 1),
               "min: Expected out tensor to have dtype float32, but got float64 instead (argument "
               "'values')");
  ts::Tensor wrong = ts::empty({5}, kLong);
  EXPECT_ERROR(ts::max_out(values, wrong, y23(), 1),
               "max: output with shape [5] doesn't match the result shape [2] (argument "
               "'indices')");
  EXPECT_EQ(shape_of(values), Shape{0});
}

// ---- argmax, argmin ----

TEST(Argmax, OverTheFlattenedInputOrADim) {
  EXPECT_TENSOR_NEAR(ts::argmax(y23()), kLong, {}, {4});
  EXPECT_TENSOR_NEAR(y23().argmin(), kLong, {}, {1});
  EXPECT_TENSOR_NEAR(ts::argmax(y23(), 1), kLong, {2}, {0, 1});
  EXPECT_TENSOR_NEAR(ts::argmin(y23(), -1), kLong, {2}, {1, 0});
  EXPECT_TENSOR_NEAR(ts::argmax(y23(), 0, true), kLong, {1, 3}, {0, 1, 0});
  // PyTorch: torch.tensor([[1, 5], [3, 2]]).argmax(keepdim=True) has shape [1, 1].
  EXPECT_TENSOR_NEAR(ts::argmax(y23(), std::nullopt, true), kLong, {1, 1}, {4});
  EXPECT_TENSOR_NEAR(ts::argmin(iota({2, 3, 4}, kFloat), 1), kLong, {2, 4},
                     {0, 0, 0, 0, 0, 0, 0, 0});
}

TEST(Argmax, NonContiguousInputsIndexTheirOwnLayout) {
  // y.t() = [[5, 2], [0, 8], [4, 3]] in row-major order: 8 is element 3, 0 is element 2.
  EXPECT_TENSOR_NEAR(ts::argmax(y23().t()), kLong, {}, {3});
  EXPECT_TENSOR_NEAR(ts::argmin(y23().t()), kLong, {}, {2});
  EXPECT_TENSOR_NEAR(ts::argmax(y23().t(), 0), kLong, {2}, {0, 1});
  EXPECT_TENSOR_NEAR(ts::argmax(make(kFloat, {1, 2, 3}, {3}).expand({2, 3}), 1), kLong, {2},
                     {2, 2});
}

TEST(Argmax, DtypesTiesAndNaN) {
  EXPECT_TENSOR_NEAR(ts::argmax(make(kChar, {-5, -1, -9}, {3})), kLong, {}, {1});
  EXPECT_TENSOR_NEAR(ts::argmin(make(kChar, {-5, -1, -9}, {3})), kLong, {}, {2});
  EXPECT_TENSOR_NEAR(ts::argmax(make(kByte, {100, 200}, {2})), kLong, {}, {1});
  EXPECT_TENSOR_NEAR(ts::argmin(make(kHalf, {0.5, -1, -1}, {3})), kLong, {}, {1});
  EXPECT_TENSOR_NEAR(ts::argmax(make(kLong, {1, 3, 3, 2}, {4})), kLong, {}, {1});
  EXPECT_TENSOR_NEAR(ts::argmin(make(kShort, {2, 1, 3, 1}, {4})), kLong, {}, {1});
  // PyTorch: torch.tensor([1., nan, 3., nan]).argmax() == 1, and argmin() == 1.
  EXPECT_TENSOR_NEAR(ts::argmax(make(kDouble, {1, kNaN, 3, kNaN}, {4})), kLong, {}, {1});
  EXPECT_TENSOR_NEAR(ts::argmin(make(kFloat, {1, kNaN, 3, kNaN}, {4})), kLong, {}, {1});
  EXPECT_TENSOR_NEAR(ts::argmax(make(kFloat, {kNaN, kInf}, {2})), kLong, {}, {0});
}

TEST(Argmax, EmptyZeroDimAndErrors) {
  EXPECT_ERROR(ts::argmax(make(kFloat, {}, {0})),
               "argmax: Expected reduction dim to be specified for input.numel() == 0.");
  EXPECT_ERROR(ts::argmin(make(kFloat, {}, {0, 3}), -2),
               "argmin: Expected reduction dim 0 to have non-zero size.");
  EXPECT_TENSOR_NEAR(ts::argmax(make(kFloat, {}, {0, 3}), 1), kLong, {0}, {});
  EXPECT_TENSOR_NEAR(ts::argmax(make(kFloat, {7.0}, {})), kLong, {}, {0});
  EXPECT_TENSOR_NEAR(ts::argmin(make(kFloat, {7.0}, {}), 0), kLong, {}, {0});
  EXPECT_TENSOR_NEAR(ts::argmax(make(kFloat, {7.0}, {}), std::nullopt, true), kLong, {}, {0});
  EXPECT_ERROR(ts::argmax(make(kBool, {0, 1}, {2})),
               "argmax: not implemented for dtype bool (argument 'self')");
  EXPECT_ERROR(ts::argmin(y23(), 2), "argmin: Dimension out of range");
}

// libtorch 1.13 (Note [Nothing to compute]): argmax(bool (0, 3), 1) -> int64 [0] (keepdim: [0, 1]);
// a 0-dim bool still throws "argmax_cpu" not implemented for 'Bool', and a bad dim or an empty
// reduced dim is refused before the dtype ("Dimension out of range", "to have non-zero size").
TEST(Argmax, EmptyBoolAlongADimAsATen) {
  EXPECT_TENSOR_NEAR(ts::argmax(make(kBool, {}, {0, 3}), 1), kLong, {0}, {});
  EXPECT_TENSOR_NEAR(ts::argmin(make(kBool, {}, {0, 3}), -1, true), kLong, {0, 1}, {});
  ts::Tensor out = ts::empty({0}, kLong);
  ts::argmin_out(out, make(kBool, {}, {0, 3}), 1);
  EXPECT_EQ(out.sizes(), ts::IntArrayRef({0}));
  EXPECT_ERROR(ts::argmax(make(kBool, {1}, {})),
               "argmax: not implemented for dtype bool (argument 'self')");
  EXPECT_ERROR(ts::argmax(make(kBool, {}, {0, 3}), 0),
               "argmax: Expected reduction dim 0 to have non-zero size.");
  EXPECT_ERROR(ts::argmin(make(kBool, {1, 0, 1, 0, 1, 0}, {2, 3}), 5),
               "argmin: Dimension out of range");
}

TEST(ArgmaxOut, MustBeInt64) {
  ts::Tensor out = ts::empty({0}, kLong);
  ts::argmax_out(out, y23(), 1, true);
  EXPECT_TENSOR_NEAR(out, kLong, {2, 1}, {0, 1});
  ts::Tensor out2 = ts::empty({}, kLong);
  ts::argmin_out(out2, y23());
  EXPECT_TENSOR_NEAR(out2, kLong, {}, {1});
  ts::Tensor i32 = ts::empty({0}, kInt);
  EXPECT_ERROR(ts::argmax_out(i32, y23(), 1),
               "argmax: Expected out tensor to have dtype int64, but got int32 instead (argument "
               "'out')");
  EXPECT_EQ(shape_of(i32), Shape{0});
}

// ---- var, std ----

TEST(VarStd, Values) {
  const ts::Tensor a = make(kFloat, {1, 2, 3, 4}, {4});  // mean 2.5, squared deviations sum to 5
  EXPECT_TENSOR_NEAR(ts::var(a), kFloat, {}, {5.0 / 3}, 1e-6);
  EXPECT_TENSOR_NEAR(ts::std(a), kFloat, {}, {std::sqrt(5.0 / 3)}, 1e-6);
  EXPECT_TENSOR_NEAR(a.var({}, 0), kFloat, {}, {1.25});
  // PyTorch: torch.std(torch.tensor([1., 2., 3., 4.]), correction=0) == 1.11803.
  EXPECT_TENSOR_NEAR(a.std({}, 0), kFloat, {}, {std::sqrt(1.25)}, 1e-6);
  EXPECT_TENSOR_NEAR(ts::var(a, {}, 0.5), kFloat, {}, {5 / 3.5}, 1e-6);
  const ts::Tensor b = make(kFloat, {1, 2, 3, 4, 6, 8}, {2, 3});
  EXPECT_TENSOR_NEAR(ts::var(b, {1}), kFloat, {2}, {1, 4});
  EXPECT_TENSOR_NEAR(ts::var(b, {0}, 1, true), kFloat, {1, 3}, {4.5, 8, 12.5});
  EXPECT_TENSOR_NEAR(ts::std(b, {-1}), kFloat, {2}, {1, 2});
  EXPECT_TENSOR_NEAR(ts::var(x23(kDouble), {0, 1}), kDouble, {}, {3.5});
  // Every slice {0..3, 12..15} + 4j has variance 298 / 7.
  EXPECT_TENSOR_NEAR(ts::var(iota({2, 3, 4}, kDouble), {0, 2}, 1, true), kDouble, {1, 3, 1},
                     {298.0 / 7, 298.0 / 7, 298.0 / 7}, 1e-12);
}

TEST(VarStd, DivisorIsClampedAtZero) {
  EXPECT_TENSOR_NEAR(ts::var(make(kFloat, {1, 2}, {2}), {}, 3), kFloat, {}, {kInf});  // 0.5 / 0
  EXPECT_TENSOR_NEAR(ts::var(make(kFloat, {1}, {1})), kFloat, {}, {kNaN});            // 0 / 0
  EXPECT_TENSOR_NEAR(ts::std(make(kFloat, {}, {0})), kFloat, {}, {kNaN});
  EXPECT_TENSOR_NEAR(ts::var(make(kFloat, {}, {2, 0}), {1}), kFloat, {2}, {kNaN, kNaN});
  EXPECT_TENSOR_NEAR(ts::var(make(kFloat, {5.0}, {})), kFloat, {}, {kNaN});
  EXPECT_TENSOR_NEAR(ts::var(make(kFloat, {5.0}, {}), {0}, 0), kFloat, {}, {0});
  EXPECT_TENSOR_NEAR(ts::var(make(kFloat, {kInf, 1}, {2})), kFloat, {}, {kNaN});
}

TEST(VarStd, ReducedFloatsAndNonContiguous) {
  // PyTorch: torch.tensor([1., 2.], dtype=torch.half).std() == 0.707031.
  EXPECT_TENSOR_NEAR(ts::std(make(kHalf, {1, 2}, {2})), kHalf, {}, {0.70703125});
  EXPECT_TENSOR_NEAR(ts::var(make(kBFloat16, {1, 2, 3}, {3})), kBFloat16, {}, {1});
  EXPECT_TENSOR_NEAR(ts::var(x23().t(), {0}), kFloat, {2}, {1, 1});
  EXPECT_TENSOR_NEAR(ts::std(make(kFloat, {1, 2, 3}, {3}).expand({2, 3}), {1}), kFloat, {2},
                     {1, 1});
  EXPECT_TENSOR_NEAR(ts::var(iota({2, 3, 4}, kFloat).slice(2, 0, 4, 3), {2}, 0), kFloat, {2, 3},
                     {2.25, 2.25, 2.25, 2.25, 2.25, 2.25});
}

TEST(VarStd, OutAndErrors) {
  ts::Tensor out = ts::empty({0}, kDouble);
  ts::var_out(out, make(kFloat, {1, 2, 3, 4}, {4}));
  EXPECT_TENSOR_NEAR(out, kDouble, {}, {5.0 / 3});
  ts::Tensor out2 = ts::empty({2, 1}, kDouble);
  ts::std_out(out2, make(kFloat, {1, 2, 3, 4, 6, 8}, {2, 3}), {1}, 1, true);
  EXPECT_TENSOR_NEAR(out2, kDouble, {2, 1}, {1, 2});
  ts::Tensor l = ts::empty({0}, kLong);
  EXPECT_ERROR(ts::var_out(l, x23()),
               "var: result type float32 can't be cast to the desired output type int64");
  EXPECT_ERROR(ts::var(make(kLong, {1, 2}, {2})),
               "var: std and var only support floating point and complex dtypes, but got int64");
  EXPECT_ERROR(ts::std(make(kBool, {1, 2}, {2})), "std: std and var only support floating point");
  EXPECT_ERROR(ts::var(x23(), {0, -2}), "var: dim 0 appears multiple times");
  EXPECT_ERROR(ts::std(x23(), {2}), "std: Dimension out of range");
}

// ---- norm ----

TEST(Norm, PIsOneTwoOrInf) {
  const ts::Tensor v = make(kFloat, {3, -4}, {2});
  EXPECT_TENSOR_NEAR(ts::norm(v), kFloat, {}, {5});
  EXPECT_TENSOR_NEAR(ts::norm(v, 2.0), kFloat, {}, {5});
  EXPECT_TENSOR_NEAR(v.norm(1), kFloat, {}, {7});
  EXPECT_TENSOR_NEAR(ts::norm(v, kInf), kFloat, {}, {4});
  const ts::Tensor m = make(kFloat, {3, 4, -6, 8}, {2, 2});
  EXPECT_TENSOR_NEAR(ts::norm(m, 2, {1}), kFloat, {2}, {5, 10});
  EXPECT_TENSOR_NEAR(ts::norm(m, 2, {0}, true), kFloat, {1, 2}, {std::sqrt(45.0), std::sqrt(80.0)},
                     1e-6);
  EXPECT_TENSOR_NEAR(ts::norm(m, kInf, {0}), kFloat, {2}, {6, 8});
  EXPECT_TENSOR_NEAR(ts::norm(m, 1, {0, 1}), kFloat, {}, {21});
  EXPECT_TENSOR_NEAR(ts::norm(m.t(), 2, {-1}), kFloat, {2}, {std::sqrt(45.0), std::sqrt(80.0)},
                     1e-6);
  EXPECT_TENSOR_NEAR(ts::norm(make(kBFloat16, {3, 4}, {2})), kBFloat16, {}, {5});
  EXPECT_TENSOR_NEAR(ts::norm(make(kHalf, {3, 4}, {2}), 1), kHalf, {}, {7});
  EXPECT_TENSOR_NEAR(ts::norm(make(kFloat, {-2.5}, {}), kInf, {0}), kFloat, {}, {2.5});
}

TEST(Norm, EmptyNaNAndInf) {
  EXPECT_TENSOR_NEAR(ts::norm(make(kFloat, {}, {0})), kFloat, {}, {0});
  EXPECT_TENSOR_NEAR(ts::norm(make(kFloat, {}, {0}), 1), kFloat, {}, {0});
  EXPECT_TENSOR_NEAR(ts::norm(make(kFloat, {}, {0}), kInf, {0}), kFloat, {},
                     {0});  // as libtorch 1.13
  EXPECT_TENSOR_NEAR(ts::norm(make(kDouble, {1, kNaN, -5}, {3}), kInf), kDouble, {}, {kNaN});
  EXPECT_TENSOR_NEAR(ts::norm(make(kDouble, {1, -5, kNaN}, {3}), kInf), kDouble, {}, {kNaN});
  EXPECT_TENSOR_NEAR(ts::norm(make(kFloat, {1, kNaN}, {2})), kFloat, {}, {kNaN});
  EXPECT_TENSOR_NEAR(ts::norm(make(kFloat, {-kInf, 1}, {2})), kFloat, {}, {kInf});
}

TEST(Norm, OutAndErrors) {
  ts::Tensor out = ts::empty({0}, kDouble);
  ts::norm_out(out, make(kFloat, {3, 4, -6, 8}, {2, 2}), 1, {1});
  EXPECT_TENSOR_NEAR(out, kDouble, {2}, {7, 14});
  ts::Tensor l = ts::empty({0}, kLong);
  EXPECT_ERROR(ts::norm_out(l, x23()),
               "norm: result type float32 can't be cast to the desired output type int64");
  EXPECT_ERROR(ts::norm(x23(), true),
               "norm: expects p to be an integer or float, but got True (argument 'p')");
  EXPECT_ERROR(ts::norm(make(kLong, {3, 4}, {2})),
               "norm: input dtype should be either floating point or complex. Got int64 "
               "instead (argument 'self').");
  EXPECT_ERROR(ts::norm(x23(), 2, {1, 1}), "norm: dim 1 appears multiple times");
}

// Every p, as ATen (Note [Norm of any p] in reference/reduce.cpp), on both kernel sets; values
// by hand: |3|^p + |-4|^p (+ 0^p), the p-th root.
TEST(Norm, AnyP) {
  for (const char* set : {"reference", "optimized"}) {
    SCOPED_TRACE(set);
    const ts::KernelSetGuard guard(set);
    const ts::Tensor v = make(kDouble, {3, -4, 0}, {3});
    EXPECT_TENSOR_NEAR(ts::norm(v, 0), kDouble, {}, {2});
    EXPECT_TENSOR_NEAR(ts::norm(v, 3), kDouble, {}, {std::cbrt(27.0 + 64.0)}, 1e-12);
    // (sqrt 3 + 2)^2 = 7 + 4 sqrt 3
    EXPECT_TENSOR_NEAR(ts::norm(v, 0.5), kDouble, {}, {7 + 4 * std::sqrt(3.0)}, 1e-12);
    EXPECT_TENSOR_NEAR(ts::norm(v, 1.5), kDouble, {}, {std::pow(3 * std::sqrt(3.0) + 8, 1 / 1.5)},
                       1e-12);
    EXPECT_TENSOR_NEAR(ts::norm(v, -kInf), kDouble, {}, {0});
    EXPECT_TENSOR_NEAR(ts::norm(v, -1), kDouble, {}, {0});  // 0^-1 = inf, inf^-1 = 0
    const ts::Tensor w = make(kFloat, {3, -4, -6, 8}, {2, 2});
    EXPECT_TENSOR_NEAR(ts::norm(w, -kInf, {1}), kFloat, {2}, {3, 6});
    // 1 / (1/3 + 1/4) = 12/7 and 1 / (1/6 + 1/8) = 24/7
    EXPECT_TENSOR_NEAR(ts::norm(w, -1, {1}), kFloat, {2}, {12.0 / 7, 24.0 / 7}, 1e-6);
    EXPECT_TENSOR_NEAR(ts::norm(w.t(), 0, {0}, true), kFloat, {1, 2}, {2, 2});
    EXPECT_TENSOR_NEAR(ts::norm(make(kHalf, {3}, {1}), 3), kHalf, {}, {3});
    // NaN counts as nonzero, -0 does not (ATen 1.13: 2); -inf propagates NaN.
    EXPECT_TENSOR_NEAR(ts::norm(make(kFloat, {kNaN, 0, -0.0, 2}, {4}), 0), kFloat, {}, {2});
    EXPECT_TENSOR_NEAR(ts::norm(make(kFloat, {1, kNaN}, {2}), -kInf), kFloat, {}, {kNaN});
    // Empty reductions give 0 for every p (ATen 1.13, -inf and p < 0 included).
    for (const double p : {0.0, 3.0, -1.0, -kInf}) {
      EXPECT_TENSOR_NEAR(ts::norm(make(kFloat, {}, {0}), p, {0}), kFloat, {}, {0});
      EXPECT_TENSOR_NEAR(ts::norm(ts::empty({2, 0}), p, {1}), kFloat, {2}, {0, 0});
    }
  }
}

// ---- logsumexp ----

TEST(Logsumexp, Values) {
  EXPECT_TENSOR_NEAR(ts::logsumexp(make(kFloat, {0, 0}, {2}), {0}), kFloat, {}, {std::log(2.0)},
                     1e-6);
  const ts::Tensor m = make(kDouble, {1, 2, 3, 4}, {2, 2});
  EXPECT_TENSOR_NEAR(ts::logsumexp(m, {}), kDouble, {},
                     {std::log(std::exp(1.0) + std::exp(2.0) + std::exp(3.0) + std::exp(4.0))},
                     1e-12);
  EXPECT_TENSOR_NEAR(
      ts::logsumexp(m, {1}), kDouble, {2},
      {std::log(std::exp(1.0) + std::exp(2.0)), std::log(std::exp(3.0) + std::exp(4.0))}, 1e-12);
  EXPECT_TENSOR_NEAR(
      m.logsumexp({0}, true), kDouble, {1, 2},
      {std::log(std::exp(1.0) + std::exp(3.0)), std::log(std::exp(2.0) + std::exp(4.0))}, 1e-12);
  EXPECT_TENSOR_NEAR(
      ts::logsumexp(m.t(), {0}), kDouble, {2},
      {std::log(std::exp(1.0) + std::exp(2.0)), std::log(std::exp(3.0) + std::exp(4.0))}, 1e-12);
  EXPECT_TENSOR_NEAR(ts::logsumexp(make(kFloat, {5.0}, {}), {0}), kFloat, {}, {5});
  // float16 log(2) = 0.693359375 after one rounding.
  EXPECT_TENSOR_NEAR(ts::logsumexp(make(kHalf, {0, 0}, {2}), {0}), kHalf, {}, {0.693359375});
}

TEST(Logsumexp, StableForLargeAndInfiniteInputs) {
  EXPECT_TENSOR_NEAR(ts::logsumexp(make(kDouble, {1000, 1000}, {2}), {0}), kDouble, {},
                     {1000 + std::log(2.0)}, 1e-12);
  EXPECT_TENSOR_NEAR(ts::logsumexp(make(kFloat, {-kInf, -kInf}, {2}), {0}), kFloat, {}, {-kInf});
  EXPECT_TENSOR_NEAR(ts::logsumexp(make(kFloat, {kInf, 1}, {2}), {0}), kFloat, {}, {kInf});
  EXPECT_TENSOR_NEAR(ts::logsumexp(make(kFloat, {-kInf, 0}, {2}), {0}), kFloat, {}, {0});
  EXPECT_TENSOR_NEAR(ts::logsumexp(make(kFloat, {kNaN, 1}, {2}), {0}), kFloat, {}, {kNaN});
  EXPECT_TENSOR_NEAR(ts::logsumexp(make(kFloat, {}, {0}), {0}), kFloat, {}, {-kInf});
  EXPECT_TENSOR_NEAR(ts::logsumexp(make(kFloat, {}, {2, 0}), {1}), kFloat, {2}, {-kInf, -kInf});
}

TEST(Logsumexp, IntegersComputeInTheDefaultFloat) {
  // PyTorch: torch.logsumexp(torch.tensor([1, 2, 3]), 0) == 3.40761 (float32).
  EXPECT_TENSOR_NEAR(ts::logsumexp(make(kInt, {1, 2, 3}, {3}), {0}), kFloat, {},
                     {3.4076059644443806}, 1e-6);
  EXPECT_TENSOR_NEAR(ts::logsumexp(make(kBool, {1, 0}, {2}), {0}), kFloat, {}, {1.3132616875182228},
                     1e-6);
}

TEST(Logsumexp, OutAndErrors) {
  ts::Tensor out = ts::empty({0}, kDouble);
  ts::logsumexp_out(out, make(kFloat, {0, 0}, {2}), {0});
  EXPECT_TENSOR_NEAR(out, kDouble, {}, {static_cast<double>(static_cast<float>(std::log(2.0)))});
  ts::Tensor l = ts::empty({0}, kLong);
  EXPECT_ERROR(
      ts::logsumexp_out(l, x23(), {0}),
      "logsumexp: Expected floating point type for result tensor (argument 'out'), but got: int64");
  ts::Tensor h = ts::empty({0}, kHalf);  // log(e + e^2) = 2.31326 rounds to 2.3125
  ts::logsumexp_out(h, make(kDouble, {1, 2}, {2}), {0}, true);
  EXPECT_TENSOR_NEAR(h, kHalf, {1}, {2.3125});
  ts::Tensor wrong = ts::empty({2}, kFloat);
  EXPECT_ERROR(ts::logsumexp_out(wrong, x23(), {1}, true),
               "logsumexp: output with shape [2] doesn't match the result shape [2, 1]");
  EXPECT_ERROR(ts::logsumexp(x23(), {0, 0}), "logsumexp: dim 0 appears multiple times");
  EXPECT_ERROR(ts::logsumexp(x23(), {-3}), "logsumexp: Dimension out of range");
}

}  // namespace
