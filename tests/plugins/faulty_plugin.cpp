// A plug-in kernel set with planted bugs, for tests/test_conformance_faults.cpp: "faulty" runs
// every reference kernel, except the ones below.
//
// Note [Planted faults]
// - mul, int32: one too many (a wrong value for one dtype);
// - exp, float32: reads its input as if contiguous (an ignored stride);
// - sub, float32: indexes each operand flat, modulo its size (a wrong broadcast: right for
//   trailing broadcasts, wrong for [3,1] - [1,4]);
// - neg, float64: 1.5x too large in functional calls while grad mode is off, i.e. in backward
//   passes only (a wrong gradient: neg's derivative is neg; out= kernels always run with grad
//   mode off, below autograd);
// - sqrt, float32: SIGSEGV on functional calls with 1961 elements (the "big" sample);
// - cos, float32: hangs on functional calls over contiguous 3x4 inputs;
// - relu, float32: writes one element past the end of its output;
// - abs, float32: 2x too large on every third functional call (a flaky bug, as a data race is:
//   with --repeat 3 each functional forward case fails in exactly one of its three runs);
// - add, int8: the tail past the last full 16-element block is one too large (a vector tail
//   bug), seen in `linear` int8 (mm, then add of the bias) and attributed to add.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <thread>

#include "touchstone/autograd.h"
#include "touchstone/dispatch.h"
#include "touchstone/ops.h"

namespace {

using ts::KernelCall;
using ts::OpId;

ts::KernelFn reference_kernel(OpId op) {
  return ts::get_kernel(op, ts::kCPU, *ts::find_kernel_set("reference")).fn;
}

void mul_int_plus_one(const KernelCall& c) {
  reference_kernel(OpId::mul)(c);
  const ts::Tensor& out = c.outputs[0];
  if (out.dtype() == ts::kInt) {
    ts::KernelSetGuard g("reference");
    out.add_(1);
  }
}

// out[i] = exp(in.data[i]): right only for dense inputs laid out like the output.
void exp_ignoring_strides(const KernelCall& c) {
  const ts::Tensor& out = c.outputs[0];
  if (out.dtype() != ts::kFloat || c.kind != ts::CallKind::Functional) {
    return reference_kernel(OpId::exp)(c);
  }
  const auto avail = static_cast<int64_t>(c.inputs[0].storage()->nbytes() / sizeof(float)) -
                     c.inputs[0].storage_offset();
  const float* src = static_cast<const float*>(c.inputs[0].data_ptr());
  float* dst = static_cast<float*>(out.data_ptr());
  for (int64_t i = 0; i < out.numel(); ++i) dst[i] = std::exp(src[std::min(i, avail - 1)]);
}

// Elements an operand really has: the meta hands kernels broadcast operands expanded (stride 0).
int64_t base_numel(const ts::Tensor& t) {
  int64_t n = 1;
  for (int64_t d = 0; d < t.dim(); ++d) n *= t.stride(d) == 0 ? 1 : t.size(d);
  return n;
}

// The reference's sub of self[i % n_self] and other[i % n_other]: flat indexing of broadcast
// operands' elements (the call's params, alpha among them, pass through unchanged).
void sub_flat_broadcast(const KernelCall& c) {
  const ts::Tensor& out = c.outputs[0];
  if (out.dtype() != ts::kFloat || c.inputs[0].dtype() != ts::kFloat ||
      c.inputs[1].dtype() != ts::kFloat || c.kind != ts::CallKind::Functional ||
      !out.is_contiguous() || out.numel() == 0) {
    return reference_kernel(OpId::sub)(c);
  }
  ts::Tensor flat[2];
  for (size_t k = 0; k < 2; ++k) {
    const float* src = static_cast<const float*>(c.inputs[k].data_ptr());
    const int64_t n = base_numel(c.inputs[k]);
    flat[k] = ts::empty(out.sizes(), ts::kFloat);
    float* dst = static_cast<float*>(flat[k].data_ptr());
    for (int64_t i = 0; i < out.numel(); ++i) dst[i] = src[i % n];
  }
  reference_kernel(OpId::sub)(KernelCall{c.op, c.outputs, flat, c.p, c.kind});
}

void neg_wrong_in_backward(const KernelCall& c) {
  reference_kernel(OpId::neg)(c);
  if (c.outputs[0].dtype() == ts::kDouble && c.kind == ts::CallKind::Functional &&
      !ts::GradMode::is_enabled()) {
    ts::KernelSetGuard g("reference");
    c.outputs[0].mul_(1.5);
  }
}

void sqrt_segfault(const KernelCall& c) {
  if (c.outputs[0].dtype() == ts::kFloat && c.kind == ts::CallKind::Functional &&
      c.outputs[0].numel() == 1961) {
    std::raise(SIGSEGV);
  }
  reference_kernel(OpId::sqrt)(c);
}

void cos_hang(const KernelCall& c) {
  const ts::Tensor& in = c.inputs[0];
  if (in.dtype() == ts::kFloat && c.kind == ts::CallKind::Functional && in.numel() == 12 &&
      in.dim() == 2 && in.is_contiguous()) {
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  reference_kernel(OpId::cos)(c);
}

void relu_overrun(const KernelCall& c) {
  reference_kernel(OpId::relu)(c);
  const ts::Tensor& out = c.outputs[0];
  if (out.dtype() == ts::kFloat && out.is_contiguous() && out.numel() > 0) {
    static_cast<float*>(out.data_ptr())[out.numel()] = 42.0f;  // one past the end
  }
}

void abs_wrong_every_third_call(const KernelCall& c) {
  static std::atomic<int64_t> calls{0};
  reference_kernel(OpId::abs)(c);
  const ts::Tensor& out = c.outputs[0];
  if (out.dtype() == ts::kFloat && c.kind == ts::CallKind::Functional && ++calls % 3 == 0) {
    ts::KernelSetGuard g("reference");
    out.mul_(2);
  }
}

void add_int8_tail_off_by_one(const KernelCall& c) {
  reference_kernel(OpId::add)(c);
  const ts::Tensor& out = c.outputs[0];
  if (out.dtype() != ts::kChar || !out.is_contiguous()) return;
  auto* p = static_cast<int8_t*>(out.data_ptr());
  for (int64_t i = out.numel() / 16 * 16; i < out.numel(); ++i) {
    p[i] = static_cast<int8_t>(p[i] + 1);
  }
}

}  // namespace

TS_PLUGIN_INIT() {
  ts::KernelRegistrar m("faulty");
  const ts::KernelSetId ref = *ts::find_kernel_set("reference");
  for (const ts::OpInfo& op : ts::all_ops()) {
    const ts::KernelEntry e = ts::get_kernel(op.id, ts::kCPU, ref);
    if (e.fn != nullptr) m.impl(op.id, ts::kCPU, e.dtypes, e.fn);
  }
  const ts::DTypeSet all = ts::get_kernel(OpId::mul, ts::kCPU, ref).dtypes;
  m.impl(OpId::mul, ts::kCPU, all, mul_int_plus_one);
  m.impl(OpId::exp, ts::kCPU, ts::get_kernel(OpId::exp, ts::kCPU, ref).dtypes,
         exp_ignoring_strides);
  m.impl(OpId::sub, ts::kCPU, ts::get_kernel(OpId::sub, ts::kCPU, ref).dtypes, sub_flat_broadcast);
  m.impl(OpId::neg, ts::kCPU, ts::get_kernel(OpId::neg, ts::kCPU, ref).dtypes,
         neg_wrong_in_backward);
  m.impl(OpId::sqrt, ts::kCPU, ts::get_kernel(OpId::sqrt, ts::kCPU, ref).dtypes, sqrt_segfault);
  m.impl(OpId::cos, ts::kCPU, ts::get_kernel(OpId::cos, ts::kCPU, ref).dtypes, cos_hang);
  m.impl(OpId::relu, ts::kCPU, ts::get_kernel(OpId::relu, ts::kCPU, ref).dtypes, relu_overrun);
  m.impl(OpId::abs, ts::kCPU, ts::get_kernel(OpId::abs, ts::kCPU, ref).dtypes,
         abs_wrong_every_third_call);
  m.impl(OpId::add, ts::kCPU, ts::get_kernel(OpId::add, ts::kCPU, ref).dtypes,
         add_int8_tail_off_by_one);
}
