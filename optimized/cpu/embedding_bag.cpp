// Optimized CPU embedding_bag (issue 16): bags in parallel, each bag's rows added into a float32
// (float64 for float64) accumulator row, contiguous; float16/bfloat16 rounded once at the end.
// Params: the top of lib/src/ops/embedding_bag.cpp; semantics: reference/embedding_bag.cpp.
#include <algorithm>
#include <vector>

#include "touchstone/kernel_family.h"
#include "touchstone/ops.h"
#include "touchstone/parallel.h"

namespace ts::cpu {
namespace {

template <typename C>
void bags_typed(const C* w, const int64_t* idx, const int64_t* offs, const C* psw, C* out,
                int64_t* arg, int64_t bags, int64_t dim, const EmbeddingBagParams& p) {
  const int64_t grain = std::max<int64_t>(1, 16384 / std::max<int64_t>(dim, 1));
  parallel_for(0, bags, grain, [&](int64_t b0, int64_t b1) {
    std::vector<C> acc(static_cast<size_t>(dim));
    for (int64_t b = b0; b < b1; ++b) {
      std::fill(acc.begin(), acc.end(), C(0));
      C* a = acc.data();
      int64_t* ai = p.mode == 2 ? arg + b * dim : nullptr;
      if (ai != nullptr) std::fill(ai, ai + dim, int64_t{-1});
      int64_t count = 0;
      for (int64_t j = offs[b]; j < offs[b + 1]; ++j) {
        const int64_t row = idx[j];
        if (row == p.padding_idx) continue;
        const C* r = w + row * dim;
        if (p.mode == 2) {
          for (int64_t d = 0; d < dim; ++d) {
            if (count == 0 || r[d] > a[d]) {
              a[d] = r[d];
              ai[d] = row;
            }
          }
        } else if (psw != nullptr) {
          const C s = psw[j];
          for (int64_t d = 0; d < dim; ++d) a[d] += s * r[d];
        } else {
          for (int64_t d = 0; d < dim; ++d) a[d] += r[d];
        }
        ++count;
      }
      C* o = out + b * dim;
      if (p.mode == 1 && count > 0) {
        const auto n = static_cast<C>(count);
        for (int64_t d = 0; d < dim; ++d) o[d] = a[d] / n;
      } else {
        std::copy(a, a + dim, o);
      }
    }
  });
}

void embedding_bag_kernel(const KernelCall& c) {
  const Tensor& out = c.outputs[0];
  if (out.numel() == 0) return;
  const EmbeddingBagParams& p = c.params<EmbeddingBagParams>();
  const ScalarType math = c.p.compute_dtype == kDouble ? kDouble : kFloat;
  const auto prepare = [&](const Tensor& t) {
    if (!t.defined()) return t;
    return (t.dtype() == math ? t : t.to(math)).contiguous();
  };
  const Tensor w = prepare(c.inputs[0]), psw = prepare(c.inputs[3]);
  const Tensor idx = c.inputs[1].to(kLong).contiguous();
  const Tensor offs = c.inputs[2].to(kLong).contiguous();
  const bool direct = out.dtype() == math && out.is_contiguous();
  const Tensor y = direct ? out : empty(out.sizes(), TensorOptions(math));
  const Tensor& mi = c.outputs[1];
  const bool mi_direct = p.mode != 2 || mi.is_contiguous();
  const Tensor arg = mi_direct ? mi : empty(mi.sizes(), TensorOptions(kLong));
  int64_t* ap = p.mode == 2 ? arg.data_ptr<int64_t>() : nullptr;
  const int64_t bags = out.size(0), dim = out.size(1);
  if (math == kDouble) {
    bags_typed<double>(w.data_ptr<double>(), idx.data_ptr<int64_t>(), offs.data_ptr<int64_t>(),
                       psw.defined() ? psw.data_ptr<double>() : nullptr, y.data_ptr<double>(), ap,
                       bags, dim, p);
  } else {
    bags_typed<float>(w.data_ptr<float>(), idx.data_ptr<int64_t>(), offs.data_ptr<int64_t>(),
                      psw.defined() ? psw.data_ptr<float>() : nullptr, y.data_ptr<float>(), ap,
                      bags, dim, p);
  }
  if (!direct) out.copy_(y);
  if (!mi_direct) mi.copy_(arg);
}

template <OpId op>
void kernel(const KernelCall& c) {
  if constexpr (op == OpId::embedding_bag) {
    embedding_bag_kernel(c);
  } else {
    static_assert(kMissingKernel<op>, "an embedding_bag op without its optimized kernel");
  }
}

}  // namespace

TS_REGISTER_KERNELS(optimized, embedding_bag) {
  for_each_kernel_op<OpSignature::EmbeddingBag>([&](auto op) { m.impl(op, kCPU, kernel<op>); });
}

}  // namespace ts::cpu
