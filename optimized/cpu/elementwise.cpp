// Target-independent helpers of the optimized CPU kernels; see elementwise.h.
#include "optimized/cpu/elementwise.h"

namespace ts::cpu {

TensorIterator elementwise_iter(const KernelCall& c, bool cast_output) {
  TensorIteratorConfig config;
  config.add_output(c.outputs[0]);
  for (const Tensor& t : c.inputs) config.add_input(t);
  // Meta already checked overlap and dtypes; the inputs arrive expanded to the output's shape.
  return config.check_mem_overlap(false)
      .declare_common_dtype(c.p.compute_dtype)
      .cast_common_dtype_to_outputs(cast_output)
      .build();
}

}  // namespace ts::cpu
