// Catalog entries of the shape ops: flip, roll, tril, triu (kernels), trace, diag, repeat, tile,
// diff, kron, and baddbmm, addbmm, addmv (composites; family linalg, for their tolerances).
// Arguments: flip's dims and roll's dims in args.dims, roll's shifts in args.ints, tril/triu/diag's
// diagonal in args.ints[0], repeat's repeats and tile's dims in args.shape. Benchmark: each op on a
// square matrix (diag on a vector, repeat and tile twice each way).
#include <algorithm>
#include <limits>
#include <utility>

#include "catalog/bench.h"

namespace ts::catalog {
namespace {

using In = std::vector<Tensor>;
using Shape = std::vector<int64_t>;

struct ShapeCase {
  std::string name;
  Shape self = {};
  std::vector<int64_t> dims = {}, ints = {}, shape = {};
};

// One sample per case, then the edge values (1-D, or one row of a matrix when `matrix`).
std::vector<Sample> shape_samples(const SampleContext& ctx, const std::vector<ShapeCase>& cases,
                                  bool edges, const ShapeCase& edge_args = {},
                                  bool matrix = false) {
  std::vector<Sample> out;
  for (const ShapeCase& c : cases) {
    Sample s;
    s.name = c.name;
    s.inputs = {ctx.input(c.name, 0, c.self)};
    s.args.dims = c.dims;
    s.args.ints = c.ints;
    s.args.shape = c.shape;
    out.push_back(std::move(s));
  }
  if (edges && ctx.dtype() != kBool) {
    Sample s;
    s.name = "edge_values";
    s.smooth = false;
    const Tensor e = edge_values(ctx.dtype());
    s.inputs = {matrix ? e.reshape({1, -1}) : e};
    s.args.dims = edge_args.dims;
    s.args.ints = edge_args.ints;
    s.args.shape = edge_args.shape;
    out.push_back(std::move(s));
  }
  return out;
}

OpEntry entry(std::string name, SamplesFn samples, RunFn run) {
  return make_entry(std::move(name), "shape", std::move(samples), std::move(run));
}

OpEntry flip_entry() {
  OpEntry e = entry(
      "flip",
      [](const SampleContext& ctx) {
        return shape_samples(ctx,
                             {{"mat_d0", {5, 4}, {0}},
                              {"mat_both", {5, 4}, {0, 1}},
                              {"cube_neg", {2, 3, 5}, {-1, 0}},
                              {"cube_mid", {2, 3, 5}, {1}},
                              {"vec", {9}, {0}},
                              {"none", {3, 4}, {}},
                              {"scalar", {}, {0}},
                              {"empty", {0, 3}, {0}},
                              {"big", {37, 53}, {1}},
                              {"long_rows", {3, 2053}, {0, 1}}},
                             true, {"", {}, {0}});
      },
      [](const In& in, const SampleArgs& a) { return In{ts::flip(in[0], a.dims)}; });
  e.run_out = [](const In& outs, const In& in, const SampleArgs& a) {
    ts::flip_out(outs[0], in[0], a.dims);
  };
  return e;
}

OpEntry roll_entry() {
  OpEntry e = entry(
      "roll",
      [](const SampleContext& ctx) {
        return shape_samples(ctx,
                             {{"vec", {9}, {0}, {2}},
                              {"vec_neg", {9}, {0}, {-3}},
                              {"mat_d1", {5, 4}, {1}, {1}},
                              {"mat_both", {5, 4}, {0, 1}, {2, -1}},
                              {"flat", {3, 4}, {}, {5}},
                              {"flat_neg", {2, 3, 2}, {}, {-7}},
                              {"beyond_size", {5, 4}, {0}, {13}},
                              {"same_dim_twice", {6, 4}, {0, 0}, {1, 2}},
                              {"cube_last", {2, 3, 5}, {-1}, {1}},
                              {"zero_shift", {3, 4}, {1}, {0}},
                              {"scalar_flat", {}, {}, {3}},
                              {"empty", {0, 3}, {0}, {1}},
                              {"big", {37, 53}, {0, 1}, {10, -7}},
                              {"long_rows", {3, 2053}, {1}, {1000}}},
                             true, {"", {}, {0}, {3}});
      },
      [](const In& in, const SampleArgs& a) { return In{ts::roll(in[0], a.ints, a.dims)}; });
  e.run_out = [](const In& outs, const In& in, const SampleArgs& a) {
    ts::roll_out(outs[0], in[0], a.ints, a.dims);
  };
  return e;
}

std::vector<ShapeCase> tri_cases() {
  return {{"square", {5, 5}, {}, {0}},
          {"wide", {4, 7}, {}, {2}},
          {"tall", {7, 4}, {}, {-1}},
          {"batch", {3, 4, 5}, {}, {1}},
          {"batch_neg", {2, 2, 3, 4}, {}, {-2}},
          {"far_above", {4, 5}, {}, {10}},
          {"far_below", {4, 5}, {}, {-10}},
          {"empty", {0, 3}, {}, {0}},
          {"empty_batch", {0, 3, 3}, {}, {0}},
          {"big", {37, 53}, {}, {0}},
          {"long_rows", {3, 2053}, {}, {1000}}};
}

template <bool kLower>
OpEntry tri_entry(const char* name) {
  OpEntry e = entry(
      name,
      [](const SampleContext& ctx) {
        return shape_samples(ctx, tri_cases(), true, {"", {}, {}, {0}}, true);
      },
      [](const In& in, const SampleArgs& a) {
        return In{kLower ? ts::tril(in[0], a.ints[0]) : ts::triu(in[0], a.ints[0])};
      });
  e.run_out = [](const In& outs, const In& in, const SampleArgs& a) {
    kLower ? ts::tril_out(outs[0], in[0], a.ints[0]) : ts::triu_out(outs[0], in[0], a.ints[0]);
  };
  e.run_inplace = [](const Tensor& self, const In&, const SampleArgs& a) {
    return kLower ? self.tril_(a.ints[0]) : self.triu_(a.ints[0]);
  };
  return e;
}

// Note [trace dtypes] in lib/src/ops/shape.cpp: no bool, float16 or bfloat16, as ATen's CPU.
OpEntry trace_entry() {
  OpEntry e = entry(
      "trace",
      [](const SampleContext& ctx) {
        std::vector<Sample> v = shape_samples(ctx,
                                              {{"square", {5, 5}},
                                               {"wide", {3, 7}},
                                               {"tall", {6, 2}},
                                               {"one", {1, 1}},
                                               {"empty", {0, 3}},
                                               {"big", {37, 53}}},
                                              false);
        for (Sample& s : v) {
          s.summands = std::max<int64_t>(1, std::min(s.inputs[0].size(0), s.inputs[0].size(1)));
        }
        return v;
      },
      [](const In& in, const SampleArgs&) { return In{ts::trace(in[0])}; });
  e.dtypes = DTypeSet::all() - DTypeSet{kBool, kHalf, kBFloat16};
  e.accumulates = true;
  return e;
}

OpEntry diag_entry() {
  OpEntry e = entry(
      "diag",
      [](const SampleContext& ctx) {
        return shape_samples(ctx,
                             {{"vec", {5}, {}, {0}},
                              {"vec_above", {4}, {}, {2}},
                              {"vec_below", {3}, {}, {-1}},
                              {"vec_empty", {0}, {}, {1}},
                              {"mat", {5, 4}, {}, {0}},
                              {"mat_above", {5, 4}, {}, {1}},
                              {"mat_below", {5, 4}, {}, {-2}},
                              {"mat_beyond", {3, 4}, {}, {5}},
                              {"big", {37, 53}, {}, {3}}},
                             true, {"", {}, {}, {0}});
      },
      [](const In& in, const SampleArgs& a) { return In{ts::diag(in[0], a.ints[0])}; });
  e.run_out = [](const In& outs, const In& in, const SampleArgs& a) {
    ts::diag_out(outs[0], in[0], a.ints[0]);
  };
  return e;
}

std::vector<ShapeCase> repeat_cases() {
  return {{"vec", {3}, {}, {}, {2}},        {"vec_lead", {3}, {}, {}, {2, 2}},
          {"mat", {2, 3}, {}, {}, {2, 1}},  {"mat_lead", {2, 3}, {}, {}, {1, 2, 3}},
          {"zero", {2, 3}, {}, {}, {0, 2}}, {"scalar", {}, {}, {}, {2, 3}},
          {"scalar_none", {}, {}, {}, {}},  {"empty", {0, 3}, {}, {}, {2, 2}},
          {"big", {37, 53}, {}, {}, {2, 3}}};
}

OpEntry repeat_entry() {
  return entry(
      "repeat",
      [](const SampleContext& ctx) {
        return shape_samples(ctx, repeat_cases(), true, {"", {}, {}, {}, {2}});
      },
      [](const In& in, const SampleArgs& a) { return In{in[0].repeat(a.shape)}; });
}

OpEntry tile_entry() {
  return entry(
      "tile",
      [](const SampleContext& ctx) {
        std::vector<ShapeCase> cases = repeat_cases();
        cases.push_back({"mat_fewer", {2, 3}, {}, {}, {2}});
        cases.push_back({"cube_fewer", {2, 3, 4}, {}, {}, {2, 1}});
        return shape_samples(ctx, cases, true, {"", {}, {}, {}, {2}});
      },
      [](const In& in, const SampleArgs& a) { return In{ts::tile(in[0], a.shape)}; });
}

// diff(self, n = ints[0], dim = dims[0], prepend, append): ints[1] and ints[2] say whether
// prepend and append follow self among the inputs (else None).
OpEntry diff_entry() {
  OpEntry e = entry(
      "diff",
      [](const SampleContext& ctx) {
        struct Case {
          std::string name;
          Shape self;
          int64_t n, dim;
          Shape prepend = {}, append = {};
          bool with_prepend = false, with_append = false;
        };
        const std::vector<Case> cases = {
            {"vec", {9}, 1, 0},
            {"vec_n2", {9}, 2, -1},
            {"mat_d0", {5, 4}, 1, 0},
            {"mat_d1_n3", {5, 4}, 3, 1},
            {"n0", {5, 4}, 0, 1},
            {"n_beyond", {4}, 6, 0},
            {"prepend", {5, 4}, 1, 1, {5, 2}, {}, true, false},
            {"append", {5, 4}, 2, 0, {}, {1, 4}, false, true},
            {"both", {3, 4}, 1, -1, {3, 1}, {3, 3}, true, true},
            {"empty", {0, 3}, 1, 1},
            {"big", {37, 53}, 1, 1},
        };
        std::vector<Sample> out;
        for (const Case& c : cases) {
          Sample s;
          s.name = c.name;
          s.inputs = {ctx.input(c.name, 0, c.self)};
          if (c.with_prepend) s.inputs.push_back(ctx.input(c.name, 1, c.prepend));
          if (c.with_append) s.inputs.push_back(ctx.input(c.name, 2, c.append));
          s.args.ints = {c.n, c.with_prepend, c.with_append};
          s.args.dims = {c.dim};
          s.summands = 1 + c.n;
          out.push_back(std::move(s));
        }
        return out;
      },
      [](const In& in, const SampleArgs& a) {
        const Tensor prepend = a.ints[1] ? in[1] : Tensor();
        const Tensor append = a.ints[2] ? in[1 + a.ints[1]] : Tensor();
        return In{ts::diff(in[0], a.ints[0], a.dims[0], prepend, append)};
      });
  e.accumulates = true;
  return e;
}

OpEntry kron_entry() {
  return entry(
      "kron",
      [](const SampleContext& ctx) {
        struct Case {
          std::string name;
          Shape a, b;
        };
        const std::vector<Case> cases = {
            {"mats", {2, 3}, {3, 2}},        {"vecs", {3}, {4}},      {"mat_vec", {2, 3}, {4}},
            {"cube_mat", {2, 1, 3}, {2, 2}}, {"scalars", {}, {}},     {"scalar_mat", {}, {2, 3}},
            {"empty", {0, 2}, {3, 2}},       {"big", {7, 9}, {8, 7}},
        };
        std::vector<Sample> out;
        for (const Case& c : cases) {
          Sample s;
          s.name = c.name;
          s.inputs = {ctx.input(c.name, 0, c.a), ctx.input(c.name, 1, c.b)};
          out.push_back(std::move(s));
        }
        return out;
      },
      [](const In& in, const SampleArgs&) { return In{ts::kron(in[0], in[1])}; });
}

// baddbmm, addbmm, addmv: {self, a, b}; scalars = {beta, alpha} when given (beta 0 over a NaN
// self: Note [baddbmm's beta and alpha] in lib/src/ops/shape_linalg.cpp).
struct AddCase {
  std::string name;
  Shape self, a, b;
  int beta_alpha;  // 0: defaults, 1: beta and alpha given, 2: beta = 0
};

std::vector<Sample> add_samples(const SampleContext& ctx, const std::vector<AddCase>& cases,
                                bool batch_sum) {
  const bool floating = is_floating_type(ctx.dtype());
  const Range r{-2, 2};
  std::vector<Sample> out;
  for (const AddCase& c : cases) {
    Sample s;
    s.name = c.name;
    s.inputs = {ctx.input(c.name, 0, c.self, r), ctx.input(c.name, 1, c.a, r),
                ctx.input(c.name, 2, c.b, r)};
    if (c.beta_alpha == 1) {
      s.args.scalars =
          floating ? std::vector<Scalar>{0.5, -1.25} : std::vector<Scalar>{int64_t{2}, int64_t{-1}};
    } else if (c.beta_alpha == 2) {
      s.args.scalars = {int64_t{0}, int64_t{1}};
      if (floating) {
        KernelSetGuard g("reference");
        s.inputs[0] = full(c.self, std::numeric_limits<double>::quiet_NaN(), ctx.dtype());
        s.smooth = false;
      }
    }
    const int64_t k = c.a.back() * (batch_sum ? c.a.front() : 1);
    s.summands = std::max<int64_t>(1, k);
    out.push_back(std::move(s));
  }
  return out;
}

template <typename F>
OpEntry add_entry(const char* name, std::vector<AddCase> cases, bool batch_sum, F f) {
  OpEntry e = make_entry(
      name, "linalg",
      [cases, batch_sum](const SampleContext& ctx) { return add_samples(ctx, cases, batch_sum); },
      [f](const In& in, const SampleArgs& a) {
        return In{a.scalars.empty() ? f(in[0], in[1], in[2], 1, 1)
                                    : f(in[0], in[1], in[2], a.scalars[0], a.scalars[1])};
      });
  e.accumulates = true;
  return e;
}

std::vector<OpEntry> add_entries() {
  std::vector<OpEntry> v;
  v.push_back(add_entry("baddbmm",
                        {{"full", {2, 3, 5}, {2, 3, 4}, {2, 4, 5}, 0},
                         {"beta_alpha", {2, 3, 5}, {2, 3, 4}, {2, 4, 5}, 1},
                         {"bias_row", {5}, {2, 3, 4}, {2, 4, 5}, 1},
                         {"bias_0dim", {}, {2, 3, 4}, {2, 4, 5}, 0},
                         {"beta0", {2, 3, 5}, {2, 3, 4}, {2, 4, 5}, 2},
                         {"zero_k", {2, 3, 5}, {2, 3, 0}, {2, 0, 5}, 1},
                         {"empty_batch", {0, 3, 5}, {0, 3, 4}, {0, 4, 5}, 0},
                         {"big", {3, 33, 35}, {3, 33, 70}, {3, 70, 35}, 1}},
                        false, [](auto&&... a) { return ts::baddbmm(a...); }));
  v.push_back(add_entry("addbmm",
                        {{"full", {3, 5}, {2, 3, 4}, {2, 4, 5}, 0},
                         {"beta_alpha", {3, 5}, {2, 3, 4}, {2, 4, 5}, 1},
                         {"bias_col", {3, 1}, {2, 3, 4}, {2, 4, 5}, 0},
                         {"beta0", {3, 5}, {2, 3, 4}, {2, 4, 5}, 2},
                         {"no_batches", {3, 5}, {0, 3, 4}, {0, 4, 5}, 1},
                         {"big", {33, 35}, {3, 33, 70}, {3, 70, 35}, 1}},
                        true, [](auto&&... a) { return ts::addbmm(a...); }));
  v.push_back(add_entry("addmv",
                        {{"full", {3}, {3, 4}, {4}, 0},
                         {"beta_alpha", {3}, {3, 4}, {4}, 1},
                         {"bias_0dim", {}, {3, 4}, {4}, 1},
                         {"beta0", {3}, {3, 4}, {4}, 2},
                         {"zero_k", {3}, {3, 0}, {0}, 1},
                         {"big", {65}, {65, 130}, {130}, 1}},
                        false, [](auto&&... a) { return ts::addmv(a...); }));
  return v;
}

// ---- benchmark: a square matrix ----

BenchCase shape_case(const char* op, ScalarType t, const Shape& sizes, std::string layout,
                     double bytes, std::vector<OpId> ops) {
  return make_case("shape", op, t, shape_str(sizes), std::move(layout), bytes, 0, std::move(ops));
}

// `call(out, x)` on an s x s input into an s x s output: one read and one write of the matrix.
template <typename Call>
BenchFn square_bench(const char* op, std::string layout, OpId id, Call call) {
  return each_dtype(DTypeSet::all(), [=](CaseList& list, ScalarType t) {
    const int64_t s = list.side();
    const Shape sq{s, s};
    BenchCase c = shape_case(op, t, sq, layout, 2 * nbytes(s * s, t), {id});
    c.setup = [=](Device d) -> std::function<void()> {
      Tensor x = make_input(sq, t, Fill::SmallInt, d);
      Tensor o = empty(sq, TensorOptions(t).device(d));
      return [=] { call(o, x); };
    };
    list.add(std::move(c));
  });
}

void add_bench(std::vector<OpEntry>& v) {
  entry_named(v, "flip").bench =
      square_bench("flip", "dims01", OpId::flip, [](const Tensor& o, const Tensor& x) {
        const int64_t dims[] = {0, 1};
        flip_out(o, x, dims);
      });
  entry_named(v, "roll").bench =
      square_bench("roll", "dims01", OpId::roll, [](const Tensor& o, const Tensor& x) {
        const int64_t shifts[] = {x.size(0) / 3, x.size(1) / 5}, dims[] = {0, 1};
        roll_out(o, x, shifts, dims);
      });
  entry_named(v, "tril").bench = square_bench(
      "tril", "diag0", OpId::tril, [](const Tensor& o, const Tensor& x) { tril_out(o, x, 0); });
  entry_named(v, "triu").bench = square_bench(
      "triu", "diag0", OpId::triu, [](const Tensor& o, const Tensor& x) { triu_out(o, x, 0); });
  entry_named(v, "trace").bench = each_dtype(
      DTypeSet::floating() - DTypeSet{kHalf, kBFloat16}, [](CaseList& list, ScalarType t) {
        const int64_t s = list.side();
        BenchCase c = shape_case("trace", t, {s, s}, "contiguous", nbytes(s, t), {OpId::sum});
        c.setup = [=](Device d) -> std::function<void()> {
          Tensor x = make_input({s, s}, t, Fill::SmallInt, d);
          return [=] { (void)trace(x); };
        };
        list.add(std::move(c));
      });
  entry_named(v, "diag").bench = each_dtype(DTypeSet::all(), [](CaseList& list, ScalarType t) {
    const int64_t s = list.side();
    BenchCase c =
        shape_case("diag", t, {s}, "vector", nbytes(s * s, t), {OpId::fill_, OpId::copy_});
    c.setup = [=](Device d) -> std::function<void()> {
      Tensor x = make_input({s}, t, Fill::SmallInt, d);
      return [=] { (void)diag(x); };
    };
    list.add(std::move(c));
  });
  entry_named(v, "diff").bench = each_dtype(DTypeSet::all(), [](CaseList& list, ScalarType t) {
    const int64_t s = list.side();
    BenchCase c = shape_case("diff", t, {s, s}, "dim1", 2 * nbytes(s * s, t),
                             {t == kBool ? OpId::ne : OpId::sub});
    c.setup = [=](Device d) -> std::function<void()> {
      Tensor x = make_input({s, s}, t, Fill::SmallInt, d);
      return [=] { (void)diff(x, 1, 1); };
    };
    list.add(std::move(c));
  });
  entry_named(v, "kron").bench = each_dtype(DTypeSet::all(), [](CaseList& list, ScalarType t) {
    const int64_t s = list.side(), q = std::max<int64_t>(1, s / 16);
    BenchCase c = shape_case("kron", t, {s / q, q}, "blocks", 2 * nbytes(s * s, t), {OpId::mul});
    c.setup = [=](Device d) -> std::function<void()> {
      Tensor a = make_input({s / q, s / q}, t, Fill::SmallInt, d);
      Tensor b = make_input({q, q}, t, Fill::SmallInt, d);
      return [=] { (void)kron(a, b); };
    };
    list.add(std::move(c));
  });
  const DTypeSet fl{kFloat, kDouble};
  entry_named(v, "baddbmm").bench = each_dtype(fl, [](CaseList& list, ScalarType t) {
    const int64_t m = std::max<int64_t>(8, list.side() / 16);
    BenchCase c = make_case("linalg", "baddbmm", t, shape_str({8, m, m, m}), "beta1_alpha1",
                            4 * nbytes(8 * m * m, t), 2.0 * 8 * m * m * m, {OpId::bmm});
    c.setup = [=](Device d) -> std::function<void()> {
      Tensor s0 = make_input({8, m, m}, t, d), a = make_input({8, m, m}, t, d);
      Tensor b = make_input({8, m, m}, t, d);
      return [=] { (void)baddbmm(s0, a, b); };
    };
    list.add(std::move(c));
  });
  entry_named(v, "addbmm").bench = each_dtype(fl, [](CaseList& list, ScalarType t) {
    const int64_t m = std::max<int64_t>(8, list.side() / 16);
    BenchCase c = make_case("linalg", "addbmm", t, shape_str({8, m, m, m}), "beta1_alpha1",
                            3 * nbytes(8 * m * m, t), 2.0 * 8 * m * m * m, {OpId::addmm});
    c.setup = [=](Device d) -> std::function<void()> {
      Tensor s0 = make_input({m, m}, t, d), a = make_input({8, m, m}, t, d);
      Tensor b = make_input({8, m, m}, t, d);
      return [=] { (void)addbmm(s0, a, b); };
    };
    list.add(std::move(c));
  });
  entry_named(v, "addmv").bench = each_dtype(fl, [](CaseList& list, ScalarType t) {
    const int64_t n = list.side();
    BenchCase c = make_case("linalg", "addmv", t, shape_str({n, n}), "beta1_alpha1",
                            nbytes(n * n + 3 * n, t), 2.0 * n * n, {OpId::addmm});
    c.setup = [=](Device d) -> std::function<void()> {
      Tensor s0 = make_input({n}, t, d), a = make_input({n, n}, t, d), b = make_input({n}, t, d);
      return [=] { (void)addmv(s0, a, b); };
    };
    list.add(std::move(c));
  });
  for (const char* op : {"repeat", "tile"}) {
    const bool tile = std::string_view(op) == "tile";
    entry_named(v, op).bench =
        each_dtype(DTypeSet::all(), [op, tile](CaseList& list, ScalarType t) {
          const int64_t s = list.side();
          const Shape half{s / 2, s / 2};
          BenchCase c =
              shape_case(op, t, half, "twice_each_way", 1.25 * nbytes(s * s, t), {OpId::copy_});
          c.setup = [=](Device d) -> std::function<void()> {
            Tensor x = make_input(half, t, Fill::SmallInt, d);
            const int64_t reps[] = {2, 2};
            return [=] { (void)(tile ? ts::tile(x, reps) : x.repeat(reps)); };
          };
          list.add(std::move(c));
        });
  }
}

Tensor ints(std::vector<int64_t> v, Shape shape) {
  return tensor(ArrayRef<int64_t>(v)).view(shape);
}

}  // namespace

std::vector<OpEntry> shape_entries() {
  std::vector<OpEntry> v;
  v.push_back(flip_entry());
  v.push_back(roll_entry());
  v.push_back(tri_entry<true>("tril"));
  v.push_back(tri_entry<false>("triu"));
  v.push_back(trace_entry());
  v.push_back(diag_entry());
  v.push_back(repeat_entry());
  v.push_back(tile_entry());
  v.push_back(diff_entry());
  v.push_back(kron_entry());
  for (OpEntry& e : add_entries()) v.push_back(std::move(e));
  add_bench(v);
  // Note [Known answers] in catalog.h: worked by hand on [[1, 2, 3], [4, 5, 6]].
  // args: dims, ints, shape, as SampleArgs' fields of those names.
  const auto args = [](Shape dims, Shape ints, Shape shape) {
    SampleArgs a;
    a.dims = std::move(dims);
    a.ints = std::move(ints);
    a.shape = std::move(shape);
    return a;
  };
  const auto known = [](SampleArgs a, std::vector<int64_t> values, Shape shape) {
    return std::vector<KnownAnswer>{{kLong, [a, values, shape] {
                                       return known_answer("known",
                                                           {ints({1, 2, 3, 4, 5, 6}, {2, 3})},
                                                           {ints(values, shape)}, a);
                                     }}};
  };
  entry_named(v, "flip").known = known(args({1}, {}, {}), {3, 2, 1, 6, 5, 4}, {2, 3});
  entry_named(v, "roll").known = known(args({1}, {1}, {}), {3, 1, 2, 6, 4, 5}, {2, 3});
  entry_named(v, "tril").known = known(args({}, {0}, {}), {1, 0, 0, 4, 5, 0}, {2, 3});
  entry_named(v, "triu").known = known(args({}, {1}, {}), {0, 2, 3, 0, 0, 6}, {2, 3});
  entry_named(v, "trace").known = known(args({}, {}, {}), {6}, {});
  entry_named(v, "diag").known = known(args({}, {0}, {}), {1, 5}, {2});
  entry_named(v, "repeat").known =
      known(args({}, {}, {1, 2}), {1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6}, {2, 6});
  // diff of [[1, 2, 3], [4, 5, 6]] along dim 1: [[1, 1], [1, 1]]; kron with [[1, 2, 3], [4, 5,
  // 6]] by hand below.
  entry_named(v, "diff").known = {{kLong, [] {
                                     SampleArgs a;
                                     a.ints = {1, 0, 0};
                                     a.dims = {1};
                                     return known_answer("known",
                                                         {ints({1, 2, 3, 4, 5, 6}, {2, 3})},
                                                         {ints({1, 1, 1, 1}, {2, 2})}, a);
                                   }}};
  entry_named(v, "kron").known = {{kLong, [] {
                                     return known_answer(
                                         "known", {ints({1, 2}, {2}), ints({1, 10, 100}, {3})},
                                         {ints({1, 10, 100, 2, 20, 200}, {6})});
                                   }}};
  entry_named(v, "tile").known =
      known(args({}, {}, {2}), {1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6}, {2, 6});
  for (OpEntry& e : pad_entries()) v.push_back(std::move(e));  // catalog/pad.cpp
  return v;
}

}  // namespace ts::catalog
