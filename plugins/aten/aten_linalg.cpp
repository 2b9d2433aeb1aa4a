// aten kernels for mm, bmm, addmm, dot, mv and outer (lib/src/ops/linalg.cpp). Operands share
// the compute dtype except outer's, which are converted to it (outer promotes like mul).
#include <ATen/core/Tensor.h>
#include <ATen/ops/addmm.h>
#include <ATen/ops/bmm.h>
#include <ATen/ops/dot.h>
#include <ATen/ops/mm.h>
#include <ATen/ops/mv.h>
#include <ATen/ops/outer.h>

#include "aten_wrap.h"

namespace ts::aten {
namespace {

#define TS_ATEN_PRODUCT(name)                                                       \
  void name##_kernel(const KernelCall& c) {                                         \
    write(c, c.p.compute_dtype,                                                     \
          [&](at::Tensor& out) { at::name##_out(out, input(c, 0), input(c, 1)); }); \
  }
TS_ATEN_PRODUCT(mm)
TS_ATEN_PRODUCT(bmm)
TS_ATEN_PRODUCT(dot)
TS_ATEN_PRODUCT(mv)
TS_ATEN_PRODUCT(outer)
#undef TS_ATEN_PRODUCT

// inputs {self (expanded unless in place), mat1, mat2}; s0 = beta, s1 = alpha.
void addmm_kernel(const KernelCall& c) {
  const at::Scalar beta = to_aten(*c.p.s0), alpha = to_aten(*c.p.s1);
  write(c, c.p.compute_dtype, [&](at::Tensor& out) {
    if (c.kind == CallKind::InPlace) {
      out.addmm_(input(c, 1), input(c, 2), beta, alpha);
    } else {
      at::addmm_out(out, input(c, 0), input(c, 1), input(c, 2), beta, alpha);
    }
  });
}

}  // namespace

void register_linalg(KernelRegistrar& m) {
  // ATen 1.13's CPU gemm/gemv/dot have no float16; outer is a mul and takes every dtype.
  const DTypeSet products = kNoBool - DTypeSet{kHalf};
  m.impl(OpId::mm, kCPU, products, guarded<mm_kernel>);
  m.impl(OpId::bmm, kCPU, products, guarded<bmm_kernel>);
  m.impl(OpId::addmm, kCPU, products, guarded<addmm_kernel>);
  m.impl(OpId::dot, kCPU, products, guarded<dot_kernel>);
  m.impl(OpId::mv, kCPU, products, guarded<mv_kernel>);
  m.impl(OpId::outer, kCPU, kAll, guarded<outer_kernel>);
}

}  // namespace ts::aten
