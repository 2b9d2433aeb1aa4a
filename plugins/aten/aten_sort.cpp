// aten kernels for sorting and selection (lib/src/ops/sort.cpp, whose header says what each
// call holds): ATen's out= forms write (values, indices) in the shapes meta gave them.
#include <ATen/core/Tensor.h>
#include <ATen/ops/cummax.h>
#include <ATen/ops/cummin.h>
#include <ATen/ops/kthvalue.h>
#include <ATen/ops/median.h>
#include <ATen/ops/mode.h>
#include <ATen/ops/sort.h>
#include <ATen/ops/topk.h>

#include "aten_wrap.h"
#include "touchstone/kernel_family.h"

namespace ts::aten {
namespace {

// One branch per Sort op of op_list.def (registered below).
template <OpId op>
void sort_kernel(const KernelCall& c) {
  using enum OpId;
  const SortParams& p = c.params<SortParams>();
  const at::Tensor self = wrap(c.inputs[0]);
  if constexpr (op == median) {
    if (c.outputs.size() == 1) {  // median() over all elements (self flattened)
      write(c, c.p.compute_dtype, [&](at::Tensor& out) { out.copy_(self.median()); });
      return;
    }
  }
  write(c, c.p.compute_dtype, [&](at::Tensor& values) {
    write(
        c, kLong,
        [&](at::Tensor& indices) {
          if constexpr (op == sort) {
            at::sort_out(values, indices, self, p.stable, p.dim, p.descending);
          } else if constexpr (op == topk) {
            at::topk_out(values, indices, self, p.k, p.dim, p.descending, p.sorted);
          } else if constexpr (op == kthvalue) {
            at::kthvalue_out(values, indices, self, p.k, p.dim, p.keepdim);
          } else if constexpr (op == median) {
            at::median_out(values, indices, self, p.dim, p.keepdim);
          } else if constexpr (op == mode) {
            at::mode_out(values, indices, self, p.dim, p.keepdim);
          } else if constexpr (op == cummax) {  // scans (issue 16)
            at::cummax_out(values, indices, self, p.dim);
          } else if constexpr (op == cummin) {
            at::cummin_out(values, indices, self, p.dim);
          } else {
            static_assert(kMissingKernel<op>, "a Sort op without its aten kernel");
          }
        },
        1);
  });
}

// The dtypes of op_list.def that ATen 1.13's CPU kernels lack.
DTypeSet sort_dtypes(OpId op) {
  const DTypeSet declared = op_info(op).dtypes;
  switch (op) {
    case OpId::topk:  // "topk_cpu", "kthvalue_cpu", ... not implemented for 'Half'
    case OpId::kthvalue:
    case OpId::median:
    case OpId::cummax:
    case OpId::cummin:
      return declared - DTypeSet{kHalf};
    default:
      return declared;
  }
}

}  // namespace

void register_sort(KernelRegistrar& m) {
  for_each_kernel_op<OpSignature::Sort>(
      [&](auto op) { m.impl(op, kCPU, sort_dtypes(op), guarded<sort_kernel<op>>); });
}

}  // namespace ts::aten
