// Catalog entries of the scans of issue 16: cumprod (and cumprod_), logcumsumexp, cummax,
// cummin. SampleArgs: dims[0] the scanned dim. cumprod draws factors near 1 (products of 2053
// of them stay finite) and a sample with zeros (Note [cumprod gradient] in lib/src/ops/scan.cpp:
// smooth, the gradient is a polynomial's); cummax and cummin keep ATen's tie rule, so their
// `ties` sample (few distinct values) is compared with every set.
#include <utility>

#include "catalog/bench.h"

namespace ts::catalog {
namespace {

using In = std::vector<Tensor>;
using Shape = std::vector<int64_t>;

struct Case {
  std::string name;
  Shape shape;
  int64_t dim;
};

const std::vector<Case>& cases() {
  static const std::vector<Case> all = {
      {"scalar", {}, 0},
      {"scalar_neg", {}, -1},
      {"vec", {7}, 0},
      {"mat_d1", {3, 4}, 1},
      {"mat_neg", {3, 4}, -2},
      {"cube_d1", {2, 3, 5}, 1},
      {"cube_d2", {2, 3, 5}, 2},
      {"big_d0", {37, 53}, 0},
      {"big_d1", {37, 53}, 1},
      {"long", {2053}, -1},
      {"size1", {5, 1, 4}, 1},
      {"empty", {2, 0, 3}, 1},
      {"empty_other", {2, 0, 3}, 0},
  };
  return all;
}

std::vector<Sample> scan_samples(const SampleContext& ctx, Range r) {
  std::vector<Sample> out;
  auto add = [&](const std::string& name, Tensor x, int64_t dim, bool smooth) {
    Sample s;
    s.name = name;
    s.inputs = {std::move(x)};
    s.args.dims = {dim};
    s.smooth = smooth;
    out.push_back(std::move(s));
  };
  for (const Case& c : cases()) add(c.name, ctx.input(c.name, 0, c.shape, r), c.dim, true);
  add("ties", ctx.input("ties", 0, {6, 9}, Range{-2, 2}), 1, false);
  if (is_floating_type(ctx.dtype())) {
    KernelSetGuard g("reference");
    const Tensor e = edge_values(ctx.dtype());
    add("edge_values", cat({e.narrow(0, 3, 16), e.narrow(0, 0, 16)}).view({2, 16}), 1, false);
    add("edge_values_d0", cat({e.narrow(0, 3, 16), e.narrow(0, 0, 16)}).view({2, 16}), 0, false);
  }
  return out;
}

OpEntry entry(std::string name, Range r, RunFn run) {
  return make_entry(
      std::move(name), "scan", [r](const SampleContext& ctx) { return scan_samples(ctx, r); },
      std::move(run));
}

In pair(std::tuple<Tensor, Tensor> t) {
  return In{std::get<0>(t), std::get<1>(t)};
}

void add_bench(std::vector<OpEntry>& v) {
  auto add = [&](const char* op, OpId id, DTypeSet dtypes, Range r, auto call) {
    entry_named(v, op).bench = each_dtype(dtypes, [=](CaseList& list, ScalarType t) {
      const int64_t s = list.side();
      const std::vector<int64_t> sq{s, s};
      for (int64_t dim : {0, 1}) {
        BenchCase c = make_case("scan", op, t, shape_str(sq), "dim" + std::to_string(dim),
                                3 * nbytes(s * s, t), static_cast<double>(s * s), {id});
        c.setup = [=](Device d) -> std::function<void()> {
          const Tensor x = make_input(sq, t, r, d);
          return [=] { call(x, dim); };
        };
        list.add(std::move(c));
      }
    });
  };
  const DTypeSet real = DTypeSet::all() - DTypeSet{kBool};
  add("cumprod", OpId::cumprod, real, Range{0.5, 1.5},
      [](const Tensor& x, int64_t d) { (void)cumprod(x, d); });
  add("logcumsumexp", OpId::logcumsumexp, DTypeSet::floating(), Range{-4, 4},
      [](const Tensor& x, int64_t d) { (void)logcumsumexp(x, d); });
  add("cummax", OpId::cummax, real, Range{-4, 4},
      [](const Tensor& x, int64_t d) { (void)cummax(x, d); });
  add("cummin", OpId::cummin, real, Range{-4, 4},
      [](const Tensor& x, int64_t d) { (void)cummin(x, d); });
}

}  // namespace

std::vector<OpEntry> scan_entries() {
  std::vector<OpEntry> v;
  OpEntry cp = entry("cumprod", Range{0.5, 1.5}, [](const In& in, const SampleArgs& a) {
    return In{ts::cumprod(in[0], a.dims[0])};
  });
  cp.run_out = [](const In& outs, const In& in, const SampleArgs& a) {
    ts::cumprod_out(outs[0], in[0], a.dims[0]);
  };
  cp.run_inplace = [](const Tensor& self, const In&, const SampleArgs& a) {
    return self.cumprod_(a.dims[0]);
  };
  cp.accumulates = true;
  // Integer factors are -1 or 1 (uint8: 255 or 1): 0.5..1.5 rounds to 0 and 1, whose products
  // are constant after the first 0, and wider factors overflow a line of 2053.
  cp.samples = [base = cp.samples](const SampleContext& ctx) {
    std::vector<Sample> out = base(ctx);
    if (is_floating_type(ctx.dtype())) return out;
    KernelSetGuard g("reference");
    for (Sample& s : out) {
      if (s.inputs.empty() || s.inputs[0].numel() == 0) continue;
      const Tensor u =
          SampleContext("cumprod/sign", kDouble).input(s.name, 0, s.inputs[0].sizes(), Range{0, 1});
      const Tensor one = ones(s.inputs[0].sizes(), kLong);
      s.inputs[0] = where(lt(u, 0.5), neg(one), one).to(ctx.dtype());
    }
    return out;
  };
  v.push_back(std::move(cp));
  OpEntry lse = entry("logcumsumexp", Range{-4, 4}, [](const In& in, const SampleArgs& a) {
    return In{ts::logcumsumexp(in[0], a.dims[0])};
  });
  lse.run_out = [](const In& outs, const In& in, const SampleArgs& a) {
    ts::logcumsumexp_out(outs[0], in[0], a.dims[0]);
  };
  lse.accumulates = true;
  v.push_back(std::move(lse));
  for (const char* op : {"cummax", "cummin"}) {
    const bool mx = std::string(op) == "cummax";
    OpEntry e = entry(op, Range{-4, 4}, [mx](const In& in, const SampleArgs& a) {
      return pair(mx ? ts::cummax(in[0], a.dims[0]) : ts::cummin(in[0], a.dims[0]));
    });
    e.run_out = [mx](const In& outs, const In& in, const SampleArgs& a) {
      mx ? ts::cummax_out(outs[0], outs[1], in[0], a.dims[0])
         : ts::cummin_out(outs[0], outs[1], in[0], a.dims[0]);
    };
    v.push_back(std::move(e));
  }
  add_bench(v);
  // Note [Known answers] in catalog.h: by hand.
  entry_named(v, "cumprod").known = {{kDouble, [] {
                                        SampleArgs a;
                                        a.dims = {0};
                                        return known_answer(
                                            "known", {tensor({2., 3., 0.5, -1.}, kDouble)},
                                            {tensor({2., 6., 3., -3.}, kDouble)}, a);
                                      }}};
  entry_named(v, "cummax").known = {
      {kFloat, [] {
         SampleArgs a;
         a.dims = {0};
         return known_answer("known", {tensor({1., 3., 2., 3., 5.})},
                             {tensor({1., 3., 3., 3., 5.}), tensor({0, 1, 1, 3, 4}, kLong)}, a);
       }}};
  return v;
}

}  // namespace ts::catalog
