#pragma once
// UserOpScope: errors thrown inside an op name the op the user called.
#include "touchstone/error.h"

namespace ts {
namespace detail {
// The outermost UserOpScope's op on this thread, or null.
extern thread_local const char* user_op;
}  // namespace detail

// Note [Errors name the op the user called]
// A composite op (linear, matmul, cross_entropy, zeros, ...) runs other ops whose errors name
// themselves, and every op allocates through empty(); the user called the outer op. A
// UserOpScope makes every ts::Error thrown on this thread while it lives start with the
// outermost scope's op, the inner message kept as context: "linear: add_: ...", "zeros: empty:
// ...". A message that already starts with "<op>: " is left as it is (throw_error in core.cpp).
// Scopes are set by the composites, by backward() and grad(), and by the shared meta helpers of
// the kernel ops (meta::elementwise, prepare_output, ...), which name an in-place call by its
// method (add_, see meta::op_name). A scope costs two thread-local writes; parallel_for hands
// the caller's op to its worker threads.
class UserOpScope {
 public:
  // A null op is allowed (the scope then does nothing).
  explicit UserOpScope(const char* op) noexcept : prev_(detail::user_op) {
    if (prev_ == nullptr) detail::user_op = op;
  }
  ~UserOpScope() { detail::user_op = prev_; }
  UserOpScope(const UserOpScope&) = delete;
  UserOpScope& operator=(const UserOpScope&) = delete;

 private:
  const char* prev_;
};

}  // namespace ts
