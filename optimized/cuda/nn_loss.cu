// CUDA nll_loss and mse_loss (registered by nn.cu). Sum and Mean go through the reduction launcher
// (reduce.cuh), so they accumulate in float32 (float64 for float64) in a fixed order.
//
// Note [CUDA nll_loss targets]
// The meta checks CPU targets only (Note [nll_loss target check] in lib/src/ops/nn.cpp); here a
// check kernel finds the first target that is neither ignore_index nor in [0, C) (atomicMin on
// its position), and the host reads that position and the target's value before any loss is
// computed, so a bad target raises the CPU sets' error and writes nothing. It costs one
// synchronization per call.
#include "optimized/cuda/loops.cuh"
#include "optimized/cuda/reduce.cuh"

namespace ts::cuda {
namespace {

// self as [outer, C, R] with the target as [outer, R], both contiguous.
struct NllShape {
  int64_t C = 1, R = 1;
};

template <typename Tgt>
__global__ void nll_check_kernel(const Tgt* target, int64_t n, int64_t classes, int64_t ignore,
                                 unsigned long long* first_bad) {
  const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    const int64_t t = static_cast<int64_t>(target[i]);
    if (t != ignore && (t < 0 || t >= classes)) {
      atomicMin(first_bad, static_cast<unsigned long long>(i));
    }
  }
}

template <typename T, typename Tgt>
__device__ inline acc_float_t<T> nll_weight(const T* weight, Tgt cls) {
  return weight == nullptr ? acc_float_t<T>(1) : convert<acc_float_t<T>>(weight[cls]);
}

// Reduction None: one loss per target element.
template <typename T, typename Tgt>
__global__ void nll_none_kernel(const T* self, const Tgt* target, const T* weight, T* out,
                                int64_t n, NllShape s, int64_t ignore) {
  using A = acc_float_t<T>;
  const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    const int64_t cls = static_cast<int64_t>(target[i]);
    A loss = 0;
    if (cls != ignore) {
      const int64_t o = i / s.R;
      loss = -convert<A>(self[(o * s.C + cls) * s.R + (i - o * s.R)]) * nll_weight(weight, cls);
    }
    out[i] = convert<T>(loss);
  }
}

// Sum and Mean: the reduction's elements are the targets; each adds -w x and w.
template <typename T, typename Tgt>
struct NllSumOp {
  using A = acc_float_t<T>;
  struct acc_t {
    A loss, weight;
  };
  const T* self = nullptr;
  const T* weight = nullptr;
  NllShape s;
  int64_t ignore = -100;
  bool mean = false;
  __device__ acc_t identity() const { return {A(0), A(0)}; }
  __device__ acc_t combine(acc_t a, acc_t b) const {
    return {a.loss + b.loss, a.weight + b.weight};
  }
  __device__ acc_t reduce(acc_t a, Tgt t, int64_t i) const {
    const int64_t cls = static_cast<int64_t>(t);
    if (cls == ignore) return a;
    const int64_t o = i / s.R;
    const A w = nll_weight(weight, cls);
    return {a.loss - convert<A>(self[(o * s.C + cls) * s.R + (i - o * s.R)]) * w, a.weight + w};
  }
  __device__ void write(acc_t a, char* out, char*) const {
    *reinterpret_cast<T*>(out) = convert<T>(mean ? a.loss / a.weight : a.loss);
  }
};

template <typename Tgt>
void check_targets(const Tensor& target, int64_t classes, int64_t ignore) {
  const int64_t n = target.numel();
  const Tensor flag = empty({1}, TensorOptions(kLong).device(target.device()));
  unsigned long long* first = static_cast<unsigned long long*>(flag.data_ptr());
  const unsigned long long none = ~0ull;
  TS_CUDA_CHECK(cudaMemsetAsync(first, 0xff, sizeof(none), stream()));
  nll_check_kernel<Tgt><<<grid_size(n), kThreads, 0, stream()>>>(
      static_cast<const Tgt*>(target.data_ptr()), n, classes, ignore, first);
  TS_CUDA_KERNEL_LAUNCH_CHECK();
  unsigned long long bad = none;
  TS_CUDA_CHECK(cudaMemcpyAsync(&bad, first, sizeof(bad), cudaMemcpyDeviceToHost, stream()));
  TS_CUDA_CHECK(cudaStreamSynchronize(stream()));
  if (bad == none) return;
  Tgt value{};
  TS_CUDA_CHECK(cudaMemcpyAsync(&value, static_cast<const Tgt*>(target.data_ptr()) + bad,
                                sizeof(Tgt), cudaMemcpyDeviceToHost, stream()));
  TS_CUDA_CHECK(cudaStreamSynchronize(stream()));
  TS_ERROR("nll_loss: Target ", static_cast<int64_t>(value), " is out of bounds.");
}

}  // namespace

void nll_loss_kernel(const KernelCall& c) {
  const Tensor& out = c.outputs[0];
  DeviceGuard guard(out.device().index());
  const ScalarType ct = c.p.compute_dtype;
  const Tensor self = c.inputs[0].contiguous();
  const Tensor target = c.inputs[1].contiguous();
  const Tensor weight = c.inputs[2].defined() ? c.inputs[2].contiguous() : Tensor();
  const NllLossParams& params = c.params<NllLossParams>();
  const Reduction reduction = params.reduction;
  const int64_t ignore = params.ignore_index;
  NllShape s;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (d == params.class_dim) s.C = self.size(d);
    if (d > params.class_dim) s.R *= self.size(d);
  }
  const bool byte = target.dtype() == kByte;
  byte ? check_targets<uint8_t>(target, s.C, ignore) : check_targets<int64_t>(target, s.C, ignore);
  with_output_dtype(out, ct, [&](const Tensor& res) {
    TS_CUDA_DISPATCH_FLOATING(ct, "nll_loss", [&] {
      using T = scalar_t;
      const T* sp = static_cast<const T*>(self.data_ptr());
      const T* wp = weight.defined() ? static_cast<const T*>(weight.data_ptr()) : nullptr;
      const auto run = [&](auto* tag) {
        using Tgt = std::remove_pointer_t<decltype(tag)>;
        const Tgt* tp = static_cast<const Tgt*>(target.data_ptr());
        const int64_t n = target.numel();
        if (reduction == Reduction::None) {
          if (n == 0) return;
          nll_none_kernel<T, Tgt><<<grid_size(n), kThreads, 0, stream()>>>(
              sp, tp, wp, static_cast<T*>(res.data_ptr()), n, s, ignore);
          TS_CUDA_KERNEL_LAUNCH_CHECK();
          return;
        }
        DimVector all;
        for (int64_t d = 0; d < target.dim(); ++d) all.push_back(d);
        const ReduceGeometry g =
            make_reduce_geometry(target, ArrayRef<Tensor>(&res, 1), all, false, true);
        NllSumOp<T, Tgt> op;
        op.self = sp;
        op.weight = wp;
        op.s = s;
        op.ignore = ignore;
        op.mean = reduction == Reduction::Mean;
        launch_reduce<Tgt>(g, op, res.device());
      };
      byte ? run(static_cast<uint8_t*>(nullptr)) : run(static_cast<int64_t*>(nullptr));
    });
  });
}

namespace {

struct SquaredDifference {
  template <typename C>
  __device__ C operator()(C a, C b) const {
    return (a - b) * (a - b);
  }
};

}  // namespace

// (self - target)^2 is materialized in the compute dtype (as PyTorch), then summed.
void mse_loss_kernel(const KernelCall& c) {
  const Tensor& out = c.outputs[0];
  DeviceGuard guard(out.device().index());
  const ScalarType ct = c.p.compute_dtype;
  const Reduction reduction = c.params<LossParams>().reduction;
  const Tensor loss = reduction == Reduction::None
                          ? out
                          : empty(c.inputs[0].sizes(), TensorOptions(ct).device(out.device()));
  TensorIterator iter =
      elementwise_iter(KernelCall{c.op, ArrayRef<Tensor>(&loss, 1), c.inputs, c.p, c.kind});
  TS_CUDA_DISPATCH_FLOATING(ct, "mse_loss",
                            [&] { gpu_kernel<2, scalar_t, scalar_t>(iter, SquaredDifference{}); });
  iter.cast_outputs();
  if (reduction == Reduction::None) return;
  with_output_dtype(out, ct, [&](const Tensor& res) {
    DimVector all;
    for (int64_t d = 0; d < loss.dim(); ++d) all.push_back(d);
    const ReduceGeometry g =
        make_reduce_geometry(loss, ArrayRef<Tensor>(&res, 1), all, false, false);
    TS_CUDA_DISPATCH_FLOATING(ct, "mse_loss", [&] {
      FloatSumOp<scalar_t, false> op;
      op.mean = reduction == Reduction::Mean;
      op.count = static_cast<acc_float_t<scalar_t>>(loss.numel());
      launch_reduce<scalar_t>(g, op, res.device());
    });
  });
}

}  // namespace ts::cuda
