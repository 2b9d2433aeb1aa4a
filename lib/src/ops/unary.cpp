// Unary elementwise ops: meta for every variant.
// Params: mode = approximation for gelu (0 none, 1 tanh); for clamp, mode bit 0 = has min,
// bit 1 = has max, and the bounds arrive as extra wrapped-scalar inputs (min first).
#include "meta.h"
#include "touchstone/ops.h"

namespace ts {
namespace {

using meta::Variant;

constexpr DTypeSet kNoBool = DTypeSet::all() - DTypeSet{kBool};
constexpr DTypeSet kReal = DTypeSet::integral(false) | DTypeSet::floating();

meta::ElementwiseSpec spec_of(OpId op) {
  switch (op) {
    case OpId::exp:
    case OpId::expm1:
    case OpId::log:
    case OpId::log1p:
    case OpId::sqrt:
    case OpId::rsqrt:
    case OpId::reciprocal:
    case OpId::sin:
    case OpId::cos:
    case OpId::tanh:
    case OpId::sigmoid:
    case OpId::erf:
      return {op, DTypeSet::all(), /*int_to_float=*/true};
    case OpId::gelu:
    case OpId::silu:
      return {op, DTypeSet::floating()};
    case OpId::neg:
    case OpId::abs:
    case OpId::relu:
    case OpId::clamp:
      return {op, kNoBool};
    case OpId::floor:
    case OpId::ceil:
    case OpId::round:
    case OpId::trunc:
      return {op, kReal};
    case OpId::isnan:
    case OpId::logical_not:
      return {op, DTypeSet::all(), false, /*bool_result=*/true};
    case OpId::bitwise_not:
      return {op, DTypeSet::integral(true)};
    default:
      return {op};
  }
}

Tensor unary(OpId op, Variant v, const Tensor& out, const Tensor& self, OpParams& p) {
  if (op == OpId::neg) {
    TS_CHECK(!self.defined() || self.dtype() != kBool, meta::op_name(op, v),
             ": Negation, the `-` operator, on a bool tensor is not supported (argument 'self'). "
             "If you are trying to invert a mask, use the `~` or `logical_not()` operator "
             "instead.");
  }
  return meta::elementwise(spec_of(op), v, out, ArrayRef<Tensor>(&self, 1), p);
}

Tensor unary(OpId op, Variant v, const Tensor& out, const Tensor& self) {
  OpParams p;
  return unary(op, v, out, self, p);
}

int gelu_mode(std::string_view approximate, Variant v) {
  if (approximate == "none") return 0;
  if (approximate == "tanh") return 1;
  TS_ERROR(meta::op_name(OpId::gelu, v),
           ": approximate argument must be either none or tanh, got '", approximate, "'");
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
  if (spec_of(OpId::clamp).supported.has(result)) {  // else meta::elementwise names the dtype
    if (min) meta::check_scalar_fits(op, *min, result, "min");
    if (max) meta::check_scalar_fits(op, *max, result, "max");
  }
  OpParams p;
  SmallVector<Tensor, 3> inputs{self};
  if (min) {
    p.mode |= 1;
    inputs.push_back(wrapped_scalar_tensor(*min));
  }
  if (max) {
    p.mode |= 2;
    inputs.push_back(wrapped_scalar_tensor(*max));
  }
  return meta::elementwise(spec_of(OpId::clamp), v, out, inputs, p);
}

}  // namespace

#define TS_DEFINE_UNARY(name)                                 \
  Tensor name(const Tensor& self) {                           \
    return unary(OpId::name, Variant::Functional, {}, self);  \
  }                                                           \
  Tensor& name##_(const Tensor& self) {                       \
    unary(OpId::name, Variant::InPlace, {}, self);            \
    return const_cast<Tensor&>(self);                         \
  }                                                           \
  Tensor& name##_out(const Tensor& out, const Tensor& self) { \
    unary(OpId::name, Variant::Out, out, self);               \
    return const_cast<Tensor&>(out);                          \
  }
#define TS_DEFINE_UNARY_METHODS(name) \
  TS_DEFINE_UNARY(name)               \
  Tensor Tensor::name() const {       \
    return ts::name(*this);           \
  }                                   \
  Tensor& Tensor::name##_() const {   \
    return ts::name##_(*this);        \
  }

TS_DEFINE_UNARY_METHODS(neg)
TS_DEFINE_UNARY_METHODS(abs)
TS_DEFINE_UNARY_METHODS(sign)
TS_DEFINE_UNARY_METHODS(exp)
TS_DEFINE_UNARY_METHODS(expm1)
TS_DEFINE_UNARY_METHODS(log)
TS_DEFINE_UNARY_METHODS(log1p)
TS_DEFINE_UNARY_METHODS(sqrt)
TS_DEFINE_UNARY_METHODS(rsqrt)
TS_DEFINE_UNARY_METHODS(reciprocal)
TS_DEFINE_UNARY_METHODS(sin)
TS_DEFINE_UNARY_METHODS(cos)
TS_DEFINE_UNARY_METHODS(tanh)
TS_DEFINE_UNARY_METHODS(sigmoid)
TS_DEFINE_UNARY_METHODS(relu)
TS_DEFINE_UNARY(silu)
TS_DEFINE_UNARY_METHODS(erf)
TS_DEFINE_UNARY_METHODS(floor)
TS_DEFINE_UNARY_METHODS(ceil)
TS_DEFINE_UNARY_METHODS(round)
TS_DEFINE_UNARY_METHODS(trunc)
TS_DEFINE_UNARY_METHODS(logical_not)
TS_DEFINE_UNARY_METHODS(bitwise_not)
#undef TS_DEFINE_UNARY_METHODS
#undef TS_DEFINE_UNARY

Tensor isnan(const Tensor& self) {
  return unary(OpId::isnan, Variant::Functional, {}, self);
}
Tensor Tensor::isnan() const {
  return ts::isnan(*this);
}

Tensor gelu(const Tensor& self, std::string_view approximate) {
  OpParams p;
  p.mode = gelu_mode(approximate, Variant::Functional);
  return unary(OpId::gelu, Variant::Functional, {}, self, p);
}
Tensor& gelu_(const Tensor& self, std::string_view approximate) {
  OpParams p;
  p.mode = gelu_mode(approximate, Variant::InPlace);
  unary(OpId::gelu, Variant::InPlace, {}, self, p);
  return const_cast<Tensor&>(self);
}
Tensor& gelu_out(const Tensor& out, const Tensor& self, std::string_view approximate) {
  OpParams p;
  p.mode = gelu_mode(approximate, Variant::Out);
  unary(OpId::gelu, Variant::Out, out, self, p);
  return const_cast<Tensor&>(out);
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
