// CUDA matrix products through cuBLAS: mm, bmm, addmm, dot, mv as strided-batched GEMMs, and
// outer as a broadcast multiply. TF32 is off unless ts::cuda::set_allow_tf32(true).
#include <cublas_v2.h>

#include <mutex>
#include <vector>

#include "optimized/cuda/loops.cuh"
#include "touchstone/kernel_family.h"

namespace ts::cuda {
namespace {

#define TS_CUBLAS_CHECK(call)                                                                      \
  do {                                                                                             \
    const cublasStatus_t ts_cublas_status = (call);                                                \
    TS_CHECK(ts_cublas_status == CUBLAS_STATUS_SUCCESS, "cuBLAS error in ", #call, ": ",           \
             cublasGetStatusName(ts_cublas_status), " (", cublasGetStatusString(ts_cublas_status), \
             ")");                                                                                 \
  } while (0)

// One handle per (thread, device), bound to the current stream at each call.
cublasHandle_t handle() {
  thread_local std::vector<cublasHandle_t> handles;
  const int device = current_device();
  if (static_cast<size_t>(device) >= handles.size()) handles.resize(device + 1, nullptr);
  if (handles[device] == nullptr) TS_CUBLAS_CHECK(cublasCreate(&handles[device]));
  TS_CUBLAS_CHECK(cublasSetStream(handles[device], stream()));
  return handles[device];
}

cudaDataType_t cuda_type(ScalarType t) {
  switch (t) {
    case kFloat:
      return CUDA_R_32F;
    case kDouble:
      return CUDA_R_64F;
    case kHalf:
      return CUDA_R_16F;
    case kBFloat16:
      return CUDA_R_16BF;
    default:
      TS_ERROR("CUDA matmul: not implemented for dtype ", t);
  }
}

// A [batch, rows, cols] operand as cuBLAS sees it: row-major (trans = T on the column-major
// transpose) or column-major; anything else is made contiguous first.
struct MatrixArg {
  Tensor t;
  bool row_major = true;
  int64_t ld = 0;
  int64_t batch_stride = 0;
};

MatrixArg matrix_arg(const Tensor& m) {
  const int64_t rows = m.size(1), cols = m.size(2);
  const int64_t s_row = m.stride(1), s_col = m.stride(2);
  if ((s_col == 1 || cols == 1) && s_row >= std::max<int64_t>(cols, 1)) {
    return {m, true, s_row, m.stride(0)};
  }
  if ((s_row == 1 || rows == 1) && s_col >= std::max<int64_t>(rows, 1)) {
    return {m, false, s_col, m.stride(0)};
  }
  const Tensor c = m.contiguous();
  return {c, true, std::max<int64_t>(cols, 1), c.stride(0)};
}

// Note [Row-major GEMM]
// out[b] = alpha a[b] @ m[b] + beta out[b] for row-major out: cuBLAS is column-major, so it
// computes out^T = m^T a^T, where a row-major matrix is its column-major transpose as stored.
void gemm(const Tensor& out3, const Tensor& a3, const Tensor& b3, double alpha, double beta) {
  const int64_t batch = out3.size(0), n = out3.size(1), p = out3.size(2), k = a3.size(2);
  if (out3.numel() == 0) return;
  if (k == 0) {  // an empty contraction: cuBLAS has left C untouched there (pytorch#31421)
    if (beta == 0) {
      out3.fill_(0);
    } else {
      out3.mul_(beta);
    }
    return;
  }
  TS_CHECK(std::max({batch, n, p, k, a3.stride(0), a3.stride(1), a3.stride(2), b3.stride(0),
                     b3.stride(1), b3.stride(2)}) <= std::numeric_limits<int>::max(),
           "CUDA matmul: a size or stride over 2^31 - 1, which cuBLAS takes as int");
  const bool direct = out3.is_contiguous();
  const Tensor out = direct ? out3 : out3.contiguous();  // beta reads the old values
  const MatrixArg A = matrix_arg(a3), B = matrix_arg(b3);
  const ScalarType t = out.dtype();
  const cudaDataType_t dt = cuda_type(t);
  const bool is_double = t == kDouble;
  const cublasComputeType_t compute = is_double                       ? CUBLAS_COMPUTE_64F
                                      : (t == kFloat && allow_tf32()) ? CUBLAS_COMPUTE_32F_FAST_TF32
                                                                      : CUBLAS_COMPUTE_32F;
  const float alpha_f = static_cast<float>(alpha), beta_f = static_cast<float>(beta);
  const void* alpha_p = is_double ? static_cast<const void*>(&alpha) : &alpha_f;
  const void* beta_p = is_double ? static_cast<const void*>(&beta) : &beta_f;
  // cuBLAS's A is our m (p x k as it sees it), its B is our a (k x n).
  TS_CUBLAS_CHECK(cublasGemmStridedBatchedEx(
      handle(), B.row_major ? CUBLAS_OP_N : CUBLAS_OP_T, A.row_major ? CUBLAS_OP_N : CUBLAS_OP_T,
      static_cast<int>(p), static_cast<int>(n), static_cast<int>(k), alpha_p, B.t.data_ptr(), dt,
      static_cast<int>(B.ld), B.batch_stride, A.t.data_ptr(), dt, static_cast<int>(A.ld),
      A.batch_stride, beta_p, out.data_ptr(), dt, static_cast<int>(std::max<int64_t>(p, 1)), n * p,
      static_cast<int>(batch), compute, CUBLAS_GEMM_DEFAULT));
  if (!direct) out3.copy_(out);
}

// One kernel per Kernel op of signature class Matmul (Note [Kernel families]).
template <OpId op>
void kernel(const KernelCall& c) = delete;

template <>
void kernel<OpId::mm>(const KernelCall& c) {
  DeviceGuard guard(c.outputs[0].device().index());
  gemm(c.outputs[0].unsqueeze(0), c.inputs[0].unsqueeze(0), c.inputs[1].unsqueeze(0), 1, 0);
}

template <>
void kernel<OpId::bmm>(const KernelCall& c) {
  DeviceGuard guard(c.outputs[0].device().index());
  gemm(c.outputs[0], c.inputs[0], c.inputs[1], 1, 0);
}

template <>
void kernel<OpId::addmm>(const KernelCall& c) {
  const Tensor& out = c.outputs[0];
  DeviceGuard guard(out.device().index());
  const AddmmParams& p = c.params<AddmmParams>();
  const double beta = p.beta.to_double(), alpha = p.alpha.to_double();
  // A beta of zero never reads self (NaN included): cuBLAS ignores C when beta == 0.
  if (beta != 0 && !out.is_same(c.inputs[0])) out.copy_(c.inputs[0]);
  gemm(out.unsqueeze(0), c.inputs[1].unsqueeze(0), c.inputs[2].unsqueeze(0), alpha, beta);
}

template <>
void kernel<OpId::dot>(const KernelCall& c) {
  DeviceGuard guard(c.outputs[0].device().index());
  const Tensor& a = c.inputs[0];
  const Tensor& b = c.inputs[1];
  gemm(c.outputs[0].reshape({1, 1, 1}), a.reshape({1, 1, a.numel()}), b.reshape({1, b.numel(), 1}),
       1, 0);
}

template <>
void kernel<OpId::mv>(const KernelCall& c) {
  DeviceGuard guard(c.outputs[0].device().index());
  const Tensor& v = c.inputs[1];
  gemm(c.outputs[0].unsqueeze(0).unsqueeze(2), c.inputs[0].unsqueeze(0),
       v.reshape({1, v.numel(), 1}), 1, 0);
}

// outer: self[i] * vec2[j] through the elementwise launcher; integers multiply with wrapping
// (through uint64), bool is logical and, as the optimized CPU set.
struct OuterProduct {
  template <typename C>
  __device__ C operator()(C x, C y) const {
    if constexpr (std::is_same_v<C, bool>) {
      return x && y;
    } else if constexpr (std::is_integral_v<C>) {
      return static_cast<C>(static_cast<uint64_t>(x) * static_cast<uint64_t>(y));
    } else {
      return x * y;
    }
  }
};

template <>
void kernel<OpId::outer>(const KernelCall& c) {
  const Tensor& out = c.outputs[0];
  DeviceGuard guard(out.device().index());
  const int64_t shape[] = {out.size(0), out.size(1)};
  const Tensor inputs[] = {c.inputs[0].unsqueeze(1).expand(shape),
                           c.inputs[1].unsqueeze(0).expand(shape)};
  TensorIterator iter = elementwise_iter(KernelCall{c.op, c.outputs, inputs, c.p, c.kind});
  TS_CUDA_DISPATCH_ALL(iter.common_dtype(), "outer",
                       [&] { gpu_kernel<2, scalar_t, scalar_t>(iter, OuterProduct{}); });
  iter.cast_outputs();
}

}  // namespace

// cuBLAS covers the floating dtypes (PyTorch's CUDA matmuls reject integers too); outer, an
// elementwise multiply, takes op_list.def's dtypes.
TS_REGISTER_KERNELS(optimized, cuda_linalg) {
  for_each_kernel_op<OpSignature::Matmul>([&](auto op) {
    m.impl(op, kCUDA, op == OpId::outer ? op_info(op).dtypes : dtypes::floating, kernel<op>);
  });
}

}  // namespace ts::cuda
