// Copy and conversion: copy_, clone, contiguous, to, fill_, zero_.
// Params:
//   copy_: compute_dtype = self's dtype: the kernel is looked up by the dtype it writes and
//          converts each src element, whatever its dtype, straight to it (see Note [Conversions
//          round once] in reference/copy.cpp). inputs = {src expanded to self's shape}.
//          NoParams.
//   fill_: compute_dtype = self's dtype; no inputs; ValueParams{value} (checked to fit self's
//          dtype).
// clone, contiguous, to and zero_ are composites of empty_like/empty, copy_ and fill_.
// Call kinds: Tensor::copy_ and fill_ are InPlace calls; copy_into_new and fill_new (clone,
// contiguous, to, the fill factories) write a tensor the caller just allocated, so they are
// Functional calls: no version bump, and autograd treats the result as a fresh output.
#include "../autograd/derivatives.h"
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

namespace meta {

void copy_with_kind(const Tensor& self, const Tensor& src, CallKind kind) {
  const UserOpScope scope("copy_");
  meta::check_defined("copy_", self, "self");
  meta::check_defined("copy_", src, "src");
  if (self.is_same(src) || is_same_data(self, src)) return;
  // The kernel runs on self's device, except that a host <-> device copy runs on the device
  // side's kernel (see optimized/cuda/copy.cu), which also copies between two CUDA devices; a
  // CPU 0-dim src may join any device.
  const bool cross_device = self.is_cuda() || src.is_cuda();
  TS_CHECK(src.device() == self.device() || (src.is_cpu() && src.dim() == 0) || cross_device,
           "copy_: Expected all tensors to be on the same device, but found at least two devices, ",
           self.device(), " and ", src.device(), "! (argument 'src')");
  const Device kernel_device = self.is_cpu() ? src.device() : self.device();
  const Tensor operands[] = {self, src};
  const DimVector shape = meta::broadcast_shapes("copy_", operands, OpId::copy_);
  TS_CHECK(self.sizes() == IntArrayRef(shape), "copy_: output with shape ", self.sizes(),
           " doesn't match the broadcast shape ", IntArrayRef(shape), " (argument 'self')");
  meta::check_no_internal_overlap("copy_", self, "self");
  meta::check_no_partial_overlap("copy_", self, src, "self", "src");
  OpParams p;
  p.compute_dtype = self.dtype();
  // Note [Transfers]
  // A copy between the host and a device, or between two devices, moves bytes and judges no
  // kernel set; under a set without CUDA kernels (the reference), the optimized set's runs it.
  std::optional<KernelSetGuard> transfer;
  if (!(src.device() == self.device()) && cross_device &&
      !supported_dtypes(OpId::copy_, kernel_device.type(), active_kernel_set()).has(self.dtype())) {
    transfer.emplace("optimized");
  }
  const KernelFn fn = lookup_kernel(OpId::copy_, self.dtype(), kernel_device);
  // An empty copy still runs (kernels do nothing): autograd records its node, as ATen's
  // clone of an empty input has CloneBackward0.
  const Tensor expanded = src.sizes() == self.sizes() ? src : src.expand(self.sizes());
  run_kernel(fn, KernelCall{OpId::copy_, ArrayRef<Tensor>(&self, 1), ArrayRef<Tensor>(&expanded, 1),
                            p, kind});
}

void copy_into_new(const Tensor& self, const Tensor& src) {
  copy_with_kind(self, src, CallKind::Functional);
}

Tensor on_host(const Tensor& t) {
  if (t.is_cpu()) return t.contiguous();
  const Tensor host = empty(t.sizes(), TensorOptions(t.dtype()));
  host.copy_(t);
  return host;
}

}  // namespace meta

Tensor& Tensor::copy_(const Tensor& src) const {
  meta::copy_with_kind(*this, src, CallKind::InPlace);
  return const_cast<Tensor&>(*this);
}

Tensor clone(const Tensor& self) {
  const UserOpScope scope("clone");
  meta::check_defined("clone", self, "self");
  // empty_like keeps a dense non-contiguous layout, as ATen's preserve_format.
  Tensor out = empty_like(self);
  meta::copy_into_new(out, self);
  return out;
}

Tensor contiguous(const Tensor& self) {
  const UserOpScope scope("contiguous");
  meta::check_defined("contiguous", self, "self");
  if (self.is_contiguous()) return self;
  Tensor out = empty(self.sizes(), self.options());
  meta::copy_into_new(out, self);
  return out;
}

Tensor Tensor::clone() const {
  return ts::clone(*this);
}
Tensor Tensor::contiguous() const {
  return ts::contiguous(*this);
}

Tensor Tensor::to(ScalarType dtype, bool copy) const {
  const UserOpScope scope("to");
  meta::check_defined("to", *this, "self");
  if (dtype == this->dtype() && !copy) return *this;
  Tensor out = empty_like(*this, TensorOptions(dtype).device(device()));
  meta::copy_into_new(out, *this);
  return out;
}

// Note [fill_ and overlap]
// Filling is idempotent, so an internally overlapping tensor (e.g. expanded) is fine, as in
// ATen (its fill_ builds its iterator with the memory-overlap check off).
namespace meta {

void fill_with_kind(const Tensor& self, const Scalar& value, CallKind kind) {
  const UserOpScope scope("fill_");
  meta::check_defined("fill_", self, "self");
  meta::check_scalar_fits("fill_", value, self.dtype());
  OpParams p;
  p.compute_dtype = self.dtype();
  p.set(ValueParams{value});
  dispatch(KernelCall{OpId::fill_, ArrayRef<Tensor>(&self, 1), {}, p, kind}, self.device());
}

void fill_new(const Tensor& self, const Scalar& value) {
  fill_with_kind(self, value, CallKind::Functional);
}

}  // namespace meta

Tensor& Tensor::fill_(const Scalar& value) const {
  meta::fill_with_kind(*this, value, CallKind::InPlace);
  return const_cast<Tensor&>(*this);
}

Tensor& Tensor::zero_() const {
  const UserOpScope scope("zero_");
  return fill_(0);
}

}  // namespace ts

// ---- derivatives (Note [Adding a derivative]) ----
// clone, contiguous and to are composites of copy_, so these formulas cover them too.
namespace ts::autograd {

TS_REGISTER_DERIVATIVES(copy) {
  // copy_(Tensor(a!) self, Tensor src) -> Tensor(a!)          KernelCall inputs: {src}
  //   self: zeros (overwritten; not an input of the call)     src: grad.to(src.device)
  // The engine casts grad to src's dtype; src's ExpandBackward0 sums a broadcast src. A copy
  // across devices sends grad back to src's device (as ATen's CopyBackwards).
  //   The in-place call's node has a second edge, the overwritten self's history (Note
  //   [copy_ overwrites self] in lib/src/autograd/slot.cpp): zeros, as ATen's CopyBackwards.
  m.def(OpId::copy_, save_nothing(), [](const BackwardArgs& a) -> Grads {
    const Tensor& grad = a.grad();
    const Tensor self_grad = a.needs_grad(1) ? zeros_like(grad) : Tensor();
    const Device src_device = a.input_device(0);
    if (grad.device() == src_device) return {grad, self_grad};
    Tensor moved = empty_like(grad, TensorOptions(grad.dtype()).device(src_device));
    moved.copy_(grad);
    return {moved, self_grad};
  });
}

}  // namespace ts::autograd
