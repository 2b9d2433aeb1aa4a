// Catalog entries of sorting and selection: sort, argsort (and their stable forms), topk,
// kthvalue, median, mode. SampleArgs: dims[0] the dim (median() when empty), flag sort's and
// argsort's descending / topk's largest, ints[0] topk's and kthvalue's k, keepdim.
//
// Note [Distinct samples]
// Most samples hold distinct values along the op's dim (a random permutation of 0..n-1 per
// line, shifted and halved for floating dtypes): every kernel set then selects the same indices,
// and the ops are smooth there (gradcheck). The `ties` sample (few values, many repeats) and the
// floating `edge_values` (NaN, infinities, +-0) check the order of Note [Sort order]
// (lib/src/ops/sort.cpp); ATen may pick another index among equal values there
// (conformance/known_differences.json). Lines longer than a dtype holds distinct integers
// (bool 2, int8/uint8/bfloat16 256, float16 2048) are left out in that dtype.
#include <algorithm>
#include <utility>

#include "catalog/bench.h"

namespace ts::catalog {
namespace {

using In = std::vector<Tensor>;
using Shape = std::vector<int64_t>;

struct Case {
  std::string name;
  Shape shape;
  int64_t dim = -1;
  bool flag = false;  // descending / largest
  bool keepdim = false;
  int64_t k = 1;  // topk, kthvalue; clipped to the line's length
};

int64_t line_length(const Shape& shape, int64_t dim) {
  if (shape.empty()) return 1;
  return shape[static_cast<size_t>(dim < 0 ? dim + static_cast<int64_t>(shape.size()) : dim)];
}

// How many distinct integer-valued elements dtype t holds (Note [Distinct samples]).
int64_t distinct_capacity(ScalarType t) {
  switch (t) {
    case kBool:
      return 2;
    case kByte:
    case kChar:
    case kBFloat16:
      return 256;
    case kHalf:
      return 2048;
    default:
      return int64_t{1} << 30;
  }
}

// Distinct values along `dim` (bool: alternating after a permutation, so ties).
Tensor distinct_input(const std::string& op, const SampleContext& ctx, const std::string& sample,
                      const Shape& shape, int64_t dim) {
  const int64_t n = line_length(shape, dim);
  // Lines of one element hold any value: drawn, so that lines differ (a permutation's 0 made
  // every 0-dim and size-1 sample all zeros, which proves nothing: Note [Mistrusted cases]).
  if (n == 1) return ctx.input(sample + "/one", 0, shape);
  const Tensor r = SampleContext(op + "/perm", kDouble).input(sample, 0, shape, Range{0, 1});
  KernelSetGuard g("reference");
  const Tensor perm = shape.empty() ? zeros({}, kLong) : argsort(r, dim);
  const ScalarType t = ctx.dtype();
  if (t == kBool) return remainder(perm, 2).to(kBool);
  if (t == kByte) return perm.to(t);
  // Floats sit a quarter off the integers: no line holds 0, so a median of all is not 0.
  if (is_floating_type(t)) return ((perm - n / 2).to(kDouble) * 0.5 + 0.25).to(t);
  return (perm - n / 2).to(t);
}

const std::vector<Case>& cases() {
  static const std::vector<Case> all = {
      {"scalar", {}, 0, false, false, 1},
      {"scalar_neg_keepdim", {}, -1, true, true, 1},
      {"vec", {7}, 0, false, false, 3},
      {"vec_desc_keepdim", {7}, -1, true, true, 7},
      {"mat_d1", {3, 4}, 1, false, false, 2},
      {"mat_neg_desc", {3, 4}, -2, true, false, 1},
      {"cube_d1_keepdim", {2, 3, 5}, 1, false, true, 3},
      {"cube_d2_desc", {2, 3, 5}, 2, true, false, 4},
      {"big_d0", {37, 53}, 0, false, false, 20},
      {"big_d1_desc", {37, 53}, 1, true, false, 27},
      {"long", {2053}, -1, false, false, 1000},
      {"size1", {5, 1, 4}, 1, true, false, 1},
      {"empty_other", {2, 0, 3}, 0, false, false, 2},
  };
  return all;
}

// `selects`: kthvalue, median, mode (no empty line); `k_zero`: topk's k = 0 on an empty line.
std::vector<Sample> sort_samples(const std::string& op, const SampleContext& ctx, bool selects) {
  std::vector<Sample> out;
  auto add = [&](const Case& c, Tensor x, bool smooth) {
    Sample s;
    s.name = c.name;
    s.inputs = {std::move(x)};
    s.args.dims = {c.dim};
    s.args.flag = c.flag;
    s.args.keepdim = c.keepdim;
    s.args.ints = {std::min(c.k, line_length(c.shape, c.dim))};
    s.smooth = smooth;
    out.push_back(std::move(s));
  };
  for (const Case& c : cases()) {
    if (line_length(c.shape, c.dim) > distinct_capacity(ctx.dtype()) && ctx.dtype() != kBool) {
      continue;
    }
    add(c, distinct_input(op, ctx, c.name, c.shape, c.dim), ctx.dtype() != kBool);
  }
  if (!selects) {  // sort and topk along an empty line (topk's k = 0)
    const Case c{"empty_line", {2, 0, 3}, 1, true, false, 0};
    add(c, ctx.input(c.name, 0, c.shape), true);
  }
  const Case ties{"ties", {6, 9}, 1, false, false, 4};
  add(ties, ctx.input(ties.name, 0, ties.shape, Range{-2, 2}), false);
  if (is_floating_type(ctx.dtype())) {
    KernelSetGuard g("reference");
    const Tensor e = edge_values(ctx.dtype());
    const Case edge{"edge_values", {2, 16}, 1, true, false, 5};
    add(edge, cat({e.narrow(0, 3, 16), e.narrow(0, 0, 16)}).view({2, 16}), false);
    Sample s = out.back();
    s.name = "edge_values_asc";
    s.args.flag = false;
    out.push_back(std::move(s));
  }
  return out;
}

OpEntry entry(std::string name, bool selects, RunFn run) {
  const std::string op = name.substr(0, name.find('.'));
  OpEntry e = make_entry(
      name, "sort",
      [op, selects](const SampleContext& ctx) { return sort_samples(op, ctx, selects); },
      std::move(run));
  e.op = op;
  return e;
}

In pair(std::tuple<Tensor, Tensor> t) {
  return In{std::get<0>(t), std::get<1>(t)};
}

// ---- benchmark: a square matrix along its rows (dim 1) ----

void add_bench(std::vector<OpEntry>& v) {
  const DTypeSet real = DTypeSet::all() - DTypeSet{kBool};
  auto add = [&](const char* op, OpId id, Fill fill, auto call) {
    entry_named(v, op).bench = each_dtype(real, [=](CaseList& list, ScalarType t) {
      const int64_t s = list.side();
      const std::vector<int64_t> sq{s, s};
      BenchCase c =
          make_case("sort", op, t, shape_str(sq), "dim1", 2 * nbytes(s * s, t) + 8.0 * s, 0, {id});
      c.setup = [=](Device d) -> std::function<void()> {
        const Tensor x = make_input(sq, t, fill, d);
        return [=] { call(x, s); };
      };
      list.add(std::move(c));
    });
  };
  add("sort", OpId::sort, Fill::Normal, [](const Tensor& x, int64_t) { (void)sort(x, 1); });
  add("argsort", OpId::sort, Fill::Normal, [](const Tensor& x, int64_t) { (void)argsort(x, 1); });
  add("topk", OpId::topk, Fill::Normal,
      [](const Tensor& x, int64_t s) { (void)topk(x, s / 16, 1); });
  add("kthvalue", OpId::kthvalue, Fill::Normal,
      [](const Tensor& x, int64_t s) { (void)kthvalue(x, s / 3, 1); });
  add("median", OpId::median, Fill::Normal, [](const Tensor& x, int64_t) { (void)median(x, 1); });
  add("mode", OpId::mode, Fill::SmallInt, [](const Tensor& x, int64_t) { (void)mode(x, 1); });
}

}  // namespace

std::vector<OpEntry> sort_entries() {
  std::vector<OpEntry> v;
  // sort(self, dim, descending) and sort(self, stable=True, dim, descending).
  OpEntry sort_e = entry("sort", false, [](const In& in, const SampleArgs& a) {
    return pair(ts::sort(in[0], a.dims[0], a.flag));
  });
  sort_e.run_out = [](const In& outs, const In& in, const SampleArgs& a) {
    ts::sort_out(outs[0], outs[1], in[0], a.dims[0], a.flag);
  };
  v.push_back(std::move(sort_e));
  OpEntry stable = entry("sort.stable", false, [](const In& in, const SampleArgs& a) {
    return pair(ts::sort(in[0], std::optional<bool>(true), a.dims[0], a.flag));
  });
  stable.run_out = [](const In& outs, const In& in, const SampleArgs& a) {
    ts::sort_out(outs[0], outs[1], in[0], std::optional<bool>(true), a.dims[0], a.flag);
  };
  v.push_back(std::move(stable));
  v.push_back(entry("argsort", false, [](const In& in, const SampleArgs& a) {
    return In{ts::argsort(in[0], a.dims[0], a.flag)};
  }));
  v.push_back(entry("argsort.stable", false, [](const In& in, const SampleArgs& a) {
    return In{ts::argsort(in[0], true, a.dims[0], a.flag)};
  }));
  // topk(self, k, dim, largest, sorted=True): ATen leaves the order of sorted=False unspecified.
  OpEntry topk_e = entry("topk", false, [](const In& in, const SampleArgs& a) {
    return pair(ts::topk(in[0], a.ints[0], a.dims[0], a.flag));
  });
  topk_e.run_out = [](const In& outs, const In& in, const SampleArgs& a) {
    ts::topk_out(outs[0], outs[1], in[0], a.ints[0], a.dims[0], a.flag);
  };
  v.push_back(std::move(topk_e));
  OpEntry kth = entry("kthvalue", true, [](const In& in, const SampleArgs& a) {
    return pair(ts::kthvalue(in[0], a.ints[0], a.dims[0], a.keepdim));
  });
  kth.run_out = [](const In& outs, const In& in, const SampleArgs& a) {
    ts::kthvalue_out(outs[0], outs[1], in[0], a.ints[0], a.dims[0], a.keepdim);
  };
  v.push_back(std::move(kth));
  OpEntry med = entry("median", true, [](const In& in, const SampleArgs& a) {
    return pair(ts::median(in[0], a.dims[0], a.keepdim));
  });
  med.run_out = [](const In& outs, const In& in, const SampleArgs& a) {
    ts::median_out(outs[0], outs[1], in[0], a.dims[0], a.keepdim);
  };
  v.push_back(std::move(med));
  // median() over all elements: values only, no out= form. The samples' values are distinct
  // along dim only, so over a whole matrix they tie (not smooth: the gradient is split).
  OpEntry med_all = entry("median.all", true,
                          [](const In& in, const SampleArgs&) { return In{ts::median(in[0])}; });
  const SamplesFn per_dim = med_all.samples;
  med_all.samples = [per_dim](const SampleContext& ctx) {
    std::vector<Sample> v = per_dim(ctx);
    for (Sample& s : v) s.smooth = s.smooth && s.inputs[0].dim() <= 1;
    return v;
  };
  v.push_back(std::move(med_all));
  OpEntry mode_e = entry("mode", true, [](const In& in, const SampleArgs& a) {
    return pair(ts::mode(in[0], a.dims[0], a.keepdim));
  });
  mode_e.run_out = [](const In& outs, const In& in, const SampleArgs& a) {
    ts::mode_out(outs[0], outs[1], in[0], a.dims[0], a.keepdim);
  };
  v.push_back(std::move(mode_e));
  add_bench(v);
  // Note [Known answers] in catalog.h: torch.sort's documentation example, by hand.
  entry_named(v, "sort").known = {
      {kFloat, [] {
         SampleArgs a;
         a.dims = {-1};
         return known_answer("known", {tensor({3., 1., 2., -1.})},
                             {tensor({-1., 1., 2., 3.}), tensor({3, 1, 2, 0}, kLong)}, a);
       }}};
  entry_named(v, "median").known = {{kFloat, [] {
                                       SampleArgs a;
                                       a.dims = {1};
                                       return known_answer(
                                           "known", {tensor({4., 1., 3., 2., 5., 6.}).view({2, 3})},
                                           {tensor({3., 5.}), tensor({2, 1}, kLong)}, a);
                                     }}};
  for (OpEntry& e : sorted_entries()) v.push_back(std::move(e));  // catalog/sorted.cpp
  return v;
}

}  // namespace ts::catalog
