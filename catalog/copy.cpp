// Catalog entries of the copy and conversion ops: copy_, clone, contiguous, to, fill_, zero_.
// `to` and copy_ convert from the case's dtype into every dtype: this is where casts are checked.
// Benchmark: each op on a square matrix, copy_ also from transposed, expanded (stride 0) and
// strided sources and from another dtype.
#include <limits>
#include <string_view>
#include <tuple>
#include <utility>

#include "catalog/bench.h"

namespace ts::catalog {
namespace {

using In = std::vector<Tensor>;
using Shape = std::vector<int64_t>;

OpEntry entry(std::string name, SamplesFn samples, RunFn run) {
  return make_entry(std::move(name), "copy", std::move(samples), std::move(run));
}

// Shapes from 0-dim and empty to a few thousand elements plus, for floating dtypes, the edge
// values.
std::vector<Sample> value_samples(const SampleContext& ctx) {
  const NamedShapes shapes = {{"scalar", {}},     {"empty", {0}},      {"vec7", {7}},
                              {"mat3x4", {3, 4}}, {"cube", {2, 3, 5}}, {"empty3d", {2, 0, 3}},
                              {"big", {37, 53}},  {"vec2053", {2053}}};
  return one_input_samples(ctx, shapes);
}

// Values up to +-1e5, within the source dtype's own range.
Range wide_range(ScalarType dt) {
  if (dt == kByte) return {0, 256};
  if (dt == kChar) return {-128, 128};
  if (dt == kShort) return {-32768, 32768};
  return {-1e5, 1e5};
}

// Note [Conversion samples]
// `to` from the case's dtype into every dtype (args.dtype): ordinary values, a wide range that
// overflows the narrow integers (wrapping) and float16, the edge values (NaN, infinities and
// out-of-range values into integers: see Note [Conversions round once] in reference/copy.cpp),
// and for int64 values beyond 2^53, which round once into the floating dtypes.
std::vector<Sample> conversion_samples(const SampleContext& ctx) {
  std::vector<Sample> out;
  for (int i = 0; i < kNumScalarTypes; ++i) {
    const auto to = static_cast<ScalarType>(i);
    const std::string suffix = "_to_" + std::string(dtype_name(to));
    Sample s;
    s.name = "values" + suffix;
    s.inputs = {ctx.input(s.name, 0, {37, 53})};
    s.args.dtype = to;
    // Finite differences of an output rounded to a narrower floating dtype are meaningless.
    s.smooth = !is_floating_type(to) || to == kDouble;
    out.push_back(s);
    s.name = "wide" + suffix;
    s.inputs = {ctx.input(s.name, 0, {7, 33}, wide_range(ctx.dtype()))};
    out.push_back(s);
    if (is_floating_type(ctx.dtype())) {
      s.name = "edge_values" + suffix;
      s.smooth = false;
      s.inputs = {edge_values(ctx.dtype())};
      out.push_back(s);
    }
    if (ctx.dtype() == kLong) {
      s.name = "beyond_2p53" + suffix;
      s.inputs = {ctx.input(s.name, 0, {64}, Range{-4.6e18, 4.6e18})};
      out.push_back(s);
    }
  }
  Sample same;
  same.name = "same_dtype_copy";
  same.inputs = {ctx.input(same.name, 0, {3, 4})};
  same.args.dtype = ctx.dtype();
  same.args.flag = true;
  out.push_back(same);
  return out;
}

// ---- benchmark: a square matrix in each dtype (default float32) ----

// The source's layout: plain, transposed, one column or one row expanded (stride 0), or every
// other column of a matrix twice as wide.
enum class Src { Plain, Transposed, ExpandedCol, ExpandedRow, Sliced };

// A case of `op` in layout `layout` moving `bytes`; `make(src, dst)` returns the call, given a
// source (of `src_dtype`, laid out as `layout_of`) and a destination of the case's dtype, both
// of `sq` (default: the square matrix).
using CopyCall = std::function<void()> (*)(const Tensor& src, const Tensor& dst);
void copy_case(CaseList& list, const char* op, ScalarType t, std::string layout,
               ScalarType src_dtype, Src layout_of, double bytes, CopyCall make,
               std::vector<int64_t> sq = {}) {
  if (sq.empty()) sq = {list.side(), list.side()};
  BenchCase c = make_case("copy", op, t, shape_str(sq), std::move(layout), bytes, 0, {OpId::copy_});
  if (std::string_view(op) == "fill_" || std::string_view(op) == "zero_") c.ops = {OpId::fill_};
  c.setup = [=](Device d) -> std::function<void()> {
    Tensor src;
    switch (layout_of) {
      case Src::Plain:
      case Src::Transposed:
        src = make_input(sq, src_dtype, Fill::SmallInt, d);
        if (layout_of == Src::Transposed) src = src.t();
        break;
      case Src::ExpandedCol:
        src = make_input({sq[0], 1}, src_dtype, Fill::SmallInt, d).expand(sq);
        break;
      case Src::ExpandedRow:
        src = make_input({1, sq[1]}, src_dtype, Fill::SmallInt, d).expand(sq);
        break;
      case Src::Sliced:
        src =
            make_input({sq[0], 2 * sq[1]}, src_dtype, Fill::SmallInt, d).slice(1, 0, 2 * sq[1], 2);
        break;
    }
    return make(src, empty(sq, TensorOptions(t).device(d)));
  };
  list.add(std::move(c));
}

// The other dtype of a conversion: float32 <-> the case's dtype (float64 for float32 cases).
ScalarType other_dtype(ScalarType t) {
  return t == kFloat ? kDouble : kFloat;
}

void add_bench(std::vector<OpEntry>& v) {
  const DTypeSet all = DTypeSet::all();
  entry_named(v, "copy_").bench = each_dtype(all, [](CaseList& list, ScalarType t) {
    const int64_t n = list.side() * list.side();
    const CopyCall copy = [](const Tensor& src, const Tensor& dst) -> std::function<void()> {
      return [=] { dst.copy_(src); };
    };
    copy_case(list, "copy_", t, "contiguous", t, Src::Plain, 2 * nbytes(n, t), copy);
    // In full runs also float32 on the STREAM probes' 128 M elements, against the copy probe.
    if (const int64_t stream = list.stream_numel(); t == kFloat && stream > 0) {
      copy_case(list, "copy_", t, "contiguous", t, Src::Plain, 2 * nbytes(stream, t), copy,
                {int64_t{1} << 13, stream >> 13});
    }
    copy_case(list, "copy_", t, "transposed", t, Src::Transposed, 2 * nbytes(n, t), copy);
    copy_case(list, "copy_", t, "expanded_column", t, Src::ExpandedCol, nbytes(n, t), copy);
    copy_case(list, "copy_", t, "expanded_row", t, Src::ExpandedRow, nbytes(n, t), copy);
    copy_case(list, "copy_", t, "sliced_step2", t, Src::Sliced, 2 * nbytes(n, t), copy);
    const ScalarType other = other_dtype(t);
    copy_case(list, "copy_", t, "convert_from_" + std::string(dtype_name(other)), other, Src::Plain,
              nbytes(n, t) + nbytes(n, other), copy);
    copy_case(list, "copy_", t, "transposed_convert_from_" + std::string(dtype_name(other)), other,
              Src::Transposed, nbytes(n, t) + nbytes(n, other), copy);
  });
  entry_named(v, "clone").bench = each_dtype(all, [](CaseList& list, ScalarType t) {
    const int64_t n = list.side() * list.side();
    copy_case(list, "clone", t, "contiguous", t, Src::Plain, 2 * nbytes(n, t),
              [](const Tensor& src, const Tensor&) -> std::function<void()> {
                return [=] { (void)src.clone(); };
              });
  });
  entry_named(v, "contiguous").bench = each_dtype(all, [](CaseList& list, ScalarType t) {
    const int64_t n = list.side() * list.side();
    copy_case(list, "contiguous", t, "transposed", t, Src::Transposed, 2 * nbytes(n, t),
              [](const Tensor& src, const Tensor&) -> std::function<void()> {
                return [=] { (void)src.contiguous(); };
              });
  });
  entry_named(v, "to").bench = each_dtype(all, [](CaseList& list, ScalarType t) {
    const int64_t n = list.side() * list.side();
    const ScalarType other = other_dtype(t);
    copy_case(list, "to", t, "to_" + std::string(dtype_name(other)), t, Src::Plain,
              nbytes(n, t) + nbytes(n, other),
              [](const Tensor& src, const Tensor&) -> std::function<void()> {
                const ScalarType to = other_dtype(src.dtype());
                return [=] { (void)src.to(to); };
              });
  });
  const CopyCall fill = [](const Tensor&, const Tensor& dst) -> std::function<void()> {
    return [=] { dst.fill_(1); };
  };
  const CopyCall zero = [](const Tensor&, const Tensor& dst) -> std::function<void()> {
    return [=] { dst.zero_(); };
  };
  for (const auto& [op, call] : {std::pair{"fill_", fill}, std::pair{"zero_", zero}}) {
    entry_named(v, op).bench =
        each_dtype(all, [op = op, call = call](CaseList& list, ScalarType t) {
          const int64_t n = list.side() * list.side();
          copy_case(list, op, t, "contiguous", t, Src::Plain, nbytes(n, t), call);
        });
  }
}

}  // namespace

std::vector<OpEntry> copy_entries() {
  std::vector<OpEntry> v;
  v.push_back(entry("clone", value_samples,
                    [](const In& in, const SampleArgs&) { return In{ts::clone(in[0])}; }));
  v.push_back(entry("contiguous", value_samples,
                    [](const In& in, const SampleArgs&) { return In{ts::contiguous(in[0])}; }));
  v.push_back(entry("to", conversion_samples, [](const In& in, const SampleArgs& a) {
    return In{in[0].to(*a.dtype, a.flag)};
  }));
  // copy_(self, src): self (the case's dtype) is inputs[0]; src of another dtype or shape
  // (broadcast into self). The functional case copies into a clone of self.
  OpEntry copy = entry(
      "copy_",
      [](const SampleContext& ctx) {
        std::vector<Sample> out;
        const std::vector<std::tuple<std::string, Shape, ScalarType>> srcs = {
            {"same", {3, 4}, ctx.dtype()},   {"from_float64", {3, 4}, kDouble},
            {"from_int64", {3, 4}, kLong},   {"from_bool", {3, 4}, kBool},
            {"bcast_row", {4}, ctx.dtype()}, {"from_0dim", {}, ctx.dtype()}};
        for (const auto& [name, shape, src_dtype] : srcs) {
          Sample s;
          s.name = name;
          s.inputs = {ctx.input(name, 0, {3, 4}),
                      SampleContext("copy_/" + std::string(dtype_name(ctx.dtype())), src_dtype)
                          .input(name, 1, shape)};
          out.push_back(std::move(s));
        }
        Sample big;
        big.name = "big";
        big.inputs = {ctx.input(big.name, 0, {37, 53}), ctx.input(big.name, 1, {37, 53})};
        out.push_back(big);
        Sample empty;
        empty.name = "empty";
        empty.inputs = {ctx.input(empty.name, 0, {2, 0, 3}), ctx.input(empty.name, 1, {0, 3})};
        out.push_back(empty);
        return out;
      },
      [](const In& in, const SampleArgs&) { return In{in[0].clone().copy_(in[1])}; });
  copy.run_inplace = [](const Tensor& self, const In& in, const SampleArgs&) {
    return self.copy_(in[1]);
  };
  v.push_back(std::move(copy));
  // fill_(self, value = args.scalar), functional as a clone of self filled.
  OpEntry fill = entry(
      "fill_",
      [](const SampleContext& ctx) {
        std::vector<Sample> out = value_samples(ctx);
        for (Sample& s : out) s.args.scalar = ctx.scalar();
        if (is_floating_type(ctx.dtype())) {
          for (const auto& [name, value] : std::vector<std::pair<std::string, double>>{
                   {"nan", std::numeric_limits<double>::quiet_NaN()},
                   {"neg_zero", -0.0},
                   {"third", 1.0 / 3}}) {
            Sample s;
            s.name = "value_" + name;
            s.inputs = {ctx.input(s.name, 0, {3, 4})};
            s.args.scalar = value;
            out.push_back(std::move(s));
          }
        } else if (ctx.dtype() != kBool) {
          // A floating value into an integer tensor is truncated, as ATen.
          Sample s;
          s.name = "truncated_value";
          s.inputs = {ctx.input(s.name, 0, {3, 4})};
          s.args.scalar = 2.75;
          out.push_back(std::move(s));
        }
        return out;
      },
      [](const In& in, const SampleArgs& a) { return In{in[0].clone().fill_(*a.scalar)}; });
  fill.run_inplace = [](const Tensor& self, const In&, const SampleArgs& a) {
    return self.fill_(*a.scalar);
  };
  v.push_back(std::move(fill));
  OpEntry zero = entry("zero_", value_samples,
                       [](const In& in, const SampleArgs&) { return In{in[0].clone().zero_()}; });
  zero.run_inplace = [](const Tensor& self, const In&, const SampleArgs&) { return self.zero_(); };
  v.push_back(std::move(zero));
  add_bench(v);
  // Note [Constant by definition]: fill_'s value, zero_'s zeros; a cast to an integer dtype
  // passes no gradient (to's float targets vary theirs).
  entry_named(v, "fill_").constant_output = DTypeSet::all();
  entry_named(v, "zero_").constant_output = DTypeSet::all();
  entry_named(v, "to").constant_gradient = DTypeSet::all();
  // Note [Known answers] in catalog.h: float16's largest finite value, and one that rounds to inf.
  entry_named(v, "to").known = {
      {kFloat, [] {
         SampleArgs a;
         a.dtype = kHalf;
         return known_answer("known", {tensor({65504., 65520.})},
                             {tensor({65504., std::numeric_limits<double>::infinity()}, kHalf)}, a);
       }}};
  return v;
}

}  // namespace ts::catalog
