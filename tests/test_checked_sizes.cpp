// Size, stride, offset and byte-count arithmetic is checked (Note [Checked geometry]): geometry
// that overflows int64 is a ts::Error naming the op, never a small allocation written past.
#include <gtest/gtest.h>

#include <new>
#include <string>

#include "touchstone/touchstone.h"

// The allocation-failure tests ask for 2^60 bytes; under ASan that must come back as nullptr
// (the library's error) instead of ASan's own abort.
extern "C" const char* __asan_default_options() {
  return "allocator_may_return_null=1";
}

namespace {

using ts::Tensor;
constexpr int64_t k2to62 = int64_t{1} << 62;
constexpr int64_t k2to32 = int64_t{1} << 32;

// Runs `f`, expecting a ts::Error whose message starts with `op` and contains `part`.
template <typename F>
void expect_error(F&& f, const std::string& op, const std::string& part) {
  try {
    f();
    ADD_FAILURE() << "expected a ts::Error from " << op;
  } catch (const ts::Error& e) {
    const std::string msg = e.what();
    EXPECT_EQ(msg.rfind(op + ":", 0), 0u) << msg;
    EXPECT_NE(msg.find(part), std::string::npos) << msg;
  }
}

// An empty tensor whose other dims are huge: the reference's elementwise loop once walked the
// 7 * 8 * 2^40 empty rows before an empty innermost dim (a fuzz finding that never returned).
TEST(CheckedSizes, EmptyWithHugeOuterDimsReturnsAtOnce) {
  for (const char* set : {"reference", "optimized"}) {
    ts::KernelSetGuard g(set);
    const Tensor x = ts::zeros({7, 8, 1, 1}, ts::kChar).expand({7, 8, int64_t{1} << 40, 0});
    const Tensor y = ts::tanh(x);
    EXPECT_EQ(y.numel(), 0) << set;
    EXPECT_EQ(y.size(2), int64_t{1} << 40) << set;
  }
}

TEST(CheckedSizes, EmptyWhoseByteCountOverflowsIsAnError) {
  // numel 2^62 fits int64, but 2^62 * 4 bytes does not: the storage used to be 0 bytes.
  expect_error([] { ts::empty({k2to62}); }, "empty", "Storage size calculation overflowed");
  expect_error([] { ts::empty({k2to62}, ts::kLong); }, "empty", "overflowed");
}

TEST(CheckedSizes, EmptyWhoseNumelOverflowsIsAnError) {
  // 2^32 * 2^32 wraps to numel 0 in int64.
  expect_error([] { ts::empty({k2to32, k2to32}); }, "empty", "sizes=[4294967296, 4294967296]");
  expect_error([] { ts::empty({3, k2to62, 2}); }, "empty", "overflowed");
}

TEST(CheckedSizes, EmptyStridedWhoseLastOffsetOverflowsIsAnError) {
  // Element 1 sits at 2^62 elements = 2^64 bytes: the byte count used to wrap to 0, aliasing it.
  expect_error([] { ts::empty_strided({2}, {k2to62}); }, "empty_strided", "overflowed");
  expect_error([] { ts::empty_strided({k2to62, 2}, {1, k2to62}); }, "empty_strided", "overflowed");
}

TEST(CheckedSizes, EmptyStridedWithinRangeStillWorks) {
  // A stride of 2^20 over 3 elements: the last element sits at 2^21 floats = 8 MiB.
  Tensor t = ts::empty_strided({3}, {int64_t{1} << 20});
  EXPECT_GE(t.storage()->nbytes(), ((size_t{2} << 20) + 1) * 4);
  t.fill_(2.5);
  EXPECT_EQ(t[2].item().to_double(), 2.5);
}

TEST(CheckedSizes, ResizeThatOverflowsIsAnErrorAndLeavesTheTensorAlone) {
  Tensor t = ts::arange(6, ts::kFloat);
  const void* data = t.data_ptr();
  expect_error([&] { t.resize_({k2to62}); }, "resize_", "overflowed");
  expect_error([&] { t.resize_({k2to32, k2to32}); }, "resize_", "overflowed");
  EXPECT_EQ(t.data_ptr(), data);
  EXPECT_EQ(t.sizes(), ts::IntArrayRef({6}));
  EXPECT_EQ(t[5].item().to_double(), 5.0);
}

TEST(CheckedSizes, ResizeOfAnOffsetViewCountsTheOffset) {
  // offset 2^61 - 1 floats plus the new elements cannot be addressed in bytes.
  Tensor base = ts::zeros({4});
  Tensor view = base.as_strided({1}, {1}, 3);
  EXPECT_EQ(view.storage_offset(), 3);
  Tensor grown = view.resize_({5});  // 3 + 5 elements: the storage grows to 32 bytes
  EXPECT_GE(grown.storage()->nbytes(), 32u);
  Tensor far = ts::zeros({1}).as_strided({0}, {1}, 0);
  expect_error([&] { far.resize_({k2to62 - 1}); }, "resize_", "overflowed");
}

TEST(CheckedSizes, FactoriesOverHugeShapesAreErrorsNotCrashes) {
  // These used to segfault: zeros allocated 0 bytes, then filled 2^64 bytes.
  expect_error([] { ts::zeros({k2to62 + 1, 4}); }, "zeros", "overflowed");
  expect_error([] { ts::ones({k2to62}); }, "ones", "overflowed");
  expect_error([] { ts::full({k2to32, k2to32}, 1.0); }, "full", "overflowed");
}

TEST(CheckedSizes, ExpandWhoseNumelOverflowsIsAnError) {
  Tensor one = ts::ones({1, 1});
  expect_error(
      [&] {
        one.expand({int64_t{1} << 40, int64_t{1} << 40});
      },
      "expand", "more than 2^63 - 1 elements");
  // A huge but countable expansion is fine: it shares one element.
  Tensor big = ts::ones({1}).expand({int64_t{1} << 40});
  EXPECT_EQ(big.numel(), int64_t{1} << 40);
  EXPECT_EQ(big.strides()[0], 0);
}

TEST(CheckedSizes, AsStridedBeyondTheStorageIsAnError) {
  Tensor t = ts::zeros({4});
  expect_error([&] { t.as_strided({2}, {k2to62}); }, "as_strided", "out of bounds");
  expect_error(
      [&] {
        t.as_strided({k2to32, k2to32}, {0, 0});
      },
      "as_strided", "more than 2^63 - 1 elements");
  EXPECT_EQ(t.as_strided({2, 2}, {0, 1}).numel(), 4);
}

TEST(CheckedSizes, CatWhoseResultSizeOverflowsIsAnError) {
  Tensor a = ts::ones({1}).expand({k2to62});
  expect_error([&] { ts::cat({a, a, a}); }, "cat", "overflows int64");
}

TEST(AllocationFailure, AHugeButCountableAllocationIsAnErrorNamingTheOp) {
  // 2^60 bytes: the byte count is fine, the allocator says no, before asking the system (Note
  // [Impossible allocations] in storage.cpp: no process has more than 2^48 bytes of addresses).
  expect_error([] { ts::empty({int64_t{1} << 60}, ts::kByte); }, "empty", "out of memory");
  expect_error([] { ts::empty({(int64_t{1} << 48) + 1}, ts::kByte); }, "empty",
               "more than a process's 2^48-byte address space");
  Tensor t = ts::zeros({2});
  expect_error([&] { t.resize_({int64_t{1} << 58}); }, "resize_", "out of memory");
  EXPECT_EQ(t.numel(), 2);
}

void bad_alloc_kernel(const ts::KernelCall&) {
  throw std::bad_alloc();
}

TEST(AllocationFailure, AKernelsBadAllocBecomesATsError) {
  ts::KernelRegistrar m("test_bad_alloc");
  m.impl(ts::OpId::exp, ts::kCPU, {ts::kFloat}, bad_alloc_kernel);
  const Tensor x = ts::ones({3});
  const ts::KernelSetGuard guard("test_bad_alloc");
  expect_error([&] { ts::exp(x); }, "exp",
               "out of memory (std::bad_alloc) in the test_bad_alloc kernel for float32");
}

// A library's own exception, as a plug-in's kernel would let it through.
struct LibraryError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
void foreign_exception_kernel(const ts::KernelCall&) {
  throw LibraryError("could not create a primitive");
}

TEST(AllocationFailure, AKernelsForeignExceptionBecomesATsErrorNamingItsType) {
  ts::KernelRegistrar m("test_foreign");
  m.impl(ts::OpId::exp, ts::kCPU, {ts::kFloat}, foreign_exception_kernel);
  const Tensor x = ts::ones({3});
  const ts::KernelSetGuard guard("test_foreign");
  expect_error([&] { ts::exp(x); }, "exp",
               "the test_foreign kernel for float32 threw (anonymous namespace)::LibraryError: "
               "could not create a primitive");
}

}  // namespace
