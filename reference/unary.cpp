// Reference kernels for unary elementwise ops. See Note [Reference kernels] in common.h.
// Each plain op is one row of kFormulas: a formula in double (floating compute dtypes) and,
// where the op takes integers, one in int64; integer negation wraps through uint64 so that it
// never overflows. gelu, clamp and the activations of issue 16 (leaky_relu, elu, softplus,
// hardtanh, threshold), which have parameters, have kernels of their own.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>

#include "common.h"
#include "touchstone/kernel_family.h"
#include "trig.h"

namespace ts::reference {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

int64_t wrapping_neg(int64_t x) {
  return static_cast<int64_t>(0 - static_cast<uint64_t>(x));
}

// Note [Double rounding in the reference]
// A formula here is a double (glibc's functions, within a double ULP) rounded once to the dtype.
// Where the exact value lies within a double ULP of a midpoint of the dtype, the double can land
// on the midpoint or past it and that second rounding goes the wrong way: one step, at most
// 0.5 + 2^-29 ULP. `touchstone sweep` finds them all for float32 (conformance/README.md, the full
// table; the JSON lists each input): 50 inputs of 2^32 in 18 of the 44 swept ops (log1p 9,
// asinh 6, digamma 6, log 5, cos 4, ...), none in float16 or bfloat16. Removing them needs the
// exact value's side of the double, which a library call does not give (the series near zero
// below does, and rounds to odd); the reference keeps "double, rounded once" and these inputs
// listed.

// Note [sigmoid, silu and gelu near zero]
// Near 0 the double value of 1/(1+exp(-x)) can land exactly on a float32 midpoint while the
// exact value lies just off it: sigmoid(3*2^-23) = 1/2 + 3*2^-25 - 9*2^-73 + ..., whose double is
// the midpoint 1/2 + 3*2^-25, and double -> float ties it to even, one step up (silu at tiny x
// the same way, x/2 + x^2/4; gelu: x/2 + x^2/sqrt(2 pi)). For |x| < 2^-12 we sum the series
// instead, its leading terms exactly (Fast2Sum; x/4, x/2 and x^2/4 of a float32 x are exact
// doubles; gelu's x^2/sqrt(2 pi) is rounded, far below any
// midpoint distance), and return the double rounded to odd: a later rounding to float32, float16 or
// bfloat16 (at most 51 bits) is then the correct one (Boldo & Melquiond). The truncated terms and
// the tail's roundings are below 2^-100 relative; the sweep (touchstone sweep --ops
// sigmoid,silu,gelu) checks every float32 input.
constexpr double kSeriesBound = 0x1p-12;

// a + b (|a| >= |b|) as a double rounded to odd: the neighbour of a + b's rounding on the side
// of the exact sum when the sum is inexact and that rounding is even.
double sum_round_to_odd(double a, double b) {
  const double hi = a + b;
  const double lo = b - (hi - a);  // Fast2Sum: hi + lo == a + b exactly
  uint64_t bits = 0;
  std::memcpy(&bits, &hi, sizeof bits);
  if (lo == 0 || (bits & 1) != 0) return hi;
  return std::nextafter(hi, lo > 0 ? HUGE_VAL : -HUGE_VAL);
}

// 1/2 + x/4 - x^3/48 + x^5/480 (|x| < 2^-12): 1/2 + x/4 exactly as hi + lo, then the tail.
double sigmoid_near_zero(double x) {
  const double q = x / 4, hi = 0.5 + q, lo = q - (hi - 0.5);
  return sum_round_to_odd(hi, lo + x * x * x * (x * x / 480 - 1.0 / 48));
}
double sigmoid(double x) {
  return std::fabs(x) < kSeriesBound ? sigmoid_near_zero(x) : 1.0 / (1.0 + std::exp(-x));
}

// x/2 + x^2/4 - x^4/48 + x^6/480 (|x| < 2^-12): x/2 + x^2/4 exactly as hi + lo, then the tail.
double silu_near_zero(double x) {
  const double a = x / 2, q = x * x / 4, hi = a + q, lo = q - (hi - a);
  const double x2 = x * x;
  return sum_round_to_odd(hi, lo + x2 * x2 * (x2 / 480 - 1.0 / 48));
}
double silu(double x) {
  if (x == 0) return x;  // silu(-0) = -0: x/2 + x^2/4 would be +0
  return std::fabs(x) < kSeriesBound ? silu_near_zero(x) : x / (1.0 + std::exp(-x));
}

// gelu(x) = x/2 + x^2/sqrt(2 pi) - x^4/(6 sqrt(2 pi)) + ... near 0, the same midpoints as silu
// (x/2 of a subnormal); else 0.5 x erfc(-x/sqrt2), which does not cancel for x < -5 as
// 0.5 x (1 + erf(x/sqrt2)) does (1 + erf rounds to a few bits there).
double gelu(double x) {
  constexpr double kInvSqrt2Pi = 0.398942280401432677940;
  if (x == 0 || !(std::fabs(x) < kSeriesBound)) return 0.5 * x * std::erfc(-x * M_SQRT1_2);
  const double a = x / 2, q = x * x * kInvSqrt2Pi, hi = a + q, lo = q - (hi - a);
  return sum_round_to_odd(hi, lo - x * x * x * x * (kInvSqrt2Pi / 6));
}

// Note [erfinv in double]
// The C library has no erfinv. y = erfinv(x) solves erf(y) = |x| by Newton's method from a
// start on the root's near side, so that the iterates rise (or fall) to it monotonically. For
// |x| <= 1/2: f(y) = erf(y) - |x|, concave on y >= 0, from the series' first three terms (all
// positive, so below the root). For |x| > 1/2: f(y) = log(erfc(y)) - log(1 - |x|), with 1 - |x|
// exact (Sterbenz) and no cancellation as |x| -> 1; log erfc is concave and y = sqrt(-log(1 - |x|))
// lies above the root (erfc(y) < exp(-y^2)). Steps stop when they no longer move y (at most
// 100, should rounding make the last two alternate).
double erfinv(double x) {
  if (std::isnan(x) || std::fabs(x) > 1) return kNaN;
  if (std::fabs(x) == 1) return std::copysign(HUGE_VAL, x);
  if (x == 0) return x;  // keeps the sign of -0
  const double a = std::fabs(x);
  constexpr double kSqrtPi = 1.772453850905516027298;
  double y = 0;
  if (a <= 0.5) {
    const double pa2 = std::numbers::pi * a * a;
    y = kSqrtPi / 2 * a * (1 + pa2 / 12 + 7 * pa2 * pa2 / 480);
    for (int i = 0; i < 100; ++i) {
      const double next = y - (std::erf(y) - a) / (2 / kSqrtPi * std::exp(-y * y));
      if (next == y) break;
      y = next;
    }
  } else {
    const double log_q = std::log(1 - a);
    y = std::sqrt(-log_q);
    for (int i = 0; i < 100; ++i) {
      const double erfc = std::erfc(y);
      const double g = std::log(erfc) - log_q, dg = -2 / kSqrtPi * std::exp(-y * y) / erfc;
      const double next = y - g / dg;
      if (next == y) break;
      y = next;
    }
  }
  return std::copysign(y, x);
}

// sin(pi x) with the argument reduced exactly: r = x - 2 round(x / 2) in [-1, 1] (exact), then
// folded to [-1/2, 1/2] (1 - r exact), so that sinc is exactly 0 at every nonzero integer.
double sin_pi(double x) {
  double r = x - 2 * std::nearbyint(x / 2);
  if (r > 0.5) r = 1 - r;
  if (r < -0.5) r = -1 - r;
  return std::sin(std::numbers::pi * r);
}

// sinc(x) = sin(pi x) / (pi x), sinc(0) = 1; sinc(+-inf) is NaN, as in PyTorch.
double sinc(double x) {
  if (x == 0) return 1;
  return sin_pi(x) / (std::numbers::pi * x);
}

// softplus(x) = log(1 + exp(x)), as max(x, 0) + log1p(exp(-|x|)): no overflow.
double softplus(double x) {
  return std::max(x, 0.0) + std::log1p(std::exp(-std::fabs(x)));
}

// relu6(x + 3) / 6; NaN stays NaN.
double hardsigmoid(double x) {
  if (std::isnan(x)) return x;
  return std::min(std::max(x + 3, 0.0), 6.0) / 6;
}

// Note [hardswish rounded once]
// x relu6(x + 3) / 6 in double rounds twice (x + 3, then the quotient), and the float result can
// land on the wrong side of a midpoint (the sweep: -2.34e-38, where x + 3 rounds to 3 and x/2 is
// a float32 midpoint). For -3 < x < 3 the value (x^2 + 3x) / 6 is formed as q + c instead: for a
// float input x^2 and 3x are exact, their sum is hi + lo (TwoSum), q = hi / 6, c = (r + lo) / 6
// with the exact remainder r = hi - 6q (fma); q + c rounded to odd then rounds correctly into
// float32, float16 and bfloat16. Other float64 inputs keep x relu6(x + 3) / 6 (x^2 + 3x would
// cancel near -3), about 1 ULP.
double hardswish(double x) {
  const bool float_input = static_cast<double>(static_cast<float>(x)) == x;     // x^2 exact
  if (x == 0 || !float_input || !(x > -3 && x < 3)) return x * hardsigmoid(x);  // -0 stays -0
  const double a = x * x, b = 3 * x;
  const double hi = a + b, bb = hi - a, lo = (a - (hi - bb)) + (b - bb);
  const double q = hi / 6, r = std::fma(-q, 6, hi);
  return sum_round_to_odd(q, (r + lo) / 6);
}

// Note [The sign of log_sigmoid's underflow]
// log_sigmoid(x) = min(x, 0) - log1p(exp(-|x|)) is negative for every finite x, so a result that
// underflows (x > 104 in float32, where exp(-x) is 0) is -0, as IEEE rounds a tiny negative
// value. ATen's min(x, 0) - log1p(...) gives 0 - 0 = +0 there; -(log1p(...) - min(x, 0)) keeps the
// sign. log_sigmoid(+inf) stays +0, ATen's value (the limit, 0, has no sign).
double log_sigmoid(double x) {
  if (x == HUGE_VAL) return 0.0;
  return -(std::log1p(std::exp(-std::fabs(x))) - std::min(x, 0.0));
}

// Note [digamma in double]
// psi(x) for x >= 10 from the asymptotic series log x - 1/(2x) - sum B_2k / (2k x^2k) (seven
// terms: below 2^-53 relative there); below 10 by the recurrence psi(x) = psi(x + 1) - 1/x; for
// x < 0 by reflection, psi(x) = psi(1 - x) - pi / tan(pi x), with tan's argument reduced exactly
// (the fraction of x). The sums run in long double (64 bits on x86): near the root 1.4616 the
// terms cancel (psi ~ 0.9 (x - 1.4616), the terms ~ 3), which costs double arithmetic tens of
// ULPs. The recurrence's 1/y add up as one fraction num / den (one x87 division, not ten: each
// costs about 7 ns); the series' tail, below 2^-11 of psi for y >= 10, is summed in double (its
// error under 2^-62 of psi). Near 0 (|x| < 2^-12) the Taylor series of psi(1 + x) less 1/x,
// -1/x - gamma + zeta(2) x - zeta(3) x^2 + zeta(4) x^3 (DLMF 5.7.4; the rest below 2^-60 of 1/x),
// not ten steps of the recurrence. Poles: psi(+-0) = -+inf, as current PyTorch; NaN at the
// negative integers; psi(+inf) = +inf, psi(-inf) = NaN.
double digamma(double x) {
  if (x == 0) return std::copysign(HUGE_VAL, -x);
  if (std::isnan(x) || x == -HUGE_VAL) return kNaN;
  if (x == HUGE_VAL) return x;
  if (std::fabs(x) < 0x1p-12) {
    constexpr long double kEulerGamma = 0.577215664901532860606512090082402431L;
    constexpr long double kZeta2 = 1.644934066848226436472415166646025189L;
    constexpr long double kZeta3 = 1.202056903159594285399738161511449991L;
    constexpr long double kZeta4 = 1.082323233711138191516003696541167903L;
    const long double t = x;
    return static_cast<double>(-1 / t - kEulerGamma + t * (kZeta2 - t * (kZeta3 - t * kZeta4)));
  }
  long double reflection = 0, y = x;
  if (x < 0) {
    if (x == std::trunc(x)) return kNaN;
    double whole = 0;
    const long double frac = std::modf(x, &whole);
    const long double pi = std::numbers::pi_v<long double>;
    reflection = -pi / std::tan(pi * frac);
    y = 1 - y;
  }
  long double num = 0, den = 1;  // the recurrence's sum of 1/y as num / den: one division
  for (; y < 10; y += 1) {
    num = num * y + den;
    den *= y;
  }
  // B_2k / 2k for k = 1..7: 1/12, -1/120, 1/252, -1/240, 1/132, -691/32760, 1/12.
  constexpr double kB[] = {1.0 / 12,  -1.0 / 120,       1.0 / 252, -1.0 / 240,
                           1.0 / 132, -691.0 / 32760.0, 1.0 / 12};
  const double z = 1 / static_cast<double>(y * y);
  double series = 0;
  for (size_t k = std::size(kB); k-- > 0;) series = series * z + kB[k];
  return static_cast<double>(reflection - num / den + std::log(y) - 0.5L / y - z * series);
}

// log |Gamma(x)|; lgamma_r leaves the sign in a local, not in the global signgam (threads).
double lgamma(double x) {
  int sign = 0;
  return ::lgamma_r(x, &sign);
}

// nan_to_num: NaN and the infinities replaced by the values meta resolved (NanToNumParams);
// integer and bool elements are copied.
void nan_to_num_kernel(const KernelCall& c) {
  const NanToNumParams& r = c.params<NanToNumParams>();
  elementwise<1>(
      c,
      [&r](const double* v) {
        const double x = v[0];
        if (std::isnan(x)) return r.nan;
        if (std::isinf(x)) return x > 0 ? r.posinf : r.neginf;
        return x;
      },
      [](const int64_t* v) { return v[0]; });
}

// A plain unary op's formulas; UnaryFloat ops have no fi, integer-only ops no fd.
struct UnaryFormula {
  OpId op;
  double (*fd)(double);
  int64_t (*fi)(int64_t) = nullptr;
};

// Every plain unary op of op_list.def (a missing row fails to compile: unary_kernel); see
// Note [Formula tables] in common.h.
constexpr UnaryFormula kFormulas[] = {
    {OpId::neg, [](double x) { return -x; }, wrapping_neg},
    // abs(int8 -128) wraps to -128, as in PyTorch.
    {OpId::abs, [](double x) { return std::fabs(x); },
     [](int64_t x) { return x < 0 ? wrapping_neg(x) : x; }},
    // sign(NaN) is 0 and sign(-0.0) is +0.0 in PyTorch: (0 < x) - (x < 0).
    {OpId::sign, [](double x) -> double { return (0 < x) - (x < 0); },
     [](int64_t x) -> int64_t { return (0 < x) - (x < 0); }},
    {OpId::exp, [](double x) { return std::exp(x); }},
    {OpId::expm1, [](double x) { return std::expm1(x); }},
    {OpId::exp2, [](double x) { return std::exp2(x); }},
    {OpId::log, [](double x) { return std::log(x); }},
    {OpId::log1p, [](double x) { return std::log1p(x); }},
    {OpId::log2, [](double x) { return std::log2(x); }},
    {OpId::log10, [](double x) { return std::log10(x); }},
    {OpId::sqrt, [](double x) { return std::sqrt(x); }},
    {OpId::rsqrt, [](double x) { return 1.0 / std::sqrt(x); }},
    {OpId::reciprocal, [](double x) { return 1.0 / x; }},
    {OpId::sin, sin_of},  // trig.h
    {OpId::tan, tan_of},
    {OpId::cos, cos_of},
    {OpId::asin, [](double x) { return std::asin(x); }},
    {OpId::acos, [](double x) { return std::acos(x); }},
    {OpId::atan, [](double x) { return std::atan(x); }},
    {OpId::sinh, [](double x) { return std::sinh(x); }},
    {OpId::cosh, [](double x) { return std::cosh(x); }},
    {OpId::tanh, [](double x) { return std::tanh(x); }},
    {OpId::asinh, [](double x) { return std::asinh(x); }},
    {OpId::acosh, [](double x) { return std::acosh(x); }},
    {OpId::atanh, [](double x) { return std::atanh(x); }},
    {OpId::sinc, sinc},
    {OpId::sigmoid, sigmoid},  // Note [sigmoid, silu and gelu near zero]
    // max(x, 0) keeps NaN and -0.0, as PyTorch's clamp_min(x, 0).
    {OpId::relu, [](double x) { return x < 0 ? 0.0 : x; },
     [](int64_t x) { return x < 0 ? int64_t{0} : x; }},
    {OpId::silu, silu},
    {OpId::hardsigmoid, hardsigmoid},
    // x * relu6(x + 3) / 6: hardswish(-inf) is -inf * 0 = NaN, as PyTorch's formula gives.
    {OpId::hardswish, hardswish},  // Note [hardswish rounded once]
    // x * tanh(softplus(x)): mish(-inf) is -inf * 0 = NaN, as in PyTorch.
    {OpId::mish, [](double x) { return x * std::tanh(softplus(x)); }},
    {OpId::log_sigmoid, log_sigmoid},  // Note [The sign of log_sigmoid's underflow]
    {OpId::erf, [](double x) { return std::erf(x); }},
    {OpId::erfc, [](double x) { return std::erfc(x); }},
    {OpId::erfinv, erfinv},  // Note [erfinv in double]
    // The rounding ops are the identity on integers (PyTorch copies them); round is half to
    // even (nearbyint in the default rounding mode), as torch.round.
    {OpId::floor, [](double x) { return std::floor(x); }, [](int64_t x) { return x; }},
    {OpId::ceil, [](double x) { return std::ceil(x); }, [](int64_t x) { return x; }},
    {OpId::round, [](double x) { return std::nearbyint(x); }, [](int64_t x) { return x; }},
    {OpId::trunc, [](double x) { return std::trunc(x); }, [](int64_t x) { return x; }},
    // x - trunc(x): frac(+-inf) is NaN, as in PyTorch; floating dtypes only.
    {OpId::frac, [](double x) { return x - std::trunc(x); }},
    {OpId::isnan, [](double x) -> double { return std::isnan(x); },
     [](int64_t) -> int64_t { return 0; }},
    // NaN is nonzero, hence true: logical_not(NaN) is false.
    {OpId::logical_not, [](double x) -> double { return x == 0; },
     [](int64_t x) -> int64_t { return x == 0; }},
    {OpId::bitwise_not, nullptr, [](int64_t x) { return ~x; }},
    // math (issue 16)
    // lgamma = log |Gamma(x)|: +inf at 0 and at the negative integers, +inf at +-inf.
    {OpId::lgamma, lgamma},
    {OpId::digamma, digamma},  // Note [digamma in double]
    {OpId::isinf, [](double x) -> double { return std::isinf(x); },
     [](int64_t) -> int64_t { return 0; }},
    {OpId::isfinite, [](double x) -> double { return std::isfinite(x); },
     [](int64_t) -> int64_t { return 1; }},
};

template <OpId kOp>
void unary_kernel(const KernelCall& c) {
  static constexpr const UnaryFormula* f = find_formula(kFormulas, kOp);
  static_assert(f != nullptr, "a plain unary op of op_list.def has no row in kFormulas");
  formula_kernel<1>(c, f->fd, f->fi);
}

// gelu: the exact form (gelu above), or the tanh approximation.
void gelu_kernel(const KernelCall& c) {
  const auto integral = [](const int64_t*) -> int64_t {
    TS_ERROR("gelu: reference kernel called with an integral compute dtype");
  };
  if (c.params<GeluParams>().approximate == GeluApproximation::None) {
    elementwise<1>(
        c, [](const double* v) { return gelu(v[0]); }, integral);
  } else {
    const double k = std::sqrt(2.0 / std::numbers::pi);
    elementwise<1>(
        c,
        [k](const double* v) {
          const double x = v[0];
          return 0.5 * x * (1.0 + std::tanh(k * (x + 0.044715 * x * x * x)));
        },
        integral);
  }
}

// Note [clamp with NaN]
// clamp is min(max(x, lo), hi): with lo > hi every element becomes hi, as in PyTorch. A NaN
// element or a NaN bound gives NaN, as current PyTorch. ATen 1.13's clamp(x, min=NaN) ignores the
// NaN min ([1, nan, 3] stays so); touchstone follows current PyTorch (issue 14).
double clamp_min(double x, double lo) {
  return std::isnan(lo) ? kNaN : (x < lo ? lo : x);
}
double clamp_max(double x, double hi) {
  return std::isnan(hi) ? kNaN : (x > hi ? hi : x);
}
int64_t clamp_min(int64_t x, int64_t lo) {
  return x < lo ? lo : x;
}
int64_t clamp_max(int64_t x, int64_t hi) {
  return x > hi ? hi : x;
}

void clamp_kernel(const KernelCall& c) {
  // Inputs: self, then the bounds present (min first); see lib/src/ops/unary.cpp.
  const bool has_min = c.params<ClampParams>().has_min;
  const bool has_max = c.params<ClampParams>().has_max;
  const auto f = [&](const auto* v) {
    auto r = v[0];
    if (has_min) r = clamp_min(r, v[1]);
    if (has_max) r = clamp_max(r, v[has_min ? 2 : 1]);
    return r;
  };
  if (has_min && has_max) {
    elementwise<3>(c, f, f);
  } else {
    elementwise<2>(c, f, f);
  }
}

// ---- activations (issue 16): the specification of each, in double ----

// A Scalar parameter as a kernel computing in `t` sees it (Note [Activation parameters] in
// lib/src/ops/unary.cpp): a threshold or bound rounded once to t; a coefficient to the op's math
// type, float32 for the 16-bit dtypes too (ATen's opmath_t).
double param(const Scalar& s, ScalarType t) {
  return round_to(t, s.to_double());
}
double opmath_param(const Scalar& s, ScalarType t) {
  return round_to(t == kDouble ? kDouble : kFloat, s.to_double());
}

// The integral lambda of a floating-only op (meta never gives it an integral compute dtype).
auto no_integral(const char* op) {
  return [op](const int64_t*) -> int64_t {
    TS_ERROR(op, ": reference kernel called with an integral compute dtype");
  };
}

// leaky_relu: x for x > 0, else negative_slope * x (-0 and NaN stay).
void leaky_relu_kernel(const KernelCall& c) {
  const double slope = opmath_param(c.params<LeakyReluParams>().negative_slope, c.p.compute_dtype);
  elementwise<1>(
      c, [slope](const double* v) { return v[0] > 0 ? v[0] : v[0] * slope; },
      no_integral("leaky_relu"));
}

// elu: scale * x for x > 0, else alpha * scale * expm1(input_scale * x); NaN stays (x <= 0 is
// false). selu and celu are this with ATen's constants.
void elu_kernel(const KernelCall& c) {
  const EluParams& e = c.params<EluParams>();
  const ScalarType t = c.p.compute_dtype;
  const double alpha = opmath_param(e.alpha, t), scale = opmath_param(e.scale, t);
  const double input_scale = opmath_param(e.input_scale, t);
  elementwise<1>(
      c,
      [=](const double* v) {
        const double x = v[0];
        return x <= 0 ? alpha * scale * std::expm1(x * input_scale) : x * scale;
      },
      no_integral("elu"));
}

// softplus: log(1 + exp(beta x)) / beta, and x itself where beta x > threshold (ATen's switch).
void softplus_kernel(const KernelCall& c) {
  const SoftplusParams& s = c.params<SoftplusParams>();
  const double beta = opmath_param(s.beta, c.p.compute_dtype);
  const double threshold = opmath_param(s.threshold, c.p.compute_dtype);
  elementwise<1>(
      c,
      [=](const double* v) {
        const double x = v[0];
        return x * beta > threshold ? x : std::log1p(std::exp(x * beta)) / beta;
      },
      no_integral("softplus"));
}

// hardtanh: clamp(x, min_val, max_val), NaN kept (Note [clamp with NaN]); integers truncate the
// bounds, as ATen's hardtanh_out.
void hardtanh_kernel(const KernelCall& c) {
  const HardtanhParams& h = c.params<HardtanhParams>();
  const ScalarType t = c.p.compute_dtype;
  const double lo = is_floating_type(t) ? param(h.min_val, t) : 0;
  const double hi = is_floating_type(t) ? param(h.max_val, t) : 0;
  const int64_t ilo = h.min_val.to_long(), ihi = h.max_val.to_long();
  elementwise<1>(
      c, [=](const double* v) { return clamp_max(clamp_min(v[0], lo), hi); },
      [=](const int64_t* v) { return clamp_max(clamp_min(v[0], ilo), ihi); });
}

// threshold: value where x <= threshold, else x (NaN stays: the comparison is false).
void threshold_kernel(const KernelCall& c) {
  const ThresholdParams& p = c.params<ThresholdParams>();
  const ScalarType t = c.p.compute_dtype;
  const double th = is_floating_type(t) ? param(p.threshold, t) : 0;
  const double value = is_floating_type(t) ? param(p.value, t) : 0;
  const int64_t ith = p.threshold.to_long(), ivalue = p.value.to_long();
  elementwise<1>(
      c, [=](const double* v) { return v[0] <= th ? value : v[0]; },
      [=](const int64_t* v) { return v[0] <= ith ? ivalue : v[0]; });
}

}  // namespace

TS_REGISTER_KERNELS(reference, unary) {
  for_each_plain_op<PlainOp::Unary>([&](auto op) { m.impl(op, kCPU, unary_kernel<op>); });
  m.impl(OpId::gelu, kCPU, gelu_kernel);
  m.impl(OpId::clamp, kCPU, clamp_kernel);
  m.impl(OpId::nan_to_num, kCPU, nan_to_num_kernel);
  m.impl(OpId::leaky_relu, kCPU, leaky_relu_kernel);
  m.impl(OpId::elu, kCPU, elu_kernel);
  m.impl(OpId::softplus, kCPU, softplus_kernel);
  m.impl(OpId::hardtanh, kCPU, hardtanh_kernel);
  m.impl(OpId::threshold, kCPU, threshold_kernel);
}

}  // namespace ts::reference
