// aten kernels for index_select, gather, scatter_add and cat (lib/src/ops/index.cpp). Index
// values were checked by meta; DimParams::dim is the wrapped dim.
#include <ATen/core/Tensor.h>
#include <ATen/ops/cat.h>
#include <ATen/ops/gather.h>
#include <ATen/ops/index_select.h>
#include <ATen/ops/scatter_add.h>
#include <vector>

#include "aten_wrap.h"
#include "touchstone/kernel_family.h"

namespace ts::aten {
namespace {

// One branch per Kernel op of signature classes Index and Join (Note [Kernel families]).
// Inputs: {self, index}; scatter_add {self, index, src} (in place the output is self); cat the
// tensors that take part (none when all were legacy empty: nothing to write).
template <OpId op>
void index_kernel(const KernelCall& c) {
  const int64_t dim = c.params<DimParams>().dim;
  if (op == OpId::cat && c.inputs.empty()) return;
  std::vector<at::Tensor> in;
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    in.push_back(op == OpId::cat ? input(c, i) : wrap(c.inputs[i]));  // cat converts
  }
  write(c, c.p.compute_dtype, [&](at::Tensor& out) {
    if constexpr (op == OpId::index_select) {
      at::index_select_out(out, in[0], dim, in[1]);
    } else if constexpr (op == OpId::gather) {
      at::gather_out(out, in[0], dim, in[1]);
    } else if constexpr (op == OpId::scatter_add) {
      if (c.kind == CallKind::InPlace) {
        out.scatter_add_(dim, in[1], in[2]);
      } else {
        at::scatter_add_out(out, in[0], dim, in[1], in[2]);
      }
    } else if constexpr (op == OpId::cat) {
      at::cat_out(out, in, dim);
    } else {
      static_assert(kMissingKernel<op>, "aten index: an Index or Join op without its branch");
    }
  });
}

}  // namespace

void register_index(KernelRegistrar& m) {
  for_each_kernel_op<OpSignature::Index, OpSignature::Join>(
      [&](auto op) { m.impl(op, kCPU, guarded<index_kernel<op>>); });
}

}  // namespace ts::aten
