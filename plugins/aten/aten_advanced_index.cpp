// aten kernels for advanced indexing (issue 16; lib/src/ops/advanced_index.cpp): index,
// index_put, index_add, scatter, scatter_reduce, masked_select, nonzero, take, put, index_copy,
// index_fill, masked_scatter. Index values were
// checked by meta; masks arrive as int64 indices; ScatterParams::dim is the wrapped dim.
#include <ATen/core/List.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/index.h>
#include <ATen/ops/index_add.h>
#include <ATen/ops/index_copy.h>
#include <ATen/ops/index_fill.h>
#include <ATen/ops/index_put.h>
#include <ATen/ops/masked_scatter.h>
#include <ATen/ops/masked_select.h>
#include <ATen/ops/nonzero.h>
#include <ATen/ops/put.h>
#include <ATen/ops/scatter.h>
#include <ATen/ops/scatter_reduce.h>
#include <ATen/ops/take.h>
#include <c10/core/Scalar.h>

#include "aten_wrap.h"
#include "touchstone/kernel_family.h"

namespace ts::aten {
namespace {

// Inputs from `first` on as ATen's list of optional indices (undefined: None).
c10::List<c10::optional<at::Tensor>> index_list(const KernelCall& c, size_t first) {
  c10::List<c10::optional<at::Tensor>> l;
  for (size_t i = first; i < c.inputs.size(); ++i) {
    l.push_back(c.inputs[i].defined() ? c10::optional<at::Tensor>(wrap(c.inputs[i]))
                                      : c10::nullopt);
  }
  return l;
}

const char* scatter_reduce_name(ScatterReduce r) {
  switch (r) {
    case ScatterReduce::Sum:
      return "sum";
    case ScatterReduce::Prod:
      return "prod";
    case ScatterReduce::Mean:
      return "mean";
    case ScatterReduce::Amax:
      return "amax";
    case ScatterReduce::Amin:
      return "amin";
    case ScatterReduce::None:
      break;
  }
  return "";
}

// One branch per AdvancedIndex op (Note [Kernel families]); in place the output is self.
template <OpId op>
void advanced_index_kernel(const KernelCall& c) {
  const bool inplace = c.kind == CallKind::InPlace;
  const ScalarType out_dtype = op == OpId::nonzero ? kLong : c.p.compute_dtype;
  write(c, out_dtype, [&](at::Tensor& out) {
    const at::Tensor self = wrap(c.inputs[0]);
    if constexpr (op == OpId::index) {
      at::index_out(out, self, index_list(c, 1));
    } else if constexpr (op == OpId::index_put) {
      if (!inplace) out.copy_(self);
      out.index_put_(index_list(c, 2), wrap(c.inputs[1]), c.params<IndexPutParams>().accumulate);
    } else if constexpr (op == OpId::index_add) {
      const ScatterParams& sp = c.params<ScatterParams>();
      const at::Tensor index = wrap(c.inputs[1]), source = wrap(c.inputs[2]);
      if (inplace) {
        out.index_add_(sp.dim, index, source, to_aten(sp.alpha));
      } else {
        at::index_add_out(out, self, sp.dim, index, source, to_aten(sp.alpha));
      }
    } else if constexpr (op == OpId::scatter) {
      const ScatterParams& sp = c.params<ScatterParams>();
      const at::Tensor index = wrap(c.inputs[1]);
      const char* reduce = sp.reduce == ScatterReduce::Sum ? "add" : "multiply";
      if (!inplace) out.copy_(self);
      if (sp.value && sp.reduce == ScatterReduce::None) {
        out.scatter_(sp.dim, index, to_aten(*sp.value));
      } else if (sp.value) {
        out.scatter_(sp.dim, index, to_aten(*sp.value), reduce);
      } else if (sp.reduce == ScatterReduce::None) {
        out.scatter_(sp.dim, index, wrap(c.inputs[2]));
      } else {
        out.scatter_(sp.dim, index, wrap(c.inputs[2]), reduce);
      }
    } else if constexpr (op == OpId::scatter_reduce) {
      const ScatterParams& sp = c.params<ScatterParams>();
      if (!inplace) out.copy_(self);
      out.scatter_reduce_(sp.dim, wrap(c.inputs[1]), wrap(c.inputs[2]),
                          scatter_reduce_name(sp.reduce), sp.include_self);
    } else if constexpr (op == OpId::masked_select) {
      at::masked_select_out(out, self, wrap(c.inputs[1]));
    } else if constexpr (op == OpId::nonzero) {
      at::nonzero_out(out, self);
    } else if constexpr (op == OpId::take) {
      at::take_out(out, self, wrap(c.inputs[1]));
    } else if constexpr (op == OpId::put) {
      if (!inplace) out.copy_(self);
      out.put_(wrap(c.inputs[1]), wrap(c.inputs[2]), c.params<IndexPutParams>().accumulate);
    } else if constexpr (op == OpId::index_copy) {
      if (!inplace) out.copy_(self);
      out.index_copy_(c.params<ScatterParams>().dim, wrap(c.inputs[1]), wrap(c.inputs[2]));
    } else if constexpr (op == OpId::index_fill) {
      const ScatterParams& sp = c.params<ScatterParams>();
      if (!inplace) out.copy_(self);
      if (c.inputs.size() == 3) {
        out.index_fill_(sp.dim, wrap(c.inputs[1]), wrap(c.inputs[2]));
      } else {
        out.index_fill_(sp.dim, wrap(c.inputs[1]), to_aten(*sp.value));
      }
    } else if constexpr (op == OpId::masked_scatter) {
      // Not out.copy_(self) then out.masked_scatter_: ATen takes source's elements in its
      // iteration order of out, which is not row-major for a transposed out= tensor.
      if (inplace) {
        out.masked_scatter_(wrap(c.inputs[1]), wrap(c.inputs[2]));
      } else {
        out.copy_(at::masked_scatter(self, wrap(c.inputs[1]), wrap(c.inputs[2])));
      }
    } else {
      static_assert(kMissingKernel<op>, "aten advanced index: an op without its branch");
    }
  });
}

}  // namespace

void register_advanced_index(KernelRegistrar& m) {
  for_each_kernel_op<OpSignature::AdvancedIndex>(
      [&](auto op) { m.impl(op, kCPU, guarded<advanced_index_kernel<op>>); });
}

}  // namespace ts::aten
