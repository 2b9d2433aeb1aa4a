// The optimized set's unary kernels against the reference set, on every op, dtype, layout and
// SIMD capability; special values with hand-computed results; the float32 ULP error of the
// vector transcendentals (Note [Transcendental accuracy] in optimized/cpu/unary.cpp).
#include <cstdint>
#include <cstring>
#include <functional>
#include <iostream>

#include "optimized_check.h"
#include "test_util.h"

namespace {

using ts::DTypeSet;
using ts::Tensor;
using namespace ts::testing;  // make, values, kAll, kInf, kNaN, sample, layouts, ...

struct UnaryCase {
  const char* name;
  std::function<Tensor(const Tensor&)> f;
  DTypeSet dtypes;  // the input dtypes the op takes
};

const DTypeSet kNoBool = DTypeSet::all() - DTypeSet{kBool};
const DTypeSet kReal = DTypeSet::integral(false) | DTypeSet::floating();

std::vector<UnaryCase> cases() {
  const DTypeSet all = DTypeSet::all(), fl = DTypeSet::floating();
  return {
      {"neg", [](const Tensor& t) { return ts::neg(t); }, kNoBool},
      {"abs", [](const Tensor& t) { return ts::abs(t); }, kNoBool},
      {"sign", [](const Tensor& t) { return ts::sign(t); }, all},
      {"exp", [](const Tensor& t) { return ts::exp(t); }, all},
      {"expm1", [](const Tensor& t) { return ts::expm1(t); }, all},
      {"log", [](const Tensor& t) { return ts::log(t); }, all},
      {"log1p", [](const Tensor& t) { return ts::log1p(t); }, all},
      {"sqrt", [](const Tensor& t) { return ts::sqrt(t); }, all},
      {"rsqrt", [](const Tensor& t) { return ts::rsqrt(t); }, all},
      {"reciprocal", [](const Tensor& t) { return ts::reciprocal(t); }, all},
      {"sin", [](const Tensor& t) { return ts::sin(t); }, all},
      {"cos", [](const Tensor& t) { return ts::cos(t); }, all},
      {"tan", [](const Tensor& t) { return ts::tan(t); }, all},
      {"tanh", [](const Tensor& t) { return ts::tanh(t); }, all},
      {"sigmoid", [](const Tensor& t) { return ts::sigmoid(t); }, all},
      {"relu", [](const Tensor& t) { return ts::relu(t); }, kNoBool},
      {"gelu", [](const Tensor& t) { return ts::gelu(t); }, fl},
      {"gelu_tanh", [](const Tensor& t) { return ts::gelu(t, "tanh"); }, fl},
      {"silu", [](const Tensor& t) { return ts::silu(t); }, fl},
      {"erf", [](const Tensor& t) { return ts::erf(t); }, all},
      {"exp2", [](const Tensor& t) { return ts::exp2(t); }, all},
      {"log2", [](const Tensor& t) { return ts::log2(t); }, all},
      {"log10", [](const Tensor& t) { return ts::log10(t); }, all},
      {"asin", [](const Tensor& t) { return ts::asin(t); }, all},
      {"acos", [](const Tensor& t) { return ts::acos(t); }, all},
      {"atan", [](const Tensor& t) { return ts::atan(t); }, all},
      {"sinh", [](const Tensor& t) { return ts::sinh(t); }, all},
      {"cosh", [](const Tensor& t) { return ts::cosh(t); }, all},
      {"asinh", [](const Tensor& t) { return ts::asinh(t); }, all},
      {"acosh", [](const Tensor& t) { return ts::acosh(t); }, all},
      {"atanh", [](const Tensor& t) { return ts::atanh(t); }, all},
      {"sinc", [](const Tensor& t) { return ts::sinc(t); }, all},
      {"erfc", [](const Tensor& t) { return ts::erfc(t); }, all},
      {"erfinv", [](const Tensor& t) { return ts::erfinv(t); }, all},
      {"hardsigmoid", [](const Tensor& t) { return ts::hardsigmoid(t); }, fl},
      {"hardswish", [](const Tensor& t) { return ts::hardswish(t); }, fl},
      {"mish", [](const Tensor& t) { return ts::mish(t); }, fl},
      {"log_sigmoid", [](const Tensor& t) { return ts::log_sigmoid(t); }, fl},
      {"frac", [](const Tensor& t) { return ts::frac(t); }, fl},
      {"floor", [](const Tensor& t) { return ts::floor(t); }, kReal},
      {"ceil", [](const Tensor& t) { return ts::ceil(t); }, kReal},
      {"round", [](const Tensor& t) { return ts::round(t); }, kReal},
      {"trunc", [](const Tensor& t) { return ts::trunc(t); }, kReal},
      {"isnan", [](const Tensor& t) { return ts::isnan(t); }, all},
      {"logical_not", [](const Tensor& t) { return ts::logical_not(t); }, all},
      {"bitwise_not", [](const Tensor& t) { return ts::bitwise_not(t); }, DTypeSet::integral(true)},
      {"clamp", [](const Tensor& t) { return ts::clamp(t, -2, 3); }, kNoBool},
      {"clamp_min", [](const Tensor& t) { return ts::clamp(t, 1, std::nullopt); }, kNoBool},
      {"clamp_max", [](const Tensor& t) { return ts::clamp(t, std::nullopt, 1); }, kNoBool},
  };
}

TEST(OptimizedUnary, EveryOpDtypeAndLayout) {
  for (const UnaryCase& c : cases()) {
    for (ts::ScalarType dt : kAll) {
      if (!c.dtypes.has(dt)) continue;
      // Values that round to halves too (round half to even), and integers beyond +-4.
      Tensor x = sample({37, 29}, dt, -6.5, 6.5, 11);
      for_each_layout(layouts(x), [&](const std::string& layout, const Tensor& t) {
        const std::string what = std::string(c.name) + " " + name(dt) + " " + layout;
        expect_matches_reference([&] { return c.f(t); }, what);
      });
    }
  }
}

// Values every floating kernel must get right exactly (or to its tolerance): NaN, infinities,
// signed zeros, subnormals, overflow and underflow thresholds, halfway cases for round.
Values special_values(ts::ScalarType dt) {
  Values v{kNaN,    kInf, -kInf,    0.0,   -0.0,       1e-40,  -1e-40,  0.5,
           -0.5,    1.5,  2.5,      -2.5,  0.49999997, 1.0,    -1.0,    -0.99999994,
           88.7228, 88.8, 89.0,     104.5, -87.5,      -103.9, -104.5,  -200.0,
           3.92,    3.95, 0.921875, 0.92,  10.0,       -10.0,  39000.0, 39001.0,
           -5e4,    1e6,  1e10,     -1e10, 3e38,       -3e38,  1e-20,   8388609.0};
  if (dt == kDouble) {
    v.insert(v.end(), {1e-310, -1e-310, 709.7, 709.79, 710.0, -745.0, -746.0, 1e300, 4.5e15,
                       4503599627370497.0, 0x1p-1074});
  }
  return v;
}

TEST(OptimizedUnary, SpecialValuesMatchTheReference) {
  for (ts::ScalarType dt : kFloating) {
    const Tensor x = make(dt, special_values(dt));
    for (const UnaryCase& c : cases()) {
      if (!c.dtypes.has(dt)) continue;
      expect_matches_reference([&] { return c.f(x); },
                               std::string(c.name) + " special " + name(dt));
    }
  }
}

TEST(OptimizedUnary, HandComputedSpecialValues) {
  for_each_capability([](const std::string&) {
    for (ts::ScalarType dt : {kFloat, kDouble}) {
      SCOPED_TRACE(ts::dtype_name(dt));
      const Tensor x = make(dt, {kNaN, kInf, -kInf, 0.0, -0.0});
      EXPECT_TENSOR(ts::exp(x), dt, {5}, {kNaN, kInf, 0, 1, 1});
      EXPECT_TENSOR(ts::expm1(x), dt, {5}, {kNaN, kInf, -1, 0, 0});
      EXPECT_TRUE(signbit_at(ts::expm1(x), 4));
      EXPECT_TENSOR(ts::log(x), dt, {5}, {kNaN, kInf, kNaN, -kInf, -kInf});
      EXPECT_TENSOR(ts::log1p(x), dt, {5}, {kNaN, kInf, kNaN, 0, 0});
      EXPECT_TRUE(signbit_at(ts::log1p(x), 4));
      EXPECT_TENSOR(ts::sin(x), dt, {5}, {kNaN, kNaN, kNaN, 0, 0});
      EXPECT_TRUE(signbit_at(ts::sin(x), 4));
      EXPECT_TENSOR(ts::cos(x), dt, {5}, {kNaN, kNaN, kNaN, 1, 1});
      EXPECT_TENSOR(ts::tanh(x), dt, {5}, {kNaN, 1, -1, 0, 0});
      EXPECT_TRUE(signbit_at(ts::tanh(x), 4));
      EXPECT_TENSOR(ts::sigmoid(x), dt, {5}, {kNaN, 1, 0, 0.5, 0.5});
      EXPECT_TENSOR(ts::erf(x), dt, {5}, {kNaN, 1, -1, 0, 0});
      EXPECT_TRUE(signbit_at(ts::erf(x), 4));
      EXPECT_TENSOR(ts::sqrt(x), dt, {5}, {kNaN, kInf, kNaN, 0, 0});
      EXPECT_TENSOR(ts::rsqrt(x), dt, {5}, {kNaN, 0, kNaN, kInf, -kInf});
      EXPECT_TENSOR(ts::reciprocal(x), dt, {5}, {kNaN, 0, 0, kInf, -kInf});
      EXPECT_TENSOR(ts::relu(x), dt, {5}, {kNaN, kInf, 0, 0, 0});
      EXPECT_TRUE(signbit_at(ts::relu(x), 4));  // x < 0 ? 0 : x keeps -0
      EXPECT_TENSOR(ts::sign(x), dt, {5}, {0, 1, -1, 0, 0});
      EXPECT_FALSE(signbit_at(ts::sign(x), 4));
      EXPECT_TENSOR(ts::silu(x), dt, {5}, {kNaN, kInf, kNaN, 0, 0});
      EXPECT_TENSOR(ts::gelu(x), dt, {5}, {kNaN, kInf, kNaN, 0, 0});
      if (dt == kFloat) {
        // Note [gelu's negative tail]: below -14.5 the result rounds to -0; -13.5 and -14
        // are subnormals (0.5 x erfc(-x / sqrt 2) = -1.0555e-40 and -1.0911e-43 in
        // double); a lone lane of them among ordinary ones takes the same path.
        const Tensor g = ts::gelu(make(dt, {-14.6, -20, -1e30, -13.5, -14, 1, 2, 3}));
        EXPECT_TRUE(signbit_at(g, 0) && signbit_at(g, 1) && signbit_at(g, 2));
        EXPECT_EQ(get(g, 0), 0.0);
        EXPECT_EQ(get(g, 2), 0.0);
        EXPECT_NEAR(get(g, 3), -1.05554e-40, 0.0001e-40);
        EXPECT_NEAR(get(g, 4), -1.0911e-43, 0.002e-43);
      }
      EXPECT_TENSOR(ts::isnan(x), kBool, {5}, {1, 0, 0, 0, 0});
      EXPECT_TENSOR(ts::logical_not(x), kBool, {5}, {0, 0, 0, 1, 1});
      // Overflow and underflow: exp(100) = inf in float32, exp(-200) = 0; 2.5 rounds to 2.
      const Tensor y = make(dt, {100, -200, 2.5, -0.5, 0.5, 1.5, -2.7});
      EXPECT_TENSOR(ts::round(y), dt, {7}, {100, -200, 2, -0.0, 0, 2, -3});
      EXPECT_TRUE(signbit_at(ts::round(y), 3));
      EXPECT_TENSOR(ts::floor(y), dt, {7}, {100, -200, 2, -1, 0, 1, -3});
      EXPECT_TENSOR(ts::ceil(y), dt, {7}, {100, -200, 3, -0.0, 1, 2, -2});
      EXPECT_TENSOR(ts::trunc(y), dt, {7}, {100, -200, 2, -0.0, 0, 1, -2});
      if (dt == kFloat) {  // exp(100) overflows float32, exp(-200) underflows it
        EXPECT_EQ(get(ts::exp(y), 0), kInf);
        EXPECT_EQ(get(ts::exp(y), 1), 0.0);
      }
      // sin and cos beyond Highway's range (the C library takes those lanes).
      const Tensor big = make(dt, {1e6, 3e7, -1e10});
      EXPECT_NEAR(get(ts::sin(big), 0), std::sin(1e6), 1e-6);
      EXPECT_NEAR(get(ts::cos(big), 2), std::cos(dt == kFloat ? -1e10f : -1e10), 1e-6);
    }
  });
}

TEST(OptimizedUnary, IntegerEdgeCasesAreExact) {
  for_each_capability([](const std::string&) {
    const Tensor i8 = make(ts::kChar, {-128, -1, 0, 127});
    EXPECT_TENSOR(ts::neg(i8), ts::kChar, {4}, {-128, 1, 0, -127});  // wraps, as in PyTorch
    EXPECT_TENSOR(ts::abs(i8), ts::kChar, {4}, {-128, 1, 0, 127});
    EXPECT_TENSOR(ts::sign(i8), ts::kChar, {4}, {-1, -1, 0, 1});
    EXPECT_TENSOR(ts::relu(i8), ts::kChar, {4}, {0, 0, 0, 127});
    EXPECT_TENSOR(ts::bitwise_not(i8), ts::kChar, {4}, {127, 0, -1, -128});
    EXPECT_TENSOR(ts::clamp(i8, -5, 5), ts::kChar, {4}, {-5, -1, 0, 5});
    EXPECT_TENSOR(ts::round(i8), ts::kChar, {4}, {-128, -1, 0, 127});
    const Tensor i64 = make_long({kI64Min, -3, kI64Max});
    EXPECT_EQ(long_values(ts::neg(i64)), (std::vector<int64_t>{kI64Min, 3, -kI64Max}));
    EXPECT_EQ(long_values(ts::abs(i64)), (std::vector<int64_t>{kI64Min, 3, kI64Max}));
    EXPECT_EQ(long_values(ts::clamp(i64, kI64Min + 1, std::nullopt)),
              (std::vector<int64_t>{kI64Min + 1, -3, kI64Max}));
    const Tensor u8 = make(ts::kByte, {0, 1, 255});
    EXPECT_TENSOR(ts::neg(u8), ts::kByte, {3}, {0, 255, 1});
    EXPECT_TENSOR(ts::abs(u8), ts::kByte, {3}, {0, 1, 255});
    EXPECT_TENSOR(ts::sign(u8), ts::kByte, {3}, {0, 1, 1});
    EXPECT_TENSOR(ts::bitwise_not(u8), ts::kByte, {3}, {255, 254, 0});
    const Tensor b = make(kBool, {0, 1});
    EXPECT_TENSOR(ts::bitwise_not(b), kBool, {2}, {1, 0});
    EXPECT_TENSOR(ts::logical_not(b), kBool, {2}, {1, 0});
    EXPECT_TENSOR(ts::sign(b), kBool, {2}, {0, 1});
    EXPECT_TENSOR(ts::isnan(b), kBool, {2}, {0, 0});
    EXPECT_TENSOR(ts::exp(make(ts::kInt, {0, 1})), kFloat, {2}, {1, std::exp(1.0f)});
  });
}

TEST(OptimizedUnary, ClampBounds) {
  const Tensor x = sample({40, 30}, kFloat, -4, 4, 3);
  const Tensor h = sample({40, 30}, kHalf, -4, 4, 4);
  const Tensor i = sample({40, 30}, ts::kInt, -20, 20, 5);
  expect_matches_reference([&] { return ts::clamp(x, 1.5, -1.5); }, "min > max gives max");
  expect_matches_reference([&] { return ts::clamp(x, kNaN, 1); }, "NaN min");
  expect_matches_reference([&] { return ts::clamp(x, std::nullopt, kNaN); }, "NaN max");
  expect_matches_reference([&] { return ts::clamp(h, 0.1, 0.7); }, "half bounds round once");
  expect_matches_reference([&] { return ts::clamp(i, -3, 7); }, "int");
  expect_matches_reference([&] { return ts::clamp(i, -2.5, 7); }, "int with float min");
  expect_matches_reference([&] { return ts::clamp(i, true, std::nullopt); }, "int with bool min");
  expect_matches_reference([&] { return ts::clamp(sample({50}, kDouble), -1, 1); }, "double");
  for_each_capability([](const std::string&) {
    const Tensor y = make(kFloat, {kNaN, -3, 0, 3});
    EXPECT_TENSOR(ts::clamp(y, -1, 1), kFloat, {4}, {kNaN, -1, 0, 1});
    EXPECT_TENSOR(ts::clamp(y, 2, 1), kFloat, {4}, {kNaN, 1, 1, 1});
    EXPECT_TENSOR(ts::clamp(y, kNaN, 1), kFloat, {4}, {kNaN, kNaN, kNaN, kNaN});
  });
}

TEST(OptimizedUnary, BroadcastZeroDimEmptyAndLarge) {
  const Tensor row = sample({1, 29}, kFloat, -3, 3, 6);
  expect_matches_reference([&] { return ts::exp(row.expand({31, 29})); }, "expanded row");
  expect_matches_reference([&] { return ts::sin(sample({1}, kFloat).expand({100})); },
                           "expanded single value");
  expect_matches_reference([&] { return ts::tanh(sample({}, kFloat)); }, "0-dim");
  expect_matches_reference([&] { return ts::gelu(sample({}, kHalf)); }, "0-dim half");
  expect_matches_reference([&] { return ts::erf(ts::empty({0, 7})); }, "empty");
  expect_matches_reference([&] { return ts::isnan(ts::empty({3, 0}, kHalf)); }, "empty isnan");
  // Above the parallel grain, and a transposed 3-D layout.
  const Tensor big = sample({300, 257}, kFloat, -5, 5, 7);
  expect_matches_reference([&] { return ts::sigmoid(big); }, "large sigmoid");
  expect_matches_reference([&] { return ts::log1p(big.t()); }, "large transposed log1p");
  expect_matches_reference([&] { return ts::erf(big.to(kBFloat16)); }, "large bfloat16 erf");
  const Tensor cube = sample({6, 7, 8}, kDouble, -3, 3, 8);
  expect_matches_reference([&] { return ts::expm1(cube.transpose(0, 2)); }, "3-D transposed");
}

TEST(OptimizedUnary, InPlaceAndOutVariants) {
  expect_matches_reference(
      [] {
        Tensor a = sample({20, 30}, kFloat);
        a.exp_();
        return a;
      },
      "exp_");
  expect_matches_reference(
      [] {
        Tensor a = sample({20, 30}, kHalf).t();
        ts::gelu_(a, "tanh");
        return a;
      },
      "gelu_ on a transposed half tensor");
  expect_matches_reference(
      [] {
        Tensor a = sample({20, 30}, kFloat);
        a.clamp_(-1, 1);
        return a;
      },
      "clamp_");
  expect_matches_reference(
      [] {
        Tensor out = ts::empty({0}, kDouble);
        ts::sin_out(out, sample({20, 30}, kFloat));
        return out;
      },
      "sin_out into float64 (computed in float32)");
  expect_matches_reference(
      [] {
        Tensor out = ts::empty({20, 30}, ts::kShort);  // ATen: out= of self's dtype only
        ts::neg_out(out, sample({20, 30}, ts::kShort, -9, 9));
        return out;
      },
      "neg_out int16 into int16");
  expect_matches_reference(
      [] {
        Tensor out = ts::empty({20, 30}, kFloat);
        ts::logical_not_out(out, sample({20, 30}, kHalf, -1, 1).round());
        return out;
      },
      "logical_not_out into float32");
  expect_matches_reference(
      [] {
        Tensor a = sample({20, 30}, ts::kInt, -2, 2);
        a.logical_not_();
        return a;
      },
      "logical_not_ on int32");
  expect_matches_reference(
      [] {
        Tensor out = ts::empty({0}, kFloat);
        ts::clamp_out(out, sample({20, 30}, ts::kInt, -9, 9), -2.5, 4);
        return out;
      },
      "clamp_out int with a float bound");
}

// Note [Transcendental accuracy] (unary.cpp): the max float32 error in ULPs of the double result.
double ulp_of(double r) {
  const double a = std::fabs(r);
  if (a < 0x1p-126) return 0x1p-149;
  int e;
  std::frexp(a, &e);
  return std::ldexp(1.0, e - 24);
}

// sin(pi v) / (pi v) with pi v reduced exactly (v - 2 round(v / 2) is exact in double).
double sinc_exact(double v) {
  if (v == 0) return 1;
  double r = v - 2 * std::nearbyint(v / 2);
  if (r > 0.5) r = 1 - r;
  if (r < -0.5) r = -1 - r;
  return std::sin(M_PI * r) / (M_PI * v);
}

TEST(OptimizedUnary, Float32UlpErrorOfTranscendentals) {
  // Inputs: 2^18 float32 bit patterns spread over every exponent, both signs, plus a dense
  // uniform sweep of [-10, 10].
  std::vector<float> xs;
  for (uint32_t i = 0; i < (1u << 17); ++i) {
    const uint32_t bits = i * 32749u;
    float f;
    std::memcpy(&f, &bits, 4);
    if (std::isfinite(f)) xs.push_back(f);
    xs.push_back(-10.0f + 20.0f * static_cast<float>(i) / (1u << 17));
  }
  const Tensor x = ts::tensor(ts::ArrayRef<float>(xs));
  struct Fn {
    const char* name;
    Tensor (*op)(const Tensor&);
    double (*ref)(double);
    double max_ulp;
  };
  const Fn fns[] = {
      {"exp", ts::exp, [](double v) { return std::exp(v); }, 1.0},
      {"expm1", ts::expm1, [](double v) { return std::expm1(v); }, 3.5},
      {"log", ts::log, [](double v) { return std::log(v); }, 1.0},
      {"log1p", ts::log1p, [](double v) { return std::log1p(v); }, 2.5},
      {"sin", ts::sin, [](double v) { return std::sin(v); }, 2.5},
      {"cos", ts::cos, [](double v) { return std::cos(v); }, 2.5},
      {"tan", ts::tan, [](double v) { return std::tan(v); }, 3.5},
      {"tanh", ts::tanh, [](double v) { return std::tanh(v); }, 3.0},
      {"sigmoid", ts::sigmoid, [](double v) { return 1 / (1 + std::exp(-v)); }, 3.0},
      {"erf", ts::erf, [](double v) { return std::erf(v); }, 1.5},
      {"rsqrt", ts::rsqrt, [](double v) { return 1 / std::sqrt(v); }, 1.5},
      {"sqrt", ts::sqrt, [](double v) { return std::sqrt(v); }, 0.5},
      {"reciprocal", ts::reciprocal, [](double v) { return 1 / v; }, 0.5},
      {"asin", ts::asin, [](double v) { return std::asin(v); }, 2.5},
      {"acos", ts::acos, [](double v) { return std::acos(v); }, 1.5},
      {"atan", ts::atan, [](double v) { return std::atan(v); }, 3.0},
      {"sinh", ts::sinh, [](double v) { return std::sinh(v); }, 3.0},
      {"cosh", ts::cosh, [](double v) { return std::cosh(v); }, 2.0},
      {"asinh", ts::asinh, [](double v) { return std::asinh(v); }, 2.5},
      {"acosh", ts::acosh, [](double v) { return std::acosh(v); }, 2.5},
      {"atanh", ts::atanh, [](double v) { return std::atanh(v); }, 3.0},
      {"exp2", ts::exp2, [](double v) { return std::exp2(v); }, 1.0},
      {"log2", ts::log2, [](double v) { return std::log2(v); }, 2.0},
      {"log10", ts::log10, [](double v) { return std::log10(v); }, 2.0},
      {"erfc", ts::erfc, [](double v) { return std::erfc(v); }, 6.0},
      {"sinc", ts::sinc, sinc_exact, 3.0},
  };
  for (const Fn& fn : fns) {
    std::vector<double> want(xs.size());
    for (size_t i = 0; i < xs.size(); ++i) want[i] = fn.ref(xs[i]);
    for_each_capability([&](const std::string& cap) {
      const Tensor y = fn.op(x);
      const float* got = y.data_ptr<float>();
      double worst = 0, at = 0;
      for (size_t i = 0; i < xs.size(); ++i) {
        const float w = static_cast<float>(want[i]);
        if (std::isnan(want[i]) || std::isinf(w)) {
          EXPECT_TRUE(std::isnan(want[i]) ? std::isnan(got[i]) : got[i] == w)
              << fn.name << "(" << xs[i] << ") = " << got[i] << ", want " << w;
          continue;
        }
        const double e = std::fabs(got[i] - want[i]) / ulp_of(want[i]);
        if (!(e <= worst)) worst = e, at = xs[i];  // a NaN error fails below
      }
      EXPECT_LE(worst, fn.max_ulp) << fn.name << " [" << cap << "] at x = " << at;
      std::cout << "  " << fn.name << " [" << cap << "] max " << worst << " ulp\n";
    });
  }
}

// The ops without a C library counterpart, against the reference set in float64 on inputs
// where their float32 results are normal numbers: erfinv on (-1, 1), mish above -80 (below, e^x
// is subnormal in float32: as silu), log_sigmoid below 80 (above, -e^-x is).
TEST(OptimizedUnary, Float32UlpErrorAgainstTheReference) {
  struct Fn {
    const char* name;
    Tensor (*op)(const Tensor&);
    double lo, hi;
    double max_ulp;
  };
  const Fn fns[] = {
      {"erfinv", ts::erfinv, -1, 1, 3.5},
      {"mish", ts::mish, -80, 1e30, 4.5},
      {"log_sigmoid", ts::log_sigmoid, -1e30, 80, 3.0},
      {"hardsigmoid", ts::hardsigmoid, -1e30, 1e30, 1.0},
      {"hardswish", ts::hardswish, -1e30, 1e30, 2.0},
      {"frac", ts::frac, -1e30, 1e30, 0},
  };
  for (const Fn& fn : fns) {
    std::vector<float> xs;
    for (uint32_t i = 0; i < (1u << 17); ++i) {
      const uint32_t bits = i * 32749u;
      float f;
      std::memcpy(&f, &bits, 4);
      if (std::isfinite(f) && f > fn.lo && f < fn.hi) xs.push_back(f);
      const float u = static_cast<float>(fn.lo > -10 ? fn.lo : -10) +
                      static_cast<float>((fn.hi < 10 ? fn.hi : 10) - (fn.lo > -10 ? fn.lo : -10)) *
                          static_cast<float>(i) / (1u << 17);
      if (u > fn.lo && u < fn.hi) xs.push_back(u);
    }
    const Tensor x = ts::tensor(ts::ArrayRef<float>(xs));
    std::vector<double> want;
    {
      ts::KernelSetGuard g("reference");
      const Tensor w = fn.op(x.to(kDouble));
      want.assign(w.data_ptr<double>(), w.data_ptr<double>() + w.numel());
    }
    for_each_capability([&](const std::string& cap) {
      const Tensor y = fn.op(x);
      const float* got = y.data_ptr<float>();
      double worst = 0, at = 0;
      for (size_t i = 0; i < xs.size(); ++i) {
        const float w = static_cast<float>(want[i]);
        if (std::isnan(want[i]) || std::isinf(w)) {
          EXPECT_TRUE(std::isnan(want[i]) ? std::isnan(got[i]) : got[i] == w)
              << fn.name << "(" << xs[i] << ") = " << got[i] << ", want " << w;
          continue;
        }
        if (want[i] == 0) {
          EXPECT_EQ(got[i], 0) << fn.name << "(" << xs[i] << ")";
          continue;
        }
        const double e = std::fabs(got[i] - want[i]) / ulp_of(want[i]);
        if (!(e <= worst)) worst = e, at = xs[i];
      }
      EXPECT_LE(worst, fn.max_ulp) << fn.name << " [" << cap << "] at x = " << at;
      std::cout << "  " << fn.name << " [" << cap << "] max " << worst << " ulp\n";
    });
  }
}

}  // namespace
