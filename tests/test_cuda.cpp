// The CUDA device: errors without a device, transfers, the caching allocator, factories and
// Philox streams against the CPU reference set. Device tests skip when no GPU is visible.
#include <cstring>

#include "test_cuda_util.h"
#include "test_util.h"
#include "touchstone/autograd.h"

using namespace ts::testing;  // NOLINT
using ts::Tensor;

namespace {

// Runs without a device: the count is 0 (not an error) and a CUDA allocation names the call.
TEST(CudaNoDevice, AllocationFailsWithTheCudaCall) {
  if (ts::cuda::device_count() > 0) GTEST_SKIP() << "a CUDA device is visible";
  EXPECT_FALSE(ts::cuda::is_available());
  try {
    (void)ts::empty({4}, ts::TensorOptions(ts::kFloat).device(kCuda));
    FAIL() << "allocating on cuda:0 without a device did not throw";
  } catch (const ts::Error& e) {
    EXPECT_NE(std::string(e.what()).find("CUDA error in "), std::string::npos) << e.what();
  }
}

using CudaDevice = CudaTest;

TEST_F(CudaDevice, RoundTripSmallAndStaged) {
  // 1000 elements go straight; 3M float32 (12 MB) go through the pinned staging buffers in two
  // chunks, the second partial.
  for (int64_t n : {int64_t{1000}, int64_t{3} << 20}) {
    const Tensor host = ts::arange(0, n, 1, ts::kFloat);
    const Tensor dev = to_cuda(host);
    EXPECT_TRUE(dev.is_cuda());
    const Tensor back = to_cpu(dev);
    ASSERT_EQ(back.numel(), n);
    EXPECT_EQ(std::memcmp(back.data_ptr(), host.data_ptr(), host.nbytes()), 0) << n;
  }
}

TEST_F(CudaDevice, CopyConvertsAndLaysOut) {
  // A transposed float64 host tensor into a float16 device tensor, and back into a strided
  // int32 host view: values are small integers, exact in every dtype involved.
  const Tensor host = make(ts::kDouble, {1, 2, 3, 4, 5, 6}, {2, 3}).t();
  const Tensor dev = ts::empty({3, 2}, ts::TensorOptions(ts::kHalf).device(kCuda));
  dev.copy_(host);
  const Tensor out = ts::zeros({2, 3}, ts::kInt).t();
  out.copy_(dev);
  EXPECT_EQ(values(out), (Values{1, 4, 2, 5, 3, 6}));
  // Device -> device with a broadcast source.
  const Tensor row = to_cuda(make(ts::kFloat, {7, 8}));
  const Tensor wide = ts::empty({3, 2}, ts::TensorOptions(ts::kFloat).device(kCuda));
  wide.copy_(row);
  EXPECT_EQ(values(to_cpu(wide)), (Values{7, 8, 7, 8, 7, 8}));
}

TEST_F(CudaDevice, CachingAllocatorReusesBlocks) {
  ts::cuda::empty_cache();
  const auto opts = ts::TensorOptions(ts::kFloat).device(kCuda);
  { Tensor warm = ts::empty({1 << 20}, opts); }
  const auto before = ts::cuda::memory_stats();
  for (int i = 0; i < 100; ++i) {
    Tensor t = ts::empty({1 << 20}, opts);
  }
  const auto after = ts::cuda::memory_stats();
  EXPECT_EQ(after.num_device_mallocs, before.num_device_mallocs);
  EXPECT_EQ(after.num_cache_hits - before.num_cache_hits, 100u);
  EXPECT_EQ(after.allocated_bytes, before.allocated_bytes);
  ts::cuda::empty_cache();
  const auto emptied = ts::cuda::memory_stats();
  EXPECT_EQ(emptied.reserved_bytes, emptied.allocated_bytes);
  EXPECT_GE(emptied.peak_reserved_bytes, size_t{4} << 20);
}

TEST_F(CudaDevice, ErrorsNameTheCall) {
  EXPECT_THROW(ts::cuda::set_device(1000), ts::Error);
  // Integer floor division by zero is an argument error on CUDA too.
  const Tensor a = to_cuda(make(ts::kInt, {1, 2, 3}));
  const Tensor b = to_cuda(make(ts::kInt, {1, 0, 3}));
  try {
    (void)ts::div(a, b, "floor");
    FAIL() << "no error";
  } catch (const ts::Error& e) {
    EXPECT_NE(std::string(e.what()).find("ZeroDivisionError"), std::string::npos) << e.what();
  }
}

// Note [Philox on CUDA]
// The same (seed, offset) gives the same stream on every device: rand and randint bitwise,
// randn to float32 (see Note [CUDA randn] in optimized/cuda/factories.cu).
TEST_F(CudaDevice, PhiloxMatchesTheCpuReference) {
  const ts::IntArrayRef shape = {37, 129};
  for (ts::ScalarType t : {ts::kFloat, ts::kDouble, ts::kHalf, ts::kBFloat16}) {
    ts::manual_seed(1234);
    Tensor cpu, dev;
    {
      ts::KernelSetGuard ref("reference");
      cpu = ts::rand(shape, t);
    }
    ts::manual_seed(1234);
    dev = to_cpu(ts::rand(shape, ts::TensorOptions(t).device(kCuda)));
    EXPECT_EQ(std::memcmp(cpu.data_ptr(), dev.data_ptr(), cpu.nbytes()), 0) << t;
  }
  ts::manual_seed(99);
  Tensor cpu_int, cpu_normal;
  {
    ts::KernelSetGuard ref("reference");
    cpu_int = ts::randint(-5, 1000000007, shape);
    cpu_normal = ts::randn(shape, ts::kFloat);
  }
  ts::manual_seed(99);
  const Tensor dev_int =
      to_cpu(ts::randint(-5, 1000000007, shape, ts::TensorOptions(ts::kLong).device(kCuda)));
  const Tensor dev_normal = to_cpu(ts::randn(shape, ts::TensorOptions(ts::kFloat).device(kCuda)));
  EXPECT_EQ(std::memcmp(cpu_int.data_ptr(), dev_int.data_ptr(), cpu_int.nbytes()), 0);
  EXPECT_EQ(std::memcmp(cpu_normal.data_ptr(), dev_normal.data_ptr(), cpu_normal.nbytes()), 0);
}

TEST_F(CudaDevice, FactoriesMatchHandValues) {
  const auto on = [](ts::ScalarType t) { return ts::TensorOptions(t).device(kCuda); };
  EXPECT_EQ(values(to_cpu(ts::arange(2, 11, 3, on(ts::kLong)))), (Values{2, 5, 8}));
  EXPECT_EQ(values(to_cpu(ts::linspace(0, 1, 5, on(ts::kFloat)))), (Values{0, 0.25, 0.5, 0.75, 1}));
  EXPECT_EQ(values(to_cpu(ts::eye(2, 3, on(ts::kHalf)))), (Values{1, 0, 0, 0, 1, 0}));
  EXPECT_EQ(values(to_cpu(ts::full({3}, 2.5, on(ts::kBFloat16)))), (Values{2.5, 2.5, 2.5}));
}

TEST_F(CudaDevice, AutogradRunsOnDeviceTensors) {
  // d/dx (x * x + 3 x) = 2x + 3, computed by the same formulas on the device.
  const Tensor x = to_cuda(make(ts::kFloat, {1, -2, 0.5})).requires_grad_();
  const Tensor y = ts::add(ts::mul(x, x), x, 3);
  ts::autograd::backward({y}, {ts::ones_like(y)});
  EXPECT_EQ(values(to_cpu(x.grad())), (Values{5, -1, 4}));
}

// Note [Device index at allocation]: a tensor made for `cuda` names the current device.
TEST_F(CudaDevice, TensorsForCudaGetAConcreteIndex) {
  const Tensor t = ts::empty({2}, ts::TensorOptions(ts::kFloat).device(ts::Device("cuda")));
  EXPECT_EQ(t.device().index(), ts::cuda::current_device());
  EXPECT_EQ(t.device(), ts::Device(ts::kCUDA, static_cast<int8_t>(ts::cuda::current_device())));
}

// The next two need a second device.
TEST_F(CudaDevice, AllocationsLandOnTheirDevice) {
  if (ts::cuda::device_count() < 2) GTEST_SKIP() << "needs two visible CUDA devices";
  ts::cuda::DeviceGuard on0(0);
  const size_t before0 = ts::cuda::memory_stats(0).allocated_bytes;
  const size_t before1 = ts::cuda::memory_stats(1).allocated_bytes;
  const Tensor t = ts::empty({1 << 20}, ts::TensorOptions(ts::kFloat).device(ts::Device("cuda:1")));
  EXPECT_EQ(ts::cuda::current_device(), 0);  // the allocation's guard restored it
  EXPECT_GE(ts::cuda::memory_stats(1).allocated_bytes, before1 + (4u << 20));
  EXPECT_EQ(ts::cuda::memory_stats(0).allocated_bytes, before0);
  // A kernel on it runs on device 1 (its DeviceGuard) and gives the right values.
  ts::KernelSetGuard opt("optimized");
  t.fill_(2.5);
  EXPECT_EQ(get(to_cpu(ts::sum(t))), 2.5 * (1 << 20));
}

TEST_F(CudaDevice, CopyBetweenDevicesAndItsBackward) {
  if (ts::cuda::device_count() < 2) GTEST_SKIP() << "needs two visible CUDA devices";
  const ts::Device cuda1("cuda:1");
  const Tensor host = make(ts::kFloat, {1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor src = ts::cuda::to_device(host, cuda1).requires_grad_();
  // Same dtype and contiguous (a peer copy), then transposed and converted.
  const Tensor dst = ts::empty({2, 3}, ts::TensorOptions(ts::kFloat).device(kCuda));
  dst.copy_(src);
  EXPECT_EQ(dst.device(), kCuda);
  EXPECT_EQ(values(to_cpu(dst)), (Values{1, 2, 3, 4, 5, 6}));
  const Tensor dst_t = ts::empty({3, 2}, ts::TensorOptions(ts::kDouble).device(kCuda));
  dst_t.copy_(src.detach().t());
  EXPECT_EQ(values(to_cpu(dst_t)), (Values{1, 4, 2, 5, 3, 6}));
  // The gradient of the copy comes back on cuda:1.
  const Tensor g = to_cuda(make(ts::kFloat, {6, 5, 4, 3, 2, 1}, {2, 3}));
  const std::vector<Tensor> grads = ts::autograd::grad({dst}, {src}, {g});
  EXPECT_EQ(grads[0].device(), cuda1);
  EXPECT_EQ(values(ts::cuda::to_device(grads[0], ts::kCPU)), (Values{6, 5, 4, 3, 2, 1}));
}

}  // namespace
