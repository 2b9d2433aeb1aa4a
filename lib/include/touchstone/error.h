#pragma once
// ts::Error and TS_CHECK: every failed check throws a ts::Error whose message names the op.
#include <sstream>
#include <stdexcept>
#include <string>

namespace ts {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace detail {

template <typename... Args>
std::string str_cat(const Args&... args) {
  std::ostringstream os;
  (os << ... << args);
  return os.str();
}

inline std::string check_msg(const char* cond) {
  return std::string("Expected ") + cond + " to be true, but got false.";
}
template <typename... Args>
std::string check_msg(const char* /*cond*/, const Args&... args) {
  return str_cat(args...);
}

[[noreturn]] void throw_error(std::string msg);

}  // namespace detail
}  // namespace ts

// TS_CHECK(cond, parts...): throws ts::Error with the parts streamed together.
#define TS_CHECK(cond, ...)                                                     \
  do {                                                                          \
    if (!(cond)) [[unlikely]] {                                                 \
      ::ts::detail::throw_error(::ts::detail::check_msg(#cond, ##__VA_ARGS__)); \
    }                                                                           \
  } while (0)

#define TS_ERROR(...) ::ts::detail::throw_error(::ts::detail::str_cat(__VA_ARGS__))

// Internal invariants (bugs, not user errors); kept on in release builds with assertions.
#define TS_INTERNAL_ASSERT(cond, ...) \
  TS_CHECK(cond, "internal assert failed: " #cond " ", ##__VA_ARGS__)
