// aten kernels for binary_cross_entropy and ctc_loss (issue 16; lib/src/ops/loss.cpp gives each
// op's inputs, outputs and struct). The composite losses run on the aten set's kernels of their
// parts and need nothing here.
#include <ATen/core/Tensor.h>
#include <ATen/ops/_ctc_loss.h>
#include <ATen/ops/_ctc_loss_backward.h>
#include <ATen/ops/binary_cross_entropy.h>
#include <ATen/ops/ctc_loss.h>
#include <ATen/ops/ones.h>
#include <tuple>
#include <vector>

#include "aten_wrap.h"
#include "touchstone/kernel_family.h"

namespace ts::aten {
namespace {

// One branch per LossKernel op of op_list.def (registered below).
template <OpId op>
void loss_kernel(const KernelCall& c) {
  if constexpr (op == OpId::binary_cross_entropy) {
    const auto reduction = static_cast<int64_t>(c.params<LossParams>().reduction);
    write(c, c.p.compute_dtype, [&](at::Tensor& out) {
      out.copy_(at::binary_cross_entropy(input(c, 0), input(c, 1), input(c, 2), reduction));
    });
  } else if constexpr (op == OpId::ctc_loss) {
    // Output 0 is ATen's ctc_loss (its composite over _ctc_loss); output 1, when asked for, is
    // _ctc_loss_backward for a gradient of 1 per sample (Note [ctc_loss gradient]).
    const CtcLossParams& params = c.params<CtcLossParams>();
    const std::vector<int64_t> il(params.input_lengths.begin(), params.input_lengths.end());
    const std::vector<int64_t> tl(params.target_lengths.begin(), params.target_lengths.end());
    const at::Tensor lp = input(c, 0);
    const at::Tensor targets = wrap(c.inputs[1]).to(to_aten(kLong));
    write(c, c.p.compute_dtype, [&](at::Tensor& out) {
      out.copy_(at::ctc_loss(lp, targets, il, tl, params.blank,
                             static_cast<int64_t>(params.reduction), params.zero_infinity));
    });
    if (params.with_grad) {
      // No structured bindings: lambdas capture these (clang 14).
      const std::tuple<at::Tensor, at::Tensor> fwd =
          at::_ctc_loss(lp, targets, il, tl, params.blank, params.zero_infinity);
      const at::Tensor& nll = std::get<0>(fwd);
      const at::Tensor& log_alpha = std::get<1>(fwd);
      const at::Tensor ones = at::ones({lp.size(1)}, lp.options());
      write(
          c, c.p.compute_dtype,
          [&](at::Tensor& out) {
            out.copy_(at::_ctc_loss_backward(ones, lp, targets, il, tl, nll, log_alpha,
                                             params.blank, params.zero_infinity));
          },
          1);
    }
  } else {
    static_assert(kMissingKernel<op>, "a loss op without its aten kernel");
  }
}

// ATen 1.13's CPU ctc_loss and binary_cross_entropy are float32 and float64 only ("not
// implemented for 'BFloat16'"): the set registers none of the others.
DTypeSet loss_dtypes(OpId op) {
  return op_info(op).dtypes - DTypeSet{kHalf, kBFloat16};
}

}  // namespace

void register_loss(KernelRegistrar& m) {
  for_each_kernel_op<OpSignature::LossKernel>(
      [&](auto op) { m.impl(op, kCPU, loss_dtypes(op), guarded<loss_kernel<op>>); });
}

}  // namespace ts::aten
