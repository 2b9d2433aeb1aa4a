#pragma once
// A non-owning reference to a callable (no allocation, one indirect call), like c10::function_ref.
#include <type_traits>
#include <utility>

namespace ts {

template <typename Fn>
class FunctionRef;

template <typename R, typename... Args>
class FunctionRef<R(Args...)> {
 public:
  template <typename F, typename = std::enable_if_t<!std::is_same_v<std::decay_t<F>, FunctionRef>>>
  FunctionRef(F&& f)  // NOLINT(implicit)
      : obj_(const_cast<void*>(static_cast<const void*>(&f))),
        call_(&call<std::remove_reference_t<F>>) {}
  R operator()(Args... args) const { return call_(obj_, std::forward<Args>(args)...); }

 private:
  template <typename F>
  static R call(void* obj, Args... args) {
    return (*static_cast<F*>(obj))(std::forward<Args>(args)...);
  }
  void* obj_;
  R (*call_)(void*, Args...);
};

}  // namespace ts
