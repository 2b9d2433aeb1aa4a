// Shared meta helpers; see meta.h.
#include "meta.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "../autograd/variable.h"
#include "touchstone/ops.h"
#include "touchstone/tensor_iterator.h"

namespace ts::meta {

DimVector broadcast_shapes(const char* op, TensorList tensors) {
  size_t ndim = 0;
  for (const Tensor& t : tensors) {
    if (t.defined()) ndim = std::max(ndim, static_cast<size_t>(t.dim()));
  }
  DimVector shape(ndim, 1);
  for (const Tensor& t : tensors) {
    if (!t.defined()) continue;
    const size_t off = ndim - static_cast<size_t>(t.dim());
    for (size_t d = 0; d < static_cast<size_t>(t.dim()); ++d) {
      const int64_t s = t.sizes()[d];
      int64_t& r = shape[off + d];
      if (r == s || s == 1) continue;
      TS_CHECK(r == 1, op, ": The size of tensor a (", r, ") must match the size of tensor b (", s,
               ") at non-singleton dimension ", off + d);
      r = s;
    }
  }
  return shape;
}

void check_defined(const char* op, const Tensor& t, const char* arg) {
  TS_CHECK(t.defined(), op, ": expected a defined tensor for argument '", arg, "'");
}

Device common_device(const char* op, TensorList tensors) {
  std::optional<Device> dev;
  for (const Tensor& t : tensors) {
    if (!t.defined() || (t.dim() == 0 && t.is_cpu())) continue;
    if (!dev) dev = t.device();
    TS_CHECK(*dev == t.device(), op,
             ": Expected all tensors to be on the same device, but found at least two devices, ",
             *dev, " and ", t.device(), "!");
  }
  if (dev) return *dev;
  for (const Tensor& t : tensors) {
    if (t.defined()) return t.device();
  }
  return kCPU;
}

void check_dtype_supported(const char* op, ScalarType t, DTypeSet supported, const char* arg) {
  TS_CHECK(supported.has(t), op, ": not implemented for dtype ", t, *arg ? " (argument '" : "", arg,
           *arg ? "')" : "");
}

DimVector reduction_dims(const char* op, IntArrayRef dims, int64_t ndim) {
  DimVector out;
  if (dims.empty()) {
    for (int64_t d = 0; d < ndim; ++d) out.push_back(d);
    return out;
  }
  for (int64_t d : dims) {
    const int64_t w = wrap_dim(d, ndim, op);
    TS_CHECK(std::find(out.begin(), out.end(), w) == out.end(), op, ": dim ", w,
             " appears multiple times in the list of dims");
    out.push_back(w);
  }
  std::sort(out.begin(), out.end());
  if (ndim == 0) out.clear();  // a 0-dim tensor reduces over nothing
  return out;
}

void check_out(const char* op, const Tensor& out, IntArrayRef shape, ScalarType result_dtype,
               const char* arg) {
  check_defined(op, out, arg);
  TS_CHECK(can_cast(result_dtype, out.dtype()), op, ": result type ", result_dtype,
           " can't be cast to the desired output type ", out.dtype(), " (argument '", arg, "')");
  TS_CHECK(out.numel() == 0 || out.sizes() == shape, op, ": output with shape ", out.sizes(),
           " doesn't match the result shape ", shape, " (argument '", arg,
           "'); pass an empty tensor to have it resized");
}

void check_out_autograd(OpId op, TensorList inputs, const Tensor& out) {
  autograd::check_out_allowed(op, inputs, out);
}

void resize_out(const Tensor& out, IntArrayRef shape) {
  if (out.sizes() != shape) out.resize_(shape);
}

void check_no_internal_overlap(const char* op, const Tensor& t) {
  for (int64_t d = 0; d < t.dim(); ++d) {
    TS_CHECK(!(t.sizes()[d] > 1 && t.strides()[d] == 0), op,
             ": unsupported operation: more than one element of the written-to tensor refers to a "
             "single memory location. Please clone() the tensor before performing the operation.");
  }
}

void check_no_partial_overlap(const char* op, const Tensor& out, const Tensor& in) {
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
  TS_CHECK(disjoint, op,
           ": unsupported operation: some elements of the input tensor and the written-to tensor "
           "refer to a single memory location. Please clone() the tensor before performing the "
           "operation.");
}

namespace {

double floating_max(ScalarType t) {
  switch (t) {
    case kHalf:
      return 65504.0;
    case kBFloat16:
      return 3.3895313892515355e38;  // 0x7F7F
    case kFloat:
      return std::numeric_limits<float>::max();
    default:
      return std::numeric_limits<double>::max();
  }
}

int64_t integral_min(ScalarType t) {
  switch (t) {
    case kChar:
      return INT8_MIN;
    case kShort:
      return INT16_MIN;
    case kInt:
      return INT32_MIN;
    case kLong:
      return INT64_MIN;
    default:
      return 0;  // bool, uint8
  }
}

int64_t integral_max(ScalarType t) {
  switch (t) {
    case kBool:
      return 1;
    case kByte:
      return UINT8_MAX;
    case kChar:
      return INT8_MAX;
    case kShort:
      return INT16_MAX;
    case kInt:
      return INT32_MAX;
    default:
      return INT64_MAX;
  }
}

}  // namespace

void check_scalar_fits(const char* op, const Scalar& v, ScalarType t, const char* arg) {
  if (v.is_bool()) return;  // false and true fit every dtype
  const double d = v.to_double();
  bool fits;
  if (is_floating_type(t)) {
    // Infinities and NaN convert to any floating dtype; finite values must be within range.
    fits = std::isinf(d) || std::isnan(d) || std::fabs(d) <= floating_max(t);
  } else if (v.is_floating_point()) {
    // NaN fails both comparisons; the bounds compare as doubles, as in c10.
    fits = d >= static_cast<double>(integral_min(t)) && d <= static_cast<double>(integral_max(t));
  } else {
    const int64_t i = v.to_long(), lo = integral_min(t), hi = integral_max(t);
    // c10 lets a negative integer wrap into an unsigned dtype (bool, uint8) when |i| <= max.
    fits = lo == 0 ? i <= hi && i >= -hi : i >= lo && i <= hi;
  }
  TS_CHECK(fits, op, ": value cannot be converted to type ", t, " without overflow (argument '",
           arg, "')");
}

Tensor allocate_like(IntArrayRef shape, ScalarType dtype, Device device, TensorList inputs) {
  const TensorOptions options = TensorOptions(dtype).device(device);
  for (const Tensor& t : inputs) {
    if (t.defined() && t.dim() > 0 && !t.is_contiguous()) {
      return empty_strided(shape, TensorIterator::output_strides_like(shape, inputs), options);
    }
  }
  return empty(shape, options);
}

Tensor prepare_output(const char* op, Variant v, const Tensor& out, IntArrayRef shape,
                      ScalarType dtype, Device device, TensorList inputs) {
  if (v == Variant::Functional) return empty(shape, TensorOptions(dtype).device(device));
  check_out(op, out, shape, dtype);
  check_out_resizable(op, out, shape, inputs);
  TS_CHECK(out.device() == device, op, ": Expected out tensor to be on device ", device,
           " but got ", out.device());
  check_no_internal_overlap(op, out);
  for (const Tensor& in : inputs) check_no_partial_overlap(op, out, in);
  resize_out(out, shape);
  return out;
}

void check_out_resizable(const char* op, const Tensor& out, IntArrayRef shape, TensorList inputs,
                         const char* arg) {
  if (auto id = find_op(op)) check_out_autograd(*id, inputs, out);
  for (const Tensor& in : inputs) {
    // Resizing an (empty) out= that is also an input would change the input under the kernel.
    TS_CHECK(!(in.is_same(out) && out.sizes() != shape), op, ": the ", arg,
             "= tensor is also an input and would be resized to the result's shape ", shape,
             "; pass another tensor (argument '", arg, "')");
  }
}

Tensor elementwise(const ElementwiseSpec& spec, Variant v, const Tensor& out, TensorList inputs,
                   OpParams& p) {
  const char* op = op_info(spec.op).name.data();
  for (const Tensor& t : inputs) check_defined(op, t, "input");
  const Device device = common_device(op, inputs);
  ScalarType common = result_type(inputs);
  check_dtype_supported(op, common, spec.supported);
  if (spec.int_to_float && !is_floating_type(common)) common = kDefaultDtype;
  p.compute_dtype = common;
  const ScalarType result = spec.bool_result ? kBool : common;
  const DimVector shape = broadcast_shapes(op, inputs);

  Tensor target;
  if (v == Variant::InPlace) {
    target = inputs[0];
    TS_CHECK(target.sizes() == IntArrayRef(shape), op, ": output with shape ", target.sizes(),
             " doesn't match the broadcast shape ", IntArrayRef(shape));
    TS_CHECK(can_cast(result, target.dtype()), op, ": result type ", result,
             " can't be cast to the desired output type ", target.dtype());
    check_no_internal_overlap(op, target);
    for (size_t i = 1; i < inputs.size(); ++i) check_no_partial_overlap(op, target, inputs[i]);
  } else if (v == Variant::Out) {
    check_out(op, out, shape, result);
    TS_CHECK(out.device() == device, op, ": Expected out tensor to be on device ", device,
             " but got ", out.device());
    check_no_internal_overlap(op, out);
    for (const Tensor& in : inputs) check_no_partial_overlap(op, out, in);
    check_out_autograd(spec.op, inputs, out);  // before resize_out
  }
  const KernelFn fn = lookup_kernel(spec.op, common, device);  // before anything is written

  if (v == Variant::Functional) {
    target = allocate_like(shape, result, device, inputs);
  } else if (v == Variant::Out) {
    resize_out(out, shape);
    target = out;
  }
  SmallVector<Tensor, 4> expanded;
  for (const Tensor& t : inputs) {
    expanded.push_back(t.sizes() == IntArrayRef(shape) ? t : t.expand(shape));
  }
  run_kernel(fn, KernelCall{spec.op, ArrayRef<Tensor>(&target, 1), expanded, p, v});
  return target;
}

}  // namespace ts::meta
