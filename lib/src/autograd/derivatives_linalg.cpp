// Derivatives of the linalg family (lib/src/ops/linalg.cpp). mm, bmm, dot, mv, outer: inputs
// {self, other}; addmm: {self broadcast to (n, p), mat1, mat2} with beta in p.s0 and alpha in
// p.s1. matmul is a composite of these. See Note [Adding a derivative].
#include "derivatives.h"
#include "touchstone/ops.h"

namespace ts::autograd {
namespace {

// t cast to the gradient's dtype (outer promotes its operands; the others need one dtype).
Tensor like(const Tensor& t, const Tensor& grad) {
  return t.dtype() == grad.dtype() ? t : t.to(grad.dtype());
}

}  // namespace

TS_REGISTER_DERIVATIVES(linalg) {
  // mm(Tensor self, Tensor mat2) -> Tensor
  //   self: grad.mm(mat2.t())          mat2: self.t().mm(grad)
  m.def(OpId::mm, save_inputs({0, 1}), [](const BackwardArgs& a) -> Grads {
    return {a.needs_grad(0) ? a.grad().mm(a.input(1).t()) : Tensor(),
            a.needs_grad(1) ? a.input(0).t().mm(a.grad()) : Tensor()};
  });
  // bmm(Tensor self, Tensor mat2) -> Tensor
  //   self: grad.bmm(mat2.transpose(1, 2))    mat2: self.transpose(1, 2).bmm(grad)
  m.def(OpId::bmm, save_inputs({0, 1}), [](const BackwardArgs& a) -> Grads {
    return {a.needs_grad(0) ? a.grad().bmm(a.input(1).transpose(1, 2)) : Tensor(),
            a.needs_grad(1) ? a.input(0).transpose(1, 2).bmm(a.grad()) : Tensor()};
  });
  // addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor
  //   self: grad * beta    mat1: grad.mm(mat2.t()) * alpha    mat2: mat1.t().mm(grad) * alpha
  m.def(OpId::addmm, save_inputs({1, 2}), [](const BackwardArgs& a) -> Grads {
    const double beta = a.p.s0->to_double(), alpha = a.p.s1->to_double();
    return {a.needs_grad(0) ? a.grad() * beta : Tensor(),
            a.needs_grad(1) ? a.grad().mm(a.input(2).t()) * alpha : Tensor(),
            a.needs_grad(2) ? a.input(1).t().mm(a.grad()) * alpha : Tensor()};
  });
  // dot(Tensor self, Tensor tensor) -> Tensor
  //   self: grad * tensor              tensor: grad * self
  m.def(OpId::dot, save_inputs({0, 1}), [](const BackwardArgs& a) -> Grads {
    return {a.needs_grad(0) ? a.grad() * a.input(1) : Tensor(),
            a.needs_grad(1) ? a.grad() * a.input(0) : Tensor()};
  });
  // mv(Tensor self, Tensor vec) -> Tensor
  //   self: grad.outer(vec)            vec: self.t().mv(grad)
  m.def(OpId::mv, save_inputs({0, 1}), [](const BackwardArgs& a) -> Grads {
    return {a.needs_grad(0) ? outer(a.grad(), a.input(1)) : Tensor(),
            a.needs_grad(1) ? a.input(0).t().mv(a.grad()) : Tensor()};
  });
  // outer(Tensor self, Tensor vec2) -> Tensor
  //   self: grad.mv(vec2)              vec2: grad.t().mv(self)
  m.def(OpId::outer, save_inputs({0, 1}), [](const BackwardArgs& a) -> Grads {
    const Tensor& g = a.grad();
    return {a.needs_grad(0) ? g.mv(like(a.input(1), g)) : Tensor(),
            a.needs_grad(1) ? g.t().mv(like(a.input(0), g)) : Tensor()};
  });
}

}  // namespace ts::autograd
