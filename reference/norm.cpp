// Reference kernels for the normalization and embedding ops (issue 16): batch_norm, group_norm,
// embedding. See Note [Reference kernels] in common.h and the params each op uses at the top of
// lib/src/ops/norm.cpp and lib/src/ops/embedding.cpp. Statistics accumulate in double over
// every element of a channel (batch_norm) or of a sample's group (group_norm), in two passes
// (the mean, then the squared deviations), and each result is rounded once.
#include <cmath>
#include <cstring>
#include <vector>

#include "common.h"
#include "touchstone/kernel_family.h"

namespace ts::reference {
namespace {

// The mean and biased variance of each of `groups` sets of x's elements; key(idx) says which
// set an element belongs to.
template <typename Key>
void statistics(const Tensor& x, ScalarType ct, int64_t groups, Key&& key,
                std::vector<double>& mean, std::vector<double>& var) {
  std::vector<double> count(static_cast<size_t>(groups), 0);
  mean.assign(static_cast<size_t>(groups), 0);
  var.assign(static_cast<size_t>(groups), 0);
  for_each_index(x.sizes(), [&](IntArrayRef idx) {
    const auto k = static_cast<size_t>(key(idx));
    mean[k] += load_as_double(element_ptr(x, idx), x.dtype(), ct);
    count[k] += 1;
  });
  for (size_t k = 0; k < mean.size(); ++k) mean[k] /= count[k];
  for_each_index(x.sizes(), [&](IntArrayRef idx) {
    const auto k = static_cast<size_t>(key(idx));
    const double d = load_as_double(element_ptr(x, idx), x.dtype(), ct) - mean[k];
    var[k] += d * d;
  });
  for (size_t k = 0; k < var.size(); ++k) var[k] /= count[k];
}

double load_at(const Tensor& t, int64_t i, ScalarType ct) {
  return load_as_double(static_cast<const char*>(t.data_ptr()) +
                            i * t.stride(0) * static_cast<int64_t>(t.element_size()),
                        t.dtype(), ct);
}

// The [C] tensors of batch_norm are 1-D in the catalog but any shape of C elements in ATen.
Tensor flat(const Tensor& t) {
  return t.defined() ? t.reshape({t.numel()}) : t;
}

// y = (x - mean[k]) * rstd[k] * w[c] + b[c], channel c = idx[1], k = key(idx).
template <typename Key>
void normalize(const KernelCall& c, const std::vector<double>& mean,
               const std::vector<double>& rstd, Key&& key) {
  const Tensor& x = c.inputs[0];
  const Tensor w = flat(c.inputs[1]), b = flat(c.inputs[2]);
  const Tensor& out = c.outputs[0];
  const ScalarType ct = c.p.compute_dtype;
  for_each_index(x.sizes(), [&](IntArrayRef idx) {
    const auto k = static_cast<size_t>(key(idx));
    double y = (load_as_double(element_ptr(x, idx), x.dtype(), ct) - mean[k]) * rstd[k];
    if (w.defined()) y *= load_at(w, idx[1], ct);
    if (b.defined()) y += load_at(b, idx[1], ct);
    store_double(element_ptr(out, idx), out.dtype(), round_to(ct, y));
  });
}

// batch_norm: the batch's statistics in training, the running ones in evaluation; in training
// with running statistics, outputs 1 and 2 get (1 - momentum) * running + momentum * batch,
// the batch variance unbiased (Note [Running statistics] in lib/src/ops/norm.cpp).
void batch_norm_kernel(const KernelCall& c) {
  const Tensor& x = c.inputs[0];
  const Tensor rm = flat(c.inputs[3]), rv = flat(c.inputs[4]);
  const ScalarType ct = c.p.compute_dtype;
  const BatchNormParams& params = c.params<BatchNormParams>();
  const int64_t channels = x.size(1);
  if (x.numel() == 0) return;
  const auto channel = [](IntArrayRef idx) { return idx[1]; };
  std::vector<double> mean, var;
  if (params.training) {
    statistics(x, ct, channels, channel, mean, var);
  } else {
    for (int64_t k = 0; k < channels; ++k) {
      mean.push_back(load_at(rm, k, ct));
      var.push_back(load_at(rv, k, ct));
    }
  }
  // Note [batch_norm of a constant channel]: ATen's InvStd is 0 where var and eps are both 0
  // (training only), so such a channel normalizes to 0 rather than 0 / 0.
  std::vector<double> rstd;
  for (const double v : var) {
    rstd.push_back(params.training && v == 0 && params.eps == 0 ? 0
                                                                : 1 / std::sqrt(v + params.eps));
  }
  normalize(c, mean, rstd, channel);
  if (c.outputs.size() == 3) {
    const auto n = static_cast<double>(x.numel() / channels);
    const double m = params.momentum;
    for (int64_t k = 0; k < channels; ++k) {
      const double new_mean = (1 - m) * load_at(rm, k, ct) + m * mean[k];
      const double new_var = (1 - m) * load_at(rv, k, ct) + m * var[k] * n / (n - 1);
      store_double(element_ptr(c.outputs[1], {k}), c.outputs[1].dtype(), round_to(ct, new_mean));
      store_double(element_ptr(c.outputs[2], {k}), c.outputs[2].dtype(), round_to(ct, new_var));
    }
  }
}

// group_norm: the statistics of sample n's group g (channels g * C / G up to (g + 1) * C / G).
void group_norm_kernel(const KernelCall& c) {
  const Tensor& x = c.inputs[0];
  const GroupNormParams& params = c.params<GroupNormParams>();
  if (x.numel() == 0) return;
  const int64_t groups = params.num_groups, per_group = x.size(1) / groups;
  const auto group = [&](IntArrayRef idx) { return idx[0] * groups + idx[1] / per_group; };
  std::vector<double> mean, var;
  statistics(x, c.p.compute_dtype, x.size(0) * groups, group, mean, var);
  std::vector<double> rstd;
  for (const double v : var) rstd.push_back(1 / std::sqrt(v + params.eps));
  normalize(c, mean, rstd, group);
}

// embedding: out[i..., :] = weight[indices[i...], :], bytes copied (every dtype, exactly).
void embedding_kernel(const KernelCall& c) {
  const Tensor& w = c.inputs[0];
  const Tensor& indices = c.inputs[1];
  const Tensor& out = c.outputs[0];
  const auto size = static_cast<size_t>(w.element_size());
  for_each_index(out.sizes(), [&](IntArrayRef idx) {
    const IntArrayRef at = idx.slice(0, idx.size() - 1);
    const int64_t row = load_int64(element_ptr(indices, at), indices.dtype());
    std::memcpy(element_ptr(out, idx), element_ptr(w, {row, idx.back()}), size);
  });
}

// One branch per NormStats and Embedding kernel op of op_list.def (registered below).
template <OpId op>
void norm_kernel(const KernelCall& c) {
  if constexpr (op == OpId::batch_norm) {
    batch_norm_kernel(c);
  } else if constexpr (op == OpId::group_norm) {
    group_norm_kernel(c);
  } else if constexpr (op == OpId::embedding) {
    embedding_kernel(c);
  } else {
    static_assert(kMissingKernel<op>, "a normalization or embedding op without its kernel");
  }
}

}  // namespace

TS_REGISTER_KERNELS(reference, norm) {
  for_each_kernel_op<OpSignature::NormStats, OpSignature::Embedding>(
      [&](auto op) { m.impl(op, kCPU, norm_kernel<op>); });
}

}  // namespace ts::reference
