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

namespace detail {
// The bits of a 16-bit float, converted from and to float by ToBits and FromBitsFn.
template <uint16_t (*ToBits)(float), float (*FromBitsFn)(uint16_t)>
struct Float16Storage {
  uint16_t x = 0;
  Float16Storage() = default;
  constexpr Float16Storage(uint16_t bits, FromBits) : x(bits) {}
  Float16Storage(float f) : x(ToBits(f)) {}         // NOLINT(implicit)
  operator float() const { return FromBitsFn(x); }  // NOLINT(implicit)
};
}  // namespace detail

struct Half : detail::Float16Storage<detail::float_to_half_bits, detail::half_bits_to_float> {
  using Float16Storage::Float16Storage;
};

struct BFloat16 : detail::Float16Storage<detail::float_to_bf16_bits, detail::bf16_bits_to_float> {
  using Float16Storage::Float16Storage;
};

}  // namespace ts

namespace ts::detail {
// std::numeric_limits of a 16-bit float type, from the bit patterns of its special values.
template <typename T, int Digits, uint16_t Lowest, uint16_t Min, uint16_t Max, uint16_t Epsilon,
          uint16_t Infinity, uint16_t QuietNaN>
class Float16Limits {
 public:
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static constexpr int digits = Digits;
  static constexpr T lowest() { return {Lowest, FromBits()}; }
  static constexpr T min() { return {Min, FromBits()}; }
  static constexpr T max() { return {Max, FromBits()}; }
  static constexpr T epsilon() { return {Epsilon, FromBits()}; }
  static constexpr T infinity() { return {Infinity, FromBits()}; }
  static constexpr T quiet_NaN() { return {QuietNaN, FromBits()}; }
  static constexpr T denorm_min() { return {0x0001, FromBits()}; }
};
}  // namespace ts::detail

template <>
class std::numeric_limits<ts::Half>
    : public ts::detail::Float16Limits<ts::Half, 11, 0xFBFF, 0x0400, 0x7BFF, 0x1400, 0x7C00,
                                       0x7E00> {};

template <>
class std::numeric_limits<ts::BFloat16>
    : public ts::detail::Float16Limits<ts::BFloat16, 8, 0xFF7F, 0x0080, 0x7F7F, 0x3C00, 0x7F80,
                                       0x7FC0> {};
