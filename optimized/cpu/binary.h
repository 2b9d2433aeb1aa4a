#pragma once
// The iterator of the binary kernels (binary.cpp, binary_compare.cpp).
#include "optimized/cpu/elementwise.h"
#include "touchstone/ops.h"

namespace ts::cpu {

// Note [Broadcast scalar operands]
// A Python scalar reaches a kernel as a 0-dim tensor expanded to the output's shape (every
// stride 0), often of another dtype than the compute dtype (x * 2.5 on float32). TensorIterator
// would cast it into a full-size temporary; converting its one value and expanding that again
// keeps a stride-0 operand, which the loops load once (and pow recognises its special exponents).
inline TensorIterator binary_iter(const KernelCall& c, bool cast_output = true) {
  const ScalarType ct = c.p.compute_dtype;
  const auto broadcast_scalar_to_cast = [ct](const Tensor& t) {
    if (t.dtype() == ct || t.numel() <= 1) return false;
    for (int64_t s : t.strides()) {
      if (s != 0) return false;
    }
    return true;
  };
  bool any = false;
  for (const Tensor& t : c.inputs) any |= broadcast_scalar_to_cast(t);
  if (!any) return elementwise_iter(c, cast_output);
  SmallVector<Tensor, 2> inputs;
  for (const Tensor& t : c.inputs) {
    if (!broadcast_scalar_to_cast(t)) {
      inputs.push_back(t);
      continue;
    }
    Tensor value = t;
    while (value.dim() > 0) value = value.select(0, 0);
    inputs.push_back(value.to(ct).expand(t.sizes()));
  }
  return elementwise_iter(KernelCall{c.op, c.outputs, inputs, c.p, c.kind}, cast_output);
}

// Note [Float32 row sums]
// out[i] = rows[0][i] + ... + rows[k - 1][i] for n contiguous float32 (k >= 2), added in double in
// that order and rounded once, as the reference: index_add's destination rows. With k = 2 it adds
// in float32, the same bits (double has more than 2 x 24 + 2 bits, so rounding the exact sum to
// double and then to float gives the float sum). Vectors of the best target; out may be rows[0].
// index_add of 4096 random rows into 4096 x 4096, where a scalar loop through double did the
// rows of 2 or more sources: 1 thread 10.2-11.2 -> 6.8-7.8 ms (ATen 8.2-9.7), 2 threads 5.6 -> 3.6.
void sum_contiguous_floats(float* out, const float* const* rows, int64_t k, int64_t n);

// A floating UnaryBool op (isnan, isinf, isfinite, logical_not), or logical_not of bools, into a
// bool output, from the vector masks (binary_compare.cpp).
void unary_bool_vector_loop(const TensorIterator& iter, OpId op);

}  // namespace ts::cpu
