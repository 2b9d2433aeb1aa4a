// Normalization ops (issue 16): meta for batch_norm and group_norm (kernels), the composites
// rms_norm, instance_norm and local_response_norm, and the derivatives (at the end).
// Params (touchstone/op_params.h; compute_dtype is the input's dtype and the result's):
//   batch_norm: inputs {input, weight, bias, running_mean, running_var}, undefined when absent;
//     outputs {result} or, in training with running statistics, {result, new running_mean,
//     new running_var} (Note [Running statistics]); BatchNormParams: training, momentum, eps.
//   group_norm: inputs {input, weight, bias}; GroupNormParams: num_groups, eps.
//   Channels are input dim 1; the statistics run over dim 0 and dims 2.. (batch_norm) or over
//   each group's channels and dims 2.. of each sample (group_norm), with the biased variance.
//
// Note [Running statistics]
// ATen's batch_norm writes running_mean and running_var in place inside its kernel. Here the
// kernel writes the updated statistics, (1 - momentum) * running + momentum * batch (the
// variance unbiased), into two fresh outputs, and the meta copies them into running_mean and
// running_var after the kernel succeeded: a kernel only ever writes its outputs, a failed call
// leaves the running statistics untouched, and their version counters move as ATen's do.
#include <cmath>
#include <limits>

#include "../autograd/derivatives.h"
#include "meta.h"
#include "touchstone/autograd.h"
#include "touchstone/ops.h"

namespace ts {
namespace {

// "running_mean should contain 3 elements not 4", as ATen's check_dims_match_num_input_features.
void check_channels(const char* op, const Tensor& t, const char* arg, int64_t channels,
                    ScalarType dtype) {
  if (!t.defined()) return;
  TS_CHECK(t.numel() == channels, op, ": ", arg, " should contain ", channels, " elements not ",
           t.numel());
  TS_CHECK(t.dtype() == dtype, op, ": expected ", arg, " to have the input's dtype ", dtype,
           ", but got ", t.dtype());
}

// A [C] tensor viewed to broadcast against an input of `ndim` dims whose channels are dim 1.
Tensor channel_view(const Tensor& t, int64_t ndim) {
  DimVector shape(static_cast<size_t>(ndim), 1);
  shape[1] = t.numel();
  return t.reshape(shape);
}

}  // namespace

// ---- batch_norm ----

Tensor batch_norm(const Tensor& input, const Tensor& weight, const Tensor& bias,
                  const Tensor& running_mean, const Tensor& running_var, bool training,
                  double momentum, double eps, bool /*cudnn_enabled*/) {
  const char* op = "batch_norm";
  const UserOpScope scope(op);
  meta::check_defined(op, input, "input");
  TS_CHECK(input.dim() >= 2, op, ": Expected input to have at least 2 dimensions (N, C, ...), ",
           "but got input of size ", input.sizes());
  meta::check_dtype_supported(op, input.dtype(), op_info(OpId::batch_norm).dtypes, "input");
  const int64_t channels = input.size(1);
  check_channels(op, weight, "weight", channels, input.dtype());
  check_channels(op, bias, "bias", channels, input.dtype());
  check_channels(op, running_mean, "running_mean", channels, input.dtype());
  check_channels(op, running_var, "running_var", channels, input.dtype());
  TS_CHECK(running_mean.defined() == running_var.defined(), op,
           ": running_mean and running_var must be both defined or both undefined, but got ",
           running_mean.defined() ? "running_var" : "running_mean", " undefined");
  TS_CHECK(training || running_mean.defined(), op,
           ": running_mean and running_var must be defined in evaluation mode (training=False)");
  for (const auto& [t, arg] :
       {std::pair{&running_mean, "running_mean"}, std::pair{&running_var, "running_var"}}) {
    // ATen: "the derivative for 'running_mean' is not implemented".
    TS_CHECK(!t->defined() || !t->requires_grad() || !GradMode::is_enabled(), op,
             ": the derivative for '", arg, "' is not implemented; ", arg,
             " cannot have requires_grad True");
  }
  const int64_t count = channels == 0 ? 0 : input.numel() / channels;
  // torch.nn.functional.batch_norm's _verify_batch_size (ATen would divide by N - 1 = 0).
  TS_CHECK(!training || count != 1, op,
           ": Expected more than 1 value per channel when training, got input size ",
           input.sizes());
  const Tensor given[] = {input, weight, bias, running_mean, running_var};
  const Device device = meta::common_device(op, given, OpId::batch_norm);
  // Training reads the running statistics through copies: autograd may save the inputs, and the
  // originals are overwritten below (Note [Running statistics]).
  const auto read = [&](const Tensor& t) { return training && t.defined() ? t.clone() : t; };
  const Tensor inputs[] = {input, weight, bias, read(running_mean), read(running_var)};

  OpParams p;
  p.compute_dtype = input.dtype();
  p.set(BatchNormParams{training, momentum, eps});
  const KernelFn fn = lookup_kernel(OpId::batch_norm, p.compute_dtype, device);
  const TensorOptions options = TensorOptions(p.compute_dtype).device(device);
  // An empty input updates nothing (ATen returns before its kernel); Note [Running statistics].
  const bool update = training && running_mean.defined() && input.numel() > 0;
  std::vector<Tensor> outputs = {empty(input.sizes(), options)};
  if (update) {
    outputs.push_back(empty({channels}, options));
    outputs.push_back(empty({channels}, options));
  }
  run_kernel(fn, KernelCall{OpId::batch_norm, outputs, inputs, p});
  if (update) {
    const NoGradGuard no_grad;
    running_mean.copy_(outputs[1].view(running_mean.sizes()));
    running_var.copy_(outputs[2].view(running_var.sizes()));
  }
  return outputs[0];
}

// ---- group_norm ----

Tensor group_norm(const Tensor& input, int64_t num_groups, const Tensor& weight, const Tensor& bias,
                  double eps, bool /*cudnn_enabled*/) {
  const char* op = "group_norm";
  const UserOpScope scope(op);
  meta::check_defined(op, input, "input");
  TS_CHECK(input.dim() >= 2, op, ": Expected at least 2 dimensions for input tensor but received ",
           input.dim());
  TS_CHECK(num_groups > 0, op,
           ": Expected num_groups to be positive, but got num_groups=", num_groups);
  const int64_t channels = input.size(1);
  TS_CHECK(channels % num_groups == 0, op,
           ": Expected number of channels in input to be divisible by num_groups, but got input "
           "of shape ",
           input.sizes(), " and num_groups=", num_groups);
  for (const auto& [t, arg] : {std::pair{&weight, "weight"}, std::pair{&bias, "bias"}}) {
    TS_CHECK(!t->defined() || (t->dim() == 1 && t->numel() == channels), op, ": Expected ", arg,
             " to be a vector of size equal to the number of channels in input, but got ", arg,
             " of shape ", t->defined() ? t->sizes() : IntArrayRef(), " and input of shape ",
             input.sizes());
  }
  meta::check_dtype_supported(op, input.dtype(), op_info(OpId::group_norm).dtypes, "input");
  for (const auto& [t, arg] : {std::pair{&weight, "weight"}, std::pair{&bias, "bias"}}) {
    TS_CHECK(!t->defined() || t->dtype() == input.dtype(), op, ": expected ", arg,
             " to have the input's dtype ", input.dtype(), ", but got ", t->dtype());
  }
  const Tensor inputs[] = {input, weight, bias};
  const Device device = meta::common_device(op, inputs, OpId::group_norm);

  OpParams p;
  p.compute_dtype = input.dtype();
  p.set(GroupNormParams{num_groups, eps});
  const KernelFn fn = lookup_kernel(OpId::group_norm, p.compute_dtype, device);
  Tensor result = empty(input.sizes(), TensorOptions(p.compute_dtype).device(device));
  run_kernel(fn, KernelCall{OpId::group_norm, result, inputs, p});
  return result;
}

// ---- rms_norm (composite) ----

// Note [rms_norm]
// Current PyTorch's rms_norm (2.4+; ATen 1.13 has none) is a composite: in the op math dtype
// (float32 for float16/bfloat16), x * rsqrt(mean(x^2 over the normalized dims) + eps), times
// weight, then cast back. eps None is the epsilon of the input's dtype (torch.finfo().eps).
Tensor rms_norm(const Tensor& input, IntArrayRef normalized_shape, const Tensor& weight,
                std::optional<double> eps) {
  const char* op = "rms_norm";
  const UserOpScope scope(op);
  meta::check_defined(op, input, "input");
  meta::check_normalized_shape(op, input, normalized_shape, weight, Tensor());
  meta::check_dtype_supported(op, input.dtype(), op_info(OpId::rms_norm).dtypes, "input");
  TS_CHECK(!weight.defined() || weight.dtype() == input.dtype(), op,
           ": expected weight to have the input's dtype ", input.dtype(), ", but got ",
           weight.dtype());
  meta::common_device(op, std::vector<Tensor>{input, weight}, OpId::rms_norm);
  const ScalarType dtype = input.dtype();
  const bool reduced = dtype == kHalf || dtype == kBFloat16;
  double e = 0;
  if (eps) {
    e = *eps;
  } else {
    switch (dtype) {
      case kDouble:
        e = std::numeric_limits<double>::epsilon();
        break;
      case kHalf:
        e = 0.0009765625;  // 2^-10
        break;
      case kBFloat16:
        e = 0.0078125;  // 2^-7
        break;
      default:
        e = std::numeric_limits<float>::epsilon();
    }
  }
  const Tensor x = reduced ? input.to(kFloat) : input;
  DimVector dims;
  const int64_t ndim = input.dim();
  const auto k = static_cast<int64_t>(normalized_shape.size());
  for (int64_t d = ndim - k; d < ndim; ++d) dims.push_back(d);
  Tensor result = x * ((x * x).mean(dims, /*keepdim=*/true) + e).rsqrt();
  if (weight.defined()) result = result * weight;
  return reduced ? result.to(dtype) : result;
}

// ---- instance_norm (composite) ----

// As ATen: batch_norm over the input viewed as [1, N * C, ...] with weight, bias and the running
// statistics repeated N times; the running statistics then take the mean over the batch.
Tensor instance_norm(const Tensor& input, const Tensor& weight, const Tensor& bias,
                     const Tensor& running_mean, const Tensor& running_var, bool use_input_stats,
                     double momentum, double eps, bool cudnn_enabled) {
  const char* op = "instance_norm";
  const UserOpScope scope(op);
  meta::check_defined(op, input, "input");
  TS_CHECK(input.dim() >= 2, op, ": Expected input to have at least 2 dimensions (N, C, ...), ",
           "but got input of size ", input.sizes());
  TS_CHECK(use_input_stats || (running_mean.defined() && running_var.defined()), op,
           ": Expected running_mean and running_var to be defined when use_input_stats is false");
  const int64_t n = input.size(0), c = input.size(1);
  for (const auto& [t, arg] :
       {std::pair{&weight, "weight"}, std::pair{&bias, "bias"},
        std::pair{&running_mean, "running_mean"}, std::pair{&running_var, "running_var"}}) {
    TS_CHECK(!t->defined() || t->numel() == c, op, ": ", arg, " should contain ", c,
             " elements not ", t->defined() ? t->numel() : 0);
  }
  const auto repeat = [&](const Tensor& t) {
    return t.defined() ? t.reshape({1, c}).expand({n, c}).contiguous().view({n * c}) : Tensor();
  };
  DimVector shape(input.sizes());
  shape[0] = 1;
  shape[1] = n * c;
  const Tensor rm = repeat(running_mean), rv = repeat(running_var);
  const Tensor out = batch_norm(input.reshape(shape), repeat(weight), repeat(bias), rm, rv,
                                use_input_stats, momentum, eps, cudnn_enabled);
  if (use_input_stats && running_mean.defined() && input.numel() > 0) {
    const NoGradGuard no_grad;
    running_mean.copy_(rm.view({n, c}).mean({0}).view(running_mean.sizes()));
    running_var.copy_(rv.view({n, c}).mean({0}).view(running_var.sizes()));
  }
  return out.view(input.sizes());
}

// ---- local_response_norm (composite) ----

// torch.nn.functional.local_response_norm: x / (k + alpha / size * sum of x^2 over the `size`
// neighbouring channels (size / 2 before, (size - 1) / 2 after, zero-padded))^beta.
Tensor local_response_norm(const Tensor& input, int64_t size, double alpha, double beta, double k) {
  const char* op = "local_response_norm";
  const UserOpScope scope(op);
  meta::check_defined(op, input, "input");
  TS_CHECK(input.dim() >= 3, op, ": Expected 3D or higher dimensionality input (got ", input.dim(),
           " dimensions)");
  TS_CHECK(size > 0, op, ": Expected size to be positive, but got size=", size);
  meta::check_dtype_supported(op, input.dtype(), op_info(OpId::local_response_norm).dtypes,
                              "input");
  if (input.numel() == 0) return input.clone();  // as F: an empty input stays empty
  const int64_t c = input.size(1);
  const Tensor sq = input * input;
  DimVector pad_shape(input.sizes());
  const auto zeros_of = [&](int64_t channels) {
    pad_shape[1] = channels;
    return zeros(pad_shape, input.options());
  };
  const Tensor padded = cat({zeros_of(size / 2), sq, zeros_of((size - 1) / 2)}, 1);
  Tensor window = padded.narrow(1, 0, c);
  for (int64_t j = 1; j < size; ++j) window = window + padded.narrow(1, j, c);
  const Tensor div = (window * (alpha / static_cast<double>(size)) + k).pow(beta);
  return input / div;
}

}  // namespace ts

// ---- derivatives (Note [Adding a derivative] in lib/src/autograd/derivatives.h) ----
namespace ts::autograd {
namespace {

// Note [Normalization gradients]
// With xhat = (x - mean) * rstd over `dims` and gw = grad * weight, the input's gradient is
// rstd * (gw - mean(gw) - xhat * mean(gw * xhat)) (derivatives.yaml's batch_norm_backward and
// native_group_norm_backward), computed in float32 for float16/bfloat16 as ATen's kernels.
Tensor normalized_input_grad(const Tensor& gw, const Tensor& xhat, const Tensor& rstd,
                             const DimVector& dims) {
  return rstd * (gw - gw.mean(dims, true) - xhat * (gw * xhat).mean(dims, true));
}

// The input's dims other than the channel dim 1.
DimVector non_channel_dims(int64_t ndim) {
  DimVector dims{0};
  for (int64_t d = 2; d < ndim; ++d) dims.push_back(d);
  return dims;
}

Tensor up(const Tensor& t, bool reduced) {
  return reduced && t.defined() ? t.to(kFloat) : t;
}

}  // namespace

TS_REGISTER_DERIVATIVES(norm) {
  // batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean,
  //            Tensor? running_var, bool training, float momentum, float eps,
  //            bool cudnn_enabled) -> Tensor
  //   training: Note [Normalization gradients] over dims (0, 2, ...) with the batch's mean and
  //   biased variance; evaluation: input: grad * weight * rstd with rstd from running_var.
  //   weight: sum of grad * xhat      bias: sum of grad (over dims 0, 2, ...)
  //   running_mean, running_var: not differentiable (refused by the meta)
  //   The name is NativeBatchNormBackward0: ATen's batch_norm reaches native_batch_norm on CPU.
  m.def(
      OpId::batch_norm, save_inputs({0, 1, 3, 4}),
      [](const BackwardArgs& a) -> Grads {
        const ScalarType dtype = a.input_dtype(0);
        const bool reduced = dtype == kHalf || dtype == kBFloat16;
        const BatchNormParams& params = a.p.get<BatchNormParams>();
        const Tensor x = up(a.input(0), reduced);
        const Tensor g = up(a.grad(), reduced);
        const int64_t ndim = x.dim();
        const DimVector dims = non_channel_dims(ndim);
        Tensor mean, rstd;
        if (params.training) {
          mean = x.mean(dims, true);
          const Tensor xc = x - mean;
          const Tensor var = (xc * xc).mean(dims, true);
          rstd = (var + params.eps).rsqrt();
          // Note [batch_norm of a constant channel] in reference/norm.cpp: invstd 0.
          if (params.eps == 0) rstd = rstd.masked_fill(eq(var, 0), 0);
        } else {
          mean = channel_view(up(a.input(3), reduced), ndim);
          rstd = (channel_view(up(a.input(4), reduced), ndim) + params.eps).rsqrt();
        }
        const Tensor xhat = (x - mean) * rstd;
        Tensor gx;
        if (a.needs_grad(0)) {
          const Tensor w =
              a.input(1).defined() ? channel_view(up(a.input(1), reduced), ndim) : Tensor();
          const Tensor gw = w.defined() ? g * w : g;
          gx = params.training ? normalized_input_grad(gw, xhat, rstd, dims) : gw * rstd;
        }
        const auto down = [&](const Tensor& t) { return reduced && t.defined() ? t.to(dtype) : t; };
        return {down(gx), a.needs_grad(1) ? down((g * xhat).sum(dims)) : Tensor(),
                a.needs_grad(2) ? down(g.sum(dims)) : Tensor(), Tensor(), Tensor()};
      },
      "NativeBatchNormBackward0");
  // group_norm(Tensor input, int num_groups, Tensor? weight=None, Tensor? bias=None,
  //            float eps=1e-05, bool cudnn_enabled=True) -> Tensor
  //   input: Note [Normalization gradients] per (sample, group), weight per channel
  //   weight: sum of grad * xhat      bias: sum of grad (over dims 0, 2, ...)
  //   The name is NativeGroupNormBackward0: ATen's group_norm calls native_group_norm.
  m.def(
      OpId::group_norm, save_inputs({0, 1}),
      [](const BackwardArgs& a) -> Grads {
        const ScalarType dtype = a.input_dtype(0);
        const bool reduced = dtype == kHalf || dtype == kBFloat16;
        const GroupNormParams& params = a.p.get<GroupNormParams>();
        const Tensor x = up(a.input(0), reduced);
        const Tensor g = up(a.grad(), reduced);
        const int64_t ndim = x.dim(), n = x.size(0), groups = params.num_groups;
        // [N, G, C / G * spatial]: each group's elements in one row.
        const DimVector grouped{n, groups, n == 0 ? 0 : x.numel() / (n * groups)};
        const Tensor xg = x.reshape(grouped);
        const Tensor xc = xg - xg.mean({2}, true);
        const Tensor rstd = ((xc * xc).mean({2}, true) + params.eps).rsqrt();
        const Tensor xhat = (xc * rstd).reshape(x.sizes());
        Tensor gx;
        if (a.needs_grad(0)) {
          const Tensor w =
              a.input(1).defined() ? channel_view(up(a.input(1), reduced), ndim) : Tensor();
          const Tensor gw = (w.defined() ? g * w : g).reshape(grouped);
          gx = normalized_input_grad(gw, xhat.reshape(grouped), rstd, {2}).reshape(x.sizes());
        }
        const DimVector dims = non_channel_dims(ndim);
        const auto down = [&](const Tensor& t) { return reduced && t.defined() ? t.to(dtype) : t; };
        return {down(gx), a.needs_grad(1) ? down((g * xhat).sum(dims)) : Tensor(),
                a.needs_grad(2) ? down(g.sum(dims)) : Tensor()};
      },
      "NativeGroupNormBackward0");
}

}  // namespace ts::autograd
