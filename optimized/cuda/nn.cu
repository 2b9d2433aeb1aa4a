// CUDA softmax, log_softmax and layer_norm. Inputs are cast to the compute dtype and made
// contiguous, then seen as rows (rows.cuh); float16/bfloat16/float32 accumulate in float32.
//
// Note [CUDA row kernels]
// When the reduced extent is innermost (softmax over the last dim, layer_norm always), a row
// belongs to `lanes` threads of a block (a power of two from 32 to 256, other rows on the
// block's y) that read it with unit stride and combine through shared memory. Otherwise each
// thread owns one column (an [outer, inner] position) and walks it with stride inner, so a
// warp reads consecutive addresses. Softmax is numerically stable (reference/nn.cpp Note
// [Stable softmax]): the NaN-propagating row max, then the sum of exp(x - max), then the
// outputs, three passes over the row; layer_norm takes two passes (mean, then the biased
// variance of the deviations), then writes (x - mean) * rstd * w + b.
#include "optimized/cuda/reduce.cuh"
#include "optimized/cuda/rows.cuh"
#include "touchstone/kernel_family.h"
#include "touchstone/ops.h"

namespace ts::cuda {
namespace {

struct NanMax {
  template <typename A>
  __device__ A operator()(A a, A b) const {
    return a != a ? a : (b != b || b > a) ? b : a;
  }
};
struct Add {
  template <typename A>
  __device__ A operator()(A a, A b) const {
    return a + b;
  }
};

template <typename T, bool kLog>
__device__ inline T softmax_value(acc_float_t<T> x, acc_float_t<T> max, acc_float_t<T> sum) {
  return convert<T>(kLog ? (x - max) - ::log(sum) : ::exp(x - max) / sum);
}

// Rows of a block's x lanes; every thread runs every iteration, for the __syncthreads inside.
template <typename T, bool kLog>
__global__ void softmax_rows_kernel(const T* x, T* y, int64_t rows, int64_t n) {
  using A = acc_float_t<T>;
  extern __shared__ __align__(16) unsigned char rows_smem[];
  A* smem = reinterpret_cast<A*>(rows_smem);
  const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.y;
  for (int64_t base = static_cast<int64_t>(blockIdx.x) * blockDim.y; base < rows; base += step) {
    const int64_t row = base + threadIdx.y;
    const bool valid = row < rows;
    const T* xr = x + (valid ? row : 0) * n;
    A max = -INFINITY;
    for (int64_t k = threadIdx.x; valid && k < n; k += blockDim.x) {
      max = NanMax{}(max, convert<A>(xr[k]));
    }
    max = lanes_allreduce(max, smem, NanMax{});
    A sum = 0;
    for (int64_t k = threadIdx.x; valid && k < n; k += blockDim.x) {
      sum += ::exp(convert<A>(xr[k]) - max);
    }
    sum = lanes_allreduce(sum, smem, Add{});
    for (int64_t k = threadIdx.x; valid && k < n; k += blockDim.x) {
      y[row * n + k] = softmax_value<T, kLog>(convert<A>(xr[k]), max, sum);
    }
  }
}

// One thread per [outer, inner] column, walking n elements with stride inner.
template <typename T, bool kLog>
__global__ void softmax_cols_kernel(const T* x, T* y, int64_t outer, int64_t n, int64_t inner) {
  using A = acc_float_t<T>;
  const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < outer * inner;
       i += step) {
    const int64_t o = i / inner;
    const int64_t start = o * n * inner + (i - o * inner);
    A max = -INFINITY, sum = 0;
    for (int64_t k = 0; k < n; ++k) max = NanMax{}(max, convert<A>(x[start + k * inner]));
    for (int64_t k = 0; k < n; ++k) sum += ::exp(convert<A>(x[start + k * inner]) - max);
    for (int64_t k = 0; k < n; ++k) {
      y[start + k * inner] = softmax_value<T, kLog>(convert<A>(x[start + k * inner]), max, sum);
    }
  }
}

// Rows per launch are capped; the kernels' loops cover the rest.
inline unsigned capped_blocks(int64_t n, int64_t per_block) {
  const int64_t b = (n + per_block - 1) / per_block;
  return static_cast<unsigned>(b < 1 ? 1 : (b > (1 << 20) ? (1 << 20) : b));
}

// Runs body(out) on a contiguous output of dtype ct: c.outputs[0] itself when it is one, else a
// temporary copied into it afterwards.
template <class F>
void with_contiguous_output(const Tensor& out, ScalarType ct, const F& body) {
  if (out.dtype() == ct && out.is_contiguous()) {
    body(out);
    return;
  }
  const Tensor tmp = empty(out.sizes(), TensorOptions(ct).device(out.device()));
  body(tmp);
  out.copy_(tmp);
}

Tensor contiguous_as(const Tensor& t, ScalarType ct) {
  return (t.dtype() == ct ? t : t.to(ct)).contiguous();
}

void softmax_kernel(const KernelCall& c, bool log) {
  const ScalarType ct = c.p.compute_dtype;
  DeviceGuard guard(c.outputs[0].device().index());
  const Tensor x = contiguous_as(c.inputs[0], ct);
  if (x.numel() == 0) return;
  const RowShape rs = row_shape(x, x.dim() == 0 ? 0 : c.params<DimParams>().dim);
  with_contiguous_output(c.outputs[0], ct, [&](const Tensor& y) {
    TS_CUDA_DISPATCH_FLOATING(ct, op_info(c.op).name.data(), [&] {
      using T = scalar_t;
      const T* xp = static_cast<const T*>(x.data_ptr());
      T* yp = static_cast<T*>(y.data_ptr());
      if (rs.inner == 1) {
        const int lanes = pow2_clamp(rs.n, 32, kThreads);
        const dim3 block(lanes, kThreads / lanes);
        const size_t smem = sizeof(acc_float_t<T>) * kThreads;
        const unsigned blocks = capped_blocks(rs.outer, block.y);
        if (log) {
          softmax_rows_kernel<T, true><<<blocks, block, smem, stream()>>>(xp, yp, rs.outer, rs.n);
        } else {
          softmax_rows_kernel<T, false><<<blocks, block, smem, stream()>>>(xp, yp, rs.outer, rs.n);
        }
      } else {
        const unsigned blocks = capped_blocks(rs.outer * rs.inner, kThreads);
        if (log) {
          softmax_cols_kernel<T, true>
              <<<blocks, kThreads, 0, stream()>>>(xp, yp, rs.outer, rs.n, rs.inner);
        } else {
          softmax_cols_kernel<T, false>
              <<<blocks, kThreads, 0, stream()>>>(xp, yp, rs.outer, rs.n, rs.inner);
        }
      }
      TS_CUDA_KERNEL_LAUNCH_CHECK();
    });
  });
}

template <typename T>
__global__ void layer_norm_kernel_impl(const T* x, const T* w, const T* b, T* y, int64_t rows,
                                       int64_t n, acc_float_t<T> eps) {
  using A = acc_float_t<T>;
  extern __shared__ __align__(16) unsigned char rows_smem[];
  A* smem = reinterpret_cast<A*>(rows_smem);
  const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.y;
  for (int64_t base = static_cast<int64_t>(blockIdx.x) * blockDim.y; base < rows; base += step) {
    const int64_t row = base + threadIdx.y;
    const bool valid = row < rows;
    const T* xr = x + (valid ? row : 0) * n;
    A sum = 0;
    for (int64_t k = threadIdx.x; valid && k < n; k += blockDim.x) sum += convert<A>(xr[k]);
    const A mean = lanes_allreduce(sum, smem, Add{}) / static_cast<A>(n);
    A sq = 0;
    for (int64_t k = threadIdx.x; valid && k < n; k += blockDim.x) {
      const A d = convert<A>(xr[k]) - mean;
      sq += d * d;
    }
    const A var = lanes_allreduce(sq, smem, Add{}) / static_cast<A>(n);
    const A rstd = A(1) / ::sqrt(var + eps);
    for (int64_t k = threadIdx.x; valid && k < n; k += blockDim.x) {
      A v = (convert<A>(xr[k]) - mean) * rstd;
      if (w != nullptr) v *= convert<A>(w[k]);
      if (b != nullptr) v += convert<A>(b[k]);
      y[row * n + k] = convert<T>(v);
    }
  }
}

void layer_norm_kernel(const KernelCall& c) {
  const ScalarType ct = c.p.compute_dtype;
  const LayerNormParams& params = c.params<LayerNormParams>();
  DeviceGuard guard(c.outputs[0].device().index());
  const Tensor x = contiguous_as(c.inputs[0], ct);
  if (x.numel() == 0) return;
  int64_t n = 1;
  for (int64_t d : params.dims) n *= x.size(d);
  const int64_t rows = x.numel() / n;
  const Tensor w = c.inputs[1].defined() ? contiguous_as(c.inputs[1], ct) : Tensor();
  const Tensor b = c.inputs[2].defined() ? contiguous_as(c.inputs[2], ct) : Tensor();
  with_contiguous_output(c.outputs[0], ct, [&](const Tensor& y) {
    TS_CUDA_DISPATCH_FLOATING(ct, "layer_norm", [&] {
      using T = scalar_t;
      const int lanes = pow2_clamp(n, 32, kThreads);
      const dim3 block(lanes, kThreads / lanes);
      layer_norm_kernel_impl<T>
          <<<capped_blocks(rows, block.y), block, sizeof(acc_float_t<T>) * kThreads, stream()>>>(
              static_cast<const T*>(x.data_ptr()),
              w.defined() ? static_cast<const T*>(w.data_ptr()) : nullptr,
              b.defined() ? static_cast<const T*>(b.data_ptr()) : nullptr,
              static_cast<T*>(y.data_ptr()), rows, n, static_cast<acc_float_t<T>>(params.eps));
      TS_CUDA_KERNEL_LAUNCH_CHECK();
    });
  });
}

// One branch per Softmax, Norm and Loss kernel op of op_list.def (registered below); the loss
// kernels are nn_loss.cu's.
template <OpId op>
void nn_kernel(const KernelCall& c) {
  if constexpr (op == OpId::softmax || op == OpId::log_softmax) {
    softmax_kernel(c, op == OpId::log_softmax);
  } else if constexpr (op == OpId::layer_norm) {
    layer_norm_kernel(c);
  } else if constexpr (op == OpId::nll_loss) {
    nll_loss_kernel(c);
  } else if constexpr (op == OpId::mse_loss) {
    mse_loss_kernel(c);
  } else {
    static_assert(kMissingKernel<op>, "an nn op without its CUDA kernel");
  }
}

}  // namespace

TS_REGISTER_KERNELS(optimized, cuda_nn) {
  for_each_kernel_op<OpSignature::Softmax, OpSignature::Norm, OpSignature::Loss>(
      [&](auto op) { m.impl(op, kCUDA, nn_kernel<op>); });
}

}  // namespace ts::cuda
