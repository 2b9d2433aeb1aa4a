// CUDA amax, amin, max, min (values, or values and indices with a dim), argmax, argmin, all and
// any (registered by reduce.cu). See Note [CUDA reductions] in reduce.cuh; the tie and NaN rules
// are ArgExtremeOp's.
#include "optimized/cuda/reduce.cuh"

namespace ts::cuda {
namespace {

// amax/amin and max()/min() write values only; max/min with a dim also write indices.
template <bool kMax>
void extremes(const KernelCall& c) {
  const Tensor& in = c.inputs[0];
  DeviceGuard guard(in.device().index());
  const bool with_indices = c.outputs.size() == 2;
  const ReduceGeometry g = call_geometry(c, in, c.outputs, /*in_order=*/with_indices);
  TS_CUDA_DISPATCH_ALL(in.dtype(), op_info(c.op).name.data(), [&] {
    if (with_indices) {
      launch_reduce<scalar_t>(g, ArgExtremeOp<scalar_t, kMax>{true}, in.device());
    } else {
      launch_reduce<scalar_t>(g, ExtremeOp<scalar_t, kMax>{}, in.device());
    }
  });
}

template <bool kMax>
void arg_extremes(const KernelCall& c) {
  const Tensor& in = c.inputs[0];
  DeviceGuard guard(in.device().index());
  const ReduceGeometry g = call_geometry(c, in, c.outputs, true);
  TS_CUDA_DISPATCH_REAL(in.dtype(), op_info(c.op).name.data(), [&] {
    launch_reduce<scalar_t>(g, ArgExtremeOp<scalar_t, kMax>{false}, in.device());
  });
}

// Any input dtype; the output is bool or uint8.
template <bool kAll>
void all_any(const KernelCall& c) {
  const Tensor& in = c.inputs[0];
  DeviceGuard guard(in.device().index());
  const ReduceGeometry g = call_geometry(c, in, c.outputs, false);
  TS_CUDA_DISPATCH_ALL(in.dtype(), op_info(c.op).name.data(), [&] {
    launch_reduce<scalar_t>(g, AllAnyOp<scalar_t, kAll>{}, in.device());
  });
}

}  // namespace

void extreme_kernel(const KernelCall& c, bool is_max) {
  is_max ? extremes<true>(c) : extremes<false>(c);
}
void arg_extreme_kernel(const KernelCall& c, bool is_max) {
  is_max ? arg_extremes<true>(c) : arg_extremes<false>(c);
}
void all_any_kernel(const KernelCall& c, bool is_all) {
  is_all ? all_any<true>(c) : all_any<false>(c);
}

}  // namespace ts::cuda
