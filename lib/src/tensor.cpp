// TensorImpl geometry, the Tensor handle's basic accessors, and allocation (empty, resize_).
#include "touchstone/tensor.h"

#include <limits>

#include "ops/meta.h"
#include "size_math.h"
#include "touchstone/autograd.h"
#include "touchstone/dispatch_macros.h"
#include "touchstone/op_scope.h"
#include "touchstone/ops.h"

namespace ts {

TensorImpl::TensorImpl(Storage storage, ScalarType dtype, IntArrayRef sizes, IntArrayRef strides,
                       int64_t storage_offset)
    : storage_(std::move(storage)),
      sizes_(sizes),
      strides_(strides),
      storage_offset_(storage_offset),
      dtype_(dtype) {
  refresh();
}

void TensorImpl::set_geometry(IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset) {
  sizes_ = DimVector(sizes);
  strides_ = DimVector(strides);
  storage_offset_ = storage_offset;
  refresh();
}

void TensorImpl::refresh() {
  TS_INTERNAL_ASSERT(sizes_.size() == strides_.size());
  // Ops check their geometry first and name themselves (Note [Checked geometry]); this is the
  // last line of defence for a view that would hold more than 2^63 - 1 elements.
  const std::optional<int64_t> numel = detail::checked_numel(sizes_);
  TS_CHECK(numel.has_value(), "tensor: sizes ", IntArrayRef(sizes_),
           " hold more than 2^63 - 1 elements");
  numel_ = *numel;
  // Contiguous: strides match the row-major strides, ignoring dims of size 1 (as in ATen).
  is_contiguous_ = true;
  if (numel_ == 0) return;
  int64_t expected = 1;
  for (int64_t d = static_cast<int64_t>(sizes_.size()) - 1; d >= 0; --d) {
    if (sizes_[d] == 1) continue;
    if (strides_[d] != expected) {
      is_contiguous_ = false;
      return;
    }
    expected *= sizes_[d];
  }
}

int64_t wrap_dim(int64_t dim, int64_t ndim, const char* op) {
  const int64_t n = ndim <= 0 ? 1 : ndim;  // a 0-dim tensor accepts dim 0 and -1, as in ATen
  if (dim < -n || dim >= n) {
    TS_ERROR(op ? op : "", op ? ": " : "", "Dimension out of range (expected to be in range of [",
             -n, ", ", n - 1, "], but got ", dim, ")");
  }
  return dim < 0 ? dim + n : dim;
}

int64_t Tensor::size(int64_t d) const {
  if (dim() == 0) TS_ERROR("size: dimension specified as ", d, " but tensor has no dimensions");
  return sizes()[wrap_dim(d, dim(), "size")];
}

int64_t Tensor::stride(int64_t d) const {
  if (dim() == 0) TS_ERROR("stride: dimension specified as ", d, " but tensor has no dimensions");
  return strides()[wrap_dim(d, dim(), "stride")];
}

bool Tensor::is_non_overlapping_and_dense() const {
  return is_contiguous() || ts::is_non_overlapping_and_dense(sizes(), strides());
}

bool is_non_overlapping_and_dense(IntArrayRef sizes, IntArrayRef strides) {
  // Sort dims by stride; dense when each stride equals the product of the smaller dims' sizes.
  const auto ndim = static_cast<int64_t>(sizes.size());
  DimVector perm(static_cast<size_t>(ndim));
  for (int64_t i = 0; i < ndim; ++i) perm[i] = i;
  std::sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) {
    if (sizes[a] < 2) return false;
    if (sizes[b] < 2) return true;
    return strides[a] < strides[b];
  });
  int64_t expected = 1;
  for (int64_t d : perm) {
    const int64_t s = sizes[d];
    if (s == 1) continue;
    if (strides[d] != expected) return false;
    expected *= s;
  }
  return true;
}

// Note [Version counters] in dispatch.cpp: the core bumps it, autograd reads it.
uint32_t Tensor::_version() const {
  return storage()->version();
}

Scalar Tensor::item() const {
  TS_CHECK(defined(), "item: tensor is undefined");
  TS_CHECK(numel() == 1, "item: a Tensor with ", numel(),
           " elements cannot be converted to Scalar");
  if (!is_cpu()) return meta::on_host(*this).item();  // a synchronization, as in ATen
  return TS_DISPATCH_ALL_DTYPES(dtype(), "item",
                                [&] { return Scalar(*static_cast<const scalar_t*>(data_ptr())); });
}

DimVector contiguous_strides(IntArrayRef sizes) {
  DimVector strides(sizes.size());
  int64_t s = 1;
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    strides[d] = s;
    // Only an empty geometry can overflow here (a nonempty one is bounded by its checked numel).
    const auto next = detail::checked_mul(s, std::max<int64_t>(sizes[d], 1));
    TS_CHECK(next.has_value(), "Stride calculation overflowed with sizes=", sizes);
    s = *next;
  }
  return strides;
}

Tensor make_view(const Tensor& base, IntArrayRef sizes, IntArrayRef strides, int64_t offset) {
  Tensor view(
      intrusive_ptr<TensorImpl>::make(base.storage(), base.dtype(), sizes, strides, offset));
  // Autograd tracks views made in grad mode (Note [Differentiable views] in autograd.h) and
  // remembers the root of the others (Note [Views made in no_grad mode]).
  const TensorImpl* b = base.impl();
  const intrusive_ptr<TensorImpl>& root = b->view_base() ? b->view_base_ptr() : base.impl_ptr();
  if (GradMode::is_enabled()) {
    view.impl()->set_view_base(root);
    if (b->no_grad_view_base()) view.impl()->set_no_grad_view_base(b->no_grad_view_base_ptr());
  } else {
    view.impl()->set_no_grad_view_base(b->no_grad_view_base() ? b->no_grad_view_base_ptr() : root);
  }
  return view;
}

namespace detail {

std::optional<int64_t> checked_numel(IntArrayRef sizes) {
  int64_t n = 1;
  bool overflow = false;
  for (int64_t s : sizes) {
    if (s == 0) return 0;
    const auto p = checked_mul(n, s);
    overflow |= !p;
    if (p) n = *p;
  }
  if (overflow) return std::nullopt;
  return n;
}

std::optional<int64_t> checked_geometry_nbytes(IntArrayRef sizes, IntArrayRef strides,
                                               int64_t offset, int64_t itemsize) {
  for (int64_t s : sizes) {
    if (s == 0) return 0;
  }
  std::optional<int64_t> last = offset;
  for (size_t d = 0; d < sizes.size() && last; ++d) {
    const auto step = checked_mul(sizes[d] - 1, strides[d]);
    last = step ? checked_add(*last, *step) : std::nullopt;
  }
  if (!last) return std::nullopt;
  const auto count = checked_add(*last, 1);
  return count ? checked_mul(*count, itemsize) : std::nullopt;
}

}  // namespace detail

namespace {

void check_sizes(const char* op, IntArrayRef size) {
  for (int64_t s : size) {
    TS_CHECK(s >= 0, op, ": Trying to create tensor with negative dimension ", s, ": ", size);
  }
}

// Bytes a new storage needs for the geometry, or a ts::Error naming the op when the count
// overflows (See Note [Checked geometry]).
size_t storage_nbytes(const char* op, IntArrayRef size, IntArrayRef stride, int64_t offset,
                      ScalarType dtype) {
  const auto nbytes = detail::checked_geometry_nbytes(size, stride, offset,
                                                      static_cast<int64_t>(element_size(dtype)));
  TS_CHECK(nbytes.has_value(), op, ": Storage size calculation overflowed with sizes=", size,
           ", strides=", stride, ", storage offset ", offset, " and dtype ", dtype_name(dtype),
           " (argument 'size')");
  return static_cast<size_t>(*nbytes);
}

// A new storage; allocation failure (the allocator's error or std::bad_alloc) names the op.
Storage allocate_storage(const char* op, size_t nbytes, Device device) {
  try {
    return Storage::make(nbytes, device);
  } catch (const std::bad_alloc&) {
    TS_ERROR(op, ": out of memory allocating ", nbytes, " bytes on ", device);
  } catch (const Error& e) {
    if (detail::user_op != nullptr) throw;  // already names the user's op (empty's scope)
    TS_ERROR(op, ": ", e.what());
  }
}

}  // namespace

Tensor empty_strided(IntArrayRef size, IntArrayRef stride, TensorOptions options) {
  const UserOpScope scope("empty_strided");  // see Note [Errors name the op the user called]
  check_sizes("empty_strided", size);
  TS_CHECK(size.size() == stride.size(), "empty_strided: size has ", size.size(),
           " dims but stride has ", stride.size());
  for (int64_t s : stride) TS_CHECK(s >= 0, "empty_strided: negative stride ", s);
  TS_CHECK(detail::checked_numel(size).has_value(),
           "empty_strided: Storage size calculation overflowed with sizes=", size,
           " (argument 'size')");
  const ScalarType dtype = options.dtype();
  const size_t nbytes = storage_nbytes("empty_strided", size, stride, 0, dtype);
  auto storage = allocate_storage("empty_strided", nbytes, options.device());
  return Tensor(intrusive_ptr<TensorImpl>::make(std::move(storage), dtype, size, stride, 0));
}

Tensor empty(IntArrayRef size, TensorOptions options) {
  const UserOpScope scope("empty");  // see Note [Errors name the op the user called]
  check_sizes("empty", size);
  // The contiguous strides are partial products of the sizes: numel bounds them all.
  TS_CHECK(detail::checked_numel(size).has_value(),
           "empty: Storage size calculation overflowed with sizes=", size, " (argument 'size')");
  const DimVector stride = contiguous_strides(size);
  const ScalarType dtype = options.dtype();
  const size_t nbytes = storage_nbytes("empty", size, stride, 0, dtype);
  auto storage = allocate_storage("empty", nbytes, options.device());
  return Tensor(intrusive_ptr<TensorImpl>::make(std::move(storage), dtype, size, stride, 0));
}

const Tensor& Tensor::resize_(IntArrayRef size) const {
  check_sizes("resize_", size);
  TS_CHECK(detail::checked_numel(size).has_value(),
           "resize_: Storage size calculation overflowed with sizes=", size, " (argument 'size')");
  const DimVector strides = contiguous_strides(size);
  const size_t needed = storage_nbytes("resize_", size, strides, storage_offset(), dtype());
  if (needed > storage()->nbytes()) {
    Storage grown = allocate_storage("resize_", needed, device());
    grown->set_version(storage()->version());  // the tensor keeps its version counter's value
    impl_->set_storage(std::move(grown));
  }
  impl_->set_geometry(size, strides, storage_offset());
  return *this;
}

Tensor empty_like(const Tensor& self, std::optional<TensorOptions> options) {
  const UserOpScope scope("empty_like");
  TensorOptions o = self.options();
  if (options && options->has_dtype()) o = o.dtype(options->dtype());
  if (options && options->has_device()) o = o.device(options->device());
  // Keep a dense non-contiguous layout (e.g. a transposed tensor), as ATen's preserve_format.
  if (!self.is_contiguous() && self.is_non_overlapping_and_dense()) {
    return empty_strided(self.sizes(), self.strides(), o);
  }
  return empty(self.sizes(), o);
}

}  // namespace ts
