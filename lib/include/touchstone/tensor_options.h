#pragma once
// TensorOptions: dtype and device for factories, as in ATen (`ts::zeros({2}, ts::kInt)`).
#include <optional>

#include "touchstone/device.h"
#include "touchstone/dtype.h"

namespace ts {

class TensorOptions {
 public:
  TensorOptions() = default;
  TensorOptions(ScalarType t) : dtype_(t) {}           // NOLINT(implicit)
  TensorOptions(Device d) : device_(d) {}              // NOLINT(implicit)
  TensorOptions(DeviceType d) : device_(Device(d)) {}  // NOLINT(implicit)
  TensorOptions dtype(ScalarType t) const {
    TensorOptions o = *this;
    o.dtype_ = t;
    return o;
  }
  TensorOptions dtype(std::optional<ScalarType> t) const {
    TensorOptions o = *this;
    o.dtype_ = t;
    return o;
  }
  TensorOptions device(Device d) const {
    TensorOptions o = *this;
    o.device_ = d;
    return o;
  }
  bool has_dtype() const { return dtype_.has_value(); }
  ScalarType dtype() const { return dtype_.value_or(kDefaultDtype); }
  ScalarType dtype_or(ScalarType t) const { return dtype_.value_or(t); }
  // Factories without a device make CPU tensors; the *_like ones keep their input's device
  // unless a device is given (ATen's TensorOptions::has_device).
  bool has_device() const { return device_.has_value(); }
  Device device() const { return device_.value_or(Device(kCPU)); }

 private:
  std::optional<ScalarType> dtype_;
  std::optional<Device> device_;
};

inline TensorOptions dtype(ScalarType t) {
  return TensorOptions(t);
}
inline TensorOptions device(Device d) {
  return TensorOptions(d);
}

}  // namespace ts
