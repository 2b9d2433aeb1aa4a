// Pooling (issue 16): meta for the kernel ops max_pool, avg_pool, adaptive_avg_pool2d and
// adaptive_max_pool2d, the composites max_pool1d/2d/3d(_with_indices) and avg_pool1d/2d/3d, and
// the derivatives (at the end).
// Params (touchstone/op_params.h):
//   max_pool, avg_pool: inputs {self (*, spatial...)}: the last kernel_size.size() (1 to 3) dims
//     are pooled, the one or two before them are planes. PoolParams: kernel_size, stride,
//     padding, dilation (one per spatial dim), ceil_mode; avg_pool also count_include_pad and
//     divisor_override (0: none). Outputs: values (self's dtype); max_pool also int64 indices
//     (row-major over each plane's spatial elements, as ATen).
//   adaptive_avg_pool2d, adaptive_max_pool2d: inputs {self (*, H, W)}; AdaptivePoolParams:
//     output_size (2 entries). adaptive_max_pool2d: (values, int64 indices) as max_pool.
//   compute_dtype = self's dtype (floating).
//
// Note [Pooling kernel ops]
// ATen has one op per spatial dim count (max_pool2d_with_indices, avg_pool3d, ...), each its own
// kernel. The computation is the same for 1, 2 or 3 dims, so touchstone has one kernel op per
// computation, `max_pool` and `avg_pool` (dim count = kernel_size's length), and the ATen forms
// as composites over them, as convolution and conv1d/2d/3d. Unbatched (C, *) inputs need no
// batchify: a kernel pools every plane before the spatial dims.
#include <cmath>
#include <string>
#include <vector>

#include "../autograd/derivatives.h"
#include "meta.h"
#include "touchstone/ops.h"

namespace ts {
namespace {

// One value for every spatial dim, or one per dim (ATen's "must either be a single int, or a
// tuple of N ints"); an empty stride means kernel_size.
DimVector pool_param(const char* op, IntArrayRef v, const char* arg, size_t nd,
                     bool may_be_empty = false) {
  if (v.size() == 1) return DimVector(nd, v[0]);
  TS_CHECK(v.size() == nd || (may_be_empty && v.empty()), op, ": ", arg, " must ",
           may_be_empty ? "either be omitted, a single int, or " : "either be a single int, or ",
           "a tuple of ", nd, " ints (argument '", arg, "' is ", v, ")");
  return DimVector(v);
}

// ATen's pooling_output_shape: floor or ceil of (in + 2 pad - dilation (k - 1) - 1) / stride + 1;
// with ceil_mode the last window must start inside the input or the left padding.
int64_t pooled_size(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dilation,
                    bool ceil_mode) {
  const int64_t span = in + 2 * pad - dilation * (k - 1) - 1 + (ceil_mode ? stride - 1 : 0);
  int64_t out = (span >= 0 ? span / stride : -((-span + stride - 1) / stride)) + 1;
  if (ceil_mode && (out - 1) * stride >= in + pad) --out;
  return out;
}

// Input ranks and empty dims as ATen's pool shape checks: (C, *) or (N, C, *), only N may be 0.
void check_pool_input(const char* op, const Tensor& self, size_t nd) {
  meta::check_defined(op, self, "self");
  const auto k = static_cast<int64_t>(nd);
  TS_CHECK(self.dim() == k + 1 || self.dim() == k + 2, op, ": Expected ", k + 1, "D or ", k + 2,
           "D (batch mode) tensor with optional 0 dim batch size for input, but got input of size ",
           self.sizes(), " (argument 'self')");
  for (int64_t d = self.dim() - k - 1; d < self.dim(); ++d) {
    TS_CHECK(self.size(d) != 0, op, ": Expected input to have non-zero size for non-batch ",
             "dimensions, but input has sizes ", self.sizes(), " with dimension ", d,
             " being empty (argument 'self')");
  }
  meta::check_dtype_supported(op, self.dtype(), DTypeSet::floating(), "self");
}

// The checks of ATen's pool{1,2,3}d_shape_check and the output's shape.
DimVector pool_shape(const char* op, const Tensor& self, const PoolParams& p) {
  const size_t nd = p.kernel_size.size();
  for (size_t i = 0; i < nd; ++i) {
    TS_CHECK(p.kernel_size[i] > 0, op, ": kernel size should be greater than zero, but got ",
             "kernel_size=", IntArrayRef(p.kernel_size), " (argument 'kernel_size')");
    TS_CHECK(p.stride[i] > 0, op,
             ": stride should be greater than zero, but got stride=", IntArrayRef(p.stride),
             " (argument 'stride')");
    TS_CHECK(p.dilation[i] > 0, op,
             ": dilation should be greater than zero, but got dilation=", IntArrayRef(p.dilation),
             " (argument 'dilation')");
    TS_CHECK(p.padding[i] >= 0, op,
             ": pad must be non-negative, but got padding=", IntArrayRef(p.padding),
             " (argument 'padding')");
    TS_CHECK(p.padding[i] <= p.kernel_size[i] / 2, op,
             ": pad should be smaller than or equal to half of kernel size, but got padding=",
             IntArrayRef(p.padding), " and kernel_size=", IntArrayRef(p.kernel_size),
             " (argument 'padding')");
  }
  const int64_t lead = self.dim() - static_cast<int64_t>(nd);
  DimVector shape(self.sizes().slice(0, static_cast<size_t>(lead)));
  for (size_t i = 0; i < nd; ++i) {
    const int64_t o = pooled_size(self.size(lead + static_cast<int64_t>(i)), p.kernel_size[i],
                                  p.padding[i], p.stride[i], p.dilation[i], p.ceil_mode);
    shape.push_back(o);
  }
  for (size_t i = 0; i < nd; ++i) {
    TS_CHECK(shape[static_cast<size_t>(lead) + i] >= 1, op, ": Given input size ", self.sizes(),
             ", calculated output size ", IntArrayRef(shape).slice(static_cast<size_t>(lead)),
             ". Output size is too small (argument 'self')");
  }
  return shape;
}

// Runs a pooling kernel op: outputs (values[, indices]) of `shape`, contiguous.
std::vector<Tensor> run_pool(OpId op, const Tensor& self, IntArrayRef shape, OpParams& p,
                             bool with_indices) {
  p.compute_dtype = self.dtype();
  const Tensor self1[] = {self};
  const KernelFn fn = lookup_kernel(op, self.dtype(), self.device());
  std::vector<Tensor> outs{empty(shape, self.options())};
  if (with_indices) outs.push_back(empty(shape, self.options().dtype(kLong)));
  run_kernel(fn, KernelCall{op, outs, self1, p});
  return outs;
}

PoolParams max_pool_params(const char* op, size_t nd, IntArrayRef kernel_size, IntArrayRef stride,
                           IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  PoolParams p;
  p.kernel_size = pool_param(op, kernel_size, "kernel_size", nd);
  p.stride = stride.empty() ? p.kernel_size : pool_param(op, stride, "stride", nd, true);
  p.padding = pool_param(op, padding, "padding", nd);
  p.dilation = pool_param(op, dilation, "dilation", nd);
  p.ceil_mode = ceil_mode;
  return p;
}

std::tuple<Tensor, Tensor> max_pool_nd(const char* op, size_t nd, const Tensor& self,
                                       IntArrayRef kernel_size, IntArrayRef stride,
                                       IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  const UserOpScope scope(op);
  check_pool_input(op, self, nd);
  PoolParams params = max_pool_params(op, nd, kernel_size, stride, padding, dilation, ceil_mode);
  const DimVector shape = pool_shape(op, self, params);
  OpParams p;
  p.set(std::move(params));
  std::vector<Tensor> outs = run_pool(OpId::max_pool, self, shape, p, true);
  return {outs[0], outs[1]};
}

Tensor avg_pool_nd(const char* op, size_t nd, const Tensor& self, IntArrayRef kernel_size,
                   IntArrayRef stride, IntArrayRef padding, bool ceil_mode, bool count_include_pad,
                   std::optional<int64_t> divisor_override) {
  const UserOpScope scope(op);
  check_pool_input(op, self, nd);
  PoolParams params = max_pool_params(op, nd, kernel_size, stride, padding, 1, ceil_mode);
  params.count_include_pad = count_include_pad;
  if (divisor_override.has_value()) {
    TS_CHECK(*divisor_override != 0, op, ": divisor must be not zero (argument ",
             "'divisor_override')");
    params.divisor_override = *divisor_override;
  }
  const DimVector shape = pool_shape(op, self, params);
  OpParams p;
  p.set(std::move(params));
  return run_pool(OpId::avg_pool, self, shape, p, false)[0];
}

size_t kernel_dims(const char* op, IntArrayRef kernel_size) {
  TS_CHECK(!kernel_size.empty() && kernel_size.size() <= 3, op,
           ": kernel_size must have 1 to 3 entries, one per spatial dim (argument 'kernel_size' ",
           "is ", kernel_size, ")");
  return kernel_size.size();
}

// adaptive_avg_pool2d and adaptive_max_pool2d: ATen's checks, output (*, oh, ow).
std::vector<Tensor> adaptive_pool(OpId op, const Tensor& self, IntArrayRef output_size) {
  const char* name =
      op == OpId::adaptive_avg_pool2d ? "adaptive_avg_pool2d" : "adaptive_max_pool2d";
  const UserOpScope scope(name);
  check_pool_input(name, self, 2);
  TS_CHECK(output_size.size() == 2, name, ": output_size must be 2 (argument 'output_size' is ",
           output_size, ")");
  TS_CHECK(output_size[0] >= 0 && output_size[1] >= 0, name,
           ": elements of output_size must be greater than or equal to 0 but received {",
           output_size[0], ", ", output_size[1], "} (argument 'output_size')");
  DimVector shape(self.sizes().slice(0, static_cast<size_t>(self.dim() - 2)));
  shape.push_back(output_size[0]);
  shape.push_back(output_size[1]);
  OpParams p;
  p.set(AdaptivePoolParams{DimVector(output_size)});
  return run_pool(op, self, shape, p, op == OpId::adaptive_max_pool2d);
}

}  // namespace

// ---- kernel ops ----

std::tuple<Tensor, Tensor> max_pool(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                                    IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  const size_t nd = kernel_dims("max_pool", kernel_size);
  return max_pool_nd("max_pool", nd, self, kernel_size, stride, padding, dilation, ceil_mode);
}
Tensor avg_pool(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                IntArrayRef padding, bool ceil_mode, bool count_include_pad,
                std::optional<int64_t> divisor_override) {
  const size_t nd = kernel_dims("avg_pool", kernel_size);
  return avg_pool_nd("avg_pool", nd, self, kernel_size, stride, padding, ceil_mode,
                     count_include_pad, divisor_override);
}
Tensor adaptive_avg_pool2d(const Tensor& self, IntArrayRef output_size) {
  return adaptive_pool(OpId::adaptive_avg_pool2d, self, output_size)[0];
}
std::tuple<Tensor, Tensor> adaptive_max_pool2d(const Tensor& self, IntArrayRef output_size) {
  std::vector<Tensor> outs = adaptive_pool(OpId::adaptive_max_pool2d, self, output_size);
  return {outs[0], outs[1]};
}

// ---- composites ----

Tensor max_pool1d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                  IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  return std::get<0>(
      max_pool_nd("max_pool1d", 1, self, kernel_size, stride, padding, dilation, ceil_mode));
}
Tensor max_pool2d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                  IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  return std::get<0>(
      max_pool_nd("max_pool2d", 2, self, kernel_size, stride, padding, dilation, ceil_mode));
}
Tensor max_pool3d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                  IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  return std::get<0>(
      max_pool_nd("max_pool3d", 3, self, kernel_size, stride, padding, dilation, ceil_mode));
}
std::tuple<Tensor, Tensor> max_pool1d_with_indices(const Tensor& self, IntArrayRef kernel_size,
                                                   IntArrayRef stride, IntArrayRef padding,
                                                   IntArrayRef dilation, bool ceil_mode) {
  return max_pool_nd("max_pool1d_with_indices", 1, self, kernel_size, stride, padding, dilation,
                     ceil_mode);
}
std::tuple<Tensor, Tensor> max_pool2d_with_indices(const Tensor& self, IntArrayRef kernel_size,
                                                   IntArrayRef stride, IntArrayRef padding,
                                                   IntArrayRef dilation, bool ceil_mode) {
  return max_pool_nd("max_pool2d_with_indices", 2, self, kernel_size, stride, padding, dilation,
                     ceil_mode);
}
std::tuple<Tensor, Tensor> max_pool3d_with_indices(const Tensor& self, IntArrayRef kernel_size,
                                                   IntArrayRef stride, IntArrayRef padding,
                                                   IntArrayRef dilation, bool ceil_mode) {
  return max_pool_nd("max_pool3d_with_indices", 3, self, kernel_size, stride, padding, dilation,
                     ceil_mode);
}
Tensor avg_pool1d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                  IntArrayRef padding, bool ceil_mode, bool count_include_pad) {
  return avg_pool_nd("avg_pool1d", 1, self, kernel_size, stride, padding, ceil_mode,
                     count_include_pad, std::nullopt);
}
Tensor avg_pool2d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                  IntArrayRef padding, bool ceil_mode, bool count_include_pad,
                  std::optional<int64_t> divisor_override) {
  return avg_pool_nd("avg_pool2d", 2, self, kernel_size, stride, padding, ceil_mode,
                     count_include_pad, divisor_override);
}
Tensor avg_pool3d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                  IntArrayRef padding, bool ceil_mode, bool count_include_pad,
                  std::optional<int64_t> divisor_override) {
  return avg_pool_nd("avg_pool3d", 3, self, kernel_size, stride, padding, ceil_mode,
                     count_include_pad, divisor_override);
}

}  // namespace ts

// ---- derivatives (Note [Adding a derivative] in lib/src/autograd/derivatives.h) ----
namespace ts::autograd {
namespace {

// max_pool_double_backward's adjoint: grad to the argmax of each window, summed where windows
// share it (overlapping windows), zeros elsewhere; planes flattened, as ATen's indices are.
Tensor scatter_to_indices(const BackwardArgs& a, size_t nd) {
  const IntArrayRef in = a.input_sizes(0);
  const size_t lead = in.size() - nd;
  int64_t planes = 1, plane = 1, out_plane = 1;
  for (size_t i = 0; i < in.size(); ++i) (i < lead ? planes : plane) *= in[i];
  for (size_t i = lead; i < in.size(); ++i) out_plane *= a.grad().size(static_cast<int64_t>(i));
  const Tensor g = a.grad().reshape({planes, out_plane});
  const Tensor idx = a.output(1).reshape({planes, out_plane});
  return zeros({planes, plane}, g.options()).scatter_add(1, idx, g).reshape(in);
}

// Note [Average pooling gradients as matmuls]
// An average pool is separable: the window of output (i, j, ...) is a box, the product of one
// interval per dim, and its divisor a product of one length per dim (count_include_pad or not;
// divisor_override is a constant). So y = A_1 x A_2^T (per plane, in 2-d) with A_d (out, in)
// holding 1 / length_d(i) on the interval of row i, and grad x = A_1^T grad A_2: one matmul per
// spatial dim, on the active set and differentiable again. Adaptive average pooling has the
// same form with ATen's start and end indices.
Tensor window_matrix(int64_t out, int64_t in, const std::vector<std::pair<int64_t, int64_t>>& win,
                     const std::vector<double>& divisor, ScalarType dtype) {
  std::vector<double> m(static_cast<size_t>(out * in), 0.0);
  for (int64_t i = 0; i < out; ++i) {
    const auto u = static_cast<size_t>(i);
    for (int64_t h = win[u].first; h < win[u].second; ++h) {
      m[static_cast<size_t>(i * in + h)] = 1.0 / divisor[u];
    }
  }
  return tensor(ArrayRef<double>(m), TensorOptions(kDouble)).reshape({out, in}).to(dtype);
}

// grad (*, o_1, ..., o_k) -> (*, n_1, ..., n_k): contracts dim d with matrix d (o_d, n_d).
Tensor apply_window_matrices(Tensor g, const std::vector<Tensor>& mats) {
  const auto nd = static_cast<int64_t>(mats.size());
  for (int64_t i = 0; i < nd; ++i) {
    const int64_t d = g.dim() - nd + i;
    g = matmul(g.transpose(d, -1), mats[static_cast<size_t>(i)]).transpose(d, -1);
  }
  return g.contiguous();
}

Tensor avg_pool_backward(const BackwardArgs& a) {
  const PoolParams& p = a.p.get<PoolParams>();
  const Tensor& g = a.grad();
  const IntArrayRef in = a.input_sizes(0);
  const size_t nd = p.kernel_size.size(), lead = in.size() - nd;
  std::vector<Tensor> mats;
  for (size_t d = 0; d < nd; ++d) {
    const int64_t n = in[lead + d], o = g.size(static_cast<int64_t>(lead + d));
    std::vector<std::pair<int64_t, int64_t>> win;
    std::vector<double> div;
    for (int64_t i = 0; i < o; ++i) {
      const int64_t start = i * p.stride[d] - p.padding[d];
      const int64_t end = std::min(start + p.kernel_size[d], n + p.padding[d]);
      const int64_t lo = std::max<int64_t>(start, 0), hi = std::min(end, n);
      win.emplace_back(lo, hi);
      if (p.divisor_override != 0) {
        div.push_back(1.0);
      } else {
        div.push_back(static_cast<double>(p.count_include_pad ? end - start : hi - lo));
      }
    }
    mats.push_back(window_matrix(o, n, win, div, g.dtype()));
  }
  const Tensor gs = p.divisor_override != 0 ? g / static_cast<double>(p.divisor_override) : g;
  return apply_window_matrices(gs, mats);
}

Tensor adaptive_avg_pool_backward(const BackwardArgs& a) {
  const Tensor& g = a.grad();
  const IntArrayRef in = a.input_sizes(0);
  std::vector<Tensor> mats;
  for (size_t d = 0; d < 2; ++d) {
    const int64_t n = in[in.size() - 2 + d], o = g.size(static_cast<int64_t>(in.size() - 2 + d));
    std::vector<std::pair<int64_t, int64_t>> win;
    std::vector<double> div;
    for (int64_t i = 0; i < o; ++i) {
      const int64_t lo = i * n / o, hi = ((i + 1) * n + o - 1) / o;  // floor, ceil
      win.emplace_back(lo, hi);
      div.push_back(static_cast<double>(hi - lo));
    }
    mats.push_back(window_matrix(o, n, win, div, g.dtype()));
  }
  return apply_window_matrices(g, mats);
}

}  // namespace

TS_REGISTER_DERIVATIVES(pool) {
  // max_pool(Tensor self, int[] kernel_size, int[] stride, int[] padding, int[] dilation,
  //          bool ceil_mode) -> (Tensor, Tensor)
  //   self: max_pool_double_backward(grad, indices, dim): grad scattered to the indices
  m.def(
      OpId::max_pool, save_output(1),
      [](const BackwardArgs& a) -> Grads {
        return {scatter_to_indices(a, a.p.get<PoolParams>().kernel_size.size())};
      },
      "MaxPoolWithIndicesBackward0");
  // adaptive_max_pool2d(Tensor self, int[2] output_size) -> (Tensor, Tensor)
  //   self: adaptive_max_pool2d_backward(grad, self, indices): the same scatter
  m.def(
      OpId::adaptive_max_pool2d, save_output(1),
      [](const BackwardArgs& a) -> Grads { return {scatter_to_indices(a, 2)}; },
      "AdaptiveMaxPool2DBackward0");
  // avg_pool(Tensor self, int[] kernel_size, int[] stride, int[] padding, bool ceil_mode,
  //          bool count_include_pad, int? divisor_override) -> Tensor
  //   self: avg_pool2d_backward (Note [Average pooling gradients as matmuls])
  m.def(
      OpId::avg_pool, save_nothing(),
      [](const BackwardArgs& a) -> Grads { return {avg_pool_backward(a)}; }, "AvgPoolBackward0");
  // adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor
  //   self: _adaptive_avg_pool2d_backward (Note [Average pooling gradients as matmuls])
  m.def(
      OpId::adaptive_avg_pool2d, save_nothing(),
      [](const BackwardArgs& a) -> Grads { return {adaptive_avg_pool_backward(a)}; },
      "AdaptiveAvgPool2DBackward0");
}

}  // namespace ts::autograd
