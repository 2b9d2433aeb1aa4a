#pragma once
// PyTorch's type promotion: promote_types, result_type over three tiers, can_cast.
#include "touchstone/tensor.h"

namespace ts {

// The smallest dtype both can be cast to without losing category (PyTorch's promote_types).
ScalarType promote_types(ScalarType a, ScalarType b);

// Note [Three tiers]
// result_type ranks operands in three tiers: tensors with dims, 0-dim tensors, and wrapped
// numbers (Python scalars). A lower tier only changes the result when its category
// (bool < integer < floating) is higher than every higher tier's; a wrapped float then gives
// the default dtype, a 0-dim tensor its own dtype.
struct ResultTypeState {
  ScalarType dim_result = ScalarType::Undefined;
  ScalarType zero_dim_result = ScalarType::Undefined;
  ScalarType wrapped_result = ScalarType::Undefined;
};
void update_result_type_state(ResultTypeState& s, const Tensor& t);
void update_result_type_state(ResultTypeState& s, const Scalar& v);
ScalarType result_type(const ResultTypeState& s);

ScalarType result_type(TensorList tensors);
ScalarType result_type(const Tensor& a, const Tensor& b);
ScalarType result_type(const Tensor& a, const Scalar& b);
ScalarType result_type(const Scalar& a, const Scalar& b);

// Whether a result of dtype `from` may be written into a tensor of dtype `to` (in-place, out=):
// no cast to a lower category (float -> int, int -> bool).
bool can_cast(ScalarType from, ScalarType to);

// A 0-dim tensor holding `s` that promotion treats as a wrapped number (see Note [Three tiers]).
Tensor wrapped_scalar_tensor(const Scalar& s, Device device = kCPU);
bool is_wrapped_number(const Tensor& t);
// A wrapped number or a view of one (meta expands the operands kernels receive).
bool is_wrapped_number_or_view(const Tensor& t);

}  // namespace ts
