#pragma once
// op_list.def's facts at compile time, and registering a kernel set's kernels for whole
// signature classes or plain arities of the op list.
//
// Note [Kernel families]
// A kernel file defines one function template for the classes it implements, either deleted
// with one explicit specialization per op,
//   template <OpId op>
//   void kernel(const KernelCall& c) = delete;
//   template <>
//   void kernel<OpId::arange>(const KernelCall& c) { ... }
// or with one body whose `if constexpr` chain has a branch per op and ends in
// static_assert(kMissingKernel<op>), and registers it for every Kernel op of those classes:
//   for_each_kernel_op<OpSignature::Factory>([&](auto op) { m.impl(op, kCPU, kernel<op>); });
// (m.impl registers op_list.def's dtypes; a set that covers fewer names them in the lambda).
// Plain elementwise ops are iterated by arity instead (for_each_plain_op<PlainOp::Unary>).
// Adding an op to op_list.def then registers it in every set that implements its class, and
// a set without its kernel does not compile: one edit per kernel set, and it cannot be
// forgotten.
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

// Whether `op` is a Kernel op (not a composite) whose signature class is one of Sigs.
template <OpSignature... Sigs>
constexpr bool is_kernel_of(OpId op) {
  const OpTraits& t = op_traits(op);
  return t.kind == OpKind::Kernel && ((t.sig == Sigs) || ...);
}

// For the final `else static_assert(kMissingKernel<op>, "...")` of an `if constexpr` chain.
template <OpId op>
inline constexpr bool kMissingKernel = false;

namespace detail {
template <bool Call, class F, class Op>
void call_if(F& f, Op op) {
  if constexpr (Call) f(op);
}

// Note [Ops in chunks]
// clang refuses a fold expression of more than 256 terms (its -fbracket-depth), and the op list
// outgrew that: the ops are visited in folds of kOpChunk, one fold per chunk.
inline constexpr size_t kOpChunk = 128;

template <auto pred, size_t kBase, class F, size_t... I>
void for_each_op_in_chunk(F& f, std::index_sequence<I...>) {
  (call_if < (kBase + I < kNumOps) &&
       pred(static_cast<OpId>(kBase + I)) >
           (f, std::integral_constant<OpId, static_cast<OpId>(kBase + I)>{}),
   ...);
}
}  // namespace detail

// Calls f(std::integral_constant<OpId, op>{}) for every op with pred(op) true, in op_list.def's
// order; f is instantiated for those ops only.
template <auto pred, class F>
void for_each_op_where(F&& f) {
  [&]<size_t... C>(std::index_sequence<C...>) {
    (detail::for_each_op_in_chunk<pred, C * detail::kOpChunk>(
         f, std::make_index_sequence<detail::kOpChunk>{}),
     ...);
  }
  (std::make_index_sequence<(kNumOps + detail::kOpChunk - 1) / detail::kOpChunk>{});
}

// Every Kernel op of the signature classes Sigs.
template <OpSignature... Sigs, class F>
void for_each_kernel_op(F&& f) {
  for_each_op_where<[](OpId op) { return is_kernel_of<Sigs...>(op); }>(f);
}

// Every plain op of `kArity`: `for_each_plain_op<PlainOp::Unary>([&](auto op) {
// m.impl(op, kCPU, kernel<op>); })`.
template <PlainOp kArity, class F>
void for_each_plain_op(F&& f) {
  for_each_op_where<[](OpId op) { return op_traits(op).plain == kArity; }>(f);
}

}  // namespace ts
