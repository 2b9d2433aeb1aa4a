// embedding_bag (issue 16): sums, means and maxima of bags against values worked by hand (offsets,
// empty bags, include_last_offset, per_sample_weights, padding_idx, fixed-length bags of a 2-D
// input), in the reference and the optimized sets; the errors naming op and argument; gradients by
// hand and by gradcheck; the optimized set against the reference.
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <vector>

#include "autograd_util.h"
#include "cpu_sets_util.h"
#include "optimized_check.h"
#include "test_util.h"
#include "touchstone/touchstone.h"

namespace {

using namespace ts::testing;
using ts::Tensor;

// Rows [1, 2], [3, 4], [5, 6], [-1, 10]; indices 0 1 | 2 3 1.
Tensor weight(ts::ScalarType t = kDouble) {
  return make(t, {1, 2, 3, 4, 5, 6, -1, 10}, {4, 2});
}
Tensor indices() {
  return ts::tensor({0, 1, 2, 3, 1}, ts::kLong);
}
Tensor offsets(std::vector<int64_t> o = {0, 2}) {
  return ts::tensor(ts::ArrayRef<int64_t>(o), ts::kLong);
}

TEST(EmbeddingBag, ModesByHand) {
  each_set([] {
    const Tensor w = weight();
    EXPECT_TENSOR(ts::embedding_bag(w, indices(), offsets()), kDouble, {2, 2}, {4, 6, 7, 20});
    EXPECT_TENSOR(ts::embedding_bag(w, indices(), offsets(), false, 1), kDouble, {2, 2},
                  {2, 3, 7.0 / 3, 20.0 / 3});
    EXPECT_TENSOR(ts::embedding_bag(w, indices(), offsets(), false, 2), kDouble, {2, 2},
                  {3, 4, 5, 10});
    // include_last_offset: the same two bags from three offsets.
    EXPECT_TENSOR(ts::embedding_bag(w, indices(), offsets({0, 2, 5}), false, 0, false, {}, true),
                  kDouble, {2, 2}, {4, 6, 7, 20});
    // per_sample_weights scale each entry (sum mode).
    const Tensor psw = make(kDouble, {1, 2, 0.5, -1, 1});
    EXPECT_TENSOR(ts::embedding_bag(w, indices(), offsets(), false, 0, false, psw), kDouble, {2, 2},
                  {7, 10, 6.5, -3});
    // padding_idx 1: its entries are left out of the sums, the counts and the maxima.
    EXPECT_TENSOR(ts::embedding_bag(w, indices(), offsets(), false, 0, false, {}, false, 1),
                  kDouble, {2, 2}, {1, 2, 4, 16});
    EXPECT_TENSOR(ts::embedding_bag(w, indices(), offsets(), false, 1, false, {}, false, -3),
                  kDouble, {2, 2}, {1, 2, 2, 8});
    EXPECT_TENSOR(ts::embedding_bag(w, indices(), offsets(), false, 2, false, {}, false, 1),
                  kDouble, {2, 2}, {1, 2, 5, 10});
    // An empty bag gives zeros in every mode.
    for (int64_t mode : {0, 1, 2}) {
      const Tensor r = ts::embedding_bag(w, indices(), offsets({0, 0}), false, mode);
      EXPECT_TENSOR(r.narrow(0, 0, 1), kDouble, {1, 2}, {0, 0});
    }
    // A 2-D input without offsets: one bag per row.
    EXPECT_TENSOR(ts::embedding_bag(w, ts::tensor({0, 1, 2, 3}, ts::kInt).view({2, 2})), kDouble,
                  {2, 2}, {4, 6, 4, 16});
  });
}

TEST(EmbeddingBag, Errors) {
  const Tensor w = weight(kFloat);
  EXPECT_ERROR(ts::embedding_bag(ts::zeros({4}), indices(), offsets()),
               "weight has to be a 2D Tensor");
  EXPECT_ERROR(ts::embedding_bag(w, indices()), "offsets has to be a 1D Tensor but got None");
  EXPECT_ERROR(ts::embedding_bag(w, indices(), offsets({1, 2})), "offsets[0] has to be 0");
  EXPECT_ERROR(ts::embedding_bag(w, indices(), offsets({0, 6})),
               "offsets[-1] can not be greater than input's length 5");
  EXPECT_ERROR(ts::embedding_bag(w, indices(), offsets(), false, 3), "mode has to be one of");
  EXPECT_ERROR(ts::embedding_bag(w, indices(), offsets(), false, 1, false, ts::ones({5})),
               "per_sample_weights is only supported for mode='sum' (got mode='mean')");
  EXPECT_ERROR(ts::embedding_bag(w, ts::tensor({0, 4}, ts::kLong), offsets()),
               "index 4 is out of range");
  EXPECT_ERROR(ts::embedding_bag(w, indices(), offsets(), false, 0, false, {}, false, 4),
               "padding_idx must be within the number of embeddings");
  EXPECT_ERROR(ts::embedding_bag(w, indices(), offsets(), false, 0, true), "sparse=True");
}

TEST(EmbeddingBagGrad, ByHand) {
  each_set([] {
    const Tensor w = weight().requires_grad_();
    ts::embedding_bag(w, indices(), offsets()).sum().backward();
    EXPECT_TENSOR(w.grad(), kDouble, {4, 2}, {1, 1, 2, 2, 1, 1, 1, 1});
    const Tensor wm = weight().requires_grad_();
    ts::embedding_bag(wm, indices(), offsets(), false, 1).sum().backward();
    const double t = 1.0 / 3;
    EXPECT_TENSOR(wm.grad(), kDouble, {4, 2}, {0.5, 0.5, 0.5 + t, 0.5 + t, t, t, t, t});
    const Tensor wx = weight().requires_grad_();
    ts::embedding_bag(wx, indices(), offsets(), false, 2).sum().backward();
    EXPECT_TENSOR(wx.grad(), kDouble, {4, 2}, {0, 0, 1, 1, 1, 0, 0, 1});
    const Tensor psw = make(kDouble, {1, 2, 0.5, -1, 1}).requires_grad_();
    ts::embedding_bag(weight(), indices(), offsets(), false, 0, false, psw).sum().backward();
    EXPECT_TENSOR(psw.grad(), kDouble, {5}, {3, 7, 11, 9, 7});
  });
}

using ts::autograd_test::expect_gradchecks;
using ts::autograd_test::randn_input;

TEST(EmbeddingBagGrad, Gradchecks) {
  each_set([] {
    const Tensor idx = ts::tensor({0, 3, 1, 1, 4, 2, 0, 3}, ts::kLong);
    const Tensor offs = offsets({0, 3, 3, 5});
    for (int64_t mode : {0, 1, 2}) {
      SCOPED_TRACE(mode);
      expect_gradchecks(
          [&](const std::vector<Tensor>& in) -> std::vector<Tensor> {
            return {ts::embedding_bag(in[0], idx, offs, false, mode, false, {}, false, 4)};
          },
          {randn_input({5, 3}, 40 + static_cast<uint64_t>(mode))}, false);
    }
    expect_gradchecks(
        [&](const std::vector<Tensor>& in) -> std::vector<Tensor> {
          return {ts::embedding_bag(in[0], idx, offs, false, 0, false, in[1])};
        },
        {randn_input({5, 3}, 50), randn_input({8}, 51)}, false);
  });
}

TEST(EmbeddingBagOptimized, MatchesReference) {
  for (ts::ScalarType t : {kFloat, kDouble, kBFloat16, kHalf}) {
    const Tensor w = sample({200, 33}, t, -2, 2, 1);
    const Tensor idx = sample({500}, kLong, 0, 200, 2);
    const Tensor offs = ts::arange(0, 500, 9, ts::TensorOptions(kLong));
    const Tensor psw = sample({500}, t, -1, 1, 3);
    for (int64_t mode : {0, 1, 2}) {
      expect_matches_reference([&] { return ts::embedding_bag(w, idx, offs, false, mode); },
                               std::string(name(t)) + " mode " + std::to_string(mode));
    }
    expect_matches_reference(
        [&] { return ts::embedding_bag(w, idx, offs, false, 0, false, psw, false, 7); },
        std::string(name(t)) + " psw padding");
  }
}

}  // namespace
