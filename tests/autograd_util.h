#pragma once
// Helpers shared by the autograd tests (test_autograd_*.cpp): float64 vectors and random inputs,
// values read back as doubles, gradcheck + gradgradcheck. Use with
// `using namespace ts::autograd_test;`.
#include <gtest/gtest.h>

#include <initializer_list>
#include <vector>

#include "error_text.h"
#include "touchstone/touchstone.h"

namespace ts::autograd_test {

using ts::testing::error_text;

inline Tensor vec(std::initializer_list<double> v, ScalarType dtype = kDouble) {
  return tensor(v, dtype);
}

// t's elements in row-major order, as double (read outside the graph).
inline std::vector<double> values(const Tensor& t) {
  NoGradGuard g;
  Tensor c = t.to(kDouble).contiguous();
  return std::vector<double>(c.data_ptr<double>(), c.data_ptr<double>() + c.numel());
}

// Standard normal float64 values from `seed`, requiring grad.
inline Tensor randn_input(IntArrayRef shape, uint64_t seed) {
  manual_seed(seed);
  return randn(shape, kDouble).requires_grad_();
}

// gradcheck, and gradgradcheck unless `second` is false, of f at `inputs`.
inline void expect_gradchecks(const autograd::GradcheckFn& f, const std::vector<Tensor>& inputs,
                              bool second = true) {
  autograd::GradcheckOptions o;
  o.raise_exception = false;
  const auto first = autograd::gradcheck(f, inputs, o);
  EXPECT_TRUE(first.ok) << first.message;
  if (!second) return;
  const auto r = autograd::gradgradcheck(f, inputs, {}, o);
  EXPECT_TRUE(r.ok) << r.message;
}

}  // namespace ts::autograd_test
