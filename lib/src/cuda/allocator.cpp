// The CUDA caching allocator (see Note [CUDA caching allocator] in touchstone/cuda.h).
#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "touchstone/cuda.h"
#include "touchstone/cuda_check.h"
#include "touchstone/storage.h"

namespace ts::cuda {
namespace {

// Note [Block sizes]
// Requests round up to 512 bytes below 1 MiB and to 2 MiB above, so that sizes that differ a
// little share a bucket. A cached block serves a request of its bucket or of a bucket up to 2x
// smaller (large blocks only), which bounds the waste; blocks are never split.
constexpr size_t kSmallRound = 512;
constexpr size_t kLargeRound = size_t{2} << 20;
constexpr size_t kSmallLimit = size_t{1} << 20;

size_t round_size(size_t n) {
  if (n == 0) n = 1;
  const size_t r = n < kSmallLimit ? kSmallRound : kLargeRound;
  return (n + r - 1) / r * r;
}

struct Block {
  int device;
  cudaStream_t stream;
  size_t size;
};

// The free list of one (device, stream): blocks by size.
using FreeList = std::multimap<size_t, void*>;

class CudaCachingAllocator final : public Allocator {
 public:
  void* allocate(size_t nbytes) override {
    const size_t size = round_size(nbytes);
    const int device = current_device();
    const auto stream = static_cast<cudaStream_t>(current_stream());
    std::lock_guard<std::mutex> lock(mutex_);
    MemoryStats& s = stats_for(device);
    ++s.num_allocations;
    void* p = take_cached(device, stream, size);
    if (p != nullptr) {
      ++s.num_cache_hits;
    } else {
      p = device_malloc(device, size);
      block_size_[p] = size;  // a fresh block's size is the rounded request
    }
    const size_t block_size = block_size_.at(p);
    live_[p] = Block{device, stream, block_size};
    s.allocated_bytes += block_size;
    s.peak_allocated_bytes = std::max(s.peak_allocated_bytes, s.allocated_bytes);
    return p;
  }

  void deallocate(void* p) override {
    if (p == nullptr) return;
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = live_.find(p);
    TS_INTERNAL_ASSERT(it != live_.end(), "CUDA allocator: freeing an unknown pointer");
    const Block b = it->second;
    live_.erase(it);
    stats_for(b.device).allocated_bytes -= b.size;
    // Stream order makes reuse on the same stream safe without an event (as PyTorch).
    free_[{b.device, b.stream}].emplace(b.size, p);
  }

  void empty_cache() {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& [key, list] : free_) {
      DeviceGuard guard(key.first);
      TS_CUDA_CHECK(cudaDeviceSynchronize());
      for (auto& [size, p] : list) release(key.first, p, size);
      list.clear();
    }
  }

  MemoryStats stats(int device) {
    std::lock_guard<std::mutex> lock(mutex_);
    return stats_for(device);
  }

  void reset_peak(int device) {
    std::lock_guard<std::mutex> lock(mutex_);
    MemoryStats& s = stats_for(device);
    s.peak_allocated_bytes = s.allocated_bytes;
    s.peak_reserved_bytes = s.reserved_bytes;
  }

 private:
  MemoryStats& stats_for(int device) {
    if (static_cast<size_t>(device) >= stats_.size()) stats_.resize(device + 1);
    return stats_[device];
  }

  // A cached block of the (device, stream) list that fits `size` (Note [Block sizes]).
  void* take_cached(int device, cudaStream_t stream, size_t size) {
    auto list = free_.find({device, stream});
    if (list == free_.end()) return nullptr;
    auto it = list->second.lower_bound(size);
    if (it == list->second.end()) return nullptr;
    if (it->first != size && (size < kSmallLimit || it->first > 2 * size)) return nullptr;
    void* p = it->second;
    list->second.erase(it);
    return p;
  }

  void* device_malloc(int device, size_t size) {
    MemoryStats& s = stats_for(device);
    void* p = nullptr;
    cudaError_t err = cudaMalloc(&p, size);
    if (err == cudaErrorMemoryAllocation) {
      // Out of memory: give the cached blocks of this device back and try once more.
      (void)cudaGetLastError();
      release_device_cache(device);
      err = cudaMalloc(&p, size);
    }
    if (err == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();
      TS_ERROR("CUDA out of memory: tried to allocate ", size, " bytes on cuda:", device, " (",
               s.allocated_bytes, " bytes allocated, ", s.reserved_bytes,
               " reserved by touchstone)");
    }
    TS_CUDA_CHECK(err);
    ++s.num_device_mallocs;
    s.reserved_bytes += size;
    s.peak_reserved_bytes = std::max(s.peak_reserved_bytes, s.reserved_bytes);
    return p;
  }

  void release_device_cache(int device) {
    TS_CUDA_CHECK(cudaDeviceSynchronize());
    for (auto& [key, list] : free_) {
      if (key.first != device) continue;
      for (auto& [size, p] : list) release(device, p, size);
      list.clear();
    }
  }

  void release(int device, void* p, size_t size) {
    TS_CUDA_CHECK(cudaFree(p));
    MemoryStats& s = stats_for(device);
    ++s.num_device_frees;
    s.reserved_bytes -= size;
    block_size_.erase(p);
  }

  std::mutex mutex_;
  std::unordered_map<void*, Block> live_;
  std::unordered_map<void*, size_t> block_size_;  // every block we own, live or cached
  std::map<std::pair<int, cudaStream_t>, FreeList> free_;
  std::vector<MemoryStats> stats_;
};

CudaCachingAllocator& allocator() {
  // Never destroyed: tensors in other statics may free their storage after it would be.
  static auto* a = new CudaCachingAllocator;
  return *a;
}

// Registered whenever touchstone is built with CUDA; without a device, allocate() throws the
// CUDA error (see Note [No device is not an error] for the count itself).
const bool registered = [] {
  set_allocator(kCUDA, &allocator());
  return true;
}();

int resolve(int device) {
  return device < 0 ? current_device() : device;
}

}  // namespace

MemoryStats memory_stats(int device) {
  return allocator().stats(resolve(device));
}

void reset_peak_memory_stats(int device) {
  allocator().reset_peak(resolve(device));
}

void empty_cache() {
  allocator().empty_cache();
}

}  // namespace ts::cuda
