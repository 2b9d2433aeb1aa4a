// Searches in sorted sequences and unique (issue 16): meta for searchsorted, bucketize, _unique2,
// unique_dim, unique_consecutive and torch.unique (ts::unique). None is differentiable (ATen).
// KernelCall layouts:
//   searchsorted: inputs {sorted_sequence, self[, sorter (int64)]}, both values in the common
//                 dtype (promote_types, as ATen's searchsorted_maybe_trim_input_tensors);
//                 output int64 (int32 with out_int32) of self's shape. SearchParams.
//   bucketize:    inputs {self, boundaries (1-D)} likewise.
//   _unique2, unique_dim, unique_consecutive: inputs {self}; outputs {values, inverse, counts,
//                 num (0-dim int64)}: values a 1-D buffer of self.numel() elements whose first
//                 elements the kernel fills with the result (Note [Unique outputs]), inverse of
//                 its final shape, counts a 1-D buffer of one entry per item (or empty), num the
//                 number of unique items. UniqueParams (dim -1: the flattened forms).
//
// Note [Search order]
// The result for each value v is ATen's binary search over its row of the sequence, read
// through sorter when given: left (the default) the first position whose element is not less
// than v, found with the predicate !(s[mid] >= v); right with !(s[mid] > v). The sequence is not
// checked to be sorted, and a NaN takes whatever the search's comparisons give (for v NaN, the
// row's end); every kernel set runs the same search, so the answers agree on any input.
//
// Note [Unique order]
// Items (elements, or slices along dim) are ordered as sort orders values (NaN last, -0 ties
// with +0), slices lexicographically, ties by position (a stable sort). Two items are equal when
// every element compares equal, so each NaN is an item of its own, as current PyTorch's CPU
// unique (sort based, IsUnique with equal_nan false; libtorch 1.13's hash-set unique looks NaN up
// in vain and gives it inverse 0). sorted=False gives the sorted result too: torch.unique's
// documentation, "the CUDA implementation and the CPU implementation ... always sort the tensor
// at the beginning regardless of the sort argument" (libtorch 1.13 returns its hash set's order:
// conformance/known_differences.json). A unique value is the group's first item in that order;
// unique_consecutive groups runs of equal neighbours and keeps the run's first item.
//
// Note [Unique outputs]
// The result's size is known only once the kernel has run, and kernels never reallocate their
// outputs (Note [Writing outputs]): meta hands out buffers of the largest size, the kernel writes
// the values contiguous in the result's shape at the buffer's start and their number in `num`,
// and meta returns views of that many. As ATen, the flattened forms return inverse and counts
// empty ({0}) unless asked for; unique_dim and unique_consecutive with a dim always return both.
#include <climits>
#include <optional>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "index_checks.h"
#include "meta.h"
#include "touchstone/op_scope.h"
#include "touchstone/ops.h"
#include "touchstone/promotion.h"

namespace ts {
namespace {

using meta::Variant;

const char* name_of(OpId op) {
  return op_info(op).name.data();
}

// ---- searchsorted, bucketize ----

// ATen's searchsorted_pre_check, with every message naming its argument.
void check_search(const char* op, const Tensor& seq, const Tensor& self, const Tensor& sorter,
                  bool out_int32, const char* seq_arg) {
  TS_CHECK(seq.dim() != 0, op,
           ": boundaries tensor should have positive dimension, but got 0 dimension (argument '",
           seq_arg, "')");
  TS_CHECK(self.dim() > 0 || seq.dim() == 1, op,
           ": input value can be a scalar only when boundaries tensor dimension is 1, but we got "
           "boundaries tensor dim(",
           seq.dim(), ") and input value's dim(", self.dim(), ") numel(", self.numel(),
           ") (argument 'self')");
  bool matched = seq.dim() == 1;
  if (!matched && seq.dim() == self.dim()) {
    matched = true;
    for (int64_t d = 0; d + 1 < seq.dim(); ++d) matched = matched && seq.size(d) == self.size(d);
  }
  TS_CHECK(matched, op,
           ": boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries "
           "tensor and input value tensor must match, but we got boundaries tensor ",
           seq.sizes(), " and input value tensor ", self.sizes(), " (argument '", seq_arg, "')");
  const int64_t n = seq.sizes().back();
  TS_CHECK(!out_int32 || n < INT_MAX, op,
           ": the size of boundaries' last dimension should be less than ", INT_MAX,
           ", but we got ", n, " (argument 'out_int32')");
  if (!sorter.defined()) return;
  TS_CHECK(sorter.dtype() == kLong, op, ": sorter must be a tensor of long dtype but got dtype ",
           sorter.dtype(), " (argument 'sorter')");
  TS_CHECK(sorter.sizes() == seq.sizes(), op,
           ": boundary and sorter must have the same size, but got boundary tensor ", seq.sizes(),
           " and got sorter tensor ", sorter.sizes(), " (argument 'sorter')");
  meta::check_index_values(sorter, [&](int64_t i) {
    TS_CHECK(i >= 0 && i < n, op, ": sorter index out of range (got ", i, " for a size of ", n,
             ") (argument 'sorter')");
  });
}

// searchsorted (sorter may be undefined) or bucketize (seq is boundaries).
Tensor search_impl(OpId id, Variant v, const Tensor& out, const Tensor& seq, const Tensor& self,
                   bool out_int32, bool right, std::optional<std::string_view> side,
                   const Tensor& sorter) {
  const char* op = name_of(id);
  const UserOpScope scope(op);
  const bool bucketize = id == OpId::bucketize;
  const char* seq_arg = bucketize ? "boundaries" : "sorted_sequence";
  meta::check_defined(op, seq, seq_arg);
  meta::check_defined(op, self, "self");
  if (side) {
    TS_CHECK(*side == "left" || *side == "right", op,
             ": side can only be 'left' or 'right' but got ", *side, " (argument 'side')");
    TS_CHECK(!(right && *side == "left"), op,
             ": side and right can't be set to opposites, got side of left while right was True "
             "(argument 'side')");
    right = *side == "right";
  }
  if (bucketize) {
    TS_CHECK(seq.dim() == 1, op,
             ": only takes 1-dimension boundaries tensor, but got boundaries "
             "tensor of dimension ",
             seq.dim(), " (argument 'boundaries')");
  }
  check_search(op, seq, self, sorter, out_int32, seq_arg);
  const ScalarType common = promote_types(seq.dtype(), self.dtype());
  meta::check_dtype_supported(op, common, op_info(id).dtypes, "self");
  const ScalarType result = out_int32 ? kInt : kLong;
  std::vector<Tensor> inputs;
  const Tensor s = seq.dtype() == common ? seq : seq.to(common);
  const Tensor x = self.dtype() == common ? self : self.to(common);
  if (bucketize) {
    inputs = {x, s};
  } else {
    inputs = {s, x};
    if (sorter.defined()) inputs.push_back(sorter);
  }
  const Tensor given[] = {seq, self, sorter};
  const Device device = meta::common_device(op, given, id);
  if (v == Variant::Out) {
    meta::check_exact_dtype(op, out, result, "out");
    meta::check_out(op, out, self.sizes(), result);
    for (const Tensor& t : given) {
      if (t.defined()) meta::check_no_overlap(op, out, t, "out", "input");
    }
    meta::check_out_no_grad(id, ArrayRef<Tensor>(&out, 1), inputs);
  }
  const KernelFn fn = lookup_kernel(id, common, device);
  const Tensor r =
      meta::prepare_output(id, v, out, self.sizes(), result, device, ArrayRef<Tensor>(&x, 1));
  OpParams p;
  p.compute_dtype = common;
  p.set(SearchParams{right, out_int32});
  run_kernel(fn, KernelCall{id, ArrayRef<Tensor>(&r, 1), inputs, p, v});
  return r;
}

// ATen's scalar_to_tensor: a 0-dim tensor of the Scalar's own dtype (double, int64 or bool).
Tensor tensor_of_scalar(const Scalar& s) {
  return full({}, s, TensorOptions(s.type()));
}

// ---- unique ----

std::tuple<Tensor, Tensor, Tensor> unique_impl(OpId id, const Tensor& self,
                                               std::optional<int64_t> dim, bool sorted,
                                               bool return_inverse, bool return_counts) {
  const char* op = name_of(id);
  const UserOpScope scope(op);
  meta::check_defined(op, self, "self");
  meta::check_dtype_supported(op, self.dtype(), op_info(id).dtypes, "self");
  const TensorOptions longs = TensorOptions(kLong).device(self.device());
  UniqueParams up;
  up.sorted = sorted;
  // unique_consecutive over dim 0 of a 1-D tensor is the flattened form (ATen).
  if (dim &&
      !(id == OpId::unique_consecutive && self.dim() == 1 && wrap_dim(*dim, self.dim(), op) == 0)) {
    TS_CHECK(self.dim() > 0, op, ": dimension specified as ", *dim,
             " but tensor has no dimensions (argument 'dim')");
    up.dim = wrap_dim(*dim, self.dim(), op);
    int64_t zero_dims = 0;
    for (int64_t s : self.sizes()) zero_dims += s == 0 ? 1 : 0;
    if (self.size(up.dim) == 0) {
      TS_CHECK(zero_dims == 1, op,
               ": Number of zero sized dimensions is more than one, so unique cannot be applied "
               "(argument 'self')");
      return {empty(self.sizes(), self.options()), empty({0}, longs), empty({0}, longs)};
    }
    TS_CHECK(zero_dims == 0, op,
             ": There are 0 sized dimensions, and they aren't selected, so unique cannot be "
             "applied (argument 'self')");
    return_inverse = return_counts = true;  // the dim forms always give both (ATen)
  }
  up.return_inverse = return_inverse;
  up.return_counts = return_counts;
  const bool flat = up.dim < 0;
  const int64_t items = flat ? self.numel() : self.size(up.dim);
  const KernelFn fn = lookup_kernel(id, self.dtype(), self.device());
  const Tensor values = empty({self.numel()}, self.options());
  const Tensor inverse = !return_inverse ? empty({0}, longs)
                         : flat          ? empty(self.sizes(), longs)
                                         : empty({items}, longs);
  const Tensor counts = empty({return_counts ? items : 0}, longs);
  const Tensor num = empty({}, longs);
  const Tensor outputs[] = {values, inverse, counts, num};
  OpParams p;
  p.compute_dtype = self.dtype();
  p.set(up);
  const Tensor in[] = {self};
  run_kernel(fn, KernelCall{id, outputs, in, p, Variant::Functional});
  Tensor host = empty({}, kLong);
  host.copy_(num);
  const int64_t k = host.item<int64_t>();
  Tensor result;
  if (flat) {
    result = values.narrow(0, 0, k);
  } else {
    DimVector shape(self.sizes());
    shape[up.dim] = k;
    result = values.narrow(0, 0, self.numel() / items * k).view(shape);
  }
  return {result, inverse, return_counts ? counts.narrow(0, 0, k) : counts};
}

}  // namespace

Tensor searchsorted(const Tensor& sorted_sequence, const Tensor& self, bool out_int32, bool right,
                    std::optional<std::string_view> side, const Tensor& sorter) {
  return search_impl(OpId::searchsorted, Variant::Functional, {}, sorted_sequence, self, out_int32,
                     right, side, sorter);
}
Tensor searchsorted(const Tensor& sorted_sequence, const Scalar& self, bool out_int32, bool right,
                    std::optional<std::string_view> side, const Tensor& sorter) {
  return search_impl(OpId::searchsorted, Variant::Functional, {}, sorted_sequence,
                     tensor_of_scalar(self), out_int32, right, side, sorter);
}
Tensor& searchsorted_out(const Tensor& out, const Tensor& sorted_sequence, const Tensor& self,
                         bool out_int32, bool right, std::optional<std::string_view> side,
                         const Tensor& sorter) {
  search_impl(OpId::searchsorted, Variant::Out, out, sorted_sequence, self, out_int32, right, side,
              sorter);
  return const_cast<Tensor&>(out);
}
Tensor& searchsorted_out(const Tensor& out, const Tensor& sorted_sequence, const Scalar& self,
                         bool out_int32, bool right, std::optional<std::string_view> side,
                         const Tensor& sorter) {
  search_impl(OpId::searchsorted, Variant::Out, out, sorted_sequence, tensor_of_scalar(self),
              out_int32, right, side, sorter);
  return const_cast<Tensor&>(out);
}
Tensor bucketize(const Tensor& self, const Tensor& boundaries, bool out_int32, bool right) {
  return search_impl(OpId::bucketize, Variant::Functional, {}, boundaries, self, out_int32, right,
                     std::nullopt, {});
}
Tensor bucketize(const Scalar& self, const Tensor& boundaries, bool out_int32, bool right) {
  return search_impl(OpId::bucketize, Variant::Functional, {}, boundaries, tensor_of_scalar(self),
                     out_int32, right, std::nullopt, {});
}
Tensor& bucketize_out(const Tensor& out, const Tensor& self, const Tensor& boundaries,
                      bool out_int32, bool right) {
  search_impl(OpId::bucketize, Variant::Out, out, boundaries, self, out_int32, right, std::nullopt,
              {});
  return const_cast<Tensor&>(out);
}
Tensor& bucketize_out(const Tensor& out, const Scalar& self, const Tensor& boundaries,
                      bool out_int32, bool right) {
  search_impl(OpId::bucketize, Variant::Out, out, boundaries, tensor_of_scalar(self), out_int32,
              right, std::nullopt, {});
  return const_cast<Tensor&>(out);
}

std::tuple<Tensor, Tensor, Tensor> _unique2(const Tensor& self, bool sorted, bool return_inverse,
                                            bool return_counts) {
  return unique_impl(OpId::_unique2, self, std::nullopt, sorted, return_inverse, return_counts);
}
std::tuple<Tensor, Tensor, Tensor> unique_dim(const Tensor& self, int64_t dim, bool sorted,
                                              bool return_inverse, bool return_counts) {
  return unique_impl(OpId::unique_dim, self, dim, sorted, return_inverse, return_counts);
}
std::tuple<Tensor, Tensor, Tensor> unique_consecutive(const Tensor& self, bool return_inverse,
                                                      bool return_counts,
                                                      std::optional<int64_t> dim) {
  return unique_impl(OpId::unique_consecutive, self, dim, false, return_inverse, return_counts);
}
std::tuple<Tensor, Tensor, Tensor> unique(const Tensor& self, bool sorted, bool return_inverse,
                                          bool return_counts, std::optional<int64_t> dim) {
  if (dim) return unique_dim(self, *dim, sorted, return_inverse, return_counts);
  return _unique2(self, sorted, return_inverse, return_counts);
}

}  // namespace ts
