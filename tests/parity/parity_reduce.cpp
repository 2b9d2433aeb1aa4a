// The parity test's reduction family: sum, mean, prod, amax/amin, max/min (values and indices),
// argmax/argmin, var/std with a correction, norm with several p, logsumexp, all/any and cumsum,
// over ten dtypes, four layouts, full and per-dim reductions with and without keepdim, the
// function and out= forms (cumsum in-place too), and a few bad calls.
#include <cmath>
#include <limits>
#include <optional>
#include <sstream>

#include "parity.h"

namespace ts::parity {
namespace {

constexpr Layout kReduceLayouts[] = {Layout::Contiguous, Layout::Transposed, Layout::ZeroDim,
                                     Layout::Empty};

// A reduction: its full form (no dim) and its per-dim form (dim, keepdim), with out=.
struct Reduce {
  const char* op;
  std::function<TsT(const TsT&)> ts_all;
  std::function<AtT(const AtT&)> at_all;
  std::function<TsT(const TsT&, int64_t, bool)> ts_dim;
  std::function<AtT(const AtT&, int64_t, bool)> at_dim;
  std::function<void(const TsT&, const TsT&, int64_t, bool)> ts_out;
  std::function<void(AtT&, const AtT&, int64_t, bool)> at_out;
};

// The ops that compute in floating dtypes only run over these (bool and int64 check refusals).
const std::vector<ScalarType> kAll(std::begin(kDtypes), std::end(kDtypes));
const std::vector<ScalarType> kFloating = {kBool, kLong, kHalf, kBFloat16, kFloat, kDouble};

void run_reduction(Tally& tally, const std::string& set, const Reduce& r,
                   const std::string& variant, const std::vector<ScalarType>& dtypes = kAll) {
  for (ScalarType d : dtypes) {
    for (Layout l : kReduceLayouts) {
      Call c{r.op, "", short_name(d) + variant, layout_name(l), {{d, l, 0}}};
      if (r.ts_all) {
        c.form = "f_all";
        c.grad = true;
        run_call(
            tally, set, c, [&](const TsVec& in) { return r.ts_all(in[0]); },
            [&](const AtVec& in) { return r.at_all(in[0]); });
      }
      for (const auto& [dim, keepdim] :
           {std::pair{int64_t{-1}, false}, std::pair{int64_t{0}, true}}) {
        Call cd = c;
        cd.dtypes += ",dim=" + std::to_string(dim) + (keepdim ? ",keepdim" : "");
        const auto at_f = [&, dim = dim, keepdim = keepdim](const AtVec& in) {
          return r.at_dim(in[0], dim, keepdim);
        };
        run_forms(
            tally, set, cd, aten_result_dtype(tally, cd.inputs, at_f, d),
            [&, dim = dim, keepdim = keepdim](const TsVec& in) {
              return r.ts_dim(in[0], dim, keepdim);
            },
            at_f, nullptr, nullptr,
            r.ts_out ? std::function<void(const TsT&, const TsVec&)>(
                           [&, dim = dim, keepdim = keepdim](const TsT& o, const TsVec& in) {
                             r.ts_out(o, in[0], dim, keepdim);
                           })
                     : nullptr,
            r.at_out ? std::function<void(AtT&, const AtVec&)>(
                           [&, dim = dim, keepdim = keepdim](AtT& o, const AtVec& in) {
                             r.at_out(o, in[0], dim, keepdim);
                           })
                     : nullptr);
      }
    }
  }
}

// clang-format off
#define DIMS_OUT(name)                                                                          \
  [](const TsT& a, int64_t d, bool k) { return ts::name(a, {d}, k); },                        \
  [](const AtT& a, int64_t d, bool k) { return at::name(a, {d}, k); },                        \
  [](const TsT& o, const TsT& a, int64_t d, bool k) { ts::name##_out(o, a, {d}, k); },        \
  [](AtT& o, const AtT& a, int64_t d, bool k) { at::name##_out(o, a, {d}, k); }
#define DIM_OUT(name)                                                                           \
  [](const TsT& a, int64_t d, bool k) { return ts::name(a, d, k); },                          \
  [](const AtT& a, int64_t d, bool k) { return at::name(a, d, k); },                          \
  [](const TsT& o, const TsT& a, int64_t d, bool k) { ts::name##_out(o, a, d, k); },          \
  [](AtT& o, const AtT& a, int64_t d, bool k) { at::name##_out(o, a, d, k); }
#define ALL(name) [](const TsT& a) { return ts::name(a); }, [](const AtT& a) { return at::name(a); }
// clang-format on

void run_plain_reductions(Tally& tally, const std::string& set) {
  const Reduce kReduce[] = {
      {"sum", ALL(sum), DIMS_OUT(sum)},
      {"mean", ALL(mean), DIMS_OUT(mean)},
      {"prod", ALL(prod), DIM_OUT(prod)},
      {"amax", ALL(amax), DIMS_OUT(amax)},
      {"amin", ALL(amin), DIMS_OUT(amin)},
      {"logsumexp", nullptr, nullptr, DIMS_OUT(logsumexp)},
      {"all", ALL(all), DIM_OUT(all)},
      {"any", ALL(any), DIM_OUT(any)},
      {"argmax", ALL(argmax), DIM_OUT(argmax)},
      {"argmin", ALL(argmin), DIM_OUT(argmin)},
      {"max", ALL(max),
       [](const TsT& a, int64_t d, bool k) { return std::get<0>(ts::max(a, d, k)); },
       [](const AtT& a, int64_t d, bool k) { return std::get<0>(at::max(a, d, k)); },
       [](const TsT& o, const TsT& a, int64_t d, bool k) {
         ts::max_out(o, ts::empty({0}, kLong), a, d, k);
       },
       [](AtT& o, const AtT& a, int64_t d, bool k) {
         AtT i = at::empty({0}, at::kLong);
         at::max_out(o, i, a, d, k);
       }},
      {"min", ALL(min),
       [](const TsT& a, int64_t d, bool k) { return std::get<0>(ts::min(a, d, k)); },
       [](const AtT& a, int64_t d, bool k) { return std::get<0>(at::min(a, d, k)); },
       [](const TsT& o, const TsT& a, int64_t d, bool k) {
         ts::min_out(o, ts::empty({0}, kLong), a, d, k);
       },
       [](AtT& o, const AtT& a, int64_t d, bool k) {
         AtT i = at::empty({0}, at::kLong);
         at::min_out(o, i, a, d, k);
       }},
  };
  for (const Reduce& r : kReduce) {
    const std::string op = r.op;
    run_reduction(tally, set, r, "", op == "mean" || op == "logsumexp" ? kFloating : kAll);
  }
  // max and min's indices (the function form; out= indices are checked through the values).
  const Reduce kIndices[] = {
      {"max", nullptr, nullptr,
       [](const TsT& a, int64_t d, bool k) { return std::get<1>(ts::max(a, d, k)); },
       [](const AtT& a, int64_t d, bool k) { return std::get<1>(at::max(a, d, k)); }},
      {"min", nullptr, nullptr,
       [](const TsT& a, int64_t d, bool k) { return std::get<1>(ts::min(a, d, k)); },
       [](const AtT& a, int64_t d, bool k) { return std::get<1>(at::min(a, d, k)); }},
  };
  for (const Reduce& r : kIndices) run_reduction(tally, set, r, ",indices");
  // sum, mean, prod and cumsum with a dtype.
  for (ScalarType dtype : {kDouble, kLong, kHalf}) {
    const std::string v = ",dtype=" + short_name(dtype);
    const Reduce kWithDtype[] = {
        {"sum", [=](const TsT& a) { return ts::sum(a, dtype); },
         [=](const AtT& a) { return at::sum(a, to_aten(dtype)); },
         [=](const TsT& a, int64_t d, bool k) { return ts::sum(a, {d}, k, dtype); },
         [=](const AtT& a, int64_t d, bool k) { return at::sum(a, {d}, k, to_aten(dtype)); },
         [=](const TsT& o, const TsT& a, int64_t d, bool k) { ts::sum_out(o, a, {d}, k, dtype); },
         [=](AtT& o, const AtT& a, int64_t d, bool k) {
           at::sum_out(o, a, {d}, k, to_aten(dtype));
         }},
        {"prod", [=](const TsT& a) { return ts::prod(a, dtype); },
         [=](const AtT& a) { return at::prod(a, to_aten(dtype)); },
         [=](const TsT& a, int64_t d, bool k) { return ts::prod(a, d, k, dtype); },
         [=](const AtT& a, int64_t d, bool k) { return at::prod(a, d, k, to_aten(dtype)); },
         [=](const TsT& o, const TsT& a, int64_t d, bool k) { ts::prod_out(o, a, d, k, dtype); },
         [=](AtT& o, const AtT& a, int64_t d, bool k) {
           at::prod_out(o, a, d, k, to_aten(dtype));
         }},
        {"mean", [=](const TsT& a) { return ts::mean(a, dtype); },
         [=](const AtT& a) { return at::mean(a, to_aten(dtype)); },
         [=](const TsT& a, int64_t d, bool k) { return ts::mean(a, {d}, k, dtype); },
         [=](const AtT& a, int64_t d, bool k) { return at::mean(a, {d}, k, to_aten(dtype)); },
         nullptr, nullptr},
    };
    for (const Reduce& r : kWithDtype) run_reduction(tally, set, r, v, kFloating);
  }
}

// var and std with correction 0, 1 and 2; norm with p = 2, 1, inf, 0, 3, 0.5, -inf.
void run_var_norm(Tally& tally, const std::string& set) {
  for (int64_t corr : {0, 1, 2}) {
    const std::string v = ",correction=" + std::to_string(corr);
    // The correction overloads: a plain int64 would pick ATen's (dim, bool unbiased) overload.
    const c10::optional<int64_t> correction = corr;
    const Reduce kVar[] = {
        {"var", [=](const TsT& a) { return ts::var(a, {}, double(corr)); },
         [=](const AtT& a) { return at::var(a, at::OptionalIntArrayRef(), correction); },
         [=](const TsT& a, int64_t d, bool k) { return ts::var(a, {d}, double(corr), k); },
         [=](const AtT& a, int64_t d, bool k) {
           return at::var(a, at::IntArrayRef(&d, 1), correction, k);
         },
         [=](const TsT& o, const TsT& a, int64_t d, bool k) { ts::var_out(o, a, {d}, corr, k); },
         [=](AtT& o, const AtT& a, int64_t d, bool k) {
           at::var_out(o, a, at::IntArrayRef(&d, 1), correction, k);
         }},
        {"std", [=](const TsT& a) { return ts::std(a, {}, double(corr)); },
         [=](const AtT& a) { return at::std(a, at::OptionalIntArrayRef(), correction); },
         [=](const TsT& a, int64_t d, bool k) { return ts::std(a, {d}, double(corr), k); },
         [=](const AtT& a, int64_t d, bool k) {
           return at::std(a, at::IntArrayRef(&d, 1), correction, k);
         },
         [=](const TsT& o, const TsT& a, int64_t d, bool k) { ts::std_out(o, a, {d}, corr, k); },
         [=](AtT& o, const AtT& a, int64_t d, bool k) {
           at::std_out(o, a, at::IntArrayRef(&d, 1), correction, k);
         }},
    };
    for (const Reduce& r : kVar) run_reduction(tally, set, r, v, kFloating);
  }
  const double inf = std::numeric_limits<double>::infinity();
  for (double p : {2.0, 1.0, inf, 0.0, 3.0, 0.5, -inf}) {
    std::ostringstream name;
    name << ",p=" << p;
    const Reduce r{
        "norm",
        [=](const TsT& a) { return ts::norm(a, p); },
        [=](const AtT& a) { return at::norm(a, p); },
        [=](const TsT& a, int64_t d, bool k) { return ts::norm(a, p, {d}, k); },
        [=](const AtT& a, int64_t d, bool k) {
          return at::norm(a, c10::optional<at::Scalar>(p), {d}, k);
        },
        [=](const TsT& o, const TsT& a, int64_t d, bool k) { ts::norm_out(o, a, p, {d}, k); },
        [=](AtT& o, const AtT& a, int64_t d, bool k) {
          at::norm_out(o, a, c10::optional<at::Scalar>(p), {d}, k);
        }};
    run_reduction(tally, set, r, name.str(), kFloating);
  }
}

void run_cumsum(Tally& tally, const std::string& set) {
  for (ScalarType d : kDtypes) {
    for (Layout l : kReduceLayouts) {
      for (int64_t dim : {-1}) {
        for (std::optional<ScalarType> dtype : {std::optional<ScalarType>(), {kDouble}, {kLong}}) {
          const c10::optional<at::ScalarType> at_dtype =
              dtype ? c10::optional<at::ScalarType>(to_aten(*dtype)) : c10::nullopt;
          Call c{"cumsum",
                 "",
                 short_name(d) + ",dim=" + std::to_string(dim) +
                     (dtype ? ",dtype=" + short_name(*dtype) : ""),
                 layout_name(l),
                 {{d, l, 0}}};
          const auto at_f = [=](const AtVec& in) { return at::cumsum(in[0], dim, at_dtype); };
          run_forms(
              tally, set, c, aten_result_dtype(tally, c.inputs, at_f, d),
              [=](const TsVec& in) { return ts::cumsum(in[0], dim, dtype); }, at_f,
              [=](const TsVec& in) { in[0].cumsum_(dim, dtype); },
              [=](AtVec& in) { in[0].cumsum_(dim, at_dtype); },
              [=](const TsT& o, const TsVec& in) { ts::cumsum_out(o, in[0], dim, dtype); },
              [=](AtT& o, const AtVec& in) { at::cumsum_out(o, in[0], dim, at_dtype); });
        }
      }
    }
  }
}

// Bad calls: a dim out of range, a repeated dim, an out= of the wrong dtype for indices.
void run_bad_reduce(Tally& tally, const std::string& set) {
  const Input x{kFloat};
  run_bad(
      tally, set, "sum", "dim=2", {x}, [](const TsVec& in) { return ts::sum(in[0], {2}); },
      [](const AtVec& in) { return at::sum(in[0], at::IntArrayRef{2}); });
  run_bad(
      tally, set, "sum", "dims=0,0", {x},
      [](const TsVec& in) {
        return ts::sum(in[0], {0, 0});
      },
      [](const AtVec& in) {
        return at::sum(in[0], at::IntArrayRef{0, 0});
      });
  run_bad(
      tally, set, "amax", "dim=-3", {x}, [](const TsVec& in) { return ts::amax(in[0], {-3}); },
      [](const AtVec& in) { return at::amax(in[0], {-3}); });
  run_bad(
      tally, set, "max", "dim=2", {x},
      [](const TsVec& in) { return std::get<0>(ts::max(in[0], 2)); },
      [](const AtVec& in) { return std::get<0>(at::max(in[0], 2)); });
  run_bad(
      tally, set, "max", "indices out f32", {x},
      [](const TsVec& in) {
        TsT v = ts::empty({0}, kFloat);
        ts::max_out(v, ts::empty({0}, kFloat), in[0], 1);
        return v;
      },
      [](const AtVec& in) {
        AtT v = at::empty({0}, at::kFloat), i = at::empty({0}, at::kFloat);
        at::max_out(v, i, in[0], 1);
        return v;
      });
  run_bad(
      tally, set, "cumsum", "dim=2", {x}, [](const TsVec& in) { return ts::cumsum(in[0], 2); },
      [](const AtVec& in) { return at::cumsum(in[0], 2); });
  run_bad(
      tally, set, "argmax", "dim=5", {x}, [](const TsVec& in) { return ts::argmax(in[0], 5); },
      [](const AtVec& in) { return at::argmax(in[0], 5); });
  run_bad(
      tally, set, "logsumexp", "dim=2", {x},
      [](const TsVec& in) { return ts::logsumexp(in[0], {2}); },
      [](const AtVec& in) { return at::logsumexp(in[0], {2}); });
  run_bad(
      tally, set, "all", "dim=2", {x}, [](const TsVec& in) { return ts::all(in[0], 2); },
      [](const AtVec& in) { return at::all(in[0], 2); });
}

}  // namespace

void run_reduce(Tally& tally, const std::string& set) {
  run_plain_reductions(tally, set);
  run_var_norm(tally, set);
  run_cumsum(tally, set);
  run_bad_reduce(tally, set);
}

}  // namespace ts::parity
