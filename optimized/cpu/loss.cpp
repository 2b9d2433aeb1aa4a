// Optimized CPU kernels for the losses of issue 16 with kernels of their own: binary_cross_entropy
// and ctc_loss. Params: see the top of lib/src/ops/loss.cpp; the semantics are the reference
// kernels' (reference/loss.cpp).
// Note [Loss kernels]
// binary_cross_entropy: contiguous elements in fixed chunks (parallel_for_fixed), Highway vectors
// for float32 and float64 (log and log1p of unary-inl.h), float16 and bfloat16 in float; Sum and
// Mean add the chunk sums in double in chunk order, so the result does not depend on the thread
// count. ctc_loss: one sample per task (parallel_for over the batch), alpha and beta in double.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "optimized/cpu/loss.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
// Must come after foreach_target.h.
#include "hwy/highway.h"
#include "optimized/cpu/elementwise.h"
#include "optimized/cpu/unary-inl.h"

HWY_BEFORE_NAMESPACE();
namespace ts::cpu::HWY_NAMESPACE {
namespace {

// The loss of x[i], y[i] (times w[i] when w is not null), written to out[i] when out is not
// null; returns the sum of the losses in double.
template <typename T>
double bce_typed(const T* x, const T* y, const T* w, T* out, int64_t n) {
  using C = compute_t<T>;
  double total = 0;
  int64_t i = 0;
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    const hn::ScalableTag<T> d;
    const auto L = static_cast<int64_t>(hn::Lanes(d));
    const auto floor = hn::Set(d, T(-100));
    const auto one = hn::Set(d, T(1));
    for (; i + L <= n; i += L) {
      const auto xv = hn::LoadU(d, x + i);
      const auto yv = hn::LoadU(d, y + i);
      const auto l1 = hn::Max(VecLog1p(d, hn::Neg(xv)), floor);
      const auto l0 = hn::Max(VecLog(d, xv), floor);
      auto loss = hn::Sub(hn::Mul(hn::Sub(yv, one), l1), hn::Mul(yv, l0));
      if (w != nullptr) loss = hn::Mul(loss, hn::LoadU(d, w + i));
      if (out != nullptr) hn::StoreU(loss, d, out + i);
      HWY_ALIGN T lanes[hn::MaxLanes(d)];
      hn::Store(loss, d, lanes);
      for (int64_t k = 0; k < L; ++k) total += static_cast<double>(lanes[k]);
    }
  }
  for (; i < n; ++i) {
    const C xv = static_cast<C>(x[i]), yv = static_cast<C>(y[i]);
    const C l1 = std::max(static_cast<C>(std::log1p(-xv)), C(-100));
    const C l0 = std::max(static_cast<C>(std::log(xv)), C(-100));
    T loss = T((yv - C(1)) * l1 - yv * l0);
    if (w != nullptr) loss = T(static_cast<C>(loss) * static_cast<C>(w[i]));
    if (out != nullptr) out[i] = loss;
    total += static_cast<double>(static_cast<C>(loss));
  }
  return total;
}

}  // namespace

double bce_chunk(ScalarType t, const void* x, const void* y, const void* w, void* out,
                 int64_t begin, int64_t end) {
  auto run = [&](auto tag) {
    using T = decltype(tag);
    const T* pw = w == nullptr ? nullptr : static_cast<const T*>(w) + begin;
    T* po = out == nullptr ? nullptr : static_cast<T*>(out) + begin;
    return bce_typed<T>(static_cast<const T*>(x) + begin, static_cast<const T*>(y) + begin, pw, po,
                        end - begin);
  };
  switch (t) {
    case kFloat:
      return run(float{});
    case kDouble:
      return run(double{});
    case kHalf:
      return run(Half{});
    default:
      return run(BFloat16{});
  }
}

}  // namespace ts::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "optimized/cpu/ctc_lanes.h"
#include "touchstone/dispatch_macros.h"
#include "touchstone/kernel_family.h"
#include "touchstone/ops.h"
#include "touchstone/parallel.h"

namespace ts::cpu {
namespace {

HWY_EXPORT(bce_chunk);

constexpr int64_t kBceChunk = 16384;
constexpr double kNegInf = -std::numeric_limits<double>::infinity();

// Stores v, rounded to the output's dtype, into a 0-dim result.
void store_result(const Tensor& out, double v) {
  TS_DISPATCH_FLOATING_TYPES_AND_REDUCED(out.dtype(), "loss", [&] {
    *static_cast<scalar_t*>(out.data_ptr()) =
        static_cast<scalar_t>(static_cast<compute_t<scalar_t>>(v));
  });
}

void binary_cross_entropy_kernel(const KernelCall& c) {
  const ScalarType ct = c.p.compute_dtype;
  const Tensor x = c.inputs[0].contiguous();
  const Tensor y = c.inputs[1].contiguous();
  const Tensor w = c.inputs[2].defined() ? c.inputs[2].contiguous() : Tensor();
  const Tensor& result = c.outputs[0];
  const Reduction reduction = c.params<LossParams>().reduction;
  const bool none = reduction == Reduction::None;
  const Tensor out =
      !none || result.is_contiguous() ? result : empty(result.sizes(), result.options());
  const int64_t n = x.numel();
  const int64_t nchunks = (n + kBceChunk - 1) / kBceChunk;
  std::vector<double> partial(static_cast<size_t>(nchunks));
  const void* pw = w.defined() ? w.data_ptr() : nullptr;
  void* po = none ? out.data_ptr() : nullptr;
  parallel_for_fixed(0, n, kBceChunk, [&](int64_t ci, int64_t begin, int64_t end) {
    partial[ci] =
        HWY_DYNAMIC_DISPATCH(bce_chunk)(ct, x.data_ptr(), y.data_ptr(), pw, po, begin, end);
  });
  if (none) {
    if (!out.is_same(result)) result.copy_(out);
    return;
  }
  double total = 0;
  for (double v : partial) total += v;
  store_result(result, reduction == Reduction::Sum ? total : total / static_cast<double>(n));
}

// ---- ctc_loss ----

// Note [ctc_loss's log sums]
// The recursions spent half their time in glibc's log1p. log1p(x) for x in [0, 2] comes from
// log(1 + x) scaled by x / ((1 + x) - 1), which cancels the rounding of 1 + x (Goldberg's
// correction, a few ulps in double). The three predecessors of a state are summed at once,
// m + log1p(exp(b - m) + exp(c - m)) about their largest m, as ATen does; terms at -inf (the
// unreachable states) cost no exp. The sums differ from the reference's chain of log_adds in
// the last bits of the double (conformance: 1,303 cases, none beyond the budget). 50 x 16 x 20,
// float32, 2 threads: 627 -> 558 us (ATen 483-510).
double log1p_unit(double x) {
  const double u = 1.0 + x;
  return u == 1.0 ? x : std::log(u) * (x / (u - 1.0));
}

// log(exp(a) + exp(b) + exp(c)); pass c = -inf for two terms.
double log_sum(double a, double b, double c) {
  const double m = std::max(std::max(a, b), c);
  if (m == kNegInf) return kNegInf;
  double e = 0;
  bool skipped = false;  // the largest term adds exp(0) = 1, once
  for (const double x : {a, b, c}) {
    if (x == m && !skipped) {
      skipped = true;
    } else if (x != kNegInf) {
      e += std::exp(x - m);
    }
  }
  return m + log1p_unit(e);
}

double log_add(double a, double b) {
  return log_sum(a, b, kNegInf);
}

// One sample of ctc_loss (the recursions of reference/loss.cpp): returns the unrounded nll and,
// when grad is not null, writes the sample's gradient rows (C elements, `grad_t` apart per frame).
// Rows of states run in lanes (Note [ctc_loss's rows in lanes]) when every log-probability the
// recursions read is finite or -inf; NaN and +inf take the scalar log_sum.
template <typename T>
double ctc_sample(const T* lp, int64_t st, int64_t sc, int64_t T_max, int64_t C,
                  const std::vector<int64_t>& ext, int64_t il, bool zero_infinity, T* grad,
                  int64_t grad_t) {
  const auto S = static_cast<int64_t>(ext.size());
  const int64_t L = (S - 1) / 2;
  const auto logp = [&](int64_t t, int64_t cls) {
    return static_cast<double>(static_cast<compute_t<T>>(lp[t * st + cls * sc]));
  };
  // Rows padded to whole vectors (kCtcPad): lpe[t * P + s] = logp(t, ext[s]); keep_a[s]
  // (keep_b[s]): state s - 2 (s + 2) may be skipped to reach s.
  const int64_t P = (S + kCtcPad - 1) / kCtcPad * kCtcPad;
  std::vector<double> lpe(static_cast<size_t>(il * P), 0.0), keep_a(static_cast<size_t>(P), 0.0),
      keep_b(static_cast<size_t>(P), 0.0);
  bool lanes = true;
  for (int64_t t = 0; t < il; ++t) {
    for (int64_t s = 0; s < S; ++s) {
      const double v = logp(t, ext[s]);
      lanes = lanes && !std::isnan(v) && v != std::numeric_limits<double>::infinity();
      lpe[t * P + s] = v;
    }
  }
  for (int64_t s = 0; s < S; ++s) {
    keep_a[s] = s >= 2 && ext[s] != ext[s - 2] ? 1.0 : 0.0;
    keep_b[s] = s + 2 < S && ext[s + 2] != ext[s] ? 1.0 : 0.0;
  }
  // alpha row t at alpha[t * R + 2], after two -inf (the predecessors of states 0 and 1); lanes
  // past S hold what nothing reads.
  const int64_t R = P + 2;
  std::vector<double> alpha(static_cast<size_t>(std::max<int64_t>(il, 1) * R), kNegInf);
  const auto at = [&](int64_t t) { return &alpha[t * R + 2]; };
  double nll = L == 0 ? 0.0 : std::numeric_limits<double>::infinity();
  if (il > 0) {
    at(0)[0] = lpe[0];
    if (L > 0) at(0)[1] = lpe[1];
    for (int64_t t = 1; t < il; ++t) {
      const double* prev = at(t - 1);
      double* cur = at(t);
      if (lanes) {
        ctc_log_sum_row(prev, prev - 1, prev - 2, keep_a.data(), &lpe[t * P], S, cur);
        continue;
      }
      for (int64_t s = 0; s < S; ++s) {
        const double a = log_sum(prev[s], prev[s - 1], keep_a[s] == 1.0 ? prev[s - 2] : kNegInf);
        cur[s] = a == kNegInf ? kNegInf : a + lpe[t * P + s];
      }
    }
    const double* last = at(il - 1);
    nll = -(L > 0 ? log_add(last[S - 1], last[S - 2]) : last[S - 1]);
  }
  if (grad == nullptr) return nll;
  const bool zeroed = zero_infinity && std::isinf(static_cast<compute_t<T>>(T(nll)));
  // Two frames, rolling, each followed by two -inf (the successors of the last two states); the
  // lanes past S stay -inf (all their terms are).
  std::vector<double> beta(static_cast<size_t>(2 * R), kNegInf);
  std::vector<double> lcab(static_cast<size_t>(C));
  for (int64_t t = T_max - 1; t >= 0; --t) {
    T* g = grad + t * grad_t;
    if (t >= il || zeroed) {
      std::fill(g, g + C, T(0));
      continue;
    }
    double* cur = &beta[(t % 2) * R];
    const double* next = &beta[((t + 1) % 2) * R];
    if (t == il - 1) {
      for (int64_t s = 0; s < S; ++s) cur[s] = s >= S - 2 ? 0.0 + lpe[t * P + s] : kNegInf;
    } else if (lanes) {
      ctc_log_sum_row(next, next + 1, next + 2, keep_b.data(), &lpe[t * P], S, cur);
    } else {
      for (int64_t s = 0; s < S; ++s) {
        const double b = log_sum(next[s], next[s + 1], keep_b[s] == 1.0 ? next[s + 2] : kNegInf);
        cur[s] = b == kNegInf ? kNegInf : b + lpe[t * P + s];
      }
    }
    std::fill(lcab.begin(), lcab.end(), kNegInf);
    for (int64_t s = 0; s < S; ++s) lcab[ext[s]] = log_add(lcab[ext[s]], at(t)[s] + cur[s]);
    for (int64_t cls = 0; cls < C; ++cls) {
      const double l = logp(t, cls);
      g[cls] = T(static_cast<compute_t<T>>(std::exp(l) - std::exp(lcab[cls] + nll - l)));
    }
  }
  return nll;
}

template <typename T>
void ctc_typed(const KernelCall& c) {
  using Cm = compute_t<T>;
  const Tensor& lp = c.inputs[0];
  const Tensor targets = c.inputs[1].to(kLong).contiguous();
  const CtcLossParams& params = c.params<CtcLossParams>();
  const int64_t T_max = lp.size(0), N = lp.size(1), C = lp.size(2);
  const auto* pt = static_cast<const int64_t*>(targets.data_ptr());
  std::vector<int64_t> offsets(static_cast<size_t>(N) + 1, 0);
  for (int64_t n = 0; n < N; ++n) {
    offsets[n + 1] =
        offsets[n] + (params.concatenated ? params.target_lengths[n] : targets.size(1));
  }
  const bool with_grad = params.with_grad;
  T* grad = with_grad ? static_cast<T*>(c.outputs[1].data_ptr()) : nullptr;
  std::vector<double> losses(static_cast<size_t>(N));
  parallel_for(0, N, 1, [&](int64_t begin, int64_t end) {
    for (int64_t n = begin; n < end; ++n) {
      const int64_t L = params.target_lengths[n];
      std::vector<int64_t> ext(static_cast<size_t>(2 * L + 1), params.blank);
      for (int64_t i = 0; i < L; ++i) ext[2 * i + 1] = pt[offsets[n] + i];
      const T* base = static_cast<const T*>(lp.data_ptr()) + n * lp.stride(1);
      losses[n] =
          ctc_sample<T>(base, lp.stride(0), lp.stride(2), T_max, C, ext, params.input_lengths[n],
                        params.zero_infinity, with_grad ? grad + n * C : nullptr, N * C);
    }
  });
  const Tensor& out = c.outputs[0];
  double total = 0;
  for (int64_t n = 0; n < N; ++n) {
    const Cm rounded = static_cast<Cm>(T(losses[n]));
    const double kept = params.zero_infinity && std::isinf(rounded) ? 0.0 : rounded;
    if (params.reduction == Reduction::None) {
      static_cast<T*>(out.data_ptr())[n * out.stride(0)] = T(static_cast<Cm>(kept));
    } else if (params.reduction == Reduction::Mean) {
      const auto len = static_cast<double>(std::max<int64_t>(params.target_lengths[n], 1));
      total += static_cast<double>(static_cast<Cm>(T(kept / len)));
    } else {
      total += kept;
    }
  }
  if (params.reduction == Reduction::Sum) store_result(out, total);
  if (params.reduction == Reduction::Mean) store_result(out, total / static_cast<double>(N));
}

void ctc_loss_kernel(const KernelCall& c) {
  TS_DISPATCH_FLOATING_TYPES_AND_REDUCED(c.p.compute_dtype, "ctc_loss",
                                         [&] { ctc_typed<scalar_t>(c); });
}

// One branch per LossKernel op of op_list.def (registered below).
template <OpId op>
void loss_kernel(const KernelCall& c) {
  if constexpr (op == OpId::binary_cross_entropy) {
    binary_cross_entropy_kernel(c);
  } else if constexpr (op == OpId::ctc_loss) {
    ctc_loss_kernel(c);
  } else {
    static_assert(kMissingKernel<op>, "a loss op without its optimized kernel");
  }
}

}  // namespace

TS_REGISTER_KERNELS(optimized, loss) {
  for_each_kernel_op<OpSignature::LossKernel>([&](auto op) { m.impl(op, kCPU, loss_kernel<op>); });
}

}  // namespace ts::cpu
#endif  // HWY_ONCE
