// Catalog entries of advanced indexing, continued (family "advanced_index", issue 16): take, put
// (accumulate, and .assign without), index_copy, index_fill (Scalar value, and .tensor: a 0-dim
// value tensor), masked_scatter. SampleArgs: dims[0] the dim, flag put's accumulate, scalars[0]
// index_fill's value. Indices come from their own stream; put.assign and index_copy write each
// element once (their result would depend on the order of duplicate writes, which ATen leaves
// unspecified), take, put and index_fill repeat and wrap negative indices where ATen allows.
#include <utility>

#include "catalog/bench.h"

namespace ts::catalog {
namespace {

using In = std::vector<Tensor>;
using Shape = std::vector<int64_t>;

OpEntry entry(std::string name, SamplesFn samples, RunFn run) {
  OpEntry e = make_entry(std::move(name), "advanced_index", std::move(samples), std::move(run));
  e.op = e.name.substr(0, e.name.find('.'));
  return e;
}

// Indices in [0, size) (negative: some in [-size, 0)), repeating, from the op's own stream.
Tensor draw_index(const std::string& op, const std::string& sample, const Shape& shape,
                  int64_t size, bool negative) {
  const Tensor i = SampleContext(op + "/index", kLong)
                       .input(sample, 1, shape, Range{0, static_cast<double>(size)});
  if (!negative) return i;
  const Tensor coin = SampleContext(op + "/sign", kFloat).input(sample, 1, shape, Range{-1, 1});
  KernelSetGuard g("reference");
  return where(gt(coin, 0), i - size, i);
}

// `n` distinct indices in [0, size), in a random order.
Tensor distinct_index(const std::string& op, const std::string& sample, int64_t n, int64_t size) {
  const Tensor r = SampleContext(op + "/perm", kDouble).input(sample, 1, {size}, Range{0, 1});
  KernelSetGuard g("reference");
  return argsort(r).narrow(0, 0, n).contiguous();
}

// A bool mask, about half true.
Tensor draw_mask(const std::string& sample, const Shape& shape) {
  const Tensor x =
      SampleContext("masked_scatter/mask", kFloat).input(sample, 2, shape, Range{-1, 1});
  KernelSetGuard g("reference");
  return gt(x, 0);
}

// ---- take(self, index), put(self, index, source, accumulate) ----

std::vector<Sample> take_samples(const SampleContext& ctx) {
  struct Case {
    std::string name;
    Shape self, index;
  };
  const std::vector<Case> cases = {
      {"vec", {9}, {4}},        {"mat", {4, 5}, {2, 3}},      {"index_0dim", {4, 5}, {}},
      {"self_0dim", {}, {3}},   {"empty_index", {4, 5}, {0}}, {"cube", {2, 3, 4}, {10}},
      {"big", {37, 53}, {500}},
  };
  std::vector<Sample> out;
  for (const Case& c : cases) {
    Sample s;
    s.name = c.name;
    s.inputs = {ctx.input(c.name, 0, c.self),
                draw_index("take", c.name, c.index, numel_of(c.self), true)};
    out.push_back(std::move(s));
  }
  return out;
}

OpEntry take_entry() {
  OpEntry e = entry("take", take_samples,
                    [](const In& in, const SampleArgs&) { return In{ts::take(in[0], in[1])}; });
  e.run_out = [](const In& outs, const In& in, const SampleArgs&) {
    ts::take_out(outs[0], in[0], in[1]);
  };
  return e;
}

// put with accumulate (repeating indices) or, for put.assign, distinct ones.
std::vector<Sample> put_samples(const SampleContext& ctx, bool accumulate) {
  struct Case {
    std::string name;
    Shape self, index;
  };
  const std::vector<Case> cases = {
      {"vec", {9}, {4}},      {"mat", {4, 5}, {2, 3}},      {"index_0dim", {4, 5}, {}},
      {"self_0dim", {}, {1}}, {"empty_index", {4, 5}, {0}}, {"big", {37, 53}, {500}},
  };
  std::vector<Sample> out;
  for (const Case& c : cases) {
    const int64_t n = numel_of(c.self), k = numel_of(c.index);
    Sample s;
    s.name = c.name;
    Tensor index = accumulate ? draw_index("put", c.name, c.index, n, true)
                              : distinct_index("put", c.name, k, n).reshape(c.index);
    s.inputs = {ctx.input(c.name, 0, c.self), index, ctx.input(c.name, 2, {k})};
    s.args.flag = accumulate;
    s.summands = accumulate ? k + 1 : 1;
    out.push_back(std::move(s));
  }
  return out;
}

OpEntry put_entry(const std::string& name, bool accumulate) {
  OpEntry e = entry(
      name, [accumulate](const SampleContext& ctx) { return put_samples(ctx, accumulate); },
      [](const In& in, const SampleArgs& a) { return In{ts::put(in[0], in[1], in[2], a.flag)}; });
  e.run_out = [](const In& outs, const In& in, const SampleArgs& a) {
    ts::put_out(outs[0], in[0], in[1], in[2], a.flag);
  };
  e.run_inplace = [](const Tensor& self, const In& in, const SampleArgs& a) {
    return self.put_(in[1], in[2], a.flag);
  };
  e.accumulates = accumulate;
  return e;
}

// ---- index_copy(self, dim, index, source), index_fill(self, dim, index, value) ----

struct DimCase {
  std::string name;
  Shape self;
  int64_t dim;
  int64_t n;          // indices (-1: a 0-dim index)
  Shape source = {};  // index_copy: source's shape
};

const std::vector<DimCase>& dim_cases() {
  static const std::vector<DimCase> all = {
      {"mat_d0", {5, 4}, 0, 3, {3, 4}},      {"mat_d1", {5, 4}, 1, 2, {5, 2}},
      {"mat_neg", {5, 4}, -1, 4, {5, 4}},    {"cube_d1", {2, 5, 3}, 1, 3, {2, 3, 3}},
      {"self_0dim", {}, 0, 1, {}},           {"index_0dim", {5, 4}, 0, -1, {1, 4}},
      {"empty_index", {5, 4}, 0, 0, {0, 4}}, {"big", {37, 53}, 0, 20, {20, 53}},
  };
  return all;
}

int64_t dim_size(const DimCase& c) {
  if (c.self.empty()) return 1;
  const int64_t d = c.dim < 0 ? c.dim + static_cast<int64_t>(c.self.size()) : c.dim;
  return c.self[static_cast<size_t>(d)];
}

std::vector<Sample> index_copy_samples(const SampleContext& ctx) {
  std::vector<Sample> out;
  for (const DimCase& c : dim_cases()) {
    Sample s;
    s.name = c.name;
    Tensor index = distinct_index("index_copy", c.name, c.n < 0 ? 1 : c.n, dim_size(c));
    if (c.n < 0) index = index.reshape({});
    s.inputs = {ctx.input(c.name, 0, c.self), index, ctx.input(c.name, 2, c.source)};
    s.args.dims = {c.dim};
    out.push_back(std::move(s));
  }
  return out;
}

OpEntry index_copy_entry() {
  OpEntry e = entry("index_copy", index_copy_samples, [](const In& in, const SampleArgs& a) {
    return In{ts::index_copy(in[0], a.dims[0], in[1], in[2])};
  });
  e.run_out = [](const In& outs, const In& in, const SampleArgs& a) {
    ts::index_copy_out(outs[0], in[0], a.dims[0], in[1], in[2]);
  };
  e.run_inplace = [](const Tensor& self, const In& in, const SampleArgs& a) {
    return self.index_copy_(a.dims[0], in[1], in[2]);
  };
  return e;
}

Scalar fill_value(ScalarType t) {
  if (t == kBool) return true;
  return is_floating_type(t) ? Scalar(-1.5) : Scalar(int64_t{3});
}

// tensor_value: the value as a third input (0-dim, the sample's dtype).
std::vector<Sample> index_fill_samples(const SampleContext& ctx, bool tensor_value) {
  std::vector<Sample> out;
  for (const DimCase& c : dim_cases()) {
    Sample s;
    s.name = c.name;
    Tensor index =
        draw_index("index_fill", c.name, {c.n < 0 ? 1 : c.n}, dim_size(c), !tensor_value);
    if (c.n < 0) index = index.reshape({});
    s.inputs = {ctx.input(c.name, 0, c.self), index};
    if (tensor_value) s.inputs.push_back(ctx.input(c.name, 2, {}));
    s.args.dims = {c.dim};
    s.args.scalars = {fill_value(ctx.dtype())};
    out.push_back(std::move(s));
  }
  return out;
}

OpEntry index_fill_entry() {
  OpEntry e = entry(
      "index_fill", [](const SampleContext& ctx) { return index_fill_samples(ctx, false); },
      [](const In& in, const SampleArgs& a) {
        return In{ts::index_fill(in[0], a.dims[0], in[1], a.scalars[0])};
      });
  e.run_out = [](const In& outs, const In& in, const SampleArgs& a) {
    ts::index_fill_out(outs[0], in[0], a.dims[0], in[1], a.scalars[0]);
  };
  e.run_inplace = [](const Tensor& self, const In& in, const SampleArgs& a) {
    return self.index_fill_(a.dims[0], in[1], a.scalars[0]);
  };
  return e;
}

// index_fill.int_Tensor: value a 0-dim tensor (differentiable); indices not negative, so that
// derivatives.yaml's sum over the unique index values counts each filled slice once.
OpEntry index_fill_tensor_entry() {
  OpEntry e = entry(
      "index_fill.tensor", [](const SampleContext& ctx) { return index_fill_samples(ctx, true); },
      [](const In& in, const SampleArgs& a) {
        return In{ts::index_fill(in[0], a.dims[0], in[1], in[2])};
      });
  e.run_out = [](const In& outs, const In& in, const SampleArgs& a) {
    ts::index_fill_out(outs[0], in[0], a.dims[0], in[1], in[2]);
  };
  e.run_inplace = [](const Tensor& self, const In& in, const SampleArgs& a) {
    return self.index_fill_(a.dims[0], in[1], in[2]);
  };
  e.accumulates = true;  // value's gradient sums the filled elements' gradients
  return e;
}

// ---- masked_scatter(self, mask, source) ----

std::vector<Sample> masked_scatter_samples(const SampleContext& ctx) {
  struct Case {
    std::string name;
    Shape self, mask;
    int64_t extra = 0;  // source elements beyond self's count
  };
  const std::vector<Case> cases = {
      {"mat", {4, 5}, {4, 5}},
      {"mask_broadcast", {4, 5}, {5}},
      {"source_larger", {4, 5}, {4, 5}, 7},
      {"scalar", {}, {}},
      {"empty", {0, 3}, {0, 3}},
      {"big", {37, 53}, {37, 53}},
  };
  std::vector<Sample> out;
  for (const Case& c : cases) {
    Sample s;
    s.name = c.name;
    s.inputs = {ctx.input(c.name, 0, c.self), draw_mask(c.name, c.mask),
                ctx.input(c.name, 2, {numel_of(c.self) + c.extra})};
    out.push_back(std::move(s));
  }
  return out;
}

OpEntry masked_scatter_entry() {
  OpEntry e = entry("masked_scatter", masked_scatter_samples, [](const In& in, const SampleArgs&) {
    return In{ts::masked_scatter(in[0], in[1], in[2])};
  });
  e.run_out = [](const In& outs, const In& in, const SampleArgs&) {
    ts::masked_scatter_out(outs[0], in[0], in[1], in[2]);
  };
  e.run_inplace = [](const Tensor& self, const In& in, const SampleArgs&) {
    return self.masked_scatter_(in[1], in[2]);
  };
  return e;
}

// ---- benchmark: 1M int64 indices into 4M floats (take, put); square matrices (the others) ----

void add_bench(std::vector<OpEntry>& v) {
  const DTypeSet fl = DTypeSet::floating();
  constexpr int64_t kSelf = int64_t{1} << 22, kIdx = int64_t{1} << 20;
  auto flat = [&](const char* name, OpId id, bool put_case) {
    entry_named(v, name).bench = each_dtype(fl, [=](CaseList& list, ScalarType t) {
      BenchCase c = make_case("advanced_index", name, t, shape_str({kSelf}),
                              put_case ? "idx1M_accumulate" : "idx1M",
                              (put_case ? 3 : 2) * nbytes(kIdx, t) + 8.0 * kIdx,
                              put_case ? static_cast<double>(kIdx) : 0, {id});
      c.setup = [=](Device d) -> std::function<void()> {
        Tensor x = make_input({kSelf}, t, Fill::Normal, d), i = make_index({kIdx}, kSelf, d);
        Tensor src = make_input({kIdx}, t, Fill::Normal, d);
        Tensor o = empty({kIdx}, TensorOptions(t).device(d));
        return [=] {
          if (put_case) {
            x.put_(i, src, true);
          } else {
            take_out(o, x, i);
          }
        };
      };
      list.add(std::move(c));
    });
  };
  flat("take", OpId::take, false);
  flat("put", OpId::put, true);
  auto square = [&](const char* name, OpId id, const char* layout,
                    std::function<void(Tensor, Tensor, Tensor, Tensor)> call) {
    entry_named(v, name).bench = each_dtype(fl, [=](CaseList& list, ScalarType t) {
      const int64_t s = list.side();
      const std::vector<int64_t> sq{s, s};
      BenchCase c = make_case("advanced_index", name, t, shape_str(sq), layout,
                              3 * nbytes(s * s, t) + 8.0 * s, 0, {id});
      c.setup = [=](Device d) -> std::function<void()> {
        Tensor x = make_input(sq, t, Fill::Normal, d), src = make_input(sq, t, Fill::Normal, d);
        Tensor perm = argsort(make_input({s}, kFloat, Fill::Normal, d));  // distinct rows
        Tensor o = empty(sq, TensorOptions(t).device(d));
        return [=] { call(o, x, perm, src); };
      };
      list.add(std::move(c));
    });
  };
  square("index_copy", OpId::index_copy, "dim0_rows",
         [](Tensor o, Tensor x, Tensor i, Tensor src) { index_copy_out(o, x, 0, i, src); });
  square("index_fill", OpId::index_fill, "dim1_half", [](Tensor o, Tensor x, Tensor i, Tensor) {
    index_fill_out(o, x, 1, i.narrow(0, 0, i.numel() / 2), Scalar(0.5));
  });
  entry_named(v, "masked_scatter").bench = each_dtype(fl, [](CaseList& list, ScalarType t) {
    const int64_t s = list.side();
    const std::vector<int64_t> sq{s, s};
    BenchCase c = make_case("advanced_index", "masked_scatter", t, shape_str(sq), "half_true",
                            3 * nbytes(s * s, t) + s * s, 0, {OpId::masked_scatter});
    c.setup = [=](Device d) -> std::function<void()> {
      Tensor x = make_input(sq, t, Fill::Normal, d), m = make_input(sq, kBool, Fill::Mask, d);
      Tensor src = make_input({s * s}, t, Fill::Normal, d);
      Tensor o = empty(sq, TensorOptions(t).device(d));
      return [=] { masked_scatter_out(o, x, m, src); };
    };
    list.add(std::move(c));
  });
}

}  // namespace

std::vector<OpEntry> advanced_index_copy_entries() {
  std::vector<OpEntry> v;
  v.push_back(take_entry());
  v.push_back(put_entry("put", true));
  v.push_back(put_entry("put.assign", false));
  v.push_back(index_copy_entry());
  v.push_back(index_fill_entry());
  v.push_back(index_fill_tensor_entry());
  v.push_back(masked_scatter_entry());
  add_bench(v);
  // Note [Known answers] in catalog.h: PyTorch's documentation examples, by hand.
  entry_named(v, "take").known = {
      {kLong, [] {
         return known_answer(
             "docs", {tensor({4, 3, 5, 6, 7, 8}, kLong).view({2, 3}), tensor({0, 2, 5}, kLong)},
             {tensor({4, 5, 8}, kLong)});
       }}};
  entry_named(v, "index_copy").known = {
      {kFloat, [] {
         SampleArgs a;
         a.dims = {0};
         return known_answer(
             "docs",
             {zeros({5, 3}), tensor({0, 4, 2}, kLong),
              tensor({1.f, 2.f, 3.f, 4.f, 5.f, 6.f, 7.f, 8.f, 9.f}).view({3, 3})},
             {tensor({1.f, 2.f, 3.f, 0.f, 0.f, 0.f, 7.f, 8.f, 9.f, 0.f, 0.f, 0.f, 4.f, 5.f, 6.f})
                  .view({5, 3})},
             a);
       }}};
  entry_named(v, "index_fill").known = {
      {kFloat, [] {
         SampleArgs a;
         a.dims = {1};
         a.scalars = {Scalar(-1)};
         return known_answer(
             "docs",
             {tensor({1.f, 2.f, 3.f, 4.f, 5.f, 6.f, 7.f, 8.f, 9.f}).view({3, 3}),
              tensor({0, 2}, kLong)},
             {tensor({-1.f, 2.f, -1.f, -1.f, 5.f, -1.f, -1.f, 8.f, -1.f}).view({3, 3})}, a);
       }}};
  entry_named(v, "masked_scatter").known = {
      {kLong, [] {
         return known_answer(
             "docs",
             {tensor({0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, kLong).view({2, 5}),
              tensor({false, false, false, true, true, true, true, false, true, true}).view({2, 5}),
              tensor({0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, kLong).view({2, 5})},
             {tensor({0, 0, 0, 0, 1, 2, 3, 0, 4, 5}, kLong).view({2, 5})});
       }}};
  return v;
}

}  // namespace ts::catalog
