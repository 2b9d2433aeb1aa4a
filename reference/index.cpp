// Reference kernels for indexing and joining. See Note [Reference kernels] in common.h.
// Index values arrive checked (see Note [Index bounds] in lib/src/ops/index.cpp).
#include <vector>

#include "common.h"
#include "touchstone/kernel_family.h"

namespace ts::reference {
namespace {

// Copies one element through the compute dtype into the output's dtype (exact when they match).
void copy_element(char* dst, ScalarType dt, const char* src, ScalarType st, ScalarType ct) {
  if (is_floating_type(ct)) {
    store_double(dst, dt, load_as_double(src, st, ct));
  } else {
    store_int64(dst, dt, load_as_int64(src, st, ct));
  }
}

// The index value at `idx` (int64 or int32 index tensors).
int64_t index_at(const Tensor& index, IntArrayRef idx) {
  return load_int64(element_ptr(index, idx), index.dtype());
}

// `idx` fitted to a tensor of `ndim` dims: a 0-dim tensor counts as 1-D of size 1 (as ATen's
// ensure_nonempty_dim), so the only mismatch is 0 against 1 dims, at index 0.
DimVector fit(IntArrayRef idx, int64_t ndim) {
  DimVector r(static_cast<size_t>(ndim), 0);
  for (size_t d = 0; d < r.size() && d < idx.size(); ++d) r[d] = idx[d];
  return r;
}

// The element of self that index position `idx` names: idx with idx[dim] replaced by `v`.
DimVector with_dim(IntArrayRef idx, int64_t ndim, int64_t dim, int64_t v) {
  DimVector r = fit(idx, ndim);
  if (ndim > 0) r[dim] = v;
  return r;
}

// One kernel per Kernel op of signature classes Index and Join (Note [Kernel families]).
template <OpId op>
void kernel(const KernelCall& c) = delete;

// out[..., i, ...] = self[..., index[i], ...]
template <>
void kernel<OpId::index_select>(const KernelCall& c) {
  const Tensor &out = c.outputs[0], &self = c.inputs[0], &index = c.inputs[1];
  const int64_t dim = c.params<DimParams>().dim;
  for_each_index(out.sizes(), [&](IntArrayRef idx) {
    DimVector src;  // a 0-dim self has one element, and its index was checked to be 0
    if (self.dim() > 0) {
      const int64_t i = index.dim() == 0 ? index_at(index, {}) : index_at(index, {idx[dim]});
      src = with_dim(idx, self.dim(), dim, i);
    }
    copy_element(element_ptr(out, idx), out.dtype(), element_ptr(self, src), self.dtype(),
                 c.p.compute_dtype);
  });
}

// out[i][j] = self[index[i][j]][j] for dim 0 (and likewise for other dims).
template <>
void kernel<OpId::gather>(const KernelCall& c) {
  const Tensor &out = c.outputs[0], &self = c.inputs[0], &index = c.inputs[1];
  const int64_t dim = c.params<DimParams>().dim;
  for_each_index(out.sizes(), [&](IntArrayRef idx) {
    const DimVector src = with_dim(idx, self.dim(), dim, index_at(index, idx));
    copy_element(element_ptr(out, idx), out.dtype(), element_ptr(self, src), self.dtype(),
                 c.p.compute_dtype);
  });
}

// Accumulation for scatter_add: in double (floating), or wrapping int64 (integers; a bool
// compute dtype adds 0/1 and stores v != 0, i.e. a logical or).
template <typename T>
T load_as(const void* p, ScalarType t, ScalarType ct) {
  if constexpr (std::is_same_v<T, double>) {
    return load_as_double(p, t, ct);
  } else {
    return load_as_int64(p, t, ct);
  }
}
template <typename T>
T add(T a, T b) {
  if constexpr (std::is_same_v<T, double>) {
    return a + b;
  } else {
    return static_cast<T>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
  }
}
template <typename T>
void store_as(void* p, ScalarType t, ScalarType ct, T v) {
  if constexpr (std::is_same_v<T, double>) {
    store_double(p, t, round_to(ct, v));
  } else {
    store_int64(p, t, ct == kBool ? (v != 0) : wrap_to(ct, v));
  }
}

// out = self, then out[index[i][j]][j] += src[i][j] for dim 0 (and likewise for other dims).
// Sums are taken in full precision and rounded once; every value is read before any is
// written, since out may be self.
template <typename T>
void scatter_add_impl(const KernelCall& c) {
  const Tensor &out = c.outputs[0], &self = c.inputs[0], &index = c.inputs[1], &src = c.inputs[2];
  const ScalarType ct = c.p.compute_dtype;
  const int64_t dim = c.params<DimParams>().dim;
  std::vector<T> acc;
  for_each_index(self.sizes(), [&](IntArrayRef idx) {
    acc.push_back(load_as<T>(element_ptr(self, idx), self.dtype(), ct));
  });
  const DimVector strides = contiguous_strides(self.sizes());  // positions within `acc`
  for_each_index(index.sizes(), [&](IntArrayRef idx) {
    const DimVector dst = with_dim(idx, self.dim(), dim, index_at(index, idx));
    int64_t pos = 0;
    for (size_t d = 0; d < dst.size(); ++d) pos += dst[d] * strides[d];
    const T v = load_as<T>(element_ptr(src, fit(idx, src.dim())), src.dtype(), ct);
    acc[static_cast<size_t>(pos)] = add(acc[static_cast<size_t>(pos)], v);
  });
  size_t n = 0;
  for_each_index(out.sizes(), [&](IntArrayRef idx) {
    store_as<T>(element_ptr(out, idx), out.dtype(), ct, acc[n++]);
  });
}

template <>
void kernel<OpId::scatter_add>(const KernelCall& c) {
  if (is_floating_type(c.p.compute_dtype)) return scatter_add_impl<double>(c);
  return scatter_add_impl<int64_t>(c);
}

// Each input lands in the output at its offset along dim.
template <>
void kernel<OpId::cat>(const KernelCall& c) {
  const Tensor& out = c.outputs[0];
  const int64_t dim = c.params<DimParams>().dim;
  int64_t offset = 0;
  for (const Tensor& in : c.inputs) {
    for_each_index(in.sizes(), [&](IntArrayRef idx) {
      DimVector dst(idx);
      dst[dim] += offset;
      copy_element(element_ptr(out, dst), out.dtype(), element_ptr(in, idx), in.dtype(),
                   c.p.compute_dtype);
    });
    offset += in.size(dim);
  }
}

}  // namespace

// PyTorch's CPU backend takes every dtype for all four (scatter_add of bools is an or).
TS_REGISTER_KERNELS(reference, index) {
  for_each_kernel_op<OpSignature::Index, OpSignature::Join>(
      [&](auto op) { m.impl(op, kCPU, kernel<op>); });
}

}  // namespace ts::reference
