// aten kernels for searches in sorted sequences and unique (issue 16; lib/src/ops/sorted.cpp,
// whose header gives each call's layout): searchsorted, bucketize, _unique2, unique_dim,
// unique_consecutive. unique's results are copied into the start of the buffers meta gave
// (Note [Unique outputs]) and their number written to the fourth output.
#include <ATen/core/Tensor.h>
#include <ATen/ops/_unique2.h>
#include <ATen/ops/bucketize.h>
#include <ATen/ops/searchsorted.h>
#include <ATen/ops/unique_consecutive.h>
#include <ATen/ops/unique_dim.h>
#include <c10/util/Optional.h>

#include <tuple>

#include "aten_wrap.h"
#include "touchstone/kernel_family.h"

namespace ts::aten {
namespace {

void unique_results(const KernelCall& c, const at::Tensor& values, const at::Tensor& inverse,
                    const at::Tensor& counts) {
  const UniqueParams& p = c.params<UniqueParams>();
  const int64_t k = p.dim < 0 ? values.numel() : values.size(p.dim);
  wrap(c.outputs[0]).narrow(0, 0, values.numel()).copy_(values.reshape({-1}));
  if (p.return_inverse) wrap(c.outputs[1]).copy_(inverse.reshape(wrap(c.outputs[1]).sizes()));
  if (p.return_counts) wrap(c.outputs[2]).narrow(0, 0, k).copy_(counts);
  wrap(c.outputs[3]).fill_(k);
}

// One branch per Sorted op of op_list.def (registered below).
template <OpId op>
void sorted_kernel(const KernelCall& c) {
  if constexpr (op == OpId::searchsorted || op == OpId::bucketize) {
    const SearchParams& p = c.params<SearchParams>();
    write(c, p.out_int32 ? kInt : kLong, [&](at::Tensor& out) {
      if constexpr (op == OpId::searchsorted) {
        const c10::optional<at::Tensor> sorter =
            c.inputs.size() > 2 ? c10::optional<at::Tensor>(wrap(c.inputs[2])) : c10::nullopt;
        at::searchsorted_out(out, wrap(c.inputs[0]), wrap(c.inputs[1]), p.out_int32, p.right,
                             c10::nullopt, sorter);
      } else {
        at::bucketize_out(out, wrap(c.inputs[0]), wrap(c.inputs[1]), p.out_int32, p.right);
      }
    });
  } else if constexpr (op == OpId::_unique2 || op == OpId::unique_dim ||
                       op == OpId::unique_consecutive) {
    const UniqueParams& p = c.params<UniqueParams>();
    const at::Tensor self = wrap(c.inputs[0]);
    std::tuple<at::Tensor, at::Tensor, at::Tensor> r;
    if constexpr (op == OpId::_unique2) {
      r = at::_unique2(self, p.sorted, p.return_inverse, p.return_counts);
    } else if constexpr (op == OpId::unique_dim) {
      r = at::unique_dim(self, p.dim, p.sorted, p.return_inverse, p.return_counts);
    } else {
      r = at::unique_consecutive(self, p.return_inverse, p.return_counts,
                                 p.dim < 0 ? c10::nullopt : c10::optional<int64_t>(p.dim));
    }
    unique_results(c, std::get<0>(r), std::get<1>(r), std::get<2>(r));
  } else {
    static_assert(kMissingKernel<op>, "a Sorted op without its aten kernel");
  }
}

// The dtypes of op_list.def that ATen 1.13's CPU kernels lack.
DTypeSet sorted_dtypes(OpId op) {
  const DTypeSet declared = op_info(op).dtypes;
  switch (op) {
    case OpId::_unique2:  // "unique", "unique_dim", ... not implemented for 'Half'
    case OpId::unique_dim:
    case OpId::unique_consecutive:
      return declared - DTypeSet{kHalf};
    default:
      return declared;
  }
}

}  // namespace

void register_sorted(KernelRegistrar& m) {
  for_each_kernel_op<OpSignature::Sorted>(
      [&](auto op) { m.impl(op, kCPU, sorted_dtypes(op), guarded<sorted_kernel<op>>); });
}

}  // namespace ts::aten
