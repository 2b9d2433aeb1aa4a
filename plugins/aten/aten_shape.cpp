// aten kernels for flip, roll, tril and triu (lib/src/ops/shape.cpp). The output has self's
// dtype; roll's shifts arrive wrapped into [0, size), one per dim (never the no-dims form).
#include <ATen/core/Tensor.h>
#include <ATen/ops/flip.h>
#include <ATen/ops/roll.h>
#include <ATen/ops/tril.h>
#include <ATen/ops/triu.h>
#include <vector>

#include "aten_wrap.h"
#include "touchstone/kernel_family.h"

namespace ts::aten {
namespace {

std::vector<int64_t> to_vector(IntArrayRef v) {
  return std::vector<int64_t>(v.begin(), v.end());
}

// Note [ATen 1.13 tril of strided batches]
// libtorch 1.13's CPU tril/triu (apply_triu_tril) walk more than one batch dim through one batch
// stride: with 4-D operands whose batch dims do not collapse (a step-2 slice in place, a
// transposed out=) they write past the tensor ("a write at byte 0 past the end of a 192-byte
// block", then "malloc_consolidate(): unaligned fastbin chunk detected"; repro: touchstone
// conform --kernels aten --ops tril --case batch_neg/out_transposed/out/forward --isolate).
// Current PyTorch's kernels index each element; the peer runs ATen on contiguous copies there.

// One branch per Kernel op of signature class Shape (Note [Kernel families]).
template <OpId op>
void kernel(const KernelCall& c) {
  const at::Tensor self = wrap(c.inputs[0]);
  write(c, c.p.compute_dtype, [&](at::Tensor& out) {
    if constexpr (op == OpId::flip) {
      at::flip_out(out, self, to_vector(c.params<FlipParams>().dims));
    } else if constexpr (op == OpId::roll) {
      const RollParams& rp = c.params<RollParams>();
      at::roll_out(out, self, to_vector(rp.shifts), to_vector(rp.dims));
    } else if constexpr (op == OpId::tril || op == OpId::triu) {
      const int64_t diagonal = c.params<TriParams>().diagonal;
      const bool lower = op == OpId::tril;
      if (self.dim() > 3 && !(self.is_contiguous() && out.is_contiguous())) {
        // Note [ATen 1.13 tril of strided batches]: on contiguous copies, then copied back.
        const at::Tensor x = self.contiguous();
        out.copy_(lower ? at::tril(x, diagonal) : at::triu(x, diagonal));
      } else if (c.kind == CallKind::InPlace) {
        lower ? out.tril_(diagonal) : out.triu_(diagonal);
      } else {
        lower ? at::tril_out(out, self, diagonal) : at::triu_out(out, self, diagonal);
      }
    } else {
      static_assert(kMissingKernel<op>, "aten shape: a Shape op without its branch");
    }
  });
}

}  // namespace

void register_shape(KernelRegistrar& m) {
  for_each_kernel_op<OpSignature::Shape>([&](auto op) { m.impl(op, kCPU, guarded<kernel<op>>); });
}

}  // namespace ts::aten
