// nn ops: meta for softmax, log_softmax, layer_norm, nll_loss, mse_loss (kernels), the
// composites cross_entropy, linear and dropout, and the derivatives (at the end).
// Params (touchstone/op_params.h; compute_dtype is always the dtype the kernel computes in and
// the result dtype):
//   softmax, log_softmax: inputs {self}; DimParams: dim, wrapped (0 for a 0-dim input, which
//     is a row of one); compute_dtype = the dtype argument, else self's (the input is cast).
//   layer_norm: inputs {input, weight, bias}, undefined when absent; LayerNormParams: dims =
//     the normalized (trailing) dims of input, eps.
//   nll_loss: inputs {self, target, weight}, weight undefined when absent; NllLossParams:
//     reduction, ignore_index, class_dim (0 for a 1-D input, else 1). The meta has checked
//     that every CPU target is ignore_index or in [0, C); see Note [nll_loss target check].
//   mse_loss: inputs {self, target} expanded to the broadcast shape; LossParams: reduction.
#include <cmath>
#include <limits>

#include "../autograd/derivatives.h"
#include "meta.h"
#include "touchstone/ops.h"

namespace ts {
namespace {

using meta::Variant;

void check_reduction(const char* op, Reduction reduction) {
  const auto r = static_cast<int64_t>(reduction);
  TS_CHECK(r >= 0 && r <= 2, op, ": reduction must be None (0), Mean (1) or Sum (2), but got ", r,
           " (argument 'reduction')");
}

Tensor softmax_impl(OpId op, Variant v, const Tensor& out, const Tensor& self, int64_t dim,
                    std::optional<ScalarType> dtype) {
  const char* name = op_info(op).name.data();
  const UserOpScope scope(name);
  meta::check_defined(name, self, "self");
  OpParams p;
  p.compute_dtype = dtype.value_or(self.dtype());
  p.set(DimParams{wrap_dim(dim, self.dim(), name)});
  // An empty integer or bool input reaches no kernel (Note [Nothing to compute]).
  const bool no_kernel = meta::needs_no_kernel(op, p.compute_dtype, self.numel() == 0);
  if (!no_kernel) {
    meta::check_dtype_supported(name, p.compute_dtype, op_info(op).dtypes,
                                dtype ? "dtype" : "self");
  }
  if (v == Variant::Out) {
    // ATen: "Expected out tensor to have dtype float, but got double instead".
    meta::check_defined(name, out, "out");
    TS_CHECK(out.dtype() == p.compute_dtype, name, ": Expected out tensor to have dtype ",
             p.compute_dtype, ", but got ", out.dtype(), " instead (argument 'out')");
  }
  const Device device = self.device();
  if (no_kernel)
    return meta::prepare_output(op, v, out, self.sizes(), p.compute_dtype, device, self);
  const KernelFn fn = lookup_kernel(op, p.compute_dtype, device);
  Tensor result = meta::prepare_output(op, v, out, self.sizes(), p.compute_dtype, device, self);
  run_kernel(fn, KernelCall{op, result, self, p, v});
  return result;
}

// Calls f(offset) with the element offset of every element of a strided geometry.
template <typename F>
void for_each_offset(IntArrayRef sizes, IntArrayRef strides, F&& f) {
  for (int64_t s : sizes) {
    if (s == 0) return;
  }
  DimVector idx(sizes.size(), 0);
  int64_t offset = 0;
  while (true) {
    f(offset);
    int64_t d = static_cast<int64_t>(sizes.size()) - 1;
    for (; d >= 0; --d) {
      offset += strides[d];
      if (++idx[d] < sizes[d]) break;
      offset -= idx[d] * strides[d];
      idx[d] = 0;
    }
    if (d < 0) return;
  }
}

// Note [nll_loss target check]
// An out-of-range target is a data error, found by reading the target. The meta reads CPU
// targets once, so every CPU kernel set may assume valid targets; a kernel set on another device
// must check in its kernel (as ATen's CUDA kernel does with a device assert).
void check_targets(const Tensor& target, int64_t n_classes, int64_t ignore_index) {
  if (!target.is_cpu()) return;
  const bool is_byte = target.dtype() == kByte;
  const char* base = static_cast<const char*>(target.data_ptr());
  for_each_offset(target.sizes(), target.strides(), [&](int64_t off) {
    const int64_t t = is_byte ? reinterpret_cast<const uint8_t*>(base)[off]
                              : reinterpret_cast<const int64_t*>(base)[off];
    if (t == ignore_index) return;
    TS_CHECK(t >= 0 && t < n_classes, "nll_loss: Target ", t, " is out of bounds.");
  });
}

// The target shape nll_loss expects: [] for a 1-D input, else the input's shape without dim 1.
DimVector nll_target_shape(const Tensor& self) {
  DimVector shape;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (d != 1 && self.dim() > 1) shape.push_back(self.size(d));
  }
  return shape;
}

}  // namespace

// ---- softmax, log_softmax ----

Tensor softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return softmax_impl(OpId::softmax, Variant::Functional, {}, self, dim, dtype);
}
Tensor& softmax_out(const Tensor& out, const Tensor& self, int64_t dim,
                    std::optional<ScalarType> dtype) {
  softmax_impl(OpId::softmax, Variant::Out, out, self, dim, dtype);
  return const_cast<Tensor&>(out);
}
Tensor log_softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return softmax_impl(OpId::log_softmax, Variant::Functional, {}, self, dim, dtype);
}
Tensor& log_softmax_out(const Tensor& out, const Tensor& self, int64_t dim,
                        std::optional<ScalarType> dtype) {
  softmax_impl(OpId::log_softmax, Variant::Out, out, self, dim, dtype);
  return const_cast<Tensor&>(out);
}
Tensor Tensor::softmax(int64_t dim, std::optional<ScalarType> dtype) const {
  return ts::softmax(*this, dim, dtype);
}
Tensor Tensor::log_softmax(int64_t dim, std::optional<ScalarType> dtype) const {
  return ts::log_softmax(*this, dim, dtype);
}

// ---- layer_norm ----

Tensor layer_norm(const Tensor& input, IntArrayRef normalized_shape, const Tensor& weight,
                  const Tensor& bias, double eps) {
  const char* op = "layer_norm";
  const UserOpScope scope(op);
  meta::check_defined(op, input, "input");
  meta::check_normalized_shape(op, input, normalized_shape, weight, bias);
  meta::check_dtype_supported(op, input.dtype(), op_info(OpId::layer_norm).dtypes, "input");
  for (const auto& [t, arg] : {std::pair{&weight, "weight"}, std::pair{&bias, "bias"}}) {
    TS_CHECK(!t->defined() || t->dtype() == input.dtype(), op, ": expected ", arg,
             " to have the input's dtype ", input.dtype(), ", but got ", t->dtype());
  }
  const Tensor inputs[] = {input, weight, bias};
  const Device device = meta::common_device(op, inputs, OpId::layer_norm);

  OpParams p;
  p.compute_dtype = input.dtype();
  LayerNormParams& params = p.set(LayerNormParams{{}, eps});
  const int64_t ndim = input.dim();
  const auto k = static_cast<int64_t>(normalized_shape.size());
  for (int64_t d = ndim - k; d < ndim; ++d) params.dims.push_back(d);
  const KernelFn fn = lookup_kernel(OpId::layer_norm, p.compute_dtype, device);
  Tensor result = empty(input.sizes(), TensorOptions(p.compute_dtype).device(device));
  run_kernel(fn, KernelCall{OpId::layer_norm, result, inputs, p});
  return result;
}

// ---- nll_loss ----

Tensor nll_loss(const Tensor& self, const Tensor& target, const Tensor& weight, Reduction reduction,
                int64_t ignore_index) {
  const char* op = "nll_loss";
  const UserOpScope scope(op);
  meta::check_defined(op, self, "self");
  meta::check_defined(op, target, "target");
  check_reduction(op, reduction);
  TS_CHECK(self.dim() >= 1, op, ": Expected self to have 1 or more dimensions (got ", self.dim(),
           ")");
  if (self.dim() == 1) {
    TS_CHECK(target.dim() == 0, op, ": size mismatch (got input: ", self.sizes(),
             ", target: ", target.sizes(), ")");
  } else {
    TS_CHECK(target.dim() == 0 || target.size(0) == self.size(0), op,
             ": Expected input batch_size (", self.size(0), ") to match target batch_size (",
             target.size(0), ").");
    const DimVector expected = nll_target_shape(self);
    TS_CHECK(target.sizes() == IntArrayRef(expected), op, ": Expected target size ",
             IntArrayRef(expected), ", got ", target.sizes());
  }
  meta::check_dtype_supported(op, self.dtype(), op_info(OpId::nll_loss).dtypes, "self");
  TS_CHECK(target.dtype() == kLong || target.dtype() == kByte, op,
           ": expected target of dtype int64 (or uint8), but got ", target.dtype());
  const int64_t class_dim = self.dim() == 1 ? 0 : 1;
  const int64_t n_classes = self.size(class_dim);
  if (weight.defined()) {
    TS_CHECK(weight.dim() == 1 && weight.numel() == n_classes, op,
             ": weight tensor should be defined either for all ", n_classes,
             " classes or no classes but got weight tensor of shape: ", weight.sizes());
    TS_CHECK(weight.dtype() == self.dtype(), op, ": expected weight to have the input's dtype ",
             self.dtype(), ", but got ", weight.dtype());
    // ATen (1.13 and current) has no derivative for the class weight: "The function
    // 'nll_loss_forward' is not differentiable with respect to argument 'weight'".
    TS_CHECK(!weight.requires_grad() || !GradMode::is_enabled(), op,
             ": not differentiable with respect to argument 'weight'. This input cannot have "
             "requires_grad True.");
  }
  const Tensor inputs[] = {self, target, weight};
  const Device device = meta::common_device(op, inputs, OpId::nll_loss);
  check_targets(target, n_classes, ignore_index);

  OpParams p;
  p.compute_dtype = self.dtype();
  NllLossParams& params = p.set(NllLossParams{});
  params.reduction = reduction;
  params.ignore_index = ignore_index;
  params.class_dim = class_dim;
  const KernelFn fn = lookup_kernel(OpId::nll_loss, p.compute_dtype, device);
  const IntArrayRef shape = reduction == Reduction::None ? target.sizes() : IntArrayRef();
  Tensor result = empty(shape, TensorOptions(p.compute_dtype).device(device));
  run_kernel(fn, KernelCall{OpId::nll_loss, result, inputs, p});
  return result;
}

// ---- mse_loss ----

Tensor mse_loss(const Tensor& self, const Tensor& target, Reduction reduction) {
  const char* op = "mse_loss";
  const UserOpScope scope(op);
  meta::check_defined(op, self, "self");
  meta::check_defined(op, target, "target");
  check_reduction(op, reduction);
  const Tensor inputs[] = {self, target};
  const ScalarType common = result_type(self, target);
  meta::check_dtype_supported(op, common, op_info(OpId::mse_loss).dtypes, "self");
  const DimVector shape = meta::broadcast_shapes(op, inputs, OpId::mse_loss);
  const Device device = meta::common_device(op, inputs, OpId::mse_loss);

  OpParams p;
  p.compute_dtype = common;
  p.set(LossParams{reduction});
  const KernelFn fn = lookup_kernel(OpId::mse_loss, common, device);
  const IntArrayRef out_shape = reduction == Reduction::None ? IntArrayRef(shape) : IntArrayRef();
  // ATen computes reduction none through TensorIterator: laid out as the inputs (libtorch 1.13:
  // a [3, 2] input with strides [1, 3] gives strides [1, 3]); a reduced result is 0-dim.
  Tensor result = reduction == Reduction::None
                      ? meta::allocate_like(out_shape, common, device, inputs)
                      : empty(out_shape, TensorOptions(common).device(device));
  const Tensor expanded[] = {self.expand(shape), target.expand(shape)};
  run_kernel(fn, KernelCall{OpId::mse_loss, result, expanded, p});
  return result;
}

// ---- cross_entropy (composite) ----

namespace {

// `weight` (C) viewed to broadcast against an input whose class dim is `class_dim`.
Tensor class_weight_view(const Tensor& weight, int64_t ndim, int64_t class_dim) {
  DimVector shape(static_cast<size_t>(ndim), 1);
  shape[class_dim] = weight.size(0);
  return weight.view(shape);
}

// Cross entropy against class probabilities (target has the input's shape), as ATen.
Tensor cross_entropy_prob_target(const Tensor& self, const Tensor& target, const Tensor& weight,
                                 Reduction reduction, double label_smoothing, int64_t class_dim) {
  const int64_t n_classes = self.size(class_dim);
  TS_CHECK(!weight.defined() || (weight.dim() == 1 && weight.numel() == n_classes),
           "cross_entropy: weight tensor should be defined either for all ", n_classes,
           " classes or no classes but got weight tensor of shape: ", weight.sizes());
  const Tensor logp = log_softmax(self, class_dim);
  const Tensor probs =
      label_smoothing > 0.0 ? target * (1 - label_smoothing) + label_smoothing / n_classes : target;
  Tensor terms = logp * probs;
  if (weight.defined()) terms = terms * class_weight_view(weight, self.dim(), class_dim);
  switch (reduction) {
    case Reduction::None:
      return -terms.sum({class_dim});
    case Reduction::Sum:
      return -terms.sum();
    default:
      if (self.numel() == 0) return -terms.sum().fill_(std::numeric_limits<double>::quiet_NaN());
      return -terms.sum() / (self.numel() / n_classes);
  }
}

// Note [Label smoothing]
// As ATen: loss = (1 - ls) * nll + ls / C * smooth, where smooth is -sum_c w_c * logp_c per
// sample (0 for ignored samples), reduced like nll: Mean divides by the summed weights of the
// non-ignored targets.
Tensor cross_entropy_label_smoothing(const Tensor& self, const Tensor& target, const Tensor& weight,
                                     Reduction reduction, int64_t ignore_index,
                                     double label_smoothing, int64_t class_dim) {
  const Tensor logp = log_softmax(self, class_dim);
  const Tensor nll = nll_loss(logp, target, weight, reduction, ignore_index);
  const int64_t n_classes = logp.size(class_dim);
  Tensor smooth = weight.defined()
                      ? -(logp * class_weight_view(weight, logp.dim(), class_dim)).sum({class_dim})
                      : -logp.sum({class_dim});
  const Tensor ignored = eq(target, ignore_index);
  smooth = smooth.masked_fill(ignored, 0.0);
  Tensor reduced;
  switch (reduction) {
    case Reduction::None:
      reduced = smooth;
      break;
    case Reduction::Sum:
      reduced = smooth.sum();
      break;
    default: {
      const Tensor kept = ignored.logical_not().flatten();
      const Tensor weight_sum =
          weight.defined()
              ? (weight.index_select(0, target.masked_fill(ignored, 0).flatten()) * kept).sum()
              : kept.sum();
      reduced = smooth.sum() / weight_sum;
    }
  }
  return nll * (1 - label_smoothing) + reduced * (label_smoothing / n_classes);
}

}  // namespace

Tensor cross_entropy(const Tensor& self, const Tensor& target, const Tensor& weight,
                     Reduction reduction, int64_t ignore_index, double label_smoothing) {
  const char* op = "cross_entropy";
  const UserOpScope scope(op);
  meta::check_defined(op, self, "self");
  meta::check_defined(op, target, "target");
  check_reduction(op, reduction);
  TS_CHECK(self.dim() >= 1, op, ": Expected self to have 1 or more dimensions (got ", self.dim(),
           ")");
  TS_CHECK(label_smoothing >= 0.0 && label_smoothing <= 1.0, op,
           ": label_smoothing must be between 0.0 and 1.0. Got: ", label_smoothing);
  const int64_t class_dim = self.dim() == 1 ? 0 : 1;
  if (self.sizes() == target.sizes()) {
    // Same shapes: the target holds class probabilities, as in PyTorch.
    TS_CHECK(target.is_floating_point(), op,
             ": Expected floating point type for target with class probabilities, got ",
             target.dtype());
    TS_CHECK(ignore_index < 0, op, ": ignore_index is not supported for floating point target");
    return cross_entropy_prob_target(self, target, weight, reduction, label_smoothing, class_dim);
  }
  if (label_smoothing > 0.0) {
    return cross_entropy_label_smoothing(self, target, weight, reduction, ignore_index,
                                         label_smoothing, class_dim);
  }
  return nll_loss(log_softmax(self, class_dim), target, weight, reduction, ignore_index);
}

// ---- linear, dropout (composite) ----

Tensor linear(const Tensor& input, const Tensor& weight, const Tensor& bias) {
  const UserOpScope scope("linear");
  meta::check_defined("linear", input, "input");
  meta::check_defined("linear", weight, "weight");
  TS_CHECK(weight.dim() == 1 || weight.dim() == 2,
           "linear: expected weight to be 1-D or 2-D, but got weight of shape ", weight.sizes());
  // Checked here so the messages name linear's arguments, not those of matmul and add_.
  TS_CHECK(input.dim() >= 1, "linear: expected input to be at least 1-D, but got a 0-D input");
  TS_CHECK(input.size(-1) == weight.size(-1), "linear: input of shape ", input.sizes(),
           " and weight of shape ", weight.sizes(),
           " cannot be multiplied (input's last dim must equal weight's in_features)");
  for (const auto& [t, arg] : {std::pair{&weight, "weight"}, std::pair{&bias, "bias"}}) {
    TS_CHECK(!t->defined() || t->dtype() == input.dtype(), "linear: expected ", arg,
             " to have the input's dtype ", input.dtype(), ", but got ", t->dtype());
  }
  if (bias.defined()) {
    DimVector shape(input.sizes().slice(0, static_cast<size_t>(input.dim() - 1)));
    if (weight.dim() == 2) shape.push_back(weight.size(0));
    bool fits = bias.dim() <= static_cast<int64_t>(shape.size());
    for (size_t i = 1; fits && i <= static_cast<size_t>(bias.dim()); ++i) {
      const int64_t b = bias.sizes()[bias.sizes().size() - i], o = shape[shape.size() - i];
      fits = b == o || b == 1;
    }
    TS_CHECK(fits, "linear: bias of shape ", bias.sizes(),
             " doesn't broadcast to the output shape ", IntArrayRef(shape));
  }
  // As ATen 1.13's linear: a 2-D input with a bias is one addmm (AddmmBackward0), a 3-D one
  // addmm over its rows, viewed back (ViewBackward0); otherwise matmul, then add_.
  // Note [linear of a strided 3-D input]: ATen takes matmul + add_ for a non-contiguous 3-D
  // input, rounding twice in float16/bfloat16; here every 3-D layout rounds once, as the
  // contiguous one does, so a result does not depend on the input's layout.
  if (bias.defined() && bias.dim() <= 1 && weight.dim() == 2 &&
      (input.dim() == 2 || input.dim() == 3)) {
    if (input.dim() == 2) return addmm(bias, input, weight.t());
    return addmm(bias, input.reshape({input.size(0) * input.size(1), input.size(2)}), weight.t())
        .view({input.size(0), input.size(1), weight.size(0)});
  }
  Tensor output = matmul(input, weight.t());
  if (bias.defined()) output.add_(bias);  // as ATen: the bias broadcasts into the output
  return output;
}

Tensor dropout(const Tensor& input, double p, bool train) {
  const UserOpScope scope("dropout");
  meta::check_defined("dropout", input, "input");
  TS_CHECK(p >= 0 && p <= 1, "dropout: dropout probability has to be between 0 and 1, but got ", p);
  if (p == 0 || !train || input.numel() == 0) return input;  // the input itself, as PyTorch
  if (p == 1) return input * zeros({}, input.options());     // NaN * 0 stays NaN, as PyTorch
  TS_CHECK(input.is_floating_point(), "dropout: expected a floating point input, but got ",
           input.dtype());
  // Keep where u < 1 - p, then scale the kept elements by 1 / (1 - p) (ATen's noise.div_).
  Tensor noise = lt(rand_like(input), 1 - p).to(input.dtype());
  noise.div_(1 - p);
  return input * noise;
}

}  // namespace ts

// ---- derivatives (Note [Adding a derivative] in lib/src/autograd/derivatives.h) ----
// Inputs and params: see Params above. cross_entropy, linear and dropout are composites.
namespace ts::autograd {
namespace {

// The dims of x before its normalized (trailing) ones.
DimVector batch_dims(const BackwardArgs& a) {
  DimVector dims;
  for (int64_t d = 0; d < a.p.get<LayerNormParams>().dims[0]; ++d) dims.push_back(d);
  return dims;
}

Tensor sum_over(const Tensor& t, const DimVector& dims) {
  return dims.empty() ? t : t.sum(dims);
}

}  // namespace

TS_REGISTER_DERIVATIVES(nn) {
  // softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor
  //   self: result * (grad - (grad * result).sum(dim, true))
  m.def(OpId::softmax, save_output(), [](const BackwardArgs& a) -> Grads {
    const Tensor& y = a.output();
    const int64_t dim = a.p.get<DimParams>().dim;
    return {y * (a.grad() - (a.grad() * y).sum({dim}, /*keepdim=*/true))};
  });
  // log_softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor
  //   self: grad - exp(result) * grad.sum(dim, true)
  m.def(OpId::log_softmax, save_output(), [](const BackwardArgs& a) -> Grads {
    const int64_t dim = a.p.get<DimParams>().dim;
    return {a.grad() - a.output().exp() * a.grad().sum({dim}, /*keepdim=*/true)};
  });
  // layer_norm(Tensor input, int[] normalized_shape, Tensor? weight=None, Tensor? bias=None,
  //            float eps=1e-05) -> Tensor
  //   with xhat = (x - mean) * rstd over the normalized dims and gw = grad * weight:
  //   input: rstd * (gw - mean(gw) - xhat * mean(gw * xhat))
  //   weight: (grad * xhat) summed over the batch dims     bias: grad summed over the batch dims
  //   The name is NativeLayerNormBackward0: ATen's layer_norm is a composite over
  //   native_layer_norm. float16/bfloat16 compute in float32, as ATen's kernel (opmath_t).
  m.def(
      OpId::layer_norm, save_inputs({0, 1}),
      [](const BackwardArgs& a) -> Grads {
        const ScalarType dtype = a.input_dtype(0);
        const bool reduced = dtype == kHalf || dtype == kBFloat16;
        const auto up = [&](const Tensor& t) { return reduced && t.defined() ? t.to(kFloat) : t; };
        const Tensor x = up(a.input(0));
        const Tensor w = up(a.input(1));
        const Tensor g = up(a.grad());
        const LayerNormParams& params = a.p.get<LayerNormParams>();
        const DimVector& dims = params.dims;
        const Tensor xc = x - x.mean(dims, true);
        const Tensor rstd = ((xc * xc).mean(dims, true) + params.eps).rsqrt();
        const Tensor xhat = xc * rstd;
        Tensor gx;
        if (a.needs_grad(0)) {
          const Tensor gw = w.defined() ? g * w : g;
          gx = rstd * (gw - gw.mean(dims, true) - xhat * (gw * xhat).mean(dims, true));
        }
        const DimVector batch = batch_dims(a);
        const auto down = [&](const Tensor& t) { return reduced && t.defined() ? t.to(dtype) : t; };
        return {down(gx), a.needs_grad(1) ? down(sum_over(g * xhat, batch)) : Tensor(),
                a.needs_grad(2) ? down(sum_over(g, batch)) : Tensor()};
      },
      "NativeLayerNormBackward0");
  // nll_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean,
  //          int ignore_index=-100) -> Tensor
  //   self: -weight[target] * grad at each target class (divided by the total weight for
  //         Mean), 0 for ignored targets      target: non-differentiable
  //   weight: not implemented (as in ATen)
  m.def(OpId::nll_loss, save_inputs({1, 2}), [](const BackwardArgs& a) -> Grads {
    if (a.needs_grad(2)) throw_not_implemented("nll_loss", "weight");
    const NllLossParams& params = a.p.get<NllLossParams>();
    const Tensor& g = a.grad();
    const Tensor t = a.input(1).to(kLong);
    const Tensor valid = ne(t, params.ignore_index);
    const Tensor t_safe = where(valid, t, 0);
    Tensor w = a.input(2).defined()
                   ? a.input(2).index_select(0, t_safe.reshape({-1})).reshape(t.sizes())
                   : ones(t.sizes(), g.options());
    w = where(valid, w, 0);
    const Tensor coef = -(params.reduction == Reduction::Mean ? w * (g / w.sum()) : w * g);
    const int64_t dim = params.class_dim;
    return {zeros(a.input_sizes(0), g.options())
                .scatter_add(dim, t_safe.unsqueeze(dim), coef.unsqueeze(dim)),
            Tensor(), Tensor()};
  });
  // mse_loss(Tensor self, Tensor target, int reduction=Mean) -> Tensor
  //   self: 2 * (self - target) * grad (/ numel for Mean)     target: the negation
  m.def(OpId::mse_loss, save_inputs({0, 1}), [](const BackwardArgs& a) -> Grads {
    // Contiguous as ATen's mse_loss_backward, which writes into zeros_like(self, contiguous).
    Tensor g = ((a.input(0) - a.input(1)) * a.grad() * 2).contiguous();
    if (a.p.get<LossParams>().reduction == Reduction::Mean) {
      g = g / static_cast<double>(a.input(0).numel());
    }
    return {a.needs_grad(0) ? g : Tensor(), a.needs_grad(1) ? -g : Tensor()};
  });
}

}  // namespace ts::autograd
