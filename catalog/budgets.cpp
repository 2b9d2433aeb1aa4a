// Per-op ULP budgets of the elementwise ops (Note [ULP budgets]).
#include <map>

#include "catalog/catalog.h"

namespace ts::catalog {
namespace {

// Note [ULP budgets]
// An elementwise op's forward result is judged in ULPs of the correctly rounded value (Note [The
// reference is correctly rounded] in conformance/compare.cpp), per output dtype kind: float32,
// the 16-bit floats, float64. Each cell is {budget, tolerance}: beyond the tolerance a case
// fails; beyond the budget but within it, it passes with a `warning`.
// - Exactly rounded ops (IEEE + - * /, sqrt, casts, neg, abs, floor, comparisons, selects):
//   {0, 0} everywhere. A kernel computing a 16-bit op in float and rounding once is still exact
//   (24 >= 2 * 11 + 2: double rounding is innocuous), so 16-bit kernels owe 0 ULP too.
// - Transcendental ops: budget 1 (faithful rounding); the float32 tolerance is the largest error
//   of a kernel set we ship or peer with, from `touchstone sweep` (conformance/README.md's table,
//   in steps from the correctly rounded value). 16-bit kernels compute in float and round once:
//   {1, 1}. In float64 the reference is libm's double, itself an ULP or two off where the op is
//   a formula of libm calls (sigmoid, silu, tanh, expm1 in the optimized set): {2, 4}.
// - Formulas that cancel (a + alpha * b, lerp, addcmul, gelu's tanh form): ATen's own formula
//   loses the result's low bits where its terms nearly cancel (1 + tanh(y) for y << 0), so the
//   error is ulps of the terms: `abs_u` units of roundoff of the dtype, absolute, for terms of
//   magnitude up to about 4 (the catalog's ranges), besides the ULP budget.
// - Zeros compare with their sign (neg(+0) = -0, relu(-0) = -0, x * -0), except where ATen's own
//   kernels leave it to the argument order (maximum, minimum).
// - An op with no row keeps assert_close's rtol/atol (a new op works before it has a budget);
//   tests/test_catalog.cpp's EveryElementwiseOpHasABudget names each such op.
struct Row {
  UlpBudget f32, f16, f64;
};

constexpr UlpBudget kExact{0, 0};
constexpr Row exact() {
  return {kExact, kExact, kExact};
}
constexpr Row unsigned_zeros(Row r) {
  r.f32.signed_zeros = r.f16.signed_zeros = r.f64.signed_zeros = false;
  return r;
}
// A transcendental op with float32 tolerance `f32_tol` steps.
constexpr Row transcendental(double f32_tol, double abs_u = 0) {
  return {{1, f32_tol, abs_u}, {1, 1, abs_u}, {2, 4, abs_u}};
}
// A formula of IEEE operations that cancels: `ulp` and `abs_u` in every dtype.
constexpr Row cancelling(double ulp, double abs_u) {
  return {{0, ulp, abs_u}, {0, ulp, abs_u}, {0, ulp, abs_u}};
}

const std::map<std::string, Row>& rows() {
  static const std::map<std::string, Row> table = {
      // Exactly rounded: IEEE operations and exact functions.
      {"neg", exact()},
      {"abs", exact()},
      {"sign", exact()},
      {"sqrt", exact()},
      {"reciprocal", exact()},
      {"relu", exact()},
      {"floor", exact()},
      {"ceil", exact()},
      {"round", exact()},
      {"trunc", exact()},
      {"logical_not", exact()},
      {"bitwise_not", exact()},
      {"isnan", exact()},
      {"clamp", exact()},
      {"add", exact()},
      {"sub", exact()},
      {"mul", exact()},
      {"div", exact()},
      {"div.trunc", exact()},
      {"div.floor", exact()},
      // ATen's a > b ? a : b leaves maximum(+0, -0)'s sign to the argument order.
      {"maximum", unsigned_zeros(exact())},
      {"minimum", unsigned_zeros(exact())},
      {"eq", exact()},
      {"ne", exact()},
      {"lt", exact()},
      {"le", exact()},
      {"gt", exact()},
      {"ge", exact()},
      {"logical_and", exact()},
      {"logical_or", exact()},
      {"bitwise_and", exact()},
      {"bitwise_or", exact()},
      {"bitwise_xor", exact()},
      {"where", exact()},
      {"masked_fill", exact()},
      // a - trunc(a / b) * b is exact in IEEE arithmetic (fmod); the floor form adds b once.
      {"remainder", {{0, 1}, {0, 1}, {0, 1}}},
      // a + alpha * b rounds twice without an FMA (ATen: alpha * b, then the add): 1 step,
      // or an ulp of alpha * b where the two cancel.
      {"add.alpha", cancelling(1, 4)},
      {"sub.alpha", cancelling(1, 4)},
      // Transcendental: the float32 tolerance is the worst kernel set's sweep steps (optimized
      // unless said otherwise; aten is within it).
      {"exp", transcendental(1)},
      {"expm1", transcendental(3)},  // optimized: 3 steps near 0.36
      {"log", transcendental(1)},
      {"log1p", transcendental(2)},  // optimized: 2 steps near 4.5e-4
      {"rsqrt", transcendental(1)},
      {"sin", transcendental(2)},  // optimized: 2 steps past 8000
      {"cos", transcendental(2)},
      {"tan", transcendental(4)},      // optimized: 4 steps near 70
      {"tanh", transcendental(3)},     // optimized: 3 steps near -0.18
      {"sigmoid", transcendental(3)},  // optimized: 3 steps near -2.75
      {"erf", transcendental(1)},
      {"gelu", transcendental(7)},  // optimized: 7 steps in the erfc tail
      // 0.5 x (1 + tanh(y)) cancels for x << 0 (ATen's formula): ulps of x, not of the result.
      {"gelu.tanh", transcendental(7, 8)},
      // optimized: 52 steps where the result is subnormal (x < -88), 2 elsewhere.
      {"silu", transcendental(64)},
      // The ops of issue 16's first batch; float32 tolerances from the optimized set's worst
      // measured error (2^18 inputs against the reference, and `sweep --quick`).
      {"asin", transcendental(3)},    // 2.2 ULP
      {"acos", transcendental(2)},    // 1.2 ULP
      {"atan", transcendental(3)},    // 2.6 ULP
      {"sinh", transcendental(3)},    // 2.9 ULP
      {"cosh", transcendental(2)},    // 1.8 ULP
      {"asinh", transcendental(3)},   // 2.4 ULP
      {"acosh", transcendental(3)},   // 2.4 ULP
      {"atanh", transcendental(3)},   // 2.6 ULP
      {"exp2", transcendental(1)},    // 0.97 ULP
      {"log2", transcendental(2)},    // 1.5 ULP
      {"log10", transcendental(2)},   // 1.9 ULP
      {"erfc", transcendental(6)},    // 5.7 ULP: Numerical Recipes' tail (Note [Vector erfc])
      {"erfinv", transcendental(4)},  // 3.5 ULP
      {"sinc", transcendental(3)},    // 3.0 ULP
      // x * tanh(softplus(x)), three functions: 4.3 ULP; 45 where the result is subnormal
      // (x < -80, as silu); float64 5 ULP on the large sample.
      {"mish", {{1, 64}, {1, 1}, {2, 8}}},
      {"log_sigmoid", transcendental(3)},  // 2.6 ULP
      // relu6(x + 3) / 6 and x * relu6(x + 3) / 6: two or three roundings (ATen multiplies by
      // the float 1/6).
      {"hardsigmoid", cancelling(1, 0)},
      {"hardswish", cancelling(2, 0)},
      // x - trunc(x) is exact (Sterbenz).
      {"frac", exact()},
      // Activations (issue 16): float32 tolerances from the optimized set's worst error on the
      // catalog's samples (2026-11-28); ATen 1.13's elu (exp(x) - 1) is a known difference.
      // x * slope, a clamp, a select: exact (the slope in the op's math type, as ATen).
      {"leaky_relu", exact()},
      {"hardtanh", exact()},
      {"threshold", exact()},
      // expm1 times alpha * scale (selu, celu: elu with ATen's constants): 2 steps measured.
      {"elu", transcendental(4)},
      {"selu", transcendental(4)},
      {"celu", transcendental(4)},
      // max(y, 0) + log1p(exp(-|y|)), over beta: 3 steps measured (float32 and float64).
      {"softplus", transcendental(4)},
      // self / (|self| + 1): two roundings, as ATen's composite.
      {"softsign", cancelling(1, 0)},
      // pow and atan2: libm-class functions of two arguments.
      {"pow", transcendental(2)},
      {"atan2", transcendental(2)},
      // a + w * (b - a) (or b - (1 - w)(b - a)): three roundings, and cancellation.
      {"lerp", cancelling(2, 16)},
      // a + value * b * c: two or three roundings, and cancellation.
      {"addcmul", cancelling(2, 16)},
      // math (issue 16): exact functions and selections, then libm-class functions (float32
      // tolerances from the worst kernel set measured by `touchstone conform`).
      {"square", exact()},
      {"isinf", exact()},
      {"isfinite", exact()},
      {"nan_to_num", exact()},
      {"copysign", exact()},
      {"nextafter", exact()},
      {"fmod", exact()},  // fmod is exact in IEEE arithmetic
      {"floor_divide", exact()},
      {"heaviside", exact()},
      // ATen's vector min/max leave clamp_max(+0, -0)'s sign to the argument order (as maximum).
      {"clamp_min", unsigned_zeros(exact())},
      {"clamp_max", unsigned_zeros(exact())},
      {"isclose", exact()},
      {"hypot", transcendental(1)},
      {"xlogy", transcendental(2)},
      // max + log1p(e^-|a - b|) cancels where the result nears 0 (a, b < 0): ulps of max, not of
      // the result, in every set computing in the dtype (ATen; optimized float64).
      {"logaddexp", transcendental(2, 8)},
      {"logaddexp2", transcendental(2, 8)},
      {"lgamma", transcendental(4)},
      // The recurrence psi(x) = psi(x + 1) - 1/x cancels near the root 1.4616 (ATen's algorithm
      // in the dtype; the optimized set's in double): ulps of the terms (1/x up to 10).
      {"digamma", transcendental(4, 16)},
      // Casts and copies: exact (a cast rounds once, to nearest even).
      {"copy_", exact()},
      {"clone", exact()},
      {"contiguous", exact()},
      {"to", exact()},
      {"fill_", exact()},
      {"zero_", exact()},
  };
  return table;
}

}  // namespace

bool judged_in_ulp(const OpEntry& e) {
  return e.family == "unary" || e.family == "binary" || e.family == "ternary" || e.family == "copy";
}

std::optional<UlpBudget> ulp_budget(const OpEntry& e, ScalarType out_dtype) {
  if (!judged_in_ulp(e)) return std::nullopt;
  auto it = rows().find(e.name);
  if (it == rows().end()) it = rows().find(e.op_name());
  if (it == rows().end()) return std::nullopt;
  if (out_dtype == kHalf || out_dtype == kBFloat16) return it->second.f16;
  if (out_dtype == kDouble) return it->second.f64;
  return it->second.f32;
}

}  // namespace ts::catalog
