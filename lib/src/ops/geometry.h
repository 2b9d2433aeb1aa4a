#pragma once
// The geometry half of meta: broadcast shapes and memory-overlap checks, which TensorIterator
// and the meta functions both need (Note [Meta layering]).
#include <optional>

#include "touchstone/function_ref.h"
#include "touchstone/tensor.h"

namespace ts::meta {

// Note [Meta layering]
// geometry.h depends on the tensor core only; TensorIterator includes it and never meta.h;
// meta.h includes it and TensorIterator. So TensorIterator builds without meta, and meta's
// allocate_like may use TensorIterator's layout rule (output_strides_like) with no cycle.

// Names the i-th operand in messages (meta::arg_name of an op's schema).
using OperandNames = FunctionRef<const char*(size_t i)>;

// The broadcast shape of all operands; ATen's message on mismatch, naming the operand by
// `names` when given.
DimVector broadcast_shapes(const char* op, TensorList tensors,
                           std::optional<OperandNames> names = std::nullopt);

// `arg`, `out_arg`, `in_arg`: the arguments the message names (the written-to tensor is
// `out` for out= calls, `self` for in-place ones).
void check_no_internal_overlap(const char* op, const Tensor& t, const char* arg = "out");
void check_no_partial_overlap(const char* op, const Tensor& out, const Tensor& in,
                              const char* out_arg = "out", const char* in_arg = "input");

// Refuses an out= that resizing to `shape` would make overlap an input, or that is an input
// (Note [Resized out= tensors]): prepare_output and elementwise check it; an op with two outputs
// checks both before resizing either.
void check_out_resizable(const char* op, const Tensor& out, IntArrayRef shape, TensorList inputs,
                         const char* arg = "out");

// Two out= tensors of one call (max's values and indices) must not overlap once resized.
void check_resized_outs_disjoint(const char* op, const Tensor& a, const Tensor& b,
                                 IntArrayRef shape, const char* arg_a, const char* arg_b);

}  // namespace ts::meta
