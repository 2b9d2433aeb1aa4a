// dnnl kernels for the reductions oneDNN's reduction primitive has (sum, mean, prod, amax, amin,
// norm p=1/2), softmax and log_softmax (softmax_v2) and layer_norm (layer_normalization).
#include <algorithm>
#include <cmath>
#include <limits>

#include "dnnl_common.h"
#include "touchstone/op_params.h"

namespace ts::dnnl_set {
namespace {

using dnnl::algorithm;

// The output seen with the input's rank, size 1 at the reduced dims (Note [Reduction outputs] in
// lib/src/ops/reduce.cpp), as oneDNN's reduction wants its destination.
dnnl::memory keepdim_view(const Tensor& in, const Tensor& out, const ReduceParams& p) {
  std::vector<int64_t> sizes, strides;
  int64_t next = 0;
  for (int64_t d = 0; d < in.dim(); ++d) {
    const bool reduced = std::find(p.dims.begin(), p.dims.end(), d) != p.dims.end();
    sizes.push_back(reduced ? 1 : out.size(next));
    strides.push_back(reduced ? 1 : out.strides()[next]);
    if (!reduced || p.keepdim) ++next;
  }
  return dnnl::memory(desc(sizes, strides, to_dnnl(out.dtype())), engine(), out.data_ptr());
}

// `empty` is the result over no elements (sum 0, prod 1, mean NaN, norm 0).
void reduce(const KernelCall& c, algorithm alg, float empty, float p = 0.f) {
  const Tensor &in = c.inputs[0], &out = c.outputs[0];
  if (out.numel() == 0) return;
  check_dtype(c, out, "out");
  const ReduceParams& params = reduce_params(c.p);
  const dnnl::memory dst = keepdim_view(in, out, params);
  if (in.numel() == 0) return fill(dst, empty);
  // The input in the compute dtype first (a sum of int32 into float32, as ATen casts first):
  // oneDNN's reduction has no s32 -> f32 or f16 -> f32 implementation.
  const Operand src = operand(c, 0, to_dnnl(c.p.compute_dtype));
  bool reduces = false;  // oneDNN refuses a reduction whose dims all have size 1
  for (int64_t d : params.dims) reduces = reduces || in.size(d) > 1;
  if (!reduces) {
    // Each output element is one input element; a norm's is its absolute value.
    reorder(src.mem, dst);
    if (alg != algorithm::reduction_norm_lp_sum) return;
    const dnnl::eltwise_forward::primitive_desc abs(
        {dnnl::prop_kind::forward_inference, algorithm::eltwise_abs, dst.get_desc(), 0.f, 0.f},
        engine());
    return execute(dnnl::eltwise_forward(abs), {{DNNL_ARG_SRC, dst}, {DNNL_ARG_DST, dst}});
  }
  const dnnl::reduction::primitive_desc pd({alg, src.md(), dst.get_desc(), p, 0.f}, engine());
  execute(dnnl::reduction(pd), {{DNNL_ARG_SRC, src.mem}, {DNNL_ARG_DST, dst}});
}

void sum_kernel(const KernelCall& c) {
  reduce(c, algorithm::reduction_sum, 0.f);
}
void mean_kernel(const KernelCall& c) {
  reduce(c, algorithm::reduction_mean, std::numeric_limits<float>::quiet_NaN());
}
void prod_kernel(const KernelCall& c) {
  reduce(c, algorithm::reduction_mul, 1.f);
}
void amax_kernel(const KernelCall& c) {
  reduce(c, algorithm::reduction_max, 0.f);
}
void amin_kernel(const KernelCall& c) {
  reduce(c, algorithm::reduction_min, 0.f);
}

// norm: (sum |x|^p)^(1/p) is oneDNN's norm_lp_sum; it has no max-abs (p = inf) reduction.
void norm_kernel(const KernelCall& c) {
  const double p = c.params<NormParams>().p;
  TS_CHECK(std::isfinite(p), "dnnl norm: oneDNN's reduction has no p=inf norm (max |x|)");
  reduce(c, algorithm::reduction_norm_lp_sum, 0.f, static_cast<float>(p));
}

// softmax_v2 takes source and destination descriptors of their own (any strides).
template <bool Log>
void softmax_kernel(const KernelCall& c) {
  const Tensor& out = c.outputs[0];
  if (out.numel() == 0) return;
  check_dtype(c, out, "out");
  const Operand src = operand(c, 0, to_dnnl(c.p.compute_dtype));
  const dnnl::memory dst = memory(desc(out), out);
  const int axis = static_cast<int>(c.params<DimParams>().dim);
  const dnnl::softmax_v2_forward::primitive_desc pd(
      {dnnl::prop_kind::forward_inference,
       Log ? algorithm::softmax_log : algorithm::softmax_accurate, src.md(), dst.get_desc(), axis},
      engine());
  execute(dnnl::softmax_v2_forward(pd), {{DNNL_ARG_SRC, src.mem}, {DNNL_ARG_DST, dst}});
}

// Note [Layer norm staging]
// oneDNN 2.6's layer normalization normalizes the last dim of one descriptor used for source and
// destination, with float32 scale and shift. So the input is reordered into a row-major
// {N, C} buffer (the output itself when it is row-major in the compute dtype, else a temporary
// copied into it afterwards), normalized in place, and weight and bias are converted to f32.
void layer_norm_kernel(const KernelCall& c) {
  const Tensor &in = c.inputs[0], &out = c.outputs[0];
  if (out.numel() == 0) return;
  check_dtype(c, out, "out");
  const LayerNormParams& params = c.params<LayerNormParams>();
  const std::vector<int64_t> sizes(in.sizes().begin(), in.sizes().end());
  int64_t C = 1;
  for (int64_t d : params.dims) C *= in.size(d);
  const int64_t N = in.numel() / C;
  const dnnl::memory::data_type dt = to_dnnl(c.p.compute_dtype);
  const dnnl::memory::desc full = desc(sizes, row_major(sizes), dt);
  const bool direct = out.is_contiguous() && out.dtype() == c.p.compute_dtype;
  std::vector<char> staging(direct ? 0 : full.get_size());
  void* data = direct ? out.data_ptr() : staging.data();
  reorder(operand(c, 0, dt).mem, dnnl::memory(full, engine(), data));
  const dnnl::memory::desc md2 = desc({N, C}, {C, 1}, dt);
  const dnnl::memory rows(md2, engine(), data);

  std::unordered_map<int, dnnl::memory> args{{DNNL_ARG_SRC, rows}, {DNNL_ARG_DST, rows}};
  auto flags = dnnl::normalization_flags::none;
  std::vector<float> scale_shift[2];
  const int arg[2] = {DNNL_ARG_SCALE, DNNL_ARG_SHIFT};
  for (int k = 0; k < 2; ++k) {
    if (!c.inputs[1 + k].defined()) continue;
    flags = flags |
            (k == 0 ? dnnl::normalization_flags::use_scale : dnnl::normalization_flags::use_shift);
    scale_shift[k].resize(C);
    const Operand w = operand(c, 1 + k, dnnl::memory::data_type::f32);
    const std::vector<int64_t> wsizes(c.inputs[1 + k].sizes().begin(),
                                      c.inputs[1 + k].sizes().end());
    const auto f32 = dnnl::memory::data_type::f32;
    reorder(w.mem,
            dnnl::memory(desc(wsizes, row_major(wsizes), f32), engine(), scale_shift[k].data()));
    args[arg[k]] = dnnl::memory(desc({C}, {1}, f32), engine(), scale_shift[k].data());
  }
  const dnnl::layer_normalization_forward::primitive_desc pd(
      {dnnl::prop_kind::forward_inference, md2, static_cast<float>(params.eps), flags}, engine());
  execute(dnnl::layer_normalization_forward(pd), args);
  if (!direct) reorder(dnnl::memory(full, engine(), data), memory(desc(out), out));
}

}  // namespace

void register_reduce(KernelRegistrar& m) {
#define TS_DNNL_REGISTER(name, fn) m.impl(OpId::name, kCPU, dnnl_dtypes(OpId::name), fn);
  TS_DNNL_REGISTER(sum, sum_kernel)
  TS_DNNL_REGISTER(mean, mean_kernel)
  TS_DNNL_REGISTER(prod, prod_kernel)
  TS_DNNL_REGISTER(amax, amax_kernel)
  TS_DNNL_REGISTER(amin, amin_kernel)
  TS_DNNL_REGISTER(norm, norm_kernel)
  TS_DNNL_REGISTER(softmax, softmax_kernel<false>)
  TS_DNNL_REGISTER(log_softmax, softmax_kernel<true>)
  TS_DNNL_REGISTER(layer_norm, layer_norm_kernel)
#undef TS_DNNL_REGISTER
}

}  // namespace ts::dnnl_set
