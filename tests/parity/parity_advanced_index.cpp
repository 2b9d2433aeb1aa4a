// The parity test's advanced indexing family (issue 16): index (integer lists, a separated pair,
// a bool mask), index_put (assign and accumulate), index_add, scatter (src, value, reduce),
// scatter_reduce (each reduction, with and without self), masked_select, nonzero, take, put,
// index_copy, index_fill, masked_scatter and index_put's out= over every
// dtype and the layouts of self, and a catalogue of bad calls.
#include <optional>

#include <ATen/ops/index.h>
#include <ATen/ops/index_add.h>
#include <ATen/ops/index_copy.h>
#include <ATen/ops/index_fill.h>
#include <ATen/ops/index_put.h>
#include <ATen/ops/masked_scatter.h>
#include <ATen/ops/masked_select.h>
#include <ATen/ops/nonzero.h>
#include <ATen/ops/put.h>
#include <ATen/ops/scatter.h>
#include <ATen/ops/scatter_reduce.h>
#include <ATen/ops/take.h>

#include "parity.h"

namespace ts::parity {
namespace {

constexpr Layout kSelfLayouts[] = {Layout::Contiguous, Layout::Transposed, Layout::Strided,
                                   Layout::Expanded};

using TsList = std::vector<std::optional<TsT>>;

c10::List<c10::optional<AtT>> at_list(const AtVec& in, size_t first, std::vector<bool> present) {
  c10::List<c10::optional<AtT>> l;
  size_t k = first;
  for (bool p : present) l.push_back(p ? c10::optional<AtT>(in[k++]) : c10::nullopt);
  return l;
}
TsList ts_list(const TsVec& in, size_t first, std::vector<bool> present) {
  TsList l;
  size_t k = first;
  for (bool p : present) l.push_back(p ? std::optional<TsT>(in[k++]) : std::nullopt);
  return l;
}

void run_lists(Tally& tally, const std::string& set) {
  const Input rows{kLong, Layout::Contiguous, 0, {3}, {1, 0, -1}};
  const Input cols{kLong, Layout::Contiguous, 0, {2}, {2, 0}};
  const Input pair{kLong, Layout::Contiguous, 0, {2}, {1, -2}};
  const Input mask{kBool, Layout::Contiguous, 0, {2, 3}, {1, 0, 1, 1, 0, 0}};
  struct ListCase {
    const char* name;
    std::vector<Input> indices;
    std::vector<bool> present;
    std::vector<int64_t> result;
  };
  const std::vector<ListCase> cases = {{"rows", {rows}, {true}, {3, 3}},
                                       {"cols", {cols}, {false, true}, {2, 2}},
                                       {"pair", {pair, cols}, {true, true}, {2}},
                                       {"mask", {mask}, {true}, {3}}};
  for (ScalarType d : kDtypes) {
    for (Layout l : kSelfLayouts) {
      for (const ListCase& lc : cases) {
        const std::vector<bool> present = lc.present;
        std::vector<Input> in{{d, l, 0}};
        for (const Input& i : lc.indices) in.push_back(i);
        Call c{"index", "", short_name(d) + "," + lc.name, layout_name(l), in};
        run_forms(
            tally, set, c, d,
            [=](const TsVec& v) { return ts::index(v[0], ts_list(v, 1, present)); },
            [=](const AtVec& v) { return at::index(v[0], at_list(v, 1, present)); }, nullptr,
            nullptr,
            [=](const TsT& o, const TsVec& v) { ts::index_out(o, v[0], ts_list(v, 1, present)); },
            [=](AtT& o, const AtVec& v) { at::index_out(o, v[0], at_list(v, 1, present)); });
        for (bool accumulate : {false, true}) {
          if (!accumulate && lc.name == std::string("rows")) continue;  // duplicate rows
          std::vector<Input> pin{{d, Layout::Contiguous, 0}, {d, Layout::Contiguous, 1, lc.result}};
          for (const Input& i : lc.indices) pin.push_back(i);
          Call p{"index_put", "",
                 short_name(d) + "," + lc.name + ",accumulate=" + (accumulate ? "1" : "0"),
                 layout_name(Layout::Contiguous), pin};
          run_forms(
              tally, set, p, d,
              [=](const TsVec& v) {
                return ts::index_put(v[0], ts_list(v, 2, present), v[1], accumulate);
              },
              [=](const AtVec& v) {
                return at::index_put(v[0], at_list(v, 2, present), v[1], accumulate);
              },
              [=](const TsVec& v) {
                ts::index_put_(v[0], ts_list(v, 2, present), v[1], accumulate);
              },
              [=](AtVec& v) { v[0].index_put_(at_list(v, 2, present), v[1], accumulate); }, nullptr,
              nullptr);
        }
      }
    }
  }
}

void run_scatters(Tally& tally, const std::string& set) {
  const Input index{kLong, Layout::Contiguous, 0, {2, 2}, {2, 0, 1, 2}};
  const Input index1{kLong, Layout::Contiguous, 0, {3}, {2, 0, 2}};
  for (ScalarType d : kDtypes) {
    for (Layout l : kSelfLayouts) {
      const std::string key = short_name(d);
      const Input src{d, Layout::Contiguous, 1, {2, 3}};
      Call a{"index_add", "", key + ",dim=1", layout_name(l), {{d, l, 0}, index1, src}};
      run_forms(
          tally, set, a, d, [](const TsVec& v) { return ts::index_add(v[0], 1, v[1], v[2]); },
          [](const AtVec& v) { return at::index_add(v[0], 1, v[1], v[2]); },
          [](const TsVec& v) { v[0].index_add_(1, v[1], v[2]); },
          [](AtVec& v) { v[0].index_add_(1, v[1], v[2]); },
          [](const TsT& o, const TsVec& v) { ts::index_add_out(o, v[0], 1, v[1], v[2]); },
          [](AtT& o, const AtVec& v) { at::index_add_out(o, v[0], 1, v[1], v[2]); });
      const Input src22{d, Layout::Contiguous, 1, {2, 2}};  // ATen 1.13 fails a larger src's grad
      Call s{"scatter", "", key + ",dim=1", layout_name(l), {{d, l, 0}, index, src22}};
      run_forms(
          tally, set, s, d, [](const TsVec& v) { return ts::scatter(v[0], 1, v[1], v[2]); },
          [](const AtVec& v) { return at::scatter(v[0], 1, v[1], v[2]); },
          [](const TsVec& v) { v[0].scatter_(1, v[1], v[2]); },
          [](AtVec& v) { v[0].scatter_(1, v[1], v[2]); },
          [](const TsT& o, const TsVec& v) { ts::scatter_out(o, v[0], 1, v[1], v[2]); },
          [](AtT& o, const AtVec& v) { at::scatter_out(o, v[0], 1, v[1], v[2]); });
      Call sv{"scatter", "", key + ",value=1", layout_name(l), {{d, l, 0}, index}};
      run_forms(
          tally, set, sv, d, [](const TsVec& v) { return ts::scatter(v[0], 1, v[1], 1); },
          [](const AtVec& v) { return at::scatter(v[0], 1, v[1], 1); },
          [](const TsVec& v) { v[0].scatter_(1, v[1], 1); },
          [](AtVec& v) { v[0].scatter_(1, v[1], 1); }, nullptr, nullptr);
      for (const char* reduce : {"add", "multiply"}) {  // no derivative: functional only
        Call sr{"scatter", "f", key + ",reduce=" + reduce, layout_name(l), {{d, l, 0}, index, src}};
        run_call(
            tally, set, sr,
            [=](const TsVec& v) { return ts::scatter(v[0], 1, v[1], v[2], reduce); },
            [=](const AtVec& v) { return at::scatter(v[0], 1, v[1], v[2], reduce); });
      }
      if (d == kBool) continue;
      for (const char* reduce : {"sum", "prod", "mean", "amax", "amin"}) {
        for (bool self : {true, false}) {
          Call r{"scatter_reduce",
                 "",
                 key + ",reduce=" + reduce + ",include_self=" + (self ? "1" : "0"),
                 layout_name(l),
                 {{d, l, 0}, index, {d, Layout::Contiguous, 1, {2, 2}}}};
          run_forms(
              tally, set, r, d,
              [=](const TsVec& v) { return ts::scatter_reduce(v[0], 1, v[1], v[2], reduce, self); },
              [=](const AtVec& v) { return at::scatter_reduce(v[0], 1, v[1], v[2], reduce, self); },
              [=](const TsVec& v) { v[0].scatter_reduce_(1, v[1], v[2], reduce, self); },
              [=](AtVec& v) { v[0].scatter_reduce_(1, v[1], v[2], reduce, self); }, nullptr,
              nullptr);
        }
      }
    }
  }
}

void run_selects(Tally& tally, const std::string& set) {
  const Input mask{kBool, Layout::Contiguous, 0, {2, 3}, {1, 0, 1, 0, 0, 1}};
  const Input row_mask{kBool, Layout::Contiguous, 0, {3}, {0, 1, 1}};
  for (ScalarType d : kDtypes) {
    for (Layout l : kLayouts) {
      const bool full = l != Layout::ZeroDim && l != Layout::Empty;
      for (const Input& m : {mask, row_mask}) {
        if (!full && m.shape.size() == 2) continue;
        Call c{"masked_select",
               "",
               short_name(d) + ",mask=" + std::to_string(m.shape.size()),
               layout_name(l),
               {{d, l, 0}, m}};
        run_forms(
            tally, set, c, d, [](const TsVec& v) { return ts::masked_select(v[0], v[1]); },
            [](const AtVec& v) { return at::masked_select(v[0], v[1]); }, nullptr, nullptr,
            [](const TsT& o, const TsVec& v) { ts::masked_select_out(o, v[0], v[1]); },
            [](AtT& o, const AtVec& v) { at::masked_select_out(o, v[0], v[1]); });
      }
      Call n{"nonzero", "", short_name(d), layout_name(l), {{d, l, 0}}};
      run_forms(
          tally, set, n, kLong, [](const TsVec& v) { return ts::nonzero(v[0]); },
          [](const AtVec& v) { return at::nonzero(v[0]); }, nullptr, nullptr,
          [](const TsT& o, const TsVec& v) { ts::nonzero_out(o, v[0]); },
          [](AtT& o, const AtVec& v) { at::nonzero_out(o, v[0]); });
    }
  }
}

void run_bad_advanced_index(Tally& tally, const std::string& set) {
  const Input x{kFloat, Layout::Contiguous, 0};
  const Input oob{kLong, Layout::Contiguous, 0, {2}, {0, 2}};
  const Input neg{kLong, Layout::Contiguous, 0, {2}, {0, -3}};
  const Input idx_f{kFloat, Layout::Contiguous, 0, {2}, {0, 1}};
  const Input bad_mask{kBool, Layout::Contiguous, 0, {3}, {1, 0, 1}};
  for (const auto& [what, index] :
       {std::pair{"index 2", oob}, std::pair{"index -3", neg}, std::pair{"index f32", idx_f},
        std::pair{"mask [3]", bad_mask}}) {
    run_bad(
        tally, set, "index", what, {x, index},
        [](const TsVec& v) { return ts::index(v[0], TsList{v[1]}); },
        [](const AtVec& v) { return at::index(v[0], at_list(v, 1, {true})); });
  }
  const Input g_oob{kLong, Layout::Contiguous, 0, {2, 2}, {0, 3, 1, 0}};
  const Input g_neg{kLong, Layout::Contiguous, 0, {2, 2}, {0, -1, 1, 0}};
  for (const auto& [what, index] : {std::pair{"index 3", g_oob}, std::pair{"index -1", g_neg}}) {
    run_bad(
        tally, set, "scatter", what, {x, index, {kFloat, Layout::Contiguous, 1, {2, 2}}},
        [](const TsVec& v) { return ts::scatter(v[0], 1, v[1], v[2]); },
        [](const AtVec& v) { return at::scatter(v[0], 1, v[1], v[2]); });
    run_bad(
        tally, set, "scatter_reduce", what, {x, index, {kFloat, Layout::Contiguous, 1, {2, 2}}},
        [](const TsVec& v) { return ts::scatter_reduce(v[0], 1, v[1], v[2], "amax"); },
        [](const AtVec& v) { return at::scatter_reduce(v[0], 1, v[1], v[2], "amax"); });
  }
  run_bad(
      tally, set, "index_add", "index 3",
      {x, {kLong, Layout::Contiguous, 0, {1}, {3}}, {kFloat, Layout::Contiguous, 1, {2, 1}}},
      [](const TsVec& v) { return ts::index_add(v[0], 1, v[1], v[2]); },
      [](const AtVec& v) { return at::index_add(v[0], 1, v[1], v[2]); });
  run_bad(
      tally, set, "index_put", "values [4]", {x, {kFloat, Layout::Contiguous, 1, {4}}, oob},
      [](const TsVec& v) {
        return ts::index_put(v[0], TsList{std::nullopt, v[2]}, v[1]);
      },
      [](const AtVec& v) {
        return at::index_put(v[0], at_list(v, 2, {false, true}), v[1]);
      });
  run_bad(
      tally, set, "masked_select", "mask f32", {x, {kFloat, Layout::Contiguous, 1}},
      [](const TsVec& v) { return ts::masked_select(v[0], v[1]); },
      [](const AtVec& v) { return at::masked_select(v[0], v[1]); });
}

// take, put, index_copy, index_fill, masked_scatter and index_put's out= form.
void run_index_copies(Tally& tally, const std::string& set) {
  const Input flat{kLong, Layout::Contiguous, 0, {4}, {5, 0, -2, 3}};
  const Input once{kLong, Layout::Contiguous, 0, {2}, {2, 0}};
  const Input mask{kBool, Layout::Contiguous, 0, {2, 3}, {1, 0, 1, 1, 0, 0}};
  for (ScalarType d : kDtypes) {
    for (Layout l : kSelfLayouts) {
      const std::string key = short_name(d);
      const Input self{d, l, 0};
      Call t{"take", "", key, layout_name(l), {self, flat}};
      run_forms(
          tally, set, t, d, [](const TsVec& v) { return ts::take(v[0], v[1]); },
          [](const AtVec& v) { return at::take(v[0], v[1]); }, nullptr, nullptr,
          [](const TsT& o, const TsVec& v) { ts::take_out(o, v[0], v[1]); },
          [](AtT& o, const AtVec& v) { at::take_out(o, v[0], v[1]); });
      for (bool acc : {false, true}) {
        Call p{"put",
               "",
               key + ",accumulate=" + (acc ? "1" : "0"),
               layout_name(l),
               {self, flat, {d, Layout::Contiguous, 1, {4}}}};
        run_forms(
            tally, set, p, d, [=](const TsVec& v) { return ts::put(v[0], v[1], v[2], acc); },
            [=](const AtVec& v) { return at::put(v[0], v[1], v[2], acc); },
            [=](const TsVec& v) { v[0].put_(v[1], v[2], acc); },
            [=](AtVec& v) { v[0].put_(v[1], v[2], acc); }, nullptr, nullptr);
      }
      Call c{"index_copy",
             "",
             key + ",dim=1",
             layout_name(l),
             {self, once, {d, Layout::Contiguous, 1, {2, 2}}}};
      run_forms(
          tally, set, c, d, [](const TsVec& v) { return ts::index_copy(v[0], 1, v[1], v[2]); },
          [](const AtVec& v) { return at::index_copy(v[0], 1, v[1], v[2]); },
          [](const TsVec& v) { v[0].index_copy_(1, v[1], v[2]); },
          [](AtVec& v) { v[0].index_copy_(1, v[1], v[2]); },
          [](const TsT& o, const TsVec& v) { ts::index_copy_out(o, v[0], 1, v[1], v[2]); },
          [](AtT& o, const AtVec& v) { at::index_copy_out(o, v[0], 1, v[1], v[2]); });
      const Input neg{kLong, Layout::Contiguous, 0, {2}, {-1, 0}};
      Call fl{"index_fill", "", key + ",dim=1", layout_name(l), {self, neg}};
      run_forms(
          tally, set, fl, d, [](const TsVec& v) { return ts::index_fill(v[0], 1, v[1], 1); },
          [](const AtVec& v) { return at::index_fill(v[0], 1, v[1], 1); },
          [](const TsVec& v) { v[0].index_fill_(1, v[1], 1); },
          [](AtVec& v) { v[0].index_fill_(1, v[1], 1); }, nullptr, nullptr);
      Call ft{"index_fill",
              ",tensor",
              key + ",dim=0",
              layout_name(l),
              {self, {kLong, Layout::Contiguous, 0, {1}, {1}}, {d, Layout::Contiguous, 1, {1}}}};
      run_call(
          tally, set, ft,
          [](const TsVec& v) { return ts::index_fill(v[0], 0, v[1], v[2].reshape({})); },
          [](const AtVec& v) { return at::index_fill(v[0], 0, v[1], v[2].reshape({})); });
      Call m{"masked_scatter", "", key, layout_name(l), {self, mask, {d, Layout::Contiguous, 1}}};
      run_forms(
          tally, set, m, d, [](const TsVec& v) { return ts::masked_scatter(v[0], v[1], v[2]); },
          [](const AtVec& v) { return at::masked_scatter(v[0], v[1], v[2]); },
          [](const TsVec& v) { v[0].masked_scatter_(v[1], v[2]); },
          [](AtVec& v) { v[0].masked_scatter_(v[1], v[2]); }, nullptr, nullptr);
      Call ip{
          "index_put",
          ",out",
          key,
          layout_name(l),
          {self, {d, Layout::Contiguous, 1, {2, 3}}, {kLong, Layout::Contiguous, 0, {2}, {1, 0}}}};
      run_forms(
          tally, set, ip, d, [](const TsVec& v) { return ts::index_put(v[0], TsList{v[2]}, v[1]); },
          [](const AtVec& v) { return at::index_put(v[0], at_list(v, 2, {true}), v[1]); }, nullptr,
          nullptr,
          [](const TsT& o, const TsVec& v) { ts::index_put_out(o, v[0], TsList{v[2]}, v[1]); },
          [](AtT& o, const AtVec& v) { at::index_put_out(o, v[0], at_list(v, 2, {true}), v[1]); });
    }
  }
  const Input x{kFloat, Layout::Contiguous, 0};
  const Input oob{kLong, Layout::Contiguous, 0, {2}, {0, 6}};
  run_bad(
      tally, set, "take", "index 6", {x, oob}, [](const TsVec& v) { return ts::take(v[0], v[1]); },
      [](const AtVec& v) { return at::take(v[0], v[1]); });
  run_bad(
      tally, set, "index_copy", "index -1",
      {x, {kLong, Layout::Contiguous, 0, {1}, {-1}}, {kFloat, Layout::Contiguous, 1, {2, 1}}},
      [](const TsVec& v) { return ts::index_copy(v[0], 1, v[1], v[2]); },
      [](const AtVec& v) { return at::index_copy(v[0], 1, v[1], v[2]); });
  run_bad(
      tally, set, "masked_scatter", "source too small",
      {x,
       {kBool, Layout::Contiguous, 0, {2, 3}, {1, 1, 1, 1, 0, 0}},
       {kFloat, Layout::Contiguous, 1, {3}}},
      [](const TsVec& v) { return ts::masked_scatter(v[0], v[1], v[2]); },
      [](const AtVec& v) { return at::masked_scatter(v[0], v[1], v[2]); });
}

}  // namespace

void run_advanced_index(Tally& tally, const std::string& set) {
  run_lists(tally, set);
  run_scatters(tally, set);
  run_selects(tally, set);
  run_bad_advanced_index(tally, set);
  run_index_copies(tally, set);
}

}  // namespace ts::parity
