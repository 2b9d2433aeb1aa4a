// Element loads and stores through strides, and the fuzzer's input values (see values.h).
#include "fuzz/values.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace ts::fuzz {

char* element_address(const Tensor& t, int64_t i) {
  int64_t off = 0;
  for (int64_t d = t.dim() - 1; d >= 0; --d) {
    const int64_t s = t.sizes()[d];
    off += (i % s) * t.strides()[d];
    i /= s;
  }
  return static_cast<char*>(t.data_ptr()) + off * static_cast<int64_t>(t.element_size());
}

namespace {

template <typename T>
T load_as(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

double load_double_at(const char* p, ScalarType t) {
  switch (t) {
    case kBool:
      return load_as<bool>(p) ? 1 : 0;
    case kByte:
      return load_as<uint8_t>(p);
    case kChar:
      return load_as<int8_t>(p);
    case kShort:
      return load_as<int16_t>(p);
    case kInt:
      return load_as<int32_t>(p);
    case kLong:
      return static_cast<double>(load_as<int64_t>(p));
    case kHalf:
      return static_cast<float>(load_as<Half>(p));
    case kBFloat16:
      return static_cast<float>(load_as<BFloat16>(p));
    case kFloat:
      return load_as<float>(p);
    default:
      return load_as<double>(p);
  }
}

template <typename T>
void store_as(char* p, T v) {
  std::memcpy(p, &v, sizeof v);
}

// Stores an integral value exactly (wrapping) or a double rounded once through float.
void store_value(char* p, ScalarType t, double v) {
  switch (t) {
    case kBool:
      return store_as<bool>(p, v != 0);
    case kByte:
      return store_as<uint8_t>(p, static_cast<uint8_t>(static_cast<int64_t>(v)));
    case kChar:
      return store_as<int8_t>(p, static_cast<int8_t>(static_cast<int64_t>(v)));
    case kShort:
      return store_as<int16_t>(p, static_cast<int16_t>(static_cast<int64_t>(v)));
    case kInt:
      return store_as<int32_t>(p, static_cast<int32_t>(static_cast<int64_t>(v)));
    case kLong:
      return store_as<int64_t>(p, static_cast<int64_t>(v));
    case kHalf:
      return store_as<Half>(p, Half(static_cast<float>(v)));
    case kBFloat16:
      return store_as<BFloat16>(p, BFloat16(static_cast<float>(v)));
    case kFloat:
      return store_as<float>(p, static_cast<float>(v));
    default:
      return store_as<double>(p, v);
  }
}

void store_long(char* p, ScalarType t, int64_t v) {
  if (t == kLong) return store_as<int64_t>(p, v);
  store_value(p, t, static_cast<double>(v));
}

std::pair<int64_t, int64_t> integral_limits(ScalarType t) {
  switch (t) {
    case kBool:
      return {0, 1};
    case kByte:
      return {0, 255};
    case kChar:
      return {-128, 127};
    case kShort:
      return {-32768, 32767};
    case kInt:
      return {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};
    default:
      return {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
  }
}

double floating_edge(ScalarType t, uint32_t pick) {
  const double inf = std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::max(), tiny = 1e-310;
  if (t == kFloat) max = std::numeric_limits<float>::max(), tiny = 1e-40;
  if (t == kHalf) max = 65504, tiny = 1e-7;
  if (t == kBFloat16) max = 3.3895313892515355e38, tiny = 1e-40;
  const double v[] = {std::nan(""), inf, -inf, 0.0, -0.0, tiny, -tiny, max, -max, 1,
                      -1,           0.5, -0.5, 2.5, -2.5, 100,  -100,  1e4, -1e4, 3e9};
  return v[pick % (sizeof v / sizeof v[0])];
}

}  // namespace

double load_double(const Tensor& t, int64_t i) {
  return load_double_at(element_address(t, i), t.dtype());
}

int64_t load_long(const Tensor& t, int64_t i) {
  const char* p = element_address(t, i);
  if (t.dtype() == kLong) return load_as<int64_t>(p);
  return static_cast<int64_t>(load_double_at(p, t.dtype()));
}

void fill_input(const Tensor& t, uint64_t seed, std::string_view fill) {
  const bool normal = fill == "normal", edge = fill == "edge", pos = fill == "pos",
             small = fill == "small";
  TS_CHECK(normal || edge || pos || small, "input: fill must be 'normal', 'edge', 'pos' or ",
           "'small', got '", fill, "'");
  const ScalarType dt = t.dtype();
  const bool floating = is_floating_type(dt);
  const auto [lo, hi] = integral_limits(dt);
  for (int64_t i = 0; i < t.numel(); ++i) {
    char* p = element_address(t, i);
    const auto w = philox_words(seed, 0, static_cast<uint64_t>(i));
    const double u = static_cast<double>(w[0]) / 4294967296.0;
    if (small) {
      store_value(p, dt, static_cast<double>(w[1] % 3));
    } else if (edge && w[2] % 3 == 0) {
      if (floating) {
        store_value(p, dt, floating_edge(dt, w[3]));
      } else {
        const int64_t v[] = {lo, hi, 0, -1, 1, lo + 1, hi - 1};
        store_long(p, dt, dt == kBool ? static_cast<int64_t>(w[3] & 1) : v[w[3] % 7]);
      }
    } else if (floating) {
      // A quarter are multiples of 0.5 (ties for max, round, floor division); the rest spread.
      double v = w[1] % 4 == 0 ? std::floor(u * 16) / 2 - 4 : u * 8 - 4;
      if (pos) v = std::fabs(v) + 0.125;
      store_value(p, dt, v);
    } else if (dt == kBool) {
      store_value(p, dt, pos ? 1 : static_cast<double>(w[1] & 1));
    } else {
      // [-5, 5] ([0, 10] for uint8), or [1, 5] for "pos".
      const int64_t span = pos ? 5 : 11, low = pos ? 1 : (dt == kByte ? 0 : -5);
      store_long(p, dt, static_cast<int64_t>(w[1] % span) + low);
    }
  }
}

void fill_index(const Tensor& t, uint64_t seed, int64_t low, int64_t high) {
  TS_CHECK(t.dtype() == kLong, "index: expected an int64 tensor");
  TS_CHECK(low < high, "index: low (", low, ") must be less than high (", high, ")");
  const uint64_t range = static_cast<uint64_t>(high) - static_cast<uint64_t>(low);
  for (int64_t i = 0; i < t.numel(); ++i) {
    const auto w = philox_words(seed, 0, static_cast<uint64_t>(i));
    const int64_t v = uniform_int_from_to(w, range, low);
    std::memcpy(element_address(t, i), &v, sizeof v);
  }
}

bool has_internal_overlap(const Tensor& t) {
  if (t.numel() <= 1) return false;
  // Sort the dims of size > 1 by stride; each must step past everything the smaller ones span.
  std::vector<std::pair<int64_t, int64_t>> dims;  // (stride, size)
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (t.sizes()[d] > 1) dims.emplace_back(t.strides()[d], t.sizes()[d]);
  }
  std::sort(dims.begin(), dims.end());
  int64_t span = 0;  // the largest offset the smaller dims reach
  for (const auto& [stride, size] : dims) {
    if (stride <= span) return true;
    span += stride * (size - 1);
  }
  return false;
}

}  // namespace ts::fuzz
