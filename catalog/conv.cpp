// Catalog entries of the convolution ops (issue 16): convolution, conv1d/2d/3d,
// conv_transpose1d/2d/3d. Conformance: strides, padding (numbers, "same", "valid"), dilation,
// groups (depthwise too), output_padding, 1x1 kernels, unbatched and empty-batch inputs, with
// and without bias. Benchmark: one case per op, and ResNet-50 bottleneck shapes for conv2d.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "catalog/bench.h"

namespace ts::catalog {
namespace {

using In = std::vector<Tensor>;
using Shape = std::vector<int64_t>;

// Note [Convolution samples]
// inputs {input, weight, [bias]}; args.ints = {has_bias, groups, mode, then nd values each of
// stride, padding, dilation, output_padding}; mode 0: numeric padding, 1: "same", 2: "valid";
// args.flag: transposed (the convolution entry only).
struct ConvCase {
  std::string name;
  int64_t batch = 2, c_in = 3, c_out = 4;  // batch -1: unbatched (C, *)
  int64_t size = 5, kernel = 3;            // spatial extents (every dim)
  Shape stride{1}, padding{0}, dilation{1}, output_padding{0};
  int64_t groups = 1;
  bool bias = true;
  int64_t mode = 0;
};

Shape per_dim(const Shape& v, size_t nd) {
  return v.size() == 1 ? Shape(nd, v[0]) : v;
}

// The cases of an op with `nd` spatial dims, direct or transposed; convNd adds the string
// paddings and unbatched inputs (`composite`).
std::vector<ConvCase> conv_cases(size_t nd, bool transposed, bool composite) {
  std::vector<ConvCase> v = {
      {.name = "basic"},
      {.name = "no_bias", .bias = false},
      {.name = "stride2_pad1", .stride = {2}, .padding = {1}},
      {.name = "dilation2", .size = 6, .padding = {1}, .dilation = {2}},
      {.name = "groups2", .c_in = 4, .c_out = 6, .groups = 2},
      {.name = "depthwise", .c_in = 4, .c_out = 4, .padding = {1}, .groups = 4},
      {.name = "kernel1", .c_in = 5, .kernel = 1},
      {.name = "kernel1_stride2", .c_in = 5, .kernel = 1, .stride = {2}},
      {.name = "empty_batch", .batch = 0},
      {.name = "batch1", .batch = 1, .c_in = 8, .c_out = 8, .size = 7, .padding = {1}},
  };
  if (nd == 1) v.push_back({.name = "long", .c_in = 6, .c_out = 5, .size = 40, .kernel = 5});
  if (nd >= 2) {
    Shape s(nd, 1), p(nd, 0), d(nd, 1);
    s[nd - 1] = 2;
    p[0] = 1;
    d[0] = 2;
    v.push_back({.name = "mixed", .size = 6, .stride = s, .padding = p, .dilation = d});
  }
  if (nd == 2 && !transposed) {
    // Note [Winograd convolution] in optimized/cpu/conv_winograd.cpp: 3x3, stride 1, >= 16
    // channels; odd sides leave partial 2x2 tiles, 20 channels a partial register tile.
    v.push_back({.name = "winograd", .c_in = 16, .c_out = 20, .size = 7, .padding = {1}});
    v.push_back({.name = "winograd_pad0", .batch = 1, .c_in = 17, .c_out = 16, .size = 8});
  }
  if (transposed) {
    v.push_back({.name = "stride2_outpad1", .stride = {2}, .padding = {1}, .output_padding = {1}});
    v.push_back(
        {.name = "dilation3_outpad2", .stride = {1}, .dilation = {3}, .output_padding = {2}});
    v.push_back({.name = "groups2_stride2", .c_in = 4, .c_out = 6, .stride = {2}, .groups = 2});
  }
  if (composite) {
    v.push_back({.name = "unbatched", .batch = -1});
    if (!transposed) {
      v.push_back({.name = "same", .size = 6, .kernel = 3, .mode = 1});
      v.push_back({.name = "same_even_kernel", .size = 5, .kernel = 4, .mode = 1});
      v.push_back({.name = "same_dilation2", .size = 6, .kernel = 2, .dilation = {2}, .mode = 1});
      v.push_back({.name = "valid", .mode = 2});
    }
  }
  if (nd == 3) {
    // Keep 3-d samples small: gradcheck runs on samples of <= 256 elements.
    for (ConvCase& c : v) c.size = std::min<int64_t>(c.size, 4);
  }
  return v;
}

Sample conv_sample(const SampleContext& ctx, const ConvCase& c, size_t nd, bool transposed,
                   bool flag_transposed) {
  Shape x_shape, w_shape;
  if (c.batch >= 0) x_shape.push_back(c.batch);
  x_shape.push_back(c.c_in);
  if (transposed) {
    w_shape = {c.c_in, c.c_out / c.groups};
  } else {
    w_shape = {c.c_out, c.c_in / c.groups};
  }
  for (size_t i = 0; i < nd; ++i) {
    x_shape.push_back(c.size);
    w_shape.push_back(c.kernel);
  }
  Sample s;
  s.name = c.name;
  s.inputs = {ctx.input(c.name, 0, x_shape), ctx.input(c.name, 1, w_shape)};
  if (c.bias) s.inputs.push_back(ctx.input(c.name, 2, {c.c_out}));
  s.args.ints = {c.bias, c.groups, c.mode};
  for (const Shape* v : {&c.stride, &c.padding, &c.dilation, &c.output_padding}) {
    for (int64_t x : per_dim(*v, nd)) s.args.ints.push_back(x);
  }
  s.args.flag = flag_transposed;
  int64_t k_plane = 1;
  for (size_t i = 0; i < nd; ++i) k_plane *= c.kernel;
  s.summands = c.c_in / c.groups * k_plane + (c.bias ? 1 : 0);  // at most, transposed
  return s;
}

struct Args {
  Tensor bias;
  int64_t groups, mode;
  Shape stride, padding, dilation, output_padding;
};
Args unpack(const In& in, const SampleArgs& a, size_t nd) {
  Args r;
  r.bias = a.ints[0] ? in[2] : Tensor();
  r.groups = a.ints[1];
  r.mode = a.ints[2];
  size_t k = 3;
  for (Shape* v : {&r.stride, &r.padding, &r.dilation, &r.output_padding}) {
    v->assign(a.ints.begin() + static_cast<int64_t>(k),
              a.ints.begin() + static_cast<int64_t>(k + nd));
    k += nd;
  }
  return r;
}

using ConvFn = Tensor (*)(const Tensor&, const Tensor&, const Tensor&, IntArrayRef, IntArrayRef,
                          IntArrayRef, int64_t);
using ConvStrFn = Tensor (*)(const Tensor&, const Tensor&, const Tensor&, IntArrayRef,
                             std::string_view, IntArrayRef, int64_t);
using ConvTFn = Tensor (*)(const Tensor&, const Tensor&, const Tensor&, IntArrayRef, IntArrayRef,
                           IntArrayRef, int64_t, IntArrayRef);

OpEntry finish(OpEntry e) {
  e.accumulates = true;
  return e;
}

// convolution itself: 1 to 3 spatial dims, direct and transposed, batched inputs.
OpEntry convolution_entry() {
  return finish(make_entry(
      "convolution", "conv",
      [](const SampleContext& ctx) {
        std::vector<Sample> out;
        for (size_t nd = 1; nd <= 3; ++nd) {
          for (bool tr : {false, true}) {
            for (const ConvCase& c : conv_cases(nd, tr, false)) {
              Sample s = conv_sample(ctx, c, nd, tr, tr);
              s.name = std::to_string(nd) + "d_" + (tr ? "transposed_" : "") + s.name;
              out.push_back(std::move(s));
            }
          }
        }
        return out;
      },
      [](const In& in, const SampleArgs& a) {
        const size_t nd = static_cast<size_t>(in[0].dim()) - 2;
        const Args r = unpack(in, a, nd);
        return In{ts::convolution(in[0], in[1], r.bias, r.stride, r.padding, r.dilation, a.flag,
                                  r.output_padding, r.groups)};
      }));
}

OpEntry conv_entry(const char* name, size_t nd, ConvFn fn, ConvStrFn fn_str) {
  return finish(make_entry(
      name, "conv",
      [nd](const SampleContext& ctx) {
        std::vector<Sample> out;
        for (const ConvCase& c : conv_cases(nd, false, true)) {
          out.push_back(conv_sample(ctx, c, nd, false, false));
        }
        return out;
      },
      [nd, fn, fn_str](const In& in, const SampleArgs& a) {
        const Args r = unpack(in, a, nd);
        if (r.mode != 0) {
          return In{fn_str(in[0], in[1], r.bias, r.stride, r.mode == 1 ? "same" : "valid",
                           r.dilation, r.groups)};
        }
        return In{fn(in[0], in[1], r.bias, r.stride, r.padding, r.dilation, r.groups)};
      }));
}

OpEntry conv_transpose_entry(const char* name, size_t nd, ConvTFn fn) {
  return finish(make_entry(
      name, "conv",
      [nd](const SampleContext& ctx) {
        std::vector<Sample> out;
        for (const ConvCase& c : conv_cases(nd, true, true)) {
          out.push_back(conv_sample(ctx, c, nd, true, false));
        }
        return out;
      },
      [nd, fn](const In& in, const SampleArgs& a) {
        const Args r = unpack(in, a, nd);
        return In{
            fn(in[0], in[1], r.bias, r.stride, r.padding, r.output_padding, r.groups, r.dilation)};
      }));
}

// ---- benchmark ----

// Note [Convolution FLOPs]: 2 per multiply-add of the direct definition (N Cout out_plane
// Cin_g k_plane), plus the bias; bytes: input, weight, bias and output once.
struct ConvBench {
  std::string layout;
  Shape x, w;
  int64_t stride = 1, padding = 0;
  bool transposed = false;
};

BenchCase conv_bench_case(const char* op, ScalarType t, const ConvBench& b) {
  const size_t nd = b.x.size() - 2;
  int64_t out_plane = 1, k_plane = 1;
  for (size_t i = 0; i < nd; ++i) {
    const int64_t len = b.x[2 + i], k = b.w[2 + i];
    out_plane *= b.transposed ? (len - 1) * b.stride - 2 * b.padding + k
                              : (len + 2 * b.padding - k) / b.stride + 1;
    k_plane *= k;
  }
  const int64_t c_out = b.transposed ? b.w[1] : b.w[0];
  const int64_t c_in_g = b.transposed ? b.w[0] : b.w[1];
  const int64_t out_numel = b.x[0] * c_out * out_plane;
  int64_t x_numel = 1, w_numel = 1;
  for (int64_t s : b.x) x_numel *= s;
  for (int64_t s : b.w) w_numel *= s;
  const double macs =
      static_cast<double>(b.transposed ? x_numel * b.w[1] * k_plane : out_numel * c_in_g * k_plane);
  BenchCase c = make_case("conv", op, t, shape_str(b.x) + "_w" + shape_str(b.w), b.layout,
                          nbytes(x_numel + w_numel + c_out + out_numel, t),
                          2 * macs + static_cast<double>(out_numel), {OpId::convolution});
  const ConvBench cb = b;
  const std::string name = op;
  c.setup = [=](Device d) -> std::function<void()> {
    Tensor x = make_input(cb.x, t, d), w = make_input(cb.w, t, d);
    Tensor bias = make_input({c_out}, t, d);
    const int64_t s = cb.stride, p = cb.padding;
    if (name == "convolution") {
      return [=] { (void)convolution(x, w, bias, s, p, 1, cb.transposed, 0, 1); };
    }
    if (name == "conv1d") return [=] { (void)conv1d(x, w, bias, s, p); };
    if (name == "conv2d") return [=] { (void)conv2d(x, w, bias, s, p); };
    if (name == "conv3d") return [=] { (void)conv3d(x, w, bias, s, p); };
    if (name == "conv_transpose1d") return [=] { (void)conv_transpose1d(x, w, bias, s, p); };
    if (name == "conv_transpose2d") return [=] { (void)conv_transpose2d(x, w, bias, s, p); };
    return [=] { (void)conv_transpose3d(x, w, bias, s, p); };
  };
  return c;
}

void add_bench(std::vector<OpEntry>& v) {
  const DTypeSet fl = DTypeSet::floating();
  // ResNet-50's first bottleneck (torchvision v1.5) on a batch of 8 images of 64 x 56 x 56 (2 in
  // quick runs): 1x1 64->64, 3x3 64->64 padding 1, 1x1 64->256; the stride-2 3x3 of the next
  // stage (layer2.0.conv2, 128 channels at 56 x 56 in).
  entry_named(v, "conv2d").bench = each_dtype(fl, [](CaseList& list, ScalarType t) {
    const int64_t n = list.quick() ? 2 : 8;
    const std::vector<ConvBench> cases = {
        {.layout = "resnet50_1x1_64_64", .x = {n, 64, 56, 56}, .w = {64, 64, 1, 1}},
        {.layout = "resnet50_3x3_64_64_pad1",
         .x = {n, 64, 56, 56},
         .w = {64, 64, 3, 3},
         .padding = 1},
        {.layout = "resnet50_1x1_64_256", .x = {n, 64, 56, 56}, .w = {256, 64, 1, 1}},
        {.layout = "resnet50_3x3_128_stride2",
         .x = {n, 128, 56, 56},
         .w = {128, 128, 3, 3},
         .stride = 2,
         .padding = 1},
    };
    for (const ConvBench& b : cases) list.add(conv_bench_case("conv2d", t, b));
  });
  const auto small = [](const char* op, ConvBench b) {
    return each_dtype(DTypeSet::floating(), [op, b](CaseList& list, ScalarType t) {
      ConvBench c = b;
      if (list.quick()) c.x[0] = 2;
      list.add(conv_bench_case(op, t, c));
    });
  };
  entry_named(v, "convolution").bench =
      small("convolution",
            {.layout = "3x3_32_32_pad1", .x = {8, 32, 28, 28}, .w = {32, 32, 3, 3}, .padding = 1});
  entry_named(v, "conv1d").bench = small(
      "conv1d", {.layout = "k5_64_64_pad2", .x = {8, 64, 1024}, .w = {64, 64, 5}, .padding = 2});
  entry_named(v, "conv3d").bench = small("conv3d", {.layout = "3x3x3_16_16_pad1",
                                                    .x = {4, 16, 16, 16, 16},
                                                    .w = {16, 16, 3, 3, 3},
                                                    .padding = 1});
  entry_named(v, "conv_transpose1d").bench =
      small("conv_transpose1d", {.layout = "k4_64_32_stride2",
                                 .x = {8, 64, 512},
                                 .w = {64, 32, 4},
                                 .stride = 2,
                                 .padding = 1,
                                 .transposed = true});
  entry_named(v, "conv_transpose2d").bench =
      small("conv_transpose2d", {.layout = "4x4_64_32_stride2",
                                 .x = {8, 64, 28, 28},
                                 .w = {64, 32, 4, 4},
                                 .stride = 2,
                                 .padding = 1,
                                 .transposed = true});
  entry_named(v, "conv_transpose3d").bench =
      small("conv_transpose3d", {.layout = "4x4x4_16_8_stride2",
                                 .x = {4, 16, 8, 8, 8},
                                 .w = {16, 8, 4, 4, 4},
                                 .stride = 2,
                                 .padding = 1,
                                 .transposed = true});
}

}  // namespace

std::vector<OpEntry> conv_entries() {
  std::vector<OpEntry> v;
  v.push_back(convolution_entry());
  v.push_back(conv_entry("conv1d", 1, &ts::conv1d, &ts::conv1d));
  v.push_back(conv_entry("conv2d", 2, &ts::conv2d, &ts::conv2d));
  v.push_back(conv_entry("conv3d", 3, &ts::conv3d, &ts::conv3d));
  v.push_back(conv_transpose_entry("conv_transpose1d", 1, &ts::conv_transpose1d));
  v.push_back(conv_transpose_entry("conv_transpose2d", 2, &ts::conv_transpose2d));
  v.push_back(conv_transpose_entry("conv_transpose3d", 3, &ts::conv_transpose3d));
  add_bench(v);
  return v;
}

}  // namespace ts::catalog
