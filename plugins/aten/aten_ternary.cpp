// aten kernels for where, lerp, addcmul and masked_fill (lib/src/ops/ternary.cpp). Inputs arrive
// expanded to the output's shape.
#include <ATen/core/Tensor.h>
#include <ATen/ops/addcmul.h>
#include <ATen/ops/lerp.h>
#include <ATen/ops/masked_fill.h>
#include <ATen/ops/where.h>

#include "aten_wrap.h"

namespace ts::aten {
namespace {

// inputs {condition, self, other}; self and other converted to the result dtype.
void where_kernel(const KernelCall& c) {
  write(c, c.p.compute_dtype,
        [&](at::Tensor& out) { at::where_out(out, wrap(c.inputs[0]), input(c, 1), input(c, 2)); });
}

// inputs {self, end[, weight]}; LerpParams::weight is the Scalar weight when there is no weight
// tensor.
void lerp_kernel(const KernelCall& c) {
  const std::optional<Scalar>& weight = c.params<LerpParams>().weight;
  write(c, c.p.compute_dtype, [&](at::Tensor& out) {
    if (weight) {
      at::lerp_out(out, input(c, 0), input(c, 1), to_aten(*weight));
    } else {
      at::lerp_out(out, input(c, 0), input(c, 1), input(c, 2));
    }
  });
}

void addcmul_kernel(const KernelCall& c) {
  const at::Scalar value = to_aten(c.params<ValueParams>().value);
  write(c, c.p.compute_dtype, [&](at::Tensor& out) {
    at::addcmul_out(out, input(c, 0), input(c, 1), input(c, 2), value);
  });
}

// inputs {self, mask}. In place the output is self; otherwise a fresh tensor that starts as a
// copy of self.
void masked_fill_kernel(const KernelCall& c) {
  const at::Scalar value = to_aten(c.params<ValueParams>().value);
  write(c, c.p.compute_dtype, [&](at::Tensor& out) {
    if (c.kind != CallKind::InPlace) out.copy_(wrap(c.inputs[0]));
    out.masked_fill_(wrap(c.inputs[1]), value);
  });
}

}  // namespace

void register_ternary(KernelRegistrar& m) {
  m.impl(OpId::where, kCPU, guarded<where_kernel>);
  m.impl(OpId::lerp, kCPU, kFloatingNoHalf, guarded<lerp_kernel>);
  m.impl(OpId::addcmul, kCPU, kNoBool - DTypeSet{kHalf}, guarded<addcmul_kernel>);
  m.impl(OpId::masked_fill, kCPU, guarded<masked_fill_kernel>);
}

}  // namespace ts::aten
