// CUDA amax, amin, max, min (values, or values and indices with a dim), argmax, argmin, all and
// any. See Note [CUDA reductions] in reduce.cuh; the tie and NaN rules are ArgExtremeOp's.
#include "optimized/cuda/reduce.cuh"

namespace ts::cuda {
namespace {

// amax/amin and max()/min() write values only; max/min with a dim also write indices.
template <bool kMax>
void extreme_kernel(const KernelCall& c) {
  const Tensor& in = c.inputs[0];
  DeviceGuard guard(in.device().index());
  const bool with_indices = c.outputs.size() == 2;
  const ReduceGeometry g =
      make_reduce_geometry(in, c.outputs, c.p.dims, c.p.keepdim, /*in_order=*/with_indices);
  TS_CUDA_DISPATCH_ALL(in.dtype(), op_info(c.op).name.data(), [&] {
    if (with_indices) {
      launch_reduce<scalar_t>(g, ArgExtremeOp<scalar_t, kMax>{true}, in.device());
    } else {
      launch_reduce<scalar_t>(g, ExtremeOp<scalar_t, kMax>{}, in.device());
    }
  });
}

template <bool kMax>
void arg_extreme_kernel(const KernelCall& c) {
  const Tensor& in = c.inputs[0];
  DeviceGuard guard(in.device().index());
  const ReduceGeometry g = make_reduce_geometry(in, c.outputs, c.p.dims, c.p.keepdim, true);
  TS_CUDA_DISPATCH_REAL(in.dtype(), op_info(c.op).name.data(), [&] {
    launch_reduce<scalar_t>(g, ArgExtremeOp<scalar_t, kMax>{false}, in.device());
  });
}

// Any input dtype; the output is bool or uint8.
template <bool kAll>
void all_any_kernel(const KernelCall& c) {
  const Tensor& in = c.inputs[0];
  DeviceGuard guard(in.device().index());
  const ReduceGeometry g = make_reduce_geometry(in, c.outputs, c.p.dims, c.p.keepdim, false);
  TS_CUDA_DISPATCH_ALL(in.dtype(), op_info(c.op).name.data(), [&] {
    launch_reduce<scalar_t>(g, AllAnyOp<scalar_t, kAll>{}, in.device());
  });
}

}  // namespace

TS_REGISTER_KERNELS(optimized, cuda_reduce_minmax) {
  const DTypeSet all = DTypeSet::all();
  m.impl(OpId::amax, kCUDA, all, extreme_kernel<true>);
  m.impl(OpId::amin, kCUDA, all, extreme_kernel<false>);
  m.impl(OpId::max, kCUDA, all, extreme_kernel<true>);
  m.impl(OpId::min, kCUDA, all, extreme_kernel<false>);
  m.impl(OpId::argmax, kCUDA, all - DTypeSet{kBool}, arg_extreme_kernel<true>);
  m.impl(OpId::argmin, kCUDA, all - DTypeSet{kBool}, arg_extreme_kernel<false>);
  m.impl(OpId::all, kCUDA, all, all_any_kernel<true>);
  m.impl(OpId::any, kCUDA, all, all_any_kernel<false>);
}

}  // namespace ts::cuda
