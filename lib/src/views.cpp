// View ops: new geometry over the same storage. Every view goes through make_view.
// reshape and flatten copy (through contiguous()) only when no view can express the result.
#include <algorithm>
#include <limits>
#include <optional>
#include <sstream>
#include <string_view>

#include "autograd/views.h"
#include "size_math.h"
#include "touchstone/ops.h"

namespace ts {

namespace {

using detail::checked_mul;

// Gives `view` (just made from `self`) its backward node when self requires grad in grad mode
// (see Note [Differentiable views] in touchstone/autograd.h); `backward` maps the view's
// gradient to self's. Views that only delegate to another view (narrow, t, flatten, ...) get
// that view's node.
template <typename F>
Tensor with_grad(const Tensor& self, Tensor view, const char* name, F&& backward) {
  if (autograd::view_needs_history(self)) {
    autograd::set_view_history(self, view, name, std::forward<F>(backward));
  }
  return view;
}

// The gradient of a view that picks some of self's elements: zeros with the view's part set.
template <typename F>
auto scatter_into_zeros(const Tensor& self, F&& pick) {
  return [sizes = DimVector(self.sizes()), pick = std::forward<F>(pick)](const Tensor& g) {
    Tensor r = zeros(sizes, g.options());
    pick(r).copy_(g);
    return r;
  };
}

// Resolves one -1 in `shape` so that the result holds `numel` elements (ATen's infer_size).
DimVector infer_size(const char* op, IntArrayRef shape, int64_t numel) {
  DimVector res(shape);
  std::optional<size_t> infer_dim;
  int64_t newsize = 1;
  bool overflow = false, has_zero = false;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == -1) {
      TS_CHECK(!infer_dim, op, ": only one dimension can be inferred");
      infer_dim = d;
      continue;
    }
    TS_CHECK(shape[d] >= 0, op, ": invalid shape dimension ", shape[d]);
    has_zero |= shape[d] == 0;
    auto p = checked_mul(newsize, shape[d]);
    overflow |= !p;
    if (p) newsize = *p;
  }
  if (has_zero) {
    newsize = 0;
  } else if (overflow) {
    TS_ERROR(op, ": shape '", shape, "' is invalid for input of size ", numel);
  }
  if (numel == newsize || (infer_dim && newsize > 0 && numel % newsize == 0)) {
    if (infer_dim) {
      TS_CHECK(newsize != 0, op, ": cannot reshape tensor of 0 elements into shape ", shape,
               " because the unspecified dimension size -1 can be any value and is ambiguous");
      res[*infer_dim] = numel / newsize;
    }
    return res;
  }
  TS_ERROR(op, ": shape '", shape, "' is invalid for input of size ", numel);
}

// Note [View strides]
// Group the old dims into chunks that are each one evenly strided block of memory (a dim
// continues its inner neighbour's chunk when stride[d-1] == numel(chunk) * base stride; size-1
// dims never break a chunk). A new shape is a view iff its dims, taken from the right, split
// into runs whose products equal those chunks' numels; each run is laid out contiguously over
// its chunk's base stride. Same result as ATen's computeStride, size-1 dims included.
std::optional<DimVector> view_strides(IntArrayRef old_size, IntArrayRef old_stride,
                                      IntArrayRef new_size, int64_t numel) {
  if (old_size.empty()) return DimVector(new_size.size(), 1);
  if (numel == 0) {
    // Strides of an empty tensor are arbitrary: keep them for the same shape, like NumPy.
    if (old_size == new_size) return DimVector(old_stride);
    return contiguous_strides(new_size);
  }
  DimVector stride(new_size.size());
  int64_t v = static_cast<int64_t>(new_size.size()) - 1;  // next new dim, from the right
  int64_t base = old_stride.back();
  int64_t chunk_numel = 1, view_numel = 1;
  for (int64_t d = static_cast<int64_t>(old_size.size()) - 1; d >= 0; --d) {
    chunk_numel *= old_size[d];
    if (d > 0 && old_size[d - 1] == 1) continue;
    if (d > 0) {
      auto span = checked_mul(chunk_numel, base);
      if (span && old_stride[d - 1] == *span) continue;
    }
    while (v >= 0 && (view_numel < chunk_numel || new_size[v] == 1)) {
      auto s = checked_mul(view_numel, base);
      if (!s) return std::nullopt;
      stride[v] = *s;
      view_numel *= new_size[v];
      --v;
    }
    if (view_numel != chunk_numel) return std::nullopt;
    if (d > 0) {
      base = old_stride[d - 1];
      chunk_numel = 1;
      view_numel = 1;
    }
  }
  if (v != -1) return std::nullopt;
  return stride;
}

void check_not_scalar(const Tensor& self, const char* op) {
  TS_CHECK(self.dim() > 0, op, ": cannot be applied to a 0-dim tensor (argument 'self').");
}

}  // namespace

Tensor Tensor::view(IntArrayRef size) const {
  const DimVector shape = infer_size("view", size, numel());
  auto stride = view_strides(sizes(), strides(), shape, numel());
  TS_CHECK(stride.has_value(),
           "view: view size is not compatible with input tensor's size and stride (at least one "
           "dimension spans across two contiguous subspaces). Use .reshape(...) instead.");
  return with_grad(*this, make_view(*this, shape, *stride, storage_offset()), "ViewBackward0",
                   [sizes = DimVector(sizes())](const Tensor& g) { return g.reshape(sizes); });
}

// Note [Unsafe views]
// ATen's _unsafe_view (matmul's last step, reshape's copy) and squeeze_ of a fresh result give a
// tensor that shares storage but is no autograd view: an in-place op on it records its own node
// (linear's add_ on a 1-D input is AddBackward0), where a view would be rebased to
// AsStridedBackward0. The storage, and so the version counter, is still shared.
Tensor autograd::view_named(const Tensor& self, IntArrayRef shape, const char* name) {
  TS_INTERNAL_ASSERT(self.is_contiguous(), "view_named: expects a contiguous self");
  Tensor result(intrusive_ptr<TensorImpl>::make(self.storage(), self.dtype(), shape,
                                                contiguous_strides(shape), self.storage_offset()));
  return with_grad(self, std::move(result), name,
                   [sizes = DimVector(self.sizes())](const Tensor& g) { return g.reshape(sizes); });
}

Tensor Tensor::reshape(IntArrayRef size) const {
  const DimVector shape = infer_size("reshape", size, numel());
  auto backward = [sizes = DimVector(sizes())](const Tensor& g) { return g.reshape(sizes); };
  if (auto stride = view_strides(sizes(), strides(), shape, numel())) {
    return with_grad(*this, make_view(*this, shape, *stride, storage_offset()), "ViewBackward0",
                     backward);
  }
  // Not expressible over these strides: a fresh contiguous copy (Note [Unsafe views]).
  return autograd::view_named(contiguous(), shape, "UnsafeViewBackward0");
}

Tensor Tensor::as_strided(IntArrayRef size, IntArrayRef stride,
                          std::optional<int64_t> storage_offset) const {
  const int64_t offset = storage_offset.value_or(this->storage_offset());
  TS_CHECK(size.size() == stride.size(), "as_strided: mismatch in length of strides and shape (",
           size.size(), " sizes but ", stride.size(), " strides)");
  for (int64_t s : size) {
    TS_CHECK(s >= 0, "as_strided: Trying to create tensor with negative dimension ", s, ": ", size);
  }
  for (int64_t s : stride) {
    TS_CHECK(s >= 0,
             "as_strided: Negative strides are not supported at the moment, got strides: ", stride);
  }
  TS_CHECK(offset >= 0, "as_strided: Tensor: invalid storage offset ", offset);
  TS_CHECK(detail::checked_numel(size).has_value(), "as_strided: sizes ", size,
           " hold more than 2^63 - 1 elements (argument 'size')");
  // Bytes the geometry reaches; an empty result fits any storage.
  const int64_t itemsize = static_cast<int64_t>(element_size());
  const auto needed = detail::checked_geometry_nbytes(size, stride, offset, itemsize);
  const size_t have = this->storage()->nbytes();
  if (!needed || static_cast<uint64_t>(*needed) > have) {
    std::ostringstream req;
    if (needed) {
      req << *needed;
    } else {
      req << "more than " << std::numeric_limits<int64_t>::max();
    }
    TS_ERROR("as_strided: sizes ", size, ", strides ", stride, ", storage offset ", offset,
             ", and itemsize ", itemsize, " requiring a storage size of ", req.str(),
             " are out of bounds for storage of size ", have);
  }
  Tensor view = make_view(*this, size, stride, offset);
  if (autograd::view_needs_history(*this)) {
    autograd::set_view_history(*this, view, "AsStridedBackward0",
                               autograd::as_strided_backward_fn(*this, view));
  }
  return view;
}

Tensor Tensor::narrow(int64_t dim, int64_t start, int64_t length) const {
  check_not_scalar(*this, "narrow");
  const int64_t d = wrap_dim(dim, this->dim(), "narrow");
  TS_CHECK(length >= 0, "narrow: length must be non-negative.");
  const int64_t cur = sizes()[d];
  // start == size is allowed (an empty result at the end); otherwise wrap like a dim index.
  if (start != cur) start = wrap_dim(start, cur, "narrow");
  TS_CHECK(start <= cur - length, "narrow: start (", start, ") + length (", length,
           ") exceeds dimension size (", cur, ").");
  return slice(d, start, start + length, 1);
}

Tensor Tensor::slice(int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end,
                     int64_t step) const {
  check_not_scalar(*this, "slice");
  const int64_t d = wrap_dim(dim, this->dim(), "slice");
  TS_CHECK(step > 0, "slice: slice step must be positive");
  const int64_t n = sizes()[d];
  // Python slicing: negative bounds count from the end, then both clamp to [0, n].
  int64_t s = start.value_or(0), e = end.value_or(std::numeric_limits<int64_t>::max());
  if (s < 0) s += n;
  if (e < 0) e += n;
  s = std::clamp<int64_t>(s, 0, n);
  e = std::clamp<int64_t>(e, s, n);
  DimVector new_sizes(sizes()), new_strides(strides());
  const int64_t len = e - s;
  new_sizes[d] = len == 0 ? 0 : (len - 1) / step + 1;
  // step * stride can only overflow when the result has one element, where the stride is moot.
  new_strides[d] = checked_mul(strides()[d], step).value_or(strides()[d]);
  return with_grad(*this,
                   make_view(*this, new_sizes, new_strides, storage_offset() + s * strides()[d]),
                   "SliceBackward0", scatter_into_zeros(*this, [d, s, e, step](const Tensor& r) {
                     return r.slice(d, s, e, step);
                   }));
}

Tensor Tensor::select(int64_t dim, int64_t index) const {
  check_not_scalar(*this, "select");
  const int64_t d = wrap_dim(dim, this->dim(), "select");
  const int64_t n = sizes()[d];
  TS_CHECK(index < n && index >= -n, "select: index ", index, " out of range for tensor of size ",
           sizes(), " at dimension ", d);
  if (index < 0) index += n;
  DimVector new_sizes(sizes()), new_strides(strides());
  new_sizes.erase(d);
  new_strides.erase(d);
  return with_grad(
      *this, make_view(*this, new_sizes, new_strides, storage_offset() + index * strides()[d]),
      "SelectBackward0",
      scatter_into_zeros(*this, [d, index](const Tensor& r) { return r.select(d, index); }));
}

Tensor Tensor::transpose(int64_t dim0, int64_t dim1) const {
  const int64_t d0 = wrap_dim(dim0, dim(), "transpose");
  const int64_t d1 = wrap_dim(dim1, dim(), "transpose");
  DimVector new_sizes(sizes()), new_strides(strides());
  if (d0 != d1) {  // a 0-dim tensor only accepts d0 == d1 == 0
    std::swap(new_sizes[d0], new_sizes[d1]);
    std::swap(new_strides[d0], new_strides[d1]);
  }
  return with_grad(*this, make_view(*this, new_sizes, new_strides, storage_offset()),
                   "TransposeBackward0", [d0, d1](const Tensor& g) { return g.transpose(d0, d1); });
}

Tensor Tensor::t() const {
  TS_CHECK(dim() <= 2, "t: expects a tensor with <= 2 dimensions, but self is ", dim(), "D");
  return transpose(0, dim() < 2 ? 0 : 1);
}

Tensor Tensor::permute(IntArrayRef dims) const {
  TS_CHECK(static_cast<int64_t>(dims.size()) == dim(),
           "permute: number of dimensions in the tensor input does not match the length of "
           "the desired ordering of dimensions i.e. input.dim() = ",
           dim(), " is not equal to len(dims) = ", dims.size());
  DimVector new_sizes(dims.size()), new_strides(dims.size()), inverse(dims.size());
  std::vector<bool> seen(dims.size(), false);
  for (size_t i = 0; i < dims.size(); ++i) {
    const int64_t d = wrap_dim(dims[i], dim(), "permute");
    TS_CHECK(!seen[d], "permute: duplicate dims are not allowed.");
    seen[d] = true;
    new_sizes[i] = sizes()[d];
    new_strides[i] = strides()[d];
    inverse[d] = static_cast<int64_t>(i);
  }
  return with_grad(*this, make_view(*this, new_sizes, new_strides, storage_offset()),
                   "PermuteBackward0", [inverse](const Tensor& g) { return g.permute(inverse); });
}

Tensor Tensor::expand(IntArrayRef size) const {
  TS_CHECK(static_cast<int64_t>(size.size()) >= dim(), "expand: the number of sizes provided (",
           size.size(), ") must be greater or equal to the number of dimensions in the tensor (",
           dim(), ")");
  const int64_t n = static_cast<int64_t>(size.size());
  const int64_t off = n - dim();
  DimVector new_sizes(size.size()), new_strides(size.size());
  for (int64_t d = n - 1; d >= 0; --d) {
    const int64_t td = d - off;
    const int64_t cur = td >= 0 ? sizes()[td] : 1;
    const int64_t cur_stride = td >= 0 ? strides()[td] : 0;
    int64_t target = size[d];
    if (target == -1) {
      TS_CHECK(td >= 0,
               "expand: The expanded size of the tensor (-1) isn't allowed in a leading, "
               "non-existing dimension ",
               d);
      target = cur;
    }
    TS_CHECK(target >= 0, "expand: The expanded size of the tensor (", target,
             ") isn't allowed (only -1 may be negative) at dimension ", d);
    if (cur == target) {
      new_sizes[d] = cur;
      new_strides[d] = cur_stride;
    } else {
      TS_CHECK(cur == 1, "expand: The expanded size of the tensor (", target,
               ") must match the existing size (", cur, ") at non-singleton dimension ", d,
               ".  Target sizes: ", size, ".  Tensor sizes: ", sizes(), "");
      new_sizes[d] = target;
      new_strides[d] = 0;
    }
  }
  TS_CHECK(detail::checked_numel(new_sizes).has_value(), "expand: the expanded sizes ",
           IntArrayRef(new_sizes), " hold more than 2^63 - 1 elements (argument 'size')");
  return with_grad(
      *this, make_view(*this, new_sizes, new_strides, storage_offset()), "ExpandBackward0",
      [sizes = DimVector(sizes())](const Tensor& g) { return autograd::sum_to(g, sizes); });
}

Tensor Tensor::expand_as(const Tensor& other) const {
  return expand(other.sizes());
}

Tensor Tensor::squeeze() const {
  DimVector new_sizes, new_strides;
  for (int64_t d = 0; d < dim(); ++d) {
    if (sizes()[d] == 1) continue;
    new_sizes.push_back(sizes()[d]);
    new_strides.push_back(strides()[d]);
  }
  return with_grad(*this, make_view(*this, new_sizes, new_strides, storage_offset()),
                   "SqueezeBackward0",
                   [sizes = DimVector(sizes())](const Tensor& g) { return g.reshape(sizes); });
}

Tensor Tensor::squeeze(int64_t dim) const {
  const int64_t d = wrap_dim(dim, this->dim(), "squeeze");
  DimVector new_sizes(sizes()), new_strides(strides());
  if (this->dim() > 0 && sizes()[d] == 1) {  // a dim of another size is left alone
    new_sizes.erase(d);
    new_strides.erase(d);
  }
  return with_grad(*this, make_view(*this, new_sizes, new_strides, storage_offset()),
                   "SqueezeBackward1",
                   [sizes = DimVector(sizes())](const Tensor& g) { return g.reshape(sizes); });
}

Tensor Tensor::unsqueeze(int64_t dim) const {
  const int64_t d = wrap_dim(dim, this->dim() + 1, "unsqueeze");
  DimVector new_sizes(sizes()), new_strides(strides());
  // The new dim's stride spans the dim it lands before (1 at the end), as in ATen.
  const int64_t stride =
      d >= this->dim() ? 1 : checked_mul(sizes()[d], strides()[d]).value_or(strides()[d]);
  new_sizes.insert(d, 1);
  new_strides.insert(d, stride);
  return with_grad(*this, make_view(*this, new_sizes, new_strides, storage_offset()),
                   "UnsqueezeBackward0", [d](const Tensor& g) { return g.squeeze(d); });
}

Tensor Tensor::flatten(int64_t start_dim, int64_t end_dim) const {
  const int64_t s = wrap_dim(start_dim, dim(), "flatten");
  const int64_t e = wrap_dim(end_dim, dim(), "flatten");
  TS_CHECK(s <= e, "flatten: invalid args: start_dim cannot come after end_dim");
  if (dim() == 0) return reshape({1});
  if (s == e) return *this;
  DimVector shape;
  int64_t merged = 1;
  for (int64_t d = 0; d < dim(); ++d) {
    if (d < s || d > e) {
      shape.push_back(sizes()[d]);
      continue;
    }
    merged *= sizes()[d];  // a product of real sizes: at most numel()
    if (d == e) shape.push_back(merged);
  }
  return reshape(shape);
}

Tensor Tensor::unflatten(int64_t dim, IntArrayRef sizes) const {
  const int64_t d = wrap_dim(dim, this->dim(), "unflatten");
  TS_CHECK(!sizes.empty(), "unflatten: sizes must be non-empty");
  TS_CHECK(this->dim() > 0, "unflatten: cannot unflatten a 0-dim tensor");
  const int64_t n = this->sizes()[d];
  DimVector inferred;
  try {
    inferred = infer_size("unflatten", sizes, n);
  } catch (const Error& err) {
    if (std::string_view(err.what()).find("is invalid for input of size") ==
        std::string_view::npos) {
      throw;
    }
    TS_ERROR("unflatten: Provided sizes ", sizes, " don't multiply up to the size of dim ", d, " (",
             n, ") in the input tensor");
  }
  DimVector shape;
  for (int64_t i = 0; i < this->dim(); ++i) {
    if (i != d) {
      shape.push_back(this->sizes()[i]);
      continue;
    }
    for (int64_t s : inferred) shape.push_back(s);
  }
  return view(shape);  // splitting one dim is always expressible as a view
}

Tensor Tensor::movedim(IntArrayRef source, IntArrayRef destination) const {
  TS_CHECK(source.size() == destination.size(),
           "movedim: Invalid source or destination dims: source (", source,
           " dims) should contain the same number of dims as destination (", destination, " dims)");
  const int64_t n = dim();
  DimVector src(source.size()), dst(destination.size());
  for (size_t i = 0; i < source.size(); ++i) {
    src[i] = wrap_dim(source[i], n, "movedim");
    dst[i] = wrap_dim(destination[i], n, "movedim");
  }
  auto unique = [](const DimVector& v) {
    for (size_t i = 0; i < v.size(); ++i) {
      for (size_t j = i + 1; j < v.size(); ++j) {
        if (v[i] == v[j]) return false;
      }
    }
    return true;
  };
  TS_CHECK(unique(src), "movedim: repeated dim in `source` (", source, ")");
  TS_CHECK(unique(dst), "movedim: repeated dim in `destination` (", destination, ")");
  if (n == 0) {
    return with_grad(*this, make_view(*this, sizes(), strides(), storage_offset()),
                     "AliasBackward0", [](const Tensor& g) { return g; });
  }
  // order[dst[i]] = src[i]; the dims not moved fill the free slots in their original order.
  DimVector order(static_cast<size_t>(n), -1);
  std::vector<bool> moved(static_cast<size_t>(n), false);
  for (size_t i = 0; i < src.size(); ++i) {
    order[dst[i]] = src[i];
    moved[src[i]] = true;
  }
  int64_t next = 0;
  for (int64_t& o : order) {
    if (o != -1) continue;
    while (moved[next]) ++next;
    o = next++;
  }
  return permute(order);
}

Tensor Tensor::diagonal(int64_t offset, int64_t dim1, int64_t dim2) const {
  const int64_t d1 = wrap_dim(dim1, dim(), "diagonal");
  const int64_t d2 = wrap_dim(dim2, dim(), "diagonal");
  TS_CHECK(d1 != d2, "diagonal: diagonal dimensions cannot be identical ", dim1, ", ", dim2);
  const int64_t n1 = sizes()[d1], n2 = sizes()[d2];
  // offset > 0 drops leading columns (along dim2); offset < 0 drops leading rows (along dim1).
  const int64_t diag_size =
      std::max<int64_t>(offset >= 0 ? std::min(n1, n2 - offset) : std::min(n1 + offset, n2), 0);
  int64_t start = storage_offset();
  if (diag_size > 0) start += offset >= 0 ? offset * strides()[d2] : -offset * strides()[d1];
  DimVector new_sizes(sizes()), new_strides(strides());
  new_sizes.erase(std::max(d1, d2));
  new_strides.erase(std::max(d1, d2));
  new_sizes.erase(std::min(d1, d2));
  new_strides.erase(std::min(d1, d2));
  new_sizes.push_back(diag_size);
  new_strides.push_back(strides()[d1] + strides()[d2]);
  return with_grad(*this, make_view(*this, new_sizes, new_strides, start), "DiagonalBackward0",
                   scatter_into_zeros(*this, [offset, d1, d2](const Tensor& r) {
                     return r.diagonal(offset, d1, d2);
                   }));
}

Tensor Tensor::unfold(int64_t dimension, int64_t size, int64_t step) const {
  const int64_t d = wrap_dim(dimension, dim(), "unfold");
  const int64_t max_size = dim() == 0 ? 1 : sizes()[d];
  TS_CHECK(size <= max_size, "unfold: maximum size for tensor at dimension ", d, " is ", max_size,
           " but size is ", size);
  TS_CHECK(size >= 0, "unfold: size is ", size, " but must be >= 0");
  TS_CHECK(step > 0, "unfold: step is ", step, " but must be > 0");
  DimVector new_sizes(sizes()), new_strides(strides());
  if (dim() > 0) {
    new_sizes[d] = (sizes()[d] - size) / step + 1;
    new_strides[d] = checked_mul(strides()[d], step).value_or(strides()[d]);
  }
  new_sizes.push_back(size);
  new_strides.push_back(dim() == 0 ? 1 : strides()[d]);
  Tensor view = make_view(*this, new_sizes, new_strides, storage_offset());
  if (autograd::view_needs_history(*this)) {  // windows may overlap: as_strided's backward
    autograd::set_view_history(*this, view, "UnfoldBackward0",
                               autograd::as_strided_backward_fn(*this, view));
  }
  return view;
}

std::vector<Tensor> Tensor::split(int64_t split_size, int64_t dim) const {
  TS_CHECK(this->dim() != 0, "split: expects at least a 1-dimensional tensor");
  TS_CHECK(split_size >= 0,
           "split: expects split_size be non-negative, but got split_size=", split_size);
  const int64_t d = wrap_dim(dim, this->dim(), "split");
  const int64_t n = sizes()[d];
  TS_CHECK(split_size > 0 || n == 0,
           "split: split_size can only be 0 if dimension size is 0, but got dimension size of ", n);
  // At least one piece (split_size 0, or larger than the dim); the last piece may be shorter.
  const int64_t pieces =
      split_size == 0 ? 1 : std::max<int64_t>(n / split_size + (n % split_size != 0), 1);
  std::vector<Tensor> out;
  out.reserve(static_cast<size_t>(pieces));
  for (int64_t i = 0; i < pieces; ++i) {
    const int64_t start = i * split_size;
    out.push_back(slice(d, start, i + 1 < pieces ? start + split_size : n, 1));
  }
  return out;
}

std::vector<Tensor> Tensor::split_with_sizes(IntArrayRef split_sizes, int64_t dim) const {
  TS_CHECK(this->dim() != 0, "split_with_sizes: expects at least a 1-dimensional tensor");
  const int64_t d = wrap_dim(dim, this->dim(), "split_with_sizes");
  const int64_t n = sizes()[d];
  int64_t total = 0;
  for (int64_t s : split_sizes) {
    TS_CHECK(s >= 0, "split_with_sizes: expects split_sizes have only non-negative entries, ",
             "but got split_sizes=", split_sizes);
    TS_CHECK(!__builtin_add_overflow(total, s, &total) && total <= n,
             "split_with_sizes: expects split_sizes to sum exactly to ", n,
             " (input tensor's size at dimension ", d, "), but got split_sizes=", split_sizes);
  }
  TS_CHECK(total == n, "split_with_sizes: expects split_sizes to sum exactly to ", n,
           " (input tensor's size at dimension ", d, "), but got split_sizes=", split_sizes);
  std::vector<Tensor> out;
  out.reserve(split_sizes.size());
  int64_t start = 0;
  for (int64_t s : split_sizes) {
    out.push_back(slice(d, start, start + s, 1));
    start += s;
  }
  return out;
}

std::vector<Tensor> Tensor::chunk(int64_t chunks, int64_t dim) const {
  TS_CHECK(this->dim() > 0, "chunk: expects at least a 1-dimensional tensor");
  TS_CHECK(chunks > 0, "chunk: expects `chunks` to be greater than 0, got: ", chunks);
  const int64_t d = wrap_dim(dim, this->dim(), "chunk");
  const int64_t n = sizes()[d];
  // Pieces of ceil(n / chunks): there may be fewer than `chunks` of them (torch.chunk).
  const int64_t split_size = n / chunks + (n % chunks != 0);
  if (n == 0) {
    // split() would return one piece; an empty dim gives `chunks` empty pieces instead.
    return split_with_sizes(std::vector<int64_t>(static_cast<size_t>(chunks), 0), d);
  }
  return split(split_size, d);
}

// ---- shape (issue 16): unbind, the list form of split, movedim of one dim, and the
// function forms of the views (ts::flatten(x) is x.flatten()) ----

std::vector<Tensor> Tensor::unbind(int64_t dim) const {
  TS_CHECK(this->dim() > 0, "unbind: Dimension specified as ", dim,
           " but tensor has no dimensions (argument 'self')");
  const int64_t d = wrap_dim(dim, this->dim(), "unbind");
  std::vector<Tensor> out;
  out.reserve(static_cast<size_t>(sizes()[d]));
  for (int64_t i = 0; i < sizes()[d]; ++i) out.push_back(select(d, i));
  return out;
}

std::vector<Tensor> Tensor::split(IntArrayRef split_sizes, int64_t dim) const {
  return split_with_sizes(split_sizes, dim);
}

Tensor Tensor::movedim(int64_t source, int64_t destination) const {
  return movedim(IntArrayRef(source), IntArrayRef(destination));
}

Tensor flatten(const Tensor& self, int64_t start_dim, int64_t end_dim) {
  return self.flatten(start_dim, end_dim);
}
Tensor unflatten(const Tensor& self, int64_t dim, IntArrayRef sizes) {
  return self.unflatten(dim, sizes);
}
Tensor movedim(const Tensor& self, IntArrayRef source, IntArrayRef destination) {
  return self.movedim(source, destination);
}
Tensor movedim(const Tensor& self, int64_t source, int64_t destination) {
  return self.movedim(source, destination);
}
Tensor diagonal(const Tensor& self, int64_t offset, int64_t dim1, int64_t dim2) {
  return self.diagonal(offset, dim1, dim2);
}
std::vector<Tensor> split(const Tensor& self, int64_t split_size, int64_t dim) {
  return self.split(split_size, dim);
}
std::vector<Tensor> split(const Tensor& self, IntArrayRef split_sizes, int64_t dim) {
  return self.split_with_sizes(split_sizes, dim);
}
std::vector<Tensor> split_with_sizes(const Tensor& self, IntArrayRef split_sizes, int64_t dim) {
  return self.split_with_sizes(split_sizes, dim);
}
std::vector<Tensor> chunk(const Tensor& self, int64_t chunks, int64_t dim) {
  return self.chunk(chunks, dim);
}
std::vector<Tensor> unbind(const Tensor& self, int64_t dim) {
  return self.unbind(dim);
}

}  // namespace ts
