// Our float32 matrix product (Note [Our sgemm]): packed panels and a register-blocked
// micro-kernel, compiled per SIMD target and dispatched to the widest vectors the CPU has.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "optimized/cpu/sgemm.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
// Must come after foreach_target.h.
#include <algorithm>

#include "hwy/base.h"
#if HWY_ARCH_X86
#include <xmmintrin.h>
#endif

#include "hwy/aligned_allocator.h"
#include "hwy/highway.h"
#include "optimized/cpu/gemm.h"
#include "touchstone/parallel.h"

HWY_BEFORE_NAMESPACE();
namespace ts::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace {

// Note [Our sgemm]
// The layout of Goto's algorithm (as in BLIS and OpenBLAS): the k dim runs in slices of kKC;
// a slice of b (kKC x up to kNC) is packed into panels of nr = 2 vectors of columns, a slice
// of a (up to kMC x kKC) into panels of kMR rows, and a kMR x nr tile of c accumulates in
// registers over the slice: per k step two vector loads of b and kMR broadcasts of a, 2 kMR
// multiply-adds. The b panel (32 KiB) stays in L1, the a block in L2. With 32 vector registers
// (AVX-512) the tile is 12 x 2 vectors, 24 accumulators; with 16 (AVX2, SSE4) it is 6 x 2. Why not
// OpenBLAS: 0.3.21 knows no Zen 5 and runs its AVX2 (Haswell) kernels there, half the multiply-add
// width the core has (perf/README.md, "Our own GEMM, a direct convolution").
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
constexpr int64_t kMR = 12;
#else
constexpr int64_t kMR = 6;
#endif
constexpr int64_t kKC = 256, kMC = kMR * 24, kNC = 2048;
// Multiply-adds below which a product runs on one thread.
constexpr int64_t kMinParallelMacs = int64_t{1} << 18;

using D = hn::ScalableTag<float>;

// A row-major operand: element (i, l) is data[i * ld + l], or data[l * ld + i] when trans.
struct Operand {
  const float* data;
  int64_t ld;
  bool trans;
};

// b: a matrix, or a caller's packer (sgemm_packed_b) and the column block it packs at a time.
struct BSource {
  Operand mat;
  const PackB* packer = nullptr;
  int64_t nc = kNC;
};

// dst[l * w + r] = src[l * ld + r] for r < n, l < kc, and 0 for n <= r < w: kc rows of n
// contiguous values become a panel's rows (whole vectors when the panel is full and vectors
// divide it).
void pack_rows(const float* src, int64_t ld, int64_t n, int64_t w, int64_t kc, float* dst) {
  const D d;
  const int64_t L = static_cast<int64_t>(hn::Lanes(d));
  for (int64_t l = 0; l < kc; ++l, src += ld, dst += w) {
    if (n == w && w % L == 0) {
      for (int64_t r = 0; r < w; r += L) hn::StoreU(hn::LoadU(d, src + r), d, dst + r);
      continue;
    }
    for (int64_t r = 0; r < n; ++r) dst[r] = src[r];
    for (int64_t r = n; r < w; ++r) dst[r] = 0.0f;
  }
}

// dst[l * w + r] = src[r * ld + l] for r < n, l < kc, and 0 for n <= r < w: n rows, each
// contiguous, become a panel's columns. Four rows at a time through 4 x 4 register transposes
// (a scalar load and store an element made a transposed operand's packing cost as much as
// its multiply-adds when m is 64: mlp_layer's x @ W^T).
void pack_transposed(const float* src, int64_t ld, int64_t n, int64_t w, int64_t kc, float* dst) {
  int64_t r = 0;
#if HWY_ARCH_X86
  for (; r + 4 <= n; r += 4) {
    const float* s0 = src + r * ld;
    int64_t l = 0;
    for (; l + 4 <= kc; l += 4) {
      __m128 x0 = _mm_loadu_ps(s0 + l), x1 = _mm_loadu_ps(s0 + ld + l);
      __m128 x2 = _mm_loadu_ps(s0 + 2 * ld + l), x3 = _mm_loadu_ps(s0 + 3 * ld + l);
      _MM_TRANSPOSE4_PS(x0, x1, x2, x3);
      _mm_storeu_ps(dst + l * w + r, x0);
      _mm_storeu_ps(dst + (l + 1) * w + r, x1);
      _mm_storeu_ps(dst + (l + 2) * w + r, x2);
      _mm_storeu_ps(dst + (l + 3) * w + r, x3);
    }
    for (; l < kc; ++l) {
      for (int64_t q = 0; q < 4; ++q) dst[l * w + r + q] = s0[q * ld + l];
    }
  }
#endif
  for (; r < n; ++r) {
    for (int64_t l = 0; l < kc; ++l) dst[l * w + r] = src[r * ld + l];
  }
  for (; r < w; ++r) {
    for (int64_t l = 0; l < kc; ++l) dst[l * w + r] = 0.0f;
  }
}

// The rows of a panel: kMR, or for the last rows of a block a multiple of 4 (fewer zero rows).
int64_t panel_width(int64_t rows) {
  return std::min(kMR, (rows + 3) / 4 * 4);
}

// A block of `rows` rows from row i0, k from p0, as panels of kMR rows, k-major, rows past the
// end zero: ap[(r / kMR) * kMR * kc + l * w + r % kMR] = a(i0 + r, p0 + l), w the panel's width.
void pack_a(const Operand& a, int64_t i0, int64_t rows, int64_t p0, int64_t kc, float* ap) {
  for (int64_t ib = 0; ib < rows; ib += kMR) {
    float* panel = ap + ib * kc;
    const int64_t n = std::min(kMR, rows - ib), w = panel_width(n);
    if (a.trans) {
      pack_rows(a.data + p0 * a.ld + i0 + ib, a.ld, n, w, kc, panel);
    } else {
      pack_transposed(a.data + (i0 + ib) * a.ld + p0, a.ld, n, w, kc, panel);
    }
  }
}

// A block of `cols` columns from column j0, k from p0, as panels of nr columns, k-major,
// columns past the end zero: bp[(j / nr) * nr * kc + l * nr + j % nr] = b(p0 + l, j0 + j).
void pack_b(const Operand& b, int64_t p0, int64_t kc, int64_t j0, int64_t cols, int64_t nr,
            float* bp) {
  for (int64_t jb = 0; jb < cols; jb += nr) {
    float* panel = bp + jb * kc;
    const int64_t n = std::min(nr, cols - jb);
    if (b.trans) {
      pack_transposed(b.data + (j0 + jb) * b.ld + p0, b.ld, n, nr, kc, panel);
    } else {
      pack_rows(b.data + p0 * b.ld + j0 + jb, b.ld, n, nr, kc, panel);
    }
  }
}

// c (rows x cols of a kMR x nr tile, ldc) = alpha * acc + beta * c; beta 0 does not read c.
HWY_INLINE void store_tile(const float* HWY_RESTRICT acc, int64_t nr, int64_t rows, int64_t cols,
                           float alpha, float beta, float* c, int64_t ldc) {
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t j = 0; j < cols; ++j) {
      const float v = alpha * acc[r * nr + j];
      c[r * ldc + j] = beta == 0.0f ? v : v + beta * c[r * ldc + j];
    }
  }
}

// One R x 2-vector tile over kc steps of packed a and b; a partial tile (rows < R or
// cols < 2 lanes) goes through a buffer.
template <int64_t R>
HWY_NOINLINE void micro_kernel(int64_t kc, const float* HWY_RESTRICT ap,
                               const float* HWY_RESTRICT bp, int64_t rows, int64_t cols,
                               float alpha, float beta, float* c, int64_t ldc) {
  const D d;
  const int64_t L = static_cast<int64_t>(hn::Lanes(d));
  using V = hn::Vec<D>;
  V acc0[R], acc1[R];
#pragma GCC unroll 16
  for (int64_t r = 0; r < R; ++r) acc0[r] = acc1[r] = hn::Zero(d);
  for (int64_t l = 0; l < kc; ++l) {
    const V b0 = hn::Load(d, bp), b1 = hn::Load(d, bp + L);
#pragma GCC unroll 16
    for (int64_t r = 0; r < R; ++r) {
      const V a = hn::Set(d, ap[r]);
      acc0[r] = hn::MulAdd(a, b0, acc0[r]);
      acc1[r] = hn::MulAdd(a, b1, acc1[r]);
    }
    ap += R;
    bp += 2 * L;
  }
  if (rows == R && cols == 2 * L) {
    const V va = hn::Set(d, alpha), vb = hn::Set(d, beta);
#pragma GCC unroll 16
    for (int64_t r = 0; r < R; ++r) {
      float* row = c + r * ldc;
      V v0 = hn::Mul(va, acc0[r]), v1 = hn::Mul(va, acc1[r]);
      if (beta != 0.0f) {
        v0 = hn::MulAdd(vb, hn::LoadU(d, row), v0);
        v1 = hn::MulAdd(vb, hn::LoadU(d, row + L), v1);
      }
      hn::StoreU(v0, d, row);
      hn::StoreU(v1, d, row + L);
    }
    return;
  }
  HWY_ALIGN float buf[R * 2 * HWY_MAX_BYTES / sizeof(float)];
  for (int64_t r = 0; r < R; ++r) {
    hn::Store(acc0[r], d, buf + r * 2 * L);
    hn::Store(acc1[r], d, buf + r * 2 * L + L);
  }
  store_tile(buf, 2 * L, rows, cols, alpha, beta, c, ldc);
}

// The tile of a panel of `rows` rows (panel_width(rows) of them packed).
void tile(int64_t kc, const float* ap, const float* bp, int64_t rows, int64_t cols, float alpha,
          float beta, float* c, int64_t ldc) {
  switch (panel_width(rows)) {
    case 4:
      return micro_kernel<4>(kc, ap, bp, rows, cols, alpha, beta, c, ldc);
    case 8:
      return micro_kernel<8>(kc, ap, bp, rows, cols, alpha, beta, c, ldc);
    default:
      return micro_kernel<kMR>(kc, ap, bp, rows, cols, alpha, beta, c, ldc);
  }
}

// c rows [i0, i1) x columns [j0, j1) on this thread.
void gemm_block(const Operand& a, const BSource& b, int64_t k, float alpha, float beta, float* c,
                int64_t ldc, int64_t i0, int64_t i1, int64_t j0, int64_t j1) {
  const int64_t nr = 2 * static_cast<int64_t>(hn::Lanes(D()));
  const int64_t nc_max = std::min(b.nc, (j1 - j0 + nr - 1) / nr * nr);
  const int64_t mc_max = std::min(kMC, (i1 - i0 + kMR - 1) / kMR * kMR);
  float* bp = thread_buffer(kBufferGemmB, static_cast<size_t>(kKC * nc_max));
  float* ap = thread_buffer(kBufferGemmA, static_cast<size_t>(kKC * mc_max));
  for (int64_t jc = j0; jc < j1; jc += b.nc) {
    const int64_t nc = std::min(b.nc, j1 - jc);
    for (int64_t pc = 0; pc < k; pc += kKC) {
      const int64_t kc = std::min(kKC, k - pc);
      const float beta_k = pc == 0 ? beta : 1.0f;
      if (b.packer != nullptr) {
        (*b.packer)(pc, kc, jc, nc, nr, bp);
      } else {
        pack_b(b.mat, pc, kc, jc, nc, nr, bp);
      }
      for (int64_t ic = i0; ic < i1; ic += kMC) {
        const int64_t mc = std::min(kMC, i1 - ic);
        pack_a(a, ic, mc, pc, kc, ap);
        for (int64_t jr = 0; jr < nc; jr += nr) {
          for (int64_t ir = 0; ir < mc; ir += kMR) {
            tile(kc, ap + ir * kc, bp + jr * kc, std::min(kMR, mc - ir), std::min(nr, nc - jr),
                 alpha, beta_k, c + (ic + ir) * ldc + jc + jr, ldc);
          }
        }
      }
    }
  }
}

// Splits c into tasks: blocks of whole kMC rows and b.nc columns, cut finer (while a task keeps
// several tiles) until there are at least two per thread.
void sgemm_run(const Operand& A, const BSource& B, int64_t m, int64_t n, int64_t k, float alpha,
               float beta, float* c, int64_t ldc) {
  const int64_t nr = 2 * static_cast<int64_t>(hn::Lanes(D()));
  const int64_t threads = in_parallel_region() ? 1 : get_num_threads();
  int64_t tm = (m + kMC - 1) / kMC, tn = (n + B.nc - 1) / B.nc;
  if (threads > 1 && m * n * k >= kMinParallelMacs) {
    while (tm * tn < 2 * threads) {
      if (n / (tn + 1) >= 4 * nr && n >= m) {
        ++tn;
      } else if (m / (tm + 1) >= 2 * kMR) {
        ++tm;
      } else if (n / (tn + 1) >= 4 * nr) {
        ++tn;
      } else {
        break;
      }
    }
  } else {
    tm = tn = 1;
  }
  // Task boundaries on whole tiles.
  const int64_t rows = ((m + tm - 1) / tm + kMR - 1) / kMR * kMR;
  const int64_t cols = ((n + tn - 1) / tn + nr - 1) / nr * nr;
  tm = (m + rows - 1) / rows;
  tn = (n + cols - 1) / cols;
  parallel_for(0, tm * tn, 1, [&](int64_t t0, int64_t t1) {
    for (int64_t t = t0; t < t1; ++t) {
      const int64_t i0 = t / tn * rows, j0 = t % tn * cols;
      gemm_block(A, B, k, alpha, beta, c, ldc, i0, std::min(m, i0 + rows), j0,
                 std::min(n, j0 + cols));
    }
  });
}

}  // namespace

void sgemm_dispatch(bool ta, bool tb, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
                    int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc) {
  sgemm_run({a, lda, ta}, {.mat = {b, ldb, tb}}, m, n, k, alpha, beta, c, ldc);
}

void sgemm_packed_dispatch(int64_t m, int64_t n, int64_t k, const float* a, int64_t lda,
                           const PackB& pack_b, int64_t nc, float beta, float* c, int64_t ldc) {
  sgemm_run({a, lda, false}, {.mat = {}, .packer = &pack_b, .nc = nc}, m, n, k, 1.0f, beta, c, ldc);
}

int64_t panel_columns() {
  return 2 * static_cast<int64_t>(hn::Lanes(D()));
}

}  // namespace ts::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <cblas.h>

namespace ts::cpu {

HWY_EXPORT(sgemm_dispatch);

float* thread_buffer(int slot, size_t n) {
  constexpr size_t kKeep = (size_t{64} << 20) / sizeof(float);
  thread_local hwy::AlignedFreeUniquePtr<float[]> kept[kThreadBuffers];
  thread_local size_t capacity[kThreadBuffers] = {};
  thread_local hwy::AlignedFreeUniquePtr<float[]> once[kThreadBuffers];
  if (n > kKeep) {
    once[slot] = hwy::AllocateAligned<float>(n);
    return once[slot].get();
  }
  once[slot].reset();
  if (capacity[slot] < n) {
    kept[slot] = hwy::AllocateAligned<float>(n);
    capacity[slot] = n;
  }
  return kept[slot].get();
}
HWY_EXPORT(sgemm_packed_dispatch);
HWY_EXPORT(panel_columns);

void sgemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
           int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc) {
  if (m <= 0 || n <= 0) return;
  if (k <= 0 || alpha == 0.0f) {
    // As BLAS: a and b are not read; beta 0 does not read c.
    for (int64_t i = 0; i < m; ++i) {
      float* row = c + i * ldc;
      for (int64_t j = 0; j < n; ++j) row[j] = beta == 0.0f ? 0.0f : beta * row[j];
    }
    return;
  }
  if (n == 1 || m == 1) {
    // A matrix-vector product (addmv comes here as n == 1): OpenBLAS's gemv, y = c's column or
    // row. beta 0 must not read c: zeroed first (gemv's own beta 0 scales by 0, and NaN stays).
    const int64_t len = n == 1 ? m : n, inc = n == 1 ? ldc : 1;
    if (beta == 0.0f) {
      for (int64_t i = 0; i < len; ++i) c[i * inc] = 0.0f;
    }
    sync_blas_threads();
    if (n == 1) {  // c = op(a) @ b's column
      cblas_sgemv(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, static_cast<int>(ta ? k : m),
                  static_cast<int>(ta ? m : k), alpha, a, static_cast<int>(lda), b,
                  static_cast<int>(tb ? 1 : ldb), beta, c, static_cast<int>(ldc));
    } else {  // c's row = op(b)^T @ a's row
      cblas_sgemv(CblasRowMajor, tb ? CblasNoTrans : CblasTrans, static_cast<int>(tb ? n : k),
                  static_cast<int>(tb ? k : n), alpha, b, static_cast<int>(ldb), a,
                  static_cast<int>(ta ? lda : 1), beta, c, 1);
    }
    return;
  }
  if (m < 4 || n < 16) {
    // Note [Our sgemm]: a skinny product is all packing for our tiles; OpenBLAS's are narrower.
    sync_blas_threads();
    cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans,
                static_cast<int>(m), static_cast<int>(n), static_cast<int>(k), alpha, a,
                static_cast<int>(lda), b, static_cast<int>(ldb), beta, c, static_cast<int>(ldc));
    return;
  }
  HWY_DYNAMIC_DISPATCH(sgemm_dispatch)(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void sgemm_packed_b(int64_t m, int64_t n, int64_t k, const float* a, int64_t lda,
                    const PackB& pack_b, int64_t nc, float beta, float* c, int64_t ldc) {
  if (m <= 0 || n <= 0 || k <= 0)
    return sgemm(false, false, m, n, k, 1.0f, a, lda, nullptr, 1, beta, c, ldc);
  const int64_t nr = HWY_DYNAMIC_DISPATCH(panel_columns)();
  HWY_DYNAMIC_DISPATCH(sgemm_packed_dispatch)
  (m, n, k, a, lda, pack_b, std::max(nr, nc / nr * nr), beta, c, ldc);
}

}  // namespace ts::cpu
#endif  // HWY_ONCE
