// Element loads, stores and roundings for the reference kernels.
#include "common.h"

#include <bit>
#include <cmath>
#include <limits>

#include "touchstone/dispatch_macros.h"

// The loads, stores and roundings are public (touchstone/kernel_helpers.h), hence namespace ts.
namespace ts {
namespace {

// Note [Round to odd]
// double -> float16 through float would round twice and can miss the nearest value. Rounding
// double -> float "to odd" (truncate, then set the last bit if anything was dropped) keeps
// enough information that the second rounding, float -> 16 bits, is exactly the nearest.
float to_float_round_odd(double v) {
  if (!std::isfinite(v)) return static_cast<float>(v);
  float f = static_cast<float>(v);
  if (static_cast<double>(f) == v) return f;
  if (std::fabs(static_cast<double>(f)) > std::fabs(v)) {
    f = std::nextafter(f, 0.0f);  // truncate toward zero
  }
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  bits |= 1u;
  std::memcpy(&f, &bits, 4);
  return f;
}

int64_t float_to_int64(double v) {
  // In-range values truncate toward zero; NaN and out-of-range give INT64_MIN (as x86 does).
  if (!(v > -9223372036854775808.0 && v < 9223372036854775808.0)) {
    return std::numeric_limits<int64_t>::min();
  }
  return static_cast<int64_t>(v);
}

}  // namespace

double int64_to_double_round_odd(int64_t v) {
  uint64_t m = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  const int excess = std::bit_width(m) - 53;
  if (excess > 0) {
    const bool inexact = (m & ((uint64_t{1} << excess) - 1)) != 0;
    m = (m >> excess) | (inexact ? 1 : 0);
  }
  const double r = std::ldexp(static_cast<double>(m), excess > 0 ? excess : 0);  // exact
  return v < 0 ? -r : r;
}

double load_double(const void* p, ScalarType t) {
  return TS_DISPATCH_ALL_DTYPES(t, "reference load", [&]() -> double {
    scalar_t v;
    std::memcpy(&v, p, sizeof(v));
    if constexpr (std::is_same_v<scalar_t, Half> || std::is_same_v<scalar_t, BFloat16>) {
      return static_cast<double>(static_cast<float>(v));
    } else {
      return static_cast<double>(v);
    }
  });
}

int64_t load_int64(const void* p, ScalarType t) {
  if (is_floating_type(t)) return float_to_int64(load_double(p, t));
  return TS_DISPATCH_INTEGRAL_TYPES_AND_BOOL(t, "reference load", [&]() -> int64_t {
    scalar_t v;
    std::memcpy(&v, p, sizeof(v));
    return static_cast<int64_t>(v);
  });
}

double round_to(ScalarType t, double v) {
  switch (t) {
    case kDouble:
      return v;
    case kFloat:
      return static_cast<double>(static_cast<float>(v));
    case kHalf:
      return static_cast<float>(Half(to_float_round_odd(v)));
    case kBFloat16:
      return static_cast<float>(BFloat16(to_float_round_odd(v)));
    case kBool:
      return v != 0 ? 1.0 : 0.0;
    default:
      return static_cast<double>(wrap_to(t, float_to_int64(v)));
  }
}

int64_t wrap_to(ScalarType t, int64_t v) {
  switch (t) {
    case kBool:
      return v != 0;
    case kByte:
      return static_cast<uint8_t>(v);
    case kChar:
      return static_cast<int8_t>(v);
    case kShort:
      return static_cast<int16_t>(v);
    case kInt:
      return static_cast<int32_t>(v);
    default:
      return v;
  }
}

void store_double(void* p, ScalarType t, double v) {
  if (!is_floating_type(t)) {
    store_int64(p, t, t == kBool ? (v != 0) : float_to_int64(v));
    return;
  }
  switch (t) {
    case kDouble:
      std::memcpy(p, &v, 8);
      break;
    case kFloat: {
      const float f = static_cast<float>(v);
      std::memcpy(p, &f, 4);
      break;
    }
    case kHalf: {
      const Half h(to_float_round_odd(v));
      std::memcpy(p, &h, 2);
      break;
    }
    default: {
      const BFloat16 b(to_float_round_odd(v));
      std::memcpy(p, &b, 2);
    }
  }
}

void store_int64(void* p, ScalarType t, int64_t v) {
  if (is_floating_type(t)) {
    store_double(p, t, t == kDouble ? static_cast<double>(v) : int64_to_double_round_odd(v));
    return;
  }
  TS_DISPATCH_INTEGRAL_TYPES_AND_BOOL(t, "reference store", [&] {
    const scalar_t s = static_cast<scalar_t>(wrap_to(t, v));
    std::memcpy(p, &s, sizeof(s));
  });
}

}  // namespace ts
