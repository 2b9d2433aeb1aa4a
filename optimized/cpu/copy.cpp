// Optimized CPU kernels for copy_ (with dtype conversion) and fill_.
#include <cstring>
#include <limits>

#include "optimized/cpu/elementwise.h"
#include "touchstone/dispatch_macros.h"
#include "touchstone/kernel_family.h"
#include "touchstone/parallel.h"

namespace ts::cpu {
namespace {

// One kernel per Kernel op of signature class Copy (Note [Kernel families]).
template <OpId op>
void kernel(const KernelCall& c) = delete;

// One element converted as the reference set does (Note [Conversions round once] there):
// floats to integers truncate toward zero through int64 (NaN and out-of-range give INT64_MIN
// wrapped), anything to bool is v != 0.
template <typename To, typename From>
To convert(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (std::is_same_v<To, bool>) {
    return static_cast<compute_t<From>>(v) != 0;
  } else if constexpr (std::is_integral_v<To> && !std::is_integral_v<From>) {
    const double d = static_cast<double>(static_cast<compute_t<From>>(v));
    const bool in_range = d >= -9223372036854775808.0 && d < 9223372036854775808.0;
    return static_cast<To>(in_range ? static_cast<int64_t>(d)
                                    : std::numeric_limits<int64_t>::min());
  } else if constexpr (is_reduced_v<To>) {
    return To(static_cast<float>(v));
  } else {
    return static_cast<To>(static_cast<compute_t<From>>(v));
  }
}

// Same dtype: bytes move unchanged, through unsigned integers of the element's width.
template <typename U>
void copy_same(const TensorIterator& iter) {
  scalar_loop<U, U, 1>(iter, [](U v) { return v; });
}

template <>
void kernel<OpId::copy_>(const KernelCall& c) {
  const Tensor& dst = c.outputs[0];
  const Tensor& src = c.inputs[0];
  if (dst.dtype() == src.dtype() && dst.is_contiguous() && src.is_contiguous()) {
    char* d = static_cast<char*>(dst.data_ptr());
    const char* s = static_cast<const char*>(src.data_ptr());
    const int64_t n = static_cast<int64_t>(dst.nbytes());
    parallel_for(0, n, int64_t{1} << 20, [&](int64_t b, int64_t e) {
      std::memcpy(d + b, s + b, static_cast<size_t>(e - b));
    });
    return;
  }
  TensorIterator iter =
      TensorIteratorConfig().add_output(dst).add_input(src).check_mem_overlap(false).build();
  if (dst.dtype() == src.dtype()) {
    switch (dst.element_size()) {
      case 1:
        return copy_same<uint8_t>(iter);
      case 2:
        return copy_same<uint16_t>(iter);
      case 4:
        return copy_same<uint32_t>(iter);
      default:
        return copy_same<uint64_t>(iter);
    }
  }
  TS_DISPATCH_ALL_DTYPES(dst.dtype(), "copy_", [&] {
    using To = scalar_t;
    TS_DISPATCH_ALL_DTYPES(src.dtype(), "copy_", [&] {
      scalar_loop<To, scalar_t, 1>(iter, [](scalar_t v) { return convert<To>(v); });
    });
  });
}

template <>
void kernel<OpId::fill_>(const KernelCall& c) {
  const Tensor& self = c.outputs[0];
  const Scalar& value = c.params<ValueParams>().value;
  TS_DISPATCH_ALL_DTYPES(self.dtype(), "fill_", [&] {
    const scalar_t v = value.is_floating_point() ? convert<scalar_t>(value.to_double())
                                                 : convert<scalar_t>(value.to_long());
    if (self.is_contiguous()) {
      scalar_t* p = self.data_ptr<scalar_t>();
      parallel_for(0, self.numel(), 32768,
                   [&](int64_t b, int64_t e) { std::fill(p + b, p + e, v); });
      return;
    }
    TensorIterator iter = TensorIteratorConfig()
                              .add_output(self)
                              .check_mem_overlap(false)
                              .declare_static_shape(self.sizes())
                              .build();
    iter.for_each([&](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
      for (int64_t j = 0; j < n1; ++j) {
        for (int64_t i = 0; i < n0; ++i) {
          *reinterpret_cast<scalar_t*>(data[0] + j * strides[1] + i * strides[0]) = v;
        }
      }
    });
  });
}

}  // namespace

TS_REGISTER_KERNELS(optimized, copy) {
  for_each_kernel_op<OpSignature::Copy>([&](auto op) { m.impl(op, kCPU, kernel<op>); });
}

}  // namespace ts::cpu
