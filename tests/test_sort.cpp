// Sorting and selection of issue 16 (sort, argsort, topk, kthvalue, median, mode): values and
// indices worked by hand or taken from PyTorch's documentation, ATen's order (NaN largest,
// -0 ties with +0, ties in position order), layouts, the errors naming op and argument, and the
// gradients of derivatives.yaml by hand and through gradcheck, in the reference and the
// optimized sets alike.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include "autograd_util.h"
#include "cpu_sets_util.h"
#include "test_util.h"
#include "touchstone/touchstone.h"

namespace {

using namespace ts::testing;
using ts::Tensor;

std::vector<int64_t> longs(const Tensor& t) {
  const Tensor c = t.contiguous();
  EXPECT_EQ(c.dtype(), ts::kLong);
  return std::vector<int64_t>(c.data_ptr<int64_t>(), c.data_ptr<int64_t>() + c.numel());
}

TEST(Sort, ValuesAndIndices) {
  each_set([] {
    // torch.sort's order, by hand: ascending, then descending.
    auto [v, i] = ts::sort(make(kFloat, {3, 1, 2, -1}));
    EXPECT_TENSOR(v, kFloat, {4}, {-1, 1, 2, 3}, 0);
    EXPECT_EQ(longs(i), (std::vector<int64_t>{3, 1, 2, 0}));
    auto [vd, id] = ts::sort(make(kFloat, {3, 1, 2, -1}), 0, /*descending=*/true);
    EXPECT_TENSOR(vd, kFloat, {4}, {3, 2, 1, -1}, 0);
    EXPECT_EQ(longs(id), (std::vector<int64_t>{0, 2, 1, 3}));
    // NaN is the largest value: last ascending, first descending.
    auto [vn, in] = ts::sort(make(kDouble, {kNaN, 1, -kInf, kInf, 0}));
    EXPECT_TENSOR(vn, kDouble, {5}, {-kInf, 0, 1, kInf, kNaN}, 0);
    EXPECT_EQ(longs(in), (std::vector<int64_t>{2, 4, 1, 3, 0}));
    auto [vnd, ind] = ts::sort(make(kDouble, {kNaN, 1, -kInf, kInf, 0}), -1, true);
    EXPECT_TENSOR(vnd, kDouble, {5}, {kNaN, kInf, 1, 0, -kInf}, 0);
    EXPECT_EQ(longs(ind), (std::vector<int64_t>{0, 3, 1, 4, 2}));
    // -0 and +0 tie: the stable sort keeps their order.
    auto [vz, iz] = ts::sort(make(kFloat, {0.0, -0.0, -1}), std::optional<bool>(true), 0);
    EXPECT_EQ(longs(iz), (std::vector<int64_t>{2, 0, 1}));
    EXPECT_TRUE(signbit_at(vz, 2));
    // Stable: ties in their original order, both directions.
    auto [vs, is] = ts::sort(make(kLong, {2, 1, 2, 1}), std::optional<bool>(true), 0);
    EXPECT_EQ(longs(vs), (std::vector<int64_t>{1, 1, 2, 2}));
    EXPECT_EQ(longs(is), (std::vector<int64_t>{1, 3, 0, 2}));
    auto [vsd, isd] = ts::sort(make(kLong, {2, 1, 2, 1}), std::optional<bool>(true), 0, true);
    EXPECT_EQ(longs(isd), (std::vector<int64_t>{0, 2, 1, 3}));
    // int64 beyond 2^53 compares exactly.
    const int64_t big = int64_t{1} << 62;
    auto [vb, ib] = ts::sort(make_long({big + 1, big, -big}));
    EXPECT_EQ(longs(vb), (std::vector<int64_t>{-big, big, big + 1}));
    EXPECT_EQ(longs(ib), (std::vector<int64_t>{2, 1, 0}));
    // Along dim 0 of a matrix, and through a transposed (non-contiguous) view.
    const Tensor m = make(kFloat, {4, 1, 2, 3, 0, 5}, {2, 3});
    auto [vm, im] = ts::sort(m, 0);
    EXPECT_TENSOR(vm, kFloat, {2, 3}, {3, 0, 2, 4, 1, 5}, 0);
    EXPECT_EQ(longs(im), (std::vector<int64_t>{1, 1, 0, 0, 0, 1}));
    auto [vt, it] = ts::sort(m.t(), 1);  // rows of m.t() are m's columns
    EXPECT_TENSOR(vt, kFloat, {3, 2}, {3, 4, 0, 1, 2, 5}, 0);
    EXPECT_EQ(longs(it), (std::vector<int64_t>{1, 0, 1, 0, 0, 1}));
    // bool, uint8 and float16.
    auto [vbool, ibool] = ts::sort(make(kBool, {1, 0, 1, 0}), std::optional<bool>(true), 0);
    EXPECT_TENSOR(vbool, kBool, {4}, {0, 0, 1, 1}, 0);
    EXPECT_EQ(longs(ibool), (std::vector<int64_t>{1, 3, 0, 2}));
    EXPECT_TENSOR(std::get<0>(ts::sort(make(kByte, {200, 7, 255}))), kByte, {3}, {7, 200, 255}, 0);
    EXPECT_TENSOR(std::get<0>(ts::sort(make(kHalf, {0.5, -2, kNaN}), 0, true)), kHalf, {3},
                  {kNaN, 0.5, -2}, 0);
    // 0-dim: itself at index 0; empty: empty.
    auto [v0, i0] = ts::sort(make(kFloat, {7}, {}));
    EXPECT_TENSOR(v0, kFloat, {}, {7}, 0);
    EXPECT_EQ(longs(i0), (std::vector<int64_t>{0}));
    auto [ve, ie] = ts::sort(ts::empty({2, 0}, ts::kFloat), 1);
    EXPECT_EQ(shape_of(ve), (Shape{2, 0}));
    EXPECT_EQ(shape_of(ie), (Shape{2, 0}));
    // argsort is sort's indices.
    EXPECT_EQ(longs(ts::argsort(make(kFloat, {3, 1, 2}))), (std::vector<int64_t>{1, 2, 0}));
    EXPECT_EQ(longs(ts::argsort(make(kInt, {2, 1, 2, 1}), true, 0, true)),
              (std::vector<int64_t>{0, 2, 1, 3}));
  });
}

TEST(Sort, OutForms) {
  each_set([] {
    const Tensor values = ts::empty({0}, ts::kFloat), indices = ts::empty({0}, ts::kLong);
    ts::sort_out(values, indices, make(kFloat, {2, -1, 0}));
    EXPECT_TENSOR(values, kFloat, {3}, {-1, 0, 2}, 0);
    EXPECT_EQ(longs(indices), (std::vector<int64_t>{1, 2, 0}));
    // A non-empty out= of another shape is refused (pass an empty one to have it resized).
    const Tensor tv = ts::empty({0}, ts::kFloat), ti = ts::empty({0}, ts::kLong);
    ts::topk_out(tv, ti, make(kFloat, {2, -1, 0, 5}), 2);
    EXPECT_TENSOR(tv, kFloat, {2}, {5, 2}, 0);
    EXPECT_EQ(longs(ti), (std::vector<int64_t>{3, 0}));
    const Tensor kv = ts::empty({0}, ts::kFloat), ki = ts::empty({0}, ts::kLong);
    ts::kthvalue_out(kv, ki, make(kFloat, {2, -1, 0, 5}, {2, 2}), 1, 1, true);
    EXPECT_TENSOR(kv, kFloat, {2, 1}, {-1, 0}, 0);
    EXPECT_EQ(longs(ki), (std::vector<int64_t>{1, 0}));
  });
}

TEST(Sort, LongLinesInPositionOrderAmongTies) {  // and kthvalue along them
  each_set([] {
    // 1000 values (lines from 256 up are radix-sorted: Note [Radix sort of line entries] in
    // optimized/cpu/sort.cpp) of few distinct values with NaN, -0 and +0, against a stable sort:
    // NaN largest, -0 ties with +0, ties in position order, ascending and descending.
    std::vector<double> xs(1000);
    for (size_t i = 0; i < xs.size(); ++i) {
      const size_t m = i * 7919 % 13;
      xs[i] = m == 0 ? kNaN : m == 1 ? -0.0 : m == 2 ? 0.0 : static_cast<double>(m % 5) - 2.5;
    }
    const auto less = [&](int64_t a, int64_t b) {
      const double x = xs[static_cast<size_t>(a)], y = xs[static_cast<size_t>(b)];
      return !std::isnan(x) && (std::isnan(y) || x < y);
    };
    for (ts::ScalarType dt : {kFloat, kDouble}) {
      for (bool descending : {false, true}) {
        std::vector<int64_t> order(xs.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int64_t>(i);
        std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
          return descending ? less(b, a) : less(a, b);
        });
        EXPECT_EQ(longs(std::get<1>(ts::sort(make(dt, xs), -1, descending))), order)
            << ts::dtype_name(dt) << (descending ? " descending" : " ascending");
        if (descending) continue;
        // kthvalue selects in a bucket of the key's top byte: the k-th of the same order.
        for (int64_t k : {1, 137, 500, 999, 1000}) {
          EXPECT_EQ(longs(std::get<1>(ts::kthvalue(make(dt, xs), k))),
                    (std::vector<int64_t>{order[static_cast<size_t>(k - 1)]}))
              << ts::dtype_name(dt) << " k " << k;
        }
      }
    }
  });
}

TEST(Sort, LineOfTwoMillion) {
  each_set([] {
    // x[i] = 7 i mod 2^21 is a permutation of 0 .. 2^21 - 1 (7 is odd): sorted, value k sits at
    // k and came from i = k / 7 mod 2^21 (a line past the radix scratch that is kept per thread).
    constexpr int64_t n = int64_t{1} << 21;
    const Tensor x = ts::remainder(ts::arange(n, ts::kLong) * 7, n).to(kFloat);
    auto [v, i] = ts::sort(x);
    int64_t inv7 = 1;  // 7^-1 mod 2^21 by Newton's iteration
    for (int k = 0; k < 5; ++k) inv7 = (inv7 * (2 - 7 * inv7)) & (n - 1);
    const float* pv = v.data_ptr<float>();
    const int64_t* pi = i.data_ptr<int64_t>();
    for (int64_t k : {int64_t{0}, int64_t{1}, int64_t{12345}, n / 2 + 3, n - 1}) {
      EXPECT_EQ(pv[k], static_cast<float>(k));
      EXPECT_EQ(pi[k], (k * inv7) & (n - 1)) << "value " << k;
    }
  });
}

TEST(Sort, Topk) {
  each_set([] {
    // torch.topk's documentation: x = arange(1., 6.), topk(x, 3) = ([5, 4, 3], [4, 3, 2]).
    auto [v, i] = ts::topk(make(kFloat, {1, 2, 3, 4, 5}), 3);
    EXPECT_TENSOR(v, kFloat, {3}, {5, 4, 3}, 0);
    EXPECT_EQ(longs(i), (std::vector<int64_t>{4, 3, 2}));
    auto [vs, is] = ts::topk(make(kFloat, {1, 5, 3, 4, 2}), 2, -1, /*largest=*/false);
    EXPECT_TENSOR(vs, kFloat, {2}, {1, 2}, 0);
    EXPECT_EQ(longs(is), (std::vector<int64_t>{0, 4}));
    // NaN is the largest; ties go to the lower index.
    auto [vn, in] = ts::topk(make(kDouble, {1, kNaN, 3, 3}), 3);
    EXPECT_TENSOR(vn, kDouble, {3}, {kNaN, 3, 3}, 0);
    EXPECT_EQ(longs(in), (std::vector<int64_t>{1, 2, 3}));
    // Along dim 0, k = 0 and k = n.
    auto [vm, im] = ts::topk(make(kInt, {4, 1, 2, 3, 0, 5}, {2, 3}), 1, 0);
    EXPECT_TENSOR(vm, kInt, {1, 3}, {4, 1, 5}, 0);
    EXPECT_EQ(longs(im), (std::vector<int64_t>{0, 0, 1}));
    EXPECT_EQ(shape_of(std::get<0>(ts::topk(make(kFloat, {1, 2}), 0))), (Shape{0}));
    EXPECT_TENSOR(std::get<0>(ts::topk(make(kFloat, {1, 3, 2}), 3)), kFloat, {3}, {3, 2, 1}, 0);
    // 200 values, each twice: x[i] = 37 i mod 100. k = 3 takes a heap (k * 64 <= n), k = 50
    // selection and a sort; both give the order of a full sort with ties to the lower index.
    std::vector<double> xs(200);
    for (size_t i = 0; i < xs.size(); ++i) xs[i] = static_cast<double>(37 * i % 100);
    const Tensor x = make(kFloat, xs);
    auto [v3, i3] = ts::topk(x, 3);
    EXPECT_TENSOR(v3, kFloat, {3}, {99, 99, 98}, 0);
    EXPECT_EQ(longs(i3), (std::vector<int64_t>{27, 127, 54}));
    std::vector<int64_t> order(200);
    for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int64_t>(i);
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
      return xs[static_cast<size_t>(a)] > xs[static_cast<size_t>(b)];
    });
    order.resize(50);
    EXPECT_EQ(longs(std::get<1>(ts::topk(x, 50))), order);
  });
}

TEST(Sort, KthvalueMedianMode) {
  each_set([] {
    // torch.kthvalue's documentation: x = arange(1., 6.), kthvalue(x, 4) = (4, 3).
    auto [v, i] = ts::kthvalue(make(kFloat, {1, 2, 3, 4, 5}), 4);
    EXPECT_TENSOR(v, kFloat, {}, {4}, 0);
    EXPECT_EQ(longs(i), (std::vector<int64_t>{3}));
    // ... and of x = [[1, 2, 3], [4, 5, 6]] along dim 0 with k = 2, keepdim: ([[4, 5, 6]], [[1,
    // 1, 1]]).
    auto [vk, ik] = ts::kthvalue(make(kFloat, {1, 2, 3, 4, 5, 6}, {2, 3}), 2, 0, true);
    EXPECT_TENSOR(vk, kFloat, {1, 3}, {4, 5, 6}, 0);
    EXPECT_EQ(longs(ik), (std::vector<int64_t>{1, 1, 1}));
    // median: the lower of the two middle values for an even count.
    auto [vm, im] = ts::median(make(kFloat, {1, 4, 2, 3}), 0);
    EXPECT_TENSOR(vm, kFloat, {}, {2}, 0);
    EXPECT_EQ(longs(im), (std::vector<int64_t>{2}));
    EXPECT_TENSOR(ts::median(make(kFloat, {1, 4, 2, 3}, {2, 2})), kFloat, {}, {2}, 0);
    EXPECT_TENSOR(ts::median(make(kLong, {5, 3, 9})), kLong, {}, {5}, 0);
    // A line with NaN has median NaN, at its first NaN (ATen's torch.median).
    auto [vnan, inan] = ts::median(make(kDouble, {1, kNaN, 3, 2, 0, 1}, {2, 3}), 1);
    EXPECT_TENSOR(vnan, kDouble, {2}, {kNaN, 1}, 0);
    EXPECT_EQ(longs(inan), (std::vector<int64_t>{1, 2}));
    EXPECT_TENSOR(ts::median(make(kDouble, {1, kNaN})), kDouble, {}, {kNaN}, 0);
    EXPECT_TENSOR(ts::median(ts::empty({0}, ts::kFloat)), kFloat, {}, {kNaN}, 0);
    // mode: the smallest of the most frequent values, at its last position.
    auto [vo, io] = ts::mode(make(kFloat, {3, 2, 3, 1, 2}));
    EXPECT_TENSOR(vo, kFloat, {}, {2}, 0);
    EXPECT_EQ(longs(io), (std::vector<int64_t>{4}));
    auto [vo2, io2] = ts::mode(make(kLong, {7, 1, 7, 2, 5, 5}, {2, 3}), 1, true);
    EXPECT_TENSOR(vo2, kLong, {2, 1}, {7, 5}, 0);
    EXPECT_EQ(longs(io2), (std::vector<int64_t>{2, 2}));
    EXPECT_TENSOR(std::get<0>(ts::mode(make(kBool, {1, 0, 1}))), kBool, {}, {1}, 0);
    // 0-dim self: itself, index 0.
    EXPECT_EQ(longs(std::get<1>(ts::kthvalue(make(kFloat, {3}, {}), 1))),
              (std::vector<int64_t>{0}));
  });
}

TEST(Sort, Errors) {
  each_set([] {
    const Tensor x = make(kFloat, {1, 2, 3});
    EXPECT_ERROR(ts::topk(x, 4), "topk");
    EXPECT_ERROR(ts::topk(x, 4), "'k'");
    EXPECT_ERROR(ts::topk(x, -1), "'k'");
    EXPECT_ERROR(ts::kthvalue(x, 0), "kthvalue");
    EXPECT_ERROR(ts::kthvalue(x, 4), "'k'");
    EXPECT_ERROR(ts::sort(x, 1), "sort");
    EXPECT_ERROR(ts::median(ts::empty({2, 0}), 1), "median");
    EXPECT_ERROR(ts::median(ts::empty({2, 0}), 1), "'dim'");
    EXPECT_ERROR(ts::mode(ts::empty({0})), "mode");
    EXPECT_ERROR(ts::topk(make(kBool, {1, 0}), 1), "topk");
    EXPECT_ERROR(ts::topk(make(kBool, {1, 0}), 1), "'self'");
    EXPECT_ERROR(ts::median(ts::empty({0}, ts::kLong)), "median");
    // Wrong out= dtypes name the argument, and leave both outputs untouched.
    const Tensor values = make(kFloat, {9, 9, 9}), bad = make(kInt, {9, 9, 9});
    EXPECT_ERROR(ts::sort_out(values, bad, x), "'indices'");
    EXPECT_TENSOR(values, kFloat, {3}, {9, 9, 9}, 0);
    const Tensor indices = make_long({9, 9, 9});
    EXPECT_ERROR(ts::sort_out(make(kDouble, {0, 0, 0}), indices, x), "'values'");
    EXPECT_EQ(longs(indices), (std::vector<int64_t>{9, 9, 9}));
  });
}

// The gradients by hand: grad goes to the elements at the returned indices.
TEST(Sort, Gradients) {
  each_set([] {
    const Tensor w = make(kDouble, {1, 10, 100});
    {
      const Tensor x = make(kDouble, {3, 1, 2}).requires_grad_();
      (std::get<0>(ts::sort(x)) * w).sum().backward();
      EXPECT_TENSOR(x.grad(), kDouble, {3}, {100, 1, 10}, 0);
    }
    {
      const Tensor x = make(kDouble, {3, 1, 2}).requires_grad_();
      (std::get<0>(ts::topk(x, 2)) * make(kDouble, {1, 10})).sum().backward();
      EXPECT_TENSOR(x.grad(), kDouble, {3}, {1, 0, 10}, 0);
    }
    {
      const Tensor x = make(kDouble, {3, 1, 2, 0}, {2, 2}).requires_grad_();
      (std::get<0>(ts::kthvalue(x, 2, 1)) * make(kDouble, {1, 10})).sum().backward();
      EXPECT_TENSOR(x.grad(), kDouble, {2, 2}, {1, 0, 10, 0}, 0);
    }
    {
      const Tensor x = make(kDouble, {5, 1, 3}).requires_grad_();
      std::get<0>(ts::median(x, 0)).backward();
      EXPECT_TENSOR(x.grad(), kDouble, {3}, {0, 0, 1}, 0);
    }
    {
      // median() splits grad among the elements equal to the result.
      const Tensor x = make(kDouble, {2, 1, 2, 3}).requires_grad_();
      ts::median(x).backward();
      EXPECT_TENSOR(x.grad(), kDouble, {4}, {0.5, 0, 0.5, 0}, 0);
    }
    {
      const Tensor x = make(kDouble, {3, 2, 3}).requires_grad_();
      std::get<0>(ts::mode(x)).backward();
      EXPECT_TENSOR(x.grad(), kDouble, {3}, {0, 0, 1}, 0);
    }
  });
}

TEST(Sort, Gradchecks) {
  using Op = std::function<Tensor(const Tensor&)>;
  const std::vector<std::pair<const char*, Op>> cases = {
      {"sort", [](const Tensor& x) { return std::get<0>(ts::sort(x, 1, true)); }},
      {"sort_d0", [](const Tensor& x) { return std::get<0>(ts::sort(x, 0)); }},
      {"topk", [](const Tensor& x) { return std::get<0>(ts::topk(x, 2, 1)); }},
      {"kthvalue", [](const Tensor& x) { return std::get<0>(ts::kthvalue(x, 2, 1, true)); }},
      {"median", [](const Tensor& x) { return std::get<0>(ts::median(x, 0)); }},
      {"median_all", [](const Tensor& x) { return ts::median(x); }},
      {"mode", [](const Tensor& x) { return std::get<0>(ts::mode(x, 1)); }},
  };
  each_set([&] {
    for (const auto& named : cases) {  // not a structured binding: clang 14 lambdas
      const auto& name = named.first;
      const auto& op = named.second;
      SCOPED_TRACE(name);
      const Tensor x = ts::tensor({-2.3, 0.7, -0.2, 0.3, 1.8, 1.1}, ts::kDouble).view({2, 3});
      const Tensor strided = x.t().contiguous().t();
      for (const Tensor& base : {x, strided}) {
        const Tensor in = base.detach().requires_grad_();
        ts::autograd_test::expect_gradchecks(
            [&](const std::vector<Tensor>& v) -> std::vector<Tensor> { return {op(v[0])}; }, {in});
      }
    }
  });
}

}  // namespace
