#pragma once
// Target-independent parts of the optimized reductions: the geometry of a reduction
// (ReducePlan, walked with Walker), the driver that runs a reducer over it in fixed chunks, the
// scan driver of cumsum, and the final rounding of a double result (to 16 bits through
// float_round_to_odd, Note [Round to odd here] in convert.h). See Note [Optimized reductions]
// in reduce.cpp.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "optimized/cpu/convert.h"
#include "optimized/cpu/elementwise.h"
#include "touchstone/parallel.h"

namespace ts::cpu {

// Fixed sizes (never the thread count) decide every chunk; see Note [Optimized reductions].
inline constexpr int64_t kChunk = 16384;     // inner mode: reduced elements per partial
inline constexpr int64_t kCols = 8192;       // outer mode: columns per block, at most
inline constexpr int64_t kOuterRows = 4096;  // outer mode: at least this many rows per partial
inline constexpr int64_t kGrain = 32768;     // elements of work per parallel task, at least
inline constexpr int64_t kBlock = 256;       // conversion buffers (elements)

// Note [Outer column blocks]
// Outer mode reads each row's piece of a column block, then jumps to the next row, and the
// hardware prefetchers (which follow a page) restart on every piece. Blocks of 256 float32
// columns (1 KiB of a row) made amax of 4096 x 4096 over dim 0 read 13 GB/s (ATen 20); blocks of
// 1024 (4 KiB) left a sum over dim 0 of 8192 x 16384 at 23 GB/s against 38 over dim 1, and 8192
// columns (32 KiB; 64 KiB of double accumulators, which stay in L2) read 38 (a standalone loop
// on this EPYC, 2 threads). So a block spans up to kCols columns, but no more than a share of
// the columns that keeps four tasks for the threads, counting the `other_tasks` (outer kept
// slices times row chunks) there already are. A function of the shape only, never the thread
// count; a column's result does not depend on its block.
inline int64_t outer_block_cols(int64_t m, int64_t other_tasks = 1) {
  const int64_t parts = (4 + other_tasks - 1) / std::max<int64_t>(1, other_tasks);
  const int64_t share = (m + parts * 64 - 1) / (parts * 64) * 64;  // m / parts, rounded up to 64
  return std::min({m, kCols, std::max<int64_t>(256, share)});
}

// Operand 0 is the input, 1 and 2 the outputs (values, indices).
inline constexpr int kReduceOperands = 3;

// Dims walked as one row-major index, outer to inner, with each operand's byte stride (zero
// for operands a list does not move).
struct DimList {
  DimVector size;
  DimVector stride[kReduceOperands];
  int ndim() const { return static_cast<int>(size.size()); }
  int64_t numel() const {
    int64_t n = 1;
    for (int64_t s : size) n *= s;
    return n;
  }
};

// The byte offsets of every operand at successive flattened indices of a DimList (whose sizes
// are all > 0).
class Walker {
 public:
  Walker(const DimList& dims, int64_t start) : dims_(&dims), idx_(dims.size.size(), 0) {
    if (start == 0) return;  // no divisions (a row of a reduction starts here)
    for (int d = dims.ndim() - 1; d >= 0; --d) {
      const int64_t s = dims.size[d];
      idx_[d] = start % s;
      start /= s;
      for (int k = 0; k < kReduceOperands; ++k) off[k] += idx_[d] * dims.stride[k][d];
    }
  }
  void next() {
    const DimList& l = *dims_;
    for (int d = l.ndim() - 1; d >= 0; --d) {
      if (++idx_[d] < l.size[d]) {
        for (int k = 0; k < kReduceOperands; ++k) off[k] += l.stride[k][d];
        return;
      }
      idx_[d] = 0;
      for (int k = 0; k < kReduceOperands; ++k) off[k] -= (l.size[d] - 1) * l.stride[k][d];
    }
  }
  int64_t off[kReduceOperands] = {0, 0, 0};

 private:
  const DimList* dims_;
  DimVector idx_;
};

// One dim of a plan being built: its size and every operand's byte stride.
struct PlanDim {
  int64_t size;
  int64_t stride[kReduceOperands];
};
// Sorts dims by the input's stride, largest first (stride-0 dims first of all), unless `sort`
// is false, then merges adjacent dims that every operand steps through as one.
std::vector<PlanDim> sort_and_coalesce(std::vector<PlanDim> dims, bool sort);
// The first `count` dims as a DimList.
DimList to_dim_list(const std::vector<PlanDim>& dims, size_t count);
// Stride-0 (broadcast) dims sort as the largest.
inline int64_t stride_key(int64_t s) {
  return s == 0 ? INT64_MAX : (s < 0 ? -s : s);
}

// Note [Reduction plans]
// A reduction seen as M outputs, each reducing N input elements (M = kept numel, N = reduced
// numel). Size-1 dims are dropped, the rest sorted by input stride (stride-0 dims outermost) and
// adjacent dims merged where every operand steps through them as one.
//  - Inner mode (the smallest input stride belongs to a reduced dim): output o reduces `rows`
//    rows of `span_size` elements `span_stride` bytes apart; the flattened reduced index k runs
//    along the span fastest.
//  - Outer mode (a kept dim has the smallest input stride): that kept dim is the column dim;
//    an output block of columns is accumulated row by row over all reduced elements (k indexes
//    `rows`), so memory is streamed along rows, never strided down a column.
// With `in_order`, reduced dims keep their original order, so k is PyTorch's index into the
// flattened reduced dims (argmax, max/min with indices).
struct ReducePlan {
  const char* in = nullptr;
  ScalarType dtype = ScalarType::Undefined;  // the input's
  char* out[kReduceOperands - 1] = {nullptr, nullptr};
  int noutputs = 0;
  int64_t num_outputs = 1;  // M
  int64_t num_reduced = 1;  // N
  bool outer = false;
  DimList
      outs;  // kept dims per output (outer mode: all but the column dim); strides 1, 2 = outputs
  DimList rows;  // reduced dims per row (inner mode: all but the span dim)
  int64_t span_size = 1, span_stride = 0;  // inner mode
  int64_t cols = 1, col_stride = 0;        // outer mode: the column dim (input byte stride)
  int64_t col_out_stride[kReduceOperands - 1] = {0, 0};
};

// `outputs` are the call's outputs with the result shape (see Note [Reduction outputs] in
// lib/src/ops/reduce.cpp); `in` is the input, possibly already cast to the compute dtype.
ReducePlan make_reduce_plan(const Tensor& in, ArrayRef<Tensor> outputs, IntArrayRef dims,
                            bool keepdim, bool in_order);

// Calls f(ptr, n, k) for each piece of a span that the flattened reduced indices [k0, k1) of
// one output cover, in order: n elements p.span_stride bytes apart, the first with index k.
template <class F>
[[gnu::always_inline]] inline void for_each_span(const ReducePlan& p, const char* base, int64_t k0,
                                                 int64_t k1, const F& f) {
  if (k0 >= k1) return;
  const int64_t n0 = p.span_size;
  if (k0 == 0 && k1 <= n0) return f(base, k1, int64_t{0});  // one span: no walk, no divisions
  int64_t j = k0 % n0, k = k0;
  Walker w(p.rows, k0 / n0);
  while (true) {
    const int64_t n = std::min(n0 - j, k1 - k);
    f(base + w.off[0] + j * p.span_stride, n, k);
    k += n;
    if (k >= k1) return;
    j = 0;
    w.next();
  }
}

// Combines partials a[0..n) (in index order) as a balanced binary tree.
template <class R, class Acc>
Acc combine_tree(const R& r, const Acc* a, int64_t n) {
  if (n == 1) return a[0];
  const int64_t h = n / 2;
  return r.combine(combine_tree(r, a, h), combine_tree(r, a + h, n - h));
}

// Runs reducer `r` over plan `p` (see Note [Optimized reductions] for the chunking). A reducer
// provides
//   Acc inner(base, o, k0, k1): output o's partial over reduced indices [k0, k1) (inner mode);
//   void outer(base, o0, w, k0, k1, Acc* acc): partials of w columns, outputs o0.. (outer mode);
//   Acc combine(earlier, later); void finish(o, acc, char* const* out).
template <class R>
void run_reduction(const ReducePlan& p, const R& r) {
  using Acc = typename R::Acc;
  const int64_t M = p.num_outputs, N = p.num_reduced;
  if (M == 0) return;
  auto out_ptrs = [&](const Walker& w, int64_t col, char** out) {
    for (int j = 0; j < p.noutputs; ++j) {
      out[j] = p.out[j] + w.off[1 + j] + col * p.col_out_stride[j];
    }
  };
  if (!p.outer) {
    const int64_t nchunks = N <= kChunk ? 1 : (N + kChunk - 1) / kChunk;
    if (nchunks == 1) {
      const int64_t grain = std::max<int64_t>(1, kGrain / std::max<int64_t>(N, 1));
      parallel_for(0, M, grain, [&](int64_t o0, int64_t o1) {
        if (p.outs.ndim() == 1) {  // one kept dim: offsets o * stride, no walk (short rows)
          const DimVector* st = p.outs.stride;
          for (int64_t o = o0; o < o1; ++o) {
            char* out[2] = {p.out[0] + o * st[1][0], p.out[1] + o * st[2][0]};
            r.finish(o, r.inner(p.in + o * st[0][0], o, 0, N), out);
          }
          return;
        }
        Walker w(p.outs, o0);
        for (int64_t o = o0; o < o1; ++o, w.next()) {
          char* out[2];
          out_ptrs(w, 0, out);
          r.finish(o, r.inner(p.in + w.off[0], o, 0, N), out);
        }
      });
      return;
    }
    const std::unique_ptr<Acc[]> part(new Acc[static_cast<size_t>(M * nchunks)]);
    parallel_for_fixed(0, M * nchunks, 1, [&](int64_t t, int64_t, int64_t) {
      const int64_t o = t / nchunks, c = t % nchunks;
      const Walker w(p.outs, o);
      part[t] = r.inner(p.in + w.off[0], o, c * kChunk, std::min(N, (c + 1) * kChunk));
    });
    parallel_for(0, M, std::max<int64_t>(1, kGrain / nchunks), [&](int64_t o0, int64_t o1) {
      Walker w(p.outs, o0);
      for (int64_t o = o0; o < o1; ++o, w.next()) {
        char* out[2];
        out_ptrs(w, 0, out);
        r.finish(o, combine_tree(r, &part[o * nchunks], nchunks), out);
      }
    });
    return;
  }
  const int64_t m = p.cols, Mo = M / m;
  // Rows per partial: kOuterRows, more when the block is narrower than kChunk / kOuterRows.
  const int64_t rows = std::max(kOuterRows, kChunk / std::min<int64_t>(m, 256));
  const int64_t nrc = N <= rows ? 1 : (N + rows - 1) / rows;
  const int64_t width = outer_block_cols(m, Mo * nrc), ncb = (m + width - 1) / width;
  if (nrc == 1) {
    const int64_t grain = std::max<int64_t>(1, kGrain / std::max<int64_t>(N * width, 1));
    parallel_for(0, Mo * ncb, grain, [&](int64_t t0, int64_t t1) {
      Acc acc[kCols];
      for (int64_t t = t0; t < t1; ++t) {
        const int64_t ok = t / ncb, c0 = t % ncb * width, w = std::min(width, m - c0);
        const Walker wk(p.outs, ok);
        r.outer(p.in + wk.off[0] + c0 * p.col_stride, ok * m + c0, w, 0, N, acc);
        for (int64_t c = 0; c < w; ++c) {
          char* out[2];
          out_ptrs(wk, c0 + c, out);
          r.finish(ok * m + c0 + c, acc[c], out);
        }
      }
    });
    return;
  }
  const std::unique_ptr<Acc[]> part(new Acc[static_cast<size_t>(M * nrc)]);
  parallel_for_fixed(0, Mo * ncb * nrc, 1, [&](int64_t t, int64_t, int64_t) {
    const int64_t rc = t % nrc, cb = t / nrc % ncb, ok = t / nrc / ncb;
    const int64_t c0 = cb * width, w = std::min(width, m - c0);
    const Walker wk(p.outs, ok);
    Acc acc[kCols];
    r.outer(p.in + wk.off[0] + c0 * p.col_stride, ok * m + c0, w, rc * rows,
            std::min(N, (rc + 1) * rows), acc);
    for (int64_t c = 0; c < w; ++c) part[(ok * m + c0 + c) * nrc + rc] = acc[c];
  });
  parallel_for(0, M, std::max<int64_t>(1, kGrain / nrc), [&](int64_t o0, int64_t o1) {
    for (int64_t o = o0; o < o1; ++o) {
      const Walker wk(p.outs, o / m);
      char* out[2];
      out_ptrs(wk, o % m, out);
      r.finish(o, combine_tree(r, &part[o * nrc], nrc), out);
    }
  });
}

// A scan (cumsum) along one dim: `lines` walks the other dims (stride[0] input, stride[1]
// output); in column mode the innermost other dim is the vectorized column dim instead.
struct ScanPlan {
  const char* in = nullptr;
  char* out = nullptr;
  ScalarType dtype = ScalarType::Undefined;    // the input's (and, for floats, the output's)
  int64_t len = 1, in_step = 0, out_step = 0;  // the scanned dim (byte steps)
  DimList lines;
  bool columns = false;
  int64_t cols = 1, col_in = 0, col_out = 0;
};

// Runs scanner `sc` over plan `s` (see Note [Optimized cumsum] in cumsum.cpp). A scanner
// provides
//   Acc sum(in, in_step, n); void scan(in, in_step, out, out_step, n, Acc start);
//   void columns(in, out, w): w adjacent lines, all s.len steps;
//   kLines, and when it is over 1, void scan_lines(in[kLines], in_step, out[kLines], out_step,
//   n): kLines whole lines at once.
template <class S>
void run_scan(const ScanPlan& s, const S& sc) {
  using Acc = typename S::Acc;
  constexpr int64_t kPiece = kChunk, kFewLines = 64;
  const int64_t nlines = s.lines.numel(), len = s.len;
  if (s.columns) {
    const int64_t m = s.cols, width = outer_block_cols(m), ncb = (m + width - 1) / width;
    const int64_t grain = std::max<int64_t>(1, kGrain / (len * width));
    parallel_for(0, nlines * ncb, grain, [&](int64_t t0, int64_t t1) {
      for (int64_t t = t0; t < t1; ++t) {
        const Walker w(s.lines, t / ncb);
        const int64_t c0 = t % ncb * width;
        sc.columns(s.in + w.off[0] + c0 * s.col_in, s.out + w.off[1] + c0 * s.col_out,
                   std::min(width, m - c0));
      }
    });
    return;
  }
  if (len <= kPiece || nlines >= kFewLines) {
    parallel_for(0, nlines, std::max<int64_t>(1, kGrain / len), [&](int64_t l0, int64_t l1) {
      Walker w(s.lines, l0);
      int64_t l = l0;
      if constexpr (S::kLines > 1) {  // Note [Lines side by side] in cumsum.cpp
        for (; l + S::kLines <= l1; l += S::kLines) {
          const char* in[S::kLines];
          char* out[S::kLines];
          for (int64_t i = 0; i < S::kLines; ++i, w.next()) {
            in[i] = s.in + w.off[0];
            out[i] = s.out + w.off[1];
          }
          sc.scan_lines(in, s.in_step, out, s.out_step, len);
        }
      }
      for (; l < l1; ++l, w.next()) {
        sc.scan(s.in + w.off[0], s.in_step, s.out + w.off[1], s.out_step, len, Acc(0));
      }
    });
    return;
  }
  const int64_t np = (len + kPiece - 1) / kPiece;
  std::vector<Acc> offset(static_cast<size_t>(nlines * np));
  auto piece = [&](int64_t t, int64_t* in_off, int64_t* out_off) {
    const Walker w(s.lines, t / np);
    const int64_t b = t % np * kPiece;
    *in_off = w.off[0] + b * s.in_step;
    *out_off = w.off[1] + b * s.out_step;
    return std::min(kPiece, len - b);
  };
  parallel_for_fixed(0, nlines * np, 1, [&](int64_t t, int64_t, int64_t) {
    int64_t io, oo;
    const int64_t n = piece(t, &io, &oo);
    offset[t] = sc.sum(s.in + io, s.in_step, n);
  });
  for (int64_t l = 0; l < nlines; ++l) {  // exclusive running offsets, in piece order
    Acc run = 0;
    for (int64_t c = 0; c < np; ++c) {
      const Acc piece_sum = offset[l * np + c];
      offset[l * np + c] = run;
      run += piece_sum;
    }
  }
  parallel_for_fixed(0, nlines * np, 1, [&](int64_t t, int64_t, int64_t) {
    int64_t io, oo;
    const int64_t n = piece(t, &io, &oo);
    sc.scan(s.in + io, s.in_step, s.out + oo, s.out_step, n, offset[t]);
  });
}

// What the per-target floating entry point computes (double accumulation): op is sum, mean,
// prod, norm, amax, amin (also for max() and min()), var, std or logsumexp.
struct FloatJob {
  OpId op;
  ScalarType ct = ScalarType::Undefined;  // the dtype the result is rounded to first
  ScalarType ot = ScalarType::Undefined;  // the output's dtype
  double correction = 0;                  // var, std
  double p = 2;                           // norm: any p
};

// The per-target entry points (Highway dynamic dispatch); defined in reduce.cpp,
// reduce_minmax.cpp and cumsum.cpp. The input dtype is the plan's.
void floating_reduction(const ReducePlan& p, const FloatJob& job);
void floating_arg_reduction(const ReducePlan& p, bool is_max);
void floating_cumsum(const ScanPlan& s);
// Integer and bool reductions (scalar loops, compiled once) of sum, prod, amax, amin, all and
// any; defined in reduce.cpp.
void integer_reduction(const ReducePlan& p, OpId op, ScalarType ot);

// The kernels of reduce_minmax.cpp and cumsum.cpp, registered by reduce.cpp's table: amax,
// amin, max, min (is_max picks); argmax, argmin; all, any (op picks); cumsum.
void extreme_kernel(const KernelCall& c, bool is_max);
void arg_extreme_kernel(const KernelCall& c, bool is_max);
void all_any_kernel(const KernelCall& c, OpId op);
void cumsum_kernel(const KernelCall& c);

// How a double result becomes an output value (or, in pass 1 of var and logsumexp, the mean or
// max of output o in `buffer`).
struct Finisher {
  FloatJob job;
  double n = 0;  // reduced elements per output
  double* buffer = nullptr;
  const double* max = nullptr;  // logsumexp: pass 1's max
  bool pass1 = false;
  bool float_sum = false;  // sum or mean rounded to and stored as float32: inline, no switch

  void operator()(int64_t o, double acc, char* const* out) const {
    if (float_sum && !pass1) {  // (a call per output showed in rows of 64 floats)
      const float f = static_cast<float>(job.op == OpId::mean ? acc / n : acc);
      std::memcpy(out[0], &f, sizeof f);
      return;
    }
    finish(o, acc, out);
  }
  void finish(int64_t o, double acc, char* const* out) const;
};

// `v` rounded once to floating dtype t, returned as double.
inline double round_to_dtype(ScalarType t, double v) {
  switch (t) {
    case kFloat:
      return static_cast<float>(v);
    case kHalf:
      return static_cast<float>(Half(float_round_to_odd(v)));
    case kBFloat16:
      return static_cast<float>(BFloat16(float_round_to_odd(v)));
    default:
      return v;
  }
}

// Stores `v` into an element of floating dtype t, rounding once.
inline void store_floating(char* p, ScalarType t, double v) {
  switch (t) {
    case kDouble:
      std::memcpy(p, &v, 8);
      break;
    case kFloat: {
      const float f = static_cast<float>(v);
      std::memcpy(p, &f, 4);
      break;
    }
    case kHalf: {
      const Half h(float_round_to_odd(v));
      std::memcpy(p, &h, 2);
      break;
    }
    default: {
      const BFloat16 b(float_round_to_odd(v));
      std::memcpy(p, &b, 2);
    }
  }
}

}  // namespace ts::cpu
