#pragma once
// Helpers shared by the tests. Tensors are built from values and read back through their strides
// with memcpy: no touchstone op runs but ts::empty / ts::empty_strided, so the checks trust no
// kernel (and work under any kernel set or guard). Use with `using namespace ts::testing;`
// (gtest's own namespace stays ::testing).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "error_text.h"
#include "touchstone/dispatch_macros.h"
#include "touchstone/touchstone.h"

namespace ts::testing {

using Shape = std::vector<int64_t>;
using Values = std::vector<double>;

using ts::kBFloat16, ts::kBool, ts::kByte, ts::kChar, ts::kDouble, ts::kFloat, ts::kHalf, ts::kInt,
    ts::kLong, ts::kShort;

// Every dtype, in ScalarType order.
inline constexpr ScalarType kAll[] = {kBool, kByte, kChar,     kShort, kInt,
                                      kLong, kHalf, kBFloat16, kFloat, kDouble};
// The floating dtypes, in ScalarType order.
inline constexpr ScalarType kFloating[] = {kHalf, kBFloat16, kFloat, kDouble};

inline constexpr double kInf = std::numeric_limits<double>::infinity();
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
inline constexpr int64_t kI64Min = std::numeric_limits<int64_t>::min();
inline constexpr int64_t kI64Max = std::numeric_limits<int64_t>::max();

// ---- one element ----

// Writes / reads a T at p byte-wise (memcpy: no alignment or aliasing assumptions).
template <typename T>
void store_as(void* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}
template <typename T>
T load_as(const void* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

// Writes v to the element at p as `dtype`: bool as v != 0, integers through int64 (wrapping),
// float16/bfloat16/float32 through float.
inline void store(void* p, ScalarType dtype, double v) {
  TS_DISPATCH_ALL_DTYPES(dtype, "store", [&] {
    if constexpr (std::is_same_v<scalar_t, bool>) {
      store_as<bool>(p, v != 0);
    } else if constexpr (std::is_integral_v<scalar_t>) {
      store_as<scalar_t>(p, static_cast<scalar_t>(static_cast<int64_t>(v)));
    } else if constexpr (std::is_same_v<scalar_t, double>) {
      store_as<double>(p, v);
    } else {
      store_as<scalar_t>(p, scalar_t(static_cast<float>(v)));
    }
  });
}

// The element at p of `dtype`, as double (float16/bfloat16 through float).
inline double load(const void* p, ScalarType dtype) {
  return TS_DISPATCH_ALL_DTYPES(dtype, "load",
                                [&] { return static_cast<double>(load_as<scalar_t>(p)); });
}

// The address of element i of t, counting in row-major order over t's shape, through its strides.
inline char* element_ptr(const Tensor& t, int64_t i) {
  int64_t offset = 0;
  for (int64_t d = t.dim() - 1; d >= 0; --d) {
    offset += (i % t.sizes()[d]) * t.strides()[d];
    i /= t.sizes()[d];
  }
  return static_cast<char*>(t.data_ptr()) + offset * static_cast<int64_t>(t.element_size());
}

// ---- building tensors ----

// Writes v to t's elements in row-major order.
inline void fill_values(const Tensor& t, const Values& v) {
  EXPECT_EQ(t.numel(), static_cast<int64_t>(v.size())) << "wrong number of values";
  const int64_t n = std::min(t.numel(), static_cast<int64_t>(v.size()));
  for (int64_t i = 0; i < n; ++i) store(element_ptr(t, i), t.dtype(), v[i]);
}

// A contiguous tensor of `dtype` holding v in row-major order; 1-D unless a shape is given
// ({} is 0-dim).
inline Tensor make(ScalarType dtype, const Values& v, IntArrayRef shape) {
  Tensor t = ts::empty(shape, dtype);
  fill_values(t, v);
  return t;
}
inline Tensor make(ScalarType dtype, const Values& v) {
  return make(dtype, v, {static_cast<int64_t>(v.size())});
}

// A tensor with the given strides (non-contiguous, or overlapping) holding the logical values v.
inline Tensor make_strided(ScalarType dtype, const Values& v, IntArrayRef shape,
                           IntArrayRef strides) {
  Tensor t = ts::empty_strided(shape, strides, dtype);
  fill_values(t, v);
  return t;
}

// An int64 tensor holding v exactly (also beyond 2^53); 1-D unless a shape is given.
inline Tensor make_long(const std::vector<int64_t>& v, IntArrayRef shape) {
  Tensor t = ts::empty(shape, kLong);
  EXPECT_EQ(t.numel(), static_cast<int64_t>(v.size())) << "wrong number of values";
  const int64_t n = std::min(t.numel(), static_cast<int64_t>(v.size()));
  for (int64_t i = 0; i < n; ++i) store_as<int64_t>(element_ptr(t, i), v[i]);
  return t;
}
inline Tensor make_long(const std::vector<int64_t>& v) {
  return make_long(v, {static_cast<int64_t>(v.size())});
}

// 0, 1, 2, ... in row-major order, int32 unless a dtype is given.
inline Tensor iota(IntArrayRef shape, ScalarType dtype = kInt) {
  Tensor t = ts::empty(shape, dtype);
  for (int64_t i = 0; i < t.numel(); ++i) store(element_ptr(t, i), dtype, static_cast<double>(i));
  return t;
}

// ---- reading tensors ----

// Element i of t (row-major over its shape), as double.
inline double get(const Tensor& t, int64_t i = 0) {
  return load(element_ptr(t, i), t.dtype());
}

// Every element in row-major order, as double (exact but for int64 beyond 2^53).
inline Values values(const Tensor& t) {
  Values r(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) r[i] = get(t, i);
  return r;
}

// Every element of an int64 tensor in row-major order, exactly.
inline std::vector<int64_t> long_values(const Tensor& t) {
  std::vector<int64_t> r(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) r[i] = load_as<int64_t>(element_ptr(t, i));
  return r;
}

inline Shape shape_of(const Tensor& t) {
  return t.sizes().vec();
}

// Whether element i has its sign bit set (tells -0.0 from 0.0).
inline bool signbit_at(const Tensor& t, int64_t i) {
  return std::signbit(get(t, i));
}

// ---- checks ----

// Runs f and returns the message of the ts::Error it throws; a test failure if it throws none.
template <typename F>
std::string error_of(F&& f) {
  std::string message = error_text(f);
  if (message.empty()) {
    ADD_FAILURE() << "expected a ts::Error";
    return "<no error>";
  }
  return message;
}

// Checks dtype, shape and values: exact (NaN matches NaN), or within rtol * |want| if rtol > 0
// (infinities still exact). Use through EXPECT_TENSOR.
inline void expect_tensor(const Tensor& t, ScalarType dtype, const Shape& shape, const Values& want,
                          double rtol = 0) {
  ASSERT_TRUE(t.defined());
  EXPECT_EQ(t.dtype(), dtype);
  EXPECT_EQ(shape_of(t), shape);
  const Values got = values(t);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << "element " << i << " is " << got[i] << ", want nan";
    } else if (rtol == 0 || std::isinf(want[i])) {
      EXPECT_EQ(got[i], want[i]) << "element " << i;
    } else {
      EXPECT_NEAR(got[i], want[i], rtol * std::fabs(want[i])) << "element " << i;
    }
  }
}

// Checks dtype, shape and values with gtest's floating-point matchers: within 4 ULPs (NaN matches
// NaN), or within atol if atol > 0. Use through EXPECT_TENSOR_NEAR.
inline void expect_tensor_near(const Tensor& t, ScalarType dtype, const Shape& shape,
                               const Values& want, double atol = 0) {
  EXPECT_EQ(t.dtype(), dtype);
  EXPECT_EQ(shape_of(t), shape);
  if (atol == 0) {
    EXPECT_THAT(values(t), ::testing::Pointwise(::testing::NanSensitiveDoubleEq(), want));
  } else {
    EXPECT_THAT(values(t), ::testing::Pointwise(::testing::NanSensitiveDoubleNear(atol), want));
  }
}

}  // namespace ts::testing

// EXPECT_ERROR(stmt, text): stmt throws a ts::Error whose message contains text.
#define EXPECT_ERROR(stmt, text)                                                \
  do {                                                                          \
    const std::string ts_msg_ = ::ts::testing::error_of([&] { stmt; });         \
    EXPECT_NE(ts_msg_.find(text), std::string::npos) << "message: " << ts_msg_; \
  } while (0)

// EXPECT_TENSOR(t, dtype, shape, values[, rtol]): see expect_tensor; failures name t.
#define EXPECT_TENSOR(t, ...)                     \
  do {                                            \
    SCOPED_TRACE(#t);                             \
    ::ts::testing::expect_tensor(t, __VA_ARGS__); \
  } while (0)

// EXPECT_TENSOR_NEAR(t, dtype, shape, values[, atol]): see expect_tensor_near; failures name t.
#define EXPECT_TENSOR_NEAR(t, ...)                     \
  do {                                                 \
    SCOPED_TRACE(#t);                                  \
    ::ts::testing::expect_tensor_near(t, __VA_ARGS__); \
  } while (0)
