// Storage and the per-device allocator registry.
#include "touchstone/storage.h"

#include <cstdlib>

#include "touchstone/error.h"

namespace ts {
namespace {

class CpuAllocator final : public Allocator {
 public:
  void* allocate(size_t nbytes) override {
    const size_t rounded = (nbytes + kCpuAlignment - 1) / kCpuAlignment * kCpuAlignment;
    void* p = std::aligned_alloc(kCpuAlignment, rounded == 0 ? kCpuAlignment : rounded);
    TS_CHECK(p != nullptr, "CPU allocator: out of memory allocating ", nbytes, " bytes");
    return p;
  }
  void deallocate(void* p) override { std::free(p); }
};

Allocator*& allocator_slot(DeviceType type) {
  static CpuAllocator cpu;
  static Allocator* slots[kNumDeviceTypes] = {&cpu, nullptr};
  return slots[static_cast<int>(type)];
}

}  // namespace

void set_allocator(DeviceType type, Allocator* allocator) {
  allocator_slot(type) = allocator;
}

Allocator* get_allocator(DeviceType type) {
  Allocator* a = allocator_slot(type);
  TS_CHECK(a != nullptr, "no allocator registered for device ", device_type_name(type),
           " (is touchstone built with CUDA and a GPU visible?)");
  return a;
}

StorageImpl::StorageImpl(size_t nbytes, Device device)
    : nbytes_(nbytes), device_(device), allocator_(get_allocator(device.type())) {
  data_ = allocator_->allocate(nbytes);
}

StorageImpl::StorageImpl(void* data, size_t nbytes, Device device,
                         std::function<void(void*)> deleter)
    : data_(data), nbytes_(nbytes), device_(device), deleter_(std::move(deleter)) {}

StorageImpl::~StorageImpl() {
  if (allocator_) {
    allocator_->deallocate(data_);
  } else if (deleter_) {
    deleter_(data_);
  }
}

}  // namespace ts
