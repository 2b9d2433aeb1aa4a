// Convolution (issue 16): conv1d/2d/3d and conv_transpose1d/2d/3d against values worked by hand
// (stride, padding, "same" and "valid", dilation, groups, output_padding, bias, unbatched
// inputs), in the reference and the optimized sets; the errors naming op and argument;
// gradients by hand and by gradcheck + gradgradcheck; the optimized set against the reference on
// larger shapes and other layouts.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "autograd_util.h"
#include "cpu_sets_util.h"
#include "optimized_check.h"
#include "test_util.h"
#include "touchstone/touchstone.h"

namespace {

using namespace ts::testing;
using ts::Tensor;

Tensor ramp(int64_t n, ts::ScalarType t, ts::IntArrayRef shape, double start = 1) {
  std::vector<double> v;
  for (int64_t i = 0; i < n; ++i) v.push_back(start + static_cast<double>(i));
  return make(t, v, shape);
}

// As in ATen's C++ API, a literal 0 (or {0}) for padding is ambiguous between the int[] and the
// string overloads (0 is a null pointer constant); an int64_t variable is not.
constexpr int64_t kNoPadding = 0;
TEST(Conv, Conv1dByHand) {
  each_set([] {
    const Tensor x = ramp(5, kDouble, {1, 1, 5});  // 1 2 3 4 5
    const Tensor w = make(kDouble, {1, 2, 3}, {1, 1, 3});
    // y[j] = x[j] + 2 x[j + 1] + 3 x[j + 2].
    EXPECT_TENSOR(ts::conv1d(x, w), kDouble, {1, 1, 3}, {14, 20, 26});
    // Padding 1: zeros at both ends.
    EXPECT_TENSOR(ts::conv1d(x, w, {}, 1, 1), kDouble, {1, 1, 5}, {8, 14, 20, 26, 14});
    EXPECT_TENSOR(ts::conv1d(x, w, {}, 2, 1), kDouble, {1, 1, 3}, {8, 20, 14});
    // Dilation 2: x[j] + 2 x[j + 2] + 3 x[j + 4].
    EXPECT_TENSOR(ts::conv1d(x, w, {}, 1, kNoPadding, 2), kDouble, {1, 1, 1}, {22});
    EXPECT_TENSOR(ts::conv1d(x, w, make(kDouble, {0.5}), 1, kNoPadding), kDouble, {1, 1, 3},
                  {14.5, 20.5, 26.5});
    // Unbatched (C, L) in, (C_out, L_out) out.
    EXPECT_TENSOR(ts::conv1d(ramp(5, kFloat, {1, 5}), make(kFloat, {1, 2, 3}, {1, 1, 3})), kFloat,
                  {1, 3}, {14, 20, 26});
  });
}

TEST(Conv, PaddingSameAndValid) {
  each_set([] {
    const Tensor x = ramp(5, kDouble, {1, 1, 5});
    EXPECT_TENSOR(ts::conv1d(x, make(kDouble, {1, 2, 3}, {1, 1, 3}), {}, 1, "same"), kDouble,
                  {1, 1, 5}, {8, 14, 20, 26, 14});
    // An even kernel pads the odd element on the right: y[j] = x[j] + x[j + 1], x[5] = 0.
    EXPECT_TENSOR(ts::conv1d(x, make(kDouble, {1, 1}, {1, 1, 2}), {}, 1, "same"), kDouble,
                  {1, 1, 5}, {3, 5, 7, 9, 5});
    // Dilation 3, kernel 2: total padding 3, 1 left and 2 right: y[j] = x[j - 1] + x[j + 2].
    EXPECT_TENSOR(ts::conv1d(x, make(kDouble, {1, 1}, {1, 1, 2}), {}, 1, "same", 3), kDouble,
                  {1, 1, 5}, {3, 5, 7, 3, 4});
    EXPECT_TENSOR(ts::conv1d(x, make(kDouble, {1, 2, 3}, {1, 1, 3}), {}, 1, "valid"), kDouble,
                  {1, 1, 3}, {14, 20, 26});
    // 2-D: a 2 x 2 box over a 3 x 3 ramp with "same" (pad right and bottom).
    const Tensor y = ts::conv2d(ramp(9, kDouble, {1, 1, 3, 3}), ts::ones({1, 1, 2, 2}, ts::kDouble),
                                {}, 1, "same");
    EXPECT_TENSOR(y, kDouble, {1, 1, 3, 3}, {12, 16, 9, 24, 28, 15, 15, 17, 9});
  });
}

TEST(Conv, Conv2dByHand) {
  each_set([] {
    for (ts::ScalarType t : {kFloat, kDouble, kBFloat16, kHalf}) {
      SCOPED_TRACE(ts::dtype_name(t));
      // x[i, j] = 4 i + j; a 2 x 2 box sums to 16 i + 4 j + 10.
      const Tensor x = ramp(16, t, {1, 1, 4, 4}, 0);
      const Tensor box = ts::ones({1, 1, 2, 2}, t);
      EXPECT_TENSOR(ts::conv2d(x, box), t, {1, 1, 3, 3}, {10, 14, 18, 26, 30, 34, 42, 46, 50});
      EXPECT_TENSOR(ts::conv2d(x, box, {}, 2), t, {1, 1, 2, 2}, {10, 18, 42, 50});
      // Per-dim stride (1, 3) and padding (0, 1): columns -1, 2 of each row pair.
      EXPECT_TENSOR(ts::conv2d(x, box, {}, {1, 3}, ts::IntArrayRef{0, 1}), t, {1, 1, 3, 2},
                    {4, 18, 12, 34, 20, 50});
    }
    // Channels: y[o] = sum_c w[o, c] x[c] + bias[o].
    const Tensor x2 = make(kDouble, {1, 2}, {1, 2, 1, 1});
    const Tensor w2 = make(kDouble, {1, 1, 1, -1, 2, 0}, {3, 2, 1, 1});
    EXPECT_TENSOR(ts::conv2d(x2, w2, make(kDouble, {0.5, 0, -1})), kDouble, {1, 3, 1, 1},
                  {3.5, -1, 1});
    // Groups 2: channel 0 (ones) by 3, channel 1 (twos) by 5.
    const Tensor xg = ts::cat({ts::ones({1, 1, 2, 2}, ts::kDouble),
                               ts::full({1, 1, 2, 2}, 2.0, ts::TensorOptions(ts::kDouble))},
                              1);
    EXPECT_TENSOR(ts::conv2d(xg, make(kDouble, {3, 5}, {2, 1, 1, 1}), {}, 1, kNoPadding, 1, 2),
                  kDouble, {1, 2, 2, 2}, {3, 3, 3, 3, 10, 10, 10, 10});
  });
}

TEST(Conv, Conv3dByHand) {
  each_set([] {
    const Tensor x = ts::ones({1, 1, 3, 3, 3}, ts::kDouble);
    const Tensor w = ts::ones({1, 1, 2, 2, 2}, ts::kDouble);
    EXPECT_TENSOR(ts::conv3d(x, w), kDouble, {1, 1, 2, 2, 2}, std::vector<double>(8, 8.0));
    // Padding 1: a corner window holds one element, an edge two, a face four, the inside 8.
    const Tensor y = ts::conv3d(x, w, {}, 1, 1);
    ASSERT_EQ(y.sizes(), (ts::IntArrayRef{1, 1, 4, 4, 4}));
    const std::vector<double> v = values(y);
    EXPECT_EQ(v[0], 1);           // [0, 0, 0]
    EXPECT_EQ(v[1], 2);           // [0, 0, 1]
    EXPECT_EQ(v[5], 4);           // [0, 1, 1]
    EXPECT_EQ(v[16 + 4 + 1], 8);  // [1, 1, 1]
    EXPECT_EQ(v[63], 1);          // [3, 3, 3]
    // Unbatched (C, D, H, W).
    EXPECT_TENSOR(ts::conv3d(ts::ones({1, 2, 2, 2}, ts::kFloat), ts::ones({2, 1, 2, 2, 2})), kFloat,
                  {2, 1, 1, 1}, {8, 8});
  });
}

TEST(Conv, ConvTransposeByHand) {
  each_set([] {
    const Tensor x = make(kDouble, {1, 2}, {1, 1, 2});
    const Tensor w = make(kDouble, {1, 10, 100}, {1, 1, 3});
    // y[i] = sum_j x[j] w[i - j stride].
    EXPECT_TENSOR(ts::conv_transpose1d(x, w), kDouble, {1, 1, 4}, {1, 12, 120, 200});
    EXPECT_TENSOR(ts::conv_transpose1d(x, w, {}, 2), kDouble, {1, 1, 5}, {1, 10, 102, 20, 200});
    EXPECT_TENSOR(ts::conv_transpose1d(x, w, {}, 2, 1), kDouble, {1, 1, 3}, {10, 102, 20});
    // output_padding adds rows at the end (zeros here).
    EXPECT_TENSOR(ts::conv_transpose1d(x, w, {}, 2, 0, 1), kDouble, {1, 1, 6},
                  {1, 10, 102, 20, 200, 0});
    EXPECT_TENSOR(ts::conv_transpose1d(x, w, {}, 2, 1, 1), kDouble, {1, 1, 4}, {10, 102, 20, 200});
    // Dilation 2: taps at i = j + 0, 2, 4.
    EXPECT_TENSOR(ts::conv_transpose1d(x, w, {}, 1, 0, 0, 1, 2), kDouble, {1, 1, 6},
                  {1, 2, 10, 20, 100, 200});
    EXPECT_TENSOR(ts::conv_transpose1d(x, w, make(kDouble, {-1})), kDouble, {1, 1, 4},
                  {0, 11, 119, 199});
    // Channels: y[o] = sum_c x[c] w[c, o].
    const Tensor x2 = make(kDouble, {1, 2}, {1, 2, 1, 1});
    EXPECT_TENSOR(ts::conv_transpose2d(x2, make(kDouble, {1, 2, 3, 10, 20, 30}, {2, 3, 1, 1})),
                  kDouble, {1, 3, 1, 1}, {21, 42, 63});
    // Groups 2: each input channel spreads over its own kernel.
    const Tensor wg = make(kDouble, {1, 1, 1, 1, 1, 2, 3, 4}, {2, 1, 2, 2});
    EXPECT_TENSOR(ts::conv_transpose2d(x2, wg, {}, 1, 0, 0, 2), kDouble, {1, 2, 2, 2},
                  {1, 1, 1, 1, 2, 4, 6, 8});
    // Unbatched, 3-D.
    EXPECT_TENSOR(
        ts::conv_transpose3d(ts::ones({1, 1, 1, 1}, ts::kFloat), ts::ones({1, 1, 2, 2, 2})), kFloat,
        {1, 2, 2, 2}, std::vector<double>(8, 1.0));
  });
}

TEST(Conv, EmptyAndZeroSized) {
  each_set([] {
    // An empty batch gives an empty result; no input channels leave the bias.
    EXPECT_EQ(ts::conv2d(ts::zeros({0, 3, 5, 5}), ts::ones({4, 3, 3, 3})).sizes(),
              (ts::IntArrayRef{0, 4, 3, 3}));
    EXPECT_TENSOR(ts::conv1d(ts::zeros({1, 0, 3}), ts::ones({2, 0, 2}), make(kFloat, {1, -2})),
                  kFloat, {1, 2, 2}, {1, 1, -2, -2});
  });
}

TEST(Conv, NaNAndInfPropagate) {
  each_set([] {
    const Tensor x = make(kFloat, {1, kNaN, 3, kInf}, {1, 1, 4});
    EXPECT_TENSOR(ts::conv1d(x, make(kFloat, {1, 1}, {1, 1, 2})), kFloat, {1, 1, 3},
                  {kNaN, kNaN, kInf});
  });
}

TEST(Conv, Errors) {
  const Tensor x = ts::zeros({1, 3, 5, 5}), w = ts::zeros({4, 3, 3, 3});
  EXPECT_ERROR(ts::conv2d(ts::zeros({3, 5}), w),
               "conv2d: Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of "
               "size: [3, 5]");
  EXPECT_ERROR(ts::conv2d(ts::zeros({1, 2, 5, 5}), w),
               "expected input[1, 2, 5, 5] to have 3 channels, but got 2 channels instead");
  EXPECT_ERROR(ts::conv2d(x, w, {}, 0), "non-positive stride is not supported");
  EXPECT_ERROR(ts::conv2d(x, w, {}, 1, -1), "negative padding is not supported");
  EXPECT_ERROR(ts::conv2d(x, w, {}, 1, kNoPadding, 0), "dilation should be greater than zero");
  EXPECT_ERROR(ts::conv2d(x, w, {}, 1, kNoPadding, 1, 0), "non-positive groups is not supported");
  EXPECT_ERROR(ts::conv2d(x, w, {}, 1, kNoPadding, 1, 3),
               "Given groups=3, expected weight to be divisible by 3 at dimension 0");
  EXPECT_ERROR(ts::conv2d(x, w, ts::zeros({3})),
               "expected bias to be 1-dimensional with 4 elements, but got bias of size [3]");
  EXPECT_ERROR(ts::conv2d(x, w.to(ts::kDouble)),
               "Input type (float32) and weight type (float64) should be the same");
  EXPECT_ERROR(ts::conv2d(x.to(ts::kLong), w.to(ts::kLong)), "int64");
  EXPECT_ERROR(ts::conv2d(x, w, {}, {1, 1, 1}),
               "expected stride to be a single integer value or a list of 2 values");
  EXPECT_ERROR(ts::conv2d(ts::zeros({1, 3, 2, 2}), w),
               "Kernel size can't be greater than actual "
               "input size");
  EXPECT_ERROR(ts::conv2d(x, w, {}, 1, "full"), "Invalid padding string: 'full'");
  EXPECT_ERROR(ts::conv2d(x, w, {}, 2, "same"),
               "padding='same' is not supported for strided convolutions");
  EXPECT_ERROR(ts::conv_transpose2d(x, ts::zeros({3, 4, 3, 3}), {}, 1, 0, 1),
               "output padding must be smaller than either stride or dilation");
  EXPECT_ERROR(ts::conv_transpose2d(ts::zeros({1, 2, 5, 5}), ts::zeros({3, 4, 3, 3})),
               "Given transposed=1, weight of size [3, 4, 3, 3], expected input[1, 2, 5, 5] to "
               "have 3 channels");
  EXPECT_ERROR(ts::conv_transpose1d(ts::zeros({1, 1, 1}), ts::zeros({1, 1, 1}), {}, 1, 1),
               "Output size is too small");
  EXPECT_ERROR(ts::convolution(ts::zeros({3, 5}), ts::zeros({1, 3, 2}), {}, 1, 0, 1, false, 0, 1),
               "convolution: Expected 3-dimensional input for 3-dimensional weight");
}

// ---- gradients ----

TEST(ConvGrad, ByHand) {
  each_set([] {
    // sum(conv1d(x, [1, 2, 3])): x[i]'s gradient sums the taps that read it.
    const Tensor x = ramp(5, kDouble, {1, 1, 5}).requires_grad_();
    const Tensor w = make(kDouble, {1, 2, 3}, {1, 1, 3}).requires_grad_();
    const Tensor b = make(kDouble, {0.5}).requires_grad_();
    const Tensor y = ts::conv1d(x, w, b);
    EXPECT_EQ(y.grad_fn()->name(), "ConvolutionBackward0");
    y.sum().backward();
    EXPECT_TENSOR(x.grad(), kDouble, {1, 1, 5}, {1, 3, 6, 5, 3});
    // w[k]'s gradient sums the inputs it met: x[k] + x[k + 1] + x[k + 2].
    EXPECT_TENSOR(w.grad(), kDouble, {1, 1, 3}, {6, 9, 12});
    EXPECT_TENSOR(b.grad(), kDouble, {1}, {3});
    // Transposed, stride 2: y = [x0, 10 x0, 100 x0 + x1, ...]; each x meets every tap.
    const Tensor xt = make(kDouble, {1, 2}, {1, 1, 2}).requires_grad_();
    const Tensor wt = make(kDouble, {1, 10, 100}, {1, 1, 3}).requires_grad_();
    ts::conv_transpose1d(xt, wt, {}, 2).sum().backward();
    EXPECT_TENSOR(xt.grad(), kDouble, {1, 1, 2}, {111, 111});
    EXPECT_TENSOR(wt.grad(), kDouble, {1, 1, 3}, {3, 3, 3});
  });
}

using ts::autograd_test::expect_gradchecks;
using ts::autograd_test::randn_input;

TEST(ConvGrad, Gradchecks) {
  each_set([] {
    struct Case {
      const char* name;
      std::vector<int64_t> x, w;
      std::function<Tensor(const Tensor&, const Tensor&, const Tensor&)> f;
    };
    const std::vector<Case> cases = {
        {"conv1d stride2 pad1 dil2",
         {2, 2, 7},
         {3, 2, 3},
         [](const Tensor& x, const Tensor& w, const Tensor& b) {
           return ts::conv1d(x, w, b, 2, 1, 2);
         }},
        {"conv2d groups2 stride (1, 2) pad (1, 0)",
         {2, 4, 5, 5},
         {4, 2, 3, 2},
         [](const Tensor& x, const Tensor& w, const Tensor& b) {
           return ts::conv2d(x, w, b, {1, 2}, {1, 0}, 1, 2);
         }},
        {"conv2d same dilation (2, 1)",
         {1, 2, 5, 4},
         {2, 2, 2, 2},
         [](const Tensor& x, const Tensor& w, const Tensor& b) {
           return ts::conv2d(x, w, b, 1, "same", {2, 1});
         }},
        {"conv2d stride 3 leaves rows unread",
         {1, 1, 6, 6},
         {2, 1, 2, 2},
         [](const Tensor& x, const Tensor& w, const Tensor& b) { return ts::conv2d(x, w, b, 3); }},
        {"conv3d",
         {1, 2, 3, 4, 3},
         {2, 1, 2, 2, 2},
         [](const Tensor& x, const Tensor& w, const Tensor& b) {
           return ts::conv3d(x, w, b, 1, {1, 0, 1}, 1, 2);
         }},
        {"conv_transpose1d outpad",
         {2, 2, 4},
         {2, 3, 3},
         [](const Tensor& x, const Tensor& w, const Tensor& b) {
           return ts::conv_transpose1d(x, w, b, 2, 1, 1);
         }},
        {"conv_transpose2d groups dilation outpad",
         {1, 4, 3, 3},
         {4, 1, 2, 2},
         [](const Tensor& x, const Tensor& w, const Tensor& b) {
           return ts::conv_transpose2d(x, w, b, {2, 1}, 0, {1, 2}, 2, {1, 3});
         }},
        {"conv_transpose3d",
         {1, 2, 2, 2, 2},
         {2, 1, 2, 2, 2},
         [](const Tensor& x, const Tensor& w, const Tensor& b) {
           return ts::conv_transpose3d(x, w, b, 2);
         }},
    };
    uint64_t seed = 100;
    for (const Case& c : cases) {
      SCOPED_TRACE(c.name);
      const Tensor x = randn_input(c.x, ++seed);
      const Tensor w = randn_input(c.w, ++seed);
      const Tensor y0 = c.f(x.detach(), w.detach(), {});
      const Tensor b = randn_input({y0.size(1)}, ++seed);
      expect_gradchecks(
          [&c](const std::vector<Tensor>& in) -> std::vector<Tensor> {
            return {c.f(in[0], in[1], in[2])};
          },
          {x, w, b});
    }
  });
}

// ---- the optimized set against the reference ----

TEST(ConvOptimized, MatchesReference) {
  for (ts::ScalarType t : {kFloat, kDouble, kBFloat16, kHalf}) {
    const std::string dt = name(t);
    const Tensor x = sample({3, 6, 9, 8}, t, -2, 2, 1);
    const Tensor w = sample({8, 3, 3, 2}, t, -1, 1, 2);
    const Tensor b = sample({8}, t, -1, 1, 3);
    expect_matches_reference(
        [&] {
          return ts::conv2d(x, w, b, {2, 1}, {1, 0}, {1, 2}, 2);
        },
        "grouped " + dt);
    const Tensor w1 = sample({5, 6, 1, 1}, t, -1, 1, 4);
    expect_matches_reference([&] { return ts::conv2d(x, w1); }, "1x1 " + dt);
    // Strided layouts: a channels-last input, a transposed weight.
    const Tensor xl = x.permute({0, 2, 3, 1}).contiguous().permute({0, 3, 1, 2});
    expect_matches_reference([&] { return ts::conv2d(xl, w, b, 1, 1, 1, 2); },
                             "channels last " + dt);
    const Tensor wt = sample({6, 4, 3, 3}, t, -1, 1, 5);
    expect_matches_reference([&] { return ts::conv_transpose2d(x, wt, {}, 2, 1, 1, 2); },
                             "transposed " + dt);
    const Tensor wd = sample({4, 6, 3}, t, -1, 1, 6);
    expect_matches_reference(
        [&] {
          return ts::conv1d(x.reshape({3, 6, 72}), wd, {}, 3, 2, 4);
        },
        "1-d " + dt);
    expect_matches_reference(
        [&] {
          return ts::conv3d(x.reshape({3, 6, 3, 3, 8}), sample({2, 6, 2, 2, 3}, t),
                            b.narrow(0, 0, 2), 1, {1, 0, 1});
        },
        "3-d " + dt);
  }
  // A single image (its output rows over threads) and a batch larger than the thread count.
  // float32 sums 144 products (|x| <= 4, |w| <= 1); the SSE4 and scalar targets have no FMA, so
  // each product rounds too: up to 144 * 4 * 2^-24 = 3.4e-5 from the reference (1.1e-5 seen).
  for_each_thread_count({1, 2, 3}, [](int) {
    const Tensor x = sample({5, 16, 12, 12}, kFloat);
    const Tensor w = sample({32, 16, 3, 3}, kFloat, -1, 1, 2);
    expect_matches_reference([&] { return ts::conv2d(x, w, {}, 1, 1); }, "batch 5", -1, 5e-5);
    expect_matches_reference([&] { return ts::conv2d(x.narrow(0, 0, 1), w, {}, 2, 1); }, "batch 1",
                             -1, 5e-5);
  });
}

// Note [Direct convolution]: output channel blocks of one and two vectors and a partial one
// (3, 17, 40 channels), rows whose tiles are 4 to 24 positions wide (5, 13, 30), strides 1 and
// 2 along the last dim, and 3 (not direct: the implicit im2col of Note [Implicit im2col]),
// dilation, groups, 1-d and 3-d; on 1 and 2 threads. 36 products a sum, |x| <= 4, |w| <= 1:
// at most 36 * 4 * 2^-24 = 8.6e-6 apart without FMA.
TEST(ConvOptimized, DirectTilesAndImplicitIm2col) {
  for_each_thread_count({1, 2}, [](int threads) {
    for (int64_t c_out : {3, 17, 40}) {
      const Tensor w = sample({c_out, 4, 3, 3}, kFloat, -1, 1, 2);
      const Tensor b = sample({c_out}, kFloat, -1, 1, 3);
      for (int64_t width : {5, 13, 30}) {
        const Tensor x = sample({2, 4, 6, width}, kFloat, -4, 4, 4);
        for (int64_t s : {1, 2, 3}) {
          const std::string what = std::to_string(threads) + " threads, " + std::to_string(c_out) +
                                   " channels, width " + std::to_string(width) + ", stride " +
                                   std::to_string(s);
          expect_matches_reference([&] { return ts::conv2d(x, w, b, {1, s}, 1); }, what, -1, 2e-5);
          expect_matches_reference(
              [&] {
                return ts::conv2d(x, w, {}, {2, s}, std::vector<int64_t>{0, 2}, {1, 2});
              },
              what + ", dilated", -1, 2e-5);
        }
      }
    }
    const Tensor x = sample({3, 6, 5, 9}, kFloat, -4, 4, 5);
    expect_matches_reference(
        [&] {
          return ts::conv2d(x, sample({9, 2, 3, 3}, kFloat, -1, 1, 6), {}, 1, 1, 1, 3);
        },
        "groups", -1, 2e-5);
    expect_matches_reference(
        [&] {
          return ts::conv1d(x.reshape({3, 6, 45}), sample({20, 6, 5}, kFloat, -1, 1, 7), {}, 2, 2);
        },
        "1-d", -1, 5e-5);
    expect_matches_reference(
        [&] {
          return ts::conv3d(x.reshape({3, 2, 3, 5, 9}), sample({16, 2, 2, 3, 3}, kFloat, -1, 1, 8),
                            {}, 1, 1);
        },
        "3-d", -1, 5e-5);
  });
}

// Images whose im2col columns span several blocks (Note [Blocked im2col]), the last one partial.
// float32 sums 576 products (|x| <= 2, |w| <= 1) in GEMM order: about sqrt(576) 2^-24 288 =
// 4e-4 apart from the reference's rounded double sum; 2e-4 absolute.
TEST(ConvOptimized, BlockedIm2colMatchesReference) {
  for_each_thread_count({1, 2}, [](int) {
    const Tensor x = sample({3, 64, 40, 37}, kFloat, -2, 2, 1);
    const Tensor w = sample({8, 64, 3, 3}, kFloat, -1, 1, 2);
    const Tensor b = sample({8}, kFloat, -1, 1, 3);
    expect_matches_reference([&] { return ts::conv2d(x, w, b, 1, 1); }, "3x3 pad 1", 0, 2e-4);
    expect_matches_reference(
        [&] {
          return ts::conv2d(x, w, {}, 2, std::vector<int64_t>{0, 2}, {1, 2});
        },
        "strided, dilated", 0, 2e-4);
    expect_matches_reference([&] { return ts::conv2d(x.to(kDouble), w.to(kDouble), {}, 1, 1, 1); },
                             "float64");
  });
}

// Kernels larger than their output (Note [Kernel-major convolution]): the shapes a weight
// gradient gives, with padding, stride, dilation, groups and chunks of images over threads.
TEST(ConvOptimized, KernelMajorMatchesReference) {
  for_each_thread_count({1, 2, 3}, [](int) {
    for (ts::ScalarType t : {kFloat, kDouble, kBFloat16}) {
      const std::string dt = name(t);
      const Tensor x = sample({7, 4, 12, 11}, t, -2, 2, 1);
      const Tensor b = sample({6}, t, -1, 1, 3);
      // An output sums up to 528 products (|x| <= 2) in float32, in the order of OpenBLAS's
      // kernel for the CPU: 1.2e-5 to 2.5e-5 off on an AMD EPYC VM with AVX-512, a few float32 ULPs
      // of the terms' magnitude, past assert_close's atol 1e-5. float32 gets atol 1e-4 here.
      const double atol = t == kFloat ? 1e-4 : -1;
      expect_matches_reference(
          [&] {
            return ts::conv2d(x, sample({6, 4, 12, 11}, t), b);
          },
          "kernel = input, 1x1 output " + dt, -1, atol);
      expect_matches_reference(
          [&] {
            return ts::conv2d(x, sample({6, 2, 10, 5}, t), b, 1, {2, 1}, {1, 2}, 2);
          },
          "grouped, padded, dilated " + dt, -1, atol);
      expect_matches_reference(
          [&] {
            return ts::conv2d(x, sample({6, 4, 5, 6}, t), {}, {2, 3}, 1, {2, 1});
          },
          "strided and dilated " + dt, -1, atol);
      expect_matches_reference(
          [&] {
            return ts::conv1d(x.reshape({7, 4, 132}), sample({3, 4, 120}, t), {}, 2, 5);
          },
          "1-d " + dt, -1, atol);
      expect_matches_reference(
          [&] {
            return ts::conv3d(x.reshape({7, 4, 3, 4, 11}), sample({2, 4, 3, 3, 9}, t), {}, 1, 1);
          },
          "3-d " + dt, -1, atol);
    }
  });
}

// Note [Winograd convolution] (conv_winograd.cpp): 3x3 stride-1 convolutions of 16 channels and
// more, against the reference: outputs whose sides are not multiples of the 2x2 tile (5, 13, 31),
// paddings 0 to 2, channel counts that leave a partial register tile (17 and 20 -> 20 rows), a
// chunk of tiles spanning rows and images, bias, on 1 to 3 threads and every SIMD target. The
// bound is on the error relative to sum |x| |w| per output, which the direct sum's error grows
// with: measured 3.3 u (u = 2^-24) direct, 5.5 u Winograd; 10 u fails a wrong transform by far.
TEST(ConvOptimized, WinogradMatchesReference) {
  for_each_thread_count({1, 2, 3}, [](int threads) {
    struct Shape {
      int64_t n, c_in, c_out, h, w, pad;
    };
    for (const Shape& s : {Shape{2, 16, 16, 5, 13, 1}, Shape{3, 17, 20, 13, 31, 1},
                           Shape{1, 32, 24, 8, 8, 0}, Shape{2, 24, 17, 7, 9, 2}}) {
      const std::string what = std::to_string(threads) + " threads, " + std::to_string(s.c_in) +
                               " -> " + std::to_string(s.c_out) + ", " + std::to_string(s.h) + "x" +
                               std::to_string(s.w) + " pad " + std::to_string(s.pad);
      const Tensor x = sample({s.n, s.c_in, s.h, s.w}, kFloat, -2, 2, 1);
      const Tensor w = sample({s.c_out, s.c_in, 3, 3}, kFloat, -1, 1, 2);
      const Tensor b = sample({s.c_out}, kFloat, -1, 1, 3);
      Tensor want, scale;
      {
        ts::KernelSetGuard g("reference");
        want = ts::conv2d(x.to(kDouble), w.to(kDouble), b.to(kDouble), 1, s.pad);
        scale = ts::conv2d(x.abs().to(kDouble), w.abs().to(kDouble), b.abs().to(kDouble), 1, s.pad);
      }
      for_each_capability([&](const std::string& cap) {
        const Tensor got = ts::conv2d(x, w, b, 1, s.pad);
        ts::KernelSetGuard g("reference");
        const Tensor rel = got.to(kDouble).sub(want).abs().div(scale);
        EXPECT_LE(rel.max().item<double>(), 10 * std::ldexp(1.0, -24))
            << what << " [" << cap << "]";
      });
    }
  });
}

}  // namespace
