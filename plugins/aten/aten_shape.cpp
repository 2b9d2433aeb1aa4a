// aten kernels for flip, roll, tril and triu (lib/src/ops/shape.cpp), repeat_interleave,
// reflection_pad and replication_pad (lib/src/ops/pad.cpp). The output has self's dtype; roll's
// shifts arrive wrapped into [0, size), one per dim (never the no-dims form); a padding kernel op
// runs ATen's per-dim form of its padding's length.
#include <ATen/core/Tensor.h>
#include <ATen/ops/flip.h>
#include <ATen/ops/reflection_pad1d.h>
#include <ATen/ops/reflection_pad2d.h>
#include <ATen/ops/reflection_pad3d.h>
#include <ATen/ops/repeat_interleave.h>
#include <ATen/ops/replication_pad1d.h>
#include <ATen/ops/replication_pad2d.h>
#include <ATen/ops/replication_pad3d.h>
#include <ATen/ops/roll.h>
#include <ATen/ops/tril.h>
#include <ATen/ops/triu.h>
#include <vector>

#include "aten_wrap.h"
#include "touchstone/kernel_family.h"

namespace ts::aten {
namespace {

// Note [ATen 1.13 tril of strided batches]
// libtorch 1.13's CPU tril/triu (apply_triu_tril) walk more than one batch dim through one batch
// stride: with 4-D operands whose batch dims do not collapse (a step-2 slice in place, a
// transposed out=) they write past the tensor ("a write at byte 0 past the end of a 192-byte
// block", then "malloc_consolidate(): unaligned fastbin chunk detected"; repro: touchstone
// conform --kernels aten --ops tril --case batch_neg/out_transposed/out/forward --isolate).
// Current PyTorch's kernels index each element; the peer runs ATen on contiguous copies there.

// One branch per Kernel op of signature class Shape (Note [Kernel families]).
template <OpId op>
void shape_kernel(const KernelCall& c) {
  const at::Tensor self = wrap(c.inputs[0]);
  write(c, c.p.compute_dtype, [&](at::Tensor& out) {
    if constexpr (op == OpId::flip) {
      at::flip_out(out, self, ints(c.params<FlipParams>().dims));
    } else if constexpr (op == OpId::roll) {
      const RollParams& rp = c.params<RollParams>();
      at::roll_out(out, self, ints(rp.shifts), ints(rp.dims));
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
    } else if constexpr (op == OpId::repeat_interleave) {
      out.copy_(at::repeat_interleave(self));
    } else if constexpr (op == OpId::reflection_pad || op == OpId::replication_pad) {
      const std::vector<int64_t> p = ints(c.params<PadParams>().padding);
      const bool reflect = op == OpId::reflection_pad;
      if (p.size() == 2) {
        reflect ? at::reflection_pad1d_out(out, self, p) : at::replication_pad1d_out(out, self, p);
      } else if (p.size() == 4) {
        reflect ? at::reflection_pad2d_out(out, self, p) : at::replication_pad2d_out(out, self, p);
      } else {
        reflect ? at::reflection_pad3d_out(out, self, p) : at::replication_pad3d_out(out, self, p);
      }
    } else {
      static_assert(kMissingKernel<op>, "aten shape: a Shape op without its branch");
    }
  });
}

}  // namespace

// Note [ATen 1.13 padding dtypes]
// libtorch 1.13's CPU reflection_pad1d/2d and replication_pad1d/2d/3d take float32 and float64
// only (reflection_pad3d float16 and bfloat16 too); current PyTorch adds bfloat16 (and float16 to
// reflection), so the peer registers float32 and float64 for both kernel ops.
void register_shape(KernelRegistrar& m) {
  for_each_kernel_op<OpSignature::Shape>([&](auto op) {
    if constexpr (op == OpId::reflection_pad || op == OpId::replication_pad) {
      m.impl(op, kCPU, DTypeSet{kFloat, kDouble}, guarded<shape_kernel<op>>);
    } else {
      m.impl(op, kCPU, guarded<shape_kernel<op>>);
    }
  });
}

}  // namespace ts::aten
