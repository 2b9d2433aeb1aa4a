#pragma once
// The CUDA device: availability, device and stream selection, the caching allocator's controls
// and statistics, host <-> device transfers, and the switches tests and benchmarks use. Only
// present when touchstone is built with CUDA (TS_HAVE_CUDA); no CUDA header is included here.
#include <cstddef>
#include <cstdint>

#include "touchstone/tensor.h"

namespace ts::cuda {

// Number of visible devices; 0 (never an error) when there is no driver or no device.
int device_count();
inline bool is_available() {
  return device_count() > 0;
}
int current_device();
void set_device(int index);
// Waits for all work on the current device.
void synchronize();

// Makes `index` the current device for the guard's lifetime (-1 leaves it unchanged).
class DeviceGuard {
 public:
  explicit DeviceGuard(int index);
  ~DeviceGuard();
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int prev_ = -1;
};

// Streams are cudaStream_t values passed as opaque pointers (nullptr: the legacy default
// stream). The current stream is per thread; every kernel and copy of the CUDA set uses it.
using StreamHandle = void*;
StreamHandle current_stream();
void set_current_stream(StreamHandle stream);
class StreamGuard {
 public:
  explicit StreamGuard(StreamHandle stream);
  ~StreamGuard();
  StreamGuard(const StreamGuard&) = delete;
  StreamGuard& operator=(const StreamGuard&) = delete;

 private:
  StreamHandle prev_;
};

// Note [CUDA caching allocator]
// Freed blocks stay cached in per-(device, stream) free lists keyed by their rounded size and
// are handed out again, so a steady-state loop does no cudaMalloc. empty_cache() returns every
// cached block to the driver.
struct MemoryStats {
  size_t allocated_bytes = 0;       // in live tensors (rounded block sizes)
  size_t reserved_bytes = 0;        // allocated plus cached
  size_t peak_allocated_bytes = 0;  // since the last reset_peak_memory_stats()
  size_t peak_reserved_bytes = 0;
  uint64_t num_allocations = 0;     // allocate() calls
  uint64_t num_cache_hits = 0;      // allocate() calls served from the cache
  uint64_t num_device_mallocs = 0;  // cudaMalloc calls
  uint64_t num_device_frees = 0;    // cudaFree calls
};
MemoryStats memory_stats(int device = -1);  // -1: the current device
void reset_peak_memory_stats(int device = -1);
void empty_cache();

// A copy of `t` on `device` (cpu or cuda:N), same dtype and shape, contiguous. Returns `t`
// itself when it is already there.
Tensor to_device(const Tensor& t, Device device);

// Note [Forced 64-bit indexing]
// Elementwise kernels take 32-bit offset arithmetic (and 16-byte vector accesses) when they
// can; forcing the generic 64-bit path lets tests and benchmarks compare the two. Initially
// TOUCHSTONE_CUDA_FORCE_64BIT_INDEX=1 in the environment, else off.
void set_force_64bit_indexing(bool on);
bool force_64bit_indexing();

// TF32 tensor-core math in float32 matmuls (off by default, so results compare with the
// reference, as torch.backends.cuda.matmul.allow_tf32 = False).
void set_allow_tf32(bool on);
bool allow_tf32();

}  // namespace ts::cuda
