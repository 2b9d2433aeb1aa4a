#pragma once
// Compares a candidate kernel set's output with the reference set's, element by element.
#include <cstdint>
#include <string>

#include "touchstone/tensor.h"

namespace ts::conformance {

struct Tolerance {
  double rtol = 0;
  double atol = 0;
};
// torch.testing.assert_close's defaults; integers and bool exact.
Tolerance default_tolerance(ScalarType dtype);

// Note [Reduction tolerance]
// A float sum of n terms of random sign has a rounding error that grows like sqrt(n) ulps of the
// terms (the worst case grows like n): reductions multiply rtol and atol by sqrt(n), n being the
// number of summands per output element.
Tolerance scaled_for_summands(Tolerance t, int64_t summands);

struct Comparison {
  bool ok = true;
  std::string message;  // the first mismatch, when !ok
  int64_t mismatches = 0;
  double max_abs_err = 0;
  double max_rel_err = 0;  // over elements whose reference value is nonzero
  double max_ulp = 0;      // 0 for integer and bool dtypes
  bool mistrusted = false;
};

// Shape, dtype, then values: |c - r| <= atol + rtol * |r|, NaN where the reference has NaN and
// only there, infinities equal. Every read goes through the reference set.
Comparison compare(const Tensor& candidate, const Tensor& reference, Tolerance tol);

// The distance from `a` to `r` in units in the last place of `r` in `dtype` (a float dtype).
double ulp_distance(double a, double r, ScalarType dtype);

// Whether a reference output proves little: empty, all zeros, all NaN, or constant.
bool is_mistrusted(const Tensor& reference);

}  // namespace ts::conformance
