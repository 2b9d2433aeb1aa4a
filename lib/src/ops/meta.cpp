// Shared meta helpers; see meta.h.
#include "meta.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "touchstone/autograd.h"
#include "touchstone/ops.h"
#include "touchstone/tensor_iterator.h"

namespace ts::meta {

namespace {

// The names of a schema's Tensor arguments, "name(Tensor a, int d, Tensor(a!) b, *, ...) -> ...",
// in order, each with whether it is a Tensor[] (which takes every later index).
std::vector<std::pair<std::string, bool>> tensor_args(std::string_view schema) {
  std::vector<std::pair<std::string, bool>> args;
  int depth = 0;
  size_t begin = schema.find('(') + 1;
  for (size_t i = begin; i < schema.size() && depth >= 0; ++i) {
    const char c = schema[i];
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (depth < 0 || (c == ',' && depth == 0)) {
      std::string_view a = schema.substr(begin, i - begin);
      a = a.substr(0, a.find('='));
      while (!a.empty() && a.back() == ' ') a.remove_suffix(1);
      while (!a.empty() && a.front() == ' ') a.remove_prefix(1);
      if (a.starts_with("Tensor")) {
        const std::string_view type = a.substr(0, a.find(' '));
        args.emplace_back(std::string(a.substr(a.rfind(' ') + 1)), type.ends_with("[]"));
      }
      begin = i + 1;
    }
  }
  return args;
}

}  // namespace

const char* arg_name(OpId op, size_t i) {
  static const auto* names = [] {
    auto* all = new std::vector<std::vector<std::pair<std::string, bool>>>();
    for (const OpInfo& info : all_ops()) all->push_back(tensor_args(info.schema));
    return all;
  }();
  const auto& args = (*names)[static_cast<size_t>(op)];
  for (size_t k = 0; k < args.size(); ++k) {
    if (k == i || args[k].second) return args[k].first.c_str();
  }
  return "input";
}

const char* op_name(OpId op, Variant v) {
  static const auto* inplace = [] {
    auto* names = new std::vector<std::string>();
    for (const OpInfo& info : all_ops()) {
      names->push_back(info.name.ends_with('_') ? std::string(info.name)
                                                : std::string(info.name) + "_");
    }
    return names;
  }();
  return v == Variant::InPlace ? (*inplace)[static_cast<size_t>(op)].c_str()
                               : op_info(op).name.data();
}

DimVector broadcast_shapes(const char* op, TensorList tensors, OpId args) {
  return broadcast_shapes(op, tensors, [args](size_t i) { return arg_name(args, i); });
}

void check_defined(const char* op, const Tensor& t, const char* arg) {
  TS_CHECK(t.defined(), op, ": expected a defined tensor for argument '", arg, "'");
}

Device common_device(const char* op, TensorList tensors, std::optional<OpId> args) {
  std::optional<Device> dev;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    if (!t.defined() || (t.dim() == 0 && t.is_cpu())) continue;
    if (!dev) dev = t.device();
    TS_CHECK(*dev == t.device(), op,
             ": Expected all tensors to be on the same device, but found at least two devices, ",
             *dev, " and ", t.device(), "! (argument '", args ? arg_name(*args, i) : "input", "')");
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

void check_out_of(const char* op, const Tensor& out, IntArrayRef shape, ScalarType result_dtype,
                  const Tensor& self, const char* arg) {
  check_out(op, out, shape, result_dtype, arg);
  TS_CHECK(out.device() == self.device(), op, ": Expected out tensor to be on device ",
           self.device(), " but got ", out.device(), " (argument '", arg, "')");
  check_no_internal_overlap(op, out, arg);
  check_no_partial_overlap(op, out, self, arg, "self");
  check_out_resizable(op, out, shape, ArrayRef<Tensor>(&self, 1), arg);
}

void check_normalized_shape(const char* op, const Tensor& input, IntArrayRef normalized_shape,
                            const Tensor& weight, const Tensor& bias) {
  TS_CHECK(!normalized_shape.empty(), op,
           ": Expected normalized_shape to be at least 1-dimensional, i.e., containing at least "
           "one element, but got normalized_shape = ",
           normalized_shape);
  TS_CHECK(!weight.defined() || weight.sizes() == normalized_shape, op,
           ": Expected weight to be of same shape as normalized_shape, but got weight of shape ",
           weight.defined() ? weight.sizes() : IntArrayRef(),
           " and normalized_shape = ", normalized_shape);
  TS_CHECK(!bias.defined() || bias.sizes() == normalized_shape, op,
           ": Expected bias to be of same shape as normalized_shape, but got bias of shape ",
           bias.defined() ? bias.sizes() : IntArrayRef(),
           " and normalized_shape = ", normalized_shape);
  const int64_t ndim = input.dim();
  const auto k = static_cast<int64_t>(normalized_shape.size());
  if (ndim < k || input.sizes().slice(static_cast<size_t>(ndim - k)) != normalized_shape) {
    std::ostringstream expected;
    for (int64_t s : normalized_shape) expected << ", " << s;
    TS_ERROR(op, ": Given normalized_shape=", normalized_shape, ", expected input with shape [*",
             expected.str(), "], but got input of size", input.sizes());
  }
}

void check_exact_dtype(const char* op, const Tensor& out, ScalarType want, const char* arg) {
  check_defined(op, out, arg);
  TS_CHECK(out.dtype() == want, op, ": Expected out tensor to have dtype ", want, ", but got ",
           out.dtype(), " instead (argument '", arg, "')");
}

void check_out_no_grad(OpId op, TensorList outs, TensorList inputs) {
  if (!GradMode::is_enabled() || !op_info(op).differentiable) return;
  auto refuse = [op](const char* arg) {
    TS_ERROR(op_info(op).name,
             ": functions with out=... arguments don't support automatic differentiation, but "
             "one of the arguments requires grad (argument '",
             arg, "').");
  };
  for (const Tensor& o : outs) {
    if (o.defined() && o.requires_grad()) refuse("out");
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].defined() && inputs[i].requires_grad()) refuse(arg_name(op, i));
  }
}

std::optional<DimVector> strides_like(IntArrayRef shape, TensorList inputs) {
  for (const Tensor& t : inputs) {
    if (t.defined() && t.dim() > 0 && !t.is_contiguous()) {
      return TensorIterator::output_strides_like(shape, inputs);
    }
  }
  return std::nullopt;
}

void resize_out(const Tensor& out, IntArrayRef shape) {
  if (out.sizes() != shape) out.resize_(shape);
}

// Note [Resized out= layout]
// ATen's TensorIterator resizes an out= tensor whose shape differs to the layout it would give a
// new result (set_output_raw_strided: resize_output, then as_strided_ with the permuted strides);
// one of the right shape keeps its strides. libtorch 1.13: neg_out(empty, x.t()) with x [2, 3]
// gives out strides [1, 3]. Ops ATen resizes with plain resize_output use resize_out.
void resize_out_like(const Tensor& out, IntArrayRef shape, TensorList inputs) {
  if (out.sizes() == shape) return;
  out.resize_(shape);  // dense storage for `shape`; a permutation of its strides fits it too
  if (const auto strides = strides_like(shape, inputs)) {
    out.impl()->set_geometry(shape, *strides, out.storage_offset());
  }
}

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

namespace {

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
  // false and true fit every dtype; any value converts to bool (nonzero is true), as in ATen.
  if (v.is_bool() || t == kBool) return;
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
  if (const auto strides = strides_like(shape, inputs))
    return empty_strided(shape, *strides, options);
  return empty(shape, options);
}

Tensor prepare_output(OpId op, Variant v, const Tensor& out, IntArrayRef shape, ScalarType dtype,
                      Device device, TensorList inputs) {
  const char* name = op_info(op).name.data();
  const UserOpScope scope(name);  // allocation errors name the op
  if (v == Variant::Functional) return empty(shape, TensorOptions(dtype).device(device));
  check_out(name, out, shape, dtype);
  TS_CHECK(out.device() == device, name, ": Expected out tensor to be on device ", device,
           " but got ", out.device(), " (argument 'out')");
  check_no_internal_overlap(name, out);
  check_out_resizable(name, out, shape, inputs);
  for (size_t i = 0; i < inputs.size(); ++i) {
    check_no_partial_overlap(name, out, inputs[i], "out", arg_name(op, i));
  }
  check_out_no_grad(op, ArrayRef<Tensor>(&out, 1), inputs);
  resize_out(out, shape);
  return out;
}

namespace {

// The input that gave an unsupported common dtype: the first of that dtype, else the first of
// its category (a wrapped scalar promotes by category), else the first.
size_t dtype_source(TensorList inputs, ScalarType common) {
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].dtype() == common) return i;
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (is_floating_type(inputs[i].dtype()) == is_floating_type(common) &&
        (inputs[i].dtype() == kBool) == (common == kBool)) {
      return i;
    }
  }
  return 0;
}

}  // namespace

// Note [Unary out= dtype]
// ATen builds the Unary class (neg, abs, sign, floor, ceil, round, trunc, bitwise_not, silu,
// gelu, clamp) and lerp with TensorIterator's check_all_same_dtype: out= must have the result's
// dtype, wider or not ("Found dtype Double but expected Byte"). UnaryFloat ops (exp: computed in
// float, cast to out), UnaryBool and every Binary class cast the result to any out= it can be cast
// to.
ElementwiseSpec elementwise_spec(OpId op) {
  const OpInfo& info = op_info(op);
  switch (info.sig) {
    case OpSignature::UnaryFloat:
    case OpSignature::BinaryFloat:
      return {op, DTypeSet::all(), /*int_to_float=*/true};
    case OpSignature::UnaryBool:
    case OpSignature::BinaryBool:
      return {op, info.dtypes, false, /*bool_result=*/true};
    case OpSignature::Unary:
      return {op, info.dtypes, false, false, /*same_dtype_out=*/true};
    case OpSignature::Ternary:
      // ATen's lerp is built the same way ("Found dtype Float but expected Double").
      return {op, info.dtypes, false, false, /*same_dtype_out=*/op == OpId::lerp};
    default:
      return {op, info.dtypes};
  }
}

Tensor elementwise(const ElementwiseSpec& spec, Variant v, const Tensor& out, TensorList inputs,
                   OpParams& p) {
  const char* op = op_name(spec.op, v);
  const UserOpScope scope(op);
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i].defined()) check_defined(op, inputs[i], arg_name(spec.op, i));
  }
  const Device device = common_device(op, inputs, spec.op);
  ScalarType common = result_type(inputs);
  if (!spec.supported.has(common)) {
    check_dtype_supported(op, common, spec.supported,
                          arg_name(spec.op, dtype_source(inputs, common)));
  }
  if (spec.int_to_float && !is_floating_type(common)) common = kDefaultDtype;
  p.compute_dtype = common;
  const ScalarType result = spec.bool_result ? kBool : common;
  const DimVector shape = broadcast_shapes(op, inputs, spec.op);

  Tensor target;
  if (v == Variant::InPlace) {
    target = inputs[0];
    TS_CHECK(target.sizes() == IntArrayRef(shape), op, ": output with shape ", target.sizes(),
             " doesn't match the broadcast shape ", IntArrayRef(shape), " (argument 'self')");
    TS_CHECK(can_cast(result, target.dtype()), op, ": result type ", result,
             " can't be cast to the desired output type ", target.dtype(), " (argument 'self')");
    check_no_internal_overlap(op, target, "self");
    for (size_t i = 1; i < inputs.size(); ++i) {
      check_no_partial_overlap(op, target, inputs[i], "self", arg_name(spec.op, i));
    }
  } else if (v == Variant::Out) {
    TS_CHECK(!spec.same_dtype_out || !out.defined() || out.dtype() == result, op, ": Found dtype ",
             out.dtype(), " but expected ", result, " (argument 'out')");
    check_out(op, out, shape, result);
    TS_CHECK(out.device() == device, op, ": Expected out tensor to be on device ", device,
             " but got ", out.device(), " (argument 'out')");
    check_no_internal_overlap(op, out);
    check_out_resizable(op, out, shape, inputs);
    for (size_t i = 0; i < inputs.size(); ++i) {
      check_no_partial_overlap(op, out, inputs[i], "out", arg_name(spec.op, i));
    }
    check_out_no_grad(spec.op, ArrayRef<Tensor>(&out, 1), inputs);
  }
  const KernelFn fn = lookup_kernel(spec.op, common, device);  // before anything is written

  if (v == Variant::Functional) {
    target = allocate_like(shape, result, device, inputs);
  } else if (v == Variant::Out) {
    resize_out_like(out, shape, inputs);
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
