// Catalog entries of the pooling ops (issue 16): max_pool, max_pool1d/2d/3d (and their
// _with_indices forms), avg_pool, avg_pool1d/2d/3d, adaptive_avg_pool2d, adaptive_max_pool2d.
// Conformance: kernel sizes, strides (default and given), padding, dilation, ceil_mode at its
// boundaries (a last window half outside, a last window dropped), count_include_pad,
// divisor_override, per-dim arguments, unbatched and empty-batch inputs, NaN and -inf windows.
// Benchmark: ResNet-50's stem max_pool2d and head adaptive_avg_pool2d, and one case per op.
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "catalog/bench.h"

namespace ts::catalog {
namespace {

using In = std::vector<Tensor>;
using Shape = std::vector<int64_t>;

// Note [Pooling samples]
// inputs {self}; args.ints = {n, kernel_size (n values), n, stride, n, padding, n, dilation,
// count_include_pad, divisor_override (0: none)}, each list with its length first (0: stride
// omitted, 1: one value for every dim); args.flag = ceil_mode. Adaptive: args.ints = output_size.
struct PoolCase {
  std::string name;
  int64_t batch = 2, channels = 3;  // batch -1: unbatched (C, *)
  Shape size{6};                    // per spatial dim, or one for all
  Shape kernel{2}, stride{}, padding{0}, dilation{1};
  bool ceil_mode = false, count_include_pad = true;
  int64_t divisor_override = 0;
};

Shape per_dim(const Shape& v, size_t nd) {
  return v.size() == 1 ? Shape(nd, v[0]) : v;
}

std::vector<PoolCase> pool_cases(size_t nd, bool avg) {
  std::vector<PoolCase> v = {
      {.name = "basic"},
      {.name = "k3_s2_p1", .size = {7}, .kernel = {3}, .stride = {2}, .padding = {1}},
      {.name = "k3_s1", .kernel = {3}, .stride = {1}},
      {.name = "kernel_whole", .size = {5}, .kernel = {5}},
      // ceil_mode: the last window half outside the input (size 5, kernel 2, stride 2: 3 windows
      // instead of 2), and one that would start in the right padding (dropped: 3, not 4).
      {.name = "ceil_partial", .size = {5}, .kernel = {2}, .stride = {2}, .ceil_mode = true},
      {.name = "ceil_dropped",
       .size = {5},
       .kernel = {2},
       .stride = {2},
       .padding = {1},
       .ceil_mode = true},
      {.name = "ceil_pad1",
       .size = {6},
       .kernel = {3},
       .stride = {2},
       .padding = {1},
       .ceil_mode = true},
      {.name = "unbatched", .batch = -1},
      {.name = "empty_batch", .batch = 0},
  };
  if (!avg) {
    v.push_back({.name = "dilation2", .size = {7}, .kernel = {2}, .dilation = {2}});
    v.push_back({.name = "dilation2_pad1_ceil",
                 .size = {6},
                 .kernel = {3},
                 .stride = {2},
                 .padding = {1},
                 .dilation = {2},
                 .ceil_mode = true});
  } else {
    v.push_back({.name = "k3_s2_p1_exclude_pad",
                 .size = {7},
                 .kernel = {3},
                 .stride = {2},
                 .padding = {1},
                 .count_include_pad = false});
    v.push_back({.name = "ceil_pad1_exclude_pad",
                 .size = {6},
                 .kernel = {3},
                 .stride = {2},
                 .padding = {1},
                 .ceil_mode = true,
                 .count_include_pad = false});
    if (nd >= 2) {
      v.push_back({.name = "divisor_override3",
                   .kernel = {3},
                   .stride = {2},
                   .padding = {1},
                   .divisor_override = 3});
    }
  }
  if (nd >= 2) {
    Shape size(nd, 6), k(nd, 2), s(nd, 1), p(nd, 0), d(nd, 1);
    size[0] = 7;
    k[nd - 1] = 3;
    s[0] = 2;
    p[nd - 1] = 1;
    if (!avg) d[0] = 2;
    v.push_back(
        {.name = "mixed", .size = size, .kernel = k, .stride = s, .padding = p, .dilation = d});
  }
  if (nd == 3) {
    // Keep 3-d samples near gradcheck's 256 elements.
    for (PoolCase& c : v) {
      c.channels = 2;
      for (int64_t& s : c.size) s = std::min<int64_t>(s, 5);
    }
  }
  return v;
}

Shape input_shape(const PoolCase& c, size_t nd) {
  Shape x;
  if (c.batch >= 0) x.push_back(c.batch);
  x.push_back(c.channels);
  for (int64_t s : per_dim(c.size, nd)) x.push_back(s);
  return x;
}

// `full_kernel`: kernel_size as one value per dim (the kernel ops count the dims by it).
void pack(SampleArgs& a, const PoolCase& c, size_t nd, bool full_kernel) {
  const Shape kernel = full_kernel ? per_dim(c.kernel, nd) : c.kernel;
  for (const Shape* v : {&kernel, &c.stride, &c.padding, &c.dilation}) {
    a.ints.push_back(static_cast<int64_t>(v->size()));
    a.ints.insert(a.ints.end(), v->begin(), v->end());
  }
  a.ints.push_back(c.count_include_pad);
  a.ints.push_back(c.divisor_override);
  a.flag = c.ceil_mode;
}

struct Args {
  Shape kernel, stride, padding, dilation;
  bool ceil_mode = false, count_include_pad = true;
  std::optional<int64_t> divisor_override;
};
Args unpack(const SampleArgs& a) {
  Args r;
  size_t at = 0;
  for (Shape* v : {&r.kernel, &r.stride, &r.padding, &r.dilation}) {
    const auto n = static_cast<size_t>(a.ints[at++]);
    v->assign(a.ints.begin() + static_cast<int64_t>(at),
              a.ints.begin() + static_cast<int64_t>(at + n));
    at += n;
  }
  r.count_include_pad = a.ints[at] != 0;
  if (a.ints[at + 1] != 0) r.divisor_override = a.ints[at + 1];
  r.ceil_mode = a.flag;
  return r;
}

// Note [Pooling edge values]
// One image of two channels, 4 per spatial dim, kernel 2, stride 2 (windows tile the input):
// channel 0's first window all -inf (the value -inf, the index its first element), channel 1's
// first window two NaNs (NaN, the last NaN's index, as ATen), +inf and -0 further on.
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
  for (int64_t off = 0; off < plane; ++off) {
    bool first_window = true;
    for (int64_t r = off, i = 0; i < static_cast<int64_t>(nd); ++i, r /= 4) {
      first_window = first_window && r % 4 < 2;
    }
    if (first_window) v[static_cast<size_t>(off)] = -inf;
  }
  v[static_cast<size_t>(plane)] = NAN;
  v[static_cast<size_t>(plane + 1)] = NAN;
  v[static_cast<size_t>(2 * plane - 1)] = inf;
  v[static_cast<size_t>(2 * plane - 6)] = -0.0;
  return tensor(ArrayRef<double>(v), TensorOptions(kDouble)).to(ctx.dtype()).reshape(shape);
}

std::vector<Sample> pool_samples(const SampleContext& ctx, size_t nd_min, size_t nd_max, bool avg) {
  const bool kernel_op = nd_min != nd_max;
  std::vector<Sample> out;
  for (size_t nd = nd_min; nd <= nd_max; ++nd) {
    const std::string prefix = nd_min == nd_max ? "" : std::to_string(nd) + "d_";
    for (const PoolCase& c : pool_cases(nd, avg)) {
      if (c.divisor_override != 0 && nd == 1) continue;
      Sample s;
      s.name = prefix + c.name;
      s.inputs = {ctx.input(s.name, 0, input_shape(c, nd))};
      pack(s.args, c, nd, kernel_op);
      int64_t window = 1;
      for (int64_t k : per_dim(c.kernel, nd)) window *= k;
      s.summands = avg ? window : 1;
      out.push_back(std::move(s));
    }
    if (is_floating_type(ctx.dtype())) {
      Sample s;
      s.name = prefix + "edge_values";
      s.inputs = {edge_input(ctx, nd)};
      pack(s.args, PoolCase{.name = "edge_values", .kernel = {2}}, nd, kernel_op);
      s.summands = avg ? int64_t{1} << nd : 1;
      s.smooth = false;
      out.push_back(std::move(s));
    }
  }
  return out;
}

OpEntry finish(OpEntry e, bool avg) {
  e.accumulates = avg;
  return e;
}

// max_pool: the kernel op, 1 to 3 spatial dims.
OpEntry max_pool_entry() {
  return finish(make_entry(
                    "max_pool", "pool",
                    [](const SampleContext& ctx) { return pool_samples(ctx, 1, 3, false); },
                    [](const In& in, const SampleArgs& a) {
                      const Args r = unpack(a);
                      auto [v, i] = ts::max_pool(in[0], r.kernel, r.stride, r.padding, r.dilation,
                                                 r.ceil_mode);
                      return In{v, i};
                    }),
                false);
}

using MaxFn = Tensor (*)(const Tensor&, IntArrayRef, IntArrayRef, IntArrayRef, IntArrayRef, bool);
using MaxIdxFn = std::tuple<Tensor, Tensor> (*)(const Tensor&, IntArrayRef, IntArrayRef,
                                                IntArrayRef, IntArrayRef, bool);

OpEntry max_pool_nd_entry(const char* name, size_t nd, MaxFn fn) {
  return finish(
      make_entry(
          name, "pool", [nd](const SampleContext& ctx) { return pool_samples(ctx, nd, nd, false); },
          [fn](const In& in, const SampleArgs& a) {
            const Args r = unpack(a);
            return In{fn(in[0], r.kernel, r.stride, r.padding, r.dilation, r.ceil_mode)};
          }),
      false);
}

OpEntry max_pool_nd_indices_entry(const char* name, size_t nd, MaxIdxFn fn) {
  return finish(
      make_entry(
          name, "pool", [nd](const SampleContext& ctx) { return pool_samples(ctx, nd, nd, false); },
          [fn](const In& in, const SampleArgs& a) {
            const Args r = unpack(a);
            auto [v, i] = fn(in[0], r.kernel, r.stride, r.padding, r.dilation, r.ceil_mode);
            return In{v, i};
          }),
      false);
}

OpEntry avg_pool_entry() {
  return finish(make_entry(
                    "avg_pool", "pool",
                    [](const SampleContext& ctx) { return pool_samples(ctx, 1, 3, true); },
                    [](const In& in, const SampleArgs& a) {
                      const Args r = unpack(a);
                      return In{ts::avg_pool(in[0], r.kernel, r.stride, r.padding, r.ceil_mode,
                                             r.count_include_pad, r.divisor_override)};
                    }),
                true);
}

OpEntry avg_pool_nd_entry(const char* name, size_t nd) {
  return finish(
      make_entry(
          name, "pool", [nd](const SampleContext& ctx) { return pool_samples(ctx, nd, nd, true); },
          [nd](const In& in, const SampleArgs& a) {
            const Args r = unpack(a);
            if (nd == 1) {
              return In{ts::avg_pool1d(in[0], r.kernel, r.stride, r.padding, r.ceil_mode,
                                       r.count_include_pad)};
            }
            if (nd == 2) {
              return In{ts::avg_pool2d(in[0], r.kernel, r.stride, r.padding, r.ceil_mode,
                                       r.count_include_pad, r.divisor_override)};
            }
            return In{ts::avg_pool3d(in[0], r.kernel, r.stride, r.padding, r.ceil_mode,
                                     r.count_include_pad, r.divisor_override)};
          }),
      true);
}

// Adaptive pooling: output sizes 1x1 (global), smaller with overlapping windows (7 -> 3),
// uneven (6x7 -> 4x5), equal (the identity), larger than the input (5 -> 8).
std::vector<Sample> adaptive_samples(const SampleContext& ctx, bool avg) {
  struct Case {
    std::string name;
    Shape x, out;
  };
  const std::vector<Case> cases = {
      {"global", {2, 3, 7, 7}, {1, 1}},      {"overlap_7_3", {2, 3, 7, 7}, {3, 3}},
      {"uneven", {2, 3, 6, 7}, {4, 5}},      {"identity", {1, 2, 5, 5}, {5, 5}},
      {"upsample", {1, 2, 5, 5}, {8, 8}},    {"unbatched", {3, 6, 6}, {4, 2}},
      {"empty_batch", {0, 3, 4, 4}, {2, 2}}, {"rows_only", {2, 3, 9, 4}, {2, 4}},
  };
  std::vector<Sample> out;
  for (const Case& c : cases) {
    Sample s;
    s.name = c.name;
    s.inputs = {ctx.input(c.name, 0, c.x)};
    s.args.ints = c.out;
    s.summands = avg ? (c.x.back() / c.out.back() + 1) * (c.x[c.x.size() - 2] / c.out[0] + 1) : 1;
    out.push_back(std::move(s));
  }
  if (is_floating_type(ctx.dtype())) {
    for (const Shape& o : {Shape{2, 2}, Shape{3, 3}}) {
      Sample s;
      s.name = "edge_values_" + std::to_string(o[0]);
      s.inputs = {edge_input(ctx, 2)};
      s.args.ints = o;
      s.summands = 4;
      s.smooth = false;
      out.push_back(std::move(s));
    }
  }
  return out;
}

OpEntry adaptive_entry(const char* name, bool avg) {
  return finish(
      make_entry(
          name, "pool", [avg](const SampleContext& ctx) { return adaptive_samples(ctx, avg); },
          [avg](const In& in, const SampleArgs& a) {
            if (avg) return In{ts::adaptive_avg_pool2d(in[0], a.ints)};
            auto [v, i] = ts::adaptive_max_pool2d(in[0], a.ints);
            return In{v, i};
          }),
      avg);
}

// ---- benchmark ----

// Note [Pooling FLOPs]: one per element of each window (a comparison or an addition), the
// divisions ignored; bytes: the input and the outputs (int64 indices for max) once.
struct PoolBench {
  std::string layout;
  Shape x, kernel, out;  // out: the output's spatial size (adaptive: output_size)
  int64_t stride = 0, padding = 0;
};

BenchCase pool_bench_case(const char* op, ScalarType t, const PoolBench& b) {
  int64_t x_numel = 1, out_numel = 1, window = 1;
  for (int64_t s : b.x) x_numel *= s;
  const size_t nd = b.out.size();
  for (size_t i = 0; i < b.x.size() - nd; ++i) out_numel *= b.x[i];
  for (size_t i = 0; i < nd; ++i) {
    out_numel *= b.out[i];
    window *=
        b.kernel.empty() ? (b.x[b.x.size() - nd + i] + b.out[i] - 1) / b.out[i] + 1 : b.kernel[i];
  }
  const std::string name = op;
  const bool indices = name.find("max") != std::string::npos;
  const double bytes = nbytes(x_numel + out_numel, t) + (indices ? 8.0 * out_numel : 0.0);
  const OpId kernel = name.find("adaptive") != std::string::npos ? *find_op(name)
                      : indices                                  ? OpId::max_pool
                                                                 : OpId::avg_pool;
  BenchCase c = make_case("pool", op, t, shape_str(b.x), b.layout, bytes,
                          static_cast<double>(out_numel * window), {kernel});
  const PoolBench pb = b;
  c.setup = [=](Device d) -> std::function<void()> {
    Tensor x = make_input(pb.x, t, d);
    const Shape k = pb.kernel, o = pb.out;
    const int64_t s = pb.stride, p = pb.padding;
    if (name == "max_pool") return [=] { (void)max_pool(x, k, Shape(k.size(), s), p, 1, false); };
    if (name == "max_pool1d") return [=] { (void)max_pool1d(x, k, s, p); };
    if (name == "max_pool2d") return [=] { (void)max_pool2d(x, k, s, p); };
    if (name == "max_pool3d") return [=] { (void)max_pool3d(x, k, s, p); };
    if (name == "max_pool1d_with_indices")
      return [=] { (void)max_pool1d_with_indices(x, k, s, p); };
    if (name == "max_pool2d_with_indices")
      return [=] { (void)max_pool2d_with_indices(x, k, s, p); };
    if (name == "max_pool3d_with_indices")
      return [=] { (void)max_pool3d_with_indices(x, k, s, p); };
    if (name == "avg_pool")
      return [=] { (void)avg_pool(x, k, Shape(k.size(), s), p, false, true, {}); };
    if (name == "avg_pool1d") return [=] { (void)avg_pool1d(x, k, s, p); };
    if (name == "avg_pool2d") return [=] { (void)avg_pool2d(x, k, s, p); };
    if (name == "avg_pool3d") return [=] { (void)avg_pool3d(x, k, s, p); };
    if (name == "adaptive_avg_pool2d") return [=] { (void)adaptive_avg_pool2d(x, o); };
    return [=] { (void)adaptive_max_pool2d(x, o); };
  };
  return c;
}

void add_bench(std::vector<OpEntry>& v) {
  const auto one = [](const char* op, PoolBench b) {
    return each_dtype(DTypeSet::floating(), [op, b](CaseList& list, ScalarType t) {
      PoolBench c = b;
      if (list.quick()) c.x[0] = 2;
      list.add(pool_bench_case(op, t, c));
    });
  };
  // ResNet-50's stem: max_pool2d 3x3 stride 2 padding 1 on 8 x 64 x 112 x 112 (2 in quick runs).
  const PoolBench stem{.layout = "resnet50_stem_3x3_s2_p1",
                       .x = {8, 64, 112, 112},
                       .kernel = {3, 3},
                       .out = {56, 56},
                       .stride = 2,
                       .padding = 1};
  entry_named(v, "max_pool2d").bench = one("max_pool2d", stem);
  entry_named(v, "max_pool2d_with_indices").bench = one("max_pool2d_with_indices", stem);
  entry_named(v, "max_pool").bench = one("max_pool", {.layout = "3x3_s2_p1",
                                                      .x = {8, 64, 56, 56},
                                                      .kernel = {3, 3},
                                                      .out = {28, 28},
                                                      .stride = 2,
                                                      .padding = 1});
  const PoolBench p1{
      .layout = "k2_s2", .x = {8, 64, 4096}, .kernel = {2}, .out = {2048}, .stride = 2};
  entry_named(v, "max_pool1d").bench = one("max_pool1d", p1);
  entry_named(v, "max_pool1d_with_indices").bench = one("max_pool1d_with_indices", p1);
  entry_named(v, "avg_pool1d").bench = one("avg_pool1d", p1);
  const PoolBench p3{.layout = "2x2x2_s2",
                     .x = {4, 16, 32, 32, 32},
                     .kernel = {2, 2, 2},
                     .out = {16, 16, 16},
                     .stride = 2};
  entry_named(v, "max_pool3d").bench = one("max_pool3d", p3);
  entry_named(v, "max_pool3d_with_indices").bench = one("max_pool3d_with_indices", p3);
  entry_named(v, "avg_pool3d").bench = one("avg_pool3d", p3);
  // DenseNet's transition: avg_pool2d 2x2 stride 2 on 8 x 128 x 56 x 56.
  entry_named(v, "avg_pool2d").bench = one("avg_pool2d", {.layout = "densenet_transition_2x2_s2",
                                                          .x = {8, 128, 56, 56},
                                                          .kernel = {2, 2},
                                                          .out = {28, 28},
                                                          .stride = 2});
  entry_named(v, "avg_pool").bench = one("avg_pool", {.layout = "3x3_s1_p1",
                                                      .x = {8, 64, 56, 56},
                                                      .kernel = {3, 3},
                                                      .out = {56, 56},
                                                      .stride = 1,
                                                      .padding = 1});
  // ResNet-50's head: adaptive_avg_pool2d to 1 x 1 on 8 x 2048 x 7 x 7.
  entry_named(v, "adaptive_avg_pool2d").bench =
      one("adaptive_avg_pool2d",
          {.layout = "resnet50_head_1x1", .x = {8, 2048, 7, 7}, .kernel = {}, .out = {1, 1}});
  entry_named(v, "adaptive_max_pool2d").bench =
      one("adaptive_max_pool2d",
          {.layout = "14x14_to_7x7", .x = {8, 512, 14, 14}, .kernel = {}, .out = {7, 7}});
}

}  // namespace

std::vector<OpEntry> pool_entries() {
  std::vector<OpEntry> v;
  v.push_back(max_pool_entry());
  v.push_back(max_pool_nd_entry("max_pool1d", 1, &ts::max_pool1d));
  v.push_back(max_pool_nd_entry("max_pool2d", 2, &ts::max_pool2d));
  v.push_back(max_pool_nd_entry("max_pool3d", 3, &ts::max_pool3d));
  v.push_back(
      max_pool_nd_indices_entry("max_pool1d_with_indices", 1, &ts::max_pool1d_with_indices));
  v.push_back(
      max_pool_nd_indices_entry("max_pool2d_with_indices", 2, &ts::max_pool2d_with_indices));
  v.push_back(
      max_pool_nd_indices_entry("max_pool3d_with_indices", 3, &ts::max_pool3d_with_indices));
  v.push_back(avg_pool_entry());
  v.push_back(avg_pool_nd_entry("avg_pool1d", 1));
  v.push_back(avg_pool_nd_entry("avg_pool2d", 2));
  v.push_back(avg_pool_nd_entry("avg_pool3d", 3));
  v.push_back(adaptive_entry("adaptive_avg_pool2d", true));
  v.push_back(adaptive_entry("adaptive_max_pool2d", false));
  add_bench(v);
  return v;
}

}  // namespace ts::catalog
