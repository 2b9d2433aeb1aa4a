// aten kernel for embedding_bag (lib/src/ops/embedding_bag.cpp, whose Params block gives the
// inputs and struct): at::embedding_bag with include_last_offset, as meta hands B + 1 offsets
// (Note [embedding_bag's offsets]); its first result is the output, its fourth max mode's rows.
#include <ATen/core/Tensor.h>
#include <ATen/ops/embedding_bag.h>
#include <tuple>

#include "aten_wrap.h"
#include "touchstone/kernel_family.h"

namespace ts::aten {
namespace {

template <OpId op>
void embedding_bag_kernel(const KernelCall& c) {
  if constexpr (op == OpId::embedding_bag) {
    const EmbeddingBagParams& p = c.params<EmbeddingBagParams>();
    // Entries past the last bag (include_last_offset with offsets[-1] < N) belong to no bag;
    // ATen 1.13 corrupts its heap on them ("invalid fastbin entry"), so they are cut off here.
    const at::Tensor offsets_all = wrap(c.inputs[2]);
    const int64_t used = offsets_all[offsets_all.size(0) - 1].item<int64_t>();
    const at::Tensor indices = wrap(c.inputs[1]).narrow(0, 0, used);  // int64 or int32
    // ATen 1.13 wants offsets of indices' dtype.
    const at::Tensor offsets = offsets_all.to(indices.scalar_type());
    at::Tensor psw = input(c, 3);
    if (psw.defined()) psw = psw.narrow(0, 0, used);
    const c10::optional<int64_t> pad =
        p.padding_idx >= 0 ? c10::optional<int64_t>(p.padding_idx) : c10::nullopt;
    const auto r =
        at::embedding_bag(input(c, 0), indices, offsets, false, p.mode, false, psw, true, pad);
    write(c, c.p.compute_dtype, [&](at::Tensor& out) { out.copy_(std::get<0>(r)); });
    if (p.mode == 2) {
      // The kernel contract's -1 for a bag without entries (ATen leaves another row there).
      at::Tensor mi_at = std::get<3>(r).clone();
      const at::Tensor o = offsets_all.to(at::kLong).contiguous();
      const at::Tensor ix = indices.to(at::kLong).contiguous();
      const int64_t* ob = o.data_ptr<int64_t>();
      const int64_t* ip = ix.data_ptr<int64_t>();
      for (int64_t b = 0; b + 1 < o.size(0); ++b) {
        bool empty = true;
        for (int64_t j = ob[b]; j < ob[b + 1] && empty; ++j) empty = ip[j] == p.padding_idx;
        if (empty) mi_at[b].fill_(-1);
      }
      write(
          c, kLong, [&](at::Tensor& mi) { mi.copy_(mi_at); }, 1);
    }
  } else {
    static_assert(kMissingKernel<op>, "an embedding_bag op without its aten kernel");
  }
}

}  // namespace

// ATen 1.13's CPU embedding_bag has no bfloat16 kernel (weight "to have one of the following
// scalar types: Half, Float, Double"); current PyTorch has one.
constexpr DTypeSet kFloatingNoBf16 = kFloating - DTypeSet{kBFloat16};

void register_embedding_bag(KernelRegistrar& m) {
  for_each_kernel_op<OpSignature::EmbeddingBag>(
      [&](auto op) { m.impl(op, kCPU, kFloatingNoBf16, guarded<embedding_bag_kernel<op>>); });
}

}  // namespace ts::aten
