// Catalog entries of the unary (elementwise, one input) ops: conformance samples from 0-dim to
// a few thousand elements plus the edge values; benchmark cases on a contiguous vector through
// the out= form (the functional form where there is none), plus exp on a transposed matrix.
#include <cmath>
#include <limits>
#include <utility>

#include "catalog/bench.h"

namespace ts::catalog {
namespace {

// Shapes from 0-dim and empty to a few thousand elements; odd sizes leave SIMD tails.
std::vector<Sample> unary_samples(const SampleContext& ctx, Range r) {
  const NamedShapes shapes = {{"scalar", {}},     {"empty", {0}},      {"vec7", {7}},
                              {"mat3x4", {3, 4}}, {"cube", {2, 3, 5}}, {"empty3d", {2, 0, 3}},
                              {"big", {37, 53}},  {"size1", {5, 1, 4}}};
  std::vector<Sample> out = one_input_samples(ctx, shapes, r);
  Sample large;  // Note [Large samples]
  large.name = "large";
  large.contiguous_only = true;
  large.inputs = {ctx.input("large", 0, {kLargeNumel}, r)};
  out.push_back(std::move(large));
  return out;
}

// One benchmark case: `shape` (a square matrix read through its transpose when `transposed`).
void unary_case(const OpEntry& e, CaseList& list, ScalarType t, std::vector<int64_t> shape,
                bool transposed) {
  const ScalarType out_t = result_dtype(e, {t});
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  BenchCase c =
      make_case("unary", e.name, t, shape_str(shape), transposed ? "transposed" : "contiguous",
                nbytes(n, t) + nbytes(n, out_t), e.flops * static_cast<double>(n), {e.id});
  c.setup = [=, r = e.ranges.at(0), run = e.run, run_out = e.run_out](Device d) {
    Tensor in = make_input(shape, t, r, d);
    if (transposed) in = in.t();
    const std::vector<Tensor> ins{in}, outs{empty(in.sizes(), TensorOptions(out_t).device(d))};
    return run_out ? std::function<void()>([=] { run_out(outs, ins, {}); })
                   : std::function<void()>([=] { (void)run(ins, {}); });
  };
  list.add(std::move(c));
}

void unary_bench(const OpEntry& e, CaseList& list) {
  for (ScalarType t : plain_dtypes(e, list)) unary_case(e, list, t, {list.numel()}, false);
}

template <typename Fn, typename OutFn>
OpEntry unary(std::string name, Range r, Fn fn, OutFn out_fn) {
  OpEntry e;
  e.name = std::move(name);
  e.family = "unary";
  e.ranges = {r};
  e.samples = [r](const SampleContext& ctx) { return unary_samples(ctx, r); };
  e.run = [fn](const std::vector<Tensor>& in, const SampleArgs&) {
    return std::vector<Tensor>{fn(in[0])};
  };
  e.run_out = [out_fn](const std::vector<Tensor>& outs, const std::vector<Tensor>& in,
                       const SampleArgs&) { out_fn(outs[0], in[0]); };
  e.bench = unary_bench;
  return e;
}

// Sets the in-place form: `fn(self)` runs the op over self and returns what the op returned.
template <typename Fn>
OpEntry with_inplace(OpEntry e, Fn fn) {
  e.run_inplace = [fn](const Tensor& self, const std::vector<Tensor>&, const SampleArgs&) {
    return Tensor(fn(self));
  };
  return e;
}

// A plain unary op (functional, out= and in-place forms) with inputs in [lo, hi): its
// conformance samples, benchmark case and fuzzer statements all come from this one line.
#define TS_UNARY_ENTRY(op, lo, hi)                                                    \
  with_inplace(unary(                                                                 \
                   #op, Range{lo, hi}, [](const Tensor& x) { return ts::op(x); },     \
                   [](const Tensor& out, const Tensor& x) { ts::op##_out(out, x); }), \
               [](const Tensor& x) -> Tensor& { return ts::op##_(x); })

// Samples for the ops about NaN and the infinities (random floats are neither): in each floating
// sample but the edge values, about a quarter of the values become +inf, a quarter -inf and a
// quarter NaN (masks drawn from `op`'s own stream).
std::vector<Sample> special_value_samples(const std::string& op, const SampleContext& ctx,
                                          Range r) {
  std::vector<Sample> out = unary_samples(ctx, r);
  if (!is_floating_type(ctx.dtype())) return out;
  KernelSetGuard g("reference");
  const SampleContext masks(op + "/mask", kBool);
  constexpr double kInf = std::numeric_limits<double>::infinity();
  for (Sample& s : out) {
    if (s.name == "edge_values") continue;
    const Tensor a = masks.input(s.name, 0, s.inputs[0].sizes());
    const Tensor b = masks.input(s.name, 1, s.inputs[0].sizes());
    Tensor x = where(logical_and(a, b), kInf, s.inputs[0]);
    x = where(logical_and(a, logical_not(b)), -kInf, x);
    s.inputs[0] = where(logical_and(logical_not(a), b), std::nan(""), x);
    s.smooth = false;  // nan_to_num's gradient: 0 at the replaced values
  }
  return out;
}

// ---- activations (issue 16) ----

// An activation called with `...` after self: functional, out= and in-place forms.
#define TS_ACTIVATION_ENTRY(case_name, op, lo, hi, ...)                                     \
  with_inplace(                                                                             \
      unary(                                                                                \
          case_name, Range{lo, hi}, [](const Tensor& x) { return ts::op(x, __VA_ARGS__); }, \
          [](const Tensor& out, const Tensor& x) { ts::op##_out(out, x, __VA_ARGS__); }),   \
      [](const Tensor& x) -> Tensor& { return ts::op##_(x, __VA_ARGS__); })

// A variant entry of `op` (its main entry has the benchmark case).
OpEntry variant_of(std::string op, OpEntry e) {
  e.op = std::move(op);
  e.bench = nullptr;
  return e;
}

std::vector<OpEntry> activation_entries() {
  std::vector<OpEntry> v;
  v.push_back(TS_ACTIVATION_ENTRY("leaky_relu", leaky_relu, -4, 4, 0.01));
  v.push_back(
      variant_of("leaky_relu", TS_ACTIVATION_ENTRY("leaky_relu.slope", leaky_relu, -4, 4, -0.25)));
  v.push_back(TS_ACTIVATION_ENTRY("elu", elu, -4, 4, 1));
  v.push_back(variant_of("elu", TS_ACTIVATION_ENTRY("elu.scaled", elu, -4, 4, 0.5, 2, 1.5)));
  // selu and celu (composites over elu) have in-place forms but no out=, as in ATen.
  OpEntry selu = with_inplace(unary(
                                  "selu", Range{-4, 4}, [](const Tensor& x) { return ts::selu(x); },
                                  [](const Tensor&, const Tensor&) {}),
                              [](const Tensor& x) -> Tensor& { return ts::selu_(x); });
  selu.run_out = nullptr;
  v.push_back(std::move(selu));
  OpEntry celu =
      with_inplace(unary(
                       "celu", Range{-4, 4}, [](const Tensor& x) { return ts::celu(x, 2.0); },
                       [](const Tensor&, const Tensor&) {}),
                   [](const Tensor& x) -> Tensor& { return ts::celu_(x, 2.0); });
  celu.run_out = nullptr;
  v.push_back(std::move(celu));
  // softplus has out= but no in-place form; the variant's switch (beta x > 3) is at x = 1.5.
  v.push_back(unary(
      "softplus", Range{-6, 24}, [](const Tensor& x) { return ts::softplus(x); },
      [](const Tensor& out, const Tensor& x) { ts::softplus_out(out, x); }));
  v.push_back(variant_of(
      "softplus",
      unary(
          "softplus.beta", Range{-4, 4}, [](const Tensor& x) { return ts::softplus(x, 2, 3); },
          [](const Tensor& out, const Tensor& x) { ts::softplus_out(out, x, 2, 3); })));
  // softsign: functional only (torch.nn.functional.softsign).
  OpEntry softsign = unary(
      "softsign", Range{-4, 4}, [](const Tensor& x) { return ts::softsign(x); },
      [](const Tensor&, const Tensor&) {});
  softsign.run_out = nullptr;
  v.push_back(std::move(softsign));
  // hardtanh's default bounds are negative: uint8 refuses them (as ATen); the variant's bounds
  // (truncated to [0, 2] on integers) take uint8.
  OpEntry hardtanh = TS_ACTIVATION_ENTRY("hardtanh", hardtanh, -4, 4, -1, 1);
  hardtanh.dtypes = op_info(OpId::hardtanh).dtypes - DTypeSet{kByte};
  v.push_back(std::move(hardtanh));
  v.push_back(
      variant_of("hardtanh", TS_ACTIVATION_ENTRY("hardtanh.bounds", hardtanh, -4, 4, 0.5, 2.5)));
  v.push_back(TS_ACTIVATION_ENTRY("threshold", threshold, -4, 4, 0.5, -2));
  return v;
}
#undef TS_ACTIVATION_ENTRY

}  // namespace

std::vector<OpEntry> unary_entries() {
  std::vector<OpEntry> v = {
      // clang-format off
      TS_UNARY_ENTRY(neg, -4, 4),
      TS_UNARY_ENTRY(abs, -4, 4),
      TS_UNARY_ENTRY(sign, -4, 4),
      TS_UNARY_ENTRY(exp, -4, 4),
      TS_UNARY_ENTRY(expm1, -4, 4),
      TS_UNARY_ENTRY(exp2, -8, 8),
      TS_UNARY_ENTRY(log, 0.05, 8),
      TS_UNARY_ENTRY(log1p, -0.9, 4),
      TS_UNARY_ENTRY(log2, 0.05, 8),
      TS_UNARY_ENTRY(log10, 0.05, 8),
      TS_UNARY_ENTRY(sqrt, 0, 8),
      TS_UNARY_ENTRY(rsqrt, 0.05, 8),
      TS_UNARY_ENTRY(reciprocal, 0.1, 4),
      TS_UNARY_ENTRY(sin, -4, 4),
      TS_UNARY_ENTRY(cos, -4, 4),
      TS_UNARY_ENTRY(tan, -1.2, 1.2),
      TS_UNARY_ENTRY(asin, -0.95, 0.95),
      TS_UNARY_ENTRY(acos, -0.95, 0.95),
      TS_UNARY_ENTRY(atan, -4, 4),
      TS_UNARY_ENTRY(sinh, -4, 4),
      TS_UNARY_ENTRY(cosh, -4, 4),
      TS_UNARY_ENTRY(tanh, -4, 4),
      TS_UNARY_ENTRY(asinh, -4, 4),
      TS_UNARY_ENTRY(acosh, 1.05, 8),
      TS_UNARY_ENTRY(atanh, -0.9, 0.9),
      TS_UNARY_ENTRY(sinc, -4, 4),
      TS_UNARY_ENTRY(sigmoid, -6, 6),
      TS_UNARY_ENTRY(relu, -4, 4),
      TS_UNARY_ENTRY(silu, -4, 4),
      TS_UNARY_ENTRY(hardsigmoid, -5, 5),
      TS_UNARY_ENTRY(hardswish, -5, 5),
      TS_UNARY_ENTRY(mish, -4, 4),
      TS_UNARY_ENTRY(erf, -3, 3),
      TS_UNARY_ENTRY(erfc, -3, 3),
      TS_UNARY_ENTRY(erfinv, -0.95, 0.95),
      TS_UNARY_ENTRY(floor, -4, 4),
      TS_UNARY_ENTRY(ceil, -4, 4),
      TS_UNARY_ENTRY(round, -4, 4),
      TS_UNARY_ENTRY(trunc, -4, 4),
      TS_UNARY_ENTRY(frac, -4, 4),
      TS_UNARY_ENTRY(logical_not, -2, 2),
      TS_UNARY_ENTRY(bitwise_not, -4, 4),
      // math (issue 16); lgamma and digamma away from their poles (0, -1, ...; edge values test
      // those).
      TS_UNARY_ENTRY(square, -4, 4),
      TS_UNARY_ENTRY(lgamma, 0.1, 8),
      TS_UNARY_ENTRY(digamma, 0.1, 8),
      // clang-format on
  };
  // math (issue 16): isinf and isfinite (functional only, as ATen) and nan_to_num, on samples
  // with NaN and infinities; nan_to_num.values passes every replacement.
  for (const std::string op : {"isinf", "isfinite"}) {
    OpEntry e = unary(
        op, Range{},
        [is_inf = op == "isinf"](const Tensor& x) {
          return is_inf ? ts::isinf(x) : ts::isfinite(x);
        },
        [](const Tensor&, const Tensor&) {});
    e.run_out = nullptr;
    e.samples = [op](const SampleContext& ctx) { return special_value_samples(op, ctx, Range{}); };
    v.push_back(std::move(e));
  }
  OpEntry nan_to_num_entry = with_inplace(
      unary(
          "nan_to_num", Range{-4, 4}, [](const Tensor& x) { return ts::nan_to_num(x); },
          [](const Tensor& out, const Tensor& x) { ts::nan_to_num_out(out, x); }),
      [](const Tensor& x) -> Tensor& { return ts::nan_to_num_(x); });
  nan_to_num_entry.samples = [](const SampleContext& ctx) {
    return special_value_samples("nan_to_num", ctx, Range{-4, 4});
  };
  v.push_back(std::move(nan_to_num_entry));
  OpEntry nan_to_num_values = with_inplace(
      unary(
          "nan_to_num.values", Range{-4, 4},
          [](const Tensor& x) { return ts::nan_to_num(x, 1.5, 100, -1e10); },
          [](const Tensor& out, const Tensor& x) { ts::nan_to_num_out(out, x, 1.5, 100, -1e10); }),
      [](const Tensor& x) -> Tensor& { return ts::nan_to_num_(x, 1.5, 100, -1e10); });
  nan_to_num_values.op = "nan_to_num";
  nan_to_num_values.bench = nullptr;  // nan_to_num's entry has the benchmark case
  nan_to_num_values.samples = [](const SampleContext& ctx) {
    return special_value_samples("nan_to_num.values", ctx, Range{-4, 4});
  };
  v.push_back(std::move(nan_to_num_values));
  // log_sigmoid has no in-place form (ATen has none).
  v.push_back(unary(
      "log_sigmoid", Range{-6, 6}, [](const Tensor& x) { return ts::log_sigmoid(x); },
      [](const Tensor& out, const Tensor& x) { ts::log_sigmoid_out(out, x); }));
  OpEntry isnan_entry = unary(
      "isnan", Range{}, [](const Tensor& x) { return ts::isnan(x); },
      [](const Tensor&, const Tensor&) {});
  isnan_entry.run_out = nullptr;  // isnan has no out= form
  // Random floats are never NaN: about half of each floating sample's values are made NaN.
  isnan_entry.samples = [](const SampleContext& ctx) {
    std::vector<Sample> out = unary_samples(ctx, Range{});
    if (!is_floating_type(ctx.dtype())) return out;
    KernelSetGuard g("reference");
    for (Sample& s : out) {
      if (s.name == "edge_values") continue;
      const Tensor nan_at =
          SampleContext("isnan/mask", kBool).input(s.name, 0, s.inputs[0].sizes());
      s.inputs[0] = where(nan_at, std::nan(""), s.inputs[0]);
    }
    return out;
  };
  v.push_back(std::move(isnan_entry));
  v.push_back(with_inplace(unary(
                               "gelu", Range{-4, 4}, [](const Tensor& x) { return ts::gelu(x); },
                               [](const Tensor& out, const Tensor& x) { ts::gelu_out(out, x); }),
                           [](const Tensor& x) -> Tensor& { return ts::gelu_(x); }));
  OpEntry gelu_tanh = with_inplace(
      unary(
          "gelu.tanh", Range{-4, 4}, [](const Tensor& x) { return ts::gelu(x, "tanh"); },
          [](const Tensor& out, const Tensor& x) { ts::gelu_out(out, x, "tanh"); }),
      [](const Tensor& x) -> Tensor& { return ts::gelu_(x, "tanh"); });
  gelu_tanh.op = "gelu";
  gelu_tanh.bench = nullptr;  // gelu's entry has the benchmark case
  v.push_back(std::move(gelu_tanh));
  v.push_back(
      with_inplace(unary(
                       "clamp", Range{-4, 4}, [](const Tensor& x) { return ts::clamp(x, -1, 2); },
                       [](const Tensor& out, const Tensor& x) { ts::clamp_out(out, x, -1, 2); }),
                   [](const Tensor& x) -> Tensor& { return ts::clamp_(x, -1, 2); }));
  // ---- activations (issue 16): each op with ATen's defaults, and a variant whose parameters
  // move the kink or the switch (values exact in every floating dtype) ----
  for (OpEntry& e : activation_entries()) v.push_back(std::move(e));
  // FLOPs per element beyond one (Note [Bytes and FLOPs]); bool and bitwise results count zero.
  for (const auto& [name, flops] : std::vector<std::pair<std::string, double>>{{"rsqrt", 2},
                                                                               {"sigmoid", 3},
                                                                               {"gelu", 4},
                                                                               {"silu", 4},
                                                                               {"clamp", 2},
                                                                               {"isnan", 0},
                                                                               {"logical_not", 0},
                                                                               {"bitwise_not", 0},
                                                                               {"isinf", 0},
                                                                               {"isfinite", 0},
                                                                               {"nan_to_num", 0}}) {
    entry_named(v, name).flops = flops;
  }
  entry_named(v, "logical_not").bench_dtype = kBool;
  // Note [Balanced outcomes] in binary.cpp: integer-valued floats, so that some are 0.
  OpEntry& logical_not = entry_named(v, "logical_not");
  logical_not.samples = [](const SampleContext& ctx) {
    std::vector<Sample> out = unary_samples(ctx, Range{-2, 2});
    if (!is_floating_type(ctx.dtype())) return out;
    KernelSetGuard g("reference");
    for (Sample& s : out) {
      if (s.name != "edge_values") s.inputs[0] = floor(s.inputs[0]);
    }
    return out;
  };
  // exp also on a transposed matrix: the kernel walks its operand against its strides.
  entry_named(v, "exp").bench = [](const OpEntry& e, CaseList& list) {
    unary_bench(e, list);
    for (ScalarType t : list.dtypes(DTypeSet::floating())) {
      unary_case(e, list, t, {list.side(), list.side()}, true);
    }
  };
  // neg, relu and exp in full runs also on the STREAM probes' 128 M elements: a DRAM-bound pass
  // through a kernel (exp's with its polynomial), to set against the copy probe.
  for (const char* name : {"neg", "relu", "exp"}) {
    OpEntry& entry = entry_named(v, name);
    entry.bench = [plain = entry.bench](const OpEntry& e, CaseList& list) {
      plain(e, list);
      const int64_t stream = list.stream_numel();
      for (ScalarType t : list.dtypes(DTypeSet::floating())) {
        if (stream > 0) unary_case(e, list, t, {stream}, false);
      }
    };
  }
  // Note [Constant by definition]: piecewise-constant ops pass a zero gradient.
  for (const char* name : {"sign", "floor", "ceil", "round", "trunc"}) {
    entry_named(v, name).constant_gradient = DTypeSet::all();
  }
  // Integers and bools are finite: isinf and isnan are all false, isfinite all true.
  for (const char* name : {"isinf", "isnan", "isfinite"}) {
    entry_named(v, name).constant_output = DTypeSet::integral(true);
  }
  entry_named(v, "exp").known.push_back(
      {kDouble, [] {
         return known_answer("known", {tensor({0., 1.}, kDouble)}, {tensor({1., M_E}, kDouble)});
       }});
  return v;
}

}  // namespace ts::catalog
