// Broadcast and overlap geometry; see geometry.h.
#include "geometry.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "../size_math.h"

namespace ts::meta {

DimVector broadcast_shapes(const char* op, TensorList tensors, std::optional<OperandNames> names) {
  size_t ndim = 0;
  for (const Tensor& t : tensors) {
    if (t.defined()) ndim = std::max(ndim, static_cast<size_t>(t.dim()));
  }
  DimVector shape(ndim, 1);
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    if (!t.defined()) continue;
    const size_t off = ndim - static_cast<size_t>(t.dim());
    for (size_t d = static_cast<size_t>(t.dim()); d-- > 0;) {  // trailing dims first, as ATen
      const int64_t s = t.sizes()[d];
      int64_t& r = shape[off + d];
      if (r == s || s == 1) continue;
      TS_CHECK(r == 1, op, ": The size of tensor a (", r, ") must match the size of tensor b (", s,
               ") at non-singleton dimension ", off + d, names ? " (argument '" : "",
               names ? (*names)(i) : "", names ? "' of shape " : "",
               names ? t.sizes() : IntArrayRef(), names ? ")" : "");
      r = s;
    }
  }
  return shape;
}

void check_no_internal_overlap(const char* op, const Tensor& t, const char* arg) {
  for (int64_t d = 0; d < t.dim(); ++d) {
    TS_CHECK(!(t.sizes()[d] > 1 && t.strides()[d] == 0), op,
             ": unsupported operation: more than one element of the written-to tensor (argument '",
             arg,
             "') refers to a single memory location. Please clone() the tensor before performing "
             "the operation.");
  }
}

void check_no_partial_overlap(const char* op, const Tensor& out, const Tensor& in,
                              const char* out_arg, const char* in_arg) {
  if (!in.defined() || out.numel() == 0 || in.numel() == 0) return;
  if (out.storage().get() != in.storage().get()) return;
  if (out.data_ptr() == in.data_ptr() && out.sizes() == in.sizes() &&
      out.strides() == in.strides() && out.dtype() == in.dtype()) {
    return;  // full overlap (in-place) is fine
  }
  // Like ATen, only dense layouts are judged; interleaved strided views are "too hard".
  if (!out.is_non_overlapping_and_dense() || !in.is_non_overlapping_and_dense()) return;
  const char* a = static_cast<const char*>(out.data_ptr());
  const char* b = static_cast<const char*>(in.data_ptr());
  const bool disjoint = a + out.nbytes() <= b || b + in.nbytes() <= a;
  TS_CHECK(disjoint, op, ": unsupported operation: some elements of the input tensor (argument '",
           in_arg, "') and the written-to tensor (argument '", out_arg,
           "') refer to a single memory location. Please clone() the tensor before performing "
           "the operation.");
}

namespace {

// The elements [first, end) of its storage a tensor reaches, resized to `shape` when given.
std::pair<int64_t, int64_t> storage_extent(const Tensor& t, const IntArrayRef* shape = nullptr) {
  const int64_t first = t.storage_offset();
  if (shape != nullptr && t.sizes() != *shape) {
    const int64_t n = detail::checked_numel(*shape).value_or(std::numeric_limits<int64_t>::max());
    return {first, detail::checked_add(first, n).value_or(std::numeric_limits<int64_t>::max())};
  }
  if (t.numel() == 0) return {first, first};
  int64_t last = first;
  for (int64_t d = 0; d < t.dim(); ++d) last += (t.sizes()[d] - 1) * t.strides()[d];
  return {first, last + 1};
}

bool extents_overlap(std::pair<int64_t, int64_t> a, std::pair<int64_t, int64_t> b) {
  return a.first < a.second && b.first < b.second && a.first < b.second && b.first < a.second;
}

}  // namespace

void check_out_resizable(const char* op, const Tensor& out, IntArrayRef shape, TensorList inputs,
                         const char* arg) {
  if (out.sizes() == shape) return;
  // Note [Resized out= tensors]
  // Resizing makes an out= contiguous from its storage offset: an empty view of an input's
  // storage (x.narrow(0, 1, 0)) then covers elements the input holds, and the kernel would
  // read what it writes. Refused before anything changes, as is an out= that is the input.
  for (const Tensor& in : inputs) {
    TS_CHECK(!in.is_same(out), op, ": the ", arg,
             "= tensor is also an input and would be resized to the result's shape ", shape,
             "; pass another tensor (argument '", arg, "')");
    if (!in.defined() || in.storage().get() != out.storage().get()) continue;
    TS_CHECK(!extents_overlap(storage_extent(out, &shape), storage_extent(in)), op, ": the ", arg,
             "= tensor shares its storage with an input and, resized to the result's shape ", shape,
             ", would overlap it; pass a tensor with its own storage (argument '", arg, "')");
  }
}

void check_resized_outs_disjoint(const char* op, const Tensor& a, const Tensor& b,
                                 IntArrayRef shape, const char* arg_a, const char* arg_b) {
  if (a.storage().get() != b.storage().get()) return;
  TS_CHECK(!extents_overlap(storage_extent(a, &shape), storage_extent(b, &shape)), op,
           ": the output tensors (arguments '", arg_a, "' and '", arg_b,
           "') would overlap once resized to the result's shape ", shape,
           "; pass tensors with their own storage");
}

}  // namespace ts::meta
