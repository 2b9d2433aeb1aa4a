#pragma once
// TensorAccessor<T, N>: indexed access to a CPU tensor's elements through its strides.
// PackedTensorAccessor32/64 carry sizes and strides by value (for CUDA kernels).
#include <cstdint>

#include "touchstone/tensor.h"

namespace ts {

// What TensorAccessor<T, N> and its 1-D case share: a pointer and borrowed sizes and strides.
template <typename T, typename index_t>
class TensorAccessorBase {
 public:
  TensorAccessorBase(T* data, const index_t* sizes, const index_t* strides)
      : data_(data), sizes_(sizes), strides_(strides) {}
  index_t size(size_t d) const { return sizes_[d]; }
  index_t stride(size_t d) const { return strides_[d]; }
  T* data() const { return data_; }

 protected:
  T* data_;
  const index_t* sizes_;
  const index_t* strides_;
};

template <typename T, size_t N, typename index_t = int64_t>
class TensorAccessor : public TensorAccessorBase<T, index_t> {
 public:
  using TensorAccessorBase<T, index_t>::TensorAccessorBase;
  TensorAccessor<T, N - 1, index_t> operator[](index_t i) const {
    return {this->data_ + i * this->strides_[0], this->sizes_ + 1, this->strides_ + 1};
  }
};

template <typename T, typename index_t>
class TensorAccessor<T, 1, index_t> : public TensorAccessorBase<T, index_t> {
 public:
  using TensorAccessorBase<T, index_t>::TensorAccessorBase;
  T& operator[](index_t i) const { return this->data_[i * this->strides_[0]]; }
};

template <typename T, size_t N>
TensorAccessor<T, N> accessor(const Tensor& t) {
  TS_CHECK(t.dim() == static_cast<int64_t>(N), "accessor: expected ", N, " dims but tensor has ",
           t.dim());
  return {t.data_ptr<T>(), t.sizes().data(), t.strides().data()};
}

// Owns its sizes and strides, so it can be copied to a device by value.
template <typename T, size_t N, typename index_t>
class PackedTensorAccessor {
 public:
  PackedTensorAccessor(T* data, IntArrayRef sizes, IntArrayRef strides) : data_(data) {
    for (size_t d = 0; d < N; ++d) {
      sizes_[d] = static_cast<index_t>(sizes[d]);
      strides_[d] = static_cast<index_t>(strides[d]);
    }
  }
  TensorAccessor<T, N - 1, index_t> operator[](index_t i) const {
    return {data_ + i * strides_[0], sizes_ + 1, strides_ + 1};
  }
  index_t size(size_t d) const { return sizes_[d]; }
  index_t stride(size_t d) const { return strides_[d]; }
  T* data() const { return data_; }

 private:
  T* data_;
  index_t sizes_[N];
  index_t strides_[N];
};

template <typename T, size_t N>
using PackedTensorAccessor32 = PackedTensorAccessor<T, N, int32_t>;
template <typename T, size_t N>
using PackedTensorAccessor64 = PackedTensorAccessor<T, N, int64_t>;

template <typename T, size_t N, typename index_t>
PackedTensorAccessor<T, N, index_t> packed_accessor(const Tensor& t) {
  TS_CHECK(t.dim() == static_cast<int64_t>(N), "packed_accessor: expected ", N,
           " dims but tensor has ", t.dim());
  if constexpr (sizeof(index_t) < 8) {
    int64_t max_offset = 0;
    for (int64_t d = 0; d < t.dim(); ++d) max_offset += (t.size(d) - 1) * t.stride(d);
    TS_CHECK(t.numel() <= INT32_MAX && max_offset <= INT32_MAX,
             "packed_accessor32: tensor is too large for 32-bit indexing");
  }
  return {t.data_ptr<T>(), t.sizes(), t.strides()};
}
template <typename T, size_t N>
PackedTensorAccessor32<T, N> packed_accessor32(const Tensor& t) {
  return packed_accessor<T, N, int32_t>(t);
}
template <typename T, size_t N>
PackedTensorAccessor64<T, N> packed_accessor64(const Tensor& t) {
  return packed_accessor<T, N, int64_t>(t);
}

}  // namespace ts
