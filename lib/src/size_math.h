#pragma once
// Checked size arithmetic for tensor geometry: every product or sum of sizes, strides, offsets
// and byte counts goes through these, so an overflow is an error and never a small allocation.
#include <cstdint>
#include <optional>

#include "touchstone/array_ref.h"

namespace ts::detail {

// Note [Checked geometry]
// ATen refuses `empty({1LL << 62})` with "Storage size calculation overflowed": the byte count
// (numel * itemsize) wraps, a tiny storage is allocated and the first write runs off its end.
// The same wrap hides in numel of a product of sizes ({2^32, 2^32} has numel 0 in int64), in the
// contiguous strides, and in the highest offset a strided geometry reaches. Each helper returns
// nullopt on overflow and the caller throws a ts::Error naming the op and its arguments.

inline std::optional<int64_t> checked_mul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

inline std::optional<int64_t> checked_add(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}

// The product of `sizes` (1 for none; 0 as soon as one size is 0, whatever the others).
std::optional<int64_t> checked_numel(IntArrayRef sizes);

// Bytes from the start of storage to the end of the last element the geometry reaches:
// (offset + sum_d (size_d - 1) * stride_d + 1) * itemsize; 0 for an empty geometry.
std::optional<int64_t> checked_geometry_nbytes(IntArrayRef sizes, IntArrayRef strides,
                                               int64_t offset, int64_t itemsize);

}  // namespace ts::detail
