#pragma once
// ts::Device: a device type (cpu, cuda) and an index.
#include <cstdint>
#include <iosfwd>
#include <string_view>

namespace ts {

enum class DeviceType : int8_t { CPU = 0, CUDA = 1 };
inline constexpr int kNumDeviceTypes = 2;
inline constexpr DeviceType kCPU = DeviceType::CPU;
inline constexpr DeviceType kCUDA = DeviceType::CUDA;

class Device {
 public:
  Device(DeviceType type, int8_t index = -1) : type_(type), index_(index) {}  // NOLINT(implicit)
  explicit Device(std::string_view spec);  // "cpu", "cuda", "cuda:1"
  DeviceType type() const { return type_; }
  int8_t index() const { return index_; }
  bool is_cpu() const { return type_ == kCPU; }
  bool is_cuda() const { return type_ == kCUDA; }
  friend bool operator==(const Device& a, const Device& b) {
    return a.type_ == b.type_ && (a.index_ == b.index_ || a.type_ == kCPU);
  }

 private:
  DeviceType type_;
  int8_t index_;
};

std::string_view device_type_name(DeviceType t);  // "cpu", "cuda"
std::ostream& operator<<(std::ostream& os, const Device& d);

}  // namespace ts
