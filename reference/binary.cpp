// Reference kernels for binary elementwise ops. See Note [Reference kernels] in common.h.
// Integer arithmetic wraps through uint64 so that it never overflows (int8 127 + 1 == -128).
#include <algorithm>
#include <cmath>
#include <limits>

#include "common.h"

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

// The same formula for both paths (comparisons, logical ops, maximum on integers).
template <typename F>
void binary_same(const KernelCall& c, F f) {
  binary(c, f, f);
}

void add_kernel(const KernelCall& c) {
  const double fa = c.p.s0->to_double();
  const int64_t ia = c.p.s0->to_long();
  binary(
      c, [&](double a, double b) { return a + fa * b; },
      [&](int64_t a, int64_t b) { return s(u(a) + u(ia) * u(b)); });
}

void sub_kernel(const KernelCall& c) {
  const double fa = c.p.s0->to_double();
  const int64_t ia = c.p.s0->to_long();
  binary(
      c, [&](double a, double b) { return a - fa * b; },
      [&](int64_t a, int64_t b) { return s(u(a) - u(ia) * u(b)); });
}

void mul_kernel(const KernelCall& c) {
  binary(
      c, [](double a, double b) { return a * b; },
      [](int64_t a, int64_t b) { return s(u(a) * u(b)); });
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
  // mode 0: true division (floating only); 1: rounded toward zero; 2: toward -inf.
  const int mode = c.p.mode;
  const ScalarType ct = c.p.compute_dtype;
  if (mode != 0) check_no_zero_divisor(c);
  binary(
      c,
      [&](double a, double b) {
        // trunc applies to the quotient as rounded to the compute dtype, as ATen's trunc(a / b).
        if (mode == 0) return a / b;
        if (mode == 1) return std::trunc(round_to(ct, a / b));
        return float_div_floor(a, b);
      },
      [&](int64_t a, int64_t b) {
        const int64_t q = int_div_trunc(a, b);
        const bool inexact = int_rem_trunc(a, b) != 0;
        return mode == 2 && inexact && ((a < 0) != (b < 0)) ? q - 1 : q;
      });
}

void remainder_kernel(const KernelCall& c) {
  // Python's modulo: the result has the sign of the divisor (or is zero).
  // Floats: fmod (exact), then add b when the signs differ, as ATen; x % 0.0 is NaN.
  check_no_zero_divisor(c);
  binary(
      c,
      [](double a, double b) {
        const double mod = std::fmod(a, b);
        return mod != 0 && (b < 0) != (mod < 0) ? mod + b : mod;
      },
      [](int64_t a, int64_t b) {
        const int64_t r = int_rem_trunc(a, b);
        return r != 0 && (r < 0) != (b < 0) ? r + b : r;
      });
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

void pow_kernel(const KernelCall& c) {
  binary(
      c, [](double a, double b) { return std::pow(a, b); }, int_pow);
}

// maximum/minimum propagate NaN (unlike std::max).
void maximum_kernel(const KernelCall& c) {
  binary(
      c, [](double a, double b) { return std::isnan(a) || std::isnan(b) ? kNaN : std::max(a, b); },
      [](int64_t a, int64_t b) { return std::max(a, b); });
}

void minimum_kernel(const KernelCall& c) {
  binary(
      c, [](double a, double b) { return std::isnan(a) || std::isnan(b) ? kNaN : std::min(a, b); },
      [](int64_t a, int64_t b) { return std::min(a, b); });
}

void atan2_kernel(const KernelCall& c) {
  binary(
      c, [](double a, double b) { return std::atan2(a, b); },
      [](int64_t, int64_t) -> int64_t {
        TS_ERROR("atan2: reference kernel called with an integral compute dtype");
      });
}

// Comparisons run in the compute dtype (both operands are rounded to it first); NaN compares
// unequal to everything.
void eq_kernel(const KernelCall& c) {
  binary_same(c, [](auto a, auto b) { return a == b; });
}
void ne_kernel(const KernelCall& c) {
  binary_same(c, [](auto a, auto b) { return a != b; });
}
void lt_kernel(const KernelCall& c) {
  binary_same(c, [](auto a, auto b) { return a < b; });
}
void le_kernel(const KernelCall& c) {
  binary_same(c, [](auto a, auto b) { return a <= b; });
}
void gt_kernel(const KernelCall& c) {
  binary_same(c, [](auto a, auto b) { return a > b; });
}
void ge_kernel(const KernelCall& c) {
  binary_same(c, [](auto a, auto b) { return a >= b; });
}

// Nonzero is true; NaN is nonzero.
void logical_and_kernel(const KernelCall& c) {
  binary_same(c, [](auto a, auto b) { return a != 0 && b != 0; });
}
void logical_or_kernel(const KernelCall& c) {
  binary_same(c, [](auto a, auto b) { return a != 0 || b != 0; });
}

// Integers and bool only (bool operands are 0/1, so the results are 0/1 too).
template <typename F>
void bitwise(const KernelCall& c, F f) {
  binary(
      c,
      [&](double, double) -> double {
        TS_ERROR(op_info(c.op).name, ": reference kernel called with a floating compute dtype");
      },
      f);
}
void bitwise_and_kernel(const KernelCall& c) {
  bitwise(c, [](int64_t a, int64_t b) { return a & b; });
}
void bitwise_or_kernel(const KernelCall& c) {
  bitwise(c, [](int64_t a, int64_t b) { return a | b; });
}
void bitwise_xor_kernel(const KernelCall& c) {
  bitwise(c, [](int64_t a, int64_t b) { return a ^ b; });
}

}  // namespace

TS_REGISTER_KERNELS(reference, binary) {
  // The compute dtypes each op's meta allows (lib/src/ops/binary.cpp), which are PyTorch's CPU
  // dtypes. True division and atan2 compute integers in float; div's rounding modes take
  // integers but not bool.
  const DTypeSet all = DTypeSet::all();
  const DTypeSet no_bool = all - DTypeSet{kBool};
  const DTypeSet integral_and_bool = DTypeSet::integral(true);
  m.impl(OpId::add, kCPU, all, add_kernel);
  m.impl(OpId::sub, kCPU, no_bool, sub_kernel);
  m.impl(OpId::mul, kCPU, all, mul_kernel);
  m.impl(OpId::div, kCPU, no_bool, div_kernel);
  m.impl(OpId::remainder, kCPU, no_bool, remainder_kernel);
  m.impl(OpId::pow, kCPU, no_bool, pow_kernel);
  m.impl(OpId::maximum, kCPU, all, maximum_kernel);
  m.impl(OpId::minimum, kCPU, all, minimum_kernel);
  m.impl(OpId::atan2, kCPU, DTypeSet::floating(), atan2_kernel);
  m.impl(OpId::eq, kCPU, all, eq_kernel);
  m.impl(OpId::ne, kCPU, all, ne_kernel);
  m.impl(OpId::lt, kCPU, all, lt_kernel);
  m.impl(OpId::le, kCPU, all, le_kernel);
  m.impl(OpId::gt, kCPU, all, gt_kernel);
  m.impl(OpId::ge, kCPU, all, ge_kernel);
  m.impl(OpId::logical_and, kCPU, all, logical_and_kernel);
  m.impl(OpId::logical_or, kCPU, all, logical_or_kernel);
  m.impl(OpId::bitwise_and, kCPU, integral_and_bool, bitwise_and_kernel);
  m.impl(OpId::bitwise_or, kCPU, integral_and_bool, bitwise_or_kernel);
  m.impl(OpId::bitwise_xor, kCPU, integral_and_bool, bitwise_xor_kernel);
}

}  // namespace ts::reference
