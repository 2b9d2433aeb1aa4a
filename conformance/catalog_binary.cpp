// Catalog entries of the binary (elementwise, two inputs) ops: same shapes, broadcasting pairs,
// 0-dim operands, empty tensors and Tensor-Scalar calls.
#include <utility>

#include "conformance/catalog.h"

namespace ts::conformance {
namespace {

struct Pair {
  std::string name;
  std::vector<int64_t> a, b;
};

// `rb` is the second operand's range (divisors stay away from zero).
std::vector<Sample> binary_samples(const SampleContext& ctx, Range ra, Range rb) {
  const std::vector<Pair> pairs = {{"same", {3, 4}, {3, 4}},
                                   {"cube", {2, 3, 5}, {2, 3, 5}},
                                   {"bcast_outer", {3, 1}, {1, 4}},
                                   {"bcast_trailing", {2, 3, 5}, {5}},
                                   {"bcast_mid", {4, 1, 6}, {5, 1}},
                                   {"zero_dim_lhs", {}, {3, 4}},
                                   {"zero_dim_rhs", {3, 4}, {}},
                                   {"both_zero_dim", {}, {}},
                                   {"empty", {0}, {0}},
                                   {"empty_bcast", {2, 0, 3}, {3}},
                                   {"big", {37, 53}, {37, 53}},
                                   {"big_bcast", {37, 53}, {53}}};
  std::vector<Sample> out;
  for (const Pair& p : pairs) {
    Sample s;
    s.name = p.name;
    s.inputs = {ctx.input(p.name, 0, p.a, ra), ctx.input(p.name, 1, p.b, rb)};
    out.push_back(std::move(s));
  }
  if (is_floating_type(ctx.dtype())) {
    // Every pair of edge values: a column against a row.
    KernelSetGuard g("reference");
    const Tensor edges = edge_values(ctx.dtype());
    Sample s;
    s.name = "edge_values";
    s.smooth = false;
    s.inputs = {edges.unsqueeze(1).contiguous(), edges.unsqueeze(0).contiguous()};
    out.push_back(std::move(s));
  }
  for (const auto& [name, shape] : std::vector<std::pair<std::string, std::vector<int64_t>>>{
           {"scalar_arg", {3, 4}}, {"scalar_arg_big", {37, 53}}, {"scalar_arg_0dim", {}}}) {
    Sample s;
    s.name = name;
    s.inputs = {ctx.input(name, 0, shape, ra)};
    s.args.scalar = ctx.scalar();
    s.has_out = false;
    out.push_back(std::move(s));
  }
  return out;
}

template <typename Fn, typename OutFn>
OpEntry binary(std::string name, Range ra, Range rb, Fn fn, OutFn out_fn) {
  OpEntry e;
  e.name = std::move(name);
  e.family = "binary";
  e.samples = [ra, rb](const SampleContext& ctx) { return binary_samples(ctx, ra, rb); };
  e.run = [fn](const std::vector<Tensor>& in, const SampleArgs& args) {
    return std::vector<Tensor>{args.scalar ? fn(in[0], *args.scalar) : fn(in[0], in[1])};
  };
  e.run_out = [out_fn](const std::vector<Tensor>& outs, const std::vector<Tensor>& in,
                       const SampleArgs&) { out_fn(outs[0], in[0], in[1]); };
  return e;
}

// Sets the in-place form: `fn(self, other)` with other a Tensor or, for Tensor-Scalar samples,
// the sample's Scalar.
template <typename Fn>
OpEntry with_inplace(OpEntry e, Fn fn) {
  e.run_inplace = [fn](const Tensor& self, const std::vector<Tensor>& in, const SampleArgs& args) {
    return args.scalar ? Tensor(fn(self, *args.scalar)) : Tensor(fn(self, in[1]));
  };
  return e;
}

// A generic lambda covers both the Tensor-Tensor and the Tensor-Scalar overloads.
#define TS_BINARY_ENTRY_NO_INPLACE(op, ra, rb)                                  \
  binary(                                                                       \
      #op, ra, rb, [](const Tensor& a, const auto& b) { return ts::op(a, b); }, \
      [](const Tensor& out, const Tensor& a, const Tensor& b) { ts::op##_out(out, a, b); })
#define TS_BINARY_ENTRY(op, ra, rb)                    \
  with_inplace(TS_BINARY_ENTRY_NO_INPLACE(op, ra, rb), \
               [](const Tensor& a, const auto& b) -> Tensor& { return a.op##_(b); })

}  // namespace

std::vector<OpEntry> binary_entries() {
  const Range any{-4, 4}, positive{0.5, 4}, base{0.1, 3}, exponent{-2, 3};
  std::vector<OpEntry> v = {
      TS_BINARY_ENTRY(add, any, any),
      TS_BINARY_ENTRY(sub, any, any),
      TS_BINARY_ENTRY(mul, any, any),
      TS_BINARY_ENTRY(div, any, positive),
      TS_BINARY_ENTRY(remainder, any, positive),
      TS_BINARY_ENTRY(pow, base, exponent),
      TS_BINARY_ENTRY_NO_INPLACE(maximum, any, any),
      TS_BINARY_ENTRY_NO_INPLACE(minimum, any, any),
      TS_BINARY_ENTRY(atan2, any, any),
      TS_BINARY_ENTRY(eq, Range({-2, 2}), Range({-2, 2})),
      TS_BINARY_ENTRY(ne, Range({-2, 2}), Range({-2, 2})),
      TS_BINARY_ENTRY(lt, any, any),
      TS_BINARY_ENTRY(le, any, any),
      TS_BINARY_ENTRY(gt, any, any),
      TS_BINARY_ENTRY(ge, any, any),
      TS_BINARY_ENTRY(logical_and, Range({-1, 2}), Range({-1, 2})),
      TS_BINARY_ENTRY(logical_or, Range({-1, 2}), Range({-1, 2})),
      TS_BINARY_ENTRY(bitwise_and, any, any),
      TS_BINARY_ENTRY(bitwise_or, any, any),
      TS_BINARY_ENTRY(bitwise_xor, any, any),
  };
  // The optional alpha argument, in the floating dtypes (an integer alpha for others is 2).
  for (const char* op : {"add", "sub"}) {
    const bool is_add = std::string(op) == "add";
    OpEntry e = binary(
        std::string(op) + ".alpha", any, any,
        [is_add](const Tensor& a, const auto& b) {
          return is_add ? ts::add(a, b, 0.75) : ts::sub(a, b, 0.75);
        },
        [is_add](const Tensor& out, const Tensor& a, const Tensor& b) {
          is_add ? ts::add_out(out, a, b, 0.75) : ts::sub_out(out, a, b, 0.75);
        });
    e = with_inplace(std::move(e), [is_add](const Tensor& a, const auto& b) -> Tensor& {
      return is_add ? a.add_(b, 0.75) : a.sub_(b, 0.75);
    });
    e.op = op;
    e.dtypes = DTypeSet::floating();
    v.push_back(std::move(e));
  }
  return v;
}

}  // namespace ts::conformance
