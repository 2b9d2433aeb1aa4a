// The normalization, embedding, attention and gated-activation ops of issue 16 (batch_norm,
// group_norm, rms_norm, instance_norm, local_response_norm, embedding, one_hot,
// scaled_dot_product_attention, glu, prelu): values worked by hand, running statistics, the
// errors naming op and argument, and gradients (by hand and gradcheck), in the reference and
// the optimized sets alike.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "autograd_util.h"
#include "cpu_sets_util.h"
#include "test_util.h"
#include "touchstone/touchstone.h"

namespace {

using namespace ts::testing;
using ts::IntArrayRef;
using ts::ScalarType;
using ts::Tensor;
using ts::autograd_test::expect_gradchecks;
using ts::autograd_test::randn_input;

Tensor col(ScalarType dt, const Values& v, IntArrayRef shape) {
  return make(dt, v, shape);
}

// ---- batch_norm ----

TEST(BatchNorm, TrainingNormalizesWithTheBatchAndUpdatesRunningStatistics) {
  each_set([] {
    for (const ScalarType dt : {kFloat, kDouble}) {
      // One channel [1, 2, 3, 4]: mean 2.5, biased variance 1.25.
      const Tensor x = col(dt, {1, 2, 3, 4}, {4, 1});
      const Tensor rm = make(dt, {0}), rv = make(dt, {1});
      const Tensor y = ts::batch_norm(x, {}, {}, rm, rv, true, 0.1, 0.0);
      const double r = 1 / std::sqrt(1.25);
      EXPECT_TENSOR_NEAR(y, dt, {4, 1}, {-1.5 * r, -0.5 * r, 0.5 * r, 1.5 * r}, 1e-6);
      // 0.9 * 0 + 0.1 * 2.5; 0.9 * 1 + 0.1 * (unbiased 5 / 3).
      EXPECT_TENSOR_NEAR(rm, dt, {1}, {0.25}, 1e-7);
      EXPECT_TENSOR_NEAR(rv, dt, {1}, {0.9 + 0.5 / 3}, 1e-7);
    }
    // Without running statistics nothing else is written.
    const Tensor y = ts::batch_norm(col(kDouble, {1, 3}, {2, 1}), {}, {}, {}, {}, true, 0.1, 0.0);
    EXPECT_TENSOR_NEAR(y, kDouble, {2, 1}, {-1, 1}, 1e-15);
    // A constant channel with eps 0: ATen's invstd is 0 there, so 0 rather than 0 / 0.
    EXPECT_TENSOR(ts::batch_norm(col(kDouble, {2, 2}, {2, 1}), {}, {}, {}, {}, true, 0.1, 0.0),
                  kDouble, {2, 1}, {0, 0});
  });
}

TEST(BatchNorm, EvaluationUsesRunningStatisticsWeightAndBias) {
  each_set([] {
    // Two channels over [1, 2, 1]: (1 - 0.5) / 2 and (2 - 1) / 1, then * [2, 3] + [1, -1].
    const Tensor x = make(kDouble, {1, 2}, {1, 2, 1});
    const Tensor rm = make(kDouble, {0.5, 1}), rv = make(kDouble, {4, 1});
    EXPECT_TENSOR_NEAR(ts::batch_norm(x, {}, {}, rm, rv, false, 0.1, 0.0), kDouble, {1, 2, 1},
                       {0.25, 1}, 1e-15);
    const Tensor w = make(kDouble, {2, 3}), b = make(kDouble, {1, -1});
    EXPECT_TENSOR_NEAR(ts::batch_norm(x, w, b, rm, rv, false, 0.1, 0.0), kDouble, {1, 2, 1},
                       {1.5, 2}, 1e-15);
    // Evaluation leaves the running statistics as they were.
    EXPECT_TENSOR(rm, kDouble, {2}, {0.5, 1});
    // A non-contiguous input (channels last, permuted) gives the same values.
    const Tensor xt = make(kDouble, {1, 3, 2, 6}, {2, 2}).t();  // [[1, 2], [3, 6]]
    const Tensor yt = ts::batch_norm(xt, {}, {}, {}, {}, true, 0.1, 0.0);
    EXPECT_TENSOR_NEAR(yt, kDouble, {2, 2}, {-1, -1, 1, 1}, 1e-15);
  });
}

TEST(BatchNorm, Errors) {
  const Tensor x = ts::zeros({2, 3});
  EXPECT_ERROR(ts::batch_norm(ts::zeros({3}), {}, {}, {}, {}, true),
               "batch_norm: Expected input to have at least 2 dimensions");
  EXPECT_ERROR(ts::batch_norm(x, ts::ones({4}), {}, {}, {}, true),
               "batch_norm: weight should contain 3 elements not 4");
  EXPECT_ERROR(ts::batch_norm(x, {}, {}, ts::zeros({2}), ts::ones({3}), true),
               "batch_norm: running_mean should contain 3 elements not 2");
  EXPECT_ERROR(ts::batch_norm(x, {}, {}, {}, {}, false),
               "batch_norm: running_mean and running_var must be defined in evaluation mode");
  EXPECT_ERROR(ts::batch_norm(ts::zeros({1, 3}), {}, {}, {}, {}, true),
               "batch_norm: Expected more than 1 value per channel when training");
  EXPECT_ERROR(ts::batch_norm(ts::zeros({2, 3}, ts::kLong), {}, {}, {}, {}, true),
               "batch_norm: not implemented for dtype int64");
  EXPECT_ERROR(ts::batch_norm(x, ts::ones({3}, ts::kDouble), {}, {}, {}, true),
               "batch_norm: expected weight to have the input's dtype float32");
  const Tensor rm = ts::zeros({3}).requires_grad_();
  EXPECT_ERROR(ts::batch_norm(x, {}, {}, rm, ts::ones({3}), true),
               "batch_norm: the derivative for 'running_mean' is not implemented");
  // A failed call leaves the running statistics untouched.
  const Tensor m = ts::zeros({3}), v = ts::ones({3});
  EXPECT_ERROR(ts::batch_norm(x, ts::ones({2}), {}, m, v, true), "weight");
  EXPECT_TENSOR(v, kFloat, {3}, {1, 1, 1});
}

TEST(BatchNorm, GradientsByHandAndGradcheck) {
  each_set([] {
    // Evaluation: d/dx = w / sqrt(running_var + eps): 3 / 2.
    const Tensor x = make(kDouble, {1, 2}, {1, 2}).requires_grad_();
    const Tensor w = make(kDouble, {3, 1}).requires_grad_();
    ts::batch_norm(x, w, {}, make(kDouble, {0, 0}), make(kDouble, {4, 1}), false, 0.1, 0.0)
        .sum()
        .backward();
    EXPECT_TENSOR_NEAR(x.grad(), kDouble, {1, 2}, {1.5, 1}, 1e-15);
    // d/dw = sum of xhat: (1 - 0) / 2 and (2 - 0) / 1.
    EXPECT_TENSOR_NEAR(w.grad(), kDouble, {2}, {0.5, 2}, 1e-15);
    // Training: the sum of a normalized channel is 0 whatever x, so its gradient is 0.
    const Tensor xs = make(kDouble, {1, 2, 4}, {3, 1}).requires_grad_();
    ts::batch_norm(xs, {}, {}, {}, {}, true).sum().backward();
    EXPECT_TENSOR_NEAR(xs.grad(), kDouble, {3, 1}, {0, 0, 0}, 1e-12);
    for (const bool training : {true, false}) {
      const Tensor rm = make(kDouble, {0.1, -0.2, 0.3}), rv = make(kDouble, {0.5, 1.5, 2});
      expect_gradchecks(
          [&](const std::vector<Tensor>& in) {
            return std::vector<Tensor>{
                ts::batch_norm(in[0], in[1], in[2], rm.clone(), rv.clone(), training, 0.1, 1e-3)};
          },
          {randn_input({4, 3, 2}, 1), randn_input({3}, 2), randn_input({3}, 3)});
    }
  });
}

// ---- group_norm ----

TEST(GroupNorm, NormalizesEachGroupOfEachSample) {
  each_set([] {
    // [1, 2 | 3, 4] in two groups: each (x - mean) / 0.5 = [-1, 1].
    const Tensor x = make(kDouble, {1, 2, 3, 4}, {1, 4, 1});
    EXPECT_TENSOR_NEAR(ts::group_norm(x, 2, {}, {}, 0.0), kDouble, {1, 4, 1}, {-1, 1, -1, 1},
                       1e-15);
    const Tensor w = make(kDouble, {1, 2, 3, 4}), b = make(kDouble, {0, 0, 1, 1});
    EXPECT_TENSOR_NEAR(ts::group_norm(x, 2, w, b, 0.0), kDouble, {1, 4, 1}, {-1, 2, -2, 5}, 1e-15);
    // One group over all four: mean 2.5, variance 1.25.
    const double r = 1 / std::sqrt(1.25);
    EXPECT_TENSOR_NEAR(ts::group_norm(make(kFloat, {1, 2, 3, 4}, {1, 4}), 1, {}, {}, 0.0), kFloat,
                       {1, 4}, {-1.5 * r, -0.5 * r, 0.5 * r, 1.5 * r}, 1e-6);
  });
}

TEST(GroupNorm, ErrorsAndGradcheck) {
  EXPECT_ERROR(ts::group_norm(ts::zeros({2, 6, 3}), 4),
               "group_norm: Expected number of channels in input to be divisible by num_groups");
  EXPECT_ERROR(
      ts::group_norm(ts::zeros({2, 6}), 2, ts::ones({4})),
      "group_norm: Expected weight to be a vector of size equal to the number of channels");
  EXPECT_ERROR(ts::group_norm(ts::zeros({6}), 2), "group_norm: Expected at least 2 dimensions");
  EXPECT_ERROR(ts::group_norm(ts::zeros({2, 6}), 0), "group_norm: Expected num_groups");
  each_set([] {
    expect_gradchecks(
        [](const std::vector<Tensor>& in) {
          return std::vector<Tensor>{ts::group_norm(in[0], 2, in[1], in[2], 1e-3)};
        },
        {randn_input({2, 4, 3}, 4), randn_input({4}, 5), randn_input({4}, 6)});
  });
}

// ---- rms_norm, instance_norm, local_response_norm ----

TEST(RmsNorm, ValuesEpsAndWeight) {
  each_set([] {
    // [3, 4]: mean square 12.5.
    const double r = 1 / std::sqrt(12.5);
    EXPECT_TENSOR_NEAR(ts::rms_norm(make(kDouble, {3, 4}), {2}, {}, 0.0), kDouble, {2},
                       {3 * r, 4 * r}, 1e-15);
    // eps None: float32's epsilon 2^-23.
    const double rf = 1 / std::sqrt(12.5 + 1.1920928955078125e-07);
    EXPECT_TENSOR_NEAR(ts::rms_norm(make(kFloat, {3, 4}), {2}), kFloat, {2}, {3 * rf, 4 * rf},
                       1e-7);
    EXPECT_TENSOR_NEAR(ts::rms_norm(make(kDouble, {3, 4}), {2}, make(kDouble, {2, -1}), 0.5),
                       kDouble, {2}, {6 / std::sqrt(13.0), -4 / std::sqrt(13.0)}, 1e-15);
  });
  EXPECT_ERROR(ts::rms_norm(ts::zeros({2, 3}), {2}), "rms_norm: Given normalized_shape=[2]");
  EXPECT_ERROR(ts::rms_norm(ts::zeros({2, 3}), {3}, ts::ones({2})),
               "rms_norm: Expected weight to be of same shape as normalized_shape");
}

TEST(InstanceNorm, NormalizesEachInstanceAndAveragesRunningStatistics) {
  each_set([] {
    // Instances [1, 3] and [2, 6]: each normalizes to [-1, 1] (eps 0).
    const Tensor x = make(kDouble, {1, 3, 2, 6}, {2, 1, 2});
    const Tensor rm = make(kDouble, {0}), rv = make(kDouble, {1});
    EXPECT_TENSOR_NEAR(ts::instance_norm(x, {}, {}, rm, rv, true, 0.1, 0.0), kDouble, {2, 1, 2},
                       {-1, 1, -1, 1}, 1e-15);
    // Means 2 and 4, unbiased variances 2 and 8: averaged after the update.
    EXPECT_TENSOR_NEAR(rm, kDouble, {1}, {0.3}, 1e-15);
    EXPECT_TENSOR_NEAR(rv, kDouble, {1}, {1.4}, 1e-15);
  });
}

TEST(LocalResponseNorm, WindowOverChannels) {
  each_set([] {
    // size 2: channel c sums x^2 over c - 1 and c; div = (1 + 1 / 2 * sum)^1.
    const Tensor x = make(kDouble, {1, 2, 3}, {1, 3, 1});
    EXPECT_TENSOR_NEAR(ts::local_response_norm(x, 2, 1.0, 1.0, 1.0), kDouble, {1, 3, 1},
                       {1 / 1.5, 2 / 3.5, 3 / 7.5}, 1e-15);
  });
  EXPECT_ERROR(ts::local_response_norm(ts::zeros({2, 3}), 2),
               "local_response_norm: Expected 3D or higher dimensionality input");
}

// ---- embedding, one_hot ----

TEST(Embedding, GathersRowsAndSkipsThePaddingRowInTheGradient) {
  each_set([] {
    const Tensor w = make(kDouble, {1, 2, 3, 4, 5, 6}, {3, 2});
    const Tensor idx = make_long({2, 0, 2});
    EXPECT_TENSOR(ts::embedding(w, idx), kDouble, {3, 2}, {5, 6, 1, 2, 5, 6});
    EXPECT_TENSOR(ts::embedding(w, idx.to(ts::kInt).view({1, 3})), kDouble, {1, 3, 2},
                  {5, 6, 1, 2, 5, 6});
    EXPECT_TENSOR(ts::embedding(make(ts::kLong, {7, 8}, {1, 2}), make_long({0, 0})), ts::kLong,
                  {2, 2}, {7, 8, 7, 8});
    const Tensor wg = w.clone().requires_grad_();
    ts::embedding(wg, idx, /*padding_idx=*/0).sum().backward();
    EXPECT_TENSOR(wg.grad(), kDouble, {3, 2}, {0, 0, 0, 0, 2, 2});
    const Tensor ws = w.clone().requires_grad_();
    ts::embedding(ws, idx, -1, /*scale_grad_by_freq=*/true).sum().backward();
    EXPECT_TENSOR(ws.grad(), kDouble, {3, 2}, {1, 1, 0, 0, 1, 1});
  });
  EXPECT_ERROR(ts::embedding(ts::zeros({3, 2}), make_long({3})),
               "embedding: index 3 is out of range");
  EXPECT_ERROR(ts::embedding(ts::zeros({3, 2}), ts::zeros({2})),
               "embedding: Expected tensor for "
               "argument #1 'indices'");
  EXPECT_ERROR(ts::embedding(ts::zeros({3}), make_long({0})), "embedding: 'weight' must be 2-D");
  EXPECT_ERROR(ts::embedding(ts::zeros({3, 2}), make_long({0}), 3),
               "embedding: Padding_idx must be within num_embeddings");
  EXPECT_ERROR(ts::embedding(ts::zeros({3, 2}), make_long({0}), -1, false, true),
               "embedding: sparse=True");
}

TEST(OneHot, ClassesInferredOrGiven) {
  EXPECT_TENSOR(ts::one_hot(make_long({0, 2, 1})), ts::kLong, {3, 3}, {1, 0, 0, 0, 0, 1, 0, 1, 0});
  EXPECT_TENSOR(ts::one_hot(make_long({1}), 4), ts::kLong, {1, 4}, {0, 1, 0, 0});
  EXPECT_ERROR(ts::one_hot(make_long({4}), 4), "one_hot: Class values must be smaller");
  EXPECT_ERROR(ts::one_hot(make_long({-1})), "one_hot: Class values must be non-negative");
  EXPECT_ERROR(ts::one_hot(ts::zeros({2})), "one_hot: one_hot is only applicable to index tensor");
  EXPECT_ERROR(ts::one_hot(ts::empty({0}, ts::kLong)), "one_hot: Can not infer");
}

// ---- scaled_dot_product_attention ----

TEST(ScaledDotProductAttention, SoftmaxOfScaledScoresTimesValues) {
  each_set([] {
    // q = [1, 0], k = I: scores [1, 0] / sqrt(2); p = softmax, out = p0 v0 + p1 v1.
    const Tensor q = make(kDouble, {1, 0}, {1, 2}), k = make(kDouble, {1, 0, 0, 1}, {2, 2});
    const Tensor v = make(kDouble, {1, 2, 3, 4}, {2, 2});
    const double e = std::exp(1 / std::sqrt(2.0)), p0 = e / (e + 1);
    EXPECT_TENSOR_NEAR(ts::scaled_dot_product_attention(q, k, v), kDouble, {1, 2},
                       {p0 + 3 * (1 - p0), 2 * p0 + 4 * (1 - p0)}, 1e-15);
    // scale 2: scores [2, 0].
    const double e2 = std::exp(2.0), p2 = e2 / (e2 + 1);
    EXPECT_TENSOR_NEAR(ts::scaled_dot_product_attention(q, k, v, {}, 0.0, false, 2.0), kDouble,
                       {1, 2}, {p2 + 3 * (1 - p2), 2 * p2 + 4 * (1 - p2)}, 1e-15);
    // Causal: row 0 sees key 0 only; a bool mask that hides key 0 leaves v1.
    const Tensor q2 = make(kDouble, {1, 0, 0, 1}, {2, 2});
    const Tensor c = ts::scaled_dot_product_attention(q2, k, v, {}, 0.0, true);
    EXPECT_EQ(values(c)[0], 1);
    EXPECT_EQ(values(c)[1], 2);
    const Tensor mask = ts::tensor({false, true}).to(ts::kBool);
    EXPECT_TENSOR_NEAR(ts::scaled_dot_product_attention(q, k, v, mask), kDouble, {1, 2}, {3, 4},
                       1e-15);
    // A row with no key left is zeros (_safe_softmax), not NaN.
    const Tensor none = ts::zeros({2}, ts::kBool);
    EXPECT_TENSOR(ts::scaled_dot_product_attention(q, k, v, none), kDouble, {1, 2}, {0, 0});
  });
  EXPECT_ERROR(
      ts::scaled_dot_product_attention(ts::zeros({2, 3}), ts::zeros({2, 4}), ts::zeros({2, 4})),
      "scaled_dot_product_attention: Expected key's last dim");
  EXPECT_ERROR(ts::scaled_dot_product_attention(ts::zeros({2, 3}), ts::zeros({2, 3}),
                                                ts::zeros({2, 3}), ts::zeros({2, 2}), 0.0, true),
               "Explicit attn_mask should not be set when is_causal=True");
}

TEST(ScaledDotProductAttention, Gradcheck) {
  each_set([] {
    expect_gradchecks(
        [](const std::vector<Tensor>& in) {
          return std::vector<Tensor>{
              ts::scaled_dot_product_attention(in[0], in[1], in[2], in[3], 0.0, false)};
        },
        {randn_input({2, 3, 4}, 7), randn_input({2, 5, 4}, 8), randn_input({2, 5, 2}, 9),
         randn_input({3, 5}, 10)},
        /*second=*/false);
  });
}

// ---- glu, prelu ----

TEST(GluPrelu, ValuesErrorsAndGradients) {
  each_set([] {
    const auto sig = [](double x) { return 1 / (1 + std::exp(-x)); };
    EXPECT_TENSOR_NEAR(ts::glu(make(kDouble, {1, 2, 3, 4})), kDouble, {2}, {sig(3), 2 * sig(4)},
                       1e-15);
    EXPECT_TENSOR(ts::prelu(make(kDouble, {-2, 3}), make(kDouble, {0.25})), kDouble, {2},
                  {-0.5, 3});
    // Per channel: channel 1 of [1, 2, 1] gets 0.5.
    EXPECT_TENSOR(ts::prelu(make(kDouble, {-2, -2}, {1, 2, 1}), make(kDouble, {0.25, 0.5})),
                  kDouble, {1, 2, 1}, {-0.5, -1});
    // prelu's weight gradient is x where x <= 0.
    const Tensor w = make(kDouble, {0.25}).requires_grad_();
    ts::prelu(make(kDouble, {-2, 3, -1}), w).sum().backward();
    EXPECT_TENSOR(w.grad(), kDouble, {1}, {-3});
    expect_gradchecks(
        [](const std::vector<Tensor>& in) { return std::vector<Tensor>{ts::glu(in[0], 1)}; },
        {randn_input({3, 4}, 11)});
  });
  EXPECT_ERROR(ts::glu(ts::zeros({3})), "glu: Halving dimension must be even");
  EXPECT_ERROR(ts::glu(ts::zeros({})), "glu: glu does not support scalars");
  EXPECT_ERROR(ts::prelu(ts::zeros({2, 3}), ts::zeros({2})),
               "prelu: Mismatch of parameter numbers and input channel size");
}

}  // namespace
