// The "libm" kernel set of the sweep: glibc's float functions called per element, so that a
// sweep compares a kernel set with the system library (engine.h).
#include <cmath>

#include "conformance/sweep/engine.h"
#include "touchstone/touchstone.h"

namespace ts::sweep {
namespace {

// Note [libm composites]
// glibc has no sigmoid, silu, gelu or rsqrt: the set composes them from float functions as
// ATen's scalar code writes them (gelu: 0.5 x (1 + erf(x / sqrt2))). float16 and bfloat16
// inputs are computed in float and rounded once, as ATen's CPU kernels do.
float sigmoidf(float x) {
  return 1.0f / (1.0f + expf(-x));
}
float siluf(float x) {
  return x / (1.0f + expf(-x));
}
float geluf(float x) {
  return 0.5f * x * (1.0f + erff(x * static_cast<float>(M_SQRT1_2)));
}
float rsqrtf(float x) {
  return 1.0f / sqrtf(x);
}
float reciprocalf(float x) {
  return 1.0f / x;
}

template <typename T, float (*F)(float)>
void apply(const Tensor& in, const Tensor& out) {
  const T* src = static_cast<const T*>(in.data_ptr());
  T* dst = static_cast<T*>(out.data_ptr());
  for (int64_t i = 0; i < out.numel(); ++i) dst[i] = T(F(static_cast<float>(src[i])));
}

template <float (*F)(float)>
void libm_kernel(const KernelCall& c) {
  const Tensor& in = c.inputs[0];
  const Tensor& out = c.outputs[0];
  TS_CHECK(in.is_contiguous() && out.is_contiguous() && in.dtype() == out.dtype(),
           op_info(c.op).name, ": the libm kernel set runs contiguous inputs of the output's ",
           "dtype only (it serves `touchstone sweep`)");
  switch (out.dtype()) {
    case kFloat:
      return apply<float, F>(in, out);
    case kHalf:
      return apply<Half, F>(in, out);
    default:
      return apply<BFloat16, F>(in, out);
  }
}

}  // namespace

void register_libm_kernel_set() {
  static const bool registered = [] {
    KernelRegistrar m("libm");
    const DTypeSet dts{kFloat, kHalf, kBFloat16};
    m.impl(OpId::exp, kCPU, dts, libm_kernel<expf>)
        .impl(OpId::expm1, kCPU, dts, libm_kernel<expm1f>)
        .impl(OpId::log, kCPU, dts, libm_kernel<logf>)
        .impl(OpId::log1p, kCPU, dts, libm_kernel<log1pf>)
        .impl(OpId::sqrt, kCPU, dts, libm_kernel<sqrtf>)
        .impl(OpId::rsqrt, kCPU, dts, libm_kernel<rsqrtf>)
        .impl(OpId::reciprocal, kCPU, dts, libm_kernel<reciprocalf>)
        .impl(OpId::sin, kCPU, dts, libm_kernel<sinf>)
        .impl(OpId::cos, kCPU, dts, libm_kernel<cosf>)
        .impl(OpId::tan, kCPU, dts, libm_kernel<tanf>)
        .impl(OpId::tanh, kCPU, dts, libm_kernel<tanhf>)
        .impl(OpId::sigmoid, kCPU, dts, libm_kernel<sigmoidf>)
        .impl(OpId::gelu, kCPU, dts, libm_kernel<geluf>)
        .impl(OpId::silu, kCPU, dts, libm_kernel<siluf>)
        .impl(OpId::erf, kCPU, dts, libm_kernel<erff>);
    return true;
  }();
  (void)registered;
}

}  // namespace ts::sweep
