// Cache-blocked matrix products and dot products of the optimized set; see gemm.h.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "optimized/cpu/gemm.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
// Must come after foreach_target.h.
#include "hwy/highway.h"
#include "optimized/cpu/gemm.h"
#include "optimized/cpu/loops-inl.h"
#include "touchstone/dispatch_macros.h"
#include "touchstone/parallel.h"

HWY_BEFORE_NAMESPACE();
namespace ts::cpu::HWY_NAMESPACE {
namespace {

// Note [Blocked gemm]
// The output is cut into kMB x kNB blocks, computed in parallel (batch included). For each block
// k runs in slices of kKB: the slice of a is packed 4 rows interleaved (rows padded with zeros
// to a multiple of 4), the slice of b in panels of `jr` columns (padded with zeros), both
// converted to the accumulation type: float for float16/bfloat16, the unsigned type of at least
// 32 bits for integers (wrapping arithmetic is exact modulo 2^bits, so it equals the
// reference's int64 arithmetic wrapped to the dtype). A 4 x jr micro-tile accumulates in
// registers over the slice. The epilogue applies alpha and beta and rounds once to the dtype.
constexpr int64_t kMB = 64, kNB = 256, kKB = 256;
// Multiply-adds per parallel task, at least: small products run on one thread.
constexpr int64_t kMinTaskMacs = int64_t{1} << 18;

template <typename T>
using acc_t =
    std::conditional_t<std::is_integral_v<T>,
                       std::conditional_t<(sizeof(T) < 8), uint32_t, uint64_t>, compute_t<T>>;

template <typename T>
HWY_INLINE acc_t<T> to_acc(T v) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<acc_t<T>>(v);  // modular: sign extension is harmless mod 2^bits
  } else {
    return static_cast<acc_t<T>>(v);
  }
}

// Micro-tile width: two vectors for floating accumulators, 64 bytes for integer ones.
template <typename Acc>
int64_t micro_width() {
  if constexpr (std::is_integral_v<Acc>) {
    return 64 / static_cast<int64_t>(sizeof(Acc));
  } else {
    return 2 * static_cast<int64_t>(hn::Lanes(hn::ScalableTag<Acc>()));
  }
}

// c[r * ldc + j] += sum_l ap[l * 4 + r] * bp[l * jr + j] for r < 4, j < jr.
template <typename Acc>
HWY_INLINE void micro_tile(const Acc* HWY_RESTRICT ap, const Acc* HWY_RESTRICT bp, Acc* c,
                           int64_t ldc, int64_t nk) {
  if constexpr (std::is_integral_v<Acc>) {
    constexpr int64_t jr = 64 / sizeof(Acc);
    Acc acc[4][jr];
    for (int r = 0; r < 4; ++r) {
      for (int64_t j = 0; j < jr; ++j) acc[r][j] = c[r * ldc + j];
    }
    for (int64_t l = 0; l < nk; ++l) {
      for (int r = 0; r < 4; ++r) {
        const Acc a = ap[l * 4 + r];
        for (int64_t j = 0; j < jr; ++j) acc[r][j] += a * bp[l * jr + j];
      }
    }
    for (int r = 0; r < 4; ++r) {
      for (int64_t j = 0; j < jr; ++j) c[r * ldc + j] = acc[r][j];
    }
  } else {
    const hn::ScalableTag<Acc> d;
    const auto L = static_cast<int64_t>(hn::Lanes(d));
    auto c00 = hn::LoadU(d, c), c01 = hn::LoadU(d, c + L);
    auto c10 = hn::LoadU(d, c + ldc), c11 = hn::LoadU(d, c + ldc + L);
    auto c20 = hn::LoadU(d, c + 2 * ldc), c21 = hn::LoadU(d, c + 2 * ldc + L);
    auto c30 = hn::LoadU(d, c + 3 * ldc), c31 = hn::LoadU(d, c + 3 * ldc + L);
    for (int64_t l = 0; l < nk; ++l) {
      const auto b0 = hn::LoadU(d, bp + l * 2 * L), b1 = hn::LoadU(d, bp + l * 2 * L + L);
      auto a = hn::Set(d, ap[l * 4]);
      c00 = hn::MulAdd(a, b0, c00);
      c01 = hn::MulAdd(a, b1, c01);
      a = hn::Set(d, ap[l * 4 + 1]);
      c10 = hn::MulAdd(a, b0, c10);
      c11 = hn::MulAdd(a, b1, c11);
      a = hn::Set(d, ap[l * 4 + 2]);
      c20 = hn::MulAdd(a, b0, c20);
      c21 = hn::MulAdd(a, b1, c21);
      a = hn::Set(d, ap[l * 4 + 3]);
      c30 = hn::MulAdd(a, b0, c30);
      c31 = hn::MulAdd(a, b1, c31);
    }
    hn::StoreU(c00, d, c);
    hn::StoreU(c01, d, c + L);
    hn::StoreU(c10, d, c + ldc);
    hn::StoreU(c11, d, c + ldc + L);
    hn::StoreU(c20, d, c + 2 * ldc);
    hn::StoreU(c21, d, c + 2 * ldc + L);
    hn::StoreU(c30, d, c + 3 * ldc);
    hn::StoreU(c31, d, c + 3 * ldc + L);
  }
}

template <typename T>
void gemm_typed(const GemmPlan& g) {
  using Acc = acc_t<T>;
  const int64_t jr = micro_width<Acc>();
  const int64_t row_blocks = (g.n + kMB - 1) / kMB, col_blocks = (g.p + kNB - 1) / kNB;
  const T* A = static_cast<const T*>(g.a.data);
  const T* B = static_cast<const T*>(g.b.data);
  const T* S = static_cast<const T*>(g.self.data);
  T* out = static_cast<T*>(g.out);
  Acc alpha, beta;
  if constexpr (std::is_integral_v<T>) {
    alpha = static_cast<Acc>(static_cast<uint64_t>(g.ialpha));
    beta = static_cast<Acc>(static_cast<uint64_t>(g.ibeta));
  } else {
    alpha = static_cast<Acc>(g.alpha);
    beta = static_cast<Acc>(g.beta);
  }
  const int64_t task_macs = std::min(kMB, g.n) * std::min(kNB, g.p) * std::max<int64_t>(g.m, 1);
  const int64_t grain = std::max<int64_t>(1, kMinTaskMacs / task_macs);
  parallel_for(0, g.batch * row_blocks * col_blocks, grain, [&](int64_t t0, int64_t t1) {
    std::vector<Acc> apack(kMB * kKB), bpack(kKB * kNB), tile(kMB * kNB);
    for (int64_t t = t0; t < t1; ++t) {
      const int64_t bi = t / (row_blocks * col_blocks);
      const int64_t i0 = (t / col_blocks % row_blocks) * kMB, j0 = (t % col_blocks) * kNB;
      const int64_t ni = std::min(kMB, g.n - i0), nj = std::min(kNB, g.p - j0);
      const int64_t nip = (ni + 3) / 4 * 4, njp = (nj + jr - 1) / jr * jr;
      const T* a = A + bi * g.a.batch_stride + i0 * g.a.row_stride;
      const T* b = B + bi * g.b.batch_stride + j0 * g.b.col_stride;
      std::fill(tile.begin(), tile.begin() + nip * njp, Acc(0));
      for (int64_t l0 = 0; l0 < g.m; l0 += kKB) {
        const int64_t nk = std::min(kKB, g.m - l0);
        for (int64_t r = 0; r < nip; ++r) {
          Acc* dst = apack.data() + (r / 4) * 4 * nk + r % 4;
          if (r >= ni) {
            for (int64_t l = 0; l < nk; ++l) dst[l * 4] = Acc(0);
            continue;
          }
          const T* src = a + r * g.a.row_stride + l0 * g.a.col_stride;
          for (int64_t l = 0; l < nk; ++l) dst[l * 4] = to_acc(src[l * g.a.col_stride]);
        }
        for (int64_t l = 0; l < nk; ++l) {
          const T* src = b + (l0 + l) * g.b.row_stride;
          for (int64_t j = 0; j < njp; ++j) {
            bpack[(j / jr) * jr * nk + l * jr + j % jr] =
                j < nj ? to_acc(src[j * g.b.col_stride]) : Acc(0);
          }
        }
        for (int64_t ib = 0; ib < nip; ib += 4) {
          for (int64_t jb = 0; jb < njp; jb += jr) {
            micro_tile<Acc>(apack.data() + ib * nk, bpack.data() + jb * nk,
                            tile.data() + ib * njp + jb, njp, nk);
          }
        }
      }
      for (int64_t r = 0; r < ni; ++r) {
        const int64_t i = i0 + r;
        T* o = out + bi * g.out_batch_stride + i * g.out_row_stride;
        const T* s = S == nullptr ? nullptr : S + bi * g.self.batch_stride + i * g.self.row_stride;
        for (int64_t jj = 0; jj < nj; ++jj) {
          const int64_t j = j0 + jj;
          Acc v = alpha * tile[r * njp + jj];
          if (s != nullptr) v += beta * to_acc(s[j * g.self.col_stride]);
          o[j * g.out_col_stride] = static_cast<T>(v);
        }
      }
    }
  });
}

constexpr int64_t kDotChunk = 1 << 16;

template <typename T>
void dot_typed(const T* a, int64_t sa, const T* b, int64_t sb, int64_t n, T* out) {
  using Acc = acc_t<T>;
  using Partial = std::conditional_t<std::is_integral_v<T>, Acc, double>;
  const int64_t nchunks = (n + kDotChunk - 1) / kDotChunk;
  std::vector<Partial> partial(static_cast<size_t>(nchunks));
  parallel_for_fixed(0, n, kDotChunk, [&](int64_t ci, int64_t begin, int64_t end) {
    Acc acc[8] = {};
    int64_t i = begin;
    for (; i + 8 <= end; i += 8) {
      for (int k = 0; k < 8; ++k) acc[k] += to_acc(a[(i + k) * sa]) * to_acc(b[(i + k) * sb]);
    }
    for (; i < end; ++i) acc[0] += to_acc(a[i * sa]) * to_acc(b[i * sb]);
    Partial s = 0;
    for (Acc v : acc) s += static_cast<Partial>(v);
    partial[ci] = s;
  });
  Partial total = 0;
  for (Partial v : partial) total += v;
  *out = static_cast<T>(static_cast<acc_t<T>>(total));
}

}  // namespace

void gemm_run(const GemmPlan& g) {
  TS_DISPATCH_ALL_TYPES_AND_REDUCED(g.dtype, "gemm", [&] { gemm_typed<scalar_t>(g); });
}

void dot_run(ScalarType t, const void* a, int64_t sa, const void* b, int64_t sb, int64_t n,
             void* out) {
  TS_DISPATCH_ALL_TYPES_AND_REDUCED(t, "dot", [&] {
    dot_typed<scalar_t>(static_cast<const scalar_t*>(a), sa, static_cast<const scalar_t*>(b), sb, n,
                        static_cast<scalar_t*>(out));
  });
}

}  // namespace ts::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace ts::cpu {

HWY_EXPORT(gemm_run);
HWY_EXPORT(dot_run);

void blocked_gemm(const GemmPlan& g) {
  if (g.batch == 0 || g.n == 0 || g.p == 0) return;
  HWY_DYNAMIC_DISPATCH(gemm_run)(g);
}

void blocked_dot(ScalarType dtype, const void* a, int64_t sa, const void* b, int64_t sb, int64_t n,
                 void* out) {
  HWY_DYNAMIC_DISPATCH(dot_run)(dtype, a, sa, b, sb, n, out);
}

}  // namespace ts::cpu
#endif  // HWY_ONCE
