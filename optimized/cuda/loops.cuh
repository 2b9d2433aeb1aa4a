#pragma once
// The elementwise launcher over TensorIterator. See Note [CUDA elementwise paths].
#include <array>
#include <type_traits>

#include "optimized/cuda/common.cuh"
#include "touchstone/kernel_family.h"
#include "touchstone/ops.h"
#include "touchstone/tensor_iterator.h"

namespace ts::cuda {

// Note [CUDA elementwise paths]
// 1. vectorized: every operand contiguous (one coalesced dim), every pointer aligned to its
//    vector, at most INT32_MAX elements: each thread moves 16 bytes of the widest operand with
//    one vector load/store per operand.
// 2. strided 32-bit: offsets from a uint32 linear index with precomputed magic-number division
//    (IntDivider), when can_use_32bit_indexing() holds; larger iterators are split with
//    with_32bit_indexing() and each piece launched on its own.
// 3. strided 64-bit: int64 offsets and plain division; only when forced (Note [Forced 64-bit
//    indexing] in touchstone/cuda.h), so the two strided paths can be compared.
inline constexpr int kMaxDims = 16;

// Note [Fast integer division]
// For a divisor d in [1, 2^31], shift = ceil(log2 d) and m = floor(2^32 (2^shift - d) / d) + 1
// give n / d = (umulhi(n, m) + n) >> shift for every n < 2^31 (Granlund and Montgomery, 1994);
// the sum is formed in 64 bits so it cannot overflow.
template <typename Index>
struct IntDivider {
  IntDivider() = default;
  explicit IntDivider(Index d) : divisor(d) {}
  __device__ Index div(Index n) const { return n / divisor; }
  Index divisor = 1;
};

template <>
struct IntDivider<uint32_t> {
  IntDivider() = default;
  explicit IntDivider(uint32_t d) : divisor(d) {
    for (shift = 0; shift < 32; ++shift) {
      if ((uint64_t{1} << shift) >= d) break;
    }
    const uint64_t one = 1;
    magic = static_cast<uint32_t>(((one << 32) * ((one << shift) - d)) / d + 1);
  }
  __host__ __device__ uint32_t div(uint32_t n) const {
#if defined(__CUDA_ARCH__)
    const uint32_t hi = __umulhi(n, magic);
#else
    const uint32_t hi = static_cast<uint32_t>((static_cast<uint64_t>(n) * magic) >> 32);
#endif
    return static_cast<uint32_t>((static_cast<uint64_t>(hi) + n) >> shift);
  }
  uint32_t divisor = 1;
  uint32_t magic = 0;
  uint32_t shift = 0;
};

// Byte offsets of N operands from a linear index over the iterator's shape (dim 0 fastest).
template <int N, typename Index>
struct OffsetCalculator {
  OffsetCalculator(const TensorIterator& iter) {  // NOLINT(implicit)
    TS_CHECK(iter.ndim() <= kMaxDims, "CUDA elementwise: ", iter.ndim(),
             " dims after coalescing; at most ", kMaxDims, " are supported");
    dims = static_cast<int>(iter.ndim());
    for (int d = 0; d < dims; ++d) {
      sizes[d] = IntDivider<Index>(static_cast<Index>(iter.shape()[d]));
      for (int k = 0; k < N; ++k) strides[d][k] = static_cast<Index>(iter.strides(k)[d]);
    }
  }
  __device__ std::array<Index, N> get(Index linear) const {
    std::array<Index, N> off{};
#pragma unroll
    for (int d = 0; d < kMaxDims; ++d) {
      if (d == dims) break;
      const Index q = sizes[d].div(linear);
      const Index r = linear - q * sizes[d].divisor;
      linear = q;
#pragma unroll
      for (int k = 0; k < N; ++k) off[k] += r * strides[d][k];
    }
    return off;
  }
  int dims = 0;
  IntDivider<Index> sizes[kMaxDims];
  Index strides[kMaxDims][N];
};

template <int N>
struct Pointers {
  char* p[N];
};

// f applied to the NIN inputs at `in` (already offset), in compute type.
template <int NIN, typename In, typename F>
__device__ inline auto apply(const F& f, const char* const* in) {
  using C = compute_t<In>;
  if constexpr (NIN == 0) {
    return f();
  } else if constexpr (NIN == 1) {
    return f(load_as_compute<In>(in[0]));
  } else if constexpr (NIN == 2) {
    return f(load_as_compute<In>(in[0]), load_as_compute<In>(in[1]));
  } else {
    static_assert(NIN == 3, "at most three inputs");
    return f(load_as_compute<In>(in[0]), load_as_compute<In>(in[1]), load_as_compute<In>(in[2]));
  }
  (void)sizeof(C);
}

template <int NIN, typename Out, typename In, typename Index, typename F>
__global__ void strided_kernel(OffsetCalculator<NIN + 1, Index> calc, Pointers<NIN + 1> ptrs,
                               Index n, F f) {
  const Index step = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index i = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    const auto off = calc.get(i);
    const char* in[NIN > 0 ? NIN : 1];
#pragma unroll
    for (int k = 0; k < NIN; ++k) in[k] = ptrs.p[k + 1] + off[k + 1];
    *reinterpret_cast<Out*>(ptrs.p[0] + off[0]) = convert<Out>(apply<NIN, In>(f, in));
  }
}

template <typename T, int VEC>
struct alignas(sizeof(T) * VEC) AlignedVector {
  T v[VEC];
};

template <int NIN, typename Out, typename In, int VEC, typename F>
__global__ void vectorized_kernel(Pointers<NIN + 1> ptrs, uint32_t n, F f) {
  const uint32_t tid = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t step = gridDim.x * blockDim.x;
  const uint32_t nvec = n / VEC;
  for (uint32_t i = tid; i < nvec; i += step) {
    AlignedVector<In, VEC> in[NIN > 0 ? NIN : 1];
#pragma unroll
    for (int k = 0; k < NIN; ++k) {
      in[k] = reinterpret_cast<const AlignedVector<In, VEC>*>(ptrs.p[k + 1])[i];
    }
    AlignedVector<Out, VEC> out;
#pragma unroll
    for (int j = 0; j < VEC; ++j) {
      const char* e[NIN > 0 ? NIN : 1];
#pragma unroll
      for (int k = 0; k < NIN; ++k) e[k] = reinterpret_cast<const char*>(&in[k].v[j]);
      out.v[j] = convert<Out>(apply<NIN, In>(f, e));
    }
    reinterpret_cast<AlignedVector<Out, VEC>*>(ptrs.p[0])[i] = out;
  }
  // The tail (fewer than VEC elements), one per thread.
  const uint32_t t = nvec * VEC + tid;
  if (t < n) {
    const char* e[NIN > 0 ? NIN : 1];
#pragma unroll
    for (int k = 0; k < NIN; ++k) e[k] = ptrs.p[k + 1] + static_cast<size_t>(t) * sizeof(In);
    reinterpret_cast<Out*>(ptrs.p[0])[t] = convert<Out>(apply<NIN, In>(f, e));
  }
}

namespace detail {

template <int NIN>
Pointers<NIN + 1> pointers(const TensorIterator& iter) {
  Pointers<NIN + 1> p;
  for (int k = 0; k <= NIN; ++k) p.p[k] = iter.data_ptr(k);
  return p;
}

template <int NIN, typename Out, typename In, typename Index, typename F>
void launch_strided(const TensorIterator& iter, const F& f) {
  const int64_t n = iter.numel();
  strided_kernel<NIN, Out, In, Index><<<grid_size(n, 4), kThreads, 0, stream()>>>(
      OffsetCalculator<NIN + 1, Index>(iter), pointers<NIN>(iter), static_cast<Index>(n), f);
  TS_CUDA_KERNEL_LAUNCH_CHECK();
}

template <int NIN, typename Out, typename In, typename F>
void launch_32bit(const TensorIterator& iter, const F& f) {
  constexpr int kWidest = sizeof(In) > sizeof(Out) ? sizeof(In) : sizeof(Out);
  constexpr int kVec = 16 / kWidest;
  bool vectorize = iter.is_contiguous();
  for (int k = 0; k <= NIN && vectorize; ++k) {
    const size_t align = (k == 0 ? sizeof(Out) : sizeof(In)) * kVec;
    vectorize = reinterpret_cast<uintptr_t>(iter.data_ptr(k)) % align == 0;
  }
  if (vectorize) {
    const int64_t n = iter.numel();
    vectorized_kernel<NIN, Out, In, kVec><<<grid_size(n, kVec), kThreads, 0, stream()>>>(
        pointers<NIN>(iter), static_cast<uint32_t>(n), f);
    TS_CUDA_KERNEL_LAUNCH_CHECK();
  } else {
    launch_strided<NIN, Out, In, uint32_t>(iter, f);
  }
}

}  // namespace detail

// out = f(in...) over `iter`: operand 0 has storage type Out, the NIN inputs storage type In,
// and f takes and returns compute_t<In> values (or bool). See Note [CUDA elementwise paths].
template <int NIN, typename Out, typename In, typename F>
void gpu_kernel(const TensorIterator& iter, const F& f) {
  TS_INTERNAL_ASSERT(iter.ntensors() == NIN + 1, "gpu_kernel: ", iter.ntensors(), " operands");
  if (iter.numel() == 0) return;
  if (force_64bit_indexing()) {
    detail::launch_strided<NIN, Out, In, int64_t>(iter, f);
  } else if (iter.can_use_32bit_indexing()) {
    detail::launch_32bit<NIN, Out, In>(iter, f);
  } else {
    for (TensorIterator& sub : iter.with_32bit_indexing()) {
      detail::launch_32bit<NIN, Out, In>(sub, f);
    }
  }
}

// The iterator of an elementwise call on CUDA: inputs cast to the compute dtype; the output
// through a casting temporary when `cast_output` (ops with a bool result keep it). A CPU 0-dim
// input (a wrapped Scalar) is first copied to the device.
TensorIterator elementwise_iter(const KernelCall& c, bool cast_output = true);

}  // namespace ts::cuda

namespace ts::cuda {

// Calls f(std::type_identity<scalar_t>{}) with scalar_t bound to t's type (CUDA types for
// float16/bfloat16), instantiating f only for the class of dtypes op_list.def declares for kOp:
// floating, real (no bool), integral and bool, or all.
template <OpId kOp, class F>
void dispatch_op_dtypes(ScalarType t, const F& f) {
  constexpr DTypeSet kDTypes = op_traits(kOp).dtypes;
  const char* name = op_info(kOp).name.data();
#define TS_CALL_F [&] { f(std::type_identity<scalar_t>{}); }
  if constexpr (!(kDTypes - DTypeSet::floating()).empty()) {
    if constexpr (!kDTypes.has(kBool)) {
      TS_CUDA_DISPATCH_REAL(t, name, TS_CALL_F);
    } else if constexpr (!kDTypes.has(kFloat)) {
      TS_CUDA_DISPATCH_INTEGRAL_AND_BOOL(t, name, TS_CALL_F);
    } else {
      TS_CUDA_DISPATCH_ALL(t, name, TS_CALL_F);
    }
  } else {
    TS_CUDA_DISPATCH_FLOATING(t, name, TS_CALL_F);
  }
#undef TS_CALL_F
}

// Note [CUDA bool results]
// Comparison-like kernels write bool. An out= or in-place output of another dtype gets a bool
// temporary on the device, copied into it afterwards (as the optimized CPU set does).
template <class F>
void with_bool_output(const KernelCall& c, const F& body) {
  const Tensor& out = c.outputs[0];
  if (out.dtype() == kBool) {
    body(c);
    return;
  }
  const Tensor tmp = empty_like(out, TensorOptions(kBool).device(out.device()));
  body(KernelCall{c.op, ArrayRef<Tensor>(&tmp, 1), c.inputs, c.p, c.kind});
  out.copy_(tmp);
}

// The kernel of a plain op (touchstone/plain_ops.h) of NIN inputs: f(std::type_identity<T>{}, c)
// gives the functor for storage type T, run over the op's dtypes; UnaryBool and BinaryBool ops
// write bool.
template <OpId op, int NIN, class F>
void plain_kernel(const KernelCall& call, const F& f) {
  constexpr OpSignature kSig = op_traits(op).sig;
  constexpr bool kBoolResult = kSig == OpSignature::UnaryBool || kSig == OpSignature::BinaryBool;
  const auto body = [&f](const KernelCall& c) {
    DeviceGuard guard(c.outputs[0].device().index());
    TensorIterator iter = elementwise_iter(c, /*cast_output=*/!kBoolResult);
    dispatch_op_dtypes<op>(iter.common_dtype(), [&](auto type) {
      using T = typename decltype(type)::type;
      gpu_kernel<NIN, std::conditional_t<kBoolResult, bool, T>, T>(iter, f(type, c));
    });
    if (!kBoolResult) iter.cast_outputs();
  };
  if constexpr (kBoolResult) {
    with_bool_output(call, body);
  } else {
    body(call);
  }
}

}  // namespace ts::cuda
