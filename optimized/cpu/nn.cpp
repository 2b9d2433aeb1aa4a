// Optimized CPU kernels for softmax, log_softmax and layer_norm: fused per row, vectorized with
// Highway, rows in parallel; the nn family's registration. nll_loss and mse_loss are in
// nn_loss.cpp. Params: see the top of lib/src/ops/nn.cpp; the semantics are the reference kernels'
// (reference/nn.cpp).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "optimized/cpu/nn.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
// Must come after foreach_target.h.
#include "hwy/contrib/math/math-inl.h"
#include "hwy/highway.h"
#include "optimized/cpu/loops-inl.h"
#include "optimized/cpu/nn.h"

HWY_BEFORE_NAMESPACE();
namespace ts::cpu::HWY_NAMESPACE {
namespace {

// Note [Fused softmax]
// A row is read three times, all but the first from cache: (1) its max, while looking for NaN;
// (2) exp(x - max), summed (softmax also stores it); (3) the output: softmax scales the stored
// exps by 1 / sum, log_softmax writes (x - max) - log(sum). A row with a NaN, or whose max is
// infinite, is NaN throughout, as the reference's x - max turns it into. Otherwise x - max is in
// [-inf, 0] and ExpNonPositive is exact to Highway's 1 ULP. Sums run in compute-type vectors
// over blocks of kSumBlock elements, added up in double, so the error does not grow with n.
// Softmax over a dim that is not contiguous runs "columns": the lanes of 1 to 4 vectors of
// neighbouring rows along a contiguous dim go through the same three passes, each lane its own
// row; the panel is as wide as keeps n rows of it within kPanelBytes, so passes 2 and 3 hit cache.
constexpr int64_t kSumBlock = 2048;
constexpr int64_t kPanelBytes = 256 * 1024;

template <class D, class V>
HWY_INLINE V ExpNonPositive(D d, V x) {
  using T = hn::TFromD<D>;
  // Below Highway's lower bound Exp returns exactly 0; clamping keeps -inf out of its int math.
  return hn::Exp(d, hn::Max(x, hn::Set(d, static_cast<T>(sizeof(T) == 4 ? -105.0 : -1001.0))));
}

// One row of n contiguous elements, x -> y (y may be x).
template <typename C>
void softmax_row(const C* x, C* y, int64_t n, bool log) {
  const hn::ScalableTag<C> d;
  const hn::CappedTag<C, 1> d1;
  const auto L = static_cast<int64_t>(hn::Lanes(d));
  // (1) max, and whether any element is NaN.
  auto m0 = hn::Set(d, -std::numeric_limits<C>::infinity()), m1 = m0;
  auto nan0 = hn::IsNaN(hn::Zero(d)), nan1 = nan0;
  int64_t i = 0;
  for (; i + 2 * L <= n; i += 2 * L) {
    const auto a = hn::LoadU(d, x + i), b = hn::LoadU(d, x + i + L);
    m0 = hn::Max(m0, a);
    m1 = hn::Max(m1, b);
    nan0 = hn::Or(nan0, hn::IsNaN(a));
    nan1 = hn::Or(nan1, hn::IsNaN(b));
  }
  bool has_nan = !hn::AllFalse(d, hn::Or(nan0, nan1));
  C max = hn::GetLane(hn::MaxOfLanes(d, hn::Max(m0, m1)));
  for (; i < n; ++i) {
    has_nan |= std::isnan(x[i]);
    max = x[i] > max ? x[i] : max;
  }
  if (has_nan || !std::isfinite(max)) {
    std::fill(y, y + n, std::numeric_limits<C>::quiet_NaN());
    return;
  }
  // (2) sum of exp(x - max), in blocks added up in double.
  const auto vmax = hn::Set(d, max);
  double sum = 0;
  for (int64_t b = 0; b < n; b += kSumBlock) {
    const int64_t e = std::min(n, b + kSumBlock);
    auto s0 = hn::Zero(d), s1 = s0;
    C tail = 0;
    int64_t k = b;
    for (; k + 2 * L <= e; k += 2 * L) {
      const auto e0 = ExpNonPositive(d, hn::Sub(hn::LoadU(d, x + k), vmax));
      const auto e1 = ExpNonPositive(d, hn::Sub(hn::LoadU(d, x + k + L), vmax));
      if (!log) {
        hn::StoreU(e0, d, y + k);
        hn::StoreU(e1, d, y + k + L);
      }
      s0 = hn::Add(s0, e0);
      s1 = hn::Add(s1, e1);
    }
    for (; k < e; ++k) {
      const auto e0 = ExpNonPositive(d1, hn::Sub(hn::LoadU(d1, x + k), hn::Set(d1, max)));
      if (!log) hn::StoreU(e0, d1, y + k);
      tail += hn::GetLane(e0);
    }
    sum += static_cast<double>(hn::GetLane(hn::SumOfLanes(d, hn::Add(s0, s1)))) + tail;
  }
  // (3) the output.
  if (log) {
    const auto vlog = hn::Set(d, static_cast<C>(std::log(sum)));
    for (i = 0; i + L <= n; i += L) {
      hn::StoreU(hn::Sub(hn::Sub(hn::LoadU(d, x + i), vmax), vlog), d, y + i);
    }
    for (; i < n; ++i) y[i] = (x[i] - max) - static_cast<C>(std::log(sum));
  } else {
    const auto inv = hn::Set(d, static_cast<C>(1.0 / sum));
    for (i = 0; i + L <= n; i += L) hn::StoreU(hn::Mul(hn::LoadU(d, y + i), inv), d, y + i);
    for (; i < n; ++i) y[i] = y[i] * static_cast<C>(1.0 / sum);
  }
}

// A panel of kV vectors of columns: element (k, j) is x[k * xs + j]; y may be x.
template <typename C, int kV>
void softmax_cols(const C* x, int64_t xs, C* y, int64_t ys, int64_t n, bool log) {
  const hn::ScalableTag<C> d;
  using V = hn::Vec<decltype(d)>;
  using M = hn::Mask<decltype(d)>;
  const auto L = static_cast<int64_t>(hn::Lanes(d));
  V m[kV];
  M bad[kV];
  for (int v = 0; v < kV; ++v) {
    m[v] = hn::Set(d, -std::numeric_limits<C>::infinity());
    bad[v] = hn::IsNaN(hn::Zero(d));
  }
  for (int64_t k = 0; k < n; ++k) {
    for (int v = 0; v < kV; ++v) {
      const V a = hn::LoadU(d, x + k * xs + v * L);
      m[v] = hn::Max(m[v], a);
      bad[v] = hn::Or(bad[v], hn::IsNaN(a));
    }
  }
  for (int v = 0; v < kV; ++v) bad[v] = hn::Or(bad[v], hn::IsInf(m[v]));
  // Sums per lane, in blocks added up in double; bad lanes compute exp(0) and are NaN later.
  constexpr size_t kMaxLanes = hn::MaxLanes(hn::ScalableTag<C>());
  HWY_ALIGN C part[kV * kMaxLanes];
  double sum[kV * kMaxLanes] = {};
  for (int64_t b = 0; b < n; b += kSumBlock) {
    const int64_t e = std::min(n, b + kSumBlock);
    V s[kV];
    for (int v = 0; v < kV; ++v) s[v] = hn::Zero(d);
    for (int64_t k = b; k < e; ++k) {
      for (int v = 0; v < kV; ++v) {
        const V z = hn::IfThenZeroElse(bad[v], hn::Sub(hn::LoadU(d, x + k * xs + v * L), m[v]));
        const V ez = ExpNonPositive(d, z);
        if (!log) hn::StoreU(ez, d, y + k * ys + v * L);
        s[v] = hn::Add(s[v], ez);
      }
    }
    for (int v = 0; v < kV; ++v) hn::Store(s[v], d, part + v * L);
    for (int64_t j = 0; j < kV * L; ++j) sum[j] += static_cast<double>(part[j]);
  }
  // Per lane: 1 / sum or log(sum), NaN for bad lanes.
  V f[kV];
  for (int v = 0; v < kV; ++v) {
    for (int64_t j = 0; j < L; ++j) {
      const double s = sum[v * L + j];
      part[v * L + j] = static_cast<C>(log ? std::log(s) : 1.0 / s);
    }
    f[v] = hn::IfThenElse(bad[v], hn::Set(d, std::numeric_limits<C>::quiet_NaN()),
                          hn::Load(d, part + v * L));
  }
  for (int64_t k = 0; k < n; ++k) {
    for (int v = 0; v < kV; ++v) {
      C* py = y + k * ys + v * L;
      if (log) {
        const V z = hn::Sub(hn::LoadU(d, x + k * xs + v * L), m[v]);
        hn::StoreU(hn::Sub(z, f[v]), d, py);
      } else {
        hn::StoreU(hn::Mul(hn::LoadU(d, py), f[v]), d, py);
      }
    }
  }
}

template <typename T>
void softmax_typed(const SoftmaxPlan& p) {
  using C = compute_t<T>;
  const hn::ScalableTag<C> d;
  // Panels of 1, 2 or 4 vectors, as wide as fits kPanelBytes (three passes stay in cache).
  const int64_t vectors = std::clamp<int64_t>(
      kPanelBytes / (p.n * static_cast<int64_t>(hn::Lanes(d) * sizeof(C))), 1, 4);
  const int64_t cols = (vectors == 3 ? 2 : vectors) * static_cast<int64_t>(hn::Lanes(d));
  auto cols_kernel = [&](const C* x, int64_t xs, C* y, int64_t ys) {
    if (cols == static_cast<int64_t>(hn::Lanes(d)))
      return softmax_cols<C, 1>(x, xs, y, ys, p.n, p.log);
    if (cols == 2 * static_cast<int64_t>(hn::Lanes(d)))
      return softmax_cols<C, 2>(x, xs, y, ys, p.n, p.log);
    softmax_cols<C, 4>(x, xs, y, ys, p.n, p.log);
  };
  const bool row_mode = p.width == 1;
  const int64_t nblocks = row_mode ? 1 : (p.width + cols - 1) / cols;
  const int64_t units = p.outer_numel() * nblocks;
  const int64_t work = p.n * (row_mode ? 1 : cols);
  const T* in = static_cast<const T*>(p.in);
  T* out = static_cast<T*>(p.out);
  parallel_for(0, units, std::max<int64_t>(1, kGrain / work), [&](int64_t u0, int64_t u1) {
    std::vector<C> buf;
    for (int64_t u = u0; u < u1; ++u) {
      const auto [oi, oo] = p.outer_offsets(u / nblocks);
      if (row_mode) {
        const T* x = in + oi;
        T* y = out + oo;
        if constexpr (std::is_same_v<T, C>) {
          if (p.in_step == 1 && p.out_step == 1) {
            softmax_row<C>(x, y, p.n, p.log);
            continue;
          }
        }
        buf.resize(static_cast<size_t>(p.n));
        for (int64_t k = 0; k < p.n; ++k) buf[k] = static_cast<C>(x[k * p.in_step]);
        softmax_row<C>(buf.data(), buf.data(), p.n, p.log);
        for (int64_t k = 0; k < p.n; ++k) y[k * p.out_step] = T(buf[k]);
        continue;
      }
      const int64_t j0 = (u % nblocks) * cols;
      const int64_t w = std::min(cols, p.width - j0);
      const T* x = in + oi + j0 * p.in_lane;
      T* y = out + oo + j0 * p.out_lane;
      if constexpr (std::is_same_v<T, C>) {
        if (w == cols && p.in_lane == 1 && p.out_lane == 1) {
          cols_kernel(x, p.in_step, y, p.out_step);
          continue;
        }
      }
      // Gather (and convert) the panel, zero-padded to full width.
      buf.assign(static_cast<size_t>(p.n * cols), C(0));
      for (int64_t k = 0; k < p.n; ++k) {
        for (int64_t j = 0; j < w; ++j)
          buf[k * cols + j] = static_cast<C>(x[k * p.in_step + j * p.in_lane]);
      }
      cols_kernel(buf.data(), cols, buf.data(), cols);
      for (int64_t k = 0; k < p.n; ++k) {
        for (int64_t j = 0; j < w; ++j) y[k * p.out_step + j * p.out_lane] = T(buf[k * cols + j]);
      }
    }
  });
}

// ---- layer_norm ----

// Sum of f(x[i]) over n elements, by vectors in blocks of kSumBlock, added up in double.
template <typename C, class F>
double block_sum(const C* x, int64_t n, const F& f) {
  const hn::ScalableTag<C> d;
  const hn::CappedTag<C, 1> d1;
  const auto L = static_cast<int64_t>(hn::Lanes(d));
  double total = 0;
  for (int64_t b = 0; b < n; b += kSumBlock) {
    const int64_t e = std::min(n, b + kSumBlock);
    auto s0 = hn::Zero(d), s1 = s0;
    auto t = hn::Zero(d1);
    int64_t k = b;
    for (; k + 2 * L <= e; k += 2 * L) {
      s0 = hn::Add(s0, f(d, hn::LoadU(d, x + k)));
      s1 = hn::Add(s1, f(d, hn::LoadU(d, x + k + L)));
    }
    for (; k < e; ++k) t = hn::Add(t, f(d1, hn::LoadU(d1, x + k)));
    total += static_cast<double>(hn::GetLane(hn::SumOfLanes(d, hn::Add(s0, s1))));
    total += static_cast<double>(hn::GetLane(t));
  }
  return total;
}

// Sums of x[i] - c and of (x[i] - c)^2 over n elements, blocked as block_sum.
template <typename C>
std::pair<double, double> centered_sums(const C* x, int64_t n, C c) {
  const hn::ScalableTag<C> d;
  const hn::CappedTag<C, 1> d1;
  const auto L = static_cast<int64_t>(hn::Lanes(d));
  double s1 = 0, s2 = 0;
  for (int64_t b = 0; b < n; b += kSumBlock) {
    const int64_t e = std::min(n, b + kSumBlock);
    auto a1 = hn::Zero(d), a2 = a1;
    auto t1 = hn::Zero(d1), t2 = t1;
    int64_t k = b;
    for (; k + L <= e; k += L) {
      const auto v = hn::Sub(hn::LoadU(d, x + k), hn::Set(d, c));
      a1 = hn::Add(a1, v);
      a2 = hn::MulAdd(v, v, a2);
    }
    for (; k < e; ++k) {
      const auto v = hn::Sub(hn::LoadU(d1, x + k), hn::Set(d1, c));
      t1 = hn::Add(t1, v);
      t2 = hn::MulAdd(v, v, t2);
    }
    s1 += static_cast<double>(hn::GetLane(hn::SumOfLanes(d, a1))) + hn::GetLane(t1);
    s2 += static_cast<double>(hn::GetLane(hn::SumOfLanes(d, a2))) + hn::GetLane(t2);
  }
  return {s1, s2};
}

// Note [Corrected two-pass moments]
// The first pass's mean m0, rounded to C, can be an ulp off even on a row of equal values (n x
// rounds), and that ulp times rstd = 1/sqrt(eps) = 316 is the output instead of 0. The second
// pass sums d = x - m0 and d^2; mean = m0 + sum(d) / n and var = (sum(d^2) - sum(d)^2 / n) / n
// (the corrected two-pass algorithm, Chan, Golub and LeVeque 1983) put a constant row's mean on
// its value and its variance at 0, as the reference and ATen's Welford moments do.
// y = (x - mean) / sqrt(var + eps) * w + b over one row of m contiguous elements (y may be x);
// w and b may be null.
template <typename C>
void layer_norm_row(const C* x, C* y, const C* w, const C* b, int64_t m, double eps) {
  const hn::ScalableTag<C> d;
  const hn::CappedTag<C, 1> d1;
  const auto n = static_cast<double>(m);
  const auto m0 = static_cast<C>(block_sum(x, m, [](auto, auto v) { return v; }) / n);
  const auto [dev, dev2] = centered_sums(x, m, m0);
  const auto mc = static_cast<C>(static_cast<double>(m0) + dev / n);
  double var = (dev2 - dev * dev / n) / n;
  if (var < 0) var = 0;  // rounding; NaN stays
  const auto rstd = static_cast<C>(1.0 / std::sqrt(var + eps));
  auto row = [&](auto dd, int64_t i) {
    auto v = hn::Mul(hn::Sub(hn::LoadU(dd, x + i), hn::Set(dd, mc)), hn::Set(dd, rstd));
    if (w != nullptr) v = hn::Mul(v, hn::LoadU(dd, w + i));
    if (b != nullptr) v = hn::Add(v, hn::LoadU(dd, b + i));
    hn::StoreU(v, dd, y + i);
  };
  const auto L = static_cast<int64_t>(hn::Lanes(d));
  int64_t i = 0;
  for (; i + L <= m; i += L) row(d, i);
  for (; i < m; ++i) row(d1, i);
}

template <typename T>
void layer_norm_typed(const LayerNormPlan& p) {
  using C = compute_t<T>;
  const T* x = static_cast<const T*>(p.x);
  T* y = static_cast<T*>(p.y);
  // float16/bfloat16 weight and bias are converted once; rows go through a float buffer.
  std::vector<C> wb[2];
  const C* wp[2] = {nullptr, nullptr};
  const void* src[2] = {p.w, p.b};
  for (int k = 0; k < 2; ++k) {
    if (src[k] == nullptr) continue;
    const T* s = static_cast<const T*>(src[k]);
    if constexpr (std::is_same_v<T, C>) {
      wp[k] = s;
    } else {
      wb[k].assign(s, s + p.m);
      wp[k] = wb[k].data();
    }
  }
  parallel_for(0, p.rows, std::max<int64_t>(1, kGrain / std::max<int64_t>(1, p.m)),
               [&](int64_t r0, int64_t r1) {
                 std::vector<C> buf;
                 for (int64_t r = r0; r < r1; ++r) {
                   const T* xr = x + r * p.m;
                   T* yr = y + r * p.m;
                   if constexpr (std::is_same_v<T, C>) {
                     layer_norm_row<C>(xr, yr, wp[0], wp[1], p.m, p.eps);
                   } else {
                     buf.assign(xr, xr + p.m);
                     layer_norm_row<C>(buf.data(), buf.data(), wp[0], wp[1], p.m, p.eps);
                     for (int64_t i = 0; i < p.m; ++i) yr[i] = T(buf[i]);
                   }
                 }
               });
}

}  // namespace

void softmax_run(const SoftmaxPlan& p) {
  switch (p.dtype) {
    case kFloat:
      return softmax_typed<float>(p);
    case kDouble:
      return softmax_typed<double>(p);
    case kHalf:
      return softmax_typed<Half>(p);
    default:
      return softmax_typed<BFloat16>(p);
  }
}

void layer_norm_run(const LayerNormPlan& p) {
  switch (p.dtype) {
    case kFloat:
      return layer_norm_typed<float>(p);
    case kDouble:
      return layer_norm_typed<double>(p);
    case kHalf:
      return layer_norm_typed<Half>(p);
    default:
      return layer_norm_typed<BFloat16>(p);
  }
}

}  // namespace ts::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "touchstone/kernel_family.h"
#include "touchstone/ops.h"
namespace ts::cpu {
namespace {

HWY_EXPORT(softmax_run);
HWY_EXPORT(layer_norm_run);

// Note [Softmax layouts]
// The dims other than the softmax dim are coalesced where both input and output allow. Row mode
// runs when the softmax dim is contiguous in the input and long enough to fill vectors; else
// column mode runs along the remaining dim with the smallest input stride (contiguous in every
// layout PyTorch makes), gathering panels when it is not contiguous. Without such a dim, rows
// are gathered. The other dims are walked as outer rows.
constexpr int64_t kMinRowMode = 16;

SoftmaxPlan make_softmax_plan(const Tensor& in, const Tensor& out, int64_t dim, bool log) {
  SoftmaxPlan p;
  p.log = log;
  p.dtype = in.dtype();
  p.in = in.data_ptr();
  p.out = out.data_ptr();
  if (in.dim() == 0) return p;  // a row of one
  p.n = in.size(dim);
  p.in_step = in.stride(dim);
  p.out_step = out.stride(dim);
  SoftmaxPlan others;  // the other dims, coalesced
  for (int64_t k = 0; k < in.dim(); ++k) {
    const int64_t s = in.size(k), si = in.stride(k), so = out.stride(k);
    if (k == dim || s == 1) continue;
    if (!others.sizes.empty() && others.in_strides.back() == s * si &&
        others.out_strides.back() == s * so) {
      others.sizes.back() *= s;
      others.in_strides.back() = si;
      others.out_strides.back() = so;
      continue;
    }
    others.add_outer(s, si, so);
  }
  int64_t lane = -1;
  if (p.in_step != 1 || p.n < kMinRowMode) {
    for (size_t k = 0; k < others.sizes.size(); ++k) {
      if (lane < 0 || others.in_strides[k] < others.in_strides[lane])
        lane = static_cast<int64_t>(k);
    }
  }
  for (size_t k = 0; k < others.sizes.size(); ++k) {
    if (static_cast<int64_t>(k) == lane) {
      p.width = others.sizes[k];
      p.in_lane = others.in_strides[k];
      p.out_lane = others.out_strides[k];
    } else {
      p.add_outer(others.sizes[k], others.in_strides[k], others.out_strides[k]);
    }
  }
  return p;
}

void softmax_kernel(const KernelCall& c, bool log) {
  const ScalarType ct = c.p.compute_dtype;
  const Tensor& out = c.outputs[0];
  if (out.numel() == 0) return;
  // Inputs of another dtype (the dtype argument) are converted first; outputs of another dtype
  // (out=) are written through a temporary, both rounding once to the compute dtype.
  const Tensor in = c.inputs[0].dtype() == ct ? c.inputs[0] : c.inputs[0].to(ct);
  const Tensor target = out.dtype() == ct ? out : empty(out.sizes(), TensorOptions(ct));
  HWY_DYNAMIC_DISPATCH(softmax_run)
  (make_softmax_plan(in, target, c.params<DimParams>().dim, log));
  if (!target.is_same(out)) out.copy_(target);
}

void layer_norm_kernel(const KernelCall& c) {
  const Tensor& result = c.outputs[0];
  if (result.numel() == 0) return;
  const Tensor out = result.is_contiguous() ? result : empty(result.sizes(), result.options());
  const LayerNormParams& params = c.params<LayerNormParams>();
  LayerNormPlan p;
  p.dtype = c.p.compute_dtype;
  p.m = 1;
  for (int64_t d : params.dims) p.m *= out.size(d);
  p.rows = out.numel() / p.m;
  p.eps = params.eps;
  const Tensor x = c.inputs[0].contiguous();
  const Tensor w = c.inputs[1].defined() ? c.inputs[1].contiguous() : Tensor();
  const Tensor b = c.inputs[2].defined() ? c.inputs[2].contiguous() : Tensor();
  p.x = x.data_ptr();
  p.w = w.defined() ? w.data_ptr() : nullptr;
  p.b = b.defined() ? b.data_ptr() : nullptr;
  p.y = out.data_ptr();
  HWY_DYNAMIC_DISPATCH(layer_norm_run)(p);
  if (!out.is_same(result)) result.copy_(out);
}

// One branch per Softmax, Norm and Loss kernel op of op_list.def (registered below); the loss
// kernels are nn_loss.cpp's.
template <OpId op>
void nn_kernel(const KernelCall& c) {
  if constexpr (op == OpId::softmax || op == OpId::log_softmax) {
    softmax_kernel(c, op == OpId::log_softmax);
  } else if constexpr (op == OpId::layer_norm) {
    layer_norm_kernel(c);
  } else if constexpr (op == OpId::nll_loss) {
    nll_loss_kernel(c);
  } else if constexpr (op == OpId::mse_loss) {
    mse_loss_kernel(c);
  } else {
    static_assert(kMissingKernel<op>, "an nn op without its optimized CPU kernel");
  }
}

}  // namespace

TS_REGISTER_KERNELS(optimized, nn) {
  for_each_kernel_op<OpSignature::Softmax, OpSignature::Norm, OpSignature::Loss>(
      [&](auto op) { m.impl(op, kCPU, nn_kernel<op>); });
}

}  // namespace ts::cpu
#endif  // HWY_ONCE
