// CUDA kernels for unary elementwise ops. float16/bfloat16 compute in float32, integers in
// their own type with wrapping arithmetic; the formulas follow reference/unary.cpp. A plain op is
// one branch of UnaryOp; gelu (GeluParams), clamp (ClampParams) and the activations of issue 16
// (leaky_relu, elu, softplus, hardtanh, threshold) have functors of their own.
#include "optimized/cuda/loops.cuh"
#include "optimized/cuda/math.cuh"
#include "touchstone/kernel_helpers.h"
#include "touchstone/ops.h"

namespace ts::cuda {
namespace {

// psi(x) as the CPU set's ScalarDigamma (reflection, recurrence to 10, asymptotic series).
template <typename C>
__device__ C digamma(C x) {
  if (x == C(0)) return ::copysign(C(INFINITY), -x);
  if (!(x > C(-INFINITY))) return C(NAN);
  if (::isinf(x)) return x;
  C reflection = 0;
  if (x < C(0)) {
    const C frac = x - ::trunc(x);
    if (frac == C(0)) return C(NAN);
    reflection = -C(3.14159265358979323846) / ::tan(C(3.14159265358979323846) * frac);
    x = C(1) - x;
  }
  C sum = 0;
  for (; x < C(10); x += C(1)) sum += C(1) / x;
  const C z = C(1) / (x * x);
  const C series =
      z *
      (C(1.0 / 12) -
       z * (C(1.0 / 120) -
            z * (C(1.0 / 252) -
                 z * (C(1.0 / 240) - z * (C(1.0 / 132) - z * (C(691.0 / 32760) - z / C(12)))))));
  return reflection + (::log(x) - C(0.5) / x - series - sum);
}

// nan_to_num: the replacements as the compute type (rounded to the storage dtype first).
struct NanToNumOp {
  double nan, posinf, neginf;
  template <typename C>
  __device__ C operator()(C x) const {
    if constexpr (std::is_floating_point_v<C>) {
      if (x != x) return static_cast<C>(nan);
      if (::isinf(x)) return static_cast<C>(x > C(0) ? posinf : neginf);
    }
    return x;
  }
};

// The formula of every plain unary op, for each of its dtypes (a missing branch fails to
// compile); UnaryBool ops return bool.
template <OpId op>
struct UnaryOp {
  template <typename C>
  __device__ auto operator()(C x) const {
    if constexpr (op == OpId::neg) {
      return wrapping_neg(x);
    } else if constexpr (op == OpId::abs) {
      if constexpr (std::is_floating_point_v<C>)
        return ::fabs(x);
      else
        return is_negative(x) ? wrapping_neg(x) : x;
    } else if constexpr (op == OpId::sign) {
      return static_cast<C>((C(0) < x) - is_negative(x));
    } else if constexpr (op == OpId::relu) {
      return is_negative(x) ? C(0) : x;
    } else if constexpr (op == OpId::floor || op == OpId::ceil || op == OpId::round ||
                         op == OpId::trunc) {
      if constexpr (!std::is_floating_point_v<C>)
        return x;  // the rounding ops are the identity on integers
      else if constexpr (op == OpId::floor)
        return ::floor(x);
      else if constexpr (op == OpId::ceil)
        return ::ceil(x);
      else if constexpr (op == OpId::round)
        return ::rint(x);  // half to even, as torch.round
      else
        return ::trunc(x);
    } else if constexpr (op == OpId::frac) {
      return x - ::trunc(x);
    } else if constexpr (op == OpId::exp) {
      return ::exp(x);
    } else if constexpr (op == OpId::expm1) {
      return ::expm1(x);
    } else if constexpr (op == OpId::exp2) {
      return ::exp2(x);
    } else if constexpr (op == OpId::log) {
      return ::log(x);
    } else if constexpr (op == OpId::log1p) {
      return ::log1p(x);
    } else if constexpr (op == OpId::log2) {
      return ::log2(x);
    } else if constexpr (op == OpId::log10) {
      return ::log10(x);
    } else if constexpr (op == OpId::sqrt) {
      return ::sqrt(x);
    } else if constexpr (op == OpId::rsqrt) {
      return C(1) / ::sqrt(x);  // not rsqrt(): the approximate instruction is off by ulps
    } else if constexpr (op == OpId::reciprocal) {
      return C(1) / x;
    } else if constexpr (op == OpId::sin) {
      return ::sin(x);
    } else if constexpr (op == OpId::cos) {
      return ::cos(x);
    } else if constexpr (op == OpId::tan) {
      return ::tan(x);
    } else if constexpr (op == OpId::asin) {
      return ::asin(x);
    } else if constexpr (op == OpId::acos) {
      return ::acos(x);
    } else if constexpr (op == OpId::atan) {
      return ::atan(x);
    } else if constexpr (op == OpId::sinh) {
      return ::sinh(x);
    } else if constexpr (op == OpId::cosh) {
      return ::cosh(x);
    } else if constexpr (op == OpId::tanh) {
      return ::tanh(x);
    } else if constexpr (op == OpId::asinh) {
      return ::asinh(x);
    } else if constexpr (op == OpId::acosh) {
      return ::acosh(x);
    } else if constexpr (op == OpId::atanh) {
      return ::atanh(x);
    } else if constexpr (op == OpId::sinc) {
      // sinpi reduces the argument exactly: sinc is 0 at every nonzero integer.
      // At a nonzero integer, +0 / (pi x): the sign of x, as the reference's sin_pi.
      if (x == C(0)) return C(1);
      if (::isfinite(x) && x == ::rint(x)) return ::copysign(C(0), x);
      return ::sinpi(x) / (x * C(3.14159265358979323846));
    } else if constexpr (op == OpId::sigmoid) {
      return C(1) / (C(1) + ::exp(-x));
    } else if constexpr (op == OpId::silu) {
      return x / (C(1) + ::exp(-x));
    } else if constexpr (op == OpId::hardsigmoid || op == OpId::hardswish) {
      // relu6(x + 3) / 6 (x * that for hardswish); fmin/fmax would drop a NaN.
      const C r = is_nan(x) ? x : ::fmin(::fmax(x + C(3), C(0)), C(6));
      if constexpr (op == OpId::hardsigmoid)
        return r / C(6);
      else
        return x >= C(3) ? x : x * r / C(6);
    } else if constexpr (op == OpId::mish) {
      // tanh(softplus(x)) = n / (n + 2), n = u (u + 2), u = e^x (Note [Vector mish], cpu/unary.cpp)
      if (x > C(20)) return x;
      const C u = ::exp(x), n = u * (u + C(2));
      return x * (n / (n + C(2)));
    } else if constexpr (op == OpId::log_sigmoid) {
      // Note [The sign of log_sigmoid's underflow] (reference/unary.cpp): -0, +0 at +inf.
      if (is_nan(x)) return x;
      if (x > C(0) && ::isinf(x)) return C(0);
      return -(::log1p(::exp(-::fabs(x))) - ::fmin(x, C(0)));
    } else if constexpr (op == OpId::erf) {
      return ::erf(x);
    } else if constexpr (op == OpId::erfc) {
      return ::erfc(x);
    } else if constexpr (op == OpId::erfinv) {
      return ::erfinv(x);
    } else if constexpr (op == OpId::bitwise_not) {
      if constexpr (std::is_same_v<C, bool>)
        return !x;  // ~true would be -2, also "true"
      else
        return static_cast<C>(~x);
    } else if constexpr (op == OpId::isnan) {
      return is_nan(x);
    } else if constexpr (op == OpId::logical_not) {
      return x == C(0);
    } else if constexpr (op == OpId::lgamma) {  // math (issue 16)
      return ::lgamma(x);
    } else if constexpr (op == OpId::digamma) {
      return digamma(x);
    } else if constexpr (op == OpId::isinf) {
      if constexpr (std::is_floating_point_v<C>)
        return ::isinf(x);
      else
        return false;
    } else if constexpr (op == OpId::isfinite) {
      if constexpr (std::is_floating_point_v<C>)
        return ::isfinite(x);
      else
        return true;
    } else {
      static_assert(op != op, "a plain unary op of op_list.def has no branch in UnaryOp");
    }
  }
};

template <OpId op>
void unary_kernel(const KernelCall& c) {
  plain_kernel<op, 1>(c, [](auto, const KernelCall&) { return UnaryOp<op>{}; });
}

template <GeluApproximation kApproximate>
struct GeluOp {
  template <typename C>
  __device__ C operator()(C x) const {
    if constexpr (kApproximate == GeluApproximation::None) {
      // erfc, not 1 + erf: no cancellation for x < 0 (Note [gelu's negative tail], cpu/unary.cpp)
      return C(0.5) * x * ::erfc(-x * C(0.70710678118654752440));
    } else {
      const C k = C(0.79788456080286535588);  // sqrt(2 / pi)
      return C(0.5) * x * (C(1) + ::tanh(k * (x + C(0.044715) * x * x * x)));
    }
  }
};

void gelu_kernel(const KernelCall& c) {
  DeviceGuard guard(c.outputs[0].device().index());
  TensorIterator iter = elementwise_iter(c);
  const GeluApproximation approximate = c.params<GeluParams>().approximate;
  TS_CUDA_DISPATCH_FLOATING(iter.common_dtype(), "gelu", [&] {
    if (approximate == GeluApproximation::None) {
      gpu_kernel<1, scalar_t, scalar_t>(iter, GeluOp<GeluApproximation::None>{});
    } else {
      gpu_kernel<1, scalar_t, scalar_t>(iter, GeluOp<GeluApproximation::Tanh>{});
    }
  });
  iter.cast_outputs();
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
  const ClampParams& bounds = c.params<ClampParams>();
  TensorIterator iter = elementwise_iter(c);
  TS_CUDA_DISPATCH_REAL(iter.common_dtype(), "clamp", [&] {
    if (bounds.has_min && bounds.has_max) {
      gpu_kernel<3, scalar_t, scalar_t>(iter, ClampOp<true, true>{});
    } else if (bounds.has_min) {
      gpu_kernel<2, scalar_t, scalar_t>(iter, ClampOp<true, false>{});
    } else {
      gpu_kernel<2, scalar_t, scalar_t>(iter, ClampOp<false, true>{});
    }
  });
  iter.cast_outputs();
}

void nan_to_num_kernel(const KernelCall& c) {
  DeviceGuard guard(c.outputs[0].device().index());
  const NanToNumParams& r = c.params<NanToNumParams>();
  TensorIterator iter = elementwise_iter(c);
  TS_CUDA_DISPATCH_ALL(iter.common_dtype(), "nan_to_num", [&] {
    NanToNumOp f{r.nan, r.posinf, r.neginf};
    if constexpr (is_reduced_v<scalar_t>) {  // the replacement rounded to the dtype once
      f = {convert<float>(convert<scalar_t>(r.nan)), convert<float>(convert<scalar_t>(r.posinf)),
           convert<float>(convert<scalar_t>(r.neginf))};
    }
    gpu_kernel<1, scalar_t, scalar_t>(iter, f);
  });
  iter.cast_outputs();
}

// ---- activations (issue 16): the parameters rounded to the dtype on the host (Note
// [Activation parameters] in lib/src/ops/unary.cpp); formulas as reference/unary.cpp ----

struct LeakyReluOp {
  double slope;
  template <typename C>
  __device__ C operator()(C x) const {
    return x > C(0) ? x : x * C(slope);
  }
};

struct EluOp {
  double alpha, scale, input_scale;
  template <typename C>
  __device__ C operator()(C x) const {
    return x <= C(0) ? C(alpha * scale) * ::expm1(x * C(input_scale)) : x * C(scale);
  }
};

// max(y, 0) + log1p(exp(-|y|)), y = beta x, over beta: no overflow (SoftplusOp, cpu/unary.cpp).
struct SoftplusOp {
  double beta, threshold;
  template <typename C>
  __device__ C operator()(C x) const {
    const C y = x * C(beta);
    if (is_nan(x) || y > C(threshold)) return x;
    return (::fmax(y, C(0)) + ::log1p(::exp(-::fabs(y)))) / C(beta);
  }
};

// Floating dtypes read the double bounds, integers the truncated int64 ones.
struct HardtanhOp {
  double lo, hi;
  int64_t ilo, ihi;
  template <typename C>
  __device__ C operator()(C x) const {
    if constexpr (std::is_floating_point_v<C>)
      return clamp_max(clamp_min(x, C(lo)), C(hi));
    else
      return clamp_max(clamp_min(x, C(ilo)), C(ihi));
  }
};

struct ThresholdOp {
  double threshold, value;
  int64_t ithreshold, ivalue;
  template <typename C>
  __device__ C operator()(C x) const {
    if constexpr (std::is_floating_point_v<C>)
      return x <= C(threshold) ? C(value) : x;
    else
      return x <= C(ithreshold) ? C(ivalue) : x;
  }
};

// Runs `op` over self in every floating dtype (real ones too when kReal).
template <bool kReal, class Op>
void activation(const KernelCall& c, const char* name, const Op& op) {
  DeviceGuard guard(c.outputs[0].device().index());
  TensorIterator iter = elementwise_iter(c);
  if constexpr (kReal) {
    TS_CUDA_DISPATCH_REAL(iter.common_dtype(), name,
                          [&] { gpu_kernel<1, scalar_t, scalar_t>(iter, op); });
  } else {
    TS_CUDA_DISPATCH_FLOATING(iter.common_dtype(), name,
                              [&] { gpu_kernel<1, scalar_t, scalar_t>(iter, op); });
  }
  iter.cast_outputs();
}

// A threshold or bound rounded once to the compute dtype (0 for integral ones).
double param(const KernelCall& c, const Scalar& s) {
  return is_floating_type(c.p.compute_dtype) ? round_to(c.p.compute_dtype, s.to_double()) : 0;
}
// A coefficient in the op's math type: float32 for the 16-bit dtypes too (ATen's opmath_t).
double opmath_param(const KernelCall& c, const Scalar& s) {
  return round_to(c.p.compute_dtype == kDouble ? kDouble : kFloat, s.to_double());
}

void leaky_relu_kernel(const KernelCall& c) {
  activation<false>(c, "leaky_relu",
                    LeakyReluOp{opmath_param(c, c.params<LeakyReluParams>().negative_slope)});
}

void elu_kernel(const KernelCall& c) {
  const EluParams& e = c.params<EluParams>();
  activation<false>(
      c, "elu",
      EluOp{opmath_param(c, e.alpha), opmath_param(c, e.scale), opmath_param(c, e.input_scale)});
}

void softplus_kernel(const KernelCall& c) {
  const SoftplusParams& s = c.params<SoftplusParams>();
  activation<false>(c, "softplus",
                    SoftplusOp{opmath_param(c, s.beta), opmath_param(c, s.threshold)});
}

void hardtanh_kernel(const KernelCall& c) {
  const HardtanhParams& h = c.params<HardtanhParams>();
  activation<true>(c, "hardtanh",
                   HardtanhOp{param(c, h.min_val), param(c, h.max_val), h.min_val.to_long(),
                              h.max_val.to_long()});
}

void threshold_kernel(const KernelCall& c) {
  const ThresholdParams& p = c.params<ThresholdParams>();
  activation<true>(c, "threshold",
                   ThresholdOp{param(c, p.threshold), param(c, p.value), p.threshold.to_long(),
                               p.value.to_long()});
}

}  // namespace

TS_REGISTER_KERNELS(optimized, cuda_unary) {
  // op_list.def's dtypes, which are PyTorch's CUDA dtypes for these ops.
  for_each_plain_op<PlainOp::Unary>([&](auto op) { m.impl(op, kCUDA, unary_kernel<op>); });
  m.impl(OpId::gelu, kCUDA, gelu_kernel);
  m.impl(OpId::clamp, kCUDA, clamp_kernel);
  m.impl(OpId::nan_to_num, kCUDA, nan_to_num_kernel);
  m.impl(OpId::leaky_relu, kCUDA, leaky_relu_kernel);
  m.impl(OpId::elu, kCUDA, elu_kernel);
  m.impl(OpId::softplus, kCUDA, softplus_kernel);
  m.impl(OpId::hardtanh, kCUDA, hardtanh_kernel);
  m.impl(OpId::threshold, kCUDA, threshold_kernel);
}

}  // namespace ts::cuda
