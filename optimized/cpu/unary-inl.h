// Per-target vector math for the optimized CPU kernels: Highway's contrib math with IEEE special
// values fixed up (NaN, infinities, signed zeros, out-of-range arguments), plus erf and sigmoid.
// Include after hwy/foreach_target.h; compiled once per SIMD target. The accuracy is measured in
// Note [Transcendental accuracy] in unary.cpp.
#if defined(TS_OPTIMIZED_CPU_UNARY_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef TS_OPTIMIZED_CPU_UNARY_INL_H_
#undef TS_OPTIMIZED_CPU_UNARY_INL_H_
#else
#define TS_OPTIMIZED_CPU_UNARY_INL_H_
#endif

#include <cmath>

#include "hwy/contrib/math/math-inl.h"
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace ts::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <class D>
inline constexpr bool kIsF32 = sizeof(hn::TFromD<D>) == 4;

// A constant in the lane type: the float literal for float32, the double one for float64.
template <class D>
HWY_INLINE hn::Vec<D> Const(D d, float f, double g) {
  if constexpr (kIsF32<D>) {
    return hn::Set(d, f);
  } else {
    return hn::Set(d, static_cast<hn::TFromD<D>>(g));
  }
}

// y with the lanes in `m` replaced by f(x) computed in double by the C library (rare lanes:
// arguments outside a vector kernel's range).
template <class D, class M, class F>
HWY_NOINLINE hn::Vec<D> ScalarFallback(D d, hn::Vec<D> x, hn::Vec<D> y, M m, F f) {
  using T = hn::TFromD<D>;
  constexpr size_t kMax = HWY_MAX_BYTES / sizeof(T);
  HWY_ALIGN T xs[kMax];
  HWY_ALIGN T ys[kMax];
  hn::Store(x, d, xs);
  hn::Store(y, d, ys);
  HWY_ALIGN T ms[kMax];
  hn::Store(hn::IfThenElse(m, hn::Set(d, T(1)), hn::Zero(d)), d, ms);
  for (size_t i = 0; i < hn::Lanes(d); ++i) {
    if (ms[i] != 0) ys[i] = static_cast<T>(f(static_cast<double>(xs[i])));
  }
  return hn::Load(d, ys);
}

// Every lane through the C library in double (float64 erf, which Highway lacks).
template <class D, class F>
HWY_INLINE hn::Vec<D> ScalarMap(D d, hn::Vec<D> x, F f) {
  using T = hn::TFromD<D>;
  HWY_ALIGN T xs[HWY_MAX_BYTES / sizeof(T)];
  hn::Store(x, d, xs);
  for (size_t i = 0; i < hn::Lanes(d); ++i) xs[i] = static_cast<T>(f(static_cast<double>(xs[i])));
  return hn::Load(d, xs);
}

// exp: NaN stays NaN (Highway gives 0) and arguments past the overflow threshold give +inf
// (Highway's result is undefined above +104).
template <class D, class V>
HWY_INLINE V VecExp(D d, V x) {
  const V y = hn::Exp(d, x);
  const V r = hn::IfThenElse(hn::Gt(x, Const(d, 88.75f, 709.8)), hn::Inf(d), y);
  return hn::IfThenElse(hn::IsNaN(x), x, r);
}

// expm1: as exp; tiny arguments (and +-0) are returned exactly, keeping their sign.
template <class D, class V>
HWY_INLINE V VecExpm1(D d, V x) {
  const V y = hn::Expm1(d, x);
  V r = hn::IfThenElse(hn::Gt(x, Const(d, 88.75f, 709.8)), hn::Inf(d), y);
  r = hn::IfThenElse(hn::Lt(hn::Abs(x), Const(d, 0x1p-25f, 0x1p-54)), x, r);
  return hn::IfThenElse(hn::IsNaN(x), x, r);
}

// log: log(+-0) = -inf, log(x < 0) = NaN, log(+inf) = +inf, NaN stays NaN.
template <class D, class V>
HWY_INLINE V VecLog(D d, V x) {
  const V y = hn::Log(d, x);
  const V zero = hn::Zero(d);
  const V inf = hn::Inf(d);
  V r = hn::IfThenElse(hn::Eq(x, inf), inf, y);
  r = hn::IfThenElse(hn::Lt(x, zero), hn::NaN(d), r);
  r = hn::IfThenElse(hn::Eq(x, zero), hn::Neg(inf), r);
  return hn::IfThenElse(hn::IsNaN(x), x, r);
}

// log1p: log1p(-1) = -inf, log1p(x < -1) = NaN, log1p(+inf) = +inf, NaN stays NaN; Highway's
// pole branch already returns tiny arguments (and +-0) exactly.
template <class D, class V>
HWY_INLINE V VecLog1p(D d, V x) {
  const V y = hn::Log1p(d, x);
  const V one = hn::Set(d, hn::TFromD<D>(1));
  const V inf = hn::Inf(d);
  V r = hn::IfThenElse(hn::Eq(x, inf), inf, y);
  r = hn::IfThenElse(hn::Lt(x, hn::Neg(one)), hn::NaN(d), r);
  r = hn::IfThenElse(hn::Eq(x, hn::Neg(one)), hn::Neg(inf), r);
  return hn::IfThenElse(hn::IsNaN(x), x, r);
}

// Note [Vector sin and cos range]
// Highway's sin and cos reduce the argument by a four-part pi (Cody-Waite), accurate for
// |x| <= 39000 only. Lanes outside that range (and NaN, inf) take the C library's result.
template <class D, class V>
HWY_INLINE V VecSin(D d, V x) {
  const auto outside = hn::Not(hn::Le(hn::Abs(x), Const(d, 39000.0f, 39000.0)));
  V y = hn::IfThenElse(hn::Eq(x, hn::Zero(d)), x, hn::Sin(d, x));  // keeps the sign of -0
  if (HWY_UNLIKELY(!hn::AllFalse(d, outside))) {
    y = ScalarFallback(d, x, y, outside, [](double v) { return std::sin(v); });
  }
  return y;
}

template <class D, class V>
HWY_INLINE V VecCos(D d, V x) {
  const auto outside = hn::Not(hn::Le(hn::Abs(x), Const(d, 39000.0f, 39000.0)));
  // cos(x) rounds to 1 for tiny |x| (Highway's float64 cos(0) is 1 - 1 ulp).
  const V tiny = Const(d, 0x1p-12f, 0x1p-27);
  V y = hn::IfThenElse(hn::Lt(hn::Abs(x), tiny), hn::Set(d, hn::TFromD<D>(1)), hn::Cos(d, x));
  if (HWY_UNLIKELY(!hn::AllFalse(d, outside))) {
    y = ScalarFallback(d, x, y, outside, [](double v) { return std::cos(v); });
  }
  return y;
}

// tanh: Highway's handles NaN, +-inf and +-0.
template <class D, class V>
HWY_INLINE V VecTanh(D d, V x) {
  return hn::Tanh(d, x);
}

// sigmoid(x) = 1 / (1 + e) for x >= 0 and e / (1 + e) for x < 0, with e = exp(-|x|): no
// overflow, and small results keep their relative accuracy down to the subnormals.
template <class D, class V>
HWY_INLINE V VecSigmoid(D d, V x) {
  const V e = VecExp(d, hn::Neg(hn::Abs(x)));
  const V s = hn::Div(hn::Set(d, hn::TFromD<D>(1)), hn::Add(hn::Set(d, hn::TFromD<D>(1)), e));
  return hn::IfThenElse(hn::Lt(x, hn::Zero(d)), hn::Mul(e, s), s);
}

// Note [Vector erf]
// float32: for |x| < 0.921875, erf(x) = x + x * P(x^2), P of degree 5; above, erf(|x|) =
// 1 - exp(R(|x|)) with R of degree 6 approximating log(erfc) on [0.921875, 3.92] (erf rounds to
// 1 beyond). Both are weighted minimax fits (Lawson's algorithm, in long double) of the relative
// error of erf: 1.6e-8 and 1.5e-9 before rounding the coefficients to float. float64 calls
// std::erf per lane.
template <class D, class V>
HWY_INLINE V VecErf(D d, V x) {
  if constexpr (!kIsF32<D>) {
    return ScalarMap(d, x, [](double v) { return std::erf(v); });
  } else {
    const V t = hn::Abs(x);
    const V s = hn::Mul(x, x);
    V p = hn::Set(d, -5.990853337e-04f);
    p = hn::MulAdd(p, s, hn::Set(d, 4.993180095e-03f));
    p = hn::MulAdd(p, s, hn::Set(d, -2.676661605e-02f));
    p = hn::MulAdd(p, s, hn::Set(d, 1.128181616e-01f));
    p = hn::MulAdd(p, s, hn::Set(d, -3.761249368e-01f));
    p = hn::MulAdd(p, s, hn::Set(d, 1.283791496e-01f));
    const V small = hn::MulAdd(x, p, x);  // NaN and +-0 come out of this branch unchanged
    const V u = hn::Min(t, hn::Set(d, 3.92f));
    V r = hn::Set(d, 1.957207371e-04f);
    r = hn::MulAdd(r, u, hn::Set(d, -3.041093534e-03f));
    r = hn::MulAdd(r, u, hn::Set(d, 2.221845324e-02f));
    r = hn::MulAdd(r, u, hn::Set(d, -1.039140292e-01f));
    r = hn::MulAdd(r, u, hn::Set(d, -6.372022679e-01f));
    r = hn::MulAdd(r, u, hn::Set(d, -1.127663735e+00f));
    r = hn::MulAdd(r, u, hn::Set(d, -1.985544072e-04f));
    const V large = hn::CopySignToAbs(hn::Sub(hn::Set(d, 1.0f), hn::Exp(d, r)), x);
    return hn::IfThenElse(hn::Ge(t, hn::Set(d, 0.921875f)), large, small);
  }
}

}  // namespace ts::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // include guard toggle
