// Catalog entries of the binary (elementwise, two inputs) ops: conformance samples of same
// shapes, broadcasting pairs, 0-dim operands, empty tensors and Tensor-Scalar calls; benchmark
// cases on contiguous vectors through the out= form, plus add in the layouts the kernels
// special-case (broadcast row, transposed operand, 0-dim operand).
#include <utility>

#include "catalog/bench.h"

namespace ts::catalog {
namespace {

struct Pair {
  std::string name;
  std::vector<int64_t> a, b;
};

// `rb` is the second operand's range (divisors stay away from zero).
std::vector<Sample> binary_samples(const SampleContext& ctx, Range ra, Range rb) {
  const std::vector<Pair> pairs = {{"same", {3, 4}, {3, 4}},
                                   {"cube", {2, 3, 5}, {2, 3, 5}},
                                   {"bcast_outer", {3, 1}, {1, 4}},
                                   {"bcast_trailing", {2, 3, 5}, {5}},
                                   {"bcast_mid", {4, 1, 6}, {5, 1}},
                                   {"zero_dim_lhs", {}, {3, 4}},
                                   {"zero_dim_rhs", {3, 4}, {}},
                                   {"both_zero_dim", {}, {}},
                                   {"empty", {0}, {0}},
                                   {"empty_bcast", {2, 0, 3}, {3}},
                                   {"big", {37, 53}, {37, 53}},
                                   {"big_bcast", {37, 53}, {53}}};
  std::vector<Sample> out;
  for (const Pair& p : pairs) {
    Sample s;
    s.name = p.name;
    s.inputs = {ctx.input(p.name, 0, p.a, ra), ctx.input(p.name, 1, p.b, rb)};
    out.push_back(std::move(s));
  }
  if (is_floating_type(ctx.dtype())) {
    // Every pair of edge values: a column against a row.
    KernelSetGuard g("reference");
    const Tensor edges = edge_values(ctx.dtype());
    Sample s;
    s.name = "edge_values";
    s.smooth = false;
    s.inputs = {edges.unsqueeze(1).contiguous(), edges.unsqueeze(0).contiguous()};
    out.push_back(std::move(s));
  } else if (ctx.dtype() != kBool && ra.lo < 0 && (rb.lo < 0 || rb.lo > 0)) {
    // Every pair of integer edge values (wrap-around: int8 127 + 1 = -128, min * -1 = min); a
    // divisor (rb > 0) takes the positive ones.
    KernelSetGuard g("reference");
    const Tensor edges = edge_values(ctx.dtype());
    Tensor other = edges;
    if (rb.lo > 0) {
      const Tensor all = edges.to(kLong);
      const int64_t* p = all.data_ptr<int64_t>();
      std::vector<int64_t> positive;
      for (int64_t i = 0; i < all.numel(); ++i) {
        if (p[i] > 0) positive.push_back(p[i]);
      }
      other = tensor(ArrayRef<int64_t>(positive), kLong).to(ctx.dtype());
    }
    Sample s;
    s.name = "edge_values";
    s.smooth = false;
    s.inputs = {edges.unsqueeze(1).contiguous(), other.unsqueeze(0).contiguous()};
    out.push_back(std::move(s));
  }
  {
    Sample s;  // Note [Large samples]
    s.name = "large";
    s.contiguous_only = true;
    s.inputs = {ctx.input("large", 0, {kLargeNumel}, ra), ctx.input("large", 1, {kLargeNumel}, rb)};
    out.push_back(std::move(s));
  }
  for (const auto& [name, shape] : std::vector<std::pair<std::string, std::vector<int64_t>>>{
           {"scalar_arg", {3, 4}}, {"scalar_arg_big", {37, 53}}, {"scalar_arg_0dim", {}}}) {
    Sample s;
    s.name = name;
    s.inputs = {ctx.input(name, 0, shape, ra)};
    s.args.scalar = ctx.scalar();
    s.has_out = false;
    out.push_back(std::move(s));
  }
  return out;
}

// One benchmark case: `b_sizes` broadcasts against `a_sizes`; a non-empty `perm_a` times
// a.permute(perm_a) (same sizes: a square or a cube) against a contiguous b.
void binary_case(const OpEntry& e, CaseList& list, ScalarType t, std::vector<int64_t> a_sizes,
                 std::vector<int64_t> b_sizes, std::string layout,
                 std::vector<int64_t> perm_a = {}) {
  const ScalarType out_t = result_dtype(e, {t, t});
  int64_t n = 1, nb = 1;
  for (int64_t d : a_sizes) n *= d;
  for (int64_t d : b_sizes) nb *= d;
  const std::string shape =
      shape_str(a_sizes) + (b_sizes == a_sizes ? "" : "+" + shape_str(b_sizes));
  BenchCase c = make_case("binary", e.name, t, shape, std::move(layout),
                          nbytes(n, t) + nbytes(nb, t) + nbytes(n, out_t),
                          e.flops * static_cast<double>(n), {e.id});
  c.setup = [=, ra = e.ranges.at(0), rb = e.ranges.at(1), run = e.run,
             run_out = e.run_out](Device d) {
    Tensor a = make_input(a_sizes, t, ra, d);
    const Tensor b = make_input(b_sizes, t, rb, d);
    if (!perm_a.empty()) a = a.permute(perm_a);
    const std::vector<Tensor> ins{a, b}, outs{empty(a.sizes(), TensorOptions(out_t).device(d))};
    return run_out ? std::function<void()>([=] { run_out(outs, ins, {}); })
                   : std::function<void()>([=] { (void)run(ins, {}); });
  };
  list.add(std::move(c));
}

void binary_bench(const OpEntry& e, CaseList& list) {
  for (ScalarType t : plain_dtypes(e, list)) {
    binary_case(e, list, t, {list.numel()}, {list.numel()}, "contiguous");
  }
}

template <typename Fn, typename OutFn>
OpEntry binary(std::string name, Range ra, Range rb, Fn fn, OutFn out_fn) {
  OpEntry e;
  e.name = std::move(name);
  e.family = "binary";
  e.ranges = {ra, rb};
  e.samples = [ra, rb](const SampleContext& ctx) { return binary_samples(ctx, ra, rb); };
  e.run = [fn](const std::vector<Tensor>& in, const SampleArgs& args) {
    return std::vector<Tensor>{args.scalar ? fn(in[0], *args.scalar) : fn(in[0], in[1])};
  };
  e.run_out = [out_fn](const std::vector<Tensor>& outs, const std::vector<Tensor>& in,
                       const SampleArgs&) { out_fn(outs[0], in[0], in[1]); };
  e.bench = binary_bench;
  return e;
}

// Sets the in-place form: `fn(self, other)` with other a Tensor or, for Tensor-Scalar samples,
// the sample's Scalar.
template <typename Fn>
OpEntry with_inplace(OpEntry e, Fn fn) {
  e.run_inplace = [fn](const Tensor& self, const std::vector<Tensor>& in, const SampleArgs& args) {
    return args.scalar ? Tensor(fn(self, *args.scalar)) : Tensor(fn(self, in[1]));
  };
  return e;
}

// A plain binary op with inputs in ra and rb: its conformance samples, benchmark case and fuzzer
// statements all come from this one line. A generic lambda covers both the Tensor-Tensor and the
// Tensor-Scalar overloads.
#define TS_BINARY_ENTRY_NO_INPLACE(op, ra, rb)                                  \
  binary(                                                                       \
      #op, ra, rb, [](const Tensor& a, const auto& b) { return ts::op(a, b); }, \
      [](const Tensor& out, const Tensor& a, const Tensor& b) { ts::op##_out(out, a, b); })
#define TS_BINARY_ENTRY(op, ra, rb)                    \
  with_inplace(TS_BINARY_ENTRY_NO_INPLACE(op, ra, rb), \
               [](const Tensor& a, const auto& b) -> Tensor& { return a.op##_(b); })

SampleArgs scalar_arg(Scalar value) {
  SampleArgs a;
  a.scalar = value;
  return a;
}

// Note [Known answers] in catalog.h: wrapping, promotion, true division, the sign of a
// remainder, broadcasting and alpha, computed by hand.
void add_known_answers(std::vector<OpEntry>& v) {
  const auto f32 = [](std::initializer_list<double> x) { return tensor(x, kFloat); };
  entry_named(v, "add").known = {
      {kChar,
       [] {
         return known_answer("known", {tensor({127}, kChar), tensor({1}, kChar)},
                             {tensor({-128}, kChar)});
       }},
      {kInt, [f32] {
         Sample s =
             known_answer("known", {tensor({1, 2}, kInt)}, {f32({3.5, 4.5})}, scalar_arg(2.5));
         s.has_out = false;
         return s;
       }}};
  entry_named(v, "add.alpha").known = {
      {kFloat, [f32] {
         return known_answer("known", {f32({1, 2, 3}), f32({10, 20, 30})}, {f32({8.5, 17, 25.5})});
       }}};
  entry_named(v, "div").known = {{kLong, [f32] {
                                    return known_answer(
                                        "known", {tensor({1, 3}, kLong), tensor({2, 4}, kLong)},
                                        {f32({0.5, 0.75})});
                                  }}};
  // Floor division rounds towards -inf: -7 / 2 = -3.5 -> -4, 7 / -2 -> -4.
  entry_named(v, "div.floor").known = {
      {kLong, [] {
         return known_answer("known", {tensor({-7, 7}, kLong), tensor({2, -2}, kLong)},
                             {tensor({-4, -4}, kLong)});
       }}};
  entry_named(v, "remainder").known = {
      {kFloat, [f32] {
         Sample s = known_answer("known", {f32({-3, 3})}, {f32({1, 1})}, scalar_arg(2));
         s.has_out = false;
         return s;
       }}};
  entry_named(v, "mul").known = {{kFloat, [f32] {
                                    return known_answer("known",
                                                        {f32({1, 2}).view({2, 1}), f32({3, 4, 5})},
                                                        {f32({3, 4, 5, 6, 8, 10}).view({2, 3})});
                                  }}};
}

// math (issue 16): heaviside's operands share a dtype (ATen has no Scalar overload) and its
// floating self takes integer values, so that some are 0 (Note [Balanced outcomes]); isclose
// (functional only) compares pairs that are equal, within its tolerances, or apart.
void add_math_entries(std::vector<OpEntry>& v) {
  OpEntry& heaviside = entry_named(v, "heaviside");
  heaviside.samples = [base = heaviside.samples](const SampleContext& ctx) {
    std::vector<Sample> out;
    KernelSetGuard g("reference");
    for (Sample& s : base(ctx)) {
      if (s.args.scalar) continue;
      if (is_floating_type(ctx.dtype()) && s.name != "edge_values") {
        s.inputs[0] = floor(s.inputs[0]);
      }
      out.push_back(std::move(s));
    }
    return out;
  };
  OpEntry isclose;
  isclose.name = "isclose";
  isclose.family = "binary";
  isclose.ranges = {Range{}, Range{}};
  isclose.samples = [](const SampleContext& ctx) {
    std::vector<Sample> out;
    KernelSetGuard g("reference");
    const SampleContext masks("isclose/mask", kBool);
    for (Sample& s : binary_samples(ctx, Range{}, Range{})) {
      if (s.args.scalar) continue;
      Tensor& a = s.inputs[0];
      Tensor& b = s.inputs[1];
      if (s.name != "edge_values" && a.sizes() == b.sizes()) {
        // A third equal, a third off by 4e-6 relative (within rtol = 1e-5 in float32), the rest
        // apart.
        const Tensor equal = masks.input(s.name, 0, a.sizes());
        const Tensor near = masks.input(s.name, 1, a.sizes());
        b = where(equal, a, where(near, a * (1 + 4e-6), b));
      }
      out.push_back(std::move(s));
    }
    return out;
  };
  isclose.run = [](const std::vector<Tensor>& in, const SampleArgs&) {
    return std::vector<Tensor>{ts::isclose(in[0], in[1])};
  };
  isclose.bench = binary_bench;
  isclose.flops = 0;
  v.push_back(std::move(isclose));
  // FLOPs per element beyond one (Note [Bytes and FLOPs]): exact selections count none.
  for (const char* op : {"copysign", "nextafter", "heaviside", "clamp_min", "clamp_max"}) {
    entry_named(v, op).flops = 0;
  }
}

}  // namespace

std::vector<OpEntry> binary_entries() {
  const Range any{-4, 4}, positive{0.5, 4}, base{0.1, 3}, exponent{-2, 3};
  std::vector<OpEntry> v = {
      TS_BINARY_ENTRY(add, any, any),
      TS_BINARY_ENTRY(sub, any, any),
      TS_BINARY_ENTRY(mul, any, any),
      TS_BINARY_ENTRY(div, any, positive),
      TS_BINARY_ENTRY(remainder, any, positive),
      TS_BINARY_ENTRY(pow, base, exponent),
      TS_BINARY_ENTRY_NO_INPLACE(maximum, any, any),
      TS_BINARY_ENTRY_NO_INPLACE(minimum, any, any),
      TS_BINARY_ENTRY(atan2, any, any),
      TS_BINARY_ENTRY(eq, Range({-2, 2}), Range({-2, 2})),
      TS_BINARY_ENTRY(ne, Range({-2, 2}), Range({-2, 2})),
      TS_BINARY_ENTRY(lt, any, any),
      TS_BINARY_ENTRY(le, any, any),
      TS_BINARY_ENTRY(gt, any, any),
      TS_BINARY_ENTRY(ge, any, any),
      TS_BINARY_ENTRY(logical_and, Range({-1, 2}), Range({-1, 2})),
      TS_BINARY_ENTRY(logical_or, Range({-1, 2}), Range({-1, 2})),
      TS_BINARY_ENTRY(bitwise_and, any, any),
      TS_BINARY_ENTRY(bitwise_or, any, any),
      TS_BINARY_ENTRY(bitwise_xor, any, any),
      // math (issue 16)
      TS_BINARY_ENTRY(hypot, any, any),
      TS_BINARY_ENTRY(copysign, any, any),
      TS_BINARY_ENTRY(nextafter, any, any),
      TS_BINARY_ENTRY(fmod, any, positive),
      TS_BINARY_ENTRY(floor_divide, any, positive),
      TS_BINARY_ENTRY(xlogy, any, positive),
      TS_BINARY_ENTRY_NO_INPLACE(logaddexp, any, any),
      TS_BINARY_ENTRY_NO_INPLACE(logaddexp2, any, any),
      TS_BINARY_ENTRY(heaviside, Range({-2, 2}), any),
      TS_BINARY_ENTRY(clamp_min, any, any),
      TS_BINARY_ENTRY(clamp_max, any, any),
  };
  add_math_entries(v);
  // The optional alpha argument, in the floating dtypes (an integer alpha for others is 2).
  for (const char* op : {"add", "sub"}) {
    const bool is_add = std::string(op) == "add";
    OpEntry e = binary(
        std::string(op) + ".alpha", any, any,
        [is_add](const Tensor& a, const auto& b) {
          return is_add ? ts::add(a, b, 0.75) : ts::sub(a, b, 0.75);
        },
        [is_add](const Tensor& out, const Tensor& a, const Tensor& b) {
          is_add ? ts::add_out(out, a, b, 0.75) : ts::sub_out(out, a, b, 0.75);
        });
    e = with_inplace(std::move(e), [is_add](const Tensor& a, const auto& b) -> Tensor& {
      return is_add ? a.add_(b, 0.75) : a.sub_(b, 0.75);
    });
    e.op = op;
    e.dtypes = DTypeSet::floating();
    e.bench = nullptr;  // add's and sub's entries have the benchmark cases
    v.push_back(std::move(e));
  }
  // div's rounding modes, functional (Tensor-Tensor and Tensor-Scalar) and out=.
  for (const std::string mode : {"trunc", "floor"}) {
    OpEntry e = binary(
        "div." + mode, any, positive,
        [mode](const Tensor& a, const auto& b) { return ts::div(a, b, mode); },
        [mode](const Tensor& out, const Tensor& a, const Tensor& b) {
          ts::div_out(out, a, b, mode);
        });
    e.op = "div";
    e.bench = nullptr;  // div's entry has the benchmark case
    v.push_back(std::move(e));
  }
  // Note [Balanced outcomes]: equality and logical ops on continuous floats are constant (x == y
  // never, x && y always): their floating samples take integer values (floor of [-2, 2) or
  // [-1, 2)), and Tensor-Scalar samples a scalar the values hold (eq/ne 1, logical_or 0).
  for (const char* op : {"eq", "ne", "logical_and", "logical_or"}) {
    OpEntry& e = entry_named(v, op);
    const SamplesFn base = e.samples;
    const bool is_or = std::string(op) == "logical_or";
    e.samples = [base, is_or](const SampleContext& ctx) {
      std::vector<Sample> out = base(ctx);
      if (!is_floating_type(ctx.dtype())) return out;
      KernelSetGuard g("reference");
      for (Sample& s : out) {
        if (s.name == "edge_values") continue;
        for (Tensor& t : s.inputs) t = floor(t);
        if (s.args.scalar) s.args.scalar = Scalar(is_or ? 0.0 : 1.0);
      }
      return out;
    };
  }
  // FLOPs per element (Note [Bytes and FLOPs]): remainder 2, compares and bit operations none.
  for (const char* op : {"eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or",
                         "bitwise_and", "bitwise_or", "bitwise_xor"}) {
    entry_named(v, op).flops = 0;
  }
  entry_named(v, "remainder").flops = 2;
  entry_named(v, "logical_and").bench_dtype = entry_named(v, "logical_or").bench_dtype = kBool;
  // add in the layouts TensorIterator and the CPU loops treat apart; add and mul in full runs
  // also on the 128 M elements of the STREAM add probe, the DRAM-bound case to set against it.
  entry_named(v, "add").bench = [](const OpEntry& e, CaseList& list) {
    binary_bench(e, list);
    const int64_t s = list.side(), stream = list.stream_numel();
    for (ScalarType t : list.dtypes(DTypeSet::floating() | DTypeSet::integral(false))) {
      if (stream > 0) binary_case(e, list, t, {stream}, {stream}, "contiguous");
      binary_case(e, list, t, {s, s}, {s, s}, "contiguous");
      binary_case(e, list, t, {s, s}, {s}, "broadcast_row");
      binary_case(e, list, t, {s, s}, {s, s}, "transposed", {1, 0});
      binary_case(e, list, t, {s, s}, {}, "scalar_tensor");
    }
    // A permuted 4-D operand: offset arithmetic on every element, where CUDA's 32-bit indexing
    // pays (PyTorch #20888: 23.5 ms with 32-bit offsets, 33.3 with 64-bit).
    const int64_t d = list.numel() == (int64_t{1} << 24) ? 64 : 32;
    for (ScalarType t : list.dtypes(DTypeSet::floating())) {
      binary_case(e, list, t, {d, d, d, d}, {d, d, d, d}, "permuted_4d", {0, 2, 3, 1});
    }
  };
  entry_named(v, "mul").bench = [](const OpEntry& e, CaseList& list) {
    binary_bench(e, list);
    const int64_t stream = list.stream_numel();
    for (ScalarType t : list.dtypes(DTypeSet::floating())) {
      if (stream > 0) binary_case(e, list, t, {stream}, {stream}, "contiguous");
    }
  };
  add_known_answers(v);
  // Note [Constant by definition]: rounded quotients pass a zero gradient.
  entry_named(v, "div.floor").constant_gradient = DTypeSet::all();
  entry_named(v, "div.trunc").constant_gradient = DTypeSet::all();
  return v;
}

}  // namespace ts::catalog
