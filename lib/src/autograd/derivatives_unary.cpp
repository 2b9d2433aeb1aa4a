// Derivatives of the unary family (lib/src/ops/unary.cpp). Every call has inputs {self}, except
// clamp: {self, min?, max?} with the bounds as wrapped numbers (p.mode bit 0 = has min, bit 1 =
// has max). See Note [Adding a derivative]; non-differentiable points follow
// touchstone/nondiff_points.def.
#include <cmath>
#include <numbers>

#include "derivatives.h"
#include "touchstone/ops.h"

namespace ts::autograd {
namespace {

// The gradient of an op that is piecewise constant: zero everywhere (as ATen's zeros_like).
Grads zero_grad(const BackwardArgs& a) {
  return {zeros_like(a.grad())};
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
  // log(Tensor self) -> Tensor                     self: grad / self
  m.def(OpId::log, save_inputs({0}),
        [](const BackwardArgs& a) -> Grads { return {a.grad() / a.input(0)}; });
  // log1p(Tensor self) -> Tensor                   self: grad / (self + 1)
  m.def(OpId::log1p, save_inputs({0}),
        [](const BackwardArgs& a) -> Grads { return {a.grad() / (a.input(0) + 1)}; });
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
  // tanh(Tensor self) -> Tensor                    self: grad * (1 - result * result)
  m.def(OpId::tanh, save_output(), [](const BackwardArgs& a) -> Grads {
    return {a.grad() * rsub(a.output() * a.output(), 1)};
  });
  // sigmoid(Tensor self) -> Tensor                 self: grad * result * (1 - result)
  m.def(OpId::sigmoid, save_output(), [](const BackwardArgs& a) -> Grads {
    return {a.grad() * a.output() * rsub(a.output(), 1)};
  });
  // relu(Tensor self) -> Tensor                    self: grad where result > 0, else 0
  m.def(OpId::relu, save_output(),
        [](const BackwardArgs& a) -> Grads { return {where(gt(a.output(), 0), a.grad(), 0)}; });
  // gelu(Tensor self, *, str approximate='none') -> Tensor   (p.mode: 0 none, 1 tanh)
  //   none: grad * (Phi(x) + x * phi(x));  tanh: ATen's gelu_backward for the tanh form
  m.def(OpId::gelu, save_inputs({0}), [](const BackwardArgs& a) -> Grads {
    const Tensor& x = a.input(0);
    if (a.p.mode == 0) {
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
  // silu(Tensor self) -> Tensor                    self: grad * s * (1 + x * (1 - s)), s =
  // sigmoid(x)
  m.def(OpId::silu, save_inputs({0}), [](const BackwardArgs& a) -> Grads {
    const Tensor& x = a.input(0);
    const Tensor s = sigmoid(x);
    return {a.grad() * s * (x * rsub(s, 1) + 1)};
  });
  // erf(Tensor self) -> Tensor                     self: 2 / sqrt(pi) * exp(-self^2) * grad
  m.def(OpId::erf, save_inputs({0}), [](const BackwardArgs& a) -> Grads {
    const Tensor& x = a.input(0);
    return {a.grad() * exp(-(x * x)) * (2 / std::sqrt(pi))};
  });
  // floor, ceil, round, trunc (Tensor self) -> Tensor   self: zeros_like(grad)
  m.def(OpId::floor, save_nothing(), zero_grad);
  m.def(OpId::ceil, save_nothing(), zero_grad);
  m.def(OpId::round, save_nothing(), zero_grad);
  m.def(OpId::trunc, save_nothing(), zero_grad);
  // clamp(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor
  //   self: where((self >= min) & (self <= max), grad, 0)   (a bound passes the gradient)
  m.def(OpId::clamp, save_inputs({0, 1, 2}), [](const BackwardArgs& a) -> Grads {
    const Tensor& x = a.input(0);
    Tensor mask;
    size_t next = 1;
    if (a.p.mode & 1) mask = ge(x, a.input(next++));
    if (a.p.mode & 2) {
      const Tensor below = le(x, a.input(next));
      mask = mask.defined() ? logical_and(mask, below) : below;
    }
    return {where(mask, a.grad(), 0)};
  });
}

}  // namespace ts::autograd
