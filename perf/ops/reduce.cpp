// Reduction cases on a square matrix: along the contiguous dim (1), across it (0), and over
// everything; sum also over a long vector.
#include "perf/catalog.h"

namespace ts::perf {
namespace {

// -1 as `dim` reduces every dim.
using Reduce = void (*)(const Tensor& x, int64_t dim);

struct ReduceSpec {
  OpId id;
  double flops;  // per input element
  DTypeSet allowed;
  ScalarType fallback;
  Fill fill;
  Reduce call;
  bool index_out = false;  // the output is int64 indices (or values + indices)
};

std::vector<int64_t> dims_of(int64_t dim) {
  return dim < 0 ? std::vector<int64_t>{} : std::vector<int64_t>{dim};
}

}  // namespace

void add_reduce_cases(CaseList& list) {
  const DTypeSet fl = DTypeSet::floating();
  const DTypeSet num = fl | DTypeSet::integral(false);
  const DTypeSet all = DTypeSet::all();
  const Fill N = Fill::Normal, P = Fill::Positive;
  // clang-format off
  const ReduceSpec specs[] = {
    {OpId::sum, 1, all, kFloat, N, [](const Tensor& x, int64_t d) { (void)sum(x, dims_of(d)); }},
    {OpId::mean, 1, fl, kFloat, N, [](const Tensor& x, int64_t d) { (void)mean(x, dims_of(d)); }},
    {OpId::prod, 1, num, kFloat, P, [](const Tensor& x, int64_t d) { (void)(d < 0 ? prod(x) : prod(x, d)); }},
    {OpId::amax, 0, num, kFloat, N, [](const Tensor& x, int64_t d) { (void)amax(x, dims_of(d)); }},
    {OpId::amin, 0, num, kFloat, N, [](const Tensor& x, int64_t d) { (void)amin(x, dims_of(d)); }},
    {OpId::max, 0, num, kFloat, N, [](const Tensor& x, int64_t d) { if (d < 0) (void)max(x); else (void)max(x, d); }, true},
    {OpId::min, 0, num, kFloat, N, [](const Tensor& x, int64_t d) { if (d < 0) (void)min(x); else (void)min(x, d); }, true},
    {OpId::argmax, 0, num, kFloat, N, [](const Tensor& x, int64_t d) { (void)argmax(x, d < 0 ? std::nullopt : std::optional<int64_t>(d)); }, true},
    {OpId::argmin, 0, num, kFloat, N, [](const Tensor& x, int64_t d) { (void)argmin(x, d < 0 ? std::nullopt : std::optional<int64_t>(d)); }, true},
    {OpId::var, 3, fl, kFloat, N, [](const Tensor& x, int64_t d) { (void)var(x, dims_of(d)); }},
    {OpId::std, 3, fl, kFloat, N, [](const Tensor& x, int64_t d) { (void)ts::std(x, dims_of(d)); }},
    {OpId::norm, 2, fl, kFloat, N, [](const Tensor& x, int64_t d) { (void)norm(x, 2, dims_of(d)); }},
    {OpId::logsumexp, 3, fl, kFloat, N, [](const Tensor& x, int64_t d) { (void)logsumexp(x, d < 0 ? std::vector<int64_t>{0, 1} : dims_of(d)); }},
    {OpId::all, 0, all, kBool, Fill::Mask, [](const Tensor& x, int64_t d) { (void)(d < 0 ? ts::all(x) : ts::all(x, d)); }},
    {OpId::any, 0, all, kBool, Fill::Mask, [](const Tensor& x, int64_t d) { (void)(d < 0 ? any(x) : any(x, d)); }},
  };
  // clang-format on
  const int64_t s = list.side();
  const std::vector<int64_t> sq{s, s};
  for (const ReduceSpec& spec : specs) {
    for (ScalarType t : list.dtypes(spec.allowed, spec.fallback)) {
      for (int64_t dim : {1, 0, -1}) {
        const int64_t out_n = dim < 0 ? 1 : s;
        BenchCase c;
        c.family = "reduce";
        c.op = std::string(op_info(spec.id).name);
        c.shape = shape_str(sq);
        c.layout = dim < 0 ? "all_dims" : "dim" + std::to_string(dim);
        c.dtype = t;
        c.bytes = nbytes(s * s, t) + (spec.index_out ? 8.0 * out_n : 0) +
                  (spec.id == OpId::argmax || spec.id == OpId::argmin ? 0 : nbytes(out_n, t));
        c.flops = spec.flops * static_cast<double>(s * s);
        c.ops = {spec.id};
        const Reduce call = spec.call;
        const Fill fill = spec.fill;
        c.setup = [=]() -> std::function<void()> {
          Tensor x = make_input(sq, t, fill);
          return [=] { call(x, dim); };
        };
        list.add(std::move(c));
      }
    }
  }
  // sum over a long vector, and cumsum along each dim.
  for (ScalarType t : list.dtypes(all)) {
    const int64_t n = list.numel();
    BenchCase c;
    c.family = "reduce";
    c.op = "sum";
    c.shape = std::to_string(n);
    c.layout = "all_dims";
    c.dtype = t;
    c.bytes = nbytes(n, t) + nbytes(1, t);
    c.flops = static_cast<double>(n);
    c.ops = {OpId::sum};
    c.setup = [=]() -> std::function<void()> {
      Tensor x = make_input({n}, t);
      return [=] { (void)sum(x); };
    };
    list.add(std::move(c));
  }
  for (ScalarType t : list.dtypes(num)) {
    for (int64_t dim : {1, 0}) {
      BenchCase c;
      c.family = "reduce";
      c.op = "cumsum";
      c.shape = shape_str(sq);
      c.layout = "dim" + std::to_string(dim);
      c.dtype = t;
      c.bytes = 2 * nbytes(s * s, t);
      c.flops = static_cast<double>(s * s);
      c.ops = {OpId::cumsum};
      c.setup = [=]() -> std::function<void()> {
        Tensor x = make_input(sq, t), out = empty(sq, t);
        return [=] { cumsum_out(out, x, dim); };
      };
      list.add(std::move(c));
    }
  }
}

}  // namespace ts::perf
