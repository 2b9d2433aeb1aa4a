#pragma once
// Index checks shared by lib/src/ops/index.cpp and advanced_index.cpp (meta only).
#include "touchstone/ops.h"

namespace ts::meta {

// Note [Index bounds]
// An out-of-range index is an argument error like any other, so meta reads the index values
// and rejects them before anything is allocated or written: a failing call leaves every
// tensor untouched, and kernels never bounds-check. Every check is an interval, so an index on
// a device is reduced there to its min and max (amin/amax), and only those two values cross to
// the host (a device-side error flag could not keep the tensors untouched).
template <typename F>
void for_each_index_value(const char* op, const Tensor& index, F&& f) {
  if (!index.is_cpu()) {
    if (index.numel() == 0) return;
    for (const Tensor& extreme : {amin(index), amax(index)}) {
      const Tensor host = empty({}, index.dtype());
      host.copy_(extreme);
      for_each_index_value(op, host, f);
    }
    return;
  }
  DimVector idx(static_cast<size_t>(index.dim()), 0);
  for (int64_t s : index.sizes()) {
    if (s == 0) return;
  }
  const char* base = static_cast<const char*>(index.data_ptr());
  const int64_t esize = static_cast<int64_t>(index.element_size());
  while (true) {
    int64_t off = 0;
    for (int64_t d = 0; d < index.dim(); ++d) off += idx[d] * index.strides()[d];
    const char* p = base + off * esize;
    f(index.dtype() == kLong ? *reinterpret_cast<const int64_t*>(p)
                             : static_cast<int64_t>(*reinterpret_cast<const int32_t*>(p)));
    int64_t d = index.dim() - 1;
    for (; d >= 0; --d) {
      if (++idx[d] < index.sizes()[d]) break;
      idx[d] = 0;
    }
    if (d < 0) return;
  }
}

// ATen's assert_no_overlap: the written-to tensor may not share any memory with the input.
void check_no_overlap(const char* op, const Tensor& out, const Tensor& in, const char* out_arg,
                      const char* in_arg);

}  // namespace ts::meta
