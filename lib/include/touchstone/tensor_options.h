#pragma once
// TensorOptions: dtype and device for factories, as in ATen (`ts::zeros({2}, ts::kInt)`).
#include <optional>

#include "touchstone/device.h"
#include "touchstone/dtype.h"

namespace ts {

class TensorOptions {
 public:
  TensorOptions() = default;
  TensorOptions(ScalarType t) : dtype_(t) {}   // NOLINT(implicit)
  TensorOptions(Device d) : device_(d) {}      // NOLINT(implicit)
  TensorOptions(DeviceType d) : device_(d) {}  // NOLINT(implicit)
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
  Device device() const { return device_; }

 private:
  std::optional<ScalarType> dtype_;
  Device device_ = kCPU;
};

inline TensorOptions dtype(ScalarType t) {
  return TensorOptions(t);
}
inline TensorOptions device(Device d) {
  return TensorOptions(d);
}

}  // namespace ts
