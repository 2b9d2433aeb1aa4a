// Reference kernels for the nn ops. See Note [Reference kernels] in common.h and the params
// each op uses at the top of lib/src/ops/nn.cpp. Rows and reductions accumulate in double and
// each result is rounded once to the compute dtype.
#include <cmath>
#include <limits>
#include <vector>

#include "common.h"
#include "touchstone/kernel_family.h"

namespace ts::reference {
namespace {

// softmax and log_softmax along dim, one row at a time; a 0-dim input is a row of one.
// Note [Stable softmax]
// exp(x - max) never overflows and softmax is unchanged by the shift; log_softmax is
// (x - max) - log(sum(exp(x - max))). A NaN anywhere in a row makes the whole row NaN.
void softmax_kernel(const KernelCall& c, bool log) {
  const Tensor& in = c.inputs[0];
  const Tensor& out = c.outputs[0];
  const ScalarType ct = c.p.compute_dtype;
  const int64_t dim = c.params<DimParams>().dim;
  const bool scalar = in.dim() == 0;
  const int64_t n = scalar ? 1 : in.size(dim);
  const int64_t in_step = scalar ? 0 : in.stride(dim) * static_cast<int64_t>(in.element_size());
  const int64_t out_step = scalar ? 0 : out.stride(dim) * static_cast<int64_t>(out.element_size());
  DimVector rows(in.sizes());
  if (!scalar) rows[dim] = 1;
  // Rows of no elements: nothing to do (there may be 2^40 of them, in an expanded input).
  if (in.numel() == 0) return;

  for_each_index(rows, [&](IntArrayRef idx) {
    const char* ip = element_ptr(in, idx);
    char* op = element_ptr(out, idx);
    // Read the whole row first, so that out may be the input itself.
    std::vector<double> x(static_cast<size_t>(n));
    for (int64_t k = 0; k < n; ++k) x[k] = load_as_double(ip + k * in_step, in.dtype(), ct);
    double max = -std::numeric_limits<double>::infinity();
    for (double v : x) {
      if (std::isnan(v) || v > max) max = v;
      if (std::isnan(max)) break;
    }
    double sum = 0;
    for (double v : x) sum += std::exp(v - max);
    for (int64_t k = 0; k < n; ++k) {
      const double r = log ? (x[k] - max) - std::log(sum) : std::exp(x[k] - max) / sum;
      store_double(op + k * out_step, out.dtype(), round_to(ct, r));
    }
  });
}

// layer_norm over the trailing dims: y = (x - mean) / sqrt(var + eps) * w + b, with the
// biased variance, all in double.
void layer_norm_kernel(const KernelCall& c) {
  const Tensor& x = c.inputs[0];
  const Tensor& w = c.inputs[1];
  const Tensor& b = c.inputs[2];
  const Tensor& out = c.outputs[0];
  const ScalarType ct = c.p.compute_dtype;
  const LayerNormParams& params = c.params<LayerNormParams>();
  const auto lead = static_cast<size_t>(x.dim()) - params.dims.size();
  DimVector rows(x.sizes());
  DimVector normalized;
  for (int64_t d : params.dims) {
    rows[d] = 1;
    normalized.push_back(x.size(d));
  }
  if (x.numel() == 0) return;  // empty rows, however many (see softmax_kernel)

  for_each_index(rows, [&](IntArrayRef row) {
    DimVector full(row);  // row's lead index + an index into the normalized dims
    auto at = [&](IntArrayRef j) {
      for (size_t d = 0; d < j.size(); ++d) full[lead + d] = j[d];
      return IntArrayRef(full);
    };
    std::vector<double> v;
    for_each_index(normalized, [&](IntArrayRef j) {
      v.push_back(load_as_double(element_ptr(x, at(j)), x.dtype(), ct));
    });
    const auto m = static_cast<double>(v.size());
    double mean = 0;
    for (double e : v) mean += e;
    mean /= m;
    double var = 0;
    for (double e : v) var += (e - mean) * (e - mean);
    var /= m;
    const double rstd = 1 / std::sqrt(var + params.eps);
    size_t i = 0;
    for_each_index(normalized, [&](IntArrayRef j) {
      double y = (v[i++] - mean) * rstd;
      if (w.defined()) y *= load_as_double(element_ptr(w, j), w.dtype(), ct);
      if (b.defined()) y += load_as_double(element_ptr(b, j), b.dtype(), ct);
      store_double(element_ptr(out, at(j)), out.dtype(), round_to(ct, y));
    });
  });
}

// nll_loss: loss_i = -w[t_i] * self[i, t_i] (0 where t_i == ignore_index). Mean divides the sum
// by the summed weights of the non-ignored targets (NaN when there are none, as PyTorch).
void nll_loss_kernel(const KernelCall& c) {
  const Tensor& self = c.inputs[0];
  const Tensor& target = c.inputs[1];
  const Tensor& weight = c.inputs[2];
  const Tensor& out = c.outputs[0];
  const ScalarType ct = c.p.compute_dtype;
  const NllLossParams& params = c.params<NllLossParams>();
  const Reduction reduction = params.reduction;
  double total = 0, total_weight = 0;

  for_each_index(target.sizes(), [&](IntArrayRef t) {
    const int64_t cls = load_int64(element_ptr(target, t), target.dtype());
    double loss = 0, w = 0;
    if (cls != params.ignore_index) {
      // The input index: the target's index with the class inserted at the class dim.
      DimVector idx(t);
      idx.insert(static_cast<size_t>(params.class_dim), cls);
      w = weight.defined() ? load_as_double(element_ptr(weight, cls), weight.dtype(), ct) : 1.0;
      loss = -load_as_double(element_ptr(self, idx), self.dtype(), ct) * w;
    }
    if (reduction == Reduction::None) {
      store_double(element_ptr(out, t), out.dtype(), round_to(ct, loss));
    }
    total += loss;
    total_weight += w;
  });
  if (reduction == Reduction::Sum) store_double(out.data_ptr(), out.dtype(), round_to(ct, total));
  if (reduction == Reduction::Mean) {
    store_double(out.data_ptr(), out.dtype(), round_to(ct, total / total_weight));
  }
}

// mse_loss: (self - target)^2 per element, rounded to the compute dtype (PyTorch materializes
// this tensor), then summed in double for Sum and Mean (NaN for an empty Mean).
void mse_loss_kernel(const KernelCall& c) {
  const Tensor& a = c.inputs[0];
  const Tensor& b = c.inputs[1];
  const Tensor& out = c.outputs[0];
  const ScalarType ct = c.p.compute_dtype;
  const Reduction reduction = c.params<LossParams>().reduction;
  double total = 0;

  for_each_index(a.sizes(), [&](IntArrayRef idx) {
    const double d = load_as_double(element_ptr(a, idx), a.dtype(), ct) -
                     load_as_double(element_ptr(b, idx), b.dtype(), ct);
    const double loss = round_to(ct, d * d);
    if (reduction == Reduction::None) store_double(element_ptr(out, idx), out.dtype(), loss);
    total += loss;
  });
  if (reduction == Reduction::Sum) store_double(out.data_ptr(), out.dtype(), round_to(ct, total));
  if (reduction == Reduction::Mean) {
    const auto n = static_cast<double>(a.numel());
    store_double(out.data_ptr(), out.dtype(), round_to(ct, total / n));
  }
}

// One branch per Softmax, Norm and Loss kernel op of op_list.def (registered below).
template <OpId op>
void nn_kernel(const KernelCall& c) {
  if constexpr (op == OpId::softmax || op == OpId::log_softmax) {
    softmax_kernel(c, op == OpId::log_softmax);
  } else if constexpr (op == OpId::layer_norm) {
    layer_norm_kernel(c);
  } else if constexpr (op == OpId::nll_loss) {
    nll_loss_kernel(c);
  } else if constexpr (op == OpId::mse_loss) {
    mse_loss_kernel(c);
  } else {
    static_assert(kMissingKernel<op>, "an nn op without its reference kernel");
  }
}

}  // namespace

TS_REGISTER_KERNELS(reference, nn) {
  for_each_kernel_op<OpSignature::Softmax, OpSignature::Norm, OpSignature::Loss>(
      [&](auto op) { m.impl(op, kCPU, nn_kernel<op>); });
}

}  // namespace ts::reference
