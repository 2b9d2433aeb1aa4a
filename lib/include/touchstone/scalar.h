#pragma once
// ts::Scalar: a bool, int64 or double, as a Python number passed to an op.
#include <cstdint>
#include <iosfwd>
#include <type_traits>

#include "touchstone/dtype.h"

namespace ts {

class Scalar {
 public:
  enum class Kind : uint8_t { Bool, Int, Double };
  Scalar() : Scalar(int64_t{0}) {}
  Scalar(bool v) : kind_(Kind::Bool) { v_.i = v; }  // NOLINT(implicit)
  template <typename T,
            std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  Scalar(T v) : kind_(Kind::Int) {  // NOLINT(implicit)
    v_.i = static_cast<int64_t>(v);
  }
  template <typename T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
  Scalar(T v) : kind_(Kind::Double) {  // NOLINT(implicit)
    v_.d = static_cast<double>(v);
  }
  Scalar(Half v) : Scalar(static_cast<double>(static_cast<float>(v))) {}      // NOLINT
  Scalar(BFloat16 v) : Scalar(static_cast<double>(static_cast<float>(v))) {}  // NOLINT

  Kind kind() const { return kind_; }
  bool is_bool() const { return kind_ == Kind::Bool; }
  bool is_integral(bool include_bool) const {
    return kind_ == Kind::Int || (include_bool && kind_ == Kind::Bool);
  }
  bool is_floating_point() const { return kind_ == Kind::Double; }
  // The dtype PyTorch gives a wrapped number: bool, int64 or float64.
  ScalarType type() const {
    return kind_ == Kind::Bool ? kBool : kind_ == Kind::Int ? kLong : kDouble;
  }
  double to_double() const { return kind_ == Kind::Double ? v_.d : static_cast<double>(v_.i); }
  // Doubles truncate toward zero; NaN and out-of-range values give INT64_MIN (as x86 does).
  int64_t to_long() const {
    if (kind_ != Kind::Double) return v_.i;
    const bool in_range = v_.d >= -9223372036854775808.0 && v_.d < 9223372036854775808.0;
    return in_range ? static_cast<int64_t>(v_.d) : INT64_MIN;
  }
  bool to_bool() const { return kind_ == Kind::Double ? v_.d != 0 : v_.i != 0; }
  template <typename T>
  T to() const {
    if constexpr (std::is_same_v<T, bool>)
      return to_bool();
    else if constexpr (std::is_integral_v<T>)
      return static_cast<T>(to_long());
    else
      return static_cast<T>(static_cast<float>(to_double()));
  }
  Scalar operator-() const;
  friend bool operator==(const Scalar& a, const Scalar& b);

 private:
  Kind kind_;
  union {
    int64_t i;
    double d;
  } v_;
};
template <>
inline double Scalar::to<double>() const {
  return to_double();
}
template <>
inline float Scalar::to<float>() const {
  return static_cast<float>(to_double());
}

std::ostream& operator<<(std::ostream& os, const Scalar& s);

}  // namespace ts
