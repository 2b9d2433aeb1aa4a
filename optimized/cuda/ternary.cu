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
    if constexpr (std::is_floating_point_v<C>) {
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

void masked_fill_kernel(const KernelCall& c) {
  DeviceGuard guard(c.outputs[0].device().index());
  TensorIterator iter = elementwise_iter(c);
  TS_CUDA_DISPATCH_ALL(iter.common_dtype(), "masked_fill", [&] {
    using C = compute_t<scalar_t>;
    // The value converted once to self's dtype (then widened exactly), as the reference.
    const scalar_t v = c.p.s0->is_floating_point() ? convert<scalar_t>(c.p.s0->to_double())
                                                   : convert<scalar_t>(c.p.s0->to_long());
    gpu_kernel<2, scalar_t, scalar_t>(iter, MaskedFillOp<C>{convert<C>(v)});
  });
  iter.cast_outputs();
}

void lerp_kernel(const KernelCall& c) {
  DeviceGuard guard(c.outputs[0].device().index());
  TensorIterator iter = elementwise_iter(c);
  TS_CUDA_DISPATCH_FLOATING(iter.common_dtype(), "lerp", [&] {
    using C = compute_t<scalar_t>;
    if (c.p.s0) {
      gpu_kernel<2, scalar_t, scalar_t>(iter, LerpScalarOp<C>{scalar_as<C>(*c.p.s0)});
    } else {
      gpu_kernel<3, scalar_t, scalar_t>(iter, LerpOp{});
    }
  });
  iter.cast_outputs();
}

void addcmul_kernel(const KernelCall& c) {
  DeviceGuard guard(c.outputs[0].device().index());
  TensorIterator iter = elementwise_iter(c);
  TS_CUDA_DISPATCH_ALL(iter.common_dtype(), "addcmul", [&] {
    using C = compute_t<scalar_t>;
    if constexpr (std::is_same_v<C, bool>) {
      TS_ERROR("addcmul: CUDA kernel called with dtype bool");
    } else {
      gpu_kernel<3, scalar_t, scalar_t>(iter, AddcmulOp<C>{scalar_as<C>(*c.p.s0)});
    }
  });
  iter.cast_outputs();
}

}  // namespace

TS_REGISTER_KERNELS(optimized, cuda_ternary) {
  const DTypeSet all = DTypeSet::all();
  m.impl(OpId::where, kCUDA, all, where_kernel);
  m.impl(OpId::lerp, kCUDA, DTypeSet::floating(), lerp_kernel);
  m.impl(OpId::addcmul, kCUDA, all - DTypeSet{kBool}, addcmul_kernel);
  m.impl(OpId::masked_fill, kCUDA, all, masked_fill_kernel);
}

}  // namespace ts::cuda
