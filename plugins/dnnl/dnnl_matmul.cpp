// dnnl kernels for mm, bmm, addmm, mv, dot and outer: oneDNN's matmul primitive, which takes any
// plain strides for its source, weights and destination (vectors are seen as 1-row or 1-column
// matrices, so no operand is copied unless its dtype differs from the compute dtype).
#include "dnnl_common.h"
#include "touchstone/kernel_family.h"
#include "touchstone/op_params.h"

namespace ts::dnnl_set {
namespace {

// The operand's memory seen as `sizes`, a vector's stride on its one non-unit dim `along`.
dnnl::memory as_matrix(const dnnl::memory& m, std::vector<int64_t> sizes, int along) {
  const std::vector<int64_t> s = strides_of(m.get_desc());
  std::vector<int64_t> strides(sizes.size(), 1);
  strides[along] = s.empty() ? 1 : s[0];
  return dnnl::memory(desc(sizes, strides, m.get_desc().data_type()), engine(),
                      m.get_data_handle());
}

// dst := alpha * (a @ b) + beta * dst (beta 0: dst is not read).
void matmul(const dnnl::memory& a, const dnnl::memory& b, const dnnl::memory& dst, int64_t k,
            float alpha = 1.f, float beta = 0.f) {
  if (k == 0) {
    // An empty sum: oneDNN is not called with a zero-size operand.
    if (beta == 0.f) return fill(dst, 0.f);
    const dnnl::eltwise_forward::primitive_desc scale(
        {dnnl::prop_kind::forward_inference, dnnl::algorithm::eltwise_linear, dst.get_desc(), beta,
         0.f},
        engine());
    return execute(dnnl::eltwise_forward(scale), {{DNNL_ARG_SRC, dst}, {DNNL_ARG_DST, dst}});
  }
  dnnl::primitive_attr attr;
  if (alpha != 1.f) attr.set_output_scales(0, {alpha});
  if (beta != 0.f) {
    dnnl::post_ops ops;
    ops.append_sum(beta);
    attr.set_post_ops(ops);
  }
  const dnnl::matmul::primitive_desc pd({a.get_desc(), b.get_desc(), dst.get_desc()}, attr,
                                        engine());
  execute(dnnl::matmul(pd), {{DNNL_ARG_SRC, a}, {DNNL_ARG_WEIGHTS, b}, {DNNL_ARG_DST, dst}});
}

template <OpId op>
void kernel(const KernelCall& c) {
  const Tensor& out = c.outputs[0];
  if (out.numel() == 0) return;
  check_dtype(c, out, "out");
  const dnnl::memory::data_type dt = to_dnnl(c.p.compute_dtype);
  const size_t first = op == OpId::addmm ? 1 : 0;
  const Operand a = operand(c, first, dt), b = operand(c, first + 1, dt);
  const Tensor& x = c.inputs[first];
  const dnnl::memory dst = memory(desc(out), out);
  if constexpr (op == OpId::mm || op == OpId::bmm) {
    matmul(a.mem, b.mem, dst, x.size(-1));
  } else if constexpr (op == OpId::addmm) {
    const AddmmParams& p = c.params<AddmmParams>();
    const auto beta = static_cast<float>(p.beta.to_double());
    // ATen ignores self when beta is 0 (NaN included); otherwise self is copied into the output
    // first (not needed in place, where the output is self) and added by a sum post-op.
    if (beta != 0.f && c.kind != CallKind::InPlace) reorder(operand(c, 0, dt).mem, dst);
    matmul(a.mem, b.mem, dst, x.size(1), static_cast<float>(p.alpha.to_double()), beta);
  } else if constexpr (op == OpId::mv) {
    const int64_t m = x.size(0), k = x.size(1);
    matmul(a.mem, as_matrix(b.mem, {k, 1}, 0), as_matrix(dst, {m, 1}, 0), k);
  } else if constexpr (op == OpId::dot) {
    const int64_t k = x.size(0);
    matmul(as_matrix(a.mem, {1, k}, 1), as_matrix(b.mem, {k, 1}, 0), as_matrix(dst, {1, 1}, 0), k);
  } else if constexpr (op == OpId::outer) {
    const int64_t m = x.size(0), n = c.inputs[1].size(0);
    const dnnl::memory d = memory(desc(out), out);
    matmul(as_matrix(a.mem, {m, 1}, 0), as_matrix(b.mem, {1, n}, 1), d, 1);
  } else {
    static_assert(kMissingKernel<op>, "dnnl matmul: a Matmul op without its branch");
  }
}

}  // namespace

void register_matmul(KernelRegistrar& m) {
  for_each_kernel_op<OpSignature::Matmul>(
      [&](auto op) { m.impl(op, kCPU, dnnl_dtypes(op), kernel<op>); });
}

}  // namespace ts::dnnl_set
