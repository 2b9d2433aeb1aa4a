// Optimized CPU kernels for copy_ (with dtype conversion) and fill_; elements convert as
// optimized/cpu/convert.h says, rounding once as the reference set does.
#include <algorithm>
#include <cstring>

#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

#include "optimized/cpu/convert.h"
#include "optimized/cpu/elementwise.h"
#include "touchstone/dispatch_macros.h"
#include "touchstone/kernel_family.h"
#include "touchstone/parallel.h"

namespace ts::cpu {

namespace {

// Note [copy_ loops]
// The iterator orders dims by the destination's strides, so its inner dim is the destination's
// contiguous one when it has one. Each 2-D block then takes the first of: a transposed block
// (source contiguous along the outer dim: tiled, Note [Blocked transpose]); rows of one
// broadcast source element (stride 0: convert once, then fill); contiguous rows (memcpy when
// the dtypes match); a unit-stride destination read with a source stride; the general strided
// loop. Every element is still converted exactly once by convert_value, so the result is the
// same bits as the reference's.

// Note [Blocked transpose]
// A transposed source read along the destination's rows touches one element per cache line,
// and with power-of-two row strides every line of a tile maps to the same L1 set. So each
// kTile x kTile tile is first copied row by row (contiguous source runs) into a local buffer,
// then written out row by row from it (contiguous destination runs): ATen's copy_transpose does
// the same with 60 x 60 blocks for 2-D same-dtype sources.

// Note [Streaming transposed tiles]
// The tiles' 4 x 4 blocks stored through the cache: every destination line was read before it
// was written, from 64 rows 16 KiB apart that no prefetcher follows. Beyond the LLC
// (Note [Streaming stores]) they stream when the rows are 16-byte aligned: 4096^2 float32 at 1
// thread on Zen 5, 24 -> 15 ms standalone (ATen 16-17, which streams nothing).

// Note [Vector fills]
// This file is compiled for the baseline target (SSE2): a fill loop here stores 16 bytes at a
// time, and at -O2 GCC 12 leaves one of unknown length scalar (4 bytes a store). Rows of one
// value therefore go to fill_elements (factories.cpp, Highway's dynamic dispatch: 32-byte
// stores, Note [Fills in 32-byte stores]; memset only for short fills of one repeated byte,
// Note [Fills stay in cache]). fill_ of
// 1M float32, 1 thread: 72.6 -> 42.8 us (ATen 44.8). Fills and contiguous copies of at least
// the LLC's size stream instead (Note [Streaming stores] in elementwise.h).
constexpr int64_t kTile = 64;

template <typename T>
inline constexpr int64_t kSize = static_cast<int64_t>(sizeof(T));

template <typename To, typename From>
inline To cast(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else {
    return convert_value<To>(v);
  }
}

// n copies of v at o (Note [Vector fills]); short rows inline.
template <typename T>
inline void fill_row(T* o, int64_t n, T v, bool stream = false) {
  if (n >= 16) return fill_elements(o, n, &v, sizeof v, stream);
  for (int64_t i = 0; i < n; ++i) o[i] = v;
}

// One row of n elements: dst stride ds, src stride ss, in bytes; `stream`: the call's output is
// at least the LLC's size (Note [Streaming stores]).
template <typename To, typename From>
inline void copy_row(char* d, const char* s, int64_t ds, int64_t ss, int64_t n, bool stream) {
  if (ss == 0) {
    const To v = cast<To>(*reinterpret_cast<const From*>(s));
    if (ds == static_cast<int64_t>(sizeof(To))) {
      fill_row(reinterpret_cast<To*>(d), n, v, stream);
    } else {
      for (int64_t i = 0; i < n; ++i) *reinterpret_cast<To*>(d + i * ds) = v;
    }
    return;
  }
  if (ds == static_cast<int64_t>(sizeof(To))) {
    To* o = reinterpret_cast<To*>(d);
    if (ss == static_cast<int64_t>(sizeof(From))) {
      const From* a = reinterpret_cast<const From*>(s);
      if constexpr (std::is_same_v<To, From>) {
        // A row onto itself (a fully aliased view, allowed upstream): memcpy may not overlap.
        if (static_cast<const void*>(o) != a) copy_bytes(o, a, n * kSize<To>, stream);
      } else if constexpr ((std::is_same_v<To, float> && std::is_same_v<From, double>) ||
                           (std::is_same_v<To, double> && std::is_same_v<From, float>)) {
        convert_floats(o, a, n, std::is_same_v<To, float>, stream);  // the best target's lanes
      } else {
        // Fixed-length blocks: GCC's -O2 cost model vectorizes those (Note [Vector fills]).
        int64_t i = 0;
        for (; i + 16 <= n; i += 16) {
          for (int64_t k = 0; k < 16; ++k) o[i + k] = cast<To>(a[i + k]);
        }
        for (; i < n; ++i) o[i] = cast<To>(a[i]);
      }
      return;
    }
    if constexpr (std::is_same_v<To, From> && (sizeof(To) == 4 || sizeof(To) == 8)) {
      if (ss == 2 * kSize<To>) return copy_step2(o, s, n, sizeof(To), stream);
    }
    for (int64_t i = 0; i < n; ++i) o[i] = cast<To>(*reinterpret_cast<const From*>(s + i * ss));
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    *reinterpret_cast<To*>(d + i * ds) = cast<To>(*reinterpret_cast<const From*>(s + i * ss));
  }
}

// The iterator's 2-D loop (Note [copy_ loops]); strides = {dst0, src0, dst1, src1} in bytes.
template <typename To, typename From>
void copy_2d(char** data, const int64_t* strides, int64_t n0, int64_t n1, bool stream) {
  const int64_t ds0 = strides[0], ss0 = strides[1], ds1 = strides[2], ss1 = strides[3];
  constexpr auto kTo = static_cast<int64_t>(sizeof(To));
  constexpr auto kFrom = static_cast<int64_t>(sizeof(From));
  if (ds0 == kTo && ss1 == kFrom && ss0 != kFrom && ss0 != 0 && n0 >= kTile && n1 >= kTile) {
    From buf[kTile * kTile];
    for (int64_t j0 = 0; j0 < n1; j0 += kTile) {
      const int64_t jn = std::min(kTile, n1 - j0);
      for (int64_t i0 = 0; i0 < n0; i0 += kTile) {
        const int64_t in = std::min(kTile, n0 - i0);
        const char* s = data[1] + j0 * kFrom + i0 * ss0;
        for (int64_t i = 0; i < in; ++i) {
          std::memcpy(buf + i * kTile, s + i * ss0, static_cast<size_t>(jn * kFrom));
        }
        int64_t jv = 0;  // columns done as 4 x 4 blocks
#if defined(__SSE2__)
        if constexpr (kTo == 4 && kFrom == 4 && std::is_same_v<To, From>) {
          // Note [Transposing by 4 x 4 blocks]
          // Reading a column of the tile took one scalar load per element (1 thread, 4096²
          // float32 transposed: 20 ms, ATen 15): four rows of four are transposed in registers
          // and stored as four contiguous runs: 17.8 ms. Bits move unchanged (no arithmetic).
          const auto* f = reinterpret_cast<const float*>(buf);
          // Note [Streaming transposed tiles]
          const bool nt = stream && (reinterpret_cast<uintptr_t>(data[0]) | ds1) % 16 == 0;
          const auto put = [nt](char* at, __m128 v) {
            if (nt) {
              _mm_stream_ps(reinterpret_cast<float*>(at), v);
            } else {
              _mm_storeu_ps(reinterpret_cast<float*>(at), v);
            }
          };
          for (; jv + 4 <= jn; jv += 4) {
            char* o = data[0] + (j0 + jv) * ds1 + i0 * kTo;
            int64_t i = 0;
            for (; i + 4 <= in; i += 4) {
              __m128 r0 = _mm_loadu_ps(f + i * kTile + jv);
              __m128 r1 = _mm_loadu_ps(f + (i + 1) * kTile + jv);
              __m128 r2 = _mm_loadu_ps(f + (i + 2) * kTile + jv);
              __m128 r3 = _mm_loadu_ps(f + (i + 3) * kTile + jv);
              _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
              put(o + i * kTo, r0);
              put(o + ds1 + i * kTo, r1);
              put(o + 2 * ds1 + i * kTo, r2);
              put(o + 3 * ds1 + i * kTo, r3);
            }
            for (; i < in; ++i) {
              for (int64_t k = 0; k < 4; ++k) {
                reinterpret_cast<To*>(o + k * ds1)[i] = buf[i * kTile + jv + k];
              }
            }
          }
        }
#endif
        for (int64_t j = jv; j < jn; ++j) {
          To* o = reinterpret_cast<To*>(data[0] + (j0 + j) * ds1) + i0;
          for (int64_t i = 0; i < in; ++i) o[i] = cast<To>(buf[i * kTile + j]);
        }
      }
    }
    return;
  }
  if (std::is_same_v<To, From> && ds0 == kTo && ss0 == kFrom && !stream) {
    if (data[0] == data[1] && ds1 == ss1) return;  // a view copied onto itself (no memcpy)
    return copy_byte_rows(data[0], ds1, data[1], ss1, n0 * kTo, n1);  // one call for n1 rows
  }
  for (int64_t j = 0; j < n1; ++j)
    copy_row<To, From>(data[0] + j * ds1, data[1] + j * ss1, ds0, ss0, n0, stream);
}

}  // namespace

void copy_convert(const Tensor& dst, const Tensor& src) {
  if (dst.numel() == 0 || dst.is_same(src)) return;
  if (dst.dtype() == src.dtype() && dst.is_contiguous() && src.is_contiguous()) {
    if (dst.data_ptr() == src.data_ptr()) return;
    char* d = static_cast<char*>(dst.data_ptr());
    const char* s = static_cast<const char*>(src.data_ptr());
    const auto n = static_cast<int64_t>(dst.nbytes());
    const bool stream = stream_output(n);  // Note [Streaming stores]
    parallel_for(0, n, int64_t{1} << 20, [&](int64_t b, int64_t e) {
      copy_bytes(d + b, s + b, e - b, stream);
      if (stream) stream_fence();
    });
    return;
  }
  TensorIterator iter =
      TensorIteratorConfig().add_output(dst).add_input(src).check_mem_overlap(false).build();
  // Only a contiguous destination streams: rows of a view (constant_pad_nd's interior) share
  // their first and last lines with elements stored through the cache (Note [Streaming stores]).
  const bool stream = dst.is_contiguous() && stream_output(static_cast<int64_t>(dst.nbytes()));
  if (dst.dtype() == src.dtype()) {
    with_element_type(dst.element_size(), [&](auto u) {
      using U = decltype(u);
      for_each_streamed(iter, stream,
                        [&](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
                          copy_2d<U, U>(data, strides, n0, n1, stream);
                        });
    });
    return;
  }
  TS_DISPATCH_ALL_DTYPES(dst.dtype(), "copy_", [&] {
    using To = scalar_t;
    TS_DISPATCH_ALL_DTYPES(src.dtype(), "copy_", [&] {
      using From = scalar_t;
      for_each_streamed(iter, stream,
                        [&](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
                          copy_2d<To, From>(data, strides, n0, n1, stream);
                        });
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
      const bool stream = stream_output(static_cast<int64_t>(self.nbytes()));
      parallel_for(0, self.numel(), 32768, [&](int64_t b, int64_t e) {
        fill_row(p + b, e - b, v, stream);
        if (stream) stream_fence();
      });
      return;
    }
    TensorIterator iter = TensorIteratorConfig()
                              .add_output(self)
                              .check_mem_overlap(false)
                              .declare_static_shape(self.sizes())
                              .build();
    iter.for_each([&](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
      if (strides[0] == kSize<scalar_t>) {  // rows (constant_pad_nd's border: 7x ATen's time)
        for (int64_t j = 0; j < n1; ++j) {
          fill_row(reinterpret_cast<scalar_t*>(data[0] + j * strides[1]), n0, v);
        }
        return;
      }
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
