// The double definitions of the composite ops, in stages (oracle_vec.h).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "conformance/sweep/oracle_vec.h"

namespace ts::sweep {

// Note [Composite oracles in stages]
// A composite op's double definition (sigmoid = 1 / (1 + exp(-x)), ...) is written once, as
// stages over an array: the C functions through `Math`, the arithmetic between them elementwise.
// The scalar path runs the stages on one element with the C library (scalar_math), the batch
// path on a whole batch with libmvec's vector functions (vector_math; Note [The vector double
// path] in oracle.cpp): the same formula, two evaluations of its C functions.

namespace {

template <double (*F)(double)>
void each(const double* x, double* y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] = F(x[i]);
}

DoubleBatchFn vector_or(std::string_view name, DoubleBatchFn scalar) {
  const DoubleBatchFn v = libmvec_batch(name);
  return v != nullptr ? v : scalar;
}

// Scratch arrays of a thread, reused across batches.
double* scratch(size_t which, size_t n) {
  thread_local std::vector<double> buffers[5];
  if (buffers[which].size() < n) buffers[which].resize(n);
  return buffers[which].data();
}

}  // namespace

const Math& scalar_math() {
  static const Math m{each<::exp>, each<::expm1>, each<::log>, each<::log1p>, each<::tanh>,
                      each<::erf>, each<::erfc>,  each<::sin>, each<::cos>};
  return m;
}

const Math& vector_math() {
  static const Math m{vector_or("exp", each<::exp>),   vector_or("expm1", each<::expm1>),
                      vector_or("log", each<::log>),   vector_or("log1p", each<::log1p>),
                      vector_or("tanh", each<::tanh>), vector_or("erf", each<::erf>),
                      vector_or("erfc", each<::erfc>), vector_or("sin", each<::sin>),
                      vector_or("cos", each<::cos>)};
  return m;
}

void sigmoid_staged(const double* x, double* y, size_t n, const Math& m) {
  for (size_t i = 0; i < n; ++i) y[i] = -x[i];
  m.exp(y, y, n);
  for (size_t i = 0; i < n; ++i) y[i] = 1.0 / (1.0 + y[i]);
}

void silu_staged(const double* x, double* y, size_t n, const Math& m) {
  for (size_t i = 0; i < n; ++i) y[i] = -x[i];
  m.exp(y, y, n);
  for (size_t i = 0; i < n; ++i) y[i] = x[i] / (1.0 + y[i]);
}

// 0.5 x (1 + erf(x/sqrt2)) as 0.5 x erfc(-x/sqrt2): no cancellation for negative x.
void gelu_staged(const double* x, double* y, size_t n, const Math& m) {
  for (size_t i = 0; i < n; ++i) y[i] = -x[i] * M_SQRT1_2;
  m.erfc(y, y, n);
  for (size_t i = 0; i < n; ++i) y[i] = 0.5 * x[i] * y[i];
}

// sin(pi x) with x reduced exactly: remainder(x, 2) in [-1, 1], folded into [-1/2, 1/2] by the
// exact 1 - r (Sterbenz); sinc at a nonzero integer is a zero of x's sign, as the reference's.
// remainder(x, 2) is x - 2 k, k = x/2 rounded to the nearest integer (ties to even, as
// remainder's): adding and taking off 1.5 2^52 rounds |x/2| < 2^51, and x/2 is an integer beyond.
// Every step is exact; glibc's remainder took 14-22 ns an input.
void sinc_staged(const double* x, double* y, size_t n, const Math& m) {
  for (size_t i = 0; i < n; ++i) {
    const double h = x[i] * 0.5;
    const double k = std::fabs(h) < 0x1p51 ? (h + 0x1.8p52) - 0x1.8p52 : h;
    double r = x[i] - 2 * k;
    if (r > 0.5) r = 1 - r;
    if (r < -0.5) r = -1 - r;
    y[i] = M_PI * r;
  }
  m.sin(y, y, n);
  for (size_t i = 0; i < n; ++i) {
    if (x[i] == 0) {
      y[i] = 1;
    } else {
      y[i] = y[i] == 0 ? std::copysign(0.0, x[i]) : y[i] / (M_PI * x[i]);
    }
  }
}

// x tanh(softplus(x)), softplus(x) = max(x, 0) + log1p(exp(-|x|)).
void mish_staged(const double* x, double* y, size_t n, const Math& m) {
  for (size_t i = 0; i < n; ++i) y[i] = -std::fabs(x[i]);
  m.exp(y, y, n);
  m.log1p(y, y, n);
  for (size_t i = 0; i < n; ++i) y[i] = std::max(x[i], 0.0) + y[i];
  m.tanh(y, y, n);
  for (size_t i = 0; i < n; ++i) y[i] = x[i] * y[i];
}

// min(x, 0) - log1p(exp(-|x|)): negative for every finite x, -0 where it underflows, +0 at +inf
// as ATen (Note [The sign of log_sigmoid's underflow] in reference/unary.cpp).
void log_sigmoid_staged(const double* x, double* y, size_t n, const Math& m) {
  for (size_t i = 0; i < n; ++i) y[i] = -std::fabs(x[i]);
  m.exp(y, y, n);
  m.log1p(y, y, n);
  for (size_t i = 0; i < n; ++i) y[i] = x[i] == HUGE_VAL ? 0.0 : -(y[i] - std::min(x[i], 0.0));
}

// x > 0: x; else expm1(x) (NaN: x <= 0 is false, x stays). Every element takes expm1, then the
// positive ones are replaced.
void elu_staged(const double* x, double* y, size_t n, const Math& m) {
  m.expm1(x, y, n);
  for (size_t i = 0; i < n; ++i) y[i] = x[i] <= 0 ? y[i] : x[i];
}

// Note [Activation coefficients in the oracle] in oracle.cpp: alpha and scale are float32 values.
void selu_staged(const double* x, double* y, size_t n, const Math& m) {
  m.expm1(x, y, n);
  for (size_t i = 0; i < n; ++i) {
    y[i] = x[i] <= 0 ? kSeluAlpha * kSeluScale * y[i] : x[i] * kSeluScale;
  }
}

// x above ATen's threshold 20, else max(x, 0) + log1p(exp(-|x|)) (no overflow).
void softplus_staged(const double* x, double* y, size_t n, const Math& m) {
  for (size_t i = 0; i < n; ++i) y[i] = -std::fabs(x[i]);
  m.exp(y, y, n);
  m.log1p(y, y, n);
  for (size_t i = 0; i < n; ++i) y[i] = x[i] > 20 ? x[i] : std::max(x[i], 0.0) + y[i];
}

// Note [erfinv in the oracle]
// Independent of the reference's (Note [erfinv in double] in reference/unary.cpp): Giles'
// single-precision approximation ("Approximating the erfinv function", 2010; about 1e-7
// relative) then four Newton steps on f(y) = erf(y) - a, written as (1 - a) - erfc(y) for
// a > 1/2 (1 - a exact by Sterbenz): the step's error is then a few ULPs of erfc(y), divided by
// f'(y) = 2/sqrt(pi) exp(-y^2) ~ 2 y erfc(y), about 2^-50 / y^2 relative: inside the oracle's
// 2^-45. Newton doubles the correct bits: 1e-7 -> 1e-14 -> double's accuracy by the third step.
// Below 2^-12 (nine in ten float32 inputs of [-1, 1]) the Maclaurin series sqrt(pi)/2 (a +
// pi/12 a^3 + 7 pi^2/480 a^5) is used instead: the next term, 127 pi^3/40320 a^7, is under
// 2^-76 of the sum.
namespace {

constexpr double kErfinvSeriesBelow = 0x1p-12;

// Giles' approximation at a in [2^-12, 1): the Newton steps' start.
double erfinv_start(double a, double log_w) {
  double v = -log_w, p = 0;
  if (v < 5) {
    v -= 2.5;
    for (double c : {2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
                     -0.00125372503, -0.00417768164, 0.246640727, 1.50140941}) {
      p = p * v + c;
    }
  } else {
    v = std::sqrt(v) - 3;
    for (double c : {-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
                     -0.0076224613, 0.00943887047, 1.00167406, 2.83297682}) {
      p = p * v + c;
    }
  }
  return p * a;
}

// Four Newton steps at the n values a (all above 1/2 when `tail`, else all at most 1/2), from y.
void erfinv_newton(const double* a, double* y, size_t n, bool tail, const Math& m) {
  double *e = scratch(3, n), *d = scratch(4, n);
  for (int step = 0; step < 4; ++step) {
    for (size_t i = 0; i < n; ++i) d[i] = -y[i] * y[i];
    m.exp(d, d, n);
    (tail ? m.erfc : m.erf)(y, e, n);
    for (size_t i = 0; i < n; ++i) {
      y[i] -= (tail ? (1 - a[i]) - e[i] : e[i] - a[i]) / (M_2_SQRTPI * d[i]);
    }
  }
}

}  // namespace

void erfinv_staged(const double* x, double* y, size_t n, const Math& m) {
  // The inputs that take Newton's steps, gathered: [0, body) at most 1/2, [body, count) above.
  double *a = scratch(0, n), *z = scratch(1, n), *w = scratch(2, n);
  thread_local std::vector<size_t> at;
  at.resize(n);
  size_t body = 0, count = 0;
  for (int part = 0; part < 2; ++part) {
    if (part == 1) body = count;
    for (size_t i = 0; i < n; ++i) {
      const double v = std::fabs(x[i]);
      if (!(v >= kErfinvSeriesBelow && v < 1) || (v > 0.5) != (part == 1)) continue;
      a[count] = v;
      at[count++] = i;
    }
  }
  for (size_t j = 0; j < count; ++j) w[j] = (1 - a[j]) * (1 + a[j]);
  m.log(w, w, count);
  for (size_t j = 0; j < count; ++j) z[j] = erfinv_start(a[j], w[j]);
  erfinv_newton(a, z, body, false, m);
  erfinv_newton(a + body, z + body, count - body, true, m);
  for (size_t i = 0; i < n; ++i) {
    const double v = std::fabs(x[i]), v2 = v * v;
    if (std::isnan(x[i]) || v > 1) {
      y[i] = std::numeric_limits<double>::quiet_NaN();
    } else if (v == 1) {
      y[i] = std::copysign(HUGE_VAL, x[i]);
    } else {  // the series; zero stays, with its sign
      y[i] = 0.5 * std::sqrt(M_PI) * x[i] * (1 + v2 * (M_PI / 12 + v2 * (7 * M_PI * M_PI / 480)));
    }
  }
  for (size_t j = 0; j < count; ++j) y[at[j]] = std::copysign(z[j], x[at[j]]);
}

namespace {
constexpr uint64_t kUndecidedBits = 0x7ff8'0000'0dec'1dedULL;  // a quiet NaN no op gives
}  // namespace

double undecided() {
  double y = 0;
  std::memcpy(&y, &kUndecidedBits, sizeof y);
  return y;
}
bool is_undecided(double y) {
  uint64_t b = 0;
  std::memcpy(&b, &y, sizeof b);
  return b == kUndecidedBits;
}

// Note [digamma's double ranges]
// Near 0, psi(x) = -1/x - gamma + zeta(2) x - zeta(3) x^2 + zeta(4) x^3 - ... (the Taylor series
// of psi(1 + x), DLMF 5.7.4, minus 1/x). For |x| < 2^-12 the terms after x^3 are below 2^-60 of
// 1/x, no two terms cancel (1/x dominates), and the five double roundings stay within 2^-50
// relative. For x >= 16 the asymptotic series is summed in double: log x >= 2.7 carries the
// result, glibc's log is within 1 ULP, the rest is below 1/32 of it: within 2^-50 relative. Both
// are inside the 2^-45 the oracle assumes of a double path; together they hold 3/4 of the float32
// inputs, whose long double sums (an x87 log, and tan for x < 0) cost about 100 ns each.
// The other float32 inputs (x < 16, |x| >= 2^-12, not a pole) take the recurrence and the
// reflection of Note [digamma in the oracle] in double, with an error bound: psi(x) = L - T + c,
// L = psi(y + n) >= log 16 by the series above (within 2^-50 L), T = sum 1/(y + k) over the
// recurrence (each y + k exact: a float32 y needs at most 41 bits; each quotient within 2^-53;
// summed with Neumaier's compensation: within 2^-51.4 T in all), and for x < 0, y = 1 - x
// (exact) and c = -pi / tan(pi r), r = x - round(x) exact: pi r within 2^-52.4 of itself, which
// moves c by at most pi |t| 2^-52.4 / sin^2 t <= 2^-51.7 (|c| + pi) (t = pi r, |t| <= pi/2), and
// tan and the quotient add 2^-51 |c|: within 2^-50 (|c| + pi). With the two last additions, the
// error is below 2^-49.7 m + 2^-53 |psi| for m = L + T + |c| + pi; where m <= 8 |psi| that is
// within 2^-46 of psi. Elsewhere (psi's zeros cancel the terms: psi(1.4616) = 0, one zero in each
// (-n - 1, -n)) the long double path and then MPFR decide. x87 log and tan were the cost.
namespace {
constexpr double kEulerGamma = 0.57721566490153286061;
constexpr double kZeta2 = 1.64493406684822643647, kZeta3 = 1.20205690315959428540,
                 kZeta4 = 1.08232323371113819152;

double digamma_near_zero(double x) {
  return -1 / x - kEulerGamma + x * (kZeta2 - x * (kZeta3 - x * kZeta4));
}

// log x - 1/(2x) - sum_k B_2k / (2k x^2k), k = 1..7: truncation below 2^-64 for x >= 16.
double digamma_large(double x) {
  constexpr double kB[] = {1.0 / 12,  -1.0 / 120,       1.0 / 252, -1.0 / 240,
                           1.0 / 132, -691.0 / 32760.0, 1.0 / 12};
  const double z = 1 / (x * x);
  double series = 0;
  for (size_t k = std::size(kB); k-- > 0;) series = series * z + kB[k];
  return std::log(x) - 0.5 / x - z * series;
}
}  // namespace

double digamma_in_double(double x) {  // Note [digamma's double ranges]
  if (static_cast<double>(static_cast<float>(x)) != x || !(std::fabs(x) >= 0x1p-12) || !(x < 16) ||
      (x < 0 && x == std::trunc(x))) {
    return undecided();
  }
  double y = x, c = 0, mag = 0;
  if (x < 0) {
    const double r = x - std::nearbyint(x);  // exact, |r| <= 1/2
    c = -M_PI / std::tan(M_PI * r);
    mag = std::fabs(c) + M_PI;
    y = 1 - x;  // exact
  }
  double t = 0, comp = 0;  // sum of 1/y over the recurrence, Neumaier's compensated sum
  for (; y < 16; y += 1) {
    const double v = 1 / y, s = t + v;
    comp += t >= v ? (t - s) + v : (v - s) + t;
    t = s;
  }
  t += comp;
  const double l = digamma_large(y), result = (l - t) + c;
  mag += l + t;
  return mag <= 8 * std::fabs(result) ? result : undecided();
}

// Note [digamma in the oracle]
// The C library has no digamma. psi(x) = psi(1 - x) - pi cot(pi x) for x < 0 (cot's argument
// reduced exactly to x - round(x)), psi(y) = psi(y + 1) - 1/y up to y >= 16, then the asymptotic
// series log y - 1/(2y) - sum_k B_2k / (2k y^2k) to k = 7 (truncation below 2^-64 there); all in
// long double (64-bit significands). The recurrence's sum of 1/y is one fraction num / den (one
// division, not 16: the x87 divider was the cost), within 2^-58 relative; each other term within
// 2^-62 of itself; so the error is below 2^-56 times the sum of the terms' magnitudes. Near the
// zeros of psi (1.4616 and one in each (-n - 1, -n)) the terms cancel: where that bound exceeds
// 2^-47 of the result, the evaluation is undecided() and MPFR decides (a few hundred thousand
// float32 inputs). Two ranges, most float32 inputs, need no long double (Note [digamma's double
// ranges]).
double digamma_d(double x) {
  if (x == 0) return std::copysign(HUGE_VAL, -x);  // psi(+-0) = -+inf, as current PyTorch
  if (x == HUGE_VAL) return x;
  if (std::isnan(x) || x == -HUGE_VAL || (x < 0 && x == std::trunc(x))) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  if (std::fabs(x) < 0x1p-12) return digamma_near_zero(x);
  if (x >= 16) return digamma_large(x);
  const double in_double = digamma_in_double(x);
  if (!is_undecided(in_double)) return in_double;
  const long double pi = 3.141592653589793238462643383279502884L;
  // 1 - x rounds (x ~ -1e-30): psi' (y) times that error is within 2^-63, the 1 in mag.
  long double y = x, sum = 0, mag = 1;
  if (x < 0) {
    const long double r = static_cast<long double>(x) - std::nearbyint(x);  // exact, |r| <= 1/2
    const long double c = -pi / std::tan(pi * r);
    sum += c;
    mag += std::fabs(c);
    y = 1 - y;
  }
  long double num = 0, den = 1;  // sum of 1/y over the recurrence = num / den: one division
  for (; y < 16; y += 1) {
    num = num * y + den;
    den *= y;
  }
  sum -= num / den;
  mag += num / den;
  constexpr long double kB[] = {1.0L / 12,  -1.0L / 120,        1.0L / 252, -1.0L / 240,
                                1.0L / 132, -691.0L / 32760.0L, 1.0L / 12};
  const long double z = 1 / (y * y);
  long double series = 0;
  for (size_t k = std::size(kB); k-- > 0;) series = series * z + kB[k];
  const long double log_y = std::log(y);
  const long double result = sum + log_y - 0.5L / y - z * series;
  mag += std::fabs(log_y) + 0.5L / y + std::fabs(z * series);
  if (mag * 0x1p-56L > std::fabs(result) * 0x1p-47L) return undecided();
  return static_cast<double>(result);
}

}  // namespace ts::sweep
