// aten kernels for batch_norm, group_norm and embedding (issue 16; lib/src/ops/norm.cpp and
// embedding.cpp give each op's inputs, outputs and struct). ATen has no out= forms of these:
// results are copied into the outputs.
#include <ATen/core/Tensor.h>
#include <ATen/ops/batch_norm.h>
#include <ATen/ops/embedding.h>
#include <ATen/ops/group_norm.h>

#include "aten_wrap.h"
#include "touchstone/kernel_family.h"

namespace ts::aten {
namespace {

// One branch per NormStats and Embedding kernel op of op_list.def (registered below).
template <OpId op>
void norm_kernel(const KernelCall& c) {
  if constexpr (op == OpId::batch_norm) {
    // ATen updates the running statistics in place: it gets copies, which become outputs 1 and
    // 2 (Note [Running statistics] in lib/src/ops/norm.cpp).
    const BatchNormParams& params = c.params<BatchNormParams>();
    const bool update = c.outputs.size() == 3;
    at::Tensor rm = input(c, 3), rv = input(c, 4);
    if (update) {
      rm = rm.clone();
      rv = rv.clone();
    }
    write(c, c.p.compute_dtype, [&](at::Tensor& out) {
      out.copy_(at::batch_norm(input(c, 0), input(c, 1), input(c, 2), rm, rv, params.training,
                               params.momentum, params.eps, /*cudnn_enabled=*/false));
    });
    if (update) {
      write(
          c, c.p.compute_dtype, [&](at::Tensor& out) { out.copy_(rm.view(out.sizes())); }, 1);
      write(
          c, c.p.compute_dtype, [&](at::Tensor& out) { out.copy_(rv.view(out.sizes())); }, 2);
    }
  } else if constexpr (op == OpId::group_norm) {
    const GroupNormParams& params = c.params<GroupNormParams>();
    write(c, c.p.compute_dtype, [&](at::Tensor& out) {
      out.copy_(at::group_norm(input(c, 0), params.num_groups, input(c, 1), input(c, 2), params.eps,
                               /*cudnn_enabled=*/false));
    });
  } else if constexpr (op == OpId::embedding) {
    const EmbeddingParams& params = c.params<EmbeddingParams>();
    write(c, c.p.compute_dtype, [&](at::Tensor& out) {
      out.copy_(at::embedding(input(c, 0), wrap(c.inputs[1]), params.padding_idx,
                              params.scale_grad_by_freq, /*sparse=*/false));
    });
  } else {
    static_assert(kMissingKernel<op>, "a normalization or embedding op without its aten kernel");
  }
}

// ATen 1.13's CPU batch_norm and group_norm lack float16 (as its layer_norm): the set registers
// none, and conformance reports "no kernel" (the known difference of every such op).
DTypeSet norm_dtypes(OpId op) {
  const DTypeSet declared = op_info(op).dtypes;
  return op == OpId::embedding ? declared : declared - DTypeSet{kHalf};
}

}  // namespace

void register_norm(KernelRegistrar& m) {
  for_each_kernel_op<OpSignature::NormStats, OpSignature::Embedding>(
      [&](auto op) { m.impl(op, kCPU, norm_dtypes(op), guarded<norm_kernel<op>>); });
}

}  // namespace ts::aten
