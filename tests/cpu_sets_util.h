#pragma once
// Shared by the op tests that check values worked by hand in the reference and the optimized
// sets alike (test_unary_more.cpp, test_activations.cpp, test_math_ops.cpp).
#include <gtest/gtest.h>

#include "test_util.h"
#include "touchstone/touchstone.h"

namespace ts::testing {

inline constexpr double kF32 = 2e-6;   // float32 results against the exact value
inline constexpr double kF64 = 1e-14;  // float64 results against the exact value

// Runs `body` once under each CPU kernel set, naming the set in failures.
template <class F>
void each_set(F body) {
  for (const char* set : {"reference", "optimized"}) {
    SCOPED_TRACE(set);
    KernelSetGuard g(set);
    body();
  }
}

// d op / dx at x (float64), by autograd.
template <class F>
double grad_at(F op, double x) {
  const Tensor t = make(kDouble, {x}).requires_grad_();
  op(t).sum().backward();
  return values(t.grad())[0];
}

}  // namespace ts::testing
