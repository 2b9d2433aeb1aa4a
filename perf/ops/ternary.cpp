// Ternary elementwise cases: where, lerp, addcmul and masked_fill on contiguous vectors.
#include "perf/catalog.h"

namespace ts::perf {

void add_ternary_cases(CaseList& list) {
  const int64_t n = list.numel();
  const std::vector<int64_t> shape{n};
  const DTypeSet fl = DTypeSet::floating();
  const DTypeSet all = DTypeSet::all();
  auto base = [&](OpId id, ScalarType t, double bytes, double flops) {
    BenchCase c;
    c.family = "ternary";
    c.op = std::string(op_info(id).name);
    c.shape = shape_str(shape);
    c.layout = "contiguous";
    c.dtype = t;
    c.bytes = bytes;
    c.flops = flops;
    c.ops = {id};
    return c;
  };
  const double dn = static_cast<double>(n);
  for (ScalarType t : list.dtypes(all)) {
    // where: a bool condition, two inputs, one output.
    BenchCase c = base(OpId::where, t, nbytes(n, kBool) + 3 * nbytes(n, t), 0);
    c.setup = [=]() -> std::function<void()> {
      Tensor cond = make_input(shape, kBool, Fill::Mask);
      Tensor a = make_input(shape, t, Fill::SmallInt), b = make_input(shape, t, Fill::SmallInt);
      Tensor out = empty(shape, t);
      return [=] { where_out(out, cond, a, b); };
    };
    list.add(std::move(c));
  }
  for (ScalarType t : list.dtypes(fl)) {
    // lerp: self + weight * (end - self), a tensor weight.
    BenchCase c = base(OpId::lerp, t, 4 * nbytes(n, t), 3 * dn);
    c.setup = [=]() -> std::function<void()> {
      Tensor a = make_input(shape, t), b = make_input(shape, t);
      Tensor w = make_input(shape, t, Fill::Unit), out = empty(shape, t);
      return [=] { lerp_out(out, a, b, w); };
    };
    list.add(std::move(c));
  }
  for (ScalarType t : list.dtypes(fl | DTypeSet::integral(false))) {
    // addcmul: self + value * t1 * t2.
    BenchCase c = base(OpId::addcmul, t, 4 * nbytes(n, t), 3 * dn);
    c.setup = [=]() -> std::function<void()> {
      Tensor a = make_input(shape, t), b = make_input(shape, t), d = make_input(shape, t);
      Tensor out = empty(shape, t);
      return [=] { addcmul_out(out, a, b, d, 0.5); };
    };
    list.add(std::move(c));
  }
  for (ScalarType t : list.dtypes(all)) {
    // masked_fill has no out= form: the functional call, which allocates its result.
    BenchCase c = base(OpId::masked_fill, t, nbytes(n, kBool) + 2 * nbytes(n, t), 0);
    c.setup = [=]() -> std::function<void()> {
      Tensor a = make_input(shape, t, Fill::SmallInt), mask = make_input(shape, kBool, Fill::Mask);
      return [=] { (void)masked_fill(a, mask, 0); };
    };
    list.add(std::move(c));
  }
}

}  // namespace ts::perf
