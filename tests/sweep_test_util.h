#pragma once
// The sweep tests' shared helpers: the three formats and the oracle's correctly rounded value.
#include <limits>

#include "conformance/sweep/oracle.h"

namespace sweep_test {

inline const ts::sweep::Format& f32() {
  return ts::sweep::format_of(ts::kFloat, "test");
}
inline const ts::sweep::Format& f16() {
  return ts::sweep::format_of(ts::kHalf, "test");
}
inline const ts::sweep::Format& bf16() {
  return ts::sweep::format_of(ts::kBFloat16, "test");
}

// The correctly rounded op(x) in `fmt`.
inline double oracle(const char* op, double x, const ts::sweep::Format& fmt = f32()) {
  return ts::sweep::correctly_rounded(*ts::sweep::find_oracle(op), x, fmt).value;
}

inline constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace sweep_test
