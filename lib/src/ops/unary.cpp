// Unary elementwise ops: meta for every variant, then the family's derivative table.
// Params (touchstone/op_params.h): gelu reads GeluParams{approximate}; clamp reads
// ClampParams{has_min, has_max}, its present bounds arriving as wrapped-scalar inputs after self
// (min first); every other op is plain (NoParams). Inputs: {self}, clamp {self, min?, max?}.
#include <cmath>
#include <numbers>
#include <vector>

#include "../autograd/derivatives.h"
#include "meta.h"
#include "touchstone/ops.h"

namespace ts {
namespace {

using meta::Variant;

Tensor unary(OpId op, Variant v, const Tensor& out, const Tensor& self, OpParams& p) {
  if (op == OpId::neg) {
    TS_CHECK(!self.defined() || self.dtype() != kBool, meta::op_name(op, v),
             ": Negation, the `-` operator, on a bool tensor is not supported (argument 'self'). "
             "If you are trying to invert a mask, use the `~` or `logical_not()` operator "
             "instead.");
  }
  return meta::elementwise(meta::elementwise_spec(op), v, out, ArrayRef<Tensor>(&self, 1), p);
}

Tensor unary(OpId op, Variant v, const Tensor& out, const Tensor& self) {
  OpParams p;
  return unary(op, v, out, self, p);
}

Tensor& unary_(OpId op, const Tensor& self) {
  unary(op, Variant::InPlace, {}, self);
  return const_cast<Tensor&>(self);
}

Tensor& unary_out(OpId op, const Tensor& out, const Tensor& self) {
  unary(op, Variant::Out, out, self);
  return const_cast<Tensor&>(out);
}

Tensor gelu_impl(Variant v, const Tensor& out, const Tensor& self, std::string_view approximate) {
  OpParams p;
  if (approximate == "none") {
    p.set(GeluParams{GeluApproximation::None});
  } else if (approximate == "tanh") {
    p.set(GeluParams{GeluApproximation::Tanh});
  } else {
    TS_ERROR(meta::op_name(OpId::gelu, v),
             ": approximate argument must be either none or tanh, got '", approximate, "'");
  }
  return unary(OpId::gelu, v, out, self, p);
}

Tensor clamp_impl(Variant v, const Tensor& out, const Tensor& self, std::optional<Scalar> min,
                  std::optional<Scalar> max) {
  const char* op = meta::op_name(OpId::clamp, v);
  TS_CHECK(min || max, op, ": At least one of 'min' or 'max' must not be None");
  meta::check_defined(op, self, "self");
  ResultTypeState state;
  update_result_type_state(state, self);
  if (min) update_result_type_state(state, *min);
  if (max) update_result_type_state(state, *max);
  const ScalarType result = result_type(state);
  // ATen converts the bounds with Scalar::to<T>, which rejects values the dtype cannot hold.
  const meta::ElementwiseSpec spec = meta::elementwise_spec(OpId::clamp);
  if (spec.supported.has(result)) {  // else meta::elementwise names the dtype
    if (min) meta::check_scalar_fits(op, *min, result, "min");
    if (max) meta::check_scalar_fits(op, *max, result, "max");
  }
  OpParams p;
  p.set(ClampParams{min.has_value(), max.has_value()});
  SmallVector<Tensor, 3> inputs{self};
  if (min) inputs.push_back(wrapped_scalar_tensor(*min));
  if (max) inputs.push_back(wrapped_scalar_tensor(*max));
  return meta::elementwise(spec, v, out, inputs, p);
}

// nan_to_num's replacements in the result dtype (self's): None is 0 for NaN, the dtype's largest
// and lowest finite values for the infinities (as ATen; integer and bool inputs are copied).
Tensor nan_to_num_impl(Variant v, const Tensor& out, const Tensor& self, std::optional<double> nan,
                       std::optional<double> posinf, std::optional<double> neginf) {
  meta::check_defined(meta::op_name(OpId::nan_to_num, v), self, "self");
  const double max = meta::floating_max(self.dtype());
  OpParams p;
  p.set(NanToNumParams{nan.value_or(0.0), posinf.value_or(max), neginf.value_or(-max)});
  return unary(OpId::nan_to_num, v, out, self, p);
}

}  // namespace

// Every form of the plain unary ops (Note [Generated declarations] in touchstone/plain_ops.h).
// clang-format off
#define TS_DEFINE_None(...)
#define TS_DEFINE_Binary(...)
#define TS_DEFINE_Unary(name, m, i, o)                                                          \
  Tensor name(const Tensor& self) { return unary(OpId::name, Variant::Functional, {}, self); }  \
  TS_PP_IF_##i(Tensor& name##_(const Tensor& self) { return unary_(OpId::name, self); })        \
  TS_PP_IF_##o(Tensor& name##_out(const Tensor& out, const Tensor& self) {                      \
    return unary_out(OpId::name, out, self);                                                    \
  })                                                                                            \
  TS_PP_IF_##m(Tensor Tensor::name() const { return ts::name(*this); })                         \
  TS_PP_IF_##m(TS_PP_IF_##i(Tensor& Tensor::name##_() const { return ts::name##_(*this); }))
// clang-format on
#define TS_OP(name, kind, sig, params, variants, diff, dtypes, parts, schema) \
  TS_PLAIN_OP(TS_DEFINE_, name, kind, sig, params, variants)
#include "touchstone/op_list.def"
#undef TS_OP
#undef TS_DEFINE_Unary
#undef TS_DEFINE_Binary
#undef TS_DEFINE_None

Tensor gelu(const Tensor& self, std::string_view approximate) {
  return gelu_impl(Variant::Functional, {}, self, approximate);
}
Tensor& gelu_(const Tensor& self, std::string_view approximate) {
  gelu_impl(Variant::InPlace, {}, self, approximate);
  return const_cast<Tensor&>(self);
}
Tensor& gelu_out(const Tensor& out, const Tensor& self, std::string_view approximate) {
  gelu_impl(Variant::Out, out, self, approximate);
  return const_cast<Tensor&>(out);
}

// math (issue 16)
// square is ATen's composite pow(self, 2): the Scalar exponent's promotion (bool -> int64).
Tensor square(const Tensor& self) {
  const UserOpScope scope("square");
  return pow(self, 2);
}
Tensor& square_(const Tensor& self) {
  const UserOpScope scope("square_");
  return self.pow_(2);
}
Tensor& square_out(const Tensor& out, const Tensor& self) {
  const UserOpScope scope("square");
  return pow_out(out, self, wrapped_scalar_tensor(2));
}
Tensor Tensor::square() const {
  return ts::square(*this);
}
Tensor& Tensor::square_() const {
  return ts::square_(*this);
}

Tensor nan_to_num(const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                  std::optional<double> neginf) {
  return nan_to_num_impl(Variant::Functional, {}, self, nan, posinf, neginf);
}
Tensor& nan_to_num_(const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                    std::optional<double> neginf) {
  nan_to_num_impl(Variant::InPlace, {}, self, nan, posinf, neginf);
  return const_cast<Tensor&>(self);
}
Tensor& nan_to_num_out(const Tensor& out, const Tensor& self, std::optional<double> nan,
                       std::optional<double> posinf, std::optional<double> neginf) {
  nan_to_num_impl(Variant::Out, out, self, nan, posinf, neginf);
  return const_cast<Tensor&>(out);
}
Tensor Tensor::nan_to_num(std::optional<double> nan, std::optional<double> posinf,
                          std::optional<double> neginf) const {
  return ts::nan_to_num(*this, nan, posinf, neginf);
}
Tensor& Tensor::nan_to_num_(std::optional<double> nan, std::optional<double> posinf,
                            std::optional<double> neginf) const {
  return ts::nan_to_num_(*this, nan, posinf, neginf);
}

Tensor clamp(const Tensor& self, std::optional<Scalar> min, std::optional<Scalar> max) {
  return clamp_impl(Variant::Functional, {}, self, min, max);
}
Tensor& clamp_(const Tensor& self, std::optional<Scalar> min, std::optional<Scalar> max) {
  clamp_impl(Variant::InPlace, {}, self, min, max);
  return const_cast<Tensor&>(self);
}
Tensor& clamp_out(const Tensor& out, const Tensor& self, std::optional<Scalar> min,
                  std::optional<Scalar> max) {
  clamp_impl(Variant::Out, out, self, min, max);
  return const_cast<Tensor&>(out);
}
Tensor Tensor::clamp(std::optional<Scalar> min, std::optional<Scalar> max) const {
  return ts::clamp(*this, min, max);
}
Tensor& Tensor::clamp_(std::optional<Scalar> min, std::optional<Scalar> max) const {
  return ts::clamp_(*this, min, max);
}

}  // namespace ts

// ---- derivatives: see Note [Adding a derivative] in lib/src/autograd/derivatives.h; the
// non-differentiable points follow touchstone/nondiff_points.def ----
namespace ts::autograd {
namespace {

// The gradient of an op that is piecewise constant: zero everywhere (as ATen's zeros_like).
Grads zero_grad(const BackwardArgs& a) {
  return {zeros_like(a.grad())};
}

// Note [sinc gradient near 0]
// sinc'(x) = (cos(pi x) pi x - sin(pi x)) / (pi x^2) cancels as x -> 0 (both terms ~ pi x, their
// difference ~ -(pi x)^3 / 3): in float32 the quotient is noise below |x| ~ 0.1. Where |pi x| < 1
// it is summed as a series instead, sinc'(x) = pi sum_k>=1 (-1)^k 2k t^(2k-1) / (2k+1)!, t = pi x,
// whose terms fall below 2^-53 of the first by k = 10; sinc'(0) = 0.
Tensor sinc_grad(const Tensor& x) {
  using std::numbers::pi;
  const Tensor t = x * pi;
  const Tensor t2 = t * t;
  double fact = 1;  // (2k + 1)!
  std::vector<double> c;
  for (int k = 1; k <= 10; ++k) {
    fact *= (2 * k) * (2 * k + 1);
    c.push_back((k % 2 ? -1 : 1) * 2.0 * k / fact);
  }
  Tensor p = zeros_like(t2) + c.back();
  for (size_t k = c.size() - 1; k-- > 0;) p = p * t2 + c[k];
  const Tensor series = p * t * pi;
  const Tensor direct = (cos(t) * t - sin(t)) / (t * x);
  return where(lt(abs(t), 1), series, direct);
}

// Note [trigamma for digamma's gradient]
// derivatives.yaml's polygamma(1, x), from ops touchstone has: reflection below 1/2,
// psi1(x) = pi^2 / sin^2(pi x) - psi1(1 - x); ten steps of psi1(z) = 1/z^2 + psi1(z + 1); then the
// asymptotic series 1/z + 1/(2z^2) + sum B_2k / z^(2k+1) to B_14 at z >= 10.5 (truncation below
// 2^-53 relative).
Tensor trigamma(const Tensor& x) {
  using std::numbers::pi;
  const Tensor reflect = lt(x, 0.5);
  Tensor z = where(reflect, rsub(x, 1), x);
  Tensor sum = zeros_like(z);
  for (int k = 0; k < 10; ++k) {
    sum = sum + (z * z).reciprocal();
    z = z + 1;
  }
  const Tensor w = z.reciprocal();
  const Tensor w2 = w * w;
  // B_2k for k = 1..7: 1/6, -1/30, 1/42, -1/30, 5/66, -691/2730, 7/6.
  constexpr double kB[] = {1.0 / 6,  -1.0 / 30,     1.0 / 42, -1.0 / 30,
                           5.0 / 66, -691.0 / 2730, 7.0 / 6};
  Tensor series = zeros_like(w2) + kB[6];
  for (int k = 5; k >= 0; --k) series = series * w2 + kB[k];
  const Tensor psi1 = sum + w + w2 * 0.5 + w * w2 * series;
  const Tensor s = sin(x * pi);
  return where(reflect, (s * s).reciprocal() * (pi * pi) - psi1, psi1);
}

}  // namespace

TS_REGISTER_DERIVATIVES(unary) {
  using std::numbers::pi;
  // neg(Tensor self) -> Tensor                     self: -grad
  m.def(OpId::neg, save_nothing(), [](const BackwardArgs& a) -> Grads { return {-a.grad()}; });
  // abs(Tensor self) -> Tensor                     self: grad * self.sgn()   (abs'(0) = 0)
  m.def(OpId::abs, save_inputs({0}),
        [](const BackwardArgs& a) -> Grads { return {a.grad() * a.input(0).sign()}; });
  // sign(Tensor self) -> Tensor                    self: zeros_like(grad)
  m.def(OpId::sign, save_nothing(), zero_grad);
  // exp(Tensor self) -> Tensor                     self: grad * result
  m.def(OpId::exp, save_output(),
        [](const BackwardArgs& a) -> Grads { return {a.grad() * a.output()}; });
  // expm1(Tensor self) -> Tensor                   self: grad * (result + 1)
  m.def(OpId::expm1, save_output(),
        [](const BackwardArgs& a) -> Grads { return {a.grad() * (a.output() + 1)}; });
  // exp2(Tensor self) -> Tensor                    self: grad * result * ln(2)
  m.def(OpId::exp2, save_output(),
        [](const BackwardArgs& a) -> Grads { return {a.grad() * a.output() * std::numbers::ln2}; });
  // log(Tensor self) -> Tensor                     self: grad / self
  m.def(OpId::log, save_inputs({0}),
        [](const BackwardArgs& a) -> Grads { return {a.grad() / a.input(0)}; });
  // log1p(Tensor self) -> Tensor                   self: grad / (self + 1)
  m.def(OpId::log1p, save_inputs({0}),
        [](const BackwardArgs& a) -> Grads { return {a.grad() / (a.input(0) + 1)}; });
  // log2(Tensor self) -> Tensor                    self: grad / (self * ln(2))
  m.def(OpId::log2, save_inputs({0}), [](const BackwardArgs& a) -> Grads {
    return {a.grad() / (a.input(0) * std::numbers::ln2)};
  });
  // log10(Tensor self) -> Tensor                   self: grad / (self * ln(10))
  m.def(OpId::log10, save_inputs({0}), [](const BackwardArgs& a) -> Grads {
    return {a.grad() / (a.input(0) * std::numbers::ln10)};
  });
  // sqrt(Tensor self) -> Tensor                    self: grad / (2 * result)
  m.def(OpId::sqrt, save_output(),
        [](const BackwardArgs& a) -> Grads { return {a.grad() / (a.output() * 2)}; });
  // rsqrt(Tensor self) -> Tensor                   self: -0.5 * grad * result.pow(3)
  m.def(OpId::rsqrt, save_output(),
        [](const BackwardArgs& a) -> Grads { return {a.grad() * a.output().pow(3) * -0.5}; });
  // reciprocal(Tensor self) -> Tensor              self: -grad * (result * result)
  m.def(OpId::reciprocal, save_output(),
        [](const BackwardArgs& a) -> Grads { return {-a.grad() * (a.output() * a.output())}; });
  // sin(Tensor self) -> Tensor                     self: grad * self.cos()
  m.def(OpId::sin, save_inputs({0}),
        [](const BackwardArgs& a) -> Grads { return {a.grad() * a.input(0).cos()}; });
  // cos(Tensor self) -> Tensor                     self: grad * -self.sin()
  m.def(OpId::cos, save_inputs({0}),
        [](const BackwardArgs& a) -> Grads { return {a.grad() * -a.input(0).sin()}; });
  // tan(Tensor self) -> Tensor                     self: grad * (1 + result * result)
  m.def(OpId::tan, save_output(),
        [](const BackwardArgs& a) -> Grads { return {a.grad() * (a.output() * a.output() + 1)}; });
  // asin(Tensor self) -> Tensor                    self: grad * (-self * self + 1).rsqrt()
  m.def(OpId::asin, save_inputs({0}), [](const BackwardArgs& a) -> Grads {
    const Tensor& x = a.input(0);
    return {a.grad() * rsqrt(rsub(x * x, 1))};
  });
  // acos(Tensor self) -> Tensor                    self: grad * -((-self * self + 1).rsqrt())
  m.def(OpId::acos, save_inputs({0}), [](const BackwardArgs& a) -> Grads {
    const Tensor& x = a.input(0);
    return {a.grad() * -rsqrt(rsub(x * x, 1))};
  });
  // atan(Tensor self) -> Tensor                    self: grad / (self * self + 1)
  m.def(OpId::atan, save_inputs({0}), [](const BackwardArgs& a) -> Grads {
    const Tensor& x = a.input(0);
    return {a.grad() / (x * x + 1)};
  });
  // sinh(Tensor self) -> Tensor                    self: grad * self.cosh()
  m.def(OpId::sinh, save_inputs({0}),
        [](const BackwardArgs& a) -> Grads { return {a.grad() * a.input(0).cosh()}; });
  // cosh(Tensor self) -> Tensor                    self: grad * self.sinh()
  m.def(OpId::cosh, save_inputs({0}),
        [](const BackwardArgs& a) -> Grads { return {a.grad() * a.input(0).sinh()}; });
  // tanh(Tensor self) -> Tensor                    self: grad * (1 - result * result)
  m.def(OpId::tanh, save_output(), [](const BackwardArgs& a) -> Grads {
    return {a.grad() * rsub(a.output() * a.output(), 1)};
  });
  // asinh(Tensor self) -> Tensor                   self: grad * (self.pow(2) + 1).rsqrt()
  m.def(OpId::asinh, save_inputs({0}), [](const BackwardArgs& a) -> Grads {
    const Tensor& x = a.input(0);
    return {a.grad() * rsqrt(x * x + 1)};
  });
  // acosh(Tensor self) -> Tensor                   self: grad * (self.pow(2) - 1).rsqrt()
  //   as (self - 1) * (self + 1): self - 1 is exact near 1, where self^2 - 1 cancels
  m.def(OpId::acosh, save_inputs({0}), [](const BackwardArgs& a) -> Grads {
    const Tensor& x = a.input(0);
    return {a.grad() * rsqrt((x - 1) * (x + 1))};
  });
  // atanh(Tensor self) -> Tensor                   self: grad * 1 / (1 - self.pow(2))
  m.def(OpId::atanh, save_inputs({0}), [](const BackwardArgs& a) -> Grads {
    const Tensor& x = a.input(0);
    return {a.grad() / rsub(x * x, 1)};
  });
  // sinc(Tensor self) -> Tensor
  //   self: ((pi * self * (pi * self).cos() - (pi * self).sin()) / (pi * self * self)), 0 at 0
  m.def(OpId::sinc, save_inputs({0}), [](const BackwardArgs& a) -> Grads {
    return {a.grad() * sinc_grad(a.input(0))};  // Note [sinc gradient near 0]
  });
  // sigmoid(Tensor self) -> Tensor                 self: grad * result * (1 - result)
  m.def(OpId::sigmoid, save_output(), [](const BackwardArgs& a) -> Grads {
    return {a.grad() * a.output() * rsub(a.output(), 1)};
  });
  // relu(Tensor self) -> Tensor                    self: grad where result > 0, else 0
  m.def(OpId::relu, save_output(),
        [](const BackwardArgs& a) -> Grads { return {where(gt(a.output(), 0), a.grad(), 0)}; });
  // gelu(Tensor self, *, str approximate='none') -> Tensor
  //   none: grad * (Phi(x) + x * phi(x));  tanh: ATen's gelu_backward for the tanh form
  m.def(OpId::gelu, save_inputs({0}), [](const BackwardArgs& a) -> Grads {
    const Tensor& x = a.input(0);
    if (a.p.get<GeluParams>().approximate == GeluApproximation::None) {
      const Tensor cdf = (erf(x * M_SQRT1_2) + 1) * 0.5;
      const Tensor pdf = exp(x * x * -0.5) * (1 / std::sqrt(2 * pi));
      return {a.grad() * (cdf + x * pdf)};
    }
    const double beta = std::sqrt(2 / pi), kappa = 0.044715;
    const Tensor x_sq = x * x;
    const Tensor inner_tanh = tanh((x + x_sq * x * kappa) * beta);
    const Tensor left_derivative = (inner_tanh + 1) * 0.5;
    const Tensor right_derivative =
        x * 0.5 * rsub(inner_tanh * inner_tanh, 1) * ((x_sq * (3 * kappa) + 1) * beta);
    return {a.grad() * (left_derivative + right_derivative)};
  });
  // silu(Tensor self) -> Tensor          self: grad * s * (1 + x * (1 - s)), s = sigmoid(x)
  m.def(OpId::silu, save_inputs({0}), [](const BackwardArgs& a) -> Grads {
    const Tensor& x = a.input(0);
    const Tensor s = sigmoid(x);
    return {a.grad() * s * (x * rsub(s, 1) + 1)};
  });
  // hardsigmoid(Tensor self) -> Tensor            self: grad / 6 where -3 < self < 3, else 0
  m.def(OpId::hardsigmoid, save_inputs({0}), [](const BackwardArgs& a) -> Grads {
    const Tensor& x = a.input(0);
    return {where(logical_and(gt(x, -3), lt(x, 3)), a.grad() / 6, 0)};
  });
  // hardswish(Tensor self) -> Tensor   self: 0 below -3, grad * (self / 3 + 1/2) on [-3, 3], grad
  //   above: ATen 1.13's boundaries (nondiff_points.def)
  m.def(OpId::hardswish, save_inputs({0}), [](const BackwardArgs& a) -> Grads {
    const Tensor& x = a.input(0);
    const Tensor inner = where(gt(x, 3), a.grad(), a.grad() * (x / 3 + 0.5));
    return {where(lt(x, -3), 0, inner)};
  });
  // mish(Tensor self) -> Tensor
  //   self: grad * (t + self * sigmoid(self) * (1 - t * t)), t = tanh(softplus(self))
  m.def(OpId::mish, save_inputs({0}), [](const BackwardArgs& a) -> Grads {
    const Tensor& x = a.input(0);
    const Tensor t = tanh(log1p(exp(x)));
    return {a.grad() * (t + x * sigmoid(x) * rsub(t * t, 1))};
  });
  // log_sigmoid(Tensor self) -> Tensor             self: grad * sigmoid(-self)
  m.def(OpId::log_sigmoid, save_inputs({0}),
        [](const BackwardArgs& a) -> Grads { return {a.grad() * sigmoid(-a.input(0))}; });
  // erf(Tensor self) -> Tensor                     self: 2 / sqrt(pi) * exp(-self^2) * grad
  m.def(OpId::erf, save_inputs({0}), [](const BackwardArgs& a) -> Grads {
    const Tensor& x = a.input(0);
    return {a.grad() * exp(-(x * x)) * (2 / std::sqrt(pi))};
  });
  // erfc(Tensor self) -> Tensor                   self: -2 / sqrt(pi) * exp(-self^2) * grad
  m.def(OpId::erfc, save_inputs({0}), [](const BackwardArgs& a) -> Grads {
    const Tensor& x = a.input(0);
    return {a.grad() * exp(-(x * x)) * (-2 / std::sqrt(pi))};
  });
  // erfinv(Tensor self) -> Tensor                 self: 0.5 * sqrt(pi) * exp(result^2) * grad
  m.def(OpId::erfinv, save_output(), [](const BackwardArgs& a) -> Grads {
    return {a.grad() * exp(a.output() * a.output()) * (0.5 * std::sqrt(pi))};
  });
  // floor, ceil, round, trunc (Tensor self) -> Tensor   self: zeros_like(grad)
  m.def(OpId::floor, save_nothing(), zero_grad);
  m.def(OpId::ceil, save_nothing(), zero_grad);
  m.def(OpId::round, save_nothing(), zero_grad);
  m.def(OpId::trunc, save_nothing(), zero_grad);
  // frac(Tensor self) -> Tensor                    self: grad
  m.def(OpId::frac, save_nothing(), [](const BackwardArgs& a) -> Grads { return {a.grad()}; });
  // ---- math (issue 16) ----
  // lgamma(Tensor self) -> Tensor                  self: grad * digamma(self)
  m.def(OpId::lgamma, save_inputs({0}),
        [](const BackwardArgs& a) -> Grads { return {a.grad() * digamma(a.input(0))}; });
  // digamma(Tensor self) -> Tensor                 self: grad * polygamma(1, self)
  m.def(OpId::digamma, save_inputs({0}), [](const BackwardArgs& a) -> Grads {
    return {a.grad() * trigamma(a.input(0))};  // Note [trigamma for digamma's gradient]
  });
  // nan_to_num(Tensor self, float? nan=None, float? posinf=None, float? neginf=None) -> Tensor
  //   self: grad * at::isfinite(self)
  m.def(OpId::nan_to_num, save_inputs({0}),
        [](const BackwardArgs& a) -> Grads { return {a.grad() * isfinite(a.input(0))}; });
  // clamp(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor
  //   self: where((self >= min) & (self <= max), grad, 0)   (a bound passes the gradient)
  m.def(
      OpId::clamp, save_inputs({0, 1, 2}),
      [](const BackwardArgs& a) -> Grads {
        const ClampParams& bounds = a.p.get<ClampParams>();
        const Tensor& x = a.input(0);
        Tensor mask;
        size_t next = 1;
        if (bounds.has_min) mask = ge(x, a.input(next++));
        if (bounds.has_max) {
          const Tensor below = le(x, a.input(next));
          mask = mask.defined() ? logical_and(mask, below) : below;
        }
        return {where(mask, a.grad(), 0)};
      },
      "ClampBackward1");  // ATen's clamp with Scalar bounds (Note [Overload node names])
}

}  // namespace ts::autograd
