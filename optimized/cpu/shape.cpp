// Optimized CPU kernels for the shape ops: flip, roll, tril, triu (params in
// lib/src/ops/shape.cpp), repeat_interleave, reflection_pad, replication_pad (lib/src/ops/pad.cpp);
// the output has self's dtype, so elements move as raw bytes.
//
// Note [Shape rows]
// Each op is a copy row by row along the last dim: parallel_for splits the rows (the product of
// the other dims), each chunk decodes its first row's index once and then steps an odometer.
// A row's source is found per outer dim (as is, flipped, or rolled), and the row itself is a
// memmove when both last dims are contiguous: two pieces for a roll, a reversed loop for a flip,
// and for tril/triu a copy of the kept span and a memset of the rest (zero bits are 0 in every
// dtype). These kernels are memory-bound copies, so they use no SIMD target code.
#include <algorithm>
#include <cstring>

#include "optimized/cpu/convert.h"
#include "touchstone/kernel_family.h"
#include "touchstone/parallel.h"

namespace ts::cpu {
namespace {

enum class DimMode : uint8_t { Same, Flip, Roll, Map };

// Where row `idx` (the index of the outer dims) of the output reads from in self: per dim, the
// same index, n - 1 - i (flip), (i - shift) mod n (roll) or maps[d][i] (a padded dim).
struct RowPlan {
  int64_t nd = 0;  // outer dims
  DimVector sizes, out_strides, in_strides, shifts;
  std::vector<DimMode> modes;
  std::vector<DimVector> maps;
  int64_t in_offset(IntArrayRef idx) const {
    int64_t off = 0;
    for (int64_t d = 0; d < nd; ++d) {
      int64_t i = idx[d];
      if (modes[d] == DimMode::Flip) {
        i = sizes[d] - 1 - i;
      } else if (modes[d] == DimMode::Roll) {
        i -= shifts[d];
        if (i < 0) i += sizes[d];
      } else if (modes[d] == DimMode::Map) {
        i = maps[d][i];
      }
      off += i * in_strides[d];
    }
    return off;
  }
  int64_t out_offset(IntArrayRef idx) const {
    int64_t off = 0;
    for (int64_t d = 0; d < nd; ++d) off += idx[d] * out_strides[d];
    return off;
  }
};

// Calls row(out_row, in_row, idx) for every row (element pointers of the row's first element,
// before the last dim's own mode is applied), in parallel chunks of rows.
template <typename T, typename F>
void for_each_row(const KernelCall& c, const RowPlan& plan, int64_t row_len, const F& row) {
  const Tensor &out = c.outputs[0], &self = c.inputs[0];
  T* out_base = static_cast<T*>(out.data_ptr());
  const T* in_base = static_cast<const T*>(self.data_ptr());
  int64_t rows = 1;
  for (int64_t s : plan.sizes) rows *= s;
  const int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(row_len, 1));
  parallel_for(0, rows, grain, [&](int64_t r0, int64_t r1) {
    DimVector idx(static_cast<size_t>(plan.nd), 0);
    for (int64_t d = plan.nd - 1, r = r0; d >= 0; --d) {
      idx[d] = r % plan.sizes[d];
      r /= plan.sizes[d];
    }
    for (int64_t r = r0; r < r1; ++r) {
      row(out_base + plan.out_offset(idx), in_base + plan.in_offset(idx), IntArrayRef(idx));
      for (int64_t d = plan.nd - 1; d >= 0; --d) {
        if (++idx[d] < plan.sizes[d]) break;
        idx[d] = 0;
      }
    }
  });
}

// Row copies: n elements from `src` (stride ss) to `dst` (stride ds), memcpy when both are dense.
template <typename T>
void copy_row(T* dst, int64_t ds, const T* src, int64_t ss, int64_t n) {
  if (n <= 0) return;
  if (ds == 1 && ss == 1) {
    std::memmove(dst, src, static_cast<size_t>(n) * sizeof(T));  // out= may be self itself
    return;
  }
  for (int64_t i = 0; i < n; ++i) dst[i * ds] = src[i * ss];
}
template <typename T>
void reverse_row(T* dst, int64_t ds, const T* src, int64_t ss, int64_t n) {
  const T* last = src + (n - 1) * ss;
  if (ds == 1 && ss == 1) {
    for (int64_t i = 0; i < n; ++i) dst[i] = last[-i];
    return;
  }
  for (int64_t i = 0; i < n; ++i) dst[i * ds] = last[-i * ss];
}
template <typename T>
void zero_row(T* dst, int64_t ds, int64_t n) {
  if (n <= 0) return;
  if (ds == 1) {
    std::memset(dst, 0, static_cast<size_t>(n) * sizeof(T));
    return;
  }
  for (int64_t i = 0; i < n; ++i) dst[i * ds] = T{0};
}

// The outer dims of a plan over out's geometry; the last dim is the caller's.
RowPlan outer_plan(const Tensor& out, const Tensor& self) {
  RowPlan p;
  p.nd = std::max<int64_t>(out.dim() - 1, 0);
  for (int64_t d = 0; d < p.nd; ++d) {
    p.sizes.push_back(out.sizes()[d]);
    p.out_strides.push_back(out.strides()[d]);
    p.in_strides.push_back(self.strides()[d]);
    p.shifts.push_back(0);
    p.modes.push_back(DimMode::Same);
  }
  p.maps.resize(static_cast<size_t>(p.nd));
  return p;
}

// flip and roll: each dim is Same, Flip or Roll; the last dim's mode picks the row copy.
template <OpId op>
void permute_copy(const KernelCall& c) {
  const Tensor &out = c.outputs[0], &self = c.inputs[0];
  if (out.numel() == 0) return;
  if (out.dim() == 0) {
    std::memcpy(out.data_ptr(), self.data_ptr(), out.element_size());
    return;
  }
  RowPlan plan = outer_plan(out, self);
  const int64_t last = out.dim() - 1;
  DimMode last_mode = DimMode::Same;
  int64_t last_shift = 0;
  auto set_mode = [&](int64_t d, DimMode m, int64_t shift) {
    if (d == last) {
      last_mode = m;
      last_shift = shift;
    } else {
      plan.modes[d] = m;
      plan.shifts[d] = shift;
    }
  };
  if constexpr (op == OpId::flip) {
    for (int64_t d : c.params<FlipParams>().dims) set_mode(d, DimMode::Flip, 0);
  } else {
    const RollParams& rp = c.params<RollParams>();
    for (size_t k = 0; k < rp.dims.size(); ++k) {
      if (rp.shifts[k] != 0) set_mode(rp.dims[k], DimMode::Roll, rp.shifts[k]);
    }
  }
  const int64_t n = out.sizes()[last], ds = out.strides()[last], ss = self.strides()[last];
  with_element_type(out.element_size(), [&](auto u) {
    using T = decltype(u);
    for_each_row<T>(c, plan, n, [&](T* dst, const T* src, IntArrayRef) {
      if (last_mode == DimMode::Flip) {
        reverse_row(dst, ds, src, ss, n);
      } else if (last_mode == DimMode::Roll) {  // out[s:] = self[:n - s], out[:s] = self[n - s:]
        copy_row(dst + last_shift * ds, ds, src, ss, n - last_shift);
        copy_row(dst, ds, src + (n - last_shift) * ss, ss, last_shift);
      } else {
        copy_row(dst, ds, src, ss, n);
      }
    });
  });
}

// Note [Padding rows]
// reflection_pad and replication_pad: each padded dim's source indices are tabled once
// (Note [Padding kernel ops] in lib/src/ops/pad.cpp), the outer ones through the row plan; a row
// is its left pad and right pad element by element around one copy of the input row when both
// pads of the last dim are >= 0, else the whole row through its table.
template <bool kReflect>
void pad_rows(const KernelCall& c) {
  const Tensor &out = c.outputs[0], &self = c.inputs[0];
  if (out.numel() == 0) return;
  const IntArrayRef padding = c.params<PadParams>().padding;
  RowPlan plan = outer_plan(out, self);
  const int64_t last = out.dim() - 1;
  DimVector last_map;
  for (size_t k = 0; k < padding.size() / 2; ++k) {
    const int64_t d = last - static_cast<int64_t>(k), n = self.sizes()[d], l = padding[2 * k];
    const int64_t offset = std::max<int64_t>(0, -l) - std::max<int64_t>(0, l);
    DimVector map(static_cast<size_t>(out.sizes()[d]));
    for (int64_t j = 0; j < out.sizes()[d]; ++j) {
      int64_t i = j;
      if (j < l) {
        i = kReflect ? 2 * l - j : l;
      } else if (j >= n + l) {
        i = kReflect ? 2 * (n + l - 1) - j : n + l - 1;
      }
      map[static_cast<size_t>(j)] = i + offset;
    }
    if (d == last) {
      last_map = std::move(map);
    } else {
      plan.modes[d] = DimMode::Map;
      plan.maps[d] = std::move(map);
    }
  }
  const int64_t m = out.sizes()[last], n = self.sizes()[last];
  const int64_t ds = out.strides()[last], ss = self.strides()[last];
  const int64_t l = padding[0], r = padding[1];
  with_element_type(out.element_size(), [&](auto u) {
    using T = decltype(u);
    for_each_row<T>(c, plan, m, [&](T* dst, const T* src, IntArrayRef) {
      if (l >= 0 && r >= 0) {
        for (int64_t j = 0; j < l; ++j) dst[j * ds] = src[last_map[j] * ss];
        copy_row(dst + l * ds, ds, src, ss, n);
        for (int64_t j = l + n; j < m; ++j) dst[j * ds] = src[last_map[j] * ss];
      } else {
        for (int64_t j = 0; j < m; ++j) dst[j * ds] = src[last_map[j] * ss];
      }
    });
  });
}

// repeat_interleave: the offsets of each index's run (a running sum), then the runs in parallel.
template <typename T>
void repeat_interleave_runs(const Tensor& out, const Tensor& repeats) {
  const T* r = static_cast<const T*>(repeats.data_ptr());
  T* o = static_cast<T*>(out.data_ptr());
  const int64_t n = repeats.size(0), rs = repeats.strides()[0];
  DimVector start(static_cast<size_t>(n) + 1, 0);
  for (int64_t i = 0; i < n; ++i) start[i + 1] = start[i] + static_cast<int64_t>(r[i * rs]);
  parallel_for(0, n, std::max<int64_t>(1, 32768 / std::max<int64_t>(1, out.numel() / (n + 1))),
               [&](int64_t i0, int64_t i1) {
                 for (int64_t i = i0; i < i1; ++i) {
                   std::fill(o + start[i], o + start[i + 1], static_cast<T>(i));
                 }
               });
}

template <OpId op>
void kernel(const KernelCall& c) {
  if constexpr (op == OpId::reflection_pad || op == OpId::replication_pad) {
    pad_rows<op == OpId::reflection_pad>(c);
  } else if constexpr (op == OpId::repeat_interleave) {
    // meta gives a contiguous result and checked repeats (>= 0, summing to its size)
    if (c.inputs[0].dtype() == kInt) {
      repeat_interleave_runs<int32_t>(c.outputs[0], c.inputs[0]);
    } else {
      repeat_interleave_runs<int64_t>(c.outputs[0], c.inputs[0]);
    }
  } else if constexpr (op == OpId::flip || op == OpId::roll) {
    permute_copy<op>(c);
  } else if constexpr (op == OpId::tril || op == OpId::triu) {
    // Row i of each matrix keeps columns [0, i + diagonal] (tril) or [i + diagonal, m) (triu).
    const Tensor &out = c.outputs[0], &self = c.inputs[0];
    if (out.numel() == 0) return;
    const RowPlan plan = outer_plan(out, self);
    const int64_t m = out.sizes()[out.dim() - 1], diagonal = c.params<TriParams>().diagonal;
    const int64_t ds = out.strides()[out.dim() - 1], ss = self.strides()[out.dim() - 1];
    const bool in_place = out.is_same(self);
    const size_t row_dim = static_cast<size_t>(out.dim() - 2);
    with_element_type(out.element_size(), [&](auto u) {
      using T = decltype(u);
      for_each_row<T>(c, plan, m, [&](T* dst, const T* src, IntArrayRef idx) {
        const int64_t i = idx[row_dim];
        // The kept columns [lo, hi), clamped to the row.
        const int64_t lo = op == OpId::tril ? 0 : std::clamp<int64_t>(i + diagonal, 0, m);
        const int64_t hi = op == OpId::tril ? std::clamp<int64_t>(i + diagonal + 1, 0, m) : m;
        if (!in_place) copy_row(dst + lo * ds, ds, src + lo * ss, ss, hi - lo);
        zero_row(dst, ds, lo);
        zero_row(dst + hi * ds, ds, m - hi);
      });
    });
  } else {
    static_assert(kMissingKernel<op>, "optimized shape: a Shape op without its kernel");
  }
}

}  // namespace

TS_REGISTER_KERNELS(optimized, shape) {
  for_each_kernel_op<OpSignature::Shape>([&](auto op) { m.impl(op, kCPU, kernel<op>); });
}

}  // namespace ts::cpu
