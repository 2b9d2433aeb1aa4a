// Reference kernels for reductions and cumsum. See Note [Reference kernels] in common.h and
// Note [Reduction outputs] in lib/src/ops/reduce.cpp: each output is viewed with the keepdim=true
// shape, so output index `idx` reduces the input elements that agree with `idx` outside dims.
// Floating math accumulates in double, integer sums and products in uint64 (wrapping, no UB);
// each result is rounded once to the output dtype.
#include <algorithm>
#include <cmath>
#include <limits>

#include "common.h"
#include "scan.h"
#include "touchstone/kernel_family.h"

namespace ts::reference {
namespace {

IntArrayRef dims_of(const KernelCall& c) {
  return reduce_params(c.p).dims;
}

// Calls f(idx, out_ptr) for every element of output `o`, idx in the keepdim=true shape.
template <typename F>
void for_each_output(const KernelCall& c, size_t o, F&& f) {
  const Tensor out = keepdim_view(c, o);
  for_each_index(out.sizes(), [&](IntArrayRef idx) { f(idx, element_ptr(out, idx)); });
}

// The number of input elements behind each output element.
int64_t reduced_count(const KernelCall& c) {
  int64_t n = 1;
  for (int64_t d : dims_of(c)) n *= c.inputs[0].sizes()[d];
  return n;
}

// Stores an int64 accumulator computed in integer (or bool) dtype ct.
void store_accumulated(char* o, ScalarType ot, ScalarType ct, uint64_t acc) {
  const int64_t v = static_cast<int64_t>(acc);  // modular since C++20
  store_int64(o, ot, ct == kBool ? (v != 0) : wrap_to(ct, v));
}

// ---- sum, prod, mean ----

// acc = step(acc, x) from `init` over each output's elements: in double for a floating compute
// dtype (mean then divides by the count: an empty mean is 0 / 0 = nan, as in PyTorch), in
// uint64 otherwise.
template <class Step>
void accumulate_kernel(const KernelCall& c, int init, Step step, bool mean = false) {
  const Tensor& in = c.inputs[0];
  const ScalarType it = in.dtype(), ct = c.p.compute_dtype, ot = c.outputs[0].dtype();
  const IntArrayRef dims = dims_of(c);
  const double n = static_cast<double>(reduced_count(c));
  for_each_output(c, 0, [&](IntArrayRef idx, char* o) {
    if (is_floating_type(ct)) {
      double acc = init;
      for_each_reduced(in, idx, dims,
                       [&](const char* p, int64_t) { acc = step(acc, load_as_double(p, it, ct)); });
      store_double(o, ot, round_to(ct, mean ? acc / n : acc));
    } else {
      uint64_t acc = static_cast<uint64_t>(init);
      for_each_reduced(in, idx, dims, [&](const char* p, int64_t) {
        acc = step(acc, static_cast<uint64_t>(load_as_int64(p, it, ct)));
      });
      store_accumulated(o, ot, ct, acc);
    }
  });
}

// ---- amax, amin, max, min, argmax, argmin ----

// Note [Extremes and NaN]
// max/min and friends propagate NaN: the first NaN wins (its index for argmax/argmin). Otherwise
// a later value replaces the best only when strictly greater (smaller), so ties keep the first
// occurrence. Integers (and bool) compare as int64, floating values as double.
struct Extreme {
  bool is_nan = false;
  double f = 0;
  int64_t i = 0;
  int64_t index = -1;  // -1 until the first element is seen
};

Extreme find_extreme(const Tensor& in, IntArrayRef idx, IntArrayRef dims, bool is_max) {
  const ScalarType it = in.dtype();
  const bool floating = is_floating_type(it);
  Extreme best;
  for_each_reduced(in, idx, dims, [&](const char* p, int64_t k) {
    if (best.is_nan) return;
    if (floating) {
      const double v = load_double(p, it);
      const bool better = is_max ? v > best.f : v < best.f;
      if (best.index < 0 || std::isnan(v) || better) {
        best.f = v;
        best.is_nan = std::isnan(v);
        best.index = k;
      }
    } else {
      const int64_t v = load_int64(p, it);
      const bool better = is_max ? v > best.i : v < best.i;
      if (best.index < 0 || better) {
        best.i = v;
        best.index = k;
      }
    }
  });
  return best;
}

void store_extreme(char* o, ScalarType ot, const Extreme& e, bool floating) {
  if (floating) {
    store_double(o, ot, e.f);
  } else {
    store_int64(o, ot, e.i);
  }
}

// amax, amin, and max/min: values in outputs[0]; with a dim, indices in outputs[1].
void extreme_values_kernel(const KernelCall& c, bool is_max) {
  const Tensor& in = c.inputs[0];
  const bool floating = is_floating_type(in.dtype());
  const ScalarType ot = c.outputs[0].dtype();
  const bool has_indices = c.outputs.size() > 1;
  const Tensor indices = has_indices ? keepdim_view(c, 1) : Tensor();
  for_each_output(c, 0, [&](IntArrayRef idx, char* o) {
    const Extreme e = find_extreme(in, idx, dims_of(c), is_max);
    store_extreme(o, ot, e, floating);
    if (has_indices) store_int64(element_ptr(indices, idx), kLong, e.index);
  });
}

void argextreme_kernel(const KernelCall& c, bool is_max) {
  const Tensor& in = c.inputs[0];
  for_each_output(c, 0, [&](IntArrayRef idx, char* o) {
    store_int64(o, kLong, find_extreme(in, idx, dims_of(c), is_max).index);
  });
}

// ---- var, std, norm, logsumexp ----

// Two passes in double: the mean, then the squared deviations over max(0, N - correction).
double variance(const Tensor& in, IntArrayRef idx, IntArrayRef dims, ScalarType ct,
                double correction) {
  const ScalarType it = in.dtype();
  double n = 0, sum = 0;
  for_each_reduced(in, idx, dims, [&](const char* p, int64_t) {
    sum += load_as_double(p, it, ct);
    n += 1;
  });
  const double mean = sum / n;
  double sq = 0;
  for_each_reduced(in, idx, dims, [&](const char* p, int64_t) {
    const double d = load_as_double(p, it, ct) - mean;
    sq += d * d;
  });
  return sq / std::max(0.0, n - correction);
}

void var_std_kernel(const KernelCall& c, bool take_sqrt) {
  const ScalarType ct = c.p.compute_dtype, ot = c.outputs[0].dtype();
  const VarParams& params = c.params<VarParams>();
  for_each_output(c, 0, [&](IntArrayRef idx, char* o) {
    const double v = variance(c.inputs[0], idx, params.dims, ct, params.correction);
    store_double(o, ot, round_to(ct, take_sqrt ? std::sqrt(v) : v));
  });
}

// Note [Norm of any p]
// As ATen, every p: p = 0 counts the nonzero elements (NaN counts); p = inf / -inf take the
// max / min of |x| (NaN propagates); any other p gives (sum |x|^p)^(1/p) (sum |x| and sqrt for
// 1 and 2; a zero element with p < 0 adds inf, so the norm is 0). Empty reductions give 0.
void norm_kernel(const KernelCall& c) {
  const Tensor& in = c.inputs[0];
  const ScalarType it = in.dtype(), ct = c.p.compute_dtype, ot = c.outputs[0].dtype();
  const NormParams& params = c.params<NormParams>();
  const double pv = params.p;
  for_each_output(c, 0, [&](IntArrayRef idx, char* o) {
    double acc = std::isinf(pv) ? -pv : 0.0;  // max starts at -inf, min at +inf
    int64_t n = 0;
    for_each_reduced(in, idx, params.dims, [&](const char* p, int64_t) {
      const double a = std::fabs(load_as_double(p, it, ct));
      ++n;
      if (pv == 0) {
        acc += a != 0 ? 1 : 0;
      } else if (pv == 1) {
        acc += a;
      } else if (pv == 2) {
        acc += a * a;
      } else if (std::isinf(pv)) {
        const bool better = pv > 0 ? a > acc : a < acc;
        if (!std::isnan(acc) && (std::isnan(a) || better)) acc = a;
      } else {
        acc += std::pow(a, pv);
      }
    });
    double r = acc;
    if (n == 0) {
      r = 0;
    } else if (pv == 2) {
      r = std::sqrt(acc);
    } else if (pv != 0 && pv != 1 && !std::isinf(pv)) {
      r = std::pow(acc, 1 / pv);
    }
    store_double(o, ot, round_to(ct, r));
  });
}

// log(sum exp(x - m)) + m with m the largest value; an infinite m shifts by 0 instead (so all
// -inf gives -inf, any +inf gives +inf), and an empty reduction gives log(0) = -inf.
void logsumexp_kernel(const KernelCall& c) {
  const Tensor& in = c.inputs[0];
  const ScalarType it = in.dtype(), ct = c.p.compute_dtype, ot = c.outputs[0].dtype();
  const IntArrayRef dims = dims_of(c);
  for_each_output(c, 0, [&](IntArrayRef idx, char* o) {
    double m = -std::numeric_limits<double>::infinity();
    for_each_reduced(in, idx, dims,
                     [&](const char* p, int64_t) { m = std::fmax(m, load_as_double(p, it, ct)); });
    const double shift = std::isfinite(m) ? m : 0.0;
    double s = 0;
    for_each_reduced(in, idx, dims, [&](const char* p, int64_t) {
      s += std::exp(load_as_double(p, it, ct) - shift);
    });
    store_double(o, ot, round_to(ct, std::log(s) + shift));
  });
}

// ---- all, any, cumsum ----

void all_any_kernel(const KernelCall& c, bool is_all) {
  const Tensor& in = c.inputs[0];
  const ScalarType it = in.dtype(), ot = c.outputs[0].dtype();
  for_each_output(c, 0, [&](IntArrayRef idx, char* o) {
    bool acc = is_all;
    for_each_reduced(in, idx, dims_of(c), [&](const char* p, int64_t) {
      acc = is_all ? (acc && load_bool(p, it)) : (acc || load_bool(p, it));
    });
    store_int64(o, ot, acc ? 1 : 0);
  });
}

// Walks each line along the scanned dim, storing every running sum as it goes; the output may be
// the input (cumsum_), as element k is read before it is written.
void cumsum_kernel(const KernelCall& c) {
  const Tensor& in = c.inputs[0];
  const Tensor& out = c.outputs[0];
  const ScalarType it = in.dtype(), ct = c.p.compute_dtype, ot = out.dtype();
  const bool scalar = in.dim() == 0;
  const int64_t d = c.params<DimParams>().dim;
  if (in.numel() == 0) return;  // empty lines, however many (an expanded [2^40, 0] input)
  DimVector lines(in.sizes());
  if (!scalar) lines[d] = 1;
  const int64_t len = scalar ? 1 : in.sizes()[d];
  const int64_t in_step = scalar ? 0 : in.strides()[d] * static_cast<int64_t>(in.element_size());
  const int64_t out_step = scalar ? 0 : out.strides()[d] * static_cast<int64_t>(out.element_size());
  for_each_index(lines, [&](IntArrayRef idx) {
    const char* ip = element_ptr(in, idx);
    char* op = element_ptr(out, idx);
    double facc = 0;
    uint64_t iacc = 0;
    for (int64_t k = 0; k < len; ++k, ip += in_step, op += out_step) {
      if (is_floating_type(ct)) {
        facc += load_as_double(ip, it, ct);
        store_double(op, ot, round_to(ct, facc));
      } else {
        iacc += static_cast<uint64_t>(load_as_int64(ip, it, ct));
        store_accumulated(op, ot, ct, iacc);
      }
    }
  });
}

// One branch per Reduction and Scan op of op_list.def (the kernel set registers each).
template <OpId op>
void reduce_kernel(const KernelCall& c) {
  using enum OpId;
  if constexpr (op == sum) {
    accumulate_kernel(c, 0, [](auto a, auto x) { return a + x; });
  } else if constexpr (op == prod) {
    accumulate_kernel(c, 1, [](auto a, auto x) { return a * x; });
  } else if constexpr (op == mean) {
    accumulate_kernel(
        c, 0, [](auto a, auto x) { return a + x; }, /*mean=*/true);
  } else if constexpr (op == amax || op == max || op == amin || op == min) {
    extreme_values_kernel(c, op == amax || op == max);
  } else if constexpr (op == argmax || op == argmin) {
    argextreme_kernel(c, op == argmax);
  } else if constexpr (op == var || op == std) {
    var_std_kernel(c, op == std);
  } else if constexpr (op == norm) {
    norm_kernel(c);
  } else if constexpr (op == logsumexp) {
    logsumexp_kernel(c);
  } else if constexpr (op == all || op == any) {
    all_any_kernel(c, op == all);
  } else if constexpr (op == cumsum) {
    cumsum_kernel(c);
  } else if constexpr (op == cumprod) {  // scans (issue 16): reference/scan.cpp
    cumprod_kernel(c);
  } else if constexpr (op == logcumsumexp) {
    logcumsumexp_kernel(c);
  } else {
    static_assert(kMissingKernel<op>, "a Reduction or Scan op without its reference kernel");
  }
}

}  // namespace

TS_REGISTER_KERNELS(reference, reduce) {
  for_each_kernel_op<OpSignature::Reduction, OpSignature::Scan>(
      [&](auto op) { m.impl(op, kCPU, reduce_kernel<op>); });
}

}  // namespace ts::reference
