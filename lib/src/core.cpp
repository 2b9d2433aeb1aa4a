// Small core pieces: errors, Half conversions, dtype names, Scalar, Device.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <ostream>
#include <string_view>

#include "touchstone/array_ref.h"
#include "touchstone/device.h"
#include "touchstone/dtype.h"
#include "touchstone/environment.h"
#include "touchstone/error.h"
#include "touchstone/op_scope.h"
#include "touchstone/parallel.h"
#include "touchstone/scalar.h"

namespace ts {

namespace detail {

thread_local const char* user_op = nullptr;

void throw_error(std::string msg) {
  if (user_op != nullptr) {  // see Note [Errors name the op the user called]
    const std::string_view op(user_op);
    if (!msg.starts_with(op) || msg.compare(op.size(), 2, ": ") != 0) {
      msg = str_cat(op, ": ", msg);
    }
  }
  throw Error(std::move(msg));
}

namespace {
struct EnvironmentErrors {
  std::mutex mutex;
  std::vector<std::string> messages;
};
EnvironmentErrors& environment_error_list() {
  static EnvironmentErrors* e = new EnvironmentErrors;  // filled by static initializers
  return *e;
}
}  // namespace

void add_environment_error(std::string message) {
  // stdio, not std::cerr: this may run in a static initializer before iostreams exist.
  std::fprintf(stderr, "touchstone: warning: %s\n", message.c_str());
  EnvironmentErrors& e = environment_error_list();
  const std::lock_guard<std::mutex> lock(e.mutex);
  e.messages.push_back(std::move(message));
}

bool env_switch(const char* name) {
  const char* env = std::getenv(name);
  const std::string value = env != nullptr ? env : "";
  if (!value.empty() && value != "0" && value != "1") {
    add_environment_error(std::string(name) + "='" + value +
                          "': expected 1 (on, the default) or 0 (off); using 1");
  }
  return value != "0";
}

}  // namespace detail

std::vector<std::string> environment_errors() {
  (void)get_num_threads();  // TOUCHSTONE_NUM_THREADS is read on first use
  auto& e = detail::environment_error_list();
  const std::lock_guard<std::mutex> lock(e.mutex);
  return e.messages;
}

namespace detail {

// Note [Half rounding]
// Normal values: rebias the exponent and add 0xfff plus the kept mantissa's low bit before
// dropping 13 bits, which rounds to nearest even. Subnormals: adding 0.5f lines the half's
// 2^-24 unit up with float's last mantissa bit, so the float adder rounds for us.
uint16_t float_to_half_bits(float f) {
  const uint32_t x = float_bits(f);
  const uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t a = x & 0x7fffffffu;
  if (a > 0x7f800000u) return static_cast<uint16_t>(sign | 0x7e00u | ((a >> 13) & 0x3ffu));
  if (a >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // >= 65520: infinity
  if (a < 0x38800000u) {                                               // below 2^-14
    const uint32_t r = float_bits(bits_float(a) + 0.5f) - 0x3f000000u;
    return static_cast<uint16_t>(sign | r);
  }
  a += 0xc8000fffu + ((a >> 13) & 1u);
  return static_cast<uint16_t>(sign | (a >> 13));
}

float half_bits_to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1fu;
  const uint32_t mant = h & 0x3ffu;
  if (exp == 0x1f) return bits_float(sign | 0x7f800000u | (mant << 13));
  if (exp == 0) {
    const float v = std::ldexp(static_cast<float>(mant), -24);
    return sign ? -v : v;
  }
  return bits_float(sign | ((exp + 112) << 23) | (mant << 13));
}

}  // namespace detail

size_t element_size(ScalarType t) {
  switch (t) {
#define TS_SIZE(ctype, name, pyname) \
  case ScalarType::name:             \
    return sizeof(ctype);
    TS_FORALL_SCALAR_TYPES(TS_SIZE)
#undef TS_SIZE
    default:
      TS_ERROR("element_size: undefined dtype");
  }
}

std::string_view dtype_name(ScalarType t) {
  switch (t) {
#define TS_NAME(ctype, name, pyname) \
  case ScalarType::name:             \
    return #pyname;
    TS_FORALL_SCALAR_TYPES(TS_NAME)
#undef TS_NAME
    default:
      return "undefined";
  }
}

ScalarType parse_dtype(std::string_view n) {
  for (int i = 0; i < kNumScalarTypes; ++i) {
    if (dtype_name(static_cast<ScalarType>(i)) == n) return static_cast<ScalarType>(i);
  }
  static constexpr std::pair<std::string_view, ScalarType> aliases[] = {
      {"half", kHalf}, {"float", kFloat}, {"double", kDouble}, {"short", kShort}, {"int", kInt},
      {"long", kLong}, {"f16", kHalf},    {"bf16", kBFloat16}, {"f32", kFloat},   {"f64", kDouble},
      {"i8", kChar},   {"i16", kShort},   {"i32", kInt},       {"i64", kLong},    {"u8", kByte}};
  for (const auto& [alias, t] : aliases) {
    if (alias == n) return t;
  }
  TS_ERROR("unknown dtype '", n, "' (expected one of bool, uint8, int8, int16, int32, int64, ",
           "float16, bfloat16, float32, float64)");
}

std::ostream& operator<<(std::ostream& os, ScalarType t) {
  return os << dtype_name(t);
}

std::ostream& operator<<(std::ostream& os, IntArrayRef a) {
  os << '[';
  for (size_t i = 0; i < a.size(); ++i) os << (i ? ", " : "") << a[i];
  return os << ']';
}

Scalar Scalar::operator-() const {
  TS_CHECK(!is_bool(), "negation of a bool Scalar is not supported");
  return is_floating_point() ? Scalar(-v_.d) : Scalar(-v_.i);
}

bool operator==(const Scalar& a, const Scalar& b) {
  if (a.kind_ != b.kind_) return false;
  return a.is_floating_point() ? a.v_.d == b.v_.d : a.v_.i == b.v_.i;
}

std::ostream& operator<<(std::ostream& os, const Scalar& s) {
  if (s.is_bool()) return os << (s.to_bool() ? "True" : "False");
  if (s.is_integral(false)) return os << s.to_long();
  return os << s.to_double();
}

Device::Device(std::string_view spec) : type_(kCPU), index_(-1) {
  std::string_view type = spec.substr(0, spec.find(':'));
  if (type == "cpu") {
    type_ = kCPU;
  } else if (type == "cuda") {
    type_ = kCUDA;
  } else {
    TS_ERROR("invalid device '", spec, "' (expected cpu, cuda or cuda:N)");
  }
  if (type.size() < spec.size()) {
    std::string_view idx = spec.substr(type.size() + 1);
    TS_CHECK(!idx.empty() && idx.size() < 3 && idx.find_first_not_of("0123456789") == idx.npos,
             "invalid device '", spec, "' (expected cpu, cuda or cuda:N)");
    index_ = static_cast<int8_t>(std::stoi(std::string(idx)));
  }
}

std::string_view device_type_name(DeviceType t) {
  return t == kCPU ? "cpu" : "cuda";
}

std::ostream& operator<<(std::ostream& os, const Device& d) {
  os << device_type_name(d.type());
  if (d.index() >= 0) os << ':' << static_cast<int>(d.index());
  return os;
}

}  // namespace ts
