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
#include <limits>

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

// The IEEE special values of a log-like function: f(+-0) = -inf, f(x < 0) = NaN, f(+inf) = +inf,
// NaN stays NaN; other lanes keep y.
template <class D, class V>
HWY_INLINE V LogSpecials(D d, V x, V y) {
  const V zero = hn::Zero(d);
  const V inf = hn::Inf(d);
  V r = hn::IfThenElse(hn::Eq(x, inf), inf, y);
  r = hn::IfThenElse(hn::Lt(x, zero), hn::NaN(d), r);
  r = hn::IfThenElse(hn::Eq(x, zero), hn::Neg(inf), r);
  return hn::IfThenElse(hn::IsNaN(x), x, r);
}

// log: log(+-0) = -inf, log(x < 0) = NaN, log(+inf) = +inf, NaN stays NaN.
template <class D, class V>
HWY_INLINE V VecLog(D d, V x) {
  return LogSpecials(d, x, hn::Log(d, x));
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
// |x| <= 39000 only. Lanes outside that range (and NaN, inf) take the C library's result:
// float32 lanes glibc's sinf and cosf (under 1 ULP; their integer Payne-Hanek reduction costs
// about 4 ns, the double functions' about 20 ns at |x| ~ 1e30), float64 lanes sin and cos.
template <class D>
double SinOutside(double v) {
  if constexpr (kIsF32<D>) return ::sinf(static_cast<float>(v));
  return std::sin(v);
}
template <class D>
double CosOutside(double v) {
  if constexpr (kIsF32<D>) return ::cosf(static_cast<float>(v));
  return std::cos(v);
}

template <class D, class V>
HWY_INLINE V VecSin(D d, V x) {
  const auto outside = hn::Not(hn::Le(hn::Abs(x), Const(d, 39000.0f, 39000.0)));
  V y = hn::IfThenElse(hn::Eq(x, hn::Zero(d)), x, hn::Sin(d, x));  // keeps the sign of -0
  if (HWY_UNLIKELY(!hn::AllFalse(d, outside))) {
    y = ScalarFallback(d, x, y, outside, SinOutside<D>);
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
    y = ScalarFallback(d, x, y, outside, CosOutside<D>);
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

// erf(x) for float32 |x| < 0.921875: x + x P(x^2) (Note [Vector erf]).
template <class D, class V>
HWY_INLINE V VecErfSmall(D d, V x) {
  const V s = hn::Mul(x, x);
  V p = hn::Set(d, -5.990853337e-04f);
  p = hn::MulAdd(p, s, hn::Set(d, 4.993180095e-03f));
  p = hn::MulAdd(p, s, hn::Set(d, -2.676661605e-02f));
  p = hn::MulAdd(p, s, hn::Set(d, 1.128181616e-01f));
  p = hn::MulAdd(p, s, hn::Set(d, -3.761249368e-01f));
  p = hn::MulAdd(p, s, hn::Set(d, 1.283791496e-01f));
  return hn::MulAdd(x, p, x);
}

template <class D, class V>
HWY_INLINE V VecErf(D d, V x) {
  if constexpr (!kIsF32<D>) {
    return ScalarMap(d, x, [](double v) { return std::erf(v); });
  } else {
    const V t = hn::Abs(x);
    const V small = VecErfSmall(d, x);  // NaN and +-0 come out of this branch unchanged
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

// 2^n for integral n in the lanes' exponent range (|n| <= 127 float32, 1023 float64), by bits.
template <class D, class VI>
HWY_INLINE hn::Vec<D> Pow2I(D d, VI n) {
  const hn::RebindToSigned<D> di;
  using TI = hn::TFromD<decltype(di)>;
  if constexpr (kIsF32<D>) {
    return hn::BitCast(d, hn::ShiftLeft<23>(hn::Add(n, hn::Set(di, TI{127}))));
  } else {
    return hn::BitCast(d, hn::ShiftLeft<52>(hn::Add(n, hn::Set(di, TI{1023}))));
  }
}

// Note [Vector exp2]
// 2^x = 2^n * 2^f with n = round(x) and f = x - n exact in [-1/2, 1/2]: exp(f ln2) errs by
// exp's ULP only (exp(x ln2) would add x's rounding of x ln2, 2^-24 |x| relative). 2^n is applied
// as two factors so that subnormal results round once; x is clamped first (+-160 float32,
// +-1100 float64), past which the result is 0 or inf anyway.
template <class D, class V>
HWY_INLINE V VecExp2(D d, V x) {
  const hn::RebindToSigned<D> di;
  const V bound = Const(d, 160.0f, 1100.0);
  const V xc = hn::Min(hn::Max(x, hn::Neg(bound)), bound);
  const V n = hn::Round(xc);
  const V f = hn::Sub(xc, n);
  const auto ni = hn::ConvertTo(di, n);
  const auto n1 = hn::ShiftRightSame(ni, 1);  // arithmetic: floor(n / 2)
  const auto n2 = hn::Sub(ni, n1);
  const V e = hn::Exp(d, hn::Mul(f, Const(d, 0.693147180559945309f, 0.693147180559945309)));
  const V r = hn::Mul(hn::Mul(e, Pow2I(d, n1)), Pow2I(d, n2));
  return hn::IfThenElse(hn::IsNaN(x), x, r);
}

// log2(x) = e + log(m) / ln2 with x = m 2^e, m in [sqrt(1/2), sqrt(2)): exact at powers of two
// (log(1) = 0), and log(m) keeps its relative accuracy near m = 1. Subnormals are scaled first.
template <class D, class V>
HWY_INLINE V VecLog2(D d, V x) {
  using T = hn::TFromD<D>;
  const hn::RebindToSigned<D> di;
  using TI = hn::TFromD<decltype(di)>;
  constexpr int kMant = kIsF32<D> ? 23 : 52;
  constexpr TI kBias = kIsF32<D> ? 127 : 1023;
  constexpr TI kScale = kIsF32<D> ? 32 : 64;
  const auto sub = hn::Lt(x, hn::Set(d, std::numeric_limits<T>::min()));
  const V xs = hn::IfThenElse(sub, hn::Mul(x, Const(d, 0x1p32f, 0x1p64)), x);
  const auto bits = hn::BitCast(di, xs);
  auto e = hn::Sub(hn::ShiftRight<kMant>(bits), hn::Set(di, kBias));
  e = hn::IfThenElse(hn::RebindMask(di, sub), hn::Sub(e, hn::Set(di, kScale)), e);
  const TI kMantMask = (TI{1} << kMant) - 1;
  V m = hn::BitCast(
      d, hn::Or(hn::And(bits, hn::Set(di, kMantMask)), hn::BitCast(di, hn::Set(d, T(1)))));
  const auto big = hn::Gt(m, Const(d, 1.41421356237309505f, 1.41421356237309505));
  m = hn::IfThenElse(big, hn::Mul(m, hn::Set(d, T(0.5))), m);
  e = hn::IfThenElse(hn::RebindMask(di, big), hn::Add(e, hn::Set(di, TI{1})), e);
  const V y = hn::MulAdd(hn::Log(d, m), Const(d, 1.44269504088896340736f, 1.44269504088896340736),
                         hn::ConvertTo(d, e));
  return LogSpecials(d, x, y);
}

// e^|x| / 2 without overflow below the result's own: exp(|x| / 2)^2 / 2 (|x| / 2 is exact).
template <class D, class V>
HWY_INLINE V HalfExpAbs(D d, V ax) {
  const V h = VecExp(d, hn::Mul(ax, hn::Set(d, hn::TFromD<D>(0.5))));
  return hn::Mul(hn::Mul(h, hn::Set(d, hn::TFromD<D>(0.5))), h);
}

// sinh: Highway's (expm1-based, 4 ULP) below 80 (float32; 700 float64), where its expm1 is
// finite; above, e^|x| / 2 with the sign of x.
template <class D, class V>
HWY_INLINE V VecSinh(D d, V x) {
  const V ax = hn::Abs(x);
  const auto large = hn::Gt(ax, Const(d, 80.0f, 700.0));
  const V y = hn::Sinh(d, hn::IfThenZeroElse(large, x));
  const V r = hn::IfThenElse(large, hn::CopySignToAbs(HalfExpAbs(d, ax), x), y);
  return hn::IfThenElse(hn::IsNaN(x), x, r);
}

// cosh = (e + 1 / e) / 2 with e = exp(|x|); e^|x| / 2 above 80 (float32; 700 float64).
template <class D, class V>
HWY_INLINE V VecCosh(D d, V x) {
  using T = hn::TFromD<D>;
  const V ax = hn::Abs(x);
  const auto large = hn::Gt(ax, Const(d, 80.0f, 700.0));
  const V e = VecExp(d, hn::IfThenZeroElse(large, ax));
  const V half = hn::Set(d, T(0.5));
  const V y = hn::MulAdd(e, half, hn::Div(half, e));
  const V r = hn::IfThenElse(large, HalfExpAbs(d, ax), y);
  return hn::IfThenElse(hn::IsNaN(x), x, r);
}

// asin, acos: Highway's (2 ULP); NaN outside [-1, 1].
template <class D, class V>
HWY_INLINE V VecAsin(D d, V x) {
  const auto outside = hn::Not(hn::Le(hn::Abs(x), hn::Set(d, hn::TFromD<D>(1))));
  return hn::IfThenElse(outside, hn::NaN(d), hn::Asin(d, x));
}
template <class D, class V>
HWY_INLINE V VecAcos(D d, V x) {
  const auto outside = hn::Not(hn::Le(hn::Abs(x), hn::Set(d, hn::TFromD<D>(1))));
  return hn::IfThenElse(outside, hn::NaN(d), hn::Acos(d, x));
}

// atan: Highway's (3 ULP; +-inf gives +-pi/2); NaN stays NaN.
template <class D, class V>
HWY_INLINE V VecAtan(D d, V x) {
  return hn::IfThenElse(hn::IsNaN(x), x, hn::Atan(d, x));
}

// asinh: Highway's (3 ULP) for finite x; +-inf and NaN pass through.
template <class D, class V>
HWY_INLINE V VecAsinh(D d, V x) {
  const auto finite = hn::IsFinite(x);
  return hn::IfThenElse(finite, hn::Asinh(d, hn::IfThenElseZero(finite, x)), x);
}

// acosh: Highway's (3 ULP) on [1, inf); NaN below 1, +inf and NaN pass through.
template <class D, class V>
HWY_INLINE V VecAcosh(D d, V x) {
  const V one = hn::Set(d, hn::TFromD<D>(1));
  const auto finite = hn::IsFinite(x);
  const V y = hn::Acosh(d, hn::IfThenElse(finite, hn::Max(x, one), one));
  const V r = hn::IfThenElse(finite, y, x);
  return hn::IfThenElse(hn::Lt(x, one), hn::NaN(d), r);
}

// atanh(x) = log1p(2|x| / (1 - |x|)) / 2 with x's sign: +-inf at +-1, NaN beyond (log1p's
// special values), -0 stays -0.
template <class D, class V>
HWY_INLINE V VecAtanh(D d, V x) {
  using T = hn::TFromD<D>;
  const V ax = hn::Abs(x);
  const V q = hn::Div(hn::Add(ax, ax), hn::Sub(hn::Set(d, T(1)), ax));
  const V y = hn::Mul(VecLog1p(d, q), hn::CopySign(hn::Set(d, T(0.5)), x));
  return hn::IfThenElse(hn::Gt(ax, hn::Set(d, T(1))), hn::NaN(d), y);
}

// Note [Vector erfc]
// float32: erfc(x) = 1 - erf(x) for x < 1/2 (the result is above 0.47: no cancellation); above,
// Numerical Recipes' erfcc, tau exp(-x^2 + P(tau)) with tau = 1 / (1 + x / 2) (relative error
// < 1.2e-7), x^2 split exactly (Dekker) so that exp(-x^2) errs by exp's ULP only. Lanes above 9
// (results near or below the subnormals) and float64 take std::erfc.
template <class D, class V>
HWY_INLINE V VecErfc(D d, V x) {
  const auto exact = [](double v) { return std::erfc(v); };
  if constexpr (!kIsF32<D>) {
    return ScalarMap(d, x, exact);
  } else {
    const V one = hn::Set(d, 1.0f);
    const V near = hn::Sub(one, VecErf(d, x));
    const auto tail = hn::Ge(x, hn::Set(d, 0.5f));
    if (hn::AllFalse(d, tail)) return near;
    const V t = hn::IfThenElse(tail, x, one);
    const V big = hn::Mul(t, hn::Set(d, 4097.0f));  // t = th + tl, 12-bit halves
    const V th = hn::Sub(big, hn::Sub(big, t)), tl = hn::Sub(t, th);
    const V hi = hn::Mul(t, t);  // t^2 = hi + lo exactly
    const V lo = hn::Add(hn::Add(hn::Sub(hn::Mul(th, th), hi), hn::Mul(hn::Add(th, th), tl)),
                         hn::Mul(tl, tl));
    const V tau = hn::Div(one, hn::MulAdd(t, hn::Set(d, 0.5f), one));
    constexpr float kP[] = {0.17087277f,  -0.82215223f, 1.48851587f, -1.13520398f, 0.27886807f,
                            -0.18628806f, 0.09678418f,  0.37409196f, 1.00002368f,  -1.26551223f};
    V p = hn::Set(d, kP[0]);
    for (size_t i = 1; i < std::size(kP); ++i) p = hn::MulAdd(p, tau, hn::Set(d, kP[i]));
    const V gauss = hn::Mul(hn::Exp(d, hn::Neg(hi)), hn::Sub(one, lo));
    const V r = hn::IfThenElse(tail, hn::Mul(hn::Mul(tau, hn::Exp(d, p)), gauss), near);
    const auto far = hn::Gt(x, hn::Set(d, 9.0f));
    if (HWY_LIKELY(hn::AllFalse(d, far))) return r;
    return ScalarFallback(d, x, r, far, exact);
  }
}

// Note [Vector erfinv]
// float32: Giles' single-precision approximation ("Approximating the erfinv function", GPU
// Computing Gems, 2011): x P(w) with w = -log((1 - x)(1 + x)), one polynomial in w - 2.5 below
// w = 5, one in sqrt(w) - 3 above. float64: the same start in double, then three Halley steps on
// erf(y) = |x|, the residual as (1 - |x|) - erfc(y) above |x| = 1/2 (no cancellation near 1).
// +-1 give +-inf, |x| > 1 NaN.
HWY_INLINE double ErfinvF64(double x) {
  if (std::isnan(x) || std::fabs(x) > 1) return std::numeric_limits<double>::quiet_NaN();
  if (std::fabs(x) == 1) return std::copysign(HUGE_VAL, x);
  if (x == 0) return x;
  const double a = std::fabs(x);
  double w = -std::log((1 - a) * (1 + a)), p;
  if (w < 5) {
    w -= 2.5;
    p = 2.81022636e-08;
    for (double c : {3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087, -0.00125372503,
                     -0.00417768164, 0.246640727, 1.50140941}) {
      p = p * w + c;
    }
  } else {
    w = std::sqrt(w) - 3;
    p = -0.000200214257;
    for (double c : {0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613,
                     0.00943887047, 1.00167406, 2.83297682}) {
      p = p * w + c;
    }
  }
  double y = p * a;
  for (int i = 0; i < 3; ++i) {
    const double r = a <= 0.5 ? std::erf(y) - a : (1 - a) - std::erfc(y);
    const double dy = r / (1.1283791670955126 * std::exp(-y * y));
    y -= dy / (1 + y * dy);
  }
  return std::copysign(y, x);
}

template <class D, class V>
HWY_INLINE V VecErfinv(D d, V x) {
  if constexpr (!kIsF32<D>) {
    return ScalarMap(d, x, ErfinvF64);
  } else {
    const V one = hn::Set(d, 1.0f);
    const V ax = hn::Abs(x);
    const V w0 = hn::Neg(hn::Log(d, hn::Mul(hn::Sub(one, ax), hn::Add(one, ax))));
    const V wc = hn::Sub(w0, hn::Set(d, 2.5f));
    V pc = hn::Set(d, 2.81022636e-08f);
    for (float c : {3.43273939e-07f, -3.5233877e-06f, -4.39150654e-06f, 0.00021858087f,
                    -0.00125372503f, -0.00417768164f, 0.246640727f, 1.50140941f}) {
      pc = hn::MulAdd(pc, wc, hn::Set(d, c));
    }
    const auto tail = hn::Ge(w0, hn::Set(d, 5.0f));
    V y = hn::Mul(pc, x);
    if (!hn::AllFalse(d, tail)) {
      const V wt = hn::Sub(hn::Sqrt(hn::IfThenElse(tail, w0, hn::Set(d, 9.0f))), hn::Set(d, 3.0f));
      V pt = hn::Set(d, -0.000200214257f);
      for (float c : {0.000100950558f, 0.00134934322f, -0.00367342844f, 0.00573950773f,
                      -0.0076224613f, 0.00943887047f, 1.00167406f, 2.83297682f}) {
        pt = hn::MulAdd(pt, wt, hn::Set(d, c));
      }
      y = hn::IfThenElse(tail, hn::Mul(pt, x), y);
    }
    y = hn::IfThenElse(hn::Eq(ax, one), hn::CopySignToAbs(hn::Inf(d), x), y);
    return hn::IfThenElse(hn::Gt(ax, one), hn::NaN(d), y);  // NaN stays NaN through y
  }
}

// sin(pi x) with the argument reduced exactly: r = x - 2 round(x / 2) in [-1, 1], folded to
// [-1/2, 1/2] (1 - r is exact); 0 at every integer, NaN at +-inf.
template <class D, class V>
HWY_INLINE V VecSinPi(D d, V x) {
  using T = hn::TFromD<D>;
  const V one = hn::Set(d, T(1));
  const V half = hn::Set(d, T(0.5));
  V r = hn::Sub(x, hn::Add(hn::Round(hn::Mul(x, half)), hn::Round(hn::Mul(x, half))));
  r = hn::IfThenElse(hn::Gt(r, half), hn::Sub(one, r), r);
  r = hn::IfThenElse(hn::Lt(r, hn::Neg(half)), hn::Sub(hn::Neg(one), r), r);
  return VecSin(d, hn::Mul(r, Const(d, 3.14159265358979323846f, 3.14159265358979323846)));
}

// sinc(x) = sin(pi x) / (pi x), 1 at 0: a tiny x gives pi x / pi x = 1 exactly.
template <class D, class V>
HWY_INLINE V VecSinc(D d, V x) {
  const V pix = hn::Mul(x, Const(d, 3.14159265358979323846f, 3.14159265358979323846));
  const V y = hn::Div(VecSinPi(d, x), pix);
  return hn::IfThenElse(hn::Eq(x, hn::Zero(d)), hn::Set(d, hn::TFromD<D>(1)), y);
}

}  // namespace ts::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // include guard toggle
