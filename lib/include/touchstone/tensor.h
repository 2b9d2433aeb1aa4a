#pragma once
// ts::Tensor: a refcounted handle to a TensorImpl (storage, sizes, strides, offset, dtype).
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string_view>
#include <tuple>
#include <vector>

#include "touchstone/array_ref.h"
#include "touchstone/error.h"
#include "touchstone/plain_ops.h"
#include "touchstone/scalar.h"
#include "touchstone/storage.h"
#include "touchstone/tensor_options.h"

namespace ts {

namespace autograd {
class Node;
}

// Autograd's per-tensor state (lib/src/autograd); tensors autograd never touched have none.
struct AutogradMetaInterface {
  virtual ~AutogradMetaInterface() = default;
};

// Note [Inline sizes]
// Sizes and strides live in DimVectors with six inline slots, so tensors of up to six dims never
// touch the heap for their shape; more dims are allowed and spill to the heap.
class TensorImpl : public RefCounted {
 public:
  TensorImpl(Storage storage, ScalarType dtype, IntArrayRef sizes, IntArrayRef strides,
             int64_t storage_offset);

  IntArrayRef sizes() const { return sizes_; }
  IntArrayRef strides() const { return strides_; }
  int64_t dim() const { return static_cast<int64_t>(sizes_.size()); }
  int64_t numel() const { return numel_; }
  int64_t storage_offset() const { return storage_offset_; }
  ScalarType dtype() const { return dtype_; }
  Device device() const { return storage_->device(); }
  const Storage& storage() const { return storage_; }
  bool is_contiguous() const { return is_contiguous_; }
  void* data() const {
    return static_cast<char*>(storage_->data()) +
           storage_offset_ * static_cast<int64_t>(element_size(dtype_));
  }
  // Changes the geometry in place (used by resize_ and out= handling); keeps the storage.
  void set_geometry(IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset);
  void set_storage(Storage s) { storage_ = std::move(s); }
  // A 0-dim tensor made from a Scalar; see Note [Three tiers] in promotion.h.
  bool is_wrapped_number() const { return wrapped_number_; }
  void set_wrapped_number(bool v) { wrapped_number_ = v; }
  // Autograd: its metadata (null until needed) and, for a view made with grad mode on, the
  // tensor at the root of the view chain (see Note [Differentiable views] in autograd.h).
  AutogradMetaInterface* autograd_meta() const { return autograd_meta_.get(); }
  void set_autograd_meta(std::unique_ptr<AutogradMetaInterface> m) {
    autograd_meta_ = std::move(m);
  }
  TensorImpl* view_base() const { return view_base_.get(); }
  const intrusive_ptr<TensorImpl>& view_base_ptr() const { return view_base_; }
  void set_view_base(intrusive_ptr<TensorImpl> base) { view_base_ = std::move(base); }
  // For a view made with grad mode off (or a view of one): the root of its view chain, which
  // autograd does not follow (Note [Views made in no_grad mode] in autograd.h).
  TensorImpl* no_grad_view_base() const { return no_grad_view_base_.get(); }
  const intrusive_ptr<TensorImpl>& no_grad_view_base_ptr() const { return no_grad_view_base_; }
  void set_no_grad_view_base(intrusive_ptr<TensorImpl> base) {
    no_grad_view_base_ = std::move(base);
  }

 private:
  void refresh();
  Storage storage_;
  DimVector sizes_;
  DimVector strides_;
  int64_t storage_offset_ = 0;
  int64_t numel_ = 1;
  ScalarType dtype_;
  bool is_contiguous_ = true;
  bool wrapped_number_ = false;
  std::unique_ptr<AutogradMetaInterface> autograd_meta_;
  intrusive_ptr<TensorImpl> view_base_;
  intrusive_ptr<TensorImpl> no_grad_view_base_;
};

class Tensor;
using TensorList = ArrayRef<Tensor>;

class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(intrusive_ptr<TensorImpl> impl) : impl_(std::move(impl)) {}

  bool defined() const { return static_cast<bool>(impl_); }
  TensorImpl* impl() const { return impl_.get(); }
  const intrusive_ptr<TensorImpl>& impl_ptr() const { return impl_; }
  bool is_same(const Tensor& o) const { return impl_ == o.impl_; }
  size_t use_count() const { return impl_.use_count(); }

  // Geometry.
  IntArrayRef sizes() const { return impl_->sizes(); }
  IntArrayRef strides() const { return impl_->strides(); }
  int64_t size(int64_t dim) const;
  int64_t stride(int64_t dim) const;
  int64_t dim() const { return impl_->dim(); }
  int64_t ndimension() const { return dim(); }
  int64_t numel() const { return impl_->numel(); }
  int64_t storage_offset() const { return impl_->storage_offset(); }
  ScalarType scalar_type() const { return impl_->dtype(); }
  ScalarType dtype() const { return impl_->dtype(); }
  Device device() const { return impl_->device(); }
  bool is_cpu() const { return device().is_cpu(); }
  bool is_cuda() const { return device().is_cuda(); }
  TensorOptions options() const { return TensorOptions(dtype()).device(device()); }
  size_t element_size() const { return ts::element_size(dtype()); }
  size_t nbytes() const { return static_cast<size_t>(numel()) * element_size(); }
  const Storage& storage() const { return impl_->storage(); }
  bool is_contiguous() const { return impl_->is_contiguous(); }
  bool is_floating_point() const { return is_floating_type(dtype()); }
  bool is_non_overlapping_and_dense() const;

  // Data access (CPU). data_ptr<T>() checks that T matches the dtype.
  void* data_ptr() const { return impl_->data(); }
  template <typename T>
  T* data_ptr() const {
    TS_CHECK(scalar_type_of<T> == dtype(), "data_ptr: expected dtype ", dtype(), " but got ",
             scalar_type_of<T>);
    return static_cast<T*>(impl_->data());
  }
  Scalar item() const;
  template <typename T>
  T item() const {
    return item().to<T>();
  }

  // Views (share storage; see lib/src/views.cpp).
  Tensor view(IntArrayRef size) const;
  Tensor reshape(IntArrayRef size) const;
  Tensor as_strided(IntArrayRef size, IntArrayRef stride,
                    std::optional<int64_t> storage_offset = std::nullopt) const;
  Tensor narrow(int64_t dim, int64_t start, int64_t length) const;
  Tensor slice(int64_t dim = 0, std::optional<int64_t> start = std::nullopt,
               std::optional<int64_t> end = std::nullopt, int64_t step = 1) const;
  Tensor select(int64_t dim, int64_t index) const;
  Tensor operator[](int64_t index) const { return select(0, index); }
  Tensor transpose(int64_t dim0, int64_t dim1) const;
  Tensor t() const;
  Tensor permute(IntArrayRef dims) const;
  Tensor expand(IntArrayRef size) const;
  Tensor expand_as(const Tensor& other) const;
  Tensor squeeze() const;
  Tensor squeeze(int64_t dim) const;
  Tensor unsqueeze(int64_t dim) const;
  Tensor flatten(int64_t start_dim = 0, int64_t end_dim = -1) const;
  Tensor unflatten(int64_t dim, IntArrayRef sizes) const;
  Tensor movedim(IntArrayRef source, IntArrayRef destination) const;
  Tensor diagonal(int64_t offset = 0, int64_t dim1 = 0, int64_t dim2 = 1) const;
  Tensor unfold(int64_t dimension, int64_t size, int64_t step) const;
  std::vector<Tensor> split(int64_t split_size, int64_t dim = 0) const;
  std::vector<Tensor> split_with_sizes(IntArrayRef split_sizes, int64_t dim = 0) const;
  std::vector<Tensor> chunk(int64_t chunks, int64_t dim = 0) const;
  std::vector<Tensor> split(IntArrayRef split_sizes, int64_t dim = 0) const;
  std::vector<Tensor> unbind(int64_t dim = 0) const;
  Tensor movedim(int64_t source, int64_t destination) const;
  Tensor contiguous() const;

  // Copy and conversion.
  Tensor& copy_(const Tensor& src) const;
  Tensor clone() const;
  Tensor to(ScalarType dtype, bool copy = false) const;
  Tensor& fill_(const Scalar& value) const;
  Tensor& zero_() const;
  const Tensor& resize_(IntArrayRef size) const;

  // The plain elementwise ops' methods (x.exp(), x.exp_(), x.mul(y), x.mul_(2)), from
  // op_list.def: Note [Generated declarations] in touchstone/plain_ops.h.
// clang-format off
#define TS_METHODS_None(...)
#define TS_METHODS_Unary(name, m, i, o)                      \
  TS_PP_IF_##m(Tensor name() const;)                         \
  TS_PP_IF_##m(TS_PP_IF_##i(Tensor& name##_() const;))
#define TS_METHODS_Binary(name, m, i, o)                     \
  TS_PP_IF_##m(Tensor name(const Tensor& other) const;       \
               Tensor name(const Scalar& other) const;)      \
  TS_PP_IF_##i(Tensor& name##_(const Tensor& other) const;   \
               Tensor& name##_(const Scalar& other) const;)
// clang-format on
#define TS_OP(name, kind, sig, params, variants, diff, dtypes, parts, schema) \
  TS_PLAIN_OP(TS_METHODS_, name, kind, sig, params, variants)
#include "touchstone/op_list.def"
#undef TS_OP
#undef TS_METHODS_Binary
#undef TS_METHODS_Unary
#undef TS_METHODS_None

  // Unary and binary ops with parameters.
  Tensor clamp(std::optional<Scalar> min, std::optional<Scalar> max = std::nullopt) const;
  Tensor& clamp_(std::optional<Scalar> min, std::optional<Scalar> max = std::nullopt) const;

  // math (issue 16)
  Tensor square() const;
  Tensor& square_() const;
  Tensor nan_to_num(std::optional<double> nan = std::nullopt,
                    std::optional<double> posinf = std::nullopt,
                    std::optional<double> neginf = std::nullopt) const;
  Tensor& nan_to_num_(std::optional<double> nan = std::nullopt,
                      std::optional<double> posinf = std::nullopt,
                      std::optional<double> neginf = std::nullopt) const;
  Tensor isclose(const Tensor& other, double rtol = 1e-05, double atol = 1e-08,
                 bool equal_nan = false) const;

  Tensor add(const Tensor& other, const Scalar& alpha = 1) const;
  Tensor& add_(const Tensor& other, const Scalar& alpha = 1) const;
  Tensor add(const Scalar& other, const Scalar& alpha = 1) const;
  Tensor& add_(const Scalar& other, const Scalar& alpha = 1) const;
  Tensor sub(const Tensor& other, const Scalar& alpha = 1) const;
  Tensor& sub_(const Tensor& other, const Scalar& alpha = 1) const;
  Tensor sub(const Scalar& other, const Scalar& alpha = 1) const;
  Tensor& sub_(const Scalar& other, const Scalar& alpha = 1) const;
  Tensor div(const Tensor& other, std::optional<std::string_view> rounding_mode) const;
  Tensor& div_(const Tensor& other, std::optional<std::string_view> rounding_mode) const;
  Tensor div(const Tensor& other) const;
  Tensor& div_(const Tensor& other) const;
  Tensor div(const Scalar& other) const;
  Tensor& div_(const Scalar& other) const;

  // Ternary.
  Tensor where(const Tensor& condition, const Tensor& other) const;
  Tensor lerp(const Tensor& end, const Scalar& weight) const;
  Tensor& lerp_(const Tensor& end, const Scalar& weight) const;
  Tensor lerp(const Tensor& end, const Tensor& weight) const;
  Tensor& lerp_(const Tensor& end, const Tensor& weight) const;
  Tensor addcmul(const Tensor& t1, const Tensor& t2, const Scalar& value = 1) const;
  Tensor& addcmul_(const Tensor& t1, const Tensor& t2, const Scalar& value = 1) const;
  Tensor masked_fill(const Tensor& mask, const Scalar& value) const;
  Tensor& masked_fill_(const Tensor& mask, const Scalar& value) const;

  // Reductions (an empty dim list reduces every dim).
  Tensor sum(std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor sum(IntArrayRef dim, bool keepdim = false,
             std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor mean(std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor mean(IntArrayRef dim, bool keepdim = false,
              std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor prod(std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor prod(int64_t dim, bool keepdim = false,
              std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor amax(IntArrayRef dim = {}, bool keepdim = false) const;
  Tensor amin(IntArrayRef dim = {}, bool keepdim = false) const;
  Tensor max() const;
  Tensor min() const;
  std::tuple<Tensor, Tensor> max(int64_t dim, bool keepdim = false) const;
  std::tuple<Tensor, Tensor> min(int64_t dim, bool keepdim = false) const;
  Tensor argmax(std::optional<int64_t> dim = std::nullopt, bool keepdim = false) const;
  Tensor argmin(std::optional<int64_t> dim = std::nullopt, bool keepdim = false) const;
  Tensor var(IntArrayRef dim = {}, double correction = 1, bool keepdim = false) const;
  Tensor std(IntArrayRef dim = {}, double correction = 1, bool keepdim = false) const;
  Tensor norm(const Scalar& p = 2, IntArrayRef dim = {}, bool keepdim = false) const;
  Tensor logsumexp(IntArrayRef dim, bool keepdim = false) const;
  Tensor all() const;
  Tensor all(int64_t dim, bool keepdim = false) const;
  Tensor any() const;
  Tensor any(int64_t dim, bool keepdim = false) const;
  Tensor cumsum(int64_t dim, std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor& cumsum_(int64_t dim, std::optional<ScalarType> dtype = std::nullopt) const;

  // nn, linalg, indexing.
  Tensor softmax(int64_t dim, std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor log_softmax(int64_t dim, std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor mm(const Tensor& mat2) const;
  Tensor bmm(const Tensor& mat2) const;
  Tensor matmul(const Tensor& other) const;
  Tensor addmm(const Tensor& mat1, const Tensor& mat2, const Scalar& beta = 1,
               const Scalar& alpha = 1) const;
  Tensor& addmm_(const Tensor& mat1, const Tensor& mat2, const Scalar& beta = 1,
                 const Scalar& alpha = 1) const;
  Tensor dot(const Tensor& other) const;
  Tensor mv(const Tensor& vec) const;
  Tensor outer(const Tensor& vec2) const;
  Tensor index_select(int64_t dim, const Tensor& index) const;
  Tensor gather(int64_t dim, const Tensor& index) const;
  Tensor scatter_add(int64_t dim, const Tensor& index, const Tensor& src) const;
  Tensor& scatter_add_(int64_t dim, const Tensor& index, const Tensor& src) const;

  // advanced indexing (issue 16)
  Tensor index(ArrayRef<std::optional<Tensor>> indices) const;
  Tensor index_put(ArrayRef<std::optional<Tensor>> indices, const Tensor& values,
                   bool accumulate = false) const;
  Tensor& index_put_(ArrayRef<std::optional<Tensor>> indices, const Tensor& values,
                     bool accumulate = false) const;
  Tensor index_add(int64_t dim, const Tensor& index, const Tensor& source,
                   const Scalar& alpha = 1) const;
  Tensor& index_add_(int64_t dim, const Tensor& index, const Tensor& source,
                     const Scalar& alpha = 1) const;
  Tensor scatter(int64_t dim, const Tensor& index, const Tensor& src) const;
  Tensor scatter(int64_t dim, const Tensor& index, const Scalar& value) const;
  Tensor scatter(int64_t dim, const Tensor& index, const Tensor& src,
                 std::string_view reduce) const;
  Tensor scatter(int64_t dim, const Tensor& index, const Scalar& value,
                 std::string_view reduce) const;
  Tensor& scatter_(int64_t dim, const Tensor& index, const Tensor& src) const;
  Tensor& scatter_(int64_t dim, const Tensor& index, const Scalar& value) const;
  Tensor& scatter_(int64_t dim, const Tensor& index, const Tensor& src,
                   std::string_view reduce) const;
  Tensor& scatter_(int64_t dim, const Tensor& index, const Scalar& value,
                   std::string_view reduce) const;
  Tensor scatter_reduce(int64_t dim, const Tensor& index, const Tensor& src,
                        std::string_view reduce, bool include_self = true) const;
  Tensor& scatter_reduce_(int64_t dim, const Tensor& index, const Tensor& src,
                          std::string_view reduce, bool include_self = true) const;
  Tensor masked_select(const Tensor& mask) const;
  Tensor nonzero() const;
  Tensor take(const Tensor& index) const;
  Tensor put(const Tensor& index, const Tensor& source, bool accumulate = false) const;
  Tensor& put_(const Tensor& index, const Tensor& source, bool accumulate = false) const;
  Tensor index_copy(int64_t dim, const Tensor& index, const Tensor& source) const;
  Tensor& index_copy_(int64_t dim, const Tensor& index, const Tensor& source) const;
  Tensor index_fill(int64_t dim, const Tensor& index, const Scalar& value) const;
  Tensor index_fill(int64_t dim, const Tensor& index, const Tensor& value) const;
  Tensor& index_fill_(int64_t dim, const Tensor& index, const Scalar& value) const;
  Tensor& index_fill_(int64_t dim, const Tensor& index, const Tensor& value) const;
  Tensor masked_scatter(const Tensor& mask, const Tensor& source) const;
  Tensor& masked_scatter_(const Tensor& mask, const Tensor& source) const;

  // shape (issue 16)
  Tensor flip(IntArrayRef dims) const;
  Tensor roll(IntArrayRef shifts, IntArrayRef dims = {}) const;
  Tensor tril(int64_t diagonal = 0) const;
  Tensor& tril_(int64_t diagonal = 0) const;
  Tensor triu(int64_t diagonal = 0) const;
  Tensor& triu_(int64_t diagonal = 0) const;
  Tensor trace() const;
  Tensor diag(int64_t diagonal = 0) const;
  Tensor repeat(IntArrayRef repeats) const;
  Tensor tile(IntArrayRef dims) const;
  Tensor diff(int64_t n = 1, int64_t dim = -1, const Tensor& prepend = {},
              const Tensor& append = {}) const;
  Tensor kron(const Tensor& other) const;
  Tensor repeat_interleave(const Tensor& repeats, std::optional<int64_t> dim = std::nullopt,
                           std::optional<int64_t> output_size = std::nullopt) const;
  Tensor repeat_interleave(int64_t repeats, std::optional<int64_t> dim = std::nullopt,
                           std::optional<int64_t> output_size = std::nullopt) const;
  Tensor baddbmm(const Tensor& batch1, const Tensor& batch2, const Scalar& beta = 1,
                 const Scalar& alpha = 1) const;
  Tensor addbmm(const Tensor& batch1, const Tensor& batch2, const Scalar& beta = 1,
                const Scalar& alpha = 1) const;
  Tensor addmv(const Tensor& mat, const Tensor& vec, const Scalar& beta = 1,
               const Scalar& alpha = 1) const;
  // sorting and selection (issue 16).
  std::tuple<Tensor, Tensor> sort(int64_t dim = -1, bool descending = false) const;
  std::tuple<Tensor, Tensor> sort(std::optional<bool> stable, int64_t dim,
                                  bool descending = false) const;
  Tensor argsort(int64_t dim = -1, bool descending = false) const;
  Tensor argsort(bool stable, int64_t dim, bool descending = false) const;
  std::tuple<Tensor, Tensor> topk(int64_t k, int64_t dim = -1, bool largest = true,
                                  bool sorted = true) const;
  std::tuple<Tensor, Tensor> kthvalue(int64_t k, int64_t dim = -1, bool keepdim = false) const;
  Tensor median() const;
  std::tuple<Tensor, Tensor> median(int64_t dim, bool keepdim = false) const;
  std::tuple<Tensor, Tensor> mode(int64_t dim = -1, bool keepdim = false) const;
  std::tuple<Tensor, Tensor> cummax(int64_t dim) const;
  std::tuple<Tensor, Tensor> cummin(int64_t dim) const;
  // scans (issue 16).
  Tensor cumprod(int64_t dim, std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor& cumprod_(int64_t dim, std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor logcumsumexp(int64_t dim) const;

  // Autograd (lib/src/autograd; see touchstone/autograd.h).
  bool requires_grad() const;
  // Only floating tensors can require grad; only leaves can stop requiring it.
  const Tensor& requires_grad_(bool requires_grad = true) const;
  const Tensor& grad() const;  // undefined until a backward pass reaches this tensor
  Tensor& mutable_grad() const;
  std::shared_ptr<autograd::Node> grad_fn() const;
  bool is_leaf() const;
  uint32_t output_nr() const;
  Tensor detach() const;  // shares storage and version counter, has no history
  const Tensor& detach_() const;
  void retain_grad() const;  // keep grad() for a non-leaf after backward
  bool retains_grad() const;
  uint32_t _version() const;
  bool is_view() const;
  Tensor _base() const;  // the root of the view chain; undefined unless is_view()
  void backward(const Tensor& gradient = {}, std::optional<bool> retain_graph = std::nullopt,
                bool create_graph = false) const;

 private:
  intrusive_ptr<TensorImpl> impl_;
};

// Prints values, dtype and shape, like PyTorch's repr.
std::ostream& operator<<(std::ostream& os, const Tensor& t);
std::string to_string(const Tensor& t);

// A new tensor sharing `base`'s storage with the given geometry (every view goes through here).
Tensor make_view(const Tensor& base, IntArrayRef sizes, IntArrayRef strides, int64_t offset);
// Contiguous strides for `sizes`.
DimVector contiguous_strides(IntArrayRef sizes);
// Whether a geometry covers its memory once, with no gaps (Tensor::is_non_overlapping_and_dense).
bool is_non_overlapping_and_dense(IntArrayRef sizes, IntArrayRef strides);
// Wraps a possibly negative dim into [0, ndim); names the op in the error.
int64_t wrap_dim(int64_t dim, int64_t ndim, const char* op = nullptr);

}  // namespace ts
