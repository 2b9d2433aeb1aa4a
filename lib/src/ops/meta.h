#pragma once
// Shared meta helpers: argument checks, broadcasting, output preparation, elementwise driver.
// Used by every op family in lib/src/ops; kernels never see unchecked arguments. The broadcast
// and overlap checks are geometry.h's (Note [Meta layering]).
#include <initializer_list>
#include <optional>

#include "geometry.h"
#include "touchstone/dispatch.h"
#include "touchstone/op_scope.h"
#include "touchstone/promotion.h"

namespace ts::meta {

// How an op's result reaches memory; passed on to kernels as KernelCall::kind.
using Variant = CallKind;

// The i-th Tensor argument of `op` as its schema in op_list.def names it ("self", "other", ...);
// a Tensor[] names every later index too; "input" past the last. Parsed once; for messages.
const char* arg_name(OpId op, size_t i);
// The name errors give `op` called as `v`: an in-place call names the method (add_), the
// functional and out= calls the op (add).
const char* op_name(OpId op, Variant v);

// broadcast_shapes (geometry.h) naming the operands by `args`' schema.
DimVector broadcast_shapes(const char* op, TensorList tensors, OpId args);

void check_defined(const char* op, const Tensor& t, const char* arg);
// Every defined operand on one device; CPU 0-dim tensors may join any device (as in ATen).
Device common_device(const char* op, TensorList tensors, std::optional<OpId> args = std::nullopt);
void check_dtype_supported(const char* op, ScalarType t, DTypeSet supported, const char* arg = "");
// Note [Nothing to compute]
// ATen checks the dtype of softmax, log_softmax, argmax, argmin, mm, bmm, mv and linspace only
// inside the kernel, which it never reaches when there is nothing to compute (an empty result, or
// mm/bmm/mv over an empty contraction: zeros; linspace of 0 or 1 steps: empty or start). libtorch
// 1.13 and current PyTorch alike: softmax of an empty int64, mm of bool (2, 0) @ (0, 2) = zeros.
// True when such a call's dtype has no kernel (op_list.def): the op then writes its result
// without one; a dtype op_list.def lists still goes through lookup_kernel (a missing one throws).
inline bool needs_no_kernel(OpId op, ScalarType dtype, bool nothing_to_compute) {
  return nothing_to_compute && !op_info(op).dtypes.has(dtype);
}
// Wrapped, sorted, de-duplicated dims; an empty list means every dim.
DimVector reduction_dims(const char* op, IntArrayRef dims, int64_t ndim);

// Checks an out= tensor for a result of `shape`/`dtype`: the dtype must be castable and the
// shape equal unless `out` is empty (then it is resized later by resize_out).
void check_out(const char* op, const Tensor& out, IntArrayRef shape, ScalarType result_dtype,
               const char* arg = "out");
// check_out, then the checks of an out= tensor of a reduction or scan of `self`: self's device,
// no internal overlap, no partial overlap with self, resizable if its shape differs.
void check_out_of(const char* op, const Tensor& out, IntArrayRef shape, ScalarType result_dtype,
                  const Tensor& self, const char* arg = "out");
// layer_norm's and rms_norm's checks, ATen's messages: a non-empty normalized_shape, the last
// dims of `input` equal to it, weight (and bias, when given) of that shape.
void check_normalized_shape(const char* op, const Tensor& input, IntArrayRef normalized_shape,
                            const Tensor& weight, const Tensor& bias);
// A defined out= tensor of exactly dtype `want` (ops whose out= does not cast: indices, scans).
void check_exact_dtype(const char* op, const Tensor& out, ScalarType want, const char* arg);
// As ATen, an out= call of a differentiable op refuses operands that require grad (in grad
// mode). Checked before any output is resized, so a refused call leaves them untouched.
void check_out_no_grad(OpId op, TensorList outs, TensorList inputs);
void resize_out(const Tensor& out, IntArrayRef shape);
// resize_out for an op ATen computes through TensorIterator: a resized `out` is laid out as a new
// result would be (allocate_like's order; Note [Resized out= layout]).
void resize_out_like(const Tensor& out, IntArrayRef shape, TensorList inputs);
// A Scalar argument must fit dtype `t` as ATen's Scalar::to<T>() (c10 checked_convert) demands:
// in range, NaN only for floating dtypes, negative integers wrap into unsigned ones.
void check_scalar_fits(const char* op, const Scalar& v, ScalarType t, const char* arg = "value");

// The largest finite value of floating dtype `t` (float64's for any other dtype).
double floating_max(ScalarType t);

// An elementwise op: inputs are promoted to a common dtype and broadcast.
struct ElementwiseSpec {
  OpId op;
  DTypeSet supported = DTypeSet::all();  // dtypes the op is defined for (common dtype)
  bool int_to_float = false;    // integer and bool inputs compute in the default float dtype
  bool bool_result = false;     // the result is bool (comparisons, logical ops, isnan)
  bool same_dtype_out = false;  // an out= tensor must have the result's dtype (Unary ops)
};
// The spec op_list.def gives `op`: its dtypes, except that UnaryFloat and BinaryFloat ops take
// every dtype and compute integers and bool in the default float dtype (their kernels' dtypes
// are the op's); UnaryBool and BinaryBool ops give a bool result; Unary ops write an out=
// tensor of the result's dtype only (Note [Unary out= dtype]).
ElementwiseSpec elementwise_spec(OpId op);

// Promotes, broadcasts, checks and prepares the output, then dispatches. For InPlace the output
// is inputs[0]; for Out it is `out`. The kernel sees inputs expanded to the output's shape.
Tensor elementwise(const ElementwiseSpec& spec, Variant v, const Tensor& out, TensorList inputs,
                   OpParams& p);

// copy_ and fill_ as InPlace (Tensor::copy_, fill_) or Functional calls; the *_new forms write
// a tensor the caller has just allocated (clone, to, the fill factories): see copy.cpp.
void copy_with_kind(const Tensor& self, const Tensor& src, CallKind kind);
void copy_into_new(const Tensor& self, const Tensor& src);
void fill_with_kind(const Tensor& self, const Scalar& value, CallKind kind);
void fill_new(const Tensor& self, const Scalar& value);
// t's values on the host, contiguous: t itself on the CPU, else a copy (a synchronization), for
// the checks and sizes a meta reads from a device tensor.
Tensor on_host(const Tensor& t);

// The strides of a new result of `shape` laid out like the inputs (TensorIterator's order);
// nullopt when every input is contiguous (the result is too).
std::optional<DimVector> strides_like(IntArrayRef shape, TensorList inputs);
// A new tensor of `shape` laid out like the inputs (contiguous when they are), as ATen does:
// TensorIterator::output_strides_like's order.
Tensor allocate_like(IntArrayRef shape, ScalarType dtype, Device device, TensorList inputs);

// Prepares the result of a non-elementwise op: allocates (Functional) or checks and resizes
// (Out) — the caller has done every other check. Errors name `op`.
Tensor prepare_output(OpId op, Variant v, const Tensor& out, IntArrayRef shape, ScalarType dtype,
                      Device device, TensorList inputs);

}  // namespace ts::meta
