#pragma once
// Index checks shared by lib/src/ops/index.cpp and advanced_index.cpp (meta only).
#include <utility>

#include "meta.h"
#include "touchstone/ops.h"

namespace ts::meta {

// Note [Index bounds]
// An out-of-range index is an argument error like any other, so meta reads the index values
// and rejects them before anything is allocated or written: a failing call leaves every
// tensor untouched, and kernels never bounds-check. Every check is an interval, so only the
// index's min and max are checked on the fast path: on a device they are reduced there
// (amin/amax; a device-side error flag could not keep the tensors untouched), on the CPU by
// cpu_index_extremes, one parallel pass. When either fails, the values are walked in order
// so the error names the first bad one, as ATen's kernels do.

// The smallest and largest value of a nonempty int32 or int64 CPU tensor.
std::pair<int64_t, int64_t> cpu_index_extremes(const Tensor& index);

// Calls f(value) for every value of an int32/int64 CPU tensor in row-major order.
template <typename F>
void walk_index_values(const Tensor& index, F&& f) {
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

// Runs the interval check f (it throws ts::Error on a bad value) over every value of index.
template <typename F>
void check_index_values(const Tensor& index, F&& f) {
  if (index.numel() == 0) return;
  if (!index.is_cpu()) {
    for (const Tensor& extreme : {amin(index), amax(index)}) walk_index_values(on_host(extreme), f);
    return;
  }
  const auto [lo, hi] = cpu_index_extremes(index);
  try {
    f(lo);
    f(hi);
  } catch (const Error&) {
    walk_index_values(index, f);  // throws at the first bad value in order
    throw;
  }
}

// ATen's assert_no_overlap: the written-to tensor may not share any memory with the input.
void check_no_overlap(const char* op, const Tensor& out, const Tensor& in, const char* out_arg,
                      const char* in_arg);

}  // namespace ts::meta
