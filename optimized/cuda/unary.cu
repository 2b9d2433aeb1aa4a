// CUDA kernels for unary elementwise ops. float16/bfloat16 compute in float32, integers in
// their own type with wrapping arithmetic; the formulas follow reference/unary.cpp.
#include "optimized/cuda/loops.cuh"
#include "optimized/cuda/math.cuh"
#include "touchstone/ops.h"

namespace ts::cuda {
namespace {

enum class U {
  neg,
  abs,
  sign,
  exp,
  expm1,
  log,
  log1p,
  sqrt,
  rsqrt,
  reciprocal,
  sin,
  cos,
  tanh,
  sigmoid,
  relu,
  gelu,
  gelu_tanh,
  silu,
  erf,
  floor,
  ceil,
  round,
  trunc
};

template <U op>
struct UnaryOp {
  template <typename C>
  __device__ C operator()(C x) const {
    if constexpr (op == U::neg) {
      return wrapping_neg(x);
    } else if constexpr (op == U::abs) {
      if constexpr (std::is_floating_point_v<C>)
        return ::fabs(x);
      else
        return is_negative(x) ? wrapping_neg(x) : x;
    } else if constexpr (op == U::sign) {
      return static_cast<C>((C(0) < x) - is_negative(x));
    } else if constexpr (op == U::relu) {
      return is_negative(x) ? C(0) : x;
    } else if constexpr (!std::is_floating_point_v<C>) {
      return x;  // the rounding ops are the identity on integers
    } else if constexpr (op == U::exp) {
      return ::exp(x);
    } else if constexpr (op == U::expm1) {
      return ::expm1(x);
    } else if constexpr (op == U::log) {
      return ::log(x);
    } else if constexpr (op == U::log1p) {
      return ::log1p(x);
    } else if constexpr (op == U::sqrt) {
      return ::sqrt(x);
    } else if constexpr (op == U::rsqrt) {
      return C(1) / ::sqrt(x);  // not rsqrt(): the approximate instruction is off by ulps
    } else if constexpr (op == U::reciprocal) {
      return C(1) / x;
    } else if constexpr (op == U::sin) {
      return ::sin(x);
    } else if constexpr (op == U::cos) {
      return ::cos(x);
    } else if constexpr (op == U::tanh) {
      return ::tanh(x);
    } else if constexpr (op == U::sigmoid) {
      return C(1) / (C(1) + ::exp(-x));
    } else if constexpr (op == U::gelu) {
      return x * C(0.5) * (C(1) + ::erf(x * C(0.70710678118654752440)));
    } else if constexpr (op == U::gelu_tanh) {
      const C k = C(0.79788456080286535588);  // sqrt(2 / pi)
      return C(0.5) * x * (C(1) + ::tanh(k * (x + C(0.044715) * x * x * x)));
    } else if constexpr (op == U::silu) {
      return x / (C(1) + ::exp(-x));
    } else if constexpr (op == U::erf) {
      return ::erf(x);
    } else if constexpr (op == U::floor) {
      return ::floor(x);
    } else if constexpr (op == U::ceil) {
      return ::ceil(x);
    } else if constexpr (op == U::round) {
      return ::rint(x);  // half to even, as torch.round
    } else {
      static_assert(op == U::trunc);
      return ::trunc(x);
    }
  }
};

template <U op>
void float_kernel(const KernelCall& c) {
  DeviceGuard guard(c.outputs[0].device().index());
  TensorIterator iter = elementwise_iter(c);
  TS_CUDA_DISPATCH_FLOATING(iter.common_dtype(), op_info(c.op).name.data(),
                            [&] { gpu_kernel<1, scalar_t, scalar_t>(iter, UnaryOp<op>{}); });
  iter.cast_outputs();
}

template <U op>
void real_kernel(const KernelCall& c) {
  DeviceGuard guard(c.outputs[0].device().index());
  TensorIterator iter = elementwise_iter(c);
  TS_CUDA_DISPATCH_ALL(iter.common_dtype(), op_info(c.op).name.data(), [&] {
    if constexpr (std::is_same_v<scalar_t, bool> && op != U::sign) {
      TS_ERROR(op_info(c.op).name, ": CUDA kernel called with dtype bool");
    } else {
      gpu_kernel<1, scalar_t, scalar_t>(iter, UnaryOp<op>{});
    }
  });
  iter.cast_outputs();
}

struct BitwiseNot {
  template <typename C>
  __device__ C operator()(C x) const {
    if constexpr (std::is_same_v<C, bool>)
      return !x;  // ~true would be -2, also "true"
    else
      return static_cast<C>(~x);
  }
};

void bitwise_not_kernel(const KernelCall& c) {
  DeviceGuard guard(c.outputs[0].device().index());
  TensorIterator iter = elementwise_iter(c);
  TS_CUDA_DISPATCH_INTEGRAL_AND_BOOL(iter.common_dtype(), "bitwise_not", [&] {
    gpu_kernel<1, scalar_t, scalar_t>(iter, BitwiseNot{});
  });
  iter.cast_outputs();
}

void gelu_kernel(const KernelCall& c) {
  c.p.mode == 0 ? float_kernel<U::gelu>(c) : float_kernel<U::gelu_tanh>(c);
}

struct IsNan {
  template <typename C>
  __device__ bool operator()(C x) const {
    if constexpr (std::is_floating_point_v<C>)
      return x != x;
    else
      return false;
  }
};
struct LogicalNot {
  template <typename C>
  __device__ bool operator()(C x) const {
    return x == C(0);
  }
};

template <class F>
void bool_kernel(const KernelCall& call) {
  with_bool_output(call, [](const KernelCall& c) {
    DeviceGuard guard(c.outputs[0].device().index());
    TensorIterator iter = elementwise_iter(c, /*cast_output=*/false);
    TS_CUDA_DISPATCH_ALL(iter.common_dtype(), op_info(c.op).name.data(),
                         [&] { gpu_kernel<1, bool, scalar_t>(iter, F{}); });
  });
}

// Note [CUDA clamp]
// As reference/unary.cpp's Note [clamp with NaN]: min(max(x, lo), hi), a NaN element or bound
// gives NaN. The bounds arrive as (wrapped-scalar) inputs after self.
template <bool kMin, bool kMax>
struct ClampOp {
  template <typename C>
  __device__ C operator()(C x, C b) const {
    return kMin ? clamp_min(x, b) : clamp_max(x, b);
  }
  template <typename C>
  __device__ C operator()(C x, C lo, C hi) const {
    return clamp_max(clamp_min(x, lo), hi);
  }
};

void clamp_kernel(const KernelCall& c) {
  DeviceGuard guard(c.outputs[0].device().index());
  const bool has_min = (c.p.mode & 1) != 0;
  const bool has_max = (c.p.mode & 2) != 0;
  TensorIterator iter = elementwise_iter(c);
  TS_CUDA_DISPATCH_REAL(iter.common_dtype(), "clamp", [&] {
    if (has_min && has_max) {
      gpu_kernel<3, scalar_t, scalar_t>(iter, ClampOp<true, true>{});
    } else if (has_min) {
      gpu_kernel<2, scalar_t, scalar_t>(iter, ClampOp<true, false>{});
    } else {
      gpu_kernel<2, scalar_t, scalar_t>(iter, ClampOp<false, true>{});
    }
  });
  iter.cast_outputs();
}

}  // namespace

TS_REGISTER_KERNELS(optimized, cuda_unary) {
  // The dtypes of the optimized CPU set, which are PyTorch's CUDA dtypes for these ops.
  const DTypeSet all = DTypeSet::all();
  const DTypeSet no_bool = all - DTypeSet{kBool};
  const DTypeSet floating = DTypeSet::floating();
  const DTypeSet real = DTypeSet::integral(false) | floating;
  m.impl(OpId::neg, kCUDA, no_bool, real_kernel<U::neg>);
  m.impl(OpId::abs, kCUDA, no_bool, real_kernel<U::abs>);
  m.impl(OpId::sign, kCUDA, all, real_kernel<U::sign>);
  m.impl(OpId::exp, kCUDA, floating, float_kernel<U::exp>);
  m.impl(OpId::expm1, kCUDA, floating, float_kernel<U::expm1>);
  m.impl(OpId::log, kCUDA, floating, float_kernel<U::log>);
  m.impl(OpId::log1p, kCUDA, floating, float_kernel<U::log1p>);
  m.impl(OpId::sqrt, kCUDA, floating, float_kernel<U::sqrt>);
  m.impl(OpId::rsqrt, kCUDA, floating, float_kernel<U::rsqrt>);
  m.impl(OpId::reciprocal, kCUDA, floating, float_kernel<U::reciprocal>);
  m.impl(OpId::sin, kCUDA, floating, float_kernel<U::sin>);
  m.impl(OpId::cos, kCUDA, floating, float_kernel<U::cos>);
  m.impl(OpId::tanh, kCUDA, floating, float_kernel<U::tanh>);
  m.impl(OpId::sigmoid, kCUDA, floating, float_kernel<U::sigmoid>);
  m.impl(OpId::relu, kCUDA, no_bool, real_kernel<U::relu>);
  m.impl(OpId::gelu, kCUDA, floating, gelu_kernel);
  m.impl(OpId::silu, kCUDA, floating, float_kernel<U::silu>);
  m.impl(OpId::erf, kCUDA, floating, float_kernel<U::erf>);
  m.impl(OpId::floor, kCUDA, real, real_kernel<U::floor>);
  m.impl(OpId::ceil, kCUDA, real, real_kernel<U::ceil>);
  m.impl(OpId::round, kCUDA, real, real_kernel<U::round>);
  m.impl(OpId::trunc, kCUDA, real, real_kernel<U::trunc>);
  m.impl(OpId::isnan, kCUDA, all, bool_kernel<IsNan>);
  m.impl(OpId::logical_not, kCUDA, all, bool_kernel<LogicalNot>);
  m.impl(OpId::bitwise_not, kCUDA, DTypeSet::integral(true), bitwise_not_kernel);
  m.impl(OpId::clamp, kCUDA, no_bool, clamp_kernel);
}

}  // namespace ts::cuda
