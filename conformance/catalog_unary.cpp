// Catalog entries of the unary (elementwise, one input) ops.
#include <utility>

#include "conformance/catalog.h"

namespace ts::conformance {
namespace {

// Shapes from 0-dim and empty to a few thousand elements; odd sizes leave SIMD tails.
std::vector<Sample> unary_samples(const SampleContext& ctx, Range r) {
  const NamedShapes shapes = {{"scalar", {}},     {"empty", {0}},      {"vec7", {7}},
                              {"mat3x4", {3, 4}}, {"cube", {2, 3, 5}}, {"empty3d", {2, 0, 3}},
                              {"big", {37, 53}},  {"size1", {5, 1, 4}}};
  return one_input_samples(ctx, shapes, r);
}

template <typename Fn, typename OutFn>
OpEntry unary(std::string name, Range r, Fn fn, OutFn out_fn) {
  OpEntry e;
  e.name = std::move(name);
  e.family = "unary";
  e.samples = [r](const SampleContext& ctx) { return unary_samples(ctx, r); };
  e.run = [fn](const std::vector<Tensor>& in, const SampleArgs&) {
    return std::vector<Tensor>{fn(in[0])};
  };
  e.run_out = [out_fn](const std::vector<Tensor>& outs, const std::vector<Tensor>& in,
                       const SampleArgs&) { out_fn(outs[0], in[0]); };
  return e;
}

// Sets the in-place form: `fn(self)` runs the op over self and returns what the op returned.
template <typename Fn>
OpEntry with_inplace(OpEntry e, Fn fn) {
  e.run_inplace = [fn](const Tensor& self, const std::vector<Tensor>&, const SampleArgs&) {
    return Tensor(fn(self));
  };
  return e;
}

#define TS_UNARY_ENTRY(op, lo, hi)                                                    \
  with_inplace(unary(                                                                 \
                   #op, Range{lo, hi}, [](const Tensor& x) { return ts::op(x); },     \
                   [](const Tensor& out, const Tensor& x) { ts::op##_out(out, x); }), \
               [](const Tensor& x) -> Tensor& { return ts::op##_(x); })

}  // namespace

std::vector<OpEntry> unary_entries() {
  std::vector<OpEntry> v = {
      TS_UNARY_ENTRY(neg, -4, 4),         TS_UNARY_ENTRY(abs, -4, 4),
      TS_UNARY_ENTRY(sign, -4, 4),        TS_UNARY_ENTRY(exp, -4, 4),
      TS_UNARY_ENTRY(expm1, -4, 4),       TS_UNARY_ENTRY(log, 0.05, 8),
      TS_UNARY_ENTRY(log1p, -0.9, 4),     TS_UNARY_ENTRY(sqrt, 0, 8),
      TS_UNARY_ENTRY(rsqrt, 0.05, 8),     TS_UNARY_ENTRY(reciprocal, 0.1, 4),
      TS_UNARY_ENTRY(sin, -4, 4),         TS_UNARY_ENTRY(cos, -4, 4),
      TS_UNARY_ENTRY(tanh, -4, 4),        TS_UNARY_ENTRY(sigmoid, -6, 6),
      TS_UNARY_ENTRY(relu, -4, 4),        TS_UNARY_ENTRY(silu, -4, 4),
      TS_UNARY_ENTRY(erf, -3, 3),         TS_UNARY_ENTRY(floor, -4, 4),
      TS_UNARY_ENTRY(ceil, -4, 4),        TS_UNARY_ENTRY(round, -4, 4),
      TS_UNARY_ENTRY(trunc, -4, 4),       TS_UNARY_ENTRY(logical_not, -2, 2),
      TS_UNARY_ENTRY(bitwise_not, -4, 4),
  };
  OpEntry isnan_entry = unary(
      "isnan", Range{}, [](const Tensor& x) { return ts::isnan(x); },
      [](const Tensor&, const Tensor&) {});
  isnan_entry.run_out = nullptr;  // isnan has no out= form
  v.push_back(std::move(isnan_entry));
  v.push_back(with_inplace(unary(
                               "gelu", Range{-4, 4}, [](const Tensor& x) { return ts::gelu(x); },
                               [](const Tensor& out, const Tensor& x) { ts::gelu_out(out, x); }),
                           [](const Tensor& x) -> Tensor& { return ts::gelu_(x); }));
  OpEntry gelu_tanh = with_inplace(
      unary(
          "gelu.tanh", Range{-4, 4}, [](const Tensor& x) { return ts::gelu(x, "tanh"); },
          [](const Tensor& out, const Tensor& x) { ts::gelu_out(out, x, "tanh"); }),
      [](const Tensor& x) -> Tensor& { return ts::gelu_(x, "tanh"); });
  gelu_tanh.op = "gelu";
  v.push_back(std::move(gelu_tanh));
  v.push_back(
      with_inplace(unary(
                       "clamp", Range{-4, 4}, [](const Tensor& x) { return ts::clamp(x, -1, 2); },
                       [](const Tensor& out, const Tensor& x) { ts::clamp_out(out, x, -1, 2); }),
                   [](const Tensor& x) -> Tensor& { return ts::clamp_(x, -1, 2); }));
  return v;
}

}  // namespace ts::conformance
