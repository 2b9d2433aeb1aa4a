#pragma once
// Compares a candidate kernel set's output with the reference set's, element by element.
#include <cstdint>
#include <string>
#include <vector>

#include "touchstone/tensor.h"

namespace ts::conformance {

// Note [Tolerance model]
// An element passes when |c - r| <= atol + rtol * |r| + ulp * ulp(r) + scale_k * scale[i]:
// - elementwise ops (catalog/budgets.cpp) set only `ulp`, in ULPs of the reference's value,
//   which is correctly rounded (Note [The reference is correctly rounded] in compare.cpp);
// - sums set `scale_k` over a per-element scale u * sum|x| (Note [Summation bound]);
// - other ops keep assert_close's rtol and atol (scaled_for_summands for accumulating ones).
// A second, tighter Bound, the budget, is what a good kernel achieves: an element beyond it but
// within the tolerance makes the case a `warning` (it passes).
struct Bound {
  double rtol = 0;
  double atol = 0;
  double ulp = 0;
  double scale_k = 0;
};
struct Tolerance {
  Tolerance() = default;
  Tolerance(double r, double a) : rtol(r), atol(a) {}  // assert_close's kind
  double rtol = 0;  // the failure bound's terms (a Bound's, kept flat for the old callers)
  double atol = 0;
  double ulp = 0;
  double scale_k = 0;
  // The budget; none: no warning class (the tolerance is the budget).
  bool has_budget = false;
  Bound budget;
  // Zeros must have the reference's sign (-0 vs +0), where ATen defines it (elementwise ops).
  bool signed_zeros = false;
  // Per output element, row-major (Note [Summation bound]); empty: none.
  std::vector<double> scale;
  Bound bound() const { return {rtol, atol, ulp, scale_k}; }
};
// torch.testing.assert_close's defaults; integers and bool exact.
Tolerance default_tolerance(ScalarType dtype);

// Note [Reduction tolerance]
// A float sum of n terms of random sign has a rounding error that grows like sqrt(n) ulps of the
// terms (the worst case grows like n): the ops without a sharper bound (products, norms,
// softmax, matrix products) multiply rtol and atol by sqrt(n), n being the summands per output.
Tolerance scaled_for_summands(Tolerance t, int64_t summands);

struct Comparison {
  bool ok = true;
  std::string message;  // the first mismatch, when !ok; the first element over budget, when warning
  int64_t mismatches = 0;
  double max_abs_err = 0;
  double max_rel_err = 0;  // over elements whose reference value is nonzero
  double max_ulp = 0;      // 0 for integer and bool dtypes
  bool mistrusted = false;
  bool warning = false;  // within the tolerance, but some element is beyond the budget
};

// Shape, dtype, then values within `tol` (Note [Tolerance model]), NaN where the reference has
// NaN and only there, infinities equal, zeros' signs equal when tol.signed_zeros. Every read
// goes through the reference set.
Comparison compare(const Tensor& candidate, const Tensor& reference, const Tolerance& tol);

// The distance from `a` to `r` in units in the last place of `r` in `dtype` (a float dtype).
double ulp_distance(double a, double r, ScalarType dtype);
// The unit in the last place of `r` in `dtype` (subnormals: the least subnormal).
double ulp_of(double r, ScalarType dtype);
// The unit roundoff of `dtype`'s significand (2^-24 for float32).
double unit_roundoff(ScalarType dtype);

// Whether a reference output proves little: empty, all zeros, all NaN, or constant.
bool is_mistrusted(const Tensor& reference);
// Whether every element of `t` equals the first (NaN equal to NaN); true when numel <= 1.
bool is_constant(const Tensor& t);

}  // namespace ts::conformance
