// Optimized CPU pooling (max_pool, avg_pool over 1 to 3 spatial dims, adaptive_avg_pool2d,
// adaptive_max_pool2d): contiguous planes in parallel, each output's window bounds computed once
// per dim (max_pool's whole windows in vector lanes: pool_max.cpp). float16/bfloat16 compute in
// float32 and round once. Params: the top of lib/src/ops/pool.cpp; semantics: reference/pool.cpp.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "optimized/cpu/pool_max.h"
#include "touchstone/kernel_family.h"
#include "touchstone/ops.h"
#include "touchstone/parallel.h"

namespace ts::cpu {
namespace {

// One spatial dim: per output position, the first input position read, the end (exclusive) and
// the divisor factor (avg_pool); the step is the dilation. Missing dims: one position, size 1.
// max_pool sets stride, pad and taps (the kernel size); adaptive pooling leaves taps 0.
struct Axis {
  int64_t in = 1, out = 1, step = 1;
  int64_t stride = 1, pad = 0, taps = 0;
  std::vector<int64_t> lo{0}, hi{1};
  std::vector<double> count{1.0};
};

// Spatial dims padded to 3, the missing ones in front (they have size 1).
struct Geometry {
  Axis a[3];
  int64_t planes = 1, in_plane = 1, out_plane = 1;
};

Geometry geometry(const Tensor& x, const Tensor& y, size_t nd) {
  Geometry g;
  const size_t lead = static_cast<size_t>(x.dim()) - nd;
  for (size_t i = 0; i < lead; ++i) g.planes *= x.size(static_cast<int64_t>(i));
  for (size_t d = 0; d < nd; ++d) {
    Axis& ax = g.a[3 - nd + d];
    ax.in = x.size(static_cast<int64_t>(lead + d));
    ax.out = y.size(static_cast<int64_t>(lead + d));
    ax.lo.assign(static_cast<size_t>(ax.out), 0);
    ax.hi.assign(static_cast<size_t>(ax.out), 0);
    ax.count.assign(static_cast<size_t>(ax.out), 1.0);
  }
  for (const Axis& ax : g.a) {
    g.in_plane *= ax.in;
    g.out_plane *= ax.out;
  }
  return g;
}

// max_pool: positions start + k * dilation inside [0, in); lo the first, hi past the last.
Geometry max_geometry(const Tensor& x, const Tensor& y, const PoolParams& p) {
  const size_t nd = p.kernel_size.size();
  Geometry g = geometry(x, y, nd);
  for (size_t d = 0; d < nd; ++d) {
    Axis& ax = g.a[3 - nd + d];
    ax.step = p.dilation[d];
    ax.stride = p.stride[d];
    ax.pad = p.padding[d];
    ax.taps = p.kernel_size[d];
    for (int64_t o = 0; o < ax.out; ++o) {
      int64_t lo = o * p.stride[d] - p.padding[d];
      const int64_t hi = std::min(lo + (p.kernel_size[d] - 1) * p.dilation[d] + 1, ax.in);
      while (lo < 0) lo += p.dilation[d];
      ax.lo[static_cast<size_t>(o)] = lo;
      ax.hi[static_cast<size_t>(o)] = hi;
    }
  }
  return g;
}

// avg_pool: the clipped window and its divisor factor (Note in reference/pool.cpp's avg_pool).
Geometry avg_geometry(const Tensor& x, const Tensor& y, const PoolParams& p) {
  const size_t nd = p.kernel_size.size();
  Geometry g = geometry(x, y, nd);
  for (size_t d = 0; d < nd; ++d) {
    Axis& ax = g.a[3 - nd + d];
    for (int64_t o = 0; o < ax.out; ++o) {
      const int64_t start = o * p.stride[d] - p.padding[d];
      const int64_t end = std::min(start + p.kernel_size[d], ax.in + p.padding[d]);
      const int64_t lo = std::max<int64_t>(start, 0), hi = std::min(end, ax.in);
      const auto u = static_cast<size_t>(o);
      ax.lo[u] = lo;
      ax.hi[u] = hi;
      ax.count[u] = static_cast<double>(p.count_include_pad ? end - start : hi - lo);
    }
  }
  return g;
}

// adaptive pooling: [floor(o in / out), ceil((o + 1) in / out)).
Geometry adaptive_geometry(const Tensor& x, const Tensor& y) {
  Geometry g = geometry(x, y, 2);
  for (size_t d = 1; d < 3; ++d) {
    Axis& ax = g.a[d];
    for (int64_t o = 0; o < ax.out; ++o) {
      const auto u = static_cast<size_t>(o);
      ax.lo[u] = o * ax.in / ax.out;
      ax.hi[u] = ((o + 1) * ax.in + ax.out - 1) / ax.out;
      ax.count[u] = static_cast<double>(ax.hi[u] - ax.lo[u]);
    }
    if (ax.out > 0 && ax.in % ax.out == 0) ax.stride = ax.taps = ax.in / ax.out;  // even windows
  }
  return g;
}

// Each window's largest element and its offset in the plane; NaN wins (the last NaN, as ATen's
// `val > max || isnan(val)`), ties go to the first; the index starts at the first position.
// Windows whole along the last dim go to max_pool_row (Note [Max pooling in lanes]).
template <typename T>
void max_planes(const T* x, T* y, int64_t* ind, const Geometry& g) {
  const Axis &a0 = g.a[0], &a1 = g.a[1], &a2 = g.a[2];
  const int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(g.in_plane, 1));
  // The outputs [lanes_begin, lanes_end) along the last dim whose windows are not clipped.
  const auto whole = [&](int64_t o) {
    const auto u = static_cast<size_t>(o);
    const int64_t lo = o * a2.stride - a2.pad;
    return lo >= 0 && a2.lo[u] == lo && a2.hi[u] == lo + (a2.taps - 1) * a2.step + 1;
  };
  int64_t lanes_begin = 0, lanes_end = 0;
  if (a2.taps > 0 && g.in_plane <= std::numeric_limits<int32_t>::max()) {
    while (lanes_begin < a2.out && !whole(lanes_begin)) ++lanes_begin;
    lanes_end = lanes_begin;
    while (lanes_end < a2.out && whole(lanes_end)) ++lanes_end;
  }
  parallel_for(0, g.planes, grain, [&](int64_t p0, int64_t p1) {
    std::vector<int64_t> rows;
    for (int64_t pl = p0; pl < p1; ++pl) {
      const T* xp = x + pl * g.in_plane;
      T* yp = y + pl * g.out_plane;
      int64_t* ip = ind + pl * g.out_plane;
      for (int64_t o0 = 0; o0 < a0.out; ++o0) {
        const int64_t l0 = a0.lo[static_cast<size_t>(o0)], h0 = a0.hi[static_cast<size_t>(o0)];
        for (int64_t o1 = 0; o1 < a1.out; ++o1, yp += a2.out, ip += a2.out) {
          const int64_t l1 = a1.lo[static_cast<size_t>(o1)], h1 = a1.hi[static_cast<size_t>(o1)];
          rows.clear();
          for (int64_t i0 = l0; i0 < h0; i0 += a0.step) {
            for (int64_t i1 = l1; i1 < h1; i1 += a1.step) rows.push_back((i0 * a1.in + i1) * a2.in);
          }
          const int64_t first = (l0 * a1.in + l1) * a2.in;
          const auto clipped = [&](int64_t o2) {
            const int64_t l2 = a2.lo[static_cast<size_t>(o2)];
            const int64_t h2 = a2.hi[static_cast<size_t>(o2)];
            T best = -std::numeric_limits<T>::infinity();
            int64_t at = first + l2;
            for (const int64_t row : rows) {
              for (int64_t i2 = l2; i2 < h2; i2 += a2.step) {
                const T v = xp[row + i2];
                if (v > best || v != v) {
                  best = v;
                  at = row + i2;
                }
              }
            }
            yp[o2] = best;
            ip[o2] = at;
          };
          for (int64_t o2 = 0; o2 < lanes_begin; ++o2) clipped(o2);
          if (lanes_end > lanes_begin) {
            MaxRow<T> r;
            r.plane = xp;
            r.rows = rows.data();
            r.nrows = static_cast<int64_t>(rows.size());
            r.first = first;
            r.start = -a2.pad;
            r.step = a2.stride;
            r.taps = a2.taps;
            r.dilation = a2.step;
            r.in = a2.in;
            r.begin = lanes_begin;
            r.end = lanes_end;
            r.y = yp;
            r.ind = ip;
            max_pool_row(r);
          }
          for (int64_t o2 = lanes_end; o2 < a2.out; ++o2) clipped(o2);
        }
      }
    }
  });
}

// The sum of a short span (a kernel row, 3 wide say: no lanes to fill) in double, in order;
// inlined into the window loops, which call it per row of every window.
template <typename T>
[[gnu::always_inline]] inline double short_sum(const T* p, int64_t n) {
  double total = 0;
  for (int64_t i = 0; i < n; ++i) total += static_cast<double>(p[i]);
  return total;
}

// The sum of n contiguous elements: eight lanes of T (vectorized by the compiler) per block of
// 2048 elements, the blocks added in double, as Note [Normalization kernels] in norm.cpp.
// The lanes are added in double as a tree, not a chain: a 7x7 plane's sum waited on eight
// dependent adds (ResNet's head, 16384 planes of 49: 1 thread 169 -> ... us).
template <typename T>
[[gnu::always_inline]] inline double block_sum(const T* p, int64_t n) {
  T acc[8] = {};
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    for (int k = 0; k < 8; ++k) acc[k] += p[i + k];
  }
  double d[8];
  for (int k = 0; k < 8; ++k) d[k] = static_cast<double>(acc[k]);
  const double lanes = ((d[0] + d[4]) + (d[1] + d[5])) + ((d[2] + d[6]) + (d[3] + d[7]));
  return lanes + short_sum(p + i, n - i);
}

template <typename T>
double sum_span(const T* p, int64_t n) {
  constexpr int64_t kBlock = 2048;
  if (n < 8) return short_sum(p, n);
  if (n <= kBlock) return block_sum(p, n);
  double total = 0;
  for (int64_t b = 0; b < n; b += kBlock) total += block_sum(p + b, std::min(kBlock, n - b));
  return total;
}

// Each window's sum over [lo, hi) per dim, divided by divisor_override or the product of the
// axes' counts (a box outside the input gives 0).
template <typename T>
void avg_planes(const T* x, T* y, const Geometry& g, int64_t divisor_override) {
  const Axis &a0 = g.a[0], &a1 = g.a[1], &a2 = g.a[2];
  const int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(g.in_plane, 1));
  // One window over a whole 1-D or 2-D plane (a global average, ResNet's 7x7 -> 1x1 head): one
  // span's sum, as the loop below computes it there, without its per-window lookups.
  const auto whole = [](const Axis& a) { return a.out == 1 && a.lo[0] == 0 && a.hi[0] == a.in; };
  if (a0.in == 1 && whole(a0) && whole(a1) && whole(a2) && g.in_plane > 0) {
    const double divisor = divisor_override != 0 ? static_cast<double>(divisor_override)
                                                 : a0.count[0] * a1.count[0] * a2.count[0];
    parallel_for(0, g.planes, grain, [&](int64_t p0, int64_t p1) {
      for (int64_t pl = p0; pl < p1; ++pl) {
        y[pl] = static_cast<T>(sum_span(x + pl * g.in_plane, g.in_plane) / divisor);
      }
    });
    return;
  }
  // Note [Pooling rows at once]
  // Windows of at most 4 along the last dim that are all whole and evenly spaced (2x2x2 stride
  // 2, say: no padding reaches them) take a row of outputs at a time: each input row of the
  // window box adds its k2-element runs into a row of double sums, so the per-window lookups
  // and calls go (avg_pool3d 2x2x2: 0.7x ATen before). The sums are the same, in the same order.
  const int64_t k2 = a2.hi[0] - a2.lo[0], s2 = a2.out > 1 ? a2.lo[1] - a2.lo[0] : 1;
  bool rows_at_once = k2 >= 1 && k2 <= 4 && a2.lo[0] == 0;
  for (int64_t o2 = 0; rows_at_once && o2 < a2.out; ++o2) {
    const auto u2 = static_cast<size_t>(o2);
    rows_at_once = a2.lo[u2] == o2 * s2 && a2.hi[u2] == o2 * s2 + k2;
  }
  parallel_for(0, g.planes, grain, [&](int64_t p0, int64_t p1) {
    std::vector<double> row_sums(rows_at_once ? static_cast<size_t>(a2.out) : 0);
    for (int64_t pl = p0; pl < p1; ++pl) {
      const T* xp = x + pl * g.in_plane;
      T* yp = y + pl * g.out_plane;
      if (rows_at_once) {
        double* acc = row_sums.data();
        for (int64_t o0 = 0; o0 < a0.out; ++o0) {
          const auto u0 = static_cast<size_t>(o0);
          for (int64_t o1 = 0; o1 < a1.out; ++o1, yp += a2.out) {
            const auto u1 = static_cast<size_t>(o1);
            std::fill(acc, acc + a2.out, 0.0);
            for (int64_t i0 = a0.lo[u0]; i0 < a0.hi[u0]; ++i0) {
              for (int64_t i1 = a1.lo[u1]; i1 < a1.hi[u1]; ++i1) {
                const T* row = xp + (i0 * a1.in + i1) * a2.in;
                if (k2 == 2 && s2 == 2) {
                  for (int64_t o2 = 0; o2 < a2.out; ++o2) {
                    acc[o2] +=
                        static_cast<double>(row[2 * o2]) + static_cast<double>(row[2 * o2 + 1]);
                  }
                } else {
                  for (int64_t o2 = 0; o2 < a2.out; ++o2) acc[o2] += short_sum(row + o2 * s2, k2);
                }
              }
            }
            const bool empty = a0.hi[u0] <= a0.lo[u0] || a1.hi[u1] <= a1.lo[u1];
            for (int64_t o2 = 0; o2 < a2.out; ++o2) {
              const double divisor = divisor_override != 0 ? static_cast<double>(divisor_override)
                                                           : a0.count[u0] * a1.count[u1] *
                                                                 a2.count[static_cast<size_t>(o2)];
              yp[o2] = static_cast<T>(empty ? 0.0 : acc[o2] / divisor);
            }
          }
        }
        continue;
      }
      for (int64_t o0 = 0; o0 < a0.out; ++o0) {
        const auto u0 = static_cast<size_t>(o0);
        for (int64_t o1 = 0; o1 < a1.out; ++o1) {
          const auto u1 = static_cast<size_t>(o1);
          for (int64_t o2 = 0; o2 < a2.out; ++o2) {
            const auto u2 = static_cast<size_t>(o2);
            const int64_t l2 = a2.lo[u2], h2 = a2.hi[u2];
            double sum = 0;
            const int64_t l1 = a1.lo[u1], h1 = a1.hi[u1];
            for (int64_t i0 = a0.lo[u0]; i0 < a0.hi[u0]; ++i0) {
              if (l2 == 0 && h2 == a2.in && h1 > l1) {  // whole rows: one contiguous span
                sum += sum_span(xp + (i0 * a1.in + l1) * a2.in, (h1 - l1) * a2.in);
                continue;
              }
              for (int64_t i1 = l1; i1 < h1; ++i1) {
                const T* row = xp + (i0 * a1.in + i1) * a2.in + l2;
                sum += h2 - l2 < 8 ? short_sum(row, h2 - l2) : sum_span(row, h2 - l2);
              }
            }
            const bool empty = a0.hi[u0] <= a0.lo[u0] || a1.hi[u1] <= a1.lo[u1] || h2 <= l2;
            const double divisor = divisor_override != 0
                                       ? static_cast<double>(divisor_override)
                                       : a0.count[u0] * a1.count[u1] * a2.count[u2];
            *yp++ = static_cast<T>(empty ? 0.0 : sum / divisor);
          }
        }
      }
    }
  });
}

// Runs `body<T>(x, y, indices)` on a contiguous input and outputs in T = float (float16,
// bfloat16 and float32) or double, rounding into the outputs once when they differ.
template <typename Body>
void run_typed(const KernelCall& c, bool with_indices, Body&& body) {
  const Tensor& out = c.outputs[0];
  if (out.numel() == 0) return;
  const ScalarType math = c.p.compute_dtype == kDouble ? kDouble : kFloat;
  const Tensor& in = c.inputs[0];
  const Tensor x = (in.dtype() == math ? in : in.to(math)).contiguous();
  const bool direct = out.dtype() == math && out.is_contiguous();
  const Tensor y = direct ? out : empty(out.sizes(), TensorOptions(math));
  Tensor ind;
  if (with_indices) {
    const Tensor& oi = c.outputs[1];
    ind = oi.is_contiguous() ? oi : empty(oi.sizes(), TensorOptions(kLong));
  }
  int64_t* ip = with_indices ? ind.data_ptr<int64_t>() : nullptr;
  if (math == kDouble) {
    body(x.data_ptr<double>(), y.data_ptr<double>(), ip);
  } else {
    body(x.data_ptr<float>(), y.data_ptr<float>(), ip);
  }
  if (!direct) out.copy_(y);
  if (with_indices && !c.outputs[1].is_contiguous()) c.outputs[1].copy_(ind);
}

void max_pool_kernel(const KernelCall& c) {
  const Geometry g = max_geometry(c.inputs[0], c.outputs[0], c.params<PoolParams>());
  run_typed(c, true, [&](const auto* x, auto* y, int64_t* ind) { max_planes(x, y, ind, g); });
}
void adaptive_max_pool2d_kernel(const KernelCall& c) {
  const Geometry g = adaptive_geometry(c.inputs[0], c.outputs[0]);
  run_typed(c, true, [&](const auto* x, auto* y, int64_t* ind) { max_planes(x, y, ind, g); });
}
void avg_pool_kernel(const KernelCall& c) {
  const PoolParams& p = c.params<PoolParams>();
  const Geometry g = avg_geometry(c.inputs[0], c.outputs[0], p);
  run_typed(c, false,
            [&](const auto* x, auto* y, int64_t*) { avg_planes(x, y, g, p.divisor_override); });
}
void adaptive_avg_pool2d_kernel(const KernelCall& c) {
  const Geometry g = adaptive_geometry(c.inputs[0], c.outputs[0]);
  run_typed(c, false, [&](const auto* x, auto* y, int64_t*) { avg_planes(x, y, g, 0); });
}

template <OpId op>
void pool_kernel(const KernelCall& c) {
  if constexpr (op == OpId::max_pool) {
    max_pool_kernel(c);
  } else if constexpr (op == OpId::avg_pool) {
    avg_pool_kernel(c);
  } else if constexpr (op == OpId::adaptive_avg_pool2d) {
    adaptive_avg_pool2d_kernel(c);
  } else if constexpr (op == OpId::adaptive_max_pool2d) {
    adaptive_max_pool2d_kernel(c);
  } else {
    static_assert(kMissingKernel<op>, "a pooling op without its optimized kernel");
  }
}

}  // namespace

TS_REGISTER_KERNELS(optimized, pool) {
  for_each_kernel_op<OpSignature::Pool>([&](auto op) { m.impl(op, kCPU, pool_kernel<op>); });
}

}  // namespace ts::cpu
