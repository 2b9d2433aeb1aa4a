// aten kernels for pooling (lib/src/ops/pool.cpp, whose Params block gives the inputs and
// structs): max_pool and avg_pool call ATen's op of their dim count (max_pool{1,2,3}d_with_indices,
// avg_pool{1,2,3}d), adaptive_avg_pool2d and adaptive_max_pool2d ATen's ops of those names.
#include <ATen/core/Tensor.h>
#include <ATen/ops/adaptive_avg_pool2d.h>
#include <ATen/ops/adaptive_max_pool2d.h>
#include <ATen/ops/avg_pool1d.h>
#include <ATen/ops/avg_pool2d.h>
#include <ATen/ops/avg_pool3d.h>
#include <ATen/ops/max_pool1d_with_indices.h>
#include <ATen/ops/max_pool2d_with_indices.h>
#include <ATen/ops/max_pool3d_with_indices.h>
#include <tuple>
#include <vector>

#include "aten_wrap.h"
#include "touchstone/kernel_family.h"

namespace ts::aten {
namespace {

std::tuple<at::Tensor, at::Tensor> max_pool(const at::Tensor& x, const PoolParams& p) {
  const auto k = ints(p.kernel_size), s = ints(p.stride), pad = ints(p.padding),
             d = ints(p.dilation);
  switch (p.kernel_size.size()) {
    case 1:
      return at::max_pool1d_with_indices(x, k, s, pad, d, p.ceil_mode);
    case 2:
      return at::max_pool2d_with_indices(x, k, s, pad, d, p.ceil_mode);
    default:
      return at::max_pool3d_with_indices(x, k, s, pad, d, p.ceil_mode);
  }
}

at::Tensor avg_pool(const at::Tensor& x, const PoolParams& p) {
  const auto k = ints(p.kernel_size), s = ints(p.stride), pad = ints(p.padding);
  const c10::optional<int64_t> div =
      p.divisor_override != 0 ? c10::optional<int64_t>(p.divisor_override) : c10::nullopt;
  switch (p.kernel_size.size()) {
    case 1:  // ATen's avg_pool1d has no divisor_override (nor has touchstone's)
      return at::avg_pool1d(x, k, s, pad, p.ceil_mode, p.count_include_pad);
    case 2:
      return at::avg_pool2d(x, k, s, pad, p.ceil_mode, p.count_include_pad, div);
    default:
      return at::avg_pool3d(x, k, s, pad, p.ceil_mode, p.count_include_pad, div);
  }
}

// Copies (values, indices) into the call's two outputs.
void write_pair(const KernelCall& c, const std::tuple<at::Tensor, at::Tensor>& r) {
  write(c, c.p.compute_dtype, [&](at::Tensor& values) {
    write(
        c, kLong,
        [&](at::Tensor& indices) {
          values.copy_(std::get<0>(r));
          indices.copy_(std::get<1>(r));
        },
        1);
  });
}

// One branch per Pool op of op_list.def (registered below). ATen 1.13 has no out= forms for
// the per-dim pools of an unbatched input, so results are copied into the outputs.
template <OpId op>
void pool_kernel(const KernelCall& c) {
  const at::Tensor x = input(c, 0);
  if constexpr (op == OpId::max_pool) {
    write_pair(c, max_pool(x, c.params<PoolParams>()));
  } else if constexpr (op == OpId::adaptive_max_pool2d) {
    write_pair(c, at::adaptive_max_pool2d(x, ints(c.params<AdaptivePoolParams>().output_size)));
  } else if constexpr (op == OpId::avg_pool) {
    write(c, c.p.compute_dtype,
          [&](at::Tensor& out) { out.copy_(avg_pool(x, c.params<PoolParams>())); });
  } else if constexpr (op == OpId::adaptive_avg_pool2d) {
    write(c, c.p.compute_dtype, [&](at::Tensor& out) {
      out.copy_(at::adaptive_avg_pool2d(x, ints(c.params<AdaptivePoolParams>().output_size)));
    });
  } else {
    static_assert(kMissingKernel<op>, "a pooling op without its aten kernel");
  }
}

}  // namespace

// ATen 1.13's CPU pooling kernels have no float16 ("max_pool2d" not implemented for 'Half');
// current PyTorch has them.
void register_pool(KernelRegistrar& m) {
  for_each_kernel_op<OpSignature::Pool>(
      [&](auto op) { m.impl(op, kCPU, kFloatingNoHalf, guarded<pool_kernel<op>>); });
}

}  // namespace ts::aten
