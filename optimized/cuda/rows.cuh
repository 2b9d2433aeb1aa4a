#pragma once
// Row geometry and in-block combinations shared by the row-wise kernels (softmax, log_softmax,
// layer_norm, cumsum): a contiguous tensor seen as [outer, n, inner] around one dim, lanes of a
// block combining a value (tree in shared memory), and a block-wide inclusive scan.
#include "optimized/cuda/common.cuh"

namespace ts::cuda {

// A contiguous tensor as [outer, n, inner] around dim (a 0-dim tensor is one row of one).
struct RowShape {
  int64_t outer = 1, n = 1, inner = 1;
};
inline RowShape row_shape(const Tensor& t, int64_t dim) {
  RowShape r;
  for (int64_t d = 0; d < t.dim(); ++d) {
    (d < dim ? r.outer : d == dim ? r.n : r.inner) *= t.size(d);
  }
  return r;
}

// Combines v over the `lanes` threads x of one block row (threadIdx.y), lower lanes on the left,
// and returns the result to every lane. smem holds lanes * blockDim.y values.
template <typename A, typename F>
__device__ inline A lanes_allreduce(A v, A* smem, const F& combine) {
  const int lanes = blockDim.x;
  const int lane = threadIdx.x;
  A* row = smem + threadIdx.y * lanes;
  row[lane] = v;
  __syncthreads();
  for (int s = lanes / 2; s > 0; s >>= 1) {
    if (lane < s) row[lane] = combine(row[lane], row[lane + s]);
    __syncthreads();
  }
  const A r = row[0];
  __syncthreads();  // smem may be reused right after
  return r;
}

// Inclusive prefix sums of v over a one-dimensional block (Hillis-Steele); smem holds
// 2 * blockDim.x values.
template <typename A, typename F>
__device__ inline A block_inclusive_scan(A v, A* smem, const F& add) {
  const int n = blockDim.x;
  const int t = threadIdx.x;
  int cur = 0;
  smem[t] = v;
  __syncthreads();
  for (int offset = 1; offset < n; offset <<= 1) {
    const A* in = smem + cur * n;
    A* out = smem + (1 - cur) * n;
    out[t] = t >= offset ? add(in[t - offset], in[t]) : in[t];
    cur = 1 - cur;
    __syncthreads();
  }
  const A r = smem[cur * n + t];
  __syncthreads();
  return r;
}

// The smallest power of two >= n, within [lo, hi].
inline int pow2_clamp(int64_t n, int lo, int hi) {
  int p = lo;
  while (p < n && p < hi) p <<= 1;
  return p;
}

}  // namespace ts::cuda
