// Advanced indexing (issue 16): index, index_put, index_add, scatter, scatter_reduce,
// masked_select, nonzero, take, put, index_copy, index_fill, masked_scatter (all kernels).
// KernelCall and params, per op (compute_dtype is self's dtype; nonzero's is self's too, its output
// int64):
//   index:          inputs {self, i_0, ..., i_{k-1}}: one per leading dim of self once masks
//                   are expanded (undefined: the whole dim), each int64, in range (negative
//                   values not yet wrapped) and expanded to their broadcast shape B. The output's
//                   shape: Note [Indexed result shape]. NoParams.
//   index_put:      inputs {self, values, i_0, ...}: indices as index's, values of self's dtype
//                   expanded to index's result shape. IndexPutParams. The output starts as self.
//   index_add:      inputs {self, index (0-dim or 1-D, int64 or int32), source}; ScatterParams
//                   {dim, alpha}. The output starts as self.
//   scatter:        inputs {self, index, src}, or {self, index} with ScatterParams::value;
//                   reduce None, Sum ("add") or Prod ("multiply").
//   scatter_reduce: inputs {self, index, src}; ScatterParams {dim, reduce, include_self}.
//   masked_select:  inputs {self, mask (bool)} expanded to their broadcast shape; output 1-D.
//   nonzero:        inputs {self}; output (n, self.dim()) int64, in row-major order.
//   take:           inputs {self, index (int64, in range, negative not yet wrapped)}; the output
//                   has index's shape. NoParams.
//   put:            inputs {self, index, source}, index and source 1-D of one length (row-major
//                   order); IndexPutParams. The output starts as self.
//   index_copy:     inputs {self, index (int64, 0-dim or 1-D, in [0, size)), source};
//                   ScatterParams {dim}. The output starts as self.
//   index_fill:     inputs {self, index (int64, 0-dim or 1-D, negative not yet wrapped)} with
//                   ScatterParams {dim, value}, or {self, index, value (0-dim, self's dtype)}.
//   masked_scatter: inputs {self, mask (bool), source}, self and mask expanded to the output's
//                   shape; source's elements are read in row-major order. NoParams.
// Index values are checked here (Note [Index bounds] in index_checks.h), so kernels may trust
// them; masked_select's and nonzero's counts are taken here, on the host.
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../autograd/derivatives.h"
#include "index_checks.h"
#include "meta.h"
#include "touchstone/autograd.h"
#include "touchstone/dispatch_macros.h"
#include "touchstone/kernel_helpers.h"
#include "touchstone/ops.h"

namespace ts {
namespace {

using meta::Variant;

// Sizes as ATen's ensure_nonempty_*: a 0-dim tensor counts as 1-D of size 1.
int64_t nonempty_dim(const Tensor& t) {
  return t.dim() == 0 ? 1 : t.dim();
}
int64_t nonempty_size(const Tensor& t, int64_t d) {
  return t.dim() == 0 ? 1 : t.sizes()[d];
}

// A host copy of t (t itself on the CPU).
Tensor on_host(const Tensor& t) {
  if (t.is_cpu()) return t;
  Tensor h = empty(t.sizes(), t.dtype());
  h.copy_(t);
  return h;
}

// The number of nonzero elements (NaN counts, -0 does not), read on the host: a typed loop
// over dense memory, else element by element.
int64_t count_nonzero_host(const Tensor& t) {
  const Tensor h = on_host(t);
  int64_t n = 0;
  if (h.is_contiguous()) {
    TS_DISPATCH_ALL_DTYPES(
        h.dtype(), "nonzero", [&]<class T = scalar_t>() {
          const T* p = static_cast<const T*>(h.data_ptr());
          const int64_t numel = h.numel();
          for (int64_t i = 0; i < numel; ++i) {
            if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
              n += static_cast<float>(p[i]) != 0.0f ? 1 : 0;
            } else {
              n += p[i] != T(0) ? 1 : 0;
            }
          }
        });
    return n;
  }
  for_each_index(h.sizes(), [&](IntArrayRef idx) {
    n += load_double(element_ptr(h, idx), h.dtype()) != 0 ? 1 : 0;
  });
  return n;
}

// Note [nonzero layout]
// ATen's nonzero gives its (n, ndim) result column-major, strides [1, n] (a new result, and an
// out= it resizes; libtorch 1.13 and current PyTorch), so each coordinate is one contiguous row.
DimVector nonzero_strides(IntArrayRef shape) {
  return DimVector{1, shape[0]};
}

// Checks, kernel lookup, output and call shared by every op here. For InPlace the output is
// inputs[0]; `no_overlap` lists inputs the output may not touch (index of the Tensor argument).
Tensor run(OpId op, Variant v, const Tensor& out, IntArrayRef shape, ScalarType out_dtype,
           ScalarType compute, Device device, TensorList inputs, OpParams& p,
           ArrayRef<std::pair<size_t, Tensor>> no_overlap) {
  const char* op_name = meta::op_name(op, v);
  const UserOpScope scope(op_name);
  p.compute_dtype = compute;
  if (v == Variant::Out) {
    // Note [Advanced index out= dtype]: out= of the result's dtype only. ATen 1.13's index_out
    // takes another dtype but copies self's element bytes into it (garbage values).
    meta::check_exact_dtype(op_name, out, out_dtype, "out");
    meta::check_out(op_name, out, shape, out_dtype);
    for (const auto& [i, in] : no_overlap) {
      meta::check_no_overlap(op_name, out, in, "out", meta::arg_name(op, i));
    }
    meta::check_out_no_grad(op, ArrayRef<Tensor>(&out, 1), inputs);  // before resizing
  } else if (v == Variant::InPlace) {
    meta::check_no_internal_overlap(op_name, inputs[0], "self");
    for (const auto& [i, in] : no_overlap) {
      meta::check_no_overlap(op_name, inputs[0], in, "self", meta::arg_name(op, i));
    }
  }
  const KernelFn fn = lookup_kernel(op, compute, device);  // before anything is written
  Tensor result;
  if (v == Variant::InPlace) {
    result = inputs[0];
  } else if (op == OpId::nonzero && v == Variant::Functional) {
    result = empty_strided(shape, nonzero_strides(shape), TensorOptions(kLong).device(device));
  } else if (v == Variant::Functional &&
             (op == OpId::index_put || op == OpId::put || op == OpId::index_fill)) {
    // ATen's composites self.clone(at::MemoryFormat::Preserve).op_(...): laid out like self.
    result = meta::allocate_like(shape, out_dtype, device, inputs.slice(0, 1));
  } else {
    const bool resized = v == Variant::Out && out.sizes() != shape;
    result = meta::prepare_output(op, v, out, shape, out_dtype, device, inputs.slice(0, 1));
    if (op == OpId::nonzero && resized) {
      result.impl()->set_geometry(shape, nonzero_strides(shape), result.storage_offset());
    }
  }
  run_kernel(fn, KernelCall{op, ArrayRef<Tensor>(&result, 1), inputs, p, v});
  return result;
}

// ---- index lists: index, index_put ----

// Note [Indexed result shape]
// As ATen (and NumPy): the index tensors broadcast to a shape B. When the indexed dims are
// adjacent (x[:, i, j]), B replaces them in place; when a None separates them (x[i, :, j]), B
// comes first and the dims not indexed follow in order. Dims past the list are not indexed.
struct IndexList {
  std::vector<Tensor> indices;  // one per leading dim of self, undefined when not indexed
  DimVector result_shape;
};

// Note [Index dtypes]
// As current PyTorch: int64 and int32 index tensors, bool masks and (deprecated) uint8 masks.
// libtorch 1.13 refuses int32 ("tensors used as indices must be long, byte or bool tensors");
// touchstone converts them to int64 here, so every kernel set sees int64.
// ATen's expandTensors and the broadcast: masks become their nonzero() columns, int32 indices
// int64; then every value is checked against its dim's size.
IndexList expand_indices(const char* op, const Tensor& self, OptionalTensorList list) {
  IndexList r;
  for (size_t n = 0; n < list.size(); ++n) {
    const bool given = list[n].has_value() && list[n]->defined();
    if (!given) {
      r.indices.emplace_back();
      continue;
    }
    const Tensor& t = *list[n];
    const ScalarType dt = t.dtype();
    if (dt == kBool || dt == kByte) {
      const int64_t start = static_cast<int64_t>(r.indices.size());
      TS_CHECK(start + t.dim() <= self.dim(), op, ": too many indices for tensor of dimension ",
               self.dim(), " (got ", start + t.dim(), ") (argument 'indices')");
      for (int64_t j = 0; j < t.dim(); ++j) {
        TS_CHECK(t.sizes()[j] == self.sizes()[start + j], op, ": The shape of the mask ", t.sizes(),
                 " at index ", j, " does not match the shape of the indexed tensor ", self.sizes(),
                 " at index ", start + j, " (argument 'indices')");
      }
      const Tensor nz = nonzero(t);
      for (int64_t j = 0; j < t.dim(); ++j) r.indices.push_back(nz.select(1, j));
    } else {
      TS_CHECK(dt == kLong || dt == kInt, op,
               ": tensors used as indices must be long, int, byte or bool tensors (got ", dt,
               " at position ", n, " of indices)");
      r.indices.push_back(dt == kLong ? t : t.to(kLong));
    }
  }
  TS_CHECK(static_cast<int64_t>(r.indices.size()) <= self.dim(), op,
           ": too many indices for tensor of dimension ", self.dim(), " (got ", r.indices.size(),
           ") (argument 'indices')");
  // Broadcast the defined ones (ATen's message names every shape).
  std::vector<Tensor> defined;
  for (const Tensor& t : r.indices) {
    if (t.defined()) defined.push_back(t);
  }
  DimVector b;
  if (!defined.empty()) {
    std::string shapes;
    for (const Tensor& t : defined) {
      std::ostringstream os;
      os << t.sizes();
      shapes += (shapes.empty() ? "" : ", ") + os.str();
    }
    for (const Tensor& t : defined) {
      const size_t nd = std::max(b.size(), static_cast<size_t>(t.dim()));
      DimVector nb(nd, 1);
      for (size_t i = 0; i < nd; ++i) {
        const int64_t x = i + b.size() >= nd ? b[i + b.size() - nd] : 1;
        const size_t td = static_cast<size_t>(t.dim());
        const int64_t y = i + td >= nd ? t.sizes()[i + td - nd] : 1;
        TS_CHECK(x == y || x == 1 || y == 1, op,
                 ": shape mismatch: indexing tensors could not be broadcast together with shapes ",
                 shapes, " (argument 'indices')");
        nb[i] = x == 1 ? y : x;
      }
      b = nb;
    }
  }
  // Bounds, before any tensor is written (Note [Index bounds]).
  for (size_t d = 0; d < r.indices.size(); ++d) {
    if (!r.indices[d].defined()) continue;
    const int64_t size = self.sizes()[d];
    meta::check_index_values(r.indices[d], [&](int64_t i) {
      TS_CHECK(i >= -size && i < size, op, ": index ", i, " is out of bounds for dimension ", d,
               " with size ", size, " (argument 'indices')");
    });
    r.indices[d] = r.indices[d].expand(b);
  }
  // Note [Indexed result shape].
  int64_t first = -1, last = -1, count = 0;
  for (size_t d = 0; d < r.indices.size(); ++d) {
    if (!r.indices[d].defined()) continue;
    if (first < 0) first = static_cast<int64_t>(d);
    last = static_cast<int64_t>(d);
    ++count;
  }
  if (count == 0) {
    r.result_shape = DimVector(self.sizes());
  } else if (last - first + 1 == count) {
    for (int64_t d = 0; d < first; ++d) r.result_shape.push_back(self.sizes()[d]);
    for (int64_t s : b) r.result_shape.push_back(s);
    for (int64_t d = last + 1; d < self.dim(); ++d) r.result_shape.push_back(self.sizes()[d]);
  } else {
    r.result_shape = b;
    for (int64_t d = 0; d < self.dim(); ++d) {
      if (d >= static_cast<int64_t>(r.indices.size()) || !r.indices[d].defined()) {
        r.result_shape.push_back(self.sizes()[d]);
      }
    }
  }
  return r;
}

Tensor index_impl(Variant v, const Tensor& out, const Tensor& self, OptionalTensorList list) {
  const char* op = "index";
  meta::check_defined(op, self, "self");
  const IndexList l = expand_indices(op, self, list);
  std::vector<Tensor> inputs{self};
  for (const Tensor& t : l.indices) inputs.push_back(t);
  const Device device = meta::common_device(op, inputs, OpId::index);
  OpParams p;
  std::vector<std::pair<size_t, Tensor>> no_overlap{{0, self}};
  for (const Tensor& t : l.indices) {
    if (t.defined()) no_overlap.emplace_back(1, t);
  }
  return run(OpId::index, v, out, l.result_shape, self.dtype(), self.dtype(), device, inputs, p,
             no_overlap);
}

Tensor index_put_impl(Variant v, const Tensor& out, const Tensor& self, OptionalTensorList list,
                      const Tensor& values, bool accumulate) {
  const char* op = meta::op_name(OpId::index_put, v);
  meta::check_defined(op, self, "self");
  meta::check_defined(op, values, "values");
  TS_CHECK(values.dtype() == self.dtype(), op,
           ": Index put requires the source and destination dtypes match, got ", self.dtype(),
           " for the destination and ", values.dtype(), " for the source (argument 'values').");
  const IndexList l = expand_indices(op, self, list);
  const DimVector& shape = l.result_shape;
  bool fits = values.dim() <= static_cast<int64_t>(shape.size());
  for (int64_t i = 0; fits && i < values.dim(); ++i) {
    const int64_t s = values.sizes()[values.dim() - 1 - i];
    fits = s == 1 || s == shape[shape.size() - 1 - static_cast<size_t>(i)];
  }
  TS_CHECK(fits, op, ": shape mismatch: value tensor of shape ", values.sizes(),
           " cannot be broadcast to indexing result of shape ", IntArrayRef(shape),
           " (argument 'values')");
  // Values that share self's memory are read before any is written (ATen clones them too).
  const bool shares = values.storage().get() == self.storage().get() && self.numel() > 0;
  std::vector<Tensor> inputs{self, (shares ? values.clone() : values).expand(shape)};
  for (const Tensor& t : l.indices) inputs.push_back(t);
  const Device device = meta::common_device(op, inputs, OpId::index_put);
  OpParams p;
  p.set(IndexPutParams{accumulate});
  std::vector<std::pair<size_t, Tensor>> no_overlap;
  for (const Tensor& t : l.indices) {
    if (t.defined()) no_overlap.emplace_back(1, t);
  }
  if (v == Variant::Out) no_overlap.emplace_back(0, self);
  return run(OpId::index_put, v, out, self.sizes(), self.dtype(), self.dtype(), device, inputs, p,
             no_overlap);
}

// ---- index_add ----

Tensor index_add_impl(Variant v, const Tensor& out, const Tensor& self, int64_t dim,
                      const Tensor& index, const Tensor& source, const Scalar& alpha) {
  const char* op = meta::op_name(OpId::index_add, v);
  meta::check_defined(op, self, "self");
  meta::check_defined(op, index, "index");
  meta::check_defined(op, source, "source");
  dim = wrap_dim(dim, self.dim(), op);
  TS_CHECK(index.dim() <= 1, op, ": Index is supposed to be a vector");
  TS_CHECK(index.dtype() == kLong || index.dtype() == kInt, op,
           ": Expected dtype int32/int64 for index but got: ", index.dtype());
  TS_CHECK(self.dtype() == source.dtype(), op, ": self (", self.dtype(), ") and source (",
           source.dtype(), ") must have the same scalar type");
  TS_CHECK(dim == 0 || dim < source.dim(), op, ": Indexing dim ", dim,
           " is out of bounds of the source tensor with dim ", source.dim());
  const int64_t n = index.numel();
  TS_CHECK(n == nonempty_size(source, dim), op, ": Number of indices (", n,
           ") should be equal to source.size(dim) (", nonempty_size(source, dim), ")");
  TS_CHECK(nonempty_dim(self) == nonempty_dim(source), op,
           ": self and source must have the same number of dimensions (got ", self.dim(), " and ",
           source.dim(), ")");
  for (int64_t d = 0; d < nonempty_dim(self); ++d) {
    TS_CHECK(d == dim || nonempty_size(self, d) == nonempty_size(source, d), op,
             ": self and source must have the same size at dimension ", d, " (got ",
             nonempty_size(self, d), " and ", nonempty_size(source, d), ")");
  }
  TS_CHECK(!(is_integral_type(self.dtype(), true) && alpha.is_floating_point()), op,
           ": For integral input tensors, argument alpha must not be a floating point number.");
  meta::check_scalar_fits(op, alpha, self.dtype(), "alpha");
  const Tensor inputs[] = {self, index, source};
  const Device device = meta::common_device(op, inputs, OpId::index_add);
  const int64_t size = nonempty_size(self, dim);
  meta::check_index_values(index, [&](int64_t i) {
    TS_CHECK(i >= 0 && i < size, op, ": index ", i, " is out of bounds for dimension ", dim,
             " with size ", size);
  });
  OpParams p;
  ScatterParams sp;
  sp.dim = dim;
  sp.alpha = alpha;
  p.set(sp);
  const std::pair<size_t, Tensor> no_overlap[] = {{1, index}, {2, source}};
  return run(OpId::index_add, v, out, self.sizes(), self.dtype(), self.dtype(), device, inputs, p,
             no_overlap);
}

// ---- scatter, scatter_reduce ----

ScatterReduce scatter_mode(const char* op, std::string_view reduce) {
  if (reduce == "add") return ScatterReduce::Sum;
  if (reduce == "multiply") return ScatterReduce::Prod;
  TS_CHECK(false, op, ": reduce argument must be either add or multiply. (got '", reduce, "')");
}

ScatterReduce scatter_reduce_mode(const char* op, std::string_view reduce) {
  if (reduce == "sum") return ScatterReduce::Sum;
  if (reduce == "prod") return ScatterReduce::Prod;
  if (reduce == "mean") return ScatterReduce::Mean;
  if (reduce == "amax") return ScatterReduce::Amax;
  if (reduce == "amin") return ScatterReduce::Amin;
  TS_CHECK(false, op, ": reduce argument must be either sum, prod, mean, amax or amin, got ",
           reduce);
}

// scatter's and scatter_reduce's checks (ATen's scatter_gather_dtype_check and
// scatter_shape_check); src undefined for scatter's value form.
Tensor scatter_impl(OpId id, Variant v, const Tensor& out, const Tensor& self, int64_t dim,
                    const Tensor& index, const Tensor& src, ScatterParams sp) {
  const char* op = meta::op_name(id, v);
  meta::check_defined(op, self, "self");
  meta::check_defined(op, index, "index");
  dim = wrap_dim(dim, self.dim(), op);
  TS_CHECK(index.dtype() == kLong, op, ": Expected dtype int64 for index");
  if (src.defined()) {
    TS_CHECK(self.dtype() == src.dtype(), op, ": Expected self.dtype to be equal to src.dtype");
  } else {
    meta::check_scalar_fits(op, *sp.value, self.dtype(), "value");
  }
  if (index.numel() != 0) {  // as ATen, an empty index skips the shape checks
    TS_CHECK(nonempty_dim(self) == nonempty_dim(index), op,
             ": Index tensor must have the same number of dimensions as self tensor");
    TS_CHECK(!src.defined() || nonempty_dim(src) == nonempty_dim(index), op,
             ": Index tensor must have the same number of dimensions as src tensor");
    for (int64_t d = 0; d < nonempty_dim(self); ++d) {
      const int64_t is = nonempty_size(index, d);
      TS_CHECK((d == dim || is <= nonempty_size(self, d)) &&
                   (!src.defined() || is <= nonempty_size(src, d)),
               op, ": Expected index ", index.sizes(), " to be smaller than self ", self.sizes(),
               " apart from dimension ", dim,
               src.defined() ? " and to be smaller size than src " : "",
               src.defined() ? src.sizes() : IntArrayRef());
    }
  }
  std::vector<Tensor> inputs{self, index};
  if (src.defined()) inputs.push_back(src);
  const Device device = meta::common_device(op, inputs, id);
  const int64_t size = nonempty_size(self, dim);
  meta::check_index_values(index, [&](int64_t i) {
    TS_CHECK(i >= 0 && i < size, op, ": index ", i, " is out of bounds for dimension ", dim,
             " with size ", size);
  });
  sp.dim = dim;
  OpParams p;
  p.set(std::move(sp));
  std::vector<std::pair<size_t, Tensor>> no_overlap{{1, index}};
  if (src.defined()) no_overlap.emplace_back(2, src);
  return run(id, v, out, self.sizes(), self.dtype(), self.dtype(), device, inputs, p, no_overlap);
}

ScatterParams scatter_params(std::optional<Scalar> value, ScatterReduce reduce) {
  ScatterParams sp;
  sp.value = std::move(value);
  sp.reduce = reduce;
  return sp;
}

Tensor scatter_reduce_impl(Variant v, const Tensor& out, const Tensor& self, int64_t dim,
                           const Tensor& index, const Tensor& src, std::string_view reduce,
                           bool include_self) {
  const char* op = meta::op_name(OpId::scatter_reduce, v);
  meta::check_defined(op, src, "src");
  ScatterParams sp;
  sp.reduce = scatter_reduce_mode(op, reduce);
  sp.include_self = include_self;
  return scatter_impl(OpId::scatter_reduce, v, out, self, dim, index, src, std::move(sp));
}

// ---- masked_select, nonzero ----

Tensor masked_select_impl(Variant v, const Tensor& out, const Tensor& self, const Tensor& mask) {
  const char* op = "masked_select";
  meta::check_defined(op, self, "self");
  meta::check_defined(op, mask, "mask");
  // Bool masks only: libtorch 1.13 takes a uint8 mask with a deprecation warning.
  TS_CHECK(mask.dtype() == kBool, op, ": expected BoolTensor for mask (got ", mask.dtype(), ")");
  const Tensor both[] = {self, mask};
  const DimVector shape = meta::broadcast_shapes(op, both, OpId::masked_select);
  const Device device = meta::common_device(op, both, OpId::masked_select);
  const Tensor inputs[] = {self.expand(shape), mask.expand(shape)};
  const int64_t n = count_nonzero_host(inputs[1]);
  OpParams p;
  const std::pair<size_t, Tensor> no_overlap[] = {{0, self}, {1, mask}};
  return run(OpId::masked_select, v, out, {n}, self.dtype(), self.dtype(), device, inputs, p,
             no_overlap);
}

Tensor nonzero_impl(Variant v, const Tensor& out, const Tensor& self) {
  const char* op = "nonzero";
  meta::check_defined(op, self, "self");
  const int64_t n = count_nonzero_host(self);
  const Tensor inputs[] = {self};
  OpParams p;
  const std::pair<size_t, Tensor> no_overlap[] = {{0, self}};
  return run(OpId::nonzero, v, out, {n, self.dim()}, kLong, self.dtype(), self.device(), inputs, p,
             no_overlap);
}

// ---- take, put ----

// Every value of index (int64) within [-n, n) of a tensor of n elements (ATen's take and put_).
void check_flat_index(const char* op, const Tensor& index, int64_t n) {
  meta::check_index_values(index, [&](int64_t i) {
    TS_CHECK(i >= -n && i < n, op, ": out of range: tried to access index ", i, " on a tensor of ",
             n, " elements. (argument 'index')");
  });
}

Tensor take_impl(Variant v, const Tensor& out, const Tensor& self, const Tensor& index) {
  const char* op = "take";
  meta::check_defined(op, self, "self");
  meta::check_defined(op, index, "index");
  TS_CHECK(index.dtype() == kLong, op, ": Expected a long tensor for index, but got ",
           index.dtype(), " (argument 'index')");
  TS_CHECK(self.numel() > 0 || index.numel() == 0, op,
           ": tried to take from an empty tensor (argument 'self')");
  const Tensor inputs[] = {self, index};
  const Device device = meta::common_device(op, inputs, OpId::take);
  check_flat_index(op, index, self.numel());
  OpParams p;
  const std::pair<size_t, Tensor> no_overlap[] = {{0, self}, {1, index}};
  return run(OpId::take, v, out, index.sizes(), self.dtype(), self.dtype(), device, inputs, p,
             no_overlap);
}

Tensor put_impl(Variant v, const Tensor& out, const Tensor& self, const Tensor& index,
                const Tensor& source, bool accumulate) {
  const char* op = meta::op_name(OpId::put, v);
  meta::check_defined(op, self, "self");
  meta::check_defined(op, index, "index");
  meta::check_defined(op, source, "source");
  TS_CHECK(index.dtype() == kLong, op, ": Expected a long tensor for index, but got ",
           index.dtype(), " (argument 'index')");
  TS_CHECK(self.dtype() == source.dtype(), op,
           ": self and source expected to have the same dtype, but got self.dtype = ", self.dtype(),
           " and source.dtype = ", source.dtype(), " (argument 'source')");
  TS_CHECK(source.numel() == index.numel(), op,
           ": Expected source and index to have the same number of elements, but got "
           "source.numel() = ",
           source.numel(), ", index.numel() = ", index.numel(), " (argument 'source')");
  TS_CHECK(self.numel() > 0 || index.numel() == 0, op,
           ": Tried to put elements into an empty tensor (argument 'self')");
  const Tensor all[] = {self, index, source};
  const Device device = meta::common_device(op, all, OpId::put);
  check_flat_index(op, index, self.numel());
  const Tensor inputs[] = {self, index.reshape({-1}), source.reshape({-1})};
  OpParams p;
  p.set(IndexPutParams{accumulate});
  std::vector<std::pair<size_t, Tensor>> no_overlap{{1, index}, {2, source}};
  if (v == Variant::Out) no_overlap.emplace_back(0, self);
  return run(OpId::put, v, out, self.sizes(), self.dtype(), self.dtype(), device, inputs, p,
             no_overlap);
}

// ---- index_copy, index_fill ----

// self's sizes without dim (empty for a 0-dim tensor).
DimVector sliced_sizes(const Tensor& t, int64_t dim) {
  DimVector s(t.sizes());
  if (!s.empty()) s.erase(static_cast<size_t>(dim));
  return s;
}

Tensor index_copy_impl(Variant v, const Tensor& out, const Tensor& self, int64_t dim,
                       const Tensor& index, const Tensor& source) {
  const char* op = meta::op_name(OpId::index_copy, v);
  meta::check_defined(op, self, "self");
  meta::check_defined(op, index, "index");
  meta::check_defined(op, source, "source");
  dim = wrap_dim(dim, self.dim(), op);
  TS_CHECK(index.dim() < 2, op, ": Index should have dimension 1 or 0 (got ", index.dim(),
           ") (argument 'index')");
  const int64_t n = index.numel();
  TS_CHECK(source.dim() > 0 || n == 1, op,
           ": When source is scalar, index should have one element (got ", n,
           ") (argument 'index')");
  TS_CHECK(source.dim() == self.dim() || source.dim() == 0 || self.dim() == 0, op,
           ": When source and destination are not scalars, their dimensionality must match. "
           "Source dimensionality (",
           source.dim(), "), destination dimensionality (", self.dim(), ") (argument 'source')");
  TS_CHECK(index.dtype() == kLong, op, ": Expected a long tensor for index, but got ",
           index.dtype(), " (argument 'index')");
  TS_CHECK(self.dtype() == source.dtype(), op,
           ": self and source expected to have the same dtype, but got (self) ", self.dtype(),
           " and (source) ", source.dtype(), " (argument 'source')");
  const DimVector ss = sliced_sizes(self, dim);
  const DimVector rs = source.dim() == 0 ? DimVector{} : sliced_sizes(source, dim);
  TS_CHECK(IntArrayRef(ss) == IntArrayRef(rs), op,
           ": Source/destination tensor must have same slice shapes. Destination slice shape: ",
           IntArrayRef(ss), " at dimension ", dim, " and source slice shape: ", IntArrayRef(rs),
           " at dimension 0. (argument 'source')");
  TS_CHECK(source.dim() == 0 || n == source.sizes()[dim], op, ": Number of indices (", n,
           ") should be equal to source.size(dim) (", source.dim() == 0 ? 1 : source.sizes()[dim],
           ") (argument 'index')");
  const Tensor inputs[] = {self, index, source};
  const Device device = meta::common_device(op, inputs, OpId::index_copy);
  const int64_t size = nonempty_size(self, dim);
  meta::check_index_values(index, [&](int64_t i) {
    TS_CHECK(i >= 0 && i < size, op, ": index ", i, " is out of bounds for dimension ", dim,
             " with size ", size, " (argument 'index')");
  });
  OpParams p;
  ScatterParams sp;
  sp.dim = dim;
  p.set(sp);
  std::vector<std::pair<size_t, Tensor>> no_overlap{{1, index}, {2, source}};
  if (v == Variant::Out) no_overlap.emplace_back(0, self);
  return run(OpId::index_copy, v, out, self.sizes(), self.dtype(), self.dtype(), device, inputs, p,
             no_overlap);
}

// value: the Scalar overload (value_t undefined) or the 0-dim Tensor one.
Tensor index_fill_impl(Variant v, const Tensor& out, const Tensor& self, int64_t dim,
                       const Tensor& index, const std::optional<Scalar>& value,
                       const Tensor& value_t) {
  const char* op = meta::op_name(OpId::index_fill, v);
  meta::check_defined(op, self, "self");
  meta::check_defined(op, index, "index");
  dim = wrap_dim(dim, self.dim(), op);
  TS_CHECK(index.dim() <= 1, op, ": Index has to be a vector/scalar (argument 'index')");
  TS_CHECK(index.dtype() == kLong, op, ": Expected a long tensor for index, but got ",
           index.dtype(), " (argument 'index')");
  std::vector<Tensor> inputs{self, index};
  if (value) {
    meta::check_scalar_fits(op, *value, self.dtype(), "value");
  } else {
    meta::check_defined(op, value_t, "value");
    TS_CHECK(value_t.dim() == 0, op,
             ": only supports a 0-dimensional value tensor, but got tensor with ", value_t.dim(),
             " dimension(s). (argument 'value')");
    inputs.push_back(value_t.dtype() == self.dtype() ? value_t : value_t.to(self.dtype()));
  }
  const Device device = meta::common_device(op, inputs, OpId::index_fill);
  const int64_t size = nonempty_size(self, dim);
  meta::check_index_values(index, [&](int64_t i) {
    TS_CHECK(i >= -size && i < size, op, ": index ", i, " is out of bounds for dimension ", dim,
             " with size ", size, " (argument 'index')");
  });
  OpParams p;
  ScatterParams sp;
  sp.dim = dim;
  sp.value = value;
  p.set(std::move(sp));
  std::vector<std::pair<size_t, Tensor>> no_overlap{{1, index}};
  if (!value) no_overlap.emplace_back(2, value_t);
  if (v == Variant::Out) no_overlap.emplace_back(0, self);
  return run(OpId::index_fill, v, out, self.sizes(), self.dtype(), self.dtype(), device, inputs, p,
             no_overlap);
}

// ---- masked_scatter ----

// As ATen: in place the mask broadcasts to self's shape; otherwise self and mask broadcast
// together (expand_outplace) and the result has their shape.
// Note [masked_scatter order]
// The positions where the mask is true take source's elements in order: positions in the
// result's row-major order, source read in its own row-major order, whatever either's strides.
// libtorch 1.13 walks a transposed self in memory order in place (known_differences.json).
Tensor masked_scatter_impl(Variant v, const Tensor& out, const Tensor& self, const Tensor& mask,
                           const Tensor& source) {
  const char* op = meta::op_name(OpId::masked_scatter, v);
  meta::check_defined(op, self, "self");
  meta::check_defined(op, mask, "mask");
  meta::check_defined(op, source, "source");
  // Bool masks only, as current PyTorch (libtorch 1.13 takes uint8 with a deprecation warning).
  TS_CHECK(mask.dtype() == kBool, op,
           ": masked_scatter_ only supports boolean masks, but got mask with dtype ", mask.dtype(),
           " (argument 'mask')");
  TS_CHECK(self.dtype() == source.dtype(), op,
           ": expected self and source to have same dtypes but got ", self.dtype(), " and ",
           source.dtype(), " (argument 'source')");
  const Tensor both[] = {self, mask};
  const DimVector shape = meta::broadcast_shapes(op, both, OpId::masked_scatter);
  if (v == Variant::InPlace) {
    TS_CHECK(IntArrayRef(shape) == self.sizes(), op, ": the mask of shape ", mask.sizes(),
             " cannot be broadcast to self's shape ", self.sizes(), " (argument 'mask')");
  }
  const Tensor all[] = {self, mask, source};
  const Device device = meta::common_device(op, all, OpId::masked_scatter);
  const Tensor m = mask.expand(shape);
  const int64_t n = count_nonzero_host(m);
  TS_CHECK(source.numel() >= n, op, ": Number of elements of source < number of ones in mask (",
           source.numel(), " < ", n, ") (argument 'source')");
  const Tensor inputs[] = {v == Variant::InPlace ? self : self.expand(shape), m, source};
  OpParams p;
  std::vector<std::pair<size_t, Tensor>> no_overlap{{1, mask}, {2, source}};
  if (v == Variant::Out) no_overlap.emplace_back(0, self);
  return run(OpId::masked_scatter, v, out, shape, self.dtype(), self.dtype(), device, inputs, p,
             no_overlap);
}

}  // namespace

// ---- index, index_put ----
Tensor index(const Tensor& self, OptionalTensorList indices) {
  return index_impl(Variant::Functional, {}, self, indices);
}
Tensor& index_out(const Tensor& out, const Tensor& self, OptionalTensorList indices) {
  index_impl(Variant::Out, out, self, indices);
  return const_cast<Tensor&>(out);
}
Tensor Tensor::index(ArrayRef<std::optional<Tensor>> indices) const {
  return ts::index(*this, indices);
}
Tensor index_put(const Tensor& self, OptionalTensorList indices, const Tensor& values,
                 bool accumulate) {
  return index_put_impl(Variant::Functional, {}, self, indices, values, accumulate);
}
Tensor& index_put_(const Tensor& self, OptionalTensorList indices, const Tensor& values,
                   bool accumulate) {
  index_put_impl(Variant::InPlace, {}, self, indices, values, accumulate);
  return const_cast<Tensor&>(self);
}
Tensor& index_put_out(const Tensor& out, const Tensor& self, OptionalTensorList indices,
                      const Tensor& values, bool accumulate) {
  index_put_impl(Variant::Out, out, self, indices, values, accumulate);
  return const_cast<Tensor&>(out);
}
Tensor Tensor::index_put(ArrayRef<std::optional<Tensor>> indices, const Tensor& values,
                         bool accumulate) const {
  return ts::index_put(*this, indices, values, accumulate);
}
Tensor& Tensor::index_put_(ArrayRef<std::optional<Tensor>> indices, const Tensor& values,
                           bool accumulate) const {
  return ts::index_put_(*this, indices, values, accumulate);
}

// ---- index_add ----
Tensor index_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source,
                 const Scalar& alpha) {
  return index_add_impl(Variant::Functional, {}, self, dim, index, source, alpha);
}
Tensor& index_add_out(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index,
                      const Tensor& source, const Scalar& alpha) {
  index_add_impl(Variant::Out, out, self, dim, index, source, alpha);
  return const_cast<Tensor&>(out);
}
Tensor Tensor::index_add(int64_t dim, const Tensor& index, const Tensor& source,
                         const Scalar& alpha) const {
  return ts::index_add(*this, dim, index, source, alpha);
}
Tensor& Tensor::index_add_(int64_t dim, const Tensor& index, const Tensor& source,
                           const Scalar& alpha) const {
  index_add_impl(Variant::InPlace, {}, *this, dim, index, source, alpha);
  return const_cast<Tensor&>(*this);
}

// ---- scatter: (src | value) x (no reduce | reduce), each functional, out= and in-place ----
namespace {
Tensor scatter_src(Variant v, const Tensor& out, const Tensor& self, int64_t dim,
                   const Tensor& index, const Tensor& src, ScatterReduce r) {
  meta::check_defined(meta::op_name(OpId::scatter, v), src, "src");
  return scatter_impl(OpId::scatter, v, out, self, dim, index, src, scatter_params({}, r));
}
Tensor scatter_value(Variant v, const Tensor& out, const Tensor& self, int64_t dim,
                     const Tensor& index, const Scalar& value, ScatterReduce r) {
  return scatter_impl(OpId::scatter, v, out, self, dim, index, {}, scatter_params(value, r));
}
ScatterReduce reduce_of(Variant v, std::string_view reduce) {
  return scatter_mode(meta::op_name(OpId::scatter, v), reduce);
}
}  // namespace

Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  return scatter_src(Variant::Functional, {}, self, dim, index, src, ScatterReduce::None);
}
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  return scatter_value(Variant::Functional, {}, self, dim, index, value, ScatterReduce::None);
}
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
               std::string_view reduce) {
  const Variant v = Variant::Functional;
  return scatter_src(v, {}, self, dim, index, src, reduce_of(v, reduce));
}
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value,
               std::string_view reduce) {
  const Variant v = Variant::Functional;
  return scatter_value(v, {}, self, dim, index, value, reduce_of(v, reduce));
}
Tensor& scatter_out(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index,
                    const Tensor& src) {
  scatter_src(Variant::Out, out, self, dim, index, src, ScatterReduce::None);
  return const_cast<Tensor&>(out);
}
Tensor& scatter_out(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index,
                    const Scalar& value) {
  scatter_value(Variant::Out, out, self, dim, index, value, ScatterReduce::None);
  return const_cast<Tensor&>(out);
}
Tensor& scatter_out(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index,
                    const Tensor& src, std::string_view reduce) {
  scatter_src(Variant::Out, out, self, dim, index, src, reduce_of(Variant::Out, reduce));
  return const_cast<Tensor&>(out);
}
Tensor& scatter_out(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index,
                    const Scalar& value, std::string_view reduce) {
  scatter_value(Variant::Out, out, self, dim, index, value, reduce_of(Variant::Out, reduce));
  return const_cast<Tensor&>(out);
}
Tensor Tensor::scatter(int64_t dim, const Tensor& index, const Tensor& src) const {
  return ts::scatter(*this, dim, index, src);
}
Tensor Tensor::scatter(int64_t dim, const Tensor& index, const Scalar& value) const {
  return ts::scatter(*this, dim, index, value);
}
Tensor Tensor::scatter(int64_t dim, const Tensor& index, const Tensor& src,
                       std::string_view reduce) const {
  return ts::scatter(*this, dim, index, src, reduce);
}
Tensor Tensor::scatter(int64_t dim, const Tensor& index, const Scalar& value,
                       std::string_view reduce) const {
  return ts::scatter(*this, dim, index, value, reduce);
}
Tensor& Tensor::scatter_(int64_t dim, const Tensor& index, const Tensor& src) const {
  scatter_src(Variant::InPlace, {}, *this, dim, index, src, ScatterReduce::None);
  return const_cast<Tensor&>(*this);
}
Tensor& Tensor::scatter_(int64_t dim, const Tensor& index, const Scalar& value) const {
  scatter_value(Variant::InPlace, {}, *this, dim, index, value, ScatterReduce::None);
  return const_cast<Tensor&>(*this);
}
Tensor& Tensor::scatter_(int64_t dim, const Tensor& index, const Tensor& src,
                         std::string_view reduce) const {
  scatter_src(Variant::InPlace, {}, *this, dim, index, src, reduce_of(Variant::InPlace, reduce));
  return const_cast<Tensor&>(*this);
}
Tensor& Tensor::scatter_(int64_t dim, const Tensor& index, const Scalar& value,
                         std::string_view reduce) const {
  scatter_value(Variant::InPlace, {}, *this, dim, index, value,
                reduce_of(Variant::InPlace, reduce));
  return const_cast<Tensor&>(*this);
}

// ---- scatter_reduce ----
Tensor scatter_reduce(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                      std::string_view reduce, bool include_self) {
  return scatter_reduce_impl(Variant::Functional, {}, self, dim, index, src, reduce, include_self);
}
Tensor& scatter_reduce_out(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index,
                           const Tensor& src, std::string_view reduce, bool include_self) {
  scatter_reduce_impl(Variant::Out, out, self, dim, index, src, reduce, include_self);
  return const_cast<Tensor&>(out);
}
Tensor Tensor::scatter_reduce(int64_t dim, const Tensor& index, const Tensor& src,
                              std::string_view reduce, bool include_self) const {
  return ts::scatter_reduce(*this, dim, index, src, reduce, include_self);
}
Tensor& Tensor::scatter_reduce_(int64_t dim, const Tensor& index, const Tensor& src,
                                std::string_view reduce, bool include_self) const {
  scatter_reduce_impl(Variant::InPlace, {}, *this, dim, index, src, reduce, include_self);
  return const_cast<Tensor&>(*this);
}

// ---- masked_select, nonzero ----
Tensor masked_select(const Tensor& self, const Tensor& mask) {
  return masked_select_impl(Variant::Functional, {}, self, mask);
}
Tensor& masked_select_out(const Tensor& out, const Tensor& self, const Tensor& mask) {
  masked_select_impl(Variant::Out, out, self, mask);
  return const_cast<Tensor&>(out);
}
Tensor Tensor::masked_select(const Tensor& mask) const {
  return ts::masked_select(*this, mask);
}
Tensor nonzero(const Tensor& self) {
  return nonzero_impl(Variant::Functional, {}, self);
}
Tensor& nonzero_out(const Tensor& out, const Tensor& self) {
  nonzero_impl(Variant::Out, out, self);
  return const_cast<Tensor&>(out);
}
Tensor Tensor::nonzero() const {
  return ts::nonzero(*this);
}
// As ATen's nonzero_numpy: a 0-dim self is read as 1-D.
std::vector<Tensor> nonzero_numpy(const Tensor& self) {
  meta::check_defined("nonzero_numpy", self, "self");
  const Tensor nz = ts::nonzero(self.dim() == 0 ? self.unsqueeze(0) : self);
  return nz.unbind(1);
}

// ---- take, put, index_copy, index_fill, masked_scatter ----
Tensor take(const Tensor& self, const Tensor& index) {
  return take_impl(Variant::Functional, {}, self, index);
}
Tensor& take_out(const Tensor& out, const Tensor& self, const Tensor& index) {
  take_impl(Variant::Out, out, self, index);
  return const_cast<Tensor&>(out);
}
Tensor Tensor::take(const Tensor& index) const {
  return ts::take(*this, index);
}
Tensor put(const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate) {
  return put_impl(Variant::Functional, {}, self, index, source, accumulate);
}
Tensor& put_out(const Tensor& out, const Tensor& self, const Tensor& index, const Tensor& source,
                bool accumulate) {
  put_impl(Variant::Out, out, self, index, source, accumulate);
  return const_cast<Tensor&>(out);
}
Tensor Tensor::put(const Tensor& index, const Tensor& source, bool accumulate) const {
  return ts::put(*this, index, source, accumulate);
}
Tensor& Tensor::put_(const Tensor& index, const Tensor& source, bool accumulate) const {
  put_impl(Variant::InPlace, {}, *this, index, source, accumulate);
  return const_cast<Tensor&>(*this);
}
Tensor index_copy(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source) {
  return index_copy_impl(Variant::Functional, {}, self, dim, index, source);
}
Tensor& index_copy_out(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index,
                       const Tensor& source) {
  index_copy_impl(Variant::Out, out, self, dim, index, source);
  return const_cast<Tensor&>(out);
}
Tensor Tensor::index_copy(int64_t dim, const Tensor& index, const Tensor& source) const {
  return ts::index_copy(*this, dim, index, source);
}
Tensor& Tensor::index_copy_(int64_t dim, const Tensor& index, const Tensor& source) const {
  index_copy_impl(Variant::InPlace, {}, *this, dim, index, source);
  return const_cast<Tensor&>(*this);
}
Tensor index_fill(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  return index_fill_impl(Variant::Functional, {}, self, dim, index, value, {});
}
Tensor index_fill(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& value) {
  return index_fill_impl(Variant::Functional, {}, self, dim, index, std::nullopt, value);
}
Tensor& index_fill_out(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index,
                       const Scalar& value) {
  index_fill_impl(Variant::Out, out, self, dim, index, value, {});
  return const_cast<Tensor&>(out);
}
Tensor& index_fill_out(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index,
                       const Tensor& value) {
  index_fill_impl(Variant::Out, out, self, dim, index, std::nullopt, value);
  return const_cast<Tensor&>(out);
}
Tensor Tensor::index_fill(int64_t dim, const Tensor& index, const Scalar& value) const {
  return ts::index_fill(*this, dim, index, value);
}
Tensor Tensor::index_fill(int64_t dim, const Tensor& index, const Tensor& value) const {
  return ts::index_fill(*this, dim, index, value);
}
Tensor& Tensor::index_fill_(int64_t dim, const Tensor& index, const Scalar& value) const {
  index_fill_impl(Variant::InPlace, {}, *this, dim, index, value, {});
  return const_cast<Tensor&>(*this);
}
Tensor& Tensor::index_fill_(int64_t dim, const Tensor& index, const Tensor& value) const {
  index_fill_impl(Variant::InPlace, {}, *this, dim, index, std::nullopt, value);
  return const_cast<Tensor&>(*this);
}
Tensor masked_scatter(const Tensor& self, const Tensor& mask, const Tensor& source) {
  return masked_scatter_impl(Variant::Functional, {}, self, mask, source);
}
Tensor& masked_scatter_out(const Tensor& out, const Tensor& self, const Tensor& mask,
                           const Tensor& source) {
  masked_scatter_impl(Variant::Out, out, self, mask, source);
  return const_cast<Tensor&>(out);
}
Tensor Tensor::masked_scatter(const Tensor& mask, const Tensor& source) const {
  return ts::masked_scatter(*this, mask, source);
}
Tensor& Tensor::masked_scatter_(const Tensor& mask, const Tensor& source) const {
  masked_scatter_impl(Variant::InPlace, {}, *this, mask, source);
  return const_cast<Tensor&>(*this);
}

}  // namespace ts

// ---- derivatives (Note [Adding a derivative]) ----
// KernelCall inputs as at the top of this file; nonzero is not differentiable.
namespace ts::autograd {
namespace {

// The defined index inputs of an index / index_put call, from input `first` on, as a list.
std::vector<std::optional<Tensor>> saved_indices(const BackwardArgs& a, size_t first) {
  std::vector<std::optional<Tensor>> l;
  for (size_t i = first; i < a.num_inputs(); ++i) {
    const Tensor& t = a.input(i);
    l.push_back(t.defined() ? std::optional<Tensor>(t) : std::nullopt);
  }
  return l;
}

// Inputs 1.. of index (2.. of index_put): saved when defined.
constexpr Saves save_from(int first) {
  Saves s;
  for (int i = first; i < 32; ++i) s.inputs |= 1u << i;
  return s;
}

// g (of index's shape) zero-padded to `sizes` (src may be larger than index along any dim).
Tensor pad_to(const Tensor& g, IntArrayRef sizes) {
  if (g.sizes() == sizes) return g;
  Tensor padded = zeros(sizes, g.options());
  Tensor part = padded;
  for (int64_t d = 0; d < g.dim(); ++d) part = part.narrow(d, 0, g.size(d));
  part.copy_(g);
  return padded;
}

// ATen's scatter_reduce_backward (derivatives.yaml's scatter_reduce.two): {grad_self, grad_src}.
std::pair<Tensor, Tensor> scatter_reduce_backward(const Tensor& grad, const Tensor& self,
                                                  int64_t dim, const Tensor& index,
                                                  const Tensor& src, ScatterReduce reduce,
                                                  bool include_self, const Tensor& result) {
  Tensor gs, gsrc;
  switch (reduce) {
    case ScatterReduce::Sum:
      gs = grad;
      gsrc = grad.gather(dim, index);
      break;
    case ScatterReduce::Prod: {
      // Note [scatter_reduce prod gradient]: as ATen, a zero in self or src is handled without
      // dividing by it; two or more zeros reaching one element give zero gradients to each.
      const char* r = "prod";
      const Tensor masked_self = self.masked_fill(eq(self, 0), 1);
      const Tensor masked_self_result =
          masked_self.scatter_reduce(dim, index, src, r, include_self);
      gs = grad * masked_self_result / masked_self;
      const Tensor src_zero = eq(src, 0);
      const Tensor src_num_zeros =
          zeros_like(self).scatter_add(dim, index, src_zero.to(self.dtype())).gather(dim, index);
      const Tensor src_single_zero = logical_and(src_zero, eq(src_num_zeros, 1));
      const Tensor masked_src = src.masked_fill(src_single_zero, 1);
      const Tensor masked_src_result = self.scatter_reduce(dim, index, masked_src, r, include_self);
      const Tensor grad_src1 =
          where(src_single_zero, (grad * masked_src_result).gather(dim, index),
                (grad * result).gather(dim, index) / src.masked_fill(src_zero, 1));
      gsrc = grad_src1;
      break;
    }
    case ScatterReduce::Mean: {
      Tensor n = include_self ? ones_like(grad) : zeros_like(grad);
      n = n.scatter_add(dim, index, ones_like(src));
      n = n.masked_fill(eq(n, 0), 1);
      gs = grad / n;
      gsrc = grad.gather(dim, index) / n.gather(dim, index);
      break;
    }
    case ScatterReduce::Amax:
    case ScatterReduce::Amin: {
      // The gradient is shared evenly among the values equal to the result (ATen).
      const Tensor value = result.gather(dim, index);
      const Tensor self_is_result = eq(self, result).to(self.dtype());
      const Tensor src_is_result = eq(src, value).to(self.dtype());
      const Tensor n = self_is_result.scatter_add(dim, index, src_is_result);
      const Tensor distributed = grad / n;
      gs = self_is_result * distributed;
      gsrc = src_is_result * distributed.gather(dim, index);
      break;
    }
    case ScatterReduce::None:
      break;
  }
  if (!include_self) gs = gs.scatter(dim, index, Scalar(0));
  return {gs, gsrc};
}

}  // namespace

TS_REGISTER_DERIVATIVES(advanced_index) {
  // index.Tensor(Tensor self, Tensor?[] indices) -> Tensor
  //   self: index_backward(grad.new_zeros(sizes), indices, grad) (index_put, accumulate=True)
  //   indices: non-differentiable
  m.def(OpId::index, save_from(1), [](const BackwardArgs& a) -> Grads {
    const Tensor& g = a.grad();
    Grads out(a.num_inputs());
    out[0] = zeros(a.input_sizes(0), g.options()).index_put_(saved_indices(a, 1), g, true);
    return out;
  });
  // index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor
  //   self: accumulate ? grad : grad.index_put(indices, zeros_like(values), false)
  //   values: grad.index(indices) (summed to values' shape by its expand)
  m.def(OpId::index_put, save_from(2), [](const BackwardArgs& a) -> Grads {
    const Tensor& g = a.grad();
    const auto indices = saved_indices(a, 2);
    Grads out(a.num_inputs());
    if (a.needs_grad(0)) {
      out[0] = a.p.get<IndexPutParams>().accumulate
                   ? g
                   : g.index_put(indices, zeros(a.input_sizes(1), g.options()), false);
    }
    if (a.needs_grad(1)) out[1] = g.index(indices);
    return out;
  });
  // index_add(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor
  //   self: grad    index: non-differentiable
  //   source: maybe_multiply(grad.index_select(dim, index), alpha) in source's shape
  m.def(OpId::index_add, save_inputs({1}), [](const BackwardArgs& a) -> Grads {
    const Tensor& g = a.grad();
    Tensor gsrc;
    if (a.needs_grad(2)) {
      const ScatterParams& sp = a.p.get<ScatterParams>();
      gsrc = g.index_select(sp.dim, a.input(1)).reshape(a.input_sizes(2));
      if (!(sp.alpha.to<double>() == 1)) gsrc = gsrc * sp.alpha;
    }
    return {g, Tensor(), gsrc};
  });
  // scatter.src(Tensor self, int dim, Tensor index, Tensor src) -> Tensor
  //   self: grad.scatter(dim, index, 0)    index: non-differentiable    src: grad.gather(dim,
  //   index)
  // scatter.value(Tensor self, int dim, Tensor index, Scalar value) -> Tensor
  //   self: grad.scatter(dim, index, 0)
  // scatter.reduce and scatter.value_reduce have no formula in derivatives.yaml.
  m.def(
      OpId::scatter, save_inputs({1}),
      [](const BackwardArgs& a) -> Grads {
        const ScatterParams& sp = a.p.get<ScatterParams>();
        TS_CHECK(sp.reduce == ScatterReduce::None,
                 "the derivative for 'scatter' with a reduce argument is not implemented");
        const Tensor& g = a.grad();
        const Tensor& index = a.input(1);
        Grads out(a.num_inputs());
        if (a.needs_grad(0)) out[0] = g.scatter(sp.dim, index, Scalar(0));
        if (a.num_inputs() == 3 && a.needs_grad(2)) {
          out[2] = pad_to(g.gather(sp.dim, index), a.input_sizes(2));
        }
        return out;
      },
      [](const KernelCall& c) {  // ATen's nodes: scatter.src 0, scatter.value 1
        return c.inputs.size() == 3 ? "ScatterBackward0" : "ScatterBackward1";
      });
  // scatter_reduce.two(Tensor self, int dim, Tensor index, Tensor src, str reduce, *,
  //                    bool include_self=True) -> Tensor
  //   self, src: scatter_reduce_backward(grad, self, dim, index, src, reduce, include_self, result)
  m.def(OpId::scatter_reduce, save_inputs({0, 1, 2}) | save_output(),
        [](const BackwardArgs& a) -> Grads {
          const ScatterParams& sp = a.p.get<ScatterParams>();
          const auto grads =
              scatter_reduce_backward(a.grad(), a.input(0), sp.dim, a.input(1), a.input(2),
                                      sp.reduce, sp.include_self, a.output());
          return {grads.first, Tensor(), pad_to(grads.second, a.input_sizes(2))};
        });
  // masked_select(Tensor self, Tensor mask) -> Tensor
  //   self: masked_select_backward(grad, self, mask) (zeros with grad put where mask is true;
  //   summed to self's shape by its expand)    mask: non-differentiable
  m.def(OpId::masked_select, save_inputs({1}), [](const BackwardArgs& a) -> Grads {
    const Tensor& g = a.grad();
    const Tensor z = zeros(a.input_sizes(0), g.options());
    return {z.index_put({std::optional<Tensor>(a.input(1))}, g, false), Tensor()};
  });
  // take(Tensor self, Tensor index) -> Tensor
  //   self: take_backward(grad, self, index) (zeros with grad put, accumulate=True)
  //   index: non-differentiable
  m.def(OpId::take, save_inputs({1}), [](const BackwardArgs& a) -> Grads {
    const Tensor& g = a.grad();
    return {zeros(a.input_sizes(0), g.options()).put_(a.input(1), g, true), Tensor()};
  });
  // put(Tensor self, Tensor index, Tensor source, bool accumulate=False) -> Tensor
  //   self: accumulate ? grad : grad.put(index, zeros_like(source), false)
  //   index: non-differentiable    source: grad.take(index).reshape_as(source)
  m.def(OpId::put, save_inputs({1}), [](const BackwardArgs& a) -> Grads {
    const Tensor& g = a.grad();
    Grads out(a.num_inputs());
    if (a.needs_grad(0)) {
      out[0] = a.p.get<IndexPutParams>().accumulate
                   ? g
                   : g.put(a.input(1), zeros(a.input_sizes(2), g.options()), false);
    }
    if (a.needs_grad(2)) out[2] = g.take(a.input(1)).reshape(a.input_sizes(2));
    return out;
  });
  // index_copy(Tensor self, int dim, Tensor index, Tensor source) -> Tensor
  //   self: grad.index_fill(dim, index, 0)    index: non-differentiable
  //   source: grad.index_select(dim, index) in source's shape
  m.def(OpId::index_copy, save_inputs({1}), [](const BackwardArgs& a) -> Grads {
    const Tensor& g = a.grad();
    const int64_t dim = a.p.get<ScatterParams>().dim;
    Grads out(a.num_inputs());
    if (a.needs_grad(0)) out[0] = g.index_fill(dim, a.input(1), Scalar(0));
    if (a.needs_grad(2)) {
      const Tensor gd = g.dim() == 0 ? g.reshape({1}) : g;
      out[2] = gd.index_select(g.dim() == 0 ? 0 : dim, a.input(1).reshape({-1}))
                   .reshape(a.input_sizes(2));
    }
    return out;
  });
  // index_fill.int_Scalar(Tensor self, int dim, Tensor index, Scalar value) -> Tensor
  //   self: grad.index_fill(dim, index, 0)    index: non-differentiable
  // index_fill.int_Tensor(Tensor self, int dim, Tensor index, Tensor value) -> Tensor
  //   value: grad.index_select(dim, std::get<0>(at::_unique(index, false))).sum()
  m.def(OpId::index_fill, save_inputs({1}), [](const BackwardArgs& a) -> Grads {
    const Tensor& g = a.grad();
    const int64_t dim = a.p.get<ScatterParams>().dim;
    Grads out(a.num_inputs());
    if (a.needs_grad(0)) out[0] = g.index_fill(dim, a.input(1), Scalar(0));
    if (a.num_inputs() == 3 && a.needs_grad(2)) {
      const Tensor gd = g.dim() == 0 ? g.reshape({1}) : g;
      const int64_t size = gd.sizes()[g.dim() == 0 ? 0 : dim];
      const Tensor idx = a.input(1).reshape({-1});
      // Each filled slice once: the wrapped values, unique (ATen's _unique).
      const Tensor wrapped = where(lt(idx, 0), idx + size, idx);
      const Tensor once = std::get<0>(_unique2(wrapped, false));
      out[2] = gd.index_select(g.dim() == 0 ? 0 : dim, once).sum();
    }
    return out;
  });
  // masked_scatter(Tensor self, Tensor mask, Tensor source) -> Tensor
  //   self: grad.masked_fill(mask, 0) (summed to self's shape by its expand)
  //   mask: non-differentiable
  //   source: masked_scatter_backward(grad, mask, source.sizes()): grad.masked_select(mask),
  //           zero-padded to source's numel, in source's shape
  m.def(OpId::masked_scatter, save_inputs({1}), [](const BackwardArgs& a) -> Grads {
    const Tensor& g = a.grad();
    const Tensor& mask = a.input(1);
    Grads out(a.num_inputs());
    if (a.needs_grad(0)) out[0] = g.masked_fill(mask, 0);
    if (a.needs_grad(2)) {
      const Tensor selected = g.masked_select(mask);
      int64_t n = 1;
      for (int64_t s : a.input_sizes(2)) n *= s;
      const int64_t pad = n - selected.numel();
      const Tensor flat =
          pad > 0 ? cat(std::vector<Tensor>{selected, zeros({pad}, g.options())}) : selected;
      out[2] = flat.reshape(a.input_sizes(2));
    }
    return out;
  });
}

}  // namespace ts::autograd
