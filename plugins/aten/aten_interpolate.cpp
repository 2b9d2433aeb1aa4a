// aten kernels for interpolation (lib/src/ops/interpolate.cpp, whose Params block gives the
// inputs and structs): upsample_nearest, _upsample_nearest_exact and upsample_linear call ATen's
// op of their dim count (upsample_nearest{1,2,3}d, _upsample_nearest_exact{1,2,3}d,
// upsample_linear1d, upsample_bilinear2d, upsample_trilinear3d), upsample_bicubic2d ATen's,
// grid_sampler ATen's and grid_sampler_backward grid_sampler_{2,3}d_backward.
#include <ATen/core/Tensor.h>
#include <ATen/ops/_upsample_nearest_exact1d.h>
#include <ATen/ops/_upsample_nearest_exact2d.h>
#include <ATen/ops/_upsample_nearest_exact3d.h>
#include <ATen/ops/grid_sampler.h>
#include <ATen/ops/grid_sampler_2d_backward.h>
#include <ATen/ops/grid_sampler_3d_backward.h>
#include <ATen/ops/upsample_bicubic2d.h>
#include <ATen/ops/upsample_bilinear2d.h>
#include <ATen/ops/upsample_linear1d.h>
#include <ATen/ops/upsample_nearest1d.h>
#include <ATen/ops/upsample_nearest2d.h>
#include <ATen/ops/upsample_nearest3d.h>
#include <ATen/ops/upsample_trilinear3d.h>
#include <tuple>
#include <vector>

#include "aten_wrap.h"
#include "touchstone/kernel_family.h"

namespace ts::aten {
namespace {

// ATen's optional scale of dim d (touchstone's 0: None).
c10::optional<double> scale(const UpsampleParams& p, size_t d) {
  return p.scales[d] > 0 ? c10::optional<double>(p.scales[d]) : c10::nullopt;
}

template <OpId op>
at::Tensor upsample(const at::Tensor& x, const UpsampleParams& p) {
  const std::vector<int64_t> o(p.output_size.begin(), p.output_size.end());
  const size_t nd = o.size();
  if constexpr (op == OpId::upsample_nearest) {
    if (nd == 1) return at::upsample_nearest1d(x, o, scale(p, 0));
    if (nd == 2) return at::upsample_nearest2d(x, o, scale(p, 0), scale(p, 1));
    return at::upsample_nearest3d(x, o, scale(p, 0), scale(p, 1), scale(p, 2));
  } else if constexpr (op == OpId::_upsample_nearest_exact) {
    if (nd == 1) return at::_upsample_nearest_exact1d(x, o, scale(p, 0));
    if (nd == 2) return at::_upsample_nearest_exact2d(x, o, scale(p, 0), scale(p, 1));
    return at::_upsample_nearest_exact3d(x, o, scale(p, 0), scale(p, 1), scale(p, 2));
  } else if constexpr (op == OpId::upsample_linear) {
    if (nd == 1) return at::upsample_linear1d(x, o, p.align_corners, scale(p, 0));
    if (nd == 2) return at::upsample_bilinear2d(x, o, p.align_corners, scale(p, 0), scale(p, 1));
    return at::upsample_trilinear3d(x, o, p.align_corners, scale(p, 0), scale(p, 1), scale(p, 2));
  } else if constexpr (op == OpId::upsample_bicubic2d) {
    return at::upsample_bicubic2d(x, o, p.align_corners, scale(p, 0), scale(p, 1));
  } else {
    static_assert(kMissingKernel<op>, "an interpolation op without its aten kernel");
  }
}

template <OpId op>
void upsample_kernel(const KernelCall& c) {
  const at::Tensor x = input(c, 0);
  if constexpr (op == OpId::grid_sampler) {
    const GridSampleParams& p = c.params<GridSampleParams>();
    const at::Tensor grid = input(c, 1);
    write(c, c.p.compute_dtype, [&](at::Tensor& out) {
      out.copy_(at::grid_sampler(x, grid, p.interpolation_mode, p.padding_mode, p.align_corners));
    });
  } else if constexpr (op == OpId::grid_sampler_backward) {
    const GridSampleParams& p = c.params<GridSampleParams>();
    const at::Tensor in = input(c, 1), grid = input(c, 2);
    const std::tuple<at::Tensor, at::Tensor> r =
        in.dim() == 4 ? at::grid_sampler_2d_backward(x, in, grid, p.interpolation_mode,
                                                     p.padding_mode, p.align_corners, {true, true})
                      : at::grid_sampler_3d_backward(x, in, grid, p.interpolation_mode,
                                                     p.padding_mode, p.align_corners, {true, true});
    write(c, c.p.compute_dtype, [&](at::Tensor& gin) {
      write(
          c, c.p.compute_dtype,
          [&](at::Tensor& ggrid) {
            gin.copy_(std::get<0>(r));
            ggrid.copy_(std::get<1>(r));
          },
          1);
    });
  } else {
    write(c, c.p.compute_dtype,
          [&](at::Tensor& out) { out.copy_(upsample<op>(x, c.params<UpsampleParams>())); });
  }
}

}  // namespace

// ATen 1.13's CPU upsampling kernels have no float16 ("upsample_nearest2d_out_frame" not
// implemented for 'Half'); current PyTorch has them. grid_sampler: float32 and float64 (the
// op's dtypes).
void register_interpolate(KernelRegistrar& m) {
  for_each_kernel_op<OpSignature::Interpolate>([&](auto op) {
    if constexpr (op == OpId::grid_sampler || op == OpId::grid_sampler_backward) {
      m.impl(op, kCPU, guarded<upsample_kernel<op>>);
    } else {
      m.impl(op, kCPU, kFloatingNoHalf, guarded<upsample_kernel<op>>);
    }
  });
}

}  // namespace ts::aten
