// Type promotion, as PyTorch's c10::promoteTypes and at::native::result_type.
#include "touchstone/promotion.h"

#include "touchstone/ops.h"

namespace ts {

ScalarType promote_types(ScalarType a, ScalarType b) {
  TS_CHECK(a != ScalarType::Undefined && b != ScalarType::Undefined,
           "promote_types: undefined dtype");
  if (a == b) return a;
  if (a == kBool) return b;
  if (b == kBool) return a;
  const bool fa = is_floating_type(a), fb = is_floating_type(b);
  if (fa && fb) {
    // float16 and bfloat16 have no common 16-bit type; both fit in float32.
    if (is_reduced_float(a) && is_reduced_float(b)) return kFloat;
    return element_size(a) >= element_size(b) ? a : b;
  }
  if (fa) return a;
  if (fb) return b;
  // Both integers. uint8 with a signed type needs a signed type wider than 8 bits.
  if (a == kByte || b == kByte) {
    const ScalarType other = a == kByte ? b : a;
    return other == kChar ? kShort : other;
  }
  return element_size(a) >= element_size(b) ? a : b;
}

bool can_cast(ScalarType from, ScalarType to) {
  if (is_floating_type(from) && is_integral_type(to, /*include_bool=*/false)) return false;
  if (from != kBool && to == kBool) return false;
  return true;
}

namespace {

ScalarType promote_skip_undefined(ScalarType a, ScalarType b) {
  if (a == ScalarType::Undefined) return b;
  if (b == ScalarType::Undefined) return a;
  return promote_types(a, b);
}

// `lower` only matters when its category is higher (see Note [Three tiers]).
ScalarType combine_categories(ScalarType higher, ScalarType lower) {
  if (is_floating_type(higher)) return higher;
  if (higher == kBool || is_floating_type(lower)) return promote_skip_undefined(higher, lower);
  return higher != ScalarType::Undefined ? higher : lower;
}

void update_wrapped(ResultTypeState& s, ScalarType t) {
  // A Python float participates as the default dtype, not as float64.
  s.wrapped_result =
      promote_skip_undefined(s.wrapped_result, is_floating_type(t) ? kDefaultDtype : t);
}

}  // namespace

void update_result_type_state(ResultTypeState& s, const Tensor& t) {
  if (!t.defined()) return;
  if (is_wrapped_number(t)) {
    update_wrapped(s, t.dtype());
  } else if (t.dim() > 0) {
    s.dim_result = promote_skip_undefined(s.dim_result, t.dtype());
  } else {
    s.zero_dim_result = promote_skip_undefined(s.zero_dim_result, t.dtype());
  }
}

void update_result_type_state(ResultTypeState& s, const Scalar& v) {
  update_wrapped(s, v.type());
}

ScalarType result_type(const ResultTypeState& s) {
  return combine_categories(s.dim_result, combine_categories(s.zero_dim_result, s.wrapped_result));
}

ScalarType result_type(TensorList tensors) {
  // Tensors (not wrapped numbers) of one dtype promote to it whatever their dims (kept cheap).
  bool same = !tensors.empty() && tensors[0].defined();
  for (size_t i = 0; same && i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    same = t.defined() && !is_wrapped_number(t) && t.dtype() == tensors[0].dtype();
  }
  if (same) return tensors[0].dtype();
  ResultTypeState s;
  for (const Tensor& t : tensors) update_result_type_state(s, t);
  return result_type(s);
}

ScalarType result_type(const Tensor& a, const Tensor& b) {
  if (a.defined() && b.defined() && a.dtype() == b.dtype() && !is_wrapped_number(a) &&
      !is_wrapped_number(b)) {
    return a.dtype();
  }
  ResultTypeState s;
  update_result_type_state(s, a);
  update_result_type_state(s, b);
  return result_type(s);
}

ScalarType result_type(const Tensor& a, const Scalar& b) {
  ResultTypeState s;
  update_result_type_state(s, a);
  update_result_type_state(s, b);
  return result_type(s);
}

ScalarType result_type(const Scalar& a, const Scalar& b) {
  ResultTypeState s;
  update_result_type_state(s, a);
  update_result_type_state(s, b);
  return result_type(s);
}

Tensor wrapped_scalar_tensor(const Scalar& s, Device device) {
  TS_CHECK(device.is_cpu(), "wrapped_scalar_tensor: only CPU is supported");
  Tensor t = empty({}, TensorOptions(s.type()).device(device));
  switch (s.type()) {
    case kBool:
      *static_cast<bool*>(t.data_ptr()) = s.to_bool();
      break;
    case kLong:
      *static_cast<int64_t*>(t.data_ptr()) = s.to_long();
      break;
    default:
      *static_cast<double*>(t.data_ptr()) = s.to_double();
  }
  t.impl()->set_wrapped_number(true);
  return t;
}

bool is_wrapped_number(const Tensor& t) {
  return t.impl()->is_wrapped_number();
}

bool is_wrapped_number_or_view(const Tensor& t) {
  // A view made in no_grad mode knows its root as no_grad_view_base only (make_view).
  const TensorImpl* base = t.impl()->view_base();
  const TensorImpl* no_grad_base = t.impl()->no_grad_view_base();
  return t.impl()->is_wrapped_number() || (base != nullptr && base->is_wrapped_number()) ||
         (no_grad_base != nullptr && no_grad_base->is_wrapped_number());
}

}  // namespace ts
