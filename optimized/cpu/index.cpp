// Optimized CPU kernels for indexing and joining: index_select, gather, scatter_add, cat.
// Params as documented in lib/src/ops/index.cpp; index values arrive checked (Note [Index
// bounds] there). Elements move as raw bytes of the compute dtype (self's dtype; cat's result
// type); an out= tensor of another dtype is filled through a temporary and converted once.
// These kernels are memory-bound gathers and copies, so they use no SIMD target code.
#include <algorithm>
#include <cstring>
#include <vector>

#include "optimized/cpu/convert.h"
#include "optimized/cpu/elementwise.h"
#include "touchstone/dispatch_macros.h"
#include "touchstone/kernel_family.h"
#include "touchstone/ops.h"
#include "touchstone/parallel.h"

namespace ts::cpu {
namespace {

// Another geometry over t's memory (no checks, no autograd), so a TensorIterator can walk t in
// another tensor's shape: stride 0 along the indexed dim, or a sub-box of it.
Tensor alias(const Tensor& t, IntArrayRef sizes, IntArrayRef strides, int64_t extra_offset = 0) {
  return Tensor(intrusive_ptr<TensorImpl>::make(t.storage(), t.dtype(), sizes, strides,
                                                t.storage_offset() + extra_offset));
}

// t's strides for a walk over a tensor of `ndim` dims (a 0-dim t repeats its single element).
DimVector strides_for(const Tensor& t, int64_t ndim) {
  DimVector s(static_cast<size_t>(ndim), 0);
  if (t.dim() > 0) {
    for (int64_t d = 0; d < ndim; ++d) s[d] = t.strides()[d];
  }
  return s;
}

// Where a kernel writes: the output itself when it has the compute dtype, else a contiguous
// temporary that finish() converts into the output.
struct Target {
  Tensor out, t;
  Target(const Tensor& o, ScalarType compute)
      : out(o), t(o.dtype() == compute ? o : empty(o.sizes(), compute)) {}
  void finish() const {
    if (!t.is_same(out)) copy_convert(out, t);
  }
};

// Note [Take loop]
// index_select and gather both become dst[i] = src[i] + index[i] * dim_stride over one
// TensorIterator of {dst, src, index} in dst's shape, where src walks self with stride 0
// along the indexed dim. Rows whose index is constant (stride 0) are plain copies (memcpy
// when contiguous); rows along the indexed dim are gathers.
template <typename T, typename I>
void take_loop(const TensorIterator& iter, int64_t dim_stride, bool stream) {
  iter.for_each([&](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
    const int64_t sd = strides[0], ss = strides[1], si = strides[2];
    for (int64_t j = 0; j < n1; ++j) {
      char* dst = data[0] + j * strides[3];
      const char* src = data[1] + j * strides[4];
      const char* idx = data[2] + j * strides[5];
      auto at = [&](int64_t i) {
        return static_cast<int64_t>(*reinterpret_cast<const I*>(idx + i * si)) * dim_stride;
      };
      if (si == 0) {
        const char* s = src + at(0);
        if (sd == sizeof(T) && ss == sizeof(T)) {
          const auto bytes = n0 * static_cast<int64_t>(sizeof(T));
          if (stream) {
            copy_bytes(dst, s, bytes, true);
          } else {
            std::memcpy(dst, s, static_cast<size_t>(bytes));
          }
        } else {
          for (int64_t i = 0; i < n0; ++i) {
            *reinterpret_cast<T*>(dst + i * sd) = *reinterpret_cast<const T*>(s + i * ss);
          }
        }
      } else if (sd == sizeof(T) && ss == 0) {
        T* o = reinterpret_cast<T*>(dst);
        for (int64_t i = 0; i < n0; ++i) o[i] = *reinterpret_cast<const T*>(src + at(i));
      } else {
        for (int64_t i = 0; i < n0; ++i) {
          *reinterpret_cast<T*>(dst + i * sd) = *reinterpret_cast<const T*>(src + i * ss + at(i));
        }
      }
    }
    if (stream) stream_fence();  // once per call of n1 rows, not per row
  });
}

// Runs the take loop; `src` and `index` already have dst's shape (see Note [Take loop]).
void take(const Tensor& dst, const Tensor& src, const Tensor& index, int64_t dim_stride_elems) {
  TensorIterator iter = TensorIteratorConfig()
                            .add_output(dst)
                            .add_input(src)
                            .add_input(index)
                            .check_mem_overlap(false)
                            .build();
  const int64_t dim_stride = dim_stride_elems * static_cast<int64_t>(dst.element_size());
  // Rows copied whole (index_select) stream an output beyond the LLC (Note [Streaming stores]).
  const bool stream = stream_output(static_cast<int64_t>(dst.nbytes()));
  with_element_type(dst.element_size(), [&](auto u) {
    using U = decltype(u);
    if (index.dtype() == kLong) {
      take_loop<U, int64_t>(iter, dim_stride, stream);
    } else {
      take_loop<U, int32_t>(iter, dim_stride, stream);
    }
  });
}

// One kernel per Kernel op of signature classes Index and Join (Note [Kernel families]): this
// template for index_select and gather, out[pos] = self[pos with pos[dim] = the index at pos]
// (Note [Take loop]; gather's index has out's shape), specializations for scatter_add and cat.
template <OpId op>
void kernel(const KernelCall& c) {
  static_assert(op == OpId::index_select || op == OpId::gather, "an Index op without its kernel");
  const Tensor &self = c.inputs[0], &index = c.inputs[1];
  const Target target(c.outputs[0], c.p.compute_dtype);
  const Tensor& out = target.t;
  if (out.numel() > 0) {
    const int64_t dim = c.params<DimParams>().dim;
    DimVector src_strides = strides_for(self, out.dim()), index_strides(index.strides());
    if (out.dim() > 0) src_strides[dim] = 0;
    if constexpr (op == OpId::index_select) {  // the index (1-D or one value) runs along dim
      index_strides = DimVector(static_cast<size_t>(out.dim()), 0);
      if (out.dim() > 0 && index.dim() == 1) index_strides[dim] = index.stride(0);
    }
    take(out, alias(self, out.sizes(), src_strides), alias(index, out.sizes(), index_strides),
         self.dim() > 0 ? self.strides()[dim] : 0);
  }
  target.finish();
}

// Note [Deterministic scatter_add]
// Two index elements can only hit the same output element when they differ in the scattered
// dim alone, so the index is walked as lines along that dim: lines run in parallel (they write
// disjoint outputs), and each line adds its elements in increasing order, which is the
// reference's row-major order for every output element. Floating sums accumulate in double and
// round once, as the reference does, so the result is the reference's bit for bit on any number
// of threads. Integers wrap (the same bits as the reference's int64 sum, wrapped); bool ORs.
// Note [Scatter_add in a line buffer]
// The double sums of a float32/float16/bfloat16 output need not live in a double copy of the
// whole output (write 2x its bytes, read them back): a line's output elements are loaded into
// a double buffer, summed there, and stored rounded, while still in cache. Where lines are
// adjacent in memory (a scatter along dim 0 of a row-major output) kGroup of them share the
// buffer, so each cache line of the output is read and written once. 4096² float32 along
// dim 1, 1 thread: 73 -> 32 ms, ATen 35 (perf/README.md, "The named laggards, one by one").
// The buffer loads its line from `from`: the output itself, or self when the index reaches every
// line, which saves copying self into the output first. The line then goes out by streaming
// stores (Note [Streaming stores]): through the cache each store missed, and 4096² float32 took
// 37 -> 44 ms; streamed, 33 (ATen 33; 2 threads 20.2-21.3 -> 18.4-18.8, ATen 20.1-21.4).
template <typename A, typename S>
void scatter_lines(const Tensor& acc, const Tensor& index, const Tensor& src, int64_t dim,
                   const Tensor& from) {
  // A == double with S narrower: acc holds S values, summed in a buffer (the Note above).
  constexpr bool buffered = std::is_same_v<A, double> && !std::is_same_v<S, double>;
  using T = std::conditional_t<buffered, S, A>;  // acc's element type
  const int64_t nd = index.dim();
  DimVector lines(index.sizes());
  if (nd > 0) lines[dim] = 1;
  const int64_t len = nd > 0 ? index.sizes()[dim] : 1;
  const int64_t m = acc.dim() > 0 ? acc.sizes()[dim] : 1;  // a line's output elements
  auto dim_step = [&](const Tensor& t) {
    return t.dim() > 0 ? t.strides()[dim] * static_cast<int64_t>(t.element_size()) : 0;
  };
  const int64_t ka = dim_step(acc), ki = dim_step(index), ks = dim_step(src);
  const int64_t kf = dim_step(from);
  TensorIterator iter = TensorIteratorConfig()
                            .add_output(alias(acc, lines, strides_for(acc, nd)))
                            .add_input(alias(index, lines, strides_for(index, nd)))
                            .add_input(alias(src, lines, strides_for(src, nd)))
                            .add_input(alias(from, lines, strides_for(from, nd)))
                            .check_mem_overlap(false)
                            .build();
  auto value = [](const char* s) {
    const S v = *reinterpret_cast<const S*>(s);
    if constexpr (std::is_same_v<A, double>) {
      return static_cast<double>(static_cast<std::conditional_t<is_16bit_float_v<S>, float, S>>(v));
    } else {
      return v;
    }
  };
  auto add = [&](char* a, const char* x, const auto* s) {  // generic: unused when buffered
    T& dst = *reinterpret_cast<T*>(a + *reinterpret_cast<const int64_t*>(x) * ka);
    if constexpr (std::is_same_v<A, double>) {
      dst += value(s);
    } else if constexpr (std::is_same_v<A, bool>) {
      dst = dst || value(s);
    } else {
      dst = static_cast<A>(static_cast<uint64_t>(dst) + static_cast<uint64_t>(value(s)));
    }
  };
  constexpr int64_t kGroup = 16;
  const bool stream = buffered && stream_output(static_cast<int64_t>(acc.nbytes()));
  iter.for_each(
      [&](char** data, const int64_t* st, int64_t n0, int64_t n1) {
        // Walk whichever of (line, element) is closer in memory innermost; both orders add
        // each line's elements in increasing order.
        const bool lines_inner = n0 > 1 && st[1] < ki;
        std::vector<double> buf(buffered ? static_cast<size_t>(m * (lines_inner ? kGroup : 1)) : 0);
        std::vector<T> stage(buffered && stream ? static_cast<size_t>(m) : 0);
        for (int64_t j = 0; j < n1; ++j) {
          char* a = data[0] + j * st[4];
          const char* x = data[1] + j * st[5];
          const char* s = data[2] + j * st[6];
          const char* f = data[3] + j * st[7];
          if constexpr (buffered) {
            if (!lines_inner) {  // one line at a time; contiguous lines load and store as vectors
              for (int64_t i = 0; i < n0; ++i) {
                char* al = a + i * st[0];
                const char* xl = x + i * st[1];
                const char* sl = s + i * st[2];
                const char* fl = f + i * st[3];
                if (kf == sizeof(S)) {
                  const S* p = reinterpret_cast<const S*>(fl);
                  for (int64_t e = 0; e < m; ++e)
                    buf[e] = value(reinterpret_cast<const char*>(p + e));
                } else {
                  for (int64_t e = 0; e < m; ++e) buf[e] = value(fl + e * kf);
                }
                for (int64_t k = 0; k < len; ++k) {
                  buf[*reinterpret_cast<const int64_t*>(xl + k * ki)] += value(sl + k * ks);
                }
                if (ka == sizeof(S)) {  // streamed through `stage`, else in place
                  S* p = stream ? stage.data() : reinterpret_cast<S*>(al);
                  for (int64_t e = 0; e < m; ++e) p[e] = convert_value<S>(buf[e]);
                  if (stream) copy_bytes(al, p, m * static_cast<int64_t>(sizeof(S)), true);
                } else {
                  for (int64_t e = 0; e < m; ++e) {
                    *reinterpret_cast<S*>(al + e * ka) = convert_value<S>(buf[e]);
                  }
                }
              }
              continue;
            }
            constexpr int64_t group = kGroup;
            for (int64_t i0 = 0; i0 < n0; i0 += group) {
              const int64_t g = std::min(group, n0 - i0);
              char* a0 = a + i0 * st[0];
              const char* f0 = f + i0 * st[3];
              for (int64_t e = 0; e < m; ++e) {
                for (int64_t u = 0; u < g; ++u) {
                  buf[e * group + u] = value(f0 + e * kf + u * st[3]);
                }
              }
              for (int64_t k = 0; k < len; ++k) {
                for (int64_t u = 0; u < g; ++u) {
                  const int64_t i = i0 + u;
                  const int64_t e = *reinterpret_cast<const int64_t*>(x + k * ki + i * st[1]);
                  buf[e * group + u] += value(s + k * ks + i * st[2]);
                }
              }
              for (int64_t e = 0; e < m; ++e) {
                for (int64_t u = 0; u < g; ++u) {
                  *reinterpret_cast<S*>(a0 + e * ka + u * st[0]) =
                      convert_value<S>(buf[e * group + u]);
                }
              }
            }
          } else if (lines_inner) {
            for (int64_t k = 0; k < len; ++k) {
              for (int64_t i = 0; i < n0; ++i) {
                add(a + i * st[0], x + k * ki + i * st[1], s + k * ks + i * st[2]);
              }
            }
          } else {
            for (int64_t i = 0; i < n0; ++i) {
              for (int64_t k = 0; k < len; ++k) {
                add(a + i * st[0], x + k * ki + i * st[1], s + k * ks + i * st[2]);
              }
            }
          }
        }
        if (stream) stream_fence();  // once per call, not per line
      },
      std::max<int64_t>(1, 32768 / std::max<int64_t>(buffered ? len + m : len, 1)));
}

bool same_elements(const Tensor& a, const Tensor& b) {
  return a.data_ptr() == b.data_ptr() && a.sizes() == b.sizes() && a.strides() == b.strides();
}

// out = self, then out[index[i][j]][j] += src[i][j] for dim 0 (and likewise for other dims).
template <>
void kernel<OpId::scatter_add>(const KernelCall& c) {
  const Tensor &self = c.inputs[0], &index = c.inputs[1], &src = c.inputs[2];
  const ScalarType ct = c.p.compute_dtype;
  const int64_t dim = c.params<DimParams>().dim;
  if (c.outputs[0].numel() == 0) return;
  const Target target(c.outputs[0], ct);
  const bool scatter = index.numel() > 0;
  // Note [Scatter_add in a line buffer]: lines read from self when the index reaches every
  // line of the output (all dims but dim as large as self's), the output is self or shares no
  // memory with it, and its contiguous lines are streamed out.
  bool from_self =
      scatter && is_floating_type(ct) && ct != kDouble && self.dtype() == ct &&
      index.dim() == self.dim() && self.dim() > 0 &&
      stream_output(static_cast<int64_t>(target.t.nbytes())) && target.t.stride(dim) == 1 &&
      self.stride(dim) == 1 &&
      (same_elements(target.t, self) || target.t.storage().get() != self.storage().get());
  for (int64_t d = 0; from_self && d < self.dim(); ++d) {
    from_self = d == dim || index.size(d) == self.size(d);
  }
  if (!from_self && !same_elements(target.t, self)) copy_convert(target.t, self);
  const Tensor& from = from_self ? self : target.t;
  if (scatter) {
    if (is_floating_type(ct) && ct != kDouble) {  // sums in double, rounded once
      TS_DISPATCH_FLOATING_TYPES_AND_REDUCED(ct, "scatter_add", [&] {
        scatter_lines<double, scalar_t>(target.t, index, src, dim, from);
      });
    } else if (ct == kBool) {
      scatter_lines<bool, bool>(target.t, index, src, dim, from);
    } else if (ct == kDouble) {
      scatter_lines<double, double>(target.t, index, src, dim, from);
    } else {
      TS_DISPATCH_INTEGRAL_TYPES(ct, "scatter_add", [&] {
        scatter_lines<scalar_t, scalar_t>(target.t, index, src, dim, from);
      });
    }
  }
  target.finish();
}

// Note [Contiguous cat]
// With the output and every input contiguous in the output's dtype, the output is `outer` rows,
// each the inputs' slabs side by side. The output's bytes are split evenly among threads and
// each piece copied as memcpys of the slab pieces it covers, whatever the dim and the sizes;
// streamed beyond the LLC (Note [Streaming stores]).
void cat_contiguous(const Tensor& out, TensorList inputs, int64_t dim) {
  const int64_t es = static_cast<int64_t>(out.element_size());
  int64_t outer = 1, inner = es;
  for (int64_t d = 0; d < dim; ++d) outer *= out.sizes()[d];
  for (int64_t d = dim + 1; d < out.dim(); ++d) inner *= out.sizes()[d];
  const size_t n = inputs.size();
  std::vector<int64_t> slab(n), start(n + 1, 0);
  std::vector<const char*> base(n);
  for (size_t j = 0; j < n; ++j) {
    slab[j] = inputs[j].sizes()[dim] * inner;
    start[j + 1] = start[j] + slab[j];
    base[j] = static_cast<const char*>(inputs[j].data_ptr());
  }
  const int64_t row = start[n];
  char* dst = static_cast<char*>(out.data_ptr());
  const bool stream = stream_output(static_cast<int64_t>(out.nbytes()));  // Note [Streaming stores]
  parallel_for(0, outer * row, int64_t{1} << 16, [&](int64_t b, int64_t e) {
    int64_t o = b / row, r = b % row;
    // The slab holding byte r: the last j with start[j] <= r (empty slabs share a start).
    size_t j =
        static_cast<size_t>(std::upper_bound(start.begin(), start.end(), r) - start.begin()) - 1;
    while (b < e) {
      const int64_t within = r - start[j];
      const int64_t len = std::min(slab[j] - within, e - b);
      if (stream) {
        copy_bytes(dst + b, base[j] + o * slab[j] + within, len, true);
      } else {
        std::memcpy(dst + b, base[j] + o * slab[j] + within, static_cast<size_t>(len));
      }
      b += len;
      r += len;
      while (j < n && r == start[j + 1]) ++j;  // past this slab and any empty ones
      if (j == n) {
        j = 0;
        r = 0;
        ++o;
        while (slab[j] == 0) ++j;
      }
    }
    if (stream) stream_fence();
  });
}

// Each input lands in the output at its offset along dim.
template <>
void kernel<OpId::cat>(const KernelCall& c) {
  const Target target(c.outputs[0], c.p.compute_dtype);
  const Tensor& out = target.t;
  const int64_t dim = c.params<DimParams>().dim;
  if (out.numel() == 0) return target.finish();
  bool contiguous = out.is_contiguous();
  for (const Tensor& in : c.inputs) contiguous &= in.is_contiguous() && in.dtype() == out.dtype();
  if (contiguous) {
    cat_contiguous(out, c.inputs, dim);
  } else {
    int64_t offset = 0;
    for (const Tensor& in : c.inputs) {
      const int64_t len = in.sizes()[dim];
      if (in.numel() > 0) {
        DimVector sizes(out.sizes());
        sizes[dim] = len;
        copy_convert(alias(out, sizes, out.strides(), offset * out.strides()[dim]), in);
      }
      offset += len;
    }
  }
  target.finish();
}

}  // namespace

TS_REGISTER_KERNELS(optimized, index) {
  for_each_kernel_op<OpSignature::Index, OpSignature::Join>(
      [&](auto op) { m.impl(op, kCPU, kernel<op>); });
}

}  // namespace ts::cpu
