// Optimized CPU kernels for unary elementwise ops. Floating compute dtypes run Highway vector
// kernels (float16/bfloat16 in float32; the math in unary-inl.h); integer and bool dtypes run
// scalar loops the compiler vectorizes. A plain op is one branch of VecOp (floating) and, if it
// takes integers or gives a bool, one of scalar_formula; gelu (GeluParams) and clamp
// (ClampParams, its bounds as wrapped-scalar inputs: lib/src/ops/unary.cpp) have functors, as
// do the activations of issue 16 (leaky_relu, elu, softplus, threshold; hardtanh is clamp's loop).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "optimized/cpu/unary.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
// Must come after foreach_target.h.
#include "hwy/highway.h"
#include "optimized/cpu/loops-inl.h"
#include "optimized/cpu/unary-inl.h"
#include "touchstone/kernel_family.h"

#ifndef TS_OPTIMIZED_CPU_UNARY_OPS_
#define TS_OPTIMIZED_CPU_UNARY_OPS_
namespace ts::cpu {
// Floating compute dtypes of a plain op run VecOp unless its result is bool (UnaryBool);
// integer and bool ones run scalar_formula, as do every dtype of a UnaryBool op.
constexpr bool has_vector_kernel(OpId op) {
  const OpTraits& t = op_traits(op);
  return t.sig != OpSignature::UnaryBool && !(t.dtypes - DTypeSet::integral(true)).empty();
}
constexpr bool has_scalar_formula(OpId op) {
  const OpTraits& t = op_traits(op);
  return t.sig == OpSignature::UnaryBool ||
         (t.sig == OpSignature::Unary && !(t.dtypes - DTypeSet::floating()).empty());
}
}  // namespace ts::cpu
#endif

// Note [Transcendental accuracy]
// Max float32 error of the vector kernels, in ULPs of the exact result (the C library in double),
// over every 61st float32 bit pattern (70 M inputs spanning all finite values), worst of the
// AVX2, SSE4 (no FMA) and scalar targets; subnormal results count by absolute error only.
//   exp 1.00   expm1 3.44   log 0.89   log1p 2.37   sin 2.47*   cos 2.42*   tanh 2.71
//   sigmoid 2.68   erf 1.32   rsqrt 1.49   sqrt, reciprocal 0.50 (correctly rounded)
//   tan (sin / cos) 3.11 on the test's 2^18 inputs below
//   silu 3.53 for x >= -87.3 (below, exp(x) is subnormal: 47 ULP on results under 2e-36)
//   gelu 7.17 over all inputs (touchstone sweep --quick: Note [gelu's negative tail])
//   gelu(tanh) 3.29 for x >= -1; below, 1 + tanh cancels, as in ATen: absolute error at most
//   4.5e-7 there.
// On the test's 2^18 inputs (erfinv, mish, log_sigmoid, hardsigmoid, hardswish against the
// reference in float64, where their float32 results are normal):
//   asin 2.23   acos 1.24   atan 2.56   sinh 2.85   cosh 1.81   asinh 2.38   acosh 2.35
//   atanh 2.59   exp2 0.97   log2 1.52   log10 1.93   erfc 5.67   sinc 2.98   erfinv 3.47
//   mish 4.31   log_sigmoid 2.62   hardsigmoid 1.00   hardswish 1.69   frac 0 (exact)
// * sin and cos also over the 4096 floats around each of their zeros below 39000; beyond
// 39000 the C library runs (Note [Vector sin and cos range]). No input breaks the float32
// assert_close tolerances; NaN, +-inf, +-0, overflow and underflow match the reference.
// float64 runs Highway's double kernels (4 ULP or better) and std::erf. The test
// OptimizedUnary.Float32UlpErrorOfTranscendentals re-measures on 2^18 inputs per capability;
// `touchstone sweep` measures every float32 input (conformance/README.md, the full table).

// Note [Why not 1 ULP]
// Most float32 kernels here are 2-5 steps from the correctly rounded result (erfc 8, gelu 9;
// the sweep's full table in conformance/README.md) where the C library and ATen's SLEEF u10
// kernels are within 1 or 2. We keep them so, for three reasons:
// - The cheap way to 1 ULP is to evaluate in float64 lanes and round once; it costs what the
//   float64 kernel costs, x2.3-2.7 the float32 one (same run, 2^24 elements, 1 thread: exp
//   33.8/14.2 ms, sin 31.8/11.6, tan 67.3/26.4, tanh 44.1/18.2, sigmoid 41.4/17.9). That would
//   put exp, tan and sigmoid behind ATen's float32 (21.2, 56.4, 26.6 ms in that run).
// - The accurate way (double-float range reduction and polynomials, as SLEEF's u10) is a
//   rewrite of Highway's contrib math per function; not done.
// - The error is bounded, documented and enforced: catalog/budgets.cpp holds each op's ULP
//   budget, conformance checks it on every build, and the sweep proves the bound over all 2^32
//   inputs. float16 and bfloat16 results are the float32 kernel's rounded once more: a few
//   inputs in 2^16 whose exact value lies within the float32 error of a 16-bit midpoint round
//   the other way (1 step; the sweep lists them). The exceptions fixed instead: silu and mish
//   below -87 (Note [Subnormal tails of silu and mish]), log_sigmoid's zero sign.
// The activations of issue 16 follow the same rule: softplus 3 steps (the vector log1p(exp)),
// selu 2 (expm1's error times the float32 alpha scale), elu and celu 1; leaky_relu's float32
// product is exact, its 16-bit results 1 step (rounded twice). lgamma and digamma run each lane
// in double, 1 step at a few inputs as the reference (Note [lgamma and digamma per lane]).

HWY_BEFORE_NAMESPACE();
namespace ts::cpu::HWY_NAMESPACE {
namespace {

// relu6(x + 3), NaN kept (Highway's Min and Max need not propagate it).
template <class D, class V>
HWY_INLINE V HardSigmoid6(D d, V x) {
  using T = hn::TFromD<D>;
  const V r = hn::Min(hn::Max(hn::Add(x, hn::Set(d, T(3))), hn::Zero(d)), hn::Set(d, T(6)));
  return hn::IfThenElse(hn::IsNaN(x), x, r);
}
template <class D, class V>
HWY_INLINE V HardSigmoid(D d, V x) {
  return hn::Div(HardSigmoid6(d, x), hn::Set(d, hn::TFromD<D>(6)));
}

// Note [Subnormal tails of silu and mish]
// Below -87.3 exp(x) is a float32 subnormal with few significant bits left, and x e^x carries its
// error, x-fold: silu and mish were 52 ULP off there (the sweep, at -103.97). Such lanes are rare:
// they take the C library in double, rounded once (ScalarFallback); other vectors pay one compare
// and AllFalse. float64 lanes keep the vector result.
template <class D, class V, class F>
HWY_INLINE V SubnormalTail(D d, V x, V y, F f) {
  if constexpr (kIsF32<D>) {
    const auto tail = hn::Lt(x, hn::Set(d, -87.0f));
    if (HWY_UNLIKELY(!hn::AllFalse(d, tail))) return ScalarFallback(d, x, y, tail, f);
  }
  return y;
}

// Note [Vector mish]
// tanh(softplus(x)) = n / (n + 2) with n = u (u + 2), u = e^x: ((1 + u)^2 - 1) / ((1 + u)^2 + 1)
// without tanh or log1p, and relative accuracy kept for x -> -inf (n ~ 2u). Above 20 (float32;
// 40 float64) it rounds to 1 and u^2 could overflow: mish(x) = x there. mish(-inf) = -inf * 0 is
// NaN, as the reference.
template <class D, class V>
HWY_INLINE V Mish(D d, V x) {
  using T = hn::TFromD<D>;
  const auto large = hn::Gt(x, Const(d, 20.0f, 40.0));
  const V u = VecExp(d, hn::IfThenZeroElse(large, x));
  const V n = hn::Mul(u, hn::Add(u, hn::Set(d, T(2))));
  const V y = hn::Mul(x, hn::Div(n, hn::Add(n, hn::Set(d, T(2)))));
  return SubnormalTail(d, x, hn::IfThenElse(large, x, y),
                       [](double v) { return v * std::tanh(std::log1p(std::exp(v))); });
}

// Note [lgamma and digamma per lane]
// Highway has no lgamma or digamma: each lane runs in double, lgamma by the C library (lgamma_r,
// no global signgam) and digamma by ScalarDigamma, then rounds once to the dtype. float32
// positive lanes run in double vectors instead (Note [digamma in double lanes], Note [lgamma in
// double lanes]).
inline double ScalarLgamma(double x) {
  int sign = 0;
  return ::lgamma_r(x, &sign);
}

// psi(x): reflection below 0 (tan of the exact fraction), the recurrence up to 10, then the
// asymptotic series to B_14 (Cephes' psi); psi(+-0) = -+inf, NaN at the negative integers.
inline double ScalarDigamma(double x) {
  constexpr double kPi = 3.14159265358979323846;
  if (x == 0) return std::copysign(HUGE_VAL, -x);
  if (!(x > -HUGE_VAL)) return std::numeric_limits<double>::quiet_NaN();  // NaN, -inf
  if (x == HUGE_VAL) return x;
  double reflection = 0;
  if (x < 0) {
    double whole = 0;
    const double frac = std::modf(x, &whole);
    if (frac == 0) return std::numeric_limits<double>::quiet_NaN();
    reflection = -kPi / std::tan(kPi * frac);
    x = 1 - x;
  }
  double sum = 0;
  for (; x < 10; x += 1) sum += 1 / x;
  const double z = 1 / (x * x);
  const double series =
      z * (1.0 / 12 - z * (1.0 / 120 -
                           z * (1.0 / 252 -
                                z * (1.0 / 240 - z * (1.0 / 132 - z * (691.0 / 32760 - z / 12))))));
  return reflection + (std::log(x) - 0.5 / x - series - sum);
}

// Note [digamma in double lanes]
// float32 psi(x) for 0 < x < inf runs in double lanes, the same formula as ScalarDigamma: the
// recurrence up to 10 as one fraction num / den (ten masked multiply-adds, one division, as
// the reference), then the series; each lane is rounded once to float32. Near the root 1.4616
// the terms (about 2.3) cancel to psi ~ 1e-8, so the double's absolute error there (~1e-15)
// is a fraction of a float32 step, as in the scalar version. Other lanes (x <= 0: the
// reflection; NaN, +inf) take ScalarDigamma, so a lane's bits depend on its own x alone.
template <class DD, class VD>
HWY_INLINE VD DigammaLanes(DD dd, VD x) {
  const VD one = hn::Set(dd, 1.0), ten = hn::Set(dd, 10.0);
  const auto plain = hn::And(hn::Gt(x, hn::Zero(dd)), hn::Lt(x, hn::Inf(dd)));
  VD y = hn::IfThenElse(plain, x, ten), num = hn::Zero(dd), den = one;
  for (int step = 0; step < 10; ++step) {  // every lane reaches 10 within ten steps
    const auto below = hn::Lt(y, ten);
    if (hn::AllFalse(dd, below)) break;
    num = hn::IfThenElse(below, hn::MulAdd(num, y, den), num);
    den = hn::IfThenElse(below, hn::Mul(den, y), den);
    y = hn::IfThenElse(below, hn::Add(y, one), y);
  }
  const VD inv = hn::Div(one, y), z = hn::Mul(inv, inv);
  VD series = hn::Set(dd, 1.0 / 12);  // B_2k / 2k for k = 7..1, as ScalarDigamma
  series = hn::NegMulAdd(series, z, hn::Set(dd, 691.0 / 32760));
  series = hn::NegMulAdd(series, z, hn::Set(dd, 1.0 / 132));
  series = hn::NegMulAdd(series, z, hn::Set(dd, 1.0 / 240));
  series = hn::NegMulAdd(series, z, hn::Set(dd, 1.0 / 252));
  series = hn::NegMulAdd(series, z, hn::Set(dd, 1.0 / 120));
  series = hn::NegMulAdd(series, z, hn::Set(dd, 1.0 / 12));
  const VD head = hn::NegMulAdd(hn::Set(dd, 0.5), inv, hn::Log(dd, y));
  VD r = hn::Sub(hn::NegMulAdd(z, series, head), hn::Div(num, den));
  if (HWY_UNLIKELY(!hn::AllTrue(dd, plain))) {
    r = ScalarFallback(dd, x, r, hn::Not(plain), ScalarDigamma);
  }
  return r;
}

// Note [lgamma in double lanes]
// float32 lgamma(x) for 0 < x < inf in double lanes, each lane rounded once to float32 as the
// reference's glibc lgamma in double. Near its zeros at 1 and 2 (|x - 1| or |x - 2| <= 1/4) the
// Taylor series of lgamma(2 + t), (1 - gamma) t + sum_k (-1)^k (zeta(k) - 1) / k t^k (DLMF 5.7.3
// shifted by one step, twenty terms: below 2^-60 of the sum), less log1p(t) below 1.5 (lgamma(x)
// = lgamma(x + 1) - log x, with x + 1 and t exact): the result keeps relative accuracy as it goes
// to 0, and is 0 at 1 and 2 exactly. Elsewhere Stirling's series from y >= 7 (seven terms; the
// first left out is below 7e-15 there) less log of the recurrence's product x (x + 1) ... (y - 1):
// the smallest result there is |lgamma(1.75)| = 0.084, so its ~1e-14 absolute error is about
// 1e-6 of a float32 step (from y >= 10, ten steps: 13 % slower, no fewer misrounded inputs in the
// sweep). Other lanes (x <= 0: the reflection; NaN, +inf) take the C library.
template <class DD, class VD>
HWY_INLINE VD LgammaLanes(DD dd, VD x) {
  const VD one = hn::Set(dd, 1.0), two = hn::Set(dd, 2.0), seven = hn::Set(dd, 7.0);
  const VD quarter = hn::Set(dd, 0.25);
  const auto plain = hn::And(hn::Gt(x, hn::Zero(dd)), hn::Lt(x, hn::Inf(dd)));
  const auto near_zero =
      hn::Or(hn::Le(hn::Abs(hn::Sub(x, one)), quarter), hn::Le(hn::Abs(hn::Sub(x, two)), quarter));
  const auto far = hn::AndNot(near_zero, plain);
  VD r = hn::Zero(dd);
  if (!hn::AllFalse(dd, far)) {
    VD y = hn::IfThenElse(far, x, seven), product = one;
    for (int step = 0; step < 7; ++step) {  // every lane reaches 7 within seven steps
      const auto below = hn::Lt(y, seven);
      if (hn::AllFalse(dd, below)) break;
      product = hn::IfThenElse(below, hn::Mul(product, y), product);
      y = hn::IfThenElse(below, hn::Add(y, one), y);
    }
    const VD inv = hn::Div(one, y), z = hn::Mul(inv, inv);
    // B_2k / (2k (2k - 1)) for k = 7..1: 1/156, -691/360360, 1/1188, -1/1680, 1/1260, -1/360, 1/12.
    VD series = hn::Set(dd, 1.0 / 156);
    series = hn::MulAdd(series, z, hn::Set(dd, -691.0 / 360360));
    series = hn::MulAdd(series, z, hn::Set(dd, 1.0 / 1188));
    series = hn::MulAdd(series, z, hn::Set(dd, -1.0 / 1680));
    series = hn::MulAdd(series, z, hn::Set(dd, 1.0 / 1260));
    series = hn::MulAdd(series, z, hn::Set(dd, -1.0 / 360));
    series = hn::MulAdd(series, z, hn::Set(dd, 1.0 / 12));
    constexpr double kHalfLog2Pi = 0.91893853320467274178;
    const VD stirling = hn::MulAdd(hn::Sub(y, hn::Set(dd, 0.5)), hn::Log(dd, y),
                                   hn::Sub(hn::MulAdd(series, inv, hn::Set(dd, kHalfLog2Pi)), y));
    r = hn::Sub(stirling, hn::Log(dd, product));
  }
  if (!hn::AllFalse(dd, near_zero)) {
    // (-1)^k (zeta(k) - 1) / k for k = 20..2, then 1 - gamma.
    constexpr double kC[] = {
        4.7698101693639804e-08,  -1.0043224823968099e-07, 2.1207184805554665e-07,
        -4.4924691987645662e-07, 9.5514121304074194e-07,  -2.0392157538013662e-06,
        4.3748667899074882e-06,  -9.4394882752683967e-06, 2.0507212775670691e-05,
        -4.4926236738133142e-05, 9.9457512781808531e-05,  -0.00022315475845357939,
        0.00050966952474304245,  -0.001192753911703261,   0.0028905103307415234,
        -0.0073855510286739857,  0.020580808427784546,    -0.067352301053198102,
        0.3224670334241132,      0.42278433509846713};
    const auto low = hn::Lt(x, hn::Set(dd, 1.5));
    const VD t = hn::Sub(x, hn::IfThenElse(low, one, two));
    VD poly = hn::Set(dd, kC[0]);
    for (size_t k = 1; k < std::size(kC); ++k) poly = hn::MulAdd(poly, t, hn::Set(dd, kC[k]));
    const VD near = hn::Sub(hn::Mul(poly, t), hn::IfThenElseZero(low, hn::Log1p(dd, t)));
    r = hn::IfThenElse(near_zero, near, r);
  }
  if (HWY_UNLIKELY(!hn::AllTrue(dd, plain))) {
    r = ScalarFallback(dd, x, r, hn::Not(plain), ScalarLgamma);
  }
  return r;
}

struct DigammaInLanes {
  template <class DD, class VD>
  HWY_INLINE VD operator()(DD dd, VD x) const {
    return DigammaLanes(dd, x);
  }
};
struct LgammaInLanes {
  template <class DD, class VD>
  HWY_INLINE VD operator()(DD dd, VD x) const {
    return LgammaLanes(dd, x);
  }
};

// f (DigammaInLanes, LgammaInLanes) on float32 lanes widened to double and rounded back once;
// float64 lanes, and the scalar target, take `scalar` per lane.
template <class D, class V, class F, class S>
HWY_INLINE V InDoubleLanes(D d, V x, F f, S scalar) {
#if HWY_TARGET == HWY_SCALAR
  (void)f;
  return ScalarMap(d, x, scalar);
#else
  if constexpr (kIsF32<D> && hn::MaxLanes(D()) == 1) {  // a loop's last lane
    const hn::Rebind<double, D> dd;
    return hn::DemoteTo(d, f(dd, hn::PromoteTo(dd, x)));
  } else if constexpr (kIsF32<D>) {
    const hn::Half<D> dh;
    const hn::Repartition<double, D> dd;
    const auto lo = f(dd, hn::PromoteTo(dd, hn::LowerHalf(dh, x)));
    const auto hi = f(dd, hn::PromoteTo(dd, hn::UpperHalf(dh, x)));
    return hn::Combine(d, hn::DemoteTo(dh, hi), hn::DemoteTo(dh, lo));
  } else {
    return ScalarMap(d, x, scalar);
  }
#endif
}

// The vector formula of every plain unary op with floating dtypes (a missing branch fails to
// compile).
template <OpId kOp>
struct VecOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const {
    using T = hn::TFromD<D>;
    if constexpr (kOp == OpId::neg) {
      return hn::Neg(x);
    } else if constexpr (kOp == OpId::abs) {
      return hn::Abs(x);
    } else if constexpr (kOp == OpId::sign) {  // NaN -> 0 and -0 -> +0, as (0 < x) - (x < 0)
      const V zero = hn::Zero(d);
      return hn::IfThenElse(hn::Gt(x, zero), hn::Set(d, T(1)),
                            hn::IfThenElseZero(hn::Lt(x, zero), hn::Set(d, T(-1))));
    } else if constexpr (kOp == OpId::exp) {
      return VecExp(d, x);
    } else if constexpr (kOp == OpId::expm1) {
      return VecExpm1(d, x);
    } else if constexpr (kOp == OpId::exp2) {
      return VecExp2(d, x);  // Note [Vector exp2]
    } else if constexpr (kOp == OpId::log) {
      return VecLog(d, x);
    } else if constexpr (kOp == OpId::log1p) {
      return VecLog1p(d, x);
    } else if constexpr (kOp == OpId::log2) {
      return VecLog2(d, x);
    } else if constexpr (kOp == OpId::log10) {
      return hn::Mul(VecLog(d, x), hn::Set(d, T(0.434294481903251827651)));
    } else if constexpr (kOp == OpId::sqrt) {
      return hn::Sqrt(x);
    } else if constexpr (kOp == OpId::rsqrt) {
      return hn::Div(hn::Set(d, T(1)), hn::Sqrt(x));
    } else if constexpr (kOp == OpId::reciprocal) {
      return hn::Div(hn::Set(d, T(1)), x);
    } else if constexpr (kOp == OpId::sin) {
      return VecSin(d, x);
    } else if constexpr (kOp == OpId::cos) {
      return VecCos(d, x);
    } else if constexpr (kOp == OpId::tan) {
      return hn::Div(VecSin(d, x), VecCos(d, x));  // cos is accurate near its zeros too
    } else if constexpr (kOp == OpId::asin) {
      return VecAsin(d, x);
    } else if constexpr (kOp == OpId::acos) {
      return VecAcos(d, x);
    } else if constexpr (kOp == OpId::atan) {
      return VecAtan(d, x);
    } else if constexpr (kOp == OpId::sinh) {
      return VecSinh(d, x);
    } else if constexpr (kOp == OpId::cosh) {
      return VecCosh(d, x);
    } else if constexpr (kOp == OpId::tanh) {
      return VecTanh(d, x);
    } else if constexpr (kOp == OpId::asinh) {
      return VecAsinh(d, x);
    } else if constexpr (kOp == OpId::acosh) {
      return VecAcosh(d, x);
    } else if constexpr (kOp == OpId::atanh) {
      return VecAtanh(d, x);
    } else if constexpr (kOp == OpId::sinc) {
      return VecSinc(d, x);
    } else if constexpr (kOp == OpId::sigmoid) {
      return VecSigmoid(d, x);
    } else if constexpr (kOp == OpId::relu) {
      // max(x, 0) that keeps NaN and -0, as the reference's x < 0 ? 0 : x.
      return hn::IfThenZeroElse(hn::Lt(x, hn::Zero(d)), x);
    } else if constexpr (kOp == OpId::silu) {
      return SubnormalTail(d, x, hn::Mul(x, VecSigmoid(d, x)),  // Note [Subnormal tails ...]
                           [](double v) { return v / (1 + std::exp(-v)); });
    } else if constexpr (kOp == OpId::hardsigmoid) {
      return HardSigmoid(d, x);
    } else if constexpr (kOp == OpId::hardswish) {
      // x for x >= 3 (x * 6 / 6 would overflow); x * 0 = -0 below -3 and NaN at -inf, as the
      // reference's x * relu6(x + 3) / 6.
      const V y = hn::Div(hn::Mul(x, HardSigmoid6(d, x)), hn::Set(d, T(6)));
      return hn::IfThenElse(hn::Ge(x, hn::Set(d, T(3))), x, y);
    } else if constexpr (kOp == OpId::mish) {
      return Mish(d, x);  // Note [Vector mish]
    } else if constexpr (kOp == OpId::log_sigmoid) {
      // -(log1p(exp(-|x|)) - min(x, 0)): no overflow, -exp(-x) to full accuracy for large x,
      // -0 where that underflows and +0 at +inf (Note [The sign of log_sigmoid's underflow]).
      const V l = VecLog1p(d, VecExp(d, hn::Neg(hn::Abs(x))));
      const V y = hn::Neg(hn::Sub(l, hn::Min(x, hn::Zero(d))));
      return hn::IfThenElse(hn::IsNaN(x), x, hn::IfThenZeroElse(hn::Eq(x, hn::Inf(d)), y));
    } else if constexpr (kOp == OpId::erf) {
      return VecErf(d, x);
    } else if constexpr (kOp == OpId::erfc) {
      return VecErfc(d, x);  // Note [Vector erfc]
    } else if constexpr (kOp == OpId::erfinv) {
      return VecErfinv(d, x);  // Note [Vector erfinv]
    } else if constexpr (kOp == OpId::floor) {
      // The rounding ops keep x's sign, also for a zero result (Highway's scalar Round(-0.5)
      // gives +0).
      return hn::CopySign(hn::Floor(x), x);
    } else if constexpr (kOp == OpId::ceil) {
      return hn::CopySign(hn::Ceil(x), x);
    } else if constexpr (kOp == OpId::round) {
      return hn::CopySign(hn::Round(x), x);  // half to even
    } else if constexpr (kOp == OpId::trunc) {
      return hn::CopySign(hn::Trunc(x), x);
    } else if constexpr (kOp == OpId::frac) {
      return hn::Sub(x, hn::Trunc(x));           // exact; NaN at +-inf
    } else if constexpr (kOp == OpId::lgamma) {  // math (issue 16)
      return InDoubleLanes(                      // Note [lgamma in double lanes]
          d, x, LgammaInLanes(), ScalarLgamma);
    } else if constexpr (kOp == OpId::digamma) {
      return InDoubleLanes(  // Note [digamma in double lanes]
          d, x, DigammaInLanes(), ScalarDigamma);
    } else {
      static_assert(kOp != kOp, "a plain unary op of op_list.def has no branch in VecOp");
    }
  }
};

// Note [gelu's negative tail]
// 1 + erf(x/sqrt2) cancels for x < 0: erf's 1.3 ULPs become ~2^k ULPs of gelu where 1 + erf is
// 2^-k (ATen's float gelu too: 10^8 steps at x = -5.5, touchstone sweep). Float lanes take
// 0.5 x erfc(|x|/sqrt2) for x < 0 and 0.5 x (2 - erfc(|x|/sqrt2)) above, which cancels
// nowhere. erfc(t) = exp(-t^2) tau exp(P(tau)), tau = 1/(1 + t/2) (Numerical Recipes' erfcc,
// relative error < 1.2e-7), with t^2 = x^2/2 split exactly (Dekker, no FMA needed) and
// P - hi/2 added exactly (2Sum), so one exp errs by its own ULP only. Lanes with x < -13
// (subnormal results) and float64 take 0.5 x erfc(-x/sqrt2) in double (the C library); below
// -14.5 the result rounds to -0 (a linear layer's outputs of std 28 reach there: 30 % of a GPT-2
// MLP's lanes went through the C library, 9x the time of the vector path).
// Note [gelu in one path]
// Every float lane once took erf and, when any lane of the vector was below -1, this tail too:
// 16M normal inputs took 2.6x ATen's time (Emerald Rapids, 1 thread). Now every lane takes the
// erfc above (one exp), and lanes with |x / sqrt2| < 0.921875 erf's polynomial (no exp), which
// is more accurate there: erfc's alone was 6.8 ULPs off at x = 0.0019. |x| is capped at 13
// (negative) and 10 (positive) first: beyond, other results are taken, and exp's result stays
// normal (a subnormal one costs an Intel core an assist). erfc's polynomial goes by Estrin's
// scheme: 16M at 1 thread on Zen 5, 21.0-22.5 -> 16.8-17.8 ms (ATen 6.8-9.0; Horner's rule left
// a chain of 9 dependent multiply-adds per vector); the sweep's max 6.46 -> 6.56 ULPs (AVX2 and
// AVX-512), 6.53 -> 7.17 (SSE4 and scalar, no FMA).
template <class D, class V>
HWY_INLINE V GeluByErfc(D d, V x) {
  const auto negative = hn::Lt(x, hn::Zero(d));
  const V cap = hn::IfThenElse(negative, hn::Set(d, 13.0f), hn::Set(d, 10.0f));
  const V ax = hn::Min(hn::Abs(x), cap);           // NaN: the cap (the result is NaN anyway)
  const V big = hn::Mul(ax, hn::Set(d, 4097.0f));  // ax = xh + xl, 12-bit halves
  const V xh = hn::Sub(big, hn::Sub(big, ax)), xl = hn::Sub(ax, xh);
  const V hi = hn::Mul(ax, ax);  // ax^2 = hi + lo exactly
  const V lo =
      hn::Add(hn::Add(hn::Sub(hn::Mul(xh, xh), hi), hn::Mul(hn::Add(xh, xh), xl)), hn::Mul(xl, xl));
  const V t = hn::Mul(ax, hn::Set(d, 0.70710678118654752440f));
  const V tau = hn::Div(hn::Set(d, 1.0f), hn::MulAdd(t, hn::Set(d, 0.5f), hn::Set(d, 1.0f)));
  // Estrin's scheme (Note [gelu in one path]).
  const auto pair = [&](float c1, float c0) {
    return hn::MulAdd(hn::Set(d, c1), tau, hn::Set(d, c0));
  };
  const V tau2 = hn::Mul(tau, tau), tau4 = hn::Mul(tau2, tau2), tau8 = hn::Mul(tau4, tau4);
  const V q0 = pair(1.00002368f, -1.26551223f), q1 = pair(0.09678418f, 0.37409196f);
  const V q2 = pair(0.27886807f, -0.18628806f), q3 = pair(1.48851587f, -1.13520398f);
  const V q4 = pair(0.17087277f, -0.82215223f);
  const V low = hn::MulAdd(hn::MulAdd(q3, tau2, q2), tau4, hn::MulAdd(q1, tau2, q0));
  const V p = hn::MulAdd(q4, tau8, low);
  // p - hi/2 = s + err exactly (hi/2 is exact); exp(s) (1 + err - lo/2).
  const V mh = hn::Mul(hi, hn::Set(d, -0.5f));
  const V sum = hn::Add(p, mh);
  const V bb = hn::Sub(sum, p);
  const V err = hn::Add(hn::Sub(p, hn::Sub(sum, bb)), hn::Sub(mh, bb));
  const V fix = hn::Add(hn::Set(d, 1.0f), hn::NegMulAdd(lo, hn::Set(d, 0.5f), err));
  const V erfc = hn::Mul(hn::Mul(tau, hn::Exp(d, sum)), fix);
  const V half_x = hn::Mul(x, hn::Set(d, 0.5f));
  return hn::Mul(half_x, hn::IfThenElse(negative, erfc, hn::Sub(hn::Set(d, 2.0f), erfc)));
}

// gelu: x * 0.5 * (1 + erf(x / sqrt(2))), or 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))).
template <GeluApproximation kApproximate>
struct GeluOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const {
    using T = hn::TFromD<D>;
    if constexpr (kApproximate == GeluApproximation::None) {
      const auto exact = [](double v) { return 0.5 * v * std::erfc(-v * M_SQRT1_2); };
      if constexpr (!kIsF32<D>) {
        return ScalarMap(d, x, exact);  // Note [gelu's negative tail]
      } else {
        // Note [gelu in one path]
        const V t = hn::Mul(x, hn::Set(d, T(0.70710678118654752440)));
        const V near0 =
            hn::Mul(hn::Mul(x, hn::Set(d, T(0.5))), hn::Add(hn::Set(d, T(1)), VecErfSmall(d, t)));
        const V r =
            hn::IfThenElse(hn::Lt(hn::Abs(t), hn::Set(d, T(0.921875))), near0, GeluByErfc(d, x));
        const auto subnormal = hn::Lt(x, hn::Set(d, T(-13)));
        if (HWY_LIKELY(hn::AllFalse(d, subnormal))) return r;
        // Below -14.5, |gelu| < 8.8e-47, under half the smallest subnormal: -0 (-inf: NaN).
        const auto zero = hn::And(hn::Lt(x, hn::Set(d, T(-14.5))), hn::Gt(x, hn::Neg(hn::Inf(d))));
        const V z = hn::IfThenElse(zero, hn::Set(d, T(-0.0)), r);
        const auto rest = hn::AndNot(zero, subnormal);
        if (hn::AllFalse(d, rest)) return z;
        return ScalarFallback(d, x, z, rest, exact);
      }
    }
    const V x3 = hn::Mul(hn::Mul(x, x), x);
    const V inner =
        hn::Mul(hn::Set(d, T(0.79788456080286535588)), hn::MulAdd(hn::Set(d, T(0.044715)), x3, x));
    return hn::Mul(hn::Mul(hn::Set(d, T(0.5)), x), hn::Add(hn::Set(d, T(1)), VecTanh(d, inner)));
  }
};

// nan_to_num: NaN, +inf and -inf replaced (the values in the compute type).
struct NanToNumOp {
  double nan, posinf, neginf;
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const {
    using T = hn::TFromD<D>;
    const V inf = hn::Inf(d);
    V r = hn::IfThenElse(hn::IsNaN(x), hn::Set(d, static_cast<T>(nan)), x);
    r = hn::IfThenElse(hn::Eq(x, inf), hn::Set(d, static_cast<T>(posinf)), r);
    return hn::IfThenElse(hn::Eq(x, hn::Neg(inf)), hn::Set(d, static_cast<T>(neginf)), r);
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

// ---- activations (issue 16): parameters already in the compute dtype (Note [Activation
// parameters] in lib/src/ops/unary.cpp), as doubles ----

// x for x > 0, else slope * x: -0 and NaN stay, as the reference.
struct LeakyReluOp {
  double slope;
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const {
    using T = hn::TFromD<D>;
    return hn::IfThenElse(hn::Gt(x, hn::Zero(d)), x, hn::Mul(x, hn::Set(d, T(slope))));
  }
};

// Note [elu's exponent in two floats]
// expm1(q)'s relative error grows by q's absolute error, and q = input_scale * x rounded to
// float32 errs by up to |q| 2^-24: celu with alpha = -1.5 at x = -100 (q = 66.7, a result of
// -1.3e29) was 3.2e-6 off the reference, over float32's 1.3e-6 (found by the fuzzer). So float32
// lanes with q > 1 (a negative alpha or input_scale; elu's usual q <= 0 skips this) carry q as
// qh + ql (input_scale is already float32, opmath_param) and take expm1(qh) + e^qh ql. ql is the
// product's exact error: one fused multiply-subtract where the target has FMA, else Dekker's
// product in 12-bit halves. (The halves must not be split on an FMA target: GCC contracts big - x,
// big = 4097 x, into fma(x, 4097, -x) = 4096 x, and the split is lost.)

// scale * x for x > 0, else (alpha * scale) * expm1(input_scale * x); NaN takes the x > 0 arm's
// x * scale, as the reference's x <= 0 is false.
struct EluOp {
  double alpha, scale, input_scale;
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const {
    using T = hn::TFromD<D>;
    V e;
    if constexpr (kIsF32<D>) {                           // Note [elu's exponent in two floats]
      const float ch = static_cast<float>(input_scale);  // exact (opmath_param)
      const V qh = hn::Mul(x, hn::Set(d, ch));
      e = VecExpm1(d, qh);
      // Lanes that use e with q > 1; below, q's rounding costs under an ULP.
      const auto grows = hn::And(hn::Gt(qh, hn::Set(d, 1.0f)), hn::Le(x, hn::Zero(d)));
      if (HWY_UNLIKELY(!hn::AllFalse(d, grows))) {
#if HWY_NATIVE_FMA
        const V ql = hn::MulSub(x, hn::Set(d, ch), qh);  // x ch - qh, exact when fused
#else
        const float split = 4097.0f * ch;  // ch = chh + chl, 12-bit halves
        const float chh = split - (split - ch), chl = ch - chh;
        const V big = hn::Mul(x, hn::Set(d, 4097.0f));
        const V xh = hn::Sub(big, hn::Sub(big, x)), xl = hn::Sub(x, xh);
        const V ql = hn::Add(hn::Add(hn::Add(hn::Sub(hn::Mul(xh, hn::Set(d, chh)), qh),
                                             hn::Mul(xh, hn::Set(d, chl))),
                                     hn::Mul(xl, hn::Set(d, chh))),
                             hn::Mul(xl, hn::Set(d, chl)));
#endif
        // Where expm1(qh) overflows or x overflows the split, the correction is dropped.
        const V fixed = hn::MulAdd(hn::Add(e, hn::Set(d, 1.0f)), ql, e);
        e = hn::IfThenElse(hn::And(grows, hn::IsFinite(fixed)), fixed, e);
      }
    } else {
      e = VecExpm1(d, hn::Mul(x, hn::Set(d, T(input_scale))));
    }
    const V neg = hn::Mul(hn::Set(d, T(alpha * scale)), e);
    return hn::IfThenElse(hn::Le(x, hn::Zero(d)), neg, hn::Mul(x, hn::Set(d, T(scale))));
  }
};

// log1p(exp(beta x)) / beta as max(y, 0) + log1p(exp(-|y|)), y = beta x (no overflow, full
// relative accuracy as y -> -inf); x itself where y > threshold (ATen's switch).
struct SoftplusOp {
  double beta, threshold;
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const {
    using T = hn::TFromD<D>;
    const V y = hn::Mul(x, hn::Set(d, T(beta)));
    const V l = VecLog1p(d, VecExp(d, hn::Neg(hn::Abs(y))));
    const V r = hn::Div(hn::Add(hn::Max(y, hn::Zero(d)), l), hn::Set(d, T(beta)));
    const V kept = hn::IfThenElse(hn::IsNaN(x), x, r);  // Highway's Max need not keep NaN
    return hn::IfThenElse(hn::Gt(y, hn::Set(d, T(threshold))), x, kept);
  }
};

// value where x <= threshold, else x (NaN stays).
struct ThresholdOp {
  double threshold, value;
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const {
    using T = hn::TFromD<D>;
    return hn::IfThenElse(hn::Le(x, hn::Set(d, T(threshold))), hn::Set(d, T(value)), x);
  }
};

}  // namespace

void unary_floating(const TensorIterator& iter, OpId op) {
  for_each_plain_op<PlainOp::Unary>([&](auto k) {
    if constexpr (has_vector_kernel(k)) {
      if (op == k) floating_loop<1>(iter, VecOp<k>{});
    }
  });
}

void gelu_floating(const TensorIterator& iter, GeluApproximation approximate) {
  if (approximate == GeluApproximation::None) {
    floating_loop<1>(iter, GeluOp<GeluApproximation::None>{});
  } else {
    floating_loop<1>(iter, GeluOp<GeluApproximation::Tanh>{});
  }
}

// The replacements rounded to the storage dtype (nan_to_num_kernel).
void nan_to_num_floating(const TensorIterator& iter, double nan, double posinf, double neginf) {
  floating_loop<1>(iter, NanToNumOp{nan, posinf, neginf});
}

// lo and hi: clamp's bounds in the compute dtype (-inf and +inf when absent).
void clamp_floating(const TensorIterator& iter, double lo, double hi) {
  floating_loop<1>(iter, ClampOp{lo, hi});
}

// The activations of issue 16, parameters in the compute dtype.
void leaky_relu_floating(const TensorIterator& iter, double slope) {
  floating_loop<1>(iter, LeakyReluOp{slope});
}
void elu_floating(const TensorIterator& iter, double alpha, double scale, double input_scale) {
  floating_loop<1>(iter, EluOp{alpha, scale, input_scale});
}
void softplus_floating(const TensorIterator& iter, double beta, double threshold) {
  floating_loop<1>(iter, SoftplusOp{beta, threshold});
}
void threshold_floating(const TensorIterator& iter, double threshold, double value) {
  floating_loop<1>(iter, ThresholdOp{threshold, value});
}

}  // namespace ts::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <limits>

#include "optimized/cpu/binary.h"
#include "optimized/cpu/convert.h"
#include "touchstone/dispatch_macros.h"
#include "touchstone/ops.h"

namespace ts::cpu {
namespace {

HWY_EXPORT(unary_floating);
HWY_EXPORT(gelu_floating);
HWY_EXPORT(clamp_floating);
HWY_EXPORT(nan_to_num_floating);
HWY_EXPORT(leaky_relu_floating);
HWY_EXPORT(elu_floating);
HWY_EXPORT(softplus_floating);
HWY_EXPORT(threshold_floating);

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

// The scalar formula of a plain unary op (see has_scalar_formula; a missing branch fails to
// compile). T is an integer type, bool, or for UnaryBool ops any compute type.
template <OpId kOp, typename T>
auto scalar_formula(T a) {
  if constexpr (kOp == OpId::neg) {
    return wrap_neg(a);
  } else if constexpr (kOp == OpId::abs) {
    return is_negative(a) ? wrap_neg(a) : a;  // abs(int8 -128) wraps to -128, as in PyTorch
  } else if constexpr (kOp == OpId::sign) {
    return static_cast<T>((T(0) < a) - is_negative(a));
  } else if constexpr (kOp == OpId::relu) {
    return is_negative(a) ? T(0) : a;
  } else if constexpr (kOp == OpId::floor || kOp == OpId::ceil || kOp == OpId::round ||
                       kOp == OpId::trunc) {
    return a;  // the rounding ops are the identity on integers
  } else if constexpr (kOp == OpId::bitwise_not) {
    if constexpr (std::is_same_v<T, bool>) {
      return !a;  // ~true would be -2, also "true"
    } else {
      return static_cast<T>(~a);
    }
  } else if constexpr (kOp == OpId::isnan) {
    if constexpr (std::is_floating_point_v<T>) {
      return a != a;
    } else {
      return false;
    }
  } else if constexpr (kOp == OpId::logical_not) {
    return a == T(0);                         // NaN is true: !NaN is false
  } else if constexpr (kOp == OpId::isinf) {  // math (issue 16)
    if constexpr (std::is_floating_point_v<T>) {
      return a == std::numeric_limits<T>::infinity() || a == -std::numeric_limits<T>::infinity();
    } else {
      return false;
    }
  } else if constexpr (kOp == OpId::isfinite) {
    if constexpr (std::is_floating_point_v<T>) {
      return a - a == T(0);  // inf - inf and NaN - NaN are NaN
    } else {
      return true;
    }
  } else {
    static_assert(kOp != kOp, "a plain unary op of op_list.def has no branch in scalar_formula");
  }
}

// isnan, logical_not, ...: a bool result computed in the input's dtype (floating, and bool's
// logical_not: from vector masks, unary_bool_vector_loop). Another output dtype
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
  const ScalarType t = iter.common_dtype();
  if (is_floating_type(t) || (t == kBool && c.op == OpId::logical_not)) {
    return unary_bool_vector_loop(iter, c.op);
  }
  TS_DISPATCH_ALL_DTYPES(t, op_info(c.op).name.data(), [&] {
    using C = compute_t<scalar_t>;
    scalar_loop<bool, scalar_t, 1>(iter, [&](scalar_t a) { return f(static_cast<C>(a)); });
  });
}

// out = f(a) over the iterator's integral dtype, or bool when the op takes it.
template <bool kWithBool, class F>
void integral_loop(const TensorIterator& iter, const char* name, const F& f) {
  const ScalarType t = iter.common_dtype();
  if constexpr (kWithBool) {
    if (t == kBool) return scalar_loop<bool, bool, 1>(iter, f);
  }
  TS_DISPATCH_INTEGRAL_TYPES(t, name, [&] { scalar_loop<scalar_t, scalar_t, 1>(iter, f); });
}

template <OpId kOp>
void unary_kernel(const KernelCall& c) {
  constexpr OpTraits kTraits = op_traits(kOp);
  const auto formula = [](auto a) { return scalar_formula<kOp>(a); };
  if constexpr (kTraits.sig == OpSignature::UnaryBool) {
    return bool_result(c, formula);
  } else {
    TensorIterator iter = elementwise_iter(c);
    const ScalarType t = iter.common_dtype();
    if (is_floating_type(t) && has_vector_kernel(kOp)) {
      HWY_DYNAMIC_DISPATCH(unary_floating)(iter, kOp);
    } else if constexpr (has_scalar_formula(kOp)) {
      integral_loop<kTraits.dtypes.has(kBool)>(iter, op_info(kOp).name.data(), formula);
    } else {
      TS_ERROR(op_info(kOp).name, ": optimized kernel called with compute dtype ", t);
    }
    iter.cast_outputs();
  }
}

void gelu_kernel(const KernelCall& c) {
  TensorIterator iter = elementwise_iter(c);
  HWY_DYNAMIC_DISPATCH(gelu_floating)(iter, c.params<GeluParams>().approximate);
  iter.cast_outputs();
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

// self (inputs[0]) between the bounds present: clamp's loop, and hardtanh's.
void clamp_between(const KernelCall& c, const std::optional<Scalar>& min,
                   const std::optional<Scalar>& max) {
  const ScalarType t = c.p.compute_dtype;
  constexpr double kInf = std::numeric_limits<double>::infinity();
  double lo = -kInf, hi = kInf;
  if (is_floating_type(t)) {
    TS_DISPATCH_FLOATING_TYPES_AND_REDUCED(t, "clamp", [&] {
      if (min) lo = static_cast<double>(bound_as<scalar_t>(*min));
      if (max) hi = static_cast<double>(bound_as<scalar_t>(*max));
    });
    if (std::isnan(lo) || std::isnan(hi)) {  // every element is NaN (Note [clamp with NaN])
      c.outputs[0].fill_(std::numeric_limits<double>::quiet_NaN());
      return;
    }
  }
  // Only self goes through the loop; the bounds are constants of the op.
  TensorIterator iter = elementwise_iter({c.op, c.outputs, c.inputs.slice(0, 1), c.p, c.kind});
  if (is_floating_type(t)) {
    HWY_DYNAMIC_DISPATCH(clamp_floating)(iter, lo, hi);
  } else {
    TS_DISPATCH_INTEGRAL_TYPES(t, "clamp", [&] {
      constexpr scalar_t kLow = std::numeric_limits<scalar_t>::lowest();
      constexpr scalar_t kHigh = std::numeric_limits<scalar_t>::max();
      const scalar_t lo = min ? bound_as<scalar_t>(*min) : kLow;
      const scalar_t hi = max ? bound_as<scalar_t>(*max) : kHigh;
      scalar_loop<scalar_t, scalar_t, 1>(iter, [lo, hi](scalar_t a) {
        const scalar_t r = a < lo ? lo : a;
        return r > hi ? hi : r;
      });
    });
  }
  iter.cast_outputs();
}

// nan_to_num: the replacements rounded to the dtype once (a 16-bit dtype's, then widened to the
// float the loop computes in); integer and bool tensors are copied.
void nan_to_num_kernel(const KernelCall& c) {
  const NanToNumParams& r = c.params<NanToNumParams>();
  TensorIterator iter = elementwise_iter(c);
  const ScalarType t = iter.common_dtype();
  if (is_floating_type(t)) {
    TS_DISPATCH_FLOATING_TYPES_AND_REDUCED(t, "nan_to_num", [&] {
      const auto as_t = [](double v) { return static_cast<double>(double_to<scalar_t>(v)); };
      HWY_DYNAMIC_DISPATCH(nan_to_num_floating)(iter, as_t(r.nan), as_t(r.posinf), as_t(r.neginf));
    });
  } else {
    TS_DISPATCH_INTEGRAL_TYPES_AND_BOOL(t, "nan_to_num", [&] {
      scalar_loop<scalar_t, scalar_t, 1>(iter, [](scalar_t a) { return a; });
    });
  }
  iter.cast_outputs();
}

void clamp_kernel(const KernelCall& c) {
  const ClampParams& bounds = c.params<ClampParams>();
  const std::optional<Scalar> min =
      bounds.has_min ? std::optional(scalar_of(c.inputs[1])) : std::nullopt;
  const std::optional<Scalar> max =
      bounds.has_max ? std::optional(scalar_of(c.inputs[bounds.has_min ? 2 : 1])) : std::nullopt;
  clamp_between(c, min, max);
}

// ---- activations (issue 16) ----

// A Scalar parameter in the compute dtype (a floating one), as a double: thresholds and bounds.
double param(const Scalar& s, ScalarType t) {
  return TS_DISPATCH_FLOATING_TYPES_AND_REDUCED(
      t, "activation", [&] { return static_cast<double>(bound_as<scalar_t>(s)); });
}
// A coefficient in the op's math type: float32 for the 16-bit dtypes too (ATen's opmath_t).
double opmath_param(const Scalar& s, ScalarType t) {
  return t == kDouble ? s.to_double() : static_cast<double>(static_cast<float>(s.to_double()));
}

void leaky_relu_kernel(const KernelCall& c) {
  const double slope = opmath_param(c.params<LeakyReluParams>().negative_slope, c.p.compute_dtype);
  TensorIterator iter = elementwise_iter(c);
  HWY_DYNAMIC_DISPATCH(leaky_relu_floating)(iter, slope);
  iter.cast_outputs();
}

void elu_kernel(const KernelCall& c) {
  const EluParams& e = c.params<EluParams>();
  const ScalarType t = c.p.compute_dtype;
  TensorIterator iter = elementwise_iter(c);
  HWY_DYNAMIC_DISPATCH(elu_floating)
  (iter, opmath_param(e.alpha, t), opmath_param(e.scale, t), opmath_param(e.input_scale, t));
  iter.cast_outputs();
}

void softplus_kernel(const KernelCall& c) {
  const SoftplusParams& s = c.params<SoftplusParams>();
  const ScalarType t = c.p.compute_dtype;
  TensorIterator iter = elementwise_iter(c);
  HWY_DYNAMIC_DISPATCH(softplus_floating)
  (iter, opmath_param(s.beta, t), opmath_param(s.threshold, t));
  iter.cast_outputs();
}

void hardtanh_kernel(const KernelCall& c) {
  const HardtanhParams& h = c.params<HardtanhParams>();
  clamp_between(c, h.min_val, h.max_val);  // as ATen's hardtanh_out, a clamp
}

void threshold_kernel(const KernelCall& c) {
  const ThresholdParams& p = c.params<ThresholdParams>();
  const ScalarType t = c.p.compute_dtype;
  TensorIterator iter = elementwise_iter(c);
  if (is_floating_type(t)) {
    HWY_DYNAMIC_DISPATCH(threshold_floating)(iter, param(p.threshold, t), param(p.value, t));
  } else {
    TS_DISPATCH_INTEGRAL_TYPES(t, "threshold", [&] {
      const scalar_t th = bound_as<scalar_t>(p.threshold), value = bound_as<scalar_t>(p.value);
      scalar_loop<scalar_t, scalar_t, 1>(iter,
                                         [th, value](scalar_t a) { return a <= th ? value : a; });
    });
  }
  iter.cast_outputs();
}

}  // namespace

TS_REGISTER_KERNELS(optimized, unary) {
  for_each_plain_op<PlainOp::Unary>([&](auto op) { m.impl(op, kCPU, unary_kernel<op>); });
  m.impl(OpId::gelu, kCPU, gelu_kernel);
  m.impl(OpId::clamp, kCPU, clamp_kernel);
  m.impl(OpId::nan_to_num, kCPU, nan_to_num_kernel);
  m.impl(OpId::leaky_relu, kCPU, leaky_relu_kernel);
  m.impl(OpId::elu, kCPU, elu_kernel);
  m.impl(OpId::softplus, kCPU, softplus_kernel);
  m.impl(OpId::hardtanh, kCPU, hardtanh_kernel);
  m.impl(OpId::threshold, kCPU, threshold_kernel);
}

}  // namespace ts::cpu
#endif  // HWY_ONCE
