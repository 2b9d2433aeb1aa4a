#pragma once
// Helpers shared by test_reduce.cpp and test_reduce_stats.cpp: tensors built from values and read
// back through their strides, independent of the factory and copy ops.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "touchstone/dispatch_macros.h"
#include "touchstone/touchstone.h"

namespace reduce_test {

using ::testing::HasSubstr;
using Shape = std::vector<int64_t>;
using ts::kBFloat16, ts::kBool, ts::kByte, ts::kChar, ts::kDouble, ts::kFloat, ts::kHalf, ts::kInt,
    ts::kLong, ts::kShort;

inline constexpr double kInf = std::numeric_limits<double>::infinity();
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A contiguous tensor of `shape` and `dtype` holding `v` in row-major order.
inline ts::Tensor make(const Shape& shape, const std::vector<double>& v,
                       ts::ScalarType dtype = kFloat) {
  ts::Tensor t = ts::empty(shape, dtype);
  EXPECT_EQ(static_cast<size_t>(t.numel()), v.size()) << "make: wrong number of values";
  TS_DISPATCH_ALL_DTYPES(dtype, "make", [&] {
    scalar_t* p = t.data_ptr<scalar_t>();
    for (size_t i = 0; i < v.size(); ++i) {
      if constexpr (std::is_floating_point_v<scalar_t> || std::is_same_v<scalar_t, bool>) {
        p[i] = static_cast<scalar_t>(v[i]);
      } else if constexpr (std::is_integral_v<scalar_t>) {
        p[i] = static_cast<scalar_t>(static_cast<int64_t>(v[i]));
      } else {
        p[i] = scalar_t(static_cast<float>(v[i]));
      }
    }
  });
  return t;
}

// An int64 tensor (exact beyond 2^53).
inline ts::Tensor make_long(const Shape& shape, const std::vector<int64_t>& v) {
  ts::Tensor t = ts::empty(shape, kLong);
  for (size_t i = 0; i < v.size(); ++i) t.data_ptr<int64_t>()[i] = v[i];
  return t;
}

// Calls f(element pointer) for each element of t in row-major order, through its strides.
template <typename T, typename F>
void visit(const ts::Tensor& t, F&& f) {
  if (t.numel() == 0) return;
  std::vector<int64_t> idx(static_cast<size_t>(t.dim()), 0);
  const T* base = t.data_ptr<T>();
  for (int64_t n = 0; n < t.numel(); ++n) {
    int64_t off = 0;
    for (int64_t d = 0; d < t.dim(); ++d) off += idx[d] * t.strides()[d];
    f(base[off]);
    for (int64_t d = t.dim() - 1; d >= 0; --d) {
      if (++idx[d] < t.sizes()[d]) break;
      idx[d] = 0;
    }
  }
}

// The elements as doubles (exact for every dtype but large int64).
inline std::vector<double> vals(const ts::Tensor& t) {
  std::vector<double> out;
  TS_DISPATCH_ALL_DTYPES(t.dtype(), "vals", [&] {
    visit<scalar_t>(t, [&](const scalar_t& x) {
      if constexpr (std::is_arithmetic_v<scalar_t>) {
        out.push_back(static_cast<double>(x));
      } else {
        out.push_back(static_cast<double>(static_cast<float>(x)));
      }
    });
  });
  return out;
}

inline std::vector<int64_t> longs(const ts::Tensor& t) {
  std::vector<int64_t> out;
  visit<int64_t>(t, [&](int64_t x) { out.push_back(x); });
  return out;
}

inline Shape shape_of(const ts::Tensor& t) {
  return t.sizes().vec();
}

// Runs f, expects a ts::Error, and returns its message.
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const ts::Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected a ts::Error";
  return "";
}

// x = [[1, 2, 3], [4, 5, 6]] as float32: the running example.
inline ts::Tensor x23(ts::ScalarType dtype = kFloat) {
  return make({2, 3}, {1, 2, 3, 4, 5, 6}, dtype);
}

// [[0, 1, 2, 3], [4, 5, 6, 7], ...] of shape [2, 3, 4]: element (i, j, k) = 12i + 4j + k.
inline ts::Tensor iota234(ts::ScalarType dtype = kFloat) {
  std::vector<double> v(24);
  for (int i = 0; i < 24; ++i) v[i] = i;
  return make({2, 3, 4}, v, dtype);
}

// Expects t's dtype, shape and values (NaN matches NaN; exact unless tol > 0).
inline void expect_tensor(const ts::Tensor& t, ts::ScalarType dtype, const Shape& shape,
                          const std::vector<double>& v, double tol = 0) {
  EXPECT_EQ(t.dtype(), dtype);
  EXPECT_EQ(shape_of(t), shape);
  if (tol == 0) {
    EXPECT_THAT(vals(t), ::testing::Pointwise(::testing::NanSensitiveDoubleEq(), v));
  } else {
    EXPECT_THAT(vals(t), ::testing::Pointwise(::testing::NanSensitiveDoubleNear(tol), v));
  }
}

}  // namespace reduce_test

// EXPECT_TENSOR(t, dtype, shape, values[, tol]): failures name the calling line.
#define EXPECT_TENSOR(...)                   \
  do {                                       \
    SCOPED_TRACE("EXPECT_TENSOR");           \
    reduce_test::expect_tensor(__VA_ARGS__); \
  } while (0)

#define EXPECT_ERROR(stmt, text) \
  EXPECT_THAT(reduce_test::error_of([&] { (void)(stmt); }), ::testing::HasSubstr(text))
