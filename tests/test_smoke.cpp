// End-to-end smoke test of the core: allocation, dispatch to the reference set, promotion.
#include <gtest/gtest.h>

#include <cstdlib>

#include "test_util.h"
#include "touchstone/sanitizers.h"
#include "touchstone/touchstone.h"

namespace {

using namespace ts::testing;

TEST(Smoke, AddTwoFloatTensors) {
  ts::Tensor a = make(ts::kFloat, {1, 2, 3});
  ts::Tensor b = make(ts::kFloat, {10, 20, 30});
  ts::Tensor c = ts::add(a, b, 2);
  ASSERT_EQ(c.dtype(), ts::kFloat);
  EXPECT_FLOAT_EQ(c.data_ptr<float>()[0], 21);
  EXPECT_FLOAT_EQ(c.data_ptr<float>()[2], 63);
}

TEST(Smoke, AddIntTensorAndFloatScalarPromotesToFloat32) {
  ts::Tensor a = ts::empty({2}, ts::kInt);
  a.data_ptr<int32_t>()[0] = 1;
  a.data_ptr<int32_t>()[1] = 2;
  ts::Tensor c = ts::add(a, 0.5);
  ASSERT_EQ(c.dtype(), ts::kFloat);
  EXPECT_FLOAT_EQ(c.data_ptr<float>()[1], 2.5f);
}

TEST(Smoke, MissingKernelNamesOpDtypeDeviceAndSet) {
  ts::Tensor a = ts::empty({2}, ts::kBool);
  try {
    ts::KernelSetGuard g("reference");
    (void)ts::sub(a, a);
    FAIL();
  } catch (const ts::Error& e) {
    EXPECT_NE(std::string(e.what()).find("Subtraction"), std::string::npos) << e.what();
  }
}

}  // namespace

// Note [CPU block cache] in lib/src/storage.cpp: a freed large block is handed out again.
TEST(Storage, LargeBlocksAreReusedAndSmallOnesAreNot) {
#if TS_ASAN
  GTEST_SKIP() << "sanitizer builds never cache blocks";
#else
  if (std::getenv("TOUCHSTONE_CPU_CACHE_MB") != nullptr) GTEST_SKIP() << "cache configured";
  void* first = nullptr;
  {
    const ts::Tensor t = ts::empty({3 << 20}, ts::kFloat);  // 12 MiB
    first = t.data_ptr();
  }
  const ts::Tensor again = ts::empty({3 << 20}, ts::kFloat);
  EXPECT_EQ(again.data_ptr(), first);
  // A block of another rounded size does not get it.
  const ts::Tensor other = ts::full({5 << 20}, 2.0, ts::kFloat);
  EXPECT_NE(other.data_ptr(), first);
  EXPECT_EQ(other.sum().item<double>(), 2.0 * (5 << 20));
#endif
}
