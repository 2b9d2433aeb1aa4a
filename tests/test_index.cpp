// Indexing and joining: index_select, gather, scatter_add, cat and stack against hand-computed
// results and PyTorch's documentation examples, and every argument error with its message.
#include <gtest/gtest.h>

#include <vector>

#include "test_util.h"
#include "touchstone/touchstone.h"

namespace {

using namespace ts::testing;
using ts::ScalarType;
using ts::Tensor;

// [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
Tensor grid() {
  return make(ts::kFloat, {1, 2, 3, 4, 5, 6, 7, 8, 9}, {3, 3});
}

// ---- index_select ----

TEST(IndexSelect, RowsAndColumns) {
  const Tensor x = grid();
  const Tensor rows = ts::index_select(x, 0, make_long({0, 2}));
  EXPECT_EQ(shape_of(rows), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(values(rows), (std::vector<double>{1, 2, 3, 7, 8, 9}));
  EXPECT_EQ(values(x.index_select(1, make_long({0, 2}))), (std::vector<double>{1, 3, 4, 6, 7, 9}));
  EXPECT_EQ(values(x.index_select(-1, make_long({2, 2, 0}))),
            (std::vector<double>{3, 3, 1, 6, 6, 4, 9, 9, 7}));
}

TEST(IndexSelect, Int32IndexAndZeroDimIndex) {
  const Tensor x = grid();
  EXPECT_EQ(values(ts::index_select(x, 0, ts::tensor({1}, ts::kInt))),
            (std::vector<double>{4, 5, 6}));
  const Tensor r = ts::index_select(x, 1, ts::scalar_tensor(1, ts::kLong));
  EXPECT_EQ(shape_of(r), (std::vector<int64_t>{3, 1}));  // the dim stays, with size 1
  EXPECT_EQ(values(r), (std::vector<double>{2, 5, 8}));
}

TEST(IndexSelect, ZeroDimSelfAndEmptyIndex) {
  const Tensor s = ts::scalar_tensor(5.0);
  const Tensor r = ts::index_select(s, 0, make_long({0}));
  EXPECT_EQ(r.dim(), 0);
  EXPECT_EQ(r.item<double>(), 5);
  EXPECT_EQ(shape_of(ts::index_select(grid(), 0, ts::empty({0}, ts::kLong))),
            (std::vector<int64_t>{0, 3}));
}

TEST(IndexSelect, NonContiguousSelfAndIndex) {
  const Tensor xt = grid().t();  // [[1, 4, 7], [2, 5, 8], [3, 6, 9]]
  const Tensor index = make_long({2, 9, 0, 9}).slice(0, 0, 4, 2);  // [2, 0]
  EXPECT_EQ(values(ts::index_select(xt, 0, index)), (std::vector<double>{3, 6, 9, 1, 4, 7}));
  EXPECT_EQ(values(ts::index_select(xt, 1, index)), (std::vector<double>{7, 1, 8, 2, 9, 3}));
}

TEST(IndexSelect, EveryDtype) {
  for (ScalarType t : kAll) {
    const Tensor x = make(t, {0, 1, 1, 0}, {2, 2});
    const Tensor r = ts::index_select(x, 0, make_long({1, 0}));
    EXPECT_EQ(r.dtype(), t);
    EXPECT_EQ(values(r), (std::vector<double>{1, 0, 0, 1})) << t;
  }
}

// Note [Index extremes in AVX2]: the bounds check's min and max over long indices, with the bad
// value in the vector blocks or in the tail, too high or negative; contiguous and strided.
TEST(IndexSelect, BoundsCheckOfLongIndices) {
  const Tensor x = ts::arange(7.0);
  std::vector<int64_t> v(1003);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<int64_t>(i % 7);
  EXPECT_EQ(values(ts::index_select(x, 0, make_long(v)))[1002], 1002 % 7);
  for (const auto& [at, bad] : std::vector<std::pair<size_t, int64_t>>{
           {517, 7}, {517, -8}, {1001, 7}, {1002, int64_t{1} << 40}, {0, -(int64_t{1} << 40)}}) {
    std::vector<int64_t> w = v;
    w[at] = bad;
    const std::string msg = "index_select: index " + std::to_string(bad) +
                            " out of range in self (size 7 at dimension 0)";
    EXPECT_ERROR(ts::index_select(x, 0, make_long(w)), msg);
    EXPECT_ERROR(ts::index_select(x, 0, make_long(w, {1003, 1}).expand({1003, 2}).select(1, 1)),
                 msg);
  }
}

TEST(IndexSelect, Errors) {
  const Tensor x = grid();
  EXPECT_ERROR(ts::index_select(x, 0, make_long({0, 3})),
               "index_select: index 3 out of range in self (size 3 at dimension 0)");
  EXPECT_ERROR(ts::index_select(x, 0, make_long({-1})), "index -1 out of range in self");
  EXPECT_ERROR(ts::index_select(x, 0, make_long({0, 1}, {1, 2})),
               "index_select: Index is supposed to be a vector");
  EXPECT_ERROR(ts::index_select(x, 0, make(ts::kFloat, {0}, {1})),
               "index_select: Expected dtype int32 or int64 for index");
  EXPECT_ERROR(ts::index_select(x, 2, make_long({0})),
               "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  EXPECT_ERROR(ts::index_select(ts::scalar_tensor(1.0), 0, make_long({0, 0})),
               "index_select: Index to scalar can have only 1 value, got 2 value(s)");
  EXPECT_ERROR(ts::index_select(ts::scalar_tensor(1.0), 0, make_long({1})),
               "index_select: index 1 out of range in self (size 1 at dimension 0)");
}

TEST(IndexSelect, Out) {
  Tensor out = ts::empty({0});
  Tensor& r = ts::index_select_out(out, grid(), 0, make_long({2}));
  EXPECT_TRUE(r.is_same(out));
  EXPECT_EQ(values(out), (std::vector<double>{7, 8, 9}));
  // ATen 1.13 refuses out= of any other dtype, even a wider one.
  Tensor wide = ts::empty({1, 3}, ts::kDouble);
  EXPECT_ERROR(ts::index_select_out(wide, grid(), 0, make_long({1})),
               "index_select: self and result must have the same scalar type (argument 'out')");
  // A failing call leaves out as it was.
  Tensor kept = ts::full({1, 3}, 7.0);
  EXPECT_ERROR(ts::index_select_out(kept, grid(), 0, make_long({3})),
               "index 3 out of range in self");
  EXPECT_EQ(values(kept), (std::vector<double>{7, 7, 7}));
  Tensor ints = ts::empty({1, 3}, ts::kLong);
  EXPECT_ERROR(ts::index_select_out(ints, grid(), 0, make_long({0})),
               "index_select: self and result must have the same scalar type");
  const Tensor x = grid();
  Tensor alias = x.slice(0, 0, 1);
  EXPECT_ERROR(ts::index_select_out(alias, x, 0, make_long({2})),
               "refer to a single memory location");
}

// ---- gather ----

TEST(Gather, DocumentationExample) {
  // torch.gather(torch.tensor([[1, 2], [3, 4]]), 1, torch.tensor([[0, 0], [1, 0]]))
  //   -> tensor([[1, 1], [4, 3]])
  const Tensor t = ts::tensor({1, 2, 3, 4}).reshape({2, 2});
  const Tensor r = ts::gather(t, 1, make_long({0, 0, 1, 0}, {2, 2}));
  EXPECT_EQ(r.dtype(), ts::kLong);
  EXPECT_EQ(values(r), (std::vector<double>{1, 1, 4, 3}));
  EXPECT_EQ(values(t.gather(0, make_long({1, 0, 0, 0}, {2, 2}))),
            (std::vector<double>{3, 2, 1, 2}));
  EXPECT_EQ(values(t.gather(-2, make_long({1, 0, 0, 0}, {2, 2}))),
            (std::vector<double>{3, 2, 1, 2}));
}

TEST(Gather, IndexSmallerThanSelf) {
  // out[i][j] = x[index[i][j]][j] with index 1x3 over a 3x3 grid; and along dim 1 with 2x2.
  const Tensor r = ts::gather(grid(), 0, make_long({2, 0, 1}, {1, 3}));
  EXPECT_EQ(shape_of(r), (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(values(r), (std::vector<double>{7, 2, 6}));
  EXPECT_EQ(values(ts::gather(grid(), 1, make_long({2, 2, 0, 1}, {2, 2}))),
            (std::vector<double>{3, 3, 4, 5}));
  // Along dim 0 the index may be longer than self.
  EXPECT_EQ(values(ts::gather(make(ts::kFloat, {1, 2}, {2}), 0, make_long({1, 1, 0, 1}))),
            (std::vector<double>{2, 2, 1, 2}));
}

TEST(Gather, NonContiguousZeroDimAndEmpty) {
  const Tensor xt = grid().t();                              // [[1, 4, 7], [2, 5, 8], [3, 6, 9]]
  const Tensor index = make_long({0, 2, 1, 1}, {2, 2}).t();  // [[0, 1], [2, 1]]
  EXPECT_EQ(values(ts::gather(xt, 1, index)), (std::vector<double>{1, 4, 8, 5}));
  const Tensor s = ts::gather(ts::scalar_tensor(3.0), 0, ts::scalar_tensor(0, ts::kLong));
  EXPECT_EQ(s.dim(), 0);
  EXPECT_EQ(s.item<double>(), 3);
  EXPECT_EQ(shape_of(ts::gather(grid(), 0, ts::empty({0, 3}, ts::kLong))),
            (std::vector<int64_t>{0, 3}));
}

TEST(Gather, EveryDtype) {
  for (ScalarType t : kAll) {
    const Tensor r = ts::gather(make(t, {0, 1}, {2}), 0, make_long({1, 1, 0}));
    EXPECT_EQ(r.dtype(), t);
    EXPECT_EQ(values(r), (std::vector<double>{1, 1, 0})) << t;
  }
}

TEST(Gather, Errors) {
  const Tensor x = make(ts::kFloat, {1, 2, 3}, {3});
  EXPECT_ERROR(ts::gather(x, 0, make_long({5})),
               "index 5 is out of bounds for dimension 0 with size 3");
  EXPECT_ERROR(ts::gather(x, 0, make_long({-1})),
               "index -1 is out of bounds for dimension 0 with size 3");
  EXPECT_ERROR(ts::gather(grid(), 1, make_long({0, 3}, {1, 2})),
               "index 3 is out of bounds for dimension 1 with size 3");
  // The first bad value in row-major order is named, not the smallest or largest (Note [Index
  // bounds]): 200,000 values checked in parallel, then walked; also through a transposed view.
  const Tensor many = ts::zeros({400, 500}, ts::kLong);
  many.data_ptr<int64_t>()[10 * 500 + 5] = -7;  // first in many's order
  many.data_ptr<int64_t>()[300 * 500] = 4;      // first in many.t()'s
  many.data_ptr<int64_t>()[399 * 500 + 1] = 9;
  EXPECT_ERROR(ts::gather(ts::zeros({3, 500}), 0, many),
               "index -7 is out of bounds for dimension 0 with size 3");
  EXPECT_ERROR(ts::gather(ts::zeros({3, 400}), 0, many.t()),
               "index 4 is out of bounds for dimension 0 with size 3");
  EXPECT_ERROR(ts::gather(x, 0, ts::tensor({0}, ts::kInt)),
               "gather: Expected dtype int64 for index");
  EXPECT_ERROR(ts::gather(grid(), 0, make_long({0})),
               "gather: Index tensor must have the same number of dimensions as input tensor");
  EXPECT_ERROR(ts::gather(grid(), 0, make_long({0, 0, 0, 0, 0, 0, 0, 0}, {2, 4})),
               "gather: Size does not match at dimension 1 expected index [2, 4] to be no "
               "larger than self [3, 3] apart from dimension 0");
  EXPECT_ERROR(ts::gather(grid(), -3, make_long({0}, {1, 1})), "Dimension out of range");
}

TEST(Gather, Out) {
  Tensor out = ts::empty({0}, ts::kLong);
  const Tensor t = ts::tensor({1, 2, 3, 4}).reshape({2, 2});
  ts::gather_out(out, t, 1, make_long({1, 0}, {2, 1}));
  EXPECT_EQ(shape_of(out), (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(values(out), (std::vector<double>{2, 3}));
  Tensor wrong = ts::zeros({3}, ts::kLong);
  EXPECT_ERROR(ts::gather_out(wrong, t, 1, make_long({1, 0}, {2, 1})),
               "output with shape [3] doesn't match the result shape [2, 1]");
  // out= must have self's dtype, a wider one too (ATen 1.13: "Expected out tensor to have dtype
  // long int, but got double instead").
  Tensor wide = ts::full({2, 1}, 7.0, ts::kDouble);
  EXPECT_ERROR(ts::gather_out(wide, t, 1, make_long({1, 0}, {2, 1})),
               "gather: Expected out tensor to have dtype int64, but got float64 instead (argument "
               "'out')");
  EXPECT_EQ(values(wide), (std::vector<double>{7, 7}));
}

// ---- scatter_add ----

TEST(ScatterAdd, DocumentationExamples) {
  // src = torch.ones((2, 5)); index = torch.tensor([[0, 1, 2, 0, 0]])
  // torch.zeros(3, 5).scatter_add_(0, index, src)
  const Tensor src = ts::ones({2, 5});
  Tensor a = ts::zeros({3, 5});
  Tensor& r = a.scatter_add_(0, make_long({0, 1, 2, 0, 0}, {1, 5}), src);
  EXPECT_TRUE(r.is_same(a));
  EXPECT_EQ(values(a), (std::vector<double>{1, 0, 0, 1, 1, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0}));
  // index = torch.tensor([[0, 1, 2, 0, 0], [0, 1, 2, 2, 2]])
  const Tensor b =
      ts::zeros({3, 5}).scatter_add(0, make_long({0, 1, 2, 0, 0, 0, 1, 2, 2, 2}, {2, 5}), src);
  EXPECT_EQ(values(b), (std::vector<double>{2, 0, 0, 1, 1, 0, 2, 0, 0, 0, 0, 0, 2, 1, 1}));
}

TEST(ScatterAdd, FunctionalKeepsSelfAndAddsToIt) {
  const Tensor self = make(ts::kFloat, {10, 20, 30}, {3});
  const Tensor r = ts::scatter_add(self, 0, make_long({2, 0, 2}), make(ts::kFloat, {1, 2, 3}, {3}));
  EXPECT_EQ(values(r), (std::vector<double>{12, 20, 34}));
  EXPECT_EQ(values(self), (std::vector<double>{10, 20, 30}));
}

TEST(ScatterAdd, AlongDimOneNegativeDimAndStrided) {
  // out[i][index[i][j]] += src[i][j]
  const Tensor src = make(ts::kFloat, {1, 2, 3, 4}, {2, 2});
  const Tensor r = ts::scatter_add(ts::zeros({2, 3}), -1, make_long({2, 2, 0, 1}, {2, 2}), src);
  EXPECT_EQ(values(r), (std::vector<double>{0, 0, 3, 3, 4, 0}));
  // A transposed self, written in place at its own strides.
  Tensor selft = ts::zeros({3, 2}).t();
  selft.scatter_add_(1, make_long({2, 2, 0, 1}, {2, 2}), src);
  EXPECT_EQ(values(selft), (std::vector<double>{0, 0, 3, 3, 4, 0}));
  // A src with a step; only its first index.size() elements per dim take part.
  const Tensor stepped = make(ts::kFloat, {5, 0, 6, 0, 7, 0}, {6}).slice(0, 0, 6, 2);  // [5, 6, 7]
  EXPECT_EQ(values(ts::scatter_add(ts::zeros({2}), 0, make_long({1, 1}), stepped)),
            (std::vector<double>{0, 11}));
}

TEST(ScatterAdd, IntegersBoolsAndHalf) {
  const Tensor i = ts::scatter_add(ts::tensor({1, 1}, ts::kInt), 0, make_long({0, 0, 1}),
                                   ts::tensor({5, 6, 7}, ts::kInt));
  EXPECT_EQ(i.dtype(), ts::kInt);
  EXPECT_EQ(values(i), (std::vector<double>{12, 8}));
  // uint8 wraps: 250 + 10 = 260 = 4 (mod 256).
  EXPECT_EQ(values(ts::scatter_add(make(ts::kByte, {250}, {1}), 0, make_long({0}),
                                   make(ts::kByte, {10}, {1}))),
            (std::vector<double>{4}));
  // bool adds as a logical or.
  const Tensor b = ts::scatter_add(ts::tensor({false, false, true}), 0, make_long({0, 0}),
                                   ts::tensor({true, true}));
  EXPECT_EQ(values(b), (std::vector<double>{1, 0, 1}));
  const Tensor h = ts::scatter_add(make(ts::kHalf, {0.5, 0}, {2}), 0, make_long({0}),
                                   make(ts::kHalf, {0.25}, {1}));
  EXPECT_EQ(h.dtype(), ts::kHalf);
  EXPECT_EQ(values(h), (std::vector<double>{0.75, 0}));
}

TEST(ScatterAdd, EmptyIndexIsACopy) {
  const Tensor r =
      ts::scatter_add(make(ts::kFloat, {1, 2}, {2}), 0, ts::empty({0}, ts::kLong), ts::ones({0}));
  EXPECT_EQ(values(r), (std::vector<double>{1, 2}));
}

TEST(ScatterAdd, Errors) {
  Tensor self = make(ts::kFloat, {1, 2, 3}, {3});
  EXPECT_ERROR(ts::scatter_add(self, 0, make_long({5}), ts::ones({1})),
               "index 5 is out of bounds for dimension 0 with size 3");
  EXPECT_ERROR(ts::scatter_add(self, 0, ts::tensor({0}, ts::kInt), ts::ones({1})),
               "scatter_add: Expected dtype int64 for index");
  EXPECT_ERROR(ts::scatter_add(self, 0, make_long({0}), ts::ones({1}, ts::kDouble)),
               "scatter_add: Expected self.dtype to be equal to src.dtype");
  EXPECT_ERROR(ts::scatter_add(self, 0, make_long({0}, {1, 1}), ts::ones({1, 1})),
               "Index tensor must have the same number of dimensions as self tensor");
  EXPECT_ERROR(ts::scatter_add(ts::zeros({2, 2}), 0, make_long({0}, {1, 1}), ts::ones({1})),
               "Index tensor must have the same number of dimensions as src tensor");
  EXPECT_ERROR(
      ts::scatter_add(ts::zeros({2, 2}), 0, make_long({0, 0, 0}, {1, 3}), ts::ones({2, 3})),
      "Expected index [1, 3] to be smaller than self [2, 2] apart from dimension 0 and "
      "to be smaller size than src [2, 3]");
  EXPECT_ERROR(ts::scatter_add(ts::zeros({2, 2}), 0, make_long({0, 0}, {1, 2}), ts::ones({1, 1})),
               "to be smaller size than src [1, 1]");
  // The in-place form names itself and leaves self untouched.
  EXPECT_ERROR(self.scatter_add_(0, make_long({0, 3}), ts::ones({2})),
               "scatter_add_: index 3 is out of bounds for dimension 0 with size 3");
  EXPECT_EQ(values(self), (std::vector<double>{1, 2, 3}));
  EXPECT_ERROR(self.scatter_add_(0, make_long({0}), self.slice(0, 1, 2)),
               "refer to a single memory location");
}

TEST(ScatterAdd, Out) {
  const Tensor self = make(ts::kFloat, {1, 2}, {2});
  Tensor out = ts::empty({0});
  ts::scatter_add_out(out, self, 0, make_long({1, 1}), make(ts::kFloat, {3, 4}, {2}));
  EXPECT_EQ(values(out), (std::vector<double>{1, 9}));
  EXPECT_EQ(values(self), (std::vector<double>{1, 2}));
  // out may be self itself.
  Tensor same = make(ts::kFloat, {1, 2}, {2});
  ts::scatter_add_out(same, same, 0, make_long({0}), make(ts::kFloat, {5}, {1}));
  EXPECT_EQ(values(same), (std::vector<double>{6, 2}));
  // out= must have self's dtype (ATen: "Expected out tensor to have dtype float, but got double
  // instead").
  Tensor wide = ts::full({2}, 7.0, ts::kDouble);
  EXPECT_ERROR(ts::scatter_add_out(wide, self, 0, make_long({1, 1}), make(ts::kFloat, {3, 4}, {2})),
               "scatter_add: Expected out tensor to have dtype float32, but got float64 instead");
  EXPECT_EQ(values(wide), (std::vector<double>{7, 7}));
}

// ---- cat ----

TEST(Cat, AlongEachDim) {
  const Tensor a = make(ts::kFloat, {1, 2, 3, 4}, {2, 2});
  const Tensor r0 = ts::cat({a, make(ts::kFloat, {5, 6}, {1, 2})});
  EXPECT_EQ(shape_of(r0), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(values(r0), (std::vector<double>{1, 2, 3, 4, 5, 6}));
  const Tensor r1 = ts::cat({a, make(ts::kFloat, {5, 6}, {2, 1})}, 1);
  EXPECT_EQ(values(r1), (std::vector<double>{1, 2, 5, 3, 4, 6}));
  EXPECT_EQ(values(ts::cat({a, a, a}, -1)),
            (std::vector<double>{1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4}));
}

TEST(Cat, PromotesLikeResultType) {
  const Tensor r = ts::cat({ts::tensor({1, 2}, ts::kInt), make(ts::kFloat, {0.5}, {1})});
  EXPECT_EQ(r.dtype(), ts::kFloat);
  EXPECT_EQ(values(r), (std::vector<double>{1, 2, 0.5}));
  const Tensor b = ts::cat({ts::tensor({true}), ts::tensor({7}, ts::kByte)});
  EXPECT_EQ(b.dtype(), ts::kByte);
  EXPECT_EQ(values(b), (std::vector<double>{1, 7}));
  const Tensor h = ts::cat({make(ts::kHalf, {1}, {1}), make(ts::kBFloat16, {2}, {1})});
  EXPECT_EQ(h.dtype(), ts::kFloat);
}

TEST(Cat, SkipsLegacyEmptyVectors) {
  const Tensor a = make(ts::kFloat, {1, 2, 3, 4}, {2, 2});
  const Tensor r = ts::cat({ts::empty({0}), a, ts::empty({0})}, 1);
  EXPECT_EQ(shape_of(r), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(values(r), (std::vector<double>{1, 2, 3, 4}));
  // A non-legacy empty tensor takes part (and must match).
  EXPECT_EQ(shape_of(ts::cat({ts::empty({0, 2}), a})), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(shape_of(ts::cat({ts::empty({0}), ts::empty({0})})), (std::vector<int64_t>{0}));
}

TEST(Cat, NonContiguousInputs) {
  const Tensor at = make(ts::kFloat, {1, 3, 2, 4}, {2, 2}).t();  // [[1, 2], [3, 4]]
  const Tensor stepped = make(ts::kFloat, {5, 0, 6, 0}, {1, 4}).slice(1, 0, 4, 2);  // [[5, 6]]
  EXPECT_EQ(values(ts::cat({at, stepped})), (std::vector<double>{1, 2, 3, 4, 5, 6}));
  const Tensor ex = make(ts::kFloat, {9}, {1, 1}).expand({2, 1});
  EXPECT_EQ(values(ts::cat({at, ex}, 1)), (std::vector<double>{1, 2, 9, 3, 4, 9}));
}

TEST(Cat, EveryDtype) {
  for (ScalarType t : kAll) {
    const Tensor r = ts::cat({make(t, {1}, {1}), make(t, {0, 1}, {2})});
    EXPECT_EQ(r.dtype(), t);
    EXPECT_EQ(values(r), (std::vector<double>{1, 0, 1})) << t;
  }
}

TEST(Cat, Errors) {
  EXPECT_ERROR(ts::cat(ts::TensorList()),
               "cat: expected a non-empty list of Tensors (argument 'tensors')");
  EXPECT_ERROR(ts::cat({ts::scalar_tensor(1.0), ts::ones({1})}),
               "cat: zero-dimensional tensor (at position 0 of tensors) cannot be concatenated");
  EXPECT_ERROR(ts::cat({ts::ones({2, 2}), ts::ones({3, 2})}, 1),
               "Sizes of tensors must match except in dimension 1. Expected size 2 but got size 3 "
               "for tensor number 1 in the list.");
  EXPECT_ERROR(ts::cat({ts::ones({2, 2}), ts::ones({2})}),
               "Tensors must have same number of dimensions: got 2 and 1");
  EXPECT_ERROR(ts::cat({ts::ones({2, 2})}, 2), "Dimension out of range");
}

TEST(Cat, Out) {
  Tensor out = ts::empty({0});
  Tensor& r = ts::cat_out(out, {make(ts::kFloat, {1}, {1}), make(ts::kFloat, {2, 3}, {2})});
  EXPECT_TRUE(r.is_same(out));
  EXPECT_EQ(values(out), (std::vector<double>{1, 2, 3}));
  Tensor ints = ts::full({3}, 7, ts::kLong);
  EXPECT_ERROR(ts::cat_out(ints, {make(ts::kFloat, {1}, {1}), make(ts::kFloat, {2, 3}, {2})}),
               "result type float32 can't be cast to the desired output type int64");
  EXPECT_EQ(values(ints), (std::vector<double>{7, 7, 7}));
  // out may not share memory with any input, even all of it.
  Tensor a = make(ts::kFloat, {1, 2}, {2});
  Tensor buf = ts::zeros({4});
  EXPECT_ERROR(ts::cat_out(buf, {a, buf.slice(0, 0, 2)}), "refer to a single memory location");
  EXPECT_ERROR(ts::cat_out(a, {a, ts::empty({0})}), "refer to a single memory location");
}

// ---- stack ----

TEST(Stack, AlongEveryDimIncludingTheNewLast) {
  const Tensor a = make(ts::kFloat, {1, 2, 3}, {3}), b = make(ts::kFloat, {4, 5, 6}, {3});
  const Tensor s0 = ts::stack({a, b});
  EXPECT_EQ(shape_of(s0), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(values(s0), (std::vector<double>{1, 2, 3, 4, 5, 6}));
  const Tensor s1 = ts::stack({a, b}, 1);  // dim may be ndim
  EXPECT_EQ(shape_of(s1), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(values(s1), (std::vector<double>{1, 4, 2, 5, 3, 6}));
  EXPECT_EQ(values(ts::stack({a, b}, -1)), values(s1));
  EXPECT_EQ(values(ts::stack({a, b}, -2)), values(s0));
}

TEST(Stack, ZeroDimEmptyAndNonContiguous) {
  const Tensor s = ts::stack({ts::scalar_tensor(1.0), ts::scalar_tensor(2.0)});
  EXPECT_EQ(shape_of(s), (std::vector<int64_t>{2}));
  EXPECT_EQ(values(s), (std::vector<double>{1, 2}));
  EXPECT_EQ(shape_of(ts::stack({ts::empty({0}), ts::empty({0})}, 1)), (std::vector<int64_t>{0, 2}));
  const Tensor xt = make(ts::kFloat, {1, 3, 2, 4}, {2, 2}).t();  // [[1, 2], [3, 4]]
  EXPECT_EQ(values(ts::stack({xt, xt}, 2)), (std::vector<double>{1, 1, 2, 2, 3, 3, 4, 4}));
}

TEST(Stack, ErrorsAndOut) {
  EXPECT_ERROR(ts::stack({make(ts::kFloat, {1, 2}, {2}), make(ts::kFloat, {1, 2, 3}, {3})}),
               "stack: expects each tensor to be equal size, but got [2] at entry 0 and [3] at "
               "entry 1");
  EXPECT_ERROR(ts::stack(ts::TensorList()),
               "stack: expects a non-empty TensorList (argument 'tensors')");
  EXPECT_ERROR(ts::stack({make(ts::kFloat, {1, 2}, {2})}, 2), "Dimension out of range");
  Tensor out = ts::empty({0}, ts::kDouble);
  ts::stack_out(out, {make(ts::kFloat, {1, 2}, {2}), make(ts::kFloat, {3, 4}, {2})}, 1);
  EXPECT_EQ(shape_of(out), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(values(out), (std::vector<double>{1, 3, 2, 4}));
}

}  // namespace
