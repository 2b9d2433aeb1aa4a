#pragma once
// Our own cache-blocked matrix products (gemm.cpp), for the dtypes OpenBLAS does not cover:
// float16/bfloat16 (accumulating in float) and integers (wrapping, exact); also float/double
// where BLAS cannot be called (k == 0, sizes beyond 32-bit BLAS ints).
#include <cstddef>
#include <cstdint>
#include <functional>

#include "touchstone/dtype.h"

namespace ts::cpu {

// A strided (batched) matrix operand; strides in elements.
struct MatRef {
  const void* data = nullptr;
  int64_t batch_stride = 0, row_stride = 0, col_stride = 0;
};

// out[b] = alpha * (a[b] @ b[b]) + beta * self[b] for b < batch, with a n x m, b m x p and
// out n x p. Every operand has `dtype`; self.data null means beta is not used (not read: a beta
// of zero ignores NaN). `out` shares no memory with a or b, and with self only element for
// element. Integers wrap (mod 2^bits, as int64 arithmetic wrapped to the dtype); alpha and beta
// are given as double (floating) and int64 (integers).
struct GemmPlan {
  ScalarType dtype = kFloat;
  int64_t batch = 1, n = 0, m = 0, p = 0;
  MatRef a, b, self;
  void* out = nullptr;
  int64_t out_batch_stride = 0, out_row_stride = 0, out_col_stride = 0;
  double alpha = 1, beta = 0;
  int64_t ialpha = 1, ibeta = 0;
};
void blocked_gemm(const GemmPlan& g);

// sum_i a[i * sa] * b[i * sb] over n elements, rounded to `dtype` and stored at *out; float
// accumulation for float16/bfloat16 (double across chunks), wrapping for integers. Bitwise
// identical for any thread count.
void blocked_dot(ScalarType dtype, const void* a, int64_t sa, const void* b, int64_t sb, int64_t n,
                 void* out);

// Row-major c (m x n) = alpha * op(a) (m x k) @ op(b) (k x n) + beta * c, float32, as
// cblas_sgemm (beta 0: c is not read; alpha 0 or k 0: a and b are not read); our own kernel on
// our threads, one inside a parallel region (Note [Our sgemm] in sgemm.cpp). Sizes fit in int.
void sgemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
           int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc);

// The calling thread's float buffer number `slot` of at least n elements, 64-byte aligned, kept
// between calls up to 64 MiB (fresh pages fault on first touch: a GEMM's packing and a direct
// convolution's padded input reuse theirs); a larger one lasts until the slot's next call.
enum ThreadBuffer {
  kBufferGemmB,
  kBufferGemmA,
  kBufferConvInput,
  kBufferConvWeights,
  kThreadBuffers
};
float* thread_buffer(int slot, size_t n);

// Packs rows [p0, p0 + kc) and columns [j0, j0 + cols) of a product's b into panels of nr
// columns: bp[(j / nr) * nr * kc + l * nr + j % nr] = b(p0 + l, j0 + j), zero for j >= cols.
using PackB =
    std::function<void(int64_t p0, int64_t kc, int64_t j0, int64_t cols, int64_t nr, float* bp)>;
// c (m x n) = a (m x k, row-major) @ b + beta * c, b given by its packer, at most nc columns at
// a time (an implicit im2col: conv.cpp). The packer may run on several threads at once.
void sgemm_packed_b(int64_t m, int64_t n, int64_t k, const float* a, int64_t lda,
                    const PackB& pack_b, int64_t nc, float beta, float* c, int64_t ldc);

// Sets OpenBLAS's thread count to ours (one inside a parallel region) before a BLAS call
// (linalg.cpp; conv.cpp calls BLAS too).
void sync_blas_threads();

}  // namespace ts::cpu
