// Reference kernels for the losses of issue 16 with kernels of their own: binary_cross_entropy and
// ctc_loss. See Note [Reference kernels] in common.h and the params at the top of
// lib/src/ops/loss.cpp. The math runs in double; each value ATen materializes in the compute
// dtype (a per-element or per-sample loss) is rounded to it once, then reduced in double.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "common.h"
#include "touchstone/kernel_family.h"

namespace ts::reference {
namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

// Stores a reduction's result: Sum of the rounded terms, or Mean over `count` (NaN for none).
void store_reduced(const Tensor& out, ScalarType ct, Reduction reduction, double total,
                   double count) {
  if (reduction == Reduction::Sum) store_double(out.data_ptr(), out.dtype(), round_to(ct, total));
  if (reduction == Reduction::Mean) {
    store_double(out.data_ptr(), out.dtype(), round_to(ct, total / count));
  }
}

// binary_cross_entropy: w * ((y - 1) * max(log(1 - x), -100) - y * max(log(x), -100)), the
// logs clamped at -100 as ATen (so x = 0 or 1 gives a finite loss), rounded before the weight
// is applied (ATen multiplies the materialized loss by weight).
void binary_cross_entropy_kernel(const KernelCall& c) {
  const Tensor& x = c.inputs[0];
  const Tensor& y = c.inputs[1];
  const Tensor& w = c.inputs[2];
  const Tensor& out = c.outputs[0];
  const ScalarType ct = c.p.compute_dtype;
  const Reduction reduction = c.params<LossParams>().reduction;
  double total = 0;
  for_each_index(x.sizes(), [&](IntArrayRef idx) {
    const double xv = load_as_double(element_ptr(x, idx), x.dtype(), ct);
    const double yv = load_as_double(element_ptr(y, idx), y.dtype(), ct);
    double loss = round_to(
        ct, (yv - 1) * std::max(std::log1p(-xv), -100.0) - yv * std::max(std::log(xv), -100.0));
    if (w.defined()) {
      loss = round_to(ct, loss * load_as_double(element_ptr(w, idx), w.dtype(), ct));
    }
    if (reduction == Reduction::None) store_double(element_ptr(out, idx), out.dtype(), loss);
    total += loss;
  });
  store_reduced(out, ct, reduction, total, static_cast<double>(x.numel()));
}

double log_add(double a, double b) {
  const double m = std::max(a, b);
  if (m == kNegInf) return kNegInf;
  return m + std::log(std::exp(a - m) + std::exp(b - m));
}

// ctc_loss: per sample, the negative log of the summed probability of every alignment of the
// extended target l' = (blank, l1, blank, l2, ..., lL, blank) to the first input_length frames
// (Graves et al. 2006, the forward variable alpha in log space):
//   alpha_0(0) = lp_0(blank), alpha_0(1) = lp_0(l1);
//   alpha_t(s) = log(alpha_{t-1}(s) + alpha_{t-1}(s-1) + [l'_s != l'_{s-2}] alpha_{t-1}(s-2))
//                + lp_t(l'_s);
//   nll = -log(alpha_{T-1}(2L) + alpha_{T-1}(2L-1)).
// The gradient output (Note [ctc_loss gradient] in lib/src/ops/loss.cpp) uses beta, the same
// recursion run backwards from the last frame.
void ctc_loss_kernel(const KernelCall& c) {
  const Tensor& lp = c.inputs[0];
  const Tensor& targets = c.inputs[1];
  const ScalarType ct = c.p.compute_dtype;
  const CtcLossParams& params = c.params<CtcLossParams>();
  const int64_t N = lp.size(1), C = lp.size(2);
  const int64_t blank = params.blank;
  double total = 0;
  int64_t offset = 0;
  for (int64_t n = 0; n < N; ++n) {
    const int64_t il = params.input_lengths[n], L = params.target_lengths[n];
    const int64_t S = 2 * L + 1;
    std::vector<int64_t> ext(static_cast<size_t>(S), blank);
    for (int64_t i = 0; i < L; ++i) {
      const void* p =
          params.concatenated ? element_ptr(targets, {offset + i}) : element_ptr(targets, {n, i});
      ext[2 * i + 1] = load_int64(p, targets.dtype());
    }
    offset += L;
    const auto logp = [&](int64_t t, int64_t cls) {
      return load_as_double(element_ptr(lp, {t, n, cls}), lp.dtype(), ct);
    };
    const auto skip_ok = [&](int64_t s) { return s >= 2 && ext[s] != ext[s - 2]; };
    // alpha[t * S + s] and beta likewise, for t < il.
    std::vector<double> alpha(static_cast<size_t>(il * S), kNegInf);
    double nll = L == 0 ? 0.0 : std::numeric_limits<double>::infinity();
    if (il > 0) {
      alpha[0] = logp(0, blank);
      if (L > 0) alpha[1] = logp(0, ext[1]);
      for (int64_t t = 1; t < il; ++t) {
        for (int64_t s = 0; s < S; ++s) {
          const double* prev = &alpha[(t - 1) * S];
          double a = prev[s];
          if (s >= 1) a = log_add(a, prev[s - 1]);
          if (skip_ok(s)) a = log_add(a, prev[s - 2]);
          alpha[t * S + s] = a == kNegInf ? kNegInf : a + logp(t, ext[s]);
        }
      }
      const double* last = &alpha[(il - 1) * S];
      nll = -(L > 0 ? log_add(last[S - 1], last[S - 2]) : last[S - 1]);
    }
    const double loss = round_to(ct, nll);
    const bool zeroed = params.zero_infinity && std::isinf(loss);
    const double kept = zeroed ? 0.0 : loss;
    if (params.reduction == Reduction::None) {
      store_double(element_ptr(c.outputs[0], {n}), c.outputs[0].dtype(), kept);
    }
    total += params.reduction == Reduction::Mean
                 ? round_to(ct, kept / static_cast<double>(std::max<int64_t>(L, 1)))
                 : kept;
    if (!params.with_grad) continue;

    const Tensor& grad = c.outputs[1];
    const int64_t T = lp.size(0);
    std::vector<double> beta(static_cast<size_t>(il * S), kNegInf);
    if (il > 0) {
      beta[(il - 1) * S + S - 1] = logp(il - 1, blank);
      if (L > 0) beta[(il - 1) * S + S - 2] = logp(il - 1, ext[S - 2]);
      for (int64_t t = il - 2; t >= 0; --t) {
        for (int64_t s = 0; s < S; ++s) {
          const double* next = &beta[(t + 1) * S];
          double b = next[s];
          if (s + 1 < S) b = log_add(b, next[s + 1]);
          if (s + 2 < S && ext[s + 2] != ext[s]) b = log_add(b, next[s + 2]);
          beta[t * S + s] = b == kNegInf ? kNegInf : b + logp(t, ext[s]);
        }
      }
    }
    for (int64_t t = 0; t < T; ++t) {
      std::vector<double> lcab(static_cast<size_t>(C), kNegInf);
      if (t < il) {
        for (int64_t s = 0; s < S; ++s) {
          lcab[ext[s]] = log_add(lcab[ext[s]], alpha[t * S + s] + beta[t * S + s]);
        }
      }
      for (int64_t cls = 0; cls < C; ++cls) {
        double g = 0;
        if (t < il && !zeroed) {
          const double l = logp(t, cls);
          g = std::exp(l) - std::exp(lcab[cls] + nll - l);
        }
        store_double(element_ptr(grad, {t, n, cls}), grad.dtype(), round_to(ct, g));
      }
    }
  }
  store_reduced(c.outputs[0], ct, params.reduction, total, static_cast<double>(N));
}

// One branch per LossKernel op of op_list.def (registered below).
template <OpId op>
void loss_kernel(const KernelCall& c) {
  if constexpr (op == OpId::binary_cross_entropy) {
    binary_cross_entropy_kernel(c);
  } else if constexpr (op == OpId::ctc_loss) {
    ctc_loss_kernel(c);
  } else {
    static_assert(kMissingKernel<op>, "a loss op without its kernel");
  }
}

}  // namespace

TS_REGISTER_KERNELS(reference, loss) {
  for_each_kernel_op<OpSignature::LossKernel>([&](auto op) { m.impl(op, kCPU, loss_kernel<op>); });
}

}  // namespace ts::reference
