// Optimized CPU kernels for batch_norm, group_norm and embedding (issue 16). Params: see the
// top of lib/src/ops/norm.cpp and lib/src/ops/embedding.cpp; the semantics are the reference
// kernels' (reference/norm.cpp).
//
// Note [Normalization kernels]
// The input is made contiguous, [N, C, S] with S the product of dims 2..; then one task per
// channel (batch_norm) or per (sample, group) (group_norm), in parallel. A channel is N runs of
// S contiguous elements, a group one run of C / G * S. Statistics take two passes (the mean,
// then squared deviations from it: a shifted input keeps its accuracy), each summed in eight
// compute-type lanes (vectorized by the compiler) per block of kBlock elements, the blocks
// added up in double, as layer_norm's kernel. The output is (x - mean) * (rstd * w) + b.
// float16/bfloat16 compute in float32 (ATen's opmath), read through a float buffer.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "optimized/cpu/elementwise.h"
#include "touchstone/kernel_family.h"
#include "touchstone/ops.h"
#include "touchstone/parallel.h"

namespace ts::cpu {
namespace {

constexpr int64_t kBlock = 2048;
constexpr int64_t kNormGrain = 32768;

// Sum of f(x[i]) over n contiguous elements (Note [Normalization kernels]).
template <typename C, typename F>
double block_sum(const C* x, int64_t n, const F& f) {
  double total = 0;
  for (int64_t b = 0; b < n; b += kBlock) {
    const int64_t e = std::min(n, b + kBlock);
    C acc[8] = {};
    int64_t i = b;
    for (; i + 8 <= e; i += 8) {
      for (int k = 0; k < 8; ++k) acc[k] += f(x[i + k]);
    }
    for (; i < e; ++i) acc[0] += f(x[i]);
    double s = 0;
    for (const C a : acc) s += static_cast<double>(a);
    total += s;
  }
  return total;
}

// A run of n elements of T as compute-type values: the data itself, or converted into buf.
template <typename T, typename C = compute_t<T>>
const C* as_compute(const T* x, int64_t n, std::vector<C>& buf) {
  if constexpr (std::is_same_v<T, C>) {
    return x;
  } else {
    buf.assign(x, x + n);
    return buf.data();
  }
}

// y[i] = (x[i] - mean) * scale + shift over a run of n elements.
template <typename T, typename C = compute_t<T>>
void affine_run(const C* x, T* y, int64_t n, C mean, C scale, C shift) {
  for (int64_t i = 0; i < n; ++i) y[i] = static_cast<T>((x[i] - mean) * scale + shift);
}

// A defined [C] tensor's values in the compute type (absent: `fill`).
template <typename T, typename C = compute_t<T>>
std::vector<C> channel_values(const Tensor& t, int64_t channels, C fill) {
  std::vector<C> v(static_cast<size_t>(channels), fill);
  if (!t.defined()) return v;
  const Tensor c = t.contiguous();
  const T* p = static_cast<const T*>(c.data_ptr());
  for (int64_t k = 0; k < channels; ++k) v[k] = static_cast<C>(p[k]);
  return v;
}

struct Layout {
  int64_t n, c, s;
};
Layout layout_of(const Tensor& x) {
  const int64_t n = x.size(0), c = x.size(1);
  return {n, c, n * c == 0 ? 0 : x.numel() / (n * c)};
}

template <typename T>
void batch_norm_typed(const KernelCall& call, const Tensor& x, const Tensor& y) {
  using C = compute_t<T>;
  const BatchNormParams& params = call.params<BatchNormParams>();
  // Not a structured binding: clang 14 (the ci-asan preset) refuses to capture one in a lambda.
  const Layout layout = layout_of(x);
  const int64_t n = layout.n, channels = layout.c, s = layout.s;
  const std::vector<C> w = channel_values<T>(call.inputs[1], channels, C(1));
  const std::vector<C> b = channel_values<T>(call.inputs[2], channels, C(0));
  const bool running = call.inputs[3].defined();
  const std::vector<C> rm = channel_values<T>(call.inputs[3], channels, C(0));
  const std::vector<C> rv = channel_values<T>(call.inputs[4], channels, C(1));
  const bool update = call.outputs.size() == 3;
  T* new_mean = update ? static_cast<T*>(call.outputs[1].data_ptr()) : nullptr;
  T* new_var = update ? static_cast<T*>(call.outputs[2].data_ptr()) : nullptr;
  const T* xp = static_cast<const T*>(x.data_ptr());
  T* yp = static_cast<T*>(y.data_ptr());
  const auto count = static_cast<double>(n * s);
  parallel_for(0, channels, std::max<int64_t>(1, kNormGrain / std::max<int64_t>(1, n * s)),
               [&](int64_t c0, int64_t c1) {
                 std::vector<C> buf;
                 for (int64_t ch = c0; ch < c1; ++ch) {
                   double mean = rm[ch], var = rv[ch];
                   if (params.training) {
                     double sum = 0;
                     for (int64_t i = 0; i < n; ++i) {
                       const C* r = as_compute(xp + (i * channels + ch) * s, s, buf);
                       sum += block_sum(r, s, [](C v) { return v; });
                     }
                     mean = sum / count;
                     const auto mc = static_cast<C>(mean);
                     double sq = 0;
                     for (int64_t i = 0; i < n; ++i) {
                       const C* r = as_compute(xp + (i * channels + ch) * s, s, buf);
                       sq += block_sum(r, s, [mc](C v) { return (v - mc) * (v - mc); });
                     }
                     var = sq / count;
                   }
                   // Note [batch_norm of a constant channel] in reference/norm.cpp.
                   const bool zero = params.training && var == 0 && params.eps == 0;
                   const auto rstd = static_cast<C>(zero ? 0.0 : 1.0 / std::sqrt(var + params.eps));
                   for (int64_t i = 0; i < n; ++i) {
                     const int64_t off = (i * channels + ch) * s;
                     affine_run(as_compute(xp + off, s, buf), yp + off, s, static_cast<C>(mean),
                                rstd * w[ch], b[ch]);
                   }
                   if (update && running) {
                     const double m = params.momentum;
                     new_mean[ch] = static_cast<T>((1 - m) * rm[ch] + m * mean);
                     new_var[ch] = static_cast<T>((1 - m) * rv[ch] + m * var * count / (count - 1));
                   }
                 }
               });
}

template <typename T>
void group_norm_typed(const KernelCall& call, const Tensor& x, const Tensor& y) {
  using C = compute_t<T>;
  const GroupNormParams& params = call.params<GroupNormParams>();
  // Not a structured binding: clang 14 (the ci-asan preset) refuses to capture one in a lambda.
  const Layout layout = layout_of(x);
  const int64_t n = layout.n, channels = layout.c, s = layout.s;
  const int64_t groups = params.num_groups, per_group = channels / groups;
  const int64_t m = per_group * s;  // elements of one group of one sample, contiguous
  const std::vector<C> w = channel_values<T>(call.inputs[1], channels, C(1));
  const std::vector<C> b = channel_values<T>(call.inputs[2], channels, C(0));
  const T* xp = static_cast<const T*>(x.data_ptr());
  T* yp = static_cast<T*>(y.data_ptr());
  parallel_for(0, n * groups, std::max<int64_t>(1, kNormGrain / std::max<int64_t>(1, m)),
               [&](int64_t g0, int64_t g1) {
                 std::vector<C> buf;
                 for (int64_t g = g0; g < g1; ++g) {
                   const int64_t off = g * m;
                   const C* r = as_compute(xp + off, m, buf);
                   const double mean =
                       block_sum(r, m, [](C v) { return v; }) / static_cast<double>(m);
                   const auto mc = static_cast<C>(mean);
                   const double var = block_sum(r, m, [mc](C v) { return (v - mc) * (v - mc); }) /
                                      static_cast<double>(m);
                   const auto rstd = static_cast<C>(1.0 / std::sqrt(var + params.eps));
                   const int64_t c0 = (g % groups) * per_group;
                   for (int64_t k = 0; k < per_group; ++k) {
                     affine_run(r + k * s, yp + off + k * s, s, mc, rstd * w[c0 + k], b[c0 + k]);
                   }
                 }
               });
}

// Runs f<T>(x, y) on x made contiguous and a contiguous output (copied out when needed).
template <template <typename> class Typed>
void run_norm(const KernelCall& c) {
  const Tensor& result = c.outputs[0];
  if (result.numel() == 0) return;
  const Tensor x = c.inputs[0].contiguous();
  const Tensor y = result.is_contiguous() ? result : empty(result.sizes(), result.options());
  switch (c.p.compute_dtype) {
    case kFloat:
      Typed<float>::run(c, x, y);
      break;
    case kDouble:
      Typed<double>::run(c, x, y);
      break;
    case kHalf:
      Typed<Half>::run(c, x, y);
      break;
    default:
      Typed<BFloat16>::run(c, x, y);
  }
  if (!y.is_same(result)) result.copy_(y);
}
template <typename T>
struct BatchNorm {
  static void run(const KernelCall& c, const Tensor& x, const Tensor& y) {
    batch_norm_typed<T>(c, x, y);
  }
};
template <typename T>
struct GroupNorm {
  static void run(const KernelCall& c, const Tensor& x, const Tensor& y) {
    group_norm_typed<T>(c, x, y);
  }
};

// embedding: one row copy (memcpy of embedding_dim elements) per index, in parallel.
void embedding_kernel(const KernelCall& c) {
  const Tensor& result = c.outputs[0];
  if (result.numel() == 0) return;
  const Tensor w = c.inputs[0].contiguous();
  const Tensor idx = c.inputs[1].contiguous();
  const Tensor y = result.is_contiguous() ? result : empty(result.sizes(), result.options());
  const int64_t rows = idx.numel();
  const auto row_bytes = static_cast<size_t>(w.size(1) * w.element_size());
  const char* wp = static_cast<const char*>(w.data_ptr());
  char* yp = static_cast<char*>(y.data_ptr());
  const bool longs = idx.dtype() == kLong;
  const void* ip = idx.data_ptr();
  const int64_t grain = std::max<int64_t>(1, kNormGrain / std::max<int64_t>(1, w.size(1)));
  parallel_for(0, rows, grain, [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      const int64_t i =
          longs ? static_cast<const int64_t*>(ip)[r] : static_cast<const int32_t*>(ip)[r];
      std::memcpy(yp + r * row_bytes, wp + i * row_bytes, row_bytes);
    }
  });
  if (!y.is_same(result)) result.copy_(y);
}

// One branch per NormStats and Embedding kernel op of op_list.def (registered below).
template <OpId op>
void norm_kernel(const KernelCall& c) {
  if constexpr (op == OpId::batch_norm) {
    run_norm<BatchNorm>(c);
  } else if constexpr (op == OpId::group_norm) {
    run_norm<GroupNorm>(c);
  } else if constexpr (op == OpId::embedding) {
    embedding_kernel(c);
  } else {
    static_assert(kMissingKernel<op>, "a normalization or embedding op without its kernel");
  }
}

}  // namespace

TS_REGISTER_KERNELS(optimized, norm) {
  for_each_kernel_op<OpSignature::NormStats, OpSignature::Embedding>(
      [&](auto op) { m.impl(op, kCPU, norm_kernel<op>); });
}

}  // namespace ts::cpu
