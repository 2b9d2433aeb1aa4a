// aten kernels for copy_ and fill_ (lib/src/ops/copy.cpp): the output is self, of the compute
// dtype; copy_'s one input is src expanded to self's shape, in its own dtype.
#include <ATen/core/Tensor.h>

#include "aten_wrap.h"

namespace ts::aten {
namespace {

void copy_kernel(const KernelCall& c) {
  write(c, c.p.compute_dtype, [&](at::Tensor& out) { out.copy_(wrap(c.inputs[0])); });
}

// s0 = the value, checked by meta to fit self's dtype.
void fill_kernel(const KernelCall& c) {
  write(c, c.p.compute_dtype, [&](at::Tensor& out) { out.fill_(to_aten(*c.p.s0)); });
}

}  // namespace

void register_copy(KernelRegistrar& m) {
  m.impl(OpId::copy_, kCPU, kAll, guarded<copy_kernel>);
  m.impl(OpId::fill_, kCPU, kAll, guarded<fill_kernel>);
}

}  // namespace ts::aten
