// The parity test's index and join family: index_select, gather, scatter_add (every form), cat
// and stack over every dtype pair and dim, with int64 and int32 indices, and a catalogue of bad
// calls (index of the wrong dtype, out of range, wrong dim, shapes that do not join).
#include "parity.h"
#include "touchstone/promotion.h"

namespace ts::parity {
namespace {

constexpr Layout kIndexLayouts[] = {Layout::Contiguous, Layout::Transposed, Layout::Strided,
                                    Layout::Expanded};

void run_select_gather(Tally& tally, const std::string& set) {
  for (ScalarType d : kDtypes) {
    for (Layout l : kIndexLayouts) {
      for (int64_t dim : {0, 1, -1}) {
        for (ScalarType id : {kLong, kInt}) {
          const std::string key =
              short_name(d) + ",dim=" + std::to_string(dim) + ",index=" + short_name(id);
          // index_select: a 1-D index with a repeat; gather: a 2x2 index.
          Call c{"index_select",
                 "",
                 key,
                 layout_name(l),
                 {{d, l, 0}, {id, Layout::Contiguous, 0, {3}, {1, 0, 1}}}};
          run_forms(
              tally, set, c, d,
              [=](const TsVec& in) { return ts::index_select(in[0], dim, in[1]); },
              [=](const AtVec& in) { return at::index_select(in[0], dim, in[1]); }, nullptr,
              nullptr,
              [=](const TsT& o, const TsVec& in) { ts::index_select_out(o, in[0], dim, in[1]); },
              [=](AtT& o, const AtVec& in) { at::index_select_out(o, in[0], dim, in[1]); });
          Call g{"gather",
                 "",
                 key,
                 layout_name(l),
                 {{d, l, 0}, {id, Layout::Contiguous, 0, {2, 2}, {1, 0, 0, 1}}}};
          run_forms(
              tally, set, g, d, [=](const TsVec& in) { return ts::gather(in[0], dim, in[1]); },
              [=](const AtVec& in) { return at::gather(in[0], dim, in[1]); }, nullptr, nullptr,
              [=](const TsT& o, const TsVec& in) { ts::gather_out(o, in[0], dim, in[1]); },
              [=](AtT& o, const AtVec& in) { at::gather_out(o, in[0], dim, in[1]); });
          Call s{"scatter_add",
                 "",
                 key,
                 layout_name(l),
                 {{d, l, 0},
                  {id, Layout::Contiguous, 0, {2, 2}, {1, 0, 1, 1}},
                  {d, Layout::Contiguous, 1, {2, 2}}}};
          run_forms(
              tally, set, s, d,
              [=](const TsVec& in) { return ts::scatter_add(in[0], dim, in[1], in[2]); },
              [=](const AtVec& in) { return at::scatter_add(in[0], dim, in[1], in[2]); },
              [=](const TsVec& in) { in[0].scatter_add_(dim, in[1], in[2]); },
              [=](AtVec& in) { in[0].scatter_add_(dim, in[1], in[2]); },
              [=](const TsT& o, const TsVec& in) {
                ts::scatter_add_out(o, in[0], dim, in[1], in[2]);
              },
              [=](AtT& o, const AtVec& in) { at::scatter_add_out(o, in[0], dim, in[1], in[2]); });
        }
      }
    }
  }
}

void run_join(Tally& tally, const std::string& set) {
  for (ScalarType d1 : kDtypes) {
    for (ScalarType d2 : kDtypes) {
      for (Layout l : {Layout::Contiguous, Layout::Transposed, Layout::Empty}) {
        if (d1 != d2 && l != Layout::Contiguous) continue;
        for (int64_t dim : {0, 1, -1}) {
          const std::string key =
              short_name(d1) + "," + short_name(d2) + ",dim=" + std::to_string(dim);
          for (const bool stack : {false, true}) {
            Call c{stack ? "stack" : "cat", "", key, layout_name(l), {{d1, l, 0}, {d2, l, 1}}};
            run_forms(
                tally, set, c, promote_types(d1, d2),
                [=](const TsVec& in) { return stack ? ts::stack(in, dim) : ts::cat(in, dim); },
                [=](const AtVec& in) { return stack ? at::stack(in, dim) : at::cat(in, dim); },
                nullptr, nullptr,
                [=](const TsT& o, const TsVec& in) {
                  stack ? ts::stack_out(o, in, dim) : ts::cat_out(o, in, dim);
                },
                [=](AtT& o, const AtVec& in) {
                  stack ? at::stack_out(o, in, dim) : at::cat_out(o, in, dim);
                });
          }
        }
      }
    }
  }
}

// Bad calls: an index of the wrong dtype or rank, an index out of range, a dim out of range,
// tensors that do not join.
void run_bad_index(Tally& tally, const std::string& set) {
  const Input x{kFloat};
  const Input index_f{kFloat, Layout::Contiguous, 0, {2}, {1, 0}};
  const Input index_big{kLong, Layout::Contiguous, 0, {2}, {1, 5}};
  const Input index_2d{kLong, Layout::Contiguous, 0, {2, 2}, {1, 0, 0, 1}};
  const Input index_1d{kLong, Layout::Contiguous, 0, {2}, {1, 0}};
  for (const auto& [what, index] :
       {std::pair{"index f32", index_f}, std::pair{"index 5", index_big},
        std::pair{"index [2,2]", index_2d}}) {
    run_bad(
        tally, set, "index_select", what, {x, index},
        [](const TsVec& in) { return ts::index_select(in[0], 0, in[1]); },
        [](const AtVec& in) { return at::index_select(in[0], 0, in[1]); });
  }
  for (const auto& [what, index] :
       {std::pair{"index f32", Input{kFloat, Layout::Contiguous, 0, {2, 2}, {1, 0, 0, 1}}},
        std::pair{"index 5", Input{kLong, Layout::Contiguous, 0, {2, 2}, {1, 5, 0, 1}}},
        std::pair{"index [2]", index_1d}}) {
    run_bad(
        tally, set, "gather", what, {x, index},
        [](const TsVec& in) { return ts::gather(in[0], 1, in[1]); },
        [](const AtVec& in) { return at::gather(in[0], 1, in[1]); });
    run_bad(
        tally, set, "scatter_add", what, {x, index, {kFloat, Layout::Contiguous, 1, {2, 2}}},
        [](const TsVec& in) { return ts::scatter_add(in[0], 1, in[1], in[2]); },
        [](const AtVec& in) { return at::scatter_add(in[0], 1, in[1], in[2]); });
  }
  run_bad(
      tally, set, "index_select", "dim=2", {x, index_1d},
      [](const TsVec& in) { return ts::index_select(in[0], 2, in[1]); },
      [](const AtVec& in) { return at::index_select(in[0], 2, in[1]); });
  const Input y{kFloat, Layout::Contiguous, 1, {3, 3}};
  run_bad(
      tally, set, "cat", "shapes [2,3],[3,3] dim=1", {x, y},
      [](const TsVec& in) { return ts::cat(in, 1); },
      [](const AtVec& in) { return at::cat(in, 1); });
  run_bad(
      tally, set, "cat", "dim=2", {x, x}, [](const TsVec& in) { return ts::cat(in, 2); },
      [](const AtVec& in) { return at::cat(in, 2); });
  run_bad(
      tally, set, "stack", "shapes [2,3],[3,3]", {x, y},
      [](const TsVec& in) { return ts::stack(in, 0); },
      [](const AtVec& in) { return at::stack(in, 0); });
  run_bad(
      tally, set, "stack", "dim=3", {x, x}, [](const TsVec& in) { return ts::stack(in, 3); },
      [](const AtVec& in) { return at::stack(in, 3); });
  run_bad(
      tally, set, "cat", "no tensors", {}, [](const TsVec& in) { return ts::cat(in, 0); },
      [](const AtVec& in) { return at::cat(in, 0); });
}

}  // namespace

void run_index(Tally& tally, const std::string& set) {
  run_select_gather(tally, set);
  run_join(tally, set);
  run_bad_index(tally, set);
}

}  // namespace ts::parity
