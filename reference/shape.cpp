// Reference kernels for the shape ops: flip, roll, tril, triu, repeat_interleave, reflection_pad,
// replication_pad. See Note [Reference kernels] in common.h. Each output element is read from the
// input element the op's definition names, through the compute dtype (the input's: the copy is
// exact).
#include <algorithm>

#include "common.h"
#include "touchstone/kernel_family.h"

namespace ts::reference {
namespace {

void copy_element(char* dst, ScalarType dt, const char* src, ScalarType st, ScalarType ct) {
  if (is_floating_type(ct)) {
    store_double(dst, dt, load_as_double(src, st, ct));
  } else {
    store_int64(dst, dt, load_as_int64(src, st, ct));
  }
}

// out[idx] = self[src(idx)] for every output index.
template <typename F>
void gather_elements(const KernelCall& c, F&& src) {
  const Tensor &out = c.outputs[0], &self = c.inputs[0];
  for_each_index(out.sizes(), [&](IntArrayRef idx) {
    DimVector from(idx);
    src(from);
    copy_element(element_ptr(out, idx), out.dtype(), element_ptr(self, from), self.dtype(),
                 c.p.compute_dtype);
  });
}

// One kernel per Kernel op of signature class Shape (Note [Kernel families]).
template <OpId op>
void kernel(const KernelCall& c) = delete;

// out[..., i, ...] = self[..., n - 1 - i, ...] along each flipped dim.
template <>
void kernel<OpId::flip>(const KernelCall& c) {
  const IntArrayRef sizes = c.inputs[0].sizes();
  gather_elements(c, [&](DimVector& idx) {
    for (int64_t d : c.params<FlipParams>().dims) idx[d] = sizes[d] - 1 - idx[d];
  });
}

// out[..., i, ...] = self[..., (i - shift) mod n, ...] along each rolled dim.
template <>
void kernel<OpId::roll>(const KernelCall& c) {
  const IntArrayRef sizes = c.inputs[0].sizes();
  const RollParams& rp = c.params<RollParams>();
  gather_elements(c, [&](DimVector& idx) {
    for (size_t k = 0; k < rp.dims.size(); ++k) {
      const int64_t d = rp.dims[k], n = sizes[d];
      idx[d] = (idx[d] - rp.shifts[k] + n) % n;
    }
  });
}

// Element (i, j) of each matrix (the last two dims) is kept when j - i <= diagonal (tril) or
// j - i >= diagonal (triu), else zero. In place the kept elements stay as they are.
template <bool kLower>
void tri(const KernelCall& c) {
  const Tensor &out = c.outputs[0], &self = c.inputs[0];
  const int64_t diagonal = c.params<TriParams>().diagonal;
  const size_t r = static_cast<size_t>(out.dim()) - 2;
  for_each_index(out.sizes(), [&](IntArrayRef idx) {
    const int64_t k = idx[r + 1] - idx[r];
    const bool keep = kLower ? k <= diagonal : k >= diagonal;
    if (keep) {
      copy_element(element_ptr(out, idx), out.dtype(), element_ptr(self, idx), self.dtype(),
                   c.p.compute_dtype);
    } else {
      store_int64(element_ptr(out, idx), out.dtype(), 0);
    }
  });
}

template <>
void kernel<OpId::tril>(const KernelCall& c) {
  tri<true>(c);
}
template <>
void kernel<OpId::triu>(const KernelCall& c) {
  tri<false>(c);
}

// repeat_interleave: index i written repeats[i] times, in order (repeats checked >= 0 by meta).
template <>
void kernel<OpId::repeat_interleave>(const KernelCall& c) {
  const Tensor &out = c.outputs[0], &repeats = c.inputs[0];
  int64_t j = 0;
  for (int64_t i = 0; i < repeats.size(0); ++i) {
    const int64_t n = load_as_int64(element_ptr(repeats, {i}), repeats.dtype(), kLong);
    for (int64_t k = 0; k < n; ++k, ++j) store_int64(element_ptr(out, {j}), out.dtype(), i);
  }
}

// Along each padded dim (the last padding.size() / 2, the last first), output element j of a dim
// of input size n with left pad l reads input element index(j) + max(0, -l) - max(0, l):
//   reflect:   index(j) = 2l - j for j < l, j inside, 2(n + l - 1) - j past the right edge;
//   replicate: index(j) = l for j < l, j inside, n + l - 1 past the right edge.
// (ATen's PaddingKernel.cpp; negative pads crop.)
template <bool kReflect>
void pad(const KernelCall& c) {
  const IntArrayRef padding = c.params<PadParams>().padding;
  const IntArrayRef in_sizes = c.inputs[0].sizes();
  const int64_t nd = static_cast<int64_t>(in_sizes.size());
  gather_elements(c, [&](DimVector& idx) {
    for (size_t k = 0; k < padding.size() / 2; ++k) {
      const int64_t d = nd - 1 - static_cast<int64_t>(k), n = in_sizes[d], l = padding[2 * k];
      const int64_t j = idx[d];
      int64_t i = j;
      if (j < l) {
        i = kReflect ? 2 * l - j : l;
      } else if (j >= n + l) {
        i = kReflect ? 2 * (n + l - 1) - j : n + l - 1;
      }
      idx[d] = i + std::max<int64_t>(0, -l) - std::max<int64_t>(0, l);
    }
  });
}

template <>
void kernel<OpId::reflection_pad>(const KernelCall& c) {
  pad<true>(c);
}
template <>
void kernel<OpId::replication_pad>(const KernelCall& c) {
  pad<false>(c);
}

}  // namespace

// PyTorch's CPU backend takes every dtype for flip, roll, tril and triu; the others register
// op_list.def's dtypes (repeat_interleave int32/int64, the paddings floating).
TS_REGISTER_KERNELS(reference, shape) {
  for_each_kernel_op<OpSignature::Shape>([&](auto op) { m.impl(op, kCPU, kernel<op>); });
}

}  // namespace ts::reference
