// Catalog entries of the indexing and joining ops: index_select, gather, scatter_add, cat, stack.
// Indices are valid int64 (or int32 for index_select) values drawn deterministically; they repeat,
// so scatter_add adds several sources into one element. Benchmark: index_select and gather with
// random int64 indices, scatter_add, cat and stack of four blocks.
#include <string_view>
#include <utility>

#include "catalog/bench.h"

namespace ts::catalog {
namespace {

using In = std::vector<Tensor>;
using Shape = std::vector<int64_t>;

OpEntry entry(std::string name, SamplesFn samples, RunFn run) {
  return make_entry(std::move(name), "index", std::move(samples), std::move(run));
}

// Indices in [0, size), from the op's own stream (independent of the dtype of the values).
Tensor indices(const std::string& op, const std::string& sample, const Shape& shape, int64_t size,
               ScalarType dtype = kLong) {
  const Tensor i = SampleContext(op + "/index", kLong)
                       .input(sample, 1, shape, Range{0, static_cast<double>(size)});
  KernelSetGuard g("reference");
  return dtype == kLong ? i : i.to(dtype);
}

int64_t size_at(const Shape& shape, int64_t dim) {
  if (shape.empty()) return 1;
  return shape[static_cast<size_t>(dim < 0 ? dim + static_cast<int64_t>(shape.size()) : dim)];
}

// ---- index_select(self, dim = args.dims[0], index) ----

OpEntry index_select_entry() {
  OpEntry e = entry(
      "index_select",
      [](const SampleContext& ctx) {
        struct Case {
          std::string name;
          Shape self;
          int64_t dim;
          Shape index;
          ScalarType index_dtype = kLong;
        };
        const std::vector<Case> cases = {
            {"mat_d0", {5, 4}, 0, {7}},     {"mat_d1", {5, 4}, 1, {3}},
            {"mat_neg", {5, 4}, -1, {6}},   {"cube_d1", {2, 3, 5}, 1, {4}},
            {"vec", {9}, 0, {12}},          {"scalar_self", {}, 0, {1}},
            {"index_0dim", {5, 4}, 0, {}},  {"empty_index", {5, 4}, 1, {0}},
            {"empty_self", {0, 4}, 1, {3}}, {"int32_index", {5, 4}, 0, {7}, kInt},
            {"big", {37, 53}, 1, {100}},
        };
        std::vector<Sample> out;
        for (const Case& c : cases) {
          Sample s;
          s.name = c.name;
          s.inputs = {ctx.input(c.name, 0, c.self), indices("index_select", c.name, c.index,
                                                            size_at(c.self, c.dim), c.index_dtype)};
          s.args.dims = {c.dim};
          out.push_back(std::move(s));
        }
        return out;
      },
      [](const In& in, const SampleArgs& a) {
        return In{ts::index_select(in[0], a.dims[0], in[1])};
      });
  e.run_out = [](const In& outs, const In& in, const SampleArgs& a) {
    ts::index_select_out(outs[0], in[0], a.dims[0], in[1]);
  };
  return e;
}

// ---- gather, scatter_add ----

// index has self's rank, index.size(d) <= self.size(d) for d != dim (and <= src.size(d) for
// scatter_add: src is `src` or, when empty, the index's shape).
struct ScatterCase {
  std::string name;
  Shape self;
  int64_t dim;
  Shape index, src;
};

const std::vector<ScatterCase>& scatter_cases() {
  static const std::vector<ScatterCase> all = {
      {"mat_d0", {4, 5}, 0, {6, 5}, {}},
      {"mat_d1", {4, 5}, 1, {4, 8}, {}},
      {"mat_neg", {4, 5}, -2, {3, 2}, {}},
      {"src_larger", {4, 5}, 1, {3, 4}, {5, 7}},
      {"cube_d1", {2, 3, 5}, 1, {2, 6, 4}, {}},
      {"cube_d2", {2, 3, 5}, 2, {2, 3, 9}, {}},
      {"scalar", {}, 0, {}, {}},
      {"empty_index", {4, 5}, 0, {0, 5}, {}},
      {"big", {37, 53}, 0, {200, 53}, {}},
      {"many_repeats", {3, 53}, 0, {500, 53}, {}},  // about 167 terms per element
  };
  return all;
}

OpEntry gather_entry() {
  OpEntry e = entry(
      "gather",
      [](const SampleContext& ctx) {
        std::vector<Sample> out;
        for (const ScatterCase& c : scatter_cases()) {
          Sample s;
          s.name = c.name;
          s.inputs = {ctx.input(c.name, 0, c.self),
                      indices("gather", c.name, c.index, size_at(c.self, c.dim))};
          s.args.dims = {c.dim};
          out.push_back(std::move(s));
        }
        return out;
      },
      [](const In& in, const SampleArgs& a) { return In{ts::gather(in[0], a.dims[0], in[1])}; });
  e.run_out = [](const In& outs, const In& in, const SampleArgs& a) {
    ts::gather_out(outs[0], in[0], a.dims[0], in[1]);
  };
  return e;
}

// inputs {self, index, src}. Note [scatter_add sums]: an element receives as many terms as its
// index value occurs along dim, in an order the kernel may choose: summands = index.size(dim) + 1.
OpEntry scatter_add_entry() {
  OpEntry e = entry(
      "scatter_add",
      [](const SampleContext& ctx) {
        std::vector<Sample> out;
        for (const ScatterCase& c : scatter_cases()) {
          Sample s;
          s.name = c.name;
          s.inputs = {ctx.input(c.name, 0, c.self),
                      indices("scatter_add", c.name, c.index, size_at(c.self, c.dim)),
                      ctx.input(c.name, 2, c.src.empty() ? c.index : c.src)};
          s.args.dims = {c.dim};
          s.summands = size_at(c.index, c.dim) + 1;
          out.push_back(std::move(s));
        }
        return out;
      },
      [](const In& in, const SampleArgs& a) {
        return In{ts::scatter_add(in[0], a.dims[0], in[1], in[2])};
      });
  e.run_out = [](const In& outs, const In& in, const SampleArgs& a) {
    ts::scatter_add_out(outs[0], in[0], a.dims[0], in[1], in[2]);
  };
  e.run_inplace = [](const Tensor& self, const In& in, const SampleArgs& a) {
    return self.scatter_add_(a.dims[0], in[1], in[2]);
  };
  e.accumulates = true;
  return e;
}

// ---- cat, stack: inputs = the tensors; dim = args.dims[0] ----

struct JoinCase {
  std::string name;
  std::vector<Shape> shapes;
  int64_t dim;
};

std::vector<Sample> join_samples(const SampleContext& ctx, const std::vector<JoinCase>& cases) {
  std::vector<Sample> out;
  for (const JoinCase& c : cases) {
    Sample s;
    s.name = c.name;
    for (size_t i = 0; i < c.shapes.size(); ++i) {
      s.inputs.push_back(ctx.input(c.name, static_cast<int>(i), c.shapes[i]));
    }
    s.args.dims = {c.dim};
    out.push_back(std::move(s));
  }
  return out;
}

OpEntry cat_entry() {
  OpEntry e = entry(
      "cat",
      [](const SampleContext& ctx) {
        std::vector<Sample> v = join_samples(ctx, {{"rows", {{2, 3}, {4, 3}, {1, 3}}, 0},
                                                   {"cols", {{3, 2}, {3, 5}}, 1},
                                                   {"cols_neg", {{3, 2}, {3, 5}, {3, 1}}, -1},
                                                   {"one", {{3, 4}}, 0},
                                                   {"vecs", {{7}, {1}, {9}}, 0},
                                                   {"cube_mid_neg", {{2, 1, 5}, {2, 3, 5}}, -2},
                                                   {"empty_among", {{2, 3}, {0, 3}, {1, 3}}, 0},
                                                   {"empty_cols", {{3, 0}, {3, 2}}, 1},
                                                   {"legacy_empty", {{2, 3}, {0}, {4, 3}}, 0},
                                                   {"all_empty", {{0, 3}, {0, 3}}, 0},
                                                   {"big", {{37, 53}, {37, 20}, {37, 1}}, 1}});
        // Promotion: a float64 tensor (int64 next to bool) among the case's dtype.
        Sample s;
        s.name = "mixed_dtypes";
        const ScalarType other = ctx.dtype() == kBool ? kLong : kDouble;
        s.inputs = {ctx.input(s.name, 0, {2, 3}),
                    SampleContext("cat/mixed", other).input(s.name, 1, {4, 3}),
                    ctx.input(s.name, 2, {1, 3})};
        s.args.dims = {0};
        v.push_back(std::move(s));
        return v;
      },
      [](const In& in, const SampleArgs& a) { return In{ts::cat(in, a.dims[0])}; });
  e.run_out = [](const In& outs, const In& in, const SampleArgs& a) {
    ts::cat_out(outs[0], in, a.dims[0]);
  };
  return e;
}

OpEntry stack_entry() {
  OpEntry e = entry(
      "stack",
      [](const SampleContext& ctx) {
        return join_samples(ctx, {{"mats_d0", {{3, 4}, {3, 4}, {3, 4}}, 0},
                                  {"mats_d1", {{3, 4}, {3, 4}}, 1},
                                  {"mats_last", {{3, 4}, {3, 4}}, 2},
                                  {"mats_neg", {{3, 4}, {3, 4}}, -1},
                                  {"scalars", {{}, {}, {}}, 0},
                                  {"one", {{2, 3, 5}}, -2},
                                  {"empty", {{0, 3}, {0, 3}}, 1},
                                  {"big", {{37, 53}, {37, 53}}, 0}});
      },
      [](const In& in, const SampleArgs& a) { return In{ts::stack(in, a.dims[0])}; });
  e.run_out = [](const In& outs, const In& in, const SampleArgs& a) {
    ts::stack_out(outs[0], in, a.dims[0]);
  };
  return e;
}

// ---- benchmark: a square matrix ----

BenchCase index_case(const char* op, ScalarType t, std::vector<int64_t> sizes, std::string layout,
                     double bytes, double flops, std::vector<OpId> ops) {
  return make_case("index", op, t, shape_str(sizes), std::move(layout), bytes, flops,
                   std::move(ops));
}

void add_bench(std::vector<OpEntry>& v) {
  const DTypeSet all = DTypeSet::all();
  const Fill I = Fill::SmallInt;
  // Rows picked at random: whole contiguous rows move.
  entry_named(v, "index_select").bench = each_dtype(all, [I](CaseList& list, ScalarType t) {
    const int64_t s = list.side();
    const std::vector<int64_t> sq{s, s};
    BenchCase c = index_case("index_select", t, sq, "dim0_rows", 2 * nbytes(s * s, t) + 8.0 * s, 0,
                             {OpId::index_select});
    c.setup = [=](Device d) -> std::function<void()> {
      Tensor x = make_input(sq, t, I, d), index = make_index({s}, s, d);
      Tensor o = empty(sq, TensorOptions(t).device(d));
      return [=] { index_select_out(o, x, 0, index); };
    };
    list.add(std::move(c));
  });
  // An int64 index per element.
  entry_named(v, "gather").bench = each_dtype(all, [I](CaseList& list, ScalarType t) {
    const int64_t s = list.side();
    const std::vector<int64_t> sq{s, s};
    BenchCase c =
        index_case("gather", t, sq, "dim1", 2 * nbytes(s * s, t) + 8.0 * s * s, 0, {OpId::gather});
    c.setup = [=](Device d) -> std::function<void()> {
      Tensor x = make_input(sq, t, I, d), index = make_index(sq, s, d);
      Tensor o = empty(sq, TensorOptions(t).device(d));
      return [=] { gather_out(o, x, 1, index); };
    };
    list.add(std::move(c));
  });
  // out = self; out[i][index[i][j]] += src[i][j]: self copied, src and index read.
  entry_named(v, "scatter_add").bench = each_dtype(
      DTypeSet::floating() | DTypeSet::integral(false), [I](CaseList& list, ScalarType t) {
        const int64_t s = list.side();
        const std::vector<int64_t> sq{s, s};
        BenchCase c = index_case("scatter_add", t, sq, "dim1", 3 * nbytes(s * s, t) + 8.0 * s * s,
                                 static_cast<double>(s * s), {OpId::scatter_add});
        c.setup = [=](Device d) -> std::function<void()> {
          Tensor x = make_input(sq, t, I, d), src = make_input(sq, t, I, d);
          Tensor index = make_index(sq, s, d), o = empty(sq, TensorOptions(t).device(d));
          return [=] { scatter_add_out(o, x, 1, index, src); };
        };
        list.add(std::move(c));
      });
  for (const char* op : {"cat", "stack"}) {
    const bool st = std::string_view(op) == "stack";
    entry_named(v, op).bench = each_dtype(all, [op, st, I](CaseList& list, ScalarType t) {
      const int64_t s = list.side();
      BenchCase c =
          index_case(op, t, {4, s / 2, s / 2}, "dim0", 2 * nbytes(s * s, t), 0, {OpId::cat});
      c.setup = [=](Device d) -> std::function<void()> {
        std::vector<Tensor> parts;
        for (int i = 0; i < 4; ++i) parts.push_back(make_input({s / 2, s / 2}, t, I, d));
        return [=] { (void)(st ? stack(parts, 0) : cat(parts, 0)); };
      };
      list.add(std::move(c));
    });
  }
}

}  // namespace

std::vector<OpEntry> index_entries() {
  std::vector<OpEntry> v;
  v.push_back(index_select_entry());
  v.push_back(gather_entry());
  v.push_back(scatter_add_entry());
  v.push_back(cat_entry());
  v.push_back(stack_entry());
  add_bench(v);
  // Note [Known answers] in catalog.h.
  entry_named(v, "gather").known = {
      {kLong, [] {
         SampleArgs a;
         a.dims = {1};
         return known_answer(
             "known",
             {tensor({1, 2, 3, 4}, kLong).view({2, 2}), tensor({0, 0, 1, 0}, kLong).view({2, 2})},
             {tensor({1, 1, 4, 3}, kLong).view({2, 2})}, a);
       }}};
  entry_named(v, "cat").known = {
      {kFloat, [] {
         SampleArgs a;
         a.dims = {0};
         return known_answer("known", {tensor({1., 2.}), tensor({3.})}, {tensor({1., 2., 3.})}, a);
       }}};
  return v;
}

}  // namespace ts::catalog
