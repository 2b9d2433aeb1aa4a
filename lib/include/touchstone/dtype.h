#pragma once
// The ten dtypes, generated from one X-macro, with PyTorch's names.
#include <cstdint>
#include <iosfwd>
#include <string_view>

#include "touchstone/half.h"

namespace ts {

// _(C++ type, enum name, PyTorch name)
#define TS_FORALL_SCALAR_TYPES(_)       \
  _(bool, Bool, bool)                   \
  _(uint8_t, Byte, uint8)               \
  _(int8_t, Char, int8)                 \
  _(int16_t, Short, int16)              \
  _(int32_t, Int, int32)                \
  _(int64_t, Long, int64)               \
  _(::ts::Half, Half, float16)          \
  _(::ts::BFloat16, BFloat16, bfloat16) \
  _(float, Float, float32)              \
  _(double, Double, float64)

enum class ScalarType : int8_t {
#define TS_ENUM(t, name, pyname) name,
  TS_FORALL_SCALAR_TYPES(TS_ENUM)
#undef TS_ENUM
      Undefined,
};
inline constexpr int kNumScalarTypes = static_cast<int>(ScalarType::Undefined);
static_assert(kNumScalarTypes == 10, "touchstone has exactly ten dtypes");

inline constexpr ScalarType kBool = ScalarType::Bool;
inline constexpr ScalarType kByte = ScalarType::Byte, kUInt8 = ScalarType::Byte;
inline constexpr ScalarType kChar = ScalarType::Char, kInt8 = ScalarType::Char;
inline constexpr ScalarType kShort = ScalarType::Short, kInt16 = ScalarType::Short;
inline constexpr ScalarType kInt = ScalarType::Int, kInt32 = ScalarType::Int;
inline constexpr ScalarType kLong = ScalarType::Long, kInt64 = ScalarType::Long;
inline constexpr ScalarType kHalf = ScalarType::Half, kFloat16 = ScalarType::Half;
inline constexpr ScalarType kBFloat16 = ScalarType::BFloat16;
inline constexpr ScalarType kFloat = ScalarType::Float, kFloat32 = ScalarType::Float;
inline constexpr ScalarType kDouble = ScalarType::Double, kFloat64 = ScalarType::Double;

// float32, like torch.get_default_dtype().
inline constexpr ScalarType kDefaultDtype = kFloat;

size_t element_size(ScalarType t);
std::string_view dtype_name(ScalarType t);  // "float32", "bfloat16", ...
ScalarType parse_dtype(
    std::string_view name);  // accepts PyTorch names and aliases ("float", "half")
std::ostream& operator<<(std::ostream& os, ScalarType t);

inline constexpr bool is_floating_type(ScalarType t) {
  return t == kHalf || t == kBFloat16 || t == kFloat || t == kDouble;
}
inline constexpr bool is_integral_type(ScalarType t, bool include_bool) {
  return (include_bool && t == kBool) || t == kByte || t == kChar || t == kShort || t == kInt ||
         t == kLong;
}
inline constexpr bool is_signed_type(ScalarType t) {
  return t != kBool && t != kByte;
}
inline constexpr bool is_reduced_float(ScalarType t) {
  return t == kHalf || t == kBFloat16;
}

template <typename T>
struct CppTypeToScalarType;
#define TS_SPECIALIZE(t, name, pyname)                    \
  template <>                                             \
  struct CppTypeToScalarType<t> {                         \
    static constexpr ScalarType value = ScalarType::name; \
  };
TS_FORALL_SCALAR_TYPES(TS_SPECIALIZE)
#undef TS_SPECIALIZE
template <typename T>
inline constexpr ScalarType scalar_type_of = CppTypeToScalarType<T>::value;

// A set of dtypes, e.g. the dtypes a kernel supports.
class DTypeSet {
 public:
  constexpr DTypeSet() = default;
  constexpr DTypeSet(std::initializer_list<ScalarType> ts) {
    for (ScalarType t : ts) bits_ |= bit(t);
  }
  static constexpr DTypeSet all() { return from_bits((1u << kNumScalarTypes) - 1); }
  static constexpr DTypeSet floating() { return {kHalf, kBFloat16, kFloat, kDouble}; }
  static constexpr DTypeSet integral(bool include_bool) {
    DTypeSet s{kByte, kChar, kShort, kInt, kLong};
    return include_bool ? s | DTypeSet{kBool} : s;
  }
  static constexpr DTypeSet from_bits(uint32_t b) {
    DTypeSet s;
    s.bits_ = b;
    return s;
  }
  constexpr bool has(ScalarType t) const { return (bits_ & bit(t)) != 0; }
  constexpr DTypeSet operator|(DTypeSet o) const { return from_bits(bits_ | o.bits_); }
  constexpr DTypeSet operator-(DTypeSet o) const { return from_bits(bits_ & ~o.bits_); }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr uint32_t bits() const { return bits_; }

 private:
  static constexpr uint32_t bit(ScalarType t) { return 1u << static_cast<int>(t); }
  uint32_t bits_ = 0;
};

}  // namespace ts
