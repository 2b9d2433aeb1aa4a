// Derivatives of the index family (lib/src/ops/index.cpp). index_select and gather: inputs
// {self, index}; scatter_add: {self, index, src}; all with the wrapped dim in p.dim. cat:
// inputs = the tensors that take part (legacy empty ones left out), p.dim = the dim. stack is
// a composite of cat. See Note [Adding a derivative].
#include "derivatives.h"
#include "touchstone/ops.h"

namespace ts::autograd {

TS_REGISTER_DERIVATIVES(index) {
  // index_select(Tensor self, int dim, Tensor index) -> Tensor
  //   self: zeros_like(self).index_add_(dim, index, grad) (here: scatter_add of grad with the
  //         index broadcast along the other dims)      index: non-differentiable
  m.def(OpId::index_select, save_inputs({1}), [](const BackwardArgs& a) -> Grads {
    const Tensor& g = a.grad();
    const IntArrayRef sizes = a.input_sizes(0);
    if (sizes.empty()) return {g.reshape({})};  // a 0-dim self: index is [0]
    DimVector shape(g.dim(), 1);
    shape[static_cast<size_t>(a.p.dim)] = -1;
    const Tensor index = a.input(1).to(kLong).reshape(shape).expand(g.sizes());
    return {zeros(sizes, g.options()).scatter_add(a.p.dim, index, g), Tensor()};
  });
  // gather(Tensor self, int dim, Tensor index) -> Tensor
  //   self: zeros(self.sizes()).scatter_add(dim, index, grad)      index: non-differentiable
  m.def(OpId::gather, save_inputs({1}), [](const BackwardArgs& a) -> Grads {
    const Tensor& g = a.grad();
    return {zeros(a.input_sizes(0), g.options()).scatter_add(a.p.dim, a.input(1), g), Tensor()};
  });
  // scatter_add(Tensor self, int dim, Tensor index, Tensor src) -> Tensor
  //   self: grad    index: non-differentiable    src: grad.gather(dim, index), zero-padded to
  //   src's shape where index is smaller
  m.def(OpId::scatter_add, save_inputs({1}), [](const BackwardArgs& a) -> Grads {
    const Tensor& g = a.grad();
    Tensor gsrc;
    if (a.needs_grad(2)) {
      const Tensor& index = a.input(1);
      gsrc = g.gather(a.p.dim, index);
      const IntArrayRef src_sizes = a.input_sizes(2);
      if (gsrc.sizes() != src_sizes) {
        Tensor padded = zeros(src_sizes, g.options());
        Tensor part = padded;
        for (int64_t d = 0; d < index.dim(); ++d) part = part.narrow(d, 0, index.size(d));
        part.copy_(gsrc);
        gsrc = padded;
      }
    }
    return {g, Tensor(), gsrc};
  });
  // cat(Tensor[] tensors, int dim=0) -> Tensor
  //   tensors[i]: grad.narrow(dim, offset_i, tensors[i].size(dim))
  m.def(OpId::cat, save_nothing(), [](const BackwardArgs& a) -> Grads {
    Grads out;
    int64_t offset = 0;
    for (size_t i = 0; i < a.num_inputs(); ++i) {
      const int64_t n = a.input_sizes(i)[static_cast<size_t>(a.p.dim)];
      out.push_back(a.needs_grad(i) ? a.grad().narrow(a.p.dim, offset, n) : Tensor());
      offset += n;
    }
    return out;
  });
}

}  // namespace ts::autograd
