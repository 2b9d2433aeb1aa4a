// The xnnpack kernel set (plugins/xnnpack) on hand-computed values: broadcasting, round half to
// even, softmax over a non-last dim, mm with both weight layouts, the tail rows of Note [Tail
// rows], the dims ordered by the output's strides, and its count of staged operands (Note [Staged
// copies]).
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cmath>

#include "test_util.h"
#include "touchstone/touchstone.h"

#ifndef TS_XNNPACK_PLUGIN_PATH
#error "tests/CMakeLists.txt passes TS_XNNPACK_PLUGIN_PATH (the xnnpack plug-in's file)"
#endif

namespace ts {
namespace {

using testing::make;
using testing::Values;

class Xnnpack : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!find_kernel_set("xnnpack")) load_kernel_set(TS_XNNPACK_PLUGIN_PATH);
  }
  // The plug-in's count of staged operands, read through its exported C function.
  static int64_t staged() {
    void* handle = dlopen(TS_XNNPACK_PLUGIN_PATH, RTLD_NOW | RTLD_NOLOAD);
    EXPECT_NE(handle, nullptr);
    auto fn = reinterpret_cast<int64_t (*)()>(dlsym(handle, "touchstone_xnnpack_staged"));
    EXPECT_NE(fn, nullptr);
    const int64_t n = fn();
    dlclose(handle);
    return n;
  }
};

TEST_F(Xnnpack, AddBroadcastsARowWithoutStaging) {
  const Tensor a = make(kFloat, {1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor b = make(kFloat, {10, 20, 30}, {3});
  const int64_t before = staged();
  Tensor y;
  {
    KernelSetGuard guard("xnnpack");
    y = add(a, b);
  }
  EXPECT_EQ(staged(), before);  // row-major operands are read in place
  testing::expect_tensor(y, kFloat, {2, 3}, {11, 22, 33, 14, 25, 36});
}

TEST_F(Xnnpack, TransposedOperandsAreReadInPlace) {
  // The output takes the input's transposed layout; ordered by its strides, both are row-major.
  const Tensor a = make(kFloat, {1, 2, 3, 4, 5, 6}, {2, 3});
  const int64_t before = staged();
  Tensor y;
  {
    KernelSetGuard guard("xnnpack");
    y = neg(a.transpose(0, 1));
  }
  EXPECT_EQ(staged(), before);
  testing::expect_tensor(y, kFloat, {3, 2}, {-1, -4, -2, -5, -3, -6});
}

TEST_F(Xnnpack, SteppedInputIsStagedOnce) {
  // Every second element: not row-major in any order, so copied into a contiguous buffer.
  const Tensor x = make(kFloat, {1, 2, 3, 4, 5, 6}).as_strided({3}, {2});
  const int64_t before = staged();
  Tensor y;
  {
    KernelSetGuard guard("xnnpack");
    y = sqrt(x);
  }
  EXPECT_EQ(staged() - before, 1);
  testing::expect_tensor_near(y, kFloat, {3}, {1, std::sqrt(3.0), std::sqrt(5.0)}, 1e-6);
}

TEST_F(Xnnpack, RoundIsHalfToEven) {
  const Tensor x = make(kFloat, {0.5, 1.5, 2.5, -0.5, -1.5, 2.4});
  Tensor y;
  {
    KernelSetGuard guard("xnnpack");
    y = round(x);
  }
  testing::expect_tensor(y, kFloat, {6}, {0, 2, 2, -0.0, -2, 2});
}

TEST_F(Xnnpack, SoftmaxOverTheFirstDim) {
  // softmax({0, log 3}) = {1/4, 3/4}, per column.
  const double l3 = std::log(3.0);
  const Tensor x = make(kFloat, {0, l3, l3, 0}, {2, 2});
  Tensor y;
  {
    KernelSetGuard guard("xnnpack");
    y = softmax(x, 0);
  }
  testing::expect_tensor_near(y, kFloat, {2, 2}, {0.25, 0.75, 0.75, 0.25}, 1e-6);
}

TEST_F(Xnnpack, MmTakesRowAndColumnMajorWeights) {
  const Tensor a = make(kFloat, {1, 2, 3, 4}, {2, 2});
  const Tensor b = make(kFloat, {5, 6, 7, 8}, {2, 2});
  const Tensor bt = make(kFloat, {5, 7, 6, 8}, {2, 2}).transpose(0, 1);  // b, column-major
  const int64_t before = staged();
  Tensor y1, y2;
  {
    KernelSetGuard guard("xnnpack");
    y1 = mm(a, b);
    y2 = mm(a, bt);
  }
  EXPECT_EQ(staged(), before);
  testing::expect_tensor(y1, kFloat, {2, 2}, {19, 22, 43, 50});
  testing::expect_tensor(y2, kFloat, {2, 2}, {19, 22, 43, 50});
}

TEST_F(Xnnpack, TailRowsOfAFreshTensor) {
  // 3 rows of 3: the last 16 bytes of each input sit at its storage's end, so the last two rows
  // are read from a padded copy; every element must still be right.
  Values av, bv, want;
  for (int i = 0; i < 9; ++i) {
    av.push_back(i);
    bv.push_back(100 * i);
    want.push_back(101 * i);
  }
  const Tensor a = make(kFloat, av, {3, 3}), b = make(kFloat, bv, {3, 3});
  Tensor y;
  {
    KernelSetGuard guard("xnnpack");
    y = add(a, b);
  }
  testing::expect_tensor(y, kFloat, {3, 3}, want);
}

TEST_F(Xnnpack, MissingKernelNamesOpDtypeAndSet) {
  const Tensor x = make(kFloat, {1, 2});
  KernelSetGuard guard("xnnpack");
  EXPECT_ERROR(exp(x), "kernel set 'xnnpack' has no kernel");
  EXPECT_ERROR(div(x, x, "floor"), "XNNPACK's divide has no rounding mode");
}

}  // namespace
}  // namespace ts
