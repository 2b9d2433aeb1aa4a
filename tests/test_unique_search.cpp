// Searches in sorted sequences and unique (issue 16): searchsorted, bucketize, _unique2 (and
// ts::unique), unique_dim and unique_consecutive against PyTorch's documentation examples and
// hand-computed results (NaN, ties, sorter, int32 results, empty inputs), and their errors, in
// the reference and the optimized sets.
#include <gtest/gtest.h>

#include <tuple>
#include <vector>

#include "cpu_sets_util.h"
#include "test_util.h"
#include "touchstone/touchstone.h"

namespace {

using namespace ts::testing;
using ts::Tensor;
using I = std::vector<int64_t>;

TEST(Searchsorted, DocumentationExamples) {
  each_set([] {
    // torch.searchsorted's documentation
    const Tensor seq = make_long({1, 3, 5, 7, 9, 2, 4, 6, 8, 10}, {2, 5});
    const Tensor values = make_long({3, 6, 9, 3, 6, 9}, {2, 3});
    EXPECT_EQ(long_values(ts::searchsorted(seq, values)), (I{1, 3, 4, 1, 2, 4}));
    EXPECT_EQ(long_values(ts::searchsorted(seq, values, false, true)), (I{2, 3, 5, 1, 3, 4}));
    const Tensor seq1 = make_long({1, 3, 5, 7, 9});
    EXPECT_EQ(long_values(ts::searchsorted(seq1, values)), (I{1, 3, 4, 1, 3, 4}));
    // side="right" as right=True; out_int32; a Scalar value (0-dim result)
    const Tensor r = ts::searchsorted(seq1, values, true, false, "right");
    EXPECT_EQ(r.dtype(), ts::kInt);
    EXPECT_TENSOR(r, ts::kInt, {2, 3}, {2, 3, 5, 2, 3, 5}, 0);
    EXPECT_TENSOR(ts::searchsorted(seq1, ts::Scalar(4.5)), ts::kLong, {}, {2}, 0);
    // sorter: the positions that sort an unsorted sequence ([9, 1, 5] sorted by [1, 2, 0])
    const Tensor unsorted = make(ts::kFloat, {9, 1, 5});
    EXPECT_EQ(long_values(ts::searchsorted(unsorted, make(ts::kFloat, {0, 5, 6, 10}), false, false,
                                           std::nullopt, make_long({1, 2, 0}))),
              (I{0, 1, 2, 3}));
    // mixed dtypes compare in the promoted dtype: 2.5 lies between int64 2 and 3
    EXPECT_EQ(long_values(ts::searchsorted(make_long({1, 2, 3}), make(ts::kDouble, {2.5}))),
              (I{2}));
    // an empty sequence gives 0; out= of the result's dtype
    EXPECT_EQ(long_values(ts::searchsorted(ts::empty({0}), make(ts::kFloat, {1, 2}))), (I{0, 0}));
    Tensor out = ts::empty({0}, ts::kLong);
    ts::searchsorted_out(out, seq1, make_long({9}), false, true);
    EXPECT_EQ(long_values(out), (I{5}));
  });
}

// Note [Search order]: ATen's binary search, NaN included.
TEST(Searchsorted, NaNAndInfinities) {
  each_set([] {
    const Tensor seq = make(ts::kDouble, {-kInf, -1, 0, 2, kInf, kNaN});
    const Tensor v = make(ts::kDouble, {kNaN, -kInf, kInf, -0.0, 2});
    // A NaN value reaches the end; -0 ties with 0. The NaN at the sequence's end (sort's order)
    // is never >= or > anything, so searches that probe it go past it: +inf lands at 6, not 4
    // or 5, and right's 2 at 6 (the probes: 2, then the NaN at 5).
    EXPECT_EQ(long_values(ts::searchsorted(seq, v)), (I{6, 0, 6, 2, 3}));
    EXPECT_EQ(long_values(ts::searchsorted(seq, v, false, true)), (I{6, 1, 6, 3, 6}));
  });
}

TEST(Searchsorted, Errors) {
  const Tensor seq = make(ts::kFloat, {1, 2, 3});
  EXPECT_ERROR(ts::searchsorted(seq, seq, false, true, "left"), "side and right can't be set");
  EXPECT_ERROR(ts::searchsorted(seq, seq, false, false, "up"),
               "side can only be 'left' or 'right'");
  EXPECT_ERROR(ts::searchsorted(ts::scalar_tensor(1.0), seq), "positive dimension");
  EXPECT_ERROR(ts::searchsorted(ts::zeros({2, 3}), ts::zeros({3, 3})), "first N-1 dimensions");
  EXPECT_ERROR(ts::searchsorted(seq, seq, false, false, std::nullopt, make_long({0, 1})),
               "boundary and sorter must have the same size");
  EXPECT_ERROR(ts::searchsorted(seq, seq, false, false, std::nullopt, make_long({0, 1, 3})),
               "sorter index out of range");
  Tensor out = ts::empty({3}, ts::kInt);
  EXPECT_ERROR(ts::searchsorted_out(out, seq, seq), "out");
}

TEST(Bucketize, DocumentationExamples) {
  each_set([] {
    const Tensor boundaries = make_long({1, 3, 5, 7, 9});
    const Tensor v = make_long({3, 6, 9, 3, 6, 9}, {2, 3});
    EXPECT_EQ(long_values(ts::bucketize(v, boundaries)), (I{1, 3, 4, 1, 3, 4}));
    EXPECT_EQ(long_values(ts::bucketize(v, boundaries, false, true)), (I{2, 3, 5, 2, 3, 5}));
    EXPECT_TENSOR(ts::bucketize(ts::Scalar(7), boundaries, true), ts::kInt, {}, {3}, 0);
    Tensor out = ts::empty({0}, ts::kLong);
    ts::bucketize_out(out, make(ts::kFloat, {0.5, 9.5}), boundaries);
    EXPECT_EQ(long_values(out), (I{0, 5}));
  });
  EXPECT_ERROR(ts::bucketize(make_long({1}), make_long({1, 2}, {1, 2})),
               "only takes 1-dimension boundaries tensor");
}

TEST(Unique, DocumentationExamples) {
  each_set([] {
    // torch.unique's documentation
    auto [o, inv, cnt] = ts::unique(make_long({1, 3, 2, 3}));
    EXPECT_EQ(long_values(o), (I{1, 2, 3}));
    EXPECT_EQ(inv.numel(), 0);  // not asked for: empty, as ATen's _unique2
    EXPECT_EQ(cnt.numel(), 0);
    std::tie(o, inv, cnt) = ts::unique(make_long({1, 3, 2, 3}, {2, 2}), true, true, true);
    EXPECT_EQ(long_values(o), (I{1, 2, 3}));
    EXPECT_EQ(shape_of(inv), (Shape{2, 2}));
    EXPECT_EQ(long_values(inv), (I{0, 2, 1, 2}));
    EXPECT_EQ(long_values(cnt), (I{1, 1, 2}));
    // sorted=False gives the sorted values too (current PyTorch's CPU unique always sorts)
    std::tie(o, inv, cnt) = ts::_unique2(make_long({3, 1, 3, 2}), false, true, false);
    EXPECT_EQ(long_values(o), (I{1, 2, 3}));
    EXPECT_EQ(long_values(inv), (I{2, 0, 2, 1}));
    // 0-dim and empty inputs
    std::tie(o, inv, cnt) = ts::_unique2(ts::scalar_tensor(4.0), true, true, true);
    EXPECT_TENSOR(o, ts::kFloat, {1}, {4}, 0);
    EXPECT_EQ(shape_of(inv), (Shape{}));
    std::tie(o, inv, cnt) = ts::_unique2(ts::empty({0, 3}), true, true, true);
    EXPECT_EQ(shape_of(o), (Shape{0}));
    EXPECT_EQ(shape_of(inv), (Shape{0, 3}));
  });
}

// Note [Unique order]: each NaN is its own value, -0 ties with +0 (the first one kept), bool.
TEST(Unique, NaNSignedZerosAndBool) {
  each_set([] {
    auto [o, inv, cnt] =
        ts::_unique2(make(ts::kFloat, {kNaN, 1, -0.0, kNaN, 0, 1}), true, true, true);
    EXPECT_TENSOR(o, ts::kFloat, {4}, {0, 1, kNaN, kNaN}, 0);
    EXPECT_TRUE(signbit_at(o, 0));  // -0 came first
    EXPECT_EQ(long_values(inv), (I{2, 1, 0, 3, 0, 1}));
    EXPECT_EQ(long_values(cnt), (I{2, 2, 1, 1}));
    std::tie(o, inv, cnt) = ts::_unique2(ts::tensor({true, false, true}), true, true, true);
    EXPECT_TENSOR(o, ts::kBool, {2}, {0, 1}, 0);
    EXPECT_EQ(long_values(cnt), (I{1, 2}));
  });
}

TEST(UniqueDim, SlicesLexicographically) {
  each_set([] {
    // rows [1, 3], [0, 2], [1, 3], [0, 5]: unique rows sorted [0, 2], [0, 5], [1, 3]
    const Tensor x = make_long({1, 3, 0, 2, 1, 3, 0, 5}, {4, 2});
    auto [o, inv, cnt] = ts::unique_dim(x, 0);
    EXPECT_EQ(shape_of(o), (Shape{3, 2}));
    EXPECT_EQ(long_values(o), (I{0, 2, 0, 5, 1, 3}));
    EXPECT_EQ(long_values(inv), (I{2, 0, 2, 1}));  // given even when not asked for (ATen)
    EXPECT_EQ(long_values(cnt), (I{1, 1, 2}));
    // along dim 1 (columns of x.t()), through ts::unique
    std::tie(o, inv, cnt) = ts::unique(x.t(), true, false, false, -1);
    EXPECT_EQ(shape_of(o), (Shape{2, 3}));
    EXPECT_EQ(long_values(o), (I{0, 0, 1, 2, 5, 3}));
    // a zero-sized dim selected gives an empty result; not selected, an error
    std::tie(o, inv, cnt) = ts::unique_dim(ts::empty({0, 3}), 0);
    EXPECT_EQ(shape_of(o), (Shape{0, 3}));
  });
  EXPECT_ERROR(ts::unique_dim(ts::empty({0, 3}), 1), "There are 0 sized dimensions");
  EXPECT_ERROR(ts::unique_dim(ts::zeros({2, 3}), 2), "unique_dim");
}

TEST(UniqueConsecutive, DocumentationExamples) {
  each_set([] {
    // torch.unique_consecutive's documentation
    const Tensor x = make_long({1, 1, 2, 2, 3, 1, 1, 2});
    auto [o, inv, cnt] = ts::unique_consecutive(x, true, true);
    EXPECT_EQ(long_values(o), (I{1, 2, 3, 1, 2}));
    EXPECT_EQ(long_values(inv), (I{0, 0, 1, 1, 2, 3, 3, 4}));
    EXPECT_EQ(long_values(cnt), (I{2, 2, 1, 2, 1}));
    // rows: [1, 2], [1, 2], [0, 0], [1, 2] -> [1, 2], [0, 0], [1, 2]
    std::tie(o, inv, cnt) =
        ts::unique_consecutive(make_long({1, 2, 1, 2, 0, 0, 1, 2}, {4, 2}), false, false, 0);
    EXPECT_EQ(long_values(o), (I{1, 2, 0, 0, 1, 2}));
    EXPECT_EQ(long_values(inv), (I{0, 0, 1, 2}));
    EXPECT_EQ(long_values(cnt), (I{2, 1, 1}));
    // NaN runs do not merge
    std::tie(o, inv, cnt) = ts::unique_consecutive(make(ts::kDouble, {kNaN, kNaN, 1}), false, true);
    EXPECT_EQ(long_values(cnt), (I{1, 1, 1}));
  });
}

}  // namespace
