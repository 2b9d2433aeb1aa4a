// Reference kernels for the shape ops: flip, roll, tril, triu. See Note [Reference kernels] in
// common.h. Each output element is read from the input element the op's definition names,
// through the compute dtype (the input's: the copy is exact).
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

}  // namespace

// PyTorch's CPU backend takes every dtype for all four.
TS_REGISTER_KERNELS(reference, shape) {
  for_each_kernel_op<OpSignature::Shape>([&](auto op) { m.impl(op, kCPU, kernel<op>); });
}

}  // namespace ts::reference
