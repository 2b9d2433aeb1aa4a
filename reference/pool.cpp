// Reference kernels for pooling (max_pool, avg_pool over 1 to 3 spatial dims, adaptive_avg_pool2d,
// adaptive_max_pool2d): each output element from its window, in double. See Note [Reference
// kernels] in common.h and the params at the top of lib/src/ops/pool.cpp.
#include <cmath>
#include <limits>
#include <vector>

#include "common.h"
#include "touchstone/kernel_family.h"

namespace ts::reference {
namespace {

// The input positions one output position reads along one spatial dim, in increasing order.
using Positions = std::vector<int64_t>;

// Visits every input position of the window (the product of one Positions per dim), row-major,
// with the input multi-index (the output's plane dims, then the positions) and its row-major
// offset within the plane.
template <typename F>
void for_each_in_window(IntArrayRef plane_idx, const std::vector<Positions>& win,
                        IntArrayRef in_spatial, F&& f) {
  for (const Positions& w : win) {
    if (w.empty()) return;
  }
  const size_t nd = win.size(), lead = plane_idx.size();
  DimVector idx(plane_idx);
  for (size_t d = 0; d < nd; ++d) idx.push_back(0);
  std::vector<size_t> at(nd, 0);
  while (true) {
    int64_t offset = 0;
    for (size_t d = 0; d < nd; ++d) {
      idx[lead + d] = win[d][at[d]];
      offset = offset * in_spatial[d] + win[d][at[d]];
    }
    f(IntArrayRef(idx), offset);
    size_t d = nd;
    while (d > 0 && ++at[d - 1] == win[d - 1].size()) at[--d] = 0;
    if (d == 0) return;
  }
}

// max_pool and adaptive_max_pool2d: the largest element of the window, NaN wins (the last NaN,
// as ATen's `val > max || isnan(val)`), ties go to the first. An index starts at the window's
// first position, so a window of -inf gives its first element.
void max_of_windows(const KernelCall& c, size_t nd,
                    const std::vector<std::vector<Positions>>& windows_per_dim) {
  const Tensor& x = c.inputs[0];
  const Tensor& y = c.outputs[0];
  const Tensor& ind = c.outputs[1];
  const ScalarType ct = c.p.compute_dtype;
  const size_t lead = static_cast<size_t>(y.dim()) - nd;
  const IntArrayRef in_spatial = x.sizes().slice(lead);
  for_each_index(y.sizes(), [&](IntArrayRef idx) {
    std::vector<Positions> win;
    for (size_t d = 0; d < nd; ++d) win.push_back(windows_per_dim[d][idx[lead + d]]);
    double best = -std::numeric_limits<double>::infinity();
    int64_t best_at = -1;
    for_each_in_window(idx.slice(0, lead), win, in_spatial, [&](IntArrayRef in_idx, int64_t off) {
      const double v = load_as_double(element_ptr(x, in_idx), x.dtype(), ct);
      if (best_at < 0) best_at = off;
      if (v > best || std::isnan(v)) {
        best = v;
        best_at = off;
      }
    });
    store_double(element_ptr(y, idx), y.dtype(), round_to(ct, best));
    store_int64(element_ptr(ind, idx), ind.dtype(), best_at);
  });
}

// max_pool: window o along a dim reads o * stride - padding + k * dilation for k < kernel_size,
// those inside [0, size).
std::vector<std::vector<Positions>> strided_windows(const KernelCall& c, const PoolParams& p) {
  const size_t nd = p.kernel_size.size();
  const Tensor& x = c.inputs[0];
  const Tensor& y = c.outputs[0];
  std::vector<std::vector<Positions>> all(nd);
  for (size_t d = 0; d < nd; ++d) {
    const int64_t n = x.size(x.dim() - static_cast<int64_t>(nd - d));
    const int64_t o = y.size(y.dim() - static_cast<int64_t>(nd - d));
    for (int64_t i = 0; i < o; ++i) {
      Positions w;
      for (int64_t k = 0; k < p.kernel_size[d]; ++k) {
        const int64_t at = i * p.stride[d] - p.padding[d] + k * p.dilation[d];
        if (at >= 0 && at < n) w.push_back(at);
      }
      all[d].push_back(w);
    }
  }
  return all;
}

// Adaptive pooling: window i of o over n reads [floor(i n / o), ceil((i + 1) n / o)).
std::vector<std::vector<Positions>> adaptive_windows(const KernelCall& c) {
  const Tensor& x = c.inputs[0];
  const Tensor& y = c.outputs[0];
  std::vector<std::vector<Positions>> all(2);
  for (size_t d = 0; d < 2; ++d) {
    const int64_t n = x.size(x.dim() - 2 + static_cast<int64_t>(d));
    const int64_t o = y.size(y.dim() - 2 + static_cast<int64_t>(d));
    for (int64_t i = 0; i < o; ++i) {
      Positions w;
      for (int64_t at = i * n / o; at < ((i + 1) * n + o - 1) / o; ++at) w.push_back(at);
      all[d].push_back(w);
    }
  }
  return all;
}

void max_pool_kernel(const KernelCall& c) {
  const PoolParams& p = c.params<PoolParams>();
  max_of_windows(c, p.kernel_size.size(), strided_windows(c, p));
}

void adaptive_max_pool2d_kernel(const KernelCall& c) {
  max_of_windows(c, 2, adaptive_windows(c));
}

// avg_pool: per dim, the window [start, end) with start = o * stride - padding and end =
// min(start + kernel_size, size + padding) (ceil_mode's last window may end early), clipped to
// [lo, hi) = [max(start, 0), min(end, size)). The sum over the clipped box is divided by
// divisor_override if given, else by the product of (end - start) (count_include_pad) or of
// (hi - lo). An empty box gives 0.
void avg_pool_kernel(const KernelCall& c) {
  const PoolParams& p = c.params<PoolParams>();
  const Tensor& x = c.inputs[0];
  const Tensor& y = c.outputs[0];
  const ScalarType ct = c.p.compute_dtype;
  const size_t nd = p.kernel_size.size(), lead = static_cast<size_t>(y.dim()) - nd;
  const IntArrayRef in_spatial = x.sizes().slice(lead);
  for_each_index(y.sizes(), [&](IntArrayRef idx) {
    std::vector<Positions> win;
    double padded = 1, clipped = 1;
    for (size_t d = 0; d < nd; ++d) {
      const int64_t start = idx[lead + d] * p.stride[d] - p.padding[d];
      const int64_t end = std::min(start + p.kernel_size[d], in_spatial[d] + p.padding[d]);
      const int64_t lo = std::max<int64_t>(start, 0), hi = std::min(end, in_spatial[d]);
      Positions w;
      for (int64_t at = lo; at < hi; ++at) w.push_back(at);
      win.push_back(w);
      padded *= static_cast<double>(end - start);
      clipped *= static_cast<double>(std::max<int64_t>(hi - lo, 0));
    }
    double sum = 0;
    for_each_in_window(idx.slice(0, lead), win, in_spatial, [&](IntArrayRef in_idx, int64_t) {
      sum += load_as_double(element_ptr(x, in_idx), x.dtype(), ct);
    });
    const double divisor = p.divisor_override != 0 ? static_cast<double>(p.divisor_override)
                           : p.count_include_pad   ? padded
                                                   : clipped;
    const double r = clipped == 0 ? 0.0 : sum / divisor;
    store_double(element_ptr(y, idx), y.dtype(), round_to(ct, r));
  });
}

// adaptive_avg_pool2d: the mean of the window.
void adaptive_avg_pool2d_kernel(const KernelCall& c) {
  const Tensor& x = c.inputs[0];
  const Tensor& y = c.outputs[0];
  const ScalarType ct = c.p.compute_dtype;
  const std::vector<std::vector<Positions>> windows = adaptive_windows(c);
  const size_t lead = static_cast<size_t>(y.dim()) - 2;
  const IntArrayRef in_spatial = x.sizes().slice(lead);
  for_each_index(y.sizes(), [&](IntArrayRef idx) {
    const std::vector<Positions> win{windows[0][idx[lead]], windows[1][idx[lead + 1]]};
    double sum = 0;
    for_each_in_window(idx.slice(0, lead), win, in_spatial, [&](IntArrayRef in_idx, int64_t) {
      sum += load_as_double(element_ptr(x, in_idx), x.dtype(), ct);
    });
    const auto count = static_cast<double>(win[0].size() * win[1].size());
    store_double(element_ptr(y, idx), y.dtype(), round_to(ct, sum / count));
  });
}

// One branch per Pool kernel op of op_list.def (registered below).
template <OpId op>
void pool_kernel(const KernelCall& c) {
  if constexpr (op == OpId::max_pool) {
    max_pool_kernel(c);
  } else if constexpr (op == OpId::avg_pool) {
    avg_pool_kernel(c);
  } else if constexpr (op == OpId::adaptive_avg_pool2d) {
    adaptive_avg_pool2d_kernel(c);
  } else if constexpr (op == OpId::adaptive_max_pool2d) {
    adaptive_max_pool2d_kernel(c);
  } else {
    static_assert(kMissingKernel<op>, "a pooling op without its reference kernel");
  }
}

}  // namespace

TS_REGISTER_KERNELS(reference, pool) {
  for_each_kernel_op<OpSignature::Pool>([&](auto op) { m.impl(op, kCPU, pool_kernel<op>); });
}

}  // namespace ts::reference
