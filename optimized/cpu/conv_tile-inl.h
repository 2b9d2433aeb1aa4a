// The register tile of the direct and Winograd float32 convolutions (Note [Direct convolution]
// in conv_direct.cpp): R rows of broadcast values times V vectors. Include after
// hwy/foreach_target.h; compiled once per SIMD target.
#if defined(TS_OPTIMIZED_CPU_CONV_TILE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef TS_OPTIMIZED_CPU_CONV_TILE_INL_H_
#undef TS_OPTIMIZED_CPU_CONV_TILE_INL_H_
#else
#define TS_OPTIMIZED_CPU_CONV_TILE_INL_H_
#endif

#include <algorithm>
#include <cstdint>

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace ts::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using D = hn::ScalableTag<float>;

#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
constexpr int64_t kMaxR = 12;
#else
constexpr int64_t kMaxR = 6;
#endif

// The most positions in a tile of V vectors of channels (V R accumulators, registers to spare).
constexpr int64_t max_positions(int64_t V) {
  return V == 1 ? 2 * kMaxR : kMaxR;
}

// Positions in the next tile of a row with `positions` left: the fewest tiles, balanced, each a
// multiple of 4 (a tile of 4 leaves the multiply-adds too few independent chains: 16 = 8 + 8,
// not 12 + 4).
inline int64_t tile_width(int64_t positions, int64_t most) {
  const int64_t tiles = (positions + most - 1) / most;
  return std::min(most, ((positions + tiles - 1) / tiles + 3) / 4 * 4);
}

// acc (R positions x V vectors) = sum over the kernel rows t (offs[t] into x) and k2 taps of
// broadcast(x[offs[t] + k2 d2 + r S]) * w vectors; stored to buf[r][V lanes].
template <int64_t R, int64_t V, int64_t S>
HWY_NOINLINE void direct_tile(const float* HWY_RESTRICT x, const int64_t* offs, int64_t nt,
                              int64_t k2n, int64_t d2, const float* HWY_RESTRICT w,
                              float* HWY_RESTRICT buf) {
  const D d;
  const int64_t L = static_cast<int64_t>(hn::Lanes(d));
  using Vec = hn::Vec<D>;
  Vec acc[R][V];
#pragma GCC unroll 16
  for (int64_t r = 0; r < R; ++r) {
#pragma GCC unroll 2
    for (int64_t v = 0; v < V; ++v) acc[r][v] = hn::Zero(d);
  }
  for (int64_t t = 0; t < nt; ++t) {
    const float* xr = x + offs[t];
    for (int64_t k2 = 0; k2 < k2n; ++k2, w += V * L) {
      const float* xa = xr + k2 * d2;
      Vec wv[V];
#pragma GCC unroll 2
      for (int64_t v = 0; v < V; ++v) wv[v] = hn::Load(d, w + v * L);
#pragma GCC unroll 16
      for (int64_t r = 0; r < R; ++r) {
        const Vec a = hn::Set(d, xa[r * S]);
#pragma GCC unroll 2
        for (int64_t v = 0; v < V; ++v) acc[r][v] = hn::MulAdd(a, wv[v], acc[r][v]);
      }
    }
  }
  for (int64_t r = 0; r < R; ++r) {
    for (int64_t v = 0; v < V; ++v) hn::Store(acc[r][v], d, buf + (r * V + v) * L);
  }
}

template <int64_t V, int64_t S>
inline void tile_of_width(int64_t width, const float* x, const int64_t* offs, int64_t nt,
                          int64_t k2n, int64_t d2, const float* w, float* buf) {
  constexpr int64_t kMost = max_positions(V);
  switch (width) {
    case 4:
      return direct_tile<4, V, S>(x, offs, nt, k2n, d2, w, buf);
    case 6:
      if constexpr (kMost == 6) return direct_tile<6, V, S>(x, offs, nt, k2n, d2, w, buf);
      break;
    case 8:
      if constexpr (kMost >= 8) return direct_tile<8, V, S>(x, offs, nt, k2n, d2, w, buf);
      break;
    case 12:
      if constexpr (kMost >= 12) return direct_tile<12, V, S>(x, offs, nt, k2n, d2, w, buf);
      break;
    case 16:
      if constexpr (kMost >= 16) return direct_tile<16, V, S>(x, offs, nt, k2n, d2, w, buf);
      break;
    case 20:
      if constexpr (kMost >= 20) return direct_tile<20, V, S>(x, offs, nt, k2n, d2, w, buf);
      break;
    case 24:
      if constexpr (kMost >= 24) return direct_tile<24, V, S>(x, offs, nt, k2n, d2, w, buf);
      break;
    default:
      break;
  }
  HWY_ABORT("conv_direct: no tile of %d positions", static_cast<int>(width));
}

template <int64_t S>
inline void any_tile(int64_t width, int64_t vectors, const float* x, const int64_t* offs,
                     int64_t nt, int64_t k2n, int64_t d2, const float* w, float* buf) {
  if (vectors == 1) return tile_of_width<1, S>(width, x, offs, nt, k2n, d2, w, buf);
  tile_of_width<2, S>(width, x, offs, nt, k2n, d2, w, buf);
}

}  // namespace ts::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // TS_OPTIMIZED_CPU_CONV_TILE_INL_H_
