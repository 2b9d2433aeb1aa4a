// dnnl kernels for the unary ops oneDNN's eltwise primitive has (exp, log, tanh, gelu, ...) and
// the binary ops its binary primitive has (add, sub, mul, div, maximum, minimum, comparisons).
#include <limits>

#include "dnnl_common.h"
#include "touchstone/op_params.h"

namespace ts::dnnl_set {
namespace {

using dnnl::algorithm;

// Whether `t`'s elements fill their span (no gaps between them), as oneDNN's eltwise needs.
bool is_dense(const Tensor& t) {
  int64_t span = 1;
  for (int64_t d = 0; d < t.dim(); ++d) span += (t.size(d) - 1) * t.strides()[d];
  return span == t.numel();
}

// Note [Eltwise in place]
// oneDNN 2.6's eltwise takes one descriptor for source and destination, so an input whose dtype
// or strides differ from the output's is first reordered into the output, and the primitive then
// runs in place there: one pass more than a strided eltwise would need, and no temporary. An
// output with gaps (a sliced_step2 self of an in-place call) goes through a dense temporary:
// oneDNN 2.6's eltwise leaves non-dense memory unchanged (conformance/findings/dnnl.md, F1).
struct Step {
  algorithm alg;
  float alpha = 0.f, beta = 0.f;
};

// Runs `steps` in place over the output. With `f32`, a bfloat16 output is computed in a float32
// temporary, so that a chain of steps rounds to bfloat16 once.
void eltwise(const KernelCall& c, std::initializer_list<Step> steps, bool f32 = false) {
  const Tensor& out = c.outputs[0];
  if (out.numel() == 0) return;
  check_dtype(c, out, "out");
  const dnnl::memory target = memory(desc(out), out);
  const bool direct = is_dense(out) && !(f32 && out.dtype() == kBFloat16);
  std::vector<char> staging;
  dnnl::memory dst = target;
  if (!direct) {
    const std::vector<int64_t> sizes(out.sizes().begin(), out.sizes().end());
    const dnnl::memory::desc plain =
        desc(sizes, row_major(sizes), f32 ? dnnl::memory::data_type::f32 : to_dnnl(out.dtype()));
    staging.resize(plain.get_size());
    dst = dnnl::memory(plain, engine(), staging.data());
  }
  const dnnl::memory::desc md = dst.get_desc();
  const Tensor& in = c.inputs[0];
  dnnl::memory src = dst;
  if (direct && in.dtype() == out.dtype() && in.strides() == out.strides()) {
    src = memory(md, in);
  } else {
    const dnnl::memory::data_type from = to_dnnl(in.dtype());
    const Operand o = operand(c, 0, from == dnnl::memory::data_type::undef ? md.data_type() : from);
    reorder(o.mem, dst);
  }
  for (const Step& step : steps) {
    const dnnl::eltwise_forward::primitive_desc pd(
        {dnnl::prop_kind::forward_inference, step.alg, md, step.alpha, step.beta}, engine());
    execute(dnnl::eltwise_forward(pd), {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
    src = dst;
  }
  if (!direct) reorder(dst, target);
}

void eltwise(const KernelCall& c, algorithm alg, float alpha = 0.f, float beta = 0.f) {
  eltwise(c, {Step{alg, alpha, beta}});
}

// clang-format off
// One row per unary op: its oneDNN algorithm and (alpha, beta) (oneDNN's eltwise documentation:
// linear is alpha * x + beta, pow is alpha * x^beta, swish is x * sigmoid(alpha * x)).
#define TS_DNNL_UNARY_OPS(_) \
  _(neg, eltwise_linear, -1.f, 0.f) \
  _(abs, eltwise_abs, 0.f, 0.f) \
  _(exp, eltwise_exp, 0.f, 0.f) \
  _(log, eltwise_log, 0.f, 0.f) \
  _(sqrt, eltwise_sqrt, 0.f, 0.f) \
  _(reciprocal, eltwise_pow, 1.f, -1.f) \
  _(tanh, eltwise_tanh, 0.f, 0.f) \
  _(sigmoid, eltwise_logistic, 0.f, 0.f) \
  _(relu, eltwise_relu, 0.f, 0.f) \
  _(silu, eltwise_swish, 1.f, 0.f) \
// clang-format on

#define TS_DNNL_UNARY_KERNEL(name, alg, alpha, beta) \
  void name##_kernel(const KernelCall& c) {          \
    eltwise(c, algorithm::alg, alpha, beta);         \
  }
TS_DNNL_UNARY_OPS(TS_DNNL_UNARY_KERNEL)
#undef TS_DNNL_UNARY_KERNEL

// rsqrt as sqrt, then x^-1 in place: eltwise_pow(x, -0.5) follows C's powf, whose
// powf(-inf, -0.5) is +0 where rsqrt(-inf) is NaN. Two passes, not a pow post-op: oneDNN 2.6's
// bfloat16 eltwise with an eltwise post-op writes zeros (conformance/findings/dnnl.md, F3).
// bfloat16 runs both in float32, rounding once.
void rsqrt_kernel(const KernelCall& c) {
  eltwise(c, {Step{algorithm::eltwise_sqrt}, Step{algorithm::eltwise_pow, 1.f, -1.f}}, true);
}

// oneDNN 2.6's eltwise_round accepts float32 only (creating its descriptor for bf16 fails).
void round_kernel(const KernelCall& c) { eltwise(c, algorithm::eltwise_round); }

void gelu_kernel(const KernelCall& c) {
  const bool tanh = c.params<GeluParams>().approximate == GeluApproximation::Tanh;
  eltwise(c, tanh ? algorithm::eltwise_gelu_tanh : algorithm::eltwise_gelu_erf);
}

// The bounds arrive as 0-dim inputs after self (min first); an absent one is infinite.
void clamp_kernel(const KernelCall& c) {
  const ClampParams& bounds = c.params<ClampParams>();
  size_t next = 1;
  auto bound = [&](bool present, float absent) {
    return present ? static_cast<float>(c.inputs[next++].as_strided({}, {}).item().to_double())
                   : absent;
  };
  const float inf = std::numeric_limits<float>::infinity();
  const float lo = bound(bounds.has_min, -inf);
  const float hi = bound(bounds.has_max, inf);
  eltwise(c, algorithm::eltwise_clip_v2, lo, hi);
}

// Note [Binary operands]
// Inputs arrive expanded to the output's shape. The second source is given to oneDNN with its
// stride-0 dims as size 1 (oneDNN's broadcast); the first must have the destination's dims, so
// it keeps its zero strides. oneDNN computes in float32 and rounds once to the destination, so
// a source is bfloat16 only when the compute dtype is; others (an int32 tensor, a float64
// scalar) are converted to float32, not to bfloat16 (which would round a scalar like 0.1); a comparison writes its bool output as u8 0/1. A comparison whose output is laid out unlike
// its first source computes into a float32 temporary of the output's layout, then converts:
// oneDNN 2.6 writes such a u8 destination in the source's order (conformance/findings/dnnl.md,
// F2), where its float32 destinations are right.
void binary(const KernelCall& c, algorithm alg, float scale1 = 1.f) {
  const Tensor& out = c.outputs[0];
  if (out.numel() == 0) return;
  check_dtype(c, out, "out");
  auto source_type = [&](size_t i) {
    const ScalarType t = c.inputs[i].dtype();
    return t == kBFloat16 && c.p.compute_dtype == kBFloat16 ? dnnl::memory::data_type::bf16
                                                           : dnnl::memory::data_type::f32;
  };
  const Operand a = operand(c, 0, source_type(0));
  const Operand b = operand(c, 1, source_type(1), /*squeeze=*/true);
  const dnnl::memory target = memory(desc(out), out);
  const bool staged = out.dtype() == kBool && strides_of(a.md()) != strides_of(target.get_desc());
  const dnnl::memory::desc f32 = desc(out, dnnl::memory::data_type::f32);
  std::vector<char> staging(staged ? f32.get_size() : 0);
  const dnnl::memory dst = staged ? dnnl::memory(f32, engine(), staging.data()) : target;
  dnnl::primitive_attr attr;
  if (scale1 != 1.f) attr.set_scales(DNNL_ARG_SRC_1, 0, {scale1});
  const dnnl::binary::primitive_desc pd({alg, a.md(), b.md(), dst.get_desc()}, attr, engine());
  execute(dnnl::binary(pd), {{DNNL_ARG_SRC_0, a.mem}, {DNNL_ARG_SRC_1, b.mem}, {DNNL_ARG_DST, dst}});
  if (staged) reorder(dst, target);
}

// clang-format off
#define TS_DNNL_BINARY_OPS(_) \
  _(mul, binary_mul) \
  _(maximum, binary_max) \
  _(minimum, binary_min) \
  _(eq, binary_eq) \
  _(ne, binary_ne) \
  _(lt, binary_lt) \
  _(le, binary_le) \
  _(gt, binary_gt) \
  _(ge, binary_ge)
// clang-format on

#define TS_DNNL_BINARY_KERNEL(name, alg)    \
  void name##_kernel(const KernelCall& c) { \
    binary(c, algorithm::alg);              \
  }
TS_DNNL_BINARY_OPS(TS_DNNL_BINARY_KERNEL)
#undef TS_DNNL_BINARY_KERNEL

// add and sub: self + alpha * other, alpha as the second source's scale.
void add_kernel(const KernelCall& c) {
  binary(c, algorithm::binary_add, static_cast<float>(c.params<AlphaParams>().alpha.to_double()));
}
void sub_kernel(const KernelCall& c) {
  binary(c, algorithm::binary_sub, static_cast<float>(c.params<AlphaParams>().alpha.to_double()));
}

void div_kernel(const KernelCall& c) {
  TS_CHECK(c.params<DivParams>().rounding_mode == RoundingMode::None,
           "dnnl div: oneDNN's binary_div has no rounding mode (rounding_mode='trunc' or "
           "'floor')");
  binary(c, algorithm::binary_div);
}

}  // namespace

void register_elementwise(KernelRegistrar& m) {
#define TS_DNNL_REGISTER(name, ...) \
  m.impl(OpId::name, kCPU, dnnl_dtypes(OpId::name), name##_kernel);
  TS_DNNL_UNARY_OPS(TS_DNNL_REGISTER)
  TS_DNNL_BINARY_OPS(TS_DNNL_REGISTER)
  m.impl(OpId::round, kCPU, DTypeSet{kFloat}, round_kernel);
  TS_DNNL_REGISTER(rsqrt)
  TS_DNNL_REGISTER(gelu)
  TS_DNNL_REGISTER(clamp)
  TS_DNNL_REGISTER(add)
  TS_DNNL_REGISTER(sub)
  TS_DNNL_REGISTER(div)
#undef TS_DNNL_REGISTER
}

}  // namespace ts::dnnl_set
