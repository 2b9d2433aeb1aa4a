// A plug-in kernel set with planted porting bugs that a loose oracle passed, for
// tests/test_conformance_mutants.cpp: "mutant" runs every reference kernel except the ones below,
// each wrong in one op and dtype only, so a failing case names the bug it caught.
//
// Note [Planted porting bugs]
// - exp, float32: 2 ULP off where |x| > 10 (a range reduction's lost bits);
// - sum, float32: a running float32 sum (no pairwise or blocked accumulation);
// - mul, float16: the float product rounded toward zero instead of to nearest;
// - neg, float32: 0 - x, which gives +0 for +0 (ATen: -0);
// - add, int8: saturating (127 + 1 = 127; ATen wraps to -128);
// - abs, int32: saturating (abs(INT_MIN) = INT_MAX; ATen wraps to INT_MIN);
// - sin, float32: elements past the 2048th 8 ULP off (a second loop over a tail block);
// - mse_loss, bfloat16: its gradient 5% too large (2 (x - y) g computed with 2.1 for 2): the old
//   gradient tolerance, the forward sum's sqrt(n) x rtol (0.72 for 2053 elements), hid it.
// - relu, float32: writes the positive results only, as if outputs came zeroed (a library whose
//   allocator clears memory); caught because the harness poisons fresh blocks (Note [Guard bytes]).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "touchstone/autograd.h"
#include "touchstone/dispatch.h"
#include "touchstone/half.h"
#include "touchstone/ops.h"

namespace {

using ts::KernelCall;
using ts::OpId;

ts::KernelFn reference_kernel(OpId op) {
  return ts::get_kernel(op, ts::kCPU, *ts::find_kernel_set("reference")).fn;
}

bool dense_float(const ts::Tensor& t) {
  return t.dtype() == ts::kFloat && t.is_contiguous();
}

// Kernels below compute element i from input element i only, so an in-place call (the output
// is the input) is fine: each reads x[i] before writing y[i].
void exp_two_ulp(const KernelCall& c) {
  const ts::Tensor& out = c.outputs[0];
  if (!dense_float(out) || !dense_float(c.inputs[0]) || c.inputs[0].sizes() != out.sizes()) {
    return reference_kernel(OpId::exp)(c);
  }
  const float* x = static_cast<const float*>(c.inputs[0].data_ptr());
  float* y = static_cast<float*>(out.data_ptr());
  for (int64_t i = 0; i < out.numel(); ++i) {
    const bool far = std::fabs(x[i]) > 10;
    y[i] = static_cast<float>(std::exp(static_cast<double>(x[i])));
    if (far && std::isfinite(y[i]) && y[i] != 0) {
      y[i] = std::nextafter(std::nextafter(y[i], INFINITY), INFINITY);
    }
  }
}

// A running float32 sum over trailing reduced dims of a dense input (the other calls: reference).
void sum_running_float(const KernelCall& c) {
  reference_kernel(OpId::sum)(c);
  const ts::Tensor& in = c.inputs[0];
  const ts::Tensor& out = c.outputs[0];
  if (!dense_float(in) || !dense_float(out) || in.numel() == 0) return;
  const ts::ReduceParams& p = c.params<ts::ReduceParams>();
  const int64_t rank = in.dim();
  int64_t first = rank;  // the reduced dims must be first..rank-1
  for (int64_t d = rank - 1; d >= 0; --d) {
    bool reduced = p.dims.empty();
    for (int64_t x : p.dims) reduced = reduced || (x < 0 ? x + rank : x) == d;
    if (!reduced) break;
    first = d;
  }
  int64_t inner = 1;
  for (int64_t d = first; d < rank; ++d) inner *= in.size(d);
  if (inner * out.numel() != in.numel()) return;
  const float* x = static_cast<const float*>(in.data_ptr());
  float* y = static_cast<float*>(out.data_ptr());
  for (int64_t i = 0; i < out.numel(); ++i) {
    float acc = 0;
    for (int64_t j = 0; j < inner; ++j) acc += x[i * inner + j];
    y[i] = acc;
  }
}

// float -> float16 rounding toward zero: to nearest, then one step back where that grew.
uint16_t half_toward_zero(float f) {
  const uint16_t h = ts::detail::float_to_half_bits(f);
  const float back = ts::detail::half_bits_to_float(h);
  const bool finite = std::isfinite(back) || !std::isfinite(f);
  if (std::isnan(f) || (h & 0x7fffu) == 0) return h;
  if (!finite || std::fabs(back) > std::fabs(f)) return static_cast<uint16_t>(h - 1);
  return h;
}

void mul_half_toward_zero(const KernelCall& c) {
  const ts::Tensor& out = c.outputs[0];
  if (out.dtype() != ts::kHalf || c.inputs[0].dtype() != ts::kHalf ||
      c.inputs[1].dtype() != ts::kHalf || !out.is_contiguous()) {
    return reference_kernel(OpId::mul)(c);
  }
  ts::KernelSetGuard g("reference");
  const ts::Tensor a = c.inputs[0].to(ts::kFloat).contiguous();
  const ts::Tensor b = c.inputs[1].to(ts::kFloat).contiguous();
  const ts::Tensor prod = ts::mul(a, b).contiguous();  // exact: 11 x 11 bits fit in 24
  const float* p = static_cast<const float*>(prod.data_ptr());
  auto* y = static_cast<uint16_t*>(out.data_ptr());
  for (int64_t i = 0; i < out.numel(); ++i) y[i] = half_toward_zero(p[i]);
}

void neg_as_zero_minus(const KernelCall& c) {
  const ts::Tensor& out = c.outputs[0];
  if (!dense_float(out) || !dense_float(c.inputs[0]) || c.inputs[0].sizes() != out.sizes()) {
    return reference_kernel(OpId::neg)(c);
  }
  const float* x = static_cast<const float*>(c.inputs[0].data_ptr());
  float* y = static_cast<float*>(out.data_ptr());
  for (int64_t i = 0; i < out.numel(); ++i) y[i] = 0.0f - x[i];
}

void add_int8_saturating(const KernelCall& c) {
  const ts::Tensor& out = c.outputs[0];
  if (out.dtype() != ts::kChar) return reference_kernel(OpId::add)(c);
  ts::KernelSetGuard g("reference");
  // The exact sum in int64 (alpha is 1 in the catalog's int8 cases), clamped to int8.
  const ts::Tensor wide = ts::add(c.inputs[0].to(ts::kLong), c.inputs[1].to(ts::kLong));
  out.copy_(ts::clamp(wide, -128, 127));
}

void abs_int32_saturating(const KernelCall& c) {
  const ts::Tensor& out = c.outputs[0];
  if (out.dtype() != ts::kInt) return reference_kernel(OpId::abs)(c);
  ts::KernelSetGuard g("reference");
  out.copy_(ts::abs(c.inputs[0].to(ts::kLong)).clamp(0, std::numeric_limits<int32_t>::max()));
}

void sin_tail_past_2048(const KernelCall& c) {
  reference_kernel(OpId::sin)(c);
  const ts::Tensor& out = c.outputs[0];
  if (!dense_float(out)) return;
  float* y = static_cast<float*>(out.data_ptr());
  for (int64_t i = 2048; i < out.numel(); ++i) {
    for (int k = 0; k < 8; ++k) y[i] = std::nextafter(y[i], INFINITY);
  }
}

void relu_positive_only(const KernelCall& c) {
  const ts::Tensor& out = c.outputs[0];
  const ts::Tensor& x = c.inputs[0];
  if (!dense_float(out) || !dense_float(x)) {
    return reference_kernel(OpId::relu)(c);
  }
  const float* xp = static_cast<const float*>(x.data_ptr());
  float* y = static_cast<float*>(out.data_ptr());
  for (int64_t i = 0; i < out.numel(); ++i) {
    if (xp[i] > 0) y[i] = xp[i];
  }
}

// A Scalar operand equal to 2 (kernels get it as a 0-dim tensor expanded with stride 0).
bool is_two(const ts::Tensor& t) {
  if (t.numel() == 0) return false;
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (t.size(d) > 1 && t.stride(d) != 0) return false;
  }
  ts::KernelSetGuard g("reference");
  return t.to(ts::kDouble).contiguous().data_ptr<double>()[0] == 2.0;
}

// mse_loss's backward computes (x - y) * g * 2 with grad mode off (Note [Planted porting bugs]).
void mul_by_two_bf16_in_backward(const KernelCall& c) {
  reference_kernel(OpId::mul)(c);
  const ts::Tensor& out = c.outputs[0];
  if (out.dtype() != ts::kBFloat16 || ts::GradMode::is_enabled() || !is_two(c.inputs[1])) return;
  ts::KernelSetGuard g("reference");
  out.copy_(ts::mul(c.inputs[0].to(ts::kDouble), 2.1).to(ts::kBFloat16));
}

void mul_kernel(const KernelCall& c) {
  if (c.outputs[0].dtype() == ts::kHalf) return mul_half_toward_zero(c);
  return mul_by_two_bf16_in_backward(c);
}

}  // namespace

TS_PLUGIN_INIT() {
  ts::KernelRegistrar m("mutant");
  const ts::KernelSetId ref = *ts::find_kernel_set("reference");
  for (const ts::OpInfo& op : ts::all_ops()) {
    const ts::KernelEntry e = ts::get_kernel(op.id, ts::kCPU, ref);
    if (e.fn != nullptr) m.impl(op.id, ts::kCPU, e.dtypes, e.fn);
  }
  const auto dtypes = [&](OpId op) { return ts::get_kernel(op, ts::kCPU, ref).dtypes; };
  m.impl(OpId::exp, ts::kCPU, dtypes(OpId::exp), exp_two_ulp);
  m.impl(OpId::sum, ts::kCPU, dtypes(OpId::sum), sum_running_float);
  m.impl(OpId::mul, ts::kCPU, dtypes(OpId::mul), mul_kernel);
  m.impl(OpId::neg, ts::kCPU, dtypes(OpId::neg), neg_as_zero_minus);
  m.impl(OpId::add, ts::kCPU, dtypes(OpId::add), add_int8_saturating);
  m.impl(OpId::abs, ts::kCPU, dtypes(OpId::abs), abs_int32_saturating);
  m.impl(OpId::sin, ts::kCPU, dtypes(OpId::sin), sin_tail_past_2048);
  m.impl(OpId::relu, ts::kCPU, dtypes(OpId::relu), relu_positive_only);
}
