// The scans of issue 16 (cumprod, logcumsumexp, cummax, cummin): values worked by hand,
// ATen's dtype rules (integers scan in int64, wrapping in a narrower dtype=), infinities and
// NaN, cummax/cummin's tie and NaN rule, the errors naming op and argument, and the gradients
// of derivatives.yaml by hand (cumprod's zeros included) and through gradcheck, in the
// reference and the optimized sets alike.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <vector>

#include "autograd_util.h"
#include "cpu_sets_util.h"
#include "test_util.h"
#include "touchstone/parallel.h"
#include "touchstone/touchstone.h"

namespace {

using namespace ts::testing;
using ts::Tensor;

std::vector<int64_t> longs(const Tensor& t) {
  const Tensor c = t.contiguous();
  EXPECT_EQ(c.dtype(), ts::kLong);
  return std::vector<int64_t>(c.data_ptr<int64_t>(), c.data_ptr<int64_t>() + c.numel());
}

TEST(Scan, Cumprod) {
  each_set([] {
    EXPECT_TENSOR(ts::cumprod(make(kDouble, {2, 3, 0.5, -1}), 0), kDouble, {4}, {2, 6, 3, -3}, 0);
    EXPECT_TENSOR(ts::cumprod(make(kFloat, {1, 2, 3, 4, 5, 6}, {2, 3}), 0), kFloat, {2, 3},
                  {1, 2, 3, 4, 10, 18}, 0);
    EXPECT_TENSOR(ts::cumprod(make(kFloat, {1, 2, 3, 4, 5, 6}, {2, 3}).t(), 1), kFloat, {3, 2},
                  {1, 4, 2, 10, 3, 18}, 0);
    // Integers and bool scan in int64; dtype= int8 wraps (100 * 2 = 200 -> -56).
    EXPECT_TENSOR(ts::cumprod(make(kInt, {2, 3, 4}), 0), kLong, {3}, {2, 6, 24}, 0);
    EXPECT_TENSOR(ts::cumprod(make(kBool, {1, 0, 1}), 0), kLong, {3}, {1, 0, 0}, 0);
    EXPECT_TENSOR(ts::cumprod(make(kLong, {100, 2}), 0, ts::kChar), kChar, {2}, {100, -56}, 0);
    EXPECT_TENSOR(ts::cumprod(make(kFloat, {kInf, 0, 2}), 0), kFloat, {3}, {kInf, kNaN, kNaN}, 0);
    // In place and out=.
    const Tensor y = make(kFloat, {2, 2, 2});
    EXPECT_TRUE(y.cumprod_(0).is_same(y));
    EXPECT_TENSOR(y, kFloat, {3}, {2, 4, 8}, 0);
    const Tensor out = ts::empty({0}, ts::kDouble);
    ts::cumprod_out(out, make(kFloat, {3, -2}), 0);
    EXPECT_TENSOR(out, kDouble, {2}, {3, -6}, 0);
    EXPECT_TENSOR(ts::cumprod(make(kFloat, {5}, {}), 0), kFloat, {}, {5}, 0);
  });
}

TEST(Scan, Logcumsumexp) {
  each_set([] {
    // log(e^0 + e^0) = log 2; log(e^0 + e^0 + e^1) = log(2 + e).
    EXPECT_TENSOR(ts::logcumsumexp(make(kDouble, {0, 0, 1}), 0), kDouble, {3},
                  {0, 0.6931471805599453, 1.5514447139320511}, 1e-15);
    // Equal infinities stay; +inf absorbs; NaN propagates.
    EXPECT_TENSOR(ts::logcumsumexp(make(kDouble, {-kInf, -kInf, 0}), 0), kDouble, {3},
                  {-kInf, -kInf, 0}, 0);
    EXPECT_TENSOR(ts::logcumsumexp(make(kFloat, {1, kInf, 2}), 0), kFloat, {3}, {1, kInf, kInf}, 0);
    EXPECT_TENSOR(ts::logcumsumexp(make(kFloat, {0, kNaN, 1}), 0), kFloat, {3}, {0, kNaN, kNaN}, 0);
    // Large values do not overflow: log(e^1000 + e^1000) = 1000 + log 2.
    EXPECT_TENSOR(ts::logcumsumexp(make(kDouble, {1000, 1000}), 0), kDouble, {2},
                  {1000, 1000.6931471805599}, 1e-15);
    EXPECT_TENSOR(ts::logcumsumexp(make(kFloat, {0, 0, 0, 0}, {2, 2}), 0), kFloat, {2, 2},
                  {0, 0, 0.6931471805599453, 0.6931471805599453}, 1e-7);
  });
}

TEST(Scan, CummaxCummin) {
  each_set([] {
    auto [v, i] = ts::cummax(make(kFloat, {1, 3, 2, 3, 5}), 0);
    EXPECT_TENSOR(v, kFloat, {5}, {1, 3, 3, 3, 5}, 0);
    EXPECT_EQ(longs(i), (std::vector<int64_t>{0, 1, 1, 3, 4}));  // a tie takes the later index
    auto [vn, in] = ts::cummin(make(kInt, {3, 1, 2, 1, 0}), 0);
    EXPECT_TENSOR(vn, kInt, {5}, {3, 1, 1, 1, 0}, 0);
    EXPECT_EQ(longs(in), (std::vector<int64_t>{0, 1, 1, 3, 4}));
    // NaN, once met, stays, at the latest NaN.
    auto [va, ia] = ts::cummax(make(kDouble, {1, kNaN, 3, kNaN}), 0);
    EXPECT_TENSOR(va, kDouble, {4}, {1, kNaN, kNaN, kNaN}, 0);
    EXPECT_EQ(longs(ia), (std::vector<int64_t>{0, 1, 1, 3}));
    // Along dim 0 of a matrix.
    auto [vm, im] = ts::cummin(make(kFloat, {4, 1, 2, 3, 0, 5}, {2, 3}), 0);
    EXPECT_TENSOR(vm, kFloat, {2, 3}, {4, 1, 2, 3, 0, 2}, 0);
    EXPECT_EQ(longs(im), (std::vector<int64_t>{0, 0, 0, 1, 1, 0}));
    auto [vb, ib] = ts::cummax(make(kBool, {0, 1, 0}), 0);
    EXPECT_TENSOR(vb, kBool, {3}, {0, 1, 1}, 0);
    EXPECT_EQ(longs(ib), (std::vector<int64_t>{0, 1, 1}));
    const Tensor values = ts::empty({0}, ts::kFloat), indices = ts::empty({0}, ts::kLong);
    ts::cummax_out(values, indices, make(kFloat, {2, 1, 4}), 0);
    EXPECT_TENSOR(values, kFloat, {3}, {2, 2, 4}, 0);
    EXPECT_EQ(longs(indices), (std::vector<int64_t>{0, 0, 2}));
  });
}

// Note [Running extremes along rows]: rows of 100 with blocks of 16 that hold no new extreme
// (filled), blocks with ties (the later index), a NaN in a quiet stretch and a later NaN (the
// index moves to it), -inf, and rows of a few integers (frequent ties). Expected values come
// from the rule itself, element by element.
TEST(Scan, CumExtremesAlongLongRows) {
  constexpr int64_t n = 100;
  std::vector<double> quiet(n), few(n);
  for (int64_t k = 0; k < n; ++k) {
    quiet[k] = k == 3 || k == 60 ? 50 : k == 20 ? -kInf : static_cast<double>(k % 9) - 4;
    few[k] = static_cast<double>(k * 37 % 11) - 5;
  }
  std::vector<double> nan = quiet;
  nan[80] = nan[90] = kNaN;
  const auto expected = [](const std::vector<double>& x, bool is_max) {
    std::vector<double> v, i;
    double best = x[0];
    int64_t at = 0;
    for (int64_t k = 0; k < static_cast<int64_t>(x.size()); ++k) {
      const double a = x[k];
      const bool takes = std::isnan(a) || (!std::isnan(best) && (is_max ? a >= best : a <= best));
      if (takes) best = a, at = k;
      v.push_back(best);
      i.push_back(static_cast<double>(at));
    }
    return std::pair{v, i};
  };
  each_set([&] {
    for (ts::ScalarType t : {kFloat, kDouble, kHalf, kBFloat16, kInt, kLong}) {
      for (const auto* row : {&quiet, &few, &nan}) {
        if (row == &nan && !ts::is_floating_type(t)) continue;
        for (bool is_max : {true, false}) {
          SCOPED_TRACE(std::string(ts::dtype_name(t)) + (is_max ? " cummax" : " cummin") +
                       (row == &quiet ? " quiet"
                        : row == &few ? " few"
                                      : " nan"));
          std::vector<double> x = *row;
          if (!ts::is_floating_type(t)) {
            for (double& e : x) e = std::isinf(e) ? -9 : e;
          }
          // Two rows: the second the first negated, so each op meets both shapes.
          std::vector<double> both = x;
          for (double e : x) both.push_back(-e);
          const auto [v0, i0] = expected(x, is_max);
          std::vector<double> neg(x.size());
          for (size_t k = 0; k < x.size(); ++k) neg[k] = -x[k];
          const auto [v1, i1] = expected(neg, is_max);
          std::vector<double> want_v = v0, want_i = i0;
          want_v.insert(want_v.end(), v1.begin(), v1.end());
          want_i.insert(want_i.end(), i1.begin(), i1.end());
          const Tensor in = make(t, both, {2, n});
          auto [v, i] = is_max ? ts::cummax(in, 1) : ts::cummin(in, 1);
          EXPECT_TENSOR(v, t, {2, n}, want_v, 0);
          EXPECT_TENSOR(i, kLong, {2, n}, want_i, 0);
        }
      }
    }
  });
}

// Along dim 0 of a [40, 2500] tensor the optimized scans take blocks of up to 2048 columns, as
// many as the threads allow (Note [Wide blocks along dim 0]): 1 thread 1248 + 1248 + 4, 3 threads
// six of 416 + 4. Expected values column by column here: products in double rounded once, and
// running extremes by ATen's rule (NaN and ties take over), float16 values returned as given.
TEST(Scan, WideBlocksAlongDim0) {
  constexpr int64_t n = 40, w = 2500;
  std::vector<double> x(n * w);
  for (int64_t k = 0; k < n; ++k) {
    for (int64_t j = 0; j < w; ++j) {
      const int64_t r = (k * 7 + j * 13) % 11;
      x[k * w + j] = j % 97 == 5 && k == 17 ? kNaN : 1 + static_cast<double>(r - 5) / 8;
    }
  }
  std::vector<double> prod(n * w), vmax(n * w), imax(n * w), vmin(n * w), imin(n * w);
  for (int64_t j = 0; j < w; ++j) {
    double p = 1, hi = x[j], lo = x[j];
    int64_t at_hi = 0, at_lo = 0;
    for (int64_t k = 0; k < n; ++k) {
      const double a = x[k * w + j];
      p *= a;
      prod[k * w + j] = static_cast<float>(p);
      if (std::isnan(a) || (!std::isnan(hi) && a >= hi)) hi = a, at_hi = k;
      if (std::isnan(a) || (!std::isnan(lo) && a <= lo)) lo = a, at_lo = k;
      vmax[k * w + j] = hi, imax[k * w + j] = static_cast<double>(at_hi);
      vmin[k * w + j] = lo, imin[k * w + j] = static_cast<double>(at_lo);
    }
  }
  each_set([&] {
    for (int threads : {1, 3}) {
      const int before = ts::get_num_threads();
      ts::set_num_threads(threads);
      SCOPED_TRACE(std::to_string(threads) + " threads");
      EXPECT_TENSOR(ts::cumprod(make(kFloat, x, {n, w}), 0), kFloat, {n, w}, prod, 0);
      for (ts::ScalarType t : {kFloat, kHalf}) {
        auto [v1, i1] = ts::cummax(make(t, x, {n, w}), 0);
        EXPECT_TENSOR(v1, t, {n, w}, vmax, 0);
        EXPECT_TENSOR(i1, kLong, {n, w}, imax, 0);
        auto [v2, i2] = ts::cummin(make(t, x, {n, w}), 0);
        EXPECT_TENSOR(v2, t, {n, w}, vmin, 0);
        EXPECT_TENSOR(i2, kLong, {n, w}, imin, 0);
      }
      ts::set_num_threads(before);
    }
  });
}

TEST(Scan, Errors) {
  each_set([] {
    const Tensor x = make(kFloat, {1, 2, 3});
    EXPECT_ERROR(ts::cumprod(x, 1), "cumprod");
    EXPECT_ERROR(ts::cumprod(x, 0, ts::kBool), "'dtype'");
    EXPECT_ERROR(ts::logcumsumexp(make(kLong, {1, 2}), 0), "logcumsumexp");
    EXPECT_ERROR(ts::logcumsumexp(make(kLong, {1, 2}), 0), "'self'");
    EXPECT_ERROR(ts::logcumsumexp_out(ts::empty({0}, ts::kDouble), x, 0), "'out'");
    EXPECT_ERROR(ts::cummax(x, 2), "cummax");
    const Tensor values = make(kFloat, {9, 9, 9});
    EXPECT_ERROR(ts::cummin_out(values, ts::empty({0}, ts::kInt), x, 0), "'indices'");
    EXPECT_TENSOR(values, kFloat, {3}, {9, 9, 9}, 0);
  });
}

TEST(Scan, Gradients) {
  each_set([] {
    {
      // d/dx of x0 + x0 x1 + x0 x1 x2 at (2, 3, 4): (1 + 3 + 12, 2 + 8, 6).
      const Tensor x = make(kDouble, {2, 3, 4}).requires_grad_();
      ts::cumprod(x, 0).sum().backward();
      EXPECT_TENSOR(x.grad(), kDouble, {3}, {16, 10, 6}, 0);
    }
    {
      // Zeros at 1 and 3: the first zero gets 2 + 2 * 3 (the products through it with x1 = 1),
      // everything after it 0.
      const Tensor x = make(kDouble, {2, 0, 3, 0, 5}).requires_grad_();
      ts::cumprod(x, 0).sum().backward();
      EXPECT_TENSOR(x.grad(), kDouble, {5}, {1, 8, 0, 0, 0}, 0);
    }
    {
      // r = (0, log 2): d r0 / dx0 = 1, d r1 / dx_j = 1/2.
      const Tensor x = make(kDouble, {0, 0}).requires_grad_();
      ts::logcumsumexp(x, 0).sum().backward();
      EXPECT_TENSOR(x.grad(), kDouble, {2}, {1.5, 0.5}, 1e-15);
    }
    {
      const Tensor x = make(kDouble, {1, 3, 2}).requires_grad_();
      std::get<0>(ts::cummax(x, 0)).sum().backward();
      EXPECT_TENSOR(x.grad(), kDouble, {3}, {1, 2, 0}, 0);
    }
  });
}

TEST(Scan, Gradchecks) {
  using Op = std::function<Tensor(const Tensor&)>;
  const std::vector<std::pair<const char*, Op>> cases = {
      {"cumprod_d1", [](const Tensor& x) { return ts::cumprod(x, 1); }},
      {"cumprod_d0", [](const Tensor& x) { return ts::cumprod(x, 0); }},
      {"logcumsumexp", [](const Tensor& x) { return ts::logcumsumexp(x, 1); }},
      {"cummax", [](const Tensor& x) { return std::get<0>(ts::cummax(x, 1)); }},
      {"cummin", [](const Tensor& x) { return std::get<0>(ts::cummin(x, 0)); }},
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
    // cumprod through zeros (first order: ATen's formula is not differentiated twice there).
    const Tensor z = ts::tensor({1.5, 0.0, -0.7, 0.0, 2.0, 0.4}, ts::kDouble).requires_grad_();
    ts::autograd_test::expect_gradchecks(
        [](const std::vector<Tensor>& v) -> std::vector<Tensor> { return {ts::cumprod(v[0], 0)}; },
        {z}, /*second=*/false);
  });
}

}  // namespace
