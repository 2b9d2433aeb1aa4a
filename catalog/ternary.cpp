// Catalog entries of the ternary ops: where, lerp, addcmul, masked_fill. Conformance: three
// operands that broadcast against each other in every combination, 0-dim and empty operands,
// edge values. Benchmark: each op on contiguous vectors.
#include <limits>
#include <utility>

#include "catalog/bench.h"

namespace ts::catalog {
namespace {

using In = std::vector<Tensor>;
using Shape = std::vector<int64_t>;

struct Triple {
  std::string name;
  Shape a, b, c;
};

// Shapes of (first, second, third) operand: each one broadcasts in some sample.
const std::vector<Triple>& triples() {
  static const std::vector<Triple> all = {
      {"same", {3, 4}, {3, 4}, {3, 4}},
      {"cube", {2, 3, 5}, {2, 3, 5}, {2, 3, 5}},
      {"bcast_first", {1, 4}, {3, 4}, {3, 4}},
      {"bcast_second", {3, 4}, {3, 1}, {3, 4}},
      {"bcast_third", {3, 4}, {3, 4}, {4}},
      {"bcast_all", {4, 1, 1}, {1, 3, 1}, {5}},
      {"zero_dim_first", {}, {3, 4}, {3, 4}},
      {"zero_dim_rest", {3, 4}, {}, {}},
      {"all_zero_dim", {}, {}, {}},
      {"empty", {0}, {0}, {0}},
      {"empty_bcast", {2, 0, 3}, {3}, {1, 3}},
      {"big", {37, 53}, {37, 53}, {37, 53}},
      {"big_bcast", {37, 53}, {53}, {37, 1}},
  };
  return all;
}

// A bool tensor, about half true, drawn from `op`'s own stream (independent of the dtype).
Tensor mask(const std::string& op, const std::string& sample, int index, const Shape& shape) {
  return SampleContext(op + "/mask", kBool).input(sample, index, shape);
}

// The edge values against themselves: a column, a row and, for the third operand, `third`.
Sample edge_sample(const SampleContext& ctx, const Tensor& third) {
  KernelSetGuard g("reference");
  const Tensor e = edge_values(ctx.dtype());
  Sample s;
  s.name = "edge_values";
  s.smooth = false;
  s.inputs = {e.unsqueeze(1).contiguous(), e.unsqueeze(0).contiguous(), third};
  return s;
}

OpEntry entry(std::string name, SamplesFn samples, RunFn run) {
  return make_entry(std::move(name), "ternary", std::move(samples), std::move(run));
}

// where(condition, self, other): the condition is inputs[0].
OpEntry where_entry() {
  OpEntry e = entry(
      "where",
      [](const SampleContext& ctx) {
        std::vector<Sample> out;
        for (const Triple& t : triples()) {
          Sample s;
          s.name = t.name;
          s.inputs = {mask("where", t.name, 0, t.a), ctx.input(t.name, 1, t.b),
                      ctx.input(t.name, 2, t.c)};
          out.push_back(std::move(s));
        }
        if (is_floating_type(ctx.dtype())) {
          Sample s = edge_sample(ctx, Tensor());
          // Condition first: a [19, 19] mask, then the column and the row of edge values.
          const int64_t n = s.inputs[0].size(0);
          s.inputs = {mask("where", s.name, 0, {n, n}), s.inputs[0], s.inputs[1]};
          out.push_back(std::move(s));
        }
        {
          // Promotion: other is float64 (int64 for bool), the result has the common dtype.
          Sample s;
          s.name = "mixed_dtypes";
          const ScalarType other = ctx.dtype() == kBool ? kLong : kDouble;
          s.inputs = {mask("where", s.name, 0, {6, 7}), ctx.input(s.name, 1, {6, 7}),
                      SampleContext("where/mixed", other).input(s.name, 2, {7})};
          out.push_back(std::move(s));
        }
        // The Scalar overloads: args.scalar is self (ints = {1}) or other (ints = {2}).
        for (const int64_t position : {1, 2}) {
          Sample s;
          s.name = position == 1 ? "scalar_self" : "scalar_other";
          s.inputs = {mask("where", s.name, 0, {37, 53}), ctx.input(s.name, 1, {37, 53})};
          s.args.scalar = ctx.scalar();
          s.args.ints = {position};
          s.has_out = false;
          out.push_back(std::move(s));
        }
        return out;
      },
      [](const In& in, const SampleArgs& a) {
        if (!a.scalar) return In{ts::where(in[0], in[1], in[2])};
        return In{a.ints[0] == 1 ? ts::where(in[0], *a.scalar, in[1])
                                 : ts::where(in[0], in[1], *a.scalar)};
      });
  e.run_out = [](const In& outs, const In& in, const SampleArgs&) {
    ts::where_out(outs[0], in[0], in[1], in[2]);
  };
  return e;
}

// lerp(self, end, weight): a Tensor weight in [-0.5, 1.5) (both of ATen's formulas, see
// Note [lerp weights]), or a Scalar weight (args.scalar; no out= form).
// Note [lerp weights]
// ATen computes self + w * (end - self) for |w| < 0.5 and end - (end - self) * (1 - w) otherwise,
// so weights on both sides of 0.5 (and outside [0, 1]) exercise both branches.
OpEntry lerp_entry() {
  OpEntry e = entry(
      "lerp",
      [](const SampleContext& ctx) {
        std::vector<Sample> out;
        for (const Triple& t : triples()) {
          Sample s;
          s.name = t.name;
          s.inputs = {ctx.input(t.name, 0, t.a), ctx.input(t.name, 1, t.b),
                      ctx.input(t.name, 2, t.c, Range{-0.5, 1.5})};
          out.push_back(std::move(s));
        }
        out.push_back(edge_sample(ctx, ctx.input("edge_values", 2, {19, 1}, Range{-0.5, 1.5})));
        for (const double w : {0.25, 0.75, 1.5}) {
          Sample s;
          s.name = "scalar_weight_" + std::to_string(static_cast<int>(w * 100));
          s.inputs = {ctx.input(s.name, 0, {37, 53}), ctx.input(s.name, 1, {53})};
          s.args.scalar = w;
          s.has_out = false;
          out.push_back(std::move(s));
        }
        return out;
      },
      [](const In& in, const SampleArgs& a) {
        return In{a.scalar ? ts::lerp(in[0], in[1], *a.scalar) : ts::lerp(in[0], in[1], in[2])};
      });
  e.run_out = [](const In& outs, const In& in, const SampleArgs&) {
    ts::lerp_out(outs[0], in[0], in[1], in[2]);
  };
  e.run_inplace = [](const Tensor& self, const In& in, const SampleArgs& a) {
    return a.scalar ? self.lerp_(in[1], *a.scalar) : self.lerp_(in[1], in[2]);
  };
  e.dtypes = DTypeSet::floating();
  // Note [lerp overflow]
  // With start = -max and end = +max, end - start overflows float32, the opmath of float32 and
  // bfloat16 in the optimized set and in ATen (whose result is inf or NaN too), while the
  // reference computes in double and gets a finite value. The edge values hold that pair.
  for (const char* dt : {"float32", "bfloat16"}) {
    KnownDifference k{"",
                      "",
                      dt,
                      "edge_values",
                      "",
                      "",
                      "forward",
                      "end - start overflows the float32 opmath (as in ATen); the reference "
                      "computes in double"};
    k.evidence = "touchstone conform --kernels optimized --ops lerp --case edge_values";
    k.max_abs_err = std::numeric_limits<double>::infinity();  // inf or NaN for a finite value
    e.documented.push_back(k);
  }
  return e;
}

// addcmul(self, tensor1, tensor2, value=args.scalars[0]); integer dtypes take an integer value.
OpEntry addcmul_entry(std::string name, bool with_value) {
  OpEntry e = entry(
      std::move(name),
      [with_value](const SampleContext& ctx) {
        std::vector<Sample> out;
        const Scalar value = is_floating_type(ctx.dtype()) ? Scalar(-0.75) : Scalar(int64_t{-3});
        for (const Triple& t : triples()) {
          Sample s;
          s.name = t.name;
          s.inputs = {ctx.input(t.name, 0, t.a), ctx.input(t.name, 1, t.b),
                      ctx.input(t.name, 2, t.c)};
          if (with_value) s.args.scalars = {value};
          out.push_back(std::move(s));
        }
        if (is_floating_type(ctx.dtype())) {
          Sample s = edge_sample(ctx, ctx.input("edge_values", 2, {19, 1}));
          if (with_value) s.args.scalars = {value};
          out.push_back(std::move(s));
        }
        return out;
      },
      [](const In& in, const SampleArgs& a) {
        return In{a.scalars.empty() ? ts::addcmul(in[0], in[1], in[2])
                                    : ts::addcmul(in[0], in[1], in[2], a.scalars[0])};
      });
  e.op = "addcmul";
  e.run_out = [](const In& outs, const In& in, const SampleArgs& a) {
    a.scalars.empty() ? ts::addcmul_out(outs[0], in[0], in[1], in[2])
                      : ts::addcmul_out(outs[0], in[0], in[1], in[2], a.scalars[0]);
  };
  e.run_inplace = [](const Tensor& self, const In& in, const SampleArgs& a) {
    return a.scalars.empty() ? self.addcmul_(in[1], in[2])
                             : self.addcmul_(in[1], in[2], a.scalars[0]);
  };
  return e;
}

// masked_fill(self, mask, value=args.scalar): the mask broadcasts to self and self to the mask.
OpEntry masked_fill_entry() {
  OpEntry e = entry(
      "masked_fill",
      [](const SampleContext& ctx) {
        std::vector<Sample> out;
        for (const Triple& t : triples()) {
          Sample s;
          s.name = t.name;
          s.inputs = {ctx.input(t.name, 0, t.a), mask("masked_fill", t.name, 1, t.b)};
          s.args.scalar = ctx.scalar();
          out.push_back(std::move(s));
        }
        if (is_floating_type(ctx.dtype())) {
          // -inf, as attention masks use it; the edge values keep their NaNs where not masked.
          Sample s = edge_sample(ctx, Tensor());
          s.inputs = {s.inputs[0], mask("masked_fill", s.name, 1, {19, 19})};
          s.args.scalar = -std::numeric_limits<double>::infinity();
          out.push_back(std::move(s));
        }
        return out;
      },
      [](const In& in, const SampleArgs& a) {
        return In{ts::masked_fill(in[0], in[1], *a.scalar)};
      });
  e.run_inplace = [](const Tensor& self, const In& in, const SampleArgs& a) {
    return self.masked_fill_(in[1], *a.scalar);
  };
  return e;
}

// A benchmark case of `id` on vectors of the run's elementwise length.
BenchCase vector_case(OpId id, ScalarType t, const CaseList& list, double bytes, double flops) {
  return make_case("ternary", std::string(op_info(id).name), t, shape_str({list.numel()}),
                   "contiguous", bytes, flops, {id});
}

void add_bench(std::vector<OpEntry>& v) {
  entry_named(v, "where").bench = [](const OpEntry&, CaseList& list) {
    const int64_t n = list.numel();
    for (ScalarType t : list.dtypes(DTypeSet::all())) {
      // A bool condition, two inputs, one output.
      BenchCase c = vector_case(OpId::where, t, list, nbytes(n, kBool) + 3 * nbytes(n, t), 0);
      c.setup = [=](Device d) -> std::function<void()> {
        Tensor cond = make_input({n}, kBool, Fill::Mask, d);
        Tensor a = make_input({n}, t, Fill::SmallInt, d), b = make_input({n}, t, Fill::SmallInt, d);
        Tensor out = empty({n}, TensorOptions(t).device(d));
        return [=] { where_out(out, cond, a, b); };
      };
      list.add(std::move(c));
    }
  };
  entry_named(v, "lerp").bench = [](const OpEntry&, CaseList& list) {
    const int64_t n = list.numel();
    for (ScalarType t : list.dtypes(DTypeSet::floating())) {
      // self + weight * (end - self), a tensor weight.
      BenchCase c = vector_case(OpId::lerp, t, list, 4 * nbytes(n, t), 3.0 * n);
      c.setup = [=](Device d) -> std::function<void()> {
        Tensor a = make_input({n}, t, d), b = make_input({n}, t, d);
        Tensor w = make_input({n}, t, Fill::Unit, d), out = empty({n}, TensorOptions(t).device(d));
        return [=] { lerp_out(out, a, b, w); };
      };
      list.add(std::move(c));
    }
  };
  entry_named(v, "addcmul").bench = [](const OpEntry&, CaseList& list) {
    const int64_t n = list.numel();
    for (ScalarType t : list.dtypes(DTypeSet::floating() | DTypeSet::integral(false))) {
      // self + value * t1 * t2.
      BenchCase c = vector_case(OpId::addcmul, t, list, 4 * nbytes(n, t), 3.0 * n);
      c.setup = [=](Device d) -> std::function<void()> {
        Tensor a = make_input({n}, t, d), b = make_input({n}, t, d), c2 = make_input({n}, t, d);
        Tensor out = empty({n}, TensorOptions(t).device(d));
        return [=] { addcmul_out(out, a, b, c2, 0.5); };
      };
      list.add(std::move(c));
    }
  };
  entry_named(v, "masked_fill").bench = [](const OpEntry&, CaseList& list) {
    const int64_t n = list.numel();
    for (ScalarType t : list.dtypes(DTypeSet::all())) {
      // No out= form: the functional call, which allocates its result.
      BenchCase c = vector_case(OpId::masked_fill, t, list, nbytes(n, kBool) + 2 * nbytes(n, t), 0);
      c.setup = [=](Device d) -> std::function<void()> {
        Tensor a = make_input({n}, t, Fill::SmallInt, d);
        Tensor mask = make_input({n}, kBool, Fill::Mask, d);
        return [=] { (void)masked_fill(a, mask, 0); };
      };
      list.add(std::move(c));
    }
  };
}

}  // namespace

std::vector<OpEntry> ternary_entries() {
  std::vector<OpEntry> v;
  v.push_back(where_entry());
  v.push_back(lerp_entry());
  v.push_back(addcmul_entry("addcmul", false));
  v.push_back(addcmul_entry("addcmul.value", true));
  v.push_back(masked_fill_entry());
  add_bench(v);
  // Note [Known answers] in catalog.h.
  entry_named(v, "where").known = {
      {kFloat, [] {
         return known_answer("known", {tensor({true, false}), tensor({1., 2.}), tensor({3., 4.})},
                             {tensor({1., 4.})});
       }}};
  return v;
}

}  // namespace ts::catalog
