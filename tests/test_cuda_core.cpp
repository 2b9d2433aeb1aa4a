// Core behaviour the CUDA set relies on, checked without a GPU: a stand-in device (host memory
// registered as the CUDA allocator, reference CPU kernels registered for kCUDA in a test kernel
// set) carries tensors for cuda:0 and cuda:1 through copy_ and its backward, and through the
// bounds check of device indices. Built in every configuration; with CUDA built in it needs the
// devices it names (the storage makes them current around each allocation, Note [Device index
// at allocation]).
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

// Every tensor is in host memory, so the reference CPU kernels serve the stand-in device.
template <ts::OpId kOp>
void stand_in(const ts::KernelCall& c) {
  ts::get_kernel(kOp, ts::kCPU, *ts::find_kernel_set("reference")).fn(c);
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
    installed_ = true;
    const ts::KernelSetId set = ts::register_kernel_set("test_stand_in_device");
    const ts::DTypeSet all = ts::DTypeSet::all();
    for (ts::DeviceType d : {ts::kCPU, ts::kCUDA}) {
      ts::register_kernel(set, ts::OpId::copy_, d, all, stand_in<ts::OpId::copy_>);
      ts::register_kernel(set, ts::OpId::fill_, d, all, stand_in<ts::OpId::fill_>);
    }
    ts::register_kernel(set, ts::OpId::amin, ts::kCUDA, all, stand_in<ts::OpId::amin>);
    ts::register_kernel(set, ts::OpId::amax, ts::kCUDA, all, stand_in<ts::OpId::amax>);
    ts::register_kernel(set, ts::OpId::index_select, ts::kCUDA, all,
                        stand_in<ts::OpId::index_select>);
    ts::register_kernel(set, ts::OpId::gather, ts::kCUDA, all, stand_in<ts::OpId::gather>);
    guard_.emplace("test_stand_in_device");
  }
  void TearDown() override {
    guard_.reset();
    if (installed_) ts::set_allocator(ts::kCUDA, prev_);
  }

  HostAllocator allocator_;
  ts::Allocator* prev_ = nullptr;  // none without CUDA built in
  bool installed_ = false;
  std::optional<ts::KernelSetGuard> guard_;
};

const ts::Device kCuda0("cuda:0");
const ts::Device kCuda1("cuda:1");

// The *_like factories keep their input's device when the options name a dtype only (ATen's
// TensorOptions::has_device); a device in the options moves the result there.
TEST_F(StandInDevice, LikeFactoriesKeepTheInputsDevice) {
  EXPECT_FALSE(ts::TensorOptions(ts::kDouble).has_device());
  EXPECT_TRUE(ts::TensorOptions(ts::kDouble).device(kCuda1).has_device());
  const Tensor t = ts::empty({2, 3}, ts::TensorOptions(kFloat).device(kCuda1));
  const Tensor e = ts::empty_like(t, ts::TensorOptions(ts::kDouble));
  EXPECT_EQ(e.device(), kCuda1);
  EXPECT_EQ(e.dtype(), ts::kDouble);
  const Tensor z = ts::zeros_like(t, ts::TensorOptions(ts::kInt));
  EXPECT_EQ(z.device(), kCuda1);
  EXPECT_EQ(z.dtype(), ts::kInt);
  const Tensor h = ts::ones_like(t, ts::TensorOptions(ts::kDouble).device(ts::kCPU));
  EXPECT_TRUE(h.is_cpu());
  EXPECT_TENSOR(h, ts::kDouble, {2, 3}, {1, 1, 1, 1, 1, 1});
}

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

// A tensor on the stand-in device holding v.
Tensor on_device(const Tensor& host, ts::Device d) {
  const Tensor t = ts::empty(host.sizes(), ts::TensorOptions(host.dtype()).device(d));
  t.copy_(host);
  return t;
}

// Note [Index bounds]: a device index is checked through its min and max (amin/amax on the
// device), before anything is written.
TEST_F(StandInDevice, DeviceIndicesAreBoundsChecked) {
  const Tensor self =
      on_device(make(kFloat, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, {4, 3}), kCuda0);
  const Tensor out = on_device(make(kFloat, Values(6, -1.0), {2, 3}), kCuda0);
  for (const auto& [bad, first] :
       std::vector<std::pair<std::vector<int64_t>, std::string>>{{{0, 4}, "4"}, {{-1, 2}, "-1"}}) {
    EXPECT_THROW(
        {
          try {
            ts::index_select_out(out, self, 0, on_device(make_long(bad), kCuda0));
          } catch (const ts::Error& e) {
            EXPECT_EQ(std::string(e.what()), "index_select: index " + first +
                                                 " out of range in self (size 4 at dimension 0)");
            throw;
          }
        },
        ts::Error);
    EXPECT_EQ(values(out), Values(6, -1.0));  // untouched
  }
  ts::index_select_out(out, self, 0, on_device(make_long({3, 0}), kCuda0));
  EXPECT_EQ(values(out), (Values{10, 11, 12, 1, 2, 3}));
  try {
    (void)ts::gather(self, 1, on_device(make_long({0, 1, 3}, {1, 3}), kCuda0));
    FAIL() << "gather accepted index 3 for a dim of size 3";
  } catch (const ts::Error& e) {
    EXPECT_NE(std::string(e.what()).find("gather: index 3 is out of bounds for dimension 1"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
