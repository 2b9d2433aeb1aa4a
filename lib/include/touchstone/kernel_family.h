#pragma once
// Registering a kernel set's kernels for whole signature classes of op_list.def.
//
// Note [Kernel families]
// A kernel file defines one function template for the signature classes it implements, either
// deleted with one explicit specialization per op,
//   template <OpId op>
//   void kernel(const KernelCall& c) = delete;
//   template <>
//   void kernel<OpId::arange>(const KernelCall& c) { ... }
// or with one body whose `if constexpr` chain has a branch per op and ends in
// static_assert(kMissingKernel<op>), and registers it for every Kernel op of those classes:
//   for_each_kernel_op<OpSignature::Factory>([&](auto op) { m.impl(op, kCPU, kernel<op>); });
// (m.impl registers op_list.def's dtypes; a set that covers fewer names them in the lambda).
// Adding an op of such a class to op_list.def then registers it in every set that implements
// the class, and a set without its kernel does not compile: one edit per kernel set, and it
// cannot be forgotten.
#include <cstddef>
#include <type_traits>
#include <utility>

#include "touchstone/dispatch.h"

namespace ts {
namespace detail {

inline constexpr OpSignature kOpSignatures[] = {
#define TS_OP(name, kind, sig, ...) OpSignature::sig,
#include "touchstone/op_list.def"
#undef TS_OP
};
inline constexpr OpKind kOpKinds[] = {
#define TS_OP(name, kind, ...) OpKind::kind,
#include "touchstone/op_list.def"
#undef TS_OP
};

template <bool Call, class F, class Op>
void call_if(F& f, Op op) {
  if constexpr (Call) f(op);
}

}  // namespace detail

// Whether `op` is a Kernel op (not a composite) whose signature class is one of Sigs.
template <OpSignature... Sigs>
constexpr bool is_kernel_of(OpId op) {
  const auto i = static_cast<size_t>(op);
  return detail::kOpKinds[i] == OpKind::Kernel && ((detail::kOpSignatures[i] == Sigs) || ...);
}

// For the final `else static_assert(kMissingKernel<op>, "...")` of an `if constexpr` chain.
template <OpId op>
inline constexpr bool kMissingKernel = false;

// Calls f(std::integral_constant<OpId, op>{}) for every Kernel op of the signature classes
// Sigs, in op_list.def's order; f is instantiated for those ops only.
template <OpSignature... Sigs, class F>
void for_each_kernel_op(F&& f) {
  [&]<size_t... I>(std::index_sequence<I...>) {
    (detail::call_if<is_kernel_of<Sigs...>(static_cast<OpId>(I))>(
         f, std::integral_constant<OpId, static_cast<OpId>(I)>{}),
     ...);
  }
  (std::make_index_sequence<kNumOps>{});
}

}  // namespace ts
