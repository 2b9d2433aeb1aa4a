// View ops: new geometry over the same storage. Every view goes through make_view.
#include "touchstone/ops.h"

namespace ts {

Tensor Tensor::expand(IntArrayRef size) const {
  TS_CHECK(static_cast<int64_t>(size.size()) >= dim(), "expand: the number of sizes provided (",
           size.size(), ") must be greater or equal to the number of dimensions in the tensor (",
           dim(), ")");
  const int64_t n = static_cast<int64_t>(size.size());
  const int64_t off = n - dim();
  DimVector new_sizes(size.size()), new_strides(size.size());
  for (int64_t d = n - 1; d >= 0; --d) {
    const int64_t td = d - off;
    const int64_t cur = td >= 0 ? sizes()[td] : 1;
    const int64_t cur_stride = td >= 0 ? strides()[td] : 0;
    int64_t target = size[d];
    if (target == -1) {
      TS_CHECK(td >= 0, "expand: The expanded size of the tensor (-1) isn't allowed in a leading, "
                        "non-existing dimension ", d);
      target = cur;
    }
    if (cur == target) {
      new_sizes[d] = cur;
      new_strides[d] = cur_stride;
    } else {
      TS_CHECK(cur == 1, "expand: The expanded size of the tensor (", target,
               ") must match the existing size (", cur, ") at non-singleton dimension ", d,
               ".  Target sizes: ", size, ".  Tensor sizes: ", sizes(), "");
      new_sizes[d] = target;
      new_strides[d] = 0;
    }
  }
  return make_view(*this, new_sizes, new_strides, storage_offset());
}

}  // namespace ts
