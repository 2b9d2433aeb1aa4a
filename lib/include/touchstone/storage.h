#pragma once
// ts::Storage: a refcounted byte buffer from a device's allocator, shared by views.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>

#include "touchstone/device.h"
#include "touchstone/intrusive_ptr.h"

namespace ts {

// One allocator per device type; CUDA registers its own when it is built.
class Allocator {
 public:
  virtual ~Allocator() = default;
  virtual void* allocate(size_t nbytes) = 0;
  virtual void deallocate(void* p) = 0;
};
void set_allocator(DeviceType type, Allocator* allocator);
Allocator* get_allocator(DeviceType type);  // throws if none is registered

// The CPU allocator's cache of freed large blocks (Note [CPU block cache] in storage.cpp), as
// torch.cuda.memory_stats reports its caching allocator's.
struct CpuCacheStats {
  size_t limit_bytes = 0;   // TOUCHSTONE_CPU_CACHE_MB (0: no cache)
  size_t cached_bytes = 0;  // freed blocks held now
  size_t cached_blocks = 0;
  uint64_t hits = 0;       // allocations served from the cache
  uint64_t misses = 0;     // cacheable allocations that asked the C library
  uint64_t evictions = 0;  // blocks given back to make room for newer ones
};
CpuCacheStats cpu_cache_stats();
inline constexpr size_t kCpuAlignment = 64;

class StorageImpl : public RefCounted {
 public:
  StorageImpl(size_t nbytes, Device device);
  // Wraps memory owned elsewhere; `deleter` (may be empty) runs when the storage dies.
  StorageImpl(void* data, size_t nbytes, Device device, std::function<void(void*)> deleter);
  ~StorageImpl() override;
  void* data() const { return data_; }
  size_t nbytes() const { return nbytes_; }
  Device device() const { return device_; }
  // Note [Version counter]: bumped by every in-place and out= kernel call writing this storage,
  // so every view of it shares one counter; autograd checks saved tensors against it.
  uint32_t version() const { return version_.load(std::memory_order_relaxed); }
  void bump_version() { version_.fetch_add(1, std::memory_order_relaxed); }
  void set_version(uint32_t v) { version_.store(v, std::memory_order_relaxed); }

 private:
  void* data_ = nullptr;
  size_t nbytes_ = 0;
  Device device_;
  Allocator* allocator_ = nullptr;
  std::function<void(void*)> deleter_;
  std::atomic<uint32_t> version_{0};
};

using Storage = intrusive_ptr<StorageImpl>;

}  // namespace ts
