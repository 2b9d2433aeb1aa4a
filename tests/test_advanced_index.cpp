// Advanced indexing (issue 16): index, index_put, index_add, scatter, scatter_reduce,
// masked_select and nonzero against hand-computed results and PyTorch's documentation
// examples, their errors (inputs untouched), and gradients by hand and through gradcheck, in
// the reference and the optimized sets.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "autograd_util.h"
#include "cpu_sets_util.h"
#include "index_grad_util.h"
#include "test_util.h"
#include "touchstone/cpu_capability.h"
#include "touchstone/parallel.h"
#include "touchstone/touchstone.h"

namespace {

using namespace ts::testing;
using ts::Tensor;
using L = std::vector<std::optional<Tensor>>;

std::vector<int64_t> longs(const Tensor& t) {
  const Tensor c = t.contiguous();
  EXPECT_EQ(c.dtype(), ts::kLong);
  return std::vector<int64_t>(c.data_ptr<int64_t>(), c.data_ptr<int64_t>() + c.numel());
}

// arange(n) as float32 of `shape`.
Tensor iota_f(std::vector<int64_t> shape) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return ts::arange(n, ts::kFloat).view(shape);
}

// ---- index ----

TEST(Index, IntegerListsAsNumPy) {
  each_set([] {
    const Tensor x = iota_f({3, 4});  // [[0..3], [4..7], [8..11]]
    // x[[0, 2], [1, 3]] = [x[0][1], x[2][3]]
    EXPECT_TENSOR(ts::index(x, L{make_long({0, 2}), make_long({1, 3})}), ts::kFloat, {2}, {1, 11},
                  0);
    // x[:, [0, 2]]: the indexed dim stays where it was
    EXPECT_TENSOR(x.index(L{std::nullopt, make_long({0, 2})}), ts::kFloat, {3, 2},
                  {0, 2, 4, 6, 8, 10}, 0);
    // x[[-1, 0]]: negative values count from the end; duplicates repeat
    EXPECT_TENSOR(ts::index(x, L{make_long({-1, 0, -1})}), ts::kFloat, {3, 4},
                  {8, 9, 10, 11, 0, 1, 2, 3, 8, 9, 10, 11}, 0);
    // broadcast: x[[[0], [2]], [1, 3]] has shape (2, 2)
    EXPECT_TENSOR(ts::index(x, L{make_long({0, 2}, {2, 1}), make_long({1, 3})}), ts::kFloat, {2, 2},
                  {1, 3, 9, 11}, 0);
    // a 0-dim index drops its dim; an empty one gives an empty result
    EXPECT_TENSOR(ts::index(x, L{ts::scalar_tensor(1, ts::kLong)}), ts::kFloat, {4}, {4, 5, 6, 7},
                  0);
    EXPECT_EQ(shape_of(ts::index(x, L{ts::empty({0}, ts::kLong)})), (Shape{0, 4}));
    EXPECT_TENSOR(ts::index(x, L{ts::tensor({2}, ts::kInt)}), ts::kFloat, {1, 4}, {8, 9, 10, 11},
                  0);
  });
}

TEST(Index, SeparatedIndicesGoFirst) {
  each_set([] {
    const Tensor y = iota_f({2, 3, 4});
    // y[[0, 1], :, [0, 3]]: a None between the indexed dims puts B (2) first: (2, 3)
    EXPECT_TENSOR(ts::index(y, L{make_long({0, 1}), std::nullopt, make_long({0, 3})}), ts::kFloat,
                  {2, 3}, {0, 4, 8, 15, 19, 23}, 0);
    // y[:, [0, 2], [1, 3]]: adjacent, so B replaces dims 1 and 2 in place: (2, 2)
    EXPECT_TENSOR(ts::index(y, L{std::nullopt, make_long({0, 2}), make_long({1, 3})}), ts::kFloat,
                  {2, 2}, {1, 11, 13, 23}, 0);
    // a non-contiguous self
    const Tensor t = iota_f({3, 4}).t();  // (4, 3): t[i][j] = 4 j + i
    EXPECT_TENSOR(ts::index(t, L{make_long({3, 0})}), ts::kFloat, {2, 3}, {3, 7, 11, 0, 4, 8}, 0);
  });
}

TEST(Index, BoolMasks) {
  each_set([] {
    const Tensor x = iota_f({3, 4});
    const Tensor m = ts::gt(x, 8.5);  // 9, 10, 11
    EXPECT_TENSOR(ts::index(x, L{m}), ts::kFloat, {3}, {9, 10, 11}, 0);
    // x[[True, False, True]] selects rows; x[:, mask] columns
    EXPECT_TENSOR(ts::index(x, L{ts::tensor({true, false, true})}), ts::kFloat, {2, 4},
                  {0, 1, 2, 3, 8, 9, 10, 11}, 0);
    EXPECT_TENSOR(ts::index(x, L{std::nullopt, ts::tensor({false, true, false, true})}), ts::kFloat,
                  {3, 2}, {1, 3, 5, 7, 9, 11}, 0);
  });
}

TEST(Index, ErrorsNameTheArgument) {
  const Tensor x = iota_f({3, 4});
  EXPECT_ERROR(ts::index(x, L{make_long({3})}),
               "index: index 3 is out of bounds for dimension 0 with size 3");
  EXPECT_ERROR(ts::index(x, L{std::nullopt, make_long({-5})}),
               "index -5 is out of bounds for dimension 1 with size 4");
  EXPECT_ERROR(ts::index(x, L{ts::tensor({1.0f})}),
               "tensors used as indices must be long, int, byte or bool tensors");
  EXPECT_ERROR(ts::index(x, L{make_long({0}), make_long({0}), make_long({0})}),
               "too many indices for tensor of dimension 2 (got 3)");
  EXPECT_ERROR(ts::index(x, L{ts::tensor({true, false})}),
               "The shape of the mask [2] at index 0 does not match the shape of the indexed "
               "tensor [3, 4] at index 0");
  EXPECT_ERROR(ts::index(x, L{make_long({0, 1}), make_long({0, 1, 2})}),
               "shape mismatch: indexing tensors could not be broadcast together with shapes "
               "[2], [3]");
}

// ---- index_put ----

TEST(IndexPut, AssignAndAccumulate) {
  each_set([] {
    // zeros(3, 3)[[0, 2], [1, 0]] = [5, 6]
    Tensor z = ts::zeros({3, 3});
    Tensor& r = z.index_put_(L{make_long({0, 2}), make_long({1, 0})}, make(ts::kFloat, {5, 6}));
    EXPECT_TRUE(r.is_same(z));
    EXPECT_TENSOR(z, ts::kFloat, {3, 3}, {0, 5, 0, 0, 0, 0, 6, 0, 0}, 0);
    // accumulate: duplicates sum
    const Tensor a =
        ts::index_put(ts::zeros({3}), L{make_long({0, 0, 2})}, make(ts::kFloat, {1, 2, 3}), true);
    EXPECT_TENSOR(a, ts::kFloat, {3}, {3, 0, 3}, 0);
    // values broadcast to the indexed shape; a mask assigns where true
    Tensor m = iota_f({2, 3});
    m.index_put_(L{ts::gt(m, 2.5)}, ts::full({}, -1.0));
    EXPECT_TENSOR(m, ts::kFloat, {2, 3}, {0, 1, 2, -1, -1, -1}, 0);
    Tensor rows = ts::zeros({3, 2}, ts::kLong);
    rows.index_put_(L{make_long({2, 0})}, make_long({7, 8}));
    EXPECT_EQ(longs(rows), (std::vector<int64_t>{7, 8, 0, 0, 7, 8}));
  });
}

// Accumulation over many terms on 1, 2 and 3 threads: each of 1000 destinations takes 100 or
// 101 terms of 2^-24 (some through negative indices): 1 + count * 2^-24 exactly in double,
// rounded once; float32 running sums would stay at 1 (each step a tie to even). A split of the
// terms among threads must still add each destination's terms once, in index order.
TEST(IndexPut, ManyTermsOnAnyThreadCount) {
  constexpr int64_t kDst = 1000, kTerms = 100003;
  const double u = std::ldexp(1.0, -24);
  Tensor index = ts::empty({kTerms}, ts::kLong);
  std::vector<int> count(kDst, 0);
  for (int64_t i = 0; i < kTerms; ++i) {
    const int64_t d = i * 7919 % kDst;
    ++count[static_cast<size_t>(d)];
    index.data_ptr<int64_t>()[i] = i % 3 == 0 ? d - kDst : d;
  }
  std::vector<double> want(kDst);
  for (int64_t d = 0; d < kDst; ++d) {
    const double exact = 1 + count[static_cast<size_t>(d)] * u;
    want[static_cast<size_t>(d)] = static_cast<double>(static_cast<float>(exact));
  }
  const Tensor terms = ts::full({kTerms}, u);
  const Tensor noise = ts::sub(ts::rand({kTerms}), 0.5);
  each_set([&] {
    for (int threads : {1, 2, 3}) {
      SCOPED_TRACE(threads);
      const int before = ts::get_num_threads();
      ts::set_num_threads(threads);
      EXPECT_TENSOR(ts::index_put(ts::ones({kDst}), L{index}, terms, true), ts::kFloat, {kDst},
                    want, 0);
      EXPECT_TENSOR(ts::put(ts::ones({kDst}), index, terms, true), ts::kFloat, {kDst}, want, 0);
      // Random terms: the reference's bits (its sums in index order, rounded once).
      Tensor got = ts::index_put(ts::ones({kDst}), L{index}, noise, true), ref;
      {
        ts::KernelSetGuard g("reference");
        ref = ts::index_put(ts::ones({kDst}), L{index}, noise, true);
      }
      EXPECT_TENSOR(got, ts::kFloat, {kDst}, values(ref), 0);
      ts::set_num_threads(before);
    }
  });
}

TEST(IndexPut, FailedCallLeavesSelfUntouched) {
  Tensor x = iota_f({2, 3});
  EXPECT_ERROR(x.index_put_(L{make_long({0, 2})}, ts::ones({3})),
               "index_put_: index 2 is out of bounds for dimension 0 with size 2");
  EXPECT_ERROR(x.index_put_(L{make_long({0})}, ts::ones({3}, ts::kDouble)),
               "Index put requires the source and destination dtypes match");
  EXPECT_ERROR(x.index_put_(L{make_long({0})}, ts::ones({2})),
               "shape mismatch: value tensor of shape [2] cannot be broadcast to indexing result "
               "of shape [1, 3]");
  EXPECT_TENSOR(x, ts::kFloat, {2, 3}, {0, 1, 2, 3, 4, 5}, 0);
}

// ---- index_add ----

TEST(IndexAdd, DocumentationExample) {
  each_set([] {
    // torch.index_add_ docs: ones(5, 3).index_add_(0, [0, 4, 2], [[1, 2, 3], [4, 5, 6], [7, 8, 9]])
    const Tensor t = make(ts::kFloat, {1, 2, 3, 4, 5, 6, 7, 8, 9}, {3, 3});
    Tensor x = ts::ones({5, 3});
    x.index_add_(0, make_long({0, 4, 2}), t);
    EXPECT_TENSOR(x, ts::kFloat, {5, 3}, {2, 3, 4, 1, 1, 1, 8, 9, 10, 1, 1, 1, 5, 6, 7}, 0);
    EXPECT_TENSOR(ts::index_add(ts::ones({5, 3}), 0, make_long({0, 4, 2}), t, -1), ts::kFloat,
                  {5, 3}, {0, -1, -2, 1, 1, 1, -6, -7, -8, 1, 1, 1, -3, -4, -5}, 0);
    // duplicates add, along dim 1, with an int32 index
    EXPECT_TENSOR(ts::index_add(ts::zeros({2, 2}), 1, ts::tensor({1, 1}, ts::kInt),
                                make(ts::kFloat, {1, 2, 3, 4}, {2, 2})),
                  ts::kFloat, {2, 2}, {0, 3, 0, 7}, 0);
  });
}

TEST(IndexAdd, SumsRoundOnce) {
  each_set([] {
    // Rows 0..3 of ones(4, 2) get 3, 0, 1 and 2 sources of u = 2^-24 (alpha 1), or of 2u with
    // alpha 0.5. Summed in double and rounded once: 1 + 3u is a tie, to even 1 + 4u; 1 + u a
    // tie, to 1; 1 + 2u exact. One by one in float, row 0 would stay 1.
    const double u = std::ldexp(1.0, -24);
    const Tensor index = make_long({0, 3, 0, 2, 3, 0});
    const std::vector<double> want{1 + 4 * u, 1 + 4 * u, 1, 1, 1, 1, 1 + 2 * u, 1 + 2 * u};
    EXPECT_TENSOR(ts::index_add(ts::ones({4, 2}), 0, index, ts::full({6, 2}, u)), ts::kFloat,
                  {4, 2}, want, 0);
    EXPECT_TENSOR(ts::index_add(ts::ones({4, 2}), 0, index, ts::full({6, 2}, 2 * u), 0.5),
                  ts::kFloat, {4, 2}, want, 0);
  });
}

TEST(IndexAdd, WideRowsRoundOnceInPlaceToo) {
  each_set([] {
    // As SumsRoundOnce over 67 columns (vector chains and a scalar tail), out of place and in
    // place, with a second source row per destination holding -u in column 5.
    const double u = std::ldexp(1.0, -24);
    const Tensor index = make_long({0, 3, 0, 2, 3, 0});
    Tensor source = ts::full({6, 67}, u);
    source.select(0, 2).select(0, 5).fill_(-u);  // row 0's third source
    std::vector<double> want;
    for (double row : {1 + 4 * u, 1.0, 1.0, 1 + 2 * u}) want.insert(want.end(), 67, row);
    want[5] = 1;  // 1 + u - u + u = 1 + u: a tie, to even
    EXPECT_TENSOR(ts::index_add(ts::ones({4, 67}), 0, index, source), ts::kFloat, {4, 67}, want, 0);
    Tensor x = ts::ones({4, 67});
    x.index_add_(0, index, source);
    EXPECT_TENSOR(x, ts::kFloat, {4, 67}, want, 0);
  });
}

// Note [Demoting to float32]: sums beyond float32's range round to inf on every SIMD target
// (Highway's scalar target saturates its demotion to FLT_MAX), as float64 inf .to(float32).
TEST(IndexAdd, OverflowIsInfOnEveryTarget) {
  const std::string saved = ts::cpu::capability();
  for (const std::string& target : ts::cpu::supported_capabilities()) {
    ts::cpu::set_capability(target);
    ts::KernelSetGuard g("optimized");
    const Tensor r =
        ts::index_add(ts::zeros({2, 40}), 0, make_long({0, 0, 0}), ts::full({3, 40}, 3e38));
    const std::vector<double> v = values(r.select(0, 0));
    EXPECT_TRUE(std::all_of(v.begin(), v.end(), [](double x) { return x == kInf; })) << target;
    const Tensor f = ts::full({40}, kInf, ts::kDouble).to(ts::kFloat);
    EXPECT_EQ(values(f)[33], kInf) << target;
  }
  ts::cpu::set_capability(saved);
}

TEST(IndexAdd, Errors) {
  Tensor x = ts::zeros({2, 3});
  EXPECT_ERROR(x.index_add_(1, make_long({3}), ts::ones({2, 1})),
               "index_add_: index 3 is out of bounds for dimension 1 with size 3");
  EXPECT_ERROR(x.index_add_(1, make_long({0, 1}), ts::ones({2, 3})),
               "Number of indices (2) should be equal to source.size(dim) (3)");
  EXPECT_ERROR(x.index_add_(0, make_long({0}), ts::ones({1, 3}, ts::kDouble)),
               "self (float32) and source (float64) must have the same scalar type");
  EXPECT_ERROR(ts::index_add(ts::zeros({2}, ts::kLong), 0, make_long({0}), make_long({1}), 0.5),
               "For integral input tensors, argument alpha must not be a floating point number");
  EXPECT_TENSOR(x, ts::kFloat, {2, 3}, {0, 0, 0, 0, 0, 0}, 0);
}

// ---- scatter ----

TEST(Scatter, DocumentationExamples) {
  each_set([] {
    // torch.Tensor.scatter_ docs: src = arange(1, 11).view(2, 5), index = [[0, 1, 2, 0]]
    const Tensor src = ts::arange(1, 11, 1, ts::kFloat).view({2, 5});
    const Tensor r = ts::zeros({3, 5}).scatter_(0, make_long({0, 1, 2, 0}, {1, 4}), src);
    EXPECT_TENSOR(r, ts::kFloat, {3, 5}, {1, 0, 0, 4, 0, 0, 2, 0, 0, 0, 0, 0, 3, 0, 0}, 0);
    // full((2, 4), 2.).scatter_(1, [[2], [3]], 1.23, reduce='multiply' / 'add')
    const Tensor idx = make_long({2, 3}, {2, 1});
    EXPECT_TENSOR(ts::full({2, 4}, 2.0).scatter_(1, idx, 1.23, "multiply"), ts::kFloat, {2, 4},
                  {2, 2, 2.46f, 2, 2, 2, 2, 2.46f}, kF32);
    EXPECT_TENSOR(ts::full({2, 4}, 2.0).scatter(1, idx, 1.23, "add"), ts::kFloat, {2, 4},
                  {2, 2, 3.23f, 2, 2, 2, 2, 3.23f}, kF32);
    // the value form, and the last write winning for a repeated index along dim
    EXPECT_TENSOR(ts::scatter(ts::zeros({3}), 0, make_long({1, 1}), make(ts::kFloat, {5, 6})),
                  ts::kFloat, {3}, {0, 6, 0}, 0);
    EXPECT_TENSOR(ts::scatter(ts::zeros({2, 2}), 1, make_long({1, 0}, {2, 1}), 7.0), ts::kFloat,
                  {2, 2}, {0, 7, 7, 0}, 0);
  });
}

TEST(Scatter, Errors) {
  Tensor x = ts::zeros({2, 3});
  EXPECT_ERROR(x.scatter_(1, make_long({0, 3}, {1, 2}), ts::ones({1, 2})),
               "scatter_: index 3 is out of bounds for dimension 1 with size 3");
  EXPECT_ERROR(x.scatter_(1, make_long({0}, {1, 1}), ts::ones({1, 1}), "max"),
               "reduce argument must be either add or multiply");
  EXPECT_ERROR(x.scatter_(1, ts::tensor({0}, ts::kInt).view({1, 1}), 1.0),
               "Expected dtype int64 for index");
  EXPECT_TENSOR(x, ts::kFloat, {2, 3}, {0, 0, 0, 0, 0, 0}, 0);
}

// ---- scatter_reduce ----

TEST(ScatterReduce, DocumentationExamples) {
  each_set([] {
    // torch.Tensor.scatter_reduce_ docs
    const Tensor src = make(ts::kFloat, {1, 2, 3, 4, 5, 6});
    const Tensor index = make_long({0, 1, 0, 1, 2, 1});
    const Tensor input = make(ts::kFloat, {1, 2, 3, 4});
    EXPECT_TENSOR(input.scatter_reduce(0, index, src, "sum"), ts::kFloat, {4}, {5, 14, 8, 4}, 0);
    EXPECT_TENSOR(input.scatter_reduce(0, index, src, "sum", false), ts::kFloat, {4}, {4, 12, 5, 4},
                  0);
    const Tensor input2 = make(ts::kFloat, {5, 4, 3, 2});
    EXPECT_TENSOR(input2.scatter_reduce(0, index, src, "amax"), ts::kFloat, {4}, {5, 6, 5, 2}, 0);
    EXPECT_TENSOR(input2.scatter_reduce(0, index, src, "amax", false), ts::kFloat, {4},
                  {3, 6, 5, 2}, 0);
    // by hand: prod, mean (with and without self), amin
    EXPECT_TENSOR(input.scatter_reduce(0, index, src, "prod"), ts::kFloat, {4}, {3, 96, 15, 4}, 0);
    EXPECT_TENSOR(input.scatter_reduce(0, index, src, "mean"), ts::kFloat, {4},
                  {5.f / 3, 3.5f, 4, 4}, kF32);
    EXPECT_TENSOR(input.scatter_reduce(0, index, src, "mean", false), ts::kFloat, {4}, {2, 4, 5, 4},
                  0);
    EXPECT_TENSOR(input2.scatter_reduce(0, index, src, "amin"), ts::kFloat, {4}, {1, 2, 3, 2}, 0);
    // integer mean floors: (-3 + 0) / 2 = -1.5 -> -2
    EXPECT_EQ(longs(ts::scatter_reduce(make_long({-3}), 0, make_long({0}), make_long({0}), "mean")),
              (std::vector<int64_t>{-2}));
  });
}

TEST(ScatterReduce, NaNPropagatesThroughAmax) {
  each_set([] {
    const Tensor r = ts::scatter_reduce(make(ts::kDouble, {0, 0}), 0, make_long({0, 0, 1}),
                                        make(ts::kDouble, {kNaN, 1, 2}), "amax");
    EXPECT_TRUE(std::isnan(values(r)[0]));
    EXPECT_EQ(values(r)[1], 2);
  });
}

TEST(ScatterReduce, Float32NaNAndSignedZeros) {
  each_set([] {
    // self [1, NaN, 3, -0, 7], src [NaN, 5, 2, 4, +0, 6] into [0, 0, 1, 2, 3, 4]: a NaN on either
    // side wins, and a tie keeps the value already there (-0 stays -0), as ATen.
    const Tensor self = make(ts::kFloat, {1, kNaN, 3, -0.0, 7});
    const Tensor index = make_long({0, 0, 1, 2, 3, 4});
    const Tensor src = make(ts::kFloat, {kNaN, 5, 2, 4, 0.0, 6});
    const std::vector<double> mx = values(ts::scatter_reduce(self, 0, index, src, "amax"));
    EXPECT_TRUE(std::isnan(mx[0]) && std::isnan(mx[1]));
    EXPECT_EQ(mx[2], 4);
    EXPECT_TRUE(mx[3] == 0 && std::signbit(mx[3]));
    EXPECT_EQ(mx[4], 7);
    const std::vector<double> mn = values(ts::scatter_reduce(self, 0, index, src, "amin"));
    EXPECT_TRUE(std::isnan(mn[0]) && std::isnan(mn[1]));
    EXPECT_EQ(mn[2], 3);
    EXPECT_TRUE(mn[3] == 0 && std::signbit(mn[3]));
    EXPECT_EQ(mn[4], 6);
  });
}

TEST(ScatterReduce, Errors) {
  const Tensor x = ts::zeros({3});
  EXPECT_ERROR(ts::scatter_reduce(x, 0, make_long({0}), ts::ones({1}), "max"),
               "reduce argument must be either sum, prod, mean, amax or amin, got max");
}

// ---- masked_select, nonzero ----

TEST(MaskedSelect, RowMajorWithBroadcast) {
  each_set([] {
    const Tensor x = make(ts::kFloat, {1, 2, 3, 4}, {2, 2});
    EXPECT_TENSOR(ts::masked_select(x, ts::tensor({true, false, false, true}).view({2, 2})),
                  ts::kFloat, {2}, {1, 4}, 0);
    // a mask broadcast over rows, and self broadcast over the mask
    EXPECT_TENSOR(x.masked_select(ts::tensor({false, true})), ts::kFloat, {2}, {2, 4}, 0);
    EXPECT_TENSOR(ts::masked_select(make(ts::kFloat, {7, 8}),
                                    ts::tensor({true, true, false, true}).view({2, 2})),
                  ts::kFloat, {3}, {7, 8, 8}, 0);
    EXPECT_EQ(shape_of(ts::masked_select(x, ts::zeros({2, 2}, ts::kBool))), (Shape{0}));
  });
  EXPECT_ERROR(ts::masked_select(ts::ones({2}), ts::ones({2})), "expected BoolTensor for mask");
}

TEST(Nonzero, DocumentationExamples) {
  each_set([] {
    EXPECT_EQ(longs(ts::nonzero(ts::tensor({1, 1, 1, 0, 1}, ts::kLong))),
              (std::vector<int64_t>{0, 1, 2, 4}));
    const Tensor d =
        make(ts::kFloat, {0.6, 0, 0, 0, 0, 0.4, 0, 0, 0, 0, 1.2, 0, 0, 0, 0, -0.4}, {4, 4});
    const Tensor nz = d.nonzero();
    EXPECT_EQ(shape_of(nz), (Shape{4, 2}));
    EXPECT_EQ(longs(nz), (std::vector<int64_t>{0, 0, 1, 1, 2, 2, 3, 3}));
    // NaN counts, -0 does not; a 0-dim input gives (n, 0)
    EXPECT_EQ(longs(ts::nonzero(make(ts::kDouble, {-0.0, kNaN, 0}))), (std::vector<int64_t>{1}));
    EXPECT_EQ(shape_of(ts::nonzero(ts::scalar_tensor(2.0))), (Shape{1, 0}));
    const std::vector<Tensor> cols = ts::nonzero_numpy(d);
    ASSERT_EQ(cols.size(), 2u);
    EXPECT_EQ(longs(cols[1]), (std::vector<int64_t>{0, 1, 2, 3}));
  });
  Tensor out = ts::zeros({0});
  EXPECT_ERROR(ts::nonzero_out(out, ts::ones({2})), "out");
}

// ---- gradients ----

TEST(AdvancedIndexGrad, ByHand) {
  each_set([] {
    // index: duplicates accumulate (index_put with accumulate)
    const Tensor x = make(ts::kDouble, {1, 2, 3}).requires_grad_();
    ts::index(x, L{make_long({2, 0, 2})}).sum().backward();
    EXPECT_EQ(values(x.grad()), (std::vector<double>{1, 0, 2}));
    // index_put (no accumulate): self's gradient is zero where written; values gets grad there
    const Tensor s = make(ts::kDouble, {1, 2, 3}).requires_grad_();
    const Tensor v = make(ts::kDouble, {5, 6}).requires_grad_();
    (ts::index_put(s, L{make_long({0, 2})}, v) * make(ts::kDouble, {1, 2, 3})).sum().backward();
    EXPECT_EQ(values(s.grad()), (std::vector<double>{0, 2, 0}));
    EXPECT_EQ(values(v.grad()), (std::vector<double>{1, 3}));
    // scatter_reduce amax: a tie between self and src shares the gradient evenly
    const Tensor a = make(ts::kDouble, {2, 0}).requires_grad_();
    const Tensor b = make(ts::kDouble, {2, 1}).requires_grad_();
    ts::scatter_reduce(a, 0, make_long({0, 1}), b, "amax").sum().backward();
    EXPECT_EQ(values(a.grad()), (std::vector<double>{0.5, 0}));
    EXPECT_EQ(values(b.grad()), (std::vector<double>{0.5, 1}));
    // masked_select: ones where the mask is true
    const Tensor m = make(ts::kDouble, {1, 2, 3}).requires_grad_();
    ts::masked_select(m, ts::tensor({true, false, true})).sum().backward();
    EXPECT_EQ(values(m.grad()), (std::vector<double>{1, 0, 1}));
  });
}

TEST(AdvancedIndexGrad, Gradchecks) {
  const std::vector<std::pair<const char*, IndexGradOp>> cases = {
      {"index",
       [](const Tensor& x, const Tensor&) {
         return ts::index(x, L{make_long({1, 0, 1}), std::nullopt});
       }},
      {"index_put_acc",
       [](const Tensor& x, const Tensor& y) {
         return ts::index_put(x, L{make_long({1, 1})}, y.narrow(0, 0, 2), true);
       }},
      {"index_put",
       [](const Tensor& x, const Tensor& y) {
         return ts::index_put(x, L{std::nullopt, make_long({2, 0})},
                              y.narrow(0, 0, 2).narrow(1, 0, 2).t().t());
       }},
      {"index_add",
       [](const Tensor& x, const Tensor& y) {
         return ts::index_add(x, 0, make_long({1, 1, 0}), y, 0.5);
       }},
      {"scatter",
       [](const Tensor& x, const Tensor& y) {
         return ts::scatter(x, 1, make_long({2, 0, 1, 0}, {2, 2}), y);
       }},
      {"scatter_value",
       [](const Tensor& x, const Tensor&) {
         return ts::scatter(x, 1, make_long({2, 0, 1, 0}, {2, 2}), 3.0);
       }},
      {"scatter_reduce_sum",
       [](const Tensor& x, const Tensor& y) {
         return ts::scatter_reduce(x, 0, make_long({1, 1, 0, 0, 1, 0}, {2, 3}), y.narrow(0, 0, 2),
                                   "sum", false);
       }},
      {"scatter_reduce_prod",
       [](const Tensor& x, const Tensor& y) {
         return ts::scatter_reduce(x, 0, make_long({1, 1, 0, 0, 1, 0}, {2, 3}), y.narrow(0, 0, 2),
                                   "prod");
       }},
      {"scatter_reduce_mean",
       [](const Tensor& x, const Tensor& y) {
         return ts::scatter_reduce(x, 1, make_long({1, 1, 0, 0, 1, 0}, {2, 3}), y.narrow(0, 0, 2),
                                   "mean", false);
       }},
      {"scatter_reduce_amax",
       [](const Tensor& x, const Tensor& y) {
         return ts::scatter_reduce(x, 0, make_long({1, 1, 0, 0, 1, 0}, {2, 3}), y.narrow(0, 0, 2),
                                   "amax");
       }},
      {"masked_select",
       [](const Tensor& x, const Tensor&) {
         return ts::masked_select(x, ts::tensor({true, false, true}));
       }},
  };
  expect_index_gradchecks(cases);
}

}  // namespace
