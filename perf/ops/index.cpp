// Indexing and joining cases: index_select and gather (random int64 indices), scatter_add, cat
// and stack of four blocks.
#include "perf/catalog.h"

namespace ts::perf {
namespace {

BenchCase index_case(const char* op, ScalarType t, std::vector<int64_t> sizes, std::string layout,
                     double bytes, double flops, std::vector<OpId> ops) {
  return make_case("index", op, t, shape_str(sizes), std::move(layout), bytes, flops,
                   std::move(ops));
}

}  // namespace

void add_index_cases(CaseList& list) {
  const int64_t s = list.side();
  const std::vector<int64_t> sq{s, s};
  const double idx = 8.0 * static_cast<double>(s * s);  // an int64 index per element
  const DTypeSet all = DTypeSet::all();
  const DTypeSet num = DTypeSet::floating() | DTypeSet::integral(false);
  for (ScalarType t : list.dtypes(all)) {
    const double b = nbytes(s * s, t);
    // Rows picked at random: whole contiguous rows move.
    BenchCase is =
        index_case("index_select", t, sq, "dim0_rows", 2 * b + 8.0 * s, 0, {OpId::index_select});
    is.setup = [=]() -> std::function<void()> {
      Tensor x = make_input(sq, t, Fill::SmallInt), index = make_index({s}, s);
      Tensor o = empty(sq, t);
      return [=] { index_select_out(o, x, 0, index); };
    };
    list.add(std::move(is));

    BenchCase g = index_case("gather", t, sq, "dim1", 2 * b + idx, 0, {OpId::gather});
    g.setup = [=]() -> std::function<void()> {
      Tensor x = make_input(sq, t, Fill::SmallInt), index = make_index(sq, s);
      Tensor o = empty(sq, t);
      return [=] { gather_out(o, x, 1, index); };
    };
    list.add(std::move(g));

    for (const char* op : {"cat", "stack"}) {
      const bool st = std::string_view(op) == "stack";
      BenchCase c = index_case(op, t, {4, s / 2, s / 2}, "dim0", 2 * b, 0, {OpId::cat});
      c.setup = [=]() -> std::function<void()> {
        std::vector<Tensor> parts;
        for (int i = 0; i < 4; ++i) parts.push_back(make_input({s / 2, s / 2}, t, Fill::SmallInt));
        return [=] { (void)(st ? stack(parts, 0) : cat(parts, 0)); };
      };
      list.add(std::move(c));
    }
  }
  for (ScalarType t : list.dtypes(num)) {
    const double b = nbytes(s * s, t);
    // out = self; out[i][index[i][j]] += src[i][j]: self copied, src and index read.
    BenchCase sa = index_case("scatter_add", t, sq, "dim1", 3 * b + idx, static_cast<double>(s * s),
                              {OpId::scatter_add});
    sa.setup = [=]() -> std::function<void()> {
      Tensor x = make_input(sq, t, Fill::SmallInt), src = make_input(sq, t, Fill::SmallInt);
      Tensor index = make_index(sq, s), o = empty(sq, t);
      return [=] { scatter_add_out(o, x, 1, index, src); };
    };
    list.add(std::move(sa));
  }
}

}  // namespace ts::perf
