#pragma once
// The sweep's oracle: the correctly rounded float32, float16 or bfloat16 result of a unary float
// op at one input (Note [Double first, MPFR where double cannot decide] in oracle.cpp), or of a
// binary op at a pair of 16-bit inputs (Note [Binary ops of 16-bit inputs]).
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "touchstone/dtype.h"

namespace ts::sweep {

// An IEEE binary format: `precision` significand bits (the hidden one included), the exponent
// of the smallest normal and of the largest finite value.
struct Format {
  ScalarType dtype;
  int precision;
  int emin;
  int emax;
};
// float32, float16 or bfloat16; throws a ts::Error naming `what` for any other dtype.
const Format& format_of(ScalarType dtype, std::string_view what);

// `y` rounded to nearest, ties to even, into `fmt` (overflow to +-inf, gradual underflow to
// subnormals and signed zero), as IEEE 754 rounds a result: the value is exact in a double.
double round_to_format(double y, const Format& fmt);

// The bits of `v` (a value of `fmt`, nan or +-inf) in that format, and back: 32 bits for
// float32, the low 16 for float16 and bfloat16.
uint32_t format_bits(double v, const Format& fmt);
double format_value(uint32_t bits, const Format& fmt);
// format_value of n inputs.
void format_values(const uint32_t* bits, size_t n, const Format& fmt, double* out);

struct UnaryOracle;  // one op: its double and MPFR definitions
// The oracle of op `name` (op_list.def's name), or nullptr when the sweep does not cover it.
const UnaryOracle* find_oracle(std::string_view name);
// The names of the ops the oracle covers, in op_list.def's order.
const std::vector<std::string_view>& oracle_op_names();

struct Rounded {
  double value = 0;   // the correctly rounded result (a value of the format, nan or +-inf)
  double approx = 0;  // the double evaluation, for the error in ULPs of results that differ
  bool used_mpfr = false;
};
// The correctly rounded op(x) in `fmt`: double first, MPFR where double cannot decide.
Rounded correctly_rounded(const UnaryOracle& op, double x, const Format& fmt);
// The same value from MPFR alone (no double shortcut for finite results): the tests' cross-check.
Rounded correctly_rounded_mpfr(const UnaryOracle& op, double x, const Format& fmt);
// The correctly rounded op(x[i]) of n inputs: want[i] its bits in `fmt`, approx[i] the double
// evaluation; with `vector`, libmvec's where it has the op (Note [The vector double path] in
// oracle.cpp). Returns how many inputs MPFR decided.
uint64_t correctly_rounded_bits(const UnaryOracle& op, const double* x, size_t n, const Format& fmt,
                                uint32_t* want, double* approx, bool vector = true);

struct BinaryOracle;  // add, sub, mul, div, pow, atan2, hypot
const BinaryOracle* find_binary_oracle(std::string_view name);
const std::vector<std::string_view>& binary_oracle_op_names();
// The correctly rounded op(a, b) in `fmt` (a, b values of a 16-bit format): exact in double for
// add, sub, mul and div; double first, MPFR where double cannot decide, for pow, atan2 and hypot.
Rounded correctly_rounded(const BinaryOracle& op, double a, double b, const Format& fmt);
// The same value from MPFR alone: the tests' cross-check.
Rounded correctly_rounded_mpfr(const BinaryOracle& op, double a, double b, const Format& fmt);

}  // namespace ts::sweep
