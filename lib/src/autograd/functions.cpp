// Backward helpers shared by formulas and view nodes: sum_to, as_strided_backward, and the
// history of views (called from lib/src/views.cpp).
#include <algorithm>
#include <numeric>

#include "touchstone/ops.h"
#include "variable.h"
#include "views.h"

namespace ts::autograd {

Tensor sum_to(const Tensor& grad, IntArrayRef shape) {
  if (grad.sizes() == shape) return grad;
  const int64_t lead = grad.dim() - static_cast<int64_t>(shape.size());
  TS_INTERNAL_ASSERT(lead >= 0, "sum_to: gradient of shape ", grad.sizes(), " cannot be summed to ",
                     shape);
  DimVector dims;
  for (int64_t d = 0; d < lead; ++d) dims.push_back(d);
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 1 && grad.sizes()[lead + static_cast<int64_t>(i)] != 1)
      dims.push_back(lead + i);
  }
  Tensor r = dims.empty() ? grad : grad.sum(dims, /*keepdim=*/true);
  return r.sizes() == shape ? r : r.reshape(shape);
}

namespace {

int64_t numel_of(IntArrayRef sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return n;
}

// The largest element offset a geometry reaches (it must not be empty).
int64_t max_offset(IntArrayRef sizes, IntArrayRef strides, int64_t offset) {
  for (size_t d = 0; d < sizes.size(); ++d) offset += (sizes[d] - 1) * strides[d];
  return offset;
}

// Conservative: false only when no two elements can share a memory location.
bool may_overlap(IntArrayRef sizes, IntArrayRef strides) {
  std::vector<std::pair<int64_t, int64_t>> dims;  // (stride, size) of dims with size > 1
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] > 1) dims.emplace_back(strides[d], sizes[d]);
  }
  std::sort(dims.begin(), dims.end());
  int64_t reach = 0;  // the furthest offset the smaller-stride dims span
  for (const auto& [stride, size] : dims) {
    if (stride <= reach) return true;
    reach += stride * (size - 1);
  }
  return false;
}

// The element offsets (from `offset`) of every element of a geometry, in row-major order.
Tensor offsets_of(IntArrayRef sizes, IntArrayRef strides, int64_t offset) {
  const int64_t n = numel_of(sizes);
  Tensor out = empty({n}, kLong);
  int64_t* p = out.data_ptr<int64_t>();
  DimVector idx(sizes.size(), 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t off = offset;
    for (size_t d = 0; d < sizes.size(); ++d) off += idx[d] * strides[d];
    p[i] = off;
    for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
      if (++idx[d] < sizes[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

}  // namespace

// Note [as_strided backward]
// Both geometries index one storage. The view's gradient is scattered (summed where the view
// repeats a location) into a flat buffer over the storage range both reach, and the input's
// gradient is read back from that buffer with the input's geometry. Written in ts ops, so it
// records a graph under create_graph.
Tensor as_strided_backward(Tensor grad, const TensorGeometry& input, const TensorGeometry& view) {
  const TensorOptions opts = TensorOptions(grad.dtype()).device(grad.device());
  if (numel_of(input.sizes) == 0 || numel_of(view.sizes) == 0) return zeros(input.sizes, opts);
  // Dims where the view repeats memory (stride 0) are summed; size-1 dims are dropped.
  DimVector sizes, strides, summed;
  for (size_t d = 0; d < view.sizes.size(); ++d) {
    if (view.sizes[d] == 1) continue;
    if (view.strides[d] == 0) {
      summed.push_back(static_cast<int64_t>(d));
      continue;
    }
    sizes.push_back(view.sizes[d]);
    strides.push_back(view.strides[d]);
  }
  if (!summed.empty()) grad = grad.sum(summed, /*keepdim=*/true);
  grad = grad.reshape(sizes);
  const int64_t lo = std::min(input.offset, view.offset);
  const int64_t hi = std::max(max_offset(input.sizes, input.strides, input.offset),
                              max_offset(sizes, strides, view.offset));
  Tensor flat = zeros({hi - lo + 1}, opts);
  if (!may_overlap(sizes, strides)) {
    flat.as_strided(sizes, strides, view.offset - lo).copy_(grad);
  } else {
    flat = flat.scatter_add(0, offsets_of(sizes, strides, view.offset - lo), grad.reshape({-1}));
  }
  if (!may_overlap(input.sizes, input.strides)) {
    return flat.as_strided(input.sizes, input.strides, input.offset - lo);
  }
  // An input that repeats memory: each location's gradient is shared evenly (as ATen).
  const Tensor index = offsets_of(input.sizes, input.strides, input.offset - lo);
  const Tensor count =
      zeros({hi - lo + 1}, opts).scatter_add(0, index, ones({index.numel()}, opts));
  return (flat / count.clamp(1)).as_strided(input.sizes, input.strides, input.offset - lo);
}

std::function<Tensor(const Tensor&)> as_strided_backward_fn(const Tensor& self,
                                                            const Tensor& view) {
  return [in = TensorGeometry(self), out = TensorGeometry(view)](const Tensor& g) {
    return as_strided_backward(g, in, out);
  };
}

bool view_needs_history(const Tensor& self) {
  return GradMode::is_enabled() && requires_grad(self);
}

void set_view_history(const Tensor& self, const Tensor& view, const char* name, ViewBackwardFn fn) {
  auto node = std::make_shared<ViewBackward>(name, std::move(fn));
  node->add_next_edge(gradient_edge(self));
  node->add_input_metadata(view);
  set_history(view, node, 0);
}

}  // namespace ts::autograd
