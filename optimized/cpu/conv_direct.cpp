// Direct float32 convolution (Note [Direct convolution]), compiled per SIMD target.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "optimized/cpu/conv_direct.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
// Must come after foreach_target.h.
#include <algorithm>
#include <vector>

#include "hwy/aligned_allocator.h"
#include "hwy/highway.h"
#include "optimized/cpu/conv_direct.h"
#include "optimized/cpu/conv_tile-inl.h"
#include "optimized/cpu/gemm.h"
#include "touchstone/parallel.h"

HWY_BEFORE_NAMESPACE();
namespace ts::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace {

// Note [Direct convolution]
// y[o, pos] = sum over (c, kk) of w[o, c, kk] x[c, pos s + kk d - p], without im2col: the input
// is copied once with its padding made explicit (zeros), and a tile of R output positions
// along the last dim times V vectors of output channels accumulates in registers, reading each
// input value as a broadcast straight from the padded copy and the weights as vectors from a
// copy packed (c, kk)-major, V vectors of channels wide. This is the GEMM micro-kernel of
// sgemm.cpp with the input as its unpacked a: im2col and the packing of its columns took 60 %
// of a 16-channel conv3d (each column serves only 16 multiply-adds), 0 % here. The tile is
// transposed on the way out (positions x channels -> channels x positions).
void run(const DirectConv& c) {
  const D d;
  const int64_t L = static_cast<int64_t>(hn::Lanes(d)), nr = 2 * L;
  const int64_t cin_g = c.c_in / c.groups, cout_g = c.c_out / c.groups;
  const int64_t k2n = c.k[2], nt = cin_g * c.k[0] * c.k[1], kdim = nt * k2n;
  const int64_t ip[3] = {c.in[0] + 2 * c.p[0], c.in[1] + 2 * c.p[1], c.in[2] + 2 * c.p[2]};
  const int64_t plane = ip[0] * ip[1] * ip[2], image = c.c_in * plane;
  const int64_t out_plane = c.out[0] * c.out[1] * c.out[2];
  // A last tile rounded up to 4 positions reads past its row: slack after the last image.
  const int64_t slack = (2 * kMaxR + 3) * c.s[2] + (k2n - 1) * c.d[2] + 4;

  // The padded input, zeros around each plane, in the calling thread's buffer (a fresh one
  // faults on every page: at 2 threads that cost more than the convolution of 8x32x28x28).
  float* const xp = thread_buffer(kBufferConvInput, static_cast<size_t>(c.n * image + slack));
  std::fill(xp + c.n * image, xp + c.n * image + slack, 0.0f);
  pad_planes(c.x, c.n * c.c_in, c.in, ip, c.p, xp);

  // Weights per group in blocks of nr channels (the last one L or nr wide, zero-padded):
  // wp[grp][block][kidx][lane], kidx = (c, k0, k1, k2) as in w's own layout.
  const int64_t blocks = (cout_g + nr - 1) / nr;
  const int64_t group_w = blocks * kdim * nr;
  auto wp = hwy::AllocateAligned<float>(static_cast<size_t>(c.groups * group_w));
  for (int64_t grp = 0; grp < c.groups; ++grp) {
    for (int64_t b = 0; b < blocks; ++b) {
      const int64_t o0 = b * nr, width = cout_g - o0 > L ? nr : L;
      float* dst = wp.get() + grp * group_w + b * kdim * nr;
      for (int64_t kidx = 0; kidx < kdim; ++kidx) {
        for (int64_t j = 0; j < width; ++j) {
          const int64_t o = o0 + j;
          dst[kidx * width + j] = o < cout_g ? c.w[((grp * cout_g) + o) * kdim + kidx] : 0.0f;
        }
      }
    }
  }
  // The kernel rows' offsets into a group's padded input.
  std::vector<int64_t> offs(static_cast<size_t>(nt));
  for (int64_t ch = 0; ch < cin_g; ++ch) {
    for (int64_t k0 = 0; k0 < c.k[0]; ++k0) {
      for (int64_t k1 = 0; k1 < c.k[1]; ++k1) {
        offs[static_cast<size_t>((ch * c.k[0] + k0) * c.k[1] + k1)] =
            ch * plane + (k0 * c.d[0] * ip[1] + k1 * c.d[1]) * ip[2];
      }
    }
  }

  // One task per (image, group, output row).
  const int64_t rows = c.out[0] * c.out[1];
  parallel_for(0, c.n * c.groups * rows, 1, [&](int64_t t0, int64_t t1) {
    HWY_ALIGN float buf[kMaxR * 2 * HWY_MAX_BYTES / sizeof(float)];
    for (int64_t task = t0; task < t1; ++task) {
      const int64_t r = task % rows, grp = task / rows % c.groups, i = task / rows / c.groups;
      const int64_t o0 = r / c.out[1], o1 = r % c.out[1];
      const float* xrow =
          xp + i * image + grp * cin_g * plane + (o0 * c.s[0] * ip[1] + o1 * c.s[1]) * ip[2];
      float* yrow = c.y + (i * c.c_out + grp * cout_g) * out_plane + r * c.out[2];
      for (int64_t b = 0; b < blocks; ++b) {
        const int64_t oc0 = b * nr, width = cout_g - oc0 > L ? nr : L;
        const int64_t channels = std::min(width, cout_g - oc0);
        const float* wb = wp.get() + grp * group_w + b * kdim * nr;
        for (int64_t o2 = 0; o2 < c.out[2];) {
          const int64_t tw = tile_width(c.out[2] - o2, max_positions(width / L));
          const int64_t valid = std::min(tw, c.out[2] - o2);
          const float* xt = xrow + o2 * c.s[2];
          if (c.s[2] == 1) {
            any_tile<1>(tw, width / L, xt, offs.data(), nt, k2n, c.d[2], wb, buf);
          } else {
            any_tile<2>(tw, width / L, xt, offs.data(), nt, k2n, c.d[2], wb, buf);
          }
          for (int64_t j = 0; j < channels; ++j) {
            const int64_t o = grp * cout_g + oc0 + j;
            const float bias = c.bias != nullptr ? c.bias[o] : 0.0f;
            float* dst = yrow + (oc0 + j) * out_plane + o2;
            for (int64_t q = 0; q < valid; ++q) dst[q] = buf[q * width + j] + bias;
          }
          o2 += tw;
        }
      }
    }
  });
}

}  // namespace

void conv_direct_run(const DirectConv& c) {
  run(c);
}

}  // namespace ts::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace ts::cpu {

HWY_EXPORT(conv_direct_run);

bool conv_direct_supported(const DirectConv& c) {
  return c.s[2] == 1 || c.s[2] == 2;
}

void conv_direct(const DirectConv& c) {
  HWY_DYNAMIC_DISPATCH(conv_direct_run)(c);
}

void pad_planes(const float* x, int64_t planes, const int64_t in[3], const int64_t dims[3],
                const int64_t front[3], float* dst) {
  const int64_t in_plane = in[0] * in[1] * in[2], plane = dims[0] * dims[1] * dims[2];
  parallel_for(0, planes, 1, [&](int64_t q0, int64_t q1) {
    for (int64_t q = q0; q < q1; ++q) {
      const float* src = x + q * in_plane;
      for (int64_t i0 = 0; i0 < dims[0]; ++i0) {
        for (int64_t i1 = 0; i1 < dims[1]; ++i1) {
          float* row = dst + q * plane + (i0 * dims[1] + i1) * dims[2];
          const int64_t s0 = i0 - front[0], s1 = i1 - front[1];
          if (s0 < 0 || s0 >= in[0] || s1 < 0 || s1 >= in[1]) {
            std::fill(row, row + dims[2], 0.0f);
            continue;
          }
          const float* line = src + (s0 * in[1] + s1) * in[2];
          std::fill(row, row + front[2], 0.0f);
          std::copy(line, line + in[2], row + front[2]);
          std::fill(row + front[2] + in[2], row + dims[2], 0.0f);
        }
      }
    }
  });
}

}  // namespace ts::cpu
#endif  // HWY_ONCE
