// Advanced indexing, continued (issue 16): take, put, index_copy, index_fill, masked_scatter and
// index_put's out= form against hand-computed results and PyTorch's documentation examples,
// their errors (inputs untouched), and gradients by hand and through gradcheck, in the
// reference and the optimized sets.
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <vector>

#include "autograd_util.h"
#include "cpu_sets_util.h"
#include "index_grad_util.h"
#include "test_util.h"
#include "touchstone/touchstone.h"

namespace {

using namespace ts::testing;
using ts::Tensor;
using L = std::vector<std::optional<Tensor>>;

Tensor iota_f(std::vector<int64_t> shape) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return ts::arange(n, ts::kFloat).view(shape);
}

TEST(Take, RowMajorPositions) {
  each_set([] {
    // torch.take's documentation: src = [[4, 3, 5], [6, 7, 8]], index [0, 2, 5] -> [4, 5, 8]
    const Tensor src = make_long({4, 3, 5, 6, 7, 8}, {2, 3});
    EXPECT_EQ(long_values(ts::take(src, make_long({0, 2, 5}))), (std::vector<int64_t>{4, 5, 8}));
    // the result has index's shape; negative values count from the end; a transposed self is
    // read in its own row-major order: t = [[0, 3], [1, 4], [2, 5]]
    const Tensor t = iota_f({2, 3}).t();
    EXPECT_TENSOR(t.take(make_long({1, -1, 2, 0}, {2, 2})), ts::kFloat, {2, 2}, {3, 5, 1, 0}, 0);
    EXPECT_TENSOR(ts::take(t, ts::scalar_tensor(-6, ts::kLong)), ts::kFloat, {}, {0}, 0);
    Tensor out = ts::empty({0});
    ts::take_out(out, t, make_long({4}));
    EXPECT_TENSOR(out, ts::kFloat, {1}, {2}, 0);
  });
  const Tensor x = iota_f({2, 3});
  EXPECT_ERROR(ts::take(x, make_long({6})), "take: out of range: tried to access index 6");
  EXPECT_ERROR(ts::take(x, make_long({-7})), "index -7");
  EXPECT_ERROR(ts::take(x, ts::tensor({0}, ts::kInt)), "Expected a long tensor for index");
  EXPECT_ERROR(ts::take(ts::empty({0}), make_long({0})), "tried to take from an empty tensor");
}

TEST(Put, WritesAndAccumulates) {
  each_set([] {
    // [[0, 1, 2], [3, 4, 5]].put_([1, -1], [10, 20]) = [[0, 10, 2], [3, 4, 20]]
    Tensor x = iota_f({2, 3});
    x.put_(make_long({1, -1}), make(ts::kFloat, {10, 20}));
    EXPECT_TENSOR(x, ts::kFloat, {2, 3}, {0, 10, 2, 3, 4, 20}, 0);
    // accumulate: duplicates add (1 + 10 + 20 = 31); source pairs with index in row-major order
    const Tensor y = ts::put(iota_f({2, 3}), make_long({1, 1, 0, 5}, {2, 2}),
                             make(ts::kFloat, {10, 20, 7, 9}), true);
    EXPECT_TENSOR(y, ts::kFloat, {2, 3}, {7, 31, 2, 3, 4, 14}, 0);
    // without accumulate the last write wins here (ATen leaves duplicates unspecified)
    EXPECT_TENSOR(ts::put(iota_f({3}), make_long({1, 1}), make(ts::kFloat, {5, 6})), ts::kFloat,
                  {3}, {0, 6, 2}, 0);
    // a transposed self: element 1 of its row-major order is t[0][1] = x[1][0]
    Tensor base = iota_f({2, 3});
    base.t().put_(make_long({1}), make(ts::kFloat, {-1}));
    EXPECT_TENSOR(base, ts::kFloat, {2, 3}, {0, 1, 2, -1, 4, 5}, 0);
    Tensor out = ts::empty({2, 3});
    ts::put_out(out, iota_f({2, 3}), make_long({0}), make(ts::kFloat, {9}));
    EXPECT_TENSOR(out, ts::kFloat, {2, 3}, {9, 1, 2, 3, 4, 5}, 0);
  });
  Tensor x = iota_f({2, 3});
  EXPECT_ERROR(x.put_(make_long({6}), make(ts::kFloat, {1})), "put_: out of range");
  EXPECT_ERROR(x.put_(make_long({0, 1}), make(ts::kFloat, {1})), "same number of elements");
  EXPECT_ERROR(x.put_(make_long({0}), make(ts::kDouble, {1})), "same dtype");
  EXPECT_TENSOR(x, ts::kFloat, {2, 3}, {0, 1, 2, 3, 4, 5}, 0);  // untouched
}

TEST(IndexCopy, DocumentationExample) {
  each_set([] {
    // torch.index_copy_'s documentation: rows 0, 4, 2 of zeros(5, 3) take t's rows
    Tensor x = ts::zeros({5, 3});
    const Tensor t = make(ts::kFloat, {1, 2, 3, 4, 5, 6, 7, 8, 9}, {3, 3});
    x.index_copy_(0, make_long({0, 4, 2}), t);
    EXPECT_TENSOR(x, ts::kFloat, {5, 3}, {1, 2, 3, 0, 0, 0, 7, 8, 9, 0, 0, 0, 4, 5, 6}, 0);
    // along dim 1 (negative dim), a 0-dim index with a one-slice source, out=
    EXPECT_TENSOR(ts::index_copy(iota_f({2, 3}), -1, make_long({2, 0}),
                                 make(ts::kFloat, {-1, -2, -3, -4}, {2, 2})),
                  ts::kFloat, {2, 3}, {-2, 1, -1, -4, 4, -3}, 0);
    EXPECT_TENSOR(ts::index_copy(iota_f({2, 3}), 0, ts::scalar_tensor(1, ts::kLong),
                                 make(ts::kFloat, {7, 8, 9}, {1, 3})),
                  ts::kFloat, {2, 3}, {0, 1, 2, 7, 8, 9}, 0);
    Tensor out = ts::empty({0});
    ts::index_copy_out(out, ts::zeros({3}), 0, make_long({1}), make(ts::kFloat, {5}));
    EXPECT_TENSOR(out, ts::kFloat, {3}, {0, 5, 0}, 0);
  });
  Tensor x = iota_f({2, 3});
  EXPECT_ERROR(x.index_copy_(1, make_long({3}), ts::zeros({2, 1})), "index 3 is out of bounds");
  EXPECT_ERROR(x.index_copy_(1, make_long({-1}), ts::zeros({2, 1})), "index -1 is out of bounds");
  EXPECT_ERROR(x.index_copy_(1, make_long({0, 1}), ts::zeros({2, 3})),
               "Number of indices (2) should be equal to source.size(dim) (3)");
  EXPECT_ERROR(x.index_copy_(1, make_long({0}), ts::zeros({3, 1})), "same slice shapes");
  EXPECT_ERROR(x.index_copy_(1, ts::tensor({0}, ts::kInt), ts::zeros({2, 1})), "long tensor");
  EXPECT_TENSOR(x, ts::kFloat, {2, 3}, {0, 1, 2, 3, 4, 5}, 0);
}

TEST(IndexFill, ScalarAndTensorValues) {
  each_set([] {
    // torch.index_fill_'s documentation: columns 0 and 2 of [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    const Tensor x = make(ts::kFloat, {1, 2, 3, 4, 5, 6, 7, 8, 9}, {3, 3});
    EXPECT_TENSOR(x.index_fill(1, make_long({0, 2}), -1), ts::kFloat, {3, 3},
                  {-1, 2, -1, -1, 5, -1, -1, 8, -1}, 0);
    // negative and repeated indices; a 0-dim value tensor (converted to self's dtype)
    EXPECT_TENSOR(ts::index_fill(x, 0, make_long({-1, -1}), ts::scalar_tensor(2.75)), ts::kFloat,
                  {3, 3}, {1, 2, 3, 4, 5, 6, 2.75, 2.75, 2.75}, 0);
    Tensor i = make_long({1, 2, 3});
    i.index_fill_(0, make_long({0}), 9);
    EXPECT_EQ(long_values(i), (std::vector<int64_t>{9, 2, 3}));
    Tensor out = ts::empty({0});
    ts::index_fill_out(out, iota_f({3}), 0, ts::scalar_tensor(1, ts::kLong), 0.5);
    EXPECT_TENSOR(out, ts::kFloat, {3}, {0, 0.5, 2}, 0);
  });
  Tensor x = iota_f({2, 3});
  EXPECT_ERROR(x.index_fill_(1, make_long({3}), 0), "index 3 is out of bounds");
  EXPECT_ERROR(x.index_fill_(1, make_long({0}), iota_f({2})), "0-dimensional value tensor");
  EXPECT_ERROR(x.index_fill_(1, make_long({0, 1}, {1, 2}), 0), "Index has to be a vector/scalar");
  EXPECT_TENSOR(x, ts::kFloat, {2, 3}, {0, 1, 2, 3, 4, 5}, 0);
}

TEST(MaskedScatter, RowMajorSourceAndBroadcast) {
  each_set([] {
    // torch.Tensor.masked_scatter's documentation: self [0, 0, 0, 0, 0] broadcast with the mask
    // [[0, 0, 0, 1, 1], [1, 1, 0, 1, 1]], source [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]]
    const Tensor self = make_long({0, 0, 0, 0, 0});
    const Tensor mask =
        ts::tensor({false, false, false, true, true, true, true, false, true, true}).view({2, 5});
    const Tensor source = make_long({0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, {2, 5});
    const Tensor r = self.masked_scatter(mask, source);
    EXPECT_EQ(shape_of(r), (Shape{2, 5}));
    EXPECT_EQ(long_values(r), (std::vector<int64_t>{0, 0, 0, 0, 1, 2, 3, 0, 4, 5}));
    // in place the mask broadcasts to self; source larger than needed
    Tensor x = iota_f({2, 2});
    x.masked_scatter_(ts::tensor({false, true}), make(ts::kFloat, {7, 8, 9}));
    EXPECT_TENSOR(x, ts::kFloat, {2, 2}, {0, 7, 2, 8}, 0);
    Tensor out = ts::empty({0});
    ts::masked_scatter_out(out, iota_f({3}), ts::tensor({true, false, true}),
                           make(ts::kFloat, {-1, -2}));
    EXPECT_TENSOR(out, ts::kFloat, {3}, {-1, 1, -2}, 0);
  });
  Tensor x = iota_f({2, 2});
  EXPECT_ERROR(x.masked_scatter_(ts::ones({2, 2}, ts::kBool), make(ts::kFloat, {1, 2, 3})),
               "Number of elements of source < number of ones in mask");
  EXPECT_ERROR(x.masked_scatter_(ts::ones({2, 2}), iota_f({4})), "boolean masks");
  EXPECT_ERROR(iota_f({2}).masked_scatter_(ts::ones({2, 2}, ts::kBool), iota_f({4})),
               "cannot be broadcast");
  EXPECT_TENSOR(x, ts::kFloat, {2, 2}, {0, 1, 2, 3}, 0);
}

TEST(IndexPut, OutForm) {
  each_set([] {
    Tensor out = ts::empty({0});
    ts::index_put_out(out, iota_f({3}), L{make_long({0, 0})}, make(ts::kFloat, {1, 2}), true);
    EXPECT_TENSOR(out, ts::kFloat, {3}, {3, 1, 2}, 0);
  });
  Tensor out = ts::empty({0}, ts::kLong);
  EXPECT_ERROR(ts::index_put_out(out, iota_f({3}), L{make_long({0})}, make(ts::kFloat, {1})),
               "out");
}

TEST(TakePutGrad, ByHand) {
  each_set([] {
    // take: duplicates accumulate into self's gradient
    const Tensor x = make(ts::kDouble, {1, 2, 3}).requires_grad_();
    ts::take(x, make_long({2, 0, 2})).sum().backward();
    EXPECT_EQ(values(x.grad()), (std::vector<double>{1, 0, 2}));
    // index_copy: self's copied rows get zero, source gets grad's rows
    const Tensor s = make(ts::kDouble, {1, 2, 3, 4}, {2, 2}).requires_grad_();
    const Tensor src = make(ts::kDouble, {5, 6}, {1, 2}).requires_grad_();
    (ts::index_copy(s, 0, make_long({1}), src) * make(ts::kDouble, {1, 2, 3, 4}, {2, 2}))
        .sum()
        .backward();
    EXPECT_EQ(values(s.grad()), (std::vector<double>{1, 2, 0, 0}));
    EXPECT_EQ(values(src.grad()), (std::vector<double>{3, 4}));
    // index_fill with a 0-dim value tensor: the value gets the sum over the filled slice
    const Tensor v = ts::scalar_tensor(0.5, ts::kDouble).requires_grad_();
    (ts::index_fill(ts::zeros({2, 2}, ts::kDouble), 1, make_long({1, 1}), v) *
     make(ts::kDouble, {1, 2, 3, 4}, {2, 2}))
        .sum()
        .backward();
    EXPECT_EQ(values(v.grad()), (std::vector<double>{6}));
    // masked_scatter: source's first elements get grad where the mask is true, the rest zero
    const Tensor m = make(ts::kDouble, {1, 2, 3}).requires_grad_();
    const Tensor ms = make(ts::kDouble, {7, 8, 9}).requires_grad_();
    (ts::masked_scatter(m, ts::tensor({true, false, true}), ms) * make(ts::kDouble, {1, 2, 3}))
        .sum()
        .backward();
    EXPECT_EQ(values(m.grad()), (std::vector<double>{0, 2, 0}));
    EXPECT_EQ(values(ms.grad()), (std::vector<double>{1, 3, 0}));
  });
}

TEST(TakePutGrad, Gradchecks) {
  const std::vector<std::pair<const char*, IndexGradOp>> cases = {
      {"take",
       [](const Tensor& x, const Tensor&) {
         return ts::take(x, make_long({5, -1, 0}, {3}));
       }},
      {"put_acc",
       [](const Tensor& x, const Tensor& y) {
         return ts::put(x, make_long({1, 1, -2}), y.reshape({-1}).narrow(0, 0, 3), true);
       }},
      {"put",
       [](const Tensor& x, const Tensor& y) {
         return ts::put(x, make_long({4, 0}), y.reshape({-1}).narrow(0, 0, 2));
       }},
      {"index_copy",
       [](const Tensor& x, const Tensor& y) {
         return ts::index_copy(x, 1, make_long({2, 0}), y.narrow(0, 0, 2).narrow(1, 0, 2));
       }},
      {"index_fill",
       [](const Tensor& x, const Tensor&) {
         return ts::index_fill(x, 1, make_long({-1, 0}), 2.0);
       }},
      {"index_fill_tensor",
       [](const Tensor& x, const Tensor& y) {
         return ts::index_fill(x, 0, make_long({1}), y.reshape({-1})[4]);
       }},
      {"masked_scatter",
       [](const Tensor& x, const Tensor& y) {
         return ts::masked_scatter(x, ts::tensor({true, false, true}), y);
       }},
  };
  expect_index_gradchecks(cases);
}

}  // namespace
