// Reference kernel for embedding_bag (issue 16): each bag's sum, mean or maximum of weight's rows,
// in double. See Note [Reference kernels] in common.h and the params at the top of
// lib/src/ops/embedding_bag.cpp.
#include <vector>

#include "common.h"
#include "touchstone/kernel_family.h"

namespace ts::reference {
namespace {

// Bag b holds the entries j in [offsets[b], offsets[b + 1]) whose index is not padding_idx.
//   sum:  out[b, d] = sum over j of w_j * weight[indices[j], d], w_j = per_sample_weights[j] or 1
//   mean: the sum (w_j = 1) divided by the number of entries; an empty bag gives 0
//   max:  out[b, d] = the first entry's weight[indices[j], d], replaced by a later one only when
//         greater (ATen's `is_first || w > current`: a later NaN never wins), max_indices[b, d]
//         its row; an empty bag gives 0 and -1
void embedding_bag_kernel(const KernelCall& c) {
  const Tensor& w = c.inputs[0];
  const Tensor& indices = c.inputs[1];
  const Tensor& offsets = c.inputs[2];
  const Tensor& psw = c.inputs[3];
  const Tensor& out = c.outputs[0];
  const EmbeddingBagParams& p = c.params<EmbeddingBagParams>();
  const ScalarType ct = c.p.compute_dtype;
  const int64_t bags = out.size(0), dim = out.size(1);
  for (int64_t b = 0; b < bags; ++b) {
    const int64_t start = load_int64(element_ptr(offsets, {b}), offsets.dtype());
    const int64_t end = load_int64(element_ptr(offsets, {b + 1}), offsets.dtype());
    std::vector<double> acc(static_cast<size_t>(dim), 0.0);
    std::vector<int64_t> arg(static_cast<size_t>(dim), -1);
    int64_t count = 0;
    for (int64_t j = start; j < end; ++j) {
      const int64_t row = load_int64(element_ptr(indices, {j}), indices.dtype());
      if (row == p.padding_idx) continue;
      const double scale =
          psw.defined() ? load_as_double(element_ptr(psw, {j}), psw.dtype(), ct) : 1.0;
      for (int64_t d = 0; d < dim; ++d) {
        const double v = load_as_double(element_ptr(w, {row, d}), w.dtype(), ct);
        const auto u = static_cast<size_t>(d);
        if (p.mode == 2) {
          if (count == 0 || v > acc[u]) {
            acc[u] = v;
            arg[u] = row;
          }
        } else {
          acc[u] += scale * v;
        }
      }
      ++count;
    }
    for (int64_t d = 0; d < dim; ++d) {
      const auto u = static_cast<size_t>(d);
      const double r = p.mode == 1 && count > 0 ? acc[u] / static_cast<double>(count) : acc[u];
      store_double(element_ptr(out, {b, d}), out.dtype(), round_to(ct, r));
      if (p.mode == 2) store_int64(element_ptr(c.outputs[1], {b, d}), kLong, arg[u]);
    }
  }
}

template <OpId op>
void kernel(const KernelCall& c) {
  if constexpr (op == OpId::embedding_bag) {
    embedding_bag_kernel(c);
  } else {
    static_assert(kMissingKernel<op>, "an embedding_bag op without its reference kernel");
  }
}

}  // namespace

TS_REGISTER_KERNELS(reference, embedding_bag) {
  for_each_kernel_op<OpSignature::EmbeddingBag>([&](auto op) { m.impl(op, kCPU, kernel<op>); });
}

}  // namespace ts::reference
