// embedding_bag (issue 16): meta and derivative (at the end).
// Params (touchstone/op_params.h):
//   inputs {weight (V, D), indices (N) int64 or int32 in [0, V), offsets (B + 1) int64: bag b is
//     [offsets[b], offsets[b + 1]), per_sample_weights (N) of weight's dtype or undefined};
//   EmbeddingBagParams: mode (0 sum, 1 mean, 2 max), padding_idx (wrapped, -1: none),
//     scale_grad_by_freq (the gradient only).
//   outputs {output (B, D) of weight's dtype, max_indices (B, D) int64 in max mode (the row of
//     weight each maximum came from, -1 for an empty bag), else an empty int64 tensor}.
//   compute_dtype = weight's dtype (floating).
//
// Note [embedding_bag's offsets]
// ATen's offsets hold each bag's start; the last bag ends at indices' end, or, with
// include_last_offset, offsets has one more element, the end of the last bag. meta hands the
// kernel B + 1 offsets in both cases, so bag b is always [offsets[b], offsets[b + 1]). A 2-D
// indices without offsets is torch.nn.functional.embedding_bag's form: one bag per row.
#include <algorithm>
#include <string>
#include <vector>

#include "../autograd/derivatives.h"
#include "index_checks.h"
#include "meta.h"
#include "touchstone/ops.h"

namespace ts {

Tensor embedding_bag(const Tensor& weight, const Tensor& indices, const Tensor& offsets,
                     bool scale_grad_by_freq, int64_t mode, bool sparse,
                     const Tensor& per_sample_weights, bool include_last_offset,
                     std::optional<int64_t> padding_idx) {
  const char* op = "embedding_bag";
  const UserOpScope scope(op);
  meta::check_defined(op, weight, "weight");
  meta::check_defined(op, indices, "indices");
  TS_CHECK(weight.dim() == 2, op, ": weight has to be a 2D Tensor, but got Tensor of dimension ",
           weight.dim(), " (argument 'weight')");
  meta::check_dtype_supported(op, weight.dtype(), op_info(OpId::embedding_bag).dtypes, "weight");
  TS_CHECK(indices.dtype() == kLong || indices.dtype() == kInt, op,
           ": expected indices to be int64 or int32, but got ", indices.dtype(),
           " (argument 'indices')");
  TS_CHECK(mode >= 0 && mode <= 2, op, ": mode has to be one of sum (0), mean (1) or max (2), ",
           "but got ", mode, " (argument 'mode')");
  TS_CHECK(!sparse, op, ": sparse=True is not supported: touchstone has no sparse tensors ",
           "(argument 'sparse')");
  // Note [embedding_bag's offsets]
  Tensor idx = indices, offs;
  const TensorOptions longs = TensorOptions(kLong).device(indices.device());
  if (!offsets.defined()) {
    TS_CHECK(indices.dim() == 2, op, ": offsets has to be a 1D Tensor but got None (a 1-D ",
             "indices needs offsets; a 2-D one gives fixed-length bags) (argument 'offsets')");
    const int64_t bags = indices.size(0), len = indices.size(1);
    idx = indices.reshape({bags * len});
    offs = arange(0, bags * len + 1, len > 0 ? len : 1, longs);
    if (len == 0) offs = zeros({bags + 1}, longs);
  } else {
    TS_CHECK(indices.dim() == 1, op, ": if input is 2D, then offsets has to be None; indices ",
             "must be 1-D with offsets, but got indices of size ", indices.sizes(),
             " (argument 'indices')");
    TS_CHECK(offsets.dim() == 1, op, ": offsets has to be a 1D Tensor, but got Tensor of ",
             "dimension ", offsets.dim(), " (argument 'offsets')");
    TS_CHECK(offsets.dtype() == kLong || offsets.dtype() == kInt, op,
             ": expected offsets to be int64 or int32, but got ", offsets.dtype(),
             " (argument 'offsets')");
    TS_CHECK(!include_last_offset || offsets.size(0) >= 1, op,
             ": include_last_offset: number of offsets should be at least 1 (argument ",
             "'offsets')");
    offs = offsets.to(kLong).contiguous();
    if (!include_last_offset) {
      offs = cat({offs, full({1}, indices.size(0), longs)});
    }
  }
  const int64_t n = idx.size(0), bags = offs.size(0) - 1, rows = weight.size(0);
  {
    const Tensor o = meta::on_host(offs);
    const int64_t* p = o.data_ptr<int64_t>();
    TS_CHECK(bags == 0 || p[0] == 0, op, ": offsets[0] has to be 0, i.e., the first sequence in ",
             "the mini-batch has to start from position 0. However, got ", p[0],
             " (argument 'offsets')");
    const int64_t last = *std::max_element(p, p + bags + 1);
    TS_CHECK(last <= n, op, ": offsets[-1] can not be greater than input's length ", n,
             ", but got offsets[-1] of ", last, " (argument 'offsets')");
    for (int64_t b = 0; b < bags; ++b) {
      TS_CHECK(p[b] <= p[b + 1], op, ": offsets must be non-decreasing, but offsets[", b,
               "] = ", p[b], " > offsets[", b + 1, "] = ", p[b + 1], " (argument 'offsets')");
    }
  }
  // Note [Index bounds]: the extremes first (one parallel pass), the values in order only to
  // name the first bad one.
  meta::check_index_values(idx, [&](int64_t v) {
    TS_CHECK(v >= 0 && v < rows, op, ": index ", v, " is out of range for weight of ", rows,
             " rows (argument 'indices')");
  });
  int64_t pad = -1;
  if (padding_idx.has_value()) {
    TS_CHECK(*padding_idx >= -rows && *padding_idx < rows, op,
             ": padding_idx must be within the number of embeddings, ", rows, ", but got ",
             *padding_idx, " (argument 'padding_idx')");
    pad = *padding_idx < 0 ? *padding_idx + rows : *padding_idx;
  }
  if (per_sample_weights.defined()) {
    TS_CHECK(mode == 0, op, ": embedding_bag: per_sample_weights was not None. ",
             "per_sample_weights is only supported for mode='sum' (got mode='",
             mode == 1 ? "mean" : "max", "') (argument 'per_sample_weights')");
    TS_CHECK(per_sample_weights.dim() == 1 && per_sample_weights.size(0) == n, op,
             ": expected per_sample_weights to be 1D tensor and have the same shape as indices ",
             "(", n, " elements), but got per_sample_weights of size ", per_sample_weights.sizes(),
             " (argument 'per_sample_weights')");
    TS_CHECK(per_sample_weights.dtype() == weight.dtype(), op,
             ": expected per_sample_weights and weight to have the same dtype, but got ",
             per_sample_weights.dtype(), " and ", weight.dtype(),
             " (argument 'per_sample_weights')");
  }
  const Tensor inputs[] = {weight, idx, offs, per_sample_weights};
  const Device device = meta::common_device(op, inputs, OpId::embedding_bag);
  OpParams p;
  p.compute_dtype = weight.dtype();
  p.set(EmbeddingBagParams{mode, pad, scale_grad_by_freq});
  const KernelFn fn = lookup_kernel(OpId::embedding_bag, p.compute_dtype, device);
  const Tensor outs[] = {
      empty({bags, weight.size(1)}, TensorOptions(p.compute_dtype).device(device)),
      empty(mode == 2 ? DimVector{bags, weight.size(1)} : DimVector{0},
            TensorOptions(kLong).device(device))};
  run_kernel(fn, KernelCall{OpId::embedding_bag, outs, inputs, p});
  return outs[0];
}

}  // namespace ts

// ---- derivatives (Note [Adding a derivative] in lib/src/autograd/derivatives.h) ----
namespace ts::autograd {
namespace {

// Note [embedding_bag gradients]
// As ATen's _embedding_bag_dense_backward, in ts ops: entry j of bag(j) (ATen's offset2bag, a
// cumulative count of the bag starts) adds grad[bag(j)] * w_j to weight's row indices[j], with
// w_j = per_sample_weights[j] (sum), 1 / (the bag's entries but padding) (mean), 0 for padding
// entries and those past the last bag; max mode adds grad[b, d] to max_indices[b, d]'s row.
// per_sample_weights' gradient is the dot product of grad[bag(j)] and weight's row indices[j].
// scale_grad_by_freq (sum and mean) further divides w_j by the count of indices[j] among all of
// `indices` (ATen's compute_counts), so each row's gradient is scaled by 1 / its frequency in the
// mini-batch; max mode ignores it, as ATen's _embedding_bag_dense_backward_cpu_max. ATen 1.13's
// CPU sum/mean backward reads counts[indices[i]] with i the rank of the distinct index, not the
// entry's own index: indices [1, 1, 2, 1, 3, 3, 4] in bags [0, 2, 5) of ones(5, 2) give rows 2
// and 3 the gradients 1/3 and 2/3 there (libtorch 1.13.1, run outside touchstone) for the 1 and 1
// of the documented "inverse of frequency of the words in the mini-batch", which touchstone
// computes (test_pad's EmbeddingBag.ScaleGradByFreq).
struct Bags {
  Tensor idx, bag, mask;  // int64 (N), int64 (N), floating (N)
};

Bags bags_of(const BackwardArgs& a, ScalarType dtype) {
  const EmbeddingBagParams& p = a.p.get<EmbeddingBagParams>();
  const Tensor idx = a.input(1).to(kLong);
  const Tensor& offs = a.input(2);
  const int64_t n = idx.size(0), bags = offs.size(0) - 1;
  const Tensor starts = offs.narrow(0, 0, bags);
  const TensorOptions longs = TensorOptions(kLong).device(idx.device());
  Tensor bag =
      zeros({n + 1}, longs).scatter_add(0, starts, ones({bags}, longs)).cumsum(0).narrow(0, 0, n) -
      1;
  Tensor in_bags = lt(arange(0, n, 1, longs), offs.narrow(0, bags, 1));
  Tensor mask = p.padding_idx >= 0 ? logical_and(in_bags, ne(idx, p.padding_idx)) : in_bags;
  bag = where(in_bags, bag, zeros_like(bag));
  return {idx, bag, mask.to(dtype)};
}

Grads embedding_bag_backward(const BackwardArgs& a) {
  const EmbeddingBagParams& p = a.p.get<EmbeddingBagParams>();
  const Tensor& g = a.grad();
  const IntArrayRef wsize = a.input_sizes(0);
  const int64_t rows = wsize[0], dim = wsize[1];
  Tensor gw, gpsw;
  if (p.mode == 2) {
    if (a.needs_grad(0)) {
      const Tensor mi = a.output(1);
      const Tensor valid = ge(mi, 0);
      const Tensor col = arange(0, dim, 1, TensorOptions(kLong).device(g.device())).unsqueeze(0);
      const Tensor flat = add(mul(where(valid, mi, zeros_like(mi)), dim), col).reshape({-1});
      const Tensor src = mul(g, valid.to(g.dtype())).reshape({-1});
      gw = zeros({rows * dim}, g.options()).scatter_add(0, flat, src).reshape({rows, dim});
    }
    return {gw, Tensor(), Tensor(), Tensor()};
  }
  const Bags b = bags_of(a, g.dtype());
  const int64_t n = b.idx.size(0);
  const Tensor rows_g = g.index_select(0, b.bag);  // (N, D)
  if (a.needs_grad(0)) {
    Tensor w = b.mask;
    if (p.mode == 1) {
      const int64_t bags = g.size(0);
      const Tensor count = zeros({bags}, g.options()).scatter_add(0, b.bag, b.mask);
      const Tensor safe = where(gt(count, 0), count, ones_like(count));
      w = div(b.mask, safe.index_select(0, b.bag));
    } else if (a.input(3).defined()) {
      w = mul(w, a.input(3));
    }
    if (p.scale_grad_by_freq) {
      const Tensor count = zeros({rows}, g.options()).scatter_add(0, b.idx, ones({n}, g.options()));
      w = div(w, count.index_select(0, b.idx));
    }
    const Tensor index = b.idx.unsqueeze(1).expand({n, dim}).contiguous();
    gw = zeros({rows, dim}, g.options()).scatter_add(0, index, mul(rows_g, w.unsqueeze(1)));
  }
  if (a.input(3).defined() && a.needs_grad(3)) {
    const Tensor wrows = a.input(0).index_select(0, b.idx);
    gpsw = mul(mul(rows_g, wrows).sum({1}), b.mask);
  }
  return {gw, Tensor(), Tensor(), gpsw};
}

}  // namespace

TS_REGISTER_DERIVATIVES(embedding_bag) {
  // embedding_bag.padding_idx(Tensor weight, Tensor indices, Tensor? offsets, ...,
  //                           Tensor? per_sample_weights, ...) -> Tensor
  //   weight: _embedding_bag_backward (Note [embedding_bag gradients])
  //   per_sample_weights: _embedding_bag_per_sample_weights_backward
  m.def(OpId::embedding_bag, save_inputs({0, 1, 2, 3}) | save_output(1), embedding_bag_backward,
        "EmbeddingBagBackward0");
}

}  // namespace ts::autograd
