// Reference kernels for advanced indexing (issue 16): index, index_put, index_add, scatter,
// scatter_reduce, masked_select, nonzero, take, put, index_copy, index_fill, masked_scatter. See
// Note [Reference kernels] in common.h. Inputs and params as documented in
// lib/src/ops/advanced_index.cpp; index values arrive checked.
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "common.h"
#include "touchstone/kernel_family.h"

namespace ts::reference {
namespace {

int64_t index_at(const Tensor& index, IntArrayRef idx) {
  return load_int64(element_ptr(index, idx), index.dtype());
}

// `idx` fitted to a tensor of `ndim` dims (a 0-dim tensor counts as 1-D of size 1).
DimVector fit(IntArrayRef idx, int64_t ndim) {
  DimVector r(static_cast<size_t>(ndim), 0);
  for (size_t d = 0; d < r.size() && d < idx.size(); ++d) r[d] = idx[d];
  return r;
}

// The element of self that position `idx` of index's result names (Note [Indexed result shape]
// in lib/src/ops/advanced_index.cpp): `indices` holds one tensor per leading dim of self,
// undefined where that dim is not indexed, the others all of the broadcast shape B.
DimVector indexed_position(const Tensor& self, ArrayRef<Tensor> indices, IntArrayRef idx) {
  std::vector<int64_t> defined;
  int64_t b_rank = 0;
  for (size_t d = 0; d < indices.size(); ++d) {
    if (!indices[d].defined()) continue;
    defined.push_back(static_cast<int64_t>(d));
    b_rank = indices[d].dim();
  }
  if (defined.empty()) return DimVector(idx);
  const int64_t first = defined.front(), last = defined.back();
  const bool adjacent = last - first + 1 == static_cast<int64_t>(defined.size());
  // Where B's coordinates sit in idx; the dims not indexed take the others in order.
  const int64_t b_at = adjacent ? first : 0;
  const IntArrayRef b = idx.slice(static_cast<size_t>(b_at), static_cast<size_t>(b_rank));
  DimVector pos(static_cast<size_t>(self.dim()), 0);
  int64_t next = adjacent ? 0 : b_rank;  // the next coordinate of idx a plain dim takes
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (d < static_cast<int64_t>(indices.size()) && indices[d].defined()) {
      const int64_t i = index_at(indices[d], b);
      pos[d] = i < 0 ? i + self.sizes()[d] : i;  // negative values count from the end
    } else {
      if (adjacent && next == b_at) next += b_rank;
      pos[d] = idx[next++];
    }
  }
  return pos;
}

// Element i of a tensor's row-major order, as a position (the order `acc` below keeps).
int64_t flat(IntArrayRef sizes, IntArrayRef pos) {
  int64_t f = 0;
  for (size_t d = 0; d < sizes.size(); ++d) f = f * sizes[d] + pos[d];
  return f;
}

// Note [Reference scatter]
// index_put, index_add, scatter and scatter_reduce all read self into `acc` (double for
// floating dtypes, int64 otherwise, self's row-major order), combine every source value into
// its element in index order, then store each element once, rounded to the output dtype. A
// bool compute dtype stores v != 0, so a sum is a logical or and a product a logical and.
template <typename T>
struct Acc {
  ScalarType ct;
  std::vector<T> v;
  std::vector<int64_t> count;  // values combined into each element (mean, include_self)

  Acc(const Tensor& self, ScalarType ct_) : ct(ct_) {
    for_each_index(self.sizes(), [&](IntArrayRef idx) {
      v.push_back(load(element_ptr(self, idx), self.dtype()));
    });
    count.assign(v.size(), 0);
  }
  T load(const void* p, ScalarType t) const {
    if constexpr (std::is_same_v<T, double>) {
      return load_as_double(p, t, ct);
    } else {
      return load_as_int64(p, t, ct);
    }
  }
  void store(const Tensor& out) const {
    size_t n = 0;
    for_each_index(out.sizes(), [&](IntArrayRef idx) {
      if constexpr (std::is_same_v<T, double>) {
        store_double(element_ptr(out, idx), out.dtype(), round_to(ct, v[n++]));
      } else {
        const T x = v[n++];
        store_int64(element_ptr(out, idx), out.dtype(), ct == kBool ? (x != 0) : wrap_to(ct, x));
      }
    });
  }
};

template <typename T>
T combine(ScatterReduce r, T a, T b) {
  switch (r) {
    case ScatterReduce::None:
      return b;
    case ScatterReduce::Sum:
    case ScatterReduce::Mean:
      if constexpr (std::is_same_v<T, double>) {
        return a + b;
      } else {
        return static_cast<T>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
      }
    case ScatterReduce::Prod:
      if constexpr (std::is_same_v<T, double>) {
        return a * b;
      } else {
        return static_cast<T>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
      }
    case ScatterReduce::Amax:
    case ScatterReduce::Amin:
      if constexpr (std::is_same_v<T, double>) {
        if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<double>::quiet_NaN();
      }
      return r == ScatterReduce::Amax ? (b > a ? b : a) : (b < a ? b : a);
  }
  return b;
}

// ---- the kernels ----

template <OpId op>
void kernel(const KernelCall& c) = delete;

// out[idx] = self[indexed_position(idx)]
template <>
void kernel<OpId::index>(const KernelCall& c) {
  const Tensor &out = c.outputs[0], &self = c.inputs[0];
  const ArrayRef<Tensor> indices = c.inputs.slice(1);
  for_each_index(out.sizes(), [&](IntArrayRef idx) {
    const DimVector pos = indexed_position(self, indices, idx);
    convert_element(element_ptr(out, idx), out.dtype(), element_ptr(self, pos), self.dtype());
  });
}

// out = self; out[indexed_position(idx)] = values[idx] (accumulate: +=), in values' order.
template <typename T>
void index_put_impl(const KernelCall& c) {
  const Tensor &self = c.inputs[0], &values = c.inputs[1];
  const ArrayRef<Tensor> indices = c.inputs.slice(2);
  const ScatterReduce r =
      c.params<IndexPutParams>().accumulate ? ScatterReduce::Sum : ScatterReduce::None;
  Acc<T> acc(self, c.p.compute_dtype);
  for_each_index(values.sizes(), [&](IntArrayRef idx) {
    const auto f = static_cast<size_t>(flat(self.sizes(), indexed_position(self, indices, idx)));
    acc.v[f] = combine(r, acc.v[f], acc.load(element_ptr(values, idx), values.dtype()));
  });
  acc.store(c.outputs[0]);
}

template <>
void kernel<OpId::index_put>(const KernelCall& c) {
  if (is_floating_type(c.p.compute_dtype)) return index_put_impl<double>(c);
  index_put_impl<int64_t>(c);
}

// out = self; out.select(dim, index[i]) += alpha * source.select(dim, i).
template <typename T>
void index_add_impl(const KernelCall& c) {
  const Tensor &self = c.inputs[0], &index = c.inputs[1], &source = c.inputs[2];
  const ScatterParams& sp = c.params<ScatterParams>();
  const ScalarType ct = c.p.compute_dtype;
  Acc<T> acc(self, ct);
  T alpha;
  if constexpr (std::is_same_v<T, double>) {
    alpha = round_to(ct, sp.alpha.to<double>());
  } else {
    alpha = sp.alpha.to<int64_t>();
  }
  for_each_index(source.sizes(), [&](IntArrayRef idx) {
    DimVector pos = fit(idx, self.dim());
    if (self.dim() > 0) {
      const int64_t j = source.dim() == 0 ? 0 : idx[sp.dim];  // the position along dim
      pos[sp.dim] = index.dim() == 0 ? index_at(index, {}) : index_at(index, {j});
    }
    const auto f = static_cast<size_t>(flat(self.sizes(), pos));
    const T v = acc.load(element_ptr(source, idx), source.dtype());
    acc.v[f] = combine(ScatterReduce::Sum, acc.v[f], combine(ScatterReduce::Prod, alpha, v));
  });
  acc.store(c.outputs[0]);
}

template <>
void kernel<OpId::index_add>(const KernelCall& c) {
  if (is_floating_type(c.p.compute_dtype)) return index_add_impl<double>(c);
  index_add_impl<int64_t>(c);
}

// out = self; out[index[i][j]][j] (dim 0) combined with src[i][j] (or value), in index order.
// scatter_reduce without include_self starts each element it reaches from its first value;
// mean divides by the number of values (plus one with include_self; integers floor).
template <typename T>
void scatter_impl(const KernelCall& c) {
  const Tensor &self = c.inputs[0], &index = c.inputs[1];
  const ScatterParams& sp = c.params<ScatterParams>();
  const bool has_src = c.inputs.size() == 3;
  Acc<T> acc(self, c.p.compute_dtype);
  T value{};
  if (!has_src) {
    const double d = sp.value->to<double>();
    if constexpr (std::is_same_v<T, double>) {
      value = round_to(c.p.compute_dtype, d);
    } else {
      value = sp.value->to<int64_t>();
    }
  }
  for_each_index(index.sizes(), [&](IntArrayRef idx) {
    DimVector pos = fit(idx, self.dim());
    if (self.dim() > 0) pos[sp.dim] = index_at(index, idx);
    const auto f = static_cast<size_t>(flat(self.sizes(), pos));
    const T v = has_src ? acc.load(element_ptr(c.inputs[2], fit(idx, c.inputs[2].dim())),
                                   c.inputs[2].dtype())
                        : value;
    const bool first = acc.count[f]++ == 0;
    acc.v[f] = !sp.include_self && first ? v : combine(sp.reduce, acc.v[f], v);
  });
  if (sp.reduce == ScatterReduce::Mean) {
    for (size_t f = 0; f < acc.v.size(); ++f) {
      const int64_t n = acc.count[f] + (sp.include_self ? 1 : 0);
      if (acc.count[f] == 0) continue;
      if constexpr (std::is_same_v<T, double>) {
        acc.v[f] /= static_cast<double>(n);
      } else {
        const T q = acc.v[f] / n;
        acc.v[f] = (acc.v[f] % n != 0 && (acc.v[f] < 0) != (n < 0)) ? q - 1 : q;  // floor
      }
    }
  }
  acc.store(c.outputs[0]);
}

template <>
void kernel<OpId::scatter>(const KernelCall& c) {
  if (is_floating_type(c.p.compute_dtype)) return scatter_impl<double>(c);
  scatter_impl<int64_t>(c);
}

template <>
void kernel<OpId::scatter_reduce>(const KernelCall& c) {
  if (is_floating_type(c.p.compute_dtype)) return scatter_impl<double>(c);
  scatter_impl<int64_t>(c);
}

// The elements of self where mask is true, in row-major order (both have the broadcast shape).
template <>
void kernel<OpId::masked_select>(const KernelCall& c) {
  const Tensor &out = c.outputs[0], &self = c.inputs[0], &mask = c.inputs[1];
  int64_t k = 0;
  for_each_index(self.sizes(), [&](IntArrayRef idx) {
    if (!load_bool(element_ptr(mask, idx), mask.dtype())) return;
    const int64_t o[] = {k++};
    convert_element(element_ptr(out, o), out.dtype(), element_ptr(self, idx), self.dtype());
  });
}

// Row r of the output is the position of the r-th nonzero element of self in row-major order.
template <>
void kernel<OpId::nonzero>(const KernelCall& c) {
  const Tensor &out = c.outputs[0], &self = c.inputs[0];
  int64_t r = 0;
  for_each_index(self.sizes(), [&](IntArrayRef idx) {
    if (load_double(element_ptr(self, idx), self.dtype()) == 0) return;
    for (int64_t d = 0; d < self.dim(); ++d) {
      const int64_t o[] = {r, d};
      store_int64(element_ptr(out, o), out.dtype(), idx[d]);
    }
    ++r;
  });
}

// out[idx] = the element of self at row-major position index[idx] (negative: from the end).
template <>
void kernel<OpId::take>(const KernelCall& c) {
  const Tensor &out = c.outputs[0], &self = c.inputs[0], &index = c.inputs[1];
  std::vector<DimVector> positions;  // self's positions in row-major order
  for_each_index(self.sizes(), [&](IntArrayRef idx) { positions.emplace_back(idx); });
  const auto n = static_cast<int64_t>(positions.size());
  for_each_index(out.sizes(), [&](IntArrayRef idx) {
    int64_t i = index_at(index, idx);
    if (i < 0) i += n;
    convert_element(element_ptr(out, idx), out.dtype(),
                    element_ptr(self, positions[static_cast<size_t>(i)]), self.dtype());
  });
}

// out = self; element index[i] of out's row-major order = source[i] (accumulate: +=), index
// and source 1-D of one length, in index order (the last write wins).
template <typename T>
void put_impl(const KernelCall& c) {
  const Tensor &self = c.inputs[0], &index = c.inputs[1], &source = c.inputs[2];
  const ScatterReduce r =
      c.params<IndexPutParams>().accumulate ? ScatterReduce::Sum : ScatterReduce::None;
  Acc<T> acc(self, c.p.compute_dtype);
  const auto n = static_cast<int64_t>(acc.v.size());
  for (int64_t k = 0; k < index.numel(); ++k) {
    int64_t i = index_at(index, {k});
    if (i < 0) i += n;
    const auto f = static_cast<size_t>(i);
    acc.v[f] = combine(r, acc.v[f], acc.load(element_ptr(source, {k}), source.dtype()));
  }
  acc.store(c.outputs[0]);
}

template <>
void kernel<OpId::put>(const KernelCall& c) {
  if (is_floating_type(c.p.compute_dtype)) return put_impl<double>(c);
  put_impl<int64_t>(c);
}

// out = self; out.select(dim, index[i]) = source.select(dim, i), in index order.
template <>
void kernel<OpId::index_copy>(const KernelCall& c) {
  const Tensor &out = c.outputs[0], &self = c.inputs[0], &index = c.inputs[1];
  const Tensor& source = c.inputs[2];
  const int64_t dim = c.params<ScatterParams>().dim;
  std::vector<std::vector<char>> bytes;  // self's elements in row-major order, copied unchanged
  const auto esize = static_cast<size_t>(self.element_size());
  for_each_index(self.sizes(), [&](IntArrayRef idx) {
    const char* p = element_ptr(self, idx);
    bytes.emplace_back(p, p + esize);
  });
  for_each_index(source.sizes(), [&](IntArrayRef idx) {
    DimVector pos = fit(idx, self.dim());
    if (self.dim() > 0) {
      const int64_t j = source.dim() == 0 ? 0 : idx[dim];
      pos[dim] = index.dim() == 0 ? index_at(index, {}) : index_at(index, {j});
    }
    const char* p = element_ptr(source, idx);
    bytes[static_cast<size_t>(flat(self.sizes(), pos))].assign(p, p + esize);
  });
  size_t f = 0;
  for_each_index(out.sizes(), [&](IntArrayRef idx) {
    std::memcpy(element_ptr(out, idx), bytes[f++].data(), esize);
  });
}

// out = self; out.select(dim, index[i]) = value (index[i] negative: from the end); value is
// ScatterParams::value or the 0-dim input 2 (in self's dtype).
template <>
void kernel<OpId::index_fill>(const KernelCall& c) {
  const Tensor &out = c.outputs[0], &self = c.inputs[0], &index = c.inputs[1];
  const ScatterParams& sp = c.params<ScatterParams>();
  const auto esize = static_cast<size_t>(self.element_size());
  std::vector<char> value(esize);
  if (c.inputs.size() == 3) {
    std::memcpy(value.data(), element_ptr(c.inputs[2], {}), esize);
  } else {
    store_scalar(value.data(), self.dtype(), *sp.value);
  }
  const int64_t size = self.dim() == 0 ? 1 : self.sizes()[sp.dim];
  std::vector<bool> filled(static_cast<size_t>(size), false);
  for (int64_t k = 0; k < index.numel(); ++k) {
    int64_t i = index.dim() == 0 ? index_at(index, {}) : index_at(index, {k});
    filled[static_cast<size_t>(i < 0 ? i + size : i)] = true;
  }
  for_each_index(out.sizes(), [&](IntArrayRef idx) {
    const int64_t j = self.dim() == 0 ? 0 : idx[sp.dim];
    const char* from = filled[static_cast<size_t>(j)] ? value.data() : element_ptr(self, idx);
    std::memmove(element_ptr(out, idx), from, esize);
  });
}

// out[idx] = mask[idx] ? the next element of source (row-major) : self[idx], idx in row-major
// order (self and mask have the output's shape).
template <>
void kernel<OpId::masked_scatter>(const KernelCall& c) {
  const Tensor &out = c.outputs[0], &self = c.inputs[0], &mask = c.inputs[1];
  const Tensor& source = c.inputs[2];
  std::vector<DimVector> from;  // source's positions in row-major order
  for_each_index(source.sizes(), [&](IntArrayRef idx) { from.emplace_back(idx); });
  size_t k = 0;
  for_each_index(out.sizes(), [&](IntArrayRef idx) {
    const char* p = load_bool(element_ptr(mask, idx), mask.dtype()) ? element_ptr(source, from[k++])
                                                                    : element_ptr(self, idx);
    std::memmove(element_ptr(out, idx), p, static_cast<size_t>(out.element_size()));
  });
}

}  // namespace

TS_REGISTER_KERNELS(reference, advanced_index) {
  for_each_kernel_op<OpSignature::AdvancedIndex>([&](auto op) { m.impl(op, kCPU, kernel<op>); });
}

}  // namespace ts::reference
