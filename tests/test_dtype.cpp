// Core value types: dtype names and sets, Scalar, Device, and Half/BFloat16 rounding.
// Every bit pattern below is derived by hand from IEEE 754 binary16 / bfloat16 (round to
// nearest, ties to even), never from the conversion under test.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>

#include "test_util.h"
#include "touchstone/touchstone.h"

namespace {

using namespace ts::testing;
using ts::ScalarType;

template <typename T>
std::string str(const T& v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

float f32(uint32_t bits) {
  return ts::detail::bits_float(bits);
}
uint16_t half_bits(float f) {
  return ts::Half(f).x;
}
uint16_t bf16_bits(float f) {
  return ts::BFloat16(f).x;
}
float half_value(uint16_t bits) {
  return static_cast<float>(ts::Half(bits, ts::FromBits()));
}
float bf16_value(uint16_t bits) {
  return static_cast<float>(ts::BFloat16(bits, ts::FromBits()));
}

// ---- dtypes ----

TEST(DType, NamesFollowPyTorch) {
  const char* names[] = {"bool",  "uint8",   "int8",     "int16",   "int32",
                         "int64", "float16", "bfloat16", "float32", "float64"};
  for (int i = 0; i < ts::kNumScalarTypes; ++i) {
    EXPECT_EQ(ts::dtype_name(kAll[i]), names[i]);
    EXPECT_EQ(str(kAll[i]), names[i]);
  }
  EXPECT_EQ(ts::dtype_name(ScalarType::Undefined), "undefined");
}

TEST(DType, ParseNamesAndAliases) {
  for (ScalarType t : kAll) EXPECT_EQ(ts::parse_dtype(ts::dtype_name(t)), t);
  const std::pair<const char*, ScalarType> aliases[] = {
      {"half", ts::kHalf}, {"float", ts::kFloat}, {"double", ts::kDouble}, {"short", ts::kShort},
      {"int", ts::kInt},   {"long", ts::kLong},   {"f16", ts::kHalf},      {"bf16", ts::kBFloat16},
      {"f32", ts::kFloat}, {"f64", ts::kDouble},  {"i8", ts::kChar},       {"i16", ts::kShort},
      {"i32", ts::kInt},   {"i64", ts::kLong},    {"u8", ts::kByte}};
  for (const auto& [name, t] : aliases) EXPECT_EQ(ts::parse_dtype(name), t) << name;
}

TEST(DType, ParseUnknownNameErrors) {
  EXPECT_ERROR(ts::parse_dtype("float8"), "unknown dtype 'float8'");
  EXPECT_ERROR(ts::parse_dtype("Float32"), "unknown dtype 'Float32'");
  EXPECT_ERROR(ts::parse_dtype(""), "unknown dtype ''");
  EXPECT_ERROR(ts::parse_dtype("complex64"),
               "(expected one of bool, uint8, int8, int16, int32, int64, float16, bfloat16, "
               "float32, float64)");
}

TEST(DType, ElementSizes) {
  const size_t sizes[] = {1, 1, 1, 2, 4, 8, 2, 2, 4, 8};
  for (int i = 0; i < ts::kNumScalarTypes; ++i) EXPECT_EQ(ts::element_size(kAll[i]), sizes[i]);
  EXPECT_ERROR(ts::element_size(ScalarType::Undefined), "element_size: undefined dtype");
}

TEST(DType, Categories) {
  //                       b  u8 i8 i16 i32 i64 f16 bf16 f32 f64
  const bool floating[] = {0, 0, 0, 0, 0, 0, 1, 1, 1, 1};
  const bool integral[] = {0, 1, 1, 1, 1, 1, 0, 0, 0, 0};
  const bool is_signed[] = {0, 0, 1, 1, 1, 1, 1, 1, 1, 1};
  const bool reduced[] = {0, 0, 0, 0, 0, 0, 1, 1, 0, 0};
  for (int i = 0; i < ts::kNumScalarTypes; ++i) {
    const ScalarType t = kAll[i];
    EXPECT_EQ(ts::is_floating_type(t), floating[i]) << t;
    EXPECT_EQ(ts::is_integral_type(t, /*include_bool=*/false), integral[i]) << t;
    EXPECT_EQ(ts::is_integral_type(t, /*include_bool=*/true), integral[i] || t == ts::kBool) << t;
    EXPECT_EQ(ts::is_signed_type(t), is_signed[i]) << t;
    EXPECT_EQ(ts::is_reduced_float(t), reduced[i]) << t;
  }
}

TEST(DType, CppTypeMapping) {
  static_assert(ts::scalar_type_of<bool> == ts::kBool);
  static_assert(ts::scalar_type_of<uint8_t> == ts::kByte);
  static_assert(ts::scalar_type_of<int8_t> == ts::kChar);
  static_assert(ts::scalar_type_of<int16_t> == ts::kShort);
  static_assert(ts::scalar_type_of<int32_t> == ts::kInt);
  static_assert(ts::scalar_type_of<int64_t> == ts::kLong);
  static_assert(ts::scalar_type_of<ts::Half> == ts::kHalf);
  static_assert(ts::scalar_type_of<ts::BFloat16> == ts::kBFloat16);
  static_assert(ts::scalar_type_of<float> == ts::kFloat);
  static_assert(ts::scalar_type_of<double> == ts::kDouble);
  static_assert(ts::kFloat16 == ts::kHalf && ts::kInt64 == ts::kLong && ts::kUInt8 == ts::kByte);
  EXPECT_EQ(ts::kDefaultDtype, ts::kFloat);
}

TEST(DTypeSet, MembershipAndAlgebra) {
  EXPECT_TRUE(ts::DTypeSet().empty());
  const ts::DTypeSet all = ts::DTypeSet::all();
  for (ScalarType t : kAll) EXPECT_TRUE(all.has(t)) << t;
  EXPECT_EQ(all.bits(), 0x3ffu);

  const ts::DTypeSet fl = ts::DTypeSet::floating();
  const ts::DTypeSet in = ts::DTypeSet::integral(false);
  const ts::DTypeSet inb = ts::DTypeSet::integral(true);
  for (ScalarType t : kAll) {
    EXPECT_EQ(fl.has(t), ts::is_floating_type(t)) << t;
    EXPECT_EQ(in.has(t), ts::is_integral_type(t, false)) << t;
    EXPECT_EQ(inb.has(t), ts::is_integral_type(t, true)) << t;
  }
  EXPECT_EQ((fl | inb).bits(), all.bits());
  EXPECT_TRUE((all - fl - inb).empty());
  const ts::DTypeSet no_bool = all - ts::DTypeSet{ts::kBool};
  EXPECT_FALSE(no_bool.has(ts::kBool));
  EXPECT_TRUE(no_bool.has(ts::kByte));
  EXPECT_EQ(ts::DTypeSet({ts::kFloat, ts::kFloat}).bits(), 1u << 8);
  EXPECT_EQ(ts::DTypeSet::from_bits(0x5).bits(), 0x5u);
  EXPECT_TRUE(ts::DTypeSet::from_bits(0x5).has(ts::kBool));
  EXPECT_TRUE(ts::DTypeSet::from_bits(0x5).has(ts::kChar));
  EXPECT_FALSE(ts::DTypeSet::from_bits(0x5).has(ts::kByte));
}

// ---- Scalar ----

TEST(Scalar, KindsAndWrappedDtypes) {
  using K = ts::Scalar::Kind;
  EXPECT_EQ(ts::Scalar().kind(), K::Int);
  EXPECT_EQ(ts::Scalar().to_long(), 0);
  EXPECT_EQ(ts::Scalar(true).kind(), K::Bool);
  EXPECT_EQ(ts::Scalar(5).kind(), K::Int);
  EXPECT_EQ(ts::Scalar(uint8_t{200}).kind(), K::Int);
  EXPECT_EQ(ts::Scalar(int64_t{-3}).kind(), K::Int);
  EXPECT_EQ(ts::Scalar(2.5f).kind(), K::Double);
  EXPECT_EQ(ts::Scalar(2.5).kind(), K::Double);
  EXPECT_EQ(ts::Scalar(ts::Half(1.5f)).kind(), K::Double);
  EXPECT_EQ(ts::Scalar(ts::BFloat16(1.5f)).kind(), K::Double);

  // A Python bool, int and float are wrapped as bool, int64 and float64.
  EXPECT_EQ(ts::Scalar(false).type(), ts::kBool);
  EXPECT_EQ(ts::Scalar(int8_t{1}).type(), ts::kLong);
  EXPECT_EQ(ts::Scalar(1.0f).type(), ts::kDouble);

  EXPECT_TRUE(ts::Scalar(true).is_bool());
  EXPECT_FALSE(ts::Scalar(true).is_integral(false));
  EXPECT_TRUE(ts::Scalar(true).is_integral(true));
  EXPECT_TRUE(ts::Scalar(3).is_integral(false));
  EXPECT_FALSE(ts::Scalar(3).is_floating_point());
  EXPECT_TRUE(ts::Scalar(3.0).is_floating_point());
  EXPECT_FALSE(ts::Scalar(3.0).is_integral(true));
}

TEST(Scalar, Conversions) {
  EXPECT_EQ(ts::Scalar(true).to_long(), 1);
  EXPECT_EQ(ts::Scalar(true).to_double(), 1.0);
  EXPECT_EQ(ts::Scalar(uint8_t{200}).to_long(), 200);
  EXPECT_EQ(ts::Scalar(std::numeric_limits<int64_t>::max()).to_long(),
            std::numeric_limits<int64_t>::max());
  EXPECT_EQ(ts::Scalar(-7).to_double(), -7.0);
  EXPECT_EQ(ts::Scalar(2.75).to_long(), 2);  // truncation toward zero
  EXPECT_EQ(ts::Scalar(-2.75).to_long(), -2);
  EXPECT_FALSE(ts::Scalar(0.0).to_bool());
  EXPECT_TRUE(ts::Scalar(0.25).to_bool());
  EXPECT_TRUE(ts::Scalar(-1).to_bool());
  EXPECT_FALSE(ts::Scalar(0).to_bool());
  EXPECT_EQ(ts::Scalar(ts::Half(1.5f)).to_double(), 1.5);
  EXPECT_EQ(ts::Scalar(ts::BFloat16(-0.5f)).to_double(), -0.5);

  EXPECT_EQ(ts::Scalar(0.1).to<double>(), 0.1);
  EXPECT_EQ(ts::Scalar(0.1).to<float>(), 0.1f);
  EXPECT_EQ(ts::Scalar(2.0).to<bool>(), true);
  EXPECT_EQ(ts::Scalar(300).to<int16_t>(), 300);
  EXPECT_EQ(ts::Scalar(9.99).to<int32_t>(), 9);
  EXPECT_EQ(ts::Scalar(65504.0).to<ts::Half>().x, 0x7bff);
  EXPECT_EQ(ts::Scalar(1).to<ts::BFloat16>().x, 0x3f80);
}

TEST(Scalar, NegationEqualityPrinting) {
  EXPECT_EQ(-ts::Scalar(3), ts::Scalar(-3));
  EXPECT_EQ((-ts::Scalar(3)).kind(), ts::Scalar::Kind::Int);
  EXPECT_EQ(-ts::Scalar(2.5), ts::Scalar(-2.5));
  EXPECT_ERROR(-ts::Scalar(true), "negation of a bool Scalar is not supported");

  EXPECT_EQ(ts::Scalar(1), ts::Scalar(int64_t{1}));
  EXPECT_FALSE(ts::Scalar(1) == ts::Scalar(1.0));  // different kinds
  EXPECT_FALSE(ts::Scalar(true) == ts::Scalar(1));
  EXPECT_FALSE(ts::Scalar(1.0) == ts::Scalar(1.5));

  EXPECT_EQ(str(ts::Scalar(true)), "True");
  EXPECT_EQ(str(ts::Scalar(false)), "False");
  EXPECT_EQ(str(ts::Scalar(-42)), "-42");
  EXPECT_EQ(str(ts::Scalar(2.5)), "2.5");
}

// ---- Device ----

TEST(Device, Parse) {
  const ts::Device cpu("cpu");
  EXPECT_TRUE(cpu.is_cpu());
  EXPECT_EQ(cpu.index(), -1);
  const ts::Device cuda("cuda");
  EXPECT_TRUE(cuda.is_cuda());
  EXPECT_EQ(cuda.index(), -1);
  const ts::Device cuda1("cuda:1");
  EXPECT_EQ(cuda1.type(), ts::kCUDA);
  EXPECT_EQ(cuda1.index(), 1);
  EXPECT_EQ(ts::Device("cuda:42").index(), 42);
  EXPECT_EQ(ts::Device("cpu:0").index(), 0);
}

TEST(Device, InvalidStringsError) {
  for (const char* bad : {"", "gpu", "CUDA", "cuda:", "cuda:x", "cuda:-1", "cuda:1:2", "cuda:100",
                          " cpu", "cpu:", "cuda1", "mps"}) {
    EXPECT_ERROR(ts::Device{std::string_view(bad)},
                 std::string("invalid device '") + bad + "' (expected cpu, cuda or cuda:N)");
  }
}

TEST(Device, PrintAndCompare) {
  EXPECT_EQ(str(ts::Device("cpu")), "cpu");
  EXPECT_EQ(str(ts::Device("cuda")), "cuda");
  EXPECT_EQ(str(ts::Device("cuda:3")), "cuda:3");
  EXPECT_EQ(ts::device_type_name(ts::kCPU), "cpu");
  EXPECT_EQ(ts::device_type_name(ts::kCUDA), "cuda");
  EXPECT_EQ(ts::Device("cpu"), ts::Device(ts::kCPU, 0));  // one CPU: the index does not matter
  EXPECT_EQ(ts::Device("cuda:1"), ts::Device(ts::kCUDA, 1));
  EXPECT_FALSE(ts::Device("cuda:0") == ts::Device("cuda:1"));
  EXPECT_FALSE(ts::Device("cuda") == ts::Device("cuda:0"));
  EXPECT_FALSE(ts::Device("cpu") == ts::Device("cuda"));
}

// ---- Half ----

TEST(Half, EdgeValuesRoundToNearestEven) {
  EXPECT_EQ(half_bits(0.0f), 0x0000);
  EXPECT_EQ(half_bits(-0.0f), 0x8000);
  EXPECT_EQ(half_bits(1.0f), 0x3c00);
  EXPECT_EQ(half_bits(-2.0f), 0xc000);
  EXPECT_EQ(half_bits(0.1f), 0x2e66);      // 1.6 * 2^-4: mantissa 614.4 -> 614
  EXPECT_EQ(half_bits(1.0f / 3), 0x3555);  // 1.333 * 2^-2: mantissa 341.3 -> 341
  // Largest finite value and the overflow boundary (65520 = 65504 + half an ulp: a tie, to even).
  EXPECT_EQ(half_bits(65504.0f), 0x7bff);
  EXPECT_EQ(half_bits(65519.99f), 0x7bff);
  EXPECT_EQ(half_bits(65520.0f), 0x7c00);
  EXPECT_EQ(half_bits(-65520.0f), 0xfc00);
  EXPECT_EQ(half_bits(1e10f), 0x7c00);
  EXPECT_EQ(half_bits(std::numeric_limits<float>::max()), 0x7c00);
  // Subnormals: the unit is 2^-24.
  EXPECT_EQ(half_bits(std::ldexp(1.0f, -24)), 0x0001);
  EXPECT_EQ(half_bits(std::ldexp(1.0f, -25)), 0x0000);  // tie between 0 and 1: even is 0
  EXPECT_EQ(half_bits(std::ldexp(-1.0f, -25)), 0x8000);
  EXPECT_EQ(half_bits(std::ldexp(1.0f, -25) * 1.0001f), 0x0001);  // just above the tie
  EXPECT_EQ(half_bits(std::ldexp(3.0f, -25)), 0x0002);            // 1.5 units: tie, even is 2
  EXPECT_EQ(half_bits(std::ldexp(5.0f, -26)), 0x0001);            // 1.25 units
  EXPECT_EQ(half_bits(1e-8f), 0x0000);
  EXPECT_EQ(half_bits(std::ldexp(1.0f, -14)), 0x0400);     // smallest normal
  EXPECT_EQ(half_bits(std::ldexp(1023.0f, -24)), 0x03ff);  // largest subnormal
  EXPECT_EQ(half_bits(std::ldexp(2047.0f, -25)), 0x0400);  // 1023.5 units: tie, rounds to 1024
  EXPECT_EQ(half_bits(std::ldexp(2045.0f, -25)), 0x03fe);  // 1022.5 units: tie, rounds to 1022
  // Normal ties (the ulp of 1 is 2^-10).
  EXPECT_EQ(half_bits(1.0f + std::ldexp(1.0f, -11)), 0x3c00);
  EXPECT_EQ(half_bits(1.0f + std::ldexp(3.0f, -11)), 0x3c02);
  EXPECT_EQ(half_bits(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)), 0x3c01);
  EXPECT_EQ(half_bits(2049.0f), 0x6800);  // 2048 and 2050 are neighbours: tie, even is 2048
  EXPECT_EQ(half_bits(2051.0f), 0x6802);  // tie between 2050 and 2052: even is 2052
  // Rounding carries into the exponent.
  EXPECT_EQ(half_bits(2.0f - std::ldexp(1.0f, -12)), 0x4000);
}

TEST(Half, InfinityAndNaN) {
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(half_bits(inf), 0x7c00);
  EXPECT_EQ(half_bits(-inf), 0xfc00);
  EXPECT_EQ(half_value(0x7c00), inf);
  EXPECT_EQ(half_value(0xfc00), -inf);
  // A NaN stays a NaN, and is quiet (mantissa top bit 0x200), whatever its payload.
  for (uint32_t nan : {0x7fc00000u, 0xffc00000u, 0x7f800001u, 0x7fa00000u, 0x7fffffffu}) {
    const uint16_t h = half_bits(f32(nan));
    EXPECT_EQ(h & 0x7c00, 0x7c00) << std::hex << nan;
    EXPECT_NE(h & 0x03ff, 0) << std::hex << nan;
    EXPECT_NE(h & 0x0200, 0) << std::hex << nan;
    EXPECT_EQ(h & 0x8000, (nan >> 16) & 0x8000) << std::hex << nan;
    EXPECT_TRUE(std::isnan(half_value(h)));
  }
  EXPECT_TRUE(std::isnan(half_value(0x7c01)));
  EXPECT_TRUE(std::isnan(half_value(0xfe00)));
}

TEST(Half, DecodeKnownPatterns) {
  EXPECT_EQ(half_value(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(half_value(0x03ff), std::ldexp(1023.0f, -24));
  EXPECT_EQ(half_value(0x0400), std::ldexp(1.0f, -14));
  EXPECT_EQ(half_value(0x3c00), 1.0f);
  EXPECT_EQ(half_value(0x3555), 0.333251953125f);
  EXPECT_EQ(half_value(0x7bff), 65504.0f);
  EXPECT_EQ(half_value(0xfbff), -65504.0f);
  EXPECT_TRUE(std::signbit(half_value(0x8000)));
  EXPECT_EQ(half_value(0x8000), 0.0f);
}

// numeric_limits<T> of a 16-bit float type: the largest finite value, the smallest normal, the
// epsilon and the smallest subnormal (lowest is -max), and its mantissa digits.
template <typename T>
void expect_limits(float max, float min, float epsilon, float denorm_min, int digits) {
  using L = std::numeric_limits<T>;
  EXPECT_TRUE(L::is_specialized);
  EXPECT_TRUE(L::is_signed);
  EXPECT_FALSE(L::is_integer);
  EXPECT_EQ(L::digits, digits);
  EXPECT_EQ(static_cast<float>(L::max()), max);
  EXPECT_EQ(static_cast<float>(L::lowest()), -max);
  EXPECT_EQ(static_cast<float>(L::min()), min);
  EXPECT_EQ(static_cast<float>(L::epsilon()), epsilon);
  EXPECT_EQ(static_cast<float>(L::denorm_min()), denorm_min);
  EXPECT_TRUE(std::isinf(static_cast<float>(L::infinity())));
  EXPECT_TRUE(std::isnan(static_cast<float>(L::quiet_NaN())));
}

// A 16-bit float format: a sign bit, `exponent_bits` and `mantissa_bits` (binary16: 5 and 10,
// bfloat16: 8 and 7), and its conversions.
struct Format16 {
  int exponent_bits, mantissa_bits;
  float (*value)(uint16_t);
  uint16_t (*bits)(float);
};

// x decoded from the definition (mb: mantissa bits): (-1)^s * 2^(e - bias) * 1.m, or 2^(1 - bias) *
// 0.m for e == 0, with bias = 2^(exponent_bits - 1) - 1 (binary16: 2^(e-15) * 1.m or 2^-14 * 0.m;
// bfloat16: 2^(e-127) * 1.m or 2^-126 * 0.m).
double decode_by_hand(int exponent_bits, int mb, uint16_t x) {
  const int bias = (1 << (exponent_bits - 1)) - 1;
  const int s = x >> 15, e = (x >> mb) & ((1 << exponent_bits) - 1), m = x & ((1 << mb) - 1);
  const double v = e == 0 ? std::ldexp(m, 1 - bias - mb) : std::ldexp((1 << mb) + m, e - bias - mb);
  return s ? -v : v;
}

// Every bit pattern decodes to the value by hand (NaN to NaN, infinity to infinity, the sign
// kept) and encodes back to itself; a NaN encodes back to a quiet NaN (top mantissa bit set).
void expect_every_pattern_round_trips(const Format16& fmt) {
  const uint16_t exponent_mask = ((1 << fmt.exponent_bits) - 1) << fmt.mantissa_bits;
  const uint16_t mantissa_mask = (1 << fmt.mantissa_bits) - 1;
  const uint16_t quiet_bit = 1 << (fmt.mantissa_bits - 1);
  for (uint32_t i = 0; i < 65536; ++i) {
    const uint16_t x = static_cast<uint16_t>(i);
    const float f = fmt.value(x);
    const bool is_nan = (x & exponent_mask) == exponent_mask && (x & mantissa_mask) != 0;
    const bool is_inf = (x & 0x7fff) == exponent_mask;
    if (is_nan) {
      ASSERT_TRUE(std::isnan(f)) << std::hex << i;
      const uint16_t back = fmt.bits(f);
      ASSERT_EQ(back & exponent_mask, exponent_mask) << std::hex << i;
      ASSERT_NE(back & quiet_bit, 0) << std::hex << i;
      continue;
    }
    if (is_inf) {
      ASSERT_TRUE(std::isinf(f)) << std::hex << i;
    } else {
      ASSERT_EQ(static_cast<double>(f), decode_by_hand(fmt.exponent_bits, fmt.mantissa_bits, x))
          << std::hex << i;
    }
    ASSERT_EQ(std::signbit(f), (x & 0x8000) != 0) << std::hex << i;
    ASSERT_EQ(fmt.bits(f), x) << std::hex << i;
  }
}

TEST(Half, NumericLimits) {
  expect_limits<ts::Half>(65504.0f, std::ldexp(1.0f, -14), std::ldexp(1.0f, -10),
                          std::ldexp(1.0f, -24), 11);
}

TEST(Half, EveryBitPatternDecodesAndRoundTrips) {
  expect_every_pattern_round_trips({5, 10, half_value, half_bits});
  // Spot checks of the decoding by hand: 2^-24 (smallest subnormal), 65504 (largest), -2.
  EXPECT_EQ(decode_by_hand(5, 10, 0x0001), std::ldexp(1.0, -24));
  EXPECT_EQ(decode_by_hand(5, 10, 0x7bff), 65504.0);
  EXPECT_EQ(decode_by_hand(5, 10, 0xc000), -2.0);
}

// ---- BFloat16 ----

TEST(BFloat16, EdgeValuesRoundToNearestEven) {
  EXPECT_EQ(bf16_bits(0.0f), 0x0000);
  EXPECT_EQ(bf16_bits(-0.0f), 0x8000);
  EXPECT_EQ(bf16_bits(1.0f), 0x3f80);
  EXPECT_EQ(bf16_bits(0.1f), 0x3dcd);         // 0x3dcccccd: low half 0xcccd rounds up
  EXPECT_EQ(bf16_bits(3.14159274f), 0x4049);  // 0x40490fdb: low half 0x0fdb rounds down
  EXPECT_EQ(bf16_bits(1.0f + std::ldexp(1.0f, -8)), 0x3f80);  // tie: even
  EXPECT_EQ(bf16_bits(1.0f + std::ldexp(3.0f, -8)), 0x3f82);  // tie: even
  EXPECT_EQ(bf16_bits(1.0f + std::ldexp(1.0f, -8) + std::ldexp(1.0f, -20)), 0x3f81);
  // Largest bfloat16 is (2 - 2^-7) * 2^127 ~ 3.3895e38; the tie with 2^128 is ~3.3962e38.
  EXPECT_EQ(bf16_bits(3.4e38f), 0x7f80);
  EXPECT_EQ(bf16_bits(-3.4e38f), 0xff80);
  EXPECT_EQ(bf16_bits(std::numeric_limits<float>::max()), 0x7f80);
  EXPECT_EQ(bf16_bits(3.3895e38f), 0x7f7f);
  EXPECT_EQ(bf16_bits(std::numeric_limits<float>::infinity()), 0x7f80);
  EXPECT_EQ(bf16_bits(-std::numeric_limits<float>::infinity()), 0xff80);
  // Float subnormals round like everything else.
  EXPECT_EQ(bf16_bits(f32(0x00000001)), 0x0000);
  EXPECT_EQ(bf16_bits(f32(0x00018000)), 0x0002);  // tie between 0x0001 and 0x0002: even
  EXPECT_EQ(bf16_bits(f32(0x00008000)), 0x0000);  // tie between 0 and 0x0001: even
}

TEST(BFloat16, NaNStaysQuietNaN) {
  for (uint32_t nan : {0x7fc00000u, 0xffc00000u, 0x7f800001u, 0x7f80ffffu, 0x7fffffffu}) {
    const uint16_t b = bf16_bits(f32(nan));
    EXPECT_EQ(b & 0x7f80, 0x7f80) << std::hex << nan;
    EXPECT_NE(b & 0x0040, 0) << std::hex << nan;  // quiet
    EXPECT_EQ(b & 0x8000, (nan >> 16) & 0x8000) << std::hex << nan;
    EXPECT_TRUE(std::isnan(bf16_value(b)));
  }
}

TEST(BFloat16, NumericLimits) {
  // max is (2 - 2^-7) * 2^127.
  expect_limits<ts::BFloat16>(std::ldexp(255.0f, 120), std::ldexp(1.0f, -126), std::ldexp(1.0f, -7),
                              std::ldexp(1.0f, -133), 8);
}

TEST(BFloat16, EveryBitPatternDecodesAndRoundTrips) {
  expect_every_pattern_round_trips({8, 7, bf16_value, bf16_bits});
  // Spot checks of the decoding by hand: 2^-133 (smallest subnormal), 1, -(2 - 2^-7) * 2^127.
  EXPECT_EQ(decode_by_hand(8, 7, 0x0001), std::ldexp(1.0, -133));
  EXPECT_EQ(decode_by_hand(8, 7, 0x3f80), 1.0);
  EXPECT_EQ(decode_by_hand(8, 7, 0xff7f), -std::ldexp(255.0, 120));
}

}  // namespace
