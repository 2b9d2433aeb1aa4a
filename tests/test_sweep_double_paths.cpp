// The oracle's own double paths against MPFR: sin and cos with float32 arguments reduced
// exactly (Note [Exact reduction of float32 arguments] in conformance/sweep/oracle_trig.cpp) at
// the inputs nearest multiples of pi/2, the known worst cases of argument reduction; digamma in
// double (Note [digamma's double ranges] in oracle_stages.cpp) at random inputs and its zeros.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "conformance/sweep/oracle.h"
#include "conformance/sweep/oracle_vec.h"
#include "sweep_test_util.h"
#include "touchstone/half.h"

namespace {

using sweep_test::f32;
using ts::sweep::correctly_rounded;
using ts::sweep::correctly_rounded_bits;
using ts::sweep::correctly_rounded_mpfr;
using ts::sweep::find_oracle;

// RAII for an mpfr_t at `prec` bits.
struct Mp {
  mpfr_t v;
  explicit Mp(mpfr_prec_t prec = 1200) { mpfr_init2(v, prec); }
  ~Mp() { mpfr_clear(v); }
  Mp(const Mp&) = delete;
  Mp& operator=(const Mp&) = delete;
};

// The float32 input nearest a multiple of pi/2 of those m 2^e, 0 < m < 2^24, and its distance
// to the multiple in units of pi/2. With beta = 2^e 2/pi, the least ||m beta|| over m < 2^24 is
// at the last continued-fraction convergent denominator of beta below 2^24 (a best
// approximation of the second kind: ||q beta|| >= ||q_n beta|| for every q < q_(n+1)).
struct NearestMultiple {
  double x = 0, distance = 0;
};
NearestMultiple nearest_multiple_of_half_pi(int e) {
  Mp beta, t, a, d;
  mpfr_const_pi(beta.v, MPFR_RNDN);
  mpfr_ui_div(beta.v, 2, beta.v, MPFR_RNDN);
  mpfr_mul_2si(beta.v, beta.v, e, MPFR_RNDN);
  mpfr_frac(t.v, beta.v, MPFR_RNDN);
  uint64_t q_prev = 0, q = 1;  // convergent denominators q_(n-1), q_n; q_0 = 1 (a_0 = 0)
  while (true) {
    mpfr_ui_div(t.v, 1, t.v, MPFR_RNDN);  // the next partial quotient's remainder
    mpfr_floor(a.v, t.v);
    const uint64_t next = mpfr_get_ui(a.v, MPFR_RNDN) * q + q_prev;
    if (next >= (uint64_t{1} << 24)) break;
    q_prev = q;
    q = next;
    mpfr_sub(t.v, t.v, a.v, MPFR_RNDN);
  }
  mpfr_mul_ui(d.v, beta.v, q, MPFR_RNDN);  // ||q beta||
  mpfr_frac(d.v, d.v, MPFR_RNDN);
  if (mpfr_cmp_d(d.v, 0.5) > 0) mpfr_ui_sub(d.v, 1, d.v, MPFR_RNDN);
  return {std::ldexp(static_cast<double>(q), e), mpfr_get_d(d.v, MPFR_RNDN)};
}

// x = k pi/2 + r exactly (MPFR), |r| <= pi/4: r and k mod 4.
void exact_reduction(double x, double& r, int& k4) {
  Mp y, k, pi;
  mpfr_const_pi(pi.v, MPFR_RNDN);
  mpfr_set_d(y.v, std::fabs(x), MPFR_RNDN);
  mpfr_mul_2si(y.v, y.v, 1, MPFR_RNDN);
  mpfr_div(y.v, y.v, pi.v, MPFR_RNDN);  // |x| 2/pi
  mpfr_rint(k.v, y.v, MPFR_RNDN);
  mpfr_sub(y.v, y.v, k.v, MPFR_RNDN);
  mpfr_mul(y.v, y.v, pi.v, MPFR_RNDN);
  mpfr_mul_2si(y.v, y.v, -1, MPFR_RNDN);
  r = mpfr_get_d(y.v, MPFR_RNDN);
  mpfr_div_2si(k.v, k.v, 2, MPFR_RNDN);
  mpfr_frac(k.v, k.v, MPFR_RNDN);
  k4 = static_cast<int>(mpfr_get_d(k.v, MPFR_RNDN) * 4);
}

// op(x) from MPFR, as a double.
double mpfr_trig(const char* op, double x) {
  Mp mx(64), y(200);
  mpfr_set_d(mx.v, x, MPFR_RNDN);
  if (op == std::string_view("sin")) mpfr_sin(y.v, mx.v, MPFR_RNDN);
  if (op == std::string_view("cos")) mpfr_cos(y.v, mx.v, MPFR_RNDN);
  if (op == std::string_view("tan")) mpfr_tan(y.v, mx.v, MPFR_RNDN);
  return mpfr_get_d(y.v, MPFR_RNDN);
}

// The batch path's double value of op at x within 2^-47 of the exact one (the Note's 2^-48
// with slack), and its float32 rounding MPFR's.
void expect_trig_agrees_with_mpfr(const std::vector<double>& x) {
  for (const char* op : {"sin", "cos", "tan"}) {
    std::vector<uint32_t> bits(x.size());
    std::vector<double> approx(x.size());
    correctly_rounded_bits(*find_oracle(op), x.data(), x.size(), f32(), bits.data(), approx.data());
    for (size_t i = 0; i < x.size(); ++i) {
      const double exact = mpfr_trig(op, x[i]);
      EXPECT_LE(std::fabs(approx[i] - exact), std::ldexp(std::fabs(exact), -47))
          << op << " " << x[i] << ": " << approx[i] << " vs " << exact;
      const double want = correctly_rounded_mpfr(*find_oracle(op), x[i], f32()).value;
      EXPECT_EQ(ts::sweep::format_value(bits[i], f32()), want) << op << " " << x[i];
      EXPECT_EQ(correctly_rounded(*find_oracle(op), x[i], f32()).value, want) << op << " " << x[i];
    }
  }
}

// In every binade from 2^23 (where the exact reduction begins) to the largest float32, the input
// nearest a multiple of pi/2 is at least 2^-42 (in units of pi/2) from it, as the Note assumes;
// there and at its neighbours the reduction is within 2^-51 of MPFR's, and sin, cos and tan
// round as MPFR's.
TEST(SweepOracleDoublePaths, NearestMultiplesOfHalfPiInEveryBinade) {
  double least = 1;
  std::vector<double> x;
  for (int e = 23 - 23; e <= 127 - 23; ++e) {
    const NearestMultiple hard = nearest_multiple_of_half_pi(e);
    EXPECT_GE(hard.distance, 0x1p-42) << hard.x;
    least = std::min(least, hard.distance);
    const uint32_t b = ts::detail::float_bits(static_cast<float>(hard.x));
    ASSERT_EQ(static_cast<float>(hard.x), hard.x);
    for (uint32_t n = b - 2; n <= b + 2; ++n) {
      const double v = ts::detail::bits_float(n);
      if (!(v >= 0x1p23) || !std::isfinite(v)) continue;
      x.push_back(v);
      x.push_back(-v);
      int k = 0, k4 = 0;
      double r = 0, r_exact = 0;
      ASSERT_TRUE(ts::sweep::reduce_float32_argument(v, k, r)) << v;
      exact_reduction(v, r_exact, k4);
      EXPECT_EQ(k, k4) << v;
      EXPECT_LE(std::fabs(r - r_exact), std::ldexp(std::fabs(r_exact), -51)) << v;
    }
  }
  EXPECT_LT(least, 0x1p-28);  // the binades do hold hard cases (the least, 2^-29.86)
  expect_trig_agrees_with_mpfr(x);
}

// Random float32 inputs from 2^23 to the largest float, and the binade edges.
TEST(SweepOracleDoublePaths, RandomLargeArgumentsAgreeWithMpfr) {
  std::mt19937 rng(18);
  std::uniform_int_distribution<uint32_t> bits(0x4b000000u, 0x7f7fffffu);  // 2^23 .. max
  std::vector<double> x;
  for (int i = 0; i < 3000; ++i) x.push_back(ts::detail::bits_float(bits(rng)));
  for (uint32_t b : {0x4affffffu, 0x4b000000u, 0x7f7fffffu}) x.push_back(ts::detail::bits_float(b));
  x.push_back(-x[0]);
  expect_trig_agrees_with_mpfr(x);
}

double mpfr_digamma(double x) {
  Mp mx(64), y(200);
  mpfr_set_d(mx.v, x, MPFR_RNDN);
  mpfr_digamma(y.v, mx.v, MPFR_RNDN);
  return mpfr_get_d(y.v, MPFR_RNDN);
}

// digamma_in_double is within 2^-46 of psi wherever it decides (its error bound); returns how
// many of `x` it decided.
size_t expect_digamma_in_double_within_bound(const std::vector<double>& x) {
  size_t decided = 0;
  for (double v : x) {
    const double got = ts::sweep::digamma_in_double(v);
    if (ts::sweep::is_undecided(got)) continue;
    ++decided;
    const double exact = mpfr_digamma(v);
    EXPECT_LE(std::fabs(got - exact), std::ldexp(std::fabs(exact), -46))
        << v << ": " << got << " vs " << exact;
  }
  return decided;
}

// Random float32 inputs of the range (2^-12 <= |x|, x < 16, negative ones to -2^23, where every
// float32 is an integer): most are decided in double, each within the bound, and the oracle
// rounds each as MPFR alone does.
TEST(SweepOracleDoublePaths, DigammaInDoubleAtRandomInputs) {
  std::mt19937 rng(18);
  std::uniform_int_distribution<uint32_t> positive(0x39800000u, 0x417fffffu);  // 2^-12 .. 16
  std::uniform_int_distribution<uint32_t> negative(0xb9800000u, 0xcaffffffu);  // to -2^23
  std::vector<double> x;
  for (int i = 0; i < 2000; ++i) {
    x.push_back(ts::detail::bits_float(positive(rng)));
    x.push_back(ts::detail::bits_float(negative(rng)));
  }
  EXPECT_GT(expect_digamma_in_double_within_bound(x), x.size() * 3 / 4);
  std::vector<uint32_t> bits(x.size());
  std::vector<double> approx(x.size());
  correctly_rounded_bits(*find_oracle("digamma"), x.data(), x.size(), f32(), bits.data(),
                         approx.data());
  for (size_t i = 0; i < x.size(); ++i) {
    const double want = correctly_rounded_mpfr(*find_oracle("digamma"), x[i], f32()).value;
    const double got = ts::sweep::format_value(bits[i], f32());
    EXPECT_TRUE(got == want || (std::isnan(got) && std::isnan(want))) << x[i];
  }
}

// Around psi's zeros the terms cancel: there the bound sends inputs on (none decided wrongly),
// and a little farther off the double path decides again.
TEST(SweepOracleDoublePaths, DigammaInDoubleNearItsZeros) {
  const double root = 1.4616321449683622;
  const double near_1001 = -1001 + std::atan(M_PI / std::log(1001.0)) / M_PI;
  for (double zero : {root, -0.5040830082644554, -1.5734567236060, -2.6107208684441, near_1001}) {
    std::vector<double> x;
    const uint32_t c = ts::detail::float_bits(static_cast<float>(zero));
    for (uint32_t b = c - 2000; b <= c + 2000; b += 7) x.push_back(ts::detail::bits_float(b));
    expect_digamma_in_double_within_bound(x);
  }
  EXPECT_TRUE(ts::sweep::is_undecided(ts::sweep::digamma_in_double(static_cast<float>(root))));
  EXPECT_FALSE(ts::sweep::is_undecided(ts::sweep::digamma_in_double(0.25)));
  EXPECT_FALSE(ts::sweep::is_undecided(ts::sweep::digamma_in_double(-20.25)));
}

}  // namespace
