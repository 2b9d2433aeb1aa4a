// Catalog entries of advanced indexing (issue 16): index, index_put, index_add, scatter (src,
// value, reduce), scatter_reduce (each reduction), masked_select, nonzero. Indices come from
// their own stream, valid and repeating (duplicates), some negative for index and index_put;
// masks are about half true. Benchmark: a 1M-element int64 index into 4M floats (index and
// index_put with accumulate), index_add, scatter, scatter_reduce, masked_select and nonzero of
// a square matrix.
#include <optional>
#include <string_view>
#include <utility>

#include "catalog/bench.h"

namespace ts::catalog {
namespace {

using In = std::vector<Tensor>;
using Shape = std::vector<int64_t>;
using List = std::vector<std::optional<Tensor>>;

OpEntry entry(std::string name, SamplesFn samples, RunFn run) {
  return make_entry(std::move(name), "advanced_index", std::move(samples), std::move(run));
}

// Indices in [0, size) (negative: [-size, 0)), from the op's own stream.
Tensor indices(const std::string& op, const std::string& sample, int k, const Shape& shape,
               int64_t size, bool negative = false, ScalarType dtype = kLong) {
  const Tensor i = SampleContext(op + "/index", kLong)
                       .input(sample, k, shape, Range{0, static_cast<double>(size)});
  KernelSetGuard g("reference");
  const Tensor v = negative ? i - size : i;
  return dtype == kLong ? v : v.to(dtype);
}

// A bool mask, about half true.
Tensor mask(const std::string& op, const std::string& sample, int k, const Shape& shape) {
  const Tensor x = SampleContext(op + "/mask", kFloat).input(sample, k, shape, Range{-1, 1});
  KernelSetGuard g("reference");
  return gt(x, 0);
}

// index / index_put's list: args.ints says, per entry, whether it is a tensor (the next input
// from `first` on) or None.
List index_list(const In& in, const SampleArgs& a, size_t first) {
  List l;
  size_t k = first;
  for (int64_t present : a.ints) {
    l.push_back(present != 0 ? std::optional<Tensor>(in[k++]) : std::nullopt);
  }
  return l;
}

// One index-list case: self's shape and the list (nullopt: None), given as tensors built by
// the sample, with the result's shape known for index_put's values.
struct ListCase {
  std::string name;
  Shape self;
  std::vector<std::optional<Tensor>> list;
  Shape result;
  int64_t summands = 1;  // index_put with accumulate: the most terms one element may receive
};

std::vector<ListCase> list_cases(const std::string& op, bool unique) {
  auto idx = [&](const std::string& s, int k, const Shape& shape, int64_t size, bool neg = false,
                 ScalarType t = kLong) { return indices(op, s, k, shape, size, neg, t); };
  auto lit = [](std::initializer_list<int64_t> v) { return tensor(v, kLong); };
  KernelSetGuard g("reference");
  std::vector<ListCase> c;
  if (unique) {  // index_put without accumulate: the last value written would depend on order
    c.push_back({"rows", {5, 4}, {lit({3, 0, 4})}, {3, 4}});
    c.push_back({"cols_neg", {5, 4}, {std::nullopt, lit({-1, 0})}, {5, 2}});
    c.push_back({"pairs", {4, 5, 6}, {std::nullopt, lit({0, 2, 4}), lit({5, -6, 1})}, {4, 3}});
    c.push_back({"separated", {4, 5, 6}, {lit({1, 3}), std::nullopt, lit({0, 5})}, {2, 5}});
    c.push_back(
        {"broadcast", {5, 4}, {lit({0, 3}).view({2, 1}), lit({1, 2, 3}).view({1, 3})}, {2, 3}});
  } else {
    c.push_back({"rows", {5, 4}, {idx("rows", 1, {7}, 5)}, {7, 4}, 8});
    c.push_back({"rows_neg", {5, 4}, {idx("rows_neg", 1, {6}, 5, true)}, {6, 4}, 7});
    c.push_back({"cols", {5, 4}, {std::nullopt, idx("cols", 1, {3}, 4)}, {5, 3}, 4});
    c.push_back({"pairs",
                 {4, 5, 6},
                 {std::nullopt, idx("pairs", 1, {2, 3}, 5), idx("pairs", 2, {3}, 6)},
                 {4, 2, 3},
                 7});
    c.push_back({"separated",
                 {4, 5, 6},
                 {idx("separated", 1, {3}, 4), std::nullopt, idx("separated", 2, {3}, 6, true)},
                 {3, 5},
                 4});
    c.push_back({"scalar_index", {5, 4}, {idx("scalar_index", 1, {}, 5)}, {4}, 2});
    c.push_back({"int32", {5, 4}, {idx("int32", 1, {6}, 5, false, kInt)}, {6, 4}, 7});
    c.push_back({"empty_index", {5, 4}, {idx("empty_index", 1, {0}, 5)}, {0, 4}, 1});
    c.push_back({"big", {300, 40}, {idx("big", 1, {1000}, 300)}, {1000, 40}, 1001});
  }
  // Masks: the selected elements in row-major order.
  const Tensor m = mask(op, "mask", 1, {4, 5});
  const Tensor mr = mask(op, "mask_rows", 1, {4});
  const int64_t n = m.sum().item<int64_t>(), nr = mr.sum().item<int64_t>();
  c.push_back({"mask", {4, 5}, {m}, {n}});
  c.push_back({"mask_rows",
               {4, 5, 3},
               {std::nullopt, std::optional<Tensor>(mask(op, "mask_cols", 1, {5}))},
               {4, mask(op, "mask_cols", 1, {5}).sum().item<int64_t>(), 3}});
  c.push_back({"mask_first", {4, 3}, {mr}, {nr, 3}});
  return c;
}

// Inputs {self, [values,] the defined indices}; args.ints marks the list's entries.
std::vector<Sample> list_samples(const SampleContext& ctx, const std::string& op, bool values,
                                 bool accumulate) {
  std::vector<Sample> out;
  for (const ListCase& c : list_cases(op, values && !accumulate)) {
    Sample s;
    s.name = c.name;
    s.inputs = {ctx.input(c.name, 0, c.self)};
    if (values) s.inputs.push_back(ctx.input(c.name, 9, c.result));
    for (const std::optional<Tensor>& t : c.list) {
      s.args.ints.push_back(t.has_value() ? 1 : 0);
      if (t.has_value()) s.inputs.push_back(*t);
    }
    s.args.flag = accumulate;
    if (accumulate) s.summands = c.summands;
    out.push_back(std::move(s));
  }
  if (values) {  // values broadcast to the indexed shape: one row, and one 0-dim value
    Sample s;
    s.name = "values_broadcast";
    s.inputs = {ctx.input(s.name, 0, {5, 4}), ctx.input(s.name, 9, {4}), tensor({4, 1, 3}, kLong)};
    s.args.ints = {1};
    s.args.flag = accumulate;
    out.push_back(s);
    s.name = "values_0dim";
    s.inputs[1] = ctx.input(s.name, 9, {});
    out.push_back(std::move(s));
  }
  return out;
}

OpEntry index_entry() {
  OpEntry e = entry(
      "index", [](const SampleContext& ctx) { return list_samples(ctx, "index", false, false); },
      [](const In& in, const SampleArgs& a) { return In{ts::index(in[0], index_list(in, a, 1))}; });
  e.run_out = [](const In& outs, const In& in, const SampleArgs& a) {
    ts::index_out(outs[0], in[0], index_list(in, a, 1));
  };
  return e;
}

// index_put (accumulate = args.flag): "index_put" with accumulate, "index_put.assign" without.
OpEntry index_put_entry(const std::string& name, bool accumulate) {
  OpEntry e = entry(
      name,
      [accumulate](const SampleContext& ctx) {
        return list_samples(ctx, "index_put", true, accumulate);
      },
      [](const In& in, const SampleArgs& a) {
        return In{ts::index_put(in[0], index_list(in, a, 2), in[1], a.flag)};
      });
  e.op = "index_put";
  e.run_out = [](const In& outs, const In& in, const SampleArgs& a) {
    ts::index_put_out(outs[0], in[0], index_list(in, a, 2), in[1], a.flag);
  };
  e.run_inplace = [](const Tensor& self, const In& in, const SampleArgs& a) {
    return self.index_put_(index_list(in, a, 2), in[1], a.flag);
  };
  e.accumulates = accumulate;
  return e;
}

// ---- index_add(self, dim = args.dims[0], index, source, alpha = args.scalars[0]) ----

Scalar alpha_for(ScalarType t) {
  if (t == kBool) return true;
  return is_floating_type(t) ? Scalar(2.5) : Scalar(int64_t{-2});
}

OpEntry index_add_entry() {
  OpEntry e = entry(
      "index_add",
      [](const SampleContext& ctx) {
        struct Case {
          std::string name;
          Shape self;
          int64_t dim;
          Shape index, source;
          ScalarType index_dtype = kLong;
        };
        const std::vector<Case> cases = {
            {"mat_d0", {5, 4}, 0, {7}, {7, 4}},
            {"mat_d1", {5, 4}, 1, {3}, {5, 3}},
            {"mat_neg", {5, 4}, -1, {6}, {5, 6}},
            {"cube_d1", {2, 3, 5}, 1, {4}, {2, 4, 5}},
            {"scalar", {}, 0, {1}, {}},
            {"index_0dim", {5, 4}, 0, {}, {1, 4}},
            {"empty_index", {5, 4}, 1, {0}, {5, 0}},
            {"int32_index", {5, 4}, 0, {7}, {7, 4}, kInt},
            {"big", {37, 53}, 0, {200}, {200, 53}},
        };
        std::vector<Sample> out;
        for (const Case& c : cases) {
          Sample s;
          s.name = c.name;
          const int64_t d = c.dim < 0 ? c.dim + static_cast<int64_t>(c.self.size()) : c.dim;
          const int64_t size = c.self.empty() ? 1 : c.self[static_cast<size_t>(d)];
          const int64_t n = c.index.empty() ? 1 : c.index[0];
          s.inputs = {ctx.input(c.name, 0, c.self),
                      indices("index_add", c.name, 1, c.index, size, false, c.index_dtype),
                      ctx.input(c.name, 2, c.source)};
          s.args.dims = {c.dim};
          s.args.scalars = {alpha_for(ctx.dtype())};
          s.summands = n + 1;
          out.push_back(std::move(s));
        }
        return out;
      },
      [](const In& in, const SampleArgs& a) {
        return In{ts::index_add(in[0], a.dims[0], in[1], in[2], a.scalars[0])};
      });
  e.run_out = [](const In& outs, const In& in, const SampleArgs& a) {
    ts::index_add_out(outs[0], in[0], a.dims[0], in[1], in[2], a.scalars[0]);
  };
  e.run_inplace = [](const Tensor& self, const In& in, const SampleArgs& a) {
    return self.index_add_(a.dims[0], in[1], in[2], a.scalars[0]);
  };
  e.accumulates = true;
  return e;
}

// ---- scatter, scatter_reduce: inputs {self, index[, src]}, dim = args.dims[0] ----

struct ScatterCase {
  std::string name;
  Shape self;
  int64_t dim;
  Shape index, src;  // src empty: the index's shape
};

// Few repeats per element (products and their gradients stay in range).
const std::vector<ScatterCase>& scatter_cases() {
  static const std::vector<ScatterCase> all = {
      {"mat_d0", {4, 5}, 0, {6, 5}, {}},        {"mat_d1", {4, 5}, 1, {4, 7}, {}},
      {"mat_neg", {4, 5}, -2, {3, 2}, {}},      {"src_larger", {4, 5}, 1, {3, 4}, {5, 7}},
      {"cube_d2", {2, 3, 5}, 2, {2, 3, 6}, {}}, {"scalar", {}, 0, {}, {}},
      {"empty_index", {4, 5}, 0, {0, 5}, {}},   {"big", {37, 53}, 0, {60, 53}, {}},
  };
  return all;
}

std::vector<Sample> scatter_samples(const SampleContext& ctx, const std::string& op, bool src,
                                    bool include_self, bool larger_src = true) {
  std::vector<Sample> out;
  for (const ScatterCase& c : scatter_cases()) {
    if (!larger_src && !c.src.empty()) continue;
    Sample s;
    s.name = include_self ? c.name : c.name + "_noself";
    const int64_t d = c.dim < 0 ? c.dim + static_cast<int64_t>(c.self.size()) : c.dim;
    const int64_t size = c.self.empty() ? 1 : c.self[static_cast<size_t>(d)];
    s.inputs = {ctx.input(c.name, 0, c.self), indices(op, c.name, 1, c.index, size)};
    if (src) s.inputs.push_back(ctx.input(c.name, 2, c.src.empty() ? c.index : c.src));
    s.args.dims = {c.dim};
    s.args.flag = include_self;
    s.summands = (c.index.empty() ? 1 : c.index[static_cast<size_t>(d)]) + 1;
    out.push_back(std::move(s));
  }
  return out;
}

// Note [scatter with repeated indices]
// Where an index repeats along dim, the last src value written wins, yet derivatives.yaml's src
// gradient (grad.gather(dim, index)) gives every repeat the gradient: ATen's formula is only a
// true derivative for unique indices. Random samples repeat, so they are not smooth (their
// gradients are compared with the reference's, not gradchecked); "unique" is gradchecked.
OpEntry scatter_entry() {
  OpEntry e = entry(
      "scatter",
      [](const SampleContext& ctx) {
        std::vector<Sample> v = scatter_samples(ctx, "scatter", true, true);
        for (Sample& s : v) s.smooth = false;
        Sample u;
        u.name = "unique";
        KernelSetGuard g("reference");
        u.inputs = {ctx.input("unique", 0, {4, 5}),
                    tensor({0, 1, 2, 3, 0, 1, 2, 3, 0, 2}, kLong).view({2, 5}),
                    ctx.input("unique", 2, {2, 5})};
        u.args.dims = {0};
        u.args.flag = true;
        v.push_back(std::move(u));
        return v;
      },
      [](const In& in, const SampleArgs& a) {
        return In{ts::scatter(in[0], a.dims[0], in[1], in[2])};
      });
  e.run_out = [](const In& outs, const In& in, const SampleArgs& a) {
    ts::scatter_out(outs[0], in[0], a.dims[0], in[1], in[2]);
  };
  e.run_inplace = [](const Tensor& self, const In& in, const SampleArgs& a) {
    return self.scatter_(a.dims[0], in[1], in[2]);
  };
  return e;
}

Scalar value_for(ScalarType t) {
  if (t == kBool) return true;
  return is_floating_type(t) ? Scalar(-1.5) : Scalar(int64_t{3});
}

// scatter.value: value = args.scalars[0].
OpEntry scatter_value_entry() {
  OpEntry e = entry(
      "scatter.value",
      [](const SampleContext& ctx) {
        std::vector<Sample> v = scatter_samples(ctx, "scatter", false, true);
        for (Sample& s : v) s.args.scalars = {value_for(ctx.dtype())};
        return v;
      },
      [](const In& in, const SampleArgs& a) {
        return In{ts::scatter(in[0], a.dims[0], in[1], a.scalars[0])};
      });
  e.op = "scatter";
  e.run_out = [](const In& outs, const In& in, const SampleArgs& a) {
    ts::scatter_out(outs[0], in[0], a.dims[0], in[1], a.scalars[0]);
  };
  e.run_inplace = [](const Tensor& self, const In& in, const SampleArgs& a) {
    return self.scatter_(a.dims[0], in[1], a.scalars[0]);
  };
  return e;
}

// scatter.reduce: reduce "add" or "multiply" (args.flag: multiply); no derivative in ATen.
OpEntry scatter_reduce_arg_entry(const std::string& name, bool multiply) {
  OpEntry e = entry(
      name,
      [multiply](const SampleContext& ctx) {
        std::vector<Sample> v = scatter_samples(ctx, "scatter", true, true);
        for (Sample& s : v) s.args.flag = multiply;
        return v;
      },
      [](const In& in, const SampleArgs& a) {
        return In{ts::scatter(in[0], a.dims[0], in[1], in[2], a.flag ? "multiply" : "add")};
      });
  e.op = "scatter";
  e.run_out = [](const In& outs, const In& in, const SampleArgs& a) {
    ts::scatter_out(outs[0], in[0], a.dims[0], in[1], in[2], a.flag ? "multiply" : "add");
  };
  e.run_inplace = [](const Tensor& self, const In& in, const SampleArgs& a) {
    return self.scatter_(a.dims[0], in[1], in[2], a.flag ? "multiply" : "add");
  };
  e.accumulates = true;
  e.grad = false;
  return e;
}

// scatter_reduce with `reduce`; samples with include_self (args.flag) true and false.
OpEntry scatter_reduce_entry(const std::string& reduce) {
  const std::string name = reduce == "sum" ? "scatter_reduce" : "scatter_reduce." + reduce;
  OpEntry e = entry(
      name,
      [](const SampleContext& ctx) {
        std::vector<Sample> v = scatter_samples(ctx, "scatter_reduce", true, true, false);
        for (Sample& s : scatter_samples(ctx, "scatter_reduce", true, false, false)) {
          v.push_back(std::move(s));
        }
        return v;
      },
      [reduce](const In& in, const SampleArgs& a) {
        return In{ts::scatter_reduce(in[0], a.dims[0], in[1], in[2], reduce, a.flag)};
      });
  e.op = "scatter_reduce";
  e.run_out = [reduce](const In& outs, const In& in, const SampleArgs& a) {
    ts::scatter_reduce_out(outs[0], in[0], a.dims[0], in[1], in[2], reduce, a.flag);
  };
  e.run_inplace = [reduce](const Tensor& self, const In& in, const SampleArgs& a) {
    return self.scatter_reduce_(a.dims[0], in[1], in[2], reduce, a.flag);
  };
  e.accumulates = reduce == "sum" || reduce == "mean" || reduce == "prod";
  return e;
}

// ---- masked_select(self, mask), nonzero(self) ----

OpEntry masked_select_entry() {
  OpEntry e = entry(
      "masked_select",
      [](const SampleContext& ctx) {
        struct Case {
          std::string name;
          Shape self, mask;
        };
        const std::vector<Case> cases = {
            {"mat", {4, 5}, {4, 5}},         {"mask_broadcast", {4, 5}, {5}},
            {"self_broadcast", {5}, {3, 5}}, {"scalar", {}, {}},
            {"empty", {0, 3}, {0, 3}},       {"big", {37, 53}, {37, 53}},
        };
        std::vector<Sample> out;
        for (const Case& c : cases) {
          Sample s;
          s.name = c.name;
          s.inputs = {ctx.input(c.name, 0, c.self), mask("masked_select", c.name, 1, c.mask)};
          out.push_back(std::move(s));
        }
        return out;
      },
      [](const In& in, const SampleArgs&) { return In{ts::masked_select(in[0], in[1])}; });
  e.run_out = [](const In& outs, const In& in, const SampleArgs&) {
    ts::masked_select_out(outs[0], in[0], in[1]);
  };
  return e;
}

OpEntry nonzero_entry() {
  OpEntry e = entry(
      "nonzero",
      [](const SampleContext& ctx) {
        std::vector<Sample> out;
        for (const auto& [name, shape] :
             std::vector<std::pair<std::string, Shape>>{{"vec", {9}},
                                                        {"mat", {4, 5}},
                                                        {"cube", {2, 3, 4}},
                                                        {"scalar", {}},
                                                        {"empty", {0, 3}},
                                                        {"big", {37, 53}}}) {
          Sample s;
          s.name = name;
          const Tensor x = ctx.input(name, 0, shape);
          const Tensor m = mask("nonzero", name, 1, shape);
          KernelSetGuard g("reference");
          s.inputs = {mul(x, m).to(ctx.dtype())};  // about half zeros
          out.push_back(std::move(s));
        }
        if (is_floating_type(ctx.dtype())) {  // NaN and inf count, -0 does not
          Sample s;
          s.name = "edge";
          s.inputs = {edge_values(ctx.dtype())};
          out.push_back(std::move(s));
        }
        return out;
      },
      [](const In& in, const SampleArgs&) { return In{ts::nonzero(in[0])}; });
  e.run_out = [](const In& outs, const In& in, const SampleArgs&) {
    ts::nonzero_out(outs[0], in[0]);
  };
  return e;
}

// ---- benchmark ----

BenchCase case_of(const char* op, ScalarType t, std::vector<int64_t> sizes, std::string layout,
                  double bytes, double flops, std::vector<OpId> ops) {
  return make_case("advanced_index", op, t, shape_str(sizes), std::move(layout), bytes, flops,
                   std::move(ops));
}

void add_bench(std::vector<OpEntry>& v) {
  const DTypeSet fl = DTypeSet::floating();
  constexpr int64_t kSelf = int64_t{1} << 22, kIdx = int64_t{1} << 20;
  // x[idx]: a 1M-element int64 index into 4M elements.
  entry_named(v, "index").bench = each_dtype(fl, [](CaseList& list, ScalarType t) {
    BenchCase c =
        case_of("index", t, {kSelf}, "idx1M", 2 * nbytes(kIdx, t) + 8.0 * kIdx, 0, {OpId::index});
    c.setup = [=](Device d) -> std::function<void()> {
      Tensor x = make_input({kSelf}, t, Fill::Normal, d), i = make_index({kIdx}, kSelf, d);
      Tensor o = empty({kIdx}, TensorOptions(t).device(d));
      return [=] { index_out(o, x, {i}); };
    };
    list.add(std::move(c));
  });
  // x.index_put_({idx}, values, accumulate=true): 1M values added into 4M elements.
  entry_named(v, "index_put").bench = each_dtype(fl, [](CaseList& list, ScalarType t) {
    BenchCase c =
        case_of("index_put", t, {kSelf}, "idx1M_accumulate", 3 * nbytes(kIdx, t) + 8.0 * kIdx,
                static_cast<double>(kIdx), {OpId::index_put});
    c.setup = [=](Device d) -> std::function<void()> {
      Tensor x = make_input({kSelf}, t, Fill::Normal, d), i = make_index({kIdx}, kSelf, d);
      Tensor vals = make_input({kIdx}, t, Fill::Normal, d);
      return [=] { x.index_put_({i}, vals, true); };
    };
    list.add(std::move(c));
  });
  // Square matrices: out = self, rows or elements combined in (side x side elements).
  auto square = [&](const char* name, const char* layout,
                    std::function<void(Tensor, Tensor, Tensor, Tensor)> call, bool row_index) {
    entry_named(v, name).bench = each_dtype(fl, [=](CaseList& list, ScalarType t) {
      const int64_t s = list.side();
      const std::vector<int64_t> sq{s, s};
      BenchCase c =
          case_of(name, t, sq, layout, 3 * nbytes(s * s, t) + 8.0 * (row_index ? s : s * s),
                  static_cast<double>(s * s), {op_info(*find_op(name)).id});
      c.setup = [=](Device d) -> std::function<void()> {
        Tensor x = make_input(sq, t, Fill::Normal, d), src = make_input(sq, t, Fill::Normal, d);
        Tensor i = row_index ? make_index({s}, s, d) : make_index(sq, s, d);
        Tensor o = empty(sq, TensorOptions(t).device(d));
        return [=] { call(o, x, i, src); };
      };
      list.add(std::move(c));
    });
  };
  square(
      "index_add", "dim0_rows",
      [](Tensor o, Tensor x, Tensor i, Tensor src) { index_add_out(o, x, 0, i, src); }, true);
  square(
      "scatter", "dim1",
      [](Tensor o, Tensor x, Tensor i, Tensor src) { scatter_out(o, x, 1, i, src); }, false);
  square(
      "scatter_reduce", "dim1_amax",
      [](Tensor o, Tensor x, Tensor i, Tensor src) { scatter_reduce_out(o, x, 1, i, src, "amax"); },
      false);
  entry_named(v, "masked_select").bench = each_dtype(fl, [](CaseList& list, ScalarType t) {
    const int64_t s = list.side();
    const std::vector<int64_t> sq{s, s};
    BenchCase c = case_of("masked_select", t, sq, "half_true", 1.5 * nbytes(s * s, t) + s * s, 0,
                          {OpId::masked_select});
    c.setup = [=](Device d) -> std::function<void()> {
      Tensor x = make_input(sq, t, Fill::Normal, d), m = make_input(sq, kBool, Fill::Mask, d);
      return [=] { (void)masked_select(x, m); };
    };
    list.add(std::move(c));
  });
  entry_named(v, "nonzero").bench = each_dtype(fl, [](CaseList& list, ScalarType t) {
    const int64_t s = list.side();
    const std::vector<int64_t> sq{s, s};
    BenchCase c =
        case_of("nonzero", t, sq, "half_zero", nbytes(s * s, t) + 8.0 * s * s, 0, {OpId::nonzero});
    c.setup = [=](Device d) -> std::function<void()> {
      Tensor x = make_input(sq, t, Fill::Mask, d);
      return [=] { (void)nonzero(x); };
    };
    list.add(std::move(c));
  });
}

}  // namespace

std::vector<OpEntry> advanced_index_entries() {
  std::vector<OpEntry> v;
  v.push_back(index_entry());
  v.push_back(index_put_entry("index_put", true));
  v.push_back(index_put_entry("index_put.assign", false));
  v.push_back(index_add_entry());
  v.push_back(scatter_entry());
  v.push_back(scatter_value_entry());
  v.push_back(scatter_reduce_arg_entry("scatter.add", false));
  v.push_back(scatter_reduce_arg_entry("scatter.multiply", true));
  for (const char* r : {"sum", "prod", "mean", "amax", "amin"}) {
    v.push_back(scatter_reduce_entry(r));
  }
  v.push_back(masked_select_entry());
  v.push_back(nonzero_entry());
  add_bench(v);
  for (OpEntry& e : advanced_index_copy_entries()) v.push_back(std::move(e));
  // Note [Known answers] in catalog.h; values from PyTorch's documentation of each op.
  entry_named(v, "scatter_reduce").known = {
      {kFloat, [] {
         SampleArgs a;
         a.dims = {0};
         a.flag = true;
         return known_answer("docs",
                             {tensor({1.f, 2.f, 3.f, 4.f}), tensor({0, 1, 0, 1, 2, 1}, kLong),
                              tensor({1.f, 2.f, 3.f, 4.f, 5.f, 6.f})},
                             {tensor({5.f, 14.f, 8.f, 4.f})}, a);
       }}};
  entry_named(v, "scatter_reduce.amax").known = {
      {kFloat, [] {
         SampleArgs a;
         a.dims = {0};
         a.flag = false;
         return known_answer("docs_noself",
                             {tensor({5.f, 4.f, 3.f, 2.f}), tensor({0, 1, 0, 1, 2, 1}, kLong),
                              tensor({1.f, 2.f, 3.f, 4.f, 5.f, 6.f})},
                             {tensor({3.f, 6.f, 5.f, 2.f})}, a);
       }}};
  entry_named(v, "index_add").known = {
      {kFloat, [] {
         SampleArgs a;
         a.dims = {0};
         a.scalars = {Scalar(1)};
         return known_answer(
             "docs",
             {ones({5, 3}), tensor({0, 4, 2}, kLong),
              tensor({1.f, 2.f, 3.f, 4.f, 5.f, 6.f, 7.f, 8.f, 9.f}).view({3, 3})},
             {tensor({2.f, 3.f, 4.f, 1.f, 1.f, 1.f, 8.f, 9.f, 10.f, 1.f, 1.f, 1.f, 5.f, 6.f, 7.f})
                  .view({5, 3})},
             a);
       }}};
  entry_named(v, "nonzero").known = {{kLong, [] {
                                        return known_answer(
                                            "docs", {tensor({1, 1, 1, 0, 1}, kLong)},
                                            {tensor({0, 1, 2, 4}, kLong).view({4, 1})});
                                      }}};
  return v;
}

}  // namespace ts::catalog
