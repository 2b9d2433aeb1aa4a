#pragma once
// Target-independent plans of the optimized nn kernels (nn.cpp): what the per-target loops run.
#include <cstdint>
#include <utility>

#include "optimized/cpu/elementwise.h"
#include "touchstone/parallel.h"

namespace ts::cpu {

// Elements of work per parallel task, at least.
inline constexpr int64_t kGrain = 32768;

// softmax / log_softmax over `n` elements `in_step` (`out_step`) apart, for every outer index and,
// in column mode (width > 1), every lane of a dim `in_lane` (`out_lane`) apart. Strides are in
// elements; in and out have the compute dtype. See Note [Softmax layouts] in nn.cpp.
struct SoftmaxPlan {
  bool log = false;
  ScalarType dtype = kFloat;
  const void* in = nullptr;
  void* out = nullptr;
  int64_t n = 1, in_step = 0, out_step = 0;
  int64_t width = 1, in_lane = 0, out_lane = 0;
  DimVector sizes, in_strides, out_strides;  // the outer dims, outermost first

  void add_outer(int64_t size, int64_t in_stride, int64_t out_stride) {
    sizes.push_back(size);
    in_strides.push_back(in_stride);
    out_strides.push_back(out_stride);
  }
  int64_t outer_numel() const {
    int64_t r = 1;
    for (int64_t s : sizes) r *= s;
    return r;
  }
  // Element offsets of outer index `o` in the input and the output.
  std::pair<int64_t, int64_t> outer_offsets(int64_t o) const {
    int64_t oi = 0, oo = 0;
    for (auto k = static_cast<int64_t>(sizes.size()) - 1; k >= 0; --k) {
      const int64_t i = o % sizes[k];
      o /= sizes[k];
      oi += i * in_strides[k];
      oo += i * out_strides[k];
    }
    return {oi, oo};
  }
};

// layer_norm over `rows` contiguous rows of `m` elements; w and b (m elements) may be null.
struct LayerNormPlan {
  ScalarType dtype = kFloat;
  const void* x = nullptr;
  const void* w = nullptr;
  const void* b = nullptr;
  void* y = nullptr;
  int64_t rows = 0, m = 0;
  double eps = 0;
};

// The kernels of nn_loss.cpp, registered by nn.cpp's table.
void nll_loss_kernel(const KernelCall& c);
void mse_loss_kernel(const KernelCall& c);

}  // namespace ts::cpu
