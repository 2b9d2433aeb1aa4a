// The parity test's sorting, selection and scan family (issue 16): sort (and its stable form),
// argsort, topk, kthvalue, median (per dim and over all elements), mode, cummax, cummin,
// cumprod (every form) and logcumsumexp over every dtype,
// contiguous and transposed, along each dim; values and indices compared, values through out=
// too. Inputs hold distinct values (Note [Distinct samples] in catalog/sort.cpp) except in bool,
// so that ATen's unstable selections agree on the indices; a few bad calls.
#include "parity.h"

namespace ts::parity {
namespace {

using TsPair = std::tuple<TsT, TsT>;
using AtPair = std::tuple<AtT, AtT>;

// One op returning (values, indices): both compared, values also through out=.
void run_pair(Tally& tally, const std::string& set, const std::string& op, const std::string& key,
              Layout l, const Input& x, const std::function<TsPair(const TsT&)>& ts_f,
              const std::function<AtPair(const AtT&)>& at_f,
              const std::function<void(const TsT&, const TsT&)>& ts_o,
              const std::function<void(AtT&, const AtT&)>& at_o) {
  Call c{op, "", key, layout_name(l), {x}};
  run_forms(
      tally, set, c, x.dtype, [=](const TsVec& in) { return std::get<0>(ts_f(in[0])); },
      [=](const AtVec& in) { return std::get<0>(at_f(in[0])); }, nullptr, nullptr,
      ts_o ? std::function<void(const TsT&, const TsVec&)>(
                 [=](const TsT& o, const TsVec& in) { ts_o(o, in[0]); })
           : nullptr,
      at_o ? std::function<void(AtT&, const AtVec&)>(
                 [=](AtT& o, const AtVec& in) { at_o(o, in[0]); })
           : nullptr);
  Call i{op, ",indices", key, layout_name(l), {x}};
  run_call(
      tally, set, i, [=](const TsVec& in) { return std::get<1>(ts_f(in[0])); },
      [=](const AtVec& in) { return std::get<1>(at_f(in[0])); });
}

void run_sort_ops(Tally& tally, const std::string& set) {
  const std::vector<double> distinct = {5, -3, 8, 1, 0, 7, -6, 2, 4, -1, 9, 3};
  for (ScalarType d : kDtypes) {
    for (Layout l : {Layout::Contiguous, Layout::Transposed}) {
      const Input x{d, l, 0, {3, 4}, distinct};
      const bool no_bool = d != kBool;
      for (int64_t dim : {0, 1, -1}) {
        for (bool flag : {false, true}) {
          const std::string key =
              short_name(d) + ",dim=" + std::to_string(dim) + (flag ? ",flag" : "");
          run_pair(
              tally, set, "sort", key, l, x, [=](const TsT& a) { return ts::sort(a, dim, flag); },
              [=](const AtT& a) { return at::sort(a, dim, flag); },
              [=](const TsT& o, const TsT& a) {
                ts::sort_out(o, ts::empty({0}, kLong), a, dim, flag);
              },
              [=](AtT& o, const AtT& a) {
                AtT i = at::empty({0}, at::kLong);
                at::sort_out(o, i, a, dim, flag);
              });
          run_pair(
              tally, set, "sort", key + ",stable", l, x,
              [=](const TsT& a) { return ts::sort(a, std::optional<bool>(true), dim, flag); },
              [=](const AtT& a) { return at::sort(a, c10::optional<bool>(true), dim, flag); },
              nullptr, nullptr);
          Call as{"argsort", "", key, layout_name(l), {x}};
          run_call(
              tally, set, as, [=](const TsVec& in) { return ts::argsort(in[0], dim, flag); },
              [=](const AtVec& in) { return at::argsort(in[0], dim, flag); });
          if (no_bool) {
            run_pair(
                tally, set, "topk", key, l, x,
                [=](const TsT& a) { return ts::topk(a, 2, dim, flag); },
                [=](const AtT& a) { return at::topk(a, 2, dim, flag); },
                [=](const TsT& o, const TsT& a) {
                  ts::topk_out(o, ts::empty({0}, kLong), a, 2, dim, flag);
                },
                [=](AtT& o, const AtT& a) {
                  AtT i = at::empty({0}, at::kLong);
                  at::topk_out(o, i, a, 2, dim, flag);
                });
            run_pair(
                tally, set, "kthvalue", key, l, x,
                [=](const TsT& a) { return ts::kthvalue(a, 2, dim, flag); },
                [=](const AtT& a) { return at::kthvalue(a, 2, dim, flag); }, nullptr, nullptr);
            run_pair(
                tally, set, "median", key, l, x,
                [=](const TsT& a) { return ts::median(a, dim, flag); },
                [=](const AtT& a) { return at::median(a, dim, flag); },
                [=](const TsT& o, const TsT& a) {
                  ts::median_out(o, ts::empty({0}, kLong), a, dim, flag);
                },
                [=](AtT& o, const AtT& a) {
                  AtT i = at::empty({0}, at::kLong);
                  at::median_out(o, i, a, dim, flag);
                });
          }
          run_pair(
              tally, set, "mode", key, l, x, [=](const TsT& a) { return ts::mode(a, dim, flag); },
              [=](const AtT& a) { return at::mode(a, dim, flag); }, nullptr, nullptr);
        }
        // scans (issue 16)
        const std::string key = short_name(d) + ",dim=" + std::to_string(dim);
        for (bool mx : {true, false}) {
          run_pair(
              tally, set, mx ? "cummax" : "cummin", key, l, x,
              [=](const TsT& a) { return mx ? ts::cummax(a, dim) : ts::cummin(a, dim); },
              [=](const AtT& a) { return mx ? at::cummax(a, dim) : at::cummin(a, dim); },
              [=](const TsT& o, const TsT& a) {
                mx ? ts::cummax_out(o, ts::empty({0}, kLong), a, dim)
                   : ts::cummin_out(o, ts::empty({0}, kLong), a, dim);
              },
              [=](AtT& o, const AtT& a) {
                AtT i = at::empty({0}, at::kLong);
                mx ? at::cummax_out(o, i, a, dim) : at::cummin_out(o, i, a, dim);
              });
        }
        Call cp{"cumprod", "", key, layout_name(l), {x}};
        run_forms(
            tally, set, cp, d == kBool ? kLong : (is_floating_type(d) ? d : kLong),
            [=](const TsVec& in) { return ts::cumprod(in[0], dim); },
            [=](const AtVec& in) { return at::cumprod(in[0], dim); },
            [=](const TsVec& in) { in[0].cumprod_(dim); }, [=](AtVec& in) { in[0].cumprod_(dim); },
            [=](const TsT& o, const TsVec& in) { ts::cumprod_out(o, in[0], dim); },
            [=](AtT& o, const AtVec& in) { at::cumprod_out(o, in[0], dim); });
        if (is_floating_type(d)) {
          Call lse{"logcumsumexp", "", key, layout_name(l), {x}};
          run_forms(
              tally, set, lse, d, [=](const TsVec& in) { return ts::logcumsumexp(in[0], dim); },
              [=](const AtVec& in) { return at::logcumsumexp(in[0], dim); }, nullptr, nullptr,
              [=](const TsT& o, const TsVec& in) { ts::logcumsumexp_out(o, in[0], dim); },
              [=](AtT& o, const AtVec& in) { at::logcumsumexp_out(o, in[0], dim); });
        }
      }
      if (no_bool) {
        Call m{"median", ",all", short_name(d), layout_name(l), {x}};
        m.grad = is_floating_type(d);
        run_call(
            tally, set, m, [](const TsVec& in) { return ts::median(in[0]); },
            [](const AtVec& in) { return at::median(in[0]); });
      }
    }
  }
  // Bad calls: k out of range, an empty dim, a dim out of range.
  const Input x{kFloat, Layout::Contiguous, 0, {2, 3}};
  run_bad(
      tally, set, "topk", "k=4", {x},
      [](const TsVec& in) { return std::get<0>(ts::topk(in[0], 4)); },
      [](const AtVec& in) { return std::get<0>(at::topk(in[0], 4)); });
  run_bad(
      tally, set, "kthvalue", "k=0", {x},
      [](const TsVec& in) { return std::get<0>(ts::kthvalue(in[0], 0)); },
      [](const AtVec& in) { return std::get<0>(at::kthvalue(in[0], 0)); });
  run_bad(
      tally, set, "sort", "dim=2", {x},
      [](const TsVec& in) { return std::get<0>(ts::sort(in[0], 2)); },
      [](const AtVec& in) { return std::get<0>(at::sort(in[0], 2)); });
  const Input e{kFloat, Layout::Contiguous, 0, {2, 0}};
  run_bad(
      tally, set, "median", "empty dim", {e},
      [](const TsVec& in) { return std::get<0>(ts::median(in[0], 1)); },
      [](const AtVec& in) { return std::get<0>(at::median(in[0], 1)); });
  run_bad(
      tally, set, "mode", "empty dim", {e},
      [](const TsVec& in) { return std::get<0>(ts::mode(in[0], 1)); },
      [](const AtVec& in) { return std::get<0>(at::mode(in[0], 1)); });
}

}  // namespace

void run_sort(Tally& tally, const std::string& set) {
  run_sort_ops(tally, set);
}

}  // namespace ts::parity
