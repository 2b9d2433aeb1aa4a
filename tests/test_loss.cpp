// The losses of issue 16 (binary_cross_entropy, binary_cross_entropy_with_logits, l1_loss,
// smooth_l1_loss, huber_loss, kl_div, cosine_similarity, pairwise_distance,
// cosine_embedding_loss, margin_ranking_loss, triplet_margin_loss, ctc_loss): values worked by
// hand (ctc_loss by enumerating alignments), errors naming op and argument, gradients by hand and
// gradcheck, in the reference and the optimized sets alike.
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
using ts::Reduction;
using ts::Tensor;
using ts::autograd_test::expect_gradchecks;
using ts::autograd_test::randn_input;

constexpr double kLn2 = 0.6931471805599453;
constexpr double kInf = std::numeric_limits<double>::infinity();

// ---- the pointwise losses ----

TEST(L1Loss, AbsoluteDifferencesReduced) {
  each_set([] {
    const Tensor x = make(kDouble, {1, 2, 3}), y = make(kDouble, {1.5, 0, 3});
    EXPECT_TENSOR(ts::l1_loss(x, y, Reduction::None), kDouble, {3}, {0.5, 2, 0});
    EXPECT_TENSOR_NEAR(ts::l1_loss(x, y), kDouble, {}, {2.5 / 3}, kF64);
    EXPECT_TENSOR(ts::l1_loss(x, y, Reduction::Sum), kDouble, {}, {2.5});
    // Broadcast as ATen's (input - target).abs().
    EXPECT_TENSOR(
        ts::l1_loss(make(kFloat, {1, 2, 3, 4}, {2, 2}), make(kFloat, {1, 1}), Reduction::None),
        kFloat, {2, 2}, {0, 1, 2, 3});
  });
}

TEST(SmoothL1Loss, QuadraticInsideBetaLinearOutside) {
  each_set([] {
    const Tensor x = make(kDouble, {1, 2, 3}), y = make(kDouble, {1.5, 0, 3});
    // |d| = 0.5, 2, 0: 0.5 * 0.25 / 1, 2 - 0.5, 0.
    EXPECT_TENSOR(ts::smooth_l1_loss(x, y, Reduction::None), kDouble, {3}, {0.125, 1.5, 0});
    EXPECT_TENSOR(ts::smooth_l1_loss(x, y, Reduction::Sum), kDouble, {}, {1.625});
    // beta 4: both inside, 0.5 d^2 / 4.
    EXPECT_TENSOR(ts::smooth_l1_loss(x, y, Reduction::None, 4.0), kDouble, {3}, {0.03125, 0.5, 0});
    // beta 0 is l1_loss.
    EXPECT_TENSOR(ts::smooth_l1_loss(x, y, Reduction::None, 0.0), kDouble, {3}, {0.5, 2, 0});
    // The gradient: d / beta inside, sign(d) outside.
    const Tensor xg = make(kDouble, {1, 2, 3}).requires_grad_();
    ts::smooth_l1_loss(xg, y, Reduction::Sum).backward();
    EXPECT_TENSOR(xg.grad(), kDouble, {3}, {-0.5, 1, 0});
  });
  EXPECT_ERROR(ts::smooth_l1_loss(ts::zeros({2}), ts::zeros({2}), Reduction::Mean, -1.0),
               "smooth_l1_loss: smooth_l1_loss does not support negative values for beta");
}

TEST(HuberLoss, DeltaScalesTheLinearPart) {
  each_set([] {
    const Tensor x = make(kDouble, {1, 2, 3}), y = make(kDouble, {1.5, 0, 3});
    EXPECT_TENSOR(ts::huber_loss(x, y, Reduction::None), kDouble, {3}, {0.125, 1.5, 0});
    // delta 0.5: 0.5 * (0.5 - 0.25), 0.5 * (2 - 0.25), 0.
    EXPECT_TENSOR(ts::huber_loss(x, y, Reduction::None, 0.5), kDouble, {3}, {0.125, 0.875, 0});
    EXPECT_TENSOR(ts::huber_loss(x, y, Reduction::Mean, 0.5), kDouble, {}, {1.0 / 3});
  });
  EXPECT_ERROR(ts::huber_loss(ts::zeros({2}), ts::zeros({2}), Reduction::Mean, 0.0),
               "huber_loss: huber_loss does not support non-positive values for delta");
}

TEST(KlDiv, PointwiseDivergenceWithAndWithoutLogTarget) {
  each_set([] {
    // 0.5 ln 0.5 + 0.5 and 0.25 ln 0.25 + 0.5: both 0.5 - ln 2 / 2.
    const double v = 0.5 - kLn2 / 2;
    const Tensor x = make(kDouble, {-1, -2});
    EXPECT_TENSOR_NEAR(ts::kl_div(x, make(kDouble, {0.5, 0.25}), Reduction::None), kDouble, {2},
                       {v, v}, kF64);
    EXPECT_TENSOR_NEAR(ts::kl_div(x, make(kDouble, {-kLn2, -2 * kLn2}), Reduction::Sum, true),
                       kDouble, {}, {2 * v}, kF64);
    // A zero target contributes 0 (xlogy(0, 0) = 0), not NaN.
    EXPECT_TENSOR(ts::kl_div(make(kDouble, {-3}), make(kDouble, {0}), Reduction::None), kDouble,
                  {1}, {0});
    EXPECT_TENSOR_NEAR(ts::kl_div(x, make(kDouble, {0.5, 0.25})), kDouble, {}, {v}, kF64);
  });
  EXPECT_ERROR(ts::kl_div(ts::zeros({2}, ts::kLong), ts::zeros({2}, ts::kLong)), "kl_div:");
}

// ---- binary cross entropy ----

TEST(BinaryCrossEntropy, ValuesWeightsAndTheClampedLog) {
  each_set([] {
    for (const ts::ScalarType dt : {kFloat, kDouble}) {
      const double tol = dt == kFloat ? 1e-6 : kF64;
      const Tensor x = make(dt, {0.5, 0.8}), y = make(dt, {1, 0});
      // -ln 0.5 and -ln 0.2.
      EXPECT_TENSOR_NEAR(ts::binary_cross_entropy(x, y, {}, Reduction::None), dt, {2},
                         {kLn2, 1.6094379124341003}, tol);
      EXPECT_TENSOR_NEAR(ts::binary_cross_entropy(x, y, make(dt, {2, 1}), Reduction::Sum), dt, {},
                         {2 * kLn2 + 1.6094379124341003}, tol);
      // log(0) is clamped at -100, as ATen: x 0 with y 1, x 1 with y 0 give 100; x = y gives 0.
      EXPECT_TENSOR(ts::binary_cross_entropy(make(dt, {0, 1, 0, 1}), make(dt, {1, 0, 0, 1}), {},
                                             Reduction::None),
                    dt, {4}, {100, 100, 0, 0});
    }
  });
}

TEST(BinaryCrossEntropy, GradientsAndChecks) {
  each_set([] {
    // d/dx = (x - y) / ((1 - x) x) / n: -0.5 / 0.25 / 2 and 0.8 / 0.16 / 2; d/dy = -logit(x) / n.
    const Tensor x = make(kDouble, {0.5, 0.8}).requires_grad_();
    const Tensor y = make(kDouble, {1, 0}).requires_grad_();
    ts::binary_cross_entropy(x, y).backward();
    EXPECT_TENSOR_NEAR(x.grad(), kDouble, {2}, {-1, 2.5}, 1e-12);
    EXPECT_TENSOR_NEAR(y.grad(), kDouble, {2}, {0, -kLn2}, 1e-12);
    const Tensor w = make(kDouble, {0.5, 2, 1});
    expect_gradchecks(
        [&](const std::vector<Tensor>& in) {
          return std::vector<Tensor>{ts::binary_cross_entropy(in[0], in[1], w, Reduction::Mean)};
        },
        {make(kDouble, {0.2, 0.5, 0.7}).requires_grad_(),
         make(kDouble, {0.3, 0.9, 0.1}).requires_grad_()},
        false);
  });
  EXPECT_ERROR(ts::binary_cross_entropy(make(kFloat, {0.5, 1.5}), make(kFloat, {1, 0})),
               "binary_cross_entropy: all elements of input should be between 0 and 1");
  EXPECT_ERROR(ts::binary_cross_entropy(make(kFloat, {0.5, 0.5}), make(kFloat, {1, -1})),
               "binary_cross_entropy: all elements of target should be between 0 and 1");
  EXPECT_ERROR(ts::binary_cross_entropy(ts::zeros({2, 3}), ts::zeros({3})), "(argument 'target')");
  EXPECT_ERROR(
      ts::binary_cross_entropy(ts::zeros({2}), ts::zeros({2}), {}, static_cast<Reduction>(3)),
      "(argument 'reduction')");
}

TEST(BinaryCrossEntropyWithLogits, StableFormAndPosWeight) {
  each_set([] {
    const Tensor x = make(kDouble, {0, 2}), y = make(kDouble, {1, 0});
    // -log_sigmoid(0) = ln 2; 2 - log_sigmoid(2) = softplus(2) = ln(1 + e^2).
    EXPECT_TENSOR_NEAR(ts::binary_cross_entropy_with_logits(x, y, {}, {}, Reduction::None), kDouble,
                       {2}, {kLn2, 2.1269280110429727}, kF64);
    // pos_weight 3 weighs the positive term: 3 ln 2.
    EXPECT_TENSOR_NEAR(
        ts::binary_cross_entropy_with_logits(x, y, {}, make(kDouble, {3}), Reduction::None),
        kDouble, {2}, {3 * kLn2, 2.1269280110429727}, kF64);
    EXPECT_TENSOR_NEAR(
        ts::binary_cross_entropy_with_logits(x, y, make(kDouble, {2, 0.5}), {}, Reduction::Sum),
        kDouble, {}, {2 * kLn2 + 0.5 * 2.1269280110429727}, kF64);
    // Logits of +-100 in float32: no overflow, the loss is 100.
    EXPECT_TENSOR(ts::binary_cross_entropy_with_logits(
                      make(kFloat, {100, -100}), make(kFloat, {0, 1}), {}, {}, Reduction::None),
                  kFloat, {2}, {100, 100});
    // d/dx = sigmoid(x) - y: -0.5 at 0 with y 1.
    const Tensor xg = make(kDouble, {0}).requires_grad_();
    ts::binary_cross_entropy_with_logits(xg, make(kDouble, {1})).backward();
    EXPECT_TENSOR_NEAR(xg.grad(), kDouble, {1}, {-0.5}, kF64);
  });
  EXPECT_ERROR(ts::binary_cross_entropy_with_logits(ts::zeros({2, 3}), ts::zeros({3})),
               "binary_cross_entropy_with_logits: Target size");
}

// ---- distances ----

TEST(CosineSimilarity, RowsAndTheClampedNorm) {
  each_set([] {
    const Tensor a = make(kDouble, {1, 0, 3, 4}, {2, 2}), b = make(kDouble, {0, 1, 4, 3}, {2, 2});
    EXPECT_TENSOR_NEAR(ts::cosine_similarity(a, b), kDouble, {2}, {0, 0.96}, kF64);
    // dim 0: columns (1, 3).(0, 4) / (sqrt(10) * 4) and (0, 4).(1, 3) / (4 * sqrt(10)).
    const double c = 12 / (std::sqrt(10.0) * 4);
    EXPECT_TENSOR_NEAR(ts::cosine_similarity(a, b, 0), kDouble, {2}, {c, c}, kF64);
    // A zero vector: its norm is clamped to eps, the similarity is 0.
    EXPECT_TENSOR(ts::cosine_similarity(make(kDouble, {0, 0}), make(kDouble, {1, 1}), 0), kDouble,
                  {}, {0});
    expect_gradchecks(
        [](const std::vector<Tensor>& in) {
          return std::vector<Tensor>{ts::cosine_similarity(in[0], in[1], -1)};
        },
        {randn_input({3, 4}, 1), randn_input({3, 4}, 2)});
  });
  EXPECT_ERROR(ts::cosine_similarity(ts::zeros({2, 3}), ts::zeros({3, 4})), "cosine_similarity:");
}

TEST(PairwiseDistance, NormOfTheDifferencePlusEps) {
  each_set([] {
    const Tensor a = make(kDouble, {0, 0}, {1, 2}), b = make(kDouble, {3, 4}, {1, 2});
    EXPECT_TENSOR_NEAR(ts::pairwise_distance(a, b, 2, 0.0), kDouble, {1}, {5}, kF64);
    EXPECT_TENSOR_NEAR(ts::pairwise_distance(a, b, 1, 0.0, true), kDouble, {1, 1}, {7}, kF64);
    // eps is added to the difference: |(-3 + 1e-6, -4 + 1e-6)|.
    const double d = std::hypot(3 - 1e-6, 4 - 1e-6);
    EXPECT_TENSOR_NEAR(ts::pairwise_distance(a, b), kDouble, {1}, {d}, kF64);
    expect_gradchecks(
        [](const std::vector<Tensor>& in) {
          return std::vector<Tensor>{ts::pairwise_distance(in[0], in[1], 3)};
        },
        {randn_input({3, 4}, 3), randn_input({3, 4}, 4)});
  });
}

TEST(CosineEmbeddingLoss, SimilarAndDissimilarPairs) {
  each_set([] {
    const Tensor a = make(kDouble, {1, 0, 1, 0}, {2, 2}), b = make(kDouble, {1, 0, 0, 1}, {2, 2});
    // cos = (1, 0) up to the 1e-12 of ATen's EPSILON: 1 - cos where y = 1, max(0, cos - m) where
    // y = -1.
    EXPECT_TENSOR_NEAR(
        ts::cosine_embedding_loss(a, b, make(kDouble, {1, -1}), 0.0, Reduction::None), kDouble, {2},
        {0, 0}, 1e-10);
    EXPECT_TENSOR_NEAR(
        ts::cosine_embedding_loss(a, b, make(kDouble, {-1, 1}), 0.5, Reduction::None), kDouble, {2},
        {0.5, 1}, 1e-10);
    EXPECT_TENSOR_NEAR(ts::cosine_embedding_loss(a, b, make(kDouble, {-1, 1})), kDouble, {}, {1},
                       1e-10);
  });
  EXPECT_ERROR(ts::cosine_embedding_loss(ts::zeros({2, 3}), ts::zeros({2, 3}), ts::zeros({2, 3})),
               "cosine_embedding_loss: 0D or 1D target tensor expected");
}

TEST(MarginRankingLoss, HingeOnTheOrderedDifference) {
  each_set([] {
    const Tensor x1 = make(kDouble, {1, 2, 3}), x2 = make(kDouble, {2, 2, 1});
    const Tensor y = make(kDouble, {1, -1, 1});
    EXPECT_TENSOR(ts::margin_ranking_loss(x1, x2, y, 0.5, Reduction::None), kDouble, {3},
                  {1.5, 0.5, 0});
    EXPECT_TENSOR_NEAR(ts::margin_ranking_loss(x1, x2, y, 0.5), kDouble, {}, {2.0 / 3}, kF64);
  });
}

TEST(TripletMarginLoss, DistancesAndSwap) {
  each_set([] {
    const Tensor a = make(kDouble, {0, 0}, {1, 2}), p = make(kDouble, {3, 4}, {1, 2});
    const Tensor n = make(kDouble, {6, 8}, {1, 2});
    // 1 + 5 - 10 < 0; with swap d(p, n) = 5 replaces 10: 1 + 5 - 5.
    EXPECT_TENSOR(ts::triplet_margin_loss(a, p, n, 1.0, 2, 0.0, false, Reduction::None), kDouble,
                  {1}, {0});
    EXPECT_TENSOR_NEAR(ts::triplet_margin_loss(a, p, n, 1.0, 2, 0.0, true), kDouble, {}, {1}, kF64);
    expect_gradchecks(
        [](const std::vector<Tensor>& in) {
          return std::vector<Tensor>{
              ts::triplet_margin_loss(in[0], in[1], in[2], 2.0, 2, 1e-6, true, Reduction::Sum)};
        },
        {randn_input({4, 3}, 5), randn_input({4, 3}, 6), randn_input({4, 3}, 7)});
  });
  EXPECT_ERROR(ts::triplet_margin_loss(ts::zeros({2, 3}), ts::zeros({3}), ts::zeros({2, 3})),
               "triplet_margin_loss: The anchor, positive, and negative tensors");
}

// ---- ctc_loss ----

// Note [ctc_loss known answer]
// Frame probabilities y0 = (0.2, 0.5, 0.3), y1 = (0.1, 0.3, 0.6), blank 0. Target (1, 2) has one
// alignment of two frames, (1, 2): p = 0.5 * 0.6 = 0.3. Target (1) has three, (1, 1), (0, 1),
// (1, 0): p = 0.15 + 0.06 + 0.05 = 0.26.
Tensor ctc_log_probs() {
  return make(kDouble, {0.2, 0.5, 0.3, 0.2, 0.5, 0.3, 0.1, 0.3, 0.6, 0.1, 0.3, 0.6}, {2, 2, 3})
      .log();
}

TEST(CtcLoss, EnumeratedAlignments) {
  const double nll0 = -std::log(0.3), nll1 = -std::log(0.26);
  each_set([&] {
    const Tensor lp = ctc_log_probs();
    const Tensor padded = make(kLong, {1, 2, 1, 0}, {2, 2});
    EXPECT_TENSOR_NEAR(ts::ctc_loss(lp, padded, {2, 2}, {2, 1}, 0, Reduction::None), kDouble, {2},
                       {nll0, nll1}, kF64);
    // Mean divides each loss by its target length, then averages; Sum adds.
    EXPECT_TENSOR_NEAR(ts::ctc_loss(lp, padded, {2, 2}, {2, 1}), kDouble, {},
                       {(nll0 / 2 + nll1) / 2}, kF64);
    EXPECT_TENSOR_NEAR(ts::ctc_loss(lp, padded, {2, 2}, {2, 1}, 0, Reduction::Sum), kDouble, {},
                       {nll0 + nll1}, kF64);
    // The concatenated form and int32 targets give the same.
    EXPECT_TENSOR_NEAR(ts::ctc_loss(lp, make(kInt, {1, 2, 1}), {2, 2}, {2, 1}, 0, Reduction::None),
                       kDouble, {2}, {nll0, nll1}, kF64);
    // Unbatched (T, C): sample 1 alone, a 0-dim loss for reduction none.
    EXPECT_TENSOR_NEAR(
        ts::ctc_loss(lp.select(1, 1), make(kLong, {1}), {2}, {1}, 0, Reduction::None), kDouble, {},
        {nll1}, kF64);
    // Lengths as tensors (ctc_loss.Tensor).
    EXPECT_TENSOR_NEAR(
        ts::ctc_loss(lp, padded, make(kLong, {2, 2}), make(kLong, {2, 1}), 0, Reduction::None),
        kDouble, {2}, {nll0, nll1}, kF64);
    // One frame of sample 1: only (1) aligns, p = 0.5 (input_length 1 < T).
    EXPECT_TENSOR_NEAR(ts::ctc_loss(lp, padded, {2, 1}, {2, 1}, 0, Reduction::None), kDouble, {2},
                       {nll0, kLn2}, kF64);
    // An empty target: all blanks, p = 0.2 * 0.1.
    EXPECT_TENSOR_NEAR(ts::ctc_loss(lp, padded, {2, 2}, {2, 0}, 0, Reduction::None), kDouble, {2},
                       {nll0, -std::log(0.02)}, kF64);
  });
}

TEST(CtcLoss, ImpossibleAlignmentsAreInfiniteUnlessZeroInfinity) {
  each_set([] {
    // (1, 1) needs a blank between the repeats: three frames, two given.
    const Tensor lp = ctc_log_probs();
    const Tensor t = make(kLong, {1, 1, 1, 0}, {2, 2});
    EXPECT_TENSOR_NEAR(ts::ctc_loss(lp, t, {2, 2}, {2, 1}, 0, Reduction::None), kDouble, {2},
                       {kInf, -std::log(0.26)}, kF64);
    EXPECT_TENSOR_NEAR(ts::ctc_loss(lp, t, {2, 2}, {2, 1}, 0, Reduction::None, true), kDouble, {2},
                       {0, -std::log(0.26)}, kF64);
    // A target longer than the input, likewise (ATen's semantics: not an error).
    EXPECT_TENSOR(ts::ctc_loss(lp, t, {1, 1}, {2, 1}, 0, Reduction::Sum), kDouble, {}, {kInf});
    const Tensor x = lp.clone().requires_grad_();
    ts::ctc_loss(x, t, {2, 2}, {2, 1}, 0, Reduction::Sum, true).backward();
    const std::vector<double> g = values(x.grad());
    EXPECT_EQ(g[0], 0);  // sample 0's gradient is zeroed
  });
}

TEST(CtcLoss, GradientAsATenAndGradcheckThroughLogSoftmax) {
  each_set([] {
    // Sample 1, frame 0: exp(lp) - (paths through (0, c)) / p: 0.2 - 0.06 / 0.26, 0.5 - 0.2 /
    // 0.26, 0.3 - 0 (Note [ctc_loss gradient]).
    const Tensor x = ctc_log_probs().requires_grad_();
    ts::ctc_loss(x, make(kLong, {1, 2, 1, 0}, {2, 2}), {2, 2}, {2, 1}, 0, Reduction::Sum)
        .backward();
    const Tensor g = x.grad().select(0, 0).select(0, 1);
    EXPECT_TENSOR_NEAR(g, kDouble, {3}, {0.2 - 0.06 / 0.26, 0.5 - 0.2 / 0.26, 0.3}, 1e-12);
    const Tensor targets = make(kLong, {1, 2, 2, 3, 1, 0}, {2, 3});
    for (const Reduction r : {Reduction::None, Reduction::Mean, Reduction::Sum}) {
      expect_gradchecks(
          [&](const std::vector<Tensor>& in) {
            return std::vector<Tensor>{
                ts::ctc_loss(ts::log_softmax(in[0], 2), targets, {6, 5}, {3, 2}, 0, r)};
          },
          {randn_input({6, 2, 4}, 8)}, false);
    }
  });
}

// Uniform frames (every class 1/C): a target of L labels without adjacent repeats has
// binomial(T + L, 2L) alignments over T frames (each label a run, blanks around and between
// them), so nll = T ln C - ln binomial(T + L, 2L). 50 frames and 41 states: the optimized set's
// rows run in vector lanes (Note [ctc_loss's rows in lanes]), its gradient rows too, which must
// match the reference's, and a NaN frame takes the scalar sums, as the reference.
TEST(CtcLoss, LongUniformSequencesCountTheirAlignments) {
  constexpr int64_t T = 50, C = 30, L = 20;
  const double ln_binom =
      std::lgamma(T + L + 1.0) - std::lgamma(2 * L + 1.0) - std::lgamma(T - L + 1.0);
  const double nll = T * std::log(static_cast<double>(C)) - ln_binom;
  std::vector<double> labels;
  for (int64_t i = 0; i < L; ++i) labels.push_back(static_cast<double>(1 + i % (C - 1)));
  std::vector<std::vector<double>> got[2];
  int set = 0;
  each_set([&] {
    for (const ts::ScalarType dt : {ts::kDouble, ts::kFloat}) {
      const Tensor lp = ts::full({T, 1, C}, -std::log(static_cast<double>(C)), dt);
      const Tensor targets = make(kLong, labels, {1, L});
      EXPECT_TENSOR_NEAR(ts::ctc_loss(lp, targets, {T}, {L}, 0, Reduction::Sum), dt, {}, {nll},
                         dt == ts::kDouble ? 1e-11 : 2e-5);
    }
    // Random frames, repeated labels (skips masked), a class never possible and a label
    // impossible for five frames (-inf), then a NaN frame.
    ts::manual_seed(5);
    Tensor lp = ts::log_softmax(ts::randn({T, 2, C}, ts::kDouble), 2);
    lp.select(2, C - 1).fill_(-kInf);
    lp.narrow(0, 10, 5).select(2, 3).fill_(-kInf);
    const Tensor targets = ts::remainder(ts::arange(2 * L, ts::kLong), 7).add(1).view({2, L});
    const Tensor x = lp.clone().requires_grad_();
    const Tensor loss = ts::ctc_loss(x, targets, {T, T - 3}, {L, L - 2}, 0, Reduction::None);
    loss.sum().backward();
    lp.select(0, 9).select(0, 1).fill_(std::nan(""));
    got[set++] = {values(loss), values(x.grad()),
                  values(ts::ctc_loss(lp, targets, {T, T}, {L, L}, 0, Reduction::None))};
  });
  ASSERT_EQ(set, 2);
  for (size_t k = 0; k < 3; ++k) {
    const std::vector<double>&a = got[0][k], &b = got[1][k];
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
      if (a[i] == b[i]) continue;  // infinities too
      if (std::isnan(a[i]) || std::isnan(b[i])) {
        EXPECT_EQ(std::isnan(a[i]), std::isnan(b[i])) << "output " << k << " element " << i;
      } else {
        EXPECT_NEAR(a[i], b[i], 1e-12 * std::max(1.0, std::fabs(a[i])))
            << "output " << k << " element " << i;
      }
    }
  }
}

// A recorded backward would hold the kernel's gradient as a constant: a wrong second
// derivative, so create_graph through ctc_loss is refused (Note [ctc_loss gradient]).
TEST(CtcLoss, NotTwiceDifferentiable) {
  const Tensor x = ctc_log_probs().requires_grad_();
  const Tensor loss = ts::ctc_loss(x, make(kLong, {1, 2, 1, 0}, {2, 2}), {2, 2}, {2, 1});
  EXPECT_NE(error_of([&] {
              loss.backward({}, std::nullopt, /*create_graph=*/true);
            }).find("ctc_loss: its gradient is not twice differentiable"),
            std::string::npos);
}

TEST(CtcLoss, Errors) {
  const Tensor lp = ts::zeros({4, 2, 3});
  const Tensor t = ts::ones({2, 2}, ts::kLong);
  EXPECT_ERROR(ts::ctc_loss(ts::zeros({3}), t, {3}, {1}), "(argument 'log_probs')");
  EXPECT_ERROR(ts::ctc_loss(lp, t, {4}, {2, 2}), "input_lengths must be of size batch_size");
  EXPECT_ERROR(ts::ctc_loss(lp, t, {4, 5}, {2, 2}), "input_lengths to have value at most 4");
  EXPECT_ERROR(ts::ctc_loss(lp, t, {4, 4}, {2, -1}), "(argument 'target_lengths')");
  EXPECT_ERROR(ts::ctc_loss(lp, t, {4, 4}, {2, 2}, 3), "blank must be in label range");
  EXPECT_ERROR(ts::ctc_loss(lp, t, {4, 4}, {2, 3}), "(argument 'targets')");
  EXPECT_ERROR(ts::ctc_loss(lp, ts::zeros({2, 2}, ts::kLong), {4, 4}, {2, 2}),
               "ctc_loss: target value 0 is out of range");
  EXPECT_ERROR(ts::ctc_loss(lp, ts::ones({2, 2}), {4, 4}, {2, 2}),
               "targets must be int64 or int32");
  EXPECT_ERROR(ts::ctc_loss(lp, t, {4, 4}, {2, 2}, 0, static_cast<Reduction>(4)),
               "(argument 'reduction')");
  // Padding past a target length is never read (0 is the blank here).
  EXPECT_NO_THROW(ts::ctc_loss(lp, make(kLong, {1, 0, 2, 0}, {2, 2}), {4, 4}, {1, 1}));
}

}  // namespace
