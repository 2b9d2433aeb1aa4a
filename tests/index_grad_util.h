#pragma once
// The gradient check shared by the indexing tests (test_advanced_index.cpp, test_take_put.cpp):
// each named op of (x, y) is gradchecked and gradgradchecked at one fixed pair, on every CPU set.
#include <functional>
#include <utility>
#include <vector>

#include "autograd_util.h"
#include "cpu_sets_util.h"
#include "touchstone/touchstone.h"

namespace ts::testing {

using IndexGradOp = std::function<Tensor(const Tensor&, const Tensor&)>;

// x is 2x3 (the indexed tensor), y 3x3 (values, sources); the ops pick their own indices.
inline void expect_index_gradchecks(const std::vector<std::pair<const char*, IndexGradOp>>& cases) {
  each_set([&] {
    for (const auto& named : cases) {  // not a structured binding: clang 14 lambdas
      const auto& op = named.second;
      SCOPED_TRACE(named.first);
      const Tensor x = tensor({-2.3, 0.7, -0.2, 0.3, 1.8, 1.1}, kDouble).view({2, 3});
      const Tensor y =
          tensor({0.4, -1.3, 2.1, 0.9, -0.6, 1.7, 0.25, -0.8, 1.45}, kDouble).view({3, 3});
      const Tensor xi = x.detach().requires_grad_(), yi = y.detach().requires_grad_();
      autograd_test::expect_gradchecks(
          [&](const std::vector<Tensor>& v) -> std::vector<Tensor> { return {op(v[0], v[1])}; },
          {xi, yi});
    }
  });
}

}  // namespace ts::testing
