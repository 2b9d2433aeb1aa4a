#pragma once
// Helpers for the optimized-set tests: inputs in many layouts, and a check that the optimized
// set agrees with the reference set under every SIMD capability this CPU supports.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "test_util.h"
#include "touchstone/cpu_capability.h"
#include "touchstone/parallel.h"
#include "touchstone/touchstone.h"

namespace ts::testing {

// The dtype's name ("float32"), for messages.
inline std::string name(ScalarType t) {
  return std::string(dtype_name(t));
}

// A copy of t made under the reference set (so the code under test never makes inputs).
inline Tensor ref_clone(const Tensor& t) {
  KernelSetGuard g("reference");
  return t.clone();
}

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

// The same values as `t` (a contiguous 2-D or larger tensor) in other layouts, by name.
using Layouts = std::vector<std::pair<std::string, Tensor>>;
inline Layouts layouts(const Tensor& t) {
  KernelSetGuard g("reference");
  Layouts out{{"contiguous", t}};
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

// Calls f(name, tensor) for each of `ls` (layouts(t), or a test's own list).
inline void for_each_layout(const Layouts& ls,
                            const std::function<void(const std::string&, const Tensor&)>& f) {
  for (const auto& l : ls) f(l.first, l.second);
}

// Runs f(cap) under the optimized set once per SIMD capability this CPU supports (each with
// its name as a trace), then restores the capability.
inline void for_each_capability(const std::function<void(const std::string& cap)>& f) {
  const std::string before = cpu::capability();
  for (const std::string& cap : cpu::supported_capabilities()) {
    cpu::set_capability(cap);
    KernelSetGuard g("optimized");
    SCOPED_TRACE(cap);
    f(cap);
  }
  cpu::set_capability(before);
}

// An out= or in-place call as a function returning its result: each call makes a fresh tensor
// with `make` (under the reference set, so the code under test never makes it) and runs `write`
// on it. For expect_matches_reference and the tests' own bitwise checks.
using Maker = std::function<Tensor()>;
inline Maker into(Maker make, std::function<void(const Tensor&)> write) {
  return [make = std::move(make), write = std::move(write)] {
    Tensor t;
    {
      KernelSetGuard g("reference");
      t = make();
    }
    write(t);
    return t;
  };
}

// Makers for into(): an uninitialized out of `sizes` (one of size {0} is resized by the call),
// and one whose first two dims are transposed.
inline Maker empty_out(std::vector<int64_t> sizes, ScalarType dtype) {
  return [sizes, dtype] { return empty(sizes, dtype); };
}
inline Maker transposed_out(std::vector<int64_t> sizes, ScalarType dtype) {
  std::swap(sizes[0], sizes[1]);
  return [sizes, dtype] { return empty(sizes, dtype).transpose(0, 1); };
}

// Runs f(threads) with each thread count, then restores the count.
inline void for_each_thread_count(std::initializer_list<int> counts,
                                  const std::function<void(int threads)>& f) {
  const int before = get_num_threads();
  for (int threads : counts) {
    set_num_threads(threads);
    f(threads);
  }
  set_num_threads(before);
}

// Sizes, dtype and every element's bytes equal (read through contiguous copies).
inline void expect_same_bits(const Tensor& got, const Tensor& want, const std::string& what) {
  ASSERT_EQ(got.sizes(), want.sizes()) << what;
  ASSERT_EQ(got.dtype(), want.dtype()) << what;
  KernelSetGuard g("reference");
  const Tensor a = got.contiguous(), b = want.contiguous();
  const auto* pa = static_cast<const unsigned char*>(a.data_ptr());
  const auto* pb = static_cast<const unsigned char*>(b.data_ptr());
  const size_t es = a.element_size();
  for (size_t i = 0; i < a.nbytes(); i += es) {
    if (std::memcmp(pa + i, pb + i, es) != 0) {
      ADD_FAILURE() << what << ": element " << i / es << " differs from the reference";
      return;
    }
  }
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
  for_each_capability([&](const std::string& cap) {
    expect_close(f(), want, what + " [" + cap + "]", rtol, atol);
  });
}

}  // namespace ts::testing
