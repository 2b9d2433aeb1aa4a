// Catalog entries of the reductions. Conformance: dim lists (incl. negative dims and the empty
// list, which reduces every dim), keepdim, 0-dim and empty inputs, and reductions over an empty
// dim. Benchmark: a square matrix reduced along the contiguous dim (1), across it (0) and over
// everything; sum also over a long vector, cumsum along each dim.
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "catalog/bench.h"

namespace ts::catalog {
namespace {

struct Case {
  std::string name;
  std::vector<int64_t> shape, dims;
  bool keepdim = false;
};

// Which dim arguments an op takes.
enum class Dims { List, One, Scan };

int64_t summands(const std::vector<int64_t>& shape, const std::vector<int64_t>& dims) {
  int64_t n = 1;
  const auto rank = static_cast<int64_t>(shape.size());
  for (int64_t d = 0; d < rank; ++d) {
    bool reduced = dims.empty();
    for (int64_t x : dims) reduced = reduced || (x < 0 ? x + rank : x) == d;
    if (reduced) n *= shape[static_cast<size_t>(d)];
  }
  return n;
}

std::vector<Sample> reduce_samples(const SampleContext& ctx, Range r, Dims kind) {
  const std::vector<Case> cases = {
      {"scalar", {}, {}},
      {"scalar_d0", {}, {0}},
      {"vec", {7}, {0}},
      {"vec_big_neg", {2053}, {-1}},
      {"mat_d1", {3, 4}, {1}},
      {"mat_neg_keepdim", {3, 4}, {-2}, true},
      {"mat_all", {3, 4}, {}},
      {"cube_d02", {2, 3, 5}, {0, 2}},
      {"cube_neg_keepdim", {2, 3, 5}, {-1, 0}, true},
      {"cube_all_keepdim", {2, 3, 5}, {}, true},
      {"big_d0", {37, 53}, {0}},
      {"big_d1", {37, 53}, {1}},
      {"empty_reduced", {2, 0, 3}, {1}},
      {"empty_kept", {2, 0, 3}, {0}},
      {"size1", {5, 1, 4}, {1}},
  };
  std::vector<Sample> out;
  for (const Case& c : cases) {
    if (kind != Dims::List && c.dims.size() > 1) continue;
    if (kind == Dims::Scan && c.dims.size() != 1) continue;
    Sample s;
    s.name = c.name;
    s.inputs = {ctx.input(c.name, 0, c.shape, r)};
    s.args.dims = c.dims;
    s.args.keepdim = c.keepdim;
    s.summands = summands(c.shape, c.dims);
    // The single-dim ops' full reductions (no dim) have no out= form.
    s.has_out = kind == Dims::List || !c.dims.empty();
    out.push_back(std::move(s));
  }
  // Note [Large samples]; positive terms, whose running sums grow (Note [Summation bound] in
  // conformance/checks.cpp): 8 rows of 2053 terms, and 2^16 + 7 terms in one.
  const Range positive = r.lo < 0 ? Range{0.5, 4} : r;
  const std::vector<Case> big = {{"rows_2053", {8, 2053}, {1}}, {"large", {kLargeNumel}, {0}}};
  for (const Case& c : big) {
    Sample s;
    s.name = c.name;
    s.contiguous_only = true;
    s.inputs = {ctx.input(c.name, 0, c.shape, positive)};
    s.args.dims = kind == Dims::List && c.shape.size() == 1 ? std::vector<int64_t>{} : c.dims;
    s.summands = c.shape.back();
    out.push_back(std::move(s));
  }
  if (is_floating_type(ctx.dtype())) {
    // NaN, infinities, limits: propagation and overflow; the mixed row is reduced with dim 1.
    Sample s;
    s.name = "edge_values";
    s.smooth = false;
    KernelSetGuard g("reference");
    const Tensor e = edge_values(ctx.dtype());
    s.inputs = {cat({e.narrow(0, 3, 16), e.narrow(0, 0, 16)}).view({2, 16})};
    s.args.dims = {1};
    s.summands = 16;
    out.push_back(std::move(s));
  }
  return out;
}

OpEntry reduce(std::string name, Dims kind, Range r, RunFn run, RunOutFn run_out) {
  OpEntry e;
  e.name = std::move(name);
  e.family = "reduce";
  e.samples = [r, kind](const SampleContext& ctx) { return reduce_samples(ctx, r, kind); };
  e.run = std::move(run);
  e.run_out = std::move(run_out);
  return e;
}

using In = std::vector<Tensor>;

// Ops taking a dim list: op(x, dims, keepdim) and op_out(out, x, dims, keepdim).
#define TS_LIST_ENTRY(op, range)                                                              \
  reduce(                                                                                     \
      #op, Dims::List, range,                                                                 \
      [](const In& in, const SampleArgs& a) { return In{ts::op(in[0], a.dims, a.keepdim)}; }, \
      [](const In& outs, const In& in, const SampleArgs& a) {                                 \
        ts::op##_out(outs[0], in[0], a.dims, a.keepdim);                                      \
      })

// Ops taking one optional dim: op(x) or op(x, dim, keepdim), and op_out with a dim.
#define TS_ONE_DIM_ENTRY(op, range)                                                      \
  reduce(                                                                                \
      #op, Dims::One, range,                                                             \
      [](const In& in, const SampleArgs& a) {                                            \
        return In{a.dims.empty() ? ts::op(in[0]) : ts::op(in[0], a.dims[0], a.keepdim)}; \
      },                                                                                 \
      [](const In& outs, const In& in, const SampleArgs& a) {                            \
        ts::op##_out(outs[0], in[0], a.dims[0], a.keepdim);                              \
      })

// Note [Shifted samples]
// Floating values far from 0 relative to their spread: a one-pass variance (E[x^2] - E[x]^2)
// cancels catastrophically, exp overflows without the max shift, squares overflow float16.
// `r` is the range: [1000, 1001) for mean/var/std, [80, 100) for logsumexp, [200, 300) for norm.
OpEntry with_shifted(OpEntry e, Range r) {
  const SamplesFn base = e.samples;
  e.samples = [base, r](const SampleContext& ctx) {
    std::vector<Sample> v = base(ctx);
    if (!is_floating_type(ctx.dtype())) return v;
    const std::vector<Case> cases = {{"shifted_rows", {37, 53}, {1}},
                                     {"shifted_cols", {37, 53}, {0}},
                                     {"shifted_long", {2053}, {-1}}};
    for (const Case& c : cases) {
      Sample s;
      s.name = c.name;
      s.inputs = {ctx.input(c.name, 0, c.shape, r)};
      s.args.dims = c.dims;
      s.summands = summands(c.shape, c.dims);
      v.push_back(std::move(s));
    }
    return v;
  };
  return e;
}

// sum, mean, prod, cumsum with dtype= (args.dtype): the input is cast to it first.
std::vector<Sample> dtype_samples(const SampleContext& ctx, Range r, Dims kind) {
  std::vector<Sample> out;
  const std::vector<ScalarType> targets = {kDouble, kFloat};
  for (const Sample& s : reduce_samples(ctx, r, kind)) {
    for (const ScalarType dt : targets) {
      Sample d = s;
      d.name = s.name + "_to_" + std::string(dtype_name(dt));
      d.args.dtype = dt;
      // In float64 a float32 result is rounded: finite differences of it would be noise.
      d.smooth = s.smooth && dt == kDouble;
      out.push_back(std::move(d));
    }
  }
  return out;
}

OpEntry with_dtype(std::string name, Dims kind, Range r, RunFn run, RunOutFn run_out) {
  OpEntry e = reduce(std::move(name), kind, r, std::move(run), std::move(run_out));
  e.op = e.name.substr(0, e.name.find('.'));
  e.samples = [r, kind](const SampleContext& ctx) { return dtype_samples(ctx, r, kind); };
  return e;
}

// max/min: (values, indices) with a dim, values only over every element (no out= form). Ties
// (integers, narrow floats) must pick the reference's index.
OpEntry max_min_entry(bool is_max) {
  OpEntry e = reduce(
      is_max ? "max" : "min", Dims::One, Range{-4, 4},
      [is_max](const In& in, const SampleArgs& a) {
        if (a.dims.empty()) return In{is_max ? ts::max(in[0]) : ts::min(in[0])};
        auto [values, indices] =
            is_max ? ts::max(in[0], a.dims[0], a.keepdim) : ts::min(in[0], a.dims[0], a.keepdim);
        return In{values, indices};
      },
      [is_max](const In& outs, const In& in, const SampleArgs& a) {
        is_max ? ts::max_out(outs[0], outs[1], in[0], a.dims[0], a.keepdim)
               : ts::min_out(outs[0], outs[1], in[0], a.dims[0], a.keepdim);
      });
  const SamplesFn base = e.samples;
  e.samples = [base](const SampleContext& ctx) {
    std::vector<Sample> v = base(ctx);
    // Integer samples and narrow floats hold ties: the derivative picks one of them.
    for (Sample& s : v) s.smooth = s.smooth && is_floating_type(ctx.dtype());
    return v;
  };
  return e;
}

// The variants the first entries leave out: other corrections and p, max/min, dtype=.
std::vector<OpEntry> more_entries() {
  const Range any{-4, 4};
  std::vector<OpEntry> v;
  // correction 0 (population statistics) and 2; args.reals = {correction}.
  for (const double c : {0.0, 2.0}) {
    const std::string suffix = c == 0 ? ".correction0" : ".correction2";
    for (const bool is_var : {true, false}) {
      OpEntry e = reduce(
          std::string(is_var ? "var" : "std") + suffix, Dims::List, any,
          [is_var, c](const In& in, const SampleArgs& a) {
            return In{is_var ? ts::var(in[0], a.dims, c, a.keepdim)
                             : ts::std(in[0], a.dims, c, a.keepdim)};
          },
          [is_var, c](const In& outs, const In& in, const SampleArgs& a) {
            is_var ? ts::var_out(outs[0], in[0], a.dims, c, a.keepdim)
                   : ts::std_out(outs[0], in[0], a.dims, c, a.keepdim);
          });
      e.op = is_var ? "var" : "std";
      v.push_back(std::move(e));
    }
  }
  // Every kind of p (Note [Norm of any p] in reference/reduce.cpp); norm (p = 2) is below.
  constexpr double kInf = std::numeric_limits<double>::infinity();
  for (const auto& [suffix, p] : std::vector<std::pair<std::string, double>>{{"p1", 1.0},
                                                                             {"inf", kInf},
                                                                             {"ninf", -kInf},
                                                                             {"p0", 0.0},
                                                                             {"p3", 3.0},
                                                                             {"p0.5", 0.5},
                                                                             {"p1.5", 1.5},
                                                                             {"pm1.5", -1.5}}) {
    OpEntry e = reduce(
        "norm." + suffix, Dims::List, any,
        [p = p](const In& in, const SampleArgs& a) {
          return In{ts::norm(in[0], p, a.dims, a.keepdim)};
        },
        [p = p](const In& outs, const In& in, const SampleArgs& a) {
          ts::norm_out(outs[0], in[0], p, a.dims, a.keepdim);
        });
    e.op = "norm";
    v.push_back(std::move(e));
  }
  v.push_back(max_min_entry(true));
  v.push_back(max_min_entry(false));
  for (const bool is_sum : {true, false}) {
    v.push_back(with_dtype(
        is_sum ? "sum.dtype" : "mean.dtype", Dims::List, any,
        [is_sum](const In& in, const SampleArgs& a) {
          return In{is_sum ? ts::sum(in[0], a.dims, a.keepdim, a.dtype)
                           : ts::mean(in[0], a.dims, a.keepdim, a.dtype)};
        },
        [is_sum](const In& outs, const In& in, const SampleArgs& a) {
          is_sum ? ts::sum_out(outs[0], in[0], a.dims, a.keepdim, a.dtype)
                 : ts::mean_out(outs[0], in[0], a.dims, a.keepdim, a.dtype);
        }));
  }
  // Near 1 for floats, {-1, 0, 1} for integers: products of thousands of terms stay finite.
  OpEntry prod = with_dtype(
      "prod.dtype", Dims::One, any,
      [](const In& in, const SampleArgs& a) {
        return In{a.dims.empty() ? ts::prod(in[0], a.dtype)
                                 : ts::prod(in[0], a.dims[0], a.keepdim, a.dtype)};
      },
      [](const In& outs, const In& in, const SampleArgs& a) {
        ts::prod_out(outs[0], in[0], a.dims[0], a.keepdim, a.dtype);
      });
  prod.samples = [](const SampleContext& ctx) {
    return dtype_samples(ctx, is_floating_type(ctx.dtype()) ? Range{0.95, 1.05} : Range{-1, 2},
                         Dims::One);
  };
  prod.skips["float64/edge_values_to_float64"] = prod.skips["float64/edge_values_to_float32"] =
      "see Note [prod of edge values]";
  v.push_back(std::move(prod));
  OpEntry cumsum = with_dtype(
      "cumsum.dtype", Dims::Scan, any,
      [](const In& in, const SampleArgs& a) { return In{ts::cumsum(in[0], a.dims[0], a.dtype)}; },
      [](const In& outs, const In& in, const SampleArgs& a) {
        ts::cumsum_out(outs[0], in[0], a.dims[0], a.dtype);
      });
  // cumsum_ with dtype= must equal self's dtype: the other samples check the refusal.
  cumsum.run_inplace = [](const Tensor& self, const In&, const SampleArgs& a) {
    return self.cumsum_(a.dims[0], a.dtype);
  };
  v.push_back(std::move(cumsum));
  return v;
}

// Note [Known answers] in catalog.h: sums, means, the sample variance, amax and cumsum by hand.
void add_known_answers(std::vector<OpEntry>& v) {
  const auto f32 = [](std::initializer_list<double> x) { return tensor(x, kFloat); };
  entry_named(v, "sum").known = {{kLong, [] {
                                    KernelSetGuard g("reference");
                                    return known_answer("known", {arange(101, kLong)},
                                                        {tensor({5050}, kLong).view({})});
                                  }}};
  entry_named(v, "mean").known = {
      {kFloat, [f32] {
         return known_answer("known", {f32({1, 2, 3, 4})}, {f32({2.5}).view({})});
       }}};
  entry_named(v, "var").known = {
      {kFloat, [f32] {
         return known_answer("known", {f32({1, 2, 3, 4})}, {f32({5.0 / 3.0}).view({})});
       }}};
  entry_named(v, "amax").known = {
      {kFloat, [f32] {
         SampleArgs a;
         a.dims = {1};
         return known_answer("known", {f32({1, 5, 3, 4}).view({2, 2})}, {f32({5, 4})}, a);
       }}};
  entry_named(v, "cumsum").known = {
      {kLong, [] {
         SampleArgs a;
         a.dims = {0};
         return known_answer("known", {tensor({1, 2, 3}, kLong)}, {tensor({1, 3, 6}, kLong)}, a);
       }}};
}

// The benchmark cases of a reduction (Note [Bytes and FLOPs]): `flops` per input element; an
// `index_out` op writes int64 indices (argmax: only those).
struct ReduceBench {
  const char* op;
  double flops;
  DTypeSet allowed;
  ScalarType fallback;
  Fill fill;
  bool index_out = false;
  bool stream = false;  // also over the STREAM probe's 128 M elements (full runs)
};

void reduce_cases(const OpEntry& e, CaseList& list, const ReduceBench& b) {
  const int64_t s = list.side();
  const bool arg = e.id == OpId::argmax || e.id == OpId::argmin;
  for (ScalarType t : list.dtypes(b.allowed, b.fallback)) {
    // A side x side matrix; with `stream`, float32 in full runs also 2^13 x 2^14 (the 128 M
    // elements of the STREAM probes: a DRAM-bound read to set against the read probe).
    std::vector<std::vector<int64_t>> shapes{{s, s}};
    if (b.stream && t == kFloat && list.stream_numel() > 0) {
      shapes.push_back({int64_t{1} << 13, list.stream_numel() >> 13});
    }
    for (const std::vector<int64_t>& sq : shapes) {
      for (int64_t dim : {1, 0, -1}) {
        const int64_t numel = sq[0] * sq[1], out_n = dim < 0 ? 1 : sq[1 - dim];
        SampleArgs args;
        // Every dim: none named, but logsumexp names them (PyTorch requires its dims).
        if (dim >= 0) args.dims = {dim};
        if (dim < 0 && e.id == OpId::logsumexp) args.dims = {0, 1};
        BenchCase c = make_case(
            "reduce", e.name, t, shape_str(sq), dim < 0 ? "all_dims" : "dim" + std::to_string(dim),
            nbytes(numel, t) + (b.index_out ? 8.0 * out_n : 0) + (arg ? 0 : nbytes(out_n, t)),
            b.flops * static_cast<double>(numel), {e.id});
        c.setup = [=, run = e.run, fill = b.fill](Device d) -> std::function<void()> {
          const std::vector<Tensor> x{make_input(sq, t, fill, d)};
          return [=] { (void)run(x, args); };
        };
        list.add(std::move(c));
      }
    }
  }
}

void add_bench(std::vector<OpEntry>& v) {
  const DTypeSet fl = DTypeSet::floating();
  const DTypeSet num = fl | DTypeSet::integral(false);
  const DTypeSet all = DTypeSet::all();
  const Fill N = Fill::Normal, P = Fill::Positive, M = Fill::Mask;
  const ReduceBench specs[] = {
      {"sum", 1, all, kFloat, N, false, true},
      {"mean", 1, fl, kFloat, N, false, true},
      {"prod", 1, num, kFloat, P},
      {"amax", 0, num, kFloat, N, false, true},
      {"amin", 0, num, kFloat, N},
      {"max", 0, num, kFloat, N, true},
      {"min", 0, num, kFloat, N, true},
      {"argmax", 0, num, kFloat, N, true},
      {"argmin", 0, num, kFloat, N, true},
      {"var", 3, fl, kFloat, N},
      {"std", 3, fl, kFloat, N},
      {"norm", 2, fl, kFloat, N},
      {"logsumexp", 3, fl, kFloat, N},
      {"all", 0, all, kBool, M},
      {"any", 0, all, kBool, M},
  };
  for (const ReduceBench& b : specs) {
    entry_named(v, b.op).bench = [b](const OpEntry& e, CaseList& list) {
      reduce_cases(e, list, b);
    };
  }
  // sum also over a long vector.
  entry_named(v, "sum").bench = [b = specs[0]](const OpEntry& e, CaseList& list) {
    reduce_cases(e, list, b);
    for (ScalarType t : list.dtypes(DTypeSet::all())) {
      const int64_t n = list.numel();
      BenchCase c = make_case("reduce", "sum", t, std::to_string(n), "all_dims",
                              nbytes(n, t) + nbytes(1, t), static_cast<double>(n), {OpId::sum});
      c.setup = [=](Device d) -> std::function<void()> {
        Tensor x = make_input({n}, t, d);
        return [=] { (void)sum(x); };
      };
      list.add(std::move(c));
    }
  };
  entry_named(v, "cumsum").bench = [num](const OpEntry&, CaseList& list) {
    const int64_t s = list.side();
    const std::vector<int64_t> sq{s, s};
    for (ScalarType t : list.dtypes(num)) {
      for (int64_t dim : {1, 0}) {
        BenchCase c = make_case("reduce", "cumsum", t, shape_str(sq), "dim" + std::to_string(dim),
                                2 * nbytes(s * s, t), static_cast<double>(s * s), {OpId::cumsum});
        c.setup = [=](Device d) -> std::function<void()> {
          Tensor x = make_input(sq, t, d), out = empty(sq, TensorOptions(t).device(d));
          return [=] { cumsum_out(out, x, dim); };
        };
        list.add(std::move(c));
      }
    }
  };
}

// The chance per element that makes half the reduced lines of x (dims; empty: all) hold one
// such element: 1 - 2^(-1/L) for lines of L elements.
double half_lines_chance(const Tensor& x, const std::vector<int64_t>& dims) {
  int64_t line = 1;
  for (int64_t d = 0; d < x.dim(); ++d) {
    const bool reduced = dims.empty() || std::find_if(dims.begin(), dims.end(), [&](int64_t r) {
                                           return (r < 0 ? r + x.dim() : r) == d;
                                         }) != dims.end();
    if (reduced) line *= x.size(d);
  }
  return 1 - std::pow(0.5, 1.0 / static_cast<double>(std::max<int64_t>(line, 1)));
}

}  // namespace

std::vector<OpEntry> reduce_entries() {
  const Range any{-4, 4}, near_one{0.95, 1.05};
  std::vector<OpEntry> v = {
      TS_LIST_ENTRY(sum, any),    TS_LIST_ENTRY(mean, any),      TS_LIST_ENTRY(amax, any),
      TS_LIST_ENTRY(amin, any),   TS_LIST_ENTRY(logsumexp, any), TS_ONE_DIM_ENTRY(all, any),
      TS_ONE_DIM_ENTRY(any, any),
  };
  // Products of thousands of terms stay finite near 1 (float) and in {-1, 0, 1} (integers).
  OpEntry prod_float = TS_ONE_DIM_ENTRY(prod, near_one);
  prod_float.dtypes = DTypeSet::floating();
  // Note [prod of edge values]
  // Row 0 holds 0 and +-DBL_MAX: in float64 the product overflows to inf in some evaluation
  // orders and inf * 0 is NaN, while the reference's left-to-right order gives 0. Order-dependent
  // (the optimized set gives NaN), not a kernel bug; narrower dtypes accumulate in double.
  prod_float.skips["float64/edge_values"] =
      "0 * (+-DBL_MAX products): NaN or 0 depending on the evaluation order";
  v.push_back(std::move(prod_float));
  OpEntry prod_int = TS_ONE_DIM_ENTRY(prod, Range({-1, 2}));
  prod_int.name = "prod.integral";
  prod_int.op = "prod";
  prod_int.dtypes = DTypeSet::integral(/*include_bool=*/true);
  v.push_back(std::move(prod_int));
  v.push_back(reduce(
      "var", Dims::List, any,
      [](const In& in, const SampleArgs& a) { return In{ts::var(in[0], a.dims, 1, a.keepdim)}; },
      [](const In& outs, const In& in, const SampleArgs& a) {
        ts::var_out(outs[0], in[0], a.dims, 1, a.keepdim);
      }));
  v.push_back(reduce(
      "std", Dims::List, any,
      [](const In& in, const SampleArgs& a) { return In{ts::std(in[0], a.dims, 1, a.keepdim)}; },
      [](const In& outs, const In& in, const SampleArgs& a) {
        ts::std_out(outs[0], in[0], a.dims, 1, a.keepdim);
      }));
  v.push_back(reduce(
      "norm", Dims::List, any,
      [](const In& in, const SampleArgs& a) { return In{ts::norm(in[0], 2, a.dims, a.keepdim)}; },
      [](const In& outs, const In& in, const SampleArgs& a) {
        ts::norm_out(outs[0], in[0], 2, a.dims, a.keepdim);
      }));
  for (const bool is_max : {true, false}) {
    v.push_back(reduce(
        is_max ? "argmax" : "argmin", Dims::One, any,
        [is_max](const In& in, const SampleArgs& a) {
          std::optional<int64_t> dim;
          if (!a.dims.empty()) dim = a.dims[0];
          return In{is_max ? ts::argmax(in[0], dim, a.keepdim) : ts::argmin(in[0], dim, a.keepdim)};
        },
        [is_max](const In& outs, const In& in, const SampleArgs& a) {
          is_max ? ts::argmax_out(outs[0], in[0], a.dims[0], a.keepdim)
                 : ts::argmin_out(outs[0], in[0], a.dims[0], a.keepdim);
        }));
  }
  v.push_back(reduce(
      "cumsum", Dims::Scan, any,
      [](const In& in, const SampleArgs& a) { return In{ts::cumsum(in[0], a.dims[0])}; },
      [](const In& outs, const In& in, const SampleArgs& a) {
        ts::cumsum_out(outs[0], in[0], a.dims[0]);
      }));
  v.back().run_inplace = [](const Tensor& self, const In&, const SampleArgs& a) {
    return self.cumsum_(a.dims[0]);
  };
  for (OpEntry& e : more_entries()) v.push_back(std::move(e));
  add_bench(v);
  for (OpEntry& e : v) {
    const std::string& op = e.op_name();
    if (op == "mean" || op == "var" || op == "std") e = with_shifted(std::move(e), {1000, 1001});
    if (op == "logsumexp") e = with_shifted(std::move(e), {80, 100});
    if (op == "norm") e = with_shifted(std::move(e), {200, 300});
  }
  // Note [Balanced outcomes] in binary.cpp: a p = 0 norm counts nonzeros, always all of random
  // floats: half its values are made 0. Integer products of thousands of {-1, 0, 1} are 0, and
  // a product of evens wraps to 0 once 2^bits divides it: integer factors are made odd. Bool
  // products are true only where a line holds no false: falses get half_lines_chance.
  // all() over rows of random nonzeros is always true, any() always true: all's samples get
  // sparse zeros, any's sparse nonzeros, each element with the chance 1 - 2^(-1/L) for lines of
  // L elements, so that half the lines hold one and the output varies.
  for (const bool is_all : {true, false}) {
    OpEntry& e = entry_named(v, is_all ? "all" : "any");
    const SamplesFn base = e.samples;
    e.samples = [base, is_all](const SampleContext& ctx) {
      std::vector<Sample> out = base(ctx);
      KernelSetGuard g("reference");
      for (Sample& s : out) {
        if (s.name == "edge_values" || s.inputs.empty()) continue;
        Tensor& x = s.inputs[0];
        const double p = half_lines_chance(x, s.args.dims);
        const Tensor u = SampleContext(is_all ? "all/sparse" : "any/sparse", kDouble)
                             .input(s.name, 0, x.sizes(), Range{0, 1});
        const Tensor nonzero = ones(x.sizes(), x.dtype());
        x = where(lt(u, p), is_all ? zeros(x.sizes(), x.dtype()) : nonzero,
                  is_all ? nonzero : zeros(x.sizes(), x.dtype()));
      }
      return out;
    };
  }
  for (OpEntry& e : v) {
    const bool count = e.name == "norm.p0";
    const bool product = e.op_name() == "prod";
    if (!count && !product) continue;
    const SamplesFn base = e.samples;
    e.samples = [base, count, name = e.name](const SampleContext& ctx) {
      std::vector<Sample> out = base(ctx);
      KernelSetGuard g("reference");
      for (Sample& s : out) {
        if (s.name.rfind("edge_values", 0) == 0 || s.inputs.empty()) continue;
        Tensor& x = s.inputs[0];
        if (count) {
          x = where(SampleContext(name + "/zeros", kBool).input(s.name, 0, x.sizes()), 0.0, x);
        } else if (x.dtype() == kBool) {
          const Tensor u =
              SampleContext(name + "/falses", kDouble).input(s.name, 0, x.sizes(), Range{0, 1});
          x = ge(u, half_lines_chance(x, s.args.dims));
        } else if (!is_floating_type(x.dtype())) {
          x = add(x, eq(remainder(x, 2), 0).to(x.dtype())).to(x.dtype());
        }
      }
      return out;
    };
  }
  for (OpEntry& e : v) {
    const std::string& op = e.op_name();
    e.accumulates = op != "amax" && op != "amin" && op != "argmax" && op != "argmin" &&
                    op != "all" && op != "any" && op != "max" && op != "min" &&
                    e.name != "norm.inf" && e.name != "norm.ninf";
    // Note [Constant rows]: an expanded input makes reduced rows constant, where std == 0 and
    // its gradient is 0/0; the convention (nondiff_points.def) gives 0 only when std is exactly
    // 0, and each set's rounding of the mean decides whether it is. Where it is not, the
    // gradient is (x - mean) / (n std) with both an ulp or so: O(1) at most (measured: 0.053
    // optimized, 0.28 aten); a larger error is a bug (Note [Narrow documented differences]).
    if (op == "std") {
      KnownDifference k{"",         "",
                        "",         "",
                        "expanded", "",
                        "backward", "std == 0 on constant rows: the gradient depends on rounding"};
      k.max_abs_err = 1;
      k.evidence = "touchstone conform --kernels optimized --ops std --case //expanded/backward";
      e.documented.push_back(k);
    }
  }
  add_known_answers(v);
  // Note [Constant by definition]: the count of nonzeros passes a zero gradient.
  entry_named(v, "norm.p0").constant_gradient = DTypeSet::all();
  return v;
}

}  // namespace ts::catalog
