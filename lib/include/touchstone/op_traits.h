#pragma once
// op_list.def's facts at compile time, for kernel tables built from the op list: a kernel set
// iterates the plain ops of an arity and instantiates its formula for each, so an op of the
// list without a formula fails to compile (Note [Generated declarations] in plain_ops.h).
#include <array>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "touchstone/dispatch.h"
#include "touchstone/plain_ops.h"

namespace ts {

struct OpTraits {
  OpId op;
  OpKind kind;
  OpSignature sig;
  PlainOp plain;
  DTypeSet dtypes;
};

inline constexpr OpTraits kOpTraits[] = {
#define TS_OP(name, kind, sig, params, variants, diff, dtypes_, parts, schema)             \
  {OpId::name, OpKind::kind, OpSignature::sig, PlainOp::TS_PLAIN_ARITY(kind, sig, params), \
   dtypes::dtypes_},
#include "touchstone/op_list.def"
#undef TS_OP
};
static_assert(std::size(kOpTraits) == kNumOps);

constexpr const OpTraits& op_traits(OpId op) {
  return kOpTraits[static_cast<size_t>(op)];
}

namespace detail {
template <PlainOp kArity>
constexpr size_t count_plain_ops() {
  size_t n = 0;
  for (const OpTraits& t : kOpTraits) n += t.plain == kArity ? 1 : 0;
  return n;
}
// The plain ops of kArity, in op_list.def's order.
template <PlainOp kArity>
inline constexpr auto kPlainOps = [] {
  std::array<OpId, count_plain_ops<kArity>()> ops{};
  size_t n = 0;
  for (const OpTraits& t : kOpTraits) {
    if (t.plain == kArity) ops[n++] = t.op;
  }
  return ops;
}();
template <PlainOp kArity, class F, size_t... I>
void for_each_plain_op(F& f, std::index_sequence<I...>) {
  (f(std::integral_constant<OpId, kPlainOps<kArity>[I]> {}), ...);
}
}  // namespace detail

// Calls f(std::integral_constant<OpId, op>{}) for every plain op of `kArity`, in op_list.def's
// order: `for_each_plain_op<PlainOp::Unary>([&](auto op) { m.impl(op, kCPU, kernel<op>); })`.
template <PlainOp kArity, class F>
void for_each_plain_op(F&& f) {
  detail::for_each_plain_op<kArity>(f,
                                    std::make_index_sequence<detail::kPlainOps<kArity>.size()>{});
}

}  // namespace ts
