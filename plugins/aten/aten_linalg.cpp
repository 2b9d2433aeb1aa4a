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
#include "touchstone/kernel_family.h"

namespace ts::aten {
namespace {

// One kernel per Kernel op of signature class Matmul (Note [Kernel families]): at::<op>_out of
// the two operands, but addmm.
template <OpId op>
void linalg_kernel(const KernelCall& c) {
  write(c, c.p.compute_dtype, [&](at::Tensor& out) {
    const at::Tensor a = input(c, 0), b = input(c, 1);
    if constexpr (op == OpId::mm) {
      at::mm_out(out, a, b);
    } else if constexpr (op == OpId::bmm) {
      at::bmm_out(out, a, b);
    } else if constexpr (op == OpId::dot) {
      at::dot_out(out, a, b);
    } else if constexpr (op == OpId::mv) {
      at::mv_out(out, a, b);
    } else if constexpr (op == OpId::outer) {
      at::outer_out(out, a, b);
    } else {
      static_assert(kMissingKernel<op>, "aten linalg: a Matmul op without its branch");
    }
  });
}

// inputs {self (expanded unless in place), mat1, mat2}; AddmmParams{beta, alpha}.
template <>
void linalg_kernel<OpId::addmm>(const KernelCall& c) {
  const AddmmParams& p = c.params<AddmmParams>();
  const at::Scalar beta = to_aten(p.beta), alpha = to_aten(p.alpha);
  write(c, c.p.compute_dtype, [&](at::Tensor& out) {
    if (c.kind == CallKind::InPlace) {
      out.addmm_(input(c, 1), input(c, 2), beta, alpha);
    } else {
      at::addmm_out(out, input(c, 0), input(c, 1), input(c, 2), beta, alpha);
    }
  });
}

}  // namespace

// ATen 1.13's CPU gemm/gemv/dot have no float16; outer is a mul and takes every dtype.
void register_linalg(KernelRegistrar& m) {
  for_each_kernel_op<OpSignature::Matmul>([&](auto op) {
    DTypeSet dtypes = op_info(op).dtypes;
    if (op != OpId::outer) dtypes = dtypes - DTypeSet{kHalf};
    m.impl(op, kCPU, dtypes, guarded<linalg_kernel<op>>);
  });
}

}  // namespace ts::aten
