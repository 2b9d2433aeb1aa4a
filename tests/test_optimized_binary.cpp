// The optimized set's binary kernels against the reference set, on every op, dtype, layout and
// SIMD capability, plus hand-computed values, special values and the error paths.
#include <gmock/gmock.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <tuple>
#include <utility>
#include <vector>

#include "optimized_check.h"
#include "test_util.h"

namespace {

using ::testing::HasSubstr;
using ts::Tensor;
using namespace ts::testing;  // make, values, kAll, kInf, kNaN, sample, layouts, ...

constexpr ts::DTypeSet kAllSet = ts::DTypeSet::all();
constexpr ts::DTypeSet kNoBool = kAllSet - ts::DTypeSet{ts::kBool};
constexpr ts::DTypeSet kFloatingSet = ts::DTypeSet::floating();
constexpr ts::DTypeSet kIntegralAndBool = ts::DTypeSet::integral(true);

// Integer-valued samples in [lo, hi) of any dtype: many ties, exact multiples and zeros.
Tensor ints(ts::IntArrayRef sizes, ts::ScalarType dt, int64_t lo, int64_t hi, uint64_t seed) {
  Tensor t = sample(sizes, ts::kLong, static_cast<double>(lo), static_cast<double>(hi), seed);
  ts::KernelSetGuard g("reference");
  if (dt == ts::kByte) t = ts::remainder(t, 256);
  return t.to(dt);
}

// t with its zeros replaced by `v` (divisors of integer division).
Tensor nonzero(const Tensor& t, int64_t v) {
  ts::KernelSetGuard g("reference");
  return ts::where(ts::eq(t, 0), ts::full_like(t, v), t);
}

enum class Inputs { kGeneral, kIntegerValued, kDivisor, kPow, kBitwise };

struct OpCase {
  std::string name;
  ts::DTypeSet dtypes;  // the reference set's
  Inputs inputs;
  std::function<Tensor(const Tensor&, const Tensor&)> f;
};

std::vector<OpCase> op_cases() {
  using T = const Tensor&;
  return {
      {"add", kAllSet, Inputs::kGeneral, [](T a, T b) { return ts::add(a, b, 2); }},
      {"sub", kNoBool, Inputs::kGeneral, [](T a, T b) { return ts::sub(a, b); }},
      {"mul", kAllSet, Inputs::kGeneral, [](T a, T b) { return ts::mul(a, b); }},
      {"div", kAllSet, Inputs::kGeneral, [](T a, T b) { return ts::div(a, b); }},
      {"div_trunc", kNoBool, Inputs::kDivisor, [](T a, T b) { return ts::div(a, b, "trunc"); }},
      {"div_floor", kNoBool, Inputs::kDivisor, [](T a, T b) { return ts::div(a, b, "floor"); }},
      {"remainder", kNoBool, Inputs::kDivisor, [](T a, T b) { return ts::remainder(a, b); }},
      {"pow", kNoBool, Inputs::kPow, [](T a, T b) { return ts::pow(a, b); }},
      {"maximum", kAllSet, Inputs::kIntegerValued, [](T a, T b) { return ts::maximum(a, b); }},
      {"minimum", kAllSet, Inputs::kIntegerValued, [](T a, T b) { return ts::minimum(a, b); }},
      {"atan2", kFloatingSet, Inputs::kGeneral, [](T a, T b) { return ts::atan2(a, b); }},
      {"eq", kAllSet, Inputs::kIntegerValued, [](T a, T b) { return ts::eq(a, b); }},
      {"ne", kAllSet, Inputs::kIntegerValued, [](T a, T b) { return ts::ne(a, b); }},
      {"lt", kAllSet, Inputs::kIntegerValued, [](T a, T b) { return ts::lt(a, b); }},
      {"le", kAllSet, Inputs::kIntegerValued, [](T a, T b) { return ts::le(a, b); }},
      {"gt", kAllSet, Inputs::kIntegerValued, [](T a, T b) { return ts::gt(a, b); }},
      {"ge", kAllSet, Inputs::kIntegerValued, [](T a, T b) { return ts::ge(a, b); }},
      {"logical_and", kAllSet, Inputs::kIntegerValued,
       [](T a, T b) { return ts::logical_and(a, b); }},
      {"logical_or", kAllSet, Inputs::kIntegerValued,
       [](T a, T b) { return ts::logical_or(a, b); }},
      {"bitwise_and", kIntegralAndBool, Inputs::kBitwise,
       [](T a, T b) { return ts::bitwise_and(a, b); }},
      {"bitwise_or", kIntegralAndBool, Inputs::kBitwise,
       [](T a, T b) { return ts::bitwise_or(a, b); }},
      {"bitwise_xor", kIntegralAndBool, Inputs::kBitwise,
       [](T a, T b) { return ts::bitwise_xor(a, b); }},
  };
}

// Operands of `sizes` suited to the op: divisors are nonzero for integer dtypes, pow gets
// exponents its dtype can take, comparisons get ties.
std::pair<Tensor, Tensor> operands(Inputs kind, ts::IntArrayRef sizes, ts::ScalarType dt,
                                   uint64_t seed) {
  const bool floating = ts::is_floating_type(dt);
  switch (kind) {
    case Inputs::kGeneral:
      return {sample(sizes, dt, -50, 50, seed), sample(sizes, dt, -50, 50, seed + 1)};
    case Inputs::kIntegerValued:
      return {ints(sizes, dt, -3, 4, seed), ints(sizes, dt, -3, 4, seed + 1)};
    case Inputs::kDivisor:
      if (floating) return {sample(sizes, dt, -50, 50, seed), ints(sizes, dt, -7, 8, seed + 1)};
      return {ints(sizes, dt, -120, 120, seed), nonzero(ints(sizes, dt, -9, 10, seed + 1), 3)};
    case Inputs::kPow:
      if (floating) return {sample(sizes, dt, 0.05, 4, seed), sample(sizes, dt, -4, 4, seed + 1)};
      return {ints(sizes, dt, -4, 5, seed), ints(sizes, dt, -2, 8, seed + 1)};
    case Inputs::kBitwise:
      return {ints(sizes, dt, -100, 100, seed), ints(sizes, dt, -100, 100, seed + 1)};
  }
  return {};
}

std::string describe(const std::string& op, ts::ScalarType dt, const std::string& how) {
  return op + " " + name(dt) + " " + how;
}

class OptimizedBinaryOp : public ::testing::TestWithParam<OpCase> {};

TEST_P(OptimizedBinaryOp, EveryDtypeAndLayout) {
  const OpCase& op = GetParam();
  for (ts::ScalarType dt : kAll) {
    if (!op.dtypes.has(dt)) continue;
    Tensor a, b;
    std::tie(a, b) = operands(op.inputs, {23, 41}, dt, 11);
    const auto la = layouts(a);
    const auto lb = layouts(b);
    // Every layout against itself and against the next one (contiguous x transposed, ...).
    for (size_t i = 0; i < la.size(); ++i) {
      for (size_t j : {i, (i + 1) % lb.size()}) {
        const Tensor& ta = la[i].second;
        const Tensor& tb = lb[j].second;
        expect_matches_reference([&] { return op.f(ta, tb); },
                                 describe(op.name, dt, la[i].first + " x " + lb[j].first));
      }
    }
  }
}

TEST_P(OptimizedBinaryOp, BroadcastZeroDimEmptyAndLarge) {
  const OpCase& op = GetParam();
  for (ts::ScalarType dt : kAll) {
    if (!op.dtypes.has(dt)) continue;
    // std::tie: clang 14 (the tsan preset) cannot capture structured bindings in lambdas.
    Tensor a, b, row, col, s0, s1;
    std::tie(a, b) = operands(op.inputs, {19, 37}, dt, 21);
    std::tie(row, col) = operands(op.inputs, {37}, dt, 31);
    std::tie(s0, s1) = operands(op.inputs, {}, dt, 41);
    if (op.inputs == Inputs::kDivisor && !ts::is_floating_type(dt)) {
      // Every operand is a divisor somewhere below.
      a = nonzero(a, 5);
      row = nonzero(row, -2);
      s0 = nonzero(s0, 7);
    }
    Tensor column;
    {
      ts::KernelSetGuard g("reference");
      column = col.narrow(0, 0, 19).unsqueeze(1);
    }
    expect_matches_reference([&] { return op.f(a, row); }, describe(op.name, dt, "row bcast"));
    expect_matches_reference([&] { return op.f(row, a); }, describe(op.name, dt, "bcast row"));
    expect_matches_reference([&] { return op.f(column, a); }, describe(op.name, dt, "col bcast"));
    expect_matches_reference([&] { return op.f(a, column); }, describe(op.name, dt, "bcast col"));
    expect_matches_reference([&] { return op.f(column, row); }, describe(op.name, dt, "outer"));
    expect_matches_reference([&] { return op.f(a, s1); }, describe(op.name, dt, "0-dim rhs"));
    expect_matches_reference([&] { return op.f(s0, a); }, describe(op.name, dt, "0-dim lhs"));
    expect_matches_reference([&] { return op.f(s0, s1); }, describe(op.name, dt, "0-dim"));
    expect_matches_reference([&] { return op.f(a.narrow(0, 0, 0), row); },
                             describe(op.name, dt, "empty"));
    expect_matches_reference(
        [&] {
          return op.f(s0.expand({0, 3}), s1);
        },
        describe(op.name, dt, "empty 0-dim"));
  }
  // Above the parallel grain, and a mixed layout through the tiles.
  const ts::ScalarType dt = op.dtypes.has(ts::kFloat) ? ts::kFloat : ts::kInt;
  Tensor a, b;
  std::tie(a, b) = operands(op.inputs, {190, 180}, dt, 51);
  Tensor bt;
  {
    ts::KernelSetGuard g("reference");
    bt = b.t().contiguous().t();
  }
  expect_matches_reference([&] { return op.f(a, b); }, describe(op.name, dt, "large"));
  expect_matches_reference([&] { return op.f(a, bt); }, describe(op.name, dt, "large mixed"));
}

INSTANTIATE_TEST_SUITE_P(Ops, OptimizedBinaryOp, ::testing::ValuesIn(op_cases()),
                         [](const ::testing::TestParamInfo<OpCase>& info) {
                           return info.param.name;
                         });

TEST(OptimizedBinary, RegistersTheReferenceDtypes) {
  const auto ref = ts::find_kernel_set("reference");
  const auto opt = ts::find_kernel_set("optimized");
  ASSERT_TRUE(ref && opt);
  for (ts::OpId op :
       {ts::OpId::add,        ts::OpId::sub,         ts::OpId::mul,        ts::OpId::div,
        ts::OpId::remainder,  ts::OpId::pow,         ts::OpId::maximum,    ts::OpId::minimum,
        ts::OpId::atan2,      ts::OpId::eq,          ts::OpId::ne,         ts::OpId::lt,
        ts::OpId::le,         ts::OpId::gt,          ts::OpId::ge,         ts::OpId::logical_and,
        ts::OpId::logical_or, ts::OpId::bitwise_and, ts::OpId::bitwise_or, ts::OpId::bitwise_xor}) {
    EXPECT_EQ(ts::supported_dtypes(op, ts::kCPU, *opt).bits(),
              ts::supported_dtypes(op, ts::kCPU, *ref).bits())
        << ts::op_info(op).name;
  }
}

// Like expect_matches_reference, and a zero result must also carry the reference's sign.
void expect_matches_reference_signed(const std::function<Tensor()>& f, const std::string& what) {
  Tensor want;
  {
    ts::KernelSetGuard g("reference");
    want = f();
  }
  const Values w = values(want);
  for_each_capability([&](const std::string& cap) {
    Tensor got = f();
    expect_close(got, want, what + " [" + cap + "]");
    const Values v = values(got);
    for (size_t i = 0; i < w.size() && i < v.size(); ++i) {
      if (w[i] == 0 && v[i] == 0) {
        EXPECT_EQ(std::signbit(v[i]), std::signbit(w[i]))
            << what << " [" << cap << "]: sign of the zero at element " << i;
      }
    }
  });
}

// Every pair of special and ordinary values, broadcast (stride 0) and materialized.
TEST(OptimizedBinary, SpecialFloatingValues) {
  const Values v = {kNaN, kInf, -kInf, 0.0,  -0.0,   1.0,   -1.0,  0.5,   -0.5,
                    2.0,  -2.0, 3.0,   -3.0, 0.1,    7.5,   -7.5,  1e-30, -1e30,
                    1e30, 4.0,  -8.0,  1e-7, 123.25, 65504, 5e-324};
  const int64_t n = static_cast<int64_t>(v.size());
  const std::vector<std::pair<std::string, std::function<Tensor(const Tensor&, const Tensor&)>>>
      ops = {
          {"div", [](const Tensor& a, const Tensor& b) { return ts::div(a, b); }},
          {"div_trunc", [](const Tensor& a, const Tensor& b) { return ts::div(a, b, "trunc"); }},
          {"div_floor", [](const Tensor& a, const Tensor& b) { return ts::div(a, b, "floor"); }},
          {"remainder", [](const Tensor& a, const Tensor& b) { return ts::remainder(a, b); }},
          {"pow", [](const Tensor& a, const Tensor& b) { return ts::pow(a, b); }},
          {"maximum", [](const Tensor& a, const Tensor& b) { return ts::maximum(a, b); }},
          {"minimum", [](const Tensor& a, const Tensor& b) { return ts::minimum(a, b); }},
          {"atan2", [](const Tensor& a, const Tensor& b) { return ts::atan2(a, b); }},
          {"mul", [](const Tensor& a, const Tensor& b) { return ts::mul(a, b); }},
          {"eq", [](const Tensor& a, const Tensor& b) { return ts::eq(a, b); }},
          {"ne", [](const Tensor& a, const Tensor& b) { return ts::ne(a, b); }},
          {"lt", [](const Tensor& a, const Tensor& b) { return ts::lt(a, b); }},
          {"le", [](const Tensor& a, const Tensor& b) { return ts::le(a, b); }},
          {"gt", [](const Tensor& a, const Tensor& b) { return ts::gt(a, b); }},
          {"ge", [](const Tensor& a, const Tensor& b) { return ts::ge(a, b); }},
          {"logical_and", [](const Tensor& a, const Tensor& b) { return ts::logical_and(a, b); }},
          {"logical_or", [](const Tensor& a, const Tensor& b) { return ts::logical_or(a, b); }},
      };
  for (ts::ScalarType dt : kFloating) {
    const Tensor col = make(dt, v, {n, 1});
    const Tensor row = make(dt, v, {1, n});
    Tensor a, b;
    {
      ts::KernelSetGuard g("reference");
      a = col.expand({n, n}).contiguous();
      b = row.expand({n, n}).contiguous();
    }
    for (const auto& name_f : ops) {
      const auto& name = name_f.first;
      const auto& f = name_f.second;
      expect_matches_reference_signed([&] { return f(col, row); },
                                      describe(name, dt, "special broadcast"));
      expect_matches_reference_signed([&] { return f(a, b); }, describe(name, dt, "special"));
    }
  }
}

// pow with a broadcast scalar exponent takes fast paths for 2, 3, 0.5 and -1.
TEST(OptimizedBinary, PowScalarExponents) {
  const Values special = {kNaN, kInf, -kInf, 0.0, -0.0, 1.0, -1.0, 4.0, -4.0, 1e-3};
  for (ts::ScalarType dt : kFloating) {
    const Tensor a = sample({31, 17}, dt, -6, 6, 61);
    const Tensor s = make(dt, special);
    for (double e : {2.0, 3.0, 0.5, -1.0, 2.5, -2.0, 0.0, 1.0}) {
      const std::string what = "pow(x, " + std::to_string(e) + ")";
      expect_matches_reference_signed([&] { return ts::pow(a, e); }, describe(what, dt, "sample"));
      expect_matches_reference_signed([&] { return ts::pow(s, e); }, describe(what, dt, "special"));
      expect_matches_reference_signed([&] { return ts::pow(a.t(), e); },
                                      describe(what, dt, "transposed"));
    }
    expect_matches_reference([&] { return ts::pow(2.0, a); }, describe("pow(2, x)", dt, ""));
  }
  for (ts::ScalarType dt : {ts::kByte, ts::kChar, ts::kShort, ts::kInt, ts::kLong}) {
    const Tensor a = ints({9, 13}, dt, -20, 20, 71);
    for (int64_t e : {0, 1, 2, 3, 7, 40}) {
      expect_matches_reference([&] { return ts::pow(a, e); },
                               describe("pow(x, " + std::to_string(e) + ")", dt, ""));
    }
    expect_matches_reference([&] { return ts::pow(a, 0.5); }, describe("pow(x, 0.5)", dt, ""));
  }
}

// float32 pow (Tensor or Scalar exponent) and atan2 run in double (Note [Widened transcendental
// loops]): at most 1 ULP off the reference's correctly rounded results.
int64_t ulp_distance(float x, float y) {
  if (std::isnan(x) && std::isnan(y)) return 0;
  const auto ordered = [](float f) {
    int32_t i;
    std::memcpy(&i, &f, 4);
    return i < 0 ? static_cast<int64_t>(INT32_MIN) - i : static_cast<int64_t>(i);
  };
  return std::abs(ordered(x) - ordered(y));
}

TEST(OptimizedBinary, Float32PowAndAtan2WithinOneUlp) {
  Tensor base, exponent, y, x;
  {
    ts::KernelSetGuard g("reference");
    base = ts::exp(sample({20000}, ts::kFloat, -12, 12, 81));  // e^-12 .. e^12
    exponent = sample({20000}, ts::kFloat, -7, 7, 82);
    y = ts::mul(ts::exp(sample({20000}, ts::kFloat, -20, 20, 83)),
                sample({20000}, ts::kFloat, -1, 1, 84));
    x = ts::mul(ts::exp(sample({20000}, ts::kFloat, -20, 20, 85)),
                sample({20000}, ts::kFloat, -1, 1, 86));
  }
  const std::pair<const char*, std::function<Tensor()>> cases[] = {
      {"pow", [&] { return ts::pow(base, exponent); }},
      // A Scalar exponent stays in double (local_response_norm's 0.75 among them).
      {"pow Scalar 0.75", [&] { return ts::pow(base, 0.75); }},
      {"pow Scalar -6.1", [&] { return ts::pow(base, -6.1); }},
      {"atan2", [&] { return ts::atan2(y, x); }},
  };
  for (const auto& name_f : cases) {
    const auto& name = name_f.first;
    const auto& f = name_f.second;
    Tensor want;
    {
      ts::KernelSetGuard g("reference");
      want = f();
    }
    for_each_capability([&](const std::string& cap) {
      const Tensor got = f();
      int64_t worst = 0;
      const float* pg = got.data_ptr<float>();
      const float* pw = want.data_ptr<float>();
      for (int64_t i = 0; i < got.numel(); ++i) worst = std::max(worst, ulp_distance(pg[i], pw[i]));
      EXPECT_LE(worst, 1) << name << " [" << cap << "]";
      std::printf("float32 %s [%s]: at most %lld ULP from the reference\n", name, cap.c_str(),
                  static_cast<long long>(worst));
    });
  }
}

// Contiguous float32 widens and narrows in lanes, and a block the formula covers in every lane
// skips the per-element check (Note [Widened float32 in lanes]): special values anywhere in a
// block still take the C library, exactly as the reference, and the rest stays within 1 ULP.
TEST(OptimizedBinary, WidenedLanesTakeSpecialValuesAnywhere) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  const float nan = std::nanf("");
  Tensor a, b;
  {
    ts::KernelSetGuard g("reference");
    a = sample({1000}, ts::kFloat, 0.1, 10, 87);
    b = sample({1000}, ts::kFloat, -10, 10, 88);
  }
  const std::pair<int, float> a_special[] = {
      {5, kInf}, {300, nan}, {517, 0.0f}, {700, -2.0f}, {999, -kInf}};
  const std::pair<int, float> b_special[] = {{8, 0.0f}, {301, kInf}, {640, nan}, {700, -kInf}};
  for (const auto& [i, v] : a_special) a.data_ptr<float>()[i] = v;
  for (const auto& [i, v] : b_special) b.data_ptr<float>()[i] = v;
  const std::pair<const char*, std::function<Tensor()>> cases[] = {
      {"pow", [&] { return ts::pow(a, b); }},
      {"pow Scalar 0.75", [&] { return ts::pow(a, 0.75); }},
      {"atan2", [&] { return ts::atan2(a, b); }},
      {"hypot", [&] { return ts::hypot(a, b); }},
      {"xlogy", [&] { return ts::xlogy(b, a); }},
      {"logaddexp", [&] { return ts::logaddexp(a, b); }},
      {"logaddexp2", [&] { return ts::logaddexp2(a, b); }},
  };
  for (const auto& name_f : cases) {
    const char* name = name_f.first;
    const std::function<Tensor()>& f = name_f.second;
    Tensor want;
    {
      ts::KernelSetGuard g("reference");
      want = f();
    }
    for_each_capability([&](const std::string& cap) {
      const Tensor got = f();
      const float* pg = got.data_ptr<float>();
      const float* pw = want.data_ptr<float>();
      for (int64_t i = 0; i < got.numel(); ++i) {
        const bool special = !std::isfinite(a.data_ptr<float>()[i]) ||
                             !std::isfinite(b.data_ptr<float>()[i]) ||
                             a.data_ptr<float>()[i] <= 0 || b.data_ptr<float>()[i] == 0;
        EXPECT_LE(ulp_distance(pg[i], pw[i]), special ? 0 : 1)
            << name << " [" << cap << "] element " << i << ": " << pg[i] << " vs " << pw[i];
      }
    });
  }
}

// ---- hand-computed values (Python's and PyTorch's documented semantics) ----

TEST(OptimizedBinary, DivRoundingModesAndRemainderByHand) {
  ts::KernelSetGuard g("optimized");
  for (ts::ScalarType dt : {ts::kChar, ts::kInt, ts::kLong, ts::kFloat, ts::kDouble, ts::kHalf}) {
    const Tensor a = make(dt, {-7, -7, 7, 7, 6, -6});
    const Tensor b = make(dt, {2, -2, 2, -2, 3, 3});
    EXPECT_TENSOR(ts::div(a, b, "trunc"), dt, {6}, {-3, 3, 3, -3, 2, -2});
    EXPECT_TENSOR(ts::div(a, b, "floor"), dt, {6}, {-4, 3, 3, -4, 2, -2});
    EXPECT_TENSOR(ts::remainder(a, b), dt, {6}, {1, -1, 1, -1, 0, 0});
  }
  // Python: 1 // 0.1 == 9.0, 1 % 0.1 == 0.09999999999999995, 5.5 % -2 == -0.5.
  const Tensor a = make(ts::kDouble, {1, 1, 5.5, -5.5});
  const Tensor b = make(ts::kDouble, {0.1, 0.1, -2, 2});
  EXPECT_TENSOR(ts::div(a, b, "floor"), ts::kDouble, {4}, {9, 9, -3, -3});
  EXPECT_TENSOR(ts::remainder(a, b), ts::kDouble, {4},
                {0.09999999999999995, 0.09999999999999995, -0.5, 0.5});
  // Division by zero in floating point is IEEE: 1 // 0 == inf, -1 // 0 == -inf, 0 // 0 == nan.
  EXPECT_TENSOR(ts::div(make(ts::kFloat, {1, -1, 0}), 0.0, "floor"), ts::kFloat, {3},
                {kInf, -kInf, kNaN});
  EXPECT_TENSOR(ts::remainder(make(ts::kFloat, {1, -1}), 0.0), ts::kFloat, {2}, {kNaN, kNaN});
}

TEST(OptimizedBinary, IntegerMinDividedByMinusOneWraps) {
  ts::KernelSetGuard g("optimized");
  const int64_t mins[] = {INT8_MIN, INT16_MIN, INT32_MIN};
  const ts::ScalarType dts[] = {ts::kChar, ts::kShort, ts::kInt};
  for (int k = 0; k < 3; ++k) {
    const Tensor a = make(dts[k], {static_cast<double>(mins[k]), 7, -7});
    const Tensor b = make(dts[k], {-1, -1, -1});
    const double m = static_cast<double>(mins[k]);
    EXPECT_TENSOR(ts::div(a, b, "trunc"), dts[k], {3}, {m, -7, 7});
    EXPECT_TENSOR(ts::div(a, b, "floor"), dts[k], {3}, {m, -7, 7});
    EXPECT_TENSOR(ts::remainder(a, b), dts[k], {3}, {0, 0, 0});
  }
  const Tensor a = make_long({INT64_MIN, INT64_MIN, INT64_MAX});
  const Tensor b = make_long({-1, 2, -1});
  EXPECT_EQ(long_values(ts::div(a, b, "trunc")),
            (std::vector<int64_t>{INT64_MIN, INT64_MIN / 2, -INT64_MAX}));
  EXPECT_EQ(long_values(ts::div(a, b, "floor")),
            (std::vector<int64_t>{INT64_MIN, INT64_MIN / 2, -INT64_MAX}));
  EXPECT_EQ(long_values(ts::remainder(a, b)), (std::vector<int64_t>{0, 0, 0}));
}

TEST(OptimizedBinary, IntegerDivisionByZeroThrowsAndWritesNothing) {
  ts::KernelSetGuard g("optimized");
  for (ts::ScalarType dt : {ts::kByte, ts::kChar, ts::kShort, ts::kInt, ts::kLong}) {
    const Tensor a = make(dt, {6, 7, 8, 9});
    const Tensor b = make(dt, {1, 2, 0, 3});
    EXPECT_ERROR(ts::div(a, b, "trunc"), "div: ZeroDivisionError");
    EXPECT_ERROR(ts::div(a, b, "floor"), "div: ZeroDivisionError");
    EXPECT_ERROR(ts::remainder(a, b), "remainder: ZeroDivisionError");
    EXPECT_ERROR(ts::remainder(a, 0), "remainder: ZeroDivisionError");
    EXPECT_ERROR(a.div_(b, "floor"), "div: ZeroDivisionError");
    EXPECT_ERROR(a.remainder_(b), "remainder: ZeroDivisionError");
    EXPECT_TENSOR(a, dt, {4}, {6, 7, 8, 9});
    Tensor out = make(dt, {1, 1, 1, 1});
    EXPECT_ERROR(ts::div_out(out, a, b, "trunc"), "div: ZeroDivisionError");
    EXPECT_ERROR(ts::remainder_out(out, a, b), "remainder: ZeroDivisionError");
    EXPECT_TENSOR(out, dt, {4}, {1, 1, 1, 1});
    // A zero in a broadcast divisor, and one the divisor only gets by wrapping to int8.
    EXPECT_ERROR(ts::div(a, make(dt, {0}, {}), "trunc"), "div: ZeroDivisionError");
  }
  const Tensor i8 = make(ts::kChar, {1, 2});
  EXPECT_ERROR(ts::remainder(i8, make_long({256}, {})), "remainder: ZeroDivisionError");
  EXPECT_TENSOR(ts::remainder(i8, make_long({258}, {})), ts::kChar, {2}, {1, 0});
}

// Found by fuzz/ (issue 12): the bool add ignored alpha (false + false * true gave true).
TEST(OptimizedBinary, BoolAddUsesAlpha) {
  ts::KernelSetGuard g("optimized");
  const Tensor a = make(ts::kBool, {0, 0, 1, 1}), b = make(ts::kBool, {0, 1, 0, 1});
  EXPECT_TENSOR(ts::add(a, b, false), ts::kBool, {4}, {0, 0, 1, 1});
  // ATen 1.13 converts alpha to bool first: alpha=-1 is true, so 1 + 1 is 1, not 1 + -1 == 0.
  EXPECT_TENSOR(ts::add(a, b, -1), ts::kBool, {4}, {0, 1, 1, 1});
  EXPECT_TENSOR(ts::add(a, b, 2), ts::kBool, {4}, {0, 1, 1, 1});
}

// Found by fuzz/: a ZeroDivisionError used to come after an empty out= tensor was resized. The
// meta finds the zero divisor first, so the failed call leaves `out` as it was, on both sets.
TEST(OptimizedBinary, IntegerDivisionByZeroLeavesAnEmptyOutUnresized) {
  for (const char* set : {"optimized", "reference"}) {
    ts::KernelSetGuard g(set);
    const Tensor a = make(ts::kLong, {6, 7}), b = make(ts::kLong, {1, 0});
    Tensor out = ts::empty({0}, ts::kLong);
    EXPECT_ERROR(ts::div_out(out, a, b, "floor"), "div: ZeroDivisionError");
    EXPECT_ERROR(ts::remainder_out(out, a, b), "remainder: ZeroDivisionError");
    EXPECT_EQ(out.sizes(), ts::IntArrayRef({0})) << set;
    // No element is divided when the broadcast result is empty: no error.
    EXPECT_EQ(ts::remainder(ts::empty({0, 2}, ts::kLong), b).numel(), 0) << set;
  }
}

// Found by fuzz/: a self that overlaps itself (as_strided) turns a divisor to zero after the
// kernels checked them all (x % x == 0 lands on an element read later); both sets then divided
// by zero (SIGFPE). The values are unspecified; nothing crashes.
TEST(OptimizedBinary, DivisorsAnOverlappingSelfTurnsToZeroDoNotCrash) {
  for (const char* set : {"optimized", "reference"}) {
    ts::KernelSetGuard g(set);
    std::vector<double> v(29);
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(i + 1);
    for (ts::ScalarType dt : {ts::kByte, ts::kLong}) {
      for (int op = 0; op < 3; ++op) {
        const Tensor self = make(dt, v).as_strided({3, 7}, {2, 4});  // offset 8 twice, ...
        if (op == 0) self.remainder_(self);
        if (op == 1) self.div_(self, "floor");
        if (op == 2) self.div_(self, "trunc");
        EXPECT_EQ(self.numel(), 21) << set;
      }
    }
  }
}

TEST(OptimizedBinary, PowByHand) {
  ts::KernelSetGuard g("optimized");
  const Tensor base = make_long({2, 3, -2, -1, 1, 0, 2, -1, 3});
  const Tensor e = make_long({10, 3, 3, -3, -5, 0, -1, -4, 40});
  EXPECT_EQ(long_values(ts::pow(base, e)),
            (std::vector<int64_t>{1024, 27, -8, -1, 1, 1, 0, 1, -6289078614652622815}));
  EXPECT_TENSOR(ts::pow(make(ts::kChar, {2, -3}), make(ts::kChar, {7, 5})), ts::kChar, {2},
                {-128, 13});
  EXPECT_TENSOR(ts::pow(make(ts::kByte, {7}), 3), ts::kByte, {1}, {87});
  EXPECT_ERROR(ts::pow(make(ts::kInt, {2}), -1),
               "Integers to negative integer powers are not allowed");
  // pow(-0, 0.5) == +0, pow(-inf, 0.5) == inf, pow(nan, 0) == 1, pow(1, nan) == 1.
  const Tensor s = ts::pow(make(ts::kFloat, {-0.0, -kInf, 4, -4}), 0.5);
  EXPECT_TENSOR(s, ts::kFloat, {4}, {0, kInf, 2, kNaN});
  EXPECT_FALSE(signbit_at(s, 0));
  EXPECT_TENSOR(
      ts::pow(make(ts::kFloat, {kNaN, 1, -2, -8}), make(ts::kFloat, {0, kNaN, 3, 1.0 / 3})),
      ts::kFloat, {4}, {1, 1, -8, kNaN});
  EXPECT_TENSOR(ts::pow(make(ts::kDouble, {-2, 0, -0.0}), -1), ts::kDouble, {3},
                {-0.5, kInf, -kInf});
  EXPECT_TENSOR(ts::pow(make(ts::kFloat, {1.5, -2}), 2), ts::kFloat, {2}, {2.25, 4});
  EXPECT_TENSOR(ts::pow(make(ts::kFloat, {1.5, -2}), 3), ts::kFloat, {2}, {3.375, -8});
}

TEST(OptimizedBinary, MaximumAtan2ComparisonsLogicalBitwiseByHand) {
  ts::KernelSetGuard g("optimized");
  const Tensor a = make(ts::kFloat, {kNaN, 1, 2, -kInf, kNaN});
  const Tensor b = make(ts::kFloat, {1, kNaN, -3, 5, kNaN});
  EXPECT_TENSOR(ts::maximum(a, b), ts::kFloat, {5}, {kNaN, kNaN, 2, 5, kNaN});
  EXPECT_TENSOR(ts::minimum(a, b), ts::kFloat, {5}, {kNaN, kNaN, -3, -kInf, kNaN});
  EXPECT_TENSOR(ts::eq(a, b), ts::kBool, {5}, {0, 0, 0, 0, 0});
  EXPECT_TENSOR(ts::ne(a, b), ts::kBool, {5}, {1, 1, 1, 1, 1});
  EXPECT_TENSOR(ts::lt(a, b), ts::kBool, {5}, {0, 0, 0, 1, 0});
  EXPECT_TENSOR(ts::ge(a, b), ts::kBool, {5}, {0, 0, 1, 0, 0});
  EXPECT_TENSOR(ts::logical_and(a, make(ts::kFloat, {1, 1, 0, -0.0, 2})), ts::kBool, {5},
                {1, 1, 0, 0, 1});
  EXPECT_TENSOR(ts::logical_or(make(ts::kFloat, {0, -0.0, kNaN}), make(ts::kFloat, {-0.0, 0, 0})),
                ts::kBool, {3}, {0, 0, 1});
  const double pi = 3.14159265358979323846;
  const Tensor y = make(ts::kDouble, {1, -0.0, 0, 1, -1, kInf});
  const Tensor x = make(ts::kDouble, {-1, -1, 0, 0, kInf, kInf});
  EXPECT_TENSOR(ts::atan2(y, x), ts::kDouble, {6}, {3 * pi / 4, -pi, 0, pi / 2, -0.0, pi / 4},
                1e-15);
  EXPECT_TENSOR(ts::bitwise_and(make(ts::kInt, {12, -1}), make(ts::kInt, {10, 5})), ts::kInt, {2},
                {8, 5});
  EXPECT_TENSOR(ts::bitwise_or(make(ts::kShort, {12, -8}), make(ts::kShort, {10, 1})), ts::kShort,
                {2}, {14, -7});
  EXPECT_TENSOR(ts::bitwise_xor(make(ts::kByte, {12, 255}), make(ts::kByte, {10, 1})), ts::kByte,
                {2}, {6, 254});
  EXPECT_TENSOR(ts::bitwise_xor(make(ts::kBool, {0, 1, 1}), make(ts::kBool, {1, 1, 0})), ts::kBool,
                {3}, {1, 0, 1});
  EXPECT_TENSOR(ts::maximum(make(ts::kBool, {0, 1, 0}), make(ts::kBool, {0, 0, 1})), ts::kBool, {3},
                {0, 1, 1});
  EXPECT_TENSOR(ts::minimum(make(ts::kChar, {-128, 5}), make(ts::kChar, {127, 4})), ts::kChar, {2},
                {-128, 4});
}

// Integer comparisons run in lanes (Note [Integer comparisons in lanes]): values that a double
// cannot tell apart (2^62 and 2^62 + 1), uint8 above 127, the extremes; 37 elements (vectors
// and a tail), and a broadcast operand. Expected values from C++'s own operators.
template <typename T>
void expect_integer_comparisons(ts::ScalarType dtype, const std::vector<T>& pool) {
  constexpr int64_t n = 37;
  Tensor a = ts::empty({n}, dtype), b = ts::empty({n}, dtype);
  T* pa = a.data_ptr<T>();
  T* pb = b.data_ptr<T>();
  const auto m = static_cast<int64_t>(pool.size());
  for (int64_t i = 0; i < n; ++i) {
    pa[i] = pool[static_cast<size_t>(i % m)];
    pb[i] = pool[static_cast<size_t>((i / m + i) % m)];
  }
  const Tensor scalar = b.slice(0, 5, 6).expand({n});
  using Cmp = bool (*)(T, T);
  const std::vector<std::pair<const char*, Cmp>> ops = {
      {"eq", [](T x, T y) { return x == y; }},
      {"ne", [](T x, T y) { return x != y; }},
      {"lt", [](T x, T y) { return x < y; }},
      {"le", [](T x, T y) { return x <= y; }},
      {"gt", [](T x, T y) { return x > y; }},
      {"ge", [](T x, T y) { return x >= y; }},
      {"logical_and", [](T x, T y) { return x != 0 && y != 0; }}};
  for_each_capability([&](const std::string& cap) {
    for (const auto& [name, cmp] : ops) {
      for (const bool bcast : {false, true}) {
        const Tensor rhs = bcast ? scalar : b;
        const std::string op = name;
        const Tensor got = op == "eq"   ? ts::eq(a, rhs)
                           : op == "ne" ? ts::ne(a, rhs)
                           : op == "lt" ? ts::lt(a, rhs)
                           : op == "le" ? ts::le(a, rhs)
                           : op == "gt" ? ts::gt(a, rhs)
                           : op == "ge" ? ts::ge(a, rhs)
                                        : ts::logical_and(a, rhs);
        const bool* g = got.data_ptr<bool>();
        for (int64_t i = 0; i < n; ++i) {
          const T y = bcast ? pb[5] : pb[i];
          ASSERT_EQ(g[i], cmp(pa[i], y)) << op << " " << ts::dtype_name(dtype) << " [" << cap
                                         << "] at " << i << (bcast ? " (broadcast)" : "");
        }
      }
    }
  });
}

TEST(OptimizedBinary, IntegerComparisonsInLanesByHand) {
  ts::KernelSetGuard g("optimized");
  constexpr int64_t k62 = int64_t{1} << 62;
  expect_integer_comparisons<int64_t>(
      ts::kLong, {k62, k62 + 1, -k62, 0, INT64_MAX, INT64_MIN, -1, k62 - 1, 7});
  expect_integer_comparisons<int32_t>(ts::kInt, {INT32_MAX, INT32_MIN, 0, -1, 1 << 30, 5, -5});
  expect_integer_comparisons<int16_t>(ts::kShort, {32767, -32768, 0, -1, 300, 2});
  expect_integer_comparisons<int8_t>(ts::kChar, {127, -128, 0, -1, 100, -100});
  expect_integer_comparisons<uint8_t>(ts::kByte, {255, 0, 200, 100, 127, 128, 1});
}

TEST(OptimizedBinary, WrappedScalarsAndMixedLayouts) {
  expect_matches_reference([] { return ts::mul(sample({33, 17}, ts::kFloat), 2.5); }, "x * 2.5");
  expect_matches_reference([] { return ts::add(sample({5}, ts::kInt), 2.5); }, "int + 2.5");
  expect_matches_reference([] { return ts::div(sample({40}, ts::kHalf), 3); }, "half / 3");
  expect_matches_reference([] { return ts::remainder(sample({40}, ts::kInt, -9, 9), -4); },
                           "int % -4");
  expect_matches_reference([] { return ts::lt(sample({40}, ts::kInt, -9, 9), 2.5); }, "int < 2.5");
  const Tensor a = sample({190, 180}, ts::kFloat);
  const Tensor b = sample({180, 190}, ts::kFloat, -4, 4, 5);
  expect_matches_reference([&] { return ts::add(a.t(), b); }, "a.t() + b");
  expect_matches_reference([&] { return ts::add(b, a.t()); }, "b + a.t()");
  // The transposed tiles (Note [Transposed tiles]) for the 2- and 8-byte storage types.
  for (ts::ScalarType dt : {ts::kHalf, ts::kBFloat16, ts::kDouble}) {
    const Tensor x = sample({190, 180}, dt), y = sample({180, 190}, dt, -4, 4, 5);
    expect_matches_reference([&] { return ts::sub(x.t(), y, 3); },
                             describe("sub", dt, "x.t() - 3y"));
    expect_matches_reference([&] { return ts::addcmul(y, x.t(), x.t(), 0.5); },
                             describe("addcmul", dt, "two transposed inputs"));
  }
  expect_matches_reference([&] { return ts::lt(a.t(), b); }, "a.t() < b");
  expect_matches_reference([&] { return ts::maximum(b, a.t()); }, "maximum(b, a.t())");
  expect_matches_reference([&] { return ts::remainder(a.t(), b); }, "a.t() % b");
}

// ---- in-place and out= variants ----

TEST(OptimizedBinary, InPlaceAndOutVariants) {
  Tensor b = sample({20, 30}, ts::kFloat, -4, 4, 7);
  expect_matches_reference(
      [&] {
        Tensor a = sample({20, 30}, ts::kFloat);
        a.add_(b);
        return a;
      },
      "add_");
  expect_matches_reference(
      [&] {
        Tensor out = ts::empty({0}, ts::kDouble);
        ts::mul_out(out, sample({20, 30}, ts::kFloat), b);
        return out;
      },
      "mul_out into float64");
  for (ts::ScalarType dt : {ts::kFloat, ts::kHalf, ts::kInt, ts::kLong}) {
    const auto fresh = [dt] { return ints({12, 9}, dt, -20, 20, 91); };
    const Tensor d = nonzero(ints({12, 9}, dt, -5, 6, 92), 2);
    const Tensor e = ints({9}, dt, 0, 4, 93);
    const Tensor t = ints({9, 12}, dt, -3, 4, 94).t();  // transposed operand
    const auto check = [&](const char* what, const std::function<void(const Tensor&)>& f) {
      expect_matches_reference(into(fresh, f), describe(what, dt, "in-place"));
    };
    check("div_ trunc", [&](const Tensor& a) { a.div_(d, "trunc"); });
    check("div_ floor", [&](const Tensor& a) { a.div_(d, "floor"); });
    check("remainder_", [&](const Tensor& a) { a.remainder_(d); });
    check("remainder_ scalar", [&](const Tensor& a) { a.remainder_(-3); });
    check("pow_", [&](const Tensor& a) { a.pow_(e); });
    check("pow_ scalar", [&](const Tensor& a) { a.pow_(2); });
    check("sub_ transposed", [&](const Tensor& a) { a.sub_(t); });
    check("eq_", [&](const Tensor& a) { a.eq_(t); });
    check("ne_", [&](const Tensor& a) { a.ne_(t); });
    check("lt_", [&](const Tensor& a) { a.lt_(t); });
    check("le_ scalar", [&](const Tensor& a) { a.le_(1); });
    check("gt_", [&](const Tensor& a) { a.gt_(e); });
    check("ge_", [&](const Tensor& a) { a.ge_(t); });
    check("logical_and_", [&](const Tensor& a) { a.logical_and_(t); });
    check("logical_or_", [&](const Tensor& a) { a.logical_or_(t); });
    check("self aliasing", [&](const Tensor& a) { a.mul_(a); });
    if (ts::is_floating_type(dt)) {
      check("atan2_", [&](const Tensor& a) { a.atan2_(t); });
      check("div_", [&](const Tensor& a) { a.div_(d); });
    } else {
      check("bitwise_and_", [&](const Tensor& a) { a.bitwise_and_(t); });
      check("bitwise_or_", [&](const Tensor& a) { a.bitwise_or_(t); });
      check("bitwise_xor_", [&](const Tensor& a) { a.bitwise_xor_(3); });
    }
  }
  // out=: empty outputs resized, wider dtypes, bool results into other dtypes, strided outputs.
  const Tensor a = ints({12, 9}, ts::kInt, -20, 20, 95);
  const Tensor f = sample({12, 9}, ts::kFloat, -5, 5, 96);
  const Tensor d = nonzero(ints({9}, ts::kInt, -5, 6, 97), 2);
  using Out = std::function<void(const Tensor&)>;
  const std::pair<const char*, Out> outs[] = {
      {"div_out floor", [&](const Tensor& o) { ts::div_out(o, a, d, "floor"); }},
      {"remainder_out", [&](const Tensor& o) { ts::remainder_out(o, a, d); }},
      {"pow_out", [&](const Tensor& o) { ts::pow_out(o, f, a); }},
      {"maximum_out", [&](const Tensor& o) { ts::maximum_out(o, f, d); }},
      {"minimum_out", [&](const Tensor& o) { ts::minimum_out(o, a, d); }},
      {"atan2_out", [&](const Tensor& o) { ts::atan2_out(o, f, d); }},
      {"eq_out", [&](const Tensor& o) { ts::eq_out(o, a, d); }},
      {"ne_out", [&](const Tensor& o) { ts::ne_out(o, f, d); }},
      {"lt_out", [&](const Tensor& o) { ts::lt_out(o, f, a); }},
      {"le_out", [&](const Tensor& o) { ts::le_out(o, a, d); }},
      {"gt_out", [&](const Tensor& o) { ts::gt_out(o, f, d); }},
      {"ge_out", [&](const Tensor& o) { ts::ge_out(o, a, f); }},
      {"logical_and_out", [&](const Tensor& o) { ts::logical_and_out(o, f, a); }},
      {"logical_or_out", [&](const Tensor& o) { ts::logical_or_out(o, a, d); }},
      {"bitwise_and_out", [&](const Tensor& o) { ts::bitwise_and_out(o, a, d); }},
      {"bitwise_or_out", [&](const Tensor& o) { ts::bitwise_or_out(o, a, d); }},
      {"bitwise_xor_out", [&](const Tensor& o) { ts::bitwise_xor_out(o, a, d); }},
  };
  const Maker transposed = [] { return ts::zeros({9, 12}, ts::kDouble).t(); };
  const Maker strided_bool = [] {
    return ts::zeros({12, 18}, ts::kBool).slice(1, 0, std::nullopt, 2);
  };
  for (const auto& name_fn : outs) {
    const std::string name = name_fn.first;
    const Out& fn = name_fn.second;
    expect_matches_reference(into(empty_out({0}, ts::kDouble), fn), name + " into empty float64");
    expect_matches_reference(into(transposed, fn), name + " into transposed float64");
  }
  for (const auto& name_fn : {outs[6], outs[9], outs[12]}) {
    const std::string name = name_fn.first;
    const Out& fn = name_fn.second;
    expect_matches_reference(into(empty_out({12, 9}, ts::kBool), fn), name + " into bool");
    expect_matches_reference(into(strided_bool, fn), name + " into strided bool");
  }
}

}  // namespace
