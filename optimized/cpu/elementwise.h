#pragma once
// Target-independent helpers of the optimized CPU kernels: compute types, the elementwise
// TensorIterator, and the scalar loop used for integer and bool dtypes.
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "touchstone/dispatch.h"
#include "touchstone/tensor_iterator.h"

namespace ts::cpu {

template <typename T>
inline constexpr bool is_reduced_v = std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;
// float16 and bfloat16 compute in float32.
template <typename T>
using compute_t = std::conditional_t<is_reduced_v<T>, float, T>;

// n copies of the element at `value` (size bytes) from dst, with the widest stores the CPU has
// (Note [Vector fills] in copy.cpp), non-temporal with `stream` (Note [Streaming stores]);
// optimized/cpu/factories.cpp.
void fill_elements(void* dst, int64_t n, const void* value, size_t size, bool stream = false);
// memcpy, or with `stream` non-temporal stores (Note [Streaming stores]); factories.cpp.
void copy_bytes(void* dst, const void* src, int64_t n, bool stream);
// `rows` runs of n bytes, dst's ds bytes apart and src's ss: copy_bytes per row without the
// calls (constant_pad_nd's interior, rows of 512 bytes); factories.cpp.
void copy_byte_rows(char* dst, int64_t ds, const char* src, int64_t ss, int64_t n, int64_t rows);
// n contiguous float64 to float32 (to_float) or float32 to float64, in lanes of the best target;
// the bits of static_cast; with `stream`, non-temporal (Note [Streaming stores]). factories.cpp.
void convert_floats(void* dst, const void* src, int64_t n, bool to_float, bool stream = false);
// n elements of `size` (4 or 8) bytes to contiguous dst from every second one of src (a step-2
// slice), in lanes of the best target; with `stream`, non-temporal. factories.cpp.
void copy_step2(void* dst, const void* src, int64_t n, size_t size, bool stream);

// Note [Streaming stores]
// An output larger than the last-level cache is evicted before anything reads it again, so
// writing it through the caches costs a read of every line before the write (the store misses)
// and the write-back later. Non-temporal stores skip the read: on the 2-vCPU EPYC VM a 2-thread
// float32 copy of 2^27 elements went from 30 to 43 GB/s and an add from 33-45 to 39-41 (a plain
// C++ loop, the same input). The elementwise loops, contiguous same-dtype copies, fills,
// index_select's whole rows and contiguous cat use them when the call's output is at least
// the LLC's size (at most 32 MiB); smaller outputs stay in cache for the next op. The same bits
// either way.
bool stream_output(int64_t bytes);
// How many of n elements of `size` bytes from p come before the first `vector_bytes`-aligned one
// (n when p is not a multiple of `size`: no element is aligned). Streaming stores need aligned
// vectors; the loops store this head one element at a time.
inline int64_t unaligned_head(const void* p, size_t size, size_t vector_bytes, int64_t n) {
  const auto addr = reinterpret_cast<uintptr_t>(p);
  if (addr % size != 0) return n;
  const auto head =
      static_cast<int64_t>((vector_bytes - addr % vector_bytes) % vector_bytes / size);
  return head < n ? head : n;
}
// Orders the streaming stores before what follows (x86: sfence). A loop that streamed calls it
// once per parallel piece, before the pool's completion flag; not per row (it drains the
// write-combining buffers: a fence per 1 KiB row took kron to x0.55).
void stream_fence();
// iter.for_each(body), with the streamed stores fenced once per parallel piece when `stream`
// (Note [One fence per piece] in elementwise.cpp).
void for_each_streamed(const TensorIterator& iter, bool stream, TensorIterator::loop2d_t body);

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

// Note [Small contiguous fast path]
// Building a TensorIterator costs more than the rest of a small call together (~0.7 us). When
// every operand is contiguous, has the compute dtype and the output's numel, and the call is too
// small to be worth a second thread, a kernel may loop over the raw pointers directly. The
// arithmetic must be the one its vector loop does, so results do not depend on the size.
inline constexpr int64_t kSmallContiguousNumel = 4096;

inline bool is_small_contiguous(const KernelCall& c) {
  const Tensor& out = c.outputs[0];
  const int64_t n = out.numel();
  if (n > kSmallContiguousNumel || out.dtype() != c.p.compute_dtype || !out.is_contiguous()) {
    return false;
  }
  for (const Tensor& t : c.inputs) {
    if (t.dtype() != c.p.compute_dtype || !t.is_contiguous() || t.numel() != n) return false;
  }
  return true;
}

// out[i] = f(a[i], b[i]) over the first output and two inputs of a small contiguous call.
template <typename T, class F>
void small_contiguous_binary(const KernelCall& c, const F& f) {
  T* o = c.outputs[0].data_ptr<T>();
  const T* a = c.inputs[0].data_ptr<T>();
  const T* b = c.inputs[1].data_ptr<T>();
  const int64_t n = c.outputs[0].numel();
  for (int64_t i = 0; i < n; ++i) o[i] = f(a[i], b[i]);
}

}  // namespace ts::cpu
