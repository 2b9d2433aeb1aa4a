// Optimized CPU kernels for unary elementwise ops. Floating compute dtypes run Highway vector
// kernels (float16/bfloat16 in float32; the math in unary-inl.h); integer and bool dtypes run
// scalar loops the compiler vectorizes. OpParams: mode (gelu approximation; clamp's bounds
// present), compute_dtype; clamp's bounds are extra wrapped-scalar inputs (lib/src/ops/unary.cpp).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "optimized/cpu/unary.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
// Must come after foreach_target.h.
#include "hwy/highway.h"
#include "optimized/cpu/loops-inl.h"
#include "optimized/cpu/unary-inl.h"

#ifndef TS_OPTIMIZED_CPU_UNARY_OPS_
#define TS_OPTIMIZED_CPU_UNARY_OPS_
namespace ts::cpu {
// The floating unary ops with a vector kernel (the argument of unary_floating).
// clang-format off
enum class UOp : int {
  neg, abs, sign, exp, expm1, log, log1p, sqrt, rsqrt, reciprocal, sin, cos, tanh, sigmoid,
  relu, gelu, gelu_tanh, silu, erf, floor, ceil, round, trunc, clamp
};
// clang-format on
}  // namespace ts::cpu
#endif

// Note [Transcendental accuracy]
// Max float32 error of the vector kernels, in ULPs of the exact result (the C library in double),
// over every 61st float32 bit pattern (70 M inputs spanning all finite values), worst of the
// AVX2, SSE4 (no FMA) and scalar targets; subnormal results count by absolute error only.
//   exp 1.00   expm1 3.44   log 0.89   log1p 2.37   sin 2.47*   cos 2.42*   tanh 2.71
//   sigmoid 2.68   erf 1.32   rsqrt 1.49   sqrt, reciprocal 0.50 (correctly rounded)
//   silu 3.53 for x >= -87.3 (below, exp(x) is subnormal: 47 ULP on results under 2e-36)
//   gelu 2.33 and gelu(tanh) 3.29 for x >= -1; below, 1 + erf (1 + tanh) cancels, as in ATen
//   and in the reference's formula: absolute error at most 4.5e-7 there.
// * sin and cos also over the 4096 floats around each of their zeros below 39000; beyond
// 39000 the C library runs (Note [Vector sin and cos range]). No input breaks the float32
// assert_close tolerances; NaN, +-inf, +-0, overflow and underflow match the reference.
// float64 runs Highway's double kernels (4 ULP or better) and std::erf. The test
// OptimizedUnary.Float32UlpErrorOfTranscendentals re-measures on 2^18 inputs per capability.

HWY_BEFORE_NAMESPACE();
namespace ts::cpu::HWY_NAMESPACE {
namespace {

template <UOp kOp>
struct VecOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const {
    using T = hn::TFromD<D>;
    if constexpr (kOp == UOp::neg) return hn::Neg(x);
    if constexpr (kOp == UOp::abs) return hn::Abs(x);
    if constexpr (kOp == UOp::sign) {  // NaN -> 0 and -0 -> +0, as (0 < x) - (x < 0)
      const V zero = hn::Zero(d);
      return hn::IfThenElse(hn::Gt(x, zero), hn::Set(d, T(1)),
                            hn::IfThenElseZero(hn::Lt(x, zero), hn::Set(d, T(-1))));
    }
    if constexpr (kOp == UOp::exp) return VecExp(d, x);
    if constexpr (kOp == UOp::expm1) return VecExpm1(d, x);
    if constexpr (kOp == UOp::log) return VecLog(d, x);
    if constexpr (kOp == UOp::log1p) return VecLog1p(d, x);
    if constexpr (kOp == UOp::sqrt) return hn::Sqrt(x);
    if constexpr (kOp == UOp::rsqrt) return hn::Div(hn::Set(d, T(1)), hn::Sqrt(x));
    if constexpr (kOp == UOp::reciprocal) return hn::Div(hn::Set(d, T(1)), x);
    if constexpr (kOp == UOp::sin) return VecSin(d, x);
    if constexpr (kOp == UOp::cos) return VecCos(d, x);
    if constexpr (kOp == UOp::tanh) return VecTanh(d, x);
    if constexpr (kOp == UOp::sigmoid) return VecSigmoid(d, x);
    // max(x, 0) that keeps NaN and -0, as the reference's x < 0 ? 0 : x.
    if constexpr (kOp == UOp::relu) return hn::IfThenZeroElse(hn::Lt(x, hn::Zero(d)), x);
    if constexpr (kOp == UOp::gelu) {  // x * 0.5 * (1 + erf(x / sqrt(2)))
      const V e = VecErf(d, hn::Mul(x, hn::Set(d, T(0.70710678118654752440))));
      return hn::Mul(hn::Mul(x, hn::Set(d, T(0.5))), hn::Add(hn::Set(d, T(1)), e));
    }
    if constexpr (kOp == UOp::gelu_tanh) {  // 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3)))
      const V x3 = hn::Mul(hn::Mul(x, x), x);
      const V inner = hn::Mul(hn::Set(d, T(0.79788456080286535588)),
                              hn::MulAdd(hn::Set(d, T(0.044715)), x3, x));
      return hn::Mul(hn::Mul(hn::Set(d, T(0.5)), x), hn::Add(hn::Set(d, T(1)), VecTanh(d, inner)));
    }
    if constexpr (kOp == UOp::silu) return hn::Mul(x, VecSigmoid(d, x));
    if constexpr (kOp == UOp::erf) return VecErf(d, x);
    // The result has x's sign, also when it is zero (Highway's scalar Round(-0.5) gives +0).
    if constexpr (kOp == UOp::floor) return hn::CopySign(hn::Floor(x), x);
    if constexpr (kOp == UOp::ceil) return hn::CopySign(hn::Ceil(x), x);
    if constexpr (kOp == UOp::round) return hn::CopySign(hn::Round(x), x);  // half to even
    static_assert(kOp == UOp::trunc || kOp < UOp::trunc, "clamp has its own functor");
    return hn::CopySign(hn::Trunc(x), x);
  }
};

// min(max(x, lo), hi): a NaN element stays NaN, lo > hi gives hi (Note [clamp with NaN] in the
// reference; a NaN bound is handled by the caller). Absent bounds are -inf / +inf.
struct ClampOp {
  double lo, hi;
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const {
    using T = hn::TFromD<D>;
    const V vlo = hn::Set(d, static_cast<T>(lo));
    const V vhi = hn::Set(d, static_cast<T>(hi));
    const V r = hn::IfThenElse(hn::Lt(x, vlo), vlo, x);
    return hn::IfThenElse(hn::Gt(r, vhi), vhi, r);
  }
};

template <class Op>
void run_floating(const TensorIterator& iter, const Op& op) {
  switch (iter.common_dtype()) {
    case kFloat:
      return vectorized_loop<float, 1>(iter, op);
    case kDouble:
      return vectorized_loop<double, 1>(iter, op);
    case kHalf:
      return vectorized_loop<Half, 1>(iter, op);
    case kBFloat16:
      return vectorized_loop<BFloat16, 1>(iter, op);
    default:
      TS_ERROR("optimized unary: not a floating dtype: ", iter.common_dtype());
  }
}

template <UOp... kOps>
void run_op(const TensorIterator& iter, UOp op, std::integer_sequence<UOp, kOps...>) {
  ((op == kOps ? run_floating(iter, VecOp<kOps>{}) : void()), ...);
}

}  // namespace

// `op` is a UOp; lo and hi are clamp's bounds in the compute dtype.
void unary_floating(const TensorIterator& iter, int op, double lo, double hi) {
  const UOp u = static_cast<UOp>(op);
  if (u == UOp::clamp) return run_floating(iter, ClampOp{lo, hi});
  using U = UOp;
  run_op(iter, u,
         std::integer_sequence<U, U::neg, U::abs, U::sign, U::exp, U::expm1, U::log, U::log1p,
                               U::sqrt, U::rsqrt, U::reciprocal, U::sin, U::cos, U::tanh,
                               U::sigmoid, U::relu, U::gelu, U::gelu_tanh, U::silu, U::erf,
                               U::floor, U::ceil, U::round, U::trunc>{});
}

}  // namespace ts::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <limits>

#include "optimized/cpu/convert.h"
#include "touchstone/dispatch_macros.h"
#include "touchstone/ops.h"

namespace ts::cpu {
namespace {

HWY_EXPORT(unary_floating);

// Wrapping integer negation through uint64 (no signed overflow).
template <typename T>
T wrap_neg(T a) {
  return static_cast<T>(0 - static_cast<uint64_t>(a));
}

template <typename T>
bool is_negative(T a) {
  if constexpr (std::is_signed_v<T>) {
    return a < 0;
  } else {
    return false;
  }
}

// Runs a floating compute dtype through the vector kernel `op`, any other through `integral`
// (called with the iterator and the dtype).
template <class F>
void run(const KernelCall& c, UOp op, const F& integral, double lo = 0, double hi = 0) {
  TensorIterator iter = elementwise_iter(c);
  const ScalarType t = iter.common_dtype();
  if (is_floating_type(t)) {
    HWY_DYNAMIC_DISPATCH(unary_floating)(iter, static_cast<int>(op), lo, hi);
  } else {
    integral(iter, t);
  }
  iter.cast_outputs();
}

// Ops whose meta computes integers in float: the integral branch can never run.
void run_float(const KernelCall& c, UOp op) {
  run(c, op, [&](const TensorIterator&, ScalarType t) {
    TS_ERROR(op_info(c.op).name, ": optimized kernel called with compute dtype ", t);
  });
}

// One of the integral dtypes (and bool when `with_bool`): out = f(a) with a and out of that type.
template <bool kWithBool = false, class F>
auto integral(const char* name, const F& f) {
  return [name, f](const TensorIterator& iter, ScalarType t) {
    if constexpr (kWithBool) {
      if (t == kBool) return scalar_loop<bool, bool, 1>(iter, [&](bool a) { return f(a); });
    }
    TS_DISPATCH_INTEGRAL_TYPES(t, name, [&] { scalar_loop<scalar_t, scalar_t, 1>(iter, f); });
  };
}

void neg_kernel(const KernelCall& c) {
  run(c, UOp::neg, integral("neg", [](auto a) { return wrap_neg(a); }));
}
void abs_kernel(const KernelCall& c) {
  // abs(int8 -128) wraps to -128, as in PyTorch.
  run(c, UOp::abs, integral("abs", [](auto a) { return is_negative(a) ? wrap_neg(a) : a; }));
}
void sign_kernel(const KernelCall& c) {
  run(c, UOp::sign, integral<true>("sign", [](auto a) {
        return static_cast<decltype(a)>((decltype(a)(0) < a) - is_negative(a));
      }));
}
void relu_kernel(const KernelCall& c) {
  run(c, UOp::relu, integral("relu", [](auto a) { return is_negative(a) ? decltype(a)(0) : a; }));
}
// Rounding ops are the identity on integers.
template <UOp kOp>
void rounding_kernel(const KernelCall& c) {
  run(c, kOp, integral("rounding", [](auto a) { return a; }));
}

void bitwise_not_kernel(const KernelCall& c) {
  // On bool, bitwise_not is logical not.
  TensorIterator iter = elementwise_iter(c);
  integral<true>("bitwise_not", [](auto a) {
    if constexpr (std::is_same_v<decltype(a), bool>) {
      return !a;
    } else {
      return static_cast<decltype(a)>(~a);
    }
  })(iter, iter.common_dtype());
  iter.cast_outputs();
}

void exp_kernel(const KernelCall& c) {
  run_float(c, UOp::exp);
}
void expm1_kernel(const KernelCall& c) {
  run_float(c, UOp::expm1);
}
void log_kernel(const KernelCall& c) {
  run_float(c, UOp::log);
}
void log1p_kernel(const KernelCall& c) {
  run_float(c, UOp::log1p);
}
void sqrt_kernel(const KernelCall& c) {
  run_float(c, UOp::sqrt);
}
void rsqrt_kernel(const KernelCall& c) {
  run_float(c, UOp::rsqrt);
}
void reciprocal_kernel(const KernelCall& c) {
  run_float(c, UOp::reciprocal);
}
void sin_kernel(const KernelCall& c) {
  run_float(c, UOp::sin);
}
void cos_kernel(const KernelCall& c) {
  run_float(c, UOp::cos);
}
void tanh_kernel(const KernelCall& c) {
  run_float(c, UOp::tanh);
}
void sigmoid_kernel(const KernelCall& c) {
  run_float(c, UOp::sigmoid);
}
void silu_kernel(const KernelCall& c) {
  run_float(c, UOp::silu);
}
void erf_kernel(const KernelCall& c) {
  run_float(c, UOp::erf);
}
void gelu_kernel(const KernelCall& c) {
  run_float(c, c.p.mode == 0 ? UOp::gelu : UOp::gelu_tanh);
}

// isnan and logical_not: a bool result computed in the input's dtype. Another output dtype
// (logical_not_out, logical_not_ on a non-bool tensor) gets the bools through a temporary.
template <class F>
void bool_result(const KernelCall& c, const F& f) {
  const Tensor& out = c.outputs[0];
  if (out.dtype() != kBool) {
    const Tensor tmp = empty(out.sizes(), TensorOptions(kBool));
    bool_result(KernelCall{c.op, ArrayRef<Tensor>(&tmp, 1), c.inputs, c.p, c.kind}, f);
    out.copy_(tmp);
    return;
  }
  TensorIterator iter = elementwise_iter(c, /*cast_output=*/false);
  TS_DISPATCH_ALL_DTYPES(iter.common_dtype(), op_info(c.op).name.data(), [&] {
    using C = compute_t<scalar_t>;
    scalar_loop<bool, scalar_t, 1>(iter, [&](scalar_t a) { return f(static_cast<C>(a)); });
  });
}

void isnan_kernel(const KernelCall& c) {
  bool_result(c, [](auto a) {
    if constexpr (std::is_floating_point_v<decltype(a)>) {
      return a != a;
    } else {
      return false;
    }
  });
}
void logical_not_kernel(const KernelCall& c) {
  bool_result(c, [](auto a) { return a == decltype(a)(0); });  // NaN is true: !NaN is false
}

// Element 0 of a wrapped-scalar input.
Scalar scalar_of(const Tensor& t) {
  return TS_DISPATCH_ALL_DTYPES(
      t.dtype(), "clamp", [&] { return Scalar(*static_cast<const scalar_t*>(t.data_ptr())); });
}

// The Scalar converted to T (rounded once, as the reference loads it), as T's compute type.
template <typename T>
compute_t<T> bound_as(const Scalar& s) {
  const T v = s.is_floating_point() ? double_to<T>(s.to_double()) : int64_to<T>(s.to_long());
  return static_cast<compute_t<T>>(v);
}

void clamp_kernel(const KernelCall& c) {
  const bool has_min = (c.p.mode & 1) != 0;
  const bool has_max = (c.p.mode & 2) != 0;
  const std::optional<Scalar> min = has_min ? std::optional(scalar_of(c.inputs[1])) : std::nullopt;
  const std::optional<Scalar> max =
      has_max ? std::optional(scalar_of(c.inputs[has_min ? 2 : 1])) : std::nullopt;
  // Only self goes through the loop; the bounds are constants of the op.
  const KernelCall self_only{c.op, c.outputs, c.inputs.slice(0, 1), c.p, c.kind};
  const ScalarType t = c.p.compute_dtype;
  if (is_floating_type(t)) {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    double lo = -kInf, hi = kInf;
    TS_DISPATCH_FLOATING_TYPES_AND_REDUCED(t, "clamp", [&] {
      if (min) lo = static_cast<double>(bound_as<scalar_t>(*min));
      if (max) hi = static_cast<double>(bound_as<scalar_t>(*max));
    });
    if (std::isnan(lo) || std::isnan(hi)) {  // every element is NaN (Note [clamp with NaN])
      c.outputs[0].fill_(std::numeric_limits<double>::quiet_NaN());
      return;
    }
    return run(
        self_only, UOp::clamp, [](const TensorIterator&, ScalarType) {}, lo, hi);
  }
  run(self_only, UOp::clamp, [&](const TensorIterator& iter, ScalarType dt) {
    TS_DISPATCH_INTEGRAL_TYPES(dt, "clamp", [&] {
      constexpr scalar_t kLow = std::numeric_limits<scalar_t>::lowest();
      constexpr scalar_t kHigh = std::numeric_limits<scalar_t>::max();
      const scalar_t lo = min ? bound_as<scalar_t>(*min) : kLow;
      const scalar_t hi = max ? bound_as<scalar_t>(*max) : kHigh;
      scalar_loop<scalar_t, scalar_t, 1>(iter, [lo, hi](scalar_t a) {
        const scalar_t r = a < lo ? lo : a;
        return r > hi ? hi : r;
      });
    });
  });
}

}  // namespace

TS_REGISTER_KERNELS(optimized, unary) {
  // The same dtypes as the reference set (reference/unary.cpp).
  const DTypeSet all = DTypeSet::all();
  const DTypeSet no_bool = all - DTypeSet{kBool};
  const DTypeSet floating = DTypeSet::floating();
  const DTypeSet real = DTypeSet::integral(false) | floating;
  m.impl(OpId::neg, kCPU, no_bool, neg_kernel);
  m.impl(OpId::abs, kCPU, no_bool, abs_kernel);
  m.impl(OpId::sign, kCPU, all, sign_kernel);
  m.impl(OpId::exp, kCPU, floating, exp_kernel);
  m.impl(OpId::expm1, kCPU, floating, expm1_kernel);
  m.impl(OpId::log, kCPU, floating, log_kernel);
  m.impl(OpId::log1p, kCPU, floating, log1p_kernel);
  m.impl(OpId::sqrt, kCPU, floating, sqrt_kernel);
  m.impl(OpId::rsqrt, kCPU, floating, rsqrt_kernel);
  m.impl(OpId::reciprocal, kCPU, floating, reciprocal_kernel);
  m.impl(OpId::sin, kCPU, floating, sin_kernel);
  m.impl(OpId::cos, kCPU, floating, cos_kernel);
  m.impl(OpId::tanh, kCPU, floating, tanh_kernel);
  m.impl(OpId::sigmoid, kCPU, floating, sigmoid_kernel);
  m.impl(OpId::relu, kCPU, no_bool, relu_kernel);
  m.impl(OpId::gelu, kCPU, floating, gelu_kernel);
  m.impl(OpId::silu, kCPU, floating, silu_kernel);
  m.impl(OpId::erf, kCPU, floating, erf_kernel);
  m.impl(OpId::floor, kCPU, real, rounding_kernel<UOp::floor>);
  m.impl(OpId::ceil, kCPU, real, rounding_kernel<UOp::ceil>);
  m.impl(OpId::round, kCPU, real, rounding_kernel<UOp::round>);
  m.impl(OpId::trunc, kCPU, real, rounding_kernel<UOp::trunc>);
  m.impl(OpId::isnan, kCPU, all, isnan_kernel);
  m.impl(OpId::logical_not, kCPU, all, logical_not_kernel);
  m.impl(OpId::bitwise_not, kCPU, DTypeSet::integral(true), bitwise_not_kernel);
  m.impl(OpId::clamp, kCPU, no_bool, clamp_kernel);
}

}  // namespace ts::cpu
#endif  // HWY_ONCE
