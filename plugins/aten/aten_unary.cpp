// aten kernels for the unary elementwise ops (lib/src/ops/unary.cpp): the input converted to
// p.compute_dtype, then ATen's out= form into the output (bool for isnan and logical_not).
#include <ATen/core/Tensor.h>
#include <ATen/ops/abs.h>
#include <ATen/ops/bitwise_not.h>
#include <ATen/ops/ceil.h>
#include <ATen/ops/clamp.h>
#include <ATen/ops/cos.h>
#include <ATen/ops/erf.h>
#include <ATen/ops/exp.h>
#include <ATen/ops/expm1.h>
#include <ATen/ops/floor.h>
#include <ATen/ops/gelu.h>
#include <ATen/ops/isnan.h>
#include <ATen/ops/log.h>
#include <ATen/ops/log1p.h>
#include <ATen/ops/logical_not.h>
#include <ATen/ops/neg.h>
#include <ATen/ops/reciprocal.h>
#include <ATen/ops/relu.h>
#include <ATen/ops/round.h>
#include <ATen/ops/rsqrt.h>
#include <ATen/ops/sigmoid.h>
#include <ATen/ops/sign.h>
#include <ATen/ops/silu.h>
#include <ATen/ops/sin.h>
#include <ATen/ops/sqrt.h>
#include <ATen/ops/tanh.h>
#include <ATen/ops/trunc.h>

#include "aten_wrap.h"

namespace ts::aten {
namespace {

#define TS_ATEN_UNARY(name, result)                                               \
  void name##_kernel(const KernelCall& c) {                                       \
    write(c, result, [&](at::Tensor& out) { at::name##_out(out, input(c, 0)); }); \
  }
TS_ATEN_UNARY(neg, c.p.compute_dtype)
TS_ATEN_UNARY(abs, c.p.compute_dtype)
TS_ATEN_UNARY(sign, c.p.compute_dtype)
TS_ATEN_UNARY(exp, c.p.compute_dtype)
TS_ATEN_UNARY(expm1, c.p.compute_dtype)
TS_ATEN_UNARY(log, c.p.compute_dtype)
TS_ATEN_UNARY(log1p, c.p.compute_dtype)
TS_ATEN_UNARY(sqrt, c.p.compute_dtype)
TS_ATEN_UNARY(rsqrt, c.p.compute_dtype)
TS_ATEN_UNARY(reciprocal, c.p.compute_dtype)
TS_ATEN_UNARY(sin, c.p.compute_dtype)
TS_ATEN_UNARY(cos, c.p.compute_dtype)
TS_ATEN_UNARY(tanh, c.p.compute_dtype)
TS_ATEN_UNARY(sigmoid, c.p.compute_dtype)
TS_ATEN_UNARY(relu, c.p.compute_dtype)
TS_ATEN_UNARY(silu, c.p.compute_dtype)
TS_ATEN_UNARY(erf, c.p.compute_dtype)
TS_ATEN_UNARY(floor, c.p.compute_dtype)
TS_ATEN_UNARY(ceil, c.p.compute_dtype)
TS_ATEN_UNARY(round, c.p.compute_dtype)
TS_ATEN_UNARY(trunc, c.p.compute_dtype)
TS_ATEN_UNARY(bitwise_not, c.p.compute_dtype)
TS_ATEN_UNARY(isnan, kBool)
TS_ATEN_UNARY(logical_not, kBool)
#undef TS_ATEN_UNARY

// mode: 0 exact, 1 tanh approximation.
void gelu_kernel(const KernelCall& c) {
  const char* approximate = c.p.mode == 1 ? "tanh" : "none";
  write(c, c.p.compute_dtype,
        [&](at::Tensor& out) { at::gelu_out(out, input(c, 0), approximate); });
}

// The bounds arrive as wrapped-scalar inputs after self (mode bit 0: min, bit 1: max); ATen gets
// them back as Scalars, as torch.clamp(x, min=..., max=...) passes them.
void clamp_kernel(const KernelCall& c) {
  size_t next = 1;
  auto bound = [&](int bit) -> c10::optional<at::Scalar> {
    if ((c.p.mode & bit) == 0) return c10::nullopt;
    const Tensor& t = c.inputs[next++];
    return to_aten(t.as_strided({}, {}).item());
  };
  const c10::optional<at::Scalar> min = bound(1);
  const c10::optional<at::Scalar> max = bound(2);
  write(c, c.p.compute_dtype, [&](at::Tensor& out) { at::clamp_out(out, input(c, 0), min, max); });
}

}  // namespace

void register_unary(KernelRegistrar& m) {
  const DTypeSet no_bool_no_half = kNoBool - DTypeSet{kHalf};
  const DTypeSet real_no_half = DTypeSet::integral(false) | kFloatingNoHalf;
  m.impl(OpId::neg, kCPU, kNoBool, guarded<neg_kernel>);
  m.impl(OpId::abs, kCPU, kNoBool, guarded<abs_kernel>);
  m.impl(OpId::sign, kCPU, kAll, guarded<sign_kernel>);
  m.impl(OpId::exp, kCPU, kFloatingNoHalf, guarded<exp_kernel>);
  m.impl(OpId::expm1, kCPU, kFloatingNoHalf, guarded<expm1_kernel>);
  m.impl(OpId::log, kCPU, kFloatingNoHalf, guarded<log_kernel>);
  m.impl(OpId::log1p, kCPU, kFloatingNoHalf, guarded<log1p_kernel>);
  m.impl(OpId::sqrt, kCPU, kFloatingNoHalf, guarded<sqrt_kernel>);
  m.impl(OpId::rsqrt, kCPU, kFloatingNoHalf, guarded<rsqrt_kernel>);
  m.impl(OpId::reciprocal, kCPU, kFloating, guarded<reciprocal_kernel>);
  m.impl(OpId::sin, kCPU, kFloatingNoHalf, guarded<sin_kernel>);
  m.impl(OpId::cos, kCPU, kFloatingNoHalf, guarded<cos_kernel>);
  m.impl(OpId::tanh, kCPU, kFloatingNoHalf, guarded<tanh_kernel>);
  m.impl(OpId::sigmoid, kCPU, kFloatingNoHalf, guarded<sigmoid_kernel>);
  m.impl(OpId::relu, kCPU, no_bool_no_half, guarded<relu_kernel>);
  m.impl(OpId::gelu, kCPU, kFloatingNoHalf, guarded<gelu_kernel>);
  m.impl(OpId::silu, kCPU, kFloatingNoHalf, guarded<silu_kernel>);
  m.impl(OpId::erf, kCPU, kFloatingNoHalf, guarded<erf_kernel>);
  m.impl(OpId::floor, kCPU, real_no_half, guarded<floor_kernel>);
  m.impl(OpId::ceil, kCPU, real_no_half, guarded<ceil_kernel>);
  m.impl(OpId::round, kCPU, real_no_half, guarded<round_kernel>);
  m.impl(OpId::trunc, kCPU, real_no_half, guarded<trunc_kernel>);
  m.impl(OpId::isnan, kCPU, kAll, guarded<isnan_kernel>);
  m.impl(OpId::logical_not, kCPU, kAll, guarded<logical_not_kernel>);
  m.impl(OpId::bitwise_not, kCPU, DTypeSet::integral(true), guarded<bitwise_not_kernel>);
  m.impl(OpId::clamp, kCPU, no_bool_no_half, guarded<clamp_kernel>);
}

}  // namespace ts::aten
