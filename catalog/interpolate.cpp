// Catalog entries of the interpolation ops (issue 16): upsample_nearest, _upsample_nearest_exact,
// upsample_linear (1 to 3 spatial dims), upsample_bicubic2d, ATen's per-dim forms,
// torch.nn.functional.interpolate, grid_sampler (and its backward), grid_sample and affine_grid.
// Conformance: up and down by integer and fractional factors, the identity and 2x, to and from
// one element, given scales that differ from in / out (out == in with a scale: linear's copy,
// nearest's floor(i / scale)), align_corners, per-dim sizes, an empty batch, NaN and +-inf
// inputs; grid_sampler in every mode and padding mode, 2-d and 3-d, grid points outside [-1, 1].
// Benchmark: bilinear 8x64x56x56 -> 112x112 (an FPN/U-Net decoder step), a 56x56 grid_sampler
// (a spatial transformer's sampling) and one case per op.
#include <cmath>
#include <limits>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "catalog/bench.h"

namespace ts::catalog {
namespace {

using In = std::vector<Tensor>;
using Shape = std::vector<int64_t>;

// Note [Interpolation samples]
// inputs {self (N, C, spatial...)}; args.ints = output_size, args.reals = scales (one per dim,
// 0: None; empty: all None), args.flag = align_corners. interpolate: args.ints = size (empty:
// None), args.reals = scale_factor, args.dims = {mode (kModes' index), align_corners (-1: None),
// recompute_scale_factor (-1: None)}. affine_grid: inputs {theta}, args.shape = size.
struct UpCase {
  std::string name;
  int64_t in, out;  // every spatial dim
  double scale = 0;
  int64_t batch = 2;
};

enum class Mode { Nearest, Exact, Linear, Cubic };

std::vector<UpCase> up_cases(size_t nd) {
  std::vector<UpCase> v = {
      {"up2", 4, 8},
      {"identity", 5, 5},
      {"up_3_7", 3, 7},
      {"down_7_3", 7, 3},
      {"down_7_6", 7, 6},
      {"to_one", 5, 1},
      {"from_one", 1, 4},
      {"scale1.5", 4, 6, 1.5},
      {"scale0.75", 10, 7, 0.75},
      {"scale1.05_same", 9, 9, 1.05},
      {"scale2_given", 3, 6, 2.0},
      {"empty_batch", 3, 5, 0, 0},
  };
  if (nd == 3) {
    // Keep 3-d samples near gradcheck's 256 elements.
    for (UpCase& c : v) {
      c.in = std::min<int64_t>(c.in, 4);
      c.out = std::min<int64_t>(c.out, 5);
      if (c.scale > 0)
        c.out = static_cast<int64_t>(std::floor(static_cast<double>(c.in) * c.scale));
      if (c.batch > 0) c.batch = 1;
    }
  }
  return v;
}

Shape input_shape(int64_t batch, int64_t channels, const Shape& spatial) {
  Shape x{batch, channels};
  x.insert(x.end(), spatial.begin(), spatial.end());
  return x;
}

int64_t taps(Mode m, size_t nd) {
  const int64_t k = m == Mode::Linear ? 2 : m == Mode::Cubic ? 4 : 1;
  int64_t t = 1;
  for (size_t i = 0; i < nd; ++i) t *= k;
  return t;
}

// Note [Interpolation edge values]
// One image of two channels, 4 per spatial dim, upsampled to 6: channel 0 holds -inf and +inf,
// channel 1 NaN and -0; every mode reads each of them (NaN and infinities spread to their
// taps' outputs, a zero weight times an infinity gives NaN, as in ATen's sums).
Tensor edge_input(const SampleContext& ctx, size_t nd) {
  KernelSetGuard g("reference");
  Shape shape{1, 2};
  int64_t plane = 1;
  for (size_t i = 0; i < nd; ++i) {
    shape.push_back(4);
    plane *= 4;
  }
  std::vector<double> v(static_cast<size_t>(2 * plane));
  for (size_t i = 0; i < v.size(); ++i) v[i] = std::sin(1.7 * static_cast<double>(i)) * 3;
  const double inf = std::numeric_limits<double>::infinity();
  v[1] = -inf;
  v[static_cast<size_t>(plane - 2)] = inf;
  v[static_cast<size_t>(plane + 2)] = NAN;
  v[static_cast<size_t>(2 * plane - 1)] = -0.0;
  return tensor(ArrayRef<double>(v), TensorOptions(kDouble)).to(ctx.dtype()).reshape(shape);
}

// Samples of one mode over dims [nd_min, nd_max]; `prefix` names the dim count for kernel ops.
std::vector<Sample> up_samples(const SampleContext& ctx, Mode m, size_t nd_min, size_t nd_max,
                               bool align_corners) {
  std::vector<Sample> out;
  for (size_t nd = nd_min; nd <= nd_max; ++nd) {
    const std::string prefix = nd_min == nd_max ? "" : std::to_string(nd) + "d_";
    for (const UpCase& c : up_cases(nd)) {
      Sample s;
      s.name = prefix + c.name;
      s.inputs = {ctx.input(s.name, 0, input_shape(c.batch, 3, Shape(nd, c.in)))};
      s.args.ints = Shape(nd, c.out);
      if (c.scale > 0) s.args.reals = std::vector<double>(nd, c.scale);
      s.args.flag = align_corners;
      s.summands = taps(m, nd);
      out.push_back(std::move(s));
    }
    if (nd >= 2) {  // per-dim sizes and scales: up along one dim, down along another
      Sample s;
      s.name = prefix + "mixed";
      Shape in(nd, 4), o(nd, 3);
      in[0] = 5;
      o[0] = 8;
      s.inputs = {ctx.input(s.name, 0, input_shape(2, 2, in))};
      s.args.ints = o;
      s.args.reals = std::vector<double>(nd, 0.0);
      s.args.reals[nd - 1] = 0.8;
      s.args.flag = align_corners;
      s.summands = taps(m, nd);
      out.push_back(std::move(s));
    }
    Sample e;
    e.name = prefix + "edge_values";
    e.inputs = {edge_input(ctx, nd)};
    e.args.ints = Shape(nd, 6);
    e.args.flag = align_corners;
    e.summands = taps(m, nd);
    e.smooth = false;
    out.push_back(std::move(e));
  }
  return out;
}

// The scales of a sample: empty, or one optional per dim (0: None).
std::vector<std::optional<double>> scales_of(const SampleArgs& a) {
  std::vector<std::optional<double>> s;
  for (double r : a.reals) s.push_back(r > 0 ? std::optional<double>(r) : std::nullopt);
  return s;
}
std::optional<double> scale_at(const SampleArgs& a, size_t i) {
  if (a.reals.empty() || a.reals[i] <= 0) return std::nullopt;
  return a.reals[i];
}

OpEntry finish(OpEntry e, Mode m) {
  e.accumulates = m == Mode::Linear || m == Mode::Cubic;
  return e;
}

// The kernel ops: 1 to 3 spatial dims (bicubic: 2), each sample once per align_corners for the
// interpolating modes ("corners_" samples).
std::vector<Sample> mode_samples(const SampleContext& ctx, Mode m, size_t nd_min, size_t nd_max) {
  std::vector<Sample> v = up_samples(ctx, m, nd_min, nd_max, false);
  if (m == Mode::Linear || m == Mode::Cubic) {
    for (Sample& s : up_samples(ctx, m, nd_min, nd_max, true)) {
      s.name = "corners_" + s.name;
      v.push_back(std::move(s));
    }
  }
  return v;
}

OpEntry kernel_entry(const char* name, Mode m) {
  const size_t lo = m == Mode::Cubic ? 2 : 1, hi = m == Mode::Cubic ? 2 : 3;
  return finish(make_entry(
                    name, "interpolate",
                    [m, lo, hi](const SampleContext& ctx) { return mode_samples(ctx, m, lo, hi); },
                    [m](const In& in, const SampleArgs& a) {
                      const auto s = scales_of(a);
                      switch (m) {
                        case Mode::Nearest:
                          return In{ts::upsample_nearest(in[0], a.ints, s)};
                        case Mode::Exact:
                          return In{ts::_upsample_nearest_exact(in[0], a.ints, s)};
                        case Mode::Linear:
                          return In{ts::upsample_linear(in[0], a.ints, a.flag, s)};
                        default:
                          return In{ts::upsample_bicubic2d(in[0], a.ints, a.flag, scale_at(a, 0),
                                                           scale_at(a, 1))};
                      }
                    }),
                m);
}

// ATen's per-dim forms: the kernel op's samples of that dim count.
OpEntry nd_entry(const char* name, Mode m, size_t nd) {
  return finish(make_entry(
                    name, "interpolate",
                    [m, nd](const SampleContext& ctx) { return mode_samples(ctx, m, nd, nd); },
                    [m, nd](const In& in, const SampleArgs& a) {
                      const auto s0 = scale_at(a, 0);
                      const auto s1 = nd > 1 ? scale_at(a, 1) : std::nullopt;
                      const auto s2 = nd > 2 ? scale_at(a, 2) : std::nullopt;
                      const Tensor& x = in[0];
                      if (m == Mode::Nearest) {
                        if (nd == 1) return In{ts::upsample_nearest1d(x, a.ints, s0)};
                        if (nd == 2) return In{ts::upsample_nearest2d(x, a.ints, s0, s1)};
                        return In{ts::upsample_nearest3d(x, a.ints, s0, s1, s2)};
                      }
                      if (m == Mode::Exact) {
                        if (nd == 1) return In{ts::_upsample_nearest_exact1d(x, a.ints, s0)};
                        if (nd == 2) return In{ts::_upsample_nearest_exact2d(x, a.ints, s0, s1)};
                        return In{ts::_upsample_nearest_exact3d(x, a.ints, s0, s1, s2)};
                      }
                      if (nd == 1) return In{ts::upsample_linear1d(x, a.ints, a.flag, s0)};
                      if (nd == 2) return In{ts::upsample_bilinear2d(x, a.ints, a.flag, s0, s1)};
                      return In{ts::upsample_trilinear3d(x, a.ints, a.flag, s0, s1, s2)};
                    }),
                m);
}

const char* const kModes[] = {"nearest",   "nearest-exact", "linear", "bilinear",
                              "trilinear", "bicubic",       "area"};

// interpolate: each mode through size and scale_factor (one value or per dim), recompute_scale_
// factor, align_corners None / False / True, and "area" (adaptive average pooling).
std::vector<Sample> interpolate_samples(const SampleContext& ctx) {
  struct Case {
    std::string name;
    Shape x, size;
    std::vector<double> scale;
    int64_t mode, align = -1, recompute = -1, summands = 1;
  };
  const std::vector<Case> cases = {
      {"nearest_size", {2, 3, 5, 5}, {8, 8}, {}, 0},
      {"nearest_scale2_1d", {2, 3, 6}, {}, {2.0}, 0},
      {"nearest_scale1.5", {2, 3, 4, 5}, {}, {1.5}, 0},
      {"nearest_scale1.5_recompute", {2, 3, 4, 5}, {}, {1.5}, 0, -1, 1},
      {"nearest_3d", {1, 2, 3, 4, 3}, {5, 4, 6}, {}, 0},
      {"nearest_exact_scale0.6", {2, 3, 10, 9}, {}, {0.6}, 1},
      {"nearest_exact_size", {2, 3, 5}, {7}, {}, 1},
      {"linear_corners", {2, 3, 5}, {9}, {}, 2, 1, -1, 2},
      {"linear_scale2", {2, 3, 5}, {}, {2.0}, 2, 0, -1, 2},
      {"bilinear_scale2", {2, 3, 4, 5}, {}, {2.0}, 3, -1, -1, 4},
      {"bilinear_one_size", {2, 3, 4, 5}, {6}, {}, 3, 0, -1, 4},
      {"bilinear_corners_down", {2, 3, 7, 6}, {3, 4}, {}, 3, 1, -1, 4},
      {"bilinear_scale_per_dim", {2, 2, 4, 5}, {}, {1.5, 0.8}, 3, 0, 0, 4},
      {"trilinear_scale", {1, 2, 3, 4, 3}, {}, {2.0, 1.5, 1.0}, 4, -1, -1, 8},
      {"bicubic_corners", {2, 2, 4, 5}, {7, 9}, {}, 5, 1, -1, 16},
      {"bicubic_scale0.6", {2, 2, 9, 8}, {}, {0.6}, 5, -1, -1, 16},
      {"area_2d", {2, 3, 7, 6}, {3, 4}, {}, 6, -1, -1, 9},
      {"area_1d_scale", {2, 3, 9}, {}, {0.5}, 6, -1, -1, 3},
  };
  std::vector<Sample> out;
  for (const Case& c : cases) {
    Sample s;
    s.name = c.name;
    s.inputs = {ctx.input(c.name, 0, c.x)};
    s.args.ints = c.size;
    s.args.reals = c.scale;
    s.args.dims = {c.mode, c.align, c.recompute};
    s.summands = c.summands;
    out.push_back(std::move(s));
  }
  return out;
}

std::optional<bool> tri(int64_t v) {
  return v < 0 ? std::nullopt : std::optional<bool>(v != 0);
}

OpEntry interpolate_entry() {
  OpEntry e = make_entry("interpolate", "interpolate", interpolate_samples,
                         [](const In& in, const SampleArgs& a) {
                           return In{ts::interpolate(in[0], a.ints, a.reals, kModes[a.dims[0]],
                                                     tri(a.dims[1]), tri(a.dims[2]))};
                         });
  e.accumulates = true;
  return e;
}

// affine_grid: 2-d and 3-d, both align_corners, a size of one along a dim (linspace of one
// step is 0), a rotation-and-scale theta.
std::vector<Sample> affine_samples(const SampleContext& ctx) {
  struct Case {
    std::string name;
    Shape size;
    bool corners;
  };
  const std::vector<Case> cases = {
      {"2d", {2, 3, 4, 5}, false},           {"2d_corners", {2, 3, 4, 5}, true},
      {"2d_one_row", {2, 1, 1, 4}, false},   {"3d", {2, 1, 3, 2, 4}, false},
      {"3d_corners", {1, 2, 2, 3, 4}, true},
  };
  std::vector<Sample> out;
  for (const Case& c : cases) {
    Sample s;
    s.name = c.name;
    const bool three = c.size.size() == 5;
    s.inputs = {ctx.input(c.name, 0, {c.size[0], three ? 3 : 2, three ? 4 : 3}, {-1.5, 1.5})};
    s.args.shape = c.size;
    s.args.flag = c.corners;
    s.summands = three ? 4 : 3;
    out.push_back(std::move(s));
  }
  return out;
}

OpEntry affine_grid_entry() {
  OpEntry e = make_entry("affine_grid", "interpolate", affine_samples,
                         [](const In& in, const SampleArgs& a) {
                           return In{ts::affine_grid(in[0], a.shape, a.flag)};
                         });
  e.accumulates = true;
  return e;
}

// grid_sampler, grid_sampler_backward, grid_sample: args.ints = {interpolation_mode,
// padding_mode}, args.flag = align_corners; inputs {input, grid} ({grad_output, input, grid} for
// the backward), grid points in [-1.2, 1.2] (some outside the input: every padding mode reads).
struct GridCase {
  std::string name;
  Shape x, grid;
  int64_t mode = 0, padding = 0;
  bool corners = false;
};

const char* const kGridModes[] = {"bilinear", "nearest", "bicubic"};
const char* const kGridPaddings[] = {"zeros", "border", "reflection"};

std::vector<GridCase> grid_cases() {
  std::vector<GridCase> v;
  for (int64_t mode = 0; mode < 3; ++mode) {
    for (int64_t padding = 0; padding < 3; ++padding) {
      for (const bool corners : {false, true}) {
        const std::string name = std::string(kGridModes[mode]) + "_" + kGridPaddings[padding] +
                                 (corners ? "_corners" : "");
        v.push_back({"2d_" + name, {2, 3, 5, 6}, {2, 4, 3, 2}, mode, padding, corners});
        if (mode != 2) {
          v.push_back({"3d_" + name, {1, 2, 3, 4, 3}, {1, 2, 3, 2, 3}, mode, padding, corners});
        }
      }
    }
  }
  v.push_back({"2d_empty_batch", {0, 3, 5, 6}, {0, 4, 3, 2}});
  v.push_back({"2d_one_pixel", {2, 3, 1, 1}, {2, 2, 2, 2}, 0, 2});
  return v;
}

int64_t grid_taps(const GridCase& c) {
  const int64_t k = c.mode == 0 ? 2 : c.mode == 1 ? 1 : 4;
  return c.x.size() == 5 ? k * k * k : k * k;
}

// Note [grid_sampler edge values]: an input holding +-inf, NaN and -0 read by bilinear taps
// (their weights spread them; a zero weight times an infinity gives NaN, as in ATen's sums).
std::vector<Sample> grid_samples(const SampleContext& ctx, bool backward) {
  std::vector<Sample> out;
  for (const GridCase& c : grid_cases()) {
    Sample s;
    s.name = c.name;
    const Tensor x = ctx.input(c.name, 0, c.x);
    const Tensor grid = ctx.input(c.name, 1, c.grid, {-1.2, 1.2});
    if (backward) {
      Shape o{c.x[0], c.x[1]};
      o.insert(o.end(), c.grid.begin() + 1, c.grid.end() - 1);
      s.inputs = {ctx.input(c.name, 2, o), x, grid};
      s.summands = grid_taps(c) * c.grid[1] * c.grid[2] * c.x[1];
    } else {
      s.inputs = {x, grid};
      s.summands = grid_taps(c);
    }
    s.args.ints = {c.mode, c.padding};
    s.args.flag = c.corners;
    s.smooth = c.mode != 1;  // nearest: steps in the grid
    out.push_back(std::move(s));
  }
  if (!backward) {
    Sample e;
    e.name = "2d_edge_values";
    std::vector<double> v(2 * 3 * 4 * 4);
    for (size_t i = 0; i < v.size(); ++i) v[i] = std::sin(1.3 * static_cast<double>(i));
    v[5] = std::numeric_limits<double>::infinity();
    v[20] = -std::numeric_limits<double>::infinity();
    v[40] = NAN;
    v[60] = -0.0;
    {
      KernelSetGuard g("reference");
      e.inputs = {
          tensor(ArrayRef<double>(v), TensorOptions(kDouble)).to(ctx.dtype()).reshape({2, 3, 4, 4}),
          ctx.input(e.name, 1, {2, 3, 3, 2}, {-1.2, 1.2})};
    }
    e.args.ints = {0, 0};
    e.summands = 4;
    e.smooth = false;
    out.push_back(std::move(e));
  }
  return out;
}

OpEntry grid_sampler_entry() {
  OpEntry e = make_entry(
      "grid_sampler", "interpolate",
      [](const SampleContext& ctx) { return grid_samples(ctx, false); },
      [](const In& in, const SampleArgs& a) {
        return In{ts::grid_sampler(in[0], in[1], a.ints[0], a.ints[1], a.flag)};
      });
  e.accumulates = true;
  return e;
}

OpEntry grid_sampler_backward_entry() {
  OpEntry e = make_entry(
      "grid_sampler_backward", "interpolate",
      [](const SampleContext& ctx) { return grid_samples(ctx, true); },
      [](const In& in, const SampleArgs& a) {
        auto r = ts::grid_sampler_backward(in[0], in[1], in[2], a.ints[0], a.ints[1], a.flag);
        return In{std::get<0>(r), std::get<1>(r)};
      });
  e.accumulates = true;
  return e;
}

OpEntry grid_sample_entry() {
  OpEntry e = make_entry(
      "grid_sample", "interpolate",
      [](const SampleContext& ctx) { return grid_samples(ctx, false); },
      [](const In& in, const SampleArgs& a) {
        return In{
            ts::grid_sample(in[0], in[1], kGridModes[a.ints[0]], kGridPaddings[a.ints[1]], a.flag)};
      });
  e.accumulates = true;
  return e;
}

// ---- benchmark ----

// Note [Interpolation FLOPs]: two per tap (a multiply and an add) per output element; bytes:
// the input and the output once.
struct UpBench {
  std::string layout;
  Shape x, out;  // out: the output's spatial size
  int64_t taps = 1;
};

BenchCase up_bench_case(const char* op, ScalarType t, const UpBench& b, OpId kernel) {
  const int64_t x_numel = numel_of(b.x);
  int64_t out_numel = b.x[0] * b.x[1];
  for (int64_t s : b.out) out_numel *= s;
  BenchCase c =
      make_case("interpolate", op, t, shape_str(b.x), b.layout, nbytes(x_numel + out_numel, t),
                2.0 * static_cast<double>(out_numel * b.taps), {kernel});
  const std::string name = op;
  const UpBench ub = b;
  c.setup = [=](Device d) -> std::function<void()> {
    Tensor x = make_input(ub.x, t, d);
    const Shape o = ub.out;
    if (name == "upsample_nearest") return [=] { (void)upsample_nearest(x, o); };
    if (name == "_upsample_nearest_exact") return [=] { (void)_upsample_nearest_exact(x, o); };
    if (name == "upsample_linear") return [=] { (void)upsample_linear(x, o, false); };
    if (name == "upsample_bicubic2d") return [=] { (void)upsample_bicubic2d(x, o, false); };
    if (name == "upsample_nearest1d") return [=] { (void)upsample_nearest1d(x, o); };
    if (name == "upsample_nearest2d") return [=] { (void)upsample_nearest2d(x, o); };
    if (name == "upsample_nearest3d") return [=] { (void)upsample_nearest3d(x, o); };
    if (name == "_upsample_nearest_exact1d") return [=] { (void)_upsample_nearest_exact1d(x, o); };
    if (name == "_upsample_nearest_exact2d") return [=] { (void)_upsample_nearest_exact2d(x, o); };
    if (name == "_upsample_nearest_exact3d") return [=] { (void)_upsample_nearest_exact3d(x, o); };
    if (name == "upsample_linear1d") return [=] { (void)upsample_linear1d(x, o, false); };
    if (name == "upsample_bilinear2d") return [=] { (void)upsample_bilinear2d(x, o, false); };
    if (name == "upsample_trilinear3d") return [=] { (void)upsample_trilinear3d(x, o, false); };
    return [=] { (void)interpolate(x, o, {}, "bilinear", false); };
  };
  return c;
}

BenchCase affine_bench_case(ScalarType t, Shape size) {
  const int64_t n = numel_of(size) / size[1];
  BenchCase c = make_case("interpolate", "affine_grid", t, shape_str(size), "rotation",
                          nbytes(2 * n, t), 6.0 * static_cast<double>(n), {OpId::bmm});
  c.setup = [=](Device d) -> std::function<void()> {
    Tensor theta = make_input({size[0], 2, 3}, t, d);
    return [=] { (void)affine_grid(theta, size, false); };
  };
  return c;
}

// A spatial transformer's sampling step: 8 x 64 x 56 x 56 read at a 56 x 56 grid per image.
BenchCase grid_bench_case(const char* op, ScalarType t, bool quick, int64_t mode) {
  const Shape x{quick ? 2 : 8, 64, 56, 56}, grid{x[0], 56, 56, 2};
  const int64_t out = x[0] * x[1] * 56 * 56, taps = mode == 0 ? 4 : mode == 1 ? 1 : 16;
  const std::string name = op;
  const bool backward = name == "grid_sampler_backward";
  BenchCase c = make_case(
      "interpolate", op, t, shape_str(x), kGridModes[mode],
      nbytes(numel_of(x) * (backward ? 2 : 1) + numel_of(grid) * (backward ? 2 : 1) + out, t),
      2.0 * static_cast<double>(out * taps) * (backward ? 2 : 1),
      {backward ? OpId::grid_sampler_backward : OpId::grid_sampler});
  c.setup = [=](Device d) -> std::function<void()> {
    Tensor in = make_input(x, t, d);
    Tensor g = make_input(grid, t, Range{-1, 1}, d);
    if (backward) {
      Tensor go = make_input({x[0], x[1], 56, 56}, t, d);
      return [=] { (void)grid_sampler_backward(go, in, g, mode, 0, false); };
    }
    if (name == "grid_sample") return [=] { (void)grid_sample(in, g, kGridModes[mode]); };
    return [=] { (void)grid_sampler(in, g, mode, 0, false); };
  };
  return c;
}

void add_bench(std::vector<OpEntry>& v) {
  const auto one = [](const char* op, UpBench b, OpId kernel) {
    return each_dtype(DTypeSet::floating(), [op, b, kernel](CaseList& list, ScalarType t) {
      UpBench c = b;
      if (list.quick()) c.x[0] = 2;
      list.add(up_bench_case(op, t, c, kernel));
    });
  };
  // An FPN / U-Net decoder step: bilinear 2x on 8 x 64 x 56 x 56.
  const UpBench bilinear{.layout = "56_to_112", .x = {8, 64, 56, 56}, .out = {112, 112}, .taps = 4};
  entry_named(v, "upsample_bilinear2d").bench =
      one("upsample_bilinear2d", bilinear, OpId::upsample_linear);
  entry_named(v, "upsample_linear").bench = one("upsample_linear", bilinear, OpId::upsample_linear);
  entry_named(v, "interpolate").bench = one("interpolate", bilinear, OpId::upsample_linear);
  const UpBench nearest{.layout = "56_to_112", .x = {8, 64, 56, 56}, .out = {112, 112}};
  entry_named(v, "upsample_nearest2d").bench =
      one("upsample_nearest2d", nearest, OpId::upsample_nearest);
  entry_named(v, "upsample_nearest").bench =
      one("upsample_nearest", nearest, OpId::upsample_nearest);
  entry_named(v, "_upsample_nearest_exact2d").bench = one(
      "_upsample_nearest_exact2d", {.layout = "56_to_100", .x = {8, 64, 56, 56}, .out = {100, 100}},
      OpId::_upsample_nearest_exact);
  entry_named(v, "_upsample_nearest_exact").bench = one(
      "_upsample_nearest_exact", {.layout = "56_to_100", .x = {8, 64, 56, 56}, .out = {100, 100}},
      OpId::_upsample_nearest_exact);
  const UpBench bicubic{
      .layout = "112_to_224", .x = {8, 3, 112, 112}, .out = {224, 224}, .taps = 16};
  entry_named(v, "upsample_bicubic2d").bench =
      one("upsample_bicubic2d", bicubic, OpId::upsample_bicubic2d);
  const UpBench d1{.layout = "1024_to_2048", .x = {8, 64, 1024}, .out = {2048}, .taps = 2};
  entry_named(v, "upsample_linear1d").bench = one("upsample_linear1d", d1, OpId::upsample_linear);
  entry_named(v, "upsample_nearest1d").bench =
      one("upsample_nearest1d", {.layout = "1024_to_2048", .x = {8, 64, 1024}, .out = {2048}},
          OpId::upsample_nearest);
  entry_named(v, "_upsample_nearest_exact1d").bench = one(
      "_upsample_nearest_exact1d", {.layout = "1024_to_1536", .x = {8, 64, 1024}, .out = {1536}},
      OpId::_upsample_nearest_exact);
  const UpBench d3{
      .layout = "16x32x32_to_32x64x64", .x = {2, 16, 16, 32, 32}, .out = {32, 64, 64}, .taps = 8};
  entry_named(v, "upsample_trilinear3d").bench =
      one("upsample_trilinear3d", d3, OpId::upsample_linear);
  const UpBench n3{.layout = "16x32x32_to_32x64x64", .x = {2, 16, 16, 32, 32}, .out = {32, 64, 64}};
  entry_named(v, "upsample_nearest3d").bench =
      one("upsample_nearest3d", n3, OpId::upsample_nearest);
  entry_named(v, "_upsample_nearest_exact3d").bench =
      one("_upsample_nearest_exact3d", n3, OpId::_upsample_nearest_exact);
  const auto grid = [](const char* op, int64_t mode) {
    return each_dtype(DTypeSet{kFloat, kDouble}, [op, mode](CaseList& list, ScalarType t) {
      list.add(grid_bench_case(op, t, list.quick(), mode));
    });
  };
  entry_named(v, "grid_sampler").bench = grid("grid_sampler", 0);
  entry_named(v, "grid_sample").bench = grid("grid_sample", 0);
  entry_named(v, "grid_sampler_backward").bench = grid("grid_sampler_backward", 0);
  entry_named(v, "affine_grid").bench =
      each_dtype(DTypeSet{kFloat, kDouble}, [](CaseList& list, ScalarType t) {
        list.add(affine_bench_case(t, {list.quick() ? 2 : 8, 3, 224, 224}));
      });
}

}  // namespace

std::vector<OpEntry> interpolate_entries() {
  std::vector<OpEntry> v;
  v.push_back(kernel_entry("upsample_nearest", Mode::Nearest));
  v.push_back(kernel_entry("_upsample_nearest_exact", Mode::Exact));
  v.push_back(kernel_entry("upsample_linear", Mode::Linear));
  v.push_back(kernel_entry("upsample_bicubic2d", Mode::Cubic));
  v.push_back(nd_entry("upsample_nearest1d", Mode::Nearest, 1));
  v.push_back(nd_entry("upsample_nearest2d", Mode::Nearest, 2));
  v.push_back(nd_entry("upsample_nearest3d", Mode::Nearest, 3));
  v.push_back(nd_entry("_upsample_nearest_exact1d", Mode::Exact, 1));
  v.push_back(nd_entry("_upsample_nearest_exact2d", Mode::Exact, 2));
  v.push_back(nd_entry("_upsample_nearest_exact3d", Mode::Exact, 3));
  v.push_back(nd_entry("upsample_linear1d", Mode::Linear, 1));
  v.push_back(nd_entry("upsample_bilinear2d", Mode::Linear, 2));
  v.push_back(nd_entry("upsample_trilinear3d", Mode::Linear, 3));
  v.push_back(interpolate_entry());
  v.push_back(grid_sampler_entry());
  v.push_back(grid_sampler_backward_entry());
  v.push_back(grid_sample_entry());
  v.push_back(affine_grid_entry());
  add_bench(v);
  return v;
}

}  // namespace ts::catalog
