// Binary elementwise ops: meta (promotion, broadcasting, checks) for every variant.
// Params: s0 = alpha (add, sub); mode = div's rounding mode (0 true division, 1 trunc, 2 floor).
#include <algorithm>

#include "meta.h"
#include "touchstone/ops.h"

namespace ts {
namespace {

using meta::Variant;

constexpr DTypeSet kNoBool = DTypeSet::all() - DTypeSet{kBool};
constexpr DTypeSet kIntegralAndBool = DTypeSet::integral(true);

meta::ElementwiseSpec spec_of(OpId op) {
  switch (op) {
    case OpId::div:
    case OpId::atan2:
      return {op, DTypeSet::all(), /*int_to_float=*/true};
    case OpId::remainder:
    case OpId::pow:
      return {op, kNoBool};
    case OpId::eq:
    case OpId::ne:
    case OpId::lt:
    case OpId::le:
    case OpId::gt:
    case OpId::ge:
    case OpId::logical_and:
    case OpId::logical_or:
      return {op, DTypeSet::all(), false, /*bool_result=*/true};
    case OpId::bitwise_and:
    case OpId::bitwise_or:
    case OpId::bitwise_xor:
      return {op, kIntegralAndBool};
    default:
      return {op};
  }
}

void check_integer_divisor(const char* op, const Tensor& a, const Tensor& b);

Tensor binary(OpId op, Variant v, const Tensor& out, const Tensor& a, const Tensor& b,
              OpParams& p) {
  if (op == OpId::remainder) check_integer_divisor("remainder", a, b);
  const Tensor inputs[] = {a, b};
  return meta::elementwise(spec_of(op), v, out, inputs, p);
}

Tensor binary(OpId op, Variant v, const Tensor& out, const Tensor& a, const Tensor& b) {
  OpParams p;
  return binary(op, v, out, a, b, p);
}

// ATen's alpha_check: alpha must fit the result's category.
void check_alpha(const char* op, ScalarType dtype, const Scalar& alpha) {
  TS_CHECK(!alpha.is_bool() || dtype == kBool, op,
           ": Boolean alpha only supported for Boolean results (argument 'alpha').");
  TS_CHECK(is_floating_type(dtype) || alpha.is_integral(true), op,
           ": For integral input tensors, argument alpha must not be a floating point number.");
}

Tensor add_sub(OpId op, Variant v, const Tensor& out, const Tensor& a, const Tensor& b,
               const Scalar& alpha) {
  const char* name = meta::op_name(op, v);
  meta::check_defined(name, a, "self");
  meta::check_defined(name, b, "other");
  const ScalarType common = result_type(a, b);
  if (op == OpId::sub) {
    TS_CHECK(common != kBool, name,
             ": Subtraction, the `-` operator, with two bool tensors is not supported (arguments "
             "'self' and 'other'). Use the `^` or `logical_xor()` operator instead.");
  }
  check_alpha(name, common, alpha);
  OpParams p;
  p.s0 = alpha;
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

int rounding_mode(std::optional<std::string_view> mode, Variant v) {
  if (!mode) return 0;
  if (*mode == "trunc") return 1;
  if (*mode == "floor") return 2;
  TS_ERROR(meta::op_name(OpId::div, v),
           ": expected rounding_mode to be one of None, 'trunc', or 'floor' but found '", *mode,
           "'");
}

Tensor div_impl(Variant v, const Tensor& out, const Tensor& a, const Tensor& b,
                std::optional<std::string_view> mode) {
  OpParams p;
  p.mode = rounding_mode(mode, v);
  if (p.mode != 0) check_integer_divisor("div", a, b);
  meta::ElementwiseSpec spec{OpId::div, DTypeSet::all(), /*int_to_float=*/p.mode == 0};
  if (p.mode != 0) spec.supported = kNoBool;
  const Tensor inputs[] = {a, b};
  return meta::elementwise(spec, v, out, inputs, p);
}

Tensor ws(const Scalar& s) {
  return wrapped_scalar_tensor(s);
}

void check_pow_scalar_exponent(const Tensor& self, const Scalar& exponent, Variant v) {
  const char* op = meta::op_name(OpId::pow, v);
  meta::check_defined(op, self, "self");
  TS_CHECK(!(is_integral_type(self.dtype(), /*include_bool=*/true) &&
             exponent.is_integral(/*include_bool=*/true) && exponent.to_long() < 0),
           op, ": Integers to negative integer powers are not allowed (argument 'exponent').");
}

}  // namespace

Tensor add(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  return add_sub(OpId::add, Variant::Functional, {}, self, other, alpha);
}
Tensor add(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return add(self, ws(other), alpha);
}
Tensor& add_out(const Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha) {
  add_sub(OpId::add, Variant::Out, out, self, other, alpha);
  return const_cast<Tensor&>(out);
}
Tensor& Tensor::add_(const Tensor& other, const Scalar& alpha) const {
  add_sub(OpId::add, Variant::InPlace, {}, *this, other, alpha);
  return const_cast<Tensor&>(*this);
}
Tensor& Tensor::add_(const Scalar& other, const Scalar& alpha) const {
  return add_(ws(other), alpha);
}
Tensor Tensor::add(const Tensor& other, const Scalar& alpha) const {
  return ts::add(*this, other, alpha);
}
Tensor Tensor::add(const Scalar& other, const Scalar& alpha) const {
  return ts::add(*this, other, alpha);
}

Tensor sub(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  return add_sub(OpId::sub, Variant::Functional, {}, self, other, alpha);
}
Tensor sub(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return sub(self, ws(other), alpha);
}
Tensor& sub_out(const Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha) {
  add_sub(OpId::sub, Variant::Out, out, self, other, alpha);
  return const_cast<Tensor&>(out);
}
Tensor& Tensor::sub_(const Tensor& other, const Scalar& alpha) const {
  add_sub(OpId::sub, Variant::InPlace, {}, *this, other, alpha);
  return const_cast<Tensor&>(*this);
}
Tensor& Tensor::sub_(const Scalar& other, const Scalar& alpha) const {
  return sub_(ws(other), alpha);
}
Tensor Tensor::sub(const Tensor& other, const Scalar& alpha) const {
  return ts::sub(*this, other, alpha);
}
Tensor Tensor::sub(const Scalar& other, const Scalar& alpha) const {
  return ts::sub(*this, other, alpha);
}

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

// The remaining binary ops differ only in their spec: functional, out=, method, in-place.
#define TS_DEFINE_BINARY(name, has_inplace)                                        \
  Tensor name(const Tensor& self, const Tensor& other) {                           \
    return binary(OpId::name, Variant::Functional, {}, self, other);               \
  }                                                                                \
  Tensor name(const Tensor& self, const Scalar& other) {                           \
    return name(self, ws(other));                                                  \
  }                                                                                \
  Tensor& name##_out(const Tensor& out, const Tensor& self, const Tensor& other) { \
    binary(OpId::name, Variant::Out, out, self, other);                            \
    return const_cast<Tensor&>(out);                                               \
  }                                                                                \
  Tensor Tensor::name(const Tensor& other) const {                                 \
    return ts::name(*this, other);                                                 \
  }                                                                                \
  TS_DEFINE_BINARY_INPLACE_##has_inplace(name)

#define TS_DEFINE_BINARY_INPLACE_0(name)
#define TS_DEFINE_BINARY_INPLACE_1(name)                    \
  Tensor Tensor::name(const Scalar& other) const {          \
    return ts::name(*this, other);                          \
  }                                                         \
  Tensor& Tensor::name##_(const Tensor& other) const {      \
    binary(OpId::name, Variant::InPlace, {}, *this, other); \
    return const_cast<Tensor&>(*this);                      \
  }                                                         \
  Tensor& Tensor::name##_(const Scalar& other) const {      \
    return name##_(ws(other));                              \
  }

TS_DEFINE_BINARY(mul, 1)
TS_DEFINE_BINARY(remainder, 1)
TS_DEFINE_BINARY(maximum, 0)
TS_DEFINE_BINARY(minimum, 0)
TS_DEFINE_BINARY(atan2, 1)
TS_DEFINE_BINARY(eq, 1)
TS_DEFINE_BINARY(ne, 1)
TS_DEFINE_BINARY(lt, 1)
TS_DEFINE_BINARY(le, 1)
TS_DEFINE_BINARY(gt, 1)
TS_DEFINE_BINARY(ge, 1)
TS_DEFINE_BINARY(logical_and, 1)
TS_DEFINE_BINARY(logical_or, 1)
TS_DEFINE_BINARY(bitwise_and, 1)
TS_DEFINE_BINARY(bitwise_or, 1)
TS_DEFINE_BINARY(bitwise_xor, 1)
#undef TS_DEFINE_BINARY
#undef TS_DEFINE_BINARY_INPLACE_0
#undef TS_DEFINE_BINARY_INPLACE_1

// pow: only the Tensor-Scalar overload rejects a negative integer exponent of an integral
// base (NumPy's rule, as ATen); Tensor-Tensor computes it (see Note [Integer pow]).
Tensor pow(const Tensor& self, const Tensor& exponent) {
  return binary(OpId::pow, Variant::Functional, {}, self, exponent);
}
Tensor pow(const Tensor& self, const Scalar& exponent) {
  check_pow_scalar_exponent(self, exponent, Variant::Functional);
  return pow(self, ws(exponent));
}
Tensor& pow_out(const Tensor& out, const Tensor& self, const Tensor& exponent) {
  binary(OpId::pow, Variant::Out, out, self, exponent);
  return const_cast<Tensor&>(out);
}
Tensor pow(const Scalar& self, const Tensor& exponent) {
  return binary(OpId::pow, Variant::Functional, {}, ws(self), exponent);
}
Tensor Tensor::pow(const Tensor& exponent) const {
  return ts::pow(*this, exponent);
}
Tensor Tensor::pow(const Scalar& exponent) const {
  return ts::pow(*this, exponent);
}
Tensor& Tensor::pow_(const Tensor& exponent) const {
  binary(OpId::pow, Variant::InPlace, {}, *this, exponent);
  return const_cast<Tensor&>(*this);
}
Tensor& Tensor::pow_(const Scalar& exponent) const {
  check_pow_scalar_exponent(*this, exponent, Variant::InPlace);
  return pow_(ws(exponent));
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
