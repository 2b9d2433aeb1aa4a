#pragma once
// Device helpers shared by the elementwise kernels: wrapping integer arithmetic, NaN-aware
// clamping and min/max, Python-style division and modulo (as reference/binary.cpp).
#include <cstdint>
#include <type_traits>

namespace ts::cuda {

// Integer arithmetic through uint64 wraps like the narrower dtypes and never overflows.
template <typename C>
__device__ inline C wrapping_neg(C x) {
  if constexpr (std::is_floating_point_v<C>) {
    return -x;
  } else {
    return static_cast<C>(0 - static_cast<uint64_t>(static_cast<int64_t>(x)));
  }
}

// x < 0 without a pointless-comparison warning for unsigned types.
template <typename C>
__device__ inline bool is_negative(C x) {
  if constexpr (std::is_unsigned_v<C> || std::is_same_v<C, bool>) {
    (void)x;
    return false;
  } else {
    return x < C(0);
  }
}

template <typename C>
__device__ inline bool is_nan(C x) {
  if constexpr (std::is_floating_point_v<C>)
    return x != x;
  else
    return false;
}

// See reference/unary.cpp Note [clamp with NaN].
template <typename C>
__device__ inline C clamp_min(C x, C lo) {
  if (is_nan(lo)) return lo;
  return x < lo ? lo : x;
}
template <typename C>
__device__ inline C clamp_max(C x, C hi) {
  if (is_nan(hi)) return hi;
  return x > hi ? hi : x;
}

// Python's floor division of floats (reference/binary.cpp Note [Floor division of floats]).
template <typename C>
__device__ inline C float_div_floor(C a, C b) {
  if (b == C(0)) return a / b;
  const C mod = ::fmod(a, b);
  C div = (a - mod) / b;
  if (mod != C(0) && (b < C(0)) != (mod < C(0))) div -= C(1);
  if (div == C(0)) return ::copysign(C(0), a / b);
  C floordiv = ::floor(div);
  if (div - floordiv > C(0.5)) floordiv += C(1);
  return floordiv;
}

// a / b rounded toward zero and a % b with the sign of a; b != 0 (checked before the launch).
template <typename C>
__device__ inline C int_div_trunc(C a, C b) {
  if constexpr (std::is_signed_v<C>) {
    if (b == C(-1)) return wrapping_neg(a);  // INT_MIN / -1 wraps instead of trapping
  }
  return static_cast<C>(a / b);
}
template <typename C>
__device__ inline C int_rem_trunc(C a, C b) {
  if constexpr (std::is_signed_v<C>) {
    if (b == C(-1)) return C(0);
  }
  return static_cast<C>(a % b);
}

// reference/binary.cpp Note [Integer pow].
template <typename C>
__device__ inline C int_pow(C base, C exp) {
  if constexpr (std::is_signed_v<C>) {
    if (exp < 0) {
      if (base == 1) return 1;
      if (base == -1) return (exp & 1) != 0 ? C(-1) : C(1);
      return 0;
    }
  }
  uint64_t result = 1;
  uint64_t b = static_cast<uint64_t>(static_cast<int64_t>(base));
  for (uint64_t e = static_cast<uint64_t>(exp); e != 0; e >>= 1) {
    if ((e & 1) != 0) result *= b;
    b *= b;
  }
  return static_cast<C>(result);
}

}  // namespace ts::cuda
