// Storage and the per-device allocator registry.
#include "touchstone/storage.h"

#include <sys/mman.h>

#include <cstdlib>
#include <iterator>
#include <list>
#include <map>
#include <mutex>
#include <unordered_map>

#include "touchstone/error.h"
#if defined(TS_HAVE_CUDA)
#include "touchstone/cuda.h"
#include "touchstone/sanitizers.h"
#endif

namespace ts {
namespace {

// Note [CPU block cache]
// malloc maps large blocks fresh from the kernel, so every page of a new 64 MiB output faults
// on first touch: for a softmax of 4096 x 4096 that costs more than the kernel. Freed blocks of
// at least kCacheMin bytes are kept (up to TOUCHSTONE_CPU_CACHE_MB, default 1024; 0 disables)
// and handed out again for the same rounded size. Sanitizer builds never cache, so a
// use-after-free stays visible. kCacheMin is glibc's initial mmap threshold (128 KiB): a GPT-2
// MLP's 768 KiB activations, below the first 1 MiB bound, faulted 4 ms into an 8.5 ms call.
// A full cache gives back its least recently freed blocks to take a new one: it used to refuse
// the new block instead, so once a long run had filled it with old sizes (the 512 MiB blocks of
// the STREAM-sized cases), every later 64 MiB output faulted afresh on every call (diag of
// 4096: 1.1 ms alone, 3.2 in the full run; the 2 MiB pages were not always granted, and with
// 4 KiB pages a 64 MiB first touch takes 200 ms on the EPYC VM).
#if TS_ASAN
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
constexpr size_t kCacheMin = size_t{128} << 10;
constexpr size_t kHugePage = size_t{2} << 20;
constexpr size_t kMaxAllocation = size_t{1} << 48;  // Note [Impossible allocations]

class CpuAllocator final : public Allocator {
 public:
  CpuAllocator() {
    const char* env = std::getenv("TOUCHSTONE_CPU_CACHE_MB");
    const long mb = env != nullptr ? std::atol(env) : 1024;
    limit_ = kSanitized || mb <= 0 ? 0 : static_cast<size_t>(mb) << 20;
  }
  void* allocate(size_t nbytes) override {
    // Note [Impossible allocations]
    // x86-64 and AArch64 give a process at most 2^48 bytes of address space, so a larger request
    // cannot succeed: it is refused before the rounding below (which would wrap near 2^64) and
    // before aligned_alloc, the same way in every build (AddressSanitizer aborts on such a
    // request instead of returning null).
    TS_CHECK(nbytes <= kMaxAllocation, "CPU allocator: out of memory allocating ", nbytes,
             " bytes (more than a process's 2^48-byte address space)");
    size_t rounded = (nbytes + kCpuAlignment - 1) / kCpuAlignment * kCpuAlignment;
    if (rounded == 0) rounded = kCpuAlignment;
    if (limit_ != 0 && rounded >= kCacheMin) {
      const size_t unit = rounded >= kHugePage ? kHugePage : kCacheMin;  // Note [Huge pages]
      rounded = (rounded + unit - 1) / unit * unit;
      std::lock_guard<std::mutex> lock(mutex_);
      auto it = free_.find(rounded);
      void* p = nullptr;
      if (it != free_.end()) {
        p = it->second->p;
        lru_.erase(it->second);
        free_.erase(it);
        cached_ -= rounded;
        ++stats_.hits;
      } else if (rounded >= kHugePage) {
        ++stats_.misses;
        // Note [Huge pages]
        // Blocks of 2 MiB or more are whole 2 MiB pages, aligned, and asked for transparent
        // huge pages (THP in "madvise" mode takes only regions that ask): a random gather over
        // a 25 MiB table missed the TLB on most rows (embedding_bag's prefetches stalled on page
        // walks; 1 thread 334 -> 305 us, ATen on the same tensors 261 -> 242), and a first touch
        // faults once per 2 MiB instead of once per 4 KiB.
        p = fresh(kHugePage, rounded, nbytes);
        madvise(p, rounded, MADV_HUGEPAGE);  // advice: failure leaves ordinary pages
      } else {
        ++stats_.misses;
        p = fresh(kCpuAlignment, rounded, nbytes);
      }
      large_.emplace(p, rounded);
      return p;
    }
    void* p = std::aligned_alloc(kCpuAlignment, rounded);
    TS_CHECK(p != nullptr, "CPU allocator: out of memory allocating ", nbytes, " bytes");
    return p;
  }

  void deallocate(void* p) override {
    if (limit_ != 0) {
      std::lock_guard<std::mutex> lock(mutex_);
      auto it = large_.find(p);
      if (it != large_.end()) {
        const size_t size = it->second;
        large_.erase(it);
        if (size <= limit_) {
          while (cached_ + size > limit_) evict_oldest();
          lru_.push_front(Block{size, p});
          free_.emplace(size, lru_.begin());
          cached_ += size;
          return;
        }
      }
    }
    std::free(p);
  }

  CpuCacheStats stats() {
    std::lock_guard<std::mutex> lock(mutex_);
    CpuCacheStats s = stats_;
    s.limit_bytes = limit_;
    s.cached_bytes = cached_;
    s.cached_blocks = lru_.size();
    return s;
  }

 private:
  struct Block {
    size_t size;
    void* p;
  };
  // A new block from the C library (mutex_ held); when it has none, the cached blocks go back
  // first and it is asked again.
  void* fresh(size_t alignment, size_t size, size_t nbytes) {
    void* p = std::aligned_alloc(alignment, size);
    if (p == nullptr && !lru_.empty()) {
      while (!lru_.empty()) evict_oldest();
      p = std::aligned_alloc(alignment, size);
    }
    TS_CHECK(p != nullptr, "CPU allocator: out of memory allocating ", nbytes, " bytes");
    return p;
  }
  // The least recently freed block back to the C library (mutex_ held, the cache not empty).
  void evict_oldest() {
    const Block b = lru_.back();
    auto [first, last] = free_.equal_range(b.size);
    for (auto it = first; it != last; ++it) {
      if (it->second == std::prev(lru_.end())) {
        free_.erase(it);
        break;
      }
    }
    lru_.pop_back();
    cached_ -= b.size;
    ++stats_.evictions;
    std::free(b.p);
  }

  size_t limit_ = 0;
  std::mutex mutex_;
  std::unordered_map<void*, size_t> large_;  // live large blocks and their rounded sizes
  std::list<Block> lru_;                     // cached blocks, most recently freed first
  std::multimap<size_t, std::list<Block>::iterator> free_;  // the same blocks by size
  size_t cached_ = 0;
  CpuCacheStats stats_;
};

CpuAllocator* cpu_allocator() {
  // Never destroyed: tensors in other statics may free their storage after it would be.
  static CpuAllocator* cpu = new CpuAllocator;
  return cpu;
}

Allocator*& allocator_slot(DeviceType type) {
  static Allocator* slots[kNumDeviceTypes] = {cpu_allocator(), nullptr};
  return slots[static_cast<int>(type)];
}

}  // namespace

void set_allocator(DeviceType type, Allocator* allocator) {
  allocator_slot(type) = allocator;
}

CpuCacheStats cpu_cache_stats() {
  return cpu_allocator()->stats();
}

Allocator* get_allocator(DeviceType type) {
  Allocator* a = allocator_slot(type);
  TS_CHECK(a != nullptr, "no allocator registered for device ", device_type_name(type),
           " (is touchstone built with CUDA and a GPU visible?)");
  return a;
}

// Note [Device index at allocation]
// As in PyTorch, a tensor's device always has an index: storage made for `cuda` takes the
// current device's, and storage for cuda:N is allocated with N current (a DeviceGuard around the
// allocator call, so the Allocator interface keeps no device argument).
namespace {
Device concrete_device(Device device) {
#if defined(TS_HAVE_CUDA)
  if (device.is_cuda() && device.index() < 0) {
    return Device(kCUDA, static_cast<int8_t>(cuda::current_device()));
  }
#endif
  return device;
}
}  // namespace

StorageImpl::StorageImpl(size_t nbytes, Device device)
    : nbytes_(nbytes), device_(concrete_device(device)), allocator_(get_allocator(device.type())) {
#if defined(TS_HAVE_CUDA)
  const cuda::DeviceGuard guard(device_.is_cuda() ? device_.index() : -1);
#endif
  data_ = allocator_->allocate(nbytes);
}

StorageImpl::StorageImpl(void* data, size_t nbytes, Device device,
                         std::function<void(void*)> deleter)
    : data_(data),
      nbytes_(nbytes),
      device_(concrete_device(device)),
      deleter_(std::move(deleter)) {}

StorageImpl::~StorageImpl() {
  if (allocator_) {
    allocator_->deallocate(data_);
  } else if (deleter_) {
    deleter_(data_);
  }
}

}  // namespace ts
