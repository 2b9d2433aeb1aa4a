// Reference kernels for binary elementwise ops. See Note [Reference kernels] in common.h.
// Integer arithmetic wraps through uint64 so that it never overflows (int8 127 + 1 == -128).
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "common.h"
#include "touchstone/kernel_family.h"
#include "touchstone/promotion.h"

namespace ts::reference {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

uint64_t u(int64_t x) {
  return static_cast<uint64_t>(x);
}
int64_t s(uint64_t x) {
  return static_cast<int64_t>(x);
}

// fd(a, b) for a floating compute dtype, fi(a, b) for an integral (or bool) one.
template <typename FD, typename FI>
void binary(const KernelCall& c, FD fd, FI fi) {
  elementwise<2>(
      c, [&](const double* v) { return fd(v[0], v[1]); },
      [&](const int64_t* v) { return fi(v[0], v[1]); });
}

// a + alpha * b (sub: alpha negated).
void add_sub(const KernelCall& c, int sign) {
  const Scalar& alpha = c.params<AlphaParams>().alpha;
  const double fa = sign * alpha.to_double();
  const int64_t ia = s(u(sign) * u(alpha.to_long()));
  binary(
      c, [&](double a, double b) { return a + fa * b; },
      [&](int64_t a, int64_t b) { return s(u(a) + u(ia) * u(b)); });
}

void add_kernel(const KernelCall& c) {
  add_sub(c, 1);
}

void sub_kernel(const KernelCall& c) {
  add_sub(c, -1);
}

// Note [Integer division by zero]
// Integer div (trunc, floor) and remainder by zero throw "ZeroDivisionError", as ATen does.
// The reference checks every divisor before writing anything, so a failed call leaves the
// output (which may be an input, in-place) untouched.
void check_no_zero_divisor(const KernelCall& c) {
  if (is_floating_type(c.p.compute_dtype)) return;
  const Tensor& b = c.inputs[1];
  for_each_index(c.outputs[0].sizes(), [&](IntArrayRef idx) {
    TS_CHECK(load_as_int64(element_ptr(b, idx), b.dtype(), c.p.compute_dtype) != 0,
             op_info(c.op).name, ": ZeroDivisionError");
  });
}

// a / b rounded toward zero. INT64_MIN / -1 wraps (the narrower dtypes wrap on store). Every
// divisor was checked, but an in-place self that overlaps the divisor can turn one to zero
// while the loop runs: that element is unspecified (0), never undefined behaviour (SIGFPE).
int64_t int_div_trunc(int64_t a, int64_t b) {
  if (b == 0) return 0;
  return b == -1 ? s(0 - u(a)) : a / b;
}
// a % b with the sign of a (C++); b == 0 as in int_div_trunc.
int64_t int_rem_trunc(int64_t a, int64_t b) {
  if (b == 0) return 0;
  return b == -1 ? 0 : a % b;
}

// Note [Floor division of floats]
// Python's algorithm (PyTorch's too): take the exact remainder with fmod, divide the exact
// multiple a - mod by b, step down when the remainder and b differ in sign, then round the
// quotient to the nearest integer. Unlike floor(a / b) it gives 1 // 0.1 == 9, as Python does.
// Division by zero gives the IEEE quotient (±inf or NaN); a zero result takes the sign of a / b.
double float_div_floor(double a, double b) {
  if (b == 0) return a / b;
  const double mod = std::fmod(a, b);
  double div = (a - mod) / b;
  if (mod != 0 && (b < 0) != (mod < 0)) div -= 1;
  if (div == 0) return std::copysign(0.0, a / b);
  double floordiv = std::floor(div);
  if (div - floordiv > 0.5) floordiv += 1;
  return floordiv;
}

void div_kernel(const KernelCall& c) {
  // True division (floating only), or the quotient rounded toward zero or toward -inf.
  const RoundingMode mode = c.params<DivParams>().rounding_mode;
  const ScalarType ct = c.p.compute_dtype;
  if (mode != RoundingMode::None) check_no_zero_divisor(c);
  binary(
      c,
      [&](double a, double b) {
        // trunc applies to the quotient as rounded to the compute dtype, as ATen's trunc(a / b).
        if (mode == RoundingMode::None) return a / b;
        if (mode == RoundingMode::Trunc) return std::trunc(round_to(ct, a / b));
        return float_div_floor(a, b);
      },
      [&](int64_t a, int64_t b) {
        const int64_t q = int_div_trunc(a, b);
        const bool inexact = int_rem_trunc(a, b) != 0;
        return mode == RoundingMode::Floor && inexact && ((a < 0) != (b < 0)) ? q - 1 : q;
      });
}

// Python's modulo: the result has the sign of the divisor (or is zero). Floats: fmod (exact),
// then add b when the signs differ, as ATen; x % 0.0 is NaN.
double float_remainder(double a, double b) {
  const double mod = std::fmod(a, b);
  return mod != 0 && (b < 0) != (mod < 0) ? mod + b : mod;
}
int64_t int_remainder(int64_t a, int64_t b) {
  const int64_t r = int_rem_trunc(a, b);
  return r != 0 && (r < 0) != (b < 0) ? r + b : r;
}

// Note [Integer pow]
// Exponentiation by squaring in uint64, which wraps like the narrower dtypes. A negative
// exponent gives, as ATen's integral pow: 1 for base 1, ±1 for base -1, 0 otherwise (the
// Tensor-Scalar overload rejects negative scalar exponents in meta).
int64_t int_pow(int64_t base, int64_t exp) {
  if (exp < 0) {
    if (base == 1) return 1;
    if (base == -1) return (exp & 1) != 0 ? -1 : 1;
    return 0;
  }
  uint64_t result = 1;
  uint64_t b = u(base);
  for (uint64_t e = u(exp); e != 0; e >>= 1) {
    if ((e & 1) != 0) result *= b;
    b *= b;
  }
  return s(result);
}

// maximum/minimum propagate NaN (unlike std::max).
double float_maximum(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? kNaN : std::max(a, b);
}
double float_minimum(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? kNaN : std::min(a, b);
}

// ---- math (issue 16) ----

// a / b rounded toward -inf (b != 0 was checked; 0 as in int_div_trunc otherwise).
int64_t int_div_floor(int64_t a, int64_t b) {
  const int64_t q = int_div_trunc(a, b);
  return int_rem_trunc(a, b) != 0 && ((a < 0) != (b < 0)) ? q - 1 : q;
}

// xlogy(x, y) = x * log(y), 0 where x == 0 unless y is NaN (as scipy.special.xlogy).
double xlogy(double x, double y) {
  if (std::isnan(y)) return kNaN;
  return x == 0 ? 0.0 : x * std::log(y);
}

// Note [logaddexp]
// log(e^a + e^b) = max + log1p(e^-|a - b|): no overflow. Equal infinities give themselves (the
// difference would be inf - inf = NaN); NaN in either gives NaN. logaddexp2 the same in base 2.
// In long double (64 bits on x86): for a, b < 0 the sum cancels as the result nears 0, which
// would cost double arithmetic ulps of max in a float64 result.
double logaddexp(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return kNaN;
  if (std::isinf(a) && a == b) return a;
  const long double d = -std::fabs(static_cast<long double>(a) - b);
  return static_cast<double>(std::max<long double>(a, b) + std::log1p(std::exp(d)));
}
double logaddexp2(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return kNaN;
  if (std::isinf(a) && a == b) return a;
  const long double d = -std::fabs(static_cast<long double>(a) - b);
  return static_cast<double>(std::max<long double>(a, b) +
                             std::log1p(std::exp2(d)) / std::numbers::ln2_v<long double>);
}

// heaviside(x, values): values where x == 0, else x > 0 (NaN gives 0, as ATen's x > 0).
template <typename T>
T heaviside(T x, T values) {
  return x == 0 ? values : static_cast<T>(x > 0);
}

// clamp_min/clamp_max with a Tensor bound: a NaN element or bound gives NaN, as clamp (Note
// [clamp with NaN] in unary.cpp).
double float_clamp_min(double x, double lo) {
  return std::isnan(lo) ? kNaN : (x < lo ? lo : x);
}
double float_clamp_max(double x, double hi) {
  return std::isnan(hi) ? kNaN : (x > hi ? hi : x);
}

// Note [nextafter in the compute dtype]
// The neighbour of a in the direction of b among the values of dtype t, which has p significand
// bits, normal exponents down to emin and a largest finite value max: one unit in the last place
// of a, 2^(max(e, emin) - p + 1) for a in [2^e, 2^(e+1)), half of it when a steps toward zero
// from a power of two above the subnormals. 0 steps to the smallest subnormal with b's sign; an
// infinity to +-max; max away from zero to inf; equal operands give b (nextafter(0, -0) = -0);
// the smallest subnormal steps to a zero of its own sign.
double nextafter_in(ScalarType t, double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return kNaN;
  if (a == b) return b;
  int p = 53, emin = -1022, emax = 1023;
  if (t == kFloat) p = 24, emin = -126, emax = 127;
  if (t == kHalf) p = 11, emin = -14, emax = 15;
  if (t == kBFloat16) p = 8, emin = -126, emax = 127;
  if (std::isinf(a)) return std::copysign((2 - std::ldexp(1.0, 1 - p)) * std::ldexp(1.0, emax), a);
  if (a == 0) return std::copysign(std::ldexp(1.0, emin - p + 1), b);
  const int e = std::ilogb(a);
  const bool toward_zero = (b > a) == (a < 0);
  const bool power_of_two = std::fabs(a) == std::ldexp(1.0, e);
  const int step_exp =
      std::max(e, emin) - p + 1 - (toward_zero && power_of_two && e > emin ? 1 : 0);
  const double r = b > a ? a + std::ldexp(1.0, step_exp) : a - std::ldexp(1.0, step_exp);
  return r == 0 ? std::copysign(0.0, a) : r;  // C's nextafter(-min, 1) is -0
}

void nextafter_kernel(const KernelCall& c) {
  const ScalarType ct = c.p.compute_dtype;
  elementwise<2>(
      c, [ct](const double* v) { return nextafter_in(ct, v[0], v[1]); },
      [](const int64_t*) -> int64_t {
        TS_ERROR("nextafter: reference kernel called with integers");
      });
}

// A plain binary op's formulas (Note [Formula tables] in common.h); `divides`: an integral
// divisor of zero throws (Note [Integer division by zero]).
struct BinaryFormula {
  OpId op;
  double (*fd)(double, double);
  int64_t (*fi)(int64_t, int64_t) = nullptr;
  bool divides = false;
};

// One formula for both paths, e.g. a comparison (a captureless generic lambda).
template <class F>
constexpr BinaryFormula same(OpId op, F) {
  return {op, [](double a, double b) -> double { return F{}(a, b); },
          [](int64_t a, int64_t b) -> int64_t { return F{}(a, b); }};
}

// Every plain binary op of op_list.def (a missing row fails to compile: binary_kernel).
// Comparisons run in the compute dtype (both operands are rounded to it first); NaN compares
// unequal to everything; for the logical ops nonzero (NaN too) is true; the bitwise ops take
// integers and bool only.
constexpr BinaryFormula kFormulas[] = {
    {OpId::mul, [](double a, double b) { return a * b; },
     [](int64_t a, int64_t b) { return s(u(a) * u(b)); }},
    {OpId::remainder, float_remainder, int_remainder, /*divides=*/true},
    // pow(a, 2) is a * a, exactly rounded; glibc's pow is not (1 ULP off it for some doubles).
    {OpId::pow, [](double a, double b) { return b == 2 ? a * a : std::pow(a, b); }, int_pow},
    {OpId::maximum, float_maximum, [](int64_t a, int64_t b) { return std::max(a, b); }},
    {OpId::minimum, float_minimum, [](int64_t a, int64_t b) { return std::min(a, b); }},
    {OpId::atan2, [](double a, double b) { return std::atan2(a, b); }},
    same(OpId::eq, [](auto a, auto b) { return a == b; }),
    same(OpId::ne, [](auto a, auto b) { return a != b; }),
    same(OpId::lt, [](auto a, auto b) { return a < b; }),
    same(OpId::le, [](auto a, auto b) { return a <= b; }),
    same(OpId::gt, [](auto a, auto b) { return a > b; }),
    same(OpId::ge, [](auto a, auto b) { return a >= b; }),
    same(OpId::logical_and, [](auto a, auto b) { return a != 0 && b != 0; }),
    same(OpId::logical_or, [](auto a, auto b) { return a != 0 || b != 0; }),
    {OpId::bitwise_and, nullptr, [](int64_t a, int64_t b) { return a & b; }},
    {OpId::bitwise_or, nullptr, [](int64_t a, int64_t b) { return a | b; }},
    {OpId::bitwise_xor, nullptr, [](int64_t a, int64_t b) { return a ^ b; }},
    // math (issue 16)
    {OpId::hypot, [](double a, double b) { return std::hypot(a, b); }},
    {OpId::copysign, [](double a, double b) { return std::copysign(a, b); }},
    {OpId::nextafter, nullptr},  // nextafter_kernel: Note [nextafter in the compute dtype]
    // C's fmod: the remainder of the quotient rounded toward zero, with the sign of a (exact).
    {OpId::fmod, [](double a, double b) { return std::fmod(a, b); }, int_rem_trunc,
     /*divides=*/true},
    // floor_divide is div(rounding_mode='floor').
    {OpId::floor_divide, float_div_floor, int_div_floor, /*divides=*/true},
    {OpId::xlogy, xlogy},
    {OpId::logaddexp, logaddexp},  // Note [logaddexp]
    {OpId::logaddexp2, logaddexp2},
    {OpId::heaviside, heaviside<double>, heaviside<int64_t>},
    {OpId::clamp_min, float_clamp_min, [](int64_t a, int64_t b) { return std::max(a, b); }},
    {OpId::clamp_max, float_clamp_max, [](int64_t a, int64_t b) { return std::min(a, b); }},
};

// Note [float32 pow with a Scalar exponent]
// ATen's pow(Tensor, Scalar) CPU kernel takes the exponent as a double for float32 (float16 and
// bfloat16 round it to the dtype): pow(-1f, 9999999999.0) is -1, where rounding the exponent
// to float32 (1e10, even) gives 1.
void pow_kernel(const KernelCall& c) {
  if (c.p.compute_dtype == kFloat && is_wrapped_number_or_view(c.inputs[1])) {
    const double e = c.inputs[1].as_strided({}, {}).item().to_double();  // expanded
    elementwise<2>(
        c, [e](const double* v) { return e == 2 ? v[0] * v[0] : std::pow(v[0], e); },  // as above
        [](const int64_t* v) { return int_pow(v[0], v[1]); });
    return;
  }
  formula_kernel<2>(c, find_formula(kFormulas, OpId::pow)->fd, int_pow);
}

template <OpId kOp>
void binary_kernel(const KernelCall& c) {
  static constexpr const BinaryFormula* f = find_formula(kFormulas, kOp);
  static_assert(f != nullptr, "a plain binary op of op_list.def has no row in kFormulas");
  if constexpr (f->divides) check_no_zero_divisor(c);
  formula_kernel<2>(c, f->fd, f->fi);
}

}  // namespace

TS_REGISTER_KERNELS(reference, binary) {
  for_each_plain_op<PlainOp::Binary>([&](auto op) { m.impl(op, kCPU, binary_kernel<op>); });
  m.impl(OpId::add, kCPU, add_kernel);
  m.impl(OpId::sub, kCPU, sub_kernel);
  m.impl(OpId::div, kCPU, div_kernel);
  m.impl(OpId::pow, kCPU, pow_kernel);
  m.impl(OpId::nextafter, kCPU, nextafter_kernel);
}

}  // namespace ts::reference
