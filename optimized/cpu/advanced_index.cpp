// Optimized CPU kernels for advanced indexing (issue 16): index, index_put, index_add, scatter,
// scatter_reduce, masked_select, nonzero, take, put, index_copy, index_fill, masked_scatter. Inputs
// and params as documented in lib/src/ops/advanced_index.cpp; index values arrive checked.
// Memory-bound loops over index values, so no SIMD target code: elements move as raw bytes,
// reductions run in an accumulator.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "optimized/cpu/binary.h"
#include "optimized/cpu/convert.h"
#include "optimized/cpu/elementwise.h"
#include "touchstone/dispatch_macros.h"
#include "touchstone/kernel_family.h"
#include "touchstone/kernel_helpers.h"
#include "touchstone/ops.h"
#include "touchstone/parallel.h"

namespace ts::cpu {
namespace {

constexpr int64_t kGrain = int64_t{1} << 14;

// Note [Walker]
// A row-major walk over `shape` (at least 1-D) for any number of operands, each with its own
// byte strides (0 along broadcast dims): run(b, e, f) calls f(ptrs, len) for each piece of
// elements [b, e) that lies within one innermost row, ptrs at the piece's first element. Any
// element range can be walked, so work splits evenly among threads whatever the shape.
struct Walker {
  DimVector shape;
  std::vector<char*> base;
  std::vector<DimVector> strides;  // bytes

  explicit Walker(IntArrayRef s) : shape(s.empty() ? DimVector{1} : DimVector(s)) {}
  // t's elements at out positions: t_strides (in elements) per dim of the walk's shape.
  void add(const Tensor& t, IntArrayRef t_strides) {
    base.push_back(static_cast<char*>(t.data_ptr()));
    DimVector s(shape.size(), 0);
    for (size_t d = 0; d < t_strides.size(); ++d) {
      s[d] = t_strides[d] * static_cast<int64_t>(t.element_size());
    }
    strides.push_back(s);
  }
  int64_t numel() const {
    int64_t n = 1;
    for (int64_t s : shape) n *= s;
    return n;
  }
  int64_t inner_stride(size_t op) const { return strides[op][shape.size() - 1]; }

  template <class F>
  void run(int64_t b, int64_t e, const F& f) const {
    const size_t nd = shape.size(), n = base.size();
    DimVector pos(nd, 0);
    int64_t rem = b;
    for (size_t d = nd; d-- > 0;) {
      pos[d] = rem % shape[d];
      rem /= shape[d];
    }
    std::vector<char*> p(n);
    while (b < e) {
      for (size_t o = 0; o < n; ++o) {
        int64_t off = 0;
        for (size_t d = 0; d < nd; ++d) off += pos[d] * strides[o][d];
        p[o] = base[o] + off;
      }
      const int64_t len = std::min(shape[nd - 1] - pos[nd - 1], e - b);
      f(p.data(), len);
      b += len;
      pos[nd - 1] += len;
      for (size_t d = nd - 1; d > 0 && pos[d] == shape[d]; --d) {
        pos[d] = 0;
        ++pos[d - 1];
      }
    }
  }
};

// ---- index lists: index, index_put ----

// Note [Restrided self]
// As ATen's index kernel: over the result's shape, self walks with stride 0 along the broadcast
// dims B and its own strides along the dims not indexed, and each index tensor walks B with its
// own strides; an element's offset in self adds index value * self's stride of that dim.
struct IndexGeometry {
  DimVector self_strides;                 // per result dim, in elements
  std::vector<DimVector> index_strides;   // per defined index, per result dim
  std::vector<const Tensor*> indices;     // the defined ones
  std::vector<int64_t> dim_stride, size;  // self's stride (bytes) and size of each one's dim
};

IndexGeometry index_geometry(const Tensor& self, IntArrayRef self_strides, ArrayRef<Tensor> list,
                             size_t result_rank, size_t elem) {
  IndexGeometry g;
  std::vector<int64_t> defined;
  for (size_t d = 0; d < list.size(); ++d) {
    if (list[d].defined()) defined.push_back(static_cast<int64_t>(d));
  }
  const size_t rank = std::max<size_t>(result_rank, 1);
  g.self_strides = DimVector(rank, 0);
  if (defined.empty()) {
    for (int64_t d = 0; d < self.dim(); ++d) g.self_strides[d] = self_strides[d];
    return g;
  }
  const int64_t first = defined.front(), last = defined.back();
  const bool adjacent = last - first + 1 == static_cast<int64_t>(defined.size());
  const int64_t b_rank = list[first].dim(), b_at = adjacent ? first : 0;
  int64_t next = adjacent ? 0 : b_rank;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (d < static_cast<int64_t>(list.size()) && list[d].defined()) continue;
    if (adjacent && next == b_at) next += b_rank;
    g.self_strides[next++] = self_strides[d];
  }
  for (int64_t d : defined) {
    DimVector s(rank, 0);
    for (int64_t j = 0; j < b_rank; ++j) s[b_at + j] = list[d].strides()[j];
    g.index_strides.push_back(s);
    g.indices.push_back(&list[d]);
    g.dim_stride.push_back(self_strides[d] * static_cast<int64_t>(elem));
    g.size.push_back(self.sizes()[d]);
  }
  return g;
}

// The walk of index's result shape: operand 0 `dst` (given strides), 1 self restrided, 2.. the
// indices.
Walker index_walker(IntArrayRef shape, const Tensor& dst, IntArrayRef dst_strides,
                    const Tensor& self, const IndexGeometry& g) {
  Walker w(shape);
  w.add(dst, shape.empty() ? IntArrayRef() : dst_strides);
  w.add(self, g.self_strides);
  for (size_t j = 0; j < g.indices.size(); ++j) w.add(*g.indices[j], g.index_strides[j]);
  return w;
}

// The byte offset in self of element i of a piece (the index values, wrapped).
inline int64_t index_offset(char** p, const Walker& w, const IndexGeometry& g, int64_t i) {
  int64_t off = 0;
  for (size_t j = 0; j < g.indices.size(); ++j) {
    int64_t x = *reinterpret_cast<const int64_t*>(p[2 + j] + i * w.inner_stride(2 + j));
    if (x < 0) x += g.size[j];
    off += x * g.dim_stride[j];
  }
  return off;
}

template <OpId op>
void kernel(const KernelCall& c) = delete;

// out[pos] = self[restrided pos + index offsets], in parallel over the result's elements.
template <>
void kernel<OpId::index>(const KernelCall& c) {
  const Tensor &out = c.outputs[0], &self = c.inputs[0];
  if (out.numel() == 0) return;
  const IndexGeometry g = index_geometry(self, self.strides(), c.inputs.slice(1),
                                         out.sizes().size(), out.element_size());
  const Walker w = index_walker(out.sizes(), out, out.strides(), self, g);
  with_element_type(out.element_size(), [&](auto u) {
    using U = decltype(u);
    const int64_t so = w.inner_stride(0), ss = w.inner_stride(1);
    parallel_for(0, w.numel(), kGrain, [&](int64_t b, int64_t e) {
      w.run(b, e, [&](char** p, int64_t len) {
        if (g.indices.size() == 1 && so == sizeof(U) && ss == 0) {  // a gather into a row
          const int64_t si = w.inner_stride(2), ds = g.dim_stride[0], size = g.size[0];
          U* o = reinterpret_cast<U*>(p[0]);
          for (int64_t i = 0; i < len; ++i) {
            int64_t x = *reinterpret_cast<const int64_t*>(p[2] + i * si);
            if (x < 0) x += size;
            o[i] = *reinterpret_cast<const U*>(p[1] + x * ds);
          }
          return;
        }
        for (int64_t i = 0; i < len; ++i) {
          *reinterpret_cast<U*>(p[0] + i * so) =
              *reinterpret_cast<const U*>(p[1] + i * ss + index_offset(p, w, g, i));
        }
      });
    });
  });
}

// The accumulator type of a compute dtype: double for floating dtypes (sums and products are
// rounded once, as the reference does), int64 for integers and bool (wrapped, or != 0, on store).
template <typename T>
using AccOf =
    std::conditional_t<std::is_floating_point_v<T> || is_16bit_float_v<T>, double, int64_t>;

template <typename T>
AccOf<T> to_acc(T v) {
  if constexpr (std::is_same_v<AccOf<T>, double>) {
    return static_cast<double>(static_cast<std::conditional_t<is_16bit_float_v<T>, float, T>>(v));
  } else {
    return static_cast<int64_t>(v);
  }
}

// A Scalar (alpha, value) in the accumulator, rounded to the compute dtype first.
template <typename T>
AccOf<T> scalar_acc(const Scalar& s, ScalarType ct) {
  if constexpr (std::is_same_v<AccOf<T>, double>) {
    return round_to(ct, s.to<double>());
  } else {
    return s.to<int64_t>();
  }
}

// A contiguous accumulator holding self (c.outputs[0] gets it back through finish()).
template <typename A>
struct Accumulator {
  Tensor t;
  A* data;
  Accumulator(const Tensor& self)
      : t(empty(self.sizes(), std::is_same_v<A, double> ? kDouble : kLong)),
        data(static_cast<A*>(t.data_ptr())) {
    copy_convert(t, self);
  }
  // One rounding (floating), a wrap (integers) or != 0 (bool) into the output.
  void finish(const Tensor& out) const { copy_convert(out, t); }
};

// std::max(a, b) and std::min(a, b) without a branch: GCC 12 branches on them, and random data
// mispredicts half the time (scatter_reduce amax ran at a third of ATen's speed).
inline double max_of(double a, double b) {
#if defined(__SSE2__)
  return _mm_cvtsd_f64(_mm_max_sd(_mm_set_sd(b), _mm_set_sd(a)));  // b > a ? b : a
#else
  return std::max(a, b);
#endif
}
inline double min_of(double a, double b) {
#if defined(__SSE2__)
  return _mm_cvtsd_f64(_mm_min_sd(_mm_set_sd(b), _mm_set_sd(a)));  // b < a ? b : a
#else
  return std::min(a, b);
#endif
}

// Inlined everywhere: called with a constant r (with_reduce below), the switch folds away.
template <typename A>
[[gnu::always_inline]] inline A combine(ScatterReduce r, A a, A b) {
  switch (r) {
    case ScatterReduce::None:
      return b;
    case ScatterReduce::Sum:
    case ScatterReduce::Mean:
      if constexpr (std::is_same_v<A, double>) {
        return a + b;
      } else {
        return static_cast<A>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
      }
    case ScatterReduce::Prod:
      if constexpr (std::is_same_v<A, double>) {
        return a * b;
      } else {
        return static_cast<A>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
      }
    case ScatterReduce::Amax:
    case ScatterReduce::Amin:
      if constexpr (std::is_same_v<A, float>) {
        // Note [float32 selections in place]
        if (std::isnan(b)) return b;
        return r == ScatterReduce::Amax ? (a < b ? b : a) : (b < a ? b : a);
      } else if constexpr (std::is_same_v<A, double>) {
        const double m = r == ScatterReduce::Amax ? max_of(a, b) : min_of(a, b);
        return std::isunordered(a, b) ? std::numeric_limits<double>::quiet_NaN() : m;
      } else {
        return r == ScatterReduce::Amax ? std::max(a, b) : std::min(a, b);
      }
  }
  return b;
}

// Note [Sums by region]
// index_put and put with accumulate=True round each destination's sum once, as the reference
// does: self plus its values in index order, in double. With one double accumulator for all of
// self (4M float32: 32 MiB, beyond this L3) each add waited on DRAM, and two conversion passes
// went around it. Instead the (destination, value) pairs are sorted by region of 64K elements
// with a stable counting sort (each destination keeps its index order), then each region's
// accumulator (512 KiB of double, in L2) loads, takes its pairs and rounds back: streamed when
// its pairs are many, element by element when few. Chunks of pairs and regions run in parallel
// and the bits are the serial sum's for any thread count.
// Regions of 32K made 128 write streams in the sort: on an Emerald Rapids VM the sort alone
// took 9.4 ms for 1M pairs, against 1.7-2.0 with 32 or 64 streams (put_ 12 -> 8.5 ms).
template <typename T, class Each>
void sum_by_region(T* out, int64_t n, int64_t k, const Each& each) {
  using A = AccOf<T>;
  constexpr int kBits = 16;
  constexpr int64_t kRegion = int64_t{1} << kBits;
  const int64_t regions = ((n - 1) >> kBits) + 1;
  const int64_t chunks = std::clamp<int64_t>(k >> 16, 1, get_num_threads());
  const auto first = [&](int64_t c) { return k * c / chunks; };
  // count[c * regions + r]: chunk c's pairs in region r, then where its next one goes.
  std::vector<int64_t> count(static_cast<size_t>(chunks * regions), 0);
  parallel_for(0, chunks, 1, [&](int64_t c0, int64_t c1) {
    for (int64_t c = c0; c < c1; ++c) {
      int64_t* cc = count.data() + c * regions;
      each(first(c), first(c + 1), [&](int64_t e, T) { ++cc[e >> kBits]; });
    }
  });
  std::vector<int64_t> start(static_cast<size_t>(regions) + 1);
  int64_t next = 0;
  for (int64_t r = 0; r < regions; ++r) {
    start[static_cast<size_t>(r)] = next;
    for (int64_t c = 0; c < chunks; ++c) next += std::exchange(count[c * regions + r], next);
  }
  start.back() = next;
  struct Pair {
    uint32_t at;  // in the region
    T v;
  };
  const Tensor scratch = empty({k * static_cast<int64_t>(sizeof(Pair))}, kByte);
  Pair* const pairs = static_cast<Pair*>(scratch.data_ptr());
  parallel_for(0, chunks, 1, [&](int64_t c0, int64_t c1) {
    for (int64_t c = c0; c < c1; ++c) {
      int64_t* cc = count.data() + c * regions;
      each(first(c), first(c + 1), [&](int64_t e, T v) {
        pairs[cc[e >> kBits]++] = {static_cast<uint32_t>(e & (kRegion - 1)), v};
      });
    }
  });
  parallel_for(0, regions, 1, [&](int64_t r0, int64_t r1) {
    std::vector<A> acc(static_cast<size_t>(kRegion));
    std::vector<uint8_t> met(static_cast<size_t>(kRegion), 0);
    for (int64_t r = r0; r < r1; ++r) {
      const int64_t b = start[static_cast<size_t>(r)], e = start[static_cast<size_t>(r) + 1];
      T* const o = out + r * kRegion;
      const int64_t len = std::min(kRegion, n - r * kRegion);
      if (e - b >= len / 16) {  // many pairs: the whole region through the accumulator
        A* const a = std::is_same_v<T, A> ? reinterpret_cast<A*>(o) : acc.data();
        if constexpr (std::is_same_v<T, float>) {
          convert_floats(a, o, len, false);
        } else if constexpr (!std::is_same_v<T, A>) {
          for (int64_t j = 0; j < len; ++j) a[j] = to_acc(o[j]);
        }
        for (int64_t p = b; p < e; ++p) {
          a[pairs[p].at] = combine(ScatterReduce::Sum, a[pairs[p].at], to_acc(pairs[p].v));
        }
        if constexpr (std::is_same_v<T, float>) {
          convert_floats(o, a, len, true);
        } else if constexpr (!std::is_same_v<T, A>) {
          for (int64_t j = 0; j < len; ++j) o[j] = convert_value<T>(a[j]);
        }
        continue;
      }
      for (int64_t p = b; p < e; ++p) {  // few: only the elements met
        const uint32_t j = pairs[p].at;
        const A x = met[j] ? acc[j] : to_acc(o[j]);
        met[j] = 1;
        acc[j] = combine(ScatterReduce::Sum, x, to_acc(pairs[p].v));
      }
      for (int64_t p = b; p < e; ++p) {
        const uint32_t j = pairs[p].at;
        if (met[j]) o[j] = convert_value<T>(acc[j]);
        met[j] = 0;
      }
    }
  });
}

// Calls f(std::integral_constant<ScatterReduce, r>{}): loops that combine per element get the
// reduction as a constant (an out-of-line combine per element was 60 % of scatter's time).
template <class F>
void with_reduce(ScatterReduce r, const F& f) {
  using R = ScatterReduce;
  switch (r) {
    case R::None:
      return f(std::integral_constant<R, R::None>{});
    case R::Sum:
    case R::Mean:  // combines as Sum
      return f(std::integral_constant<R, R::Sum>{});
    case R::Prod:
      return f(std::integral_constant<R, R::Prod>{});
    case R::Amax:
      return f(std::integral_constant<R, R::Amax>{});
    case R::Amin:
      return f(std::integral_constant<R, R::Amin>{});
  }
}

// out = self; out[indexed pos] = values (accumulate: +=). Without accumulate the last value
// written wins, so the walk is serial and row-major (the reference's order); with it, sums run
// serially in the accumulator, rounded once.
template <>
void kernel<OpId::index_put>(const KernelCall& c) {
  const Tensor &out = c.outputs[0], &self = c.inputs[0], &values = c.inputs[1];
  const ScalarType ct = c.p.compute_dtype;
  const ArrayRef<Tensor> list = c.inputs.slice(2);
  if (!c.params<IndexPutParams>().accumulate) {
    if (!out.is_same(self)) copy_convert(out, self);
    if (values.numel() == 0) return;
    const IndexGeometry g =
        index_geometry(out, out.strides(), list, values.sizes().size(), out.element_size());
    const Walker w = index_walker(values.sizes(), values, values.strides(), out, g);
    with_element_type(out.element_size(), [&](auto u) {
      using U = decltype(u);
      const int64_t sv = w.inner_stride(0), so = w.inner_stride(1);
      w.run(0, w.numel(), [&](char** p, int64_t len) {
        for (int64_t i = 0; i < len; ++i) {
          *reinterpret_cast<U*>(p[1] + i * so + index_offset(p, w, g, i)) =
              *reinterpret_cast<const U*>(p[0] + i * sv);
        }
      });
    });
    return;
  }
  TS_DISPATCH_ALL_DTYPES(ct, "index_put_", [&] {
    if (values.numel() > 0 && out.is_non_overlapping_and_dense() &&
        values.storage().get() != out.storage().get()) {  // Note [Sums by region]
      const IndexGeometry g =
          index_geometry(out, out.strides(), list, values.sizes().size(), sizeof(scalar_t));
      const Walker w = index_walker(values.sizes(), values, values.strides(), out, g);
      const int64_t sv = w.inner_stride(0), so = w.inner_stride(1);
      const char* const base = static_cast<const char*>(out.data_ptr());
      const auto each = [&](int64_t b, int64_t e, const auto& f) {
        w.run(b, e, [&](char** p, int64_t len) {
          if (g.indices.size() == 1) {  // the common case, without index_offset's loop
            const int64_t si = w.inner_stride(2), ds = g.dim_stride[0], size = g.size[0];
            for (int64_t i = 0; i < len; ++i) {
              int64_t x = *reinterpret_cast<const int64_t*>(p[2] + i * si);
              if (x < 0) x += size;
              f((p[1] + i * so + x * ds - base) / static_cast<int64_t>(sizeof(scalar_t)),
                *reinterpret_cast<const scalar_t*>(p[0] + i * sv));
            }
            return;
          }
          for (int64_t i = 0; i < len; ++i) {
            f((p[1] + i * so + index_offset(p, w, g, i) - base) /
                  static_cast<int64_t>(sizeof(scalar_t)),
              *reinterpret_cast<const scalar_t*>(p[0] + i * sv));
          }
        });
      };
      if (!out.is_same(self)) copy_convert(out, self);
      return sum_by_region(static_cast<scalar_t*>(out.data_ptr()), out.numel(), w.numel(), each);
    }
    using A = AccOf<scalar_t>;
    const Accumulator<A> acc(self);
    if (values.numel() > 0) {
      const IndexGeometry g =
          index_geometry(acc.t, acc.t.strides(), list, values.sizes().size(), sizeof(A));
      const Walker w = index_walker(values.sizes(), values, values.strides(), acc.t, g);
      const int64_t sv = w.inner_stride(0), sa = w.inner_stride(1);
      // Note [Prefetching scattered sums]
      // The sums run serially (the reference's order), and with destinations spread over an
      // accumulator beyond the caches each one waited for a miss (4M float32, 1M indices: 43
      // ms, ATen 16-23). The destination kAhead values on is prefetched, so misses overlap.
      constexpr int64_t kAhead = 16;
      w.run(0, w.numel(), [&](char** p, int64_t len) {
        for (int64_t i = 0; i < len; ++i) {
          if (i + kAhead < len) {
            __builtin_prefetch(p[1] + (i + kAhead) * sa + index_offset(p, w, g, i + kAhead), 1);
          }
          A& dst = *reinterpret_cast<A*>(p[1] + i * sa + index_offset(p, w, g, i));
          dst = combine(ScatterReduce::Sum, dst,
                        to_acc(*reinterpret_cast<const scalar_t*>(p[0] + i * sv)));
        }
      });
    }
    acc.finish(out);
  });
}

// ---- index_add, scatter, scatter_reduce ----

// Note [Scatter lines]
// Two source elements reach one output element only when they differ in the scattered dim
// alone, so the walk is over lines along that dim: the last other dim's positions are split
// into chunks, (other positions, chunk) pairs run in parallel (they write disjoint elements),
// and each pair adds its line elements in increasing order along dim, the reference's order
// for every output element. Accumulation is in AccOf, so results are the reference's bit for
// bit on any number of threads.
struct ScatterWalk {
  DimVector shape;  // the index's (index_add: source's), at least 1-D
  int64_t dim;
  const char* index;          // int64 values
  DimVector index_strides;    // bytes, per dim of shape
  const char* src = nullptr;  // null: the value form
  DimVector src_strides;      // bytes
  DimVector acc_strides;      // elements of the contiguous accumulator; 0 along dim
  int64_t acc_dim_stride;     // elements
};

template <typename A, typename S, class F>
void scatter_lines(const ScatterWalk& s, const F& f) {
  const int64_t nd = static_cast<int64_t>(s.shape.size());
  const int64_t len = s.shape[s.dim];
  int64_t r = nd - 1;
  if (r == s.dim) --r;
  const int64_t run = r >= 0 ? s.shape[r] : 1;
  if (len == 0 || run == 0) return;
  constexpr int64_t kChunk = 512;
  const int64_t chunks = (run + kChunk - 1) / kChunk;
  int64_t outer = 1;
  for (int64_t d = 0; d < nd; ++d) {
    if (d != s.dim && d != r) outer *= s.shape[d];
  }
  if (outer == 0) return;
  const int64_t grain = std::max<int64_t>(1, kGrain / std::max<int64_t>(1, len * kChunk));
  parallel_for(0, outer * chunks, grain, [&](int64_t b, int64_t e) {
    for (int64_t item = b; item < e; ++item) {
      int64_t o = item / chunks;
      const int64_t i0 = (item % chunks) * kChunk, i1 = std::min(run, i0 + kChunk);
      int64_t xi = 0, xs = 0, xa = 0;
      for (int64_t d = nd - 1; d >= 0; --d) {
        if (d == s.dim || d == r) continue;
        const int64_t p = o % s.shape[d];
        o /= s.shape[d];
        xi += p * s.index_strides[d];
        xs += p * (s.src ? s.src_strides[d] : 0);
        xa += p * s.acc_strides[d];
      }
      const int64_t ri = r >= 0 ? s.index_strides[r] : 0,
                    rs = r >= 0 && s.src ? s.src_strides[r] : 0;
      const int64_t ra = r >= 0 ? s.acc_strides[r] : 0;
      const int64_t ki = s.index_strides[s.dim], ks = s.src ? s.src_strides[s.dim] : 0;
      auto one = [&](int64_t k, int64_t i) {
        const int64_t x = *reinterpret_cast<const int64_t*>(s.index + xi + k * ki + i * ri);
        const int64_t a = xa + i * ra + x * s.acc_dim_stride;
        if (s.src) {
          const S v = *reinterpret_cast<const S*>(s.src + xs + k * ks + i * rs);
          if constexpr (std::is_same_v<A, S>) {
            f(a, v);
          } else {
            f(a, to_acc(v));
          }
        } else {
          f(a, A{});
        }
      };
      // Whichever of (line, element) is closer in memory innermost; each line's elements stay
      // in increasing order either way.
      if (std::abs(ki) < std::abs(ri)) {
        for (int64_t i = i0; i < i1; ++i) {
          for (int64_t k = 0; k < len; ++k) one(k, i);
        }
      } else {
        for (int64_t k = 0; k < len; ++k) {
          for (int64_t i = i0; i < i1; ++i) one(k, i);
        }
      }
    }
  });
}

// Byte strides of t over a walk of `nd` dims (a 0-dim t: zeros).
DimVector byte_strides(const Tensor& t, int64_t nd) {
  DimVector s(static_cast<size_t>(nd), 0);
  if (t.dim() > 0) {
    for (int64_t d = 0; d < nd; ++d) s[d] = t.strides()[d] * static_cast<int64_t>(t.element_size());
  }
  return s;
}

ScatterWalk scatter_walk(const Tensor& acc, IntArrayRef shape, int64_t dim) {
  ScatterWalk s;
  s.shape = shape.empty() ? DimVector{1} : DimVector(shape);
  s.dim = dim;
  const int64_t nd = static_cast<int64_t>(s.shape.size());
  s.acc_strides = DimVector(static_cast<size_t>(nd), 0);
  for (int64_t d = 0; d < nd && d < acc.dim(); ++d) s.acc_strides[d] = acc.strides()[d];
  s.acc_dim_stride = acc.dim() > 0 ? acc.strides()[dim] : 0;
  s.acc_strides[dim] = 0;
  return s;
}

// Note [float32 selections in place]
// Writes, maxima and minima of float32 run in float32 (they round nothing): isnan(b) ? b :
// max(a, b) as a compare and select that GCC turns into one maxss with a memory operand. Through
// double and the max_sd intrinsic (register moves around each), scatter_reduce amax over dim 1
// of 4096 x 4096 took 26 ms in a standalone loop against 22 this way (ATen's loop: 22-24); the
// bench case at 1 thread went from 42-50 to 37-41 ms (ATen 33-39). A NaN on either side wins.

// Note [Scattered rows streamed]
// Along the last dim of contiguous tensors whose index reaches every row, with an output beyond
// the LLC (Note [Streaming stores]): each row of self is copied into a buffer, updated
// there, and streamed out, where copying self into the output first and then updating it read
// and wrote the output twice. Rows run in parallel, each row's elements in order, so the
// results are the same. Over dim 1 of 4096², 1 thread: scatter_reduce amax 36.7-37.5 -> 25.6-
// 26.6 ms (ATen 33.7-34.8), scatter 29.3-29.8 -> 24.1-26.2 (ATen 28.7-30.1).
template <class R>
bool scatter_rows_streamed(const KernelCall& c, const Tensor& out, int64_t dim, R r) {
  const Tensor &self = c.inputs[0], &index = c.inputs[1], &src = c.inputs[2];
  const int64_t nd = self.dim();
  if (nd == 0 || dim != nd - 1 || index.dim() != nd || src.sizes() != index.sizes() ||
      !stream_output(static_cast<int64_t>(out.nbytes()))) {
    return false;
  }
  if (!out.is_contiguous() || !self.is_contiguous() || !index.is_contiguous() ||
      !src.is_contiguous() || (!out.is_same(self) && out.storage().get() == self.storage().get())) {
    return false;
  }
  for (int64_t d = 0; d + 1 < nd; ++d) {
    if (index.size(d) != self.size(d)) return false;
  }
  const int64_t m = self.size(dim), len = index.size(dim), rows = self.numel() / m;
  const float* sp = self.data_ptr<float>();
  const int64_t* ip = index.data_ptr<int64_t>();
  const float* vp = src.data_ptr<float>();
  float* op = out.data_ptr<float>();
  parallel_for(0, rows, std::max<int64_t>(1, kGrain / (m + len)), [&](int64_t b, int64_t e) {
    std::vector<float> buf(static_cast<size_t>(m));
    for (int64_t row = b; row < e; ++row) {
      std::memcpy(buf.data(), sp + row * m, static_cast<size_t>(m) * sizeof(float));
      const int64_t* x = ip + row * len;
      const float* v = vp + row * len;
      for (int64_t k = 0; k < len; ++k) buf[x[k]] = combine(r.value, buf[x[k]], v[k]);
      copy_bytes(op + row * m, buf.data(), m * static_cast<int64_t>(sizeof(float)), true);
    }
    stream_fence();
  });
  return true;
}

// scatter, scatter_reduce and index_add: acc = self, every source value combined in.
template <typename T>
void scatter_kernel(const KernelCall& c, const ScatterWalk& walk, ScatterReduce reduce,
                    bool include_self, AccOf<T> alpha, AccOf<T> value) {
  using A = AccOf<T>;
  const Tensor &self = c.inputs[0], &out = c.outputs[0];
  const bool has_src = walk.src != nullptr;
  // Writes, maxima and minima round nothing: they run on the output itself, no accumulator.
  const bool direct = include_self && c.op != OpId::index_add &&
                      (reduce == ScatterReduce::None || reduce == ScatterReduce::Amax ||
                       reduce == ScatterReduce::Amin);
  if (direct) {
    ScatterWalk w = walk;
    for (size_t d = 0; d < w.acc_strides.size(); ++d) {
      w.acc_strides[d] = static_cast<int64_t>(d) < out.dim() ? out.strides()[d] : 0;
    }
    w.acc_dim_stride = out.dim() > 0 ? out.strides()[w.dim] : 0;
    w.acc_strides[w.dim] = 0;
    T* const o = static_cast<T*>(out.data_ptr());
    auto run = [&](auto r) {
      if constexpr (std::is_same_v<T, float>) {
        if (has_src && scatter_rows_streamed(c, out, walk.dim, r)) return;
      }
      if (!out.is_same(self)) copy_convert(out, self);
      if constexpr (std::is_same_v<T, float>) {  // Note [float32 selections in place]
        const float fill = static_cast<float>(value);
        scatter_lines<float, float>(
            w, [&](int64_t a, float v) { o[a] = combine(r.value, o[a], has_src ? v : fill); });
      } else {
        scatter_lines<A, T>(w, [&](int64_t a, A v) {
          o[a] = convert_value<T>(combine(r.value, to_acc(o[a]), has_src ? v : value));
        });
      }
    };
    using R = ScatterReduce;
    if (reduce == R::None) {
      run(std::integral_constant<R, R::None>{});
    } else if (reduce == R::Amax) {
      run(std::integral_constant<R, R::Amax>{});
    } else {
      run(std::integral_constant<R, R::Amin>{});
    }
    return;
  }
  const Accumulator<A> acc(self);
  A* data = acc.data;
  const bool counts = reduce == ScatterReduce::Mean || !include_self;
  std::vector<int64_t> count(counts ? static_cast<size_t>(self.numel()) : 0, 0);
  const bool scaled = c.op == OpId::index_add;
  with_reduce(reduce, [&](auto r) {
    scatter_lines<A, T>(walk, [&](int64_t a, A v) {
      if (!has_src) v = value;
      if (scaled) v = combine(ScatterReduce::Prod, alpha, v);
      if (counts && count[static_cast<size_t>(a)]++ == 0 && !include_self) {
        data[a] = v;
      } else {
        data[a] = combine(r.value, data[a], v);
      }
    });
  });
  if (reduce == ScatterReduce::Mean) {
    parallel_for(0, self.numel(), kGrain, [&](int64_t b, int64_t e) {
      for (int64_t f = b; f < e; ++f) {
        const int64_t n = count[f] + (include_self ? 1 : 0);
        if (count[f] == 0) continue;
        if constexpr (std::is_same_v<A, double>) {
          data[f] /= static_cast<double>(n);
        } else {
          const A q = data[f] / n;
          data[f] = (data[f] % n != 0 && data[f] < 0) ? q - 1 : q;  // floor (n > 0)
        }
      }
    });
  }
  acc.finish(c.outputs[0]);
}

void run_scatter(const KernelCall& c) {
  const Tensor &self = c.inputs[0], &index = c.inputs[1];
  const ScatterParams& sp = c.params<ScatterParams>();
  const ScalarType ct = c.p.compute_dtype;
  TS_DISPATCH_ALL_DTYPES(ct, "scatter", [&] {
    using A = AccOf<scalar_t>;
    const Tensor acc_geometry = empty(self.sizes(), kLong);  // strides of the accumulator
    ScatterWalk w = scatter_walk(acc_geometry, index.sizes(), sp.dim);
    const int64_t nd = static_cast<int64_t>(w.shape.size());
    w.index = static_cast<const char*>(index.data_ptr());
    w.index_strides = byte_strides(index, nd);
    if (c.inputs.size() == 3) {
      w.src = static_cast<const char*>(c.inputs[2].data_ptr());
      w.src_strides = byte_strides(c.inputs[2], nd);
    }
    const A value = sp.value ? scalar_acc<scalar_t>(*sp.value, ct) : A{};
    scatter_kernel<scalar_t>(c, w, sp.reduce, sp.include_self, A{1}, value);
  });
}

template <>
void kernel<OpId::scatter>(const KernelCall& c) {
  run_scatter(c);
}
template <>
void kernel<OpId::scatter_reduce>(const KernelCall& c) {
  run_scatter(c);
}

// Note [index_add by destination]
// The source slices are grouped by the index value they add into (a stable counting sort), and
// destination slices run in parallel: each sums self's slice and its sources, in index order, in
// a buffer of AccOf and stores it once, rounded. Every element is written by one thread, the
// result is the reference's bit for bit, and self and source are each read once.
template <typename T>
void index_add_by_destination(const KernelCall& c, const std::vector<int64_t>& start,
                              const std::vector<int64_t>& order) {
  using A = AccOf<T>;
  const Tensor &self = c.inputs[0], &source = c.inputs[2], &out = c.outputs[0];
  const ScatterParams& sp = c.params<ScatterParams>();
  const A alpha = scalar_acc<T>(sp.alpha, c.p.compute_dtype);
  const int64_t size = static_cast<int64_t>(start.size()) - 1;
  auto slice = [&](const Tensor& t, int64_t v) { return t.dim() == 0 ? t : t.select(sp.dim, v); };
  const int64_t slice_numel = self.dim() == 0 ? 1 : self.numel() / std::max<int64_t>(1, size);
  const int64_t grain = std::max<int64_t>(1, kGrain / std::max<int64_t>(1, slice_numel));
  // Slices along a leading dim of contiguous tensors are blocks: pointers, no slice tensors
  // and walkers per slice.
  bool blocks = self.dim() > 0 && self.is_contiguous() && out.is_contiguous() &&
                source.dim() == self.dim() && source.is_contiguous();
  for (int64_t d = 0; blocks && d < sp.dim; ++d) blocks = self.sizes()[d] == 1;
  if (blocks) {
    const T* sd = static_cast<const T*>(self.data_ptr());
    const T* src = static_cast<const T*>(source.data_ptr());
    T* od = static_cast<T*>(out.data_ptr());
    const int64_t n = slice_numel;
    // The first source is added as self is loaded, the last as the sum is stored, and a single
    // one in one pass without the buffer; alpha = 1 skips the product (1 * x is x). The
    // operations and their order are the same, so are the bits. 4096 x 4096 float32, 4096
    // random rows, 1 thread: 22.7 -> 11.3 ms (ATen 9.3-13.0).
    const auto run = [&](auto unit) {
      const auto term = [&](const T* r, int64_t i) -> A {
        const A x = to_acc(r[i]);
        return decltype(unit)::value ? x : combine(ScatterReduce::Prod, alpha, x);
      };
      parallel_for(0, size, grain, [&](int64_t b, int64_t e) {
        std::vector<A> buf(static_cast<size_t>(n));
        std::vector<const T*> rows;
        for (int64_t v = b; v < e; ++v) {
          const T* si = sd + v * n;
          T* o = od + v * n;
          const int64_t j0 = start[v], j1 = start[v + 1];
          if (j0 == j1) {
            if (o != si) std::copy(si, si + n, o);
            continue;
          }
          const T* first = src + order[j0] * n;
          // Vector adds in double, the same order (Note [Float32 row sums] in binary.h). T alone
          // decides the constexpr if: clang checks a branch whose condition is still dependent.
          if constexpr (std::is_same_v<T, float>) {
            if (decltype(unit)::value) {
              rows.assign({si});
              for (int64_t j = j0; j < j1; ++j) rows.push_back(src + order[j] * n);
              sum_contiguous_floats(o, rows.data(), static_cast<int64_t>(rows.size()), n);
              continue;
            }
          }
          if (j1 - j0 == 1) {
            for (int64_t i = 0; i < n; ++i) {
              o[i] = convert_value<T>(combine(ScatterReduce::Sum, to_acc(si[i]), term(first, i)));
            }
            continue;
          }
          for (int64_t i = 0; i < n; ++i) {
            buf[i] = combine(ScatterReduce::Sum, to_acc(si[i]), term(first, i));
          }
          for (int64_t j = j0 + 1; j + 1 < j1; ++j) {
            const T* r = src + order[j] * n;
            for (int64_t i = 0; i < n; ++i)
              buf[i] = combine(ScatterReduce::Sum, buf[i], term(r, i));
          }
          const T* last = src + order[j1 - 1] * n;
          for (int64_t i = 0; i < n; ++i) {
            o[i] = convert_value<T>(combine(ScatterReduce::Sum, buf[i], term(last, i)));
          }
        }
      });
    };
    if (alpha == A{1}) {
      run(std::true_type{});
    } else {
      run(std::false_type{});
    }
    return;
  }
  parallel_for(0, size, grain, [&](int64_t b, int64_t e) {
    std::vector<A> buf(static_cast<size_t>(slice_numel));
    for (int64_t v = b; v < e; ++v) {
      const Tensor os = slice(out, v), ss = slice(self, v);
      if (start[v] == start[v + 1]) {
        if (!out.is_same(self)) copy_convert(os, ss);
        continue;
      }
      Walker w(os.sizes());
      w.add(os, os.strides());
      w.add(ss, ss.strides());
      const int64_t s0 = w.inner_stride(0), s1 = w.inner_stride(1);
      size_t k = 0;
      w.run(0, w.numel(), [&](char** p, int64_t len) {
        for (int64_t i = 0; i < len; ++i)
          buf[k++] = to_acc(*reinterpret_cast<const T*>(p[1] + i * s1));
      });
      for (int64_t j = start[v]; j < start[v + 1]; ++j) {
        const Tensor src = source.dim() == 0 ? source : source.select(sp.dim, order[j]);
        Walker ws(os.sizes());
        ws.add(src, src.strides());
        const int64_t st = ws.inner_stride(0);
        k = 0;
        ws.run(0, ws.numel(), [&](char** p, int64_t len) {
          for (int64_t i = 0; i < len; ++i, ++k) {
            const A x = to_acc(*reinterpret_cast<const T*>(p[0] + i * st));
            buf[k] = combine(ScatterReduce::Sum, buf[k], combine(ScatterReduce::Prod, alpha, x));
          }
        });
      }
      k = 0;
      w.run(0, w.numel(), [&](char** p, int64_t len) {
        for (int64_t i = 0; i < len; ++i)
          *reinterpret_cast<T*>(p[0] + i * s0) = convert_value<T>(buf[k++]);
      });
    }
  });
}

template <>
void kernel<OpId::index_add>(const KernelCall& c) {
  const Tensor& self = c.inputs[0];
  if (c.outputs[0].numel() == 0) return;
  const Tensor index = c.inputs[1].to(kLong).contiguous();
  const int64_t size = self.dim() == 0 ? 1 : self.sizes()[c.params<ScatterParams>().dim];
  const int64_t n = index.numel();
  const int64_t* ix = static_cast<const int64_t*>(index.data_ptr());
  std::vector<int64_t> start(static_cast<size_t>(size) + 1, 0), order(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) ++start[ix[i] + 1];
  for (int64_t v = 0; v < size; ++v) start[v + 1] += start[v];
  std::vector<int64_t> next(start.begin(), start.end() - 1);
  for (int64_t i = 0; i < n; ++i) order[next[ix[i]]++] = i;
  TS_DISPATCH_ALL_DTYPES(c.p.compute_dtype, "index_add_",
                         [&] { index_add_by_destination<scalar_t>(c, start, order); });
}

// ---- masked_select, nonzero: counted per chunk, then written from each chunk's offset ----

constexpr int64_t kSelectChunk = int64_t{1} << 15;

// Counts per chunk of `n` elements, then their exclusive prefix sums (the chunks' offsets).
template <class Count>
std::vector<int64_t> chunk_offsets(int64_t n, const Count& count) {
  const int64_t chunks = (n + kSelectChunk - 1) / kSelectChunk;
  std::vector<int64_t> off(static_cast<size_t>(chunks) + 1, 0);
  parallel_for_fixed(0, n, kSelectChunk, [&](int64_t ci, int64_t b, int64_t e) {
    off[static_cast<size_t>(ci) + 1] = count(b, e);
  });
  for (size_t i = 1; i < off.size(); ++i) off[i] += off[i - 1];
  return off;
}

template <>
void kernel<OpId::masked_select>(const KernelCall& c) {
  const Tensor &out = c.outputs[0], &self = c.inputs[0], &mask = c.inputs[1];
  if (out.numel() == 0) return;
  Walker w(self.sizes());
  w.add(self, self.strides());
  w.add(mask, mask.strides());
  const int64_t sm = w.inner_stride(1), ss = w.inner_stride(0);
  const std::vector<int64_t> off = chunk_offsets(w.numel(), [&](int64_t b, int64_t e) {
    int64_t k = 0;
    w.run(b, e, [&](char** p, int64_t len) {
      for (int64_t i = 0; i < len; ++i) k += *reinterpret_cast<const bool*>(p[1] + i * sm) ? 1 : 0;
    });
    return k;
  });
  const int64_t so = out.strides()[0] * static_cast<int64_t>(out.element_size());
  char* const o = static_cast<char*>(out.data_ptr());
  with_element_type(out.element_size(), [&](auto u) {
    using U = decltype(u);
    parallel_for_fixed(0, w.numel(), kSelectChunk, [&](int64_t ci, int64_t b, int64_t e) {
      int64_t k = off[static_cast<size_t>(ci)];
      w.run(b, e, [&](char** p, int64_t len) {
        for (int64_t i = 0; i < len; ++i) {
          if (*reinterpret_cast<const bool*>(p[1] + i * sm)) {
            *reinterpret_cast<U*>(o + k++ * so) = *reinterpret_cast<const U*>(p[0] + i * ss);
          }
        }
      });
    });
  });
}

template <>
void kernel<OpId::nonzero>(const KernelCall& c) {
  const Tensor &out = c.outputs[0], &self = c.inputs[0];
  if (out.numel() == 0) return;  // no nonzero element, or a 0-dim self: (n, 0)
  Walker w(self.sizes());
  w.add(self, self.strides());
  const int64_t ss = w.inner_stride(0);
  TS_DISPATCH_ALL_DTYPES(self.dtype(), "nonzero", [&] {
    auto nonzero_at = [&](char* p, int64_t i) {
      const scalar_t v = *reinterpret_cast<const scalar_t*>(p + i * ss);
      if constexpr (is_16bit_float_v<scalar_t>) {
        return static_cast<float>(v) != 0.0f;  // NaN counts, -0 does not
      } else {
        return v != scalar_t(0);
      }
    };
    const std::vector<int64_t> off = chunk_offsets(w.numel(), [&](int64_t b, int64_t e) {
      int64_t k = 0;
      w.run(b, e, [&](char** p, int64_t len) {
        for (int64_t i = 0; i < len; ++i) k += nonzero_at(p[0], i) ? 1 : 0;
      });
      return k;
    });
    const int64_t nd = self.dim();
    const int64_t s0 = out.strides()[0], s1 = out.strides()[1];
    int64_t* const o = static_cast<int64_t*>(out.data_ptr());
    parallel_for_fixed(0, w.numel(), kSelectChunk, [&](int64_t ci, int64_t b, int64_t e) {
      int64_t k = off[static_cast<size_t>(ci)];
      DimVector pos(static_cast<size_t>(nd), 0);  // b's position, carried along
      int64_t rem = b;
      for (int64_t d = nd - 1; d >= 0; --d) {
        pos[d] = rem % self.sizes()[d];
        rem /= self.sizes()[d];
      }
      w.run(b, e, [&](char** p, int64_t len) {
        for (int64_t i = 0; i < len; ++i) {
          if (nonzero_at(p[0], i)) {
            for (int64_t d = 0; d < nd - 1; ++d) o[k * s0 + d * s1] = pos[d];
            o[k * s0 + (nd - 1) * s1] = pos[nd - 1] + i;
            ++k;
          }
        }
        pos[nd - 1] += len;
        for (int64_t d = nd - 1; d > 0 && pos[d] == self.sizes()[d]; --d) {
          pos[d] = 0;
          ++pos[d - 1];
        }
      });
    });
  });
}

// ---- take, put: self's row-major positions ----

// The byte offset of element f of t's row-major order.
inline int64_t flat_offset(const Tensor& t, int64_t f) {
  int64_t off = 0;
  for (int64_t d = t.dim() - 1; d >= 0; --d) {
    const int64_t size = t.sizes()[d];
    off += (f % size) * t.strides()[d];
    f /= size;
  }
  return off * static_cast<int64_t>(t.element_size());
}

// out[i] = self's element index[i] (wrapped), in parallel over out (a gather from self made
// contiguous, so that an element's offset is its position).
template <>
void kernel<OpId::take>(const KernelCall& c) {
  const Tensor& out = c.outputs[0];
  if (out.numel() == 0) return;
  const Tensor self = c.inputs[0].contiguous();
  const int64_t n = self.numel();
  Walker w(out.sizes());
  w.add(out, out.strides());
  w.add(c.inputs[1], c.inputs[1].strides());
  const int64_t so = w.inner_stride(0), si = w.inner_stride(1);
  with_element_type(out.element_size(), [&](auto u) {
    using U = decltype(u);
    const U* src = static_cast<const U*>(self.data_ptr());
    parallel_for(0, w.numel(), kGrain, [&](int64_t b, int64_t e) {
      w.run(b, e, [&](char** p, int64_t len) {
        for (int64_t i = 0; i < len; ++i) {
          int64_t x = *reinterpret_cast<const int64_t*>(p[1] + i * si);
          if (x < 0) x += n;
          *reinterpret_cast<U*>(p[0] + i * so) = src[x];
        }
      });
    });
  });
}

// out = self; out's element index[i] = source[i] in index order (the last write wins), or with
// accumulate += in the accumulator, rounded once (as index_put).
template <>
void kernel<OpId::put>(const KernelCall& c) {
  const Tensor &out = c.outputs[0], &self = c.inputs[0];
  const Tensor index = c.inputs[1].contiguous(), source = c.inputs[2].contiguous();
  const int64_t n = self.numel(), k = index.numel();
  const int64_t* ix = static_cast<const int64_t*>(index.data_ptr());
  if (!c.params<IndexPutParams>().accumulate) {
    if (!out.is_same(self)) copy_convert(out, self);
    char* const o = static_cast<char*>(out.data_ptr());
    with_element_type(out.element_size(), [&](auto u) {
      using U = decltype(u);
      const U* src = static_cast<const U*>(source.data_ptr());
      for (int64_t i = 0; i < k; ++i) {
        const int64_t x = ix[i] < 0 ? ix[i] + n : ix[i];
        *reinterpret_cast<U*>(o + flat_offset(out, x)) = src[i];
      }
    });
    return;
  }
  TS_DISPATCH_ALL_DTYPES(c.p.compute_dtype, "put_", [&] {
    const scalar_t* src = static_cast<const scalar_t*>(source.data_ptr());
    const auto at = [&](int64_t i) { return ix[i] < 0 ? ix[i] + n : ix[i]; };
    if (k > 0 && out.is_non_overlapping_and_dense()) {  // Note [Sums by region]
      const bool flat = out.is_contiguous();
      const int64_t size = static_cast<int64_t>(sizeof(scalar_t));
      const auto each = [&](int64_t b, int64_t e, const auto& f) {
        for (int64_t i = b; i < e; ++i) f(flat ? at(i) : flat_offset(out, at(i)) / size, src[i]);
      };
      if (!out.is_same(self)) copy_convert(out, self);
      return sum_by_region(static_cast<scalar_t*>(out.data_ptr()), n, k, each);
    }
    using A = AccOf<scalar_t>;
    const Accumulator<A> acc(self);
    for (int64_t i = 0; i < k; ++i) {
      if (i + 16 < k)
        __builtin_prefetch(acc.data + at(i + 16), 1);  // Note [Prefetching scattered sums]
      A& dst = acc.data[at(i)];
      dst = combine(ScatterReduce::Sum, dst, to_acc(src[i]));
    }
    acc.finish(out);
  });
}

// ---- index_copy, index_fill: whole slices along dim ----

// The slice of t at position v of dim (t itself when 0-dim).
Tensor slice_at(const Tensor& t, int64_t dim, int64_t v) {
  return t.dim() == 0 ? t : t.select(dim, v);
}

// out = self; each destination slice takes the source slice of its last index (the reference's
// last write), destinations in parallel.
template <>
void kernel<OpId::index_copy>(const KernelCall& c) {
  const Tensor &out = c.outputs[0], &self = c.inputs[0], &source = c.inputs[2];
  const int64_t dim = c.params<ScatterParams>().dim;
  const Tensor index = c.inputs[1].reshape({-1}).contiguous();
  const int64_t* ix = static_cast<const int64_t*>(index.data_ptr());
  const int64_t size = self.dim() == 0 ? 1 : self.sizes()[dim];
  std::vector<int64_t> last(static_cast<size_t>(size), -1);
  for (int64_t i = 0; i < index.numel(); ++i) last[static_cast<size_t>(ix[i])] = i;
  const bool blocks =
      out.is_contiguous() && source.is_contiguous() && out.dim() == source.dim() && out.numel() > 0;
  // Note [index_copy in one pass]
  // With contiguous blocks and a contiguous self of out's dtype in other memory, each
  // destination run comes from source or, when no index names it, from self: out is written
  // once (streamed beyond the threshold), not filled with self first and then overwritten.
  // 4096^2 float32, a permutation of the rows: 13.8-13.9 -> 3.9-4.5 ms at 2 threads, 16.5-16.7
  // -> 4.4-4.6 at 1 (ATen 9.8-11.0 and 22.8-23.4; an Emerald Rapids VM).
  const bool from_self = blocks && !out.is_same(self) && self.is_contiguous() &&
                         self.dtype() == out.dtype() && self.storage().get() != out.storage().get();
  if (!out.is_same(self) && !from_self) copy_convert(out, self);
  if (blocks) {
    // (outer, size, inner) blocks: each outer row copies its destinations' inner runs.
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < dim; ++d) outer *= out.sizes()[d];
    for (int64_t d = dim + 1; d < out.dim(); ++d) inner *= out.sizes()[d];
    const int64_t n = out.dim() == 0 ? 1 : source.sizes()[dim];
    const size_t run = static_cast<size_t>(inner) * out.element_size();
    char* const o = static_cast<char*>(out.data_ptr());
    const char* const s = static_cast<const char*>(source.data_ptr());
    const char* const x = static_cast<const char*>(self.data_ptr());
    const auto es = static_cast<int64_t>(out.element_size());
    const bool stream =
        from_self && run >= 1024 && stream_output(static_cast<int64_t>(out.nbytes()));
    const int64_t grain = std::max<int64_t>(1, kGrain / std::max<int64_t>(1, size * inner));
    parallel_for(0, outer, grain, [&](int64_t b, int64_t e) {
      for (int64_t r = b; r < e; ++r) {
        for (int64_t v = 0; v < size; ++v) {
          const int64_t i = last[static_cast<size_t>(v)];
          if (i < 0 && !from_self) continue;
          const char* from =
              i >= 0 ? s + (r * n + i) * inner * es : x + (r * size + v) * inner * es;
          copy_bytes(o + (r * size + v) * inner * es, from, static_cast<int64_t>(run), stream);
        }
      }
      if (stream) stream_fence();
    });
    return;
  }
  const int64_t slice_numel = std::max<int64_t>(1, out.numel() / std::max<int64_t>(1, size));
  const int64_t grain = std::max<int64_t>(1, kGrain / slice_numel);
  parallel_for(0, size, grain, [&](int64_t b, int64_t e) {
    for (int64_t v = b; v < e; ++v) {
      const int64_t i = last[static_cast<size_t>(v)];
      if (i < 0) continue;
      const Tensor src = source.dim() == 0 ? source : source.select(dim, i);
      copy_convert(slice_at(out, dim, v), src.reshape(slice_at(out, dim, v).sizes()));
    }
  });
}

// out = self; the slices index names (wrapped) filled with the value, in parallel.
template <>
void kernel<OpId::index_fill>(const KernelCall& c) {
  const Tensor &out = c.outputs[0], &self = c.inputs[0], &index = c.inputs[1];
  const ScatterParams& sp = c.params<ScatterParams>();
  if (!out.is_same(self)) copy_convert(out, self);
  const Tensor value = c.inputs.size() == 3 ? c.inputs[2] : full({}, *sp.value, self.dtype());
  const int64_t size = self.dim() == 0 ? 1 : self.sizes()[sp.dim];
  std::vector<int64_t> targets;
  std::vector<bool> seen(static_cast<size_t>(size), false);
  const Tensor ix = index.reshape({-1}).contiguous();
  const int64_t* p = static_cast<const int64_t*>(ix.data_ptr());
  for (int64_t i = 0; i < ix.numel(); ++i) {
    const int64_t v = p[i] < 0 ? p[i] + size : p[i];
    if (!seen[static_cast<size_t>(v)]) targets.push_back(v);
    seen[static_cast<size_t>(v)] = true;
  }
  const auto m = static_cast<int64_t>(targets.size());
  const int64_t slice_numel = std::max<int64_t>(1, out.numel() / std::max<int64_t>(1, size));
  with_element_type(out.element_size(), [&](auto u) {
    using U = decltype(u);
    U x;
    std::memcpy(&x, value.data_ptr(), sizeof(U));
    if (out.is_contiguous() && out.numel() > 0) {
      // (outer, size, inner) blocks: each outer row fills its targets' inner runs, in memory
      // order (a filled column of a matrix is one strided write per row otherwise).
      int64_t outer = 1, inner = 1;
      for (int64_t d = 0; d < sp.dim; ++d) outer *= out.sizes()[d];
      for (int64_t d = sp.dim + 1; d < out.dim(); ++d) inner *= out.sizes()[d];
      U* const o = static_cast<U*>(out.data_ptr());
      const int64_t grain = std::max<int64_t>(1, kGrain / std::max<int64_t>(1, m * inner));
      parallel_for(0, outer, grain, [&](int64_t b, int64_t e) {
        for (int64_t r = b; r < e; ++r) {
          for (int64_t t = 0; t < m; ++t) {
            U* p = o + (r * size + targets[static_cast<size_t>(t)]) * inner;
            std::fill(p, p + inner, x);
          }
        }
      });
      return;
    }
    parallel_for(0, m, std::max<int64_t>(1, kGrain / slice_numel), [&](int64_t b, int64_t e) {
      for (int64_t t = b; t < e; ++t) {
        const Tensor os = slice_at(out, sp.dim, targets[static_cast<size_t>(t)]);
        Walker w(os.sizes());
        w.add(os, os.strides());
        const int64_t so = w.inner_stride(0);
        w.run(0, w.numel(), [&](char** q, int64_t len) {
          for (int64_t i = 0; i < len; ++i) *reinterpret_cast<U*>(q[0] + i * so) = x;
        });
      }
    });
  });
}

// out[i] = mask[i] ? source's next element (row-major) : self[i]: trues counted per chunk, then
// each chunk reads source from its offset (as masked_select).
template <>
void kernel<OpId::masked_scatter>(const KernelCall& c) {
  const Tensor &out = c.outputs[0], &self = c.inputs[0], &mask = c.inputs[1];
  if (out.numel() == 0) return;
  const Tensor source = c.inputs[2].contiguous();
  const bool inplace = out.is_same(self);
  if (out.is_contiguous() && self.is_contiguous() && mask.is_contiguous()) {  // plain arrays
    const bool* m = static_cast<const bool*>(mask.data_ptr());
    const std::vector<int64_t> off = chunk_offsets(out.numel(), [&](int64_t b, int64_t e) {
      int64_t k = 0;
      for (int64_t i = b; i < e; ++i) k += m[i] ? 1 : 0;
      return k;
    });
    with_element_type(out.element_size(), [&](auto u) {
      using U = decltype(u);
      const U* src = static_cast<const U*>(source.data_ptr());
      const U* x = static_cast<const U*>(self.data_ptr());
      U* o = static_cast<U*>(out.data_ptr());
      parallel_for_fixed(0, out.numel(), kSelectChunk, [&](int64_t ci, int64_t b, int64_t e) {
        int64_t k = off[static_cast<size_t>(ci)];
        for (int64_t i = b; i < e; ++i) {
          if (m[i]) {
            o[i] = src[k++];
          } else if (!inplace) {
            o[i] = x[i];
          }
        }
      });
    });
    return;
  }
  Walker w(out.sizes());
  w.add(out, out.strides());
  w.add(self, self.strides());
  w.add(mask, mask.strides());
  const int64_t so = w.inner_stride(0), ss = w.inner_stride(1), sm = w.inner_stride(2);
  const std::vector<int64_t> off = chunk_offsets(w.numel(), [&](int64_t b, int64_t e) {
    int64_t k = 0;
    w.run(b, e, [&](char** p, int64_t len) {
      for (int64_t i = 0; i < len; ++i) k += *reinterpret_cast<const bool*>(p[2] + i * sm) ? 1 : 0;
    });
    return k;
  });
  with_element_type(out.element_size(), [&](auto u) {
    using U = decltype(u);
    const U* src = static_cast<const U*>(source.data_ptr());
    parallel_for_fixed(0, w.numel(), kSelectChunk, [&](int64_t ci, int64_t b, int64_t e) {
      int64_t k = off[static_cast<size_t>(ci)];
      w.run(b, e, [&](char** p, int64_t len) {
        for (int64_t i = 0; i < len; ++i) {
          U* o = reinterpret_cast<U*>(p[0] + i * so);
          if (*reinterpret_cast<const bool*>(p[2] + i * sm)) {
            *o = src[k++];
          } else if (!inplace) {
            *o = *reinterpret_cast<const U*>(p[1] + i * ss);
          }
        }
      });
    });
  });
}

}  // namespace

TS_REGISTER_KERNELS(optimized, advanced_index) {
  for_each_kernel_op<OpSignature::AdvancedIndex>([&](auto op) { m.impl(op, kCPU, kernel<op>); });
}

}  // namespace ts::cpu
