// Per-target elementwise loops for the optimized CPU kernels (Highway). A kernel file includes
// this after hwy/foreach_target.h, so it is compiled once per SIMD target.
// See Note [Optimized elementwise loops].
#if defined(TS_OPTIMIZED_CPU_LOOPS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef TS_OPTIMIZED_CPU_LOOPS_INL_H_
#undef TS_OPTIMIZED_CPU_LOOPS_INL_H_
#else
#define TS_OPTIMIZED_CPU_LOOPS_INL_H_
#endif

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

#include "hwy/highway.h"
#include "optimized/cpu/elementwise.h"
#include "touchstone/dispatch_macros.h"

HWY_BEFORE_NAMESPACE();
namespace ts::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Note [Optimized elementwise loops]
// The vector kernels only ever see float or double operands that are contiguous, or inputs that
// are one value broadcast (stride 0, loaded once). Everything else is brought to that shape in
// blocks of kBlock elements on the stack: strided operands are gathered, float16/bfloat16 are
// converted to float32 (and the result rounded back once, to nearest even). A 2-D loop whose
// operands disagree on which dim is contiguous (out = a.t() + b) runs in kTile x kTile tiles, so
// both walks stay in cache instead of striding through memory (Note [Transposed tiles]).
inline constexpr int64_t kBlock = 256;
inline constexpr int64_t kTile = 64;

// Note [Float16 and bfloat16 in lanes]
// A contiguous block of float16 or bfloat16 is widened to float32 and narrowed back in lanes, not
// by an out-of-line call per element (about 3 ns each way: float16 add ran 3-8x behind ATen's).
// bfloat16 widens by a shift and narrows as detail::float_to_bf16_bits does (round to nearest
// even; a NaN is made quiet and keeps its payload's high bits). float16 takes the F16C
// instructions of the AVX2 and AVX-512 targets: round to nearest even, the bits of Note [Half
// rounding] with NaN payloads alike. Highway's SSE4 emulation of the narrowing truncates, so
// SSE4, the scalar targets and strided operands convert one element at a time.
template <typename T>
inline constexpr bool kInLanes = std::is_same_v<T, BFloat16>
#if HWY_TARGET <= HWY_AVX2 && !defined(HWY_DISABLE_F16C)
                                 || std::is_same_v<T, Half>
#endif
    ;

// out[i] = float(in[i]) for the m contiguous float16 or bfloat16 values in[i].
template <typename T>
HWY_INLINE void widen_contiguous(const T* HWY_RESTRICT in, int64_t m, float* HWY_RESTRICT out) {
  const hn::ScalableTag<float> df;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
  int64_t i = 0;
  for (; i + lanes <= m; i += lanes) {
    if constexpr (std::is_same_v<T, BFloat16>) {
      const hn::Rebind<uint16_t, decltype(df)> du16;
      const hn::RebindToUnsigned<decltype(df)> du32;
      const auto h = hn::LoadU(du16, reinterpret_cast<const uint16_t*>(in) + i);
      hn::StoreU(hn::BitCast(df, hn::ShiftLeft<16>(hn::PromoteTo(du32, h))), df, out + i);
    } else {
      const hn::Rebind<hwy::float16_t, decltype(df)> dh;
      const auto h = hn::LoadU(dh, reinterpret_cast<const hwy::float16_t*>(in) + i);
      hn::StoreU(hn::PromoteTo(df, h), df, out + i);
    }
  }
  for (; i < m; ++i) out[i] = static_cast<float>(in[i]);
}

// out[i] = T(in[i]) (rounded to nearest even) for m floats into contiguous float16 or bfloat16.
template <typename T>
HWY_INLINE void narrow_contiguous(const float* HWY_RESTRICT in, int64_t m, T* HWY_RESTRICT out) {
  const hn::ScalableTag<float> df;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
  int64_t i = 0;
  for (; i + lanes <= m; i += lanes) {
    const auto v = hn::LoadU(df, in + i);
    if constexpr (std::is_same_v<T, BFloat16>) {
      const hn::Rebind<uint16_t, decltype(df)> du16;
      const hn::RebindToUnsigned<decltype(df)> du32;
      const hn::RebindToSigned<decltype(df)> di32;
      const auto u = hn::BitCast(du32, v);
      const auto high = hn::ShiftRight<16>(u);
      const auto rounded =
          hn::ShiftRight<16>(u + hn::Set(du32, 0x7fff) + (high & hn::Set(du32, 1)));
      const auto nan = hn::BitCast(di32, u & hn::Set(du32, 0x7fffffff)) > hn::Set(di32, 0x7f800000);
      const auto bits =
          hn::IfThenElse(hn::RebindMask(du32, nan), high | hn::Set(du32, 0x40), rounded);
      hn::StoreU(hn::DemoteTo(du16, hn::BitCast(di32, bits)), du16,
                 reinterpret_cast<uint16_t*>(out) + i);
    } else {
      const hn::Rebind<hwy::float16_t, decltype(df)> dh;
      hn::StoreU(hn::DemoteTo(dh, v), dh, reinterpret_cast<hwy::float16_t*>(out) + i);
    }
  }
  for (; i < m; ++i) out[i] = T(in[i]);
}

// Note [Inputs load whole vectors]
// Given IfThenElse(m, LoadU(p), x), GCC folds the load into an AVX-512 masked load (heaviside's
// `values`, clamp's bound). On the EPYC VM a masked load from a 2 MiB page (Note [Huge pages]
// in storage.cpp) whose translation the TLB does not hold took ~20x an ordinary one, and never
// installs it: heaviside of 16M float32 ran 3 ms or 72 ms by what ran before it. An empty asm
// on the loaded register makes the whole-vector load happen first; it emits no instruction.
template <class D>
HWY_INLINE hn::VFromD<D> load_input(D d, const hn::TFromD<D>* HWY_RESTRICT p) {
  auto v = hn::LoadU(d, p);
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3 && (HWY_COMPILER_GCC || HWY_COMPILER_CLANG)
  asm("" : "+v"(v.raw));
#endif
  return v;
}

// A full vector to out: non-temporal when `stream` (Note [Streaming stores]; out aligned).
template <class D, class V, typename C>
HWY_INLINE void store_vec(V v, D d, C* HWY_RESTRICT out, bool stream) {
  if (stream) {
    hn::Stream(v, d, out);
  } else {
    hn::StoreU(v, d, out);
  }
}

// Note [One copy of each formula]
// map_contiguous is where an op's vector formula is expanded, so it stays out of line: inlined,
// every caller (vectorized_loop's rows and tiles, map_row's direct and buffered paths, one set
// per storage dtype) got its own copy of Exp, Log and the rest. Out of line there is one per
// compute type and op: unary.cpp compiled in 120 CPU-s instead of 318, binary.cpp in 45 instead
// of 103 (GCC 12, four targets). The price is one call per row: a transposed 4096^2 add (tiles'
// rows of 64) 12.4 -> 14.3 ms at 2 threads (ATen 55); contiguous and 4-d permuted cases alike.

// out[i] = op(d, in[0][i], ...) over n contiguous elements; bcast[k] marks a stride-0 input.
// With `stream`, the full vectors from out's first vector-aligned element on are streamed (the
// caller fences them: stream_fence).
template <typename C, size_t N, class Op>
HWY_NOINLINE void map_contiguous(C* HWY_RESTRICT out, const C* const* in, const bool* bcast,
                                 int64_t n, const Op& op, bool stream = false) {
  const hn::ScalableTag<C> d;
  const hn::CappedTag<C, 1> d1;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  const auto at = [&](size_t k, int64_t i) { return hn::LoadU(d1, in[k] + (bcast[k] ? 0 : i)); };
  const auto one = [&](int64_t i) {  // element i in one lane
    if constexpr (N == 1) {
      hn::StoreU(op(d1, at(0, i)), d1, out + i);
    } else if constexpr (N == 2) {
      hn::StoreU(op(d1, at(0, i), at(1, i)), d1, out + i);
    } else {
      static_assert(N == 3, "map_contiguous supports 1 to 3 inputs");
      hn::StoreU(op(d1, at(0, i), at(1, i), at(2, i)), d1, out + i);
    }
  };
  int64_t i = 0;
  if (stream) {  // Stream needs an aligned vector: the elements before the first go one by one
    const int64_t head = unaligned_head(out, sizeof(C), static_cast<size_t>(lanes) * sizeof(C), n);
    stream = head < n;
    for (; i < head; ++i) one(i);
  }
  // Note [Loop invariants in locals]
  // The loops read the input pointers and the op from locals: through `in` and `op`, GCC
  // reloaded both pointers and AddOp's alpha from memory for every vector (a store may alias
  // them), then compared alpha with 1 and broadcast it again. sub of 16M float32 on Zen 5, 2
  // threads: x1.07-1.09 ATen's speed -> x1.18-1.22 (interleaved runs).
  const Op o = op;
  const C* HWY_RESTRICT a = in[0];
  if constexpr (N == 1) {
    if (bcast[0]) {
      const auto v = o(d, hn::Set(d, a[0]));
      for (; i + lanes <= n; i += lanes) store_vec(v, d, out + i, stream);
    } else {
      for (; i + lanes <= n; i += lanes) store_vec(o(d, load_input(d, a + i)), d, out + i, stream);
    }
  } else if constexpr (N == 2) {
    const C* HWY_RESTRICT b = in[1];
    if (bcast[0] && !bcast[1]) {
      const auto va = hn::Set(d, a[0]);
      for (; i + lanes <= n; i += lanes) {
        store_vec(o(d, va, load_input(d, b + i)), d, out + i, stream);
      }
    } else if (bcast[1] && !bcast[0]) {
      const auto vb = hn::Set(d, b[0]);
      for (; i + lanes <= n; i += lanes) {
        store_vec(o(d, load_input(d, a + i), vb), d, out + i, stream);
      }
    } else if (!bcast[0] && !bcast[1]) {
      for (; i + lanes <= n; i += lanes) {
        store_vec(o(d, load_input(d, a + i), load_input(d, b + i)), d, out + i, stream);
      }
    }
  } else {
    const C* HWY_RESTRICT b = in[1];
    const C* HWY_RESTRICT c = in[2];
    for (; i + lanes <= n && !bcast[0] && !bcast[1] && !bcast[2]; i += lanes) {
      store_vec(o(d, load_input(d, a + i), load_input(d, b + i), load_input(d, c + i)), d, out + i,
                stream);
    }
  }
  for (; i < n; ++i) one(i);
}

// Note [One loop per dtype]
// The layout logic of vectorized_loop (rows, transposed tiles, map_row's gather and conversion)
// does not depend on the op: it is compiled once per storage dtype and arity, and reaches the
// op's map_contiguous through a function pointer (RowFn), one indirect call per row.
// GCC 12, four targets: unary.cpp compiles in 33 CPU-s instead of 122, binary.cpp 21 instead
// of 51, the seven files that include this one 131 instead of 263; no case measurably slower.
template <typename C, size_t N>
struct RowFn {
  void (*fn)(C* out, const C* const* in, const bool* bcast, int64_t n, const void* op, bool stream);
  const void* op;
  void operator()(C* out, const C* const* in, const bool* bcast, int64_t n,
                  bool stream = false) const {
    fn(out, in, bcast, n, op, stream);
  }
};

template <typename C, size_t N, class Op>
void map_erased(C* out, const C* const* in, const bool* bcast, int64_t n, const void* op,
                bool stream) {
  map_contiguous<C, N>(out, in, bcast, n, *static_cast<const Op*>(op), stream);
}

// One row of n elements of storage type T with byte strides; `row` computes in compute_t<T>.
template <typename T, size_t N>
HWY_INLINE void map_row(char* out, const char* const* in, const int64_t* strides, int64_t n,
                        const RowFn<compute_t<T>, N>& row, bool stream = false) {
  using C = compute_t<T>;
  constexpr int64_t es = sizeof(T);
  bool bcast[N];
  bool direct = std::is_same_v<T, C> && strides[0] == es;
  for (size_t k = 0; k < N; ++k) {
    bcast[k] = strides[k + 1] == 0;
    direct &= bcast[k] || strides[k + 1] == es;
  }
  if (direct) {
    const C* ins[N];
    for (size_t k = 0; k < N; ++k) ins[k] = reinterpret_cast<const C*>(in[k]);
    row(reinterpret_cast<C*>(out), ins, bcast, n, stream);
    return;
  }
  // Gather (and convert) into blocks, compute, scatter (and round) back.
  alignas(64) C buf_in[N][kBlock];
  alignas(64) C buf_out[kBlock];
  const C* ins[N];
  for (int64_t b = 0; b < n; b += kBlock) {
    const int64_t m = std::min(kBlock, n - b);
    for (size_t k = 0; k < N; ++k) {
      const char* p = in[k] + b * strides[k + 1];
      if (bcast[k]) {
        buf_in[k][0] = static_cast<C>(*reinterpret_cast<const T*>(p));
      } else if constexpr (kInLanes<T>) {  // Note [Float16 and bfloat16 in lanes]
        if (strides[k + 1] == es) {
          widen_contiguous(reinterpret_cast<const T*>(p), m, buf_in[k]);
        } else {
          for (int64_t i = 0; i < m; ++i) {
            buf_in[k][i] = static_cast<C>(*reinterpret_cast<const T*>(p + i * strides[k + 1]));
          }
        }
      } else {
        for (int64_t i = 0; i < m; ++i) {
          buf_in[k][i] = static_cast<C>(*reinterpret_cast<const T*>(p + i * strides[k + 1]));
        }
      }
      ins[k] = buf_in[k];
    }
    row(buf_out, ins, bcast, m);
    char* o = out + b * strides[0];
    if constexpr (kInLanes<T>) {
      if (strides[0] == es) {
        narrow_contiguous(buf_out, m, reinterpret_cast<T*>(o));
        continue;
      }
    }
    for (int64_t i = 0; i < m; ++i) *reinterpret_cast<T*>(o + i * strides[0]) = T(buf_out[i]);
  }
}

// True when some operand is contiguous along dim 0 and another along dim 1 (mixed layouts).
template <size_t NT>
HWY_INLINE bool mixed_layout(const int64_t* strides, int64_t es) {
  bool inner = false, outer = false;
  for (size_t k = 0; k < NT; ++k) {
    inner |= strides[k] == es;
    outer |= strides[NT + k] == es && strides[k] != 0 && strides[k] != es;
  }
  return inner && outer;
}

// vectorized_loop's body, for every op of storage type T and arity N (Note [One loop per dtype]).
template <typename T, size_t N>
HWY_NOINLINE void vectorized_rows(const TensorIterator& iter, const RowFn<compute_t<T>, N> row) {
  constexpr size_t NT = N + 1;
  const bool stream = stream_output(iter.numel() * static_cast<int64_t>(sizeof(T)));
  const auto body = [&](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
    const char* in[N];
    if (n1 > 1 && mixed_layout<NT>(strides, sizeof(T))) {
      // Note [Transposed tiles]: an input contiguous along dim 1 is copied tile by tile into
      // a buffer transposed (read along its rows: one page per row, not one per element), so
      // every row of the tile is a contiguous row of the buffer.
      constexpr int64_t es = sizeof(T);
      constexpr int64_t ld = kTile;
      thread_local std::vector<T> buffer(N * ld * kTile);  // too big for the stack with N = 3
      T* tile[N];
      for (size_t k = 0; k < N; ++k) tile[k] = buffer.data() + k * ld * kTile;
      bool transposed[N];
      int64_t row_strides[NT];
      row_strides[0] = strides[0];
      for (size_t k = 0; k < N; ++k) {
        transposed[k] = strides[k + 1] != es && strides[k + 1] != 0 && strides[NT + k + 1] == es;
        row_strides[k + 1] = transposed[k] ? es : strides[k + 1];
      }
      for (int64_t j0 = 0; j0 < n1; j0 += kTile) {
        const int64_t nj = std::min(kTile, n1 - j0);
        for (int64_t i0 = 0; i0 < n0; i0 += kTile) {
          const int64_t ni = std::min(kTile, n0 - i0);
          for (size_t k = 0; k < N; ++k) {
            if (!transposed[k]) continue;
            const char* base = data[k + 1] + j0 * strides[NT + k + 1] + i0 * strides[k + 1];
            // Eight rows at a time: eight read streams, one short contiguous write per column.
            int64_t i = 0;
            for (; i + 8 <= ni; i += 8) {
              const T* src[8];
              for (int r = 0; r < 8; ++r) {
                src[r] = reinterpret_cast<const T*>(base + (i + r) * strides[k + 1]);
              }
              for (int64_t j = 0; j < nj; ++j) {
                T* dst = &tile[k][j * ld + i];
                for (int r = 0; r < 8; ++r) dst[r] = src[r][j];
              }
            }
            for (; i < ni; ++i) {
              const T* src = reinterpret_cast<const T*>(base + i * strides[k + 1]);
              for (int64_t j = 0; j < nj; ++j) tile[k][j * ld + i] = src[j];
            }
          }
          for (int64_t j = 0; j < nj; ++j) {
            for (size_t k = 0; k < N; ++k) {
              in[k] = transposed[k]
                          ? reinterpret_cast<const char*>(&tile[k][j * ld])
                          : data[k + 1] + (j0 + j) * strides[NT + k + 1] + i0 * strides[k + 1];
            }
            map_row<T, N>(data[0] + (j0 + j) * strides[NT] + i0 * strides[0], in, row_strides, ni,
                          row);
          }
        }
      }
      return;
    }
    for (int64_t j = 0; j < n1; ++j) {
      for (size_t k = 0; k < N; ++k) in[k] = data[k + 1] + j * strides[NT + k + 1];
      map_row<T, N>(data[0] + j * strides[NT], in, strides, n0, row, stream);
    }
  };
  for_each_streamed(iter, stream, body);  // Note [One fence per piece]
}

// Runs an elementwise op over a TensorIterator whose operands all have storage type T.
template <typename T, size_t N, class Op>
void vectorized_loop(const TensorIterator& iter, const Op& op) {
  using C = compute_t<T>;
  vectorized_rows<T, N>(iter, RowFn<C, N>{&map_erased<C, N, Op>, &op});
}

// vectorized_loop over an iterator of N inputs whose common dtype is floating.
template <size_t N, class Op>
void floating_loop(const TensorIterator& iter, const Op& op) {
  TS_DISPATCH_FLOATING_TYPES_AND_REDUCED(iter.common_dtype(), "floating_loop",
                                         [&] { vectorized_loop<scalar_t, N>(iter, op); });
}

}  // namespace ts::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // include guard toggle
