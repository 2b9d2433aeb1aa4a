// Reference kernels of the scans of issue 16: cumprod, logcumsumexp (DimParams), cummax and
// cummin (SortParams, values and indices). See Note [Reference kernels] in common.h. Each line
// along the scanned dim is walked in order, every running value stored as it goes; the output
// may be the input (cumprod_), as element k is read before it is written.
#include "scan.h"

#include <cmath>
#include <cstring>

#include "common.h"

namespace ts::reference {
namespace {

// Calls f(in_ptr, out_ptrs, in_step, out_steps, len) for every line of input 0 along `d`.
template <class F>
void for_each_line(const KernelCall& c, int64_t d, F&& f) {
  const Tensor& in = c.inputs[0];
  if (in.numel() == 0) return;
  const bool scalar = in.dim() == 0;
  DimVector lines(in.sizes());
  if (!scalar) lines[d] = 1;
  const int64_t len = scalar ? 1 : in.sizes()[d];
  auto step = [&](const Tensor& t) {
    return scalar ? 0 : t.strides()[d] * static_cast<int64_t>(t.element_size());
  };
  for_each_index(lines, [&](IntArrayRef idx) {
    char* outs[2] = {element_ptr(c.outputs[0], idx),
                     c.outputs.size() > 1 ? element_ptr(c.outputs[1], idx) : nullptr};
    const int64_t out_steps[2] = {step(c.outputs[0]),
                                  c.outputs.size() > 1 ? step(c.outputs[1]) : 0};
    f(element_ptr(in, idx), outs, step(in), out_steps, len);
  });
}

// log(e^a + e^b) in double: equal infinities stay (no inf - inf), NaN propagates.
double log_add_exp(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return NAN;
  const double hi = std::fmax(a, b), lo = std::fmin(a, b);
  if (std::isinf(hi) && hi == lo) return hi;
  return hi + std::log1p(std::exp(lo - hi));
}

}  // namespace

// Floating products in double, each output rounded once to the compute dtype; integers in
// uint64, wrapping to the compute dtype (as cumsum).
void cumprod_kernel(const KernelCall& c) {
  const ScalarType it = c.inputs[0].dtype(), ct = c.p.compute_dtype, ot = c.outputs[0].dtype();
  for_each_line(c, c.params<DimParams>().dim,
                [&](const char* ip, char* const* op, int64_t is, const int64_t* os, int64_t n) {
                  double facc = 1;
                  uint64_t iacc = 1;
                  char* o = op[0];
                  for (int64_t k = 0; k < n; ++k, ip += is, o += os[0]) {
                    if (is_floating_type(ct)) {
                      facc *= load_as_double(ip, it, ct);
                      store_double(o, ot, round_to(ct, facc));
                    } else {
                      iacc *= static_cast<uint64_t>(load_as_int64(ip, it, ct));
                      store_int64(o, ot, wrap_to(ct, static_cast<int64_t>(iacc)));
                    }
                  }
                });
}

// r_k = log(e^r_{k-1} + e^x_k) from r = -inf, in double.
void logcumsumexp_kernel(const KernelCall& c) {
  const ScalarType it = c.inputs[0].dtype(), ct = c.p.compute_dtype, ot = c.outputs[0].dtype();
  for_each_line(c, c.params<DimParams>().dim,
                [&](const char* ip, char* const* op, int64_t is, const int64_t* os, int64_t n) {
                  double acc = -INFINITY;
                  char* o = op[0];
                  for (int64_t k = 0; k < n; ++k, ip += is, o += os[0]) {
                    acc = log_add_exp(acc, load_as_double(ip, it, ct));
                    store_double(o, ot, round_to(ct, acc));
                  }
                });
}

// ATen's rule: x takes the running extreme's place when x is NaN, or neither is NaN and
// x >= extreme (cummax) / x <= extreme (cummin); values are copied, indices int64.
void cum_extreme_kernel(const KernelCall& c, bool is_max) {
  const ScalarType t = c.inputs[0].dtype();
  const bool floating = is_floating_type(t);
  const auto esize = static_cast<size_t>(c.inputs[0].element_size());
  for_each_line(c, c.params<SortParams>().dim,
                [&](const char* ip, char* const* op, int64_t is, const int64_t* os, int64_t n) {
                  const char* best = ip;
                  int64_t best_k = 0;
                  for (int64_t k = 0; k < n; ++k) {
                    const char* x = ip + k * is;
                    bool take;
                    if (floating) {
                      const double a = load_double(x, t), b = load_double(best, t);
                      take = std::isnan(a) || (!std::isnan(b) && (is_max ? a >= b : a <= b));
                    } else {
                      const int64_t a = load_int64(x, t), b = load_int64(best, t);
                      take = is_max ? a >= b : a <= b;
                    }
                    if (take) {
                      best = x;
                      best_k = k;
                    }
                    std::memcpy(op[0] + k * os[0], best, esize);
                    store_int64(op[1] + k * os[1], kLong, best_k);
                  }
                });
}

}  // namespace ts::reference
