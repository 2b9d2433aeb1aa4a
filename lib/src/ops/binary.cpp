// Binary elementwise ops: meta (promotion, broadcasting, checks) for every variant, then the
// family's derivative table.
// Params (touchstone/op_params.h): add and sub read AlphaParams{alpha}; div reads
// DivParams{rounding_mode}; every other op is plain (NoParams). Inputs: {self, other}, both
// broadcast to the output's shape (a Scalar operand is a wrapped number).
#include <algorithm>

#include "../autograd/derivatives.h"
#include "meta.h"
#include "touchstone/ops.h"

namespace ts {
namespace {

using meta::Variant;

void check_integer_divisor(const char* op, const Tensor& a, const Tensor& b);

Tensor binary(OpId op, Variant v, const Tensor& out, const Tensor& a, const Tensor& b,
              OpParams& p) {
  if (op == OpId::remainder || op == OpId::fmod || op == OpId::floor_divide) {
    check_integer_divisor(meta::op_name(op, Variant::Functional), a, b);
  }
  if (op == OpId::heaviside && a.defined() && b.defined()) {
    // ATen's heaviside meta: no promotion (a Scalar `values` is a float64 or int64 tensor).
    TS_CHECK(a.dtype() == b.dtype(), meta::op_name(op, v),
             ": heaviside is not yet implemented for tensors with different dtypes (arguments "
             "'self' and 'values')");
  }
  const Tensor inputs[] = {a, b};
  return meta::elementwise(meta::elementwise_spec(op), v, out, inputs, p);
}

Tensor binary(OpId op, Variant v, const Tensor& out, const Tensor& a, const Tensor& b) {
  OpParams p;
  return binary(op, v, out, a, b, p);
}

Tensor& binary_(OpId op, const Tensor& self, const Tensor& other) {
  binary(op, Variant::InPlace, {}, self, other);
  return const_cast<Tensor&>(self);
}

Tensor& binary_out(OpId op, const Tensor& out, const Tensor& self, const Tensor& other) {
  binary(op, Variant::Out, out, self, other);
  return const_cast<Tensor&>(out);
}

// ATen's alpha_check: alpha must fit the result's category.
void check_alpha(const char* op, ScalarType dtype, const Scalar& alpha) {
  TS_CHECK(!alpha.is_bool() || dtype == kBool, op,
           ": Boolean alpha only supported for Boolean results (argument 'alpha').");
  TS_CHECK(is_floating_type(dtype) || alpha.is_integral(true), op,
           ": For integral input tensors, argument alpha must not be a floating point number.");
}

// ATen's sub_check: any bool operand (a Scalar one too) is refused, two with their own message.
void check_sub_operands(const char* op, const Tensor& a, const Tensor& b) {
  TS_CHECK(a.dtype() != kBool || b.dtype() != kBool, op,
           ": Subtraction, the `-` operator, with two bool tensors is not supported (arguments "
           "'self' and 'other'). Use the `^` or `logical_xor()` operator instead.");
  TS_CHECK(a.dtype() != kBool && b.dtype() != kBool, op,
           ": Subtraction, the `-` operator, with a bool tensor is not supported (argument '",
           a.dtype() == kBool ? "self" : "other",
           "'). If you are trying to invert a mask, use the `~` or `logical_not()` operator "
           "instead.");
}

// Note [Alpha in the compute dtype]
// ATen's add kernel converts alpha to the compute dtype with Scalar::to<T>() before computing
// self + alpha * other: a value the dtype cannot hold is refused (add(u8, u8, alpha=300):
// "value cannot be converted to type uint8_t without overflow"; float32 with 1e300 too), and
// for bool alpha becomes `alpha != 0`, so add(bool, bool, alpha=-1) is self | other (ATen: 1;
// computing 1 + -1 * 1 = 0 would be wrong). Meta converts alpha once; every kernel set sees it.
Tensor add_sub(OpId op, Variant v, const Tensor& out, const Tensor& a, const Tensor& b,
               const Scalar& alpha) {
  const char* name = meta::op_name(op, v);
  meta::check_defined(name, a, "self");
  meta::check_defined(name, b, "other");
  if (op == OpId::sub) check_sub_operands(name, a, b);
  const ScalarType common = result_type(a, b);
  check_alpha(name, common, alpha);
  meta::check_scalar_fits(name, alpha, common, "alpha");
  OpParams p;
  p.set(AlphaParams{common == kBool ? Scalar(alpha.to_bool()) : alpha});
  return binary(op, v, out, a, b, p);
}

// Note [Integer division by zero in meta]
// An integer div (trunc, floor) or remainder by zero is a data error, like an index out of
// range (Note [Index bounds] in index.cpp): the meta looks for a zero divisor, in the compute
// dtype, before an out= tensor is resized or anything written, so a failing call leaves every
// tensor untouched. The kernels keep their own checks. No element is divided when the broadcast
// result is empty, so nothing is checked then (and shapes that do not broadcast are left to
// meta::elementwise's message).
void check_integer_divisor(const char* op, const Tensor& a, const Tensor& b) {
  if (!a.defined() || !b.defined()) return;
  const ScalarType common = result_type(a, b);
  if (is_floating_type(common) || common == kBool) return;
  const size_t n = static_cast<size_t>(std::max(a.dim(), b.dim()));
  for (size_t d = 0; d < n; ++d) {
    const auto size = [&](const Tensor& t) {
      const size_t off = n - static_cast<size_t>(t.dim());
      return d < off ? int64_t{1} : t.sizes()[d - off];
    };
    const int64_t sa = size(a), sb = size(b);
    if (sa != sb && sa != 1 && sb != 1) return;
    if (sa == 0 || sb == 0) return;
  }
  TS_CHECK(!any(eq(b.to(common), 0)).item<bool>(), op, ": ZeroDivisionError");
}

RoundingMode rounding_mode(std::optional<std::string_view> mode, Variant v) {
  if (!mode) return RoundingMode::None;
  if (*mode == "trunc") return RoundingMode::Trunc;
  if (*mode == "floor") return RoundingMode::Floor;
  TS_ERROR(meta::op_name(OpId::div, v),
           ": expected rounding_mode to be one of None, 'trunc', or 'floor' but found '", *mode,
           "'");
}

Tensor div_impl(Variant v, const Tensor& out, const Tensor& a, const Tensor& b,
                std::optional<std::string_view> mode) {
  OpParams p;
  const RoundingMode rounding = p.set(DivParams{rounding_mode(mode, v)}).rounding_mode;
  meta::ElementwiseSpec spec = meta::elementwise_spec(OpId::div);
  if (rounding != RoundingMode::None) {
    // A rounded quotient of integers is computed in integers (bool excepted: op_list.def).
    check_integer_divisor("div", a, b);
    spec = {OpId::div, op_info(OpId::div).dtypes};
  }
  const Tensor inputs[] = {a, b};
  return meta::elementwise(spec, v, out, inputs, p);
}

Tensor ws(const Scalar& s) {
  return wrapped_scalar_tensor(s);
}

// A Scalar `other` as the wrapped number the Tensor form takes. pow rejects a negative integer
// exponent of an integral base here only (NumPy's rule, as ATen); Tensor-Tensor computes it (see
// Note [Integer pow] in reference/binary.cpp).
Tensor scalar_operand(OpId op, Variant v, const Tensor& self, const Scalar& other) {
  if (op == OpId::pow) {
    const char* name = meta::op_name(op, v);
    meta::check_defined(name, self, "self");
    TS_CHECK(!(is_integral_type(self.dtype(), /*include_bool=*/true) &&
               other.is_integral(/*include_bool=*/true) && other.to_long() < 0),
             name, ": Integers to negative integer powers are not allowed (argument 'exponent').");
    // ATen's CPU kernel converts the exponent to the compute dtype (float32 and float64 take it
    // as a double): pow(u8, 300) and pow(f16, 1e10) are refused.
    const ScalarType common = result_type(self, other);
    if (common != kFloat && common != kDouble) {
      meta::check_scalar_fits(name, other, common, "exponent");
    }
  }
  return ws(other);
}

}  // namespace

// add and sub (AlphaParams): every form.
// clang-format off
#define TS_DEFINE_ADD_SUB(name)                                                                \
  Tensor name(const Tensor& self, const Tensor& other, const Scalar& alpha) {                  \
    return add_sub(OpId::name, Variant::Functional, {}, self, other, alpha);                   \
  }                                                                                            \
  Tensor name(const Tensor& self, const Scalar& other, const Scalar& alpha) {                  \
    return name(self, ws(other), alpha);                                                       \
  }                                                                                            \
  Tensor& name##_out(const Tensor& out, const Tensor& self, const Tensor& other,               \
                     const Scalar& alpha) {                                                    \
    add_sub(OpId::name, Variant::Out, out, self, other, alpha);                                \
    return const_cast<Tensor&>(out);                                                           \
  }                                                                                            \
  Tensor& Tensor::name##_(const Tensor& other, const Scalar& alpha) const {                    \
    add_sub(OpId::name, Variant::InPlace, {}, *this, other, alpha);                            \
    return const_cast<Tensor&>(*this);                                                         \
  }                                                                                            \
  Tensor& Tensor::name##_(const Scalar& other, const Scalar& alpha) const {                    \
    return name##_(ws(other), alpha);                                                          \
  }                                                                                            \
  Tensor Tensor::name(const Tensor& other, const Scalar& alpha) const {                        \
    return ts::name(*this, other, alpha);                                                      \
  }                                                                                            \
  Tensor Tensor::name(const Scalar& other, const Scalar& alpha) const {                        \
    return ts::name(*this, other, alpha);                                                      \
  }
// clang-format on
TS_DEFINE_ADD_SUB(add)
TS_DEFINE_ADD_SUB(sub)
#undef TS_DEFINE_ADD_SUB

Tensor div(const Tensor& self, const Tensor& other, std::optional<std::string_view> mode) {
  return div_impl(Variant::Functional, {}, self, other, mode);
}
Tensor div(const Tensor& self, const Scalar& other, std::optional<std::string_view> mode) {
  return div_impl(Variant::Functional, {}, self, ws(other), mode);
}
Tensor& div_out(const Tensor& out, const Tensor& self, const Tensor& other,
                std::optional<std::string_view> mode) {
  div_impl(Variant::Out, out, self, other, mode);
  return const_cast<Tensor&>(out);
}
Tensor Tensor::div(const Tensor& other, std::optional<std::string_view> mode) const {
  return ts::div(*this, other, mode);
}
Tensor& Tensor::div_(const Tensor& other, std::optional<std::string_view> mode) const {
  div_impl(Variant::InPlace, {}, *this, other, mode);
  return const_cast<Tensor&>(*this);
}
Tensor Tensor::div(const Tensor& other) const {
  return ts::div(*this, other);
}
Tensor Tensor::div(const Scalar& other) const {
  return ts::div(*this, other);
}
Tensor& Tensor::div_(const Tensor& other) const {
  return div_(other, std::nullopt);
}
Tensor& Tensor::div_(const Scalar& other) const {
  return div_(ws(other), std::nullopt);
}

// Every form of the plain binary ops (Note [Generated declarations] in touchstone/plain_ops.h).
// clang-format off
#define TS_DEFINE_None(...)
#define TS_DEFINE_Unary(...)
#define TS_DEFINE_Binary(name, m, i, o)                                                         \
  Tensor name(const Tensor& self, const Tensor& other) {                                        \
    return binary(OpId::name, Variant::Functional, {}, self, other);                            \
  }                                                                                             \
  Tensor name(const Tensor& self, const Scalar& other) {                                        \
    return name(self, scalar_operand(OpId::name, Variant::Functional, self, other));            \
  }                                                                                             \
  TS_PP_IF_##o(Tensor& name##_out(const Tensor& out, const Tensor& self, const Tensor& other) { \
    return binary_out(OpId::name, out, self, other);                                            \
  })                                                                                            \
  TS_PP_IF_##m(Tensor Tensor::name(const Tensor& other) const { return ts::name(*this, other); } \
               Tensor Tensor::name(const Scalar& other) const { return ts::name(*this, other); }) \
  TS_PP_IF_##i(Tensor& Tensor::name##_(const Tensor& other) const {                             \
    return binary_(OpId::name, *this, other);                                                   \
  }                                                                                             \
  Tensor& Tensor::name##_(const Scalar& other) const {                                          \
    return binary_(OpId::name, *this, scalar_operand(OpId::name, Variant::InPlace, *this, other)); \
  })
// clang-format on
#define TS_OP(name, kind, sig, params, variants, diff, dtypes, parts, schema) \
  TS_PLAIN_OP(TS_DEFINE_, name, kind, sig, params, variants)
#include "touchstone/op_list.def"
#undef TS_OP
#undef TS_DEFINE_Binary
#undef TS_DEFINE_Unary
#undef TS_DEFINE_None

// math (issue 16)
// isclose: ATen's composite, step by step (Note [closeness error computation] there: the error
// allowed is atol + |rtol * other|, the error |self - other|, both computed in self's dtype; bool
// operands are compared as the default float dtype).
Tensor isclose(const Tensor& self, const Tensor& other, double rtol, double atol, bool equal_nan) {
  const UserOpScope scope("isclose");
  meta::check_defined("isclose", self, "self");
  meta::check_defined("isclose", other, "other");
  TS_CHECK(self.dtype() == other.dtype(), "isclose: ", self.dtype(), " did not match ",
           other.dtype(), " (arguments 'self' and 'other')");
  TS_CHECK(rtol >= 0, "isclose: rtol must be greater than or equal to zero, but got ", rtol);
  TS_CHECK(atol >= 0, "isclose: atol must be greater than or equal to zero, but got ", atol);
  Tensor close = eq(self, other);
  if (equal_nan && self.is_floating_point()) {
    close = logical_or(close, logical_and(ne(self, self), ne(other, other)));
  }
  // Zero tolerances: equality only (inf - inf would be NaN, never close).
  if (rtol == 0 && atol == 0) return close;
  const Tensor a = self.dtype() == kBool ? self.to(kDefaultDtype) : self;
  const Tensor b = other.dtype() == kBool ? other.to(kDefaultDtype) : other;
  const Tensor allowed_error = add(abs(mul(b, rtol)), atol);
  const Tensor actual_error = abs(sub(a, b));
  return logical_or(close, logical_and(isfinite(actual_error), le(actual_error, allowed_error)));
}
Tensor Tensor::isclose(const Tensor& other, double rtol, double atol, bool equal_nan) const {
  return ts::isclose(*this, other, rtol, atol, equal_nan);
}

Tensor pow(const Scalar& self, const Tensor& exponent) {
  return binary(OpId::pow, Variant::Functional, {}, ws(self), exponent);
}

Tensor operator-(const Tensor& a) {
  return neg(a);
}
Tensor operator+(const Tensor& a, const Tensor& b) {
  return add(a, b);
}
Tensor operator-(const Tensor& a, const Tensor& b) {
  return sub(a, b);
}
Tensor operator*(const Tensor& a, const Tensor& b) {
  return mul(a, b);
}
Tensor operator/(const Tensor& a, const Tensor& b) {
  return div(a, b);
}
Tensor operator+(const Tensor& a, const Scalar& b) {
  return add(a, b);
}
Tensor operator-(const Tensor& a, const Scalar& b) {
  return sub(a, b);
}
Tensor operator*(const Tensor& a, const Scalar& b) {
  return mul(a, b);
}
Tensor operator/(const Tensor& a, const Scalar& b) {
  return div(a, b);
}

}  // namespace ts

// ---- derivatives: see Note [Adding a derivative] in lib/src/autograd/derivatives.h ----
namespace ts::autograd {
namespace {

// alpha as a double gradients can be multiplied by (gradients are floating).
double alpha_of(const BackwardArgs& a) {
  return a.p.get<AlphaParams>().alpha.to_double();
}

// maximum and minimum: the gradient goes to the operand chosen, half to each on a tie; `loses`
// (lt for maximum, gt for minimum) says where an operand was not chosen.
Grads extremum(const BackwardArgs& a, Tensor (*loses)(const Tensor&, const Tensor&)) {
  const Tensor& self = a.input(0);
  const Tensor& other = a.input(1);
  // In place, as ATen's formula: the gradient keeps where's layout (the condition's, self's).
  auto shared = [&] { return where(eq(self, other), a.grad() / 2, a.grad()); };
  return {a.needs_grad(0) ? shared().masked_fill_(loses(self, other), 0) : Tensor(),
          a.needs_grad(1) ? shared().masked_fill_(loses(other, self), 0) : Tensor()};
}

// Note [Overload node names]
// ATen names a node after the overload called, so the same formula has several names (probed
// with libtorch 1.13's grad_fn()->name()): add/sub/mul/div with a Tensor other are
// <Op>Backward0, with a Scalar <Op>Backward1; div with a rounding mode DivBackward2 (Tensor) or
// DivBackward3 (Scalar); pow and remainder with a Scalar are <Op>Backward0, with a Tensor
// <Op>Backward1, pow(Scalar, Tensor) PowBackward2. A Scalar argument is a wrapped number here.
bool scalar_other(const KernelCall& c) {
  return is_scalar_argument(c.inputs[1]);
}

}  // namespace

TS_REGISTER_DERIVATIVES(binary) {
  // add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
  //   self: grad                      other: grad * alpha
  m.def(
      OpId::add, save_nothing(),
      [](const BackwardArgs& a) -> Grads {
        const double alpha = alpha_of(a);
        return {a.grad(), a.needs_grad(1) ? (alpha == 1 ? a.grad() : a.grad() * alpha) : Tensor()};
      },
      [](const KernelCall& c) { return scalar_other(c) ? "AddBackward1" : "AddBackward0"; });
  // sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
  //   self: grad                      other: -grad * alpha
  m.def(
      OpId::sub, save_nothing(),
      [](const BackwardArgs& a) -> Grads {
        return {a.grad(), a.needs_grad(1) ? a.grad() * -alpha_of(a) : Tensor()};
      },
      [](const KernelCall& c) { return scalar_other(c) ? "SubBackward1" : "SubBackward0"; });
  // mul.Tensor(Tensor self, Tensor other) -> Tensor
  //   self: grad * other              other: grad * self
  m.def(
      OpId::mul, save_inputs({0, 1}),
      [](const BackwardArgs& a) -> Grads {
        return {a.needs_grad(0) ? a.grad() * a.input(1) : Tensor(),
                a.needs_grad(1) ? a.grad() * a.input(0) : Tensor()};
      },
      [](const KernelCall& c) { return scalar_other(c) ? "MulBackward1" : "MulBackward0"; });
  // div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode=None) -> Tensor
  //   self: grad / other              other: -grad * self / other^2
  //   with a rounding mode the result is piecewise constant: zeros
  m.def(
      OpId::div, save_inputs({0, 1}),
      [](const BackwardArgs& a) -> Grads {
        if (a.p.get<DivParams>().rounding_mode != RoundingMode::None) {
          return {a.needs_grad(0) ? zeros_like(a.grad()) : Tensor(),
                  a.needs_grad(1) ? zeros_like(a.grad()) : Tensor()};
        }
        const Tensor& self = a.input(0);
        const Tensor& other = a.input(1);
        return {a.needs_grad(0) ? a.grad() / other : Tensor(),
                a.needs_grad(1) ? -a.grad() * ((self / other) / other) : Tensor()};
      },
      [](const KernelCall& c) {
        if (c.p.get<DivParams>().rounding_mode == RoundingMode::None) {
          return scalar_other(c) ? "DivBackward1" : "DivBackward0";
        }
        return scalar_other(c) ? "DivBackward3" : "DivBackward2";
      });
  // remainder.Tensor(Tensor self, Tensor other) -> Tensor
  //   self: grad                      other: -grad * self.div(other, rounding_mode="floor")
  m.def(
      OpId::remainder, save_inputs({0, 1}),
      [](const BackwardArgs& a) -> Grads {
        return {a.grad(),
                a.needs_grad(1) ? -a.grad() * div(a.input(0), a.input(1), "floor") : Tensor()};
      },
      [](const KernelCall& c) {
        return scalar_other(c) ? "RemainderBackward0" : "RemainderBackward1";
      });
  // pow.Tensor_Tensor(Tensor self, Tensor exponent) -> Tensor
  //   self: where(eq(exponent, 0), 0, grad * exponent * self^(exponent - 1))
  //   exponent: grad * where(self == 0 & exponent >= 0, 0, result * log(self))
  m.def(
      OpId::pow, save_inputs({0, 1}) | save_output(),
      [](const BackwardArgs& a) -> Grads {
        const Tensor& self = a.input(0);
        const Tensor& exponent = a.input(1);
        Tensor gself, gexp;
        const double scalar = is_scalar_argument(exponent) ? exponent.item().to_double() : 0;
        if (a.needs_grad(0) && scalar != 0) {
          // Note [pow backward with a Scalar exponent]
          // ATen's pow_backward(grad, self, Scalar) forms `exponent - 1` in double: at x = -1,
          // x ** 1e10 has the gradient 1e10 * (-1) ** 9999999999 = -1e10 in float32, where a
          // tensor exponent would round 9999999999 to the even 1e10. The saved input keeps its
          // wrapped-number flag (SavedVariable), so the Scalar is known here.
          gself = a.grad() * (pow(self, scalar - 1) * scalar);
        } else if (a.needs_grad(0)) {
          // A bool exponent counts as 0 and 1 (ATen forms a Scalar's `exponent - 1` as a number).
          // (0-dim: the saved Scalar; a 0-dim bool Tensor exponent, refused by ATen, passes too.)
          const bool bool_scalar = exponent.dtype() == kBool && exponent.dim() == 0;
          const Tensor e = bool_scalar ? exponent.to(kLong) : exponent;
          // grad * (...) as ATen's pow_backward: the product takes self's layout, not grad's.
          gself = where(eq(e, 0), 0, a.grad() * (e * pow(self, e - 1)));
        }
        if (a.needs_grad(1)) {
          const Tensor at_zero = logical_and(eq(self, 0), ge(exponent, 0));
          gexp = a.grad() * where(at_zero, 0, a.output() * log(self));
        }
        return {gself, gexp};
      },
      [](const KernelCall& c) {
        if (is_scalar_argument(c.inputs[0])) return "PowBackward2";
        return scalar_other(c) ? "PowBackward0" : "PowBackward1";
      });
  // maximum(Tensor self, Tensor other) -> Tensor
  //   self: where(self == other, grad / 2, grad).masked_fill(self < other, 0)
  //   other: where(self == other, grad / 2, grad).masked_fill(self > other, 0)
  m.def(OpId::maximum, save_inputs({0, 1}), [](const BackwardArgs& a) { return extremum(a, lt); });
  // minimum(Tensor self, Tensor other) -> Tensor
  //   self: where(self == other, grad / 2, grad).masked_fill(self > other, 0)
  //   other: where(self == other, grad / 2, grad).masked_fill(self < other, 0)
  m.def(OpId::minimum, save_inputs({0, 1}), [](const BackwardArgs& a) { return extremum(a, gt); });
  // ---- math (issue 16) ----
  // hypot(Tensor self, Tensor other) -> Tensor
  //   self: grad * self / result      other: grad * other / result
  m.def(OpId::hypot, save_inputs({0, 1}) | save_output(), [](const BackwardArgs& a) -> Grads {
    return {a.needs_grad(0) ? a.grad() * a.input(0) / a.output() : Tensor(),
            a.needs_grad(1) ? a.grad() * a.input(1) / a.output() : Tensor()};
  });
  // copysign.Tensor(Tensor self, Tensor other) -> Tensor
  //   self: copysign_tensor_self_backward(grad, self, result) = grad * (result / self), 0 where
  //   self == 0                       other: zeros_like(other)
  m.def(
      OpId::copysign, save_inputs({0}) | save_output(),
      [](const BackwardArgs& a) -> Grads {
        const Tensor& self = a.input(0);
        Tensor gself;
        if (a.needs_grad(0)) gself = a.grad() * (a.output() / self).masked_fill_(eq(self, 0), 0);
        return {gself, a.needs_grad(1) ? zeros_like(a.grad()) : Tensor()};
      },
      [](const KernelCall& c) {
        return scalar_other(c) ? "CopysignBackward1" : "CopysignBackward0";
      });
  // fmod.Tensor(Tensor self, Tensor other) -> Tensor
  //   self: grad                      other: -grad * self.div(other, rounding_mode="trunc")
  m.def(
      OpId::fmod, save_inputs({0, 1}),
      [](const BackwardArgs& a) -> Grads {
        return {a.grad(),
                a.needs_grad(1) ? -a.grad() * div(a.input(0), a.input(1), "trunc") : Tensor()};
      },
      [](const KernelCall& c) { return scalar_other(c) ? "FmodBackward0" : "FmodBackward1"; });
  // xlogy.Tensor(Tensor self, Tensor other) -> Tensor
  //   self: grad * at::xlogy((self != 0), other)      other: grad * self / other
  m.def(
      OpId::xlogy, save_inputs({0, 1}),
      [](const BackwardArgs& a) -> Grads {
        const Tensor& self = a.input(0);
        const Tensor& other = a.input(1);
        // self != 0 in the gradient's dtype: a bool with a wrapped int `other` would compute in
        // the default float dtype.
        const Tensor nonzero = a.needs_grad(0) ? ne(self, 0).to(a.grad().dtype()) : Tensor();
        return {a.needs_grad(0) ? a.grad() * xlogy(nonzero, other) : Tensor(),
                a.needs_grad(1) ? a.grad() * self / other : Tensor()};
      },
      [](const KernelCall& c) { return scalar_other(c) ? "XlogyBackward2" : "XlogyBackward0"; });
  // logaddexp(Tensor self, Tensor other) -> Tensor
  //   self: grad / (1 + exp(other - self))            other: grad / (1 + exp(self - other))
  m.def(OpId::logaddexp, save_inputs({0, 1}), [](const BackwardArgs& a) -> Grads {
    const Tensor& self = a.input(0);
    const Tensor& other = a.input(1);
    return {a.needs_grad(0) ? a.grad() / (exp(other - self) + 1) : Tensor(),
            a.needs_grad(1) ? a.grad() / (exp(self - other) + 1) : Tensor()};
  });
  // logaddexp2(Tensor self, Tensor other) -> Tensor
  //   self: grad / (1 + pow(2, other - self))         other: grad / (1 + pow(2, self - other))
  m.def(OpId::logaddexp2, save_inputs({0, 1}), [](const BackwardArgs& a) -> Grads {
    const Tensor& self = a.input(0);
    const Tensor& other = a.input(1);
    return {a.needs_grad(0) ? a.grad() / (pow(2, other - self) + 1) : Tensor(),
            a.needs_grad(1) ? a.grad() / (pow(2, self - other) + 1) : Tensor()};
  });
  // clamp_min.Tensor(Tensor self, Tensor min) -> Tensor
  //   self: where(self >= min, grad, 0)               min: where(self < min, grad, 0)
  m.def(
      OpId::clamp_min, save_inputs({0, 1}),
      [](const BackwardArgs& a) -> Grads {
        const Tensor& self = a.input(0);
        const Tensor& min = a.input(1);
        return {a.needs_grad(0) ? where(ge(self, min), a.grad(), 0) : Tensor(),
                a.needs_grad(1) ? where(lt(self, min), a.grad(), 0) : Tensor()};
      },
      [](const KernelCall& c) {
        return scalar_other(c) ? "ClampMinBackward0" : "ClampMinBackward1";
      });
  // clamp_max.Tensor(Tensor self, Tensor max) -> Tensor
  //   self: where(self <= max, grad, 0)               max: where(self > max, grad, 0)
  m.def(
      OpId::clamp_max, save_inputs({0, 1}),
      [](const BackwardArgs& a) -> Grads {
        const Tensor& self = a.input(0);
        const Tensor& max = a.input(1);
        return {a.needs_grad(0) ? where(le(self, max), a.grad(), 0) : Tensor(),
                a.needs_grad(1) ? where(gt(self, max), a.grad(), 0) : Tensor()};
      },
      [](const KernelCall& c) {
        return scalar_other(c) ? "ClampMaxBackward0" : "ClampMaxBackward1";
      });
  // atan2(Tensor self, Tensor other) -> Tensor
  //   self: grad * other * recip      other: grad * -self * recip, recip = 1 / (self^2 + other^2)
  //   (ATen's atan2_backward, in its order: the gradient takes the layout of grad * other)
  m.def(OpId::atan2, save_inputs({0, 1}), [](const BackwardArgs& a) -> Grads {
    const Tensor& self = a.input(0);
    const Tensor& other = a.input(1);
    const Tensor recip = (self * self + other * other).reciprocal();
    return {a.needs_grad(0) ? a.grad() * other * recip : Tensor(),
            a.needs_grad(1) ? a.grad() * -self * recip : Tensor()};
  });
}

}  // namespace ts::autograd
