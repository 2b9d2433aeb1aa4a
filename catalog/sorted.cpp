// Catalog entries of searches in sorted sequences and unique (family "sort", issue 16):
// searchsorted (.Scalar), bucketize (.Scalar), _unique2, unique_dim, unique_consecutive.
// SampleArgs: searchsorted/bucketize flag = right, ints[0] = out_int32, scalars[0] the Scalar
// value; searchsorted's sorter is its third input when present. unique: flag = sorted, ints =
// {return_inverse, return_counts}, dims = {dim} (unique_consecutive: none for the flattened form).
// Sequences are sorted by the reference set (ties included); values are drawn from the same range
// and include the sequence's own elements, so that left and right differ. unique's inputs hold few
// distinct values (integer-valued), so groups have several members.
#include <utility>

#include "catalog/bench.h"

namespace ts::catalog {
namespace {

using In = std::vector<Tensor>;
using Shape = std::vector<int64_t>;

OpEntry entry(std::string name, SamplesFn samples, RunFn run) {
  OpEntry e = make_entry(std::move(name), "sort", std::move(samples), std::move(run));
  e.op = e.name.substr(0, e.name.find('.'));
  e.grad = false;
  return e;
}

In triple(std::tuple<Tensor, Tensor, Tensor> t) {
  return In{std::get<0>(t), std::get<1>(t), std::get<2>(t)};
}

// ---- searchsorted, bucketize ----

// A sequence sorted along its last dim, drawn in [-4, 4) (ties in integer dtypes).
Tensor sorted_seq(const SampleContext& ctx, const std::string& sample, const Shape& shape) {
  const Tensor x = ctx.input(sample, 0, shape);
  KernelSetGuard g("reference");
  return shape.back() == 0 ? x : std::get<0>(sort(x, -1));
}

// Values: about half drawn, half the sequence's own elements (of its first row, in turn).
Tensor search_values(const SampleContext& ctx, const std::string& sample, const Shape& shape,
                     const Tensor& seq) {
  const Tensor x = ctx.input(sample, 1, shape);
  const int64_t n = seq.sizes().back();
  if (n == 0 || x.numel() == 0) return x;
  const Tensor coin =
      SampleContext("searchsorted/pick", kFloat).input(sample, 0, shape, Range{-1, 1});
  KernelSetGuard g("reference");
  const Tensor row = seq.reshape({-1}).narrow(0, 0, n);
  const Tensor at = remainder(arange(0, x.numel(), 1, kLong), n);
  return where(gt(coin, 0), row.index_select(0, at).reshape(shape), x);
}

struct SearchCase {
  std::string name;
  Shape seq, values;
  bool right = false, out_int32 = false, sorter = false;
};

std::vector<Sample> search_samples(const SampleContext& ctx, bool bucketize) {
  std::vector<SearchCase> cases = {
      {"vec", {9}, {4, 5}},
      {"vec_right", {9}, {4, 5}, true},
      {"vec_int32", {9}, {11}, false, true},
      {"scalar_value", {6}, {}},
      {"empty_seq", {0}, {4}},
      {"empty_values", {5}, {0}},
      {"big", {1000}, {37, 53}, true},
  };
  if (!bucketize) {
    cases.push_back({"rows", {3, 7}, {3, 5}});
    cases.push_back({"rows_right_int32", {2, 3, 7}, {2, 3, 4}, true, true});
    cases.push_back({"sorter", {8}, {6}, false, false, true});
    cases.push_back({"sorter_rows_right", {2, 6}, {2, 4}, true, false, true});
  }
  std::vector<Sample> out;
  for (const SearchCase& c : cases) {
    Sample s;
    s.name = c.name;
    Tensor seq = sorted_seq(ctx, c.name, c.seq);
    const Tensor values = search_values(ctx, c.name, c.values, seq);
    Tensor sorter;
    if (c.sorter) {  // an unsorted sequence and the positions that sort it
      seq = ctx.input(c.name, 0, c.seq);
      KernelSetGuard g("reference");
      sorter = argsort(seq, true, -1);
    }
    s.inputs = bucketize ? In{values, seq} : In{seq, values};
    if (sorter.defined()) s.inputs.push_back(sorter);
    s.args.flag = c.right;
    s.args.ints = {c.out_int32 ? 1 : 0};
    out.push_back(std::move(s));
  }
  if (is_floating_type(ctx.dtype())) {  // NaN, infinities, +-0: Note [Search order]
    KernelSetGuard g("reference");
    const Tensor e = edge_values(ctx.dtype());
    const Tensor seq = std::get<0>(sort(e));
    for (bool right : {false, true}) {
      Sample s;
      s.name = right ? "edge_values_right" : "edge_values";
      s.inputs = bucketize ? In{e, seq} : In{seq, e};
      s.args.flag = right;
      s.args.ints = {0};
      out.push_back(std::move(s));
    }
  }
  return out;
}

OpEntry searchsorted_entry() {
  OpEntry e = entry(
      "searchsorted", [](const SampleContext& ctx) { return search_samples(ctx, false); },
      [](const In& in, const SampleArgs& a) {
        return In{ts::searchsorted(in[0], in[1], a.ints[0] != 0, a.flag, std::nullopt,
                                   in.size() > 2 ? in[2] : Tensor())};
      });
  e.run_out = [](const In& outs, const In& in, const SampleArgs& a) {
    ts::searchsorted_out(outs[0], in[0], in[1], a.ints[0] != 0, a.flag, std::nullopt,
                         in.size() > 2 ? in[2] : Tensor());
  };
  return e;
}

// searchsorted(sorted_sequence, side=...): side "right" (args.flag) or "left".
OpEntry searchsorted_side_entry() {
  OpEntry e = entry(
      "searchsorted.side", [](const SampleContext& ctx) { return search_samples(ctx, false); },
      [](const In& in, const SampleArgs& a) {
        return In{ts::searchsorted(in[0], in[1], a.ints[0] != 0, false, a.flag ? "right" : "left",
                                   in.size() > 2 ? in[2] : Tensor())};
      });
  return e;
}

// The Scalar overloads: value args.scalars[0] (a double for floating dtypes: computed in double).
std::vector<Sample> scalar_samples(const SampleContext& ctx) {
  std::vector<Sample> out;
  const Tensor seq = sorted_seq(ctx, "scalar", {9});
  for (bool right : {false, true}) {
    Sample s;
    s.name = right ? "scalar_right" : "scalar";
    s.inputs = {seq};
    KernelSetGuard g("reference");
    s.args.scalars = {seq.reshape({-1})[4].item()};  // an element of the sequence
    s.args.flag = right;
    s.args.ints = {0};
    out.push_back(std::move(s));
  }
  Sample s = out.back();
  s.name = "scalar_between";
  s.args.scalars = {is_floating_type(ctx.dtype()) ? Scalar(0.5) : Scalar(int64_t{1})};
  out.push_back(std::move(s));
  return out;
}

OpEntry searchsorted_scalar_entry() {
  OpEntry e = entry("searchsorted.Scalar", scalar_samples, [](const In& in, const SampleArgs& a) {
    return In{ts::searchsorted(in[0], a.scalars[0], a.ints[0] != 0, a.flag)};
  });
  e.run_out = [](const In& outs, const In& in, const SampleArgs& a) {
    ts::searchsorted_out(outs[0], in[0], a.scalars[0], a.ints[0] != 0, a.flag);
  };
  return e;
}

OpEntry bucketize_entry() {
  OpEntry e = entry(
      "bucketize", [](const SampleContext& ctx) { return search_samples(ctx, true); },
      [](const In& in, const SampleArgs& a) {
        return In{ts::bucketize(in[0], in[1], a.ints[0] != 0, a.flag)};
      });
  e.run_out = [](const In& outs, const In& in, const SampleArgs& a) {
    ts::bucketize_out(outs[0], in[0], in[1], a.ints[0] != 0, a.flag);
  };
  return e;
}

OpEntry bucketize_scalar_entry() {
  OpEntry e = entry("bucketize.Scalar", scalar_samples, [](const In& in, const SampleArgs& a) {
    return In{ts::bucketize(a.scalars[0], in[0], a.ints[0] != 0, a.flag)};
  });
  e.run_out = [](const In& outs, const In& in, const SampleArgs& a) {
    ts::bucketize_out(outs[0], a.scalars[0], in[0], a.ints[0] != 0, a.flag);
  };
  return e;
}

// ---- unique ----

// Few distinct values: integer-valued in [-3, 3) (bool: about half true), in the sample's dtype.
Tensor few_values(const SampleContext& ctx, const std::string& sample, const Shape& shape) {
  const Tensor x = SampleContext("unique/values", kLong).input(sample, 0, shape, Range{-3, 3});
  KernelSetGuard g("reference");
  if (ctx.dtype() == kBool) return gt(x, 0);
  if (ctx.dtype() == kByte) return (x + 3).to(kByte);
  return is_floating_type(ctx.dtype()) ? (x.to(kDouble) * 0.5).to(ctx.dtype()) : x.to(ctx.dtype());
}

// Slices along dim taken from a few distinct ones (repeats), for the dim forms.
Tensor repeated_slices(const SampleContext& ctx, const std::string& sample, const Shape& shape,
                       int64_t dim) {
  const int64_t d = dim < 0 ? dim + static_cast<int64_t>(shape.size()) : dim;
  Shape base_shape = shape;
  base_shape[static_cast<size_t>(d)] = 3;
  const Tensor base = few_values(ctx, sample, base_shape);
  const Tensor pick = SampleContext("unique/slices", kLong)
                          .input(sample, 1, {shape[static_cast<size_t>(d)]}, Range{0, 3});
  KernelSetGuard g("reference");
  return base.index_select(d, pick);
}

struct UniqueCase {
  std::string name;
  Shape shape;
  bool inverse = true, counts = true, sorted = true;
  std::optional<int64_t> dim = std::nullopt;
};

std::vector<Sample> unique_samples(const SampleContext& ctx, OpId op) {
  std::vector<UniqueCase> cases;
  if (op == OpId::unique_dim) {
    cases = {{"rows", {6, 3}, true, true, true, 0},      {"cols", {3, 6}, true, true, true, 1},
             {"neg_dim", {4, 5}, true, true, true, -1},  {"cube", {2, 5, 3}, true, true, true, 1},
             {"unsorted", {6, 3}, true, true, false, 0}, {"big", {37, 53}, true, true, true, 0}};
  } else {
    cases = {{"vec", {20}},
             {"mat", {4, 5}},
             {"scalar", {}},
             {"empty", {0}},
             {"values_only", {12}, false, false},
             {"inverse_only", {12}, true, false},
             {"counts_only", {3, 4}, false, true},
             {"big", {37, 53}}};
    if (op == OpId::_unique2) cases.push_back({"unsorted", {20}, true, true, false});
    if (op == OpId::unique_consecutive) {
      cases.push_back({"rows", {6, 3}, true, true, true, 0});
      cases.push_back({"cols_neg", {3, 6}, true, true, true, -1});
      cases.push_back({"vec_dim0", {9}, true, true, true, 0});  // the flattened form (ATen)
    }
  }
  std::vector<Sample> out;
  for (const UniqueCase& c : cases) {
    Sample s;
    s.name = c.name;
    s.inputs = {c.dim ? repeated_slices(ctx, c.name, c.shape, *c.dim)
                      : few_values(ctx, c.name, c.shape)};
    if (op == OpId::unique_consecutive && !c.dim && !c.shape.empty() && c.shape[0] > 0) {
      KernelSetGuard g("reference");  // runs: each value repeated
      const Tensor flat = s.inputs[0].reshape({-1});
      const Tensor at = div(arange(0, flat.numel(), 1, kLong), 3, "floor");
      s.inputs[0] = flat.index_select(0, at).reshape(c.shape);
    }
    s.args.flag = c.sorted;
    s.args.ints = {c.inverse ? 1 : 0, c.counts ? 1 : 0};
    if (c.dim) s.args.dims = {*c.dim};
    out.push_back(std::move(s));
  }
  if (is_floating_type(ctx.dtype()) && op != OpId::unique_dim) {  // NaN, +-0: Note [Unique order]
    KernelSetGuard g("reference");
    Sample s;
    s.name = "edge_values";
    const Tensor e = edge_values(ctx.dtype());
    s.inputs = {cat(std::vector<Tensor>{e, e.flip({0})})};
    s.args.flag = true;
    s.args.ints = {1, 1};
    out.push_back(std::move(s));
  }
  return out;
}

OpEntry unique2_entry() {
  return entry(
      "_unique2", [](const SampleContext& ctx) { return unique_samples(ctx, OpId::_unique2); },
      [](const In& in, const SampleArgs& a) {
        return triple(ts::_unique2(in[0], a.flag, a.ints[0] != 0, a.ints[1] != 0));
      });
}

OpEntry unique_dim_entry() {
  return entry(
      "unique_dim", [](const SampleContext& ctx) { return unique_samples(ctx, OpId::unique_dim); },
      [](const In& in, const SampleArgs& a) {
        return triple(ts::unique_dim(in[0], a.dims[0], a.flag, a.ints[0] != 0, a.ints[1] != 0));
      });
}

OpEntry unique_consecutive_entry() {
  return entry(
      "unique_consecutive",
      [](const SampleContext& ctx) { return unique_samples(ctx, OpId::unique_consecutive); },
      [](const In& in, const SampleArgs& a) {
        const std::optional<int64_t> dim =
            a.dims.empty() ? std::nullopt : std::optional<int64_t>(a.dims[0]);
        return triple(ts::unique_consecutive(in[0], a.ints[0] != 0, a.ints[1] != 0, dim));
      });
}

// ---- benchmark: 1M values searched in 64K boundaries; unique of 1M elements (4K distinct) ----

void add_bench(std::vector<OpEntry>& v) {
  const DTypeSet fl = DTypeSet{kFloat, kDouble};
  constexpr int64_t kValues = int64_t{1} << 20, kSeq = int64_t{1} << 16;
  auto search = [&](const char* op, OpId id, bool bucket) {
    entry_named(v, op).bench = each_dtype(fl, [=](CaseList& list, ScalarType t) {
      BenchCase c =
          make_case("sort", op, t, shape_str({kValues}), "seq64K",
                    nbytes(kValues, t) + 8.0 * kValues + nbytes(kSeq, t), 16.0 * kValues, {id});
      c.setup = [=](Device d) -> std::function<void()> {
        const Tensor seq = std::get<0>(sort(make_input({kSeq}, t, Fill::Normal, d)));
        const Tensor x = make_input({kValues}, t, Fill::Normal, d);
        return [=] { (void)(bucket ? bucketize(x, seq) : searchsorted(seq, x)); };
      };
      list.add(std::move(c));
    });
  };
  search("searchsorted", OpId::searchsorted, false);
  search("bucketize", OpId::bucketize, true);
  auto unique_case = [&](const char* op, OpId id, int kind) {
    entry_named(v, op).bench = each_dtype(fl, [=](CaseList& list, ScalarType t) {
      const Shape shape = kind == 1 ? Shape{4096, 64} : Shape{kValues};
      BenchCase c = make_case("sort", op, t, shape_str(shape), kind == 1 ? "dim0" : "flat",
                              2 * nbytes(kValues, t) + 16.0 * kValues, 0, {id});
      c.setup = [=](Device d) -> std::function<void()> {
        const Tensor x = make_input(shape, t, Range{-2048, 2048}, d);
        return [=] {
          if (kind == 0) (void)_unique2(x, true, true, true);
          if (kind == 1) (void)unique_dim(x, 0, true, true, true);
          if (kind == 2) (void)unique_consecutive(x, true, true);
        };
      };
      list.add(std::move(c));
    });
  };
  unique_case("_unique2", OpId::_unique2, 0);
  unique_case("unique_dim", OpId::unique_dim, 1);
  unique_case("unique_consecutive", OpId::unique_consecutive, 2);
}

}  // namespace

std::vector<OpEntry> sorted_entries() {
  std::vector<OpEntry> v;
  v.push_back(searchsorted_entry());
  v.push_back(searchsorted_side_entry());
  v.push_back(searchsorted_scalar_entry());
  v.push_back(bucketize_entry());
  v.push_back(bucketize_scalar_entry());
  v.push_back(unique2_entry());
  v.push_back(unique_dim_entry());
  v.push_back(unique_consecutive_entry());
  add_bench(v);
  // Note [Known answers] in catalog.h: the examples of PyTorch's documentation, by hand.
  entry_named(v, "searchsorted").known = {
      {kLong, [] {
         SampleArgs a;
         a.ints = {0};
         return known_answer("docs",
                             {tensor({1, 3, 5, 7, 9, 2, 4, 6, 8, 10}, kLong).view({2, 5}),
                              tensor({3, 6, 9, 3, 6, 9}, kLong).view({2, 3})},
                             {tensor({1, 3, 4, 1, 2, 4}, kLong).view({2, 3})}, a);
       }}};
  entry_named(v, "bucketize").known = {
      {kLong, [] {
         SampleArgs a;
         a.ints = {0};
         a.flag = true;
         return known_answer(
             "docs_right",
             {tensor({3, 6, 9, 3, 6, 9}, kLong).view({2, 3}), tensor({1, 3, 5, 7, 9}, kLong)},
             {tensor({2, 3, 5, 2, 3, 5}, kLong).view({2, 3})}, a);
       }}};
  entry_named(v, "_unique2").known = {
      {kLong, [] {
         SampleArgs a;
         a.flag = true;
         a.ints = {1, 1};
         return known_answer("docs", {tensor({1, 3, 2, 3}, kLong).view({2, 2})},
                             {tensor({1, 2, 3}, kLong), tensor({0, 2, 1, 2}, kLong).view({2, 2}),
                              tensor({1, 1, 2}, kLong)},
                             a);
       }}};
  entry_named(v, "unique_consecutive").known = {
      {kLong, [] {
         SampleArgs a;
         a.ints = {1, 1};
         return known_answer(
             "docs", {tensor({1, 1, 2, 2, 3, 1, 1, 2}, kLong)},
             {tensor({1, 2, 3, 1, 2}, kLong), tensor({0, 0, 1, 1, 2, 3, 3, 4}, kLong),
              tensor({2, 2, 1, 2, 1}, kLong)},
             a);
       }}};
  return v;
}

}  // namespace ts::catalog
