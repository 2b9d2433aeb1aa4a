#pragma once
// Helpers of the CUDA tests: the skip when no device is visible, and moving tensors between
// the host and the device.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "test_util.h"
#include "touchstone/cuda.h"
#include "touchstone/dispatch.h"
#include "touchstone/ops.h"

namespace ts::testing {

// Every CUDA test starts here: it skips (with the reason) when no device is visible, and runs
// with the optimized set, the one that holds the CUDA kernels.
class CudaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (ts::cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device visible";
    guard_.emplace("optimized");
  }
  std::optional<KernelSetGuard> guard_;
};

inline const Device kCuda = Device("cuda:0");

using Ts = std::vector<Tensor>;

inline Tensor to_cuda(const Tensor& t) {
  return ts::cuda::to_device(t, kCuda);
}
inline Tensor to_cpu(const Tensor& t) {
  return ts::cuda::to_device(t, kCPU);
}

// |got - want| <= atol + rtol |want| element by element; NaN must meet NaN, an infinity the same
// infinity.
struct Tolerance {
  double rtol = 0, atol = 0;
};

// About two ulps of the result dtype, plus the accumulation's error for results that sum
// `terms` values of magnitude up to about 4 (Note [CUDA reductions]: float32 and narrower
// accumulate in float32), which grows like sqrt(terms) ulps of the accumulation type, as the
// conformance tolerances. Exact for integer and bool results.
inline Tolerance tolerance_for(ScalarType t, int64_t terms = 1) {
  const double ulp2 = t == ts::kHalf       ? 2e-3
                      : t == ts::kBFloat16 ? 1.6e-2
                      : t == ts::kFloat    ? 2.4e-7
                      : t == ts::kDouble   ? 4.5e-16
                                           : 0.0;
  const double acc_ulp = t == ts::kDouble ? 2.2e-16 : ts::is_floating_type(t) ? 1.2e-7 : 0.0;
  const double grow = std::sqrt(static_cast<double>(terms));
  return {ulp2 + acc_ulp * grow, ulp2 + 32 * acc_ulp * grow};
}

inline void expect_close_values(const Tensor& got, const Tensor& want, Tolerance tol,
                                const std::string& what) {
  ASSERT_EQ(got.sizes(), want.sizes()) << what;
  ASSERT_EQ(got.dtype(), want.dtype()) << what;
  const Values g = values(got), w = values(want);
  for (size_t i = 0; i < g.size(); ++i) {
    if (std::isnan(w[i]) || std::isinf(w[i])) {
      EXPECT_TRUE(std::isnan(w[i]) ? std::isnan(g[i]) : g[i] == w[i])
          << what << " at " << i << ": got " << g[i] << ", want " << w[i];
    } else {
      EXPECT_NEAR(g[i], w[i], tol.atol + tol.rtol * std::fabs(w[i])) << what << " at " << i;
    }
  }
}

// Runs f on CPU tensors under the reference set and on their copies on the device under the
// optimized set (the test's), and compares what f returns.
using TensorsFn = std::function<Tensor(const std::vector<Tensor>&)>;
inline void expect_matches_reference(const std::string& what, const TensorsFn& f,
                                     const std::vector<Tensor>& inputs, Tolerance tol) {
  Tensor want;
  {
    ts::KernelSetGuard ref("reference");
    want = f(inputs);
  }
  std::vector<Tensor> dev;
  for (const Tensor& t : inputs) dev.push_back(t.defined() ? to_cuda(t) : t);
  const Tensor got = f(dev);
  ASSERT_TRUE(got.is_cuda()) << what;
  expect_close_values(to_cpu(got), want, tol, what);
}

// randn * scale + shift of the given shape and dtype, drawn on the CPU from a fixed seed.
inline Tensor random_input(IntArrayRef shape, ScalarType t, double scale = 1, double shift = 0,
                           uint64_t seed = 7) {
  ts::KernelSetGuard ref("reference");
  ts::manual_seed(seed);
  return ts::add(ts::mul(ts::randn(shape, ts::kDouble), scale), shift).to(t);
}

}  // namespace ts::testing
