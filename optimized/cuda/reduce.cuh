#pragma once
// The reduction launcher: reduced/kept geometry of any layout, block and grid reductions with a
// deterministic order, and the accumulators of every reduction. See Note [CUDA reductions].
#include <limits>

#include "optimized/cuda/common.cuh"
#include "touchstone/ops.h"

namespace ts::cuda {

// Note [CUDA reductions]
// Geometry: the input's dims split into kept dims (one per output element) and reduced dims,
// size-1 dims dropped and neighbours coalesced; offsets come from a linear output index o and
// a linear reduced index r. Kept dims go fastest-stride first; reduced dims too, except for
// index-returning reductions, which keep them in row-major order so r is the flattened index
// PyTorch returns.
// Blocks: when the reduced dims are the input's fastest (inner), a block's x threads ("lanes")
// walk one output's reduced elements and its y threads are other outputs; otherwise (outer)
// x threads are neighbouring outputs, so a warp reads consecutive addresses, and y threads are
// lanes. Each lane accumulates a strided run of r sequentially, then the lanes combine as a
// binary tree in shared memory. With few outputs and long reductions the reduced range is also
// split over up to 65535 blocks per output (a grid reduction): each writes its partial, and a
// second kernel combines the partials of an output in order.
// Determinism: the launch shape is a function of the tensor's shape only (not of the GPU), and
// every combination order is fixed, so results are bitwise reproducible across runs and GPUs.
// Precision: float32, float16 and bfloat16 accumulate in float32, float64 in float64 (as
// PyTorch's CUDA reductions; the CPU optimized set accumulates in float64 instead). The
// sequential runs are short (a few hundred to a few thousand terms) and the tree is balanced,
// so a float32 sum's error grows like sqrt(n) ulps, within the conformance tolerance. Integer
// sums and products wrap in uint64; var/std use Welford's update and Chan's combination in the
// accumulation type; logsumexp keeps a running (max, sum of exp(x - max)).
// The geometry and the accumulators are __host__ __device__, so tests/test_cuda_reduce_host.cu
// can run a launch's logic on the host.
inline constexpr int kReduceMaxDims = 16;

struct ReduceGeometry {
  const char* in = nullptr;
  char* out[2] = {nullptr, nullptr};
  int nkept = 0, nred = 0;
  int64_t kept_size[kReduceMaxDims] = {};
  int64_t kept_in[kReduceMaxDims] = {};  // byte strides
  int64_t kept_out[2][kReduceMaxDims] = {};
  int64_t red_size[kReduceMaxDims] = {};
  int64_t red_in[kReduceMaxDims] = {};
  int64_t num_outputs = 1, num_reduced = 1;

  // Byte offsets of output o's first input element and of its output elements.
  __host__ __device__ void output_offsets(int64_t o, int64_t& in_off, int64_t& out0,
                                          int64_t& out1) const {
    in_off = out0 = out1 = 0;
    for (int d = 0; d < nkept; ++d) {
      const int64_t q = o / kept_size[d];
      const int64_t i = o - q * kept_size[d];
      o = q;
      in_off += i * kept_in[d];
      out0 += i * kept_out[0][d];
      out1 += i * kept_out[1][d];
    }
  }
  // Byte offset of reduced element r from an output's first input element.
  __host__ __device__ int64_t reduced_offset(int64_t r) const {
    if (nred == 1) return r * red_in[0];
    int64_t off = 0;
    for (int d = 0; d < nred; ++d) {
      const int64_t q = r / red_size[d];
      off += (r - q * red_size[d]) * red_in[d];
      r = q;
    }
    return off;
  }
};

// The geometry of reducing `in` over `dims` into `outputs` (one or two tensors shaped as the
// result; see Note [Reduction outputs] in lib/src/ops/reduce.cpp). `in_order`: reduced dims in
// row-major order (index-returning reductions).
ReduceGeometry make_reduce_geometry(const Tensor& in, ArrayRef<Tensor> outputs, IntArrayRef dims,
                                    bool keepdim, bool in_order);
// The geometry of reduction call c: its input `in` (c.inputs[0], maybe cast) over the call's
// dims into `outputs`.
inline ReduceGeometry call_geometry(const KernelCall& c, const Tensor& in, ArrayRef<Tensor> outputs,
                                    bool in_order) {
  const ReduceParams& r = reduce_params(c.p);
  return make_reduce_geometry(in, outputs, r.dims, r.keepdim, in_order);
}

// The kernels of reduce_minmax.cu and cumsum.cu, registered by reduce.cu's table: amax, amin,
// max, min (is_max picks); argmax, argmin; all, any (is_all picks); cumsum. Those of
// nn_loss.cu, registered by nn.cu's: nll_loss, mse_loss.
void extreme_kernel(const KernelCall& c, bool is_max);
void arg_extreme_kernel(const KernelCall& c, bool is_max);
void all_any_kernel(const KernelCall& c, bool is_all);
void cumsum_kernel(const KernelCall& c);
void cumprod_kernel(const KernelCall& c);  // scans (issue 16), cumsum.cu
void logcumsumexp_kernel(const KernelCall& c);
void nll_loss_kernel(const KernelCall& c);
void mse_loss_kernel(const KernelCall& c);

struct ReduceConfig {
  bool inner = true;
  int lanes = 1;           // threads per output (a power of two)
  int outs_per_block = 1;  // lanes * outs_per_block threads per block
  int64_t blocks = 1;      // blocks along the outputs
  int splits = 1;          // blocks along the reduced range (grid reduction when > 1)
  int64_t chunk = 0;       // reduced elements per split
};
ReduceConfig make_reduce_config(const ReduceGeometry& g);

// The pieces of the two kernels below that do not depend on the thread mapping, shared with
// the host emulation of a launch in tests/test_cuda_reduce_host.cu.

// Lane `lane` of `lanes`: the sequential run over reduced elements r0 + lane, r0 + lane + lanes,
// ... below r1 of the output whose first input element is at `base`.
template <class T, class Op>
__host__ __device__ typename Op::acc_t reduce_lane(const ReduceGeometry& g, const Op& op,
                                                   const char* base, int64_t r0, int64_t r1,
                                                   int lane, int lanes) {
  typename Op::acc_t acc = op.identity();
  for (int64_t r = r0 + lane; r < r1; r += lanes) {
    acc = op.reduce(acc, load_as_compute<T>(base + g.reduced_offset(r)), r);
  }
  return acc;
}

// Writes output o's result.
template <class Op>
__host__ __device__ void reduce_write(const ReduceGeometry& g, const Op& op,
                                      const typename Op::acc_t& acc, int64_t o) {
  int64_t in_off = 0, out0 = 0, out1 = 0;
  g.output_offsets(o, in_off, out0, out1);
  op.write(acc, g.out[0] + out0, g.out[1] == nullptr ? nullptr : g.out[1] + out1);
}

// Output o's partials (one per split) combined in split order, then written.
template <class Op>
__host__ __device__ void reduce_finish(const ReduceGeometry& g, const Op& op,
                                       const typename Op::acc_t* partials, int splits, int64_t o) {
  typename Op::acc_t acc = partials[o * splits];
  for (int s = 1; s < splits; ++s) acc = op.combine(acc, partials[o * splits + s]);
  reduce_write(g, op, acc, o);
}

template <class Op, class T>
__global__ void reduce_kernel(ReduceGeometry g, ReduceConfig cfg, Op op,
                              typename Op::acc_t* partials) {
  using A = typename Op::acc_t;
  extern __shared__ __align__(16) unsigned char reduce_smem[];
  A* smem = reinterpret_cast<A*>(reduce_smem);
  const int lane = cfg.inner ? threadIdx.x : threadIdx.y;
  const int local = cfg.inner ? threadIdx.y : threadIdx.x;
  const int64_t o = static_cast<int64_t>(blockIdx.x) * cfg.outs_per_block + local;
  const int64_t r0 = static_cast<int64_t>(blockIdx.y) * cfg.chunk;
  const int64_t r1 = r0 + cfg.chunk < g.num_reduced ? r0 + cfg.chunk : g.num_reduced;
  A acc = op.identity();
  if (o < g.num_outputs) {
    int64_t in_off = 0, out0 = 0, out1 = 0;
    g.output_offsets(o, in_off, out0, out1);
    acc = reduce_lane<T>(g, op, g.in + in_off, r0, r1, lane, cfg.lanes);
  }
  // The lanes of one output are adjacent in shared memory; the tree keeps lower lanes left.
  const int slot = local * cfg.lanes + lane;
  smem[slot] = acc;
  __syncthreads();
  for (int s = cfg.lanes / 2; s > 0; s >>= 1) {
    if (lane < s) smem[slot] = op.combine(smem[slot], smem[slot + s]);
    __syncthreads();
  }
  if (lane != 0 || o >= g.num_outputs) return;
  if (gridDim.y == 1) {
    reduce_write(g, op, smem[slot], o);
  } else {
    partials[o * gridDim.y + blockIdx.y] = smem[slot];
  }
}

// The second step of a grid reduction: each thread finishes one output.
template <class Op>
__global__ void reduce_partials_kernel(ReduceGeometry g, int splits, Op op,
                                       const typename Op::acc_t* partials) {
  const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t o = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; o < g.num_outputs;
       o += step) {
    reduce_finish(g, op, partials, splits, o);
  }
}

// Scratch device memory for the partials of a grid reduction (from the caching allocator).
Tensor reduce_workspace(int64_t nbytes, Device device);

// Reduces g's input (storage type T) with op. Runs on the current device and stream.
template <class T, class Op>
void launch_reduce(const ReduceGeometry& g, const Op& op, Device device) {
  using A = typename Op::acc_t;
  if (g.num_outputs == 0) return;
  const ReduceConfig cfg = make_reduce_config(g);
  const dim3 block =
      cfg.inner ? dim3(cfg.lanes, cfg.outs_per_block) : dim3(cfg.outs_per_block, cfg.lanes);
  const dim3 grid(static_cast<unsigned>(cfg.blocks), static_cast<unsigned>(cfg.splits));
  const size_t smem = sizeof(A) * cfg.lanes * cfg.outs_per_block;
  Tensor workspace;
  A* partials = nullptr;
  if (cfg.splits > 1) {
    workspace =
        reduce_workspace(g.num_outputs * cfg.splits * static_cast<int64_t>(sizeof(A)), device);
    partials = static_cast<A*>(workspace.data_ptr());
  }
  reduce_kernel<Op, T><<<grid, block, smem, stream()>>>(g, cfg, op, partials);
  TS_CUDA_KERNEL_LAUNCH_CHECK();
  if (cfg.splits > 1) {
    reduce_partials_kernel<Op>
        <<<grid_size(g.num_outputs), kThreads, 0, stream()>>>(g, cfg.splits, op, partials);
    TS_CUDA_KERNEL_LAUNCH_CHECK();
  }
}

// ---- accumulators: identity, reduce(acc, x, r), combine(a, b), write(acc, out0, out1) ----

template <typename C>
__host__ __device__ inline bool isnan_(C x) {
  if constexpr (std::is_floating_point_v<C>)
    return x != x;
  else
    return false;
}

// sum (mean: divided by the count, 0 / 0 = NaN when empty) and prod of a floating dtype.
template <typename T, bool kProd>
struct FloatSumOp {
  using acc_t = acc_float_t<T>;
  bool mean = false;
  acc_t count = 0;
  __host__ __device__ acc_t identity() const { return kProd ? acc_t(1) : acc_t(0); }
  __host__ __device__ acc_t combine(acc_t a, acc_t b) const { return kProd ? a * b : a + b; }
  __host__ __device__ acc_t reduce(acc_t a, compute_t<T> x, int64_t) const {
    return combine(a, static_cast<acc_t>(x));
  }
  __host__ __device__ void write(acc_t a, char* out, char*) const {
    *reinterpret_cast<T*>(out) = convert<T>(mean ? a / count : a);
  }
};

// sum and prod of an integer or bool dtype: wrapping uint64 arithmetic, then wrapped to T.
template <typename T, bool kProd>
struct IntSumOp {
  using acc_t = uint64_t;
  __host__ __device__ acc_t identity() const { return kProd ? 1 : 0; }
  __host__ __device__ acc_t combine(acc_t a, acc_t b) const { return kProd ? a * b : a + b; }
  __host__ __device__ acc_t reduce(acc_t a, T x, int64_t) const {
    return combine(a, static_cast<uint64_t>(static_cast<int64_t>(x)));
  }
  __host__ __device__ void write(acc_t a, char* out, char*) const {
    if constexpr (std::is_same_v<T, bool>)
      *reinterpret_cast<bool*>(out) = a != 0;
    else
      *reinterpret_cast<T*>(out) = static_cast<T>(a);
  }
};

// Note [Norm of any p] in reference/reduce.cpp: p = 0 counts nonzeros; inf / -inf: max / min of
// |x| with NaN propagating; other p: (sum |x|^p)^(1/p). Empty reductions give 0 (the caller).
enum class NormKind { Zero, One, Two, Max, Min, Pow };
template <typename T>
struct NormOp {
  using acc_t = acc_float_t<T>;
  NormKind kind = NormKind::Two;
  acc_t p = 2;  // NormKind::Pow
  __host__ __device__ acc_t identity() const {
    if (kind == NormKind::Max) return -INFINITY;
    return kind == NormKind::Min ? INFINITY : 0;
  }
  __host__ __device__ acc_t combine(acc_t a, acc_t b) const {
    if (kind != NormKind::Max && kind != NormKind::Min) return a + b;
    if (isnan_(a)) return a;
    return (isnan_(b) || (kind == NormKind::Max ? b > a : b < a)) ? b : a;
  }
  __host__ __device__ acc_t reduce(acc_t a, compute_t<T> x, int64_t) const {
    const acc_t v = ::fabs(static_cast<acc_t>(x));
    switch (kind) {
      case NormKind::Zero:
        return a + (v != 0 ? acc_t(1) : acc_t(0));
      case NormKind::Two:
        return a + v * v;
      case NormKind::Pow:
        return a + ::pow(v, p);
      default:
        return combine(a, v);
    }
  }
  __host__ __device__ void write(acc_t a, char* out, char*) const {
    if (kind == NormKind::Two) a = ::sqrt(a);
    if (kind == NormKind::Pow) a = ::pow(a, acc_t(1) / p);
    *reinterpret_cast<T*>(out) = convert<T>(a);
  }
};

// var / std: Welford's running (count, mean, sum of squared deviations), Chan's combination.
template <typename T>
struct WelfordOp {
  using F = acc_float_t<T>;
  struct acc_t {
    F mean, m2;
    int64_t n;
  };
  F correction = 1;
  bool take_sqrt = false;
  __host__ __device__ acc_t identity() const { return {F(0), F(0), 0}; }
  __host__ __device__ acc_t reduce(acc_t a, compute_t<T> xc, int64_t) const {
    const F x = static_cast<F>(xc);
    ++a.n;
    const F delta = x - a.mean;
    a.mean += delta / static_cast<F>(a.n);
    a.m2 += delta * (x - a.mean);
    return a;
  }
  __host__ __device__ acc_t combine(acc_t a, acc_t b) const {
    if (a.n == 0) return b;
    if (b.n == 0) return a;
    const int64_t n = a.n + b.n;
    const F delta = b.mean - a.mean;
    const F wb = static_cast<F>(b.n) / static_cast<F>(n);
    return {a.mean + delta * wb, a.m2 + b.m2 + delta * delta * static_cast<F>(a.n) * wb, n};
  }
  __host__ __device__ void write(acc_t a, char* out, char*) const {
    const F denom = static_cast<F>(a.n) - correction;
    const F var = a.m2 / (denom > F(0) ? denom : F(0));
    *reinterpret_cast<T*>(out) = convert<T>(take_sqrt ? ::sqrt(var) : var);
  }
};

// logsumexp: (m, s) stands for s exp(m). An infinite or NaN m is the result itself (all -inf
// gives -inf, any +inf gives +inf, NaN propagates); an empty reduction gives -inf.
template <typename T>
struct LogSumExpOp {
  using F = acc_float_t<T>;
  struct acc_t {
    F m, s;
  };
  __host__ __device__ acc_t identity() const { return {-INFINITY, F(0)}; }
  __host__ __device__ acc_t combine(acc_t a, acc_t b) const {
    if (isnan_(a.m) || isnan_(b.m)) return {a.m + b.m, F(0)};
    const F m = a.m > b.m ? a.m : b.m;
    if (::isinf(m)) return {m, F(1)};
    return {m, a.s * ::exp(a.m - m) + b.s * ::exp(b.m - m)};
  }
  __host__ __device__ acc_t reduce(acc_t a, compute_t<T> x, int64_t) const {
    return combine(a, {static_cast<F>(x), F(1)});
  }
  __host__ __device__ void write(acc_t a, char* out, char*) const {
    *reinterpret_cast<T*>(out) = convert<T>(::isfinite(a.m) ? ::log(a.s) + a.m : a.m);
  }
};

// amax / amin (and max / min without a dim): NaN propagates, as in reference/reduce.cpp's
// Note [Extremes and NaN].
template <typename T, bool kMax>
struct ExtremeOp {
  using acc_t = compute_t<T>;
  __host__ __device__ acc_t identity() const {
    if constexpr (std::is_floating_point_v<acc_t>) {
      return kMax ? -INFINITY : INFINITY;
    } else if constexpr (std::is_same_v<acc_t, bool>) {
      return !kMax;
    } else {
      return kMax ? std::numeric_limits<acc_t>::lowest() : std::numeric_limits<acc_t>::max();
    }
  }
  __host__ __device__ acc_t combine(acc_t a, acc_t b) const {
    if (isnan_(a)) return a;
    if (isnan_(b)) return b;
    return (kMax ? b > a : b < a) ? b : a;
  }
  __host__ __device__ acc_t reduce(acc_t a, acc_t x, int64_t) const { return combine(a, x); }
  __host__ __device__ void write(acc_t a, char* out, char*) const {
    *reinterpret_cast<T*>(out) = convert<T>(a);
  }
};

// argmax / argmin, and max / min with a dim (values too). The first NaN wins, else the best
// value; ties (and NaN against NaN) go to the lower index, which makes combine order-free and
// gives PyTorch's first occurrence.
template <typename T, bool kMax>
struct ArgExtremeOp {
  using C = compute_t<T>;
  struct acc_t {
    C v;
    int64_t i;
  };
  bool with_values = false;  // out0 = values and out1 = indices, else out0 = indices
  __host__ __device__ acc_t identity() const { return {C(0), -1}; }
  __host__ __device__ acc_t combine(acc_t a, acc_t b) const {
    if (a.i < 0) return b;
    if (b.i < 0) return a;
    const bool an = isnan_(a.v), bn = isnan_(b.v);
    if (an || bn) return an && bn ? (b.i < a.i ? b : a) : (an ? a : b);
    if (a.v == b.v) return b.i < a.i ? b : a;
    return (kMax ? b.v > a.v : b.v < a.v) ? b : a;
  }
  __host__ __device__ acc_t reduce(acc_t a, C x, int64_t r) const { return combine(a, {x, r}); }
  __host__ __device__ void write(acc_t a, char* out0, char* out1) const {
    if (with_values) {
      *reinterpret_cast<T*>(out0) = convert<T>(a.v);
      *reinterpret_cast<int64_t*>(out1) = a.i;
    } else {
      *reinterpret_cast<int64_t*>(out0) = a.i;
    }
  }
};

// all / any: x != 0 (NaN is true, -0.0 false); the output is bool or uint8, one byte either way.
template <typename T, bool kAll>
struct AllAnyOp {
  using acc_t = bool;
  __host__ __device__ acc_t identity() const { return kAll; }
  __host__ __device__ acc_t combine(acc_t a, acc_t b) const { return kAll ? (a && b) : (a || b); }
  __host__ __device__ acc_t reduce(acc_t a, compute_t<T> x, int64_t) const {
    return combine(a, x != compute_t<T>(0));
  }
  __host__ __device__ void write(acc_t a, char* out, char*) const {
    *reinterpret_cast<uint8_t*>(out) = a ? 1 : 0;
  }
};

// Runs body(out) with an output of dtype `dt`: c.outputs[0] itself when it has it, else a
// temporary copied into it afterwards.
template <class F>
void with_output_dtype(const Tensor& out, ScalarType dt, const F& body) {
  if (out.dtype() == dt) {
    body(out);
    return;
  }
  const Tensor tmp = empty(out.sizes(), TensorOptions(dt).device(out.device()));
  body(tmp);
  out.copy_(tmp);
}

}  // namespace ts::cuda
