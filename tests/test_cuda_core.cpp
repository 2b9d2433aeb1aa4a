// Core behaviour the CUDA set relies on, checked without a GPU: a stand-in device (host memory
// registered as the CUDA allocator, the reference copy_ registered for kCUDA in a test kernel
// set) carries tensors for cuda:0 and cuda:1 through copy_ and its backward. Built in every
// configuration; with CUDA built in it needs the devices it names (the storage makes them
// current around each allocation, Note [Device index at allocation]).
#include <cstdlib>

#include "test_util.h"
#include "touchstone/autograd.h"
#if defined(TS_HAVE_CUDA)
#include "touchstone/cuda.h"
#endif

using namespace ts::testing;  // NOLINT
using ts::Tensor;

namespace {

// Host memory in place of device memory; every block it hands out comes back to it.
class HostAllocator final : public ts::Allocator {
 public:
  void* allocate(size_t nbytes) override { return std::malloc(nbytes == 0 ? 1 : nbytes); }
  void deallocate(void* p) override { std::free(p); }
};

// Both sides are host memory, so the reference CPU copy_ serves the stand-in device.
void stand_in_copy(const ts::KernelCall& c) {
  const auto ref = ts::find_kernel_set("reference");
  ts::get_kernel(ts::OpId::copy_, ts::kCPU, *ref).fn(c);
}

// Installs the stand-in for the test's lifetime and restores the real CUDA allocator after.
class StandInDevice : public ::testing::Test {
 protected:
  void SetUp() override {
#if defined(TS_HAVE_CUDA)
    if (ts::cuda::device_count() < 2) GTEST_SKIP() << "needs two visible CUDA devices";
    prev_ = ts::get_allocator(ts::kCUDA);
#endif
    ts::set_allocator(ts::kCUDA, &allocator_);
    const ts::KernelSetId set = ts::register_kernel_set("test_stand_in_device");
    ts::register_kernel(set, ts::OpId::copy_, ts::kCUDA, ts::DTypeSet::all(), stand_in_copy);
    ts::register_kernel(set, ts::OpId::copy_, ts::kCPU, ts::DTypeSet::all(), stand_in_copy);
    guard_.emplace("test_stand_in_device");
  }
  void TearDown() override {
    guard_.reset();
    ts::set_allocator(ts::kCUDA, prev_);
  }

  HostAllocator allocator_;
  ts::Allocator* prev_ = nullptr;
  std::optional<ts::KernelSetGuard> guard_;
};

const ts::Device kCuda0("cuda:0");
const ts::Device kCuda1("cuda:1");

TEST_F(StandInDevice, StorageKeepsAConcreteIndex) {
  const Tensor t = ts::empty({3}, ts::TensorOptions(kFloat).device(kCuda1));
  EXPECT_EQ(t.device().type(), ts::kCUDA);
  EXPECT_EQ(t.device().index(), 1);
}

// copy_'s backward returns the gradient on the source's device (host <-> device and between
// two devices), with the values of the incoming gradient.
TEST_F(StandInDevice, CopyBackwardReturnsGradOnTheSourceDevice) {
  struct Case {
    ts::Device src, dst;
  };
  for (const Case& c : {Case{ts::kCPU, kCuda0}, Case{kCuda1, kCuda0}, Case{kCuda0, ts::kCPU}}) {
    const Tensor src = ts::empty({2, 2}, ts::TensorOptions(kFloat).device(c.src));
    fill_values(src, {1, 2, 3, 4});
    src.requires_grad_();
    const Tensor dst = ts::empty({2, 2}, ts::TensorOptions(kFloat).device(c.dst));
    dst.copy_(src);
    const Tensor g = ts::empty({2, 2}, ts::TensorOptions(kFloat).device(c.dst));
    fill_values(g, {0.5, -1, 2, 8});
    const std::vector<Tensor> grads = ts::autograd::grad({dst}, {src}, {g});
    ASSERT_EQ(grads.size(), 1u);
    EXPECT_EQ(grads[0].device(), c.src) << c.src << " -> " << c.dst;
    EXPECT_EQ(values(grads[0]), (Values{0.5, -1, 2, 8})) << c.src << " -> " << c.dst;
  }
}

}  // namespace
