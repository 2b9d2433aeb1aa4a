// Derivatives of the ternary family (lib/src/ops/ternary.cpp). Inputs arrive broadcast to the
// output's shape: where {condition, self, other}; lerp {self, end, weight} or {self, end} with
// the Scalar weight in p.s0; addcmul {self, tensor1, tensor2} with value in p.s0; masked_fill
// {self, mask}. See Note [Adding a derivative].
#include "derivatives.h"
#include "touchstone/ops.h"

namespace ts::autograd {

TS_REGISTER_DERIVATIVES(ternary) {
  // where.self(Tensor condition, Tensor self, Tensor other) -> Tensor
  //   condition: non-differentiable   self: where(condition, grad, 0)   other: where(condition, 0,
  //   grad)
  m.def(OpId::where, save_inputs({0}), [](const BackwardArgs& a) -> Grads {
    const Tensor& cond = a.input(0);
    return {Tensor(), a.needs_grad(1) ? where(cond, a.grad(), 0) : Tensor(),
            a.needs_grad(2) ? where(cond, 0, a.grad()) : Tensor()};
  });
  // lerp.Tensor(Tensor self, Tensor end, Tensor weight) -> Tensor
  //   self: grad * (1 - weight)   end: grad * weight   weight: grad * (end - self)
  m.def(OpId::lerp, save_inputs({0, 1, 2}), [](const BackwardArgs& a) -> Grads {
    if (a.num_inputs() == 2) {  // lerp.Scalar: weight in p.s0
      const double w = a.p.s0->to_double();
      return {a.needs_grad(0) ? a.grad() * (1 - w) : Tensor(),
              a.needs_grad(1) ? a.grad() * w : Tensor()};
    }
    const Tensor& weight = a.input(2);
    return {a.needs_grad(0) ? a.grad() * rsub(weight, 1) : Tensor(),
            a.needs_grad(1) ? a.grad() * weight : Tensor(),
            a.needs_grad(2) ? a.grad() * (a.input(1) - a.input(0)) : Tensor()};
  });
  // addcmul(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor
  //   self: grad   tensor1: grad * tensor2 * value   tensor2: grad * tensor1 * value
  m.def(OpId::addcmul, save_inputs({1, 2}), [](const BackwardArgs& a) -> Grads {
    const double value = a.p.s0->to_double();
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
