#pragma once
// ts::Half (IEEE binary16) and ts::BFloat16: storage types converted through float.
// Conversions round to nearest even and keep NaN and infinities.
#include <cstdint>
#include <cstring>
#include <limits>

namespace ts {

namespace detail {
inline uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float bits_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
uint16_t float_to_half_bits(float f);
float half_bits_to_float(uint16_t h);
inline uint16_t float_to_bf16_bits(float f) {
  uint32_t u = float_bits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x40);  // quiet NaN
  u += 0x7fffu + ((u >> 16) & 1u);  // round to nearest even
  return static_cast<uint16_t>(u >> 16);
}
inline float bf16_bits_to_float(uint16_t b) {
  return bits_float(static_cast<uint32_t>(b) << 16);
}
}  // namespace detail

struct FromBits {};

struct Half {
  uint16_t x = 0;
  Half() = default;
  constexpr Half(uint16_t bits, FromBits) : x(bits) {}
  Half(float f) : x(detail::float_to_half_bits(f)) {}               // NOLINT(implicit)
  operator float() const { return detail::half_bits_to_float(x); }  // NOLINT(implicit)
};

struct BFloat16 {
  uint16_t x = 0;
  BFloat16() = default;
  constexpr BFloat16(uint16_t bits, FromBits) : x(bits) {}
  BFloat16(float f) : x(detail::float_to_bf16_bits(f)) {}           // NOLINT(implicit)
  operator float() const { return detail::bf16_bits_to_float(x); }  // NOLINT(implicit)
};

}  // namespace ts

template <>
class std::numeric_limits<ts::Half> {
 public:
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static constexpr int digits = 11;
  static constexpr ts::Half lowest() { return {0xFBFF, ts::FromBits()}; }
  static constexpr ts::Half min() { return {0x0400, ts::FromBits()}; }
  static constexpr ts::Half max() { return {0x7BFF, ts::FromBits()}; }
  static constexpr ts::Half epsilon() { return {0x1400, ts::FromBits()}; }
  static constexpr ts::Half infinity() { return {0x7C00, ts::FromBits()}; }
  static constexpr ts::Half quiet_NaN() { return {0x7E00, ts::FromBits()}; }
  static constexpr ts::Half denorm_min() { return {0x0001, ts::FromBits()}; }
};

template <>
class std::numeric_limits<ts::BFloat16> {
 public:
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static constexpr int digits = 8;
  static constexpr ts::BFloat16 lowest() { return {0xFF7F, ts::FromBits()}; }
  static constexpr ts::BFloat16 min() { return {0x0080, ts::FromBits()}; }
  static constexpr ts::BFloat16 max() { return {0x7F7F, ts::FromBits()}; }
  static constexpr ts::BFloat16 epsilon() { return {0x3C00, ts::FromBits()}; }
  static constexpr ts::BFloat16 infinity() { return {0x7F80, ts::FromBits()}; }
  static constexpr ts::BFloat16 quiet_NaN() { return {0x7FC0, ts::FromBits()}; }
  static constexpr ts::BFloat16 denorm_min() { return {0x0001, ts::FromBits()}; }
};
