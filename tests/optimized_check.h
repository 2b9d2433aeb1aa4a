#pragma once
// Helpers for the optimized-set tests: inputs in many layouts, and a check that the optimized
// set agrees with the reference set under every SIMD capability this CPU supports.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "touchstone/cpu_capability.h"
#include "touchstone/touchstone.h"

namespace ts::testing {

// Deterministic values in [lo, hi) of `dtype` (integer-valued for integer and bool dtypes),
// made by the reference set so they never depend on the code under test.
inline Tensor sample(IntArrayRef sizes, ScalarType dtype, double lo = -4, double hi = 4,
                     uint64_t seed = 1) {
  KernelSetGuard g("reference");
  manual_seed(seed);
  if (dtype == kBool) return lt(rand(sizes, kDouble), 0.5);
  if (!is_floating_type(dtype)) {
    if (dtype == kByte) lo = std::max(lo, 0.0);
    return randint(static_cast<int64_t>(lo), static_cast<int64_t>(hi), sizes, dtype);
  }
  return add(mul(rand(sizes, kDouble), hi - lo), lo).to(dtype);
}

// The same values as `t` (a contiguous 2-D or larger tensor) in other layouts.
inline std::vector<std::pair<std::string, Tensor>> layouts(const Tensor& t) {
  KernelSetGuard g("reference");
  std::vector<std::pair<std::string, Tensor>> out{{"contiguous", t}};
  if (t.dim() >= 2) {
    out.emplace_back("transposed", t.transpose(0, 1).contiguous().transpose(0, 1));
    Tensor wide = zeros({t.size(0), 2 * t.size(1)}, t.dtype());
    if (t.dim() == 2) {
      wide.slice(1, 0, std::nullopt, 2).copy_(t);
      out.emplace_back("sliced_step2", wide.slice(1, 0, std::nullopt, 2));
    }
  }
  Tensor big = zeros({t.numel() + 3}, t.dtype());
  Tensor offset = big.narrow(0, 3, t.numel()).view(t.sizes());
  offset.copy_(t);
  out.emplace_back("offset", offset);
  return out;
}

inline double default_rtol(ScalarType t) {
  switch (t) {
    case kHalf:
      return 1e-3;
    case kBFloat16:
      return 1.6e-2;
    case kFloat:
      return 1.3e-6;
    case kDouble:
      return 1e-7;
    default:
      return 0;
  }
}
inline double default_atol(ScalarType t) {
  switch (t) {
    case kHalf:
    case kBFloat16:
    case kFloat:
      return 1e-5;
    case kDouble:
      return 1e-7;
    default:
      return 0;
  }
}

// Expects `got` to equal `want` in shape, dtype and values (assert_close tolerances, NaN equal).
inline void expect_close(const Tensor& got, const Tensor& want, const std::string& what,
                         double rtol = -1, double atol = -1) {
  ASSERT_EQ(got.sizes(), want.sizes()) << what;
  ASSERT_EQ(got.dtype(), want.dtype()) << what;
  if (rtol < 0) rtol = default_rtol(want.dtype());
  if (atol < 0) atol = default_atol(want.dtype());
  KernelSetGuard g("reference");
  Tensor a = got.to(kDouble).contiguous(), b = want.to(kDouble).contiguous();
  const double* pa = a.data_ptr<double>();
  const double* pb = b.data_ptr<double>();
  int bad = 0;
  for (int64_t i = 0; i < a.numel() && bad < 5; ++i) {
    const bool ok = (std::isnan(pa[i]) && std::isnan(pb[i])) || pa[i] == pb[i] ||
                    std::fabs(pa[i] - pb[i]) <= atol + rtol * std::fabs(pb[i]);
    if (!ok) {
      ++bad;
      ADD_FAILURE() << what << ": element " << i << " is " << pa[i] << ", reference " << pb[i];
    }
  }
}

// Runs `f` under the reference set, then under the optimized set with every supported SIMD
// capability, and expects the same result.
inline void expect_matches_reference(const std::function<Tensor()>& f, const std::string& what,
                                     double rtol = -1, double atol = -1) {
  Tensor want;
  {
    KernelSetGuard g("reference");
    want = f();
  }
  const std::string before = cpu::capability();
  for (const std::string& cap : cpu::supported_capabilities()) {
    cpu::set_capability(cap);
    KernelSetGuard g("optimized");
    Tensor got = f();
    expect_close(got, want, what + " [" + cap + "]", rtol, atol);
  }
  cpu::set_capability(before);
}

}  // namespace ts::testing
