// Derivatives of the binary family (lib/src/ops/binary.cpp). Calls have inputs {self, other},
// both broadcast to the output's shape (a Scalar operand is a wrapped number); add/sub carry
// alpha in p.s0, div its rounding mode in p.mode. See Note [Adding a derivative].
#include "derivatives.h"
#include "touchstone/ops.h"

namespace ts::autograd {
namespace {

// alpha as a Scalar gradients can be multiplied by (gradients are floating).
Scalar alpha_of(const BackwardArgs& a) {
  return a.p.s0 ? Scalar(a.p.s0->to_double()) : Scalar(1.0);
}

}  // namespace

TS_REGISTER_DERIVATIVES(binary) {
  // add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
  //   self: grad                      other: grad * alpha
  m.def(OpId::add, save_nothing(), [](const BackwardArgs& a) -> Grads {
    const double alpha = alpha_of(a).to_double();
    return {a.grad(), a.needs_grad(1) ? (alpha == 1 ? a.grad() : a.grad() * alpha) : Tensor()};
  });
  // sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
  //   self: grad                      other: -grad * alpha
  m.def(OpId::sub, save_nothing(), [](const BackwardArgs& a) -> Grads {
    return {a.grad(), a.needs_grad(1) ? a.grad() * -alpha_of(a).to_double() : Tensor()};
  });
  // mul.Tensor(Tensor self, Tensor other) -> Tensor
  //   self: grad * other              other: grad * self
  m.def(OpId::mul, save_inputs({0, 1}), [](const BackwardArgs& a) -> Grads {
    return {a.needs_grad(0) ? a.grad() * a.input(1) : Tensor(),
            a.needs_grad(1) ? a.grad() * a.input(0) : Tensor()};
  });
  // div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode=None) -> Tensor
  //   self: grad / other              other: -grad * self / other^2
  //   with a rounding mode the result is piecewise constant: zeros
  m.def(OpId::div, save_inputs({0, 1}), [](const BackwardArgs& a) -> Grads {
    if (a.p.mode != 0) {
      return {a.needs_grad(0) ? zeros_like(a.grad()) : Tensor(),
              a.needs_grad(1) ? zeros_like(a.grad()) : Tensor()};
    }
    const Tensor& self = a.input(0);
    const Tensor& other = a.input(1);
    return {a.needs_grad(0) ? a.grad() / other : Tensor(),
            a.needs_grad(1) ? -a.grad() * ((self / other) / other) : Tensor()};
  });
  // remainder.Tensor(Tensor self, Tensor other) -> Tensor
  //   self: grad                      other: -grad * self.div(other, rounding_mode="floor")
  m.def(OpId::remainder, save_inputs({0, 1}), [](const BackwardArgs& a) -> Grads {
    return {a.grad(),
            a.needs_grad(1) ? -a.grad() * div(a.input(0), a.input(1), "floor") : Tensor()};
  });
  // pow.Tensor_Tensor(Tensor self, Tensor exponent) -> Tensor
  //   self: where(eq(exponent, 0), 0, grad * exponent * self^(exponent - 1))
  //   exponent: grad * where(self == 0 & exponent >= 0, 0, result * log(self))
  m.def(OpId::pow, save_inputs({0, 1}) | save_output(), [](const BackwardArgs& a) -> Grads {
    const Tensor& self = a.input(0);
    const Tensor& exponent = a.input(1);
    Tensor gself, gexp;
    if (a.needs_grad(0)) {
      gself = where(eq(exponent, 0), 0, a.grad() * exponent * pow(self, exponent - 1));
    }
    if (a.needs_grad(1)) {
      const Tensor at_zero = logical_and(eq(self, 0), ge(exponent, 0));
      gexp = a.grad() * where(at_zero, 0, a.output() * log(self));
    }
    return {gself, gexp};
  });
  // maximum(Tensor self, Tensor other) -> Tensor
  //   self: where(self == other, grad / 2, grad).masked_fill(self < other, 0)
  //   other: where(self == other, grad / 2, grad).masked_fill(self > other, 0)
  m.def(OpId::maximum, save_inputs({0, 1}), [](const BackwardArgs& a) -> Grads {
    const Tensor& self = a.input(0);
    const Tensor& other = a.input(1);
    const Tensor shared = where(eq(self, other), a.grad() / 2, a.grad());
    return {a.needs_grad(0) ? shared.masked_fill(lt(self, other), 0) : Tensor(),
            a.needs_grad(1) ? shared.masked_fill(gt(self, other), 0) : Tensor()};
  });
  // minimum(Tensor self, Tensor other) -> Tensor
  //   self: where(self == other, grad / 2, grad).masked_fill(self > other, 0)
  //   other: where(self == other, grad / 2, grad).masked_fill(self < other, 0)
  m.def(OpId::minimum, save_inputs({0, 1}), [](const BackwardArgs& a) -> Grads {
    const Tensor& self = a.input(0);
    const Tensor& other = a.input(1);
    const Tensor shared = where(eq(self, other), a.grad() / 2, a.grad());
    return {a.needs_grad(0) ? shared.masked_fill(gt(self, other), 0) : Tensor(),
            a.needs_grad(1) ? shared.masked_fill(lt(self, other), 0) : Tensor()};
  });
  // atan2(Tensor self, Tensor other) -> Tensor
  //   self: grad * other / (self^2 + other^2)      other: grad * -self / (self^2 + other^2)
  m.def(OpId::atan2, save_inputs({0, 1}), [](const BackwardArgs& a) -> Grads {
    const Tensor& self = a.input(0);
    const Tensor& other = a.input(1);
    const Tensor scale = a.grad() / (self * self + other * other);
    return {a.needs_grad(0) ? scale * other : Tensor(), a.needs_grad(1) ? scale * -self : Tensor()};
  });
}

}  // namespace ts::autograd
