// Convolution (issue 16): meta for the kernel op `convolution`, the composites conv1d/2d/3d and
// conv_transpose1d/2d/3d, and the derivative (at the end).
// Params (touchstone/op_params.h):
//   convolution: inputs {input (N, C_in, *), weight, bias (C_out), undefined when absent};
//     ConvParams: stride, padding, dilation, output_padding (one per spatial dim), transposed,
//     groups. Weight: (C_out, C_in / groups, k...) direct, (C_in, C_out / groups, k...)
//     transposed. compute_dtype = the input's dtype (weight and bias have it too).
#include <string>

#include "../autograd/derivatives.h"
#include "meta.h"
#include "touchstone/ops.h"

namespace ts {
namespace {

// A per-dim argument: one value for every spatial dim, or one per dim (ATen's
// expand_param_if_needed).
DimVector expand_param(const char* op, IntArrayRef v, const char* arg, size_t nd) {
  if (v.size() == 1) return DimVector(nd, v[0]);
  TS_CHECK(v.size() == nd, op, ": expected ", arg, " to be a single integer value or a list of ",
           nd, " values to match the convolution dimensions, but got ", arg, "=", v);
  return DimVector(v);
}

}  // namespace

// ---- convolution ----

Tensor convolution(const Tensor& input, const Tensor& weight, const Tensor& bias,
                   IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, bool transposed,
                   IntArrayRef output_padding, int64_t groups) {
  const char* op = "convolution";
  const UserOpScope scope(op);
  meta::check_defined(op, input, "input");
  meta::check_defined(op, weight, "weight");
  const int64_t k = weight.dim();
  TS_CHECK(k >= 3 && k <= 5, op,
           ": expected weight to have 3, 4 or 5 dimensions (1 to 3 spatial "
           "dims), but got weight of size ",
           weight.sizes());
  TS_CHECK(input.dim() == k, op, ": Expected ", k, "-dimensional input for ", k,
           "-dimensional weight ", weight.sizes(), ", but got ", input.dim(),
           "-dimensional input of size ", input.sizes(), " instead");
  const auto nd = static_cast<size_t>(k - 2);
  ConvParams params{expand_param(op, stride, "stride", nd),
                    expand_param(op, padding, "padding", nd),
                    expand_param(op, dilation, "dilation", nd),
                    transposed,
                    expand_param(op, output_padding, "output_padding", nd),
                    groups};
  for (size_t i = 0; i < nd; ++i) {
    TS_CHECK(params.stride[i] > 0, op,
             ": non-positive stride is not supported (argument "
             "'stride' is ",
             IntArrayRef(params.stride), ")");
    TS_CHECK(params.padding[i] >= 0, op,
             ": negative padding is not supported (argument "
             "'padding' is ",
             IntArrayRef(params.padding), ")");
    TS_CHECK(params.dilation[i] > 0, op,
             ": dilation should be greater than zero (argument "
             "'dilation' is ",
             IntArrayRef(params.dilation), ")");
    TS_CHECK(params.output_padding[i] >= 0, op,
             ": negative output_padding is not supported "
             "(argument 'output_padding' is ",
             IntArrayRef(params.output_padding), ")");
    // Note [output_padding of a direct convolution]: ATen ignores it; so does this meta.
    TS_CHECK(!transposed || params.output_padding[i] < params.stride[i] ||
                 params.output_padding[i] < params.dilation[i],
             op,
             ": output padding must be smaller than either stride or dilation, but got "
             "output_padding=",
             IntArrayRef(params.output_padding), ", stride=", IntArrayRef(params.stride),
             ", dilation=", IntArrayRef(params.dilation));
  }
  TS_CHECK(groups > 0, op, ": non-positive groups is not supported (argument 'groups' is ", groups,
           ")");
  const int64_t w0 = weight.size(0), c_in = input.size(1);
  TS_CHECK(w0 >= groups, op, ": Given groups=", groups, ", expected weight to be at least ", groups,
           " at dimension 0, but got weight of size ", weight.sizes(), " instead");
  TS_CHECK(w0 % groups == 0, op, ": Given groups=", groups, ", expected weight to be divisible by ",
           groups, " at dimension 0, but got weight of size ", weight.sizes(), " instead");
  if (!transposed) {
    TS_CHECK(c_in == weight.size(1) * groups, op, ": Given groups=", groups, ", weight of size ",
             weight.sizes(), ", expected input", input.sizes(), " to have ",
             weight.size(1) * groups, " channels, but got ", c_in, " channels instead");
  } else {
    TS_CHECK(c_in == w0, op, ": Given transposed=1, weight of size ", weight.sizes(),
             ", expected input", input.sizes(), " to have ", w0, " channels, but got ", c_in,
             " channels instead");
  }
  const int64_t c_out = transposed ? weight.size(1) * groups : w0;
  TS_CHECK(!bias.defined() || (bias.dim() == 1 && bias.size(0) == c_out), op,
           ": Given weight of size ", weight.sizes(), ", expected bias to be 1-dimensional with ",
           c_out, " elements, but got bias of size ", bias.defined() ? bias.sizes() : IntArrayRef(),
           " instead");
  meta::check_dtype_supported(op, input.dtype(), op_info(OpId::convolution).dtypes, "input");
  for (const auto& [t, arg] : {std::pair{&weight, "weight"}, std::pair{&bias, "bias"}}) {
    TS_CHECK(!t->defined() || t->dtype() == input.dtype(), op, ": Input type (", input.dtype(),
             ") and ", arg, " type (", t->dtype(), ") should be the same (argument '", arg, "')");
  }
  DimVector out_shape{input.size(0), c_out};
  for (size_t i = 0; i < nd; ++i) {
    const int64_t len = input.size(static_cast<int64_t>(2 + i));
    const int64_t kernel = params.dilation[i] * (weight.size(static_cast<int64_t>(2 + i)) - 1) + 1;
    if (!transposed) {
      const int64_t padded = len + 2 * params.padding[i];
      TS_CHECK(padded >= kernel, op, ": Calculated padded input size per channel: ", padded,
               " (dim ", i, "). Kernel size (dilated): ", kernel,
               ". Kernel size can't be greater than actual input size (argument 'input' of size ",
               input.sizes(), ")");
      out_shape.push_back((padded - kernel) / params.stride[i] + 1);
    } else {
      const int64_t o =
          (len - 1) * params.stride[i] - 2 * params.padding[i] + kernel + params.output_padding[i];
      TS_CHECK(o > 0, op, ": Given input size ", input.sizes(), ", calculated output size ", o,
               " at spatial dim ", i, ". Output size is too small (argument 'padding')");
      out_shape.push_back(o);
    }
  }
  const Tensor inputs[] = {input, weight, bias};
  const Device device = meta::common_device(op, inputs, OpId::convolution);
  OpParams p;
  p.compute_dtype = input.dtype();
  p.set(std::move(params));
  const KernelFn fn = lookup_kernel(OpId::convolution, p.compute_dtype, device);
  Tensor result = empty(out_shape, TensorOptions(p.compute_dtype).device(device));
  run_kernel(fn, KernelCall{OpId::convolution, result, inputs, p});
  return result;
}

// ---- conv1d, conv2d, conv3d, conv_transpose1d/2d/3d ----

namespace {

// ATen's batchify: a (C, *) input is run as (1, C, *) and the batch dim dropped again.
Tensor conv_nd(const char* op, size_t nd, const Tensor& input, const Tensor& weight,
               const Tensor& bias, IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
               bool transposed, IntArrayRef output_padding, int64_t groups) {
  const UserOpScope scope(op);
  meta::check_defined(op, input, "input");
  meta::check_defined(op, weight, "weight");
  const auto k = static_cast<int64_t>(nd);
  TS_CHECK(input.dim() == k + 1 || input.dim() == k + 2, op, ": Expected ", k + 1,
           "D (unbatched) or ", k + 2, "D (batched) input to ", op,
           ", but got input of size: ", input.sizes());
  TS_CHECK(weight.dim() == k + 2, op, ": expected weight to be ", k + 2,
           "-dimensional, but got weight of size ", weight.sizes());
  const bool batched = input.dim() == k + 2;
  const Tensor x = batched ? input : input.unsqueeze(0);
  Tensor y =
      convolution(x, weight, bias, stride, padding, dilation, transposed, output_padding, groups);
  return batched ? y : y.squeeze(0);
}

// Note [padding='same']
// The output keeps the input's size: each dim is padded by dilation * (kernel - 1) in all, the
// odd element on the right, as ATen's _convolution_mode: the symmetric part is the
// convolution's padding, the odd element a zero slab joined to the input (so the result is the
// convolution's own, contiguous, with ConvolutionBackward0, as ATen's).
Tensor conv_nd_mode(const char* op, size_t nd, const Tensor& input, const Tensor& weight,
                    const Tensor& bias, IntArrayRef stride, std::string_view padding,
                    IntArrayRef dilation, int64_t groups) {
  const UserOpScope scope(op);
  meta::check_defined(op, input, "input");
  meta::check_defined(op, weight, "weight");
  if (padding == "valid") {
    return conv_nd(op, nd, input, weight, bias, stride, 0, dilation, false, 0, groups);
  }
  TS_CHECK(padding == "same", op, ": Invalid padding string: '", std::string(padding),
           "' (argument 'padding' must be 'same' or 'valid')");
  const DimVector s = expand_param(op, stride, "stride", nd);
  for (int64_t v : s) {
    TS_CHECK(v == 1, op,
             ": padding='same' is not supported for strided convolutions (argument "
             "'stride' is ",
             stride, ")");
  }
  const DimVector d = expand_param(op, dilation, "dilation", nd);
  const auto k = static_cast<int64_t>(nd);
  TS_CHECK(weight.dim() == k + 2, op, ": expected weight to be ", k + 2,
           "-dimensional, but got weight of size ", weight.sizes());
  TS_CHECK(input.dim() == k + 1 || input.dim() == k + 2, op, ": Expected ", k + 1,
           "D (unbatched) or ", k + 2, "D (batched) input to ", op,
           ", but got input of size: ", input.sizes());
  DimVector pad(nd, 0);
  Tensor x = input;
  for (size_t i = 0; i < nd; ++i) {
    const int64_t total = d[i] * (weight.size(static_cast<int64_t>(2 + i)) - 1);
    pad[i] = total / 2;
    if (total % 2 != 0) {
      const int64_t dim = input.dim() - k + static_cast<int64_t>(i);
      DimVector slab(x.sizes());
      slab[static_cast<size_t>(dim)] = 1;
      x = cat({x, zeros(slab, x.options())}, dim);
    }
  }
  return conv_nd(op, nd, x, weight, bias, 1, pad, d, false, 0, groups);
}

}  // namespace

Tensor conv1d(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
              IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  return conv_nd("conv1d", 1, input, weight, bias, stride, padding, dilation, false, 0, groups);
}
Tensor conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
              IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  return conv_nd("conv2d", 2, input, weight, bias, stride, padding, dilation, false, 0, groups);
}
Tensor conv3d(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
              IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  return conv_nd("conv3d", 3, input, weight, bias, stride, padding, dilation, false, 0, groups);
}
Tensor conv1d(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
              std::string_view padding, IntArrayRef dilation, int64_t groups) {
  return conv_nd_mode("conv1d", 1, input, weight, bias, stride, padding, dilation, groups);
}
Tensor conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
              std::string_view padding, IntArrayRef dilation, int64_t groups) {
  return conv_nd_mode("conv2d", 2, input, weight, bias, stride, padding, dilation, groups);
}
Tensor conv3d(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
              std::string_view padding, IntArrayRef dilation, int64_t groups) {
  return conv_nd_mode("conv3d", 3, input, weight, bias, stride, padding, dilation, groups);
}
Tensor conv_transpose1d(const Tensor& input, const Tensor& weight, const Tensor& bias,
                        IntArrayRef stride, IntArrayRef padding, IntArrayRef output_padding,
                        int64_t groups, IntArrayRef dilation) {
  return conv_nd("conv_transpose1d", 1, input, weight, bias, stride, padding, dilation, true,
                 output_padding, groups);
}
Tensor conv_transpose2d(const Tensor& input, const Tensor& weight, const Tensor& bias,
                        IntArrayRef stride, IntArrayRef padding, IntArrayRef output_padding,
                        int64_t groups, IntArrayRef dilation) {
  return conv_nd("conv_transpose2d", 2, input, weight, bias, stride, padding, dilation, true,
                 output_padding, groups);
}
Tensor conv_transpose3d(const Tensor& input, const Tensor& weight, const Tensor& bias,
                        IntArrayRef stride, IntArrayRef padding, IntArrayRef output_padding,
                        int64_t groups, IntArrayRef dilation) {
  return conv_nd("conv_transpose3d", 3, input, weight, bias, stride, padding, dilation, true,
                 output_padding, groups);
}

}  // namespace ts

// ---- derivatives (Note [Adding a derivative] in lib/src/autograd/derivatives.h) ----
namespace ts::autograd {
namespace {

// Note [Convolution gradients as convolutions]
// Each gradient is itself a convolution, so the backward runs on the active kernel set and is
// differentiable again (gradgradcheck). With y = conv(x, w) direct (stride s, padding p,
// dilation d, groups G):
//   grad x = conv_transpose(grad, w, s, p, output_padding = the rows the forward left unread)
//   grad w[o, c, k] = sum over n, j of grad[n, o, j] x[n, c, j s + k d - p]: a convolution of x
//     with batch and channels swapped (G groups of N channels) by grad as weight, stride d,
//     dilation s, cut to the kernel's extent
// A transposed convolution is the adjoint of the direct one: its input gradient is the direct
// convolution of grad (cut to the input's extent), its weight gradient the formula above with
// the roles of grad and input exchanged.
Tensor weight_grad(const Tensor& x, const Tensor& gy, IntArrayRef kernel, const ConvParams& p) {
  const int64_t n = x.size(0), g = p.groups, cin_g = x.size(1) / g;
  DimVector split{n, g, cin_g}, perm{2, 1, 0}, merged{cin_g, g * n};
  for (int64_t i = 2; i < x.dim(); ++i) {
    split.push_back(x.size(i));
    perm.push_back(i + 1);
    merged.push_back(x.size(i));
  }
  const Tensor xs = x.reshape(split).permute(perm).reshape(merged);
  Tensor r = convolution(xs, gy.transpose(0, 1), {}, p.dilation, p.padding, p.stride, false, 0, g);
  for (size_t i = 0; i < kernel.size(); ++i) {
    r = r.narrow(static_cast<int64_t>(2 + i), 0, kernel[i]);
  }
  return r.transpose(0, 1);
}

}  // namespace

TS_REGISTER_DERIVATIVES(conv) {
  // convolution(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] padding,
  //             SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups)
  //   input, weight, bias: convolution_backward (Note [Convolution gradients as convolutions])
  //   bias: grad summed over every dim but 1
  m.def(
      OpId::convolution, save_inputs({0, 1}),
      [](const BackwardArgs& a) -> Grads {
        const ConvParams& p = a.p.get<ConvParams>();
        const Tensor& gy = a.grad();
        const Tensor& x = a.input(0);
        const Tensor& w = a.input(1);
        const int64_t nd = gy.dim() - 2;
        const IntArrayRef x_sizes = a.input_sizes(0), w_sizes = a.input_sizes(1);
        Tensor gx, gw, gb;
        if (a.needs_grad(0)) {
          if (!p.transposed) {
            DimVector out_pad;
            for (int64_t i = 0; i < nd; ++i) {
              const auto u = static_cast<size_t>(i);
              const int64_t used = (gy.size(2 + i) - 1) * p.stride[u] - 2 * p.padding[u] +
                                   p.dilation[u] * (w_sizes[2 + u] - 1) + 1;
              out_pad.push_back(x_sizes[2 + u] - used);
            }
            gx = convolution(gy, w, {}, p.stride, p.padding, p.dilation, true, out_pad, p.groups);
          } else {
            gx = convolution(gy, w, {}, p.stride, p.padding, p.dilation, false, 0, p.groups);
            for (int64_t i = 0; i < nd; ++i) gx = gx.narrow(2 + i, 0, x_sizes[2 + i]);
          }
        }
        if (a.needs_grad(1)) {
          gw = p.transposed ? weight_grad(gy, x, w_sizes.slice(2), p)
                            : weight_grad(x, gy, w_sizes.slice(2), p);
        }
        if (a.needs_grad(2)) {
          DimVector dims{0};
          for (int64_t i = 2; i < gy.dim(); ++i) dims.push_back(i);
          gb = gy.sum(dims);
        }
        return {gx, gw, gb};
      },
      "ConvolutionBackward0");
}

}  // namespace ts::autograd
