// Autograd engine: tensor autograd state, grad mode, backward/grad, accumulation,
// retain_graph/create_graph, retain_grad, the version counter and every error path.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <optional>
#include <thread>
#include <vector>

#include "autograd_util.h"
#include "touchstone/touchstone.h"

namespace {

using ::testing::HasSubstr;
using ts::Tensor;
using namespace ts::autograd_test;

TEST(AutogradEngine, HandComputedGradients) {
  Tensor x = vec({1, 2, 3}).requires_grad_();
  Tensor y = vec({4, 5, 6}).requires_grad_();
  Tensor z = (x * y + x).sum();
  z.backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{5, 6, 7}));  // y + 1
  EXPECT_EQ(values(y.grad()), (std::vector<double>{1, 2, 3}));  // x
  EXPECT_EQ(values(z), (std::vector<double>{38}));
}

TEST(AutogradEngine, DiamondSumsBothPaths) {
  Tensor x = vec({1, 2}).requires_grad_();
  Tensor a = x * 2;
  Tensor b = a * 3;
  Tensor c = a * 4;
  (b + c).sum().backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{14, 14}));
}

TEST(AutogradEngine, BroadcastGradientIsSummedToInputShape) {
  Tensor x = vec({1, 2, 3}).requires_grad_();
  Tensor y = vec({1, 2, 3, 4, 5, 6}).reshape({2, 3}).requires_grad_();
  (x * y).sum().backward();
  EXPECT_EQ(x.grad().sizes(), ts::IntArrayRef({3}));
  EXPECT_EQ(values(x.grad()), (std::vector<double>{5, 7, 9}));
  EXPECT_EQ(values(y.grad()), (std::vector<double>{1, 2, 3, 1, 2, 3}));
}

TEST(AutogradEngine, GradientIsCastToInputDtype) {
  Tensor x = vec({1, 2}, ts::kFloat).requires_grad_();
  Tensor y = vec({3, 4}).requires_grad_();
  Tensor z = x * y;
  EXPECT_EQ(z.dtype(), ts::kDouble);
  z.sum().backward();
  EXPECT_EQ(x.grad().dtype(), ts::kFloat);
  EXPECT_EQ(values(x.grad()), (std::vector<double>{3, 4}));
  EXPECT_EQ(y.grad().dtype(), ts::kDouble);
}

TEST(AutogradEngine, ScalarOperandsAndHalfPrecision) {
  for (ts::ScalarType dt : {ts::kHalf, ts::kBFloat16, ts::kFloat, ts::kDouble}) {
    Tensor x = vec({1, 2}, dt).requires_grad_();
    ((x * 3.0 + 1.0) / 2.0).sum().backward();
    EXPECT_EQ(x.grad().dtype(), dt);
    EXPECT_EQ(values(x.grad()), (std::vector<double>{1.5, 1.5})) << dt;
  }
}

TEST(AutogradEngine, GradFnNamesAndLeaves) {
  Tensor x = vec({1, 2, 3}).requires_grad_();
  Tensor y = vec({4, 5, 6}).requires_grad_();
  EXPECT_TRUE(x.is_leaf());
  EXPECT_EQ(x.grad_fn(), nullptr);
  EXPECT_EQ((x + y).grad_fn()->name(), "AddBackward0");
  EXPECT_EQ((x * y).grad_fn()->name(), "MulBackward0");
  EXPECT_EQ((x - y).grad_fn()->name(), "SubBackward0");
  // A Scalar operand names ATen's other overload (Note [Overload node names]; libtorch 1.13).
  EXPECT_EQ((x + 2).grad_fn()->name(), "AddBackward1");
  EXPECT_EQ((x - 2).grad_fn()->name(), "SubBackward1");
  EXPECT_EQ((x * 2).grad_fn()->name(), "MulBackward1");
  EXPECT_EQ((x / 2).grad_fn()->name(), "DivBackward1");
  EXPECT_EQ((x / y).grad_fn()->name(), "DivBackward0");
  // ATen title-cases: a letter after a digit is upper case, a digit at the end changes nothing.
  EXPECT_EQ(ts::log1p(x).grad_fn()->name(), "Log1PBackward0");
  EXPECT_EQ(ts::expm1(x).grad_fn()->name(), "Expm1Backward0");
  EXPECT_EQ(ts::atan2(x, y).grad_fn()->name(), "Atan2Backward0");
  EXPECT_EQ(ts::div(x, y, "floor").grad_fn()->name(), "DivBackward2");
  EXPECT_EQ(ts::div(x, 2, "floor").grad_fn()->name(), "DivBackward3");
  EXPECT_EQ(ts::pow(x, y).grad_fn()->name(), "PowBackward1");
  EXPECT_EQ(ts::pow(x, 2).grad_fn()->name(), "PowBackward0");
  EXPECT_EQ(ts::pow(2, x).grad_fn()->name(), "PowBackward2");
  EXPECT_EQ(ts::remainder(x, y).grad_fn()->name(), "RemainderBackward1");
  EXPECT_EQ(ts::remainder(x, 2).grad_fn()->name(), "RemainderBackward0");
  EXPECT_EQ(ts::clamp(x, 0, 1).grad_fn()->name(), "ClampBackward1");
  EXPECT_EQ((x + ts::scalar_tensor(2.0)).grad_fn()->name(), "AddBackward0");  // a 0-dim Tensor
  Tensor z = x.clone();
  z.add_(2);
  EXPECT_EQ(z.grad_fn()->name(), "AddBackward1");
  EXPECT_EQ(x.expand({2, 3}).grad_fn()->name(), "ExpandBackward0");
  EXPECT_EQ(x.sum().grad_fn()->name(), "SumBackward0");
  EXPECT_EQ(x.clone().grad_fn()->name(), "CloneBackward0");
  EXPECT_EQ(x.to(ts::kFloat).grad_fn()->name(), "ToCopyBackward0");
  EXPECT_EQ(x.exp().grad_fn()->name(), "ExpBackward0");
  EXPECT_EQ(ts::log_softmax(x, 0).grad_fn()->name(), "LogSoftmaxBackward0");
  Tensor m = x * y;
  EXPECT_FALSE(m.is_leaf());
  ASSERT_EQ(m.grad_fn()->next_edges().size(), 2u);
  EXPECT_EQ(m.grad_fn()->next_edges()[0].function->name(), "AccumulateGrad");
  // The same leaf always feeds the same accumulator.
  EXPECT_EQ(m.grad_fn()->next_edges()[0].function, (x * 2).grad_fn()->next_edges()[0].function);
  // An operand that does not require grad has no edge.
  EXPECT_FALSE((x * vec({1, 1, 1})).grad_fn()->next_edges()[1].is_valid());
}

// The node is the one of the overload that ran (libtorch 1.13's grad_fn()->name() for each).
TEST(AutogradEngine, GradFnNamesFollowATenOverloads) {
  Tensor x = ts::arange(6, ts::kDouble).reshape({2, 3}).requires_grad_();
  const auto name = [](const Tensor& t) { return t.grad_fn()->name(); };
  EXPECT_EQ(name(x.sum({0})), "SumBackward1");
  EXPECT_EQ(name(x.sum(std::vector<int64_t>{})), "SumBackward1");  // sum.dim_IntList, dim=[]
  EXPECT_EQ(name(x.mean()), "MeanBackward0");
  EXPECT_EQ(name(x.mean({1})), "MeanBackward1");
  EXPECT_EQ(name(x.prod()), "ProdBackward0");
  EXPECT_EQ(name(x.prod(1)), "ProdBackward1");
  EXPECT_EQ(name(ts::norm(x, 2)), "NormBackward0");
  EXPECT_EQ(name(ts::norm(x, 2, {1})), "NormBackward1");
  EXPECT_EQ(name(ts::max(x)), "MaxBackward1");
  EXPECT_EQ(name(ts::min(x)), "MinBackward1");
  EXPECT_EQ(name(std::get<0>(ts::max(x, 1))), "MaxBackward0");
  EXPECT_EQ(name(std::get<0>(ts::min(x, 1))), "MinBackward0");
  EXPECT_EQ(name(ts::var(x, {}, 1)), "VarBackward0");
  EXPECT_EQ(name(ts::var(x, {1}, 1)), "VarBackward0");
  Tensor w = ts::full({2, 3}, 0.5, ts::kDouble);
  EXPECT_EQ(name(ts::lerp(x, w, 0.5)), "LerpBackward0");
  EXPECT_EQ(name(ts::lerp(x, w, w)), "LerpBackward1");
  EXPECT_EQ(name(ts::layer_norm(x, {3})), "NativeLayerNormBackward0");
  Tensor weight = ts::ones({4, 3}, ts::kDouble), bias = ts::ones({4}, ts::kDouble);
  EXPECT_EQ(name(ts::linear(x, weight, bias)), "AddmmBackward0");
  EXPECT_EQ(name(ts::linear(x, weight)), "MmBackward0");
  EXPECT_EQ(name(ts::linear(x.reshape({1, 2, 3}), weight, bias)), "ViewBackward0");
  Tensor u = vec({1, 2}).requires_grad_(), v = vec({1, 2, 3});
  EXPECT_EQ(name(ts::outer(u, v)), "MulBackward0");
  EXPECT_EQ(name(ts::matmul(v, x.t())), "SqueezeBackward3");  // 1-D @ 2-D: squeeze_(0)
  EXPECT_EQ(name(ts::matmul(u, x)), "SqueezeBackward3");
  EXPECT_EQ(name(ts::matmul(x, v)), "MvBackward0");
  EXPECT_EQ(name(ts::matmul(x.reshape({1, 2, 3}), v)), "UnsafeViewBackward0");
  EXPECT_EQ(name(ts::matmul(x.reshape({1, 2, 3}), x.t())), "UnsafeViewBackward0");
  EXPECT_EQ(name(ts::matmul(x.reshape({1, 2, 3}), x.t().reshape({1, 3, 2}))),
            "UnsafeViewBackward0");
  EXPECT_EQ(name(ts::stack({x, x})), "StackBackward0");
  EXPECT_EQ(name(ts::cat({x, x})), "CatBackward0");
  // clone of an empty or 0-dim input has its node too.
  EXPECT_EQ(name(ts::clone(ts::zeros({0}, ts::kDouble).requires_grad_())), "CloneBackward0");
  EXPECT_EQ(name(ts::clone(ts::scalar_tensor(2.0).requires_grad_())), "CloneBackward0");
  // copy_ of a src without history over a self with history records CopyBackwards.
  Tensor y = x * 2;
  y.copy_(ts::zeros({2, 3}, ts::kDouble));
  EXPECT_EQ(name(y), "CopyBackwards");
}

TEST(AutogradEngine, RequiresGradPropagation) {
  Tensor x = vec({1, -2, 3}).requires_grad_();
  Tensor c = vec({1, 1, 1});
  EXPECT_FALSE(c.requires_grad());
  EXPECT_FALSE((c * 2).requires_grad());
  EXPECT_TRUE((x * c).requires_grad());
  EXPECT_FALSE(ts::gt(x, 0).requires_grad());  // comparisons never require grad
  EXPECT_FALSE(x.argmax().requires_grad());
  auto [values_, indices] = x.max(0);
  EXPECT_TRUE(values_.requires_grad());
  EXPECT_FALSE(indices.requires_grad());
  EXPECT_EQ(values_.output_nr(), 0u);
  EXPECT_FALSE(x.to(ts::kLong).requires_grad());
}

TEST(AutogradEngine, RequiresGradErrors) {
  Tensor i = ts::tensor({1, 2}, ts::kLong);
  EXPECT_THAT(
      error_text([&] { i.requires_grad_(); }),
      HasSubstr("requires_grad_: only Tensors of floating point dtype can require gradients"));
  Tensor x = vec({1}).requires_grad_();
  Tensor y = x * 2;
  EXPECT_THAT(
      error_text([&] { y.requires_grad_(false); }),
      HasSubstr("requires_grad_: you can only change requires_grad flags of leaf variables."));
  x.requires_grad_(false);
  EXPECT_FALSE(x.requires_grad());
}

TEST(AutogradEngine, LeafAccumulatesAcrossBackwardCalls) {
  Tensor x = vec({1, 2}).requires_grad_();
  (x * x).sum().backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{2, 4}));
  (x * 3).sum().backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{5, 7}));
  x.mutable_grad() = Tensor();  // zero_grad
  (x * 3).sum().backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{3, 3}));
  // sum's gradient arrives expanded (stride 0); the stored grad must take later additions.
  Tensor w = vec({1, 2, 3}).requires_grad_();
  w.sum().backward();
  w.sum().backward();
  EXPECT_EQ(values(w.grad()), (std::vector<double>{2, 2, 2}));
  EXPECT_TRUE(w.grad().is_contiguous());
}

// Note [Gradient layout contract]; every stride below is what libtorch 1.13 gives its .grad.
TEST(AutogradEngine, LeafGradFollowsTheLeafsLayout) {
  using Strides = std::vector<int64_t>;
  auto strides = [](const Tensor& t) { return Strides(t.strides().begin(), t.strides().end()); };
  const Tensor w = ts::arange(12, ts::kDouble).reshape({4, 3});
  // A contiguous leaf used through .t(): the incoming gradient is transposed, the grad is not.
  Tensor x = ts::zeros({3, 4}, ts::kDouble).requires_grad_();
  (x.t() * w).sum().backward();
  EXPECT_EQ(strides(x.grad()), (Strides{4, 1}));
  EXPECT_EQ(values(x.grad().view({-1})),
            (std::vector<double>{0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11}));  // w.t()
  (x.t() * w).sum().backward();  // added into the existing grad, which keeps its layout
  EXPECT_EQ(strides(x.grad()), (Strides{4, 1}));
  EXPECT_EQ(values(x.grad())[1], 6);
  // A transposed (dense) leaf: its grad is transposed too, even from a contiguous gradient.
  Tensor y = ts::zeros({4, 3}, ts::kDouble).t().requires_grad_();
  (y.contiguous() * 2).sum().backward();
  EXPECT_EQ(strides(y.grad()), (Strides{1, 3}));
  EXPECT_EQ(values(y.grad()), std::vector<double>(12, 2));
  Tensor p = ts::zeros({2, 3, 4}, ts::kDouble).permute({2, 0, 1}).requires_grad_();
  (p * 2).sum().backward();
  EXPECT_EQ(strides(p.grad()), (Strides{1, 12, 4}));
  // Leaves with gaps or overlaps: a contiguous grad.
  Tensor z = ts::zeros({24}, ts::kDouble).as_strided({4, 3}, {6, 2}).requires_grad_();
  (z * 2).sum().backward();
  EXPECT_EQ(strides(z.grad()), (Strides{3, 1}));
  Tensor e = ts::zeros({3}, ts::kDouble).expand({2, 3}).requires_grad_();
  (e * 2).sum().backward();
  EXPECT_EQ(strides(e.grad()), (Strides{3, 1}));
  // Under create_graph the first grad is a copy laid out the same way.
  Tensor c = ts::zeros({3, 4}, ts::kDouble).requires_grad_();
  (c.t() * w * w).sum().backward({}, std::nullopt, /*create_graph=*/true);
  EXPECT_EQ(strides(c.grad()), (Strides{4, 1}));
  EXPECT_EQ(values(c.grad())[1], 9);  // w[1][0]^2
  // An existing grad keeps its own layout, even one that breaks the contract.
  Tensor q = ts::zeros({3, 4}, ts::kDouble).requires_grad_();
  q.mutable_grad() = ts::zeros({4, 3}, ts::kDouble).t();
  (q * 2).sum().backward();
  EXPECT_EQ(strides(q.grad()), (Strides{1, 3}));
  EXPECT_EQ(values(q.grad()), std::vector<double>(12, 2));
}

TEST(AutogradEngine, AccumulatedGradDoesNotAliasTheIncomingGradient) {
  Tensor x = vec({1, 2}).requires_grad_();
  Tensor g = vec({1, 1});
  x.backward(g);
  (x * 1).backward(g);
  EXPECT_EQ(values(x.grad()), (std::vector<double>{2, 2}));
  EXPECT_EQ(values(g), (std::vector<double>{1, 1}));  // the user's tensor is untouched
}

TEST(AutogradEngine, BackwardTwiceFailsWithoutRetainGraph) {
  Tensor x = vec({1, 2}).requires_grad_();
  Tensor y = (x * x).sum();
  y.backward();
  EXPECT_THAT(error_text([&] { y.backward(); }),
              HasSubstr("Trying to backward through the graph a second time (or directly access "
                        "saved tensors after they have already been freed)."));
  EXPECT_THAT(error_text([&] { y.backward(); }), HasSubstr("Specify retain_graph=true"));
}

TEST(AutogradEngine, RetainGraphAllowsASecondBackward) {
  Tensor x = vec({1, 2}).requires_grad_();
  Tensor y = (x * x).sum();
  y.backward({}, /*retain_graph=*/true);
  y.backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{4, 8}));
  // autograd::grad frees the graph too.
  Tensor z = (x * x).sum();
  (void)ts::autograd::grad({z}, {x});
  EXPECT_THAT(error_text([&] { (void)ts::autograd::grad({z}, {x}); }),
              HasSubstr("Trying to backward through the graph a second time"));
}

TEST(AutogradEngine, NonScalarBackwardNeedsAGradient) {
  Tensor x = vec({1, 2}).requires_grad_();
  Tensor y = x * 2;
  EXPECT_THAT(error_text([&] { y.backward(); }),
              HasSubstr("backward: grad can be implicitly created only for scalar outputs"));
  y.backward(vec({1, 10}));
  EXPECT_EQ(values(x.grad()), (std::vector<double>{2, 20}));
  EXPECT_THAT(
      error_text([&] {
        (x * 2).backward(vec({1, 2, 3}));
      }),
      HasSubstr("backward: Mismatch in shape: grad_output[0] has a shape of [3] and output[0] has "
                "a shape of [2]."));
}

TEST(AutogradEngine, BackwardOnATensorThatDoesNotRequireGrad) {
  Tensor x = vec({1, 2});
  EXPECT_THAT(
      error_text([&] { x.sum().backward(); }),
      HasSubstr(
          "backward: element 0 of tensors does not require grad and does not have a grad_fn"));
  Tensor w = vec({1}).requires_grad_();
  EXPECT_THAT(error_text([&] {
                ts::autograd::backward({w.sum(), x.sum()});
              }),
              HasSubstr("element 1 of tensors does not require grad"));
}

TEST(AutogradEngine, InPlaceOnLeafThatRequiresGrad) {
  Tensor x = vec({1, 2}).requires_grad_();
  const std::string msg =
      "a leaf Variable that requires grad is being used in an in-place operation (argument "
      "'self').";
  EXPECT_EQ(error_text([&] { x.add_(1); }), "add_: " + msg);
  EXPECT_EQ(error_text([&] { x.copy_(vec({3, 4})); }), "copy_: " + msg);
  EXPECT_EQ(error_text([&] { x.fill_(0); }), "fill_: " + msg);
  EXPECT_EQ(error_text([&] { x.zero_(); }), "zero_: fill_: " + msg);
  EXPECT_EQ(values(x), (std::vector<double>{1, 2}));  // untouched
  EXPECT_EQ(x._version(), 0u);
  EXPECT_THAT(error_text([&] { x.narrow(0, 0, 1).mul_(2); }),
              HasSubstr("mul_: a view of a leaf Variable that requires grad is being used in "
                        "an in-place operation"));
  {
    ts::NoGradGuard no_grad;  // how optimizers update parameters
    x.sub_(vec({1, 1}), 0.5);
  }
  EXPECT_EQ(values(x), (std::vector<double>{0.5, 1.5}));
  EXPECT_EQ(x._version(), 1u);
  EXPECT_TRUE(x.is_leaf());
}

TEST(AutogradEngine, VersionCounterError) {
  Tensor x = vec({1, 2, 3}, ts::kFloat).requires_grad_();
  Tensor a = x * 1;
  a.mul_(2);         // version 1
  Tensor b = a * a;  // saves a at version 1
  a.mul_(3);         // version 2; mul_ with a Scalar is ATen's MulBackward1
  EXPECT_EQ(
      error_text([&] { b.sum().backward(); }),
      "backward: one of the variables needed for gradient computation has been modified by an "
      "inplace "
      "operation: [float32 [3]], which is output 0 of MulBackward1, is at version 2; expected "
      "version 1 instead. Hint: the tensor was changed in place after the forward pass saved it "
      "for backward; modify a clone() of it instead.");
  // A saved leaf has no grad_fn to name; a saved output names its own node.
  Tensor w = vec({1, 2}).requires_grad_();
  Tensor c = vec({3, 4});
  Tensor d = w * c;
  c.add_(1);
  EXPECT_THAT(error_text([&] { d.sum().backward(); }),
              HasSubstr("[float64 [2]] is at version 1; expected version 0 instead."));
  Tensor e = w.exp();
  Tensor f = e.sum();
  {
    ts::NoGradGuard g;
    e.add_(1);
  }
  EXPECT_THAT(error_text([&] { f.backward(); }),
              HasSubstr("[float64 [2]], which is output 0 of ExpBackward0, is at version 1"));
}

TEST(AutogradEngine, VersionCounter) {
  Tensor x = ts::zeros({4});
  EXPECT_EQ(x._version(), 0u);
  EXPECT_EQ(x.clone()._version(), 0u);
  Tensor v = x.narrow(0, 1, 2);
  v.add_(1);
  EXPECT_EQ(x._version(), 1u);  // views share the counter
  EXPECT_EQ(v._version(), 1u);
  x.mul_(2);
  EXPECT_EQ(v._version(), 2u);
  ts::add_out(x, x, x);  // out= bumps too
  EXPECT_EQ(x._version(), 3u);
  (void)(x + 1);  // functional calls do not
  EXPECT_EQ(x._version(), 3u);
  Tensor d = x.detach();
  d.zero_();
  EXPECT_EQ(x._version(), 4u);  // detach() shares the counter
  Tensor empty = ts::empty({0});
  ts::add_out(empty, vec({1, 2, 3}, ts::kFloat), vec({1, 2, 3}, ts::kFloat));  // resized
  EXPECT_EQ(empty._version(), 1u);
}

TEST(AutogradEngine, OutRequiresGradErrors) {
  Tensor x = vec({1, 2}).requires_grad_();
  Tensor out = ts::empty({2}, ts::kDouble);
  EXPECT_EQ(error_text([&] { ts::add_out(out, x, x); }),
            "add: functions with out=... arguments don't support automatic differentiation, but "
            "one of the arguments requires grad (argument 'self').");
  EXPECT_THAT(error_text([&] { ts::exp_out(out, x); }), HasSubstr("exp: functions with out=..."));
  EXPECT_THAT(error_text([&] { ts::sum_out(out.narrow(0, 0, 1), x, {0}, true); }),
              HasSubstr("sum: functions with out=..."));
  // out itself requiring grad.
  Tensor leaf_out = ts::empty({2}, ts::kDouble).requires_grad_();
  EXPECT_THAT(error_text([&] {
                ts::add_out(leaf_out, vec({1, 2}), vec({1, 2}));
              }),
              HasSubstr("add: functions with out=... arguments don't support automatic "
                        "differentiation, but one of the arguments requires grad (argument "
                        "'out')."));
  // Non-differentiable ops and no_grad are fine.
  Tensor b = ts::empty({2}, ts::kBool);
  ts::gt_out(b, x, vec({1.5, 1.5}));
  EXPECT_EQ(values(b), (std::vector<double>{0, 1}));
  ts::NoGradGuard no_grad;
  ts::add_out(out, x, x);
  EXPECT_EQ(values(out), (std::vector<double>{2, 4}));
}

// Found by fuzz/ (issue 12): a refused out= call used to resize `out` first (a failed call must
// leave it untouched), and the optimized set's comparison kernels, which write a non-bool out
// through out.copy_, refused an out that requires grad that the reference set writes.
TEST(AutogradEngine, OutCallsAreRefusedBeforeResizingAndNonDifferentiableOnesWrite) {
  Tensor x = vec({1, 2}).requires_grad_();
  Tensor out = ts::empty({0}, ts::kDouble);
  EXPECT_THAT(error_text([&] { ts::var_out(out, x, {0}); }), HasSubstr("var: functions with out="));
  EXPECT_THAT(error_text([&] { ts::exp_out(out, x); }), HasSubstr("exp: functions with out="));
  EXPECT_THAT(error_text([&] {
                ts::stack_out(out, {x, x});
              }),
              HasSubstr("cat: functions with out="));
  EXPECT_EQ(out.sizes(), ts::IntArrayRef({0}));
  Tensor leaf = ts::zeros({2}).requires_grad_();
  ts::eq_out(leaf, vec({1, 2}), vec({1, 3}));
  EXPECT_EQ(values(leaf), (std::vector<double>{1, 0}));
  EXPECT_FALSE(leaf.grad_fn());
}

TEST(AutogradEngine, NoGradAndGradModeAreThreadLocal) {
  Tensor x = vec({1, 2}).requires_grad_();
  EXPECT_TRUE(ts::GradMode::is_enabled());
  {
    ts::NoGradGuard no_grad;
    EXPECT_FALSE(ts::GradMode::is_enabled());
    Tensor y = x * 2;
    EXPECT_FALSE(y.requires_grad());
    EXPECT_EQ(y.grad_fn(), nullptr);
    {
      ts::AutoGradMode enable(true);
      EXPECT_TRUE((x * 2).requires_grad());
    }
    EXPECT_FALSE(ts::GradMode::is_enabled());
    bool other_thread_enabled = false;
    std::thread t([&] { other_thread_enabled = ts::GradMode::is_enabled(); });
    t.join();
    EXPECT_TRUE(other_thread_enabled);
  }
  EXPECT_TRUE(ts::GradMode::is_enabled());
}

TEST(AutogradEngine, Detach) {
  Tensor x = vec({1, 2}).requires_grad_();
  Tensor y = x * 2;
  Tensor d = y.detach();
  EXPECT_FALSE(d.requires_grad());
  EXPECT_TRUE(d.is_leaf());
  EXPECT_EQ(d.storage().get(), y.storage().get());
  d.add_(1);  // no error: d is a plain leaf
  EXPECT_EQ(values(y), (std::vector<double>{3, 5}));
  Tensor z = x * 3;
  z.detach_();
  EXPECT_FALSE(z.requires_grad());
  EXPECT_TRUE(z.is_leaf());
  EXPECT_THAT(error_text([&] { (x * 1).narrow(0, 0, 1).detach_(); }),
              HasSubstr("detach_: Can't detach views in-place. Use detach() instead."));
}

TEST(AutogradEngine, RetainGrad) {
  Tensor x = vec({1, 2}).requires_grad_();
  Tensor y = x * 2;
  Tensor unretained = x * 5;
  y.retain_grad();
  EXPECT_TRUE(y.retains_grad());
  EXPECT_FALSE(x.retains_grad());
  ((y * y).sum() + unretained.sum()).backward();
  EXPECT_EQ(values(y.grad()), (std::vector<double>{4, 8}));  // 2y
  EXPECT_EQ(values(x.grad()), (std::vector<double>{13, 21}));
  EXPECT_FALSE(unretained.grad().defined());
  EXPECT_THAT(error_text([&] { vec({1}).retain_grad(); }),
              HasSubstr("retain_grad: can't retain_grad on Tensor that has requires_grad=False"));
  // An in-place op moves the hook to the tensor's new node.
  Tensor a = x * 1;
  a.retain_grad();
  a.mul_(3);
  a.sum().backward();
  EXPECT_EQ(values(a.grad()), (std::vector<double>{1, 1}));
}

TEST(AutogradEngine, GradDoesNotTouchLeafGrads) {
  Tensor x = vec({1, 2, 3}).requires_grad_();
  Tensor y = vec({2, 2, 2}).requires_grad_();
  auto g = ts::autograd::grad({(x * y).sum()}, {x});
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(values(g[0]), (std::vector<double>{2, 2, 2}));
  EXPECT_FALSE(x.grad().defined());
  EXPECT_FALSE(y.grad().defined());
  // A non-leaf input: its gradient is captured at its edge.
  Tensor a = x * 3;
  g = ts::autograd::grad({(a * a).sum()}, {a, x});
  EXPECT_EQ(values(g[0]), (std::vector<double>{6, 12, 18}));
  EXPECT_EQ(values(g[1]), (std::vector<double>{18, 36, 54}));
}

TEST(AutogradEngine, GradErrorsAndAllowUnused) {
  Tensor x = vec({1, 2}).requires_grad_();
  Tensor unused = vec({1, 2}).requires_grad_();
  EXPECT_THAT(error_text([&] {
                (void)ts::autograd::grad({(x * x).sum()}, {x, unused});
              }),
              HasSubstr("grad: One of the differentiated Tensors (inputs[1]) appears to not have "
                        "been used in the graph. Set allow_unused=true if this is the desired "
                        "behavior."));
  auto g = ts::autograd::grad({(x * x).sum()}, {x, unused}, {}, std::nullopt, false, true);
  EXPECT_EQ(values(g[0]), (std::vector<double>{2, 4}));
  EXPECT_FALSE(g[1].defined());
  EXPECT_THAT(
      error_text([&] { (void)ts::autograd::grad({(x * x).sum()}, {vec({1})}); }),
      HasSubstr("grad: One of the differentiated Tensors does not require grad (inputs[0])"));
}

TEST(AutogradEngine, CreateGraphGivesSecondDerivatives) {
  Tensor x = vec({3}).requires_grad_();
  Tensor y = (x * x * x).sum();
  auto g = ts::autograd::grad({y}, {x}, {}, std::nullopt, /*create_graph=*/true);
  EXPECT_EQ(values(g[0]), (std::vector<double>{27}));  // 3x^2
  EXPECT_TRUE(g[0].requires_grad());
  auto g2 = ts::autograd::grad({g[0].sum()}, {x});
  EXPECT_EQ(values(g2[0]), (std::vector<double>{18}));  // 6x
  // backward(create_graph): the accumulated grad keeps its history.
  Tensor w = vec({2}).requires_grad_();
  (w * w * w).sum().backward({}, std::nullopt, /*create_graph=*/true);
  EXPECT_TRUE(w.grad().requires_grad());
  EXPECT_EQ(values(w.grad()), (std::vector<double>{12}));
  Tensor gw = w.grad();
  w.mutable_grad() = Tensor();
  gw.sum().backward();
  EXPECT_EQ(values(w.grad()), (std::vector<double>{12}));  // 6w
}

TEST(AutogradEngine, SavedOutputsKeepHistoryUnderCreateGraph) {
  Tensor x = vec({0.5, 1.0}).requires_grad_();
  Tensor y = x.exp();  // saves its output
  auto g = ts::autograd::grad({y.sum()}, {x}, {}, std::nullopt, true);
  auto g2 = ts::autograd::grad({g[0].sum()}, {x});
  EXPECT_NEAR(values(g2[0])[0], std::exp(0.5), 1e-12);
  EXPECT_NEAR(values(g2[0])[1], std::exp(1.0), 1e-12);
}

TEST(AutogradEngine, MultipleRootsAndUndefinedBranches) {
  Tensor x = vec({1, 2}).requires_grad_();
  auto [v, i] = (x * 2).max(0);
  ts::autograd::backward({v, (x * 3).sum()});
  EXPECT_EQ(values(x.grad()), (std::vector<double>{3, 5}));
}

TEST(AutogradEngine, InPlaceOnNonLeafRebasesHistory) {
  Tensor x = vec({1, 2}).requires_grad_();
  Tensor a = x * 2;
  a.mul_(x);  // a = 2x * x
  EXPECT_EQ(a.grad_fn()->name(), "MulBackward0");
  EXPECT_EQ(a._version(), 1u);
  a.sum().backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{4, 8}));  // 4x
  // A buffer that does not require grad gains history from an in-place op.
  Tensor buf = ts::zeros({2}, ts::kDouble);
  Tensor w = vec({3, 4}).requires_grad_();
  buf.add_(w);
  buf.mul_(w);
  EXPECT_FALSE(buf.is_leaf());
  buf.sum().backward();
  EXPECT_EQ(values(w.grad()), (std::vector<double>{6, 8}));
  // Overwriting with copy_ or fill_ cuts the old history.
  Tensor y = vec({1, 1}).requires_grad_();
  Tensor b = y * 5;
  b.copy_(vec({7, 7}));
  EXPECT_EQ(b.grad_fn()->name(), "CopyBackwards");
  Tensor c = y * 5;
  c.fill_(2);
  EXPECT_EQ(c.grad_fn()->name(), "FillBackward0");
  (b.sum() + c.sum() + (y * 1).sum()).backward();
  EXPECT_EQ(values(y.grad()), (std::vector<double>{1, 1}));
}

}  // namespace
