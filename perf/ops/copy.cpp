// Copy and convert cases: copy_ in three layouts, clone, contiguous, to, fill_ and zero_.
#include "perf/catalog.h"

namespace ts::perf {

void add_copy_cases(CaseList& list) {
  const int64_t s = list.side();
  const std::vector<int64_t> sq{s, s};
  auto base = [&](const char* op, ScalarType t, std::string layout, double bytes) {
    BenchCase c;
    c.family = "copy";
    c.op = op;
    c.shape = shape_str(sq);
    c.layout = std::move(layout);
    c.dtype = t;
    c.bytes = bytes;
    c.ops = {OpId::copy_};
    return c;
  };
  for (ScalarType t : list.dtypes(DTypeSet::all())) {
    const double b = nbytes(s * s, t);
    for (const char* layout : {"contiguous", "transposed"}) {
      const bool tr = std::string_view(layout) == "transposed";
      BenchCase c = base("copy_", t, layout, 2 * b);
      c.setup = [=]() -> std::function<void()> {
        Tensor src = make_input(sq, t, Fill::SmallInt), dst = empty(sq, t);
        if (tr) src = src.t();
        return [=] { dst.copy_(src); };
      };
      list.add(std::move(c));
    }
    // A conversion: float32 <-> the case's dtype (float64 from float32 for float32 cases).
    const ScalarType other = t == kFloat ? kDouble : kFloat;
    BenchCase conv = base("copy_", t, "convert_from_" + std::string(dtype_name(other)),
                          b + nbytes(s * s, other));
    conv.setup = [=]() -> std::function<void()> {
      Tensor src = make_input(sq, other, Fill::SmallInt), dst = empty(sq, t);
      return [=] { dst.copy_(src); };
    };
    list.add(std::move(conv));

    BenchCase clone_c = base("clone", t, "contiguous", 2 * b);
    clone_c.setup = [=]() -> std::function<void()> {
      Tensor src = make_input(sq, t, Fill::SmallInt);
      return [=] { (void)src.clone(); };
    };
    list.add(std::move(clone_c));

    BenchCase contig = base("contiguous", t, "transposed", 2 * b);
    contig.setup = [=]() -> std::function<void()> {
      Tensor src = make_input(sq, t, Fill::SmallInt).t();
      return [=] { (void)src.contiguous(); };
    };
    list.add(std::move(contig));

    BenchCase to_c =
        base("to", t, "to_" + std::string(dtype_name(other)), b + nbytes(s * s, other));
    to_c.setup = [=]() -> std::function<void()> {
      Tensor src = make_input(sq, t, Fill::SmallInt);
      return [=] { (void)src.to(other); };
    };
    list.add(std::move(to_c));

    for (const char* op : {"fill_", "zero_"}) {
      const bool zero = std::string_view(op) == "zero_";
      BenchCase f = base(op, t, "contiguous", b);
      f.ops = {OpId::fill_};
      f.setup = [=]() -> std::function<void()> {
        Tensor dst = empty(sq, t);
        return [=] { zero ? dst.zero_() : dst.fill_(1); };
      };
      list.add(std::move(f));
    }
  }
}

}  // namespace ts::perf
