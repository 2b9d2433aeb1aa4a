#pragma once
// IntArrayRef (a non-owning view of int64_t, built from braces) and SmallVector (inline storage).
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <iosfwd>
#include <memory>
#include <vector>

namespace ts {

template <typename T>
class ArrayRef {
 public:
  constexpr ArrayRef() = default;
  constexpr ArrayRef(const T& one) : data_(&one), size_(1) {}  // NOLINT(implicit)
  constexpr ArrayRef(const T* data, size_t n) : data_(data), size_(n) {}
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-list-lifetime"
  // Valid for the full-expression, like every braced argument (e.g. `ts::zeros({2, 3})`).
  constexpr ArrayRef(std::initializer_list<T> il)  // NOLINT(implicit)
      : data_(il.begin()), size_(il.size()) {}
#pragma GCC diagnostic pop
  template <size_t N>
  constexpr ArrayRef(const T (&arr)[N]) : data_(arr), size_(N) {}  // NOLINT(implicit)
  template <typename A>
  ArrayRef(const std::vector<T, A>& v) : data_(v.data()), size_(v.size()) {}  // NOLINT(implicit)
  template <typename C, typename = decltype(std::declval<const C&>().data())>
  ArrayRef(const C& c) : data_(c.data()), size_(c.size()) {}  // NOLINT(implicit)

  constexpr const T* data() const {
    return data_;
  }
  constexpr size_t size() const {
    return size_;
  }
  constexpr bool empty() const {
    return size_ == 0;
  }
  constexpr const T* begin() const {
    return data_;
  }
  constexpr const T* end() const {
    return data_ + size_;
  }
  constexpr const T& operator[](size_t i) const {
    return data_[i];
  }
  constexpr const T& back() const {
    return data_[size_ - 1];
  }
  ArrayRef slice(size_t start, size_t n) const {
    return {data_ + start, n};
  }
  ArrayRef slice(size_t start) const {
    return {data_ + start, size_ - start};
  }
  std::vector<T> vec() const {
    return std::vector<T>(begin(), end());
  }
  bool equals(ArrayRef o) const {
    return size_ == o.size_ && std::equal(begin(), end(), o.begin());
  }
  friend bool operator==(ArrayRef a, ArrayRef b) {
    return a.equals(b);
  }

 private:
  const T* data_ = nullptr;
  size_t size_ = 0;
};

using IntArrayRef = ArrayRef<int64_t>;
std::ostream& operator<<(std::ostream& os, IntArrayRef a);  // "[2, 3]"

// A vector with N elements inline; grows onto the heap beyond that.
template <typename T, size_t N>
class SmallVector {
 public:
  SmallVector() = default;
  SmallVector(size_t n, T v = T()) { resize(n, v); }
  SmallVector(std::initializer_list<T> il) { assign(il.begin(), il.end()); }
  SmallVector(ArrayRef<T> a) { assign(a.begin(), a.end()); }  // NOLINT(implicit)
  template <typename It>
  SmallVector(It b, It e) {
    assign(b, e);
  }
  SmallVector(const SmallVector& o) { assign(o.begin(), o.end()); }
  SmallVector& operator=(const SmallVector& o) {
    if (this != &o) assign(o.begin(), o.end());
    return *this;
  }
  ~SmallVector() = default;

  template <typename It>
  void assign(It b, It e) {
    size_ = 0;
    reserve(static_cast<size_t>(std::distance(b, e)));
    for (; b != e; ++b) data()[size_++] = *b;
  }
  void reserve(size_t n) {
    if (n <= capacity()) return;
    auto p = std::make_unique<T[]>(n);
    std::copy(data(), data() + size_, p.get());
    heap_ = std::move(p);
    heap_cap_ = n;
  }
  void resize(size_t n, T v = T()) {
    reserve(n);
    for (size_t i = size_; i < n; ++i) data()[i] = v;
    size_ = n;
  }
  void push_back(T v) {
    if (size_ == capacity()) reserve(std::max<size_t>(2 * capacity(), 1));
    data()[size_++] = v;
  }
  void insert(size_t pos, T v) {
    push_back(v);
    std::rotate(begin() + pos, end() - 1, end());
  }
  void erase(size_t pos) {
    std::copy(begin() + pos + 1, end(), begin() + pos);
    --size_;
  }
  void pop_back() { --size_; }
  void clear() { size_ = 0; }

  T* data() { return heap_ ? heap_.get() : inline_; }
  const T* data() const { return heap_ ? heap_.get() : inline_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return heap_ ? heap_cap_ : N; }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }
  T& operator[](size_t i) { return data()[i]; }
  const T& operator[](size_t i) const { return data()[i]; }
  T& back() { return data()[size_ - 1]; }
  operator ArrayRef<T>() const { return {data(), size_}; }  // NOLINT(implicit)
  friend bool operator==(const SmallVector& a, const SmallVector& b) {
    return ArrayRef<T>(a) == ArrayRef<T>(b);
  }

 private:
  T inline_[N] = {};
  std::unique_ptr<T[]> heap_;
  size_t heap_cap_ = 0;
  size_t size_ = 0;
};

// Sizes and strides stay inline up to six dims (see Note [Inline sizes]).
using DimVector = SmallVector<int64_t, 6>;

}  // namespace ts
