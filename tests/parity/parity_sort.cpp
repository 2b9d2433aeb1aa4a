// The parity test's sorting, selection and scan family (issue 16): sort (and its stable form),
// argsort, topk, kthvalue, median (per dim and over all elements), mode, cummax, cummin,
// cumprod (every form) and logcumsumexp over every dtype, searchsorted, bucketize, _unique2,
// unique_dim and unique_consecutive,
// contiguous and transposed, along each dim; values and indices compared, values through out=
// too. Inputs hold distinct values (Note [Distinct samples] in catalog/sort.cpp) except in bool,
// so that ATen's unstable selections agree on the indices; a few bad calls.
#include <ATen/ops/_unique2.h>
#include <ATen/ops/bucketize.h>
#include <ATen/ops/searchsorted.h>
#include <ATen/ops/unique_consecutive.h>
#include <ATen/ops/unique_dim.h>

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

// searchsorted and bucketize (left, right, int32 results, a sorter), unique's three results.
void run_sorted_ops(Tally& tally, const std::string& set) {
  const std::vector<double> seq_values = {-6, -3, -1, 0, 1, 1, 2, 3, 4, 5, 7, 8};
  const std::vector<double> ties = {2, 1, 2, 0, 1, 1, 3, 2, 0, 1, 2, 3};
  for (ScalarType d : kDtypes) {
    const std::string key = short_name(d);
    if (d != kBool) {  // searchsorted and bucketize: no bool kernel (ATen, touchstone)
      const Input seq{d, Layout::Contiguous, 0, {12}, seq_values};
      const Input rows{d, Layout::Contiguous, 0, {3, 4}, seq_values};
      const Input sorter{
          kLong, Layout::Contiguous, 0, {12}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}};
      for (Layout l : {Layout::Contiguous, Layout::Transposed}) {
        const Input x{d, l, 1, {3, 4}, ties};
        for (bool right : {false, true}) {
          for (bool i32 : {false, true}) {
            const std::string k = key + (right ? ",right" : "") + (i32 ? ",int32" : "");
            Call c{"searchsorted", "", k, layout_name(l), {seq, x}};
            run_forms(
                tally, set, c, i32 ? kInt : kLong,
                [=](const TsVec& v) { return ts::searchsorted(v[0], v[1], i32, right); },
                [=](const AtVec& v) { return at::searchsorted(v[0], v[1], i32, right); }, nullptr,
                nullptr,
                [=](const TsT& o, const TsVec& v) {
                  ts::searchsorted_out(o, v[0], v[1], i32, right);
                },
                [=](AtT& o, const AtVec& v) { at::searchsorted_out(o, v[0], v[1], i32, right); });
            Call b{"bucketize", "", k, layout_name(l), {x, seq}};
            run_call(
                tally, set, b,
                [=](const TsVec& v) { return ts::bucketize(v[0], v[1], i32, right); },
                [=](const AtVec& v) { return at::bucketize(v[0], v[1], i32, right); });
          }
        }
        Call r{"searchsorted", "", key + ",rows", layout_name(l), {rows, x}};
        run_call(
            tally, set, r, [](const TsVec& v) { return ts::searchsorted(v[0], v[1]); },
            [](const AtVec& v) { return at::searchsorted(v[0], v[1]); });
        Call s{"searchsorted", "", key + ",sorter,side=right", layout_name(l), {seq, x, sorter}};
        run_call(
            tally, set, s,
            [](const TsVec& v) {
              return ts::searchsorted(v[0], v[1], false, false, "right", v[2]);
            },
            [](const AtVec& v) {
              return at::searchsorted(v[0], v[1], false, false, "right", v[2]);
            });
      }
      Call sc{"searchsorted", "", key + ",Scalar", "scalar", {seq}};
      run_call(
          tally, set, sc, [](const TsVec& v) { return ts::searchsorted(v[0], Scalar(2)); },
          [](const AtVec& v) { return at::searchsorted(v[0], at::Scalar(2)); });
    }
    if (d == kHalf) continue;  // ATen 1.13: "unique", "unique_dim" not implemented for 'Half'
    for (Layout l : {Layout::Contiguous, Layout::Transposed}) {
      const Input x{d, l, 0, {3, 4}, ties};
      for (int which = 0; which < 3; ++which) {
        const std::string form = which == 0 ? "" : which == 1 ? ",inverse" : ",counts";
        auto pick = [which](auto t) {
          return which == 0 ? std::get<0>(t) : which == 1 ? std::get<1>(t) : std::get<2>(t);
        };
        Call u{"_unique2", form, key, layout_name(l), {x}};
        run_call(
            tally, set, u,
            [=](const TsVec& v) { return pick(ts::_unique2(v[0], true, true, true)); },
            [=](const AtVec& v) { return pick(at::_unique2(v[0], true, true, true)); });
        Call c{"unique_consecutive", form, key, layout_name(l), {x}};
        run_call(
            tally, set, c,
            [=](const TsVec& v) { return pick(ts::unique_consecutive(v[0], true, true)); },
            [=](const AtVec& v) { return pick(at::unique_consecutive(v[0], true, true)); });
        Call ud{"unique_dim", form, key + ",dim=0", layout_name(l), {x}};
        run_call(
            tally, set, ud, [=](const TsVec& v) { return pick(ts::unique_dim(v[0], 0)); },
            [=](const AtVec& v) { return pick(at::unique_dim(v[0], 0)); });
      }
    }
  }
  const Input f{kFloat, Layout::Contiguous, 0};
  run_bad(
      tally, set, "searchsorted", "side", {f, f},
      [](const TsVec& v) {
        return ts::searchsorted(v[0].reshape({-1}), v[1], false, true, "left");
      },
      [](const AtVec& v) {
        return at::searchsorted(v[0].reshape({-1}), v[1], false, true, "left");
      });
  run_bad(
      tally, set, "bucketize", "2-D boundaries", {f, f},
      [](const TsVec& v) { return ts::bucketize(v[0], v[1]); },
      [](const AtVec& v) { return at::bucketize(v[0], v[1]); });
  run_bad(
      tally, set, "unique_dim", "dim 2", {f},
      [](const TsVec& v) { return std::get<0>(ts::unique_dim(v[0], 2)); },
      [](const AtVec& v) { return std::get<0>(at::unique_dim(v[0], 2)); });
}

}  // namespace

void run_sort(Tally& tally, const std::string& set) {
  run_sort_ops(tally, set);
  run_sorted_ops(tally, set);
}

}  // namespace ts::parity
