#pragma once
// Element conversions of the optimized CPU copy_, fill_, factory and index kernels, rounding once
// as the reference set does (Note [Conversions round once] in reference/copy.cpp): floating
// results are the nearest value of the destination dtype (even the 16-bit ones from double or
// int64, see Note [Round to odd here]); integral results truncate floats toward zero through
// int64 (NaN and out-of-range give INT64_MIN) and then wrap; bool is v != 0.
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "touchstone/half.h"
#include "touchstone/tensor.h"

namespace ts::cpu {

// Note [Round to odd here]
// double -> float16 through float would round twice and can miss the nearest value. Rounding
// double -> float "to odd" (truncate, then set the last bit if anything was dropped) keeps
// enough information that the second rounding, float -> 16 bits, gives exactly the nearest.
// Likewise int64 -> double rounds to odd before a narrower rounding.
inline float float_round_to_odd(double v) {
  float f = static_cast<float>(v);
  if (!std::isfinite(v) || static_cast<double>(f) == v) return f;
  if (std::fabs(static_cast<double>(f)) > std::fabs(v)) f = std::nextafter(f, 0.0f);
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  bits |= 1u;
  std::memcpy(&f, &bits, 4);
  return f;
}

inline double double_round_to_odd(int64_t v) {
  uint64_t m = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  const int excess = std::bit_width(m) - 53;
  if (excess > 0) {
    const bool inexact = (m & ((uint64_t{1} << excess) - 1)) != 0;
    m = (m >> excess) | (inexact ? 1 : 0);
  }
  const double r = std::ldexp(static_cast<double>(m), excess > 0 ? excess : 0);  // exact
  return v < 0 ? -r : r;
}

// A double truncated toward zero to int64; NaN and out-of-range give INT64_MIN (as x86 does).
inline int64_t trunc_to_int64(double v) {
  if (!(v > -9223372036854775808.0 && v < 9223372036854775808.0)) {
    return std::numeric_limits<int64_t>::min();
  }
  return static_cast<int64_t>(v);
}

template <typename T>
inline constexpr bool is_16bit_float_v = std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

// `v` converted to T (see the file comment).
template <typename T>
T double_to(double v) {
  if constexpr (std::is_same_v<T, bool>) {
    return v != 0;
  } else if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(trunc_to_int64(v));  // wraps (C++20)
  } else if constexpr (is_16bit_float_v<T>) {
    return T(float_round_to_odd(v));
  } else {
    return static_cast<T>(v);
  }
}

template <typename T>
T int64_to(int64_t v) {
  if constexpr (std::is_same_v<T, bool>) {
    return v != 0;
  } else if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(v);  // wraps (C++20)
  } else if constexpr (is_16bit_float_v<T>) {
    return T(float_round_to_odd(double_round_to_odd(v)));
  } else {
    return static_cast<T>(v);  // one rounding (cvtsi2sd / cvtsi2ss)
  }
}

// One element of type From converted to To, rounded once.
template <typename To, typename From>
To convert_value(From v) {
  using C = std::conditional_t<is_16bit_float_v<From>, float, From>;
  constexpr bool to_float_or_double = std::is_same_v<To, float> || std::is_same_v<To, double>;
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (to_float_or_double ||
                       (std::is_same_v<From, float> && is_16bit_float_v<To>)) {
    return static_cast<To>(static_cast<C>(v));  // one rounding (or none)
  } else if constexpr (std::is_integral_v<From>) {
    return int64_to<To>(static_cast<int64_t>(v));
  } else {
    return double_to<To>(static_cast<double>(static_cast<C>(v)));
  }
}

// Calls f(U{}) with U an unsigned type of `size` bytes: elements move unchanged through it.
template <class F>
void with_element_type(size_t size, const F& f) {
  switch (size) {
    case 1:
      return f(uint8_t{});
    case 2:
      return f(uint16_t{});
    case 4:
      return f(uint32_t{});
    default:
      return f(uint64_t{});
  }
}

// dst = src (same shape, any dtypes and layouts, no overlap), each element converted once: the
// copy_ kernel (copy.cpp), also used by the index kernels.
void copy_convert(const Tensor& dst, const Tensor& src);

}  // namespace ts::cpu
