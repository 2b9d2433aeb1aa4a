// Catalog entries of the reductions: dim lists (incl. negative dims and the empty list, which
// reduces every dim), keepdim, 0-dim and empty inputs, and reductions over an empty dim.
#include <utility>

#include "conformance/catalog.h"

namespace ts::conformance {
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
  if (is_floating_type(ctx.dtype())) {
    // NaN, infinities, limits: propagation and overflow; the mixed row is reduced with dim 1.
    Sample s;
    s.name = "edge_values";
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
  for (OpEntry& e : v) {
    const std::string& op = e.op_name();
    e.accumulates = op != "amax" && op != "amin" && op != "argmax" && op != "argmin" &&
                    op != "all" && op != "any";
  }
  return v;
}

}  // namespace ts::conformance
