// aten kernels for the unary elementwise ops (lib/src/ops/unary.cpp): the input converted to
// p.compute_dtype, then ATen's out= form into the output (bool for isnan and logical_not). A plain
// op is one row of TS_ATEN_UNARY_OPS (and its ATen header).
#include <ATen/core/Tensor.h>
#include <ATen/ops/abs.h>
#include <ATen/ops/acos.h>
#include <ATen/ops/acosh.h>
#include <ATen/ops/asin.h>
#include <ATen/ops/asinh.h>
#include <ATen/ops/atan.h>
#include <ATen/ops/atanh.h>
#include <ATen/ops/bitwise_not.h>
#include <ATen/ops/ceil.h>
#include <ATen/ops/clamp.h>
#include <ATen/ops/cos.h>
#include <ATen/ops/cosh.h>
#include <ATen/ops/digamma.h>
#include <ATen/ops/elu.h>
#include <ATen/ops/erf.h>
#include <ATen/ops/erfc.h>
#include <ATen/ops/erfinv.h>
#include <ATen/ops/exp.h>
#include <ATen/ops/exp2.h>
#include <ATen/ops/expm1.h>
#include <ATen/ops/floor.h>
#include <ATen/ops/frac.h>
#include <ATen/ops/gelu.h>
#include <ATen/ops/hardsigmoid.h>
#include <ATen/ops/hardswish.h>
#include <ATen/ops/hardtanh.h>
#include <ATen/ops/isfinite.h>
#include <ATen/ops/isinf.h>
#include <ATen/ops/isnan.h>
#include <ATen/ops/leaky_relu.h>
#include <ATen/ops/lgamma.h>
#include <ATen/ops/log.h>
#include <ATen/ops/log10.h>
#include <ATen/ops/log1p.h>
#include <ATen/ops/log2.h>
#include <ATen/ops/log_sigmoid.h>
#include <ATen/ops/logical_not.h>
#include <ATen/ops/mish.h>
#include <ATen/ops/nan_to_num.h>
#include <ATen/ops/neg.h>
#include <ATen/ops/reciprocal.h>
#include <ATen/ops/relu.h>
#include <ATen/ops/round.h>
#include <ATen/ops/rsqrt.h>
#include <ATen/ops/sigmoid.h>
#include <ATen/ops/sign.h>
#include <ATen/ops/silu.h>
#include <ATen/ops/sin.h>
#include <ATen/ops/sinc.h>
#include <ATen/ops/sinh.h>
#include <ATen/ops/softplus.h>
#include <ATen/ops/sqrt.h>
#include <ATen/ops/tan.h>
#include <ATen/ops/tanh.h>
#include <ATen/ops/threshold.h>
#include <ATen/ops/trunc.h>

#include "aten_wrap.h"

namespace ts::aten {
namespace {

// clang-format off
// One row per plain unary op: its ATen function and the dtypes of op_list.def's that ATen 1.13's
// CPU backend lacks (most of its math kernels are not instantiated for float16).
#define TS_ATEN_UNARY_OPS(_) \
  _(neg, {}) \
  _(abs, {}) \
  _(sign, {}) \
  _(exp, {kHalf}) \
  _(expm1, {kHalf}) \
  _(exp2, {}) \
  _(log, {kHalf}) \
  _(log1p, {kHalf}) \
  _(log2, {kHalf}) \
  _(log10, {kHalf}) \
  _(sqrt, {kHalf}) \
  _(rsqrt, {kHalf}) \
  _(reciprocal, {}) \
  _(sin, {kHalf}) \
  _(cos, {kHalf}) \
  _(tan, {kHalf}) \
  _(asin, {kHalf}) \
  _(acos, {kHalf}) \
  _(atan, {kHalf}) \
  _(sinh, {kHalf}) \
  _(cosh, {kHalf}) \
  _(tanh, {kHalf}) \
  _(asinh, {kHalf}) \
  _(acosh, {kHalf}) \
  _(atanh, {kHalf}) \
  _(sinc, {kHalf}) \
  _(sigmoid, {kHalf}) \
  _(relu, {kHalf}) \
  _(silu, {kHalf}) \
  _(hardsigmoid, {kHalf}) \
  _(hardswish, {kHalf}) \
  _(mish, ({kHalf, kBFloat16})) \
  _(log_sigmoid, {kHalf}) \
  _(erf, {kHalf}) \
  _(erfc, {kHalf}) \
  _(erfinv, {kHalf}) \
  _(floor, {kHalf}) \
  _(ceil, {kHalf}) \
  _(round, {kHalf}) \
  _(trunc, {kHalf}) \
  _(frac, {}) \
  _(isnan, {}) \
  _(logical_not, {}) \
  _(bitwise_not, {}) \
  /* math (issue 16) */ \
  _(lgamma, {kHalf}) \
  _(digamma, {kHalf}) \
  _(isinf, {})
// clang-format on

#define TS_ATEN_UNARY_KERNEL(name, lacks)                                                  \
  void name##_kernel(const KernelCall& c) {                                                \
    write(c, result_dtype(c), [&](at::Tensor& out) { at::name##_out(out, input(c, 0)); }); \
  }
TS_ATEN_UNARY_OPS(TS_ATEN_UNARY_KERNEL)
#undef TS_ATEN_UNARY_KERNEL

void gelu_kernel(const KernelCall& c) {
  const bool tanh = c.params<GeluParams>().approximate == GeluApproximation::Tanh;
  write(c, c.p.compute_dtype,
        [&](at::Tensor& out) { at::gelu_out(out, input(c, 0), tanh ? "tanh" : "none"); });
}

// The bounds arrive as wrapped-scalar inputs after self (min first); ATen gets them back as
// Scalars, as torch.clamp(x, min=..., max=...) passes them.
void clamp_kernel(const KernelCall& c) {
  const ClampParams& bounds = c.params<ClampParams>();
  size_t next = 1;
  auto bound = [&](bool present) -> c10::optional<at::Scalar> {
    if (!present) return c10::nullopt;
    const Tensor& t = c.inputs[next++];
    return to_aten(t.as_strided({}, {}).item());
  };
  const c10::optional<at::Scalar> min = bound(bounds.has_min);
  const c10::optional<at::Scalar> max = bound(bounds.has_max);
  write(c, c.p.compute_dtype, [&](at::Tensor& out) { at::clamp_out(out, input(c, 0), min, max); });
}

// math (issue 16): isfinite has no out= form in ATen.
void isfinite_kernel(const KernelCall& c) {
  write(c, kBool, [&](at::Tensor& out) { out.copy_(at::isfinite(input(c, 0))); });
}

void nan_to_num_kernel(const KernelCall& c) {
  const NanToNumParams& r = c.params<NanToNumParams>();
  write(c, c.p.compute_dtype,
        [&](at::Tensor& out) { at::nan_to_num_out(out, input(c, 0), r.nan, r.posinf, r.neginf); });
}

// ---- activations (issue 16): the Scalars as given, ATen converts them (Note [Activation
// parameters] in lib/src/ops/unary.cpp) ----
void leaky_relu_kernel(const KernelCall& c) {
  const at::Scalar slope = to_aten(c.params<LeakyReluParams>().negative_slope);
  write(c, c.p.compute_dtype,
        [&](at::Tensor& out) { at::leaky_relu_out(out, input(c, 0), slope); });
}

void elu_kernel(const KernelCall& c) {
  const EluParams& e = c.params<EluParams>();
  write(c, c.p.compute_dtype, [&](at::Tensor& out) {
    at::elu_out(out, input(c, 0), to_aten(e.alpha), to_aten(e.scale), to_aten(e.input_scale));
  });
}

void softplus_kernel(const KernelCall& c) {
  const SoftplusParams& s = c.params<SoftplusParams>();
  write(c, c.p.compute_dtype, [&](at::Tensor& out) {
    at::softplus_out(out, input(c, 0), to_aten(s.beta), to_aten(s.threshold));
  });
}

void hardtanh_kernel(const KernelCall& c) {
  const HardtanhParams& h = c.params<HardtanhParams>();
  write(c, c.p.compute_dtype, [&](at::Tensor& out) {
    at::hardtanh_out(out, input(c, 0), to_aten(h.min_val), to_aten(h.max_val));
  });
}

void threshold_kernel(const KernelCall& c) {
  const ThresholdParams& p = c.params<ThresholdParams>();
  write(c, c.p.compute_dtype, [&](at::Tensor& out) {
    at::threshold_out(out, input(c, 0), to_aten(p.threshold), to_aten(p.value));
  });
}

}  // namespace

void register_unary(KernelRegistrar& m) {
#define TS_ATEN_UNARY_REGISTER(name, lacks) \
  m.impl(OpId::name, kCPU, op_info(OpId::name).dtypes - DTypeSet lacks, guarded<name##_kernel>);
  TS_ATEN_UNARY_OPS(TS_ATEN_UNARY_REGISTER)
#undef TS_ATEN_UNARY_REGISTER
  m.impl(OpId::gelu, kCPU, kFloatingNoHalf, guarded<gelu_kernel>);
  m.impl(OpId::clamp, kCPU, kNoBool - DTypeSet{kHalf}, guarded<clamp_kernel>);
  m.impl(OpId::isfinite, kCPU, guarded<isfinite_kernel>);
  m.impl(OpId::nan_to_num, kCPU, guarded<nan_to_num_kernel>);
  // activations (issue 16): ATen 1.13's CPU backend has no float16 kernel for them (probed)
  m.impl(OpId::leaky_relu, kCPU, kFloatingNoHalf, guarded<leaky_relu_kernel>);
  m.impl(OpId::elu, kCPU, kFloatingNoHalf, guarded<elu_kernel>);
  m.impl(OpId::softplus, kCPU, kFloatingNoHalf, guarded<softplus_kernel>);
  m.impl(OpId::hardtanh, kCPU, kNoBool - DTypeSet{kHalf}, guarded<hardtanh_kernel>);
  m.impl(OpId::threshold, kCPU, kNoBool - DTypeSet{kHalf}, guarded<threshold_kernel>);
}

}  // namespace ts::aten
