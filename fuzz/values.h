#pragma once
// Element access that runs no kernel (memcpy through strides), so neither kernel set is trusted
// for reading results or writing inputs; and the fuzzer's own input values.
#include <cstdint>
#include <string_view>

#include "touchstone/touchstone.h"

namespace ts::fuzz {

// Element `i` of `t` in row-major order (i < t.numel()), as a double or an int64.
double load_double(const Tensor& t, int64_t i);
int64_t load_long(const Tensor& t, int64_t i);
// The byte address of element `i` in row-major order.
char* element_address(const Tensor& t, int64_t i);

// Writes every element of `t` from Philox(seed): `fill` is "normal" (floats in about [-4, 4],
// small integers), "edge" (normal values mixed with NaN, infinities, signed zeros, denormals,
// the dtype's limits), "pos" (positive values), or "small" (0, 1 and 2). Throws ts::Error on
// another fill.
void fill_input(const Tensor& t, uint64_t seed, std::string_view fill);
// int64 values uniform in [low, high) (low < high).
void fill_index(const Tensor& t, uint64_t seed, int64_t low, int64_t high);

// Whether two distinct elements of `t` share memory (overlapping strides, or stride 0).
bool has_internal_overlap(const Tensor& t);

}  // namespace ts::fuzz
