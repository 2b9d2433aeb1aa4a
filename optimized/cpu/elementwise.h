#pragma once
// Target-independent helpers of the optimized CPU kernels: compute types, the elementwise
// TensorIterator, and the scalar loop used for integer and bool dtypes.
#include <type_traits>

#include "touchstone/dispatch.h"
#include "touchstone/tensor_iterator.h"

namespace ts::cpu {

template <typename T>
inline constexpr bool is_reduced_v = std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;
// float16 and bfloat16 compute in float32.
template <typename T>
using compute_t = std::conditional_t<is_reduced_v<T>, float, T>;

// The iterator of an elementwise call: inputs cast to the compute dtype; the output written
// through a temporary (see TensorIterator::cast_outputs) when its dtype differs and
// `cast_output` is set (ops with a bool result keep their bool output).
TensorIterator elementwise_iter(const KernelCall& c, bool cast_output = true);

// out = f(in...) element by element, for types without a vector kernel. Contiguous rows are
// plain indexed loops so the compiler can vectorize them.
template <typename Out, typename In, size_t N, class F>
void scalar_loop(const TensorIterator& iter, const F& f) {
  constexpr size_t NT = N + 1;
  iter.for_each([&](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
    for (int64_t j = 0; j < n1; ++j) {
      char* out = data[0] + j * strides[NT];
      const char* in[N];
      bool contiguous = strides[0] == sizeof(Out);
      for (size_t k = 0; k < N; ++k) {
        in[k] = data[k + 1] + j * strides[NT + k + 1];
        contiguous &= strides[k + 1] == sizeof(In);
      }
      if (contiguous) {
        Out* o = reinterpret_cast<Out*>(out);
        if constexpr (N == 1) {
          const In* a = reinterpret_cast<const In*>(in[0]);
          for (int64_t i = 0; i < n0; ++i) o[i] = f(a[i]);
        } else if constexpr (N == 2) {
          const In* a = reinterpret_cast<const In*>(in[0]);
          const In* b = reinterpret_cast<const In*>(in[1]);
          for (int64_t i = 0; i < n0; ++i) o[i] = f(a[i], b[i]);
        } else {
          const In* a = reinterpret_cast<const In*>(in[0]);
          const In* b = reinterpret_cast<const In*>(in[1]);
          const In* c = reinterpret_cast<const In*>(in[2]);
          for (int64_t i = 0; i < n0; ++i) o[i] = f(a[i], b[i], c[i]);
        }
        continue;
      }
      for (int64_t i = 0; i < n0; ++i) {
        Out* o = reinterpret_cast<Out*>(out + i * strides[0]);
        auto at = [&](size_t k) {
          return *reinterpret_cast<const In*>(in[k] + i * strides[k + 1]);
        };
        if constexpr (N == 1) {
          *o = f(at(0));
        } else if constexpr (N == 2) {
          *o = f(at(0), at(1));
        } else {
          *o = f(at(0), at(1), at(2));
        }
      }
    }
  });
}

}  // namespace ts::cpu
