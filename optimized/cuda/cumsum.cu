// CUDA cumsum, cumprod and logcumsumexp (registered by reduce.cu). The input is cast to the compute
// dtype and made contiguous, then seen as [outer, n, inner] around the scanned dim (rows.cuh).
//
// Note [CUDA cumsum]
// inner == 1 (the scanned dim is innermost): one block per row walks it in tiles of blockDim.x
// elements: a block-wide inclusive scan of the tile, plus the carry of the tiles before it.
// Otherwise each thread scans one [outer, inner] column sequentially, neighbouring threads on
// neighbouring columns. Floating dtypes accumulate in float32 (float64 for float64), so a long
// float32 scan's error grows with its length, as PyTorch's; integers wrap in uint64 and bool
// stores "sum != 0", as reference/reduce.cpp. Each element is read before it is written, by
// the same thread, so the output may be the input (cumsum_).
#include "optimized/cuda/reduce.cuh"
#include "optimized/cuda/rows.cuh"
#include "touchstone/ops.h"

namespace ts::cuda {
namespace {

template <typename T>
using scan_acc_t = std::conditional_t<is_float_v<T>, acc_float_t<T>, uint64_t>;

template <typename T>
__device__ inline scan_acc_t<T> scan_load(T v) {
  if constexpr (is_float_v<T>) {
    return convert<acc_float_t<T>>(v);
  } else {
    return static_cast<uint64_t>(static_cast<int64_t>(v));
  }
}

template <typename T>
__device__ inline T scan_store(scan_acc_t<T> a) {
  if constexpr (is_float_v<T>) {
    return convert<T>(a);
  } else if constexpr (std::is_same_v<T, bool>) {
    return a != 0;
  } else {
    return static_cast<T>(a);
  }
}

struct Add {
  template <typename A>
  __device__ A identity() const {
    return A(0);
  }
  template <typename A>
  __device__ A operator()(A a, A b) const {
    return a + b;
  }
};

// cumprod (issue 16): integers multiply in uint64 (wrapping), floats in the accumulation type.
struct Mul {
  template <typename A>
  __device__ A identity() const {
    return A(1);
  }
  template <typename A>
  __device__ A operator()(A a, A b) const {
    return a * b;
  }
};

// logcumsumexp (issue 16), floating only: log(e^a + e^b); equal infinities stay, NaN propagates.
struct LogAddExp {
  template <typename A>
  __device__ A identity() const {
    return static_cast<A>(-INFINITY);
  }
  template <typename A>
  __device__ A operator()(A a, A b) const {
    if (::isnan(a) || ::isnan(b)) return a + b;
    const A hi = a > b ? a : b, lo = a > b ? b : a;
    if (::isinf(hi) && hi == lo) return hi;
    return hi + ::log1p(::exp(lo - hi));
  }
};

template <typename T, class Op>
__global__ void scan_rows_kernel(const T* x, T* y, int64_t rows, int64_t n, Op op) {
  using A = scan_acc_t<T>;
  extern __shared__ __align__(16) unsigned char rows_smem[];
  A* smem = reinterpret_cast<A*>(rows_smem);
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    A carry = op.template identity<A>();
    for (int64_t tile = 0; tile < n; tile += blockDim.x) {
      const int64_t k = tile + threadIdx.x;
      const A v = k < n ? scan_load(x[row * n + k]) : op.template identity<A>();
      const A s = op(carry, block_inclusive_scan(v, smem, op));
      if (k < n) y[row * n + k] = scan_store<T>(s);
      // The tile's total: the last thread's inclusive value, shared through smem.
      if (threadIdx.x == blockDim.x - 1) smem[0] = s;
      __syncthreads();
      carry = smem[0];
      __syncthreads();
    }
  }
}

template <typename T, class Op>
__global__ void scan_cols_kernel(const T* x, T* y, int64_t outer, int64_t n, int64_t inner, Op op) {
  using A = scan_acc_t<T>;
  const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < outer * inner;
       i += step) {
    const int64_t o = i / inner;
    const int64_t start = o * n * inner + (i - o * inner);
    A acc = op.template identity<A>();
    for (int64_t k = 0; k < n; ++k) {
      acc = op(acc, scan_load(x[start + k * inner]));
      y[start + k * inner] = scan_store<T>(acc);
    }
  }
}

// The launcher of cumsum, cumprod and logcumsumexp (Note [CUDA cumsum]); `floating` dispatches
// the floating dtypes only (logcumsumexp).
template <class Op, bool kFloatingOnly>
void scan_kernel(const KernelCall& c, const char* name) {
  const ScalarType ct = c.p.compute_dtype;
  const Tensor& out = c.outputs[0];
  DeviceGuard guard(out.device().index());
  const Tensor& self = c.inputs[0];
  const Tensor x = (self.dtype() == ct ? self : self.to(ct)).contiguous();
  if (x.numel() == 0) return;
  const RowShape rs = row_shape(x, x.dim() == 0 ? 0 : c.params<DimParams>().dim);
  const bool direct = out.dtype() == ct && out.is_contiguous();
  const Tensor y = direct ? out : empty(out.sizes(), TensorOptions(ct).device(out.device()));
  auto launch = [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    const T* xp = static_cast<const T*>(x.data_ptr());
    T* yp = static_cast<T*>(y.data_ptr());
    // A floating cumprod runs in order along the row: a tree's partial products overflow to
    // inf where the running product is 0 (0 * inf = NaN where the reference has 0).
    if (rs.inner == 1 && !(std::is_same_v<Op, Mul> && is_float_v<T>)) {
      const int threads = pow2_clamp(rs.n, 32, kThreads);
      const int64_t blocks = rs.outer < (1 << 20) ? rs.outer : (1 << 20);
      scan_rows_kernel<T>
          <<<static_cast<unsigned>(blocks), threads, 2 * threads * sizeof(scan_acc_t<T>),
             stream()>>>(xp, yp, rs.outer, rs.n, Op{});
    } else {
      scan_cols_kernel<T><<<grid_size(rs.outer * rs.inner), kThreads, 0, stream()>>>(
          xp, yp, rs.outer, rs.n, rs.inner, Op{});
    }
    TS_CUDA_KERNEL_LAUNCH_CHECK();
  };
  if constexpr (kFloatingOnly) {
    TS_CUDA_DISPATCH_FLOATING(ct, name, [&] { launch(static_cast<scalar_t*>(nullptr)); });
  } else {
    TS_CUDA_DISPATCH_ALL(ct, name, [&] { launch(static_cast<scalar_t*>(nullptr)); });
  }
  if (!direct) out.copy_(y);
}

}  // namespace

void cumsum_kernel(const KernelCall& c) {
  scan_kernel<Add, false>(c, "cumsum");
}
void cumprod_kernel(const KernelCall& c) {
  scan_kernel<Mul, false>(c, "cumprod");
}
void logcumsumexp_kernel(const KernelCall& c) {
  scan_kernel<LogAddExp, true>(c, "logcumsumexp");
}

}  // namespace ts::cuda
