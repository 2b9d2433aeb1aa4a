#pragma once
// Our own cache-blocked matrix products (gemm.cpp), for the dtypes OpenBLAS does not cover:
// float16/bfloat16 (accumulating in float) and integers (wrapping, exact); also float/double
// where BLAS cannot be called (k == 0, sizes beyond 32-bit BLAS ints).
#include <cstdint>

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

// Sets OpenBLAS's thread count to ours (one inside a parallel region) before a BLAS call
// (linalg.cpp; conv.cpp calls BLAS too).
void sync_blas_threads();

}  // namespace ts::cpu
