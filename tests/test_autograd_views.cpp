// Autograd through views: every view op's backward (hand-computed values, gradcheck and
// gradgradcheck), in-place ops on views (CopySlices) and view regeneration.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "autograd_util.h"
#include "touchstone/touchstone.h"

namespace {

using ::testing::HasSubstr;
using ts::Tensor;
using namespace ts::autograd_test;
using Fn = ts::autograd::GradcheckFn;

// y * y for a view y of x: a non-linear function of the view, so gradgradcheck means something.
Fn squared(std::function<Tensor(const Tensor&)> view) {
  return [view](const std::vector<Tensor>& in) -> std::vector<Tensor> {
    Tensor y = view(in[0]);
    return {y * y};
  };
}

TEST(AutogradViews, HandComputedViewGradients) {
  Tensor x = vec({1, 2, 3, 4}).requires_grad_();
  x.narrow(0, 1, 2).sum().backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{0, 1, 1, 0}));
  x.mutable_grad() = Tensor();
  x.slice(0, 0, 4, 2).sum().backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{1, 0, 1, 0}));
  x.mutable_grad() = Tensor();
  x.unfold(0, 3, 1).sum().backward();  // overlapping windows
  EXPECT_EQ(values(x.grad()), (std::vector<double>{1, 2, 2, 1}));
  x.mutable_grad() = Tensor();
  x.as_strided({3, 2}, {1, 1}).sum().backward();  // overlapping as_strided
  EXPECT_EQ(values(x.grad()), (std::vector<double>{1, 2, 2, 1}));
  x.mutable_grad() = Tensor();
  (x.reshape({2, 2}).diagonal() * vec({5, 7})).sum().backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{5, 0, 0, 7}));

  Tensor c = vec({1, 2, 3}).reshape({3, 1}).requires_grad_();
  c.expand({3, 4}).sum().backward();
  EXPECT_EQ(values(c.grad()), (std::vector<double>{4, 4, 4}));
  EXPECT_EQ(c.grad().sizes(), ts::IntArrayRef({3, 1}));
}

TEST(AutogradViews, ViewNodeNames) {
  Tensor x = randn_input({2, 3}, 1);
  EXPECT_EQ(x.narrow(1, 0, 2).grad_fn()->name(), "SliceBackward0");
  EXPECT_EQ(x.select(0, 1).grad_fn()->name(), "SelectBackward0");
  EXPECT_EQ(x.t().grad_fn()->name(), "TransposeBackward0");
  EXPECT_EQ(x.permute({1, 0}).grad_fn()->name(), "PermuteBackward0");
  EXPECT_EQ(x.view({6}).grad_fn()->name(), "ViewBackward0");
  EXPECT_EQ(x.t().reshape({6}).grad_fn()->name(), "UnsafeViewBackward0");
  EXPECT_EQ(x.unsqueeze(0).grad_fn()->name(), "UnsqueezeBackward0");
  EXPECT_EQ(x.unsqueeze(0).squeeze().grad_fn()->name(), "SqueezeBackward0");
  EXPECT_EQ(x.unsqueeze(0).squeeze(0).grad_fn()->name(), "SqueezeBackward1");
  EXPECT_EQ(x.diagonal().grad_fn()->name(), "DiagonalBackward0");
  EXPECT_EQ(x.unfold(1, 2, 1).grad_fn()->name(), "UnfoldBackward0");
  EXPECT_EQ(x.as_strided({2}, {1}).grad_fn()->name(), "AsStridedBackward0");
  EXPECT_TRUE(x.t().is_view());
  EXPECT_TRUE(x.t()._base().is_same(x));
  EXPECT_TRUE(x.t().t()._base().is_same(x));  // the root of the chain
}

TEST(AutogradViews, GradcheckEveryView) {
  const Tensor x = randn_input({3, 4}, 2);
  expect_gradchecks(squared([](const Tensor& t) { return t.narrow(1, 1, 2); }), {x});
  expect_gradchecks(squared([](const Tensor& t) { return t.slice(1, 0, 4, 3); }), {x});
  expect_gradchecks(squared([](const Tensor& t) { return t.slice(0, -2); }), {x});
  expect_gradchecks(squared([](const Tensor& t) { return t.select(1, -1); }), {x});
  expect_gradchecks(squared([](const Tensor& t) { return t[2]; }), {x});
  expect_gradchecks(squared([](const Tensor& t) { return t.transpose(0, 1); }), {x});
  expect_gradchecks(squared([](const Tensor& t) { return t.t(); }), {x});
  expect_gradchecks(squared([](const Tensor& t) {
                      return t.unsqueeze(1).permute({2, 0, 1});
                    }),
                    {x});
  expect_gradchecks(squared([](const Tensor& t) { return t.unsqueeze(0).expand({2, 3, 4}); }), {x});
  expect_gradchecks(squared([](const Tensor& t) { return t.narrow(0, 0, 1).expand({5, 4}); }), {x});
  expect_gradchecks(squared([](const Tensor& t) { return t.unsqueeze(2).squeeze(); }), {x});
  expect_gradchecks(squared([](const Tensor& t) { return t.unsqueeze(2).squeeze(2); }), {x});
  expect_gradchecks(squared([](const Tensor& t) { return t.view({2, 6}); }), {x});
  expect_gradchecks(squared([](const Tensor& t) { return t.reshape({-1}); }), {x});
  expect_gradchecks(squared([](const Tensor& t) { return t.t().reshape({12}); }), {x});  // copies
  expect_gradchecks(squared([](const Tensor& t) { return t.flatten(); }), {x});
  expect_gradchecks(squared([](const Tensor& t) { return t.unflatten(1, {2, 2}); }), {x});
  expect_gradchecks(squared([](const Tensor& t) {
                      return t.movedim(std::vector<int64_t>{0}, std::vector<int64_t>{1});
                    }),
                    {x});
  expect_gradchecks(squared([](const Tensor& t) { return t.diagonal(1); }), {x});
  expect_gradchecks(squared([](const Tensor& t) { return t.diagonal(-1, 1, 0); }), {x});
  expect_gradchecks(squared([](const Tensor& t) { return t.unfold(1, 3, 1); }), {x});
  expect_gradchecks(squared([](const Tensor& t) { return t.unfold(0, 2, 1); }), {x});
  expect_gradchecks(squared([](const Tensor& t) { return t.as_strided({3, 3}, {1, 2}, 1); }), {x});
  expect_gradchecks(squared([](const Tensor& t) { return t.as_strided({2, 2}, {0, 5}); }), {x});
  expect_gradchecks(squared([](const Tensor& t) { return t.split(3, 1)[1]; }), {x});
  expect_gradchecks(squared([](const Tensor& t) { return t.chunk(2, 0)[1]; }), {x});
  expect_gradchecks(squared([](const Tensor& t) { return t.t().narrow(0, 1, 2).select(1, 1); }),
                    {x});
  // A non-contiguous input and a 0-dim one.
  expect_gradchecks(squared([](const Tensor& t) { return t.narrow(0, 1, 2); }),
                    {randn_input({4, 3}, 3).detach().t().requires_grad_()});
  expect_gradchecks(squared([](const Tensor& t) { return t.unsqueeze(0).expand({3}); }),
                    {randn_input({}, 4)});
}

TEST(AutogradViews, InPlaceOnAViewOfANonLeaf) {
  Tensor x = vec({1, 2, 3, 4}).requires_grad_();
  Tensor b = x * 1;
  Tensor v = b.narrow(0, 1, 2);
  v.mul_(3);
  EXPECT_EQ(b.grad_fn()->name(), "CopySlices");
  EXPECT_EQ(v.grad_fn()->name(), "AsStridedBackward0");
  EXPECT_EQ(values(b), (std::vector<double>{1, 6, 9, 4}));
  (b * vec({1, 10, 100, 1000})).sum().backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{1, 30, 300, 1000}));
}

TEST(AutogradViews, FillingABufferThroughSlices) {
  Tensor a = vec({1, 2}).requires_grad_();
  Tensor w = vec({3, 4}).requires_grad_();
  Tensor buf = ts::zeros({4}, ts::kDouble);
  Tensor late = buf.narrow(0, 2, 2);  // made before buf required grad
  buf.narrow(0, 0, 2).copy_(a);
  EXPECT_TRUE(buf.requires_grad());
  EXPECT_TRUE(late.requires_grad());
  late.add_(w * 2);
  (buf * buf).sum().backward();
  EXPECT_EQ(values(a.grad()), (std::vector<double>{2, 4}));    // 2a
  EXPECT_EQ(values(w.grad()), (std::vector<double>{24, 32}));  // 2 * (2w) * 2
}

TEST(AutogradViews, OverwritingAViewZeroesItsGradient) {
  Tensor x = vec({1, 2, 3, 4}).requires_grad_();
  Tensor b = x * 1;
  b.narrow(0, 0, 2).copy_(ts::zeros({2}, ts::kDouble));
  b.narrow(0, 3, 1).fill_(5);
  (b * b).sum().backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{0, 0, 6, 0}));
}

// Found by fuzz/ (issue 12, a LeakSanitizer report): a leaf that is a view (t(x), then
// requires_grad_) and an in-place op on a view of it give the root x a CopySlices history that
// reaches the leaf's AccumulateGrad, which owned the leaf, which owns x: a cycle never freed.
TEST(AutogradViews, ALeafViewAndInPlaceOnItsViewLeaveNoCycle) {
  std::weak_ptr<ts::autograd::Node> history;
  {
    Tensor x = ts::ones({2, 2}, ts::kDouble);
    Tensor leaf = x.t();
    leaf.requires_grad_();
    Tensor v = leaf.t();
    v.mul_(2);
    history = x.grad_fn();
    ASSERT_FALSE(history.expired());
    EXPECT_EQ(history.lock()->name(), "CopySlices");
    x.sum().backward();
  }
  EXPECT_TRUE(history.expired());
}

// Found by fuzz/ under LeakSanitizer: nll_loss saves its weight (no grad), an in-place lerp_ on a
// view of the weight with the loss as its weight gives the weight a history through the loss's
// node: weight -> CopySlices -> LerpBackward -> NllLossBackward -> saved weight was a cycle.
TEST(AutogradViews, AnInPlaceOpOnASavedInputLeavesNoCycle) {
  std::weak_ptr<ts::autograd::Node> loss_node;
  {
    Tensor logits = ts::ones({2, 6}, ts::kFloat).requires_grad_();
    Tensor target = ts::tensor({1, 4}, ts::kLong);
    Tensor weight = ts::ones({6}, ts::kFloat);
    Tensor loss = ts::nll_loss(logits, target, weight);
    loss_node = loss.grad_fn();
    ASSERT_FALSE(loss_node.expired());
    weight.unsqueeze(1).lerp_(ts::zeros({6, 1}), loss);
    EXPECT_EQ(weight.grad_fn()->name(), "CopySlices");
  }
  EXPECT_TRUE(loss_node.expired());
}

// The same with an input that requires grad: logsumexp saves x, then x.addcmul_(lse, y) gave x a
// history through logsumexp's node (x -> AddcmulBackward -> LogsumexpBackward -> saved x). The
// node keeps x's data and the grad_fn it had when saved, so the graph is freed.
TEST(AutogradViews, AnInPlaceOpOnASavedInputThatRequiresGradLeavesNoCycle) {
  std::weak_ptr<ts::autograd::Node> lse_node;
  {
    Tensor leaf = ts::ones({3}, ts::kDouble).requires_grad_();
    Tensor x = leaf * 2;
    Tensor lse = x.logsumexp({0});
    lse_node = lse.grad_fn();
    ASSERT_FALSE(lse_node.expired());
    x.addcmul_(lse, ts::ones({3}, ts::kDouble));
  }
  EXPECT_TRUE(lse_node.expired());
}

// Found by fuzz/ in CI under LeakSanitizer: a node kept a saved leaf itself, and a leaf view owns
// its root. Once the root's history reached that node (x.add_(leaf * leaf)) the graph was a
// cycle: leaf -> x -> AddBackward0 -> MulBackward0 -> leaf.
TEST(AutogradViews, ASavedLeafViewWhoseRootGetsHistoryLeavesNoCycle) {
  std::weak_ptr<ts::autograd::Node> root_node;
  {
    Tensor x = ts::ones({2, 2}, ts::kDouble);
    Tensor leaf = x.t();
    leaf.requires_grad_();
    x.add_(leaf * leaf);
    root_node = x.grad_fn();
    ASSERT_FALSE(root_node.expired());
    EXPECT_FALSE(leaf.is_leaf());  // regenerates its grad_fn from x's history
    EXPECT_EQ(leaf.grad_fn()->name(), "AsStridedBackward0");
  }
  EXPECT_TRUE(root_node.expired());
}

// A saved leaf still routes a double-backward gradient to its grad(): d/dx of d(x^3)/dx = 6x.
TEST(AutogradViews, ASavedLeafReceivesItsSecondOrderGradient) {
  Tensor x = vec({2}).requires_grad_();
  Tensor y = x * x * x;
  Tensor g = ts::autograd::grad({y}, {x}, {}, std::nullopt, true)[0];
  EXPECT_EQ(values(g), (std::vector<double>{12}));  // 3x^2
  g.backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{12}));  // 6x
}

// Found by fuzz/: a leaf view whose root got a history (CopySlices) is no leaf any more, but
// in-place checks saw that only after someone had asked for its grad_fn (is_leaf()), so the
// same call threw or not depending on an earlier query.
TEST(AutogradViews, ALeafViewWhoseRootGotHistoryIsNoLeafAskedOrNot) {
  for (bool ask : {false, true}) {
    Tensor x = ts::ones({2}, ts::kDouble);
    Tensor leaf = x.reshape({2});
    leaf.requires_grad_();
    leaf.narrow(0, 0, 1).cos_();  // x gets a CopySlices history
    if (ask) {
      EXPECT_FALSE(leaf.is_leaf());
    }
    EXPECT_EQ(error_text([&] { leaf.mul_(2); }), "") << ask;
    EXPECT_FALSE(leaf.is_leaf()) << ask;
  }
}

TEST(AutogradViews, ViewsSeeInPlaceChangesOfTheirBase) {
  Tensor x = vec({1, 2, 3}).requires_grad_();
  Tensor b = x * 1;
  Tensor v = b.select(0, 0);
  EXPECT_EQ(v.grad_fn()->name(), "SelectBackward0");
  b.mul_(vec({2, 3, 4}));
  EXPECT_EQ(v.grad_fn()->name(), "AsStridedBackward0");  // regenerated from b's new history
  v.backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{2, 0, 0}));
}

TEST(AutogradViews, InPlaceThroughViewChainsAndAliases) {
  Tensor x = vec({1, 2, 3, 4}).requires_grad_();
  Tensor y = vec({10, 20}).requires_grad_();
  Tensor b = x.reshape({2, 2}) * 1;
  b.t().select(0, 1).mul_(y);  // column 1: b[0][1] *= 10, b[1][1] *= 20
  Tensor c = x * 1;
  Tensor v = c.narrow(0, 0, 2);
  v.mul_(v);  // the view is both self and other
  (b.sum() + c.sum()).backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{1 + 2, 10 + 4, 1 + 1, 20 + 1}));
  EXPECT_EQ(values(y.grad()), (std::vector<double>{2, 4}));
}

TEST(AutogradViews, GradcheckInPlaceOnViews) {
  const Fn f = [](const std::vector<Tensor>& in) -> std::vector<Tensor> {
    Tensor b = in[0] * 1;
    b.narrow(0, 1, 2).mul_(in[1]);
    b.select(0, 0).add_(in[1].sum());
    b.t().narrow(0, 0, 1).sigmoid_();
    return {b};
  };
  expect_gradchecks(f, {randn_input({4, 2}, 5), randn_input({2, 2}, 6)});
  const Fn g = [](const std::vector<Tensor>& in) -> std::vector<Tensor> {
    Tensor buf = ts::zeros({3, 2}, ts::kDouble);
    buf.select(1, 0).copy_(in[0]);
    buf.select(1, 1).copy_(in[0] * in[0]);
    buf.narrow(0, 1, 1).exp_();
    return {buf * buf};
  };
  expect_gradchecks(g, {randn_input({3}, 7)});
}

TEST(AutogradViews, SavedTensorModifiedThroughAView) {
  Tensor x = vec({1, 2}).requires_grad_();
  Tensor y = x * 1;
  Tensor z = y * y;
  y.narrow(0, 0, 1).add_(1);
  EXPECT_THAT(error_text([&] { z.sum().backward(); }),
              HasSubstr("has been modified by an inplace operation: [float64 [2]]"));
}

TEST(AutogradViews, ViewsMadeWithoutGradModeAreNotTracked) {
  Tensor x = vec({1, 2}).requires_grad_();
  Tensor v;
  {
    ts::NoGradGuard g;
    v = x.narrow(0, 0, 1);
  }
  EXPECT_FALSE(v.is_view());
  EXPECT_FALSE(v.requires_grad());
  Tensor d = (x * 2).detach();
  EXPECT_FALSE(d.is_view());
}

// Note [Views made in no_grad mode]: ATen 1.13 refuses each of these with "A view was created in
// no_grad mode and is being modified inplace with grad mode enabled. ..."; recorded, x's
// gradient would ignore the in-place op.
TEST(AutogradViews, InPlaceOnANoGradViewWithGradModeOnIsRefused) {
  const std::string msg =
      "a view was created in no_grad mode and is being modified inplace with grad mode enabled. "
      "Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify "
      "your code by moving both the view and the inplace either both inside the no_grad block "
      "(if you don't want the inplace to be tracked) or both outside (if you want the inplace to "
      "be tracked).";
  Tensor x = vec({1, 2, 3, 4}).requires_grad_();
  Tensor a = x * 2;
  Tensor leaf_view, view, row, plain;
  {
    ts::NoGradGuard g;
    leaf_view = x.view({2, 2});
    view = a.view({2, 2});
    row = a.narrow(0, 1, 2);
    plain = vec({1, 2}).narrow(0, 0, 1);
  }
  EXPECT_EQ(error_text([&] { leaf_view.mul_(2); }), "mul_: " + msg);
  EXPECT_EQ(error_text([&] { view.add_(1); }), "add_: " + msg);
  EXPECT_EQ(error_text([&] { row.copy_(vec({7, 8})); }), "copy_: " + msg);
  EXPECT_EQ(error_text([&] { row.zero_(); }), "zero_: fill_: " + msg);
  // A view of the no_grad view, made with grad mode on, is one too (ATen propagates it).
  EXPECT_EQ(error_text([&] { view.view({4}).mul_(2); }), "mul_: " + msg);
  // A root that needs no grad: refused only when another operand requires grad.
  Tensor w = vec({3}).requires_grad_();
  EXPECT_EQ(error_text([&] { plain.mul_(w); }), "mul_: " + msg);
  plain.mul_(5);
  EXPECT_EQ(values(plain), (std::vector<double>{5}));
  EXPECT_EQ(values(a), (std::vector<double>{2, 4, 6, 8}));  // every refused call left a alone
  // Both inside no_grad, or both outside: allowed, as ATen.
  {
    ts::NoGradGuard g;
    view.mul_(10);
  }
  EXPECT_EQ(values(a), (std::vector<double>{20, 40, 60, 80}));
  a.narrow(0, 0, 2).mul_(3);
  a.sum().backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{6, 6, 2, 2}));
}

}  // namespace
