// Pooling (issue 16): max_pool1d/2d/3d (and _with_indices), avg_pool1d/2d/3d,
// adaptive_avg_pool2d and adaptive_max_pool2d against values worked by hand (stride, padding,
// dilation, ceil_mode at its boundaries, count_include_pad, divisor_override, unbatched inputs,
// NaN and -inf), in the reference and the optimized sets; the errors naming op and argument;
// gradients by hand and by gradcheck + gradgradcheck; the optimized set against the reference.
#include <gtest/gtest.h>

#include <functional>
#include <limits>
#include <tuple>
#include <vector>

#include "autograd_util.h"
#include "cpu_sets_util.h"
#include "optimized_check.h"
#include "test_util.h"
#include "touchstone/touchstone.h"

namespace {

using namespace ts::testing;
using ts::Tensor;

// 1 2 3 ... n in `shape`.
Tensor ramp(int64_t n, ts::ScalarType t, ts::IntArrayRef shape) {
  std::vector<double> v;
  for (int64_t i = 1; i <= n; ++i) v.push_back(static_cast<double>(i));
  return make(t, v, shape);
}

void expect_indices(const Tensor& t, ts::IntArrayRef shape, const std::vector<double>& want) {
  EXPECT_TENSOR(t, kLong, std::vector<int64_t>(shape.begin(), shape.end()), want);
}

constexpr double kInfNeg = -std::numeric_limits<double>::infinity();

TEST(Pool, MaxPool2dByHand) {
  each_set([] {
    //  1  2  3  4
    //  5  6  7  8
    //  9 10 11 12
    // 13 14 15 16
    const Tensor x = ramp(16, kFloat, {1, 1, 4, 4});
    auto [v, i] = ts::max_pool2d_with_indices(x, 2);
    EXPECT_TENSOR(v, kFloat, {1, 1, 2, 2}, {6, 8, 14, 16});
    expect_indices(i, {1, 1, 2, 2}, {5, 7, 13, 15});
    // 3x3, stride 2, padding 1: windows rows/cols [-1, 2) and [1, 4).
    auto [v2, i2] = ts::max_pool2d_with_indices(x, 3, 2, 1);
    EXPECT_TENSOR(v2, kFloat, {1, 1, 2, 2}, {6, 8, 14, 16});
    expect_indices(i2, {1, 1, 2, 2}, {5, 7, 13, 15});
    // 3x3, stride 2: one window; ceil_mode adds the half-outside one at rows/cols [2, 4).
    EXPECT_TENSOR(ts::max_pool2d(x, 3, 2), kFloat, {1, 1, 1, 1}, {11});
    auto [v3, i3] = ts::max_pool2d_with_indices(x, 3, 2, 0, 1, true);
    EXPECT_TENSOR(v3, kFloat, {1, 1, 2, 2}, {11, 12, 15, 16});
    expect_indices(i3, {1, 1, 2, 2}, {10, 11, 14, 15});
    // Dilation 2: rows and cols {0, 2}.
    auto [v4, i4] = ts::max_pool2d_with_indices(x, 2, 2, 0, 2);
    EXPECT_TENSOR(v4, kFloat, {1, 1, 1, 1}, {11});
    expect_indices(i4, {1, 1, 1, 1}, {10});
    // Per-dim arguments, unbatched (C, H, W): kernel (1, 4) takes each row's maximum.
    auto [v5, i5] = ts::max_pool2d_with_indices(ramp(16, kDouble, {1, 4, 4}), {1, 4});
    EXPECT_TENSOR(v5, kDouble, {1, 4, 1}, {4, 8, 12, 16});
    expect_indices(i5, {1, 4, 1}, {3, 7, 11, 15});
  });
}

TEST(Pool, MaxPool1dAnd3dByHand) {
  each_set([] {
    const Tensor x = make(kFloat, {1, 3, 2, 5, 4}, {1, 5});  // unbatched (C, L)
    auto [v, i] = ts::max_pool1d_with_indices(x, 2);
    EXPECT_TENSOR(v, kFloat, {1, 2}, {3, 5});
    expect_indices(i, {1, 2}, {1, 3});
    auto [vc, ic] = ts::max_pool1d_with_indices(x, 2, {}, 0, 1, true);
    EXPECT_TENSOR(vc, kFloat, {1, 3}, {3, 5, 4});
    expect_indices(ic, {1, 3}, {1, 3, 4});
    EXPECT_TENSOR(ts::max_pool1d(x, 3, 1, 1), kFloat, {1, 5}, {3, 3, 5, 5, 5});
    // ceil_mode's last window would start in the right padding: dropped (3 windows, not 4).
    EXPECT_EQ(ts::max_pool1d(x, 2, 2, 1, 1, true).sizes(), (ts::IntArrayRef{1, 3}));
    const Tensor y = ramp(16, kDouble, {2, 1, 2, 2, 2});
    auto [v3, i3] = ts::max_pool3d_with_indices(y, 2);
    EXPECT_TENSOR(v3, kDouble, {2, 1, 1, 1, 1}, {8, 16});
    expect_indices(i3, {2, 1, 1, 1, 1}, {7, 7});
    EXPECT_TENSOR(ts::max_pool3d(y, {2, 1, 2}), kDouble, {2, 1, 1, 2, 1}, {6, 8, 14, 16});
    // The kernel op: one kernel size per spatial dim.
    auto [vk, ik] = ts::max_pool(ramp(16, kFloat, {1, 4, 4}), {2, 2}, {2, 2}, 0, 1, false);
    EXPECT_TENSOR(vk, kFloat, {1, 2, 2}, {6, 8, 14, 16});
  });
}

TEST(Pool, MaxPoolNaNAndInf) {
  each_set([] {
    // NaN wins; of two NaNs the last (ATen's `val > max || isnan(val)`); a window of -inf gives
    // -inf at its first element; ties go to the first.
    const Tensor x =
        make(kFloat, {1, kNaN, 3, kNaN, kInfNeg, kInfNeg, kNaN, 2, kNaN, 2, 2, 0}, {1, 1, 12});
    auto [v, i] = ts::max_pool1d_with_indices(x, 2);
    EXPECT_TENSOR(v, kFloat, {1, 1, 6}, {kNaN, kNaN, kInfNeg, kNaN, kNaN, 2});
    expect_indices(i, {1, 1, 6}, {1, 3, 4, 6, 8, 10});
    auto [v3, i3] = ts::max_pool1d_with_indices(x, 3);
    EXPECT_TENSOR(v3, kFloat, {1, 1, 4}, {kNaN, kNaN, kNaN, 2});
    expect_indices(i3, {1, 1, 4}, {1, 3, 8, 9});
    auto [va, ia] = ts::adaptive_max_pool2d(x.view({1, 1, 12}), {1, 2});
    EXPECT_TENSOR(va, kFloat, {1, 1, 2}, {kNaN, kNaN});
    expect_indices(ia, {1, 1, 2}, {3, 8});
  });
}

TEST(Pool, AvgPoolByHand) {
  each_set([] {
    const Tensor x = ramp(16, kDouble, {1, 1, 4, 4});
    EXPECT_TENSOR(ts::avg_pool2d(x, 2), kDouble, {1, 1, 2, 2}, {3.5, 5.5, 11.5, 13.5});
    // 3x3, stride 2, padding 1: sums 14, 30, 57, 99 over 4, 6, 6, 9 input elements.
    EXPECT_TENSOR(ts::avg_pool2d(x, 3, 2, 1), kDouble, {1, 1, 2, 2},
                  {14.0 / 9, 30.0 / 9, 57.0 / 9, 11});
    EXPECT_TENSOR(ts::avg_pool2d(x, 3, 2, 1, false, false), kDouble, {1, 1, 2, 2},
                  {3.5, 5, 9.5, 11});
    EXPECT_TENSOR(ts::avg_pool2d(x, 2, {}, 0, false, true, 2), kDouble, {1, 1, 2, 2},
                  {7, 11, 23, 27});
    const Tensor r = ramp(5, kDouble, {1, 5});
    // ceil_mode: the last window [4, 6) ends past the input (and its padding 0): divisor 1.
    EXPECT_TENSOR(ts::avg_pool1d(r, 2, 2, 0, true), kDouble, {1, 3}, {1.5, 3.5, 5});
    // Padding 1, ceil_mode: windows [-1, 1), [1, 3), [3, 5); the first counts its pad or not.
    EXPECT_TENSOR(ts::avg_pool1d(r, 2, 2, 1, true), kDouble, {1, 3}, {0.5, 2.5, 4.5});
    EXPECT_TENSOR(ts::avg_pool1d(r, 2, 2, 1, true, false), kDouble, {1, 3}, {1, 2.5, 4.5});
    // Kernel 3, stride 2, ceil_mode on 4: the last window [2, 5) is cut at 4 = size + padding.
    EXPECT_TENSOR(ts::avg_pool1d(ramp(4, kFloat, {1, 4}), 3, 2, 0, true), kFloat, {1, 2}, {2, 3.5});
    EXPECT_TENSOR(ts::avg_pool3d(ramp(8, kFloat, {1, 2, 2, 2}), 2), kFloat, {1, 1, 1, 1}, {4.5});
    EXPECT_TENSOR(ts::avg_pool3d(ramp(8, kFloat, {1, 2, 2, 2}), 2, {}, 0, false, true, 4), kFloat,
                  {1, 1, 1, 1}, {9});
    EXPECT_TENSOR(ts::avg_pool(ramp(4, kFloat, {1, 4}), {2}, {2}, {0}, false, true, {}), kFloat,
                  {1, 2}, {1.5, 3.5});
  });
}

TEST(Pool, AdaptiveByHand) {
  each_set([] {
    const Tensor x = ramp(16, kFloat, {1, 1, 4, 4});
    EXPECT_TENSOR(ts::adaptive_avg_pool2d(x, {2, 2}), kFloat, {1, 1, 2, 2}, {3.5, 5.5, 11.5, 13.5});
    EXPECT_TENSOR(ts::adaptive_avg_pool2d(x, {1, 1}), kFloat, {1, 1, 1, 1}, {8.5});
    // 5 -> 3: windows [0, 2), [1, 4), [3, 5) (floor(i 5 / 3), ceil((i + 1) 5 / 3)).
    EXPECT_TENSOR(ts::adaptive_avg_pool2d(ramp(5, kDouble, {1, 1, 5}), {1, 3}), kDouble, {1, 1, 3},
                  {1.5, 3, 4.5});
    // 2 -> 3: windows [0, 1), [0, 2), [1, 2).
    EXPECT_TENSOR(ts::adaptive_avg_pool2d(make(kDouble, {1, 3}, {1, 1, 2}), {1, 3}), kDouble,
                  {1, 1, 3}, {1, 2, 3});
    auto [v, i] = ts::adaptive_max_pool2d(make(kFloat, {1, 5, 2, 4, 3}, {1, 1, 5}), {1, 3});
    EXPECT_TENSOR(v, kFloat, {1, 1, 3}, {5, 5, 4});
    expect_indices(i, {1, 1, 3}, {1, 1, 3});
    auto [v2, i2] = ts::adaptive_max_pool2d(x, {2, 1});
    EXPECT_TENSOR(v2, kFloat, {1, 1, 2, 1}, {8, 16});
    expect_indices(i2, {1, 1, 2, 1}, {7, 15});
  });
}

TEST(Pool, EmptyBatch) {
  each_set([] {
    EXPECT_EQ(ts::max_pool2d(ts::zeros({0, 3, 5, 5}), 2).sizes(), (ts::IntArrayRef{0, 3, 2, 2}));
    EXPECT_EQ(ts::avg_pool1d(ts::zeros({0, 3, 5}), 2).sizes(), (ts::IntArrayRef{0, 3, 2}));
    EXPECT_EQ(ts::adaptive_avg_pool2d(ts::zeros({0, 3, 5, 5}), {2, 3}).sizes(),
              (ts::IntArrayRef{0, 3, 2, 3}));
  });
}

TEST(Pool, Errors) {
  const Tensor x = ts::zeros({1, 3, 5, 5});
  EXPECT_ERROR(ts::max_pool2d(ts::zeros({3, 5}), 2),
               "max_pool2d: Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size "
               "for input, but got input of size [3, 5]");
  EXPECT_ERROR(ts::max_pool2d(x, {2, 2, 2}),
               "max_pool2d: kernel_size must either be a single int, or a tuple of 2 ints");
  EXPECT_ERROR(ts::max_pool2d(x, 2, {1, 1, 1}),
               "max_pool2d: stride must either be omitted, a single int, or a tuple of 2 ints");
  EXPECT_ERROR(ts::max_pool2d(x, 0), "kernel size should be greater than zero");
  EXPECT_ERROR(ts::max_pool2d(x, 2, 0), "stride should be greater than zero");
  EXPECT_ERROR(ts::max_pool2d(x, 2, 1, 0, 0), "dilation should be greater than zero");
  EXPECT_ERROR(ts::max_pool2d(x, 3, 1, 2),
               "pad should be smaller than or equal to half of kernel size");
  EXPECT_ERROR(ts::max_pool2d(x, 2, 1, -1), "pad must be non-negative");
  EXPECT_ERROR(ts::max_pool2d(x, 6), "Output size is too small");
  EXPECT_ERROR(ts::max_pool2d(x.to(ts::kLong), 2), "int64");
  EXPECT_ERROR(ts::max_pool2d(ts::zeros({2, 0, 5}), 2), "non-zero size for non-batch dimensions");
  EXPECT_ERROR(ts::avg_pool2d(x, 2, {}, 0, false, true, 0), "divisor must be not zero");
  EXPECT_ERROR(ts::adaptive_avg_pool2d(x, {1, 1, 1}), "output_size must be 2");
  EXPECT_ERROR(ts::adaptive_max_pool2d(x, {-1, 2}),
               "elements of output_size must be greater than or equal to 0");
  EXPECT_ERROR(ts::max_pool(x, {}, {}, 0, 1, false), "max_pool: kernel_size must have 1 to 3");
}

// ---- gradients ----

TEST(PoolGrad, ByHand) {
  each_set([] {
    const Tensor x = make(kDouble, {1, 3, 2, 5, 4}, {1, 1, 5}).requires_grad_();
    const Tensor y = ts::max_pool1d(x, 3, 1, 1);  // 3 3 5 5 5: argmaxes 1 1 3 3 3
    EXPECT_EQ(y.grad_fn()->name(), "MaxPoolWithIndicesBackward0");
    y.sum().backward();
    EXPECT_TENSOR(x.grad(), kDouble, {1, 1, 5}, {0, 2, 0, 3, 0});
    const Tensor a = ramp(4, kDouble, {1, 4}).requires_grad_();
    ts::avg_pool1d(a, 2, 1).sum().backward();
    EXPECT_TENSOR(a.grad(), kDouble, {1, 4}, {0.5, 1, 1, 0.5});
    // Padding 1, ceil_mode: divisors 2 (or 1 for [-1, 1) without the pad), 2, 2.
    const Tensor b = ramp(5, kDouble, {1, 5}).requires_grad_();
    ts::avg_pool1d(b, 2, 2, 1, true, false).sum().backward();
    EXPECT_TENSOR(b.grad(), kDouble, {1, 5}, {1, 0.5, 0.5, 0.5, 0.5});
    const Tensor d = ramp(16, kDouble, {1, 4, 4}).requires_grad_();
    ts::avg_pool2d(d, 2, {}, 0, false, true, 2).sum().backward();
    EXPECT_TENSOR(d.grad(), kDouble, {1, 4, 4}, std::vector<double>(16, 0.5));
    // Adaptive 5 -> 3: windows [0, 2), [1, 4), [3, 5).
    const Tensor c = ramp(5, kDouble, {1, 1, 5}).requires_grad_();
    ts::adaptive_avg_pool2d(c, {1, 3}).sum().backward();
    EXPECT_TENSOR(c.grad(), kDouble, {1, 1, 5}, {0.5, 0.5 + 1.0 / 3, 1.0 / 3, 0.5 + 1.0 / 3, 0.5});
    const Tensor m = make(kDouble, {1, 5, 2, 4, 3}, {1, 1, 5}).requires_grad_();
    std::get<0>(ts::adaptive_max_pool2d(m, {1, 3})).sum().backward();
    EXPECT_TENSOR(m.grad(), kDouble, {1, 1, 5}, {0, 2, 0, 1, 0});
  });
}

using ts::autograd_test::expect_gradchecks;
using ts::autograd_test::randn_input;

TEST(PoolGrad, Gradchecks) {
  each_set([] {
    struct Case {
      const char* name;
      std::vector<int64_t> x;
      std::function<Tensor(const Tensor&)> f;
    };
    const std::vector<Case> cases = {
        {"max_pool1d dilation 2 pad 1",
         {2, 2, 9},
         [](const Tensor& x) { return ts::max_pool1d(x, 3, 2, 1, 2); }},
        {"max_pool2d 3x3 s2 p1 ceil",
         {1, 2, 6, 5},
         [](const Tensor& x) { return ts::max_pool2d(x, 3, 2, 1, 1, true); }},
        {"max_pool3d unbatched",
         {2, 3, 4, 3},
         [](const Tensor& x) {
           return ts::max_pool3d(x, {2, 2, 1});
         }},
        {"avg_pool1d ceil exclude pad",
         {2, 2, 7},
         [](const Tensor& x) { return ts::avg_pool1d(x, 3, 2, 1, true, false); }},
        {"avg_pool2d overlapping",
         {1, 2, 5, 6},
         [](const Tensor& x) {
           return ts::avg_pool2d(x, {3, 2}, {1, 2}, {1, 0});
         }},
        {"avg_pool2d divisor 3",
         {2, 5, 5},
         [](const Tensor& x) { return ts::avg_pool2d(x, 2, 1, 1, true, true, 3); }},
        {"avg_pool3d",
         {1, 1, 3, 4, 3},
         [](const Tensor& x) {
           return ts::avg_pool3d(x, 2, 1, {1, 0, 1}, false, false);
         }},
        {"adaptive_avg_pool2d 7x5 -> 3x4",
         {1, 2, 7, 5},
         [](const Tensor& x) {
           return ts::adaptive_avg_pool2d(x, {3, 4});
         }},
        {"adaptive_max_pool2d 6x5 -> 4x2",
         {2, 6, 5},
         [](const Tensor& x) {
           return std::get<0>(ts::adaptive_max_pool2d(x, {4, 2}));
         }},
    };
    uint64_t seed = 300;
    for (const Case& c : cases) {
      SCOPED_TRACE(c.name);
      expect_gradchecks(
          [&c](const std::vector<Tensor>& in) -> std::vector<Tensor> { return {c.f(in[0])}; },
          {randn_input(c.x, ++seed)});
    }
  });
}

// ---- the optimized set against the reference ----

// Note [Max pooling in lanes]: rows of 150 give several vectors, a tail that overlaps them and
// clipped windows at both ends; rows of 32 at stride 2 end in ever smaller vectors. By hand
// first: on a rising ramp 1..n every window's largest element is its last (position
// min(o s + (k - 1) d - p, n - 1)); on a falling one its first (max(o s - p, 0) rounded up to a
// tap); on a constant row the first tap too (ties).
TEST(PoolOptimized, MaxPoolInLanesByHand) {
  struct Cfg {
    int64_t n, k, s, p, d;
  };
  for (const Cfg c :
       {Cfg{150, 3, 2, 1, 1}, Cfg{150, 2, 2, 0, 1}, Cfg{150, 3, 1, 1, 1}, Cfg{150, 4, 3, 2, 1},
        Cfg{150, 3, 2, 1, 2}, Cfg{150, 5, 1, 2, 2}, Cfg{32, 2, 2, 0, 1}, Cfg{31, 3, 2, 0, 1}}) {
    const int64_t n = c.n;
    const int64_t out = (n + 2 * c.p - c.d * (c.k - 1) - 1) / c.s + 1;
    std::vector<double> up, down, flat(n, 7.0), up_v, up_i, down_v, down_i, flat_i;
    for (int64_t i = 0; i < n; ++i) {
      up.push_back(static_cast<double>(i + 1));
      down.push_back(static_cast<double>(n - i));
    }
    for (int64_t o = 0; o < out; ++o) {
      int64_t first = o * c.s - c.p, last = first + (c.k - 1) * c.d;
      while (first < 0) first += c.d;
      while (last > n - 1) last -= c.d;
      up_v.push_back(static_cast<double>(last + 1));
      up_i.push_back(static_cast<double>(last));
      down_v.push_back(static_cast<double>(n - first));
      down_i.push_back(static_cast<double>(first));
      flat_i.push_back(static_cast<double>(first));
    }
    const std::string what = "n" + std::to_string(n) + " k" + std::to_string(c.k) + " s" +
                             std::to_string(c.s) + " p" + std::to_string(c.p) + " d" +
                             std::to_string(c.d);
    for (ts::ScalarType t : {kFloat, kDouble}) {
      for_each_capability([&](const std::string&) {
        SCOPED_TRACE(what + " " + name(t));
        auto [uv, ui] = ts::max_pool1d_with_indices(make(t, up, {1, n}), c.k, c.s, c.p, c.d);
        EXPECT_TENSOR(uv, t, {1, out}, up_v);
        expect_indices(ui, {1, out}, up_i);
        auto [dv, di] = ts::max_pool1d_with_indices(make(t, down, {1, n}), c.k, c.s, c.p, c.d);
        EXPECT_TENSOR(dv, t, {1, out}, down_v);
        expect_indices(di, {1, out}, down_i);
        auto [fv, fi] = ts::max_pool1d_with_indices(make(t, flat, {1, n}), c.k, c.s, c.p, c.d);
        EXPECT_TENSOR(fv, t, {1, out}, std::vector<double>(static_cast<size_t>(out), 7.0));
        expect_indices(fi, {1, out}, flat_i);
      });
    }
  }
}

// The same paths against the reference on rows of few distinct values (ties everywhere), NaNs
// and -inf, over 2-D windows (the rows of the window box in order), 1 and 3 threads.
TEST(PoolOptimized, MaxPoolInLanesMatchesReference) {
  std::vector<double> v;
  for (int64_t i = 0; i < 2 * 3 * 9 * 150; ++i) {
    v.push_back(i % 97 == 5   ? kNaN
                : i % 89 == 3 ? kInfNeg
                              : static_cast<double>(i * 7919 % 13 % 5));
  }
  for (ts::ScalarType t : {kFloat, kDouble, kHalf}) {
    const Tensor x = make(t, v, {2, 3, 9, 150});
    constexpr int kPools = 8;
    Tensor want_v[kPools], want_i[kPools];
    const auto pools = [&](Tensor* vs, Tensor* is) {
      std::tie(vs[0], is[0]) = ts::max_pool2d_with_indices(x, 3, 2, 1);
      std::tie(vs[1], is[1]) = ts::max_pool2d_with_indices(x, {2, 3}, {1, 1}, {1, 1}, {1, 1}, true);
      std::tie(vs[2], is[2]) = ts::max_pool2d_with_indices(x, {3, 4}, {2, 3}, {1, 2}, {1, 1});
      std::tie(vs[3], is[3]) = ts::max_pool2d_with_indices(x, 3, 2, 1, {2, 2});
      // Adaptive windows evenly spaced (2 and 3 wide: pair loads, gathers) and not.
      std::tie(vs[4], is[4]) = ts::adaptive_max_pool2d(x, {3, 75});
      std::tie(vs[5], is[5]) = ts::adaptive_max_pool2d(x, {9, 50});
      std::tie(vs[6], is[6]) = ts::adaptive_max_pool2d(x, {4, 70});
      // 3-d, 2x2x2 stride 2 on rows of 30: vectors of 8, 4, 2 and 1 lanes.
      std::tie(vs[7], is[7]) = ts::max_pool3d_with_indices(x.reshape({2, 3, 9, 5, 30}), 2, 2);
    };
    {
      ts::KernelSetGuard g("reference");
      pools(want_v, want_i);
    }
    for_each_capability([&](const std::string& cap) {
      for_each_thread_count({1, 3}, [&](int threads) {
        Tensor got_v[kPools], got_i[kPools];
        pools(got_v, got_i);
        for (int c = 0; c < kPools; ++c) {
          const std::string what = "pool " + std::to_string(c) + " " + name(t) + " [" + cap +
                                   "] threads " + std::to_string(threads);
          expect_same_bits(got_v[c], want_v[c], what);
          expect_same_bits(got_i[c], want_i[c], what + " indices");
        }
      });
    });
  }
}

TEST(PoolOptimized, MatchesReference) {
  for (ts::ScalarType t : {kFloat, kDouble, kBFloat16, kHalf}) {
    const std::string dt = name(t);
    const Tensor x = sample({3, 5, 11, 10}, t, -2, 2, 1);
    const Tensor xl = x.permute({0, 2, 3, 1}).contiguous().permute({0, 3, 1, 2});
    for (const auto& [what, in] : {std::pair{"contiguous", x}, std::pair{"channels last", xl}}) {
      const Tensor v = in;
      const std::string w = std::string(what) + " " + dt;
      expect_matches_reference([&] { return ts::max_pool2d(v, 3, 2, 1, 1, true); }, "max " + w);
      expect_matches_reference(
          [&] { return std::get<1>(ts::max_pool2d_with_indices(v, 3, 2, 1, 2)); },
          "max indices " + w);
      expect_matches_reference([&] { return ts::avg_pool2d(v, 3, 2, 1, true, false); }, "avg " + w);
      expect_matches_reference(
          [&] {
            return ts::adaptive_avg_pool2d(v, {4, 3});
          },
          "adaptive avg " + w);
      expect_matches_reference(
          [&] {
            return std::get<1>(ts::adaptive_max_pool2d(v, {4, 3}));
          },
          "adaptive max indices " + w);
    }
    expect_matches_reference(
        [&] {
          return ts::max_pool1d(x.reshape({15, 110}), 4, 3, 2, 1, true);
        },
        "max 1-d " + dt);
    expect_matches_reference(
        [&] {
          return ts::avg_pool3d(x.reshape({3, 5, 11, 5, 2}), {3, 2, 2}, 1, 1);
        },
        "avg 3-d " + dt);
  }
  // Note [Pooling rows at once]: whole, evenly spaced windows of 1 to 4 along the last dim
  // (with padding or ceil_mode in the other dims only), a divisor_override; beside them windows
  // the path must leave alone: padded or clipped along the last dim.
  for (ts::ScalarType t : {kFloat, kDouble, kHalf}) {
    const std::string dt = name(t);
    const Tensor x = sample({2, 3, 7, 9, 12}, t, -2, 2, 7);
    expect_matches_reference([&] { return ts::avg_pool3d(x, 2, 2); }, "avg 2x2x2 " + dt);
    expect_matches_reference(
        [&] {
          return ts::avg_pool3d(x, {2, 3, 3}, {1, 2, 3}, {1, 1, 0});
        },
        "avg 2x3x3 strides 1,2,3 " + dt);
    expect_matches_reference(
        [&] {
          return ts::avg_pool3d(x, {3, 3, 4}, {2, 2, 4}, 0, true);
        },
        "avg ceil_mode in the outer dims " + dt);
    expect_matches_reference(
        [&] {
          return ts::avg_pool2d(x.flatten(0, 2), {3, 1}, {2, 1}, 0, false, true, 5);
        },
        "avg 3x1 divisor 5 " + dt);
    expect_matches_reference([&] { return ts::avg_pool3d(x, 3, 2, 1, false, false); },
                             "avg padded last dim " + dt);
    expect_matches_reference([&] { return ts::avg_pool3d(x, 2, 2, 0, true); },
                             "avg ceil_mode clipping the last dim " + dt);
  }
  // By hand: 2 x 2 windows of 0..15 as a 4 x 4 plane: means 2.5, 4.5, 10.5, 12.5.
  const Tensor plane = ts::arange(16, kFloat).reshape({1, 4, 4});
  const Tensor m = ts::avg_pool2d(plane, 2);
  EXPECT_EQ(m.flatten().data_ptr<float>()[0], 2.5f);
  EXPECT_EQ(m.flatten().data_ptr<float>()[1], 4.5f);
  EXPECT_EQ(m.flatten().data_ptr<float>()[2], 10.5f);
  EXPECT_EQ(m.flatten().data_ptr<float>()[3], 12.5f);
  for_each_thread_count({1, 2, 3}, [](int) {
    const Tensor x = sample({4, 16, 20, 20}, kFloat);
    expect_matches_reference([&] { return ts::max_pool2d(x, 3, 2, 1); }, "threads max");
    expect_matches_reference([&] { return ts::adaptive_avg_pool2d(x, {1, 1}); }, "threads avg");
  });
}

}  // namespace
