// Copy and conversion: copy_, clone, contiguous, to, fill_, zero_.
// Params:
//   copy_: compute_dtype = self's dtype: the kernel is looked up by the dtype it writes and
//          converts each src element, whatever its dtype, straight to it (see Note [Conversions
//          round once] in reference/copy.cpp). inputs = {src expanded to self's shape}.
//   fill_: compute_dtype = self's dtype; s0 = the value (checked to fit self's dtype); no inputs.
// clone, contiguous, to and zero_ are composites of empty_like/empty, copy_ and fill_.
#include "meta.h"
#include "touchstone/ops.h"

namespace ts {
namespace {

// Views of the same memory with the same geometry and dtype: copy_ has nothing to do (as ATen).
bool is_same_data(const Tensor& a, const Tensor& b) {
  return a.storage().get() == b.storage().get() && a.storage_offset() == b.storage_offset() &&
         a.sizes() == b.sizes() && a.strides() == b.strides() && a.dtype() == b.dtype();
}

}  // namespace

Tensor& Tensor::copy_(const Tensor& src) const {
  Tensor& self = const_cast<Tensor&>(*this);
  meta::check_defined("copy_", self, "self");
  meta::check_defined("copy_", src, "src");
  if (is_same(src) || is_same_data(self, src)) return self;
  // The kernel runs on self's device; a CPU 0-dim src may join any device (as in meta).
  TS_CHECK(src.device() == device() || (src.is_cpu() && src.dim() == 0),
           "copy_: Expected all tensors to be on the same device, but found at least two devices, ",
           device(), " and ", src.device(), "!");
  const Tensor operands[] = {self, src};
  const DimVector shape = meta::broadcast_shapes("copy_", operands);
  TS_CHECK(sizes() == IntArrayRef(shape), "copy_: output with shape ", sizes(),
           " doesn't match the broadcast shape ", IntArrayRef(shape));
  meta::check_no_internal_overlap("copy_", self);
  meta::check_no_partial_overlap("copy_", self, src);
  OpParams p;
  p.compute_dtype = dtype();
  const KernelFn fn = lookup_kernel(OpId::copy_, dtype(), device());
  if (numel() == 0) return self;
  const Tensor expanded = src.sizes() == sizes() ? src : src.expand(sizes());
  run_kernel(
      fn, KernelCall{OpId::copy_, ArrayRef<Tensor>(&self, 1), ArrayRef<Tensor>(&expanded, 1), p});
  return self;
}

Tensor clone(const Tensor& self) {
  meta::check_defined("clone", self, "self");
  // empty_like keeps a dense non-contiguous layout, as ATen's preserve_format.
  Tensor out = empty_like(self);
  out.copy_(self);
  return out;
}

Tensor contiguous(const Tensor& self) {
  meta::check_defined("contiguous", self, "self");
  if (self.is_contiguous()) return self;
  Tensor out = empty(self.sizes(), self.options());
  out.copy_(self);
  return out;
}

Tensor Tensor::clone() const {
  return ts::clone(*this);
}
Tensor Tensor::contiguous() const {
  return ts::contiguous(*this);
}

Tensor Tensor::to(ScalarType dtype, bool copy) const {
  meta::check_defined("to", *this, "self");
  if (dtype == this->dtype() && !copy) return *this;
  Tensor out = empty_like(*this, TensorOptions(dtype).device(device()));
  out.copy_(*this);
  return out;
}

// Note [fill_ and overlap]
// Filling is idempotent, so an internally overlapping tensor (e.g. expanded) is fine, as in
// ATen (its fill_ builds its iterator with the memory-overlap check off).
Tensor& Tensor::fill_(const Scalar& value) const {
  Tensor& self = const_cast<Tensor&>(*this);
  meta::check_defined("fill_", self, "self");
  meta::check_scalar_fits("fill_", value, dtype());
  OpParams p;
  p.compute_dtype = dtype();
  p.s0 = value;
  dispatch(KernelCall{OpId::fill_, ArrayRef<Tensor>(&self, 1), {}, p}, device());
  return self;
}

Tensor& Tensor::zero_() const {
  return fill_(0);
}

}  // namespace ts
