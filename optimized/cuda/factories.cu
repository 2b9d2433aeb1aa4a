// CUDA kernels for arange, linspace, eye and the Philox random factories. Each output element
// is computed from its row-major index alone, with the formulas of reference/factories.cpp, so
// rand/randint (and almost always randn) are bitwise identical to the CPU sets for the same
// seed (Note [Philox streams] in touchstone/random.h).
#include "optimized/cuda/common.cuh"
#include "touchstone/kernel_family.h"
#include "touchstone/random.h"

namespace ts::cuda {
namespace {

// out[i] = f(i) over a fresh contiguous output (factories always get one).
template <typename T, typename F>
__global__ void index_kernel(T* out, int64_t n, F f) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n;
       i += int64_t{gridDim.x} * blockDim.x) {
    out[i] = f(i);
  }
}

template <typename T, typename F>
void launch_index(const Tensor& out, const F& f) {
  const int64_t n = out.numel();
  if (n == 0) return;
  TS_INTERNAL_ASSERT(out.is_contiguous(), "CUDA factories write contiguous outputs");
  DeviceGuard guard(out.device().index());
  index_kernel<<<grid_size(n, 4), kThreads, 0, stream()>>>(static_cast<T*>(out.data_ptr()), n, f);
  TS_CUDA_KERNEL_LAUNCH_CHECK();
}

template <typename T>
struct ArangeFloat {
  double start, step;
  __device__ T operator()(int64_t i) const {
    return convert<T>(start + static_cast<double>(i) * step);
  }
};
template <typename T>
struct ArangeInt {
  int64_t start, step;
  __device__ T operator()(int64_t i) const {
    const uint64_t v =
        static_cast<uint64_t>(start) + static_cast<uint64_t>(i) * static_cast<uint64_t>(step);
    return convert<T>(static_cast<int64_t>(v));
  }
};

// One kernel per Kernel op of signature class Factory (Note [Kernel families]).
template <OpId op>
void kernel(const KernelCall& c) = delete;

template <>
void kernel<OpId::arange>(const KernelCall& c) {
  const Tensor& out = c.outputs[0];
  const ArangeParams& a = c.params<ArangeParams>();
  TS_CUDA_DISPATCH_REAL(out.dtype(), "arange", [&] {
    if (is_floating_type(out.dtype())) {
      launch_index<scalar_t>(out, ArangeFloat<scalar_t>{a.start.to_double(), a.step.to_double()});
    } else {
      launch_index<scalar_t>(out, ArangeInt<scalar_t>{a.start.to_long(), a.step.to_long()});
    }
  });
}

// A linspace bound converted to the output dtype first, as ATen (and the reference) do.
template <typename T>
double linspace_bound(const Scalar& s) {
  const T v = s.is_floating_point() ? convert<T>(s.to_double()) : convert<T>(s.to_long());
  return convert<double>(v);
}

template <typename T>
struct LinspaceOp {
  double start, end, step;
  int64_t steps;
  __device__ T operator()(int64_t i) const {
    double v = start;
    if (steps > 1) {
      v = i < steps / 2 ? start + step * static_cast<double>(i)
                        : end - step * static_cast<double>(steps - 1 - i);
    }
    return convert<T>(v);
  }
};

template <>
void kernel<OpId::linspace>(const KernelCall& c) {
  const Tensor& out = c.outputs[0];
  const LinspaceParams& l = c.params<LinspaceParams>();
  TS_CUDA_DISPATCH_REAL(out.dtype(), "linspace", [&] {
    const double start = linspace_bound<scalar_t>(l.start);
    const double end = linspace_bound<scalar_t>(l.end);
    const int64_t steps = l.steps;
    const double step = steps > 1 ? (end - start) / static_cast<double>(steps - 1) : 0.0;
    launch_index<scalar_t>(out, LinspaceOp<scalar_t>{start, end, step, steps});
  });
}

template <typename T>
struct EyeOp {
  int64_t m;
  __device__ T operator()(int64_t i) const { return convert<T>(i / m == i % m ? 1 : 0); }
};

template <>
void kernel<OpId::eye>(const KernelCall& c) {
  const Tensor& out = c.outputs[0];
  TS_CUDA_DISPATCH_ALL(out.dtype(), "eye", [&] {
    launch_index<scalar_t>(out, EyeOp<scalar_t>{out.size(1) > 0 ? out.size(1) : 1});
  });
}

// rand: the top bits of w[0] (w[0], w[1] for float64), exact in the output dtype.
template <typename T>
struct RandOp {
  uint64_t seed, offset;
  __device__ T operator()(int64_t i) const {
    const auto w = philox_words(seed, offset, static_cast<uint64_t>(i));
    if constexpr (std::is_same_v<T, double>) {
      return uniform_double(w[0], w[1]);
    } else if constexpr (std::is_same_v<T, float>) {
      return uniform_float(w[0]);
    } else if constexpr (std::is_same_v<T, half>) {
      return convert<T>(static_cast<float>(uniform_from_bits(w[0], 11)));
    } else {
      return convert<T>(static_cast<float>(uniform_from_bits(w[0], 8)));
    }
  }
};

// Note [CUDA randn]
// Box-Muller in double with CUDA's log/cos/sqrt: sqrt is correctly rounded, log and cos are
// within 1-2 ulp of glibc's, so float64 results may differ from the CPU sets in the last bit;
// rounded to float32 or narrower they agree except in rare ties.
template <typename T>
struct RandnOp {
  uint64_t seed, offset;
  __device__ T operator()(int64_t i) const {
    return convert<T>(normal_double(philox_words(seed, offset, static_cast<uint64_t>(i))));
  }
};

template <typename T>
struct RandintOp {
  uint64_t seed, offset, range;
  int64_t low;
  __device__ T operator()(int64_t i) const {
    const auto w = philox_words(seed, offset, static_cast<uint64_t>(i));
    return convert<T>(uniform_int_from_to(w, range, low));
  }
};

// rand and randn: Op<scalar_t>{seed, offset} maps an element's index to its value.
template <template <typename> class Op>
void launch_floating_random(const KernelCall& c) {
  const Tensor& out = c.outputs[0];
  const RandomParams& r = c.params<RandomParams>();
  TS_CUDA_DISPATCH_FLOATING(out.dtype(), op_info(c.op).name.data(), [&] {
    launch_index<scalar_t>(out, Op<scalar_t>{r.seed, r.offset});
  });
}

template <>
void kernel<OpId::rand>(const KernelCall& c) {
  launch_floating_random<RandOp>(c);
}

template <>
void kernel<OpId::randn>(const KernelCall& c) {
  launch_floating_random<RandnOp>(c);
}

template <>
void kernel<OpId::randint>(const KernelCall& c) {
  const Tensor& out = c.outputs[0];
  const RandintParams& r = c.params<RandintParams>();
  const uint64_t range = static_cast<uint64_t>(r.high) - static_cast<uint64_t>(r.low);
  TS_CUDA_DISPATCH_ALL(out.dtype(), "randint", [&] {
    launch_index<scalar_t>(out, RandintOp<scalar_t>{r.seed, r.offset, range, r.low});
  });
}

}  // namespace

TS_REGISTER_KERNELS(optimized, cuda_factories) {
  for_each_kernel_op<OpSignature::Factory>([&](auto op) { m.impl(op, kCUDA, kernel<op>); });
}

}  // namespace ts::cuda
