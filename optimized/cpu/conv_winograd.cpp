// Winograd float32 convolution F(2x2, 3x3) (Note [Winograd convolution]), compiled per SIMD
// target.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "optimized/cpu/conv_winograd.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
// Must come after foreach_target.h.
#include <algorithm>
#include <cstring>
#include <vector>

#include "hwy/highway.h"
#include "optimized/cpu/conv_direct.h"
#include "optimized/cpu/conv_tile-inl.h"
#include "optimized/cpu/gemm.h"
#include "touchstone/environment.h"
#include "touchstone/parallel.h"

HWY_BEFORE_NAMESPACE();
namespace ts::cpu::HWY_NAMESPACE {
namespace {

// Note [Winograd convolution]
// A 3x3 stride-1 convolution computes a 2x2 output tile from a 4x4 input tile d as
// Y = A^T [(G g G^T) . (B^T d B)] A (Lavin and Gray, "Fast Algorithms for Convolutional Neural
// Networks", 2015: F(2x2, 3x3), interpolation points 0, 1, -1 and infinity). Summed over input
// channels, the elementwise product becomes 16 independent matrix products, one per position xi
// of the transformed tile: M[xi] (c_out x tiles) = U[xi] (c_out x c_in) V[xi] (c_in x tiles),
// 16 multiply-adds per channel pair and 4 outputs where the direct kernel takes 36 (2.25x fewer).
// Per chunk of 2 L tiles (L lanes; a chunk spans tile rows and images), one thread transforms
// the input (vectors across the tiles of a row: LoadInterleaved2 gives columns 2t and 2t + 1),
// runs the 16 products with the direct kernel's register tile (weights broadcast, tiles as
// vectors) and transforms back (StoreInterleaved2 to the rows). U is G g G^T in double, rounded
// once. Measured on tests/test_conv.cpp's shapes, the error relative to sum |x| |w| per output:
// direct 3.3 u (u = 2^-24), F(2x2, 3x3) 5.5 u, F(4x4, 3x3) 28 u. F(4x4) does 4x fewer products
// (ResNet's 3x3 64 -> 64, 1 thread: 10.4 ms, F(2x2) 11.3, direct 17.5), but 28 u is conformance's
// whole tolerance for typical outputs (1.3e-6 sqrt(n) |y|, about 22 u n E|x w|).
constexpr int64_t kTile = 2, kIn = 4, kXi = kIn * kIn;

using Vec = hn::Vec<D>;

// y = B^T x for the 4 inputs of one line of a tile.
HWY_INLINE void input_line(const Vec x[kIn], Vec y[kIn]) {
  y[0] = hn::Sub(x[0], x[2]);
  y[1] = hn::Add(x[1], x[2]);
  y[2] = hn::Sub(x[2], x[1]);
  y[3] = hn::Sub(x[1], x[3]);
}

// y = A^T x for the 4 products of one line of a tile.
HWY_INLINE void output_line(const Vec x[kIn], Vec y[kTile]) {
  y[0] = hn::Add(hn::Add(x[0], x[1]), x[2]);
  y[1] = hn::Sub(hn::Sub(x[1], x[2]), x[3]);
}

// Consecutive tiles of one tile row: `count` (<= L) from column tile `t0`, at `pos` in a chunk.
struct Segment {
  int64_t image, row, t0, count, pos;
};

// The geometry shared by the three steps.
struct Plan {
  int64_t L, chunk;            // lanes; tiles per chunk (2 L)
  int64_t th, tw;              // tile rows and columns per image
  int64_t ph, pw;              // the padded input plane: 2 th + 2 rows, 2 tw + 2 columns
  int64_t cp;                  // c_out rounded up to 4 (the register tile's rows)
  int64_t v_stride, m_stride;  // floats per xi in V (c_in x chunk) and M (cp x chunk), + slack
};

// V[xi][c][pos + lane] = (B^T d B)[xi] of each tile of each segment, channel c.
void transform_input(const DirectConv& c, const Plan& p, const float* xp,
                     const std::vector<Segment>& segs, float* v) {
  const D d;
  for (int64_t ch = 0; ch < c.c_in; ++ch) {
    for (const Segment& s : segs) {
      const float* plane = xp + (s.image * c.c_in + ch) * p.ph * p.pw;
      Vec rows[kIn][kIn], t[kIn][kIn];
#pragma GCC unroll 8
      for (int64_t i = 0; i < kIn; ++i) {
        const float* src = plane + (s.row * kTile + i) * p.pw + s.t0 * kTile;
        Vec* r = rows[i];
        hn::LoadInterleaved2(d, src, r[0], r[1]);
        hn::LoadInterleaved2(d, src + kTile, r[2], r[3]);
      }
#pragma GCC unroll 8
      for (int64_t j = 0; j < kIn; ++j) {
        Vec col[kIn], out[kIn];
#pragma GCC unroll 8
        for (int64_t i = 0; i < kIn; ++i) col[i] = rows[i][j];
        input_line(col, out);
#pragma GCC unroll 8
        for (int64_t i = 0; i < kIn; ++i) t[i][j] = out[i];
      }
      float* dst = v + ch * p.chunk + s.pos;
#pragma GCC unroll 8
      for (int64_t i = 0; i < kIn; ++i) {
        Vec out[kIn];
        input_line(t[i], out);
// Lanes past the segment land where the next segment or channel writes, or in slack.
#pragma GCC unroll 8
        for (int64_t j = 0; j < kIn; ++j) hn::StoreU(out[j], d, dst + (i * kIn + j) * p.v_stride);
      }
    }
  }
}

// M[xi] (cp x chunk) = U[xi] (c_in x cp, broadcast) times V[xi] (c_in x chunk, vectors).
void multiply(const DirectConv& c, const Plan& p, const float* u, const int64_t* offs,
              const float* v, float* m) {
  // Rows of 4, 8 or 12 channels: cp is a multiple of 4.
  constexpr int64_t kMost = max_positions(2) / 4 * 4;
  for (int64_t xi = 0; xi < kXi; ++xi) {
    for (int64_t o0 = 0; o0 < p.cp;) {
      const int64_t rows = std::min(kMost, p.cp - o0);
      tile_of_width<2, 1>(rows, u + xi * c.c_in * p.cp + o0, offs, c.c_in, 1, 0,
                          v + xi * p.v_stride, m + xi * p.m_stride + o0 * p.chunk);
      o0 += rows;
    }
  }
}

// y's 2x2 tiles = A^T M A + bias, per output channel and segment.
void transform_output(const DirectConv& c, const Plan& p, const float* m,
                      const std::vector<Segment>& segs) {
  const D d;
  const int64_t L = p.L, oh = c.out[1], ow = c.out[2];
  HWY_ALIGN float tmp[kTile * HWY_MAX_BYTES / sizeof(float)];
  for (int64_t o = 0; o < c.c_out; ++o) {
    const Vec bias = hn::Set(d, c.bias != nullptr ? c.bias[o] : 0.0f);
    for (const Segment& s : segs) {
      const float* src = m + o * p.chunk + s.pos;
      Vec t[kTile][kIn];
#pragma GCC unroll 8
      for (int64_t j = 0; j < kIn; ++j) {
        Vec col[kIn], out[kTile];
#pragma GCC unroll 8
        for (int64_t i = 0; i < kIn; ++i) col[i] = hn::LoadU(d, src + (i * kIn + j) * p.m_stride);
        output_line(col, out);
#pragma GCC unroll 8
        for (int64_t i = 0; i < kTile; ++i) t[i][j] = out[i];
      }
      float* plane = c.y + (s.image * c.c_out + o) * oh * ow;
      const int64_t x0 = s.t0 * kTile, width = std::min(s.count * kTile, ow - x0);
      for (int64_t i = 0; i < kTile && s.row * kTile + i < oh; ++i) {
        Vec y[kTile];
        output_line(t[i], y);
#pragma GCC unroll 8
        for (Vec& yj : y) yj = hn::Add(yj, bias);
        float* dst = plane + (s.row * kTile + i) * ow + x0;
        if (width == kTile * L) {
          hn::StoreInterleaved2(y[0], y[1], d, dst);
        } else {
          hn::StoreInterleaved2(y[0], y[1], d, tmp);
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2
          // Masked stores (not read-modify-write: another thread may own the next columns).
          hn::BlendedStore(hn::Load(d, tmp), hn::FirstN(d, static_cast<size_t>(width)), d, dst);
          if (width > L) {
            hn::BlendedStore(hn::Load(d, tmp + L), hn::FirstN(d, static_cast<size_t>(width - L)), d,
                             dst + L);
          }
#else
          std::memcpy(dst, tmp, static_cast<size_t>(width) * sizeof(float));
#endif
        }
      }
    }
  }
}

// U[xi][c][o] = (G g G^T)[xi] of w[o][c], in double; zero for o >= c_out.
void transform_weights(const DirectConv& c, const Plan& p, float* u) {
  static constexpr double G[kIn][3] = {{1, 0, 0}, {0.5, 0.5, 0.5}, {0.5, -0.5, 0.5}, {0, 0, 1}};
  parallel_for(0, c.c_in, 1, [&](int64_t c0, int64_t c1) {
    for (int64_t ch = c0; ch < c1; ++ch) {
      for (int64_t o = 0; o < p.cp; ++o) {
        double gg[kIn][3] = {};  // G g
        if (o < c.c_out) {
          const float* g = c.w + (o * c.c_in + ch) * 9;
#pragma GCC unroll 8
          for (int64_t i = 0; i < kIn; ++i) {
            for (int64_t k = 0; k < 3; ++k) {
              gg[i][k] = G[i][0] * g[k] + G[i][1] * g[3 + k] + G[i][2] * g[6 + k];
            }
          }
        }
#pragma GCC unroll 8
        for (int64_t i = 0; i < kIn; ++i) {
#pragma GCC unroll 8
          for (int64_t j = 0; j < kIn; ++j) {
            const double val = gg[i][0] * G[j][0] + gg[i][1] * G[j][1] + gg[i][2] * G[j][2];
            u[((i * kIn + j) * c.c_in + ch) * p.cp + o] = static_cast<float>(val);
          }
        }
      }
    }
  });
}

void run(const DirectConv& c) {
  const D d;
  Plan p;
  p.L = static_cast<int64_t>(hn::Lanes(d));
  p.chunk = 2 * p.L;
  p.th = (c.out[1] + kTile - 1) / kTile, p.tw = (c.out[2] + kTile - 1) / kTile;
  p.ph = p.th * kTile + 2, p.pw = p.tw * kTile + 2;
  p.cp = (c.c_out + 3) / 4 * 4;
  p.v_stride = c.c_in * p.chunk + p.L, p.m_stride = p.cp * p.chunk + p.L;
  const int64_t plane = p.ph * p.pw, tiles = c.n * p.th * p.tw;
  // The last segment's interleaved loads read 2 L + 2 floats past its first column.
  const int64_t slack = kTile * (p.L + 2);

  // The input with its padding explicit and zeros past the last tile (a partial tile reads
  // them), in the calling thread's buffer (Note [Direct convolution]).
  float* const xp =
      thread_buffer(kBufferConvInput, static_cast<size_t>(c.n * c.c_in * plane + slack));
  std::fill(xp + c.n * c.c_in * plane, xp + c.n * c.c_in * plane + slack, 0.0f);
  // ph >= out_h + 2 = in_h + 2 p (likewise pw): every input row fits with its padding.
  const int64_t dims[3] = {1, p.ph, p.pw};
  pad_planes(c.x, c.n * c.c_in, c.in, dims, c.p, xp);

  float* const u = thread_buffer(kBufferConvWeights, static_cast<size_t>(kXi * c.c_in * p.cp));
  transform_weights(c, p, u);
  std::vector<int64_t> offs(static_cast<size_t>(c.c_in));
  for (int64_t ch = 0; ch < c.c_in; ++ch) offs[static_cast<size_t>(ch)] = ch * p.cp;

  const int64_t chunks = (tiles + p.chunk - 1) / p.chunk;
  parallel_for(0, chunks, 1, [&](int64_t k0, int64_t k1) {
    float* v = thread_buffer(kBufferGemmB, static_cast<size_t>(kXi * p.v_stride));
    float* m = thread_buffer(kBufferGemmA, static_cast<size_t>(kXi * p.m_stride));
    std::vector<Segment> segs;
    for (int64_t k = k0; k < k1; ++k) {
      segs.clear();
      const int64_t end = std::min(tiles, (k + 1) * p.chunk);
      for (int64_t g = k * p.chunk; g < end;) {
        const int64_t col = g % p.tw, row = g / p.tw % p.th, image = g / p.tw / p.th;
        const int64_t count = std::min({p.L, p.tw - col, end - g});
        segs.push_back({image, row, col, count, g - k * p.chunk});
        g += count;
      }
      transform_input(c, p, xp, segs, v);
      multiply(c, p, u, offs.data(), v, m);
      transform_output(c, p, m, segs);
    }
  });
}

}  // namespace

void conv_winograd_run(const DirectConv& c) {
  run(c);
}

}  // namespace ts::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace ts::cpu {

HWY_EXPORT(conv_winograd_run);

namespace {
// TOUCHSTONE_CONV_WINOGRAD=0 keeps every convolution on the direct kernel (its rounding error is
// smaller: Note [Winograd convolution]). Read before main (Note [Environment errors]).
const bool kWinograd = detail::env_switch("TOUCHSTONE_CONV_WINOGRAD");
}  // namespace

bool conv_winograd_supported(const DirectConv& c) {
  if (!kWinograd) return false;
  const bool shape = c.groups == 1 && c.in[0] == 1 && c.k[0] == 1 && c.k[1] == 3 && c.k[2] == 3;
  const bool unit = c.s[1] == 1 && c.s[2] == 1 && c.d[1] == 1 && c.d[2] == 1;
  // Note [Winograd convolution]: the transforms cost about c_in + c_out per output, the products
  // c_in c_out / 4; below 16 channels either way the direct kernel is as fast.
  return shape && unit && c.c_in >= 16 && c.c_out >= 16 && c.out[1] >= 4 && c.out[2] >= 4;
}

void conv_winograd(const DirectConv& c) {
  HWY_DYNAMIC_DISPATCH(conv_winograd_run)(c);
}

}  // namespace ts::cpu
#endif  // HWY_ONCE
