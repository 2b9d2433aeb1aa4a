// Optimized CPU convolution (direct and transposed, 1 to 3 spatial dims): im2col + a GEMM per
// image and group (float32: our sgemm.cpp; float64: OpenBLAS dgemm), col2im for the transposed
// form; float16/bfloat16 compute in float32 and round once.
// Params: the top of lib/src/ops/conv.cpp; semantics: reference/conv.cpp.
#include <cblas.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "optimized/cpu/conv_direct.h"
#include "optimized/cpu/gemm.h"
#include "touchstone/kernel_family.h"
#include "touchstone/ops.h"
#include "touchstone/parallel.h"

namespace ts::cpu {
namespace {

// The geometry of a direct convolution, spatial dims padded to 3 (a missing dim has size 1).
// A transposed convolution runs the direct one's adjoint: its input is the direct output.
struct Geometry {
  int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1}, k[3] = {1, 1, 1};
  int64_t s[3] = {1, 1, 1}, d[3] = {1, 1, 1}, p[3] = {0, 0, 0};
  int64_t in_plane = 1, out_plane = 1, k_plane = 1;
  // A 1x1 kernel with stride 1, no padding and out = in (a transposed convolution's
  // output_padding may add rows): im2col is the identity, the convolution one GEMM.
  bool pointwise() const {
    for (int a = 0; a < 3; ++a) {
      if (k[a] != 1 || s[a] != 1 || p[a] != 0 || in[a] != out[a]) return false;
    }
    return true;
  }
};

Geometry make_geometry(IntArrayRef in, IntArrayRef out, IntArrayRef k, const ConvParams& cp) {
  Geometry g;
  const size_t off = 3 - in.size();
  for (size_t i = 0; i < in.size(); ++i) {
    g.in[off + i] = in[i];
    g.out[off + i] = out[i];
    g.k[off + i] = k[i];
    g.s[off + i] = cp.stride[i];
    g.d[off + i] = cp.dilation[i];
    g.p[off + i] = cp.padding[i];
  }
  g.in_plane = g.in[0] * g.in[1] * g.in[2];
  g.out_plane = g.out[0] * g.out[1] * g.out[2];
  g.k_plane = g.k[0] * g.k[1] * g.k[2];
  return g;
}

// The output positions o in [lo, hi) of one dim read an input position o * s + off inside [0, n).
void valid_range(int64_t n, int64_t out, int64_t s, int64_t off, int64_t& lo, int64_t& hi) {
  lo = off >= 0 ? 0 : (-off + s - 1) / s;
  hi = n - 1 - off < 0 ? 0 : std::min(out, (n - 1 - off) / s + 1);
  lo = std::min(lo, hi);
}

// Note [im2col]
// col[(c * k_plane + kk) * out_plane + j] = x[c, j * s + kk * d - p] (0 in the padding), so that
// the direct convolution of one image and group is W (Cout_g x Cin_g k_plane) @ col. col2im adds
// col back into x's positions: the adjoint, which computes the transposed convolution.

// Row l = c * k_plane + kk of col over the output positions [j0, j0 + cols): dst[q] = col[l][j0 +
// q], in runs along the output's last dim.
template <typename C>
void im2col_row(const C* x, const Geometry& g, int64_t l, int64_t j0, int64_t cols, C* dst) {
  const int64_t kk = l % g.k_plane;
  const int64_t k0 = kk / (g.k[1] * g.k[2]), k1 = kk / g.k[2] % g.k[1], k2 = kk % g.k[2];
  int64_t lo0, hi0, lo1, hi1, lo2, hi2;
  valid_range(g.in[0], g.out[0], g.s[0], k0 * g.d[0] - g.p[0], lo0, hi0);
  valid_range(g.in[1], g.out[1], g.s[1], k1 * g.d[1] - g.p[1], lo1, hi1);
  const int64_t off2 = k2 * g.d[2] - g.p[2];
  valid_range(g.in[2], g.out[2], g.s[2], off2, lo2, hi2);
  const C* xc = x + l / g.k_plane * g.in_plane;
  // Output row (o0, o1), its positions [a, b) along the last dim, stored at row[a..b); no
  // division per row (they cost more than a row of 16).
  const int64_t r0 = j0 / g.out[2];
  int64_t o0 = r0 / g.out[1], o1 = r0 % g.out[1], a = j0 % g.out[2];
  for (int64_t j = j0, end = j0 + cols; j < end;
       a = 0, o1 = o1 + 1 == g.out[1] ? (++o0, 0) : o1 + 1) {
    const int64_t b = std::min(g.out[2], a + end - j);
    C* row = dst + (j - j0) - a;
    j += b - a;
    if (o0 < lo0 || o0 >= hi0 || o1 < lo1 || o1 >= hi1) {
      for (int64_t o2 = a; o2 < b; ++o2) row[o2] = C(0);
      continue;
    }
    const int64_t i0 = o0 * g.s[0] + k0 * g.d[0] - g.p[0];
    const int64_t i1 = o1 * g.s[1] + k1 * g.d[1] - g.p[1];
    // Plain loops, not memmove and memset calls: runs are short (16 to 56 elements in the
    // catalog's layers), and the calls cost more than the copies.
    const C* src = xc + (i0 * g.in[1] + i1) * g.in[2] + off2;
    const int64_t va = std::clamp(lo2, a, b), vb = std::clamp(hi2, va, b);
    for (int64_t o2 = a; o2 < va; ++o2) row[o2] = C(0);
    if (g.s[2] == 1) {
      for (int64_t o2 = va; o2 < vb; ++o2) row[o2] = src[o2];
    } else if (g.s[2] == 2) {
      for (int64_t o2 = va; o2 < vb; ++o2) row[o2] = src[2 * o2];
    } else {
      for (int64_t o2 = va; o2 < vb; ++o2) row[o2] = src[o2 * g.s[2]];
    }
    for (int64_t o2 = vb; o2 < b; ++o2) row[o2] = C(0);
  }
}

// im2col of the output rows [r0, r1) of (o0, o1) pairs: col has (r1 - r0) out[2] columns.
template <typename C>
void im2col(const C* x, int64_t channels, const Geometry& g, C* col, int64_t r0, int64_t r1) {
  const int64_t cols = (r1 - r0) * g.out[2];
  for (int64_t l = 0; l < channels * g.k_plane; ++l) {
    im2col_row(x, g, l, r0 * g.out[2], cols, col + l * cols);
  }
}

// Adds col (channels k_plane x out_plane) back into x's positions.
template <typename C>
void col2im(C* x, int64_t channels, const Geometry& g, const C* col) {
  const int64_t cols = g.out_plane;
  for (int64_t c = 0; c < channels; ++c) {
    C* xc = x + c * g.in_plane;
    for (int64_t k0 = 0; k0 < g.k[0]; ++k0) {
      for (int64_t k1 = 0; k1 < g.k[1]; ++k1) {
        for (int64_t k2 = 0; k2 < g.k[2]; ++k2) {
          const C* row = col + ((c * g.k[0] + k0) * g.k[1] * g.k[2] + k1 * g.k[2] + k2) * cols;
          int64_t lo0, hi0, lo1, hi1, lo2, hi2;
          valid_range(g.in[0], g.out[0], g.s[0], k0 * g.d[0] - g.p[0], lo0, hi0);
          valid_range(g.in[1], g.out[1], g.s[1], k1 * g.d[1] - g.p[1], lo1, hi1);
          const int64_t off2 = k2 * g.d[2] - g.p[2];
          valid_range(g.in[2], g.out[2], g.s[2], off2, lo2, hi2);
          for (int64_t o0 = lo0; o0 < hi0; ++o0) {
            for (int64_t o1 = lo1; o1 < hi1; ++o1) {
              const C* src = row + (o0 * g.out[1] + o1) * g.out[2];
              const int64_t i0 = o0 * g.s[0] + k0 * g.d[0] - g.p[0];
              const int64_t i1 = o1 * g.s[1] + k1 * g.d[1] - g.p[1];
              C* dst = xc + (i0 * g.in[1] + i1) * g.in[2];
              for (int64_t o2 = lo2; o2 < hi2; ++o2) dst[o2 * g.s[2] + off2] += src[o2];
            }
          }
        }
      }
    }
  }
}

// Note [Implicit im2col]
// For float32 the direct convolution never materializes col: our sgemm asks for b a block at a
// time in its packed panels, and the packer writes im2col's rows straight into them (through
// one row in L1). im2col then packing took 60 % of a 16-channel conv3d's time (perf), the
// GEMM 18 %. Blocks of kPackColumns positions keep a packed slice (256 k x 512) in L2.
constexpr int64_t kPackColumns = 512;

// Row-major c (m x n) = op(a) (m x k) @ op(b) (k x n) + beta c (beta 0: c is not read).
void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float* a, int64_t lda,
          const float* b, int64_t ldb, float* c, int64_t ldc, float beta = 0) {
  sgemm(ta, tb, m, n, k, 1.0f, a, lda, b, ldb, beta, c, ldc);
}
void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const double* a, int64_t lda,
          const double* b, int64_t ldb, double* c, int64_t ldc, double beta = 0) {
  cblas_dgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans,
              static_cast<int>(m), static_cast<int>(n), static_cast<int>(k), 1.0, a,
              static_cast<int>(lda), b, static_cast<int>(ldb), beta, c, static_cast<int>(ldc));
}

// Note [Blocked im2col]
// The direct convolution gathers a block of output rows at a time, its im2col columns about
// 1 MiB (L2), and multiplies them at once: the GEMM reads them from cache instead of a whole
// image's columns from memory (7 MiB for a ResNet 3x3 layer of 64 channels at 56x56).
int64_t block_rows(const Geometry& g, int64_t kc, size_t elem) {
  const int64_t per_row = std::max<int64_t>(1, kc * g.out[2] * static_cast<int64_t>(elem));
  return std::clamp<int64_t>((int64_t{1} << 20) / per_row, 1, g.out[0] * g.out[1]);
}

// One image: x (C_in x in) -> y (C_out x out), contiguous, in C.
template <typename C>
void convolve_image(const C* x, const C* w, const C* bias, C* y, int64_t c_in, int64_t c_out,
                    int64_t groups, bool transposed, const Geometry& g, std::vector<C>& col) {
  const int64_t cin_g = c_in / groups, cout_g = c_out / groups;
  if (!transposed) {
    // Direct: y_g (Cout_g x out) = W_g (Cout_g x Cin_g k) @ col (Cin_g k x out).
    const int64_t kc = cin_g * g.k_plane;
    for (int64_t grp = 0; grp < groups; ++grp) {
      const C* xg = x + grp * cin_g * g.in_plane;
      if (g.pointwise()) {
        gemm(false, false, cout_g, g.out_plane, kc, w + grp * cout_g * kc, kc, xg, g.out_plane,
             y + grp * cout_g * g.out_plane, g.out_plane);
        continue;
      }
      if constexpr (std::is_same_v<C, float>) {
        const PackB pack = [&](int64_t p0, int64_t kc_, int64_t j0, int64_t cols, int64_t nr,
                               float* bp) {
          float row[kPackColumns];
          for (int64_t l = 0; l < kc_; ++l) {
            im2col_row(xg, g, p0 + l, j0, cols, row);
            for (int64_t jb = 0; jb < cols; jb += nr) {
              float* dst = bp + jb * kc_ + l * nr;
              const int64_t n = std::min(nr, cols - jb);
              for (int64_t j = 0; j < n; ++j) dst[j] = row[jb + j];
              for (int64_t j = n; j < nr; ++j) dst[j] = 0.0f;
            }
          }
        };
        sgemm_packed_b(cout_g, g.out_plane, kc, w + grp * cout_g * kc, kc, pack, kPackColumns, 0.0f,
                       y + grp * cout_g * g.out_plane, g.out_plane);
        continue;
      }
      const int64_t rows = g.out[0] * g.out[1], block = block_rows(g, kc, sizeof(C));
      for (int64_t r0 = 0; r0 < rows; r0 += block) {
        const int64_t r1 = std::min(rows, r0 + block), cols = (r1 - r0) * g.out[2];
        im2col(xg, cin_g, g, col.data(), r0, r1);
        gemm(false, false, cout_g, cols, kc, w + grp * cout_g * kc, kc, col.data(), cols,
             y + grp * cout_g * g.out_plane + r0 * g.out[2], g.out_plane);
      }
    }
  } else {
    // Transposed (g describes the direct convolution y -> x): col (Cout_g k x in) =
    // W_g^T @ x_g with W_g (Cin_g x Cout_g k), then col2im adds col into y_g.
    const int64_t kc = cout_g * g.k_plane;
    const bool direct_out = g.pointwise();
    if (!direct_out) std::fill(y, y + c_out * g.in_plane, C(0));
    for (int64_t grp = 0; grp < groups; ++grp) {
      C* yg = y + grp * cout_g * g.in_plane;
      C* dst = direct_out ? yg : col.data();
      gemm(true, false, kc, g.out_plane, cin_g, w + grp * cin_g * kc, kc,
           x + grp * cin_g * g.out_plane, g.out_plane, dst, g.out_plane);
      if (!direct_out) {
        col2im(yg, cout_g, g, col.data());
      }
    }
  }
  if (bias != nullptr) {
    const int64_t plane = transposed ? g.in_plane : g.out_plane;
    for (int64_t o = 0; o < c_out; ++o) {
      C* row = y + o * plane;
      for (int64_t j = 0; j < plane; ++j) row[j] += bias[o];
    }
  }
}

// Note [Kernel-major convolution]
// When the kernel plane is larger than the output plane (a weight gradient: Note [Convolution
// gradients as convolutions]), per-image GEMMs are skinny (n = 9 for a 3x3 kernel's gradient,
// 1 for a 1x1's) and OpenBLAS repacks the whole weight for every image: 40% of a ResNet
// bottleneck's backward went to packing. Instead, per input channel c, gather the windows of a
// chunk of images, B_c[(i, j), kk] = x[i, c, j s + kk d - p], and accumulate one GEMM per channel,
// Y (C_out_g x chunk*out) += W[:, c] (C_out_g x k) @ B_c^T: n = images x output plane, and each
// B_c row is copied in runs along the kernel's last dim.

// Row (i, j) of B_c: the k_plane inputs output position j of channel xc reads, 0 in the padding.
template <typename C>
void gather_window(const C* xc, const Geometry& g, int64_t j, C* row) {
  const int64_t j0 = j / (g.out[1] * g.out[2]), j1 = (j / g.out[2]) % g.out[1];
  const int64_t off2 = (j % g.out[2]) * g.s[2] - g.p[2];
  int64_t lo2, hi2;  // kernel columns k2 with 0 <= off2 + k2 d2 < in2
  valid_range(g.in[2], g.k[2], g.d[2], off2, lo2, hi2);
  for (int64_t k0 = 0; k0 < g.k[0]; ++k0) {
    const int64_t i0 = j0 * g.s[0] + k0 * g.d[0] - g.p[0];
    for (int64_t k1 = 0; k1 < g.k[1]; ++k1) {
      const int64_t i1 = j1 * g.s[1] + k1 * g.d[1] - g.p[1];
      C* dst = row + (k0 * g.k[1] + k1) * g.k[2];
      if (i0 < 0 || i0 >= g.in[0] || i1 < 0 || i1 >= g.in[1]) {
        std::fill(dst, dst + g.k[2], C(0));
        continue;
      }
      const C* src = xc + (i0 * g.in[1] + i1) * g.in[2] + off2;
      std::fill(dst, dst + lo2, C(0));
      if (g.d[2] == 1) {
        std::copy(src + lo2, src + hi2, dst + lo2);
      } else {
        for (int64_t k2 = lo2; k2 < hi2; ++k2) dst[k2] = src[k2 * g.d[2]];
      }
      std::fill(dst + hi2, dst + g.k[2], C(0));
    }
  }
}

// Images [i0, i0 + ni) of a direct convolution, kernel-major; b and acc are scratch.
template <typename C>
void convolve_kernel_major(const C* xp, const C* wp, const C* bp, C* yp, int64_t i0, int64_t ni,
                           int64_t c_in, int64_t c_out, int64_t groups, const Geometry& g,
                           std::vector<C>& b, std::vector<C>& acc) {
  const int64_t cin_g = c_in / groups, cout_g = c_out / groups;
  const int64_t jn = g.out_plane, kp = g.k_plane, cols = ni * jn;
  b.resize(static_cast<size_t>(cols * kp));
  acc.resize(static_cast<size_t>(cout_g * cols));
  for (int64_t grp = 0; grp < groups; ++grp) {
    for (int64_t c = 0; c < cin_g; ++c) {
      for (int64_t i = 0; i < ni; ++i) {
        const C* xc = xp + ((i0 + i) * c_in + grp * cin_g + c) * g.in_plane;
        for (int64_t j = 0; j < jn; ++j) gather_window(xc, g, j, b.data() + (i * jn + j) * kp);
      }
      gemm(false, true, cout_g, cols, kp, wp + (grp * cout_g * cin_g + c) * kp, cin_g * kp,
           b.data(), kp, acc.data(), cols, c == 0 ? C(0) : C(1));
    }
    for (int64_t i = 0; i < ni; ++i) {
      for (int64_t o = 0; o < cout_g; ++o) {
        const C bias = bp != nullptr ? bp[grp * cout_g + o] : C(0);
        const C* src = acc.data() + o * cols + i * jn;
        C* dst = yp + ((i0 + i) * c_out + grp * cout_g + o) * jn;
        for (int64_t j = 0; j < jn; ++j) dst[j] = src[j] + bias;
      }
    }
  }
}

// Note [Convolution threads]
// With at least as many images as threads, each thread takes whole images, one BLAS thread
// each; otherwise the images run in turn and OpenBLAS uses every thread.
template <typename C>
void convolution_typed(const Tensor& x, const Tensor& w, const Tensor& b, const Tensor& y,
                       const ConvParams& cp) {
  const int64_t n = x.size(0), c_in = x.size(1), c_out = y.size(1);
  const Geometry g =
      cp.transposed ? make_geometry(y.sizes().slice(2), x.sizes().slice(2), w.sizes().slice(2), cp)
                    : make_geometry(x.sizes().slice(2), y.sizes().slice(2), w.sizes().slice(2), cp);
  const int64_t x_image = c_in * (cp.transposed ? g.out_plane : g.in_plane);
  const int64_t y_image = c_out * (cp.transposed ? g.in_plane : g.out_plane);
  const int64_t cin_g = c_in / cp.groups, cout_g = c_out / cp.groups;
  // Direct float32 convolutions need no col (Note [Implicit im2col]).
  const bool implicit = !cp.transposed && std::is_same_v<C, float>;
  const int64_t col_size =
      g.pointwise() || implicit ? 0
      : cp.transposed           ? cout_g * g.k_plane * g.out_plane
                      : cin_g * g.k_plane * block_rows(g, cin_g * g.k_plane, sizeof(C)) * g.out[2];
  const C* xp = x.data_ptr<C>();
  const C* wp = w.data_ptr<C>();
  const C* bp = b.defined() ? b.data_ptr<C>() : nullptr;
  C* yp = y.data_ptr<C>();
  const auto run = [&](int64_t i0, int64_t i1) {
    sync_blas_threads();
    std::vector<C> col(static_cast<size_t>(col_size));
    for (int64_t i = i0; i < i1; ++i) {
      convolve_image<C>(xp + i * x_image, wp, bp, yp + i * y_image, c_in, c_out, cp.groups,
                        cp.transposed, g, col);
    }
  };
  if constexpr (std::is_same_v<C, float>) {
    // Note [Direct convolution] (conv_direct.cpp): direct float32 convolutions with a kernel
    // smaller than their output; a 1x1 one stays a plain GEMM.
    if (!cp.transposed && g.k_plane <= g.out_plane && !g.pointwise()) {
      DirectConv dc{xp, wp, bp, yp, n, c_in, c_out, cp.groups};
      for (int a = 0; a < 3; ++a) {
        dc.in[a] = g.in[a], dc.out[a] = g.out[a], dc.k[a] = g.k[a];
        dc.s[a] = g.s[a], dc.d[a] = g.d[a], dc.p[a] = g.p[a];
      }
      if (conv_winograd_supported(dc)) return conv_winograd(dc);
      if (conv_direct_supported(dc)) return conv_direct(dc);
    }
  }
  const int64_t threads = get_num_threads();
  if (!cp.transposed && g.k_plane > g.out_plane) {
    // Note [Kernel-major convolution]: chunks of images, one per thread when there are enough,
    // each chunk's gathered windows within about 16 MiB.
    const int64_t limit = std::max<int64_t>(1, (int64_t{4} << 20) / (g.out_plane * g.k_plane));
    const int64_t chunk = std::min(limit, std::max<int64_t>(1, (n + threads - 1) / threads));
    const int64_t chunks = (n + chunk - 1) / chunk;
    const auto run_chunks = [&](int64_t c0, int64_t c1) {
      sync_blas_threads();
      std::vector<C> bbuf, acc;
      for (int64_t ch = c0; ch < c1; ++ch) {
        const int64_t i0 = ch * chunk;
        convolve_kernel_major<C>(xp, wp, bp, yp, i0, std::min(chunk, n - i0), c_in, c_out,
                                 cp.groups, g, bbuf, acc);
      }
    };
    if (chunks >= threads) {
      parallel_for(0, chunks, 1, run_chunks);
    } else {
      run_chunks(0, chunks);
    }
  } else if (n >= threads) {
    parallel_for(0, n, 1, run);
  } else {
    run(0, n);
  }
}

void convolution_kernel(const KernelCall& c) {
  const Tensor& out = c.outputs[0];
  if (out.numel() == 0) return;
  const ConvParams& cp = c.params<ConvParams>();
  const ScalarType ct = c.p.compute_dtype;
  // float16/bfloat16 compute in float32 (as ATen's opmath), rounded once into the output.
  const ScalarType math = ct == kDouble ? kDouble : kFloat;
  const auto prepare = [&](const Tensor& t) {
    if (!t.defined()) return t;
    return (t.dtype() == math ? t : t.to(math)).contiguous();
  };
  const Tensor x = prepare(c.inputs[0]), w = prepare(c.inputs[1]), b = prepare(c.inputs[2]);
  const bool direct = out.dtype() == math && out.is_contiguous();
  const Tensor y = direct ? out : empty(out.sizes(), TensorOptions(math));
  if (x.numel() == 0 || w.numel() == 0) {
    // No products: every output element is its bias (or 0).
    if (b.defined()) {
      DimVector shape(static_cast<size_t>(out.dim()), 1);
      shape[1] = b.size(0);
      y.copy_(b.view(shape).expand(out.sizes()));
    } else {
      y.zero_();
    }
  } else if (math == kDouble) {
    convolution_typed<double>(x, w, b, y, cp);
  } else {
    convolution_typed<float>(x, w, b, y, cp);
  }
  if (!direct) out.copy_(y);
}

template <OpId op>
void conv_kernel(const KernelCall& c) {
  if constexpr (op == OpId::convolution) {
    convolution_kernel(c);
  } else {
    static_assert(kMissingKernel<op>, "a convolution op without its optimized kernel");
  }
}

}  // namespace

TS_REGISTER_KERNELS(optimized, conv) {
  for_each_kernel_op<OpSignature::Conv>([&](auto op) { m.impl(op, kCPU, conv_kernel<op>); });
}

}  // namespace ts::cpu
