// Derivatives of the reduce family (lib/src/ops/reduce.cpp). Every call has inputs {self}; the
// reduced dims are in p.dims (wrapped, sorted; empty for a 0-dim input), p.keepdim says
// whether the outputs kept them, p.dim is the single dim of prod/max/min(dim)/cumsum. See
// Note [Adding a derivative] and Note [Reduction outputs].
#include <cmath>

#include "derivatives.h"
#include "touchstone/ops.h"

namespace ts::autograd {
namespace {

// A reduced tensor with its reduced dims put back as size 1 (so it broadcasts to the input).
Tensor restore(Tensor t, const BackwardArgs& a) {
  if (a.p.keepdim) return t;
  for (int64_t d : a.p.dims) t = t.unsqueeze(d);
  return t;
}

// How many input elements each output element reduces.
int64_t reduced_count(const BackwardArgs& a) {
  int64_t n = 1;
  for (int64_t d : a.p.dims) n *= a.input_sizes(0)[static_cast<size_t>(d)];
  return n;
}

// The gradient of a reduction that picks the extreme value: split evenly among the elements
// equal to it (amax, amin, max(), min(), as ATen's evenly_distribute_backward).
Grads evenly_to_ties(const BackwardArgs& a) {
  const Tensor mask = eq(a.input(0), restore(a.output(), a));
  const Tensor count = mask.sum(a.p.dims, /*keepdim=*/true);
  return {restore(a.grad(), a) * mask / count};
}

// The gradient of var for grad `g` (already restored): 2 / (N - correction) * g * (x - mean).
Tensor var_backward(const Tensor& g, const BackwardArgs& a) {
  const Tensor& x = a.input(0);
  const double n = static_cast<double>(reduced_count(a));
  return g * (x - x.mean(a.p.dims, /*keepdim=*/true)) * (2.0 / (n - a.p.d0));
}

// prod over one dim d of x, for grad `g` with d kept: the product of the others, written so
// that no zero is ever divided by (the zero count picks the branch).
Tensor prod_backward_dim(const Tensor& g, const Tensor& x, int64_t d) {
  const Tensor zero = eq(x, 0);
  const Tensor x_safe = where(zero, 1, x);
  const Tensor nonzero_prod = x_safe.prod(d, /*keepdim=*/true);
  const Tensor zeros_in_row = zero.sum({d}, /*keepdim=*/true);
  const Tensor at_zero = where(eq(zeros_in_row, 1), nonzero_prod, 0);
  const Tensor elsewhere = where(eq(zeros_in_row, 0), nonzero_prod / x_safe, 0);
  return g * where(zero, at_zero, elsewhere);
}

}  // namespace

TS_REGISTER_DERIVATIVES(reduce) {
  // sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None)
  //   self: grad.expand(self.sizes()) (reduced dims restored)
  m.def(OpId::sum, save_nothing(), [](const BackwardArgs& a) -> Grads {
    return {restore(a.grad(), a).expand(a.input_sizes(0))};
  });
  // mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None)
  //   self: grad.expand(self.sizes()) / N
  m.def(OpId::mean, save_nothing(), [](const BackwardArgs& a) -> Grads {
    return {restore(a.grad(), a).expand(a.input_sizes(0)) / static_cast<double>(reduced_count(a))};
  });
  // prod.dim_int(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None)
  //   self: grad * (product of the other elements); prod() over all dims flattens first
  m.def(OpId::prod, save_inputs({0}), [](const BackwardArgs& a) -> Grads {
    const Tensor& x = a.input(0);
    if (a.p.dims.empty()) return {a.grad()};
    if (a.p.dims.size() > 1) {  // prod() over several dims: as a 1-D product
      return {prod_backward_dim(a.grad().reshape({1}), x.reshape({-1}), 0).reshape(x.sizes())};
    }
    return {prod_backward_dim(restore(a.grad(), a), x, a.p.dims[0])};
  });
  // amax(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor
  // amin(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor
  //   self: grad split evenly among the elements equal to the result
  m.def(OpId::amax, save_inputs({0}) | save_output(), evenly_to_ties);
  m.def(OpId::amin, save_inputs({0}) | save_output(), evenly_to_ties);
  // max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
  // min.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
  //   self: grad to the returned index (value_selecting_reduction_backward); max() and min()
  //   over all elements (values only) split it evenly among ties, as amax.
  for (OpId op : {OpId::max, OpId::min}) {
    m.def(op, save_inputs({0}) | save_output(0) | save_output(1),
          [](const BackwardArgs& a) -> Grads {
            if (a.p.dims.empty()) return {a.grad()};             // a 0-dim input
            if (a.num_outputs() == 1) return evenly_to_ties(a);  // max(), min()
            return {zeros(a.input_sizes(0), a.grad().options())
                        .scatter_add(a.p.dim, restore(a.output(1), a), restore(a.grad(), a))};
          });
  }
  // var.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False)
  //   self: 2 / (N - correction) * grad * (self - self.mean(dim, true))
  m.def(OpId::var, save_inputs({0}),
        [](const BackwardArgs& a) -> Grads { return {var_backward(restore(a.grad(), a), a)}; });
  // std.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False)
  //   self: var's gradient for grad / (2 * result), 0 where result == 0
  m.def(OpId::std, save_inputs({0}) | save_output(), [](const BackwardArgs& a) -> Grads {
    const Tensor result = restore(a.output(), a);
    const Tensor g = (restore(a.grad(), a) / (result * 2)).masked_fill(eq(result, 0), 0);
    return {var_backward(g, a)};
  });
  // norm.ScalarOpt_dim(Tensor self, Scalar? p, int[1] dim, bool keepdim=False) -> Tensor
  //   p = 1: grad * sgn(self); p = 2: self * grad / norm (0 where norm == 0);
  //   p = inf: grad * sgn(self) split evenly among the elements with |self| == norm
  m.def(OpId::norm, save_inputs({0}) | save_output(), [](const BackwardArgs& a) -> Grads {
    const Tensor& x = a.input(0);
    const Tensor g = restore(a.grad(), a);
    const Tensor norm = restore(a.output(), a);
    const double p = a.p.s0->to_double();
    if (p == 1) return {g * x.sign()};
    if (p == 2) return {x * (g / norm).masked_fill(eq(norm, 0), 0)};
    const Tensor mask = eq(x.abs(), norm);
    return {x.sign() * (g / mask.sum(a.p.dims, /*keepdim=*/true)) * mask};
  });
  // logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor
  //   self: grad * exp(self - result)
  m.def(OpId::logsumexp, save_inputs({0}) | save_output(), [](const BackwardArgs& a) -> Grads {
    return {restore(a.grad(), a) * exp(a.input(0) - restore(a.output(), a))};
  });
  // cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor
  //   self: the reversed cumsum of grad: grad.sum(dim) - grad.cumsum(dim) + grad
  m.def(OpId::cumsum, save_nothing(), [](const BackwardArgs& a) -> Grads {
    const Tensor& g = a.grad();
    if (g.dim() == 0) return {g};
    return {g.sum({a.p.dim}, /*keepdim=*/true) - g.cumsum(a.p.dim) + g};
  });
}

}  // namespace ts::autograd
