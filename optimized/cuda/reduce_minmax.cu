// CUDA amax, amin, max, min (values, or values and indices with a dim), argmax, argmin, all and
// any (registered by reduce.cu). See Note [CUDA reductions] in reduce.cuh; the tie and NaN rules
// are ArgExtremeOp's.
#include "optimized/cuda/reduce.cuh"

namespace ts::cuda {
namespace {

// Reduces c.inputs[0] into c's outputs with Op<scalar_t, kFlag>{args...} (kFlag: max or all).
template <template <class, bool> class Op, bool kFlag, class... Args>
void launch(const KernelCall& c, bool in_order, Args... args) {
  const Tensor& in = c.inputs[0];
  DeviceGuard guard(in.device().index());
  const ReduceGeometry g = call_geometry(c, in, c.outputs, in_order);
  TS_CUDA_DISPATCH_ALL(in.dtype(), op_info(c.op).name.data(), [&] {
    launch_reduce<scalar_t>(g, Op<scalar_t, kFlag>{args...}, in.device());
  });
}
template <template <class, bool> class Op, class... Args>
void launch_either(const KernelCall& c, bool flag, bool in_order, Args... args) {
  flag ? launch<Op, true>(c, in_order, args...) : launch<Op, false>(c, in_order, args...);
}

}  // namespace

// amax/amin and max()/min() write values only; max/min with a dim also write indices.
void extreme_kernel(const KernelCall& c, bool is_max) {
  if (c.outputs.size() == 2) return launch_either<ArgExtremeOp>(c, is_max, true, /*values=*/true);
  launch_either<ExtremeOp>(c, is_max, false);
}
void arg_extreme_kernel(const KernelCall& c, bool is_max) {
  launch_either<ArgExtremeOp>(c, is_max, true, /*values=*/false);
}
// Any input dtype; the output is bool or uint8.
void all_any_kernel(const KernelCall& c, bool is_all) {
  launch_either<AllAnyOp>(c, is_all, false);
}

}  // namespace ts::cuda
