// The correctly rounded oracle of the sweep (oracle.h).
#include "conformance/sweep/oracle.h"

#include <mpfr.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "conformance/sweep/lanes.h"
#include "conformance/sweep/oracle_vec.h"
#include "touchstone/error.h"
#include "touchstone/half.h"

namespace ts::sweep {

// Note [Double first, MPFR where double cannot decide]
// The exact y = f(x) is transcendental for these ops (except at trivial inputs), so its rounding
// to a 24-, 11- or 8-bit format is decided by any approximation close enough. The double
// definition of each op (glibc's double functions, composed without cancellation) is within
// 2^-45 of y relatively (glibc documents at most a few double ULPs, 2^-51 each; gelu's erfc
// amplifies its argument's rounding at most ~200x over the range where gelu is a nonzero
// float). We take the interval [y_d - 2^-40 |y_d|, y_d + 2^-40 |y_d|], a margin of 32x over
// that bound, which holds y; rounding is monotone, so when both ends round to the same value of
// the format, so does y, and that value is the answer. Otherwise y_d lies within 2^-40 of a
// midpoint (or of the overflow threshold), about one float32 input in 2^15: MPFR then evaluates
// f at 128, 320, then 1024 bits, each time with an interval 2^20 of its ULPs wide (covering the
// composed ops' roundings), and the first precision whose interval ends agree decides. Ends that
// still disagree at 1024 bits mean y is a midpoint itself; MPFR's value is then that midpoint
// exactly and rounding it ties to even is IEEE's answer.
// Results that underflow double (|y_d| < 2^-900) are zero in every target format (the least
// subnormal is 2^-149), with y_d's sign; NaN and infinite results are IEEE's/ATen's, which the
// double definitions reproduce (silu(-inf) = -inf/(1+inf) = NaN as in ATen, not the limit 0).
namespace {

constexpr double kDoubleMargin = 0x1p-40;
constexpr int kMpfrSlackBits = 20;
constexpr mpfr_prec_t kMpfrPrecisions[] = {128, 320, 1024};

// A composite's double definition at one input, with the C library.
double staged_one(StagedFn f, double x) {
  double y = 0;
  f(&x, &y, 1, scalar_math());
  return y;
}
double rsqrt_d(double x) {
  return 1.0 / std::sqrt(x);
}
double reciprocal_d(double x) {
  return 1.0 / x;
}
double hardsigmoid_d(double x) {
  return std::isnan(x) ? x : std::min(std::max(x + 3, 0.0), 6.0) / 6;
}
double hardswish_d(double x) {
  return x * hardsigmoid_d(x);
}
double lgamma_d(double x) {  // glibc's lgamma_r: within 2^-50 near its negative zeros too
  int sign = 0;
  return ::lgamma_r(x, &sign);
}
double hardtanh_d(double x) {
  return std::isnan(x) ? x : std::min(std::max(x, -1.0), 1.0);
}
// softsign(+-inf) = inf / inf is NaN, as ATen's composite x / (1 + |x|).
double softsign_d(double x) {
  return x / (1 + std::fabs(x));
}
double frac_d(double x) {
  return x - std::trunc(x);
}
double square_d(double x) {
  return x * x;
}

// A cheap double definition over an array, inlined rather than called per input (Note [Cheap
// definitions in batches]).
template <double (*F)(double)>
void batch_of(const double* x, double* y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] = F(x[i]);
}

using MpfrFn = void (*)(mpfr_t y, const mpfr_t x, mpfr_prec_t prec);

#define TS_MPFR_DIRECT(name, fn)                         \
  void name##_m(mpfr_t y, const mpfr_t x, mpfr_prec_t) { \
    fn(y, x, MPFR_RNDN);                                 \
  }
TS_MPFR_DIRECT(exp, mpfr_exp)
TS_MPFR_DIRECT(expm1, mpfr_expm1)
TS_MPFR_DIRECT(log, mpfr_log)
TS_MPFR_DIRECT(log1p, mpfr_log1p)
TS_MPFR_DIRECT(sqrt, mpfr_sqrt)
TS_MPFR_DIRECT(rsqrt, mpfr_rec_sqrt)
TS_MPFR_DIRECT(sin, mpfr_sin)
TS_MPFR_DIRECT(cos, mpfr_cos)
TS_MPFR_DIRECT(tan, mpfr_tan)
TS_MPFR_DIRECT(tanh, mpfr_tanh)
TS_MPFR_DIRECT(erf, mpfr_erf)
TS_MPFR_DIRECT(erfc, mpfr_erfc)
TS_MPFR_DIRECT(exp2, mpfr_exp2)
TS_MPFR_DIRECT(log2, mpfr_log2)
TS_MPFR_DIRECT(log10, mpfr_log10)
TS_MPFR_DIRECT(asin, mpfr_asin)
TS_MPFR_DIRECT(acos, mpfr_acos)
TS_MPFR_DIRECT(atan, mpfr_atan)
TS_MPFR_DIRECT(sinh, mpfr_sinh)
TS_MPFR_DIRECT(cosh, mpfr_cosh)
TS_MPFR_DIRECT(asinh, mpfr_asinh)
TS_MPFR_DIRECT(acosh, mpfr_acosh)
TS_MPFR_DIRECT(atanh, mpfr_atanh)
#undef TS_MPFR_DIRECT

void reciprocal_m(mpfr_t y, const mpfr_t x, mpfr_prec_t) {
  mpfr_ui_div(y, 1, x, MPFR_RNDN);
}
void sigmoid_m(mpfr_t y, const mpfr_t x, mpfr_prec_t) {
  mpfr_neg(y, x, MPFR_RNDN);
  mpfr_exp(y, y, MPFR_RNDN);
  mpfr_add_ui(y, y, 1, MPFR_RNDN);
  mpfr_ui_div(y, 1, y, MPFR_RNDN);
}
void silu_m(mpfr_t y, const mpfr_t x, mpfr_prec_t prec) {
  sigmoid_m(y, x, prec);
  mpfr_mul(y, y, x, MPFR_RNDN);
}
void gelu_m(mpfr_t y, const mpfr_t x, mpfr_prec_t prec) {
  mpfr_t s;
  mpfr_init2(s, prec);
  mpfr_sqrt_ui(s, 2, MPFR_RNDN);
  mpfr_div(y, x, s, MPFR_RNDN);
  mpfr_neg(y, y, MPFR_RNDN);
  mpfr_erfc(y, y, MPFR_RNDN);
  mpfr_mul(y, y, x, MPFR_RNDN);
  mpfr_mul_2si(y, y, -1, MPFR_RNDN);
  mpfr_clear(s);
}
void sinc_m(mpfr_t y, const mpfr_t x, mpfr_prec_t prec) {
  if (mpfr_zero_p(x)) {
    mpfr_set_ui(y, 1, MPFR_RNDN);
    return;
  }
  mpfr_t p;
  mpfr_init2(p, prec);
  mpfr_sinpi(y, x, MPFR_RNDN);
  mpfr_const_pi(p, MPFR_RNDN);
  mpfr_mul(p, p, x, MPFR_RNDN);
  mpfr_div(y, y, p, MPFR_RNDN);
  mpfr_clear(p);
}
void hardsigmoid_m(mpfr_t y, const mpfr_t x, mpfr_prec_t) {
  mpfr_add_ui(y, x, 3, MPFR_RNDN);
  if (mpfr_sgn(y) < 0) mpfr_set_zero(y, 1);
  if (mpfr_cmp_ui(y, 6) > 0) mpfr_set_ui(y, 6, MPFR_RNDN);
  mpfr_div_ui(y, y, 6, MPFR_RNDN);
}
void hardswish_m(mpfr_t y, const mpfr_t x, mpfr_prec_t prec) {
  hardsigmoid_m(y, x, prec);
  mpfr_mul(y, y, x, MPFR_RNDN);
}
// softplus(x) = max(x, 0) + log1p(exp(-|x|)) into y.
void softplus_m(mpfr_t y, const mpfr_t x, mpfr_prec_t prec) {
  mpfr_t m;
  mpfr_init2(m, prec);
  mpfr_abs(y, x, MPFR_RNDN);
  mpfr_neg(y, y, MPFR_RNDN);
  mpfr_exp(y, y, MPFR_RNDN);
  mpfr_log1p(y, y, MPFR_RNDN);
  mpfr_set(m, x, MPFR_RNDN);
  if (mpfr_sgn(m) < 0) mpfr_set_zero(m, 1);
  mpfr_add(y, y, m, MPFR_RNDN);
  mpfr_clear(m);
}
void mish_m(mpfr_t y, const mpfr_t x, mpfr_prec_t prec) {
  softplus_m(y, x, prec);
  mpfr_tanh(y, y, MPFR_RNDN);
  mpfr_mul(y, y, x, MPFR_RNDN);
}
// log_sigmoid(x) = min(x, 0) - log1p(exp(-|x|)): x - softplus(x) would cancel for large x.
void log_sigmoid_m(mpfr_t y, const mpfr_t x, mpfr_prec_t) {
  mpfr_abs(y, x, MPFR_RNDN);
  mpfr_neg(y, y, MPFR_RNDN);
  mpfr_exp(y, y, MPFR_RNDN);
  mpfr_log1p(y, y, MPFR_RNDN);
  if (mpfr_sgn(x) < 0) {
    mpfr_sub(y, x, y, MPFR_RNDN);
  } else {
    mpfr_neg(y, y, MPFR_RNDN);
  }
}
void square_m(mpfr_t y, const mpfr_t x, mpfr_prec_t) {
  mpfr_sqr(y, x, MPFR_RNDN);
}
void lgamma_m(mpfr_t y, const mpfr_t x, mpfr_prec_t) {
  int sign = 0;
  mpfr_lgamma(y, &sign, x, MPFR_RNDN);  // log |Gamma(x)|; +inf at the poles
}
// Note [Activation coefficients in the oracle]
// The activations' coefficients are float32 values (Note [Activation parameters] in
// lib/src/ops/unary.cpp: ATen's opmath for float32, float16 and bfloat16): the oracle rounds the
// exact function of those, selu's alpha and scale included. softplus keeps ATen's switch to x
// above its threshold 20 (exact there in these formats: log1p(e^x) - x < e^-20 < half an ULP).
constexpr double kSlope = static_cast<float>(0.01);
double leaky_relu_d(double x) {  // NaN stays (x > 0 is false)
  return x > 0 ? x : x * kSlope;
}
void leaky_relu_m(mpfr_t y, const mpfr_t x, mpfr_prec_t) {
  if (mpfr_sgn(x) > 0) {
    mpfr_set(y, x, MPFR_RNDN);
  } else {
    mpfr_mul_d(y, x, kSlope, MPFR_RNDN);
  }
}
void elu_m(mpfr_t y, const mpfr_t x, mpfr_prec_t) {
  if (mpfr_sgn(x) > 0) {
    mpfr_set(y, x, MPFR_RNDN);
  } else {
    mpfr_expm1(y, x, MPFR_RNDN);
  }
}
void selu_m(mpfr_t y, const mpfr_t x, mpfr_prec_t) {
  if (mpfr_sgn(x) > 0) {
    mpfr_mul_d(y, x, kSeluScale, MPFR_RNDN);
  } else {
    mpfr_expm1(y, x, MPFR_RNDN);
    mpfr_mul_d(y, y, kSeluAlpha, MPFR_RNDN);
    mpfr_mul_d(y, y, kSeluScale, MPFR_RNDN);
  }
}
void softplus_switch_m(mpfr_t y, const mpfr_t x, mpfr_prec_t prec) {
  if (mpfr_cmp_ui(x, 20) > 0) {
    mpfr_set(y, x, MPFR_RNDN);
  } else {
    softplus_m(y, x, prec);
  }
}
void softsign_m(mpfr_t y, const mpfr_t x, mpfr_prec_t prec) {
  mpfr_t d;
  mpfr_init2(d, prec);
  mpfr_abs(d, x, MPFR_RNDN);
  mpfr_add_ui(d, d, 1, MPFR_RNDN);
  mpfr_div(y, x, d, MPFR_RNDN);
  mpfr_clear(d);
}
void hardtanh_m(mpfr_t y, const mpfr_t x, mpfr_prec_t) {
  mpfr_set(y, x, MPFR_RNDN);
  if (mpfr_cmp_si(y, -1) < 0) mpfr_set_si(y, -1, MPFR_RNDN);
  if (mpfr_cmp_si(y, 1) > 0) mpfr_set_si(y, 1, MPFR_RNDN);
}
void digamma_m(mpfr_t y, const mpfr_t x, mpfr_prec_t) {
  mpfr_digamma(y, x, MPFR_RNDN);
}
void frac_m(mpfr_t y, const mpfr_t x, mpfr_prec_t) {
  mpfr_frac(y, x, MPFR_RNDN);
}
// erfinv by Newton's method in MPFR from the double value (53 correct bits, doubling per step:
// six steps pass 1024), on erf(y) - a, or (1 - a) - erfc(y) for a > 1/2 (no cancellation).
void erfinv_m(mpfr_t y, const mpfr_t x, mpfr_prec_t prec) {
  mpfr_t a, c, k, z, f, d;
  mpfr_inits2(prec + 64, a, c, k, z, f, d, static_cast<mpfr_ptr>(nullptr));
  mpfr_abs(a, x, MPFR_RNDN);
  mpfr_ui_sub(c, 1, a, MPFR_RNDN);  // exact
  const bool tail = mpfr_cmp_d(a, 0.5) > 0;
  mpfr_const_pi(k, MPFR_RNDN);
  mpfr_sqrt(k, k, MPFR_RNDN);
  mpfr_ui_div(k, 2, k, MPFR_RNDN);  // 2 / sqrt(pi)
  mpfr_set_d(z, staged_one(erfinv_staged, mpfr_get_d(a, MPFR_RNDN)), MPFR_RNDN);
  for (int i = 0; i < 6; ++i) {
    if (tail) {
      mpfr_erfc(f, z, MPFR_RNDN);
      mpfr_sub(f, c, f, MPFR_RNDN);
    } else {
      mpfr_erf(f, z, MPFR_RNDN);
      mpfr_sub(f, f, a, MPFR_RNDN);
    }
    mpfr_sqr(d, z, MPFR_RNDN);
    mpfr_neg(d, d, MPFR_RNDN);
    mpfr_exp(d, d, MPFR_RNDN);
    mpfr_mul(d, d, k, MPFR_RNDN);
    mpfr_div(f, f, d, MPFR_RNDN);
    mpfr_sub(z, z, f, MPFR_RNDN);
  }
  mpfr_set(y, z, MPFR_RNDN);
  if (mpfr_sgn(x) < 0) mpfr_neg(y, y, MPFR_RNDN);
  mpfr_clears(a, c, k, z, f, d, static_cast<mpfr_ptr>(nullptr));
}

}  // namespace

// Note [Cheap definitions in batches]
// A definition of a few instructions (square, leaky_relu, hardtanh, ...) cost less than the
// indirect call that evaluated it per input: `batch` runs the same f64 over an array, inlined.
// Note [Exact in double]
// Where the double definition is exact for every input of the formats swept (square: a product
// of two values of 24 significant bits or fewer; leaky_relu: x or x times the float32 slope;
// hardtanh and frac: a clamp and the fraction bits of x), its rounding into the format is the
// correctly rounded result, exact midpoints included (ties to even): no MPFR call. square met
// about 28 million exact midpoints in a full float32 sweep, each decided by MPFR before.
struct UnaryOracle {
  std::string_view name;
  double (*f64)(double);  // or, for a composite (f64 null), its stages:
  StagedFn staged;
  MpfrFn mpfr;
  DoubleBatchFn batch = nullptr;  // f64 over an array, inlined
  bool exact = false;             // f64 is exact in double
};

namespace {

// op_list.def's unary float ops (UnaryFloat) and the float-only unary activations without
// parameters (gelu at approximate='none'). The ops whose double definition is the C function of
// their name take libmvec's vector form in batches (Note [The vector double path]).
const UnaryOracle kOracles[] = {
    {"exp", [](double x) { return std::exp(x); }, nullptr, exp_m},
    {"expm1", [](double x) { return std::expm1(x); }, nullptr, expm1_m},
    {"log", [](double x) { return std::log(x); }, nullptr, log_m},
    {"log1p", [](double x) { return std::log1p(x); }, nullptr, log1p_m},
    {"sqrt", [](double x) { return std::sqrt(x); }, nullptr, sqrt_m},
    {"rsqrt", rsqrt_d, nullptr, rsqrt_m},
    {"reciprocal", reciprocal_d, nullptr, reciprocal_m},
    // Note [Exact reduction of float32 arguments] in oracle_trig.cpp
    {"sin", nullptr, sin_staged, sin_m},
    {"cos", nullptr, cos_staged, cos_m},
    {"tan", [](double x) { return std::tan(x); }, nullptr, tan_m},  // libmvec's is fast
    {"tanh", [](double x) { return std::tanh(x); }, nullptr, tanh_m},
    {"sigmoid", nullptr, sigmoid_staged, sigmoid_m},
    {"gelu", nullptr, gelu_staged, gelu_m},
    {"silu", nullptr, silu_staged, silu_m},
    {"erf", [](double x) { return std::erf(x); }, nullptr, erf_m},
    {"erfc", [](double x) { return std::erfc(x); }, nullptr, erfc_m},
    {"exp2", [](double x) { return std::exp2(x); }, nullptr, exp2_m},
    {"log2", [](double x) { return std::log2(x); }, nullptr, log2_m},
    {"log10", [](double x) { return std::log10(x); }, nullptr, log10_m},
    {"asin", [](double x) { return std::asin(x); }, nullptr, asin_m},
    {"acos", [](double x) { return std::acos(x); }, nullptr, acos_m},
    {"atan", [](double x) { return std::atan(x); }, nullptr, atan_m},
    {"sinh", [](double x) { return std::sinh(x); }, nullptr, sinh_m},
    {"cosh", [](double x) { return std::cosh(x); }, nullptr, cosh_m},
    {"asinh", [](double x) { return std::asinh(x); }, nullptr, asinh_m},
    {"acosh", [](double x) { return std::acosh(x); }, nullptr, acosh_m},
    {"atanh", [](double x) { return std::atanh(x); }, nullptr, atanh_m},
    {"erfinv", nullptr, erfinv_staged, erfinv_m},  // Note [erfinv in the oracle]
    {"sinc", nullptr, sinc_staged, sinc_m},
    {"frac", frac_d, nullptr, frac_m, batch_of<frac_d>, true},
    {"hardsigmoid", hardsigmoid_d, nullptr, hardsigmoid_m, batch_of<hardsigmoid_d>},
    {"hardswish", hardswish_d, nullptr, hardswish_m, batch_of<hardswish_d>},
    {"mish", nullptr, mish_staged, mish_m},
    {"log_sigmoid", nullptr, log_sigmoid_staged, log_sigmoid_m},
    {"square", square_d, nullptr, square_m, batch_of<square_d>, true},
    {"lgamma", lgamma_d, nullptr, lgamma_m},
    {"digamma", digamma_d, nullptr, digamma_m},  // Note [digamma in the oracle]
    // Note [Activation coefficients in the oracle]
    {"leaky_relu", leaky_relu_d, nullptr, leaky_relu_m, batch_of<leaky_relu_d>, true},
    {"elu", nullptr, elu_staged, elu_m},
    {"selu", nullptr, selu_staged, selu_m},
    {"celu", nullptr, elu_staged, elu_m},  // celu(x, 1) = elu(x, 1, 1, 1)
    {"softplus", nullptr, softplus_staged, softplus_switch_m},
    {"softsign", softsign_d, nullptr, softsign_m, batch_of<softsign_d>},
    {"hardtanh", hardtanh_d, nullptr, hardtanh_m, batch_of<hardtanh_d>, true},
};

constexpr Format kFormats[] = {
    {kFloat, 24, -126, 127}, {kHalf, 11, -14, 15}, {kBFloat16, 8, -126, 127}};

double max_finite(const Format& fmt) {
  return std::ldexp(2.0 - std::ldexp(1.0, 1 - fmt.precision), fmt.emax);
}

// An MPFR value rounded into `fmt`: scaled so that the format's ULP at its binade is 1, rounded
// to an integer (ties to even), scaled back.
double round_mpfr(const mpfr_t y, const Format& fmt) {
  if (!mpfr_number_p(y) || mpfr_zero_p(y)) return mpfr_get_d(y, MPFR_RNDN);
  const long e = std::max<long>(mpfr_get_exp(y) - 1, fmt.emin);
  const long q = e - (fmt.precision - 1);
  mpfr_t t;
  mpfr_init2(t, mpfr_get_prec(y));
  mpfr_mul_2si(t, y, -q, MPFR_RNDN);  // exact: an exponent change
  mpfr_rint(t, t, MPFR_RNDN);
  const double r = std::ldexp(mpfr_get_d(t, MPFR_RNDN), static_cast<int>(q));
  mpfr_clear(t);
  return std::fabs(r) > max_finite(fmt) ? std::copysign(HUGE_VAL, r) : r;
}

// The double evaluation when it settles the result without MPFR: NaN, infinities, zeros,
// underflow (Note [Double first, MPFR where double cannot decide]).
bool special_result(double y, Rounded& out) {
  if (std::isnan(y) || std::isinf(y) || y == 0) {
    out.value = y;
    return true;
  }
  if (std::fabs(y) < 0x1p-900) {
    out.value = std::copysign(0.0, y);
    return true;
  }
  return false;
}

template <ScalarType D>
uint32_t bits_of(double v) {  // v a value of D's format, nan or +-inf (exact)
  if constexpr (D == kFloat) return detail::float_bits(static_cast<float>(v));
  if constexpr (D == kHalf) return detail::float_to_half_bits(static_cast<float>(v));
  return detail::float_to_bf16_bits(static_cast<float>(v));
}

// Note [The cheap boundary test]
// A normal result of the format below its largest finite value keeps 53 - p of its double's
// low significand bits out of the format; the midpoint between two values of the format is the
// pattern 100...0 of those bits. The margin 2^-40 |y| of Note [Double first, MPFR where double
// cannot decide] is under 2^13 ULPs of y's double, so y decides its rounding when those bits
// are more than 2^14 from the midpoint pattern: round to nearest is then adding half and
// truncating the bits (a carry moves to the next binade, which is a value of the format too).
// Subnormal, overflowing, zero, NaN and infinite results take the general path. Integer
// operations only: no libm call per input.
inline bool far_from_midpoint(double y, const Format& fmt, double& rounded) {
  uint64_t bits = 0;
  std::memcpy(&bits, &y, sizeof bits);
  const auto exponent = [](uint64_t b) { return static_cast<int>((b >> 52) & 0x7ff) - 1023; };
  if (exponent(bits) < fmt.emin || exponent(bits) > fmt.emax) return false;  // NaN, inf too
  const int drop = 53 - fmt.precision;
  const uint64_t mask = (uint64_t{1} << drop) - 1, half = uint64_t{1} << (drop - 1);
  const uint64_t low = bits & mask;
  if ((low > half ? low - half : half - low) <= (uint64_t{1} << 14)) return false;
  bits = (bits + half) & ~mask;
  if (exponent(bits) > fmt.emax) return false;  // rounds to infinity
  std::memcpy(&rounded, &bits, sizeof rounded);
  return true;
}

// Ziv's loop over kMpfrPrecisions; eval(y, prec) sets y to f at the inputs, within a few ULPs.
template <typename Eval>
Rounded mpfr_rounded(const Eval& eval, double approx, const Format& fmt) {
  Rounded out;
  out.approx = approx;
  out.used_mpfr = true;
  for (const mpfr_prec_t prec : kMpfrPrecisions) {
    mpfr_t y, d, lo, hi;
    mpfr_inits2(prec, y, d, lo, hi, static_cast<mpfr_ptr>(nullptr));
    eval(y, prec);
    mpfr_abs(d, y, MPFR_RNDN);
    mpfr_mul_2si(d, d, kMpfrSlackBits - prec, MPFR_RNDN);
    mpfr_sub(lo, y, d, MPFR_RNDD);
    mpfr_add(hi, y, d, MPFR_RNDU);
    const double rlo = round_mpfr(lo, fmt);
    const double rhi = round_mpfr(hi, fmt);
    const bool last = prec == kMpfrPrecisions[std::size(kMpfrPrecisions) - 1];
    const bool decided = rlo == rhi && std::signbit(rlo) == std::signbit(rhi);
    if (decided || last) out.value = decided ? rlo : round_mpfr(y, fmt);
    if ((decided || last) && is_undecided(approx)) out.approx = mpfr_get_d(y, MPFR_RNDN);
    mpfr_clears(y, d, lo, hi, static_cast<mpfr_ptr>(nullptr));
    if (decided || last) break;
  }
  return out;
}

Rounded mpfr_rounded(const UnaryOracle& op, double x, double approx, const Format& fmt) {
  return mpfr_rounded(
      [&](mpfr_t y, mpfr_prec_t prec) {
        mpfr_t mx;
        mpfr_init2(mx, prec);
        mpfr_set_d(mx, x, MPFR_RNDN);  // exact: prec >= 53
        op.mpfr(y, mx, prec);
        mpfr_clear(mx);
      },
      approx, fmt);
}

// The double evaluation is the decision when it is far from a midpoint or settles the result.
bool double_decides(double y, const Format& fmt, Rounded& out) {
  out.approx = y;
  return far_from_midpoint(y, fmt, out.value) || special_result(y, out);
}

// [y - 2^-40 |y|, y + 2^-40 |y|] rounds to one value of the format.
bool interval_decides(double y, const Format& fmt, Rounded& out) {
  const double d = std::fabs(y) * kDoubleMargin;
  const double lo = round_to_format(y - d, fmt);
  const double hi = round_to_format(y + d, fmt);
  if (lo != hi || std::signbit(lo) != std::signbit(hi)) return false;
  out.value = lo;
  return true;
}

}  // namespace

const Format& format_of(ScalarType dtype, std::string_view what) {
  for (const Format& f : kFormats) {
    if (f.dtype == dtype) return f;
  }
  TS_ERROR(what, ": dtype ", dtype_name(dtype),
           " is not swept (expected float32, float16 or bfloat16)");
}

double round_to_format(double y, const Format& fmt) {
  if (fmt.dtype == kFloat) return static_cast<float>(y);  // the hardware rounds RN-even
  if (!std::isfinite(y) || y == 0) return y;
  const int e = std::max(std::ilogb(y), fmt.emin);
  const double q = std::ldexp(1.0, e - (fmt.precision - 1));
  const double r = std::nearbyint(y / q) * q;
  return std::fabs(r) > max_finite(fmt) ? std::copysign(HUGE_VAL, y) : r;
}

uint32_t format_bits(double v, const Format& fmt) {
  if (fmt.dtype == kFloat) return bits_of<kFloat>(v);
  return fmt.dtype == kHalf ? bits_of<kHalf>(v) : bits_of<kBFloat16>(v);
}

double format_value(uint32_t bits, const Format& fmt) {
  if (fmt.dtype == kFloat) return detail::bits_float(bits);
  const auto b = static_cast<uint16_t>(bits);
  return fmt.dtype == kHalf ? detail::half_bits_to_float(b) : detail::bf16_bits_to_float(b);
}

const UnaryOracle* find_oracle(std::string_view name) {
  for (const UnaryOracle& o : kOracles) {
    if (o.name == name) return &o;
  }
  return nullptr;
}

const std::vector<std::string_view>& oracle_op_names() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> v;
    for (const UnaryOracle& o : kOracles) v.push_back(o.name);
    return v;
  }();
  return names;
}

Rounded correctly_rounded(const UnaryOracle& op, double x, const Format& fmt) {
  Rounded out;
  const double y = op.f64 != nullptr ? op.f64(x) : staged_one(op.staged, x);
  if (!is_undecided(y) && (double_decides(y, fmt, out) || interval_decides(y, fmt, out))) {
    return out;
  }
  return mpfr_rounded(op, x, y, fmt);
}

namespace {

// correctly_rounded_bits' decisions, the format known at compile time: most inputs take the
// cheap boundary test and never leave this loop.
// Note [silu and gelu at tiny x]
// silu(x) = x/2 + x^2/4 - ..., gelu(x) = x/2 + x^2/sqrt(2 pi) + ... and hardswish(x) = x/2 +
// x^2/6: for 0 < |x| < 2^-60 the exact value is x/2 + d with 0 < d < 2^-61 |x/2|, inside a double
// ULP of x/2. No double lies
// between x/2 and its successor, and the successor (53 significant bits) is no rounding boundary
// of a format (values and midpoints have at most 25), so the exact value rounds as the successor.
// Where x/2 is itself a midpoint (x subnormal or in the least normal binade: 2^24 float32 inputs
// each) the double path cannot decide, and MPFR took two precisions for each; this is exact.
bool tiny_x_over_two(std::string_view op, double x, const Format& fmt, Rounded& out) {
  if ((op != "silu" && op != "gelu" && op != "hardswish") || x == 0 || !(std::fabs(x) < 0x1p-60)) {
    return false;
  }
  out.value = round_to_format(std::nextafter(x / 2, HUGE_VAL), fmt);
  out.approx = x / 2;
  return true;
}

// The decision where the cheap boundary test fails: special results, the interval test, MPFR.
template <ScalarType D>
uint32_t decide_near(const UnaryOracle& op, double x, double& approx, uint64_t& mpfr_calls) {
  static constexpr Format fmt = D == kFloat ? kFormats[0] : D == kHalf ? kFormats[1] : kFormats[2];
  Rounded r;
  if (is_undecided(approx) || (!special_result(approx, r) && !interval_decides(approx, fmt, r))) {
    if (op.exact && !is_undecided(approx)) {  // Note [Exact in double]
      r.value = round_to_format(approx, fmt);
      r.approx = approx;
    } else if (!tiny_x_over_two(op.name, x, fmt, r)) {
      r = mpfr_rounded(op, x, approx, fmt);
      ++mpfr_calls;
    }
    approx = r.approx;
  }
  return bits_of<D>(r.value);
}

template <ScalarType D>
uint64_t decide_all(const UnaryOracle& op, const double* x, size_t n, uint32_t* want,
                    double* approx) {
  static constexpr Format fmt = D == kFloat ? kFormats[0] : D == kHalf ? kFormats[1] : kFormats[2];
  uint64_t mpfr_calls = 0;
  if constexpr (D == kFloat) {  // the boundary test in lanes, then the few it leaves
    thread_local std::vector<uint8_t> open;
    open.assign(n + 8, 0);  // read 8 flags at a time: most words are zero
    const auto keep = std::bit_cast<uint64_t>(undecided());
    if (!lanes::round_far_from_midpoints(approx, n, want, open.data(), keep)) return 0;
    for (size_t i0 = 0; i0 < n; i0 += 8) {
      uint64_t word = 0;
      std::memcpy(&word, open.data() + i0, sizeof word);
      for (size_t i = i0; word != 0 && i < std::min(n, i0 + 8); ++i) {
        if (open[i] != 0) want[i] = decide_near<D>(op, x[i], approx[i], mpfr_calls);
      }
    }
    return mpfr_calls;
  }
  for (size_t i = 0; i < n; ++i) {
    double v = 0;
    want[i] = far_from_midpoint(approx[i], fmt, v)
                  ? bits_of<D>(v)
                  : decide_near<D>(op, x[i], approx[i], mpfr_calls);
  }
  return mpfr_calls;
}

}  // namespace

void format_values(const uint32_t* bits, size_t n, const Format& fmt, double* out) {
  if (fmt.dtype == kFloat) {
    lanes::widen_floats(bits, n, out);
    return;
  }
  for (size_t i = 0; i < n; ++i) out[i] = format_value(bits[i], fmt);
}

// Note [The vector double path]
// The double evaluation is most of a sweep's cost: one libm call per input, 2^32 of them. glibc's
// libmvec has vector forms of the C functions exp ... atanh (the x86_64 vector ABI's
// _ZGVeN8v_exp: 8 lanes of AVX-512, _ZGVdN4v_exp: 4 of AVX2; lanes with special or out-of-range
// arguments go to the scalar function inside). glibc documents them within 4 double ULPs
// (2^-50 relative), inside the 2^-45 that Note [Double first, MPFR where double cannot decide]
// assumes, so the decision and its MPFR fallback stand as they are. The test
// SweepOracle.VectorDoublePathGivesTheScalarPathsBits holds both paths to the same bits.
namespace {

void evaluate(const UnaryOracle& op, const double* x, size_t n, double* y, bool vector) {
  const DoubleBatchFn batch = vector ? libmvec_batch(op.name) : nullptr;
  if (op.staged != nullptr) {
    op.staged(x, y, n, vector ? vector_math() : scalar_math());
  } else if (batch != nullptr) {
    batch(x, y, n);
  } else if (op.batch != nullptr) {
    op.batch(x, y, n);
  } else {
    for (size_t i = 0; i < n; ++i) y[i] = op.f64(x[i]);
  }
}

// Note [The oracle's domains]
// Outside its domain an op is NaN. erfinv's staged definition (Note [erfinv in the oracle]) costs
// four Newton steps an input, and half of all float32 inputs lie outside [-1, 1]: the batch path
// evaluates the inputs inside (and NaN inputs, which it passes through) and gives the others NaN
// directly. Measured on full float32 sweeps of the four sets, CPU seconds: erfinv 417 -> 332.
// (The functions libmvec has screen their lanes themselves: Note [Saturated lanes] in
// oracle_vec.cpp; sqrt, rsqrt and reciprocal run as vector instructions there.) NaN inputs are
// never outside.
struct Domain {
  std::string_view op;
  double lo, hi;        // the inputs x < lo or x > hi are outside
  double below, above;  // an input below lo and one above hi: their value stands for all
  double inside;        // evaluated in the place of an input outside
  bool compact = false;
};
constexpr Domain kDomains[] = {
    {"erfinv", -1, 1, -2, 2, 0, true},
};

void evaluate_in_domain(const UnaryOracle& op, const Domain& d, const double* x, size_t n,
                        double* y, bool vector) {
  if (d.compact) {
    thread_local std::vector<double> inside_x, inside_y;
    thread_local std::vector<size_t> at;
    inside_x.clear();
    at.clear();
    for (size_t i = 0; i < n; ++i) {
      if (x[i] < d.lo || x[i] > d.hi) {
        y[i] = std::numeric_limits<double>::quiet_NaN();
      } else {
        at.push_back(i);
        inside_x.push_back(x[i]);
      }
    }
    inside_y.resize(inside_x.size());
    evaluate(op, inside_x.data(), inside_x.size(), inside_y.data(), vector);
    for (size_t k = 0; k < at.size(); ++k) y[at[k]] = inside_y[k];
    return;
  }
  const double ends[2] = {d.below, d.above};
  double end_values[2];
  evaluate(op, ends, 2, end_values, vector);
  thread_local std::vector<double> xs;
  xs.resize(n);
  for (size_t i = 0; i < n; ++i) xs[i] = x[i] < d.lo || x[i] > d.hi ? d.inside : x[i];
  evaluate(op, xs.data(), n, y, vector);
  for (size_t i = 0; i < n; ++i) {
    y[i] = x[i] < d.lo ? end_values[0] : x[i] > d.hi ? end_values[1] : y[i];
  }
}

}  // namespace

uint64_t correctly_rounded_bits(const UnaryOracle& op, const double* x, size_t n, const Format& fmt,
                                uint32_t* want, double* approx, bool vector) {
  const Domain* domain = nullptr;
  for (const Domain& d : kDomains) domain = d.op == op.name ? &d : domain;
  if (domain == nullptr) {
    evaluate(op, x, n, approx, vector);
  } else {
    evaluate_in_domain(op, *domain, x, n, approx, vector);
  }
  switch (fmt.dtype) {
    case kFloat:
      return decide_all<kFloat>(op, x, n, want, approx);
    case kHalf:
      return decide_all<kHalf>(op, x, n, want, approx);
    default:
      return decide_all<kBFloat16>(op, x, n, want, approx);
  }
}

// Note [Binary ops of 16-bit inputs]
// float16 and bfloat16 values have at most 11 significant bits and exponents in [-133, 127]: a
// product of two is exact in double, and so is a sum whose operands' exponents differ by less
// than 42. Otherwise add, sub, mul and div give y = RN(exact) and e = exact - y is known exactly
// (TwoSum; fma residuals: a - b y of a correctly rounded quotient is exact). Rounding is monotone
// and the format's rounding boundaries (its midpoints, the overflow threshold) are doubles, so
// the exact value rounds as y does unless y is a boundary; then it rounds as y's neighbour on
// e's side (no other boundary lies within a double ULP), and an exact boundary (e = 0: bfloat16
// 1 + 2^-8 or 2^-134) ties to even. No MPFR for these four. pow, atan2 and hypot (glibc's double
// pow, atan2 and hypot are within 1 ULP) take the unary ops' path, the interval test then MPFR; an
// exact midpoint (pow(1.0625, 2) = 1.125 + 2^-8) is MPFR's exact 1024-bit value, tied to even.
namespace {

// The sign of exact - y for add, sub, mul and div: y is their double result at a, b.
double add_residual(double a, double b, double y) {
  const double bb = y - a;
  return (a - (y - bb)) + (b - bb);  // TwoSum: exact
}
double sub_residual(double a, double b, double y) {
  return add_residual(a, -b, y);
}
double mul_residual(double a, double b, double y) {
  return std::fma(a, b, -y);
}
double div_residual(double a, double b, double y) {
  const double r = std::fma(-y, b, a);  // a - b y, exact
  return r == 0 ? 0.0 : std::signbit(r) == std::signbit(b) ? 1.0 : -1.0;
}

using MpfrBinaryFn = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);

}  // namespace

struct BinaryOracle {
  std::string_view name;
  double (*f64)(double, double);
  double (*residual)(double, double, double);  // nullptr: pow, atan2
  MpfrBinaryFn mpfr;
};

namespace {

const BinaryOracle kBinaryOracles[] = {
    {"add", [](double a, double b) { return a + b; }, add_residual, mpfr_add},
    {"sub", [](double a, double b) { return a - b; }, sub_residual, mpfr_sub},
    {"mul", [](double a, double b) { return a * b; }, mul_residual, mpfr_mul},
    {"div", [](double a, double b) { return a / b; }, div_residual, mpfr_div},
    {"pow", [](double a, double b) { return std::pow(a, b); }, nullptr, mpfr_pow},
    {"atan2", [](double a, double b) { return std::atan2(a, b); }, nullptr, mpfr_atan2},
    {"hypot", [](double a, double b) { return std::hypot(a, b); }, nullptr, mpfr_hypot},
};

// Note [Binary ops of 16-bit inputs]: y's rounding, or its neighbour's on e's side at a boundary.
double round_with_residual(double y, double e, const Format& fmt) {
  const double down = round_to_format(std::nextafter(y, -HUGE_VAL), fmt);
  const double up = round_to_format(std::nextafter(y, HUGE_VAL), fmt);
  if (down == up || e == 0) return round_to_format(y, fmt);
  return e > 0 ? up : down;
}

Rounded mpfr_rounded(const BinaryOracle& op, double a, double b, double approx, const Format& fmt) {
  return mpfr_rounded(
      [&](mpfr_t y, mpfr_prec_t prec) {
        mpfr_t ma, mb;
        mpfr_inits2(prec, ma, mb, static_cast<mpfr_ptr>(nullptr));
        mpfr_set_d(ma, a, MPFR_RNDN);
        mpfr_set_d(mb, b, MPFR_RNDN);
        op.mpfr(y, ma, mb, MPFR_RNDN);
        mpfr_clears(ma, mb, static_cast<mpfr_ptr>(nullptr));
      },
      approx, fmt);
}

}  // namespace

const BinaryOracle* find_binary_oracle(std::string_view name) {
  for (const BinaryOracle& o : kBinaryOracles) {
    if (o.name == name) return &o;
  }
  return nullptr;
}

const std::vector<std::string_view>& binary_oracle_op_names() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> v;
    for (const BinaryOracle& o : kBinaryOracles) v.push_back(o.name);
    return v;
  }();
  return names;
}

Rounded correctly_rounded(const BinaryOracle& op, double a, double b, const Format& fmt) {
  Rounded out;
  const double y = op.f64(a, b);
  if (double_decides(y, fmt, out)) return out;
  if (op.residual != nullptr) {
    out.value = round_with_residual(y, op.residual(a, b, y), fmt);
    return out;
  }
  if (interval_decides(y, fmt, out)) return out;
  return mpfr_rounded(op, a, b, y, fmt);
}

Rounded correctly_rounded_mpfr(const BinaryOracle& op, double a, double b, const Format& fmt) {
  Rounded out;
  const double y = op.f64(a, b);
  out.approx = y;
  if (special_result(y, out)) return out;
  return mpfr_rounded(op, a, b, y, fmt);
}

Rounded correctly_rounded_mpfr(const UnaryOracle& op, double x, const Format& fmt) {
  Rounded out;
  const double y = op.f64 != nullptr ? op.f64(x) : staged_one(op.staged, x);
  out.approx = y;
  if (!is_undecided(y) && special_result(y, out)) return out;
  return mpfr_rounded(op, x, y, fmt);
}

}  // namespace ts::sweep
