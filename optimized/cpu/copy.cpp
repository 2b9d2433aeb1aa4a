// Optimized CPU kernels for copy_ (with dtype conversion) and fill_; elements convert as
// optimized/cpu/convert.h says, rounding once as the reference set does.
#include <cstring>

#include "optimized/cpu/convert.h"
#include "optimized/cpu/elementwise.h"
#include "touchstone/dispatch_macros.h"
#include "touchstone/kernel_family.h"
#include "touchstone/parallel.h"

namespace ts::cpu {

void copy_convert(const Tensor& dst, const Tensor& src) {
  if (dst.numel() == 0 || dst.is_same(src)) return;
  if (dst.dtype() == src.dtype() && dst.is_contiguous() && src.is_contiguous()) {
    if (dst.data_ptr() == src.data_ptr()) return;
    char* d = static_cast<char*>(dst.data_ptr());
    const char* s = static_cast<const char*>(src.data_ptr());
    parallel_for(
        0, static_cast<int64_t>(dst.nbytes()), int64_t{1} << 20,
        [&](int64_t b, int64_t e) { std::memcpy(d + b, s + b, static_cast<size_t>(e - b)); });
    return;
  }
  TensorIterator iter =
      TensorIteratorConfig().add_output(dst).add_input(src).check_mem_overlap(false).build();
  if (dst.dtype() == src.dtype()) {
    with_element_type(dst.element_size(), [&](auto u) {
      using U = decltype(u);
      scalar_loop<U, U, 1>(iter, [](U v) { return v; });
    });
    return;
  }
  TS_DISPATCH_ALL_DTYPES(dst.dtype(), "copy_", [&] {
    using To = scalar_t;
    TS_DISPATCH_ALL_DTYPES(src.dtype(), "copy_", [&] {
      scalar_loop<To, scalar_t, 1>(iter, [](scalar_t v) { return convert_value<To>(v); });
    });
  });
}

namespace {

// One kernel per Kernel op of signature class Copy (Note [Kernel families]).
template <OpId op>
void kernel(const KernelCall& c) = delete;

template <>
void kernel<OpId::copy_>(const KernelCall& c) {
  copy_convert(c.outputs[0], c.inputs[0]);
}

template <>
void kernel<OpId::fill_>(const KernelCall& c) {
  const Tensor& self = c.outputs[0];
  const Scalar& value = c.params<ValueParams>().value;
  TS_DISPATCH_ALL_DTYPES(self.dtype(), "fill_", [&] {
    const scalar_t v = value.is_floating_point() ? double_to<scalar_t>(value.to_double())
                                                 : int64_to<scalar_t>(value.to_long());
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
