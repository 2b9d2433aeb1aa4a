// float16 and bfloat16 operands of the optimized elementwise and comparison loops convert in
// lanes (Note [Float16 and bfloat16 in lanes] in optimized/cpu/loops-inl.h). A product of two
// 16-bit values is exact in float32, so mul rounds each exact product once into the dtype; the
// expected values are rounded here (scaled by a power of two, nearbyint in double), apart from
// the library's conversions. Every float16 and bfloat16 value meets a random partner: ties (about
// 1 product in 2^11 or 2^8), overflow, subnormals, zeros of both signs, NaN and infinities; 65539
// elements leave a tail.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "touchstone/half.h"
#include "touchstone/touchstone.h"

namespace {

using ts::Tensor;

struct Format {
  ts::ScalarType dtype;
  int precision, emin, emax;
};
constexpr Format kFormats[] = {{ts::kHalf, 11, -14, 15}, {ts::kBFloat16, 8, -126, 127}};

// v rounded to nearest even into the format (inf beyond its largest finite value).
double round_into(double v, const Format& f) {
  if (!std::isfinite(v) || v == 0) return v;
  const int e = std::max(std::ilogb(v), f.emin);
  const double q = std::ldexp(1.0, e - (f.precision - 1));
  const double r = std::nearbyint(v / q) * q;
  const double max = std::ldexp(2.0 - std::ldexp(1.0, 1 - f.precision), f.emax);
  return std::fabs(r) > max ? std::copysign(HUGE_VAL, r) : r;
}

double value_of(uint16_t bits, ts::ScalarType dtype) {
  return dtype == ts::kHalf ? ts::detail::half_bits_to_float(bits)
                            : ts::detail::bf16_bits_to_float(bits);
}

Tensor from_bits(const std::vector<uint16_t>& bits, ts::ScalarType dtype) {
  Tensor t = ts::empty({static_cast<int64_t>(bits.size())}, dtype);
  std::memcpy(t.data_ptr(), bits.data(), bits.size() * sizeof(uint16_t));
  return t;
}

uint16_t bits_at(const Tensor& t, int64_t i) {
  uint16_t b = 0;
  std::memcpy(&b, static_cast<const char*>(t.data_ptr()) + i * t.strides()[0] * 2, sizeof b);
  return b;
}

class ReducedFloatLanes : public ::testing::TestWithParam<Format> {};

TEST_P(ReducedFloatLanes, MulRoundsTheExactProductOnceAndLtCompares) {
  const Format& f = GetParam();
  ts::KernelSetGuard g("optimized");
  constexpr int64_t kN = 65539;
  std::vector<uint16_t> a(kN), b(kN);
  std::mt19937 rng(19);
  for (int64_t i = 0; i < kN; ++i) {
    a[static_cast<size_t>(i)] = static_cast<uint16_t>(i);
    b[static_cast<size_t>(i)] = static_cast<uint16_t>(rng());
  }
  const Tensor ta = from_bits(a, f.dtype), tb = from_bits(b, f.dtype);
  for (bool strided : {false, true}) {  // a strided view takes the element-at-a-time path
    Tensor x = ta;
    if (strided) {
      x = ts::empty({kN, 2}, f.dtype).select(1, 0);
      x.copy_(ta);
    }
    const Tensor prod = ts::mul(x, tb), less = ts::lt(x, tb);
    for (int64_t i = 0; i < kN; ++i) {
      const double va = value_of(a[static_cast<size_t>(i)], f.dtype);
      const double vb = value_of(b[static_cast<size_t>(i)], f.dtype);
      const double want = round_into(va * vb, f);
      const double got = value_of(bits_at(prod, i), f.dtype);
      if (std::isnan(want)) {
        ASSERT_TRUE(std::isnan(got)) << "a bits " << a[static_cast<size_t>(i)];
      } else {
        ASSERT_EQ(got, want) << "a bits " << a[static_cast<size_t>(i)] << ", b bits "
                             << b[static_cast<size_t>(i)] << ", strided " << strided;
        ASSERT_EQ(std::signbit(got), std::signbit(want)) << "a bits " << a[static_cast<size_t>(i)];
      }
      ASSERT_EQ(static_cast<const bool*>(less.data_ptr())[i], va < vb)
          << "a bits " << a[static_cast<size_t>(i)];
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Dtypes, ReducedFloatLanes, ::testing::ValuesIn(kFormats),
                         [](const auto& info) {
                           return std::string(info.param.dtype == ts::kHalf ? "float16"
                                                                            : "bfloat16");
                         });

}  // namespace
