// Interpolation (issue 16): meta for the kernel ops upsample_nearest, _upsample_nearest_exact,
// upsample_linear and upsample_bicubic2d, the composites upsample_nearest1d/2d/3d,
// _upsample_nearest_exact1d/2d/3d, upsample_linear1d, upsample_bilinear2d, upsample_trilinear3d,
// torch.nn.functional.interpolate and affine_grid, and the derivatives (at the end).
// Params (touchstone/op_params.h):
//   inputs {self (N, C, spatial...)}: the last output_size.size() (1 to 3; bicubic: 2) dims are
//   resampled. UpsampleParams: output_size, scales (one per spatial dim, 0: none), align_corners
//   (linear and bicubic). Output (N, C, output_size...) in self's dtype; compute_dtype = self's.
//
// Note [Interpolation kernel ops]
// ATen has one op per spatial dim count and mode (upsample_nearest2d, upsample_trilinear3d, ...),
// each its own kernel. The computation of a mode is the same for 1, 2 or 3 dims: one 1-D rule per
// dim (the source taps of each output position and their weights), the output the product of the
// rules. So touchstone has one kernel op per mode, `upsample_nearest`, `_upsample_nearest_exact`
// and `upsample_linear` (dim count = output_size's length), ATen's upsample_bicubic2d (ATen has no
// other cubic), and ATen's forms as composites over them, as pooling (Note [Pooling kernel ops]).
//
// Note [Interpolation source indices]
// The rules are ATen's UpSample.h and CPU kernels; reference/interpolate.cpp states them. Linear
// and cubic weights are continuous in the source coordinate, so computing it in double (the
// reference) or float (ATen's opmath) changes values by a rounding. Nearest indices are not:
// ATen's CPU kernel computes floor(i * scale) in its op math type (float32 for float32,
// bfloat16 and float16, float64 for float64), and 3 * (1/0.75f) = 4.0000002 where the double
// product is 3.9999999999999996, so every kernel set computes nearest indices in that type.
// UpSample.h's nearest_idx (ATen's channels-last path and backward) also copies when out == in
// and halves when out == 2 in: the same indices unless a scale is given (9 -> 9 with scale 1.05
// reads floor(i / 1.05) in ATen's forward kernel, as in current PyTorch), so touchstone follows
// the forward kernel and has no such shortcuts.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "../autograd/derivatives.h"
#include "meta.h"
#include "touchstone/ops.h"

namespace ts {
namespace {

const char* kernel_name(OpId op) {
  switch (op) {
    case OpId::upsample_nearest:
      return "upsample_nearest";
    case OpId::_upsample_nearest_exact:
      return "_upsample_nearest_exact";
    case OpId::upsample_linear:
      return "upsample_linear";
    default:
      return "upsample_bicubic2d";
  }
}

// ATen's upsample_{1,2,3}d_common_check and the meta's "Non-empty" check, then the kernel.
Tensor run_upsample(const char* op, OpId kernel, size_t nd, const Tensor& self,
                    IntArrayRef output_size, ScaleList scales, bool align_corners) {
  const UserOpScope scope(op);
  meta::check_defined(op, self, "self");
  const auto k = static_cast<int64_t>(nd);
  TS_CHECK(output_size.size() == nd, op, ": It is expected output_size equals to ", nd,
           ", but got size ", output_size.size(), " (argument 'output_size')");
  TS_CHECK(self.dim() == k + 2, op, ": It is expected input_size equals to ", k + 2,
           ", but got size ", self.dim(), " (argument 'self')");
  TS_CHECK(scales.empty() || scales.size() == nd, op, ": scales must give one value per ",
           "spatial dim (", nd, "), but got ", scales.size(), " (argument 'scales')");
  bool positive_in = true, positive_out = true;
  for (size_t d = 0; d < nd; ++d) {
    positive_in = positive_in && self.size(2 + static_cast<int64_t>(d)) > 0;
    positive_out = positive_out && output_size[d] > 0;
  }
  TS_CHECK(positive_in && positive_out, op,
           ": Input and output sizes should be greater than 0, but got input ",
           self.sizes().slice(2), " and output ", output_size, " (argument '",
           positive_out ? "self" : "output_size", "')");
  TS_CHECK(self.size(1) != 0, op, ": Non-empty ", k + 2,
           "D data tensor expected but got a tensor with sizes ", self.sizes(),
           " (argument 'self')");
  meta::check_dtype_supported(op, self.dtype(), DTypeSet::floating(), "self");
  UpsampleParams params;
  params.output_size = DimVector(output_size);
  for (size_t d = 0; d < nd; ++d) {
    const std::optional<double> s = scales.empty() ? std::nullopt : scales[d];
    params.scales.push_back(s.has_value() && *s > 0 ? *s : 0.0);
  }
  params.align_corners = align_corners;
  OpParams p;
  p.set(std::move(params));
  p.compute_dtype = self.dtype();
  DimVector shape{self.size(0), self.size(1)};
  for (int64_t s : output_size) shape.push_back(s);
  const Tensor self1[] = {self};
  const KernelFn fn = lookup_kernel(kernel, self.dtype(), self.device());
  std::vector<Tensor> outs{empty(shape, self.options())};
  run_kernel(fn, KernelCall{kernel, outs, self1, p});
  return outs[0];
}

size_t kernel_dims(OpId kernel, IntArrayRef output_size) {
  const char* op = kernel_name(kernel);
  TS_CHECK(!output_size.empty() && output_size.size() <= 3, op,
           ": output_size must have 1 to 3 entries, one per spatial dim (argument 'output_size' ",
           "is ", output_size, ")");
  return output_size.size();
}

// Note [grid_sampler]
// ATen's grid_sampler: each output position (n, out...) reads input n at the grid's point
// (x, y[, z]), x along W; [-1, 1] spans the pixel centers (the corners with align_corners).
// Points outside read zeros, the border, or the input reflected (padding_mode). The checks are
// ATen's grid_sampler checks (GridSamplerUtils.h); the gradients are a kernel op of their own,
// grid_sampler_backward (ATen's grid_sampler_{2,3}d_backward), not differentiable again.
void check_grid_sampler(const char* op, const Tensor& input, const Tensor& grid,
                        int64_t interpolation_mode, int64_t padding_mode) {
  meta::check_defined(op, input, "input");
  meta::check_defined(op, grid, "grid");
  meta::common_device(op, {input, grid});
  TS_CHECK(input.dtype() == grid.dtype(), op, ": expected input and grid to have the same ",
           "dtype, but input has ", input.dtype(), " and grid has ", grid.dtype(),
           " (argument 'grid')");
  TS_CHECK(input.dim() == 4 || input.dim() == 5, op, ": expected 4D or 5D input and grid with ",
           "same number of dimensions, but got input with sizes ", input.sizes(),
           " and grid with sizes ", grid.sizes(), " (argument 'input')");
  TS_CHECK(input.dim() == grid.dim(), op, ": expected grid and input to have same number of ",
           "dimensions, but got input with sizes ", input.sizes(), " and grid with sizes ",
           grid.sizes(), " (argument 'grid')");
  TS_CHECK(input.size(0) == grid.size(0), op, ": expected grid and input to have same batch ",
           "size, but got input with sizes ", input.sizes(), " and grid with sizes ", grid.sizes(),
           " (argument 'grid')");
  TS_CHECK(grid.size(-1) == input.dim() - 2, op, ": expected grid to have size ", input.dim() - 2,
           " in last dimension, but got grid with sizes ", grid.sizes(), " (argument 'grid')");
  for (int64_t d = 2; d < input.dim(); ++d) {
    TS_CHECK(input.size(d) > 0, op, ": expected input to have non-empty spatial dimensions, ",
             "but input has sizes ", input.sizes(), " with dimension ", d, " being empty ",
             "(argument 'input')");
  }
  TS_CHECK(interpolation_mode >= 0 && interpolation_mode <= 2, op,
           ": interpolation_mode must be 0 (bilinear), 1 (nearest) or 2 (bicubic), but got ",
           interpolation_mode, " (argument 'interpolation_mode')");
  TS_CHECK(padding_mode >= 0 && padding_mode <= 2, op,
           ": padding_mode must be 0 (zeros), 1 (border) or 2 (reflection), but got ", padding_mode,
           " (argument 'padding_mode')");
  TS_CHECK(!(input.dim() == 5 && interpolation_mode == 2), op,
           ": bicubic interpolation only supports 4D input (argument 'interpolation_mode')");
  meta::check_dtype_supported(op, input.dtype(), dtypes::float_double, "input");
}

// The output's shape: (N, C, grid's spatial dims...).
DimVector grid_output_shape(const Tensor& input, const Tensor& grid) {
  DimVector shape{input.size(0), input.size(1)};
  for (int64_t d = 1; d + 1 < grid.dim(); ++d) shape.push_back(grid.size(d));
  return shape;
}

Tensor grid_sampler_impl(const char* op, const Tensor& input, const Tensor& grid,
                         int64_t interpolation_mode, int64_t padding_mode, bool align_corners) {
  const UserOpScope scope(op);
  check_grid_sampler(op, input, grid, interpolation_mode, padding_mode);
  OpParams p;
  p.set(GridSampleParams{interpolation_mode, padding_mode, align_corners});
  p.compute_dtype = input.dtype();
  const Tensor ins[] = {input, grid};
  const KernelFn fn = lookup_kernel(OpId::grid_sampler, input.dtype(), input.device());
  std::vector<Tensor> outs{empty(grid_output_shape(input, grid), input.options())};
  run_kernel(fn, KernelCall{OpId::grid_sampler, outs, ins, p});
  return outs[0];
}

}  // namespace

Tensor grid_sampler(const Tensor& input, const Tensor& grid, int64_t interpolation_mode,
                    int64_t padding_mode, bool align_corners) {
  return grid_sampler_impl("grid_sampler", input, grid, interpolation_mode, padding_mode,
                           align_corners);
}

std::tuple<Tensor, Tensor> grid_sampler_backward(const Tensor& grad_output, const Tensor& input,
                                                 const Tensor& grid, int64_t interpolation_mode,
                                                 int64_t padding_mode, bool align_corners) {
  const char* op = "grid_sampler_backward";
  const UserOpScope scope(op);
  meta::check_defined(op, grad_output, "grad_output");
  check_grid_sampler(op, input, grid, interpolation_mode, padding_mode);
  const DimVector shape = grid_output_shape(input, grid);
  TS_CHECK(grad_output.sizes() == IntArrayRef(shape), op, ": expected grad_output of shape ",
           IntArrayRef(shape), ", but got ", grad_output.sizes(), " (argument 'grad_output')");
  TS_CHECK(grad_output.dtype() == input.dtype(), op, ": expected grad_output of dtype ",
           input.dtype(), ", but got ", grad_output.dtype(), " (argument 'grad_output')");
  meta::common_device(op, {grad_output, input});
  OpParams p;
  p.set(GridSampleParams{interpolation_mode, padding_mode, align_corners});
  p.compute_dtype = input.dtype();
  const Tensor ins[] = {grad_output, input, grid};
  const KernelFn fn = lookup_kernel(OpId::grid_sampler_backward, input.dtype(), input.device());
  std::vector<Tensor> outs{empty(input.sizes(), input.options()),
                           empty(grid.sizes(), grid.options())};
  run_kernel(fn, KernelCall{OpId::grid_sampler_backward, outs, ins, p});
  return {outs[0], outs[1]};
}

// torch.nn.functional.grid_sample: the strings as ATen's enums, then grid_sampler.
Tensor grid_sample(const Tensor& input, const Tensor& grid, std::string_view mode,
                   std::string_view padding_mode, std::optional<bool> align_corners) {
  const char* op = "grid_sample";
  const UserOpScope scope(op);
  TS_CHECK(mode == "bilinear" || mode == "nearest" || mode == "bicubic", op,
           ": expected mode to be 'bilinear', 'nearest' or 'bicubic', but got: '", mode,
           "' (argument 'mode')");
  TS_CHECK(padding_mode == "zeros" || padding_mode == "border" || padding_mode == "reflection", op,
           ": expected padding_mode to be 'zeros', 'border', or 'reflection', but got: '",
           padding_mode, "' (argument 'padding_mode')");
  const int64_t m = mode == "bilinear" ? 0 : mode == "nearest" ? 1 : 2;
  const int64_t pm = padding_mode == "zeros" ? 0 : padding_mode == "border" ? 1 : 2;
  return grid_sampler_impl(op, input, grid, m, pm, align_corners.value_or(false));
}

namespace {

std::vector<std::optional<double>> scale_list(std::initializer_list<std::optional<double>> s) {
  return std::vector<std::optional<double>>(s);
}

}  // namespace

// ---- kernel ops ----

Tensor upsample_nearest(const Tensor& self, IntArrayRef output_size, ScaleList scales) {
  const size_t nd = kernel_dims(OpId::upsample_nearest, output_size);
  return run_upsample("upsample_nearest", OpId::upsample_nearest, nd, self, output_size, scales,
                      false);
}
Tensor _upsample_nearest_exact(const Tensor& self, IntArrayRef output_size, ScaleList scales) {
  const size_t nd = kernel_dims(OpId::_upsample_nearest_exact, output_size);
  return run_upsample("_upsample_nearest_exact", OpId::_upsample_nearest_exact, nd, self,
                      output_size, scales, false);
}
Tensor upsample_linear(const Tensor& self, IntArrayRef output_size, bool align_corners,
                       ScaleList scales) {
  const size_t nd = kernel_dims(OpId::upsample_linear, output_size);
  return run_upsample("upsample_linear", OpId::upsample_linear, nd, self, output_size, scales,
                      align_corners);
}
Tensor upsample_bicubic2d(const Tensor& self, IntArrayRef output_size, bool align_corners,
                          std::optional<double> scales_h, std::optional<double> scales_w) {
  return run_upsample("upsample_bicubic2d", OpId::upsample_bicubic2d, 2, self, output_size,
                      scale_list({scales_h, scales_w}), align_corners);
}

// ---- composites ----

Tensor upsample_nearest1d(const Tensor& self, IntArrayRef output_size,
                          std::optional<double> scales) {
  return run_upsample("upsample_nearest1d", OpId::upsample_nearest, 1, self, output_size,
                      scale_list({scales}), false);
}
Tensor upsample_nearest2d(const Tensor& self, IntArrayRef output_size,
                          std::optional<double> scales_h, std::optional<double> scales_w) {
  return run_upsample("upsample_nearest2d", OpId::upsample_nearest, 2, self, output_size,
                      scale_list({scales_h, scales_w}), false);
}
Tensor upsample_nearest3d(const Tensor& self, IntArrayRef output_size,
                          std::optional<double> scales_d, std::optional<double> scales_h,
                          std::optional<double> scales_w) {
  return run_upsample("upsample_nearest3d", OpId::upsample_nearest, 3, self, output_size,
                      scale_list({scales_d, scales_h, scales_w}), false);
}
Tensor _upsample_nearest_exact1d(const Tensor& self, IntArrayRef output_size,
                                 std::optional<double> scales) {
  return run_upsample("_upsample_nearest_exact1d", OpId::_upsample_nearest_exact, 1, self,
                      output_size, scale_list({scales}), false);
}
Tensor _upsample_nearest_exact2d(const Tensor& self, IntArrayRef output_size,
                                 std::optional<double> scales_h, std::optional<double> scales_w) {
  return run_upsample("_upsample_nearest_exact2d", OpId::_upsample_nearest_exact, 2, self,
                      output_size, scale_list({scales_h, scales_w}), false);
}
Tensor _upsample_nearest_exact3d(const Tensor& self, IntArrayRef output_size,
                                 std::optional<double> scales_d, std::optional<double> scales_h,
                                 std::optional<double> scales_w) {
  return run_upsample("_upsample_nearest_exact3d", OpId::_upsample_nearest_exact, 3, self,
                      output_size, scale_list({scales_d, scales_h, scales_w}), false);
}
Tensor upsample_linear1d(const Tensor& self, IntArrayRef output_size, bool align_corners,
                         std::optional<double> scales) {
  return run_upsample("upsample_linear1d", OpId::upsample_linear, 1, self, output_size,
                      scale_list({scales}), align_corners);
}
Tensor upsample_bilinear2d(const Tensor& self, IntArrayRef output_size, bool align_corners,
                           std::optional<double> scales_h, std::optional<double> scales_w) {
  return run_upsample("upsample_bilinear2d", OpId::upsample_linear, 2, self, output_size,
                      scale_list({scales_h, scales_w}), align_corners);
}
Tensor upsample_trilinear3d(const Tensor& self, IntArrayRef output_size, bool align_corners,
                            std::optional<double> scales_d, std::optional<double> scales_h,
                            std::optional<double> scales_w) {
  return run_upsample("upsample_trilinear3d", OpId::upsample_linear, 3, self, output_size,
                      scale_list({scales_d, scales_h, scales_w}), align_corners);
}

// Note [interpolate]
// torch.nn.functional.interpolate of current PyTorch: exactly one of size and scale_factor; each
// one value for every spatial dim or one per dim. align_corners only for the interpolating modes
// (None is False). recompute_scale_factor=True (or mode "area" with a scale_factor) computes
// output_size = floor(in * scale) and drops the scales; otherwise the scales reach the kernel
// (ATen's .vec overloads, output_size = floor(in * scale) too). "area" is adaptive average
// pooling (1-d through adaptive_avg_pool2d over a unit row, as ATen's adaptive_avg_pool1d);
// touchstone has no adaptive_avg_pool3d, so 5-D "area" is refused, as is antialias=True.
Tensor interpolate(const Tensor& input, IntArrayRef size, ArrayRef<double> scale_factor,
                   std::string_view mode, std::optional<bool> align_corners,
                   std::optional<bool> recompute_scale_factor, bool antialias) {
  const char* op = "interpolate";
  const UserOpScope scope(op);
  meta::check_defined(op, input, "input");
  TS_CHECK(input.dim() >= 3 && input.dim() <= 5, op,
           ": Input Error: Only 3D, 4D and 5D input Tensors supported (got ", input.dim(),
           "D) for the modes: nearest | linear | bilinear | bicubic | trilinear | area | ",
           "nearest-exact (got ", mode, ") (argument 'input')");
  const auto nd = static_cast<size_t>(input.dim() - 2);
  const bool interpolating =
      mode == "linear" || mode == "bilinear" || mode == "trilinear" || mode == "bicubic";
  TS_CHECK(interpolating || mode == "nearest" || mode == "nearest-exact" || mode == "area", op,
           ": mode must be one of nearest | linear | bilinear | bicubic | trilinear | area | ",
           "nearest-exact, but got '", mode, "' (argument 'mode')");
  TS_CHECK(interpolating || !align_corners.has_value(), op,
           ": align_corners option can only be set with the interpolating modes: linear | ",
           "bilinear | bicubic | trilinear (argument 'align_corners')");
  TS_CHECK(!size.empty() || !scale_factor.empty(), op,
           ": either size or scale_factor should be defined (argument 'size')");
  TS_CHECK(size.empty() || scale_factor.empty(), op,
           ": only one of size or scale_factor should be defined (argument 'scale_factor')");
  TS_CHECK(size.size() <= 1 || size.size() == nd, op,
           ": Input and output must have the same number of spatial dimensions, but got input ",
           "with spatial dimensions of ", input.sizes().slice(2), " and output size of ", size,
           " (argument 'size')");
  TS_CHECK(scale_factor.size() <= 1 || scale_factor.size() == nd, op,
           ": Input and scale_factor must have the same number of spatial dimensions, but got ",
           "input with spatial dimensions of ", input.sizes().slice(2), " and scale_factor of ",
           "shape ", scale_factor.size(), " (argument 'scale_factor')");
  TS_CHECK(!(recompute_scale_factor.value_or(false) && !size.empty()), op,
           ": recompute_scale_factor is not meaningful with an explicit size (argument ",
           "'recompute_scale_factor')");
  TS_CHECK(!antialias, op, ": antialias=True is not implemented in touchstone (argument ",
           "'antialias')");
  const char* needs = mode == "linear" ? "3D" : mode == "bilinear" ? "4D" : "5D";
  TS_CHECK(!(mode == "linear" || mode == "bilinear" || mode == "trilinear") ||
               std::string_view(needs)[0] - '2' == static_cast<char>(nd),
           op, ": Got ", input.dim(), "D input, but ", mode, " mode needs ", needs,
           " input (argument 'input')");
  TS_CHECK(mode != "bicubic" || nd == 2, op, ": Got ", input.dim(),
           "D input, but bicubic mode needs 4D input (argument 'input')");
  TS_CHECK(mode != "area" || nd != 3, op,
           ": mode 'area' on a 5-D input is adaptive_avg_pool3d, which touchstone does not have ",
           "(argument 'mode')");
  DimVector out;
  std::vector<std::optional<double>> scales;
  if (!size.empty()) {
    for (size_t d = 0; d < nd; ++d) out.push_back(size.size() == 1 ? size[0] : size[d]);
  } else {
    const bool recompute = recompute_scale_factor.value_or(false) || mode == "area";
    for (size_t d = 0; d < nd; ++d) {
      const double s = scale_factor.size() == 1 ? scale_factor[0] : scale_factor[d];
      out.push_back(static_cast<int64_t>(
          std::floor(static_cast<double>(input.size(2 + static_cast<int64_t>(d))) * s)));
      if (!recompute) scales.emplace_back(s);
    }
  }
  const bool corners = align_corners.value_or(false);
  if (mode == "nearest") return upsample_nearest(input, out, scales);
  if (mode == "nearest-exact") return _upsample_nearest_exact(input, out, scales);
  if (mode == "bicubic") {
    return upsample_bicubic2d(input, out, corners, scales.empty() ? std::nullopt : scales[0],
                              scales.empty() ? std::nullopt : scales[1]);
  }
  if (mode == "area") {
    if (nd == 2) return adaptive_avg_pool2d(input, out);
    return adaptive_avg_pool2d(input.unsqueeze(-2), std::vector<int64_t>{1, out[0]}).squeeze(-2);
  }
  return upsample_linear(input, out, corners, scales);
}

// Note [affine_grid]
// torch.nn.functional.affine_grid (ATen's affine_grid_generator, a composite): the base grid
// holds, per output position, its normalized coordinates (x, y[, z], 1), x along the last dim,
// linspace(-1, 1, n) (align_corners) or that scaled by (n - 1) / n (pixel centers); the grid is
// base (N, H*W, 3) @ theta^T (N, 3, 2), so gradients reach theta through bmm.
Tensor affine_grid(const Tensor& theta, IntArrayRef size, std::optional<bool> align_corners) {
  const char* op = "affine_grid";
  const UserOpScope scope(op);
  meta::check_defined(op, theta, "theta");
  TS_CHECK(is_floating_type(theta.dtype()), op,
           ": Expected theta to have floating point type, but got ", theta.dtype(),
           " (argument 'theta')");
  TS_CHECK(size.size() == 4 || size.size() == 5, op,
           ": affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, ",
           "respectively. Got size ", size, " (argument 'size')");
  const bool spatial3 = size.size() == 5;
  const int64_t rows = spatial3 ? 3 : 2, cols = spatial3 ? 4 : 3;
  TS_CHECK(theta.dim() == 3 && theta.size(1) == rows && theta.size(2) == cols, op,
           ": Expected a batch of ", spatial3 ? "3D" : "2D", " affine matrices of shape Nx", rows,
           "x", cols, " for size ", size, ". Got ", theta.sizes(), " (argument 'theta')");
  TS_CHECK(theta.size(0) == size[0], op, ": theta's batch (", theta.size(0),
           ") must equal size[0] (", size[0], ") (argument 'size')");
  int64_t min_size = size[2];
  for (size_t d = 2; d < size.size(); ++d) min_size = std::min(min_size, size[d]);
  TS_CHECK(min_size > 0, op, ": Expected non-zero, positive output size. Got ", size,
           " (argument 'size')");
  const bool corners = align_corners.value_or(false);
  // Spatial dims in (D,) H, W order; coordinate k of the grid runs along spatial dim nd - 1 - k.
  const size_t nd = size.size() - 2;
  const TensorOptions opts = theta.options();
  DimVector spatial(size.slice(2));
  DimVector shape{1};
  for (int64_t s : spatial) shape.push_back(s);
  shape.push_back(rows + 1);
  Tensor base = empty(shape, opts);
  for (size_t k = 0; k < nd; ++k) {
    const int64_t n = spatial[nd - 1 - k];
    // ATen's linspace_from_neg_one: a single step is 0, whatever align_corners.
    Tensor lin = n <= 1 ? zeros({1}, opts) : linspace(-1, 1, n, opts);
    if (!corners) lin = lin * (static_cast<double>(n - 1) / static_cast<double>(n));
    DimVector view(nd, 1);
    view[nd - 1 - k] = n;
    base.select(-1, static_cast<int64_t>(k)).copy_(lin.reshape(view).unsqueeze(0));
  }
  base.select(-1, rows).fill_(1);
  int64_t points = 1;
  for (int64_t s : spatial) points *= s;
  const Tensor flat = base.reshape({1, points, rows + 1}).expand({size[0], points, rows + 1});
  DimVector out_shape{size[0]};
  for (int64_t s : spatial) out_shape.push_back(s);
  out_shape.push_back(rows);
  return bmm(flat.contiguous(), theta.transpose(1, 2)).reshape(out_shape);
}

}  // namespace ts

// ---- derivatives (Note [Adding a derivative] in lib/src/autograd/derivatives.h) ----
namespace ts::autograd {
namespace {

// Note [Interpolation gradients as matmuls]
// Every mode is separable (Note [Interpolation kernel ops]): per plane, y = A_1 x A_2^T in 2-d,
// A_d (out, in) holding each output position's tap weights (nearest: a single 1; clamped cubic
// taps summed where they coincide). So grad x = A_1^T grad A_2, one matmul per spatial dim, on
// the active set and differentiable again, as ATen's upsample_*_backward kernels compute it
// (their scatter-adds are the same sums). Reduced dtypes contract in float32 and round once.
// ATen's 1-D rules (Note [Interpolation source indices]; reference/interpolate.cpp states them):
// A's row i holds the weights of output position i over the input positions.
Tensor tap_matrix(OpId op, const UpsampleParams& p, size_t d, int64_t in, int64_t out,
                  ScalarType dtype) {
  std::vector<double> m(static_cast<size_t>(out * in), 0.0);
  const double s = p.scales[d];
  const auto add = [&](int64_t i, int64_t src, double w) {
    m[static_cast<size_t>(i * in + src)] += w;
  };
  // Nearest indices in ATen's op math type: float, or double for float64 (`dtype` here).
  const double nscale_d = s > 0 ? 1.0 / s : static_cast<double>(in) / static_cast<double>(out);
  const float nscale_f =
      s > 0 ? static_cast<float>(1.0 / s) : static_cast<float>(in) / static_cast<float>(out);
  const double scale = p.align_corners ? (out > 1 ? static_cast<double>(in - 1) / (out - 1) : 0.0)
                       : s > 0         ? 1.0 / s
                                       : static_cast<double>(in) / static_cast<double>(out);
  for (int64_t i = 0; i < out; ++i) {
    if (op == OpId::upsample_nearest) {
      const double at = dtype == kDouble ? std::floor(static_cast<double>(i) * nscale_d)
                                         : std::floor(static_cast<float>(i) * nscale_f);
      add(i, std::min(static_cast<int64_t>(at), in - 1), 1.0);
    } else if (op == OpId::_upsample_nearest_exact) {
      const double at =
          dtype == kDouble
              ? std::floor((static_cast<double>(i) + 0.5) * nscale_d)
              : std::floor(static_cast<float>((static_cast<double>(i) + 0.5) * nscale_f));
      add(i, std::min(static_cast<int64_t>(at), in - 1), 1.0);
    } else if (op == OpId::upsample_linear) {
      if (out == in) {
        add(i, i, 1.0);
        continue;
      }
      double real = p.align_corners ? scale * static_cast<double>(i)
                                    : scale * (static_cast<double>(i) + 0.5) - 0.5;
      if (real < 0) real = 0;
      const auto i0 = static_cast<int64_t>(real);
      const int64_t i1 = i0 + (i0 < in - 1 ? 1 : 0);
      const double l1 = real - static_cast<double>(i0);
      add(i, i0, 1.0 - l1);
      add(i, i1, l1);
    } else {
      const double real = p.align_corners ? scale * static_cast<double>(i)
                                          : scale * (static_cast<double>(i) + 0.5) - 0.5;
      const double f = std::floor(real), t = real - f;
      constexpr double A = -0.75;
      const double w[4] = {((A * (t + 1) - 5 * A) * (t + 1) + 8 * A) * (t + 1) - 4 * A,
                           ((A + 2) * t - (A + 3)) * t * t + 1,
                           ((A + 2) * (1 - t) - (A + 3)) * (1 - t) * (1 - t) + 1,
                           ((A * (2 - t) - 5 * A) * (2 - t) + 8 * A) * (2 - t) - 4 * A};
      for (int64_t j = 0; j < 4; ++j) {
        add(i, std::clamp<int64_t>(static_cast<int64_t>(f) - 1 + j, 0, in - 1),
            w[static_cast<size_t>(j)]);
      }
    }
  }
  return tensor(ArrayRef<double>(m), TensorOptions(kDouble)).reshape({out, in}).to(dtype);
}

Tensor upsample_backward(const BackwardArgs& a, OpId op) {
  const UpsampleParams& p = a.p.get<UpsampleParams>();
  const Tensor& g = a.grad();
  const IntArrayRef in = a.input_sizes(0);
  const size_t nd = p.output_size.size(), lead = in.size() - nd;
  const ScalarType math = g.dtype() == kDouble ? kDouble : kFloat;
  Tensor r = g.to(math);
  for (size_t d = 0; d < nd; ++d) {
    const auto dim = static_cast<int64_t>(lead + d);
    const Tensor m = tap_matrix(op, p, d, in[lead + d], p.output_size[d], math);
    r = matmul(r.transpose(dim, -1), m).transpose(dim, -1);
  }
  return r.to(g.dtype()).contiguous();
}

}  // namespace

TS_REGISTER_DERIVATIVES(interpolate) {
  // grid_sampler(Tensor input, Tensor grid, int interpolation_mode, int padding_mode,
  //              bool align_corners) -> Tensor
  //   input, grid: grid_sampler_{2,3}d_backward(grad, input, grid, ...) (Note [grid_sampler])
  m.def(
      OpId::grid_sampler, save_inputs({0, 1}),
      [](const BackwardArgs& a) -> Grads {
        const GridSampleParams& p = a.p.get<GridSampleParams>();
        auto [gi, gg] =
            grid_sampler_backward(a.grad().contiguous(), a.input(0), a.input(1),
                                  p.interpolation_mode, p.padding_mode, p.align_corners);
        return {gi, gg};
      },
      "GridSamplerBackward0");
  // upsample_nearest(Tensor self, int[] output_size, float?[] scales) -> Tensor
  //   self: upsample_nearest{1,2,3}d_backward (Note [Interpolation gradients as matmuls])
  m.def(
      OpId::upsample_nearest, save_nothing(),
      [](const BackwardArgs& a) -> Grads { return {upsample_backward(a, OpId::upsample_nearest)}; },
      "UpsampleNearestBackward0");
  // _upsample_nearest_exact(Tensor self, int[] output_size, float?[] scales) -> Tensor
  //   self: _upsample_nearest_exact{1,2,3}d_backward
  m.def(
      OpId::_upsample_nearest_exact, save_nothing(),
      [](const BackwardArgs& a) -> Grads {
        return {upsample_backward(a, OpId::_upsample_nearest_exact)};
      },
      "UpsampleNearestExactBackward0");
  // upsample_linear(Tensor self, int[] output_size, bool align_corners, float?[] scales)
  //   self: upsample_{linear1d,bilinear2d,trilinear3d}_backward
  m.def(
      OpId::upsample_linear, save_nothing(),
      [](const BackwardArgs& a) -> Grads { return {upsample_backward(a, OpId::upsample_linear)}; },
      "UpsampleLinearBackward0");
  // upsample_bicubic2d(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h,
  //                    float? scales_w) -> Tensor        self: upsample_bicubic2d_backward
  m.def(
      OpId::upsample_bicubic2d, save_nothing(),
      [](const BackwardArgs& a) -> Grads {
        return {upsample_backward(a, OpId::upsample_bicubic2d)};
      },
      "UpsampleBicubic2DBackward0");
}

}  // namespace ts::autograd
