// Interpolation (issue 16): upsample_nearest1d/2d/3d, _upsample_nearest_exact1d/2d/3d,
// upsample_linear1d, upsample_bilinear2d, upsample_trilinear3d, upsample_bicubic2d, interpolate,
// grid_sampler (and its backward), grid_sample and affine_grid against values worked by hand
// (ATen's source-index rules, nearest's op math type, given scales, align_corners, the cubic
// weights, padding modes) and PyTorch's documented nn.Upsample examples, in the reference and the
// optimized sets; errors naming op and argument; gradients by hand and by gradcheck (+
// gradgradcheck for the upsampling ops); the optimized set against the reference.
#include <gtest/gtest.h>

#include <functional>
#include <string>
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

TEST(Interpolate, NearestByHand) {
  each_set([] {
    const Tensor x = make(kFloat, {1, 2, 3}, {1, 1, 3});
    // 3 -> 5: scale 3/5 (float), floor(i * 0.6) = 0 0 1 1 2.
    EXPECT_TENSOR(ts::upsample_nearest1d(x, {5}), kFloat, {1, 1, 5}, {1, 1, 2, 2, 3});
    // 3 -> 6: out == 2 in halves the index.
    EXPECT_TENSOR(ts::upsample_nearest1d(x, {6}), kFloat, {1, 1, 6}, {1, 1, 2, 2, 3, 3});
    // 3 -> 2: floor(i * 1.5) = 0 1.
    EXPECT_TENSOR(ts::upsample_nearest1d(x, {2}), kFloat, {1, 1, 2}, {1, 2});
    // A given scale replaces in / out: 3 -> 4 with scale 2 reads floor(i / 2) = 0 0 1 1.
    EXPECT_TENSOR(ts::upsample_nearest1d(x, {4}, 2.0), kFloat, {1, 1, 4}, {1, 1, 2, 2});
    // ... also when out == in (no copy, unlike UpSample.h's nearest_idx): floor(i * 2).
    EXPECT_TENSOR(ts::upsample_nearest1d(x, {3}, 0.5), kFloat, {1, 1, 3}, {1, 3, 3});
    // The index in the op math type: 31 -> 40 with scale 1.3 reads floor(39 * (1 / 1.3)), 30 in
    // float (float32) and 29 in double (float64: 29.999999999999996).
    const Tensor t31 = ts::arange(31, ts::kFloat).view({1, 1, 31});
    EXPECT_EQ(get(ts::upsample_nearest1d(t31, {40}, 1.3), 39), 30);
    EXPECT_EQ(get(ts::upsample_nearest1d(t31.to(kDouble), {40}, 1.3), 39), 29);
    // PyTorch's nn.Upsample(scale_factor=2, mode='nearest') example.
    const Tensor y = make(kDouble, {1, 2, 3, 4}, {1, 1, 2, 2});
    EXPECT_TENSOR(ts::upsample_nearest2d(y, {4, 4}), kDouble, {1, 1, 4, 4},
                  {1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4});
    EXPECT_TENSOR(ts::upsample_nearest3d(make(kFloat, {1, 2}, {1, 1, 2, 1, 1}), {3, 1, 2}), kFloat,
                  {1, 1, 3, 1, 2}, {1, 1, 1, 1, 2, 2});
  });
}

TEST(Interpolate, NearestExactByHand) {
  each_set([] {
    const Tensor x = make(kFloat, {1, 2, 3}, {1, 1, 3});
    // 3 -> 5: floor((i + 0.5) * 0.6) = 0 0 1 2 2 (pixel centers, unlike nearest's 0 0 1 1 2).
    EXPECT_TENSOR(ts::_upsample_nearest_exact1d(x, {5}), kFloat, {1, 1, 5}, {1, 1, 2, 3, 3});
    // 3 -> 2: floor(0.75) = 0, floor(2.25) = 2.
    EXPECT_TENSOR(ts::_upsample_nearest_exact1d(x, {2}), kFloat, {1, 1, 2}, {1, 3});
    EXPECT_TENSOR(ts::_upsample_nearest_exact2d(make(kDouble, {1, 2, 3, 4}, {1, 1, 2, 2}), {1, 3}),
                  kDouble, {1, 1, 1, 3}, {3, 4, 4});
    EXPECT_TENSOR(ts::_upsample_nearest_exact3d(make(kFloat, {1, 2, 3}, {1, 1, 1, 1, 3}), {1, 1, 2},
                                                std::nullopt, std::nullopt, 0.5),
                  kFloat, {1, 1, 1, 1, 2}, {2, 3});
  });
}

TEST(Interpolate, LinearByHand) {
  each_set([] {
    const Tensor x = make(kDouble, {1, 2, 4}, {1, 1, 3});
    // 3 -> 5 at pixel centers: source 0.6 (i + 0.5) - 0.5 = (0) 0.4 1 1.6 2.2; the last clamps.
    EXPECT_TENSOR_NEAR(ts::upsample_linear1d(x, {5}, false), kDouble, {1, 1, 5},
                       {1, 1.4, 2, 3.2, 4}, 1e-12);
    // align_corners: source i (3 - 1) / (5 - 1) = 0 0.5 1 1.5 2.
    EXPECT_TENSOR_NEAR(ts::upsample_linear1d(x, {5}, true), kDouble, {1, 1, 5}, {1, 1.5, 2, 3, 4},
                       1e-12);
    // A given scale 2: source 0.5 i - 0.25 = (0) 0.25 0.75 1.25 1.75.
    EXPECT_TENSOR_NEAR(ts::upsample_linear1d(x, {5}, false, 2.0), kDouble, {1, 1, 5},
                       {1, 1.25, 1.75, 2.5, 3.5}, 1e-12);
    // out == in copies, whatever the scale.
    EXPECT_TENSOR(ts::upsample_linear1d(x, {3}, false, 1.5), kDouble, {1, 1, 3}, {1, 2, 4});
    // align_corners to one output: scale 0, the first element.
    EXPECT_TENSOR(ts::upsample_linear1d(x, {1}, true), kDouble, {1, 1, 1}, {1});
    // PyTorch's nn.Upsample(scale_factor=2, mode='bilinear') examples, align_corners False / True.
    const Tensor y = make(kFloat, {1, 2, 3, 4}, {1, 1, 2, 2});
    EXPECT_TENSOR_NEAR(
        ts::upsample_bilinear2d(y, {4, 4}, false), kFloat, {1, 1, 4, 4},
        {1, 1.25, 1.75, 2, 1.5, 1.75, 2.25, 2.5, 2.5, 2.75, 3.25, 3.5, 3, 3.25, 3.75, 4}, 1e-6);
    const double t = 1.0 / 3;
    EXPECT_TENSOR_NEAR(ts::upsample_bilinear2d(y, {4, 4}, true), kFloat, {1, 1, 4, 4},
                       {1, 1 + t, 1 + 2 * t, 2, 1 + 2 * t, 2, 2 + t, 2 + 2 * t, 2 + t, 2 + 2 * t, 3,
                        3 + t, 3, 3 + t, 3 + 2 * t, 4},
                       1e-6);
    // Trilinear 2x2x2 -> 1x1x1 at pixel centers: the source (0.5, 0.5, 0.5), the mean.
    const Tensor z = make(kDouble, {1, 2, 3, 4, 5, 6, 7, 8}, {1, 1, 2, 2, 2});
    EXPECT_TENSOR_NEAR(ts::upsample_trilinear3d(z, {1, 1, 1}, false), kDouble, {1, 1, 1, 1, 1},
                       {4.5}, 1e-12);
  });
}

TEST(Interpolate, BicubicByHand) {
  each_set([] {
    // Width 4 -> 2 at pixel centers: sources 0.5 and 2.5, weights at distances 1.5, 0.5, 0.5,
    // 1.5: -0.09375, 0.59375, 0.59375, -0.09375 (A = -0.75); taps -1 .. 2 and 1 .. 4, clamped.
    const Tensor x = make(kDouble, {1, 2, 4, 8}, {1, 1, 1, 4});
    EXPECT_TENSOR_NEAR(ts::upsample_bicubic2d(x, {1, 2}, false), kDouble, {1, 1, 1, 2},
                       {1.3125, 6.1875}, 1e-12);
    // At integer sources the weights are 0 1 0 0: align_corners 4 -> 4 and 4 -> 7 hit the inputs.
    EXPECT_TENSOR_NEAR(ts::upsample_bicubic2d(x, {1, 4}, true), kDouble, {1, 1, 1, 4}, {1, 2, 4, 8},
                       1e-12);
    const Tensor y = ts::upsample_bicubic2d(x.to(kFloat), {1, 7}, true);
    EXPECT_NEAR(get(y, 0), 1, 1e-6);
    EXPECT_NEAR(get(y, 2), 2, 1e-6);
    EXPECT_NEAR(get(y, 6), 8, 1e-6);
    // Source 0.5 (align_corners 4 -> 7): taps -1 (clamped to 0), 0, 1, 2: 1.3125 as above.
    EXPECT_NEAR(get(y, 1), 1.3125, 1e-6);
  });
}

TEST(Interpolate, InterpolateByHand) {
  each_set([] {
    const Tensor y = make(kFloat, {1, 2, 3, 4}, {1, 1, 2, 2});
    EXPECT_TENSOR(ts::interpolate(y, {}, 2.0), kFloat, {1, 1, 4, 4},
                  {1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4});
    EXPECT_TENSOR_NEAR(
        ts::interpolate(y, {}, 2.0, "bilinear"), kFloat, {1, 1, 4, 4},
        {1, 1.25, 1.75, 2, 1.5, 1.75, 2.25, 2.5, 2.5, 2.75, 3.25, 3.5, 3, 3.25, 3.75, 4}, 1e-6);
    // One size for every dim; "area" is adaptive average pooling.
    EXPECT_EQ(ts::interpolate(y, 3, {}, "bicubic", true).sizes(), (ts::IntArrayRef{1, 1, 3, 3}));
    const Tensor r = make(kDouble, {1, 2, 3, 4}, {1, 1, 4});
    EXPECT_TENSOR(ts::interpolate(r, 2, {}, "area"), kDouble, {1, 1, 2}, {1.5, 3.5});
    EXPECT_TENSOR(ts::interpolate(r, {}, 0.5, "area"), kDouble, {1, 1, 2}, {1.5, 3.5});
    // scale_factor 1.5 on 3: output floor(4.5) = 4; the scale reaches the kernel unless
    // recompute_scale_factor: source (i + 0.5) / 1.5 - 0.5 against (i + 0.5) 0.75 - 0.5.
    // nearest-exact: floor((i + 0.5) / 1.5) = 0 1 1 2.
    const Tensor l = make(kDouble, {0, 3, 6}, {1, 1, 3});
    EXPECT_TENSOR_NEAR(ts::interpolate(l, {}, 1.5, "linear"), kDouble, {1, 1, 4},
                       {0, 1.5, 3.5, 5.5}, 1e-12);
    EXPECT_TENSOR_NEAR(ts::interpolate(l, {}, 1.5, "linear", std::nullopt, true), kDouble,
                       {1, 1, 4}, {0, 1.875, 4.125, 6}, 1e-12);
    EXPECT_TENSOR(ts::interpolate(l, {}, 1.5, "nearest-exact"), kDouble, {1, 1, 4}, {0, 3, 3, 6});
  });
}

TEST(Interpolate, AffineGridByHand) {
  each_set([] {
    const Tensor id = make(kDouble, {1, 0, 0, 0, 1, 0}, {1, 2, 3});
    // Pixel centers of a 2 x 2 image: +-0.5; corners: +-1. (x, y) per position, x along W.
    EXPECT_TENSOR_NEAR(ts::affine_grid(id, {1, 1, 2, 2}), kDouble, {1, 2, 2, 2},
                       {-0.5, -0.5, 0.5, -0.5, -0.5, 0.5, 0.5, 0.5}, 1e-12);
    EXPECT_TENSOR_NEAR(ts::affine_grid(id, {1, 1, 2, 2}, true), kDouble, {1, 2, 2, 2},
                       {-1, -1, 1, -1, -1, 1, 1, 1}, 1e-12);
    // x' = x + 0.25, y' = 2 y; one row: its y is 0.
    const Tensor th = make(kDouble, {1, 0, 0.25, 0, 2, 0}, {1, 2, 3});
    EXPECT_TENSOR_NEAR(ts::affine_grid(th, {1, 3, 1, 2}, true), kDouble, {1, 1, 2, 2},
                       {-0.75, 0, 1.25, 0}, 1e-12);
    // 3-d identity on 1 x 1 x 2: (x, y, z) = (+-0.5, 0, 0).
    const Tensor id3 = make(kDouble, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}, {1, 3, 4});
    EXPECT_TENSOR_NEAR(ts::affine_grid(id3, {1, 1, 1, 1, 2}), kDouble, {1, 1, 1, 2, 3},
                       {-0.5, 0, 0, 0.5, 0, 0}, 1e-12);
  });
}

TEST(GridSampler, ByHand) {
  each_set([] {
    const Tensor x = make(kDouble, {1, 2, 3, 4}, {1, 1, 2, 2});
    // (x, y) = (0, 0) is the center: the mean. (-1, -1) is the corner pixel's outer corner
    // (source -0.5): zeros reads a quarter of x[0][0], border x[0][0], reflection x[0][0].
    // (1, -1): source (1.5, -0.5), half of x[0][1] in x and half in y.
    const Tensor g = make(kDouble, {0, 0, -1, -1, 1, -1}, {1, 1, 3, 2});
    EXPECT_TENSOR_NEAR(ts::grid_sampler(x, g, 0, 0, false), kDouble, {1, 1, 1, 3}, {2.5, 0.25, 0.5},
                       1e-12);
    EXPECT_TENSOR_NEAR(ts::grid_sampler(x, g, 0, 1, false), kDouble, {1, 1, 1, 3}, {2.5, 1, 2},
                       1e-12);
    EXPECT_TENSOR_NEAR(ts::grid_sample(x, g, "bilinear", "reflection"), kDouble, {1, 1, 1, 3},
                       {2.5, 1, 2}, 1e-12);
    // align_corners: -1 and 1 are the corner pixels' centers.
    EXPECT_TENSOR_NEAR(ts::grid_sample(x, g, "bilinear", "zeros", true), kDouble, {1, 1, 1, 3},
                       {2.5, 1, 2}, 1e-12);
    // nearest, align_corners: (0.2, -0.2) is source (0.6, 0.4): x[0][1].
    EXPECT_TENSOR(
        ts::grid_sample(x, make(kDouble, {0.2, -0.2}, {1, 1, 1, 2}), "nearest", "zeros", true),
        kDouble, {1, 1, 1, 1}, {2});
    // bicubic along a row [1, 2, 4, 8] at source 0.5 (align_corners, x = -2/3): taps -1 .. 2
    // with weights -0.09375, 0.59375, 0.59375, -0.09375; tap -1 reads 0 (zeros) or x[0]
    // (border).
    const Tensor r = make(kDouble, {1, 2, 4, 8}, {1, 1, 1, 4});
    const Tensor gc = make(kDouble, {-2.0 / 3, 0}, {1, 1, 1, 2});
    EXPECT_TENSOR_NEAR(ts::grid_sampler(r, gc, 2, 0, true), kDouble, {1, 1, 1, 1}, {1.40625},
                       1e-12);
    EXPECT_TENSOR_NEAR(ts::grid_sampler(r, gc, 2, 1, true), kDouble, {1, 1, 1, 1}, {1.3125}, 1e-12);
    // 3-d: the center of a 2 x 2 x 2 cube is its mean.
    const Tensor c = make(kFloat, {1, 2, 3, 4, 5, 6, 7, 8}, {1, 1, 2, 2, 2});
    EXPECT_TENSOR_NEAR(ts::grid_sample(c, ts::zeros({1, 1, 1, 1, 3})), kFloat, {1, 1, 1, 1, 1},
                       {4.5}, 1e-6);
    // Gradients at the center, align_corners: d out / d source = (1, 2) (the x and y steps),
    // times d source / d grid = (2 - 1) / 2; each input gets a quarter.
    const Tensor xi = x.clone().requires_grad_();
    const Tensor gi = ts::zeros({1, 1, 1, 2}, ts::kDouble).requires_grad_();
    ts::grid_sample(xi, gi, "bilinear", "zeros", true).sum().backward();
    EXPECT_TENSOR_NEAR(xi.grad(), kDouble, {1, 1, 2, 2}, {0.25, 0.25, 0.25, 0.25}, 1e-12);
    EXPECT_TENSOR_NEAR(gi.grad(), kDouble, {1, 1, 1, 2}, {0.5, 1}, 1e-12);
    // nearest: the grid's gradient is zero (as ATen's).
    auto [gin, ggrid] =
        ts::grid_sampler_backward(ts::ones({1, 1, 1, 1}, ts::kDouble), x,
                                  make(kDouble, {0.2, -0.2}, {1, 1, 1, 2}), 1, 0, true);
    EXPECT_TENSOR(gin, kDouble, {1, 1, 2, 2}, {0, 1, 0, 0});
    EXPECT_TENSOR(ggrid, kDouble, {1, 1, 1, 2}, {0, 0});
  });
}

TEST(GridSampler, Errors) {
  const Tensor x = ts::zeros({1, 2, 3, 3});
  EXPECT_ERROR(ts::grid_sampler(x, ts::zeros({1, 2, 2, 3}), 0, 0, false),
               "grid_sampler: expected grid to have size 2 in last dimension");
  EXPECT_ERROR(ts::grid_sampler(x, ts::zeros({2, 2, 2, 2}), 0, 0, false),
               "grid_sampler: expected grid and input to have same batch size");
  EXPECT_ERROR(ts::grid_sampler(x, ts::zeros({1, 2, 2, 2}, ts::kDouble), 0, 0, false),
               "grid_sampler: expected input and grid to have the same dtype");
  EXPECT_ERROR(ts::grid_sampler(x, ts::zeros({1, 2, 2, 2}), 0, 3, false),
               "grid_sampler: padding_mode must be 0 (zeros), 1 (border) or 2 (reflection)");
  EXPECT_ERROR(
      ts::grid_sampler(ts::zeros({1, 1, 2, 2, 2}), ts::zeros({1, 1, 1, 1, 3}), 2, 0, false),
      "bicubic interpolation only supports 4D input (argument 'interpolation_mode')");
  EXPECT_ERROR(
      ts::grid_sampler(x.to(ts::kBFloat16), ts::zeros({1, 2, 2, 2}, ts::kBFloat16), 0, 0, false),
      "bfloat16");
  EXPECT_ERROR(ts::grid_sample(x, ts::zeros({1, 2, 2, 2}), "area"),
               "grid_sample: expected mode to be 'bilinear', 'nearest' or 'bicubic', but got: "
               "'area' (argument 'mode')");
  EXPECT_ERROR(
      ts::grid_sampler_backward(ts::zeros({1, 2, 3, 3}), x, ts::zeros({1, 2, 2, 2}), 0, 0, false),
      "grid_sampler_backward: expected grad_output of shape [1, 2, 2, 2]");
}

TEST(Interpolate, EmptyBatch) {
  each_set([] {
    EXPECT_EQ(ts::upsample_nearest2d(ts::zeros({0, 3, 5, 5}), {7, 2}).sizes(),
              (ts::IntArrayRef{0, 3, 7, 2}));
    EXPECT_EQ(ts::upsample_bicubic2d(ts::zeros({0, 3, 5, 5}), {7, 2}, false).sizes(),
              (ts::IntArrayRef{0, 3, 7, 2}));
  });
}

TEST(Interpolate, Errors) {
  const Tensor x = ts::zeros({1, 3, 4, 4});
  EXPECT_ERROR(ts::upsample_nearest2d(ts::zeros({3, 4, 4}), {8, 8}),
               "upsample_nearest2d: It is expected input_size equals to 4, but got size 3 "
               "(argument 'self')");
  EXPECT_ERROR(ts::upsample_bilinear2d(x, {8}, false),
               "upsample_bilinear2d: It is expected output_size equals to 2, but got size 1 "
               "(argument 'output_size')");
  EXPECT_ERROR(ts::upsample_nearest2d(x, {0, 8}),
               "Input and output sizes should be greater than 0");
  EXPECT_ERROR(ts::upsample_nearest1d(ts::zeros({2, 0, 4}), {8}),
               "upsample_nearest1d: Non-empty 3D data tensor expected");
  EXPECT_ERROR(ts::upsample_nearest2d(x.to(ts::kLong), {8, 8}), "int64");
  EXPECT_ERROR(ts::upsample_linear(x, {8, 8}, false, std::vector<std::optional<double>>{2.0}),
               "upsample_linear: scales must give one value per spatial dim");
  EXPECT_ERROR(ts::upsample_nearest(x, {1, 2, 3, 4}),
               "upsample_nearest: output_size must have 1 to 3 entries");
  EXPECT_ERROR(ts::interpolate(x, 8, 2.0),
               "interpolate: only one of size or scale_factor should be defined (argument "
               "'scale_factor')");
  EXPECT_ERROR(ts::interpolate(x), "interpolate: either size or scale_factor should be defined");
  EXPECT_ERROR(ts::interpolate(x, 8, {}, "nearest", true),
               "align_corners option can only be set with the interpolating modes");
  EXPECT_ERROR(ts::interpolate(x, 8, {}, "bilinear", false, std::nullopt, true),
               "interpolate: antialias=True is not implemented in touchstone (argument "
               "'antialias')");
  EXPECT_ERROR(ts::interpolate(x, 8, {}, "linear"),
               "interpolate: Got 4D input, but linear mode needs 3D input");
  EXPECT_ERROR(ts::interpolate(x, 8, {}, "cubic"), "mode must be one of");
  EXPECT_ERROR(ts::interpolate(x, {8, 8, 8}),
               "Input and output must have the same number of spatial dimensions");
  EXPECT_ERROR(ts::interpolate(x, 8, {}, "nearest", std::nullopt, true),
               "recompute_scale_factor is not meaningful with an explicit size");
  EXPECT_ERROR(ts::interpolate(ts::zeros({1, 1, 2, 2, 2}), 1, {}, "area"), "(argument 'mode')");
  EXPECT_ERROR(ts::affine_grid(ts::zeros({1, 2, 3}), {1, 1, 2}),
               "affine_grid: affine_grid only supports 4D and 5D sizes");
  EXPECT_ERROR(ts::affine_grid(ts::zeros({1, 3, 4}), {1, 1, 2, 2}),
               "affine_grid: Expected a batch of 2D affine matrices of shape Nx2x3");
  EXPECT_ERROR(ts::affine_grid(ts::zeros({1, 2, 3}), {1, 1, 0, 2}),
               "Expected non-zero, positive output size");
}

TEST(InterpolateGrad, ByHand) {
  each_set([] {
    // align_corners 3 -> 5: sources 0 0.5 1 1.5 2, so inputs gather 1.5, 2, 1.5.
    const Tensor x = make(kDouble, {1, 2, 4}, {1, 1, 3}).requires_grad_();
    ts::upsample_linear1d(x, {5}, true).sum().backward();
    EXPECT_TENSOR_NEAR(x.grad(), kDouble, {1, 1, 3}, {1.5, 2, 1.5}, 1e-12);
    // nearest 3 -> 5 reads 0 0 1 1 2.
    const Tensor n = make(kDouble, {1, 2, 4}, {1, 1, 3}).requires_grad_();
    ts::upsample_nearest1d(n, {5}).sum().backward();
    EXPECT_TENSOR(n.grad(), kDouble, {1, 1, 3}, {2, 2, 1});
    // bicubic 4 -> 2 (row): the clamped tap -1 adds onto 0 and 4 onto 3.
    const Tensor c = make(kDouble, {1, 2, 4, 8}, {1, 1, 1, 4}).requires_grad_();
    ts::upsample_bicubic2d(c, {1, 2}, false).sum().backward();
    EXPECT_TENSOR_NEAR(c.grad(), kDouble, {1, 1, 1, 4},
                       {0.5, 0.59375 - 0.09375, 0.59375 - 0.09375, 0.5}, 1e-12);
    // affine_grid: d sum(grid) / d theta = sum of the base coordinates (0 for x and y, 4 for the
    // translation over a 2 x 2 grid).
    const Tensor th = make(kDouble, {1, 0, 0, 0, 1, 0}, {1, 2, 3}).requires_grad_();
    ts::affine_grid(th, {1, 1, 2, 2}).sum().backward();
    EXPECT_TENSOR_NEAR(th.grad(), kDouble, {1, 2, 3}, {0, 0, 4, 0, 0, 4}, 1e-12);
  });
}

using ts::autograd_test::expect_gradchecks;
using ts::autograd_test::randn_input;

TEST(InterpolateGrad, Gradchecks) {
  each_set([] {
    struct Case {
      const char* name;
      std::vector<int64_t> x;
      std::function<Tensor(const Tensor&)> f;
    };
    const std::vector<Case> cases = {
        {"nearest1d 4 -> 7",
         {2, 2, 4},
         [](const Tensor& x) { return ts::upsample_nearest1d(x, {7}); }},
        {"nearest2d scale",
         {1, 2, 3, 4},
         [](const Tensor& x) {
           return ts::upsample_nearest2d(x, {5, 3}, 1.7, 0.8);
         }},
        {"nearest_exact3d",
         {1, 1, 2, 3, 2},
         [](const Tensor& x) {
           return ts::_upsample_nearest_exact3d(x, {3, 2, 4});
         }},
        {"linear1d",
         {2, 2, 5},
         [](const Tensor& x) { return ts::upsample_linear1d(x, {8}, false); }},
        {"bilinear2d corners down",
         {1, 2, 5, 6},
         [](const Tensor& x) {
           return ts::upsample_bilinear2d(x, {3, 4}, true);
         }},
        {"bilinear2d scales",
         {1, 2, 3, 4},
         [](const Tensor& x) {
           return ts::upsample_bilinear2d(x, {5, 6}, false, 1.5, 1.6);
         }},
        {"trilinear3d",
         {1, 1, 2, 3, 3},
         [](const Tensor& x) {
           return ts::upsample_trilinear3d(x, {3, 4, 2}, false);
         }},
        {"bicubic2d",
         {1, 2, 4, 3},
         [](const Tensor& x) {
           return ts::upsample_bicubic2d(x, {6, 5}, false);
         }},
        {"bicubic2d corners scales",
         {1, 1, 5, 4},
         [](const Tensor& x) {
           return ts::upsample_bicubic2d(x, {3, 7}, true, 0.6, 1.8);
         }},
        {"interpolate area",
         {1, 2, 6, 5},
         [](const Tensor& x) {
           return ts::interpolate(x, {4, 3}, {}, "area");
         }},
        {"affine_grid",
         {2, 2, 3},
         [](const Tensor& x) {
           return ts::affine_grid(x, {2, 1, 3, 4});
         }},
        {"affine_grid 3-d",
         {1, 3, 4},
         [](const Tensor& x) {
           return ts::affine_grid(x, {1, 1, 2, 3, 2}, true);
         }},
    };
    uint64_t seed = 400;
    for (const Case& c : cases) {
      SCOPED_TRACE(c.name);
      expect_gradchecks(
          [&c](const std::vector<Tensor>& in) -> std::vector<Tensor> { return {c.f(in[0])}; },
          {randn_input(c.x, ++seed)});
    }
  });
}

// grid_sampler's gradients (grid_sampler_backward) by gradcheck; not differentiable twice.
TEST(GridSamplerGrad, Gradchecks) {
  each_set([] {
    uint64_t seed = 500;
    for (int64_t mode = 0; mode < 3; ++mode) {
      for (int64_t pad = 0; pad < 3; ++pad) {
        for (const bool corners : {false, true}) {
          SCOPED_TRACE(std::to_string(mode) + " " + std::to_string(pad) + " " +
                       std::to_string(corners));
          const auto f = [=](const std::vector<Tensor>& in) -> std::vector<Tensor> {
            return {ts::grid_sampler(in[0], in[1], mode, pad, corners)};
          };
          expect_gradchecks(
              f, {randn_input({2, 2, 4, 5}, ++seed), randn_input({2, 3, 2, 2}, ++seed)}, false);
          if (mode != 2) {
            expect_gradchecks(
                f, {randn_input({1, 2, 3, 2, 3}, ++seed), randn_input({1, 2, 2, 2, 3}, ++seed)},
                false);
          }
        }
      }
    }
  });
}

// ---- the optimized set against the reference ----

TEST(InterpolateOptimized, MatchesReference) {
  for (ts::ScalarType t : {kFloat, kDouble, kBFloat16, kHalf}) {
    const std::string dt = name(t);
    const Tensor x = sample({3, 5, 11, 10}, t, -2, 2, 1);
    const Tensor xl = x.permute({0, 2, 3, 1}).contiguous().permute({0, 3, 1, 2});
    for (const auto& [what, in] : {std::pair{"contiguous", x}, std::pair{"channels last", xl}}) {
      const Tensor v = in;
      const std::string w = std::string(what) + " " + dt;
      expect_matches_reference([&] { return ts::upsample_nearest2d(v, {17, 7}); }, "nearest " + w);
      expect_matches_reference(
          [&] {
            return ts::_upsample_nearest_exact2d(v, {17, 7}, 1.6, 0.7);
          },
          "nearest-exact " + w);
      expect_matches_reference(
          [&] {
            return ts::upsample_bilinear2d(v, {22, 15}, false);
          },
          "bilinear " + w);
      expect_matches_reference(
          [&] {
            return ts::upsample_bilinear2d(v, {8, 21}, true);
          },
          "bilinear corners " + w);
      expect_matches_reference(
          [&] {
            return ts::upsample_bicubic2d(v, {23, 9}, false, 2.1);
          },
          "bicubic " + w);
    }
    expect_matches_reference(
        [&] {
          return ts::upsample_linear1d(x.reshape({15, 11, 10}), {23}, true);
        },
        "linear 1-d " + dt);
    expect_matches_reference(
        [&] {
          return ts::upsample_trilinear3d(x.reshape({3, 5, 11, 5, 2}), {7, 9, 3}, false);
        },
        "trilinear " + dt);
    expect_matches_reference(
        [&] {
          return ts::upsample_nearest3d(x.reshape({3, 5, 11, 5, 2}), {7, 9, 3});
        },
        "nearest 3-d " + dt);
  }
  for (ts::ScalarType t : {kFloat, kDouble}) {
    const Tensor x = sample({3, 4, 9, 10}, t, -2, 2, 1);
    const Tensor g = sample({3, 7, 6, 2}, t, -1.2, 1.2, 2);
    const Tensor x3 = sample({2, 3, 4, 5, 3}, t, -2, 2, 3);
    const Tensor g3 = sample({2, 3, 2, 4, 3}, t, -1.2, 1.2, 4);
    const Tensor go = sample({3, 4, 7, 6}, t, -2, 2, 5);
    // The grid's gradient differences neighbouring inputs (x1 - x0), summed over channels and
    // taps: float32 keeps about 1e-5 of values near 10.
    const double tol = t == kFloat ? 1e-4 : -1;
    for (int64_t mode = 0; mode < 3; ++mode) {
      for (int64_t pad = 0; pad < 3; ++pad) {
        const std::string w = name(t) + " " + std::to_string(mode) + " " + std::to_string(pad);
        expect_matches_reference([&] { return ts::grid_sampler(x, g, mode, pad, pad == 2); },
                                 "grid " + w);
        expect_matches_reference(
            [&] { return std::get<1>(ts::grid_sampler_backward(go, x, g, mode, pad, false)); },
            "grid grad " + w, tol, tol);
        expect_matches_reference(
            [&] { return std::get<0>(ts::grid_sampler_backward(go, x, g, mode, pad, true)); },
            "input grad " + w);
        if (mode != 2) {
          expect_matches_reference([&] { return ts::grid_sampler(x3, g3, mode, pad, false); },
                                   "grid 3-d " + w);
        }
      }
    }
    // The backward's chunks of 1024 points: 1100 per batch element, 2-D and 3-D, both outputs.
    const Tensor gb = sample({2, 25, 44, 2}, t, -1.2, 1.2, 6);
    const Tensor gob = sample({2, 4, 25, 44}, t, -2, 2, 7);
    const Tensor g3b = sample({2, 5, 10, 22, 3}, t, -1.2, 1.2, 8);
    const Tensor go3b = sample({2, 3, 5, 10, 22}, t, -2, 2, 9);
    for (int64_t mode = 0; mode < 2; ++mode) {
      const std::string w = name(t) + " mode " + std::to_string(mode);
      for (int out = 0; out < 2; ++out) {
        const auto pick = [out](const std::tuple<Tensor, Tensor>& r) {
          return out == 0 ? std::get<0>(r) : std::get<1>(r);
        };
        expect_matches_reference(
            [&] {
              return pick(ts::grid_sampler_backward(gob, x.narrow(0, 0, 2), gb, mode, 1, false));
            },
            "1100 points " + std::to_string(out) + " " + w, tol, tol);
        expect_matches_reference(
            [&] { return pick(ts::grid_sampler_backward(go3b, x3, g3b, mode, 0, true)); },
            "1100 points 3-d " + std::to_string(out) + " " + w, tol, tol);
      }
    }
  }
  for_each_thread_count({1, 2, 3}, [](int) {
    const Tensor x = sample({4, 16, 20, 20}, kFloat);
    expect_matches_reference(
        [&] {
          return ts::upsample_bilinear2d(x, {40, 40}, false);
        },
        "threads bilinear");
    expect_matches_reference(
        [&] {
          return ts::upsample_nearest2d(x, {30, 30});
        },
        "threads nearest");
  });
}

}  // namespace
