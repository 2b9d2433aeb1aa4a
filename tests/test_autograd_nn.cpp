// Derivative formulas of the nn, linalg and index families (gradcheck + gradgradcheck), the
// composites built on them, and whole-model gradients compared between kernel sets.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "autograd_util.h"
#include "touchstone/touchstone.h"

namespace {

using ::testing::HasSubstr;
using ts::Tensor;
using namespace ts::autograd_test;
using Fn = ts::autograd::GradcheckFn;

TEST(AutogradNN, SoftmaxAndLogSoftmax) {
  for (int64_t dim : {0, 1, -1}) {
    expect_gradchecks(
        [dim](const std::vector<Tensor>& in) -> std::vector<Tensor> {
          return {ts::softmax(in[0], dim), ts::log_softmax(in[0], dim)};
        },
        {randn_input({3, 4}, 1)});
  }
  expect_gradchecks(
      [](const std::vector<Tensor>& in) -> std::vector<Tensor> {
        return {ts::log_softmax(in[0].t(), 1) * in[0].t()};
      },
      {randn_input({4, 3}, 2)});
}

TEST(AutogradNN, LayerNorm) {
  expect_gradchecks(
      [](const std::vector<Tensor>& in) -> std::vector<Tensor> {
        return {ts::layer_norm(in[0], {4}, in[1], in[2])};
      },
      {randn_input({3, 4}, 3), randn_input({4}, 4), randn_input({4}, 5)});
  expect_gradchecks(
      [](const std::vector<Tensor>& in) -> std::vector<Tensor> {
        return {ts::layer_norm(in[0], {2, 3})};
      },
      {randn_input({2, 2, 3}, 6)});
  expect_gradchecks(
      [](const std::vector<Tensor>& in) -> std::vector<Tensor> {
        return {ts::layer_norm(in[0], {3}, in[1], {}, 1e-3)};
      },
      {randn_input({3}, 7), randn_input({3}, 8)});
}

TEST(AutogradNN, Losses) {
  const Tensor target = ts::tensor({2, 0, 1}, ts::kLong);
  const Tensor ignored = ts::tensor({2, -100, 1}, ts::kLong);
  const Tensor weight = vec({0.5, 2.0, 1.5});
  for (ts::Reduction r : {ts::Reduction::None, ts::Reduction::Mean, ts::Reduction::Sum}) {
    expect_gradchecks(
        [&](const std::vector<Tensor>& in) -> std::vector<Tensor> {
          return {ts::nll_loss(ts::log_softmax(in[0], 1), target, weight, r),
                  ts::nll_loss(in[0], ignored, {}, r)};
        },
        {randn_input({3, 3}, 9)});
    expect_gradchecks(
        [&](const std::vector<Tensor>& in) -> std::vector<Tensor> {
          return {ts::cross_entropy(in[0], target, weight, r, -100, 0.1)};
        },
        {randn_input({3, 3}, 10)});
    expect_gradchecks(
        [&](const std::vector<Tensor>& in) -> std::vector<Tensor> {
          return {ts::mse_loss(in[0], in[1], r)};
        },
        {randn_input({2, 3}, 11), randn_input({3}, 12)});
  }
  // 1-D input and a K-dimensional one.
  expect_gradchecks(
      [](const std::vector<Tensor>& in) -> std::vector<Tensor> {
        return {ts::nll_loss(in[0], ts::tensor({1}, ts::kLong).reshape({}))};
      },
      {randn_input({3}, 13)});
  const Tensor t2 = ts::tensor({0, 1, 1, 0}, ts::kLong).reshape({2, 2});
  expect_gradchecks(
      [t2](const std::vector<Tensor>& in) -> std::vector<Tensor> {
        return {ts::cross_entropy(in[0], t2)};
      },
      {randn_input({2, 3, 2}, 14)});
  // Hand-computed: mean nll over two rows with weights 2 and 1.
  Tensor x = ts::zeros({2, 2}, ts::kDouble).requires_grad_();
  ts::nll_loss(x, ts::tensor({0, 1}, ts::kLong), vec({2, 1})).backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{-2.0 / 3, 0, 0, -1.0 / 3}));
  Tensor w = vec({1, 1}).requires_grad_();
  try {
    ts::nll_loss(x, ts::tensor({0, 1}, ts::kLong), w).backward();
    ADD_FAILURE() << "expected an error";
  } catch (const ts::Error& e) {
    // Refused in the forward call, as ATen ("not differentiable with respect to argument
    // 'weight'"), not at backward().
    EXPECT_THAT(e.what(), HasSubstr("nll_loss: not differentiable with respect to argument "
                                    "'weight'"));
  }
}

TEST(AutogradNN, LinearAndDropout) {
  expect_gradchecks(
      [](const std::vector<Tensor>& in) -> std::vector<Tensor> {
        return {ts::linear(in[0], in[1], in[2]).tanh()};
      },
      {randn_input({2, 3}, 15), randn_input({4, 3}, 16), randn_input({4}, 17)});
  // dropout: the kept elements get grad / (1 - p), the dropped ones 0.
  Tensor x = ts::ones({1000}, ts::kDouble).requires_grad_();
  ts::manual_seed(3);
  Tensor y = ts::dropout(x, 0.25, true);
  y.sum().backward();
  const std::vector<double> gy = values(y), gx = values(x.grad());
  for (size_t i = 0; i < gx.size(); ++i) EXPECT_DOUBLE_EQ(gx[i], gy[i]);
}

// Note [Unsafe views], against libtorch 1.13: linear of x = [1, 2, 3], w = [[1, 0.5, -1], [2, 0,
// 1]], b = [0.25, -0.5] is [-0.75, 4.5] with grad_fn AddBackward0 (not a view); the sum's
// gradients are x: [3, 0.5, 0], w: [[1, 2, 3], [1, 2, 3]], b: [1, 1]. A 4-D input's linear is
// AddBackward0 too; matmul's SqueezeBackward3 / UnsafeViewBackward0 results and reshape's copy
// are no views.
TEST(AutogradNN, LinearOfA1dInputAddsOutOfAView) {
  const Tensor x = vec({1, 2, 3}, ts::kFloat).requires_grad_();
  const Tensor w = vec({1, 0.5, -1, 2, 0, 1}, ts::kFloat).view({2, 3}).detach().requires_grad_();
  const Tensor b = vec({0.25, -0.5}, ts::kFloat).requires_grad_();
  const Tensor y = ts::linear(x, w, b);
  EXPECT_EQ(y.grad_fn()->name(), "AddBackward0");
  EXPECT_FALSE(y.is_view());
  EXPECT_EQ(values(y), (std::vector<double>{-0.75, 4.5}));
  y.sum().backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{3, 0.5, 0}));
  EXPECT_EQ(values(w.grad()), (std::vector<double>{1, 2, 3, 1, 2, 3}));
  EXPECT_EQ(values(b.grad()), (std::vector<double>{1, 1}));
  const Tensor x4 = ts::arange(24, ts::kFloat).view({2, 2, 2, 3}).requires_grad_();
  EXPECT_EQ(ts::linear(x4, w, b).grad_fn()->name(), "AddBackward0");
  const Tensor m = ts::matmul(x4, w.t());
  EXPECT_EQ(m.grad_fn()->name(), "UnsafeViewBackward0");
  EXPECT_FALSE(m.is_view());
  EXPECT_FALSE(ts::matmul(x, w.t()).is_view());
  const Tensor r = x4.transpose(0, 3).reshape({-1});
  EXPECT_EQ(r.grad_fn()->name(), "UnsafeViewBackward0");
  EXPECT_FALSE(r.is_view());
}

TEST(AutogradLinalg, Products) {
  expect_gradchecks(
      [](const std::vector<Tensor>& in) -> std::vector<Tensor> { return {in[0].mm(in[1])}; },
      {randn_input({2, 3}, 20), randn_input({3, 4}, 21)});
  expect_gradchecks(
      [](const std::vector<Tensor>& in) -> std::vector<Tensor> {
        return {in[0].t().mm(in[1].t())};
      },
      {randn_input({3, 2}, 22), randn_input({4, 3}, 23)});
  expect_gradchecks(
      [](const std::vector<Tensor>& in) -> std::vector<Tensor> { return {in[0].bmm(in[1])}; },
      {randn_input({2, 2, 3}, 24), randn_input({2, 3, 2}, 25)});
  expect_gradchecks(
      [](const std::vector<Tensor>& in) -> std::vector<Tensor> {
        return {ts::addmm(in[0], in[1], in[2], 0.5, -2)};
      },
      {randn_input({3}, 26), randn_input({2, 4}, 27), randn_input({4, 3}, 28)});
  expect_gradchecks(
      [](const std::vector<Tensor>& in) -> std::vector<Tensor> {
        Tensor y = in[0] * 1;
        y.addmm_(in[1], in[2]);
        return {y};
      },
      {randn_input({2, 3}, 29), randn_input({2, 2}, 30), randn_input({2, 3}, 31)});
  expect_gradchecks(
      [](const std::vector<Tensor>& in) -> std::vector<Tensor> { return {in[0].dot(in[1])}; },
      {randn_input({4}, 32), randn_input({4}, 33)});
  expect_gradchecks(
      [](const std::vector<Tensor>& in) -> std::vector<Tensor> { return {in[0].mv(in[1])}; },
      {randn_input({3, 4}, 34), randn_input({4}, 35)});
  expect_gradchecks(
      [](const std::vector<Tensor>& in) -> std::vector<Tensor> { return {in[0].outer(in[1])}; },
      {randn_input({3}, 36), randn_input({2}, 37)});
  for (auto [sa, sb] :
       std::vector<std::pair<ts::DimVector, ts::DimVector>>{{{3}, {3}},
                                                            {{2, 3}, {3}},
                                                            {{3}, {3, 2}},
                                                            {{2, 3}, {3, 2}},
                                                            {{2, 2, 3}, {3, 2}},
                                                            {{3}, {2, 3, 2}},
                                                            {{2, 1, 2, 3}, {2, 3, 2}}}) {
    expect_gradchecks(
        [](const std::vector<Tensor>& in) -> std::vector<Tensor> { return {in[0].matmul(in[1])}; },
        {randn_input(sa, 38), randn_input(sb, 39)});
  }
  // outer promotes: the gradient comes back in each input's dtype.
  Tensor a = ts::tensor({1.0f, 2.0f}).requires_grad_();
  Tensor b = vec({3, 4}).requires_grad_();
  a.outer(b).sum().backward();
  EXPECT_EQ(a.grad().dtype(), ts::kFloat);
  EXPECT_EQ(values(a.grad()), (std::vector<double>{7, 7}));
  EXPECT_EQ(values(b.grad()), (std::vector<double>{3, 3}));
}

TEST(AutogradIndex, IndexOps) {
  const Tensor idx = ts::tensor({2, 0, 2}, ts::kLong);
  expect_gradchecks(
      [idx](const std::vector<Tensor>& in) -> std::vector<Tensor> {
        return {in[0].index_select(1, idx) * in[0].index_select(1, idx)};
      },
      {randn_input({2, 3}, 40)});
  expect_gradchecks(
      [](const std::vector<Tensor>& in) -> std::vector<Tensor> {
        return {in[0].index_select(0, ts::tensor({1, 1}, ts::kInt))};
      },
      {randn_input({3}, 41)});
  const Tensor gidx = ts::tensor({0, 1, 1, 2, 0, 0}, ts::kLong).reshape({2, 3});
  expect_gradchecks(
      [gidx](const std::vector<Tensor>& in) -> std::vector<Tensor> {
        Tensor g = in[0].gather(1, gidx);
        return {g * g};
      },
      {randn_input({2, 3}, 42)});
  const Tensor sidx = ts::tensor({0, 2, 2, 1}, ts::kLong).reshape({2, 2});
  expect_gradchecks(
      [sidx](const std::vector<Tensor>& in) -> std::vector<Tensor> {
        Tensor s = in[0].scatter_add(1, sidx, in[1]);
        return {s * s};
      },
      {randn_input({2, 3}, 43), randn_input({2, 3}, 44)});  // index smaller than src
  expect_gradchecks(
      [sidx](const std::vector<Tensor>& in) -> std::vector<Tensor> {
        Tensor s = in[0] * 1;
        s.scatter_add_(1, sidx, in[1]);
        return {s * in[0]};
      },
      {randn_input({2, 3}, 45), randn_input({2, 2}, 46)});
  expect_gradchecks(
      [](const std::vector<Tensor>& in) -> std::vector<Tensor> {
        return {ts::cat({in[0], in[1] * in[1], ts::empty({0}, ts::kDouble)}, 0)};
      },
      {randn_input({2, 3}, 47), randn_input({1, 3}, 48)});
  expect_gradchecks(
      [](const std::vector<Tensor>& in) -> std::vector<Tensor> {
        return {ts::stack({in[0], in[1]}, 1) * in[0].sum()};
      },
      {randn_input({2, 3}, 49), randn_input({2, 3}, 50)});
  // gather sends every repeat of an index back to its source.
  Tensor x = vec({1, 2, 3}).requires_grad_();
  x.gather(0, ts::tensor({2, 2, 0}, ts::kLong)).sum().backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{1, 0, 2}));
}

// A two-layer MLP with cross_entropy and a layer_norm + softmax attention block.
std::vector<Tensor> model_grads(const std::vector<Tensor>& params, const Tensor& x,
                                const Tensor& target) {
  for (const Tensor& p : params) p.mutable_grad() = Tensor();
  const Tensor h = ts::linear(x, params[0], params[1]).relu();
  const Tensor logits = ts::linear(h, params[2], params[3]);
  Tensor loss = ts::cross_entropy(logits, target);
  const Tensor n = ts::layer_norm(x, {x.size(1)}, params[4], params[5]);
  const Tensor q = n.matmul(params[6]), k = n.matmul(params[7]);
  const Tensor attn = ts::softmax(q.matmul(k.t()) / std::sqrt(4.0), -1);
  loss = loss + attn.matmul(n).pow(2).mean();
  loss.backward();
  std::vector<Tensor> grads;
  for (const Tensor& p : params) grads.push_back(p.grad());
  return grads;
}

TEST(AutogradModels, ReferenceAndOptimizedAgree) {
  ts::manual_seed(7);
  const Tensor x = ts::randn({5, 4});
  const Tensor target = ts::tensor({0, 2, 1, 1, 0}, ts::kLong);
  std::vector<Tensor> params;
  for (ts::DimVector shape :
       std::vector<ts::DimVector>{{8, 4}, {8}, {3, 8}, {3}, {4}, {4}, {4, 4}, {4, 4}}) {
    params.push_back((ts::randn(shape) * 0.5).detach().requires_grad_());
  }
  std::vector<Tensor> ref;
  {
    ts::KernelSetGuard g("reference");
    ref = model_grads(params, x, target);
  }
  for (const Tensor& gr : ref) ASSERT_TRUE(gr.defined());
  if (!ts::find_kernel_set("optimized")) GTEST_SKIP() << "no optimized kernel set";
  ts::KernelSetGuard g("optimized");
  const std::vector<Tensor> opt = model_grads(params, x, target);
  for (size_t i = 0; i < ref.size(); ++i) {
    const std::vector<double> a = values(ref[i]), b = values(opt[i]);
    ASSERT_EQ(a.size(), b.size());
    for (size_t j = 0; j < a.size(); ++j) {
      EXPECT_NEAR(a[j], b[j], 1e-4 + 1e-4 * std::fabs(a[j])) << "param " << i << " element " << j;
    }
  }
}

}  // namespace
