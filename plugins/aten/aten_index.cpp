// aten kernels for index_select, gather, scatter_add and cat (lib/src/ops/index.cpp). Index
// values were checked by meta; p.dim is the wrapped dim.
#include <ATen/core/Tensor.h>
#include <ATen/ops/cat.h>
#include <ATen/ops/gather.h>
#include <ATen/ops/index_select.h>
#include <ATen/ops/scatter_add.h>
#include <vector>

#include "aten_wrap.h"

namespace ts::aten {
namespace {

// inputs {self, index}.
void index_select_kernel(const KernelCall& c) {
  write(c, c.p.compute_dtype, [&](at::Tensor& out) {
    at::index_select_out(out, wrap(c.inputs[0]), c.p.dim, wrap(c.inputs[1]));
  });
}

void gather_kernel(const KernelCall& c) {
  write(c, c.p.compute_dtype, [&](at::Tensor& out) {
    at::gather_out(out, wrap(c.inputs[0]), c.p.dim, wrap(c.inputs[1]));
  });
}

// inputs {self, index, src}; in place the output is self.
void scatter_add_kernel(const KernelCall& c) {
  write(c, c.p.compute_dtype, [&](at::Tensor& out) {
    if (c.kind == CallKind::InPlace) {
      out.scatter_add_(c.p.dim, wrap(c.inputs[1]), wrap(c.inputs[2]));
    } else {
      at::scatter_add_out(out, wrap(c.inputs[0]), c.p.dim, wrap(c.inputs[1]), wrap(c.inputs[2]));
    }
  });
}

// inputs: the tensors that take part (none when all were legacy empty: nothing to write).
void cat_kernel(const KernelCall& c) {
  if (c.inputs.empty()) return;
  std::vector<at::Tensor> tensors;
  for (size_t i = 0; i < c.inputs.size(); ++i) tensors.push_back(input(c, i));
  write(c, c.p.compute_dtype, [&](at::Tensor& out) { at::cat_out(out, tensors, c.p.dim); });
}

}  // namespace

void register_index(KernelRegistrar& m) {
  m.impl(OpId::index_select, kCPU, kAll, guarded<index_select_kernel>);
  m.impl(OpId::gather, kCPU, kAll, guarded<gather_kernel>);
  m.impl(OpId::scatter_add, kCPU, kAll, guarded<scatter_add_kernel>);
  m.impl(OpId::cat, kCPU, kAll, guarded<cat_kernel>);
}

}  // namespace ts::aten
