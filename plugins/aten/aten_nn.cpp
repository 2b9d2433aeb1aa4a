// aten kernels for softmax, log_softmax, layer_norm, nll_loss and mse_loss (lib/src/ops/nn.cpp,
// whose Params block gives each op's inputs and struct). p.compute_dtype is the result dtype;
// the input is converted to it first.
#include <ATen/core/Tensor.h>
#include <ATen/ops/layer_norm.h>
#include <ATen/ops/log_softmax.h>
#include <ATen/ops/mse_loss.h>
#include <ATen/ops/nll_loss_nd.h>
#include <ATen/ops/softmax.h>
#include <vector>

#include "aten_wrap.h"
#include "touchstone/kernel_family.h"

namespace ts::aten {
namespace {

// One branch per Softmax, Norm and Loss kernel op of op_list.def (registered below).
template <OpId op>
void nn_kernel(const KernelCall& c) {
  if constexpr (op == OpId::softmax || op == OpId::log_softmax) {
    // dim is 0 for a 0-dim input, which ATen accepts too.
    const int64_t dim = c.params<DimParams>().dim;
    write(c, c.p.compute_dtype, [&](at::Tensor& out) {
      op == OpId::log_softmax ? at::log_softmax_out(out, input(c, 0), dim)
                              : at::softmax_out(out, input(c, 0), dim);
    });
  } else if constexpr (op == OpId::layer_norm) {
    // ATen has no out= form of layer_norm, so the result is copied into the output.
    const LayerNormParams& params = c.params<LayerNormParams>();
    std::vector<int64_t> shape;
    for (int64_t d : params.dims) shape.push_back(c.inputs[0].size(d));
    write(c, c.p.compute_dtype, [&](at::Tensor& out) {
      out.copy_(at::layer_norm(input(c, 0), shape, input(c, 1), input(c, 2), params.eps));
    });
  } else if constexpr (op == OpId::nll_loss) {
    // nll_loss_nd is what torch.nn.functional.nll_loss calls: ATen's nll_loss (and its out=
    // form) takes 1-D or 2-D only.
    const NllLossParams& params = c.params<NllLossParams>();
    const auto reduction = static_cast<int64_t>(params.reduction);
    write(c, c.p.compute_dtype, [&](at::Tensor& out) {
      out.copy_(at::nll_loss_nd(input(c, 0), wrap(c.inputs[1]), input(c, 2), reduction,
                                params.ignore_index));
    });
  } else if constexpr (op == OpId::mse_loss) {
    // ATen 1.13's mse_loss_out resizes a 0-dim out for the reductions (through mean_out over no
    // dims), so the functional form is used.
    const auto reduction = static_cast<int64_t>(c.params<LossParams>().reduction);
    write(c, c.p.compute_dtype,
          [&](at::Tensor& out) { out.copy_(at::mse_loss(input(c, 0), input(c, 1), reduction)); });
  } else {
    static_assert(kMissingKernel<op>, "an nn op without its aten kernel");
  }
}

// ATen 1.13's CPU nn kernels lack float16, and its mse_loss bfloat16 instead.
DTypeSet nn_dtypes(OpId op) {
  const DTypeSet declared = op_info(op).dtypes;
  return declared - (op == OpId::mse_loss ? DTypeSet{kBFloat16} : DTypeSet{kHalf});
}

}  // namespace

void register_nn(KernelRegistrar& m) {
  for_each_kernel_op<OpSignature::Softmax, OpSignature::Norm, OpSignature::Loss>(
      [&](auto op) { m.impl(op, kCPU, nn_dtypes(op), guarded<nn_kernel<op>>); });
}

}  // namespace ts::aten
