#pragma once
// The value comparison of the differential fuzzer: a candidate tensor against the oracle's, read
// through strides with memcpy (no kernel runs), with tolerances per dtype and per statement.
#include <optional>
#include <string>

#include "fuzz/program.h"

namespace ts::fuzz {

// Note [Fuzz tolerances]
// Each statement runs on identical inputs in both sets (the runner copies the oracle's bytes
// into the candidate's storages after every statement), so errors never compound across
// statements: a tolerance covers one op.
// - Integers and bool: exact. Floating: torch.testing.assert_close's rtol/atol for the dtype;
//   NaN where the oracle has NaN and only there; infinities equal.
// - An in-place or out= result is compared with the tolerance of the dtype it was computed in
//   (the inputs' promoted dtype, or dtype=) when that is narrower than the written tensor's
//   (float32 results in a float64 out=, softmax_out(dtype=float16) into float64).
// - Ops that sum many terms (kAccumulates) round in a different order in each set: with n the
//   largest input's numel and T the magnitude of one term (the product of the inputs' largest
//   magnitudes, at least 1 each, integers included since sum(dtype=float32) converts them,
//   times the Scalar arguments' (addmm's alpha);
//   squared for var, std, mse_loss and layer_norm), an
//   element may differ by sqrt(n) * (atol + rtol * T). std takes the square root of var's
//   tolerance (sqrt(x) near 0 magnifies an error of x), layer_norm multiplies by
//   1/sqrt(eps) (constant rows divide rounding noise by sqrt(eps)); with eps below 1e-5 a
//   constant row is noise over noise: NaN (0 / 0) or any standardized value (|x| <= sqrt(n)).
// - An input within 1/16 of its dtype's largest value: an element that is not finite in one set
//   is accepted. a + w * b overflows in two roundings and not in one (the optimized set's FMA,
//   as ATen's lerp and add with alpha); the reference computes float32 in double, which does
//   not overflow at all (Note [lerp overflow] in catalog/ternary.cpp).
// - When such an op may overflow (an input holds an infinity or NaN, or T * n is within 1/64 of
//   the dtype's largest value), an element that is not finite in one set is accepted: the order
//   of the terms decides whether an intermediate overflows (inf - inf = NaN, or a finite sum).
//   For prod and cumprod the bound is the largest magnitude to the power n.
// - Elementwise ops whose terms may cancel (a + alpha * b, lerp, addcmul): a binary op may
//   differ by rtol times the sum of its inputs' magnitudes, a ternary one by rtol times that
//   sum plus their product, each times the scalar factors.
// - Gradients go through whole backward graphs, each op rounding to the dtype, with
//   cancellation (layer_norm's): rtol is the larger of 16x the forward one and sqrt(eps) of the
//   dtype, and atol adds rtol times the largest magnitude of the oracle's gradient (norm-wise),
//   times largest / 4 when the program holds values larger than 4 in magnitude (layer_norm's
//   gradient with a weight of 1e4 cancels terms of 1e4 down to 0.3). A layer_norm over rows
//   of n elements scales its input's gradient by up to sqrt(n / eps) (constant rows): atol
//   adds rtol times the largest such factor in the program, times max(1, largest); with eps
//   below 1e-5 a non-finite gradient element in one set is accepted (0 / 0 on constant rows).
//   When the program holds extreme values (NaN, infinities, within 1/16 of the largest value,
//   subnormals), a non-finite gradient element in one set is accepted: prod's gradient divides
//   by a subnormal and overflows, or not, depending on the order of its products.
struct Tolerance {
  double rtol = 0;
  double atol = 0;
  bool nonfinite_ok = false;  // a non-finite element in either set is accepted
};

Tolerance dtype_tolerance(ScalarType dtype);

// The tolerance for the results of `stmt` (Note [Fuzz tolerances]); `args` are its tensor
// arguments in the oracle set (written ones first).
Tolerance statement_tolerance(const Stmt& stmt, const std::vector<Tensor>& args,
                              ScalarType result_dtype);

// Compares values only (same sizes and dtype assumed); returns the first mismatch, described.
std::optional<std::string> compare_values(const Tensor& candidate, const Tensor& oracle,
                                          const Tolerance& tol);

// Whether a floating tensor holds NaN, an infinity, a value within 1/16 of its dtype's largest,
// or a subnormal (Note [Fuzz tolerances]).
bool has_extreme_values(const Tensor& t);

// How much a program's statements can scale a gradient while its terms cancel: the largest
// layer_norm factor sqrt(n / eps) (0 without layer_norm), and whether an eps below 1e-5 can
// make a gradient 0 / 0.
struct GradientGain {
  double factor = 0;
  bool tiny_eps = false;
};
GradientGain gradient_gain(const Program& program);

// The tolerance of a gradient (Note [Fuzz tolerances]); `largest`: the largest finite magnitude
// in the program's tensors.
Tolerance gradient_tolerance(const Tensor& oracle_grad, bool extreme_program, double largest,
                             const GradientGain& gain);

// Largest finite |x| over a tensor's elements (0 for an empty one), and whether it has a NaN or
// an infinity.
struct Magnitude {
  double max_abs = 0;
  bool nonfinite = false;
};
Magnitude magnitude(const Tensor& t);

}  // namespace ts::fuzz
