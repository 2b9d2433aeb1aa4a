// Unary elementwise ops: meta for every variant, then the family's derivative table.
// Params (touchstone/op_params.h): gelu reads GeluParams{approximate}; clamp reads
// ClampParams{has_min, has_max}, its present bounds arriving as wrapped-scalar inputs after self
// (min first); the activations of issue 16 read LeakyReluParams, EluParams, SoftplusParams,
// HardtanhParams and ThresholdParams (Note [Activation parameters]); every other op is plain
// (NoParams). Inputs: {self}, clamp {self, min?, max?}.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "../autograd/derivatives.h"
#include "meta.h"
#include "touchstone/op_scope.h"
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

// ---- activations (issue 16) ----

// Note [Activation parameters]
// leaky_relu, elu, softplus, hardtanh and threshold keep ATen's Scalars as given in their
// struct; each kernel set converts them first, as ATen's kernels do: the coefficients (slope,
// alpha, scale, input_scale, beta, softplus' threshold) to the op's math type, float32 for the
// 16-bit dtypes too (opmath_t: a bfloat16 leaky_relu multiplies by float(0.01), not by
// bfloat16(0.01)); hardtanh's bounds and threshold's threshold and value to the dtype itself
// (Scalar::to<scalar_t>). The result has self's dtype: the Scalars never promote. A Scalar self's
// dtype cannot hold is an error naming the argument, as Scalar::to's overflow check; on integers
// the Scalars truncate toward zero.
Tensor activation(OpId op, Variant v, const Tensor& out, const Tensor& self, OpParams& p,
                  std::initializer_list<std::pair<const Scalar*, const char*>> scalars) {
  const char* name = meta::op_name(op, v);
  meta::check_defined(name, self, "self");
  if (meta::elementwise_spec(op).supported.has(self.dtype())) {  // else meta names the dtype
    for (const auto& [s, arg] : scalars) meta::check_scalar_fits(name, *s, self.dtype(), arg);
  }
  return unary(op, v, out, self, p);
}

Tensor leaky_relu_impl(Variant v, const Tensor& out, const Tensor& self, const Scalar& slope) {
  OpParams p;
  p.set(LeakyReluParams{slope});
  return activation(OpId::leaky_relu, v, out, self, p, {{&slope, "negative_slope"}});
}

Tensor elu_impl(Variant v, const Tensor& out, const Tensor& self, const Scalar& alpha,
                const Scalar& scale, const Scalar& input_scale) {
  OpParams p;
  p.set(EluParams{alpha, scale, input_scale});
  return activation(OpId::elu, v, out, self, p,
                    {{&alpha, "alpha"}, {&scale, "scale"}, {&input_scale, "input_scale"}});
}

Tensor softplus_impl(Variant v, const Tensor& out, const Tensor& self, const Scalar& beta,
                     const Scalar& threshold) {
  OpParams p;
  p.set(SoftplusParams{beta, threshold});
  return activation(OpId::softplus, v, out, self, p, {{&beta, "beta"}, {&threshold, "threshold"}});
}

// As ATen's hardtanh_out (a clamp): integer bounds truncate, and an unsigned self refuses
// negative ones.
Tensor hardtanh_impl(Variant v, const Tensor& out, const Tensor& self, const Scalar& min_val,
                     const Scalar& max_val) {
  const char* name = meta::op_name(OpId::hardtanh, v);
  meta::check_defined(name, self, "self");
  const bool integral = !is_floating_type(self.dtype()) && self.dtype() != kBool;
  const Scalar lo = integral ? Scalar(min_val.to_long()) : min_val;  // -0.5 is 0 for uint8
  const Scalar hi = integral ? Scalar(max_val.to_long()) : max_val;
  TS_CHECK(self.dtype() != kByte || (lo.to_long() >= 0 && hi.to_long() >= 0), name,
           ": cannot do hardtanh on an unsigned type with negative limits (arguments 'min_val', "
           "'max_val')");
  OpParams p;
  p.set(HardtanhParams{lo, hi});
  return activation(OpId::hardtanh, v, out, self, p, {{&lo, "min_val"}, {&hi, "max_val"}});
}

// ATen's threshold is a TensorIterator op that casts to its out= tensor (float64 for an int32
// self, say) where the cast is safe; the other activations want out= of the result's dtype.
Tensor threshold_impl(Variant v, const Tensor& out, const Tensor& self, const Scalar& threshold,
                      const Scalar& value) {
  const char* name = meta::op_name(OpId::threshold, v);
  meta::check_defined(name, self, "self");
  meta::ElementwiseSpec spec = meta::elementwise_spec(OpId::threshold);
  spec.same_dtype_out = false;
  if (spec.supported.has(self.dtype())) {
    meta::check_scalar_fits(name, threshold, self.dtype(), "threshold");
    meta::check_scalar_fits(name, value, self.dtype(), "value");
  }
  OpParams p;
  p.set(ThresholdParams{threshold, value});
  return meta::elementwise(spec, v, out, ArrayRef<Tensor>(&self, 1), p);
}

// selu's constants, as ATen's SELU_ALPHA and SELU_SCALE (Klambauer et al. 2017).
constexpr double kSeluAlpha = 1.6732632423543772848170429916717;
constexpr double kSeluScale = 1.0507009873554804934193349852946;

// celu(x, alpha) = elu(x, alpha, 1, 1 / alpha), as ATen's celu.
double celu_inverse_alpha(const char* op, const Scalar& alpha) {
  TS_CHECK(alpha.to_double() != 0, op, ": alpha cannot be 0 (argument 'alpha')");
  return 1.0 / alpha.to_double();
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

// ---- activations (issue 16) ----
Tensor leaky_relu(const Tensor& self, const Scalar& negative_slope) {
  return leaky_relu_impl(Variant::Functional, {}, self, negative_slope);
}
Tensor& leaky_relu_(const Tensor& self, const Scalar& negative_slope) {
  leaky_relu_impl(Variant::InPlace, {}, self, negative_slope);
  return const_cast<Tensor&>(self);
}
Tensor& leaky_relu_out(const Tensor& out, const Tensor& self, const Scalar& negative_slope) {
  leaky_relu_impl(Variant::Out, out, self, negative_slope);
  return const_cast<Tensor&>(out);
}

Tensor elu(const Tensor& self, const Scalar& alpha, const Scalar& scale,
           const Scalar& input_scale) {
  return elu_impl(Variant::Functional, {}, self, alpha, scale, input_scale);
}
Tensor& elu_(const Tensor& self, const Scalar& alpha, const Scalar& scale,
             const Scalar& input_scale) {
  elu_impl(Variant::InPlace, {}, self, alpha, scale, input_scale);
  return const_cast<Tensor&>(self);
}
Tensor& elu_out(const Tensor& out, const Tensor& self, const Scalar& alpha, const Scalar& scale,
                const Scalar& input_scale) {
  elu_impl(Variant::Out, out, self, alpha, scale, input_scale);
  return const_cast<Tensor&>(out);
}

// selu and celu are composites over elu, as in ATen (their graphs hold an EluBackward0).
Tensor selu(const Tensor& self) {
  const UserOpScope scope("selu");
  return elu(self, kSeluAlpha, kSeluScale);
}
Tensor& selu_(const Tensor& self) {
  const UserOpScope scope("selu_");
  return elu_(self, kSeluAlpha, kSeluScale);
}
Tensor celu(const Tensor& self, const Scalar& alpha) {
  const UserOpScope scope("celu");
  return elu(self, alpha, 1.0, celu_inverse_alpha("celu", alpha));
}
Tensor& celu_(const Tensor& self, const Scalar& alpha) {
  const UserOpScope scope("celu_");
  return elu_(self, alpha, 1.0, celu_inverse_alpha("celu_", alpha));
}

Tensor softplus(const Tensor& self, const Scalar& beta, const Scalar& threshold) {
  return softplus_impl(Variant::Functional, {}, self, beta, threshold);
}
Tensor& softplus_out(const Tensor& out, const Tensor& self, const Scalar& beta,
                     const Scalar& threshold) {
  softplus_impl(Variant::Out, out, self, beta, threshold);
  return const_cast<Tensor&>(out);
}

// torch.nn.functional.softsign: self / (self.abs() + 1); integers divide into the default float
// dtype, as there.
Tensor softsign(const Tensor& self) {
  const UserOpScope scope("softsign");
  meta::check_defined("softsign", self, "self");
  return div(self, add(abs(self), 1));
}

Tensor hardtanh(const Tensor& self, const Scalar& min_val, const Scalar& max_val) {
  return hardtanh_impl(Variant::Functional, {}, self, min_val, max_val);
}
Tensor& hardtanh_(const Tensor& self, const Scalar& min_val, const Scalar& max_val) {
  hardtanh_impl(Variant::InPlace, {}, self, min_val, max_val);
  return const_cast<Tensor&>(self);
}
Tensor& hardtanh_out(const Tensor& out, const Tensor& self, const Scalar& min_val,
                     const Scalar& max_val) {
  hardtanh_impl(Variant::Out, out, self, min_val, max_val);
  return const_cast<Tensor&>(out);
}

Tensor threshold(const Tensor& self, const Scalar& threshold, const Scalar& value) {
  return threshold_impl(Variant::Functional, {}, self, threshold, value);
}
Tensor& threshold_(const Tensor& self, const Scalar& threshold, const Scalar& value) {
  threshold_impl(Variant::InPlace, {}, self, threshold, value);
  return const_cast<Tensor&>(self);
}
Tensor& threshold_out(const Tensor& out, const Tensor& self, const Scalar& threshold,
                      const Scalar& value) {
  threshold_impl(Variant::Out, out, self, threshold, value);
  return const_cast<Tensor&>(out);
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

// A node name for ops whose in-place overload has its own derivatives.yaml entry (elu_ ->
// EluBackward1; Note [Overload node names]).
template <size_t N>
struct Name {
  char text[N];
  constexpr Name(const char (&s)[N]) { std::copy_n(s, N, text); }  // NOLINT(implicit)
};
template <Name kFunctional, Name kInPlace>
const char* in_place_overload(const KernelCall& c) {
  return c.kind == CallKind::InPlace ? kInPlace.text : kFunctional.text;
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
  // ---- activations (issue 16); selu, celu and softsign differentiate through their parts ----
  // leaky_relu(Tensor self, Scalar negative_slope=0.01) -> Tensor
  //   self: leaky_relu_backward(grad, self, negative_slope): grad where self > 0, else
  //   grad * negative_slope (nondiff_points.def: the slope at 0)
  m.def(
      OpId::leaky_relu, save_inputs({0}),
      [](const BackwardArgs& a) -> Grads {
        const Scalar& slope = a.p.get<LeakyReluParams>().negative_slope;
        return {where(gt(a.input(0), 0), a.grad(), a.grad() * slope)};
      },
      in_place_overload<"LeakyReluBackward0", "LeakyReluBackward1">);
  // elu(Tensor self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1) -> Tensor
  //   self: elu_backward(grad, alpha, scale, input_scale, false, self): grad * input_scale *
  //   alpha * scale * exp(self * input_scale) where self <= 0, else grad * scale
  m.def(
      OpId::elu, save_inputs({0}),
      [](const BackwardArgs& a) -> Grads {
        const EluParams& e = a.p.get<EluParams>();
        const Tensor& x = a.input(0);
        const double neg = e.alpha.to_double() * e.scale.to_double() * e.input_scale.to_double();
        const Tensor negative = a.grad() * exp(x * e.input_scale) * neg;
        return {where(le(x, 0), negative, a.grad() * e.scale)};
      },
      in_place_overload<"EluBackward0", "EluBackward1">);
  // softplus(Tensor self, Scalar beta=1, Scalar threshold=20) -> Tensor
  //   self: softplus_backward(grad, self, beta, threshold): grad where self * beta > threshold,
  //   else grad * z / (z + 1), z = exp(self * beta), written sigmoid(self * beta) (no inf / inf)
  m.def(OpId::softplus, save_inputs({0}), [](const BackwardArgs& a) -> Grads {
    const SoftplusParams& s = a.p.get<SoftplusParams>();
    const Tensor xb = a.input(0) * s.beta;
    return {where(gt(xb, s.threshold), a.grad(), a.grad() * sigmoid(xb))};
  });
  // hardtanh(Tensor self, Scalar min_val=-1, Scalar max_val=1) -> Tensor
  //   self: hardtanh_backward(grad, self, min_val, max_val): 0 where self <= min_val or
  //   self >= max_val, else grad (nondiff_points.def: 0 at the bounds)
  m.def(
      OpId::hardtanh, save_inputs({0}),
      [](const BackwardArgs& a) -> Grads {
        const HardtanhParams& h = a.p.get<HardtanhParams>();
        const Tensor& x = a.input(0);
        return {where(logical_or(le(x, h.min_val), ge(x, h.max_val)), 0, a.grad())};
      },
      in_place_overload<"HardtanhBackward0", "HardtanhBackward1">);
  // threshold(Tensor self, Scalar threshold, Scalar value) -> Tensor
  //   self: threshold_backward(grad, self, threshold): 0 where self <= threshold, else grad
  m.def(
      OpId::threshold, save_inputs({0}),
      [](const BackwardArgs& a) -> Grads {
        return {where(le(a.input(0), a.p.get<ThresholdParams>().threshold), 0, a.grad())};
      },
      in_place_overload<"ThresholdBackward0", "ThresholdBackward1">);
}

}  // namespace ts::autograd
