#pragma once
// The kernel ops of some signature classes, at compile time (op_list.def's kind and sig
// columns), for kernel sets that register one template per op:
//
//   for_each_kernel_op<OpSignature::Reduction>([&](auto op) { m.impl(op, kCPU, kernel<op>); });
//
// kernel<op> picks its op's branch with `if constexpr` and ends in
// `static_assert(kNoKernelFor<op>)`, so an op added to op_list.def without its branch in a
// kernel set fails to compile there, naming the op.
#include <cstddef>
#include <type_traits>
#include <utility>

#include "touchstone/dispatch.h"

namespace ts {
namespace detail {

struct OpClass {
  OpKind kind;
  OpSignature sig;
};
inline constexpr OpClass kOpClasses[] = {
#define TS_OP(name, kind, sig, params, variants, diff, dtypes, parts, schema) \
  {OpKind::kind, OpSignature::sig},
#include "touchstone/op_list.def"
#undef TS_OP
};
static_assert(std::size(kOpClasses) == kNumOps);

template <OpSignature... kSigs, class F, size_t... I>
void for_each_kernel_op(F& f, std::index_sequence<I...>) {
  const auto one = [&f]<size_t K>(std::integral_constant<size_t, K>) {
    if constexpr (kOpClasses[K].kind == OpKind::Kernel && ((kOpClasses[K].sig == kSigs) || ...)) {
      f(std::integral_constant<OpId, static_cast<OpId>(K)>{});
    }
  };
  (one(std::integral_constant<size_t, I>{}), ...);
}

}  // namespace detail

// Calls f(std::integral_constant<OpId, op>{}) for every kernel op (not composite) whose
// signature class is one of kSigs, in op_list.def's order.
template <OpSignature... kSigs, class F>
void for_each_kernel_op(F&& f) {
  detail::for_each_kernel_op<kSigs...>(f, std::make_index_sequence<kNumOps>{});
}

// False for every op: the last branch of a per-op kernel template (see above).
template <OpId>
inline constexpr bool kNoKernelFor = false;

}  // namespace ts
