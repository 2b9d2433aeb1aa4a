// aten kernels for copy_ and fill_ (lib/src/ops/copy.cpp): the output is self, of the compute
// dtype; copy_'s one input is src expanded to self's shape, in its own dtype.
#include <ATen/core/Tensor.h>

#include "aten_wrap.h"
#include "touchstone/kernel_family.h"

namespace ts::aten {
namespace {

// One kernel per Kernel op of signature class Copy (Note [Kernel families]).
template <OpId op>
void kernel(const KernelCall& c) = delete;

template <>
void kernel<OpId::copy_>(const KernelCall& c) {
  write(c, c.p.compute_dtype, [&](at::Tensor& out) { out.copy_(wrap(c.inputs[0])); });
}

// ValueParams: the value, checked by meta to fit self's dtype.
template <>
void kernel<OpId::fill_>(const KernelCall& c) {
  const at::Scalar value = to_aten(c.params<ValueParams>().value);
  write(c, c.p.compute_dtype, [&](at::Tensor& out) { out.fill_(value); });
}

}  // namespace

void register_copy(KernelRegistrar& m) {
  for_each_kernel_op<OpSignature::Copy>([&](auto op) { m.impl(op, kCPU, guarded<kernel<op>>); });
}

}  // namespace ts::aten
