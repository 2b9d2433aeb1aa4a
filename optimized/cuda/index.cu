// CUDA index_select, gather, scatter_add and cat. Index values arrive checked (Note [Index
// bounds] in lib/src/ops/index.cpp reduces a device index to its min and max for that).
//
// Note [CUDA indexing]
// index_select and gather walk their output, scatter_add its index, one element a thread; each
// walk carries three element-stride sets: the plain side (the output; scatter_add's src), the
// indexed side (self; scatter_add's output) whose stride along dim is replaced by the index
// value times that stride, and the index. gather and index_select move raw elements (any dtype,
// by size). scatter_add adds with atomics: float32/float64 natively, float16/bfloat16 into a
// float32 copy of self (rounded once at the end), int32/int64 natively (wrapping), the 1- and
// 2-byte integers and bool with a compare-and-swap on their 32-bit word (bool ORs). Integer
// results do not depend on the order; floating ones may differ in the last bits from run to
// run, as PyTorch's CUDA scatter_add (the CPU optimized set is deterministic).
#include "optimized/cuda/common.cuh"
#include "touchstone/kernel_family.h"
#include "touchstone/ops.h"

namespace ts::cuda {
namespace {

constexpr int kIndexMaxDims = 16;

struct IndexGeometry {
  int ndim = 0;
  int64_t size[kIndexMaxDims] = {};
  int64_t plain[kIndexMaxDims] = {};    // element strides
  int64_t indexed[kIndexMaxDims] = {};  // 0 along dim
  int64_t index[kIndexMaxDims] = {};
  int64_t dim_stride = 0;  // the indexed side's stride along dim
  int64_t numel = 1;

  __device__ void offsets(int64_t i, int64_t& p, int64_t& x, int64_t& k) const {
    p = x = k = 0;
    for (int d = ndim - 1; d >= 0; --d) {
      const int64_t q = i / size[d];
      const int64_t c = i - q * size[d];
      i = q;
      p += c * plain[d];
      x += c * indexed[d];
      k += c * index[d];
    }
  }
};

// The walk over `shape`; strides of dims the tensors lack (a 0-dim index) are 0.
IndexGeometry make_geometry(IntArrayRef shape, const Tensor& plain, const Tensor& indexed,
                            IntArrayRef index_strides, int64_t dim) {
  TS_CHECK(shape.size() <= kIndexMaxDims, "CUDA indexing: at most ", kIndexMaxDims, " dims");
  IndexGeometry g;
  g.ndim = static_cast<int>(shape.size());
  for (int d = 0; d < g.ndim; ++d) {
    g.size[d] = shape[d];
    g.numel *= shape[d];
    g.plain[d] = plain.stride(d);
    g.indexed[d] = d == dim ? 0 : indexed.stride(d);
    g.index[d] = static_cast<size_t>(d) < index_strides.size() ? index_strides[d] : 0;
  }
  g.dim_stride = indexed.dim() == 0 ? 0 : indexed.stride(dim);
  return g;
}

template <typename E, typename I>
__global__ void gather_kernel(IndexGeometry g, E* out, const E* self, const I* index) {
  const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < g.numel;
       i += step) {
    int64_t p, x, k;
    g.offsets(i, p, x, k);
    out[p] = self[x + static_cast<int64_t>(index[k]) * g.dim_stride];
  }
}

// Raw elements of `es` bytes; the index is int64 or int32.
template <typename F>
void dispatch_element(size_t es, ScalarType index_dtype, const F& f) {
  const auto with_index = [&](auto* e) {
    if (index_dtype == kLong) {
      f(e, static_cast<int64_t*>(nullptr));
    } else {
      f(e, static_cast<int32_t*>(nullptr));
    }
  };
  switch (es) {
    case 1:
      return with_index(static_cast<uint8_t*>(nullptr));
    case 2:
      return with_index(static_cast<uint16_t*>(nullptr));
    case 4:
      return with_index(static_cast<uint32_t*>(nullptr));
    default:
      TS_INTERNAL_ASSERT(es == 8, "CUDA indexing: element size ", es);
      return with_index(static_cast<uint64_t*>(nullptr));
  }
}

void launch_gather(const IndexGeometry& g, const Tensor& out, const Tensor& self,
                   const Tensor& index) {
  if (g.numel == 0) return;
  dispatch_element(out.element_size(), index.dtype(), [&](auto* e, auto* i) {
    using E = std::remove_pointer_t<decltype(e)>;
    using I = std::remove_pointer_t<decltype(i)>;
    gather_kernel<E, I><<<grid_size(g.numel), kThreads, 0, stream()>>>(
        g, static_cast<E*>(out.data_ptr()), static_cast<const E*>(self.data_ptr()),
        static_cast<const I*>(index.data_ptr()));
    TS_CUDA_KERNEL_LAUNCH_CHECK();
  });
}

// Runs body(out) with an output of dtype ct (a temporary converted into out= afterwards).
template <class F>
void with_dtype(const Tensor& out, ScalarType ct, const F& body) {
  if (out.dtype() == ct) {
    body(out);
    return;
  }
  const Tensor tmp = empty(out.sizes(), TensorOptions(ct).device(out.device()));
  body(tmp);
  out.copy_(tmp);
}

// One kernel per Kernel op of signature classes Index and Join (Note [Kernel families]): this
// template for index_select and gather, the output gathered from self along dim (gather's index
// has the output's shape), specializations for scatter_add and cat.
template <OpId op>
void kernel(const KernelCall& c) {
  static_assert(op == OpId::index_select || op == OpId::gather, "an Index op without its kernel");
  const Tensor &self = c.inputs[0], &index = c.inputs[1];
  const int64_t dim = c.params<DimParams>().dim;
  DeviceGuard guard(c.outputs[0].device().index());
  with_dtype(c.outputs[0], c.p.compute_dtype, [&](const Tensor& out) {
    DimVector index_strides(index.strides());
    if constexpr (op == OpId::index_select) {  // the index (1-D or one value) runs along dim
      index_strides = DimVector(static_cast<size_t>(out.dim()), 0);
      if (out.dim() > 0 && index.dim() == 1) index_strides[dim] = index.stride(0);
    }
    launch_gather(make_geometry(out.sizes(), out, self, index_strides, dim), out, self, index);
  });
}

// ---- scatter_add ----

template <typename T>
__device__ inline void atomic_add_word(T* p, T v) {
  // The 1- or 2-byte element inside its aligned 32-bit word, updated by compare-and-swap.
  using U = std::conditional_t<sizeof(T) == 1, uint8_t, uint16_t>;
  const uintptr_t addr = reinterpret_cast<uintptr_t>(p);
  unsigned int* word = reinterpret_cast<unsigned int*>(addr & ~uintptr_t{3});
  const unsigned int shift = static_cast<unsigned int>(addr & 3) * 8;
  const unsigned int mask = static_cast<unsigned int>(static_cast<U>(~U(0))) << shift;
  unsigned int old = *word, assumed;
  do {
    assumed = old;
    const U bits = static_cast<U>((assumed & mask) >> shift);
    U next;
    if constexpr (std::is_same_v<T, bool>) {
      next = static_cast<U>(bits != 0 || v);
    } else {
      next = static_cast<U>(bits + static_cast<U>(v));  // wraps like T
    }
    old = atomicCAS(word, assumed, (assumed & ~mask) | (static_cast<unsigned int>(next) << shift));
  } while (old != assumed);
}

template <typename A>
__device__ inline void atomic_add(A* p, A v) {
  if constexpr (std::is_same_v<A, float> || std::is_same_v<A, double> ||
                std::is_same_v<A, int32_t>) {
    atomicAdd(p, v);
  } else if constexpr (std::is_same_v<A, int64_t>) {
    atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
  } else {
    static_assert(sizeof(A) <= 2, "no atomic add for this type");
    atomic_add_word(p, v);
  }
}

template <typename A, typename S>
__global__ void scatter_add_kernel_impl(IndexGeometry g, A* out, const S* src,
                                        const int64_t* index) {
  const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < g.numel;
       i += step) {
    int64_t p, x, k;
    g.offsets(i, p, x, k);
    atomic_add(out + x + index[k] * g.dim_stride, convert<A>(src[p]));
  }
}

template <>
void kernel<OpId::scatter_add>(const KernelCall& c) {
  const Tensor &self = c.inputs[0], &index = c.inputs[1], &src = c.inputs[2];
  const ScalarType ct = c.p.compute_dtype;
  const int64_t dim = c.params<DimParams>().dim;
  DeviceGuard guard(c.outputs[0].device().index());
  with_dtype(c.outputs[0], ct, [&](const Tensor& out) {
    // float16/bfloat16 accumulate in a float32 copy of self; else out starts as self.
    const bool widen = ct == kHalf || ct == kBFloat16;
    const Tensor acc = widen ? self.to(kFloat) : out;
    if (!widen && !acc.is_same(self)) acc.copy_(self);
    const IndexGeometry g = make_geometry(index.sizes(), src, acc, index.strides(), dim);
    if (g.numel > 0) {
      TS_CUDA_DISPATCH_ALL(ct, "scatter_add", [&] {
        using A = std::conditional_t<is_reduced_v<scalar_t>, float, scalar_t>;
        scatter_add_kernel_impl<A, scalar_t><<<grid_size(g.numel), kThreads, 0, stream()>>>(
            g, static_cast<A*>(acc.data_ptr()), static_cast<const scalar_t*>(src.data_ptr()),
            static_cast<const int64_t*>(index.data_ptr()));
        TS_CUDA_KERNEL_LAUNCH_CHECK();
      });
    }
    if (widen) out.copy_(acc);
  });
}

// ---- cat ----

// Each input is copied (and converted) into its slice of the output by the copy kernel.
template <>
void kernel<OpId::cat>(const KernelCall& c) {
  const Tensor& out = c.outputs[0];
  const int64_t dim = c.params<DimParams>().dim;
  DeviceGuard guard(out.device().index());
  int64_t offset = 0;
  for (const Tensor& in : c.inputs) {
    const int64_t n = in.size(dim);
    if (in.numel() > 0) out.narrow(dim, offset, n).copy_(in);
    offset += n;
  }
}

}  // namespace

TS_REGISTER_KERNELS(optimized, cuda_index) {
  for_each_kernel_op<OpSignature::Index, OpSignature::Join>(
      [&](auto op) { m.impl(op, kCUDA, kernel<op>); });
}

}  // namespace ts::cuda
