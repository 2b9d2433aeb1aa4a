// Reference kernels for where, lerp, addcmul and masked_fill. See Note [Reference kernels] in
// common.h. Integer arithmetic wraps through uint64 so that it never overflows.
#include <cmath>

#include "common.h"

namespace ts::reference {
namespace {

uint64_t u(int64_t x) {
  return static_cast<uint64_t>(x);
}

// ATen's kernels convert a Scalar argument to opmath (float for float16 and bfloat16).
double scalar_as_opmath(const Scalar& s, ScalarType compute) {
  return round_to(is_reduced_float(compute) ? kFloat : compute, s.to_double());
}

// out = condition ? self : other, the chosen element converted to the output dtype.
void where_kernel(const KernelCall& c) {
  const Tensor& out = c.outputs[0];
  for_each_element<3>(c, [&](char* o, const char* const* in) {
    const size_t chosen = load_bool(in[0], kBool) ? 1 : 2;
    convert_element(o, out.dtype(), in[chosen], c.inputs[chosen].dtype());
  });
}

// ATen's formula, exact at both ends: from start for small |weight|, from end otherwise.
double lerp(double start, double end, double weight) {
  return std::fabs(weight) < 0.5 ? start + weight * (end - start)
                                 : end - (end - start) * (1 - weight);
}

[[noreturn]] int64_t no_integral_lerp(const int64_t*) {
  TS_ERROR("lerp: integral dtypes are not supported");
}

void lerp_kernel(const KernelCall& c) {
  if (const std::optional<Scalar>& weight = c.params<LerpParams>().weight) {
    const double w = scalar_as_opmath(*weight, c.p.compute_dtype);
    elementwise<2>(
        c, [&](const double* v) { return lerp(v[0], v[1], w); }, no_integral_lerp);
  } else {
    elementwise<3>(
        c, [](const double* v) { return lerp(v[0], v[1], v[2]); }, no_integral_lerp);
  }
}

// out = self + value * tensor1 * tensor2.
void addcmul_kernel(const KernelCall& c) {
  const Scalar& value = c.params<ValueParams>().value;
  const double fv = scalar_as_opmath(value, c.p.compute_dtype);
  const int64_t iv = value.to_long();  // integral compute dtypes have an integral value
  elementwise<3>(
      c, [&](const double* v) { return v[0] + fv * v[1] * v[2]; },
      [&](const int64_t* v) { return static_cast<int64_t>(u(v[0]) + u(iv) * u(v[1]) * u(v[2])); });
}

// out = mask ? value : self, with the value converted once to self's dtype.
void masked_fill_kernel(const KernelCall& c) {
  const Tensor& out = c.outputs[0];
  alignas(8) char value[8];
  store_scalar(value, out.dtype(), c.params<ValueParams>().value);
  for_each_element<2>(c, [&](char* o, const char* const* in) {
    // memmove: for masked_fill_ the output element is the self element itself.
    std::memmove(o, load_bool(in[1], kBool) ? value : in[0], out.element_size());
  });
}

}  // namespace

TS_REGISTER_KERNELS(reference, ternary) {
  m.impl(OpId::where, kCPU, where_kernel);
  m.impl(OpId::lerp, kCPU, lerp_kernel);
  m.impl(OpId::addcmul, kCPU, addcmul_kernel);
  m.impl(OpId::masked_fill, kCPU, masked_fill_kernel);
}

}  // namespace ts::reference
