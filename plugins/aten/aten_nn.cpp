// aten kernels for softmax, log_softmax, layer_norm, nll_loss and mse_loss (lib/src/ops/nn.cpp).
// p.compute_dtype is the result dtype; the input is converted to it first.
#include <ATen/core/Tensor.h>
#include <ATen/ops/layer_norm.h>
#include <ATen/ops/log_softmax.h>
#include <ATen/ops/mse_loss.h>
#include <ATen/ops/nll_loss_nd.h>
#include <ATen/ops/softmax.h>
#include <vector>

#include "aten_wrap.h"

namespace ts::aten {
namespace {

// dim = the wrapped dim (0 for a 0-dim input, which ATen accepts too).
void softmax_kernel(const KernelCall& c) {
  write(c, c.p.compute_dtype, [&](at::Tensor& out) {
    if (c.op == OpId::log_softmax) {
      at::log_softmax_out(out, input(c, 0), c.p.dim);
    } else {
      at::softmax_out(out, input(c, 0), c.p.dim);
    }
  });
}

// inputs {input, weight, bias} (weight, bias may be undefined); dims = the normalized dims;
// d0 = eps. ATen has no out= form of layer_norm, so the result is copied into the output.
void layer_norm_kernel(const KernelCall& c) {
  const Tensor& x = c.inputs[0];
  std::vector<int64_t> shape;
  for (int64_t d : c.p.dims) shape.push_back(x.size(d));
  write(c, c.p.compute_dtype, [&](at::Tensor& out) {
    out.copy_(at::layer_norm(input(c, 0), shape, input(c, 1), input(c, 2), c.p.d0));
  });
}

// inputs {self, target, weight}; i0 = reduction; i1 = ignore_index. nll_loss_nd is what
// torch.nn.functional.nll_loss calls: ATen's nll_loss (and its out= form) takes 1-D or 2-D only.
void nll_loss_kernel(const KernelCall& c) {
  write(c, c.p.compute_dtype, [&](at::Tensor& out) {
    out.copy_(at::nll_loss_nd(input(c, 0), wrap(c.inputs[1]), input(c, 2), c.p.i0, c.p.i1));
  });
}

// inputs {self, target} expanded to one shape; i0 = reduction. ATen 1.13's mse_loss_out resizes
// a 0-dim out for the reductions (through mean_out over no dims), so the functional form is used.
void mse_loss_kernel(const KernelCall& c) {
  write(c, c.p.compute_dtype,
        [&](at::Tensor& out) { out.copy_(at::mse_loss(input(c, 0), input(c, 1), c.p.i0)); });
}

}  // namespace

void register_nn(KernelRegistrar& m) {
  m.impl(OpId::softmax, kCPU, kFloatingNoHalf, guarded<softmax_kernel>);
  m.impl(OpId::log_softmax, kCPU, kFloatingNoHalf, guarded<softmax_kernel>);
  m.impl(OpId::layer_norm, kCPU, kFloatingNoHalf, guarded<layer_norm_kernel>);
  m.impl(OpId::nll_loss, kCPU, kFloatingNoHalf, guarded<nll_loss_kernel>);
  // ATen 1.13's CPU mse_loss has float16 but not bfloat16.
  m.impl(OpId::mse_loss, kCPU, kFloating - DTypeSet{kBFloat16}, guarded<mse_loss_kernel>);
}

}  // namespace ts::aten
