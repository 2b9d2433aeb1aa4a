// aten kernels for copy_ and fill_ (lib/src/ops/copy.cpp): the output is self, of the compute
// dtype; copy_'s one input is src expanded to self's shape, in its own dtype.
#include <ATen/core/Tensor.h>

#include "aten_wrap.h"
#include "touchstone/kernel_family.h"

namespace ts::aten {
namespace {

// One branch per Kernel op of signature class Copy (Note [Kernel families]). fill_'s value was
// checked by meta to fit self's dtype.
template <OpId op>
void copy_kernel(const KernelCall& c) {
  write(c, c.p.compute_dtype, [&](at::Tensor& out) {
    if constexpr (op == OpId::copy_) {
      out.copy_(wrap(c.inputs[0]));
    } else if constexpr (op == OpId::fill_) {
      out.fill_(to_aten(c.params<ValueParams>().value));
    } else {
      static_assert(kMissingKernel<op>, "aten copy: a Copy op without its branch");
    }
  });
}

}  // namespace

void register_copy(KernelRegistrar& m) {
  for_each_kernel_op<OpSignature::Copy>(
      [&](auto op) { m.impl(op, kCPU, guarded<copy_kernel<op>>); });
}

}  // namespace ts::aten
