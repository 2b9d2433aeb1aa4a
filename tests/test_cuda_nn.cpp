// CUDA softmax, log_softmax, layer_norm, nll_loss and mse_loss against the CPU reference set,
// with hand values for the NaN, infinity and bad-target cases. Skipped without a device.
#include "test_cuda_util.h"

using namespace ts::testing;  // NOLINT
using ts::Tensor;

namespace {

using CudaNn = CudaTest;

TEST_F(CudaNn, SoftmaxMatchesReference) {
  for (ts::ScalarType t : kFloating) {
    // dim 2 runs rows (long and short), dims 0 and 1 run columns.
    for (const Shape& shape : {Shape{6, 9, 1000}, Shape{5, 4, 3}}) {
      const Tensor x = random_input(shape, t, 3.0);
      for (int64_t d : {2, 1, 0}) {
        for (bool log : {false, true}) {
          const std::string what = std::string(log ? "log_softmax " : "softmax ") +
                                   std::string(ts::dtype_name(t)) + " dim " + std::to_string(d);
          expect_matches_reference(
              what,
              [&](const Ts& in) { return log ? ts::log_softmax(in[0], d) : ts::softmax(in[0], d); },
              {x}, tolerance_for(t, 4));
        }
      }
    }
  }
  // A half input with dtype=float, and a transposed input.
  const Tensor h = random_input({8, 33}, kHalf);
  expect_matches_reference(
      "softmax half as float", [](const Ts& in) { return ts::softmax(in[0], 1, kFloat); }, {h},
      tolerance_for(kFloat, 4));
  expect_matches_reference(
      "log_softmax transposed",
      [](const Ts& in) { return ts::log_softmax(in[0].transpose(0, 1), 1); }, {h},
      tolerance_for(kHalf, 4));
}

TEST_F(CudaNn, SoftmaxNaNAndInfinityRows) {
  // A NaN makes its whole row NaN; -inf entries get probability 0 (log: -inf).
  const Tensor x = to_cuda(make(kFloat, {1, kNaN, 2, 0, -kInf, 0}, {2, 3}));
  const Values s = values(to_cpu(ts::softmax(x, 1)));
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(std::isnan(s[i])) << i;
  EXPECT_EQ((Values{s[3], s[4], s[5]}), (Values{0.5, 0, 0.5}));
  const Values l = values(to_cpu(ts::log_softmax(x, 1)));
  EXPECT_EQ(l[4], -kInf);
  EXPECT_NEAR(l[3], -std::log(2.0), 1e-7);
}

TEST_F(CudaNn, LayerNormMatchesReference) {
  for (ts::ScalarType t : kFloating) {
    const Tensor x = random_input({7, 3, 300}, t, 2.0, 1.0);
    const Tensor w = random_input({3, 300}, t, 1.0, 1.0, 11);
    const Tensor b = random_input({3, 300}, t, 1.0, 0.0, 13);
    const std::string name = std::string(ts::dtype_name(t));
    expect_matches_reference(
        "layer_norm " + name,
        [](const Ts& in) {
          return ts::layer_norm(in[0], {3, 300}, in[1], in[2], 1e-5);
        },
        {x, w, b}, tolerance_for(t, 900));
    expect_matches_reference(
        "layer_norm no affine " + name, [](const Ts& in) { return ts::layer_norm(in[0], {300}); },
        {x}, tolerance_for(t, 300));
  }
  // Hand values: [1, 2, 3] has mean 2 and biased variance 2/3.
  const Tensor y = ts::layer_norm(to_cuda(make(kDouble, {1, 2, 3})), {3}, {}, {}, 0.0);
  const double r = std::sqrt(1.5);
  EXPECT_THAT(values(to_cpu(y)),
              ::testing::Pointwise(::testing::DoubleNear(1e-12), Values{-r, 0, r}));
}

TEST_F(CudaNn, NllLossMatchesReference) {
  const Tensor x = random_input({40, 7}, kFloat);
  const Tensor target =
      make_long({0, 6, 3, -100, 2, 2, 5, 1, 0, 4, 3, 3, 6, 1, -100, 0, 2, 5, 4, 4,
                 1, 0, 6, 3,    2, 5, 5, 1, 0, 3, 4, 6, 2, 1, 0,    3, 5, 6, 2, 4});
  const Tensor w = random_input({7}, kFloat, 0.3, 1.0, 5);
  for (ts::Reduction r : {ts::Reduction::None, ts::Reduction::Sum, ts::Reduction::Mean}) {
    for (bool weighted : {false, true}) {
      expect_matches_reference(
          "nll_loss " + std::to_string(static_cast<int>(r)) + (weighted ? " weighted" : ""),
          [&](const Ts& in) { return ts::nll_loss(in[0], in[1], weighted ? in[2] : Tensor(), r); },
          {x, target, w}, tolerance_for(kFloat, 40));
    }
  }
  // [N, C, d]: the class dim in the middle.
  const Tensor x3 = random_input({4, 5, 6}, kDouble);
  const Tensor t3 = ts::randint(0, 5, {4, 6});
  expect_matches_reference(
      "nll_loss 3-D", [](const Ts& in) { return ts::nll_loss(in[0], in[1]); }, {x3, t3},
      tolerance_for(kDouble, 24));
}

TEST_F(CudaNn, NllLossRejectsBadTargetsOnTheDevice) {
  const Tensor x = to_cuda(random_input({3, 4}, kFloat));
  const Tensor target = to_cuda(make_long({1, 4, 0}));
  try {
    (void)ts::nll_loss(x, target);
    FAIL() << "an out-of-range device target did not throw";
  } catch (const ts::Error& e) {
    EXPECT_NE(std::string(e.what()).find("Target 4 is out of bounds"), std::string::npos)
        << e.what();
  }
  // ignore_index may be any value, in range or not.
  EXPECT_NO_THROW((void)ts::nll_loss(x, to_cuda(make_long({1, -100, 0}))));
}

TEST_F(CudaNn, MseLossMatchesReference) {
  for (ts::ScalarType t : kFloating) {
    const Tensor a = random_input({31, 17}, t);
    const Tensor b = random_input({17}, t, 1.0, 0.0, 3);  // broadcast
    for (ts::Reduction r : {ts::Reduction::None, ts::Reduction::Sum, ts::Reduction::Mean}) {
      expect_matches_reference(
          "mse_loss " + std::string(ts::dtype_name(t)) + " " + std::to_string(static_cast<int>(r)),
          [r](const Ts& in) { return ts::mse_loss(in[0], in[1], r); }, {a, b},
          tolerance_for(t, 31 * 17));
    }
  }
}

}  // namespace
