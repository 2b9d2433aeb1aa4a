// Ternary ops: where, lerp, addcmul, masked_fill (meta for every variant), then the family's
// derivative table. Params (touchstone/op_params.h) and inputs:
//   where:       NoParams; compute_dtype = result_type(self, other), the output dtype; inputs
//                {condition, self, other}.
//   lerp:        LerpParams{weight}: the Scalar weight, with inputs {self, end}; absent for a
//                Tensor weight, with inputs {self, end, weight}. compute_dtype = self's dtype.
//   addcmul:     ValueParams{value}; compute_dtype = result_type(self, tensor1, tensor2); inputs
//                {self, tensor1, tensor2}.
//   masked_fill: ValueParams{value}; compute_dtype = self's dtype; inputs {self, mask}. For
//                masked_fill_ the output is self itself.
// Every input reaches the kernel expanded to the output's shape.
#include "../autograd/derivatives.h"
#include "meta.h"
#include "touchstone/ops.h"

namespace ts {
namespace {

using meta::Variant;

// The dtype ATen's kernels convert a Scalar argument to (at::opmath_type).
ScalarType opmath_type(ScalarType t) {
  return is_reduced_float(t) ? kFloat : t;
}

Tensor where_impl(Variant v, const Tensor& out, const Tensor& condition, const Tensor& self,
                  const Tensor& other) {
  meta::check_defined("where", condition, "condition");
  meta::check_defined("where", self, "self");
  meta::check_defined("where", other, "other");
  const ScalarType result = result_type(self, other);
  if (v == Variant::Out) {
    // Unlike most out= forms, ATen's where_out wants exactly the result dtype.
    meta::check_defined("where", out, "out");
    TS_CHECK(out.dtype() == result, "where: Expected out type to be ", result, " but got ",
             out.dtype(), " (argument 'out')");
  }
  // Note [where with a uint8 condition]
  // ATen 1.13 and current PyTorch accept a uint8 condition (with a deprecation warning: "where
  // received a uint8 condition tensor") as condition != 0; touchstone accepts it, silently.
  TS_CHECK(condition.dtype() == kBool || condition.dtype() == kByte,
           "where: expected condition to be a boolean tensor, but got a tensor with dtype ",
           condition.dtype());
  OpParams p;
  const Tensor inputs[] = {condition.dtype() == kBool ? condition : condition.to(kBool), self,
                           other};
  Tensor r = meta::elementwise(meta::elementwise_spec(OpId::where), v, out, inputs, p);
  // A bool condition never changes the promotion of self and other.
  TS_INTERNAL_ASSERT(p.compute_dtype == result);
  return r;
}

Tensor lerp_impl(Variant v, const Tensor& out, const Tensor& self, const Tensor& end,
                 const Tensor& weight, const std::optional<Scalar>& scalar_weight) {
  const char* op = meta::op_name(OpId::lerp, v);
  meta::check_defined(op, self, "self");
  meta::check_defined(op, end, "end");
  TS_CHECK(self.dtype() == end.dtype(), op, ": expected dtype ", self.dtype(),
           " for `end` but got dtype ", end.dtype());
  const meta::ElementwiseSpec spec = meta::elementwise_spec(OpId::lerp);
  OpParams p;
  SmallVector<Tensor, 3> inputs{self, end};
  if (scalar_weight) {
    meta::check_dtype_supported(op, self.dtype(), spec.supported, "self");
    meta::check_scalar_fits(op, *scalar_weight, opmath_type(self.dtype()), "weight");
    p.set(LerpParams{scalar_weight});
  } else {
    meta::check_defined(op, weight, "weight");
    TS_CHECK(self.dtype() == weight.dtype(), op, ": expected dtype ", self.dtype(),
             " for `weight` but got dtype ", weight.dtype());
    p.set(LerpParams{});
    inputs.push_back(weight);
  }
  return meta::elementwise(spec, v, out, inputs, p);
}

Tensor addcmul_impl(Variant v, const Tensor& out, const Tensor& self, const Tensor& t1,
                    const Tensor& t2, const Scalar& value) {
  const char* op = meta::op_name(OpId::addcmul, v);
  meta::check_defined(op, self, "self");
  meta::check_defined(op, t1, "tensor1");
  meta::check_defined(op, t2, "tensor2");
  const Tensor inputs[] = {self, t1, t2};
  const ScalarType common = result_type(inputs);
  const meta::ElementwiseSpec spec = meta::elementwise_spec(OpId::addcmul);
  // Note [addcmul value on integers]
  // ATen converts value to an integral result's dtype, truncating (value 2.5 multiplies by 2);
  // its "must not be a floating point number" check is addcdiv's, not addcmul's.
  if (spec.supported.has(common)) meta::check_scalar_fits(op, value, opmath_type(common));
  OpParams p;
  p.set(ValueParams{value});
  return meta::elementwise(spec, v, out, inputs, p);
}

// Note [masked_fill_ on expanded tensors]
// ATen only warns (deprecated) when masked_fill_ writes to an internally overlapping self, and
// the result is still well defined (a location takes the value if any of its elements' masks
// is set), so it is allowed here too.
Tensor masked_fill_impl(Variant v, const Tensor& self, const Tensor& mask, const Scalar& value) {
  const char* op = meta::op_name(OpId::masked_fill, v);
  const UserOpScope scope(op);
  meta::check_defined(op, self, "self");
  meta::check_defined(op, mask, "mask");
  // ATen 1.13 accepts a float mask and fills nothing (mask [1., 0.] leaves self as it was);
  // current PyTorch refuses it, as here ("masked_fill_ only supports boolean masks").
  TS_CHECK(mask.dtype() == kBool, op, ": only supports boolean masks, but got mask with dtype ",
           mask.dtype());
  meta::check_scalar_fits(op, value, self.dtype());
  const Tensor operands[] = {self, mask};
  const Device device = meta::common_device(op, operands, OpId::masked_fill);
  const DimVector shape = meta::broadcast_shapes(op, operands, OpId::masked_fill);
  if (v == Variant::InPlace) {
    TS_CHECK(device == self.device(), op, ": Expected mask to be on device ", self.device(),
             " but got ", mask.device());
    TS_CHECK(self.sizes() == IntArrayRef(shape), op, ": output with shape ", self.sizes(),
             " doesn't match the broadcast shape ", IntArrayRef(shape), " (argument 'self')");
    meta::check_no_partial_overlap(op, self, mask, "self", "mask");
  }
  OpParams p;
  p.compute_dtype = self.dtype();
  p.set(ValueParams{value});
  const KernelFn fn = lookup_kernel(OpId::masked_fill, self.dtype(), device);
  const Tensor target =
      v == Variant::InPlace ? self : empty(shape, TensorOptions(self.dtype()).device(device));
  const Tensor inputs[] = {self.sizes() == IntArrayRef(shape) ? self : self.expand(shape),
                           mask.sizes() == IntArrayRef(shape) ? mask : mask.expand(shape)};
  run_kernel(fn, KernelCall{OpId::masked_fill, ArrayRef<Tensor>(&target, 1), inputs, p, v});
  return target;
}

}  // namespace

Tensor where(const Tensor& condition, const Tensor& self, const Tensor& other) {
  return where_impl(Variant::Functional, {}, condition, self, other);
}
Tensor where(const Tensor& condition, const Scalar& self, const Tensor& other) {
  return where(condition, wrapped_scalar_tensor(self), other);
}
Tensor where(const Tensor& condition, const Tensor& self, const Scalar& other) {
  return where(condition, self, wrapped_scalar_tensor(other));
}
Tensor& where_out(const Tensor& out, const Tensor& condition, const Tensor& self,
                  const Tensor& other) {
  where_impl(Variant::Out, out, condition, self, other);
  return const_cast<Tensor&>(out);
}
Tensor Tensor::where(const Tensor& condition, const Tensor& other) const {
  return ts::where(condition, *this, other);
}

Tensor lerp(const Tensor& self, const Tensor& end, const Scalar& weight) {
  return lerp_impl(Variant::Functional, {}, self, end, {}, weight);
}
Tensor lerp(const Tensor& self, const Tensor& end, const Tensor& weight) {
  return lerp_impl(Variant::Functional, {}, self, end, weight, std::nullopt);
}
Tensor& lerp_out(const Tensor& out, const Tensor& self, const Tensor& end, const Tensor& weight) {
  lerp_impl(Variant::Out, out, self, end, weight, std::nullopt);
  return const_cast<Tensor&>(out);
}
Tensor Tensor::lerp(const Tensor& end, const Scalar& weight) const {
  return ts::lerp(*this, end, weight);
}
Tensor& Tensor::lerp_(const Tensor& end, const Scalar& weight) const {
  lerp_impl(Variant::InPlace, {}, *this, end, {}, weight);
  return const_cast<Tensor&>(*this);
}
Tensor Tensor::lerp(const Tensor& end, const Tensor& weight) const {
  return ts::lerp(*this, end, weight);
}
Tensor& Tensor::lerp_(const Tensor& end, const Tensor& weight) const {
  lerp_impl(Variant::InPlace, {}, *this, end, weight, std::nullopt);
  return const_cast<Tensor&>(*this);
}

Tensor addcmul(const Tensor& self, const Tensor& t1, const Tensor& t2, const Scalar& value) {
  return addcmul_impl(Variant::Functional, {}, self, t1, t2, value);
}
Tensor& addcmul_out(const Tensor& out, const Tensor& self, const Tensor& t1, const Tensor& t2,
                    const Scalar& value) {
  addcmul_impl(Variant::Out, out, self, t1, t2, value);
  return const_cast<Tensor&>(out);
}
Tensor Tensor::addcmul(const Tensor& t1, const Tensor& t2, const Scalar& value) const {
  return ts::addcmul(*this, t1, t2, value);
}
Tensor& Tensor::addcmul_(const Tensor& t1, const Tensor& t2, const Scalar& value) const {
  addcmul_impl(Variant::InPlace, {}, *this, t1, t2, value);
  return const_cast<Tensor&>(*this);
}

Tensor masked_fill(const Tensor& self, const Tensor& mask, const Scalar& value) {
  return masked_fill_impl(Variant::Functional, self, mask, value);
}
Tensor Tensor::masked_fill(const Tensor& mask, const Scalar& value) const {
  return ts::masked_fill(*this, mask, value);
}
Tensor& Tensor::masked_fill_(const Tensor& mask, const Scalar& value) const {
  masked_fill_impl(Variant::InPlace, *this, mask, value);
  return const_cast<Tensor&>(*this);
}

}  // namespace ts

// ---- derivatives: see Note [Adding a derivative] in lib/src/autograd/derivatives.h ----
namespace ts::autograd {

TS_REGISTER_DERIVATIVES(ternary) {
  // where.self(Tensor condition, Tensor self, Tensor other) -> Tensor
  //   condition: non-differentiable
  //   self: where(condition, grad, 0)   other: where(condition, 0, grad)
  m.def(OpId::where, save_inputs({0}), [](const BackwardArgs& a) -> Grads {
    const Tensor& cond = a.input(0);
    return {Tensor(), a.needs_grad(1) ? where(cond, a.grad(), 0) : Tensor(),
            a.needs_grad(2) ? where(cond, 0, a.grad()) : Tensor()};
  });
  // lerp.Tensor(Tensor self, Tensor end, Tensor weight) -> Tensor
  //   self: grad * (1 - weight)   end: grad * weight   weight: grad * (end - self)
  m.def(
      OpId::lerp, save_inputs({0, 1, 2}),
      [](const BackwardArgs& a) -> Grads {
        if (const std::optional<Scalar>& scalar = a.p.get<LerpParams>().weight) {  // lerp.Scalar
          const double w = scalar->to_double();
          return {a.needs_grad(0) ? a.grad() * (1 - w) : Tensor(),
                  a.needs_grad(1) ? a.grad() * w : Tensor()};
        }
        const Tensor& weight = a.input(2);
        return {a.needs_grad(0) ? a.grad() * rsub(weight, 1) : Tensor(),
                a.needs_grad(1) ? a.grad() * weight : Tensor(),
                a.needs_grad(2) ? a.grad() * (a.input(1) - a.input(0)) : Tensor()};
      },
      // Note [Overload node names]: lerp.Scalar is LerpBackward0, lerp.Tensor LerpBackward1.
      [](const KernelCall& c) {
        return c.p.get<LerpParams>().weight ? "LerpBackward0" : "LerpBackward1";
      });
  // addcmul(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor
  //   self: grad   tensor1: grad * tensor2 * value   tensor2: grad * tensor1 * value
  m.def(OpId::addcmul, save_inputs({1, 2}), [](const BackwardArgs& a) -> Grads {
    const double value = a.p.get<ValueParams>().value.to_double();
    return {a.grad(), a.needs_grad(1) ? a.grad() * a.input(2) * value : Tensor(),
            a.needs_grad(2) ? a.grad() * a.input(1) * value : Tensor()};
  });
  // masked_fill.Scalar(Tensor self, Tensor mask, Scalar value) -> Tensor
  //   self: grad.masked_fill(mask, 0)   mask: non-differentiable
  m.def(OpId::masked_fill, save_inputs({1}), [](const BackwardArgs& a) -> Grads {
    return {a.grad().masked_fill(a.input(1), 0), Tensor()};
  });
}

}  // namespace ts::autograd
