// The CUDA device: errors, device count and selection, guards, the per-thread current stream,
// the forced-64-bit and TF32 switches. See touchstone/cuda.h.
#include <atomic>
#include <cstdlib>
#include <cstring>

#include "touchstone/cuda.h"
#include "touchstone/cuda_check.h"

namespace ts::cuda {

namespace detail {

void throw_cuda_error(cudaError_t err, const char* call, const char* file, int line) {
  // Reset the last-error state so the next check does not report this error again.
  (void)cudaGetLastError();
  const char* base = std::strrchr(file, '/');
  TS_ERROR("CUDA error in ", call, ": ", cudaGetErrorName(err), " (", cudaGetErrorString(err),
           ") at ", base != nullptr ? base + 1 : file, ":", line);
}

}  // namespace detail

// Note [No device is not an error]
// Without a driver or a GPU, cudaGetDeviceCount fails (cudaErrorNoDevice,
// cudaErrorInsufficientDriver); that means zero devices, so tests can skip cleanly.
int device_count() {
  static const int count = [] {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
      (void)cudaGetLastError();
      return 0;
    }
    return n;
  }();
  return count;
}

int current_device() {
  int d = 0;
  TS_CUDA_CHECK(cudaGetDevice(&d));
  return d;
}

void set_device(int index) {
  TS_CHECK(index >= 0 && index < device_count(), "cuda::set_device: device index ", index,
           " is out of range (", device_count(), " visible devices)");
  TS_CUDA_CHECK(cudaSetDevice(index));
}

void synchronize() {
  TS_CUDA_CHECK(cudaDeviceSynchronize());
}

DeviceGuard::DeviceGuard(int index) {
  if (index < 0) return;
  prev_ = current_device();
  if (prev_ != index) {
    set_device(index);
  } else {
    prev_ = -1;
  }
}

DeviceGuard::~DeviceGuard() {
  if (prev_ >= 0) (void)cudaSetDevice(prev_);
}

namespace {
thread_local StreamHandle tls_stream = nullptr;

bool env_flag(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' && std::strcmp(v, "0") != 0;
}

std::atomic<bool>& force_64bit_flag() {
  static std::atomic<bool> flag{env_flag("TOUCHSTONE_CUDA_FORCE_64BIT_INDEX")};
  return flag;
}

std::atomic<bool> tf32_flag{false};
}  // namespace

StreamHandle current_stream() {
  return tls_stream;
}
void set_current_stream(StreamHandle stream) {
  tls_stream = stream;
}
StreamGuard::StreamGuard(StreamHandle stream) : prev_(tls_stream) {
  tls_stream = stream;
}
StreamGuard::~StreamGuard() {
  tls_stream = prev_;
}

void set_force_64bit_indexing(bool on) {
  force_64bit_flag().store(on, std::memory_order_relaxed);
}
bool force_64bit_indexing() {
  return force_64bit_flag().load(std::memory_order_relaxed);
}

void set_allow_tf32(bool on) {
  tf32_flag.store(on, std::memory_order_relaxed);
}
bool allow_tf32() {
  return tf32_flag.load(std::memory_order_relaxed);
}

}  // namespace ts::cuda
