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

// One kernel per Kernel op of signature classes Index and Join (Note [Kernel families]).
template <OpId op>
void kernel(const KernelCall& c) = delete;

// inputs {self, index}.
template <>
void kernel<OpId::index_select>(const KernelCall& c) {
  const int64_t dim = c.params<DimParams>().dim;
  write(c, c.p.compute_dtype, [&](at::Tensor& out) {
    at::index_select_out(out, wrap(c.inputs[0]), dim, wrap(c.inputs[1]));
  });
}

template <>
void kernel<OpId::gather>(const KernelCall& c) {
  const int64_t dim = c.params<DimParams>().dim;
  write(c, c.p.compute_dtype,
        [&](at::Tensor& out) { at::gather_out(out, wrap(c.inputs[0]), dim, wrap(c.inputs[1])); });
}

// inputs {self, index, src}; in place the output is self.
template <>
void kernel<OpId::scatter_add>(const KernelCall& c) {
  const int64_t dim = c.params<DimParams>().dim;
  write(c, c.p.compute_dtype, [&](at::Tensor& out) {
    if (c.kind == CallKind::InPlace) {
      out.scatter_add_(dim, wrap(c.inputs[1]), wrap(c.inputs[2]));
    } else {
      at::scatter_add_out(out, wrap(c.inputs[0]), dim, wrap(c.inputs[1]), wrap(c.inputs[2]));
    }
  });
}

// inputs: the tensors that take part (none when all were legacy empty: nothing to write).
template <>
void kernel<OpId::cat>(const KernelCall& c) {
  if (c.inputs.empty()) return;
  std::vector<at::Tensor> tensors;
  for (size_t i = 0; i < c.inputs.size(); ++i) tensors.push_back(input(c, i));
  write(c, c.p.compute_dtype,
        [&](at::Tensor& out) { at::cat_out(out, tensors, c.params<DimParams>().dim); });
}

}  // namespace

void register_index(KernelRegistrar& m) {
  for_each_kernel_op<OpSignature::Index, OpSignature::Join>(
      [&](auto op) { m.impl(op, kCPU, guarded<kernel<op>>); });
}

}  // namespace ts::aten
