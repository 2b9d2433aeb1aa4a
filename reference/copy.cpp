// Reference kernels for copy_ and fill_, and the element conversion they (and where,
// masked_fill) share. See Note [Reference kernels] in common.h.
#include <cmath>

#include "common.h"
#include "touchstone/kernel_family.h"

namespace ts::reference {

// Note [Conversions round once]
// A converted element is the source value rounded once to the destination dtype. Floating
// sources load exactly as double and go through store_double: round to nearest even for
// floating dtypes, truncation toward zero (then wrapping) for integers, v != 0 for bool (so NaN
// is true and -0.0 false). Integer and bool sources go through store_int64: two's complement
// wrapping, v != 0 for bool. An integer wider than double's 53 bits is first rounded to odd
// (int64_to_double_round_odd, see Note [Round to odd] in common.cpp), so the one rounding to
// float32 and narrower stays exact. PyTorch's CPU goes double -> float -> half/bfloat16 (and int ->
// float -> bfloat16), which can differ by one ulp in rare double-rounding cases; touchstone rounds
// once.

void convert_element(void* dst, ScalarType dt, const void* src, ScalarType st) {
  if (is_floating_type(st)) {
    store_double(dst, dt, load_double(src, st));
  } else {
    store_int64(dst, dt, load_int64(src, st));
  }
}

void store_scalar(void* dst, ScalarType dt, const Scalar& s) {
  if (s.is_floating_point()) {
    const double d = s.to_double();
    convert_element(dst, dt, &d, kDouble);
  } else {
    const int64_t i = s.to_long();  // bool is 0 or 1
    convert_element(dst, dt, &i, kLong);
  }
}

namespace {

// One kernel per Kernel op of signature class Copy (Note [Kernel families]).
template <OpId op>
void kernel(const KernelCall& c) = delete;

// dst = src, each element converted once (Note [Conversions round once]).
template <>
void kernel<OpId::copy_>(const KernelCall& c) {
  const ScalarType dt = c.outputs[0].dtype();
  const ScalarType st = c.inputs[0].dtype();  // src, already expanded to dst's shape
  for_each_element<1>(
      c, [&](char* dst, const char* const* src) { convert_element(dst, dt, src[0], st); });
}

template <>
void kernel<OpId::fill_>(const KernelCall& c) {
  const Tensor& self = c.outputs[0];
  alignas(8) char value[8];  // the value converted once, then stored everywhere
  store_scalar(value, self.dtype(), c.params<ValueParams>().value);
  for_each_index(self.sizes(), [&](IntArrayRef idx) {
    std::memcpy(element_ptr(self, idx), value, self.element_size());
  });
}

}  // namespace

TS_REGISTER_KERNELS(reference, copy) {
  for_each_kernel_op<OpSignature::Copy>([&](auto op) { m.impl(op, kCPU, kernel<op>); });
}

}  // namespace ts::reference
