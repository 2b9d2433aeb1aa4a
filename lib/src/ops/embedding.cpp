// Embedding ops (issue 16): meta for embedding (a kernel), the composite one_hot, and
// embedding's derivative (at the end).
// Params (touchstone/op_params.h):
//   embedding: inputs {weight, indices}; output indices.sizes() + [embedding_dim] in weight's
//     dtype (compute_dtype); EmbeddingParams: padding_idx in [0, num_embeddings), or -1 for
//     none, scale_grad_by_freq. The meta has checked every index is in range (Note [Index
//     bounds]), so kernel sets may assume valid indices (as nll_loss's targets).
#include "../autograd/derivatives.h"
#include "index_checks.h"
#include "meta.h"
#include "touchstone/ops.h"

namespace ts {

// ---- embedding ----

Tensor embedding(const Tensor& weight, const Tensor& indices, int64_t padding_idx,
                 bool scale_grad_by_freq, bool sparse) {
  const char* op = "embedding";
  const UserOpScope scope(op);
  meta::check_defined(op, weight, "weight");
  meta::check_defined(op, indices, "indices");
  TS_CHECK(weight.dim() == 2, op, ": 'weight' must be 2-D, but got weight of shape ",
           weight.sizes());
  TS_CHECK(indices.dtype() == kLong || indices.dtype() == kInt, op,
           ": Expected tensor for argument #1 'indices' to have one of the following scalar "
           "types: Long, Int; but got ",
           indices.dtype(), " instead (argument 'indices')");
  // No sparse tensors here: a sparse gradient would be a silent dense one.
  TS_CHECK(!sparse, op,
           ": sparse=True (a sparse gradient for weight) is not supported: touchstone has no "
           "sparse tensors (argument 'sparse')");
  const int64_t num = weight.size(0);
  // ATen's op: a negative padding_idx is none (torch.nn.functional.embedding wraps negative
  // values before calling it); one past the rows is refused, as F's assertion.
  TS_CHECK(padding_idx < num, op, ": Padding_idx must be within num_embeddings (argument ",
           "'padding_idx', got ", padding_idx, " for ", num, " embeddings)");
  const int64_t pad = padding_idx < 0 ? -1 : padding_idx;
  meta::check_dtype_supported(op, weight.dtype(), op_info(OpId::embedding).dtypes, "weight");
  const Tensor inputs[] = {weight, indices};
  const Device device = meta::common_device(op, inputs, OpId::embedding);
  meta::check_index_values(indices, [&](int64_t i) {
    TS_CHECK(i >= 0 && i < num, op, ": index ", i, " is out of range in self (num_embeddings ", num,
             ") (argument 'indices')");
  });

  OpParams p;
  p.compute_dtype = weight.dtype();
  p.set(EmbeddingParams{pad, scale_grad_by_freq});
  DimVector shape(indices.sizes());
  shape.push_back(weight.size(1));
  const KernelFn fn = lookup_kernel(OpId::embedding, p.compute_dtype, device);
  Tensor result = empty(shape, TensorOptions(p.compute_dtype).device(device));
  run_kernel(fn, KernelCall{OpId::embedding, result, inputs, p});
  return result;
}

// ---- one_hot (composite) ----

// As ATen's composite: eq(self.unsqueeze(-1), arange(num_classes)) as int64; num_classes -1
// takes max(self) + 1 (an empty self then needs an explicit num_classes).
Tensor one_hot(const Tensor& self, int64_t num_classes) {
  const char* op = "one_hot";
  const UserOpScope scope(op);
  meta::check_defined(op, self, "self");
  TS_CHECK(self.dtype() == kLong, op,
           ": one_hot is only applicable to index tensor of type int64, but got ", self.dtype(),
           " (argument 'self')");
  TS_CHECK(num_classes >= -1, op, ": num_classes should be -1 or positive, but got ", num_classes);
  if (self.numel() == 0) {
    TS_CHECK(num_classes != -1, op, ": Can not infer total number of classes from empty tensor.");
  } else {
    TS_CHECK(self.amin().item().to<int64_t>() >= 0, op, ": Class values must be non-negative.");
    const int64_t max = self.amax().item().to<int64_t>();
    if (num_classes == -1) {
      num_classes = max + 1;
    } else {
      TS_CHECK(max < num_classes, op, ": Class values must be smaller than num_classes.");
    }
  }
  const Tensor classes = arange(num_classes, TensorOptions(kLong).device(self.device()));
  return eq(self.unsqueeze(-1), classes).to(kLong);
}

}  // namespace ts

// ---- derivatives (Note [Adding a derivative] in lib/src/autograd/derivatives.h) ----
namespace ts::autograd {

TS_REGISTER_DERIVATIVES(embedding) {
  // embedding(Tensor weight, Tensor indices, int padding_idx=-1, bool scale_grad_by_freq=False,
  //           bool sparse=False) -> Tensor
  //   weight: embedding_dense_backward: grad's rows summed into the rows indices name, none into
  //           padding_idx's, each divided by its index's count when scale_grad_by_freq
  //   indices: non-differentiable
  m.def(OpId::embedding, save_inputs({1}), [](const BackwardArgs& a) -> Grads {
    if (!a.needs_grad(0)) return {Tensor(), Tensor()};
    const EmbeddingParams& params = a.p.get<EmbeddingParams>();
    const IntArrayRef wsize = a.input_sizes(0);
    const int64_t dim = wsize[1];
    const Tensor idx = a.input(1).reshape({-1}).to(kLong);
    Tensor g = a.grad().reshape({idx.numel(), dim});
    if (params.padding_idx >= 0) g = g.masked_fill(eq(idx, params.padding_idx).unsqueeze(1), 0);
    if (params.scale_grad_by_freq) {
      const Tensor counts =
          zeros({wsize[0]}, g.options()).scatter_add(0, idx, ones({idx.numel()}, g.options()));
      g = g / counts.index_select(0, idx).unsqueeze(1);
    }
    const Tensor rows = idx.unsqueeze(1).expand({idx.numel(), dim});
    return {zeros(wsize, g.options()).scatter_add(0, rows, g), Tensor()};
  });
}

}  // namespace ts::autograd
