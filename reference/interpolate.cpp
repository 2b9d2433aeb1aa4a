// Reference kernels for interpolation (upsample_nearest, _upsample_nearest_exact, upsample_linear
// over 1 to 3 spatial dims, upsample_bicubic2d): ATen's 1-D rules of UpSample.h, one per spatial
// dim, each output element the weighted sum over the product of its taps, in double. See Note
// [Reference kernels] in common.h and the params at the top of lib/src/ops/interpolate.cpp.
#include <algorithm>
#include <cmath>
#include <vector>

#include "common.h"
#include "touchstone/kernel_family.h"

namespace ts::reference {
namespace {

// One input position an output position reads along one dim, and its weight.
struct Tap {
  int64_t at;
  double weight;
};
using Taps = std::vector<Tap>;

// ATen's area_pixel_compute_scale: align_corners maps the corner pixels' centers onto each
// other ((in - 1) / (out - 1), 0 for one output); otherwise a given scale gives 1 / scale, none
// in / out.
double area_pixel_scale(int64_t in, int64_t out, bool align_corners, double scale) {
  if (align_corners)
    return out > 1 ? static_cast<double>(in - 1) / static_cast<double>(out - 1) : 0;
  return scale > 0 ? 1.0 / scale : static_cast<double>(in) / static_cast<double>(out);
}

// ATen's area_pixel_compute_source_index: the source coordinate of output position i; pixel
// centers (i + 0.5) unless align_corners; linear modes clamp a negative coordinate to 0.
double source_index(double scale, int64_t i, bool align_corners, bool cubic) {
  if (align_corners) return scale * static_cast<double>(i);
  const double src = scale * (static_cast<double>(i) + 0.5) - 0.5;
  return !cubic && src < 0 ? 0.0 : src;
}

// The nearest modes' scale in ATen's op math type T (float, or double for a float64 tensor):
// compute_scales_value<T>, 1 / scale when one is given, else in / out (Note [Interpolation
// source indices] in lib/src/ops/interpolate.cpp).
template <typename T>
T nearest_scale(int64_t in, int64_t out, double scale) {
  return scale > 0 ? static_cast<T>(1.0 / scale) : static_cast<T>(in) / static_cast<T>(out);
}

// nearest (ATen's CPU kernel, OpenCV's INTER_NEAREST): floor(i * scale) in T, at most in - 1.
template <typename T>
Tap nearest_tap(int64_t i, int64_t in, int64_t out, double scale) {
  const T s = nearest_scale<T>(in, out, scale);
  const auto at = static_cast<int64_t>(std::floor(static_cast<T>(i) * s));
  return {std::min(at, in - 1), 1.0};
}

// nearest-exact (ATen's nearest_exact_idx): floor((i + 0.5) * scale), the product in double
// rounded to T, at most in - 1 (Pillow's, scikit-image's and scipy's ndimage.zoom rule).
template <typename T>
Tap nearest_exact_tap(int64_t i, int64_t in, int64_t out, double scale) {
  const T s = nearest_scale<T>(in, out, scale);
  const auto at = static_cast<T>((static_cast<double>(i) + 0.5) * static_cast<double>(s));
  return {std::min(static_cast<int64_t>(std::floor(at)), in - 1), 1.0};
}

// linear (ATen's compute_source_index_and_lambda): out == in copies; else the coordinate's
// integer part i0 and the next position (i0 itself at the last one), weights 1 - frac, frac.
Taps linear_taps(int64_t i, int64_t in, int64_t out, bool align_corners, double scale) {
  if (out == in) return {{i, 1.0}};
  const double s = area_pixel_scale(in, out, align_corners, scale);
  const double real = source_index(s, i, align_corners, false);
  const auto i0 = static_cast<int64_t>(real);
  const int64_t i1 = i0 < in - 1 ? i0 + 1 : i0;
  const double lambda1 = real - static_cast<double>(i0);
  return {{i0, 1.0 - lambda1}, {i1, lambda1}};
}

// Keys' cubic convolution kernel with A = -0.75 (ATen's cubic_convolution1 for |x| <= 1,
// cubic_convolution2 for 1 < |x| < 2).
double cubic_near(double x) {
  constexpr double A = -0.75;
  return ((A + 2) * x - (A + 3)) * x * x + 1;
}
double cubic_far(double x) {
  constexpr double A = -0.75;
  return ((A * x - 5 * A) * x + 8 * A) * x - 4 * A;
}

// bicubic (ATen's get_cubic_upsample_coefficients): the coordinate is not clamped; taps at
// floor - 1 .. floor + 2, each clamped into [0, in) (upsample_get_value_bounded), with weights
// at distances 1 + t, t, 1 - t, 2 - t.
Taps cubic_taps(int64_t i, int64_t in, int64_t out, bool align_corners, double scale) {
  const double s = area_pixel_scale(in, out, align_corners, scale);
  const double real = source_index(s, i, align_corners, true);
  const double f = std::floor(real), t = real - f;
  const double w[4] = {cubic_far(t + 1), cubic_near(t), cubic_near(1 - t), cubic_far(2 - t)};
  Taps taps;
  for (int64_t j = 0; j < 4; ++j) {
    const int64_t at = std::clamp<int64_t>(static_cast<int64_t>(f) - 1 + j, 0, in - 1);
    taps.push_back({at, w[j]});
  }
  return taps;
}

// Every output element: the sum over the product of its taps (one list per spatial dim).
template <OpId op>
void upsample_kernel(const KernelCall& c) {
  const UpsampleParams& p = c.params<UpsampleParams>();
  const Tensor& x = c.inputs[0];
  const Tensor& y = c.outputs[0];
  const ScalarType ct = c.p.compute_dtype;
  const size_t nd = p.output_size.size(), lead = static_cast<size_t>(y.dim()) - nd;
  std::vector<std::vector<Taps>> rules(nd);
  for (size_t d = 0; d < nd; ++d) {
    const int64_t in = x.size(static_cast<int64_t>(lead + d)), out = p.output_size[d];
    const double scale = p.scales[d];
    for (int64_t i = 0; i < out; ++i) {
      if constexpr (op == OpId::upsample_nearest) {
        rules[d].push_back({ct == kDouble ? nearest_tap<double>(i, in, out, scale)
                                          : nearest_tap<float>(i, in, out, scale)});
      } else if constexpr (op == OpId::_upsample_nearest_exact) {
        rules[d].push_back({ct == kDouble ? nearest_exact_tap<double>(i, in, out, scale)
                                          : nearest_exact_tap<float>(i, in, out, scale)});
      } else if constexpr (op == OpId::upsample_linear) {
        rules[d].push_back(linear_taps(i, in, out, p.align_corners, scale));
      } else if constexpr (op == OpId::upsample_bicubic2d) {
        rules[d].push_back(cubic_taps(i, in, out, p.align_corners, scale));
      } else {
        static_assert(kMissingKernel<op>, "an interpolation op without its reference kernel");
      }
    }
  }
  for_each_index(y.sizes(), [&](IntArrayRef idx) {
    std::vector<const Taps*> taps;
    for (size_t d = 0; d < nd; ++d) taps.push_back(&rules[d][static_cast<size_t>(idx[lead + d])]);
    DimVector src(idx);
    std::vector<size_t> k(nd, 0);
    double sum = 0;
    while (true) {
      double w = 1;
      for (size_t d = 0; d < nd; ++d) {
        const Tap& t = (*taps[d])[k[d]];
        src[lead + d] = t.at;
        w *= t.weight;
      }
      sum += w * load_as_double(element_ptr(x, src), x.dtype(), ct);
      size_t d = nd;
      while (d > 0 && ++k[d - 1] == taps[d - 1]->size()) k[--d] = 0;
      if (d == 0) break;
    }
    store_double(element_ptr(y, idx), y.dtype(), round_to(ct, sum));
  });
}

// ---- grid_sampler (Note [grid_sampler] in lib/src/ops/interpolate.cpp) ----

// One grid coordinate's taps along its input dim: the positions read (outside [0, size) read
// zero), their weights, and each weight's derivative with respect to the source coordinate;
// `mult` is d source / d grid coordinate.
struct GridTap {
  int64_t at;
  double weight, dweight;
};
struct GridAxis {
  std::vector<GridTap> taps;
  double mult = 0;
};

// ATen's clip_coordinates_set_grad: into [0, size - 1], derivative 0 where clipped.
double clip(double in, int64_t size, double& grad) {
  const auto hi = static_cast<double>(size - 1);
  grad = in > 0 && in < hi ? 1 : 0;
  return in <= 0 ? 0 : in >= hi ? hi : in;
}

// ATen's reflect_coordinates_set_grad: `in` reflected into [twice_low / 2, twice_high / 2],
// derivative +-1 by the number of reflections.
double reflect(double in, int64_t twice_low, int64_t twice_high, double& grad) {
  if (twice_low == twice_high) {
    grad = 0;
    return 0;
  }
  const double lo = static_cast<double>(twice_low) / 2;
  const double span = static_cast<double>(twice_high - twice_low) / 2;
  double sign = 1;
  in -= lo;
  if (in < 0) {
    sign = -1;
    in = -in;
  }
  const double extra = std::fmod(in, span);
  const auto flips = static_cast<int64_t>(std::floor(in / span));
  grad = flips % 2 == 0 ? sign : -sign;
  return flips % 2 == 0 ? extra + lo : span - extra + lo;
}

// ATen's compute_coordinates_set_grad: border clips, reflection reflects about the pixel
// centers' span (the corners' with align_corners) and clips; zeros leaves the coordinate.
double pad_coordinate(double in, int64_t size, const GridSampleParams& p, double& grad) {
  grad = 1;
  if (p.padding_mode == 1) return clip(in, size, grad);
  if (p.padding_mode == 2) {
    double g_reflect = 1, g_clip = 1;
    in = p.align_corners ? reflect(in, 0, 2 * (size - 1), g_reflect)
                         : reflect(in, -1, 2 * size - 1, g_reflect);
    in = clip(in, size, g_clip);
    grad = g_reflect * g_clip;
  }
  return in;
}

// The taps of grid coordinate `coord` along an input dim of `size` (ATen's grid_sampler_2d/3d):
// bilinear reads floor(src) and floor(src) + 1 with weights 1 - frac and frac; nearest the
// position nearest src (ties to even, as nearbyint); bicubic floor(src) - 1 .. floor(src) + 2
// with the cubic weights of upsample_bicubic2d, each tap position padded on its own
// (get_value_bounded) and the source itself not padded.
GridAxis grid_axis(double coord, int64_t size, const GridSampleParams& p) {
  GridAxis a;
  double src = p.align_corners ? (coord + 1) / 2 * static_cast<double>(size - 1)
                               : ((coord + 1) * static_cast<double>(size) - 1) / 2;
  a.mult = p.align_corners ? static_cast<double>(size - 1) / 2 : static_cast<double>(size) / 2;
  if (p.interpolation_mode == 2) {
    const double f = std::floor(src), t = src - f;
    const double w[4] = {cubic_far(t + 1), cubic_near(t), cubic_near(1 - t), cubic_far(2 - t)};
    // d w / d t of the four weights (ATen's get_cubic_coefficients_grad, negated).
    constexpr double A = -0.75;
    const auto dnear = [](double x) { return (3 * (A + 2) * x - 2 * (A + 3)) * x; };
    const auto dfar = [](double x) { return (3 * A * x - 10 * A) * x + 8 * A; };
    const double dw[4] = {dfar(t + 1), dnear(t), -dnear(1 - t), -dfar(2 - t)};
    for (int64_t j = 0; j < 4; ++j) {
      double unused = 0;
      const double at = pad_coordinate(f - 1 + static_cast<double>(j), size, p, unused);
      a.taps.push_back({static_cast<int64_t>(at), w[j], dw[j]});
    }
    return a;
  }
  double g_pad = 1;
  src = pad_coordinate(src, size, p, g_pad);
  a.mult *= g_pad;
  if (p.interpolation_mode == 1) {
    a.taps.push_back({static_cast<int64_t>(std::nearbyint(src)), 1.0, 0.0});
  } else {
    const double f = std::floor(src);
    a.taps.push_back({static_cast<int64_t>(f), f + 1 - src, -1.0});
    a.taps.push_back({static_cast<int64_t>(f) + 1, src - f, 1.0});
  }
  return a;
}

// Visits every combination of in-bounds taps, one per spatial dim (dim 0 = the input's D or H):
// f(input spatial index, the taps).
template <typename F>
void for_each_tap(const std::vector<GridAxis>& axes, IntArrayRef in_spatial, F&& f) {
  const size_t nd = axes.size();
  std::vector<size_t> k(nd, 0);
  DimVector at(nd, 0);
  std::vector<const GridTap*> taps(nd);
  while (true) {
    bool inside = true;
    for (size_t d = 0; d < nd; ++d) {
      taps[d] = &axes[d].taps[k[d]];
      at[d] = taps[d]->at;
      inside = inside && at[d] >= 0 && at[d] < in_spatial[d];
    }
    if (inside) f(IntArrayRef(at), taps);
    size_t d = nd;
    while (d > 0 && ++k[d - 1] == axes[d - 1].taps.size()) k[--d] = 0;
    if (d == 0) return;
  }
}

// The axes of output point (n, out...): grid coordinate k (x, y, z) drives input dim nd - 1 - k.
std::vector<GridAxis> grid_axes(const Tensor& grid, DimVector point, IntArrayRef in_spatial,
                                const GridSampleParams& p, ScalarType ct) {
  const size_t nd = in_spatial.size();
  std::vector<GridAxis> axes(nd);
  point.push_back(0);
  for (size_t k = 0; k < nd; ++k) {
    point.back() = static_cast<int64_t>(k);
    const double coord = load_as_double(element_ptr(grid, point), grid.dtype(), ct);
    axes[nd - 1 - k] = grid_axis(coord, in_spatial[nd - 1 - k], p);
  }
  return axes;
}

// out[n][c][out...] = the sum over its taps of the weights' product times input[n][c][taps].
void grid_sampler_kernel(const KernelCall& c) {
  const GridSampleParams& p = c.params<GridSampleParams>();
  const Tensor& x = c.inputs[0];
  const Tensor& grid = c.inputs[1];
  const Tensor& y = c.outputs[0];
  const ScalarType ct = c.p.compute_dtype;
  const IntArrayRef in_spatial = x.sizes().slice(2);
  for_each_index(y.sizes(), [&](IntArrayRef idx) {
    DimVector point{idx[0]};
    for (size_t d = 2; d < idx.size(); ++d) point.push_back(idx[d]);
    const std::vector<GridAxis> axes = grid_axes(grid, point, in_spatial, p, ct);
    DimVector src{idx[0], idx[1]};
    for (size_t d = 0; d < in_spatial.size(); ++d) src.push_back(0);
    double sum = 0;
    for_each_tap(axes, in_spatial, [&](IntArrayRef at, const std::vector<const GridTap*>& taps) {
      double w = 1;
      for (size_t d = 0; d < at.size(); ++d) {
        src[2 + d] = at[d];
        w *= taps[d]->weight;
      }
      sum += w * load_as_double(element_ptr(x, src), x.dtype(), ct);
    });
    store_double(element_ptr(y, idx), y.dtype(), round_to(ct, sum));
  });
}

// grad_input[n][c][taps] += the weights' product times grad_output; grad_grid[n][out...][k] =
// mult times the sum over channels and taps of input times grad_output times the weights'
// product with dim nd - 1 - k's weight replaced by its derivative (0 for nearest, as ATen).
void grid_sampler_backward_kernel(const KernelCall& c) {
  const GridSampleParams& p = c.params<GridSampleParams>();
  const Tensor& gout = c.inputs[0];
  const Tensor& x = c.inputs[1];
  const Tensor& grid = c.inputs[2];
  const Tensor& gin = c.outputs[0];
  const Tensor& ggrid = c.outputs[1];
  const ScalarType ct = c.p.compute_dtype;
  const IntArrayRef in_spatial = x.sizes().slice(2);
  const size_t nd = in_spatial.size();
  std::vector<double> gin_acc(static_cast<size_t>(x.numel()), 0.0);
  const IntArrayRef xs = x.sizes();
  const auto flat = [&](IntArrayRef idx) {
    int64_t off = 0;
    for (size_t d = 0; d < idx.size(); ++d) off = off * xs[d] + idx[d];
    return static_cast<size_t>(off);
  };
  DimVector points_shape(grid.sizes().slice(0, grid.dim() - 1));
  for_each_index(points_shape, [&](IntArrayRef point) {
    const std::vector<GridAxis> axes = grid_axes(grid, DimVector(point), in_spatial, p, ct);
    std::vector<double> g(nd, 0.0);
    for (int64_t ch = 0; ch < x.size(1); ++ch) {
      DimVector oidx{point[0], ch};
      for (size_t d = 1; d < point.size(); ++d) oidx.push_back(point[d]);
      const double go = load_as_double(element_ptr(gout, oidx), gout.dtype(), ct);
      DimVector src{point[0], ch};
      for (size_t d = 0; d < nd; ++d) src.push_back(0);
      for_each_tap(axes, in_spatial, [&](IntArrayRef at, const std::vector<const GridTap*>& taps) {
        double w = 1;
        for (size_t d = 0; d < nd; ++d) {
          src[2 + d] = at[d];
          w *= taps[d]->weight;
        }
        gin_acc[flat(src)] += w * go;
        const double v = load_as_double(element_ptr(x, src), x.dtype(), ct);
        for (size_t d = 0; d < nd; ++d) {
          double wd = taps[d]->dweight;
          for (size_t e = 0; e < nd; ++e) {
            if (e != d) wd *= taps[e]->weight;
          }
          g[d] += v * go * wd;
        }
      });
    }
    DimVector gidx(point);
    gidx.push_back(0);
    for (size_t k = 0; k < nd; ++k) {
      gidx.back() = static_cast<int64_t>(k);
      const size_t d = nd - 1 - k;
      const double r = p.interpolation_mode == 1 ? 0.0 : axes[d].mult * g[d];
      store_double(element_ptr(ggrid, gidx), ggrid.dtype(), round_to(ct, r));
    }
  });
  for_each_index(x.sizes(), [&](IntArrayRef idx) {
    store_double(element_ptr(gin, idx), gin.dtype(), round_to(ct, gin_acc[flat(idx)]));
  });
}

// One branch per Interpolate kernel op of op_list.def (registered below).
template <OpId op>
void interpolate_kernel(const KernelCall& c) {
  if constexpr (op == OpId::grid_sampler) {
    grid_sampler_kernel(c);
  } else if constexpr (op == OpId::grid_sampler_backward) {
    grid_sampler_backward_kernel(c);
  } else {
    upsample_kernel<op>(c);
  }
}

}  // namespace

TS_REGISTER_KERNELS(reference, interpolate) {
  for_each_kernel_op<OpSignature::Interpolate>(
      [&](auto op) { m.impl(op, kCPU, interpolate_kernel<op>); });
}

}  // namespace ts::reference
