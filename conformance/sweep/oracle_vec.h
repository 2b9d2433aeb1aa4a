#pragma once
// glibc's vector double functions (libmvec) over arrays: the sweep oracle's double path (Note
// [The vector double path] in oracle.cpp).
#include <cstddef>
#include <string_view>

namespace ts::sweep {

// y[i] = f(x[i]) for i < n, where f is the C library's double function of that name.
using DoubleBatchFn = void (*)(const double* x, double* y, size_t n);
// The libmvec batch of C function `name` (exp, log, sin, ...) for this CPU (AVX-512 or AVX2
// lanes, the tail scalar), or nullptr when libmvec has none or the CPU lacks AVX2.
DoubleBatchFn libmvec_batch(std::string_view name);

// The C functions the composite ops' double definitions use (Note [Composite oracles in stages]
// in oracle_stages.cpp), each over an array.
struct Math {
  DoubleBatchFn exp, expm1, log, log1p, tanh, erf, erfc, sin, cos;
};
const Math& scalar_math();  // the C library, element by element
const Math& vector_math();  // libmvec where this CPU and glibc have it, else the C library
// A composite's double definition: y[i] = op(x[i]) for i < n (x and y distinct arrays).
using StagedFn = void (*)(const double* x, double* y, size_t n, const Math& m);
void sigmoid_staged(const double* x, double* y, size_t n, const Math& m);
void silu_staged(const double* x, double* y, size_t n, const Math& m);
void gelu_staged(const double* x, double* y, size_t n, const Math& m);
void sinc_staged(const double* x, double* y, size_t n, const Math& m);
void mish_staged(const double* x, double* y, size_t n, const Math& m);
void log_sigmoid_staged(const double* x, double* y, size_t n, const Math& m);
// elu and celu at their defaults (x, or expm1(x) for x <= 0), selu, and softplus with
// ATen's switch at 20 (Note [Activation coefficients in the oracle] in oracle.cpp).
void elu_staged(const double* x, double* y, size_t n, const Math& m);
// selu's alpha and scale as float32 values (ATen's opmath; Note [Activation coefficients in the
// oracle] in oracle.cpp), for its double and MPFR definitions alike.
inline constexpr double kSeluAlpha = static_cast<float>(1.6732632423543772848170429916717);
inline constexpr double kSeluScale = static_cast<float>(1.0507009873554804934193349852946);
void selu_staged(const double* x, double* y, size_t n, const Math& m);
void softplus_staged(const double* x, double* y, size_t n, const Math& m);
// A double definition that cannot bound its error within the oracle's 2^-45 at some input
// returns undecided() there: MPFR decides it (digamma near its zeros).
double undecided();
bool is_undecided(double y);
// psi(x), long double sums with an error bound (Note [digamma in the oracle] in oracle_stages.cpp).
double digamma_d(double x);
// psi(x) in double for a float32 x < 16, |x| >= 2^-12, or undecided() where its error bound
// exceeds 2^-46 of the result (Note [digamma's double ranges] in oracle_stages.cpp).
double digamma_in_double(double x);
// sin and cos with float32 arguments from 2^23 up reduced exactly (Note [Exact reduction of
// float32 arguments] in oracle_trig.cpp).
void sin_staged(const double* x, double* y, size_t n, const Math& m);
void cos_staged(const double* x, double* y, size_t n, const Math& m);
// |x| = quadrant pi/2 + r (mod 2 pi), |r| <= pi/4, for a float32 value x with |x| >= 2^23 (else
// false); r is undecided() where |r| < 2^-42 pi/2.
bool reduce_float32_argument(double x, int& quadrant, double& r);
void erfinv_staged(const double* x, double* y, size_t n,
                   const Math& m);  // Note [erfinv in the oracle]

}  // namespace ts::sweep
