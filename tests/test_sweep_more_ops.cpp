// The sweep's oracle for the unary ops issue 16 added (square, lgamma, digamma and the
// activations at their defaults): known values and the zeros of lgamma and digamma, where a
// double evaluation loses its relative accuracy (test_sweep.cpp checks them against MPFR too).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "conformance/sweep/oracle.h"
#include "conformance/sweep/oracle_vec.h"
#include "sweep_test_util.h"
#include "touchstone/half.h"

namespace {

using ts::sweep::correctly_rounded;
using ts::sweep::correctly_rounded_mpfr;
using ts::sweep::find_oracle;
using ts::sweep::Format;
using ts::sweep::format_of;

using sweep_test::f32;
using sweep_test::kInf;
using sweep_test::oracle;

double f(double v) {  // v rounded to float32
  return static_cast<float>(v);
}

// Every float32 within `n` steps of `center`: the double path decides as MPFR alone does.
void expect_agrees_with_mpfr_around(const char* op, double center, uint32_t n) {
  const uint32_t c = ts::detail::float_bits(static_cast<float>(center));
  for (uint32_t b = c - n; b <= c + n; ++b) {
    const double x = ts::detail::bits_float(b);
    const double want = correctly_rounded_mpfr(*find_oracle(op), x, f32()).value;
    const double got = correctly_rounded(*find_oracle(op), x, f32()).value;
    EXPECT_TRUE(got == want || (std::isnan(got) && std::isnan(want))) << op << " " << x;
  }
}

TEST(SweepOracleMoreOps, KnownValues) {
  // lgamma(1/2) = log sqrt(pi) (DLMF 5.4.6), lgamma(1) = lgamma(2) = 0, +inf at the poles.
  EXPECT_EQ(oracle("lgamma", 0.5), f(0.5723649429247001));
  EXPECT_EQ(oracle("lgamma", 1.0), 0.0);
  EXPECT_EQ(oracle("lgamma", 2.0), 0.0);
  EXPECT_EQ(oracle("lgamma", 0.0), kInf);
  EXPECT_EQ(oracle("lgamma", -3.0), kInf);
  EXPECT_EQ(oracle("lgamma", -kInf), kInf);
  // digamma(1) = -euler_gamma, digamma(1/2) = -euler_gamma - 2 log 2 (DLMF 5.4.12, 5.4.13);
  // digamma(+-0) = -+inf (current PyTorch), NaN at the negative integers and at -inf.
  EXPECT_EQ(oracle("digamma", 1.0), f(-0.5772156649015329));
  EXPECT_EQ(oracle("digamma", 0.5), f(-1.9635100260214235));
  EXPECT_EQ(oracle("digamma", 0.0), -kInf);
  EXPECT_EQ(oracle("digamma", -0.0), kInf);
  EXPECT_TRUE(std::isnan(oracle("digamma", -2.0)));
  EXPECT_TRUE(std::isnan(oracle("digamma", -kInf)));
  EXPECT_EQ(oracle("digamma", kInf), kInf);
  // digamma(-1/2) = digamma(3/2) + 2 (reflection: pi cot(-pi/2) = 0) = 0.03648997397857652.
  EXPECT_EQ(oracle("digamma", -0.5), f(0.03648997397857652));
  // square is exact in double; softsign(x) = x / (1 + |x|), NaN at +-inf as ATen's composite.
  EXPECT_EQ(oracle("square", 3.0), 9.0);
  EXPECT_EQ(oracle("square", 1.0 + std::ldexp(1.0, -23)), f(1.0 + std::ldexp(1.0, -22)));
  EXPECT_EQ(oracle("softsign", 1.0), 0.5);
  EXPECT_EQ(oracle("softsign", -3.0), -0.75);
  EXPECT_TRUE(std::isnan(oracle("softsign", kInf)));
  // The activations' coefficients are float32 values (ATen's opmath): leaky_relu's 0.01f.
  EXPECT_EQ(oracle("leaky_relu", -1.0), f(-0.01));
  EXPECT_TRUE(std::signbit(oracle("leaky_relu", -0.0)));
  EXPECT_EQ(oracle("leaky_relu", 2.0), 2.0);
  // elu(x) = expm1(x) below 0: elu(-inf) = -1, elu(-1) = e^-1 - 1; celu(x, 1) is the same.
  EXPECT_EQ(oracle("elu", -kInf), -1.0);
  EXPECT_EQ(oracle("elu", -1.0), f(std::expm1(-1.0)));
  EXPECT_EQ(oracle("celu", -1.0), f(std::expm1(-1.0)));
  EXPECT_EQ(oracle("elu", 1.5), 1.5);
  // selu(1) = scale; selu(-inf) = -alpha scale, the float32 constants' exact product rounded.
  const double alpha = f(1.6732632423543772848170429916717);
  const double scale = f(1.0507009873554804934193349852946);
  EXPECT_EQ(oracle("selu", 1.0), scale);
  EXPECT_EQ(oracle("selu", -kInf), f(-alpha * scale));
  // softplus(0) = log 2; x above the threshold 20; softplus(-inf) = 0.
  EXPECT_EQ(oracle("softplus", 0.0), f(M_LN2));
  EXPECT_EQ(oracle("softplus", 30.0), 30.0);
  EXPECT_EQ(oracle("softplus", -kInf), 0.0);
  // hardtanh clamps to [-1, 1] and keeps NaN.
  EXPECT_EQ(oracle("hardtanh", 2.0), 1.0);
  EXPECT_EQ(oracle("hardtanh", -2.0), -1.0);
  EXPECT_EQ(oracle("hardtanh", 0.25), 0.25);
  EXPECT_TRUE(std::isnan(oracle("hardtanh", std::nan(""))));
}

// Note [digamma in the oracle]: at psi's zeros the sums cancel; the bound sends those inputs to
// MPFR (undecided) and the rest decide as MPFR does. Zeros: 1.4616321449683622 (DLMF 5.4.iii),
// -0.5040830082644554, -1.5734567236060 and, far out, the one in (-1001, -1000).
TEST(SweepOracleMoreOps, DigammaAtItsZeros) {
  EXPECT_TRUE(ts::sweep::is_undecided(ts::sweep::digamma_d(f(1.4616321449683622))));
  EXPECT_FALSE(ts::sweep::is_undecided(ts::sweep::digamma_d(1.25)));
  for (double zero : {1.4616321449683622, -0.5040830082644554, -1.5734567236060})
    expect_agrees_with_mpfr_around("digamma", zero, 300);
  // psi(x) = psi(1 - x) - pi cot(pi x) crosses 0 where pi cot(pi x) = psi(1 - x) ~ log 1001.
  const double near_root = -1001 + std::atan(M_PI / std::log(1001.0)) / M_PI;
  expect_agrees_with_mpfr_around("digamma", near_root, 300);
}

// lgamma's zeros on the negative axis (-2.457024738220800, -2.747682646727412, ...): glibc's
// lgamma keeps its relative accuracy there (within 2^-50, measured), so the double path decides.
TEST(SweepOracleMoreOps, LgammaAtItsNegativeZeros) {
  for (double zero : {-2.457024738220800, -2.747682646727412, -3.143580888349980})
    expect_agrees_with_mpfr_around("lgamma", zero, 300);
}

// Note [silu and gelu at tiny x]: the batch path decides the inputs below 2^-60 without MPFR,
// as MPFR alone does (every float32 subnormal step 4099 apart, the least normal binade's too).
TEST(SweepOracleMoreOps, SiluGeluAndHardswishAtTinyInputsAgreeWithMpfr) {
  std::vector<double> x;
  for (uint32_t b = 1; b < 0x01000000u; b += 4099) {
    x.push_back(ts::detail::bits_float(b));
    x.push_back(-ts::detail::bits_float(b));
  }
  x.push_back(std::ldexp(1.0, -61));
  for (const char* op : {"silu", "gelu", "hardswish"}) {
    for (const Format* fmt : {&f32(), &format_of(ts::kBFloat16, "test")}) {
      std::vector<uint32_t> bits(x.size());
      std::vector<double> approx(x.size());
      const uint64_t mpfr = ts::sweep::correctly_rounded_bits(*find_oracle(op), x.data(), x.size(),
                                                              *fmt, bits.data(), approx.data());
      EXPECT_EQ(mpfr, 0u) << op;
      for (size_t i = 0; i < x.size(); ++i) {
        const double want = correctly_rounded_mpfr(*find_oracle(op), x[i], *fmt).value;
        EXPECT_EQ(ts::sweep::format_value(bits[i], *fmt), want) << op << " " << x[i];
      }
    }
  }
}

// Note [Exact in double]: square, leaky_relu, hardtanh and frac round their exact double value,
// exact midpoints of the format included, without MPFR, to what MPFR alone gives. square of
// 1 + (2j + 1) 2^-12 below sqrt(2) is a float32 midpoint (its 2^-24 bit is set, ties to even).
TEST(SweepOracleMoreOps, ExactDefinitionsRoundMidpointsWithoutMpfr) {
  std::vector<double> x;
  for (int j = 0; j < 2048; ++j) {
    const double v = 1 + (2 * j + 1) * std::ldexp(1.0, -12);
    x.push_back(v);
    x.push_back(-v * 3);  // leaky_relu: 0.01f * x; frac's fraction bits
  }
  for (double v : {0.0, -0.0, 1e-45, -1e-45, 3.5, -3.5, 1e30, -1e30}) x.push_back(v);
  for (const char* op : {"square", "leaky_relu", "hardtanh", "frac"}) {
    for (const Format* fmt : {&f32(), &format_of(ts::kBFloat16, "test")}) {
      std::vector<uint32_t> bits(x.size());
      std::vector<double> approx(x.size());
      const uint64_t mpfr = ts::sweep::correctly_rounded_bits(*find_oracle(op), x.data(), x.size(),
                                                              *fmt, bits.data(), approx.data());
      EXPECT_EQ(mpfr, 0u) << op;
      for (size_t i = 0; i < x.size(); ++i) {
        const double want = correctly_rounded_mpfr(*find_oracle(op), x[i], *fmt).value;
        const double got = ts::sweep::format_value(bits[i], *fmt);
        EXPECT_TRUE(got == want && std::signbit(got) == std::signbit(want))
            << op << " " << x[i] << ": " << got << ", MPFR " << want;
      }
    }
  }
  // The first square is a midpoint: (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24 ties to even, 1 + 2^-11.
  uint32_t b = 0;
  double a = 0;
  ts::sweep::correctly_rounded_bits(*find_oracle("square"), x.data(), 1, f32(), &b, &a);
  EXPECT_EQ(ts::detail::bits_float(b), 1 + std::ldexp(1.0, -11));
}

// Note [digamma's double ranges]: below 2^-12 in magnitude and from 16 up, the double path
// decides (MPFR only where y lies within 2^-40 of a midpoint), as MPFR alone does (every float32
// there 65537 steps apart and the largest); either side of each range's edge, the value is MPFR's
// too.
TEST(SweepOracleMoreOps, DigammaDoubleRangesAgreeWithMpfr) {
  const uint32_t edge_small = 0x39800000u, edge_large = 0x41800000u;  // 2^-12, 16
  std::vector<double> inside, edges;
  for (uint32_t b = 1; b < edge_small; b += 65537) {
    inside.push_back(ts::detail::bits_float(b));
    inside.push_back(-ts::detail::bits_float(b));
  }
  for (uint32_t b = edge_large; b < 0x7f800000u; b += 65537) {
    inside.push_back(ts::detail::bits_float(b));
  }
  inside.push_back(ts::detail::bits_float(0x7f7fffffu));
  for (uint32_t b : {edge_small - 1, edge_small, edge_large - 1, edge_large + 1}) {
    edges.push_back(ts::detail::bits_float(b));
    edges.push_back(-ts::detail::bits_float(b));
  }
  const ts::sweep::UnaryOracle& op = *find_oracle("digamma");
  for (const std::vector<double>* x : {&inside, &edges}) {
    std::vector<uint32_t> bits(x->size());
    std::vector<double> approx(x->size());
    const uint64_t mpfr = ts::sweep::correctly_rounded_bits(op, x->data(), x->size(), f32(),
                                                            bits.data(), approx.data());
    if (x == &inside) {
      EXPECT_LT(mpfr, x->size() / 1000);  // the midpoint-close few (about 1 in 2^15)
    }
    for (size_t i = 0; i < x->size(); ++i) {
      const double want = correctly_rounded_mpfr(op, (*x)[i], f32()).value;
      EXPECT_EQ(ts::sweep::format_value(bits[i], f32()), want) << (*x)[i];
    }
  }
}

}  // namespace
