// nn ops against hand-computed values: softmax, log_softmax, layer_norm, nll_loss,
// cross_entropy, mse_loss, linear, dropout. Expected values were worked out in double by hand
// (softmax([1, 2, 3]) = e^k / (e + e^2 + e^3), ...), never taken from the code under test.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "test_util.h"
#include "touchstone/kernel_family.h"
#include "touchstone/touchstone.h"

namespace {

using namespace ts::testing;
using ts::Reduction;
using ts::Tensor;

// softmax([1, 2, 3]) and log_softmax([1, 2, 3]).
const std::vector<double> kSoftmax123 = {0.09003057317038046, 0.24472847105479764,
                                         0.6652409557748218};
const std::vector<double> kLogSoftmax123 = {-2.4076059644443806, -1.4076059644443804,
                                            -0.4076059644443804};

// `v` rounded to dtype `t`, as the kernels round their double results.
double rounded(double v, ts::ScalarType t) {
  if (t == ts::kHalf) return static_cast<float>(ts::Half(static_cast<float>(v)));
  if (t == ts::kBFloat16) return static_cast<float>(ts::BFloat16(static_cast<float>(v)));
  if (t == ts::kFloat) return static_cast<float>(v);
  return v;
}

void expect_values(const Tensor& t, const std::vector<double>& expected, double tol = 1e-6) {
  const std::vector<double> got = values(t);
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(expected[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << "element " << i;
    } else if (std::isinf(expected[i])) {
      EXPECT_EQ(got[i], expected[i]) << "element " << i;
    } else {
      EXPECT_NEAR(got[i], expected[i], tol) << "element " << i;
    }
  }
}

double scalar(const Tensor& t) {
  EXPECT_EQ(t.dim(), 0);
  return values(t).at(0);
}

// ---- softmax, log_softmax ----

// Found by fuzz/ (issue 12): [2^40, 0] expanded from [1, 0] has 2^40 rows of no element; the
// reference set walked every one of them (hours). Every set returns the empty result at once.
TEST(Softmax, EmptyRowsOfAHugeExpandedInputReturnAtOnce) {
  const Tensor x = ts::empty({1, 0}).expand({int64_t{1} << 40, 0});
  for (const char* set : {"reference", "optimized"}) {
    ts::KernelSetGuard g(set);
    EXPECT_EQ(ts::softmax(x, 1).sizes(), x.sizes()) << set;
    EXPECT_EQ(ts::log_softmax(x, 1).sizes(), x.sizes()) << set;
    EXPECT_EQ(ts::layer_norm(x, {0}).sizes(), x.sizes()) << set;
  }
}

TEST(Softmax, OfOneTwoThreeIsExpOverSumOfExp) {
  const Tensor r = ts::softmax(make(ts::kFloat, {1, 2, 3}, {3}), 0);
  EXPECT_EQ(r.dtype(), ts::kFloat);
  expect_values(r, kSoftmax123);
  expect_values(ts::log_softmax(make(ts::kFloat, {1, 2, 3}, {3}), 0), kLogSoftmax123);
}

TEST(Softmax, OverEachDimOfAMatrix) {
  const Tensor x = make(ts::kFloat, {1, 2, 3, 4, 6, 8}, {2, 3});
  // Rows: softmax([4, 6, 8]) = softmax([0, 2, 4]).
  const std::vector<double> rows = {kSoftmax123[0],       kSoftmax123[1],      kSoftmax123[2],
                                    0.015876239976466765, 0.11731042782619838, 0.8668133321973349};
  expect_values(ts::softmax(x, 1), rows);
  expect_values(ts::softmax(x, -1), rows);
  expect_values(x.softmax(1), rows);
  // Columns: softmax([a, b]) = [1, e^(b-a)] / (1 + e^(b-a)), for b - a = 3, 4, 5.
  expect_values(ts::softmax(x, 0), {0.04742587317756679, 0.017986209962091555, 0.006692850924284856,
                                    0.9525741268224334, 0.9820137900379085, 0.9933071490757153});
  expect_values(x.log_softmax(0), {std::log(0.04742587317756679), std::log(0.017986209962091555),
                                   std::log(0.006692850924284856), std::log(0.9525741268224334),
                                   std::log(0.9820137900379085), std::log(0.9933071490757153)});
}

TEST(Softmax, OverTheMiddleDimOfA3dTensor) {
  // x[i, :, j] is [1, 2, 3] shifted by i + j: softmax ignores the shift.
  std::vector<double> v(2 * 3 * 2);
  for (int i = 0; i < 2; ++i) {
    for (int k = 0; k < 3; ++k) {
      for (int j = 0; j < 2; ++j) v[(i * 3 + k) * 2 + j] = k + 1 + 10 * (i + j);
    }
  }
  std::vector<double> expected(v.size());
  for (size_t e = 0; e < v.size(); ++e) expected[e] = kLogSoftmax123[(e / 2) % 3];
  expect_values(ts::log_softmax(make(ts::kFloat, v, {2, 3, 2}), 1), expected);
}

TEST(Softmax, NonContiguousInputs) {
  // Transposed: softmax over dim 0 of x.t() is softmax over the rows of x.
  const Tensor x = make(ts::kFloat, {1, 2, 3, 1, 1, 1}, {2, 3});
  const Tensor r = ts::softmax(x.t(), 0);
  EXPECT_EQ(r.sizes(), ts::IntArrayRef({3, 2}));
  expect_values(r, {kSoftmax123[0], 1.0 / 3, kSoftmax123[1], 1.0 / 3, kSoftmax123[2], 1.0 / 3});
  // Sliced with a step.
  const Tensor s = make(ts::kFloat, {1, 9, 2, 9, 3, 9}, {6}).slice(0, 0, 6, 2);
  expect_values(ts::softmax(s, 0), kSoftmax123);
  // Expanded (stride 0): each column of the expanded rows is constant.
  const Tensor e = make(ts::kFloat, {1, 2, 3}, {3}).expand({2, 3});
  expect_values(ts::log_softmax(e, 1), {kLogSoftmax123[0], kLogSoftmax123[1], kLogSoftmax123[2],
                                        kLogSoftmax123[0], kLogSoftmax123[1], kLogSoftmax123[2]});
  expect_values(ts::softmax(e, 0), {0.5, 0.5, 0.5, 0.5, 0.5, 0.5});
}

TEST(Softmax, LargeLogitsDoNotOverflow) {
  expect_values(ts::softmax(make(ts::kFloat, {1000, 1001, 1002}, {3}), 0), kSoftmax123);
  expect_values(ts::log_softmax(make(ts::kFloat, {1000, 1001, 1002}, {3}), 0), kLogSoftmax123,
                1e-4);
  // log_softmax([-1000, 0]) = [-1000, -log(1 + e^-1000)] = [-1000, 0]: no -inf from log(0).
  expect_values(ts::log_softmax(make(ts::kFloat, {-1000, 0}, {2}), 0), {-1000, 0});
  expect_values(ts::softmax(make(ts::kFloat, {-1000, 0}, {2}), 0), {0, 1});
}

TEST(Softmax, InfinitiesAndNaN) {
  expect_values(ts::softmax(make(ts::kFloat, {-kInf, 0}, {2}), 0), {0, 1});
  expect_values(ts::log_softmax(make(ts::kFloat, {-kInf, 0}, {2}), 0), {-kInf, 0});
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // A NaN poisons its row only.
  expect_values(ts::softmax(make(ts::kFloat, {1, nan, 0, 0}, {2, 2}), 1), {nan, nan, 0.5, 0.5});
}

TEST(Softmax, ZeroDimAndEmptyInputs) {
  const Tensor s = ts::scalar_tensor(5.0, ts::kFloat);
  EXPECT_EQ(ts::softmax(s, 0).dim(), 0);
  EXPECT_EQ(scalar(ts::softmax(s, 0)), 1.0);
  EXPECT_EQ(scalar(ts::softmax(s, -1)), 1.0);
  EXPECT_EQ(scalar(ts::log_softmax(s, 0)), 0.0);
  EXPECT_ERROR(ts::softmax(s, 1), "Dimension out of range (expected to be in range of [-1, 0]");

  const Tensor e = ts::zeros({0, 3});
  EXPECT_EQ(ts::softmax(e, 1).sizes(), ts::IntArrayRef({0, 3}));
  EXPECT_EQ(ts::log_softmax(e, 0).sizes(), ts::IntArrayRef({0, 3}));
}

TEST(Softmax, DtypeArgumentCastsTheInputFirst) {
  const Tensor i = make_long({1, 2, 3});
  const Tensor r = ts::softmax(i, 0, ts::kFloat);
  EXPECT_EQ(r.dtype(), ts::kFloat);
  expect_values(r, kSoftmax123);
  const Tensor d = ts::log_softmax(make(ts::kFloat, {1, 2, 3}, {3}), 0, ts::kDouble);
  EXPECT_EQ(d.dtype(), ts::kDouble);
  expect_values(d, kLogSoftmax123, 1e-15);
}

TEST(Softmax, Float16AndBFloat16RoundTheExactResultOnce) {
  for (ts::ScalarType t : {ts::kHalf, ts::kBFloat16}) {
    const Tensor r = ts::softmax(make(t, {1, 2, 3}, {3}), 0);
    const Tensor l = ts::log_softmax(make(t, {1, 2, 3}, {3}), 0);
    EXPECT_EQ(r.dtype(), t);
    const std::vector<double> rv = values(r), lv = values(l);
    for (size_t k = 0; k < 3; ++k) {
      EXPECT_EQ(rv[k], rounded(kSoftmax123[k], t)) << t << " element " << k;
      EXPECT_EQ(lv[k], rounded(kLogSoftmax123[k], t)) << t << " element " << k;
    }
  }
}

TEST(Softmax, OutVariants) {
  const Tensor x = make(ts::kFloat, {1, 2, 3}, {3});
  Tensor out = ts::empty({0});
  ts::softmax_out(out, x, 0);
  EXPECT_EQ(out.sizes(), ts::IntArrayRef({3}));
  expect_values(out, kSoftmax123);
  // An out= of the result dtype, not resized.
  Tensor same = ts::empty({3}, ts::kFloat);
  ts::log_softmax_out(same, x, 0);
  EXPECT_EQ(values(same)[0], rounded(kLogSoftmax123[0], ts::kFloat));
  // A wider one is refused as ATen does ("Expected out tensor to have dtype float, but got
  // double instead").
  Tensor wide = ts::full({3}, 7.0, ts::kDouble);
  EXPECT_ERROR(ts::log_softmax_out(wide, x, 0),
               "log_softmax: Expected out tensor to have dtype float32, but got float64 instead "
               "(argument 'out')");
  expect_values(wide, {7, 7, 7});
  // In place: out is the input itself.
  const Tensor y = make(ts::kFloat, {1, 2, 3}, {3});
  ts::softmax_out(y, y, 0);
  expect_values(y, kSoftmax123);
}

TEST(Softmax, OutErrorsLeaveOutUntouched) {
  const Tensor x = make(ts::kFloat, {1, 2, 3}, {3});
  Tensor bad_dtype = ts::full({3}, 7, ts::kLong);
  EXPECT_ERROR(ts::softmax_out(bad_dtype, x, 0),
               "softmax: Expected out tensor to have dtype float32, but got int64 instead");
  expect_values(bad_dtype, {7, 7, 7});
  Tensor bad_shape = ts::full({2}, 7.0);
  EXPECT_ERROR(ts::log_softmax_out(bad_shape, x, 0),
               "log_softmax: output with shape [2] doesn't match the result shape [3]");
  expect_values(bad_shape, {7, 7});
  // out overlapping the input partially.
  const Tensor y = make(ts::kFloat, {1, 2, 3}, {3});
  EXPECT_ERROR(ts::softmax_out(y.slice(0, 1, 3), y.slice(0, 0, 2), 0),
               "softmax: unsupported operation: some elements of the input tensor (argument "
               "'self') and the written-to tensor (argument 'out') refer to a single memory "
               "location");
  expect_values(y, {1, 2, 3});
}

TEST(Softmax, Errors) {
  EXPECT_ERROR(ts::softmax(make_long({1, 2, 3}), 0),
               "softmax: not implemented for dtype int64 (argument 'self')");
  EXPECT_ERROR(ts::log_softmax(make(ts::kFloat, {1, 2}, {2}), 0, ts::kLong),
               "log_softmax: not implemented for dtype int64 (argument 'dtype')");
  EXPECT_ERROR(ts::softmax(ts::ones({2}, ts::kBool), 0), "softmax: not implemented for dtype bool");
  EXPECT_ERROR(ts::softmax(make(ts::kFloat, {1, 2}, {2}), 1),
               "softmax: Dimension out of range (expected to be in range of [-1, 0], but got 1)");
  EXPECT_ERROR(ts::softmax(Tensor(), 0), "softmax: expected a defined tensor");
}

// libtorch 1.13 (Note [Nothing to compute]): softmax/log_softmax of an empty int or bool input
// returns an empty result of its dtype (int64 [0, 3]; dtype=int32 gives int32); a 0-dim int64
// throws "softmax_lastdim_kernel_impl" not implemented for 'Long'; a bad dim is refused first.
TEST(Softmax, EmptyIntegerOrBoolAsATen) {
  const Tensor e = ts::softmax(ts::empty({0, 3}, ts::kLong), 1);
  EXPECT_EQ(e.dtype(), ts::kLong);
  EXPECT_EQ(e.sizes(), ts::IntArrayRef({0, 3}));
  EXPECT_EQ(ts::log_softmax(ts::empty({3, 0}, ts::kBool), 0).dtype(), ts::kBool);
  EXPECT_EQ(ts::softmax(ts::empty({0, 3}, ts::kLong), 1, ts::kInt).dtype(), ts::kInt);
  Tensor out = ts::empty({0}, ts::kByte);
  ts::log_softmax_out(out, ts::empty({0, 3}, ts::kByte), -1);
  EXPECT_EQ(out.sizes(), ts::IntArrayRef({0, 3}));
  EXPECT_ERROR(ts::softmax(ts::ones({}, ts::kLong), 0),
               "softmax: not implemented for dtype int64 (argument 'self')");
  EXPECT_ERROR(ts::softmax(ts::empty({0, 3}, ts::kBool), 5), "softmax: Dimension out of range");
}

// ---- layer_norm ----

TEST(LayerNorm, OfOneTwoThreeFour) {
  // mean 2.5, biased variance 1.25: y = (x - 2.5) / sqrt(1.25 + 1e-5).
  const std::vector<double> expected = {-1.3416354199689269, -0.447211806656309, 0.447211806656309,
                                        1.3416354199689269};
  expect_values(ts::layer_norm(make(ts::kFloat, {1, 2, 3, 4}, {4}), {4}), expected);
  expect_values(ts::layer_norm(make(ts::kDouble, {1, 2, 3, 4}, {4}), {4}), expected, 1e-15);
  // eps = 1: y = (x - 2.5) / sqrt(2.25) = (x - 2.5) * 2/3.
  expect_values(ts::layer_norm(make(ts::kDouble, {1, 2, 3, 4}, {4}), {4}, {}, {}, 1.0),
                {-1.0, -1.0 / 3, 1.0 / 3, 1.0}, 1e-15);
}

TEST(LayerNorm, WeightAndBias) {
  const Tensor w = make(ts::kDouble, {1, 2, 3, 4}, {4});
  const Tensor b = make(ts::kDouble, {0.5, 0, -0.5, 1}, {4});
  const Tensor x = make(ts::kDouble, {1, 2, 3, 4}, {4});
  expect_values(ts::layer_norm(x, {4}, w, b),
                {-0.8416354199689269, -0.894423613312618, 0.8416354199689269, 6.3665416798757075},
                1e-14);
  // Weight only, bias only.
  expect_values(ts::layer_norm(x, {4}, w, {}, 1.0), {-1.0, -2.0 / 3, 1.0, 4.0}, 1e-15);
  expect_values(ts::layer_norm(x, {4}, {}, b, 1.0), {-0.5, -1.0 / 3, -1.0 / 6, 2.0}, 1e-15);
}

TEST(LayerNorm, NormalizesTheTrailingDimsOfEachRow) {
  // Rows [1, 2, 3, 4] and [2, 2, 2, 2] (a constant row normalizes to 0, then gets the bias).
  const Tensor x = make(ts::kDouble, {1, 2, 3, 4, 2, 2, 2, 2}, {2, 2, 2});
  const Tensor b = ts::full({2, 2}, 0.25, ts::kDouble);
  const Tensor r = ts::layer_norm(x, {2, 2}, {}, b, 1.0);
  EXPECT_EQ(r.sizes(), ts::IntArrayRef({2, 2, 2}));
  expect_values(r, {-0.75, -1.0 / 3 + 0.25, 1.0 / 3 + 0.25, 1.25, 0.25, 0.25, 0.25, 0.25}, 1e-15);
  // Normalizing only the last dim: each pair [a, a + 1] becomes [-0.5, 0.5] / sqrt(0.25 + 1).
  const double h = 0.5 / std::sqrt(1.25);
  expect_values(ts::layer_norm(x, {2}, {}, {}, 1.0), {-h, h, -h, h, 0, 0, 0, 0}, 1e-15);
}

TEST(LayerNorm, NonContiguousAndReducedPrecisionInputs) {
  // x.t() has rows [1, 2, 3, 4] and [10, 20, 30, 40] (the same row scaled by 10).
  const Tensor x = make(ts::kDouble, {1, 10, 2, 20, 3, 30, 4, 40}, {4, 2}).t();
  const double a = 1.5 / std::sqrt(1.25 + 1e-5), c = 0.5 / std::sqrt(1.25 + 1e-5);
  const double a10 = 15 / std::sqrt(125 + 1e-5), c10 = 5 / std::sqrt(125 + 1e-5);
  expect_values(ts::layer_norm(x, {4}), {-a, -c, c, a, -a10, -c10, c10, a10}, 1e-14);
  for (ts::ScalarType t : {ts::kHalf, ts::kBFloat16}) {
    const Tensor r =
        ts::layer_norm(make(t, {1, 2, 3, 4}, {4}), {4}, ts::ones({4}, t), ts::zeros({4}, t));
    EXPECT_EQ(r.dtype(), t);
    const std::vector<double> v = values(r);
    EXPECT_EQ(v[0], rounded(-a, t)) << t;
    EXPECT_EQ(v[2], rounded(c, t)) << t;
  }
}

TEST(LayerNorm, Errors) {
  const Tensor x = ts::zeros({2, 3});
  EXPECT_ERROR(ts::layer_norm(x, {4}),
               "layer_norm: Given normalized_shape=[4], expected input with shape [*, 4], but got "
               "input of size[2, 3]");
  EXPECT_ERROR(ts::layer_norm(x, {2, 3, 3}),
               "Given normalized_shape=[2, 3, 3], expected input with shape [*, 2, 3, 3], but got "
               "input of size[2, 3]");
  EXPECT_ERROR(ts::layer_norm(x, {}),
               "layer_norm: Expected normalized_shape to be at least 1-dimensional");
  EXPECT_ERROR(ts::layer_norm(x, {3}, ts::ones({2})),
               "layer_norm: Expected weight to be of same shape as normalized_shape, but got "
               "weight of shape [2] and normalized_shape = [3]");
  EXPECT_ERROR(ts::layer_norm(x, {3}, {}, ts::ones({3, 1})),
               "layer_norm: Expected bias to be of same shape as normalized_shape, but got bias "
               "of shape [3, 1] and normalized_shape = [3]");
  EXPECT_ERROR(ts::layer_norm(x, {3}, ts::ones({3}, ts::kDouble)),
               "layer_norm: expected weight to have the input's dtype float32, but got float64");
  EXPECT_ERROR(ts::layer_norm(x, {3}, {}, ts::ones({3}, ts::kHalf)),
               "layer_norm: expected bias to have the input's dtype float32, but got float16");
  EXPECT_ERROR(ts::layer_norm(ts::zeros({2, 3}, ts::kLong), {3}),
               "layer_norm: not implemented for dtype int64");
}

// ---- nll_loss ----

// Log-probabilities of 2 samples over 3 classes; targets [2, 0] pick -3 and -0.5.
Tensor nll_input(ts::ScalarType t = ts::kFloat) {
  return make(t, {-1, -2, -3, -0.5, -1.5, -2.5}, {2, 3});
}

TEST(NllLoss, EveryReduction) {
  const Tensor x = nll_input(), t = make_long({2, 0});
  const Tensor none = ts::nll_loss(x, t, {}, Reduction::None);
  EXPECT_EQ(none.sizes(), ts::IntArrayRef({2}));
  expect_values(none, {3, 0.5});
  EXPECT_EQ(scalar(ts::nll_loss(x, t, {}, Reduction::Sum)), 3.5);
  EXPECT_EQ(scalar(ts::nll_loss(x, t)), 1.75);  // Mean by default
}

TEST(NllLoss, ClassWeightsAndMeanOverTheirSum) {
  const Tensor x = nll_input(), t = make_long({2, 0}), w = make(ts::kFloat, {1, 2, 3}, {3});
  expect_values(ts::nll_loss(x, t, w, Reduction::None), {9, 0.5});
  EXPECT_EQ(scalar(ts::nll_loss(x, t, w, Reduction::Sum)), 9.5);
  EXPECT_EQ(scalar(ts::nll_loss(x, t, w, Reduction::Mean)), 9.5 / (3 + 1));
}

// ATen 1.13 and current PyTorch: "The function 'nll_loss_forward' is not differentiable with
// respect to argument 'weight'. This input cannot have requires_grad True."; no_grad allows it.
TEST(NllLoss, ClassWeightThatRequiresGradIsRefused) {
  const Tensor x = nll_input(), t = make_long({2, 0}), w = make(ts::kFloat, {1, 2, 3}, {3});
  w.requires_grad_();
  EXPECT_ERROR(ts::nll_loss(x, t, w),
               "nll_loss: not differentiable with respect to argument 'weight'");
  EXPECT_ERROR(ts::cross_entropy(x, t, w), "not differentiable with respect to argument 'weight'");
  const ts::AutoGradMode no_grad(false);
  EXPECT_EQ(scalar(ts::nll_loss(x, t, w, Reduction::Sum)), 9.5);
}

TEST(NllLoss, IgnoreIndex) {
  const Tensor x = nll_input(), t = make_long({2, 0}), w = make(ts::kFloat, {1, 2, 3}, {3});
  expect_values(ts::nll_loss(x, t, {}, Reduction::None, 0), {3, 0});
  EXPECT_EQ(scalar(ts::nll_loss(x, t, {}, Reduction::Sum, 0)), 3);
  EXPECT_EQ(scalar(ts::nll_loss(x, t, {}, Reduction::Mean, 0)), 3);
  EXPECT_EQ(scalar(ts::nll_loss(x, t, w, Reduction::Mean, 0)), 9.0 / 3);
  // An ignored target may be out of range (the default -100 is).
  EXPECT_EQ(scalar(ts::nll_loss(x, make_long({-100, 1}))), 1.5);
  // Every target ignored: Mean is 0 / 0 = NaN (as PyTorch), Sum is 0.
  const Tensor all = make_long({0, 0});
  EXPECT_TRUE(std::isnan(scalar(ts::nll_loss(x, all, {}, Reduction::Mean, 0))));
  EXPECT_EQ(scalar(ts::nll_loss(x, all, {}, Reduction::Sum, 0)), 0);
}

TEST(NllLoss, OneDimInputWithZeroDimTarget) {
  const Tensor x = make(ts::kFloat, {-1, -2, -3}, {3});
  const Tensor t = ts::scalar_tensor(1, ts::kLong);
  EXPECT_EQ(scalar(ts::nll_loss(x, t)), 2);
  EXPECT_EQ(scalar(ts::nll_loss(x, t, {}, Reduction::None)), 2);
  EXPECT_EQ(scalar(ts::nll_loss(x, t, make(ts::kFloat, {1, 4, 1}, {3}), Reduction::Sum)), 8);
}

TEST(NllLoss, SpatialTargets) {
  // x[0, c, j]: class 0 = [-1, -2, -3], class 1 = [-4, -5, -6]; targets [0, 1, 0].
  const Tensor x = make(ts::kFloat, {-1, -2, -3, -4, -5, -6}, {1, 2, 3});
  const Tensor t = make_long({0, 1, 0}).reshape({1, 3});
  const Tensor none = ts::nll_loss(x, t, {}, Reduction::None);
  EXPECT_EQ(none.sizes(), ts::IntArrayRef({1, 3}));
  expect_values(none, {1, 5, 3});
  EXPECT_EQ(scalar(ts::nll_loss(x, t)), 3);
  // 4-D input (N, C, H, W) = (1, 2, 1, 3) with targets (1, 1, 3).
  expect_values(ts::nll_loss(x.reshape({1, 2, 1, 3}), t.reshape({1, 1, 3}), {}, Reduction::None),
                {1, 5, 3});
}

TEST(NllLoss, EmptyBatch) {
  const Tensor x = ts::zeros({0, 3}), t = ts::zeros({0}, ts::kLong);
  EXPECT_TRUE(std::isnan(scalar(ts::nll_loss(x, t))));
  EXPECT_EQ(scalar(ts::nll_loss(x, t, {}, Reduction::Sum)), 0);
  EXPECT_EQ(ts::nll_loss(x, t, {}, Reduction::None).sizes(), ts::IntArrayRef({0}));
}

TEST(NllLoss, NonContiguousInputsAndUint8Targets) {
  // x.t() is nll_input(); the targets are a strided slice of [2, 9, 0, 9].
  const Tensor x = make(ts::kFloat, {-1, -0.5, -2, -1.5, -3, -2.5}, {3, 2}).t();
  const Tensor t = make_long({2, 9, 0, 9}).slice(0, 0, 4, 2);
  expect_values(ts::nll_loss(x, t, {}, Reduction::None), {3, 0.5});
  const Tensor w = make(ts::kFloat, {1, 0, 2, 0, 3, 0}, {6}).slice(0, 0, 6, 2);
  EXPECT_EQ(scalar(ts::nll_loss(x, t, w, Reduction::Sum)), 9.5);
  EXPECT_EQ(scalar(ts::nll_loss(nll_input(), make_long({2, 0}).to(ts::kByte))), 1.75);
}

TEST(NllLoss, ReducedPrecision) {
  for (ts::ScalarType dt : {ts::kHalf, ts::kBFloat16, ts::kDouble}) {
    const Tensor r = ts::nll_loss(nll_input(dt), make_long({2, 0}), make(dt, {1, 2, 3}, {3}));
    EXPECT_EQ(r.dtype(), dt);
    EXPECT_EQ(scalar(r), 2.375) << dt;
  }
}

TEST(NllLoss, Errors) {
  const Tensor x = nll_input();
  EXPECT_ERROR(ts::nll_loss(x, make_long({0, 5})), "nll_loss: Target 5 is out of bounds.");
  EXPECT_ERROR(ts::nll_loss(x, make_long({-1, 0})), "nll_loss: Target -1 is out of bounds.");
  EXPECT_ERROR(ts::nll_loss(ts::zeros({}), ts::zeros({}, ts::kLong)),
               "nll_loss: Expected self to have 1 or more dimensions (got 0)");
  EXPECT_ERROR(ts::nll_loss(x, make_long({0, 1, 2})),
               "nll_loss: Expected input batch_size (2) to match target batch_size (3).");
  EXPECT_ERROR(ts::nll_loss(ts::zeros({1, 2, 3}), ts::zeros({1, 4}, ts::kLong)),
               "nll_loss: Expected target size [1, 3], got [1, 4]");
  EXPECT_ERROR(ts::nll_loss(x, ts::zeros({2, 3}, ts::kLong)),
               "nll_loss: Expected target size [2], got [2, 3]");
  EXPECT_ERROR(ts::nll_loss(make(ts::kFloat, {1, 2, 3}, {3}), make_long({1})),
               "nll_loss: size mismatch (got input: [3], target: [1])");
  EXPECT_ERROR(ts::nll_loss(x, make_long({0, 1}), ts::ones({2})),
               "nll_loss: weight tensor should be defined either for all 3 classes or no classes "
               "but got weight tensor of shape: [2]");
  EXPECT_ERROR(ts::nll_loss(x, make_long({0, 1}), ts::ones({3}, ts::kDouble)),
               "nll_loss: expected weight to have the input's dtype float32, but got float64");
  EXPECT_ERROR(ts::nll_loss(x, make_long({0, 1}).to(ts::kInt)),
               "nll_loss: expected target of dtype int64 (or uint8), but got int32");
  EXPECT_ERROR(ts::nll_loss(ts::zeros({2, 3}, ts::kLong), make_long({0, 1})),
               "nll_loss: not implemented for dtype int64 (argument 'self')");
  EXPECT_ERROR(ts::nll_loss(x, make_long({0, 1}), {}, static_cast<Reduction>(7)),
               "nll_loss: reduction must be None (0), Mean (1) or Sum (2), but got 7");
}

// ---- cross_entropy ----

// Logits [1, 2, 3] and [1, 1, 1]; targets [2, 0]. -log_softmax picks 0.4076... and log 3.
Tensor ce_logits(ts::ScalarType t = ts::kFloat) {
  return make(t, {1, 2, 3, 1, 1, 1}, {2, 3});
}
constexpr double kNll0 = 0.4076059644443804, kLog3 = 1.0986122886681098;

TEST(CrossEntropy, ClassIndicesEveryReduction) {
  const Tensor z = ce_logits(), t = make_long({2, 0});
  expect_values(ts::cross_entropy(z, t, {}, Reduction::None), {kNll0, kLog3});
  EXPECT_NEAR(scalar(ts::cross_entropy(z, t, {}, Reduction::Sum)), kNll0 + kLog3, 1e-6);
  EXPECT_NEAR(scalar(ts::cross_entropy(z, t)), (kNll0 + kLog3) / 2, 1e-6);
  // 1-D logits with a 0-dim target.
  EXPECT_NEAR(
      scalar(ts::cross_entropy(make(ts::kFloat, {1, 2, 3}, {3}), ts::scalar_tensor(2, ts::kLong))),
      kNll0, 1e-6);
}

TEST(CrossEntropy, WeightsAndIgnoreIndex) {
  const Tensor z = ce_logits(ts::kDouble), t = make_long({2, 0});
  const Tensor w = make(ts::kDouble, {1, 2, 3}, {3});
  expect_values(ts::cross_entropy(z, t, w, Reduction::None), {3 * kNll0, kLog3}, 1e-15);
  EXPECT_NEAR(scalar(ts::cross_entropy(z, t, w)), (3 * kNll0 + kLog3) / 4, 1e-15);
  expect_values(ts::cross_entropy(z, t, {}, Reduction::None, 0), {kNll0, 0}, 1e-15);
  EXPECT_NEAR(scalar(ts::cross_entropy(z, t, {}, Reduction::Mean, 0)), kNll0, 1e-15);
}

TEST(CrossEntropy, LabelSmoothing) {
  // loss_i = 0.7 * nll_i + 0.1 * smooth_i, smooth_i = -sum_c w_c log_softmax(z_i)_c.
  const Tensor z = ce_logits(ts::kDouble), t = make_long({2, 0});
  const Tensor w = make(ts::kDouble, {1, 2, 3}, {3});
  const double s0 = 4.222817893333142, s1 = 3 * kLog3;  // unweighted smooth terms
  const double l0 = 0.7 * kNll0 + 0.1 * s0, l1 = 0.7 * kLog3 + 0.1 * s1;
  expect_values(ts::cross_entropy(z, t, {}, Reduction::None, -100, 0.3), {l0, l1}, 1e-14);
  EXPECT_NEAR(scalar(ts::cross_entropy(z, t, {}, Reduction::Sum, -100, 0.3)), l0 + l1, 1e-14);
  EXPECT_NEAR(scalar(ts::cross_entropy(z, t, {}, Reduction::Mean, -100, 0.3)), 0.903109126556245,
              1e-14);
  // Weighted: Mean divides both parts by the summed target weights (3 + 1).
  EXPECT_NEAR(scalar(ts::cross_entropy(z, t, w, Reduction::Mean, -100, 0.3)), 0.7321830198170924,
              1e-14);
  // Ignoring class 0 drops sample 1 entirely; weighted smooth_0 = 1*2.407.. + 2*1.407.. +
  // 3*0.407...
  expect_values(ts::cross_entropy(z, t, {}, Reduction::None, 0, 0.3), {l0, 0}, 1e-14);
  EXPECT_NEAR(scalar(ts::cross_entropy(z, t, {}, Reduction::Mean, 0, 0.3)), l0, 1e-14);
  const double ws0 = 2.4076059644443806 + 2 * 1.4076059644443804 + 3 * kNll0;
  EXPECT_NEAR(scalar(ts::cross_entropy(z, t, w, Reduction::Mean, 0, 0.3)),
              (0.7 * 3 * kNll0 + 0.1 * ws0) / 3, 1e-14);
  // label_smoothing = 1: only the smooth term.
  EXPECT_NEAR(scalar(ts::cross_entropy(z, t, {}, Reduction::Sum, -100, 1.0)), (s0 + s1) / 3, 1e-14);
}

TEST(CrossEntropy, ClassProbabilityTargets) {
  const Tensor z = ce_logits(ts::kDouble);
  const Tensor p = make(ts::kDouble, {0.25, 0.25, 0.5, 1, 0, 0}, {2, 3});
  const Tensor w = make(ts::kDouble, {1, 2, 3}, {3});
  // loss_i = -sum_c p_ic log_softmax(z_i)_c; Mean divides by N = 2 (weights or not).
  expect_values(ts::cross_entropy(z, p, {}, Reduction::None), {1.1576059644443806, kLog3}, 1e-14);
  EXPECT_NEAR(scalar(ts::cross_entropy(z, p)), 1.1281091265562453, 1e-14);
  EXPECT_NEAR(scalar(ts::cross_entropy(z, p, {}, Reduction::Sum)), 2.2562182531124906, 1e-14);
  expect_values(ts::cross_entropy(z, p, w, Reduction::None), {1.917113419999856, kLog3}, 1e-14);
  EXPECT_NEAR(scalar(ts::cross_entropy(z, p, w)), 1.507862854333983, 1e-14);
  // Smoothing mixes the probabilities with the uniform 1/3: p' = 0.7 p + 0.1.
  EXPECT_NEAR(scalar(ts::cross_entropy(z, p, {}, Reduction::Mean, -100, 0.3)), 1.165609126556245,
              1e-14);
}

TEST(CrossEntropy, SpatialAndFloat16) {
  // (N, C, d) = (1, 3, 2): position 0 has logits [1, 2, 3], position 1 [1, 1, 1].
  const Tensor z = make(ts::kFloat, {1, 1, 2, 1, 3, 1}, {1, 3, 2});
  expect_values(ts::cross_entropy(z, make_long({2, 0}).reshape({1, 2}), {}, Reduction::None),
                {kNll0, kLog3});
  const Tensor h = ts::cross_entropy(ce_logits(ts::kHalf), make_long({2, 0}), {}, Reduction::None);
  EXPECT_EQ(h.dtype(), ts::kHalf);
  expect_values(h, {kNll0, kLog3}, 2e-3);
}

TEST(CrossEntropy, Errors) {
  const Tensor z = ce_logits();
  EXPECT_ERROR(ts::cross_entropy(z, make_long({0, 1}), {}, Reduction::Mean, -100, 1.5),
               "cross_entropy: label_smoothing must be between 0.0 and 1.0. Got: 1.5");
  EXPECT_ERROR(ts::cross_entropy(z, make_long({0, 1}), {}, Reduction::Mean, -100, -0.5),
               "label_smoothing must be between 0.0 and 1.0. Got: -0.5");
  EXPECT_ERROR(ts::cross_entropy(z, ts::ones({2, 3}, ts::kLong)),
               "cross_entropy: Expected floating point type for target with class probabilities, "
               "got int64");
  EXPECT_ERROR(ts::cross_entropy(z, ts::ones({2, 3}), {}, Reduction::Mean, 1),
               "cross_entropy: ignore_index is not supported for floating point target");
  EXPECT_ERROR(ts::cross_entropy(z, ts::ones({2, 3}), ts::ones({2})),
               "cross_entropy: weight tensor should be defined either for all 3 classes or no "
               "classes but got weight tensor of shape: [2]");
  EXPECT_ERROR(ts::cross_entropy(ts::zeros({}), ts::zeros({}, ts::kLong)),
               "cross_entropy: Expected self to have 1 or more dimensions (got 0)");
  EXPECT_ERROR(ts::cross_entropy(z, make_long({0, 3})), "Target 3 is out of bounds.");
  EXPECT_ERROR(ts::cross_entropy(z, make_long({0, 1}), {}, static_cast<Reduction>(3)),
               "cross_entropy: reduction must be None (0), Mean (1) or Sum (2), but got 3");
}

// ---- mse_loss ----

TEST(MseLoss, EveryReduction) {
  const Tensor a = make(ts::kFloat, {1, 2, 3}, {3}),
               b = make(ts::kFloat, {1, 4, 0}, {3});  // squared errors 0, 4, 9
  expect_values(ts::mse_loss(a, b, Reduction::None), {0, 4, 9});
  EXPECT_EQ(scalar(ts::mse_loss(a, b, Reduction::Sum)), 13);
  EXPECT_NEAR(scalar(ts::mse_loss(a, b)), 13.0 / 3, 1e-6);
}

TEST(MseLoss, BroadcastsAndPromotes) {
  const Tensor a = make(ts::kDouble, {1, 2, 3, 4, 5, 6}, {2, 3}), b = ts::ones({3});
  const Tensor none = ts::mse_loss(a, b, Reduction::None);
  EXPECT_EQ(none.sizes(), ts::IntArrayRef({2, 3}));
  EXPECT_EQ(none.dtype(), ts::kDouble);
  expect_values(none, {0, 1, 4, 9, 16, 25});
  EXPECT_EQ(scalar(ts::mse_loss(a, b)), 55.0 / 6);
  // An int64 input with a float32 target computes in float32.
  const Tensor r = ts::mse_loss(make_long({1, 2}), make(ts::kFloat, {0, 0}, {2}), Reduction::Sum);
  EXPECT_EQ(r.dtype(), ts::kFloat);
  EXPECT_EQ(scalar(r), 5);
}

TEST(MseLoss, NonContiguousEmptyAndReducedPrecision) {
  const Tensor a = make(ts::kFloat, {1, 3, 2, 4}, {2, 2}).t();  // [[1, 2], [3, 4]]
  const Tensor b = make(ts::kFloat, {1, 9, 1, 9}, {4}).slice(0, 0, 4, 2).expand({2, 2});
  expect_values(ts::mse_loss(a, b, Reduction::None), {0, 1, 4, 9});
  EXPECT_TRUE(std::isnan(scalar(ts::mse_loss(ts::zeros({0}), ts::zeros({0})))));
  EXPECT_EQ(scalar(ts::mse_loss(ts::zeros({0}), ts::zeros({0}), Reduction::Sum)), 0);
  for (ts::ScalarType t : {ts::kHalf, ts::kBFloat16}) {
    const Tensor r = ts::mse_loss(make(t, {1, 2, 3}, {3}), make(t, {1, 4, 0}, {3}));
    EXPECT_EQ(r.dtype(), t);
    EXPECT_EQ(scalar(r), rounded(13.0 / 3, t)) << t;
  }
}

TEST(MseLoss, Errors) {
  EXPECT_ERROR(ts::mse_loss(make_long({1}), make_long({2})),
               "mse_loss: not implemented for dtype int64");
  EXPECT_ERROR(ts::mse_loss(ts::zeros({2, 3}), ts::zeros({4})),
               "mse_loss: The size of tensor a (3) must match the size of tensor b (4) at "
               "non-singleton dimension 1");
  EXPECT_ERROR(ts::mse_loss(ts::zeros({2}), ts::zeros({2}), static_cast<Reduction>(5)),
               "mse_loss: reduction must be None (0), Mean (1) or Sum (2), but got 5");
}

// ---- linear ----

TEST(Linear, MatmulWithTheTransposedWeightPlusBias) {
  const Tensor x = make(ts::kFloat, {1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor w = make(ts::kFloat, {1, 0, -1, 0.5, 0.5, 0.5}, {2, 3});
  // x @ w.t() = [[-2, 3], [-2, 7.5]].
  expect_values(ts::linear(x, w), {-2, 3, -2, 7.5});
  expect_values(ts::linear(x, w, make(ts::kFloat, {10, 20}, {2})), {8, 23, 8, 27.5});
  // A batch of inputs, a 1-D input, a 1-D weight.
  const Tensor batch = ts::linear(x.reshape({2, 1, 3}), w, make(ts::kFloat, {10, 20}, {2}));
  EXPECT_EQ(batch.sizes(), ts::IntArrayRef({2, 1, 2}));
  expect_values(batch, {8, 23, 8, 27.5});
  expect_values(ts::linear(make(ts::kFloat, {1, 2, 3}, {3}), w), {-2, 3});
  expect_values(ts::linear(x, make(ts::kFloat, {1, 1, 1}, {3})), {6, 15});
}

TEST(Linear, Errors) {
  EXPECT_ERROR(ts::linear(ts::zeros({2, 3}), ts::zeros({2, 2, 3})),
               "linear: expected weight to be 1-D or 2-D, but got weight of shape [2, 2, 3]");
  EXPECT_ERROR(ts::linear(ts::zeros({2, 3}), Tensor()), "linear: expected a defined tensor");
}

// ---- dropout ----

TEST(Dropout, EvalModeAndZeroProbabilityReturnTheInputItself) {
  const Tensor x = make(ts::kFloat, {1, 2, 3}, {3});
  EXPECT_TRUE(ts::dropout(x, 0.5, false).is_same(x));
  EXPECT_TRUE(ts::dropout(x, 0.0, true).is_same(x));
  const Tensor i = make_long({1, 2});
  EXPECT_TRUE(ts::dropout(i, 0.5, false).is_same(i));
  const Tensor e = ts::zeros({0});
  EXPECT_TRUE(ts::dropout(e, 0.5, true).is_same(e));
}

TEST(Dropout, ProbabilityOneZeroesEverything) {
  const Tensor r = ts::dropout(make(ts::kFloat, {1, -2, 3}, {3}), 1.0, true);
  expect_values(r, {0, 0, 0});
}

TEST(Dropout, KeepsWhereUniformIsBelowOneMinusPAndScales) {
  const Tensor x = make(ts::kFloat, {1, 2, 3, 4, 5, 6, 7, 8}, {2, 4}).t();  // non-contiguous
  ts::manual_seed(1234);
  const std::vector<double> u = values(ts::rand_like(x));
  ts::manual_seed(1234);
  const Tensor r = ts::dropout(x, 0.25, true);
  const std::vector<double> xv = values(x), rv = values(r);
  for (size_t i = 0; i < u.size(); ++i) {
    const double expected = u[i] < 0.75 ? xv[i] * rounded(1 / 0.75, ts::kFloat) : 0.0;
    EXPECT_FLOAT_EQ(rv[i], expected) << "element " << i << " u = " << u[i];
  }
}

TEST(Dropout, KeepsAboutOneMinusPOfTheElements) {
  ts::manual_seed(7);
  const std::vector<double> r = values(ts::dropout(ts::ones({10000}, ts::kDouble), 0.2, true));
  int kept = 0;
  for (double v : r) {
    if (v != 0) {
      EXPECT_DOUBLE_EQ(v, 1.25);
      ++kept;
    }
  }
  EXPECT_GT(kept, 7700);  // 8000 expected; the standard deviation is 40
  EXPECT_LT(kept, 8300);
}

TEST(Dropout, Errors) {
  const Tensor x = make(ts::kFloat, {1, 2}, {2});
  EXPECT_ERROR(ts::dropout(x, 1.5, false),
               "dropout: dropout probability has to be between 0 and 1, but got 1.5");
  EXPECT_ERROR(ts::dropout(x, -0.5, true),
               "dropout probability has to be between 0 and 1, but got -0.5");
  EXPECT_ERROR(ts::dropout(make_long({1, 2}), 0.5, true),
               "dropout: expected a floating point input, but got int64");
}

// ---- the typed parameters meta passes (lib/src/ops/nn.cpp's Params block) ----

// What the last call of the capture set's kernels carried.
ts::OpParams captured;

void capture(const ts::KernelCall& c) {
  captured = c.p;
}

// A kernel set whose every nn kernel only records its call.
const char* capture_set() {
  static const char* name = [] {
    ts::KernelRegistrar m("test_nn_capture");
    ts::for_each_kernel_op<ts::OpSignature::Softmax, ts::OpSignature::Norm, ts::OpSignature::Loss>(
        [&](auto op) { m.impl(op, ts::kCPU, capture); });
    return "test_nn_capture";
  }();
  return name;
}

TEST(NnParams, TheFamilysKernelOpsLeaveOutTheComposites) {
  std::vector<ts::OpId> ops;
  ts::for_each_kernel_op<ts::OpSignature::Softmax, ts::OpSignature::Norm, ts::OpSignature::Loss>(
      [&](auto op) { ops.push_back(op); });
  EXPECT_EQ(ops,
            (std::vector<ts::OpId>{ts::OpId::softmax, ts::OpId::log_softmax, ts::OpId::layer_norm,
                                   ts::OpId::nll_loss, ts::OpId::mse_loss}));  // no cross_entropy
}

TEST(NnParams, SetsRegisterTheDeclaredDtypes) {
  for (const char* name : {"reference", "optimized"}) {
    const ts::KernelSetId set = *ts::find_kernel_set(name);
    ts::for_each_kernel_op<ts::OpSignature::Softmax, ts::OpSignature::Norm, ts::OpSignature::Loss>(
        [&](auto op) {
          EXPECT_EQ(ts::get_kernel(op, ts::kCPU, set).dtypes.bits(),
                    ts::DTypeSet::floating().bits())
              << name << " " << ts::op_info(op).name;
        });
  }
}

TEST(NnParams, EachOpCarriesItsStruct) {
  ts::KernelSetGuard g(capture_set());
  const Tensor x = make(ts::kFloat, {1, 2, 3, 4, 5, 6}, {2, 3});
  ts::log_softmax(x, -1, ts::kDouble);
  EXPECT_EQ(captured.get<ts::DimParams>().dim, 1);
  EXPECT_EQ(captured.compute_dtype, ts::kDouble);
  ts::layer_norm(x, {3}, {}, {}, 0.25);
  EXPECT_EQ(captured.get<ts::LayerNormParams>().eps, 0.25);
  EXPECT_EQ(std::vector<int64_t>(captured.get<ts::LayerNormParams>().dims.begin(),
                                 captured.get<ts::LayerNormParams>().dims.end()),
            std::vector<int64_t>{1});
  ts::nll_loss(x, make_long({0, 2}), {}, Reduction::Sum, 2);
  EXPECT_EQ(captured.get<ts::NllLossParams>().reduction, Reduction::Sum);
  EXPECT_EQ(captured.get<ts::NllLossParams>().ignore_index, 2);
  EXPECT_EQ(captured.get<ts::NllLossParams>().class_dim, 1);
  ts::nll_loss(make(ts::kFloat, {1, 2, 3}, {3}), make_long({1}, {}), {}, Reduction::None);
  EXPECT_EQ(captured.get<ts::NllLossParams>().class_dim, 0);  // a 1-D input
  EXPECT_EQ(captured.get<ts::NllLossParams>().reduction, Reduction::None);
  ts::mse_loss(x, x, Reduction::Mean);
  EXPECT_EQ(captured.get<ts::LossParams>().reduction, Reduction::Mean);
}

}  // namespace
