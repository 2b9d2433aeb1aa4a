// The "libm" kernel set of the sweep: glibc's float functions called per element, so that a
// sweep compares a kernel set with the system library (engine.h).
#include <algorithm>
#include <cmath>

#include "conformance/sweep/engine.h"
#include "touchstone/touchstone.h"

namespace ts::sweep {
namespace {

// Note [libm composites]
// glibc has no sigmoid, silu, gelu, rsqrt, frac, hardsigmoid, hardswish, mish, log_sigmoid or
// sinc: the set composes them from float functions as ATen's scalar code writes them (gelu:
// 0.5 x (1 + erf(x / sqrt2)); sinc: sin(pi x) / (pi x) in float). No erfinv: glibc has none.
// float16 and bfloat16 inputs are computed in float and rounded once, as ATen's CPU kernels do.
// The activations with parameters (leaky_relu, elu and through it selu and celu, softplus,
// hardtanh) read them from the call, in float as ATen's opmath. softsign and square are
// composites of abs, add, div and pow, which this set lacks: the sweep reports no kernel.
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
float fracf(float x) {
  return x - truncf(x);
}
float hardsigmoidf(float x) {  // std::max(NaN, 0) is NaN, as ATen's scalar code has it
  return std::min(std::max(x + 3.0f, 0.0f), 6.0f) / 6.0f;
}
float hardswishf(float x) {
  return x * hardsigmoidf(x);
}
float mishf(float x) {
  return x * tanhf(log1pf(expf(x)));
}
float log_sigmoidf(float x) {
  return std::min(x, 0.0f) - log1pf(expf(-fabsf(x)));
}
float sincf(float x) {
  if (x == 0.0f) return 1.0f;
  const float px = static_cast<float>(M_PI) * x;
  return sinf(px) / px;
}

float lgammaf_(float x) {  // lgammaf_r: no write to the global signgam from two threads
  int sign = 0;
  return lgammaf_r(x, &sign);
}

template <typename T, class F>
void apply(const Tensor& in, const Tensor& out, const F& f) {
  const T* src = static_cast<const T*>(in.data_ptr());
  T* dst = static_cast<T*>(out.data_ptr());
  for (int64_t i = 0; i < out.numel(); ++i) dst[i] = T(f(static_cast<float>(src[i])));
}

// out[i] = f(in[i]), f taking and giving float.
template <class F>
void map_kernel(const KernelCall& c, const F& f) {
  const Tensor& in = c.inputs[0];
  const Tensor& out = c.outputs[0];
  TS_CHECK(in.is_contiguous() && out.is_contiguous() && in.dtype() == out.dtype(),
           op_info(c.op).name, ": the libm kernel set runs contiguous inputs of the output's ",
           "dtype only (it serves `touchstone sweep`)");
  switch (out.dtype()) {
    case kFloat:
      return apply<float>(in, out, f);
    case kHalf:
      return apply<Half>(in, out, f);
    default:
      return apply<BFloat16>(in, out, f);
  }
}

template <float (*F)(float)>
void libm_kernel(const KernelCall& c) {
  map_kernel(c, F);
}

// The activations with parameters, as ATen's scalar code: the coefficients in float.
float as_float(const Scalar& s) {
  return static_cast<float>(s.to_double());
}
void leaky_relu_kernel(const KernelCall& c) {
  const float slope = as_float(c.params<LeakyReluParams>().negative_slope);
  map_kernel(c, [slope](float x) { return x > 0 ? x : x * slope; });
}
// elu, and selu and celu through it: expm1f(x input_scale) alpha scale below 0, x scale above.
void elu_kernel(const KernelCall& c) {
  const EluParams& e = c.params<EluParams>();
  const float neg = as_float(e.alpha) * as_float(e.scale), pos = as_float(e.scale);
  const float in_scale = as_float(e.input_scale);
  map_kernel(c, [=](float x) { return x <= 0 ? expm1f(x * in_scale) * neg : x * pos; });
}
void softplus_kernel(const KernelCall& c) {
  const SoftplusParams& s = c.params<SoftplusParams>();
  const float beta = as_float(s.beta), threshold = as_float(s.threshold);
  map_kernel(c, [=](float x) { return x * beta > threshold ? x : log1pf(expf(x * beta)) / beta; });
}
void hardtanh_kernel(const KernelCall& c) {
  const HardtanhParams& h = c.params<HardtanhParams>();
  const float lo = as_float(h.min_val), hi = as_float(h.max_val);
  map_kernel(c, [=](float x) { return std::isnan(x) ? x : std::min(std::max(x, lo), hi); });
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
        .impl(OpId::erf, kCPU, dts, libm_kernel<erff>)
        .impl(OpId::erfc, kCPU, dts, libm_kernel<erfcf>)
        .impl(OpId::exp2, kCPU, dts, libm_kernel<exp2f>)
        .impl(OpId::log2, kCPU, dts, libm_kernel<log2f>)
        .impl(OpId::log10, kCPU, dts, libm_kernel<log10f>)
        .impl(OpId::asin, kCPU, dts, libm_kernel<asinf>)
        .impl(OpId::acos, kCPU, dts, libm_kernel<acosf>)
        .impl(OpId::atan, kCPU, dts, libm_kernel<atanf>)
        .impl(OpId::sinh, kCPU, dts, libm_kernel<sinhf>)
        .impl(OpId::cosh, kCPU, dts, libm_kernel<coshf>)
        .impl(OpId::asinh, kCPU, dts, libm_kernel<asinhf>)
        .impl(OpId::acosh, kCPU, dts, libm_kernel<acoshf>)
        .impl(OpId::atanh, kCPU, dts, libm_kernel<atanhf>)
        .impl(OpId::frac, kCPU, dts, libm_kernel<fracf>)
        .impl(OpId::hardsigmoid, kCPU, dts, libm_kernel<hardsigmoidf>)
        .impl(OpId::hardswish, kCPU, dts, libm_kernel<hardswishf>)
        .impl(OpId::mish, kCPU, dts, libm_kernel<mishf>)
        .impl(OpId::log_sigmoid, kCPU, dts, libm_kernel<log_sigmoidf>)
        .impl(OpId::sinc, kCPU, dts, libm_kernel<sincf>)
        .impl(OpId::lgamma, kCPU, dts, libm_kernel<lgammaf_>)
        .impl(OpId::leaky_relu, kCPU, dts, leaky_relu_kernel)
        .impl(OpId::elu, kCPU, dts, elu_kernel)
        .impl(OpId::softplus, kCPU, dts, softplus_kernel)
        .impl(OpId::hardtanh, kCPU, dts, hardtanh_kernel);
    return true;
  }();
  (void)registered;
}

}  // namespace ts::sweep
