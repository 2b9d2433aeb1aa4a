// Optimized CPU kernels of the scans of issue 16: cumprod, logcumsumexp, cummax, cummin.
//
// Note [Optimized scans]
// The input is seen in the compute dtype and contiguous (converted first when it is not), as
// [outer, n, inner] around the scanned dim; the result is written to the output when it is
// contiguous in that dtype, else to a temporary copied into it. Lines run in parallel
// (ts::parallel_for over outer x column blocks); with inner > 1, a block of up to 256 adjacent
// lines is scanned together, row by row, so the inner loop is unit-stride (and vectorizes).
// cumprod accumulates floats in double and integers in uint64 (wrapping), logcumsumexp in
// double, as the reference, each output rounded once; cummax/cummin compare in the element
// type. Each element is read before it is written, so the output may be the input (cumprod_).
#include "optimized/cpu/scan.h"

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "hwy/base.h"
#include "optimized/cpu/convert.h"
#include "touchstone/dispatch_macros.h"
#include "touchstone/kernel_helpers.h"
#include "touchstone/ops.h"
#include "touchstone/parallel.h"

namespace ts::cpu {
namespace {

// Note [Wide blocks along dim 0]
// A block scans up to kCols adjacent lines row by row; each row of the block is one contiguous
// run of memory, and the next row is `inner` elements on. With 256 lines (1 KiB of float32 per
// row) the hardware prefetchers saw short runs and a jump each row: 4096^2 float32 over dim 0, 1
// thread, cumprod 22 ms and cummax 53 ms against 7.3 and 11 over dim 1 for the same bytes. Blocks
// are now as wide as two pieces per thread allow, from 256 up to 2048 lines (8 KiB runs; one
// piece per thread was 5 % faster at 4096^2 but leaves a late worker's share to the caller); every
// line's steps stay the same, so do the bits.
constexpr int64_t kCols = 2048, kMinCols = 256;

struct Geometry {
  int64_t outer = 1, n = 1, inner = 1;
};

Geometry geometry(const Tensor& x, int64_t dim) {
  Geometry g;
  if (x.dim() == 0) return g;
  g.n = x.sizes()[dim];
  for (int64_t d = 0; d < dim; ++d) g.outer *= x.sizes()[d];
  for (int64_t d = dim + 1; d < x.dim(); ++d) g.inner *= x.sizes()[d];
  return g;
}

// Runs body(x, y, g) on contiguous compute-dtype views of input 0 and output `o`, copying the
// result into the output afterwards when it could not be written directly.
template <class F>
void with_contiguous(const KernelCall& c, ScalarType ct, size_t o, int64_t dim, F body) {
  const Tensor& self = c.inputs[0];
  const Tensor& out = c.outputs[o];
  if (self.numel() == 0) return;
  const Tensor x = self.dtype() == ct && self.is_contiguous() ? self : self.to(ct).contiguous();
  const bool direct = out.dtype() == ct && out.is_contiguous();
  const Tensor y = direct ? out : empty(out.sizes(), TensorOptions(ct).device(out.device()));
  body(x, y, geometry(x, dim));
  if (!direct) copy_convert(out, y);
}

// Calls line(block_begin, width, o) over every [outer, column block]: lines o * n * inner +
// j (j in the block), each of n elements `inner` apart.
template <class F>
void for_each_block(const Geometry& g, F line) {
  // Two pieces per thread when the blocks are the only parallelism (Note [Wide blocks along dim
  // 0]).
  const int64_t pieces = g.outer == 1 ? 2 * get_num_threads() : 1;
  const int64_t cols = std::clamp<int64_t>(g.inner / pieces / 16 * 16, kMinCols, kCols);
  const int64_t nb = (g.inner + cols - 1) / cols;
  const int64_t grain =
      std::max<int64_t>(1, 32768 / std::max<int64_t>(1, g.n * std::min(g.inner, cols)));
  parallel_for(0, g.outer * nb, grain, [&](int64_t t0, int64_t t1) {
    for (int64_t t = t0; t < t1; ++t) {
      const int64_t o = t / nb, j0 = t % nb * cols;
      line(o * g.n * g.inner + j0, std::min(cols, g.inner - j0));
    }
  });
}

template <typename T>
double to_double(T v) {
  if constexpr (std::is_same_v<T, double>) {
    return v;
  } else {
    return static_cast<float>(v);  // exact for float, float16 and bfloat16
  }
}

template <typename T>
void store_rounded(T* p, double v) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    *p = static_cast<T>(v);
  } else {
    store_double(p, std::is_same_v<T, Half> ? kHalf : kBFloat16, v);  // rounded once
  }
}

// Note [Scans along rows]
// Along the innermost dim (inner == 1) a block holds one line, and its running value lived in
// a stack array: each step waited for the previous step's store (cumprod of 1024 x 1024 over
// dim 1, 1 thread: 3.4 ms, ATen 1.7). Rows now go M = 4 at a time, their running values in
// registers: four independent dependency chains overlap. Each line's steps are the same, so are
// the bits. row_groups calls f(first_line, lines) with 1 to 4 lines.
template <class F>
void row_groups(const Geometry& g, F f) {
  const int64_t grain = std::max<int64_t>(4, 32768 / std::max<int64_t>(1, g.n));
  parallel_for(0, g.outer, grain, [&](int64_t l0, int64_t l1) {
    for (int64_t l = l0; l < l1; l += 4) f(l, std::min<int64_t>(4, l1 - l));
  });
}

// M rows of n elements from x (and y), scanned side by side (Note [Scans along rows]).
template <int M, typename T, typename A, class Step, class Store>
void scan_rows(const T* x, T* y, int64_t n, A init, Step step, Store store) {
  A a[M];
  HWY_UNROLL(4)
  for (int i = 0; i < M; ++i) a[i] = init;
  for (int64_t k = 0; k < n; ++k) {
    HWY_UNROLL(4)
    for (int i = 0; i < M; ++i) {
      a[i] = step(a[i], x[i * n + k]);
      store(y + i * n + k, a[i]);
    }
  }
}

// A scan with accumulator type A: acc = step(acc, x), stored through store(p, acc).
template <typename T, typename A, class Step, class Store>
void scan(const T* x, T* y, const Geometry& g, A init, Step step, Store store) {
  if (g.inner == 1) {
    row_groups(g, [&](int64_t l, int64_t m) {
      const T* xl = x + l * g.n;
      T* yl = y + l * g.n;
      if (m == 4) return scan_rows<4>(xl, yl, g.n, init, step, store);
      for (int64_t i = 0; i < m; ++i)
        scan_rows<1>(xl + i * g.n, yl + i * g.n, g.n, init, step, store);
    });
    return;
  }
  for_each_block(g, [&](int64_t base, int64_t w) {
    A acc[kCols];
    std::fill(acc, acc + w, init);
    for (int64_t k = 0; k < g.n; ++k) {
      const T* xr = x + base + k * g.inner;
      T* yr = y + base + k * g.inner;
      for (int64_t j = 0; j < w; ++j) {
        acc[j] = step(acc[j], xr[j]);
        store(yr + j, acc[j]);
      }
    }
  });
}

double log_add_exp(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return NAN;
  const double hi = std::fmax(a, b), lo = std::fmin(a, b);
  if (std::isinf(hi) && hi == lo) return hi;
  return hi + std::log1p(std::exp(lo - hi));
}

}  // namespace

void cumprod_kernel(const KernelCall& c) {
  const ScalarType ct = c.p.compute_dtype;
  with_contiguous(
      c, ct, 0, c.params<DimParams>().dim,
      [&](const Tensor& x, const Tensor& y, const Geometry& g) {
        TS_DISPATCH_ALL_TYPES_AND_REDUCED(ct, "cumprod", [&] {
          using T = scalar_t;
          const T* xp = static_cast<const T*>(x.data_ptr());
          T* yp = static_cast<T*>(y.data_ptr());
          if constexpr (std::is_integral_v<T>) {
            scan<T, uint64_t>(
                xp, yp, g, uint64_t{1},
                [](uint64_t a, T v) { return a * static_cast<uint64_t>(static_cast<int64_t>(v)); },
                [](T* p, uint64_t a) { *p = static_cast<T>(static_cast<int64_t>(a)); });
          } else {
            scan<T, double>(
                xp, yp, g, 1.0, [](double a, T v) { return a * to_double(v); },
                [](T* p, double a) { store_rounded(p, a); });
          }
        });
      });
}

void logcumsumexp_kernel(const KernelCall& c) {
  const ScalarType ct = c.p.compute_dtype;
  with_contiguous(c, ct, 0, c.params<DimParams>().dim,
                  [&](const Tensor& x, const Tensor& y, const Geometry& g) {
                    TS_DISPATCH_FLOATING_TYPES_AND_REDUCED(ct, "logcumsumexp", [&] {
                      using T = scalar_t;
                      scan<T, double>(
                          static_cast<const T*>(x.data_ptr()), static_cast<T*>(y.data_ptr()), g,
                          -INFINITY, [](double a, T v) { return log_add_exp(a, to_double(v)); },
                          [](T* p, double a) { store_rounded(p, a); });
                    });
                  });
}

// ATen's rule (Note in lib/src/ops/scan.cpp): NaN, or >= (<=) the running extreme, takes its
// place. Values and indices go to contiguous buffers of the input's shape first when needed.
// Note [Running extremes along rows]
// A line at a time, the update behind a branch: on random data a running max changes rarely
// (about ln n times in n), so the predicted branch keeps the steps independent, where selects
// (four lines side by side, Note [Scans along rows]) chained every step to the last. Blocks of
// kBlock elements are tested first, branch-free (vectorized): one without a taker stores the
// running value and index as fills. A float takes over from a best that is not NaN when it is
// not below it (NaN included), from a NaN best only when it is NaN itself. 4096 x 4096 float32
// along dim 1, 1 thread: 19.5 (selects) -> 15.9 (branch) -> 10.8 (blocks) ms, ATen 14.9.
// Integers update by selects: the bench's int32 (8 values, 1 in 8 a tie with the max) mispredicted
// the branch, 20.0 -> 13.6 ms (ATen 25.8).
template <bool kMax, typename K, typename T>
void extreme_row(const T* HWY_RESTRICT x, T* HWY_RESTRICT v, int64_t* HWY_RESTRICT ind, int64_t n) {
  constexpr int64_t kBlock = 16;
  constexpr bool kFloat = std::is_floating_point_v<K>;
  const auto beats = [](K a, K best) {  // a takes over from a best that is not NaN
    if constexpr (kFloat) {
      return kMax ? !(a < best) : !(a > best);
    } else {
      return kMax ? a >= best : a <= best;
    }
  };
  constexpr int kBackoff = 3;  // blocks run element-wise after a test that found a taker
  K best = static_cast<K>(x[0]);
  int64_t at = 0;
  int untested = 0;
  for (int64_t k = 0; k < n;) {
    if (untested > 0) {
      --untested;
    } else if (k + kBlock <= n && best == best) {  // (a NaN best: the element loop below)
      bool any = false;
      for (int64_t j = 0; j < kBlock; ++j) any |= beats(static_cast<K>(x[k + j]), best);
      if (!any) {
        const T value = std::is_same_v<K, T> ? static_cast<T>(best) : x[at];
        for (int64_t j = 0; j < kBlock; ++j) v[k + j] = value;
        for (int64_t j = 0; j < kBlock; ++j) ind[k + j] = at;
        k += kBlock;
        continue;
      }
      untested = kBackoff;
    }
    for (const int64_t e = std::min(n, k + kBlock); k < e; ++k) {
      const K a = static_cast<K>(x[k]);
      if constexpr (kFloat) {
        const bool takes = best == best ? beats(a, best) : a != a;
        if (__builtin_expect(takes, 0)) {
          best = a;
          at = k;
        }
      } else {  // selects: few distinct integers make ties, and updates, frequent
        const bool takes = beats(a, best);
        best = takes ? a : best;
        at = takes ? k : at;
      }
      if constexpr (std::is_same_v<K, T>) {
        v[k] = best;
      } else {
        v[k] = x[at];
      }
      ind[k] = at;
    }
  }
}

void cum_extreme_kernel(const KernelCall& c, bool is_max) {
  const Tensor& self = c.inputs[0];
  if (self.numel() == 0) return;
  const ScalarType t = self.dtype();
  const Tensor x = self.is_contiguous() ? self : self.contiguous();
  const Tensor& vo = c.outputs[0];
  const Tensor& io = c.outputs[1];
  const bool vd = vo.is_contiguous(), id = io.is_contiguous();
  const Tensor v = vd ? vo : empty(vo.sizes(), TensorOptions(t));
  const Tensor ix = id ? io : empty(io.sizes(), TensorOptions(kLong));
  const Geometry g = geometry(x, c.params<SortParams>().dim);
  TS_DISPATCH_ALL_DTYPES(t, is_max ? "cummax" : "cummin", [&] {
    using T = scalar_t;
    using K = std::conditional_t<std::is_integral_v<T> || std::is_same_v<T, double>, T, float>;
    const T* xp = static_cast<const T*>(x.data_ptr());
    T* vp = static_cast<T*>(v.data_ptr());
    auto* ip = static_cast<int64_t*>(ix.data_ptr());
    const auto takes = [&](K a, K best) {
      if constexpr (std::is_floating_point_v<K>) {
        return std::isnan(a) || (!std::isnan(best) && (is_max ? a >= best : a <= best));
      } else {
        return is_max ? a >= best : a <= best;
      }
    };
    if (g.inner == 1) {
      row_groups(g, [&](int64_t l, int64_t m) {
        for (int64_t r = l; r < l + m; ++r) {
          if (is_max) {
            extreme_row<true, K>(xp + r * g.n, vp + r * g.n, ip + r * g.n, g.n);
          } else {
            extreme_row<false, K>(xp + r * g.n, vp + r * g.n, ip + r * g.n, g.n);
          }
        }
      });
      return;
    }
    for_each_block(g, [&](int64_t base, int64_t w) {
      K best[kCols];
      int64_t at[kCols];
      for (int64_t j = 0; j < w; ++j) {
        best[j] = static_cast<K>(xp[base + j]);
        at[j] = 0;
      }
      for (int64_t k = 0; k < g.n; ++k) {
        const int64_t row = base + k * g.inner;
        for (int64_t j = 0; j < w; ++j) {
          const K a = static_cast<K>(xp[row + j]);
          if (takes(a, best[j])) {
            best[j] = a;
            at[j] = k;
          }
          if constexpr (std::is_same_v<K, T>) {
            vp[row + j] = best[j];
          } else {  // the input's own value (a float16 or bfloat16 compared as float)
            vp[row + j] = xp[base + at[j] * g.inner + j];
          }
          ip[row + j] = at[j];
        }
      }
    });
  });
  if (!vd) copy_convert(vo, v);
  if (!id) copy_convert(io, ix);
}

}  // namespace ts::cpu
