// Derivatives of the nn family (lib/src/ops/nn.cpp): softmax and log_softmax (inputs {self},
// p.dim), layer_norm ({input, weight, bias}, p.dims = the normalized dims, p.d0 = eps),
// nll_loss ({self, target, weight}, p.i0 = reduction, p.i1 = ignore_index, p.dim = the class
// dim) and mse_loss ({self, target} broadcast, p.i0 = reduction). cross_entropy, linear and
// dropout are composites. See Note [Adding a derivative].
#include "derivatives.h"
#include "touchstone/ops.h"

namespace ts::autograd {
namespace {

constexpr int64_t kMean = static_cast<int64_t>(Reduction::Mean);

// The dims of x before its normalized (trailing) ones.
DimVector batch_dims(const BackwardArgs& a) {
  DimVector dims;
  for (int64_t d = 0; d < a.p.dims[0]; ++d) dims.push_back(d);
  return dims;
}

Tensor sum_over(const Tensor& t, const DimVector& dims) {
  return dims.empty() ? t : t.sum(dims);
}

}  // namespace

TS_REGISTER_DERIVATIVES(nn) {
  // softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor
  //   self: result * (grad - (grad * result).sum(dim, true))
  m.def(OpId::softmax, save_output(), [](const BackwardArgs& a) -> Grads {
    const Tensor& y = a.output();
    return {y * (a.grad() - (a.grad() * y).sum({a.p.dim}, /*keepdim=*/true))};
  });
  // log_softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor
  //   self: grad - exp(result) * grad.sum(dim, true)
  m.def(OpId::log_softmax, save_output(), [](const BackwardArgs& a) -> Grads {
    return {a.grad() - a.output().exp() * a.grad().sum({a.p.dim}, /*keepdim=*/true)};
  });
  // layer_norm(Tensor input, int[] normalized_shape, Tensor? weight=None, Tensor? bias=None,
  //            float eps=1e-05) -> Tensor
  //   with xhat = (x - mean) * rstd over the normalized dims and gw = grad * weight:
  //   input: rstd * (gw - mean(gw) - xhat * mean(gw * xhat))
  //   weight: (grad * xhat) summed over the batch dims     bias: grad summed over the batch dims
  m.def(OpId::layer_norm, save_inputs({0, 1}), [](const BackwardArgs& a) -> Grads {
    const Tensor& x = a.input(0);
    const Tensor& w = a.input(1);
    const Tensor& g = a.grad();
    const DimVector& dims = a.p.dims;
    const Tensor xc = x - x.mean(dims, true);
    const Tensor rstd = ((xc * xc).mean(dims, true) + a.p.d0).rsqrt();
    const Tensor xhat = xc * rstd;
    Tensor gx;
    if (a.needs_grad(0)) {
      const Tensor gw = w.defined() ? g * w : g;
      gx = rstd * (gw - gw.mean(dims, true) - xhat * (gw * xhat).mean(dims, true));
    }
    const DimVector batch = batch_dims(a);
    return {gx, a.needs_grad(1) ? sum_over(g * xhat, batch) : Tensor(),
            a.needs_grad(2) ? sum_over(g, batch) : Tensor()};
  });
  // nll_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean,
  //          int ignore_index=-100) -> Tensor
  //   self: -weight[target] * grad at each target class (divided by the total weight for
  //         Mean), 0 for ignored targets      target: non-differentiable
  //   weight: not implemented (as in ATen)
  m.def(OpId::nll_loss, save_inputs({1, 2}), [](const BackwardArgs& a) -> Grads {
    if (a.needs_grad(2)) throw_not_implemented("nll_loss", "weight");
    const Tensor& g = a.grad();
    const Tensor t = a.input(1).to(kLong);
    const Tensor valid = ne(t, a.p.i1);
    const Tensor t_safe = where(valid, t, 0);
    Tensor w = a.input(2).defined()
                   ? a.input(2).index_select(0, t_safe.reshape({-1})).reshape(t.sizes())
                   : ones(t.sizes(), g.options());
    w = where(valid, w, 0);
    const Tensor coef = -(a.p.i0 == kMean ? w * (g / w.sum()) : w * g);
    const int64_t dim = a.p.dim;
    return {zeros(a.input_sizes(0), g.options())
                .scatter_add(dim, t_safe.unsqueeze(dim), coef.unsqueeze(dim)),
            Tensor(), Tensor()};
  });
  // mse_loss(Tensor self, Tensor target, int reduction=Mean) -> Tensor
  //   self: 2 * (self - target) * grad (/ numel for Mean)     target: the negation
  m.def(OpId::mse_loss, save_inputs({0, 1}), [](const BackwardArgs& a) -> Grads {
    Tensor g = (a.input(0) - a.input(1)) * a.grad() * 2;
    if (a.p.i0 == kMean) g = g / static_cast<double>(a.input(0).numel());
    return {a.needs_grad(0) ? g : Tensor(), a.needs_grad(1) ? -g : Tensor()};
  });
}

}  // namespace ts::autograd
