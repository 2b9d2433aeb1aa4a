// CUDA kernels for where, lerp, addcmul and masked_fill (formulas of reference/ternary.cpp).
// Every input is cast to the compute dtype first, so a condition or mask arrives as 0/1.
#include "optimized/cuda/loops.cuh"

namespace ts::cuda {
namespace {

struct WhereOp {
  template <typename C>
  __device__ C operator()(C cond, C a, C b) const {
    return cond != C(0) ? a : b;
  }
};

template <typename C>
struct MaskedFillOp {
  C value;
  __device__ C operator()(C self, C mask) const { return mask != C(0) ? value : self; }
};

// ATen's formula, exact at both ends: from start for small |weight|, from end otherwise.
template <typename C>
__device__ inline C lerp(C start, C end, C weight) {
  return ::fabs(weight) < C(0.5) ? start + weight * (end - start)
                                 : end - (end - start) * (C(1) - weight);
}
struct LerpOp {
  template <typename C>
  __device__ C operator()(C start, C end, C weight) const {
    return lerp(start, end, weight);
  }
};
template <typename C>
struct LerpScalarOp {
  C weight;
  __device__ C operator()(C start, C end) const { return lerp(start, end, weight); }
};

template <typename C>
struct AddcmulOp {
  C value;
  __device__ C operator()(C self, C t1, C t2) const {
    if constexpr (std::is_same_v<C, double>) {
      // Rounded products, no fused multiply-add: an overflowing value * t1 * t2 meets an
      // infinite self as in the reference (inf - inf = NaN), which an FMA would skip.
      return __dadd_rn(self, __dmul_rn(__dmul_rn(value, t1), t2));
    } else if constexpr (std::is_floating_point_v<C>) {
      return self + value * t1 * t2;
    } else {
      return static_cast<C>(static_cast<uint64_t>(self) + static_cast<uint64_t>(value) *
                                                              static_cast<uint64_t>(t1) *
                                                              static_cast<uint64_t>(t2));
    }
  }
};

void where_kernel(const KernelCall& c) {
  DeviceGuard guard(c.outputs[0].device().index());
  TensorIterator iter = elementwise_iter(c);
  TS_CUDA_DISPATCH_ALL(iter.common_dtype(), "where",
                       [&] { gpu_kernel<3, scalar_t, scalar_t>(iter, WhereOp{}); });
  iter.cast_outputs();
}

// Note [CUDA masked_fill_]
// In place, only the masked elements are stored: an expanded self (Note [masked_fill_ on expanded
// tensors], lib/src/ops/ternary.cpp) takes the value wherever any of its elements' masks is set
// (every writer stores the same value) and keeps it elsewhere, as the reference's loop does.
template <typename T>
__global__ void masked_store_kernel(OffsetCalculator<2, int64_t> calc, char* out, const char* mask,
                                    int64_t n, T value) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n;
       i += int64_t{gridDim.x} * blockDim.x) {
    const auto o = calc.get(i);
    if (*reinterpret_cast<const bool*>(mask + o[1])) *reinterpret_cast<T*>(out + o[0]) = value;
  }
}

void masked_fill_inplace(const KernelCall& c) {
  const Tensor& self = c.outputs[0];
  TensorIterator iter = TensorIteratorConfig()
                            .add_output(self)
                            .add_input(c.inputs[1])
                            .check_mem_overlap(false)
                            .resize_outputs(false)
                            .build();
  const int64_t n = iter.numel();
  if (n == 0) return;
  const Scalar& value = c.params<ValueParams>().value;
  TS_CUDA_DISPATCH_ALL(self.dtype(), "masked_fill_", [&] {
    const scalar_t v = value.is_floating_point() ? convert<scalar_t>(value.to_double())
                                                 : convert<scalar_t>(value.to_long());
    masked_store_kernel<scalar_t><<<grid_size(n), kThreads, 0, stream()>>>(
        OffsetCalculator<2, int64_t>(iter), iter.data_ptr(0), iter.data_ptr(1), n, v);
    TS_CUDA_KERNEL_LAUNCH_CHECK();
  });
}

void masked_fill_kernel(const KernelCall& c) {
  DeviceGuard guard(c.outputs[0].device().index());
  if (c.kind == CallKind::InPlace && c.inputs[1].dtype() == kBool) return masked_fill_inplace(c);
  TensorIterator iter = elementwise_iter(c);
  TS_CUDA_DISPATCH_ALL(iter.common_dtype(), "masked_fill", [&] {
    using C = compute_t<scalar_t>;
    // The value converted once to self's dtype (then widened exactly), as the reference.
    const Scalar& value = c.params<ValueParams>().value;
    const scalar_t v = value.is_floating_point() ? convert<scalar_t>(value.to_double())
                                                 : convert<scalar_t>(value.to_long());
    gpu_kernel<2, scalar_t, scalar_t>(iter, MaskedFillOp<C>{convert<C>(v)});
  });
  iter.cast_outputs();
}

void lerp_kernel(const KernelCall& c) {
  DeviceGuard guard(c.outputs[0].device().index());
  TensorIterator iter = elementwise_iter(c);
  const std::optional<Scalar>& weight = c.params<LerpParams>().weight;
  TS_CUDA_DISPATCH_FLOATING(iter.common_dtype(), "lerp", [&] {
    using C = compute_t<scalar_t>;
    if (weight) {
      gpu_kernel<2, scalar_t, scalar_t>(iter, LerpScalarOp<C>{scalar_as<C>(*weight)});
    } else {
      gpu_kernel<3, scalar_t, scalar_t>(iter, LerpOp{});
    }
  });
  iter.cast_outputs();
}

void addcmul_kernel(const KernelCall& c) {
  DeviceGuard guard(c.outputs[0].device().index());
  TensorIterator iter = elementwise_iter(c);
  const Scalar& value = c.params<ValueParams>().value;
  TS_CUDA_DISPATCH_REAL(iter.common_dtype(), "addcmul", [&] {
    using C = compute_t<scalar_t>;
    gpu_kernel<3, scalar_t, scalar_t>(iter, AddcmulOp<C>{scalar_as<C>(value)});
  });
  iter.cast_outputs();
}

}  // namespace

TS_REGISTER_KERNELS(optimized, cuda_ternary) {
  m.impl(OpId::where, kCUDA, where_kernel);
  m.impl(OpId::lerp, kCUDA, lerp_kernel);
  m.impl(OpId::addcmul, kCUDA, addcmul_kernel);
  m.impl(OpId::masked_fill, kCUDA, masked_fill_kernel);
}

}  // namespace ts::cuda
