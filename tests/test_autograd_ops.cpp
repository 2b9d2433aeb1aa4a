// Derivative formulas of the unary, binary, ternary, copy and reduce families: gradcheck and
// gradgradcheck (float64) with several shapes (broadcast, non-contiguous, 0-dim), in-place
// variants, and PyTorch's values at non-differentiable points.
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
using Unary = std::function<Tensor(const Tensor&)>;
using Binary = std::function<Tensor(const Tensor&, const Tensor&)>;

// Random float64 values in [lo, hi), kept `gap` away from 0 (the kink of abs, relu, ...).
Tensor input(ts::IntArrayRef shape, uint64_t seed, double lo = -2, double hi = 2,
             double gap = 0.1) {
  ts::manual_seed(seed);
  Tensor r = ts::rand(shape, ts::kDouble) * (hi - lo) + lo;
  Tensor away = ts::where(ts::lt(r.abs(), gap), r.sign() * gap + r, r);
  ts::NoGradGuard g;
  return away.detach().requires_grad_();
}

Fn unary_fn(Unary op) {
  return [op](const std::vector<Tensor>& in) -> std::vector<Tensor> { return {op(in[0])}; };
}
Fn binary_fn(Binary op) {
  return [op](const std::vector<Tensor>& in) -> std::vector<Tensor> { return {op(in[0], in[1])}; };
}

// The op on a contiguous, a transposed and a 0-dim input, and in place on a non-leaf.
void check_unary(const char* name, const Unary& op, double lo, double hi,
                 const std::function<void(const Tensor&)>& in_place = {}) {
  SCOPED_TRACE(name);
  expect_gradchecks(unary_fn(op), {input({2, 3}, 1, lo, hi)});
  Tensor t = input({3, 2}, 2, lo, hi);
  Tensor transposed = t.detach().t().requires_grad_();
  expect_gradchecks(unary_fn(op), {transposed});
  expect_gradchecks(unary_fn(op), {input({}, 3, lo, hi)});
  if (in_place) {
    expect_gradchecks(
        [in_place](const std::vector<Tensor>& in) -> std::vector<Tensor> {
          Tensor y = in[0] * 1;
          in_place(y);
          return {y};
        },
        {input({2, 3}, 4, lo, hi)});
  }
}

TEST(AutogradOps, Unary) {
  check_unary(
      "neg", [](const Tensor& x) { return -x; }, -2, 2, [](const Tensor& y) { y.neg_(); });
  check_unary(
      "abs", [](const Tensor& x) { return x.abs() * x; }, -2, 2, [](const Tensor& y) { y.abs_(); });
  check_unary(
      "exp", [](const Tensor& x) { return x.exp(); }, -2, 2, [](const Tensor& y) { y.exp_(); });
  check_unary(
      "expm1", [](const Tensor& x) { return ts::expm1(x); }, -2, 2,
      [](const Tensor& y) { y.expm1_(); });
  check_unary(
      "log", [](const Tensor& x) { return x.log(); }, 0.5, 3, [](const Tensor& y) { y.log_(); });
  check_unary(
      "log1p", [](const Tensor& x) { return ts::log1p(x); }, 0.5, 3,
      [](const Tensor& y) { y.log1p_(); });
  check_unary(
      "sqrt", [](const Tensor& x) { return x.sqrt(); }, 0.5, 3, [](const Tensor& y) { y.sqrt_(); });
  check_unary(
      "rsqrt", [](const Tensor& x) { return x.rsqrt(); }, 0.5, 3,
      [](const Tensor& y) { y.rsqrt_(); });
  check_unary(
      "reciprocal", [](const Tensor& x) { return x.reciprocal(); }, 0.5, 3,
      [](const Tensor& y) { y.reciprocal_(); });
  check_unary(
      "sin", [](const Tensor& x) { return x.sin(); }, -3, 3, [](const Tensor& y) { y.sin_(); });
  check_unary(
      "cos", [](const Tensor& x) { return x.cos(); }, -3, 3, [](const Tensor& y) { y.cos_(); });
  check_unary(
      "tan", [](const Tensor& x) { return x.tan(); }, -1.2, 1.2, [](const Tensor& y) { y.tan_(); });
  check_unary(
      "tanh", [](const Tensor& x) { return x.tanh(); }, -2, 2, [](const Tensor& y) { y.tanh_(); });
  check_unary(
      "sigmoid", [](const Tensor& x) { return x.sigmoid(); }, -3, 3,
      [](const Tensor& y) { y.sigmoid_(); });
  check_unary(
      "relu", [](const Tensor& x) { return x.relu() * x; }, -2, 2,
      [](const Tensor& y) { y.relu_(); });
  check_unary(
      "gelu", [](const Tensor& x) { return ts::gelu(x); }, -3, 3,
      [](const Tensor& y) { ts::gelu_(y); });
  check_unary(
      "gelu_tanh", [](const Tensor& x) { return ts::gelu(x, "tanh"); }, -3, 3,
      [](const Tensor& y) { ts::gelu_(y, "tanh"); });
  check_unary(
      "silu", [](const Tensor& x) { return ts::silu(x); }, -3, 3,
      [](const Tensor& y) { ts::silu_(y); });
  check_unary(
      "erf", [](const Tensor& x) { return x.erf(); }, -2, 2, [](const Tensor& y) { y.erf_(); });
  check_unary(
      "exp2", [](const Tensor& x) { return x.exp2(); }, -2, 2, [](const Tensor& y) { y.exp2_(); });
  check_unary(
      "log2", [](const Tensor& x) { return x.log2(); }, 0.5, 3, [](const Tensor& y) { y.log2_(); });
  check_unary(
      "log10", [](const Tensor& x) { return x.log10(); }, 0.5, 3,
      [](const Tensor& y) { y.log10_(); });
  check_unary(
      "asin", [](const Tensor& x) { return x.asin(); }, -0.9, 0.9,
      [](const Tensor& y) { y.asin_(); });
  check_unary(
      "acos", [](const Tensor& x) { return x.acos(); }, -0.9, 0.9,
      [](const Tensor& y) { y.acos_(); });
  check_unary(
      "atan", [](const Tensor& x) { return x.atan(); }, -3, 3, [](const Tensor& y) { y.atan_(); });
  check_unary(
      "sinh", [](const Tensor& x) { return x.sinh(); }, -2, 2, [](const Tensor& y) { y.sinh_(); });
  check_unary(
      "cosh", [](const Tensor& x) { return x.cosh(); }, -2, 2, [](const Tensor& y) { y.cosh_(); });
  check_unary(
      "asinh", [](const Tensor& x) { return x.asinh(); }, -3, 3,
      [](const Tensor& y) { y.asinh_(); });
  check_unary(
      "acosh", [](const Tensor& x) { return x.acosh(); }, 1.1, 3,
      [](const Tensor& y) { y.acosh_(); });
  check_unary(
      "atanh", [](const Tensor& x) { return x.atanh(); }, -0.9, 0.9,
      [](const Tensor& y) { y.atanh_(); });
  check_unary(
      "sinc", [](const Tensor& x) { return x.sinc(); }, -3, 3, [](const Tensor& y) { y.sinc_(); });
  check_unary(
      "erfc", [](const Tensor& x) { return x.erfc(); }, -2, 2, [](const Tensor& y) { y.erfc_(); });
  check_unary(
      "erfinv", [](const Tensor& x) { return x.erfinv(); }, -0.9, 0.9,
      [](const Tensor& y) { y.erfinv_(); });
  check_unary(
      "frac", [](const Tensor& x) { return x.frac(); }, 0.1, 0.9,
      [](const Tensor& y) { y.frac_(); });
  check_unary(
      "hardsigmoid", [](const Tensor& x) { return ts::hardsigmoid(x); }, -2.5, 2.5,
      [](const Tensor& y) { ts::hardsigmoid_(y); });
  check_unary(
      "hardswish", [](const Tensor& x) { return ts::hardswish(x); }, -2.5, 2.5,
      [](const Tensor& y) { ts::hardswish_(y); });
  check_unary(
      "mish", [](const Tensor& x) { return ts::mish(x); }, -3, 3,
      [](const Tensor& y) { ts::mish_(y); });
  check_unary(
      "log_sigmoid", [](const Tensor& x) { return ts::log_sigmoid(x); }, -3, 3);
  check_unary(
      "clamp", [](const Tensor& x) { return x.clamp(-1, 1) * x; }, -2, 2,
      [](const Tensor& y) { y.clamp_(-0.5, std::nullopt); });
  check_unary(
      "clamp_max", [](const Tensor& x) { return x.clamp(std::nullopt, 0.5); }, -2, 2);
  // Piecewise-constant ops: zero gradients.
  for (const Unary& op : std::vector<Unary>{
           [](const Tensor& x) { return x.sign(); }, [](const Tensor& x) { return x.floor(); },
           [](const Tensor& x) { return x.ceil(); }, [](const Tensor& x) { return x.round(); },
           [](const Tensor& x) { return x.trunc(); }}) {
    Tensor x = vec({-1.7, 0.2, 2.5}).requires_grad_();
    op(x).sum().backward();
    EXPECT_EQ(values(x.grad()), (std::vector<double>{0, 0, 0}));
  }
}

TEST(AutogradOps, Binary) {
  const std::vector<std::pair<ts::DimVector, ts::DimVector>> shapes = {
      {{2, 3}, {2, 3}}, {{2, 3}, {3}}, {{2, 1}, {1, 3}}, {{}, {2, 2}}};
  struct Case {
    const char* name;
    Binary op;
    double lo_a, hi_a, lo_b, hi_b;
  };
  const std::vector<Case> cases = {
      {"add", [](const Tensor& a, const Tensor& b) { return ts::add(a, b, 2.5); }, -2, 2, -2, 2},
      {"sub", [](const Tensor& a, const Tensor& b) { return ts::sub(a, b, -1.5); }, -2, 2, -2, 2},
      {"mul", [](const Tensor& a, const Tensor& b) { return a * b; }, -2, 2, -2, 2},
      {"div", [](const Tensor& a, const Tensor& b) { return a / b; }, -2, 2, 0.5, 2},
      {"remainder", [](const Tensor& a, const Tensor& b) { return a.remainder(b); }, 0.1, 0.9, 1.2,
       2},
      {"pow", [](const Tensor& a, const Tensor& b) { return a.pow(b); }, 0.5, 2, -2, 2},
      {"maximum", [](const Tensor& a, const Tensor& b) { return a.maximum(b); }, -2, 2, -2, 2},
      {"minimum", [](const Tensor& a, const Tensor& b) { return a.minimum(b); }, -2, 2, -2, 2},
      {"atan2", [](const Tensor& a, const Tensor& b) { return a.atan2(b); }, -2, 2, 0.5, 2},
  };
  uint64_t seed = 10;
  for (const Case& c : cases) {
    for (const auto& [sa, sb] : shapes) {
      SCOPED_TRACE(std::string(c.name) + " " + std::to_string(sa.size()) + "-d and " +
                   std::to_string(sb.size()) + "-d");
      expect_gradchecks(binary_fn(c.op),
                        {input(sa, seed, c.lo_a, c.hi_a), input(sb, seed + 1, c.lo_b, c.hi_b)});
      seed += 2;
    }
  }
  // Scalar operands and in-place forms.
  expect_gradchecks(unary_fn([](const Tensor& x) { return x.pow(3); }), {input({3}, 40)});
  expect_gradchecks(unary_fn([](const Tensor& x) { return ts::pow(2.0, x); }), {input({3}, 41)});
  expect_gradchecks(unary_fn([](const Tensor& x) { return (x - 1.5) / 3.0; }), {input({3}, 42)});
  expect_gradchecks(
      [](const std::vector<Tensor>& in) -> std::vector<Tensor> {
        Tensor y = in[0] * 1;
        y.mul_(in[1]).add_(in[1], 2).div_(in[1].exp()).sub_(in[0]).pow_(2);
        return {y};
      },
      {input({2, 3}, 43), input({3}, 44)});
}

TEST(AutogradOps, BinaryNonDifferentiablePoints) {
  Tensor a = vec({1, 2, 3}).requires_grad_();
  Tensor b = vec({1, 5, 0}).requires_grad_();
  (a.maximum(b) * vec({2, 10, 100})).sum().backward();
  EXPECT_EQ(values(a.grad()), (std::vector<double>{1, 0, 100}));  // ties split in half
  EXPECT_EQ(values(b.grad()), (std::vector<double>{1, 10, 0}));
  Tensor x = vec({0, 2}).requires_grad_();
  Tensor e = vec({0, 0}).requires_grad_();
  x.pow(e).sum().backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{0, 0}));  // exponent 0
  EXPECT_EQ(values(e.grad())[0], 0);                         // self 0, exponent >= 0
  EXPECT_NEAR(values(e.grad())[1], std::log(2.0), 1e-15);
  Tensor n = vec({7, -7}).requires_grad_();
  ts::div(n, 2.0, "floor").sum().backward();
  EXPECT_EQ(values(n.grad()), (std::vector<double>{0, 0}));
}

TEST(AutogradOps, UnaryNonDifferentiablePoints) {
  Tensor x = vec({0, -1, 1}).requires_grad_();
  (x.relu() + x.abs()).sum().backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{0, -1, 2}));  // relu'(0) = abs'(0) = 0
  Tensor c = vec({-1, 0, 1, 2}).requires_grad_();
  c.clamp(0, 1).sum().backward();
  EXPECT_EQ(values(c.grad()), (std::vector<double>{0, 1, 1, 0}));  // a bound passes
  Tensor d = vec({0.5}).requires_grad_();
  d.clamp(1, 0).sum().backward();  // min > max: the result is max, nothing flows
  EXPECT_EQ(values(d.grad()), (std::vector<double>{0}));
  bool has_relu = false;
  for (const auto& row : ts::autograd::nondifferentiable_points()) has_relu |= row.op == "relu";
  EXPECT_TRUE(has_relu);
}

TEST(AutogradOps, Ternary) {
  ts::manual_seed(50);
  const Tensor cond = ts::gt(ts::rand({2, 3}), 0.5);
  expect_gradchecks(
      [cond](const std::vector<Tensor>& in) -> std::vector<Tensor> {
        return {ts::where(cond, in[0] * in[0], in[1])};
      },
      {input({2, 3}, 51), input({3}, 52)});
  expect_gradchecks(
      [cond](const std::vector<Tensor>& in) -> std::vector<Tensor> {
        return {ts::where(cond, in[0], 2.0) * in[0]};
      },
      {input({2, 1}, 53)});
  expect_gradchecks(
      [](const std::vector<Tensor>& in) -> std::vector<Tensor> {
        return {ts::lerp(in[0], in[1], in[2])};
      },
      {input({2, 3}, 54), input({2, 3}, 55), input({3}, 56)});
  expect_gradchecks(
      [](const std::vector<Tensor>& in) -> std::vector<Tensor> {
        return {ts::lerp(in[0], in[1], 0.3) * in[0]};
      },
      {input({2, 3}, 57), input({2, 3}, 58)});
  expect_gradchecks(
      [](const std::vector<Tensor>& in) -> std::vector<Tensor> {
        return {ts::addcmul(in[0], in[1], in[2], -0.5)};
      },
      {input({2, 3}, 59), input({3}, 60), input({2, 1}, 61)});
  expect_gradchecks(
      [cond](const std::vector<Tensor>& in) -> std::vector<Tensor> {
        return {in[0].masked_fill(cond, 3.0) * in[0]};
      },
      {input({2, 3}, 62)});
  expect_gradchecks(
      [cond](const std::vector<Tensor>& in) -> std::vector<Tensor> {
        Tensor y = in[0] * in[0];
        y.masked_fill_(cond, 1.0).addcmul_(in[1], in[1], 2).lerp_(in[1], 0.25);
        return {y};
      },
      {input({2, 3}, 63), input({3}, 64)});
}

TEST(AutogradOps, Copy) {
  expect_gradchecks(unary_fn([](const Tensor& x) { return x.clone() * x; }), {input({2, 3}, 70)});
  expect_gradchecks(unary_fn([](const Tensor& x) { return x.t().contiguous() * 2; }),
                    {input({2, 3}, 71)});
  expect_gradchecks(
      [](const std::vector<Tensor>& in) -> std::vector<Tensor> {
        Tensor out = ts::zeros({2, 3}, ts::kDouble);
        out.copy_(in[0]);  // broadcast
        return {out * out};
      },
      {input({3}, 72)});
  // to(): the gradient is cast back to the input's dtype.
  Tensor x = vec({1, 2}).requires_grad_();
  Tensor f = x.to(ts::kFloat);
  (f * f).sum().backward();
  EXPECT_EQ(x.grad().dtype(), ts::kDouble);
  EXPECT_EQ(values(x.grad()), (std::vector<double>{2, 4}));
  EXPECT_TRUE(x.to(ts::kDouble).is_same(x));
}

TEST(AutogradOps, Reductions) {
  const Tensor x = input({3, 4}, 80);
  auto check = [&](const char* name, const Unary& op, const Tensor& in) {
    SCOPED_TRACE(name);
    expect_gradchecks(unary_fn(op), {in});
  };
  check(
      "sum", [](const Tensor& t) { return (t * t).sum(); }, x);
  check(
      "sum_dim", [](const Tensor& t) { return (t * t).sum({1}); }, x);
  check(
      "sum_keepdim", [](const Tensor& t) { return (t * t).sum({0}, true); }, x);
  check(
      "mean", [](const Tensor& t) { return (t * t).mean(); }, x);
  check(
      "mean_dims",
      [](const Tensor& t) {
        return (t * t).mean({0, 1}, true);
      },
      x);
  check(
      "prod", [](const Tensor& t) { return t.prod(); }, input({2, 3}, 81));
  check(
      "prod_dim", [](const Tensor& t) { return t.prod(1); }, x);
  check(
      "prod_keepdim", [](const Tensor& t) { return t.prod(0, true); }, x);
  check(
      "amax", [](const Tensor& t) { return t.amax({1}) * t.amax(); }, x);
  check(
      "amin", [](const Tensor& t) { return t.amin({0}, true); }, x);
  check(
      "max", [](const Tensor& t) { return t.max() * t.min(); }, x);
  check(
      "max_dim", [](const Tensor& t) { return std::get<0>(t.max(1)) * 2; }, x);
  check(
      "min_dim", [](const Tensor& t) { return std::get<0>(t.min(0, true)); }, x);
  check(
      "var", [](const Tensor& t) { return t.var({1}); }, x);
  check(
      "var_c0", [](const Tensor& t) { return t.var({}, 0, true); }, x);
  check(
      "std", [](const Tensor& t) { return t.std({0}); }, x);
  check(
      "norm2", [](const Tensor& t) { return t.norm(2, {1}); }, x);
  check(
      "norm1", [](const Tensor& t) { return t.norm(1) * t.norm(1); }, x);
  check(
      "norm_inf", [](const Tensor& t) { return t.norm(INFINITY, {0}); }, x);
  for (const double p : {3.0, 0.5, 1.5, -1.5, -double(INFINITY)}) {
    check(
        "norm_p", [p](const Tensor& t) { return t.norm(p, {1}); }, x);
  }
  check(
      "logsumexp", [](const Tensor& t) { return t.logsumexp({1}); }, x);
  check(
      "cumsum", [](const Tensor& t) { return (t * t).cumsum(1); }, x);
  check(
      "cumsum_", [](const Tensor& t) { return (t * t).cumsum_(0); }, x);
  check(
      "sum_0d", [](const Tensor& t) { return (t * t).sum(); }, input({}, 82));
  check(
      "sum_transposed", [](const Tensor& t) { return (t.t() * t.t()).sum({0}); }, x);
}

TEST(AutogradOps, ReductionNonDifferentiablePoints) {
  Tensor x = vec({3, 1, 3, 2}).requires_grad_();
  x.amax().backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{0.5, 0, 0.5, 0}));  // ties split evenly
  x.mutable_grad() = Tensor();
  x.max().backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{0.5, 0, 0.5, 0}));
  x.mutable_grad() = Tensor();
  auto [v, i] = x.max(0);
  v.backward();
  std::vector<double> expected(4, 0.0);
  expected[static_cast<size_t>(i.item<int64_t>())] = 1;  // only the returned index
  EXPECT_EQ(values(x.grad()), expected);
  Tensor z = vec({0, 0}).requires_grad_();
  (z.norm() + z.norm(1)).backward();
  EXPECT_EQ(values(z.grad()), (std::vector<double>{0, 0}));  // norm at 0
  Tensor c = vec({2, 2, 2}).requires_grad_();
  c.std().backward();
  EXPECT_EQ(values(c.grad()), (std::vector<double>{0, 0, 0}));
  Tensor p = vec({2, 0, 3}).requires_grad_();
  p.prod().backward();
  EXPECT_EQ(values(p.grad()), (std::vector<double>{0, 6, 0}));  // one zero
  Tensor q = vec({0, 0, 3}).requires_grad_();
  q.prod().backward();
  EXPECT_EQ(values(q.grad()), (std::vector<double>{0, 0, 0}));  // two zeros
  Tensor h = vec({-2, 1, 2}).requires_grad_();
  h.norm(INFINITY).backward();
  EXPECT_EQ(values(h.grad()), (std::vector<double>{-0.5, 0, 0.5}));
}

// Note [prod gradient layout], against libtorch 1.13's autograd::grad of x.prod() for x a view of
// b = arange(1, 13) / 4: b[:6].view(3, 2).t() (strides [1, 2]) gets strides [1, 2] and the values
// below (row-major); with b[4] = 0 the gradient is contiguous, [0, 0, 0.140625, 0, 0, 0];
// b.view(2, 3, 2).permute(2, 1, 0) keeps strides [1, 2, 6]; b.view(2, 6)[:, ::2] is contiguous.
TEST(AutogradOps, FullProdGradientLayoutAsATen) {
  std::vector<double> v;
  for (int i = 1; i <= 12; ++i) v.push_back(i / 4.0);
  const Tensor b = ts::tensor(ts::ArrayRef<double>(v), ts::kDouble).requires_grad_();
  const auto grad_of = [](const Tensor& x) { return ts::autograd::grad({x.prod()}, {x})[0]; };
  const Tensor t = b.slice(0, 0, 6).view({3, 2}).t();
  const Tensor gt = grad_of(t);
  EXPECT_EQ(gt.strides(), (ts::IntArrayRef{1, 2}));
  EXPECT_THAT(values(gt.contiguous()),
              testing::Pointwise(testing::DoubleNear(1e-5),
                                 {0.703125, 0.234375, 0.140625, 0.351562, 0.175781, 0.117188}));
  EXPECT_EQ(grad_of(b.view({2, 3, 2}).permute({2, 1, 0})).strides(), (ts::IntArrayRef{1, 2, 6}));
  EXPECT_EQ(grad_of(b.view({2, 6}).slice(1, 0, 6, 2)).strides(), (ts::IntArrayRef{3, 1}));
  v[4] = 0;
  const Tensor z = ts::tensor(ts::ArrayRef<double>(v), ts::kDouble)
                       .requires_grad_()
                       .slice(0, 0, 6)
                       .view({3, 2})
                       .t();
  const Tensor gz = grad_of(z);
  EXPECT_EQ(gz.strides(), (ts::IntArrayRef{3, 1}));
  EXPECT_EQ(values(gz), (std::vector<double>{0, 0, 0.140625, 0, 0, 0}));
}

// Note [Norm gradients], by hand on x = [3, -4, 0] (ATen 1.13 gives the same values).
TEST(AutogradOps, NormGradientsOfAnyP) {
  const auto grad_of = [](double p, std::initializer_list<double> v) {
    Tensor x = vec(v).requires_grad_();
    x.norm(p).backward();
    return x.grad();
  };
  // p = 0: no gradient at all (ATen: the leaf's .grad stays undefined).
  EXPECT_FALSE(grad_of(0, {3, -4, 0}).defined());
  // p = 3: x |x| / norm^2, norm^3 = 91.
  const double n3 = std::cbrt(91.0);
  EXPECT_THAT(values(grad_of(3, {3, -4, 0})),
              ::testing::Pointwise(::testing::DoubleNear(1e-12),
                                   std::vector<double>{9 / (n3 * n3), -16 / (n3 * n3), 0}));
  // p = 0.5: sgn(x) |x|^-0.5 norm^0.5, norm^0.5 = sqrt(3) + 2; 0 at x = 0.
  const double r = std::sqrt(3.0) + 2;
  EXPECT_THAT(values(grad_of(0.5, {3, -4, 0})),
              ::testing::Pointwise(::testing::DoubleNear(1e-12),
                                   std::vector<double>{r / std::sqrt(3.0), -r / 2, 0}));
  // p = -inf: the min of |x| is 0 at x = 0, whose sign is 0; ties split evenly.
  EXPECT_EQ(values(grad_of(-INFINITY, {3, -4, 0})), (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(values(grad_of(-INFINITY, {1, -1, 2})), (std::vector<double>{0.5, -0.5, 0}));
  // p = -1 with a zero element: the norm is 0, and so is the gradient.
  EXPECT_EQ(values(grad_of(-1, {3, -4, 0})), (std::vector<double>{0, 0, 0}));
}

TEST(AutogradOps, EveryDifferentiableKernelOpHasAFormula) {
  int checked = 0;
  for (const ts::OpInfo& op : ts::all_ops()) {
    if (op.kind != ts::OpKind::Kernel) continue;
    EXPECT_EQ(ts::autograd::has_derivative(op.id), op.differentiable) << op.name;
    ++checked;
  }
  EXPECT_GT(checked, 80);
}

TEST(AutogradOps, FastModeAndFailureReport) {
  ts::autograd::GradcheckOptions fast;
  fast.fast_mode = true;
  const Fn f = unary_fn([](const Tensor& x) { return (x * x).sum({1}) * x.sin().sum(); });
  EXPECT_TRUE(ts::autograd::gradcheck(f, {input({8, 16}, 90)}, fast).ok);
  EXPECT_TRUE(ts::autograd::gradgradcheck(f, {input({8, 16}, 91)}, {}, fast).ok);
  // A wrong derivative is caught, naming output, input and element.
  const Fn wrong = [](const std::vector<Tensor>& in) -> std::vector<Tensor> {
    Tensor d;
    {
      ts::NoGradGuard g;
      d = in[1] * 0.5;  // hidden from autograd
    }
    return {in[0] * 2, in[0] * d + in[1]};
  };
  ts::autograd::GradcheckOptions o;
  o.raise_exception = false;
  const auto r = ts::autograd::gradcheck(wrong, {input({2}, 92), input({2}, 93)}, o);
  EXPECT_FALSE(r.ok);
  EXPECT_THAT(r.message, HasSubstr("Jacobian mismatch for output 1 with respect to input 1"));
  fast.raise_exception = true;
  try {
    (void)ts::autograd::gradcheck(wrong, {input({2}, 92), input({2}, 93)}, fast);
    ADD_FAILURE() << "expected a gradcheck error";
  } catch (const ts::Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("gradcheck: Jacobian mismatch for output 1"));
  }
  // Inputs must be float64 and not overlapping.
  Tensor f32 = ts::ones({2}).requires_grad_();
  try {
    (void)ts::autograd::gradcheck(unary_fn([](const Tensor& x) { return x * 2; }), {f32});
    ADD_FAILURE() << "expected an error";
  } catch (const ts::Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("input 0 requires grad but is not float64"));
  }
}

// Note [Degenerate var and std]: one element with correction 1 gives NaN, value and gradient.
TEST(AutogradOps, VarAndStdOfOneElementAreNaNWithANaNGradient) {
  for (const bool is_var : {true, false}) {
    for (const bool zero_dim : {false, true}) {
      for (const bool along_dim : {false, true}) {
        if (zero_dim && along_dim) continue;
        Tensor x = (zero_dim ? ts::full({}, 2.0, ts::kDouble) : vec({2})).requires_grad_();
        const std::vector<int64_t> dims =
            along_dim ? std::vector<int64_t>{0} : std::vector<int64_t>{};
        Tensor y = is_var ? x.var(dims, 1, false) : x.std(dims, 1, false);
        EXPECT_TRUE(std::isnan(values(y)[0]));
        y.backward();
        EXPECT_TRUE(std::isnan(values(x.grad())[0]))
            << (is_var ? "var" : "std") << " zero_dim=" << zero_dim;
      }
    }
  }
}

// Note [copy_ overwrites self]: the overwritten self's history gets zeros, src the gradient.
TEST(AutogradOps, CopyGivesTheOverwrittenSelfZeros) {
  Tensor x = vec({1, 2}).requires_grad_();
  Tensor src = vec({5, 6}).requires_grad_();
  Tensor y = x * 3;
  y.copy_(src);
  (y * vec({1, 2})).sum().backward();
  ASSERT_TRUE(x.grad().defined());
  EXPECT_EQ(values(x.grad()), (std::vector<double>{0, 0}));
  EXPECT_EQ(values(src.grad()), (std::vector<double>{1, 2}));
  // A src without history: self's history still gets its zeros.
  Tensor x2 = vec({1, 2}).requires_grad_();
  Tensor y2 = x2 * 3;
  y2.copy_(vec({7, 8}));
  EXPECT_EQ(values(y2), (std::vector<double>{7, 8}));
  y2.sum().backward();
  ASSERT_TRUE(x2.grad().defined());
  EXPECT_EQ(values(x2.grad()), (std::vector<double>{0, 0}));
}

// linear with a bias as one addmm (2-D input) or addmm over the rows (3-D): the same gradients.
// x = [[1, 2, 3], [4, 5, 6]], W = [[1, 0, -1]], b = [0.5]: out = [[-1.5], [-1.5]].
TEST(AutogradOps, LinearWithBiasGradients) {
  for (const bool three_d : {false, true}) {
    Tensor x = vec({1, 2, 3, 4, 5, 6}).reshape({2, 3}).requires_grad_();
    Tensor w = vec({1, 0, -1}).reshape({1, 3}).requires_grad_();
    Tensor b = vec({0.5}).requires_grad_();
    Tensor out = ts::linear(three_d ? x.reshape({1, 2, 3}) : x, w, b);
    EXPECT_EQ(values(out), (std::vector<double>{-1.5, -1.5}));
    out.sum().backward();
    EXPECT_EQ(values(x.grad()), (std::vector<double>{1, 0, -1, 1, 0, -1}));
    EXPECT_EQ(values(w.grad()), (std::vector<double>{5, 7, 9}));
    EXPECT_EQ(values(b.grad()), (std::vector<double>{2}));
  }
}

// Note [Degenerate var and std]: N <= correction, current PyTorch's values and gradients.
TEST(AutogradOps, VarAndStdWithCorrectionAtLeastTheCount) {
  // Full var over [1, 3] with correction 2 or 3: 2 / max(0, N - c) = inf; gradient inf.
  for (const double c : {2.0, 3.0}) {
    Tensor x = vec({1, 3}).requires_grad_();
    Tensor r = ts::var(x, {}, c);
    EXPECT_EQ(values(r)[0], INFINITY);
    r.backward();
    EXPECT_EQ(values(x.grad()), (std::vector<double>{INFINITY, INFINITY}));
  }
  // Equal elements: 0 / 0, NaN value and gradient.
  Tensor e = vec({2, 2}).requires_grad_();
  Tensor r = ts::var(e, {}, 2);
  EXPECT_TRUE(std::isnan(values(r)[0]));
  r.backward();
  for (double g : values(e.grad())) EXPECT_TRUE(std::isnan(g));
  // Along a dim, 2 / (N - c) as it is: correction 3 over [1, 3] gives -2 * (x - 2) = [2, -2].
  Tensor d = vec({1, 3}).requires_grad_();
  ts::var(d, {0}, 3).backward();
  EXPECT_EQ(values(d.grad()), (std::vector<double>{2, -2}));
  // std: grad / (2 * inf) = 0, times inf: NaN.
  Tensor s = vec({1, 3}).requires_grad_();
  Tensor sr = ts::std(s, {}, 2);
  EXPECT_EQ(values(sr)[0], INFINITY);
  sr.backward();
  for (double g : values(s.grad())) EXPECT_TRUE(std::isnan(g));
}

// layer_norm's float16/bfloat16 gradients are computed in float32 (as ATen). Over x = [1, 2, 3,
// 4] with grad [1, 0, 0, 0]: rstd = 1 / sqrt(1.25 + 1e-5) and
// gx = rstd * (g - 1/4 + 0.375 * rstd^2 * (x - 2.5)) = [0.26833, -0.35777, -0.08944, 0.17888].
TEST(AutogradOps, LayerNormReducedPrecisionGradients) {
  for (const ts::ScalarType dt : {ts::kBFloat16, ts::kHalf, ts::kDouble}) {
    Tensor x = vec({1, 2, 3, 4}, dt).requires_grad_();
    (ts::layer_norm(x, {4}) * vec({1, 0, 0, 0}, dt)).sum().backward();
    EXPECT_EQ(x.grad().dtype(), dt);
    const std::vector<double> g = values(x.grad());
    const std::vector<double> expected = {0.268330, -0.357768, -0.089443, 0.178885};
    const double tol = dt == ts::kDouble ? 1e-5 : dt == ts::kHalf ? 1e-3 : 4e-3;
    for (size_t i = 0; i < 4; ++i) EXPECT_NEAR(g[i], expected[i], tol) << dt << " " << i;
  }
}

// rand_like/randn_like keep a transposed input's layout (ATen's preserve_format); the element
// at each index is the one rand/randn give there.
TEST(AutogradOps, RandLikeKeepsTheLayout) {
  Tensor xt = ts::zeros({3, 2}).t();
  for (const bool normal : {false, true}) {
    ts::manual_seed(11);
    Tensor r = normal ? ts::randn_like(xt) : ts::rand_like(xt);
    EXPECT_EQ(r.strides(), (ts::IntArrayRef{1, 2}));
    ts::manual_seed(11);
    Tensor plain = normal ? ts::randn({2, 3}) : ts::rand({2, 3});
    EXPECT_EQ(values(r), values(plain));
  }
}

}  // namespace
