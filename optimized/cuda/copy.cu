// CUDA copy_ (device <-> device with any dtype pair and layout, host <-> device), fill_, the
// elementwise iterator helper and ts::cuda::to_device.
#include <cstring>
#include <mutex>

#include "optimized/cuda/loops.cuh"
#include "touchstone/kernel_family.h"
#include "touchstone/ops.h"

namespace ts::cuda {
namespace {

struct Identity {
  template <typename T>
  __device__ T operator()(T v) const {
    return v;
  }
};

// Any layout, any dtype pair, both on the device (the launcher's paths; the pair is typed).
void copy_on_device(const Tensor& dst, const Tensor& src) {
  if (dst.dtype() == src.dtype() && dst.is_contiguous() && src.is_contiguous()) {
    TS_CUDA_CHECK(cudaMemcpyAsync(dst.data_ptr(), src.data_ptr(), dst.nbytes(),
                                  cudaMemcpyDeviceToDevice, stream()));
    return;
  }
  TensorIterator iter =
      TensorIteratorConfig().add_output(dst).add_input(src).check_mem_overlap(false).build();
  TS_CUDA_DISPATCH_ALL(dst.dtype(), "copy_", [&] {
    using Dst = scalar_t;
    TS_CUDA_DISPATCH_ALL(src.dtype(), "copy_",
                         [&] { gpu_kernel<1, Dst, scalar_t>(iter, Identity{}); });
  });
}

// Note [Pinned staging]
// Copies of at least kStagingMin bytes go through two page-locked buffers used in turn: the
// host memcpy into (or out of) one overlaps the DMA of the other, and the DMA runs at pinned
// bandwidth. An event per buffer says when it is free again. Smaller copies go straight from
// pageable memory (the driver stages them itself).
constexpr size_t kStagingMin = size_t{1} << 20;
constexpr size_t kStagingChunk = size_t{8} << 20;

struct Staging {
  std::mutex mutex;
  void* buf[2] = {nullptr, nullptr};
  cudaEvent_t done[2] = {nullptr, nullptr};
  void ensure() {
    if (buf[0] != nullptr) return;
    for (int i = 0; i < 2; ++i) {
      TS_CUDA_CHECK(cudaHostAlloc(&buf[i], kStagingChunk, cudaHostAllocDefault));
      TS_CUDA_CHECK(cudaEventCreateWithFlags(&done[i], cudaEventDisableTiming));
    }
  }
};

Staging& staging() {
  static auto* s = new Staging;  // never destroyed (process exit frees pinned memory)
  return *s;
}

void memcpy_h2d(void* dst, const void* src, size_t n) {
  if (n < kStagingMin) {
    TS_CUDA_CHECK(cudaMemcpyAsync(dst, src, n, cudaMemcpyHostToDevice, stream()));
    return;
  }
  Staging& s = staging();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.ensure();
  for (size_t off = 0, i = 0; off < n; off += kStagingChunk, ++i) {
    const size_t len = std::min(kStagingChunk, n - off);
    const int b = static_cast<int>(i % 2);
    TS_CUDA_CHECK(cudaEventSynchronize(s.done[b]));
    std::memcpy(s.buf[b], static_cast<const char*>(src) + off, len);
    TS_CUDA_CHECK(cudaMemcpyAsync(static_cast<char*>(dst) + off, s.buf[b], len,
                                  cudaMemcpyHostToDevice, stream()));
    TS_CUDA_CHECK(cudaEventRecord(s.done[b], stream()));
  }
}

void memcpy_d2h(void* dst, const void* src, size_t n) {
  if (n < kStagingMin) {
    TS_CUDA_CHECK(cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToHost, stream()));
    TS_CUDA_CHECK(cudaStreamSynchronize(stream()));
    return;
  }
  Staging& s = staging();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.ensure();
  const size_t chunks = (n + kStagingChunk - 1) / kStagingChunk;
  // Chunk i goes into buffer i % 2; chunk i - 1 is drained while chunk i is in flight.
  auto drain = [&](size_t i) {
    const int b = static_cast<int>(i % 2);
    const size_t off = i * kStagingChunk;
    TS_CUDA_CHECK(cudaEventSynchronize(s.done[b]));
    std::memcpy(static_cast<char*>(dst) + off, s.buf[b], std::min(kStagingChunk, n - off));
  };
  for (size_t i = 0; i < chunks; ++i) {
    const int b = static_cast<int>(i % 2);
    const size_t off = i * kStagingChunk;
    // The buffer's last user may be an earlier call's copy on another stream.
    if (i < 2) TS_CUDA_CHECK(cudaEventSynchronize(s.done[b]));
    TS_CUDA_CHECK(cudaMemcpyAsync(s.buf[b], static_cast<const char*>(src) + off,
                                  std::min(kStagingChunk, n - off), cudaMemcpyDeviceToHost,
                                  stream()));
    TS_CUDA_CHECK(cudaEventRecord(s.done[b], stream()));
    if (i > 0) drain(i - 1);
  }
  drain(chunks - 1);
}

// Host -> device: a contiguous host image of src (in src's dtype) crosses, and a device copy
// converts and lays it out when dst needs another dtype or layout.
void copy_h2d(const Tensor& dst, const Tensor& src) {
  const Tensor host = src.contiguous();
  if (dst.dtype() == host.dtype() && dst.is_contiguous()) {
    memcpy_h2d(dst.data_ptr(), host.data_ptr(), dst.nbytes());
    return;
  }
  const Tensor staged = empty(host.sizes(), host.options().device(dst.device()));
  memcpy_h2d(staged.data_ptr(), host.data_ptr(), staged.nbytes());
  copy_on_device(dst, staged);
}

// Device -> host: converted and made contiguous on the device first, then one transfer, then a
// host copy when dst itself is not contiguous.
void copy_d2h(const Tensor& dst, const Tensor& src) {
  Tensor dev = src;
  if (src.dtype() != dst.dtype() || !src.is_contiguous()) {
    dev = empty(src.sizes(), TensorOptions(dst.dtype()).device(src.device()));
    copy_on_device(dev, src);
  }
  if (dst.is_contiguous()) {
    memcpy_d2h(dst.data_ptr(), dev.data_ptr(), dst.nbytes());
    return;
  }
  const Tensor host = empty(dst.sizes(), dst.dtype());
  memcpy_d2h(host.data_ptr(), dev.data_ptr(), host.nbytes());
  dst.copy_(host);
}

// Note [Copies between devices]
// src is converted and made contiguous on its own device, crosses with cudaMemcpyPeer (which is
// ordered after all work already queued on both devices, so no event is needed), and is laid
// out into dst on dst's device.
void copy_between_devices(const Tensor& dst, const Tensor& src) {
  Tensor packed = src;
  if (src.dtype() != dst.dtype() || !src.is_contiguous()) {
    DeviceGuard src_guard(src.device().index());
    packed = empty(src.sizes(), TensorOptions(dst.dtype()).device(src.device()));
    copy_on_device(packed, src);
  }
  const Tensor landed = dst.is_contiguous() ? dst : empty(dst.sizes(), dst.options());
  TS_CUDA_CHECK(cudaMemcpyPeer(landed.data_ptr(), dst.device().index(), packed.data_ptr(),
                               src.device().index(), landed.nbytes()));
  if (!landed.is_same(dst)) copy_on_device(dst, landed);
}

// One kernel per Kernel op of signature class Copy (Note [Kernel families]).
template <OpId op>
void kernel(const KernelCall& c) = delete;

// Registered for the CUDA device; meta sends every copy_ with a CUDA side here.
template <>
void kernel<OpId::copy_>(const KernelCall& c) {
  const Tensor& dst = c.outputs[0];
  const Tensor& src = c.inputs[0];
  const Tensor& dev = dst.is_cuda() ? dst : src;
  DeviceGuard guard(dev.device().index());
  if (dst.is_cuda() && src.is_cuda() && dst.device() != src.device()) {
    copy_between_devices(dst, src);
  } else if (dst.is_cuda() && src.is_cuda()) {
    copy_on_device(dst, src);
  } else if (dst.is_cuda()) {
    copy_h2d(dst, src);
  } else {
    copy_d2h(dst, src);
  }
}

template <typename T>
struct FillOp {
  T value;
  __device__ T operator()() const { return value; }
};

template <>
void kernel<OpId::fill_>(const KernelCall& c) {
  const Tensor& self = c.outputs[0];
  const Scalar& value = c.params<ValueParams>().value;
  DeviceGuard guard(self.device().index());
  TensorIterator iter = TensorIteratorConfig()
                            .add_output(self)
                            .check_mem_overlap(false)
                            .resize_outputs(false)
                            .build();
  TS_CUDA_DISPATCH_ALL(self.dtype(), "fill_", [&] {
    // The value is converted once on the host (the meta checked that it fits).
    const scalar_t v = value.is_floating_point() ? convert<scalar_t>(value.to_double())
                                                 : convert<scalar_t>(value.to_long());
    gpu_kernel<0, scalar_t, scalar_t>(iter, FillOp<scalar_t>{v});
  });
}

}  // namespace

TensorIterator elementwise_iter(const KernelCall& c, bool cast_output) {
  const Tensor& out = c.outputs[0];
  TensorIteratorConfig config;
  config.add_output(out);
  for (const Tensor& t : c.inputs) {
    // A wrapped Scalar lives on the host; the kernel reads device memory only. The meta has
    // expanded it to the output's shape: its one element crosses, and is expanded again here
    // (the first GPU run spent 17 ms a call copying 16 M copies of it).
    bool one_element = t.numel() > 0;
    for (int64_t d = 0; d < t.dim() && one_element; ++d) {
      one_element = t.size(d) == 1 || t.stride(d) == 0;
    }
    if (t.is_cuda()) {
      config.add_input(t);
    } else if (one_element) {
      config.add_input(
          to_device(t.as_strided({}, {}, t.storage_offset()), out.device()).expand(t.sizes()));
    } else {
      config.add_input(to_device(t, out.device()));
    }
  }
  return config.check_mem_overlap(false)
      .declare_common_dtype(c.p.compute_dtype)
      .cast_common_dtype_to_outputs(cast_output)
      .build();
}

Tensor to_device(const Tensor& t, Device device) {
  TS_CHECK(t.defined(), "cuda::to_device: undefined tensor");
  if (device.is_cuda() && device.index() < 0) {
    device = Device(kCUDA, static_cast<int8_t>(current_device()));
  }
  if (t.device() == device) return t;
  Tensor out = empty(t.sizes(), t.options().device(device));
  out.copy_(t);
  return out;
}

TS_REGISTER_KERNELS(optimized, cuda_copy) {
  for_each_kernel_op<OpSignature::Copy>([&](auto op) { m.impl(op, kCUDA, kernel<op>); });
}

}  // namespace ts::cuda
