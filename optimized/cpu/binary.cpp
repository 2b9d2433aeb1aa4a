// Optimized CPU kernels for binary arithmetic: add, sub, mul, div (all rounding modes),
// remainder, pow, atan2, and the math ops of issue 16 (hypot, copysign, nextafter, fmod,
// floor_divide, xlogy, logaddexp, logaddexp2, heaviside, clamp_min, clamp_max). Floating types run
// Highway vector kernels (float16/bfloat16 in float32); integer and bool types run scalar loops the
// compiler vectorizes where the hardware can. The comparison, logical, bitwise and maximum/minimum
// kernels are in binary_compare.cpp.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "optimized/cpu/binary.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
// Must come after foreach_target.h.
#include <cmath>
#include <limits>

#include "hwy/contrib/math/math-inl.h"
#include "hwy/highway.h"
#include "optimized/cpu/loops-inl.h"

HWY_BEFORE_NAMESPACE();
namespace ts::cpu::HWY_NAMESPACE {
namespace {

struct AddOp {
  double alpha;
  template <class D, class V>
  HWY_INLINE V operator()(D d, V a, V b) const {
    if (alpha == 1) return hn::Add(a, b);
    return hn::MulAdd(hn::Set(d, static_cast<hn::TFromD<D>>(alpha)), b, a);
  }
};

struct MulOp {
  template <class D, class V>
  HWY_INLINE V operator()(D, V a, V b) const {
    return hn::Mul(a, b);
  }
};

struct DivOp {
  template <class D, class V>
  HWY_INLINE V operator()(D, V a, V b) const {
    return hn::Div(a, b);
  }
};

struct DivTruncOp {
  template <class D, class V>
  HWY_INLINE V operator()(D, V a, V b) const {
    return hn::Trunc(hn::Div(a, b));
  }
};

// std::fmod lane by lane.
template <class D, class V>
HWY_NOINLINE V FmodLanes(D d, V a, V b) {
  using T = hn::TFromD<D>;
  HWY_ALIGN T xa[hn::MaxLanes(d)];
  HWY_ALIGN T xb[hn::MaxLanes(d)];
  hn::Store(a, d, xa);
  hn::Store(b, d, xb);
  for (size_t i = 0; i < hn::Lanes(d); ++i) xa[i] = std::fmod(xa[i], xb[i]);
  return hn::Load(d, xa);
}

// Note [Vector fmod]
// fmod is exact, so the vector version must be too. With q = trunc(a / b) and |q| below
// 2^(mantissa bits - 1), q is the true truncated quotient or one more in magnitude (the rounded
// quotient reached the next integer); a fused a - q * b is then exact, or has the wrong sign
// and is recomputed with q stepped back. Lanes outside that range (b zero or not finite, huge
// quotients, NaN) and targets without a fused multiply-add take std::fmod lane by lane.
template <class D, class V>
HWY_INLINE V Fmod(D d, V a, V b) {
#if HWY_NATIVE_FMA
  using T = hn::TFromD<D>;
  const hn::RebindToSigned<D> di;
  constexpr T kLimit = sizeof(T) == 4 ? T(8388608.0) : T(4503599627370496.0);  // 2^23, 2^52
  const V zero = hn::Zero(d);
  V q = hn::Trunc(hn::Div(a, b));
  const auto fast = hn::And(hn::Lt(hn::Abs(q), hn::Set(d, kLimit)), hn::IsFinite(b));
  if (HWY_UNLIKELY(!hn::AllTrue(d, fast))) return FmodLanes(d, a, b);
  V r = hn::NegMulAdd(q, b, a);
  const auto sign_differs = hn::RebindMask(d, hn::Lt(hn::BitCast(di, hn::Xor(r, a)), hn::Zero(di)));
  const auto wrong = hn::AndNot(hn::Eq(r, zero), sign_differs);
  q = hn::IfThenElse(wrong, hn::Sub(q, hn::CopySign(hn::Set(d, T(1)), q)), q);
  r = hn::NegMulAdd(q, b, a);
  return hn::CopySign(r, a);  // a zero remainder takes the sign of a, as std::fmod
#else
  return FmodLanes(d, a, b);
#endif
}

// Python's modulo (the sign of b): fmod, plus b when the signs differ.
struct RemainderOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V a, V b) const {
    const V zero = hn::Zero(d);
    const V mod = Fmod(d, a, b);
    const auto fix = hn::AndNot(hn::Eq(mod, zero), hn::Xor(hn::Lt(b, zero), hn::Lt(mod, zero)));
    return hn::IfThenElse(fix, hn::Add(mod, b), mod);
  }
};

// The reference's Note [Floor division of floats], lane by lane (masks for the branches).
struct DivFloorOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V a, V b) const {
    using T = hn::TFromD<D>;
    const V zero = hn::Zero(d);
    const V one = hn::Set(d, T(1));
    const V quot = hn::Div(a, b);
    const V mod = Fmod(d, a, b);
    V div = hn::Div(hn::Sub(a, mod), b);
    const auto fix = hn::AndNot(hn::Eq(mod, zero), hn::Xor(hn::Lt(b, zero), hn::Lt(mod, zero)));
    div = hn::IfThenElse(fix, hn::Sub(div, one), div);
    V floordiv = hn::Floor(div);
    floordiv = hn::IfThenElse(hn::Gt(hn::Sub(div, floordiv), hn::Set(d, T(0.5))),
                              hn::Add(floordiv, one), floordiv);
    floordiv = hn::IfThenElse(hn::Eq(div, zero), hn::CopySign(zero, quot), floordiv);
    return hn::IfThenElse(hn::Eq(b, zero), quot, floordiv);
  }
};

// pow with a scalar exponent of 2, 3, 0.5 or -1 (the exponent operand is ignored).
enum class PowSpecial { kSquare, kCube, kSqrt, kReciprocal };

template <PowSpecial kind>
struct PowSpecialOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V a, V) const {
    using T = hn::TFromD<D>;
    if constexpr (kind == PowSpecial::kSquare) {
      return hn::Mul(a, a);
    } else if constexpr (kind == PowSpecial::kCube) {
      return hn::Mul(hn::Mul(a, a), a);
    } else if constexpr (kind == PowSpecial::kSqrt) {
      // pow(-0, 0.5) is +0 and pow(-inf, 0.5) is +inf, where sqrt gives -0 and NaN.
      const V r = hn::Abs(hn::Sqrt(a));
      return hn::IfThenElse(hn::Eq(a, hn::Set(d, -std::numeric_limits<T>::infinity())), hn::Inf(d),
                            r);
    } else {
      return hn::Div(hn::Set(d, T(1)), a);
    }
  }
};

// Note [Widened transcendental loops]
// pow and atan2 run on double vectors whatever the storage type: float32 (and float16/bfloat16)
// operands are widened, so the few-ULP error of Highway's double Exp/Log/Atan vanishes when the
// result is rounded to float (measured: at most 1 float32 ULP from the reference, which is
// correctly rounded pow/atan2 in double). Each op names the lanes its formula covers; the
// others (zeros, infinities, NaN, negative bases) take the C library function, as the reference.
// Note [Widened float32 in lanes]
// Contiguous float32 operands widen and the results narrow in lanes (PromoteTo / DemoteTo, the
// bits of static_cast), and a block whose lanes the formula all covers skips the per-element
// check: element by element, the loads, conversions and checks around the double lanes cost
// more than hypot's square root (16M float32 hypot, 1 thread: 45 ms, ATen 26).
template <typename T, class Op>
void widened_loop(const TensorIterator& iter, const Op& op) {
  using C = compute_t<T>;
  iter.for_each([&](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
    const hn::ScalableTag<double> d;
    const hn::Rebind<float, decltype(d)> df;
    const hn::CappedTag<double, 1> d1;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
    constexpr int64_t kF = sizeof(float);
    const bool dense_in = std::is_same_v<T, float> && strides[1] == kF && strides[2] == kF;
    const bool dense_out = std::is_same_v<T, float> && strides[0] == kF;
    alignas(64) double x[kBlock], y[kBlock], r[kBlock];
    for (int64_t j = 0; j < n1; ++j) {
      char* out = data[0] + j * strides[3];
      const char* pa = data[1] + j * strides[4];
      const char* pb = data[2] + j * strides[5];
      for (int64_t b = 0; b < n0; b += kBlock) {
        const int64_t m = std::min(kBlock, n0 - b);
        int64_t i = 0;
        if (dense_in) {
          const float* fa = reinterpret_cast<const float*>(pa) + b;
          const float* fb = reinterpret_cast<const float*>(pb) + b;
          for (; i + lanes <= m; i += lanes) {
            hn::Store(hn::PromoteTo(d, hn::LoadU(df, fa + i)), d, x + i);
            hn::Store(hn::PromoteTo(d, hn::LoadU(df, fb + i)), d, y + i);
          }
        }
        for (; i < m; ++i) {
          x[i] = static_cast<C>(*reinterpret_cast<const T*>(pa + (b + i) * strides[1]));
          y[i] = static_cast<C>(*reinterpret_cast<const T*>(pb + (b + i) * strides[2]));
        }
        auto missed = hn::Zero(d);  // all ones in lanes the formula does not cover
        for (i = 0; i + lanes <= m; i += lanes) {
          const auto xv = hn::Load(d, x + i), yv = hn::Load(d, y + i);
          hn::Store(op(d, xv, yv), d, r + i);
          missed = hn::Or(missed, hn::VecFromMask(d, hn::Not(op.covers(d, xv, yv))));
        }
        const int64_t vectors = i;
        for (; i < m; ++i)
          hn::StoreU(op(d1, hn::LoadU(d1, x + i), hn::LoadU(d1, y + i)), d1, r + i);
        i = 0;
        if (dense_out && hn::AllFalse(d, hn::MaskFromVec(missed))) {
          float* fo = reinterpret_cast<float*>(out) + b;
          for (; i < vectors; i += lanes)
            hn::StoreU(hn::DemoteTo(df, hn::Load(d, r + i)), df, fo + i);
        }
        for (; i < m; ++i) {
          if (!op.covers(x[i], y[i])) r[i] = op.scalar(x[i], y[i]);
          *reinterpret_cast<T*>(out + (b + i) * strides[0]) = T(static_cast<C>(r[i]));
        }
      }
    }
  });
}

// pow(x, y) = exp(y * log(x)) for finite x > 0 and finite y. The exponent is clamped to
// [-1000, 708] (Exp's valid range), far outside float32's, so clamped results still over- or
// underflow correctly; float64 results do not use this path (see pow_kernel).
struct PowWideOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x, V y) const {
    const V t = hn::Mul(y, hn::Log(d, x));
    return hn::Exp(d, hn::Min(hn::Max(t, hn::Set(d, -1000.0)), hn::Set(d, 708.0)));
  }
  static bool covers(double x, double y) { return x > 0 && std::isfinite(x) && std::isfinite(y); }
  template <class D, class V>
  static HWY_INLINE auto covers(D d, V x, V y) {
    return hn::And(hn::Gt(x, hn::Zero(d)), hn::And(hn::IsFinite(x), hn::IsFinite(y)));
  }
  static double scalar(double x, double y) { return std::pow(x, y); }
};

// pow(x, e) for float32 x and a Scalar exponent e, kept in double (the reference's Note [float32
// pow with a Scalar exponent]); the iterator's second operand (e rounded to float32) is ignored.
// The widened formula as PowWideOp: local_response_norm's x^0.75, 1M elements, 1 thread, took
// 8.5 ms in the C library's pow, a scalar call per element.
struct PowScalarWideOp {
  double e;
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x, V) const {
    return PowWideOp{}(d, x, hn::Set(d, e));
  }
  bool covers(double x, double) const { return PowWideOp::covers(x, e); }
  template <class D, class V>
  HWY_INLINE auto covers(D d, V x, V) const {
    return PowWideOp::covers(d, x, hn::Set(d, e));
  }
  double scalar(double x, double) const { return std::pow(x, e); }
};

// atan2(a, b) from atan of the ratio with magnitude <= 1, for finite nonzero a and b.
struct Atan2WideOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V a, V b) const {
    const V zero = hn::Zero(d);
    const auto swap = hn::Gt(hn::Abs(a), hn::Abs(b));
    const V t = hn::Atan(d, hn::Div(hn::IfThenElse(swap, b, a), hn::IfThenElse(swap, a, b)));
    // |a| <= |b|: atan(a / b), plus pi with the sign of a when b < 0. For b > 0 nothing is
    // added (t + 0 turns the -0 of an underflowed a / b into +0) and t keeps a's sign.
    const V pi = hn::Set(d, 3.14159265358979323846);
    const V direct =
        hn::IfThenElse(hn::Lt(b, zero), hn::Add(t, hn::CopySign(pi, a)), hn::CopySign(t, a));
    // |a| > |b|: pi / 2 with the sign of a, minus atan(b / a).
    const V swapped = hn::Sub(hn::CopySign(hn::Set(d, 1.57079632679489661923), a), t);
    return hn::IfThenElse(swap, swapped, direct);
  }
  static bool covers(double a, double b) {
    return std::isfinite(a) && std::isfinite(b) && a != 0 && b != 0;
  }
  template <class D, class V>
  static HWY_INLINE auto covers(D d, V a, V b) {
    return hn::And(hn::And(hn::IsFinite(a), hn::IsFinite(b)),
                   hn::And(hn::Ne(a, hn::Zero(d)), hn::Ne(b, hn::Zero(d))));
  }
  static double scalar(double a, double b) { return std::atan2(a, b); }
};

// ---- math (issue 16) ----

// C's fmod (Note [Vector fmod]).
struct FmodOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V a, V b) const {
    return Fmod(d, a, b);
  }
};

struct CopysignOp {
  template <class D, class V>
  HWY_INLINE V operator()(D, V a, V b) const {
    return hn::CopySign(a, b);
  }
};

// nextafter of float32 and float64 lanes on their bits (Note [nextafter of 16-bit floats]): a
// nonzero a steps one pattern away from zero when b lies beyond it, else toward; 0 steps to the
// least subnormal with b's sign; a == b gives b; a NaN gives a + b, as glibc's nextafter.
struct NextAfterOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V a, V b) const {
    const hn::RebindToUnsigned<D> du;
    const auto one = hn::Set(du, hn::TFromD<decltype(du)>{1});
    const auto ua = hn::BitCast(du, a);
    const auto zero = hn::Zero(d);
    const auto away = hn::RebindMask(du, hn::Not(hn::Xor(hn::Gt(b, a), hn::Gt(a, zero))));
    auto bits = hn::IfThenElse(away, hn::Add(ua, one), hn::Sub(ua, one));
    const auto least = hn::Or(hn::And(hn::BitCast(du, b), hn::BitCast(du, hn::SignBit(d))), one);
    bits = hn::IfThenElse(hn::RebindMask(du, hn::Eq(a, zero)), least, bits);
    const V r = hn::IfThenElse(hn::Eq(a, b), b, hn::BitCast(d, bits));
    return hn::IfThenElse(hn::Or(hn::IsNaN(a), hn::IsNaN(b)), hn::Add(a, b), r);
  }
};

// heaviside: `values` where x == 0, else x > 0 (NaN gives 0).
struct HeavisideOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x, V values) const {
    const V step = hn::IfThenElseZero(hn::Gt(x, hn::Zero(d)), hn::Set(d, hn::TFromD<D>(1)));
    return hn::IfThenElse(hn::Eq(x, hn::Zero(d)), values, step);
  }
};

// clamp_min / clamp_max with a Tensor bound: a NaN element or bound gives NaN (the reference's
// Note [clamp with NaN]); Highway's Min and Max need not propagate it, so masks choose.
template <bool kMin>
struct ClampBoundOp {
  template <class D, class V>
  HWY_INLINE V operator()(D, V x, V bound) const {
    const auto take_bound = kMin ? hn::Lt(x, bound) : hn::Gt(x, bound);
    return hn::IfThenElse(hn::Or(take_bound, hn::IsNaN(bound)), bound, x);
  }
};

// hypot of float32/16-bit operands as sqrt(a^2 + b^2) in double: the squares are exact, the
// sum and root round once each, far below a float ULP; no overflow (float64 runs std::hypot).
// Infinities (hypot(inf, NaN) = inf) and NaN take std::hypot.
struct HypotWideOp {
  template <class D, class V>
  HWY_INLINE V operator()(D, V a, V b) const {
    return hn::Sqrt(hn::MulAdd(a, a, hn::Mul(b, b)));
  }
  static bool covers(double a, double b) { return std::isfinite(a) && std::isfinite(b); }
  template <class D, class V>
  static HWY_INLINE auto covers(D, V a, V b) {
    return hn::And(hn::IsFinite(a), hn::IsFinite(b));
  }
  static double scalar(double a, double b) { return std::hypot(a, b); }
};

// xlogy(x, y) = x * log(y) for finite nonzero x and finite y > 0; 0 at x == 0 unless y is NaN,
// and the other lanes as the reference (scalar).
struct XlogyWideOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x, V y) const {
    return hn::Mul(x, hn::Log(d, y));
  }
  static bool covers(double x, double y) {
    return std::isfinite(x) && x != 0 && std::isfinite(y) && y > 0;
  }
  template <class D, class V>
  static HWY_INLINE auto covers(D d, V x, V y) {
    return hn::And(hn::And(hn::IsFinite(x), hn::Ne(x, hn::Zero(d))),
                   hn::And(hn::IsFinite(y), hn::Gt(y, hn::Zero(d))));
  }
  static double scalar(double x, double y) {
    if (std::isnan(y)) return std::numeric_limits<double>::quiet_NaN();
    return x == 0 ? 0.0 : x * std::log(y);
  }
};

// logaddexp (kBase2: logaddexp2) = max + log1p(e^-|a - b|) for finite operands (the reference's
// Note [logaddexp]); 2^t as e^(t ln 2), exact enough in double for a float result.
template <bool kBase2>
struct LogAddExpWideOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V a, V b) const {
    V t = hn::Neg(hn::Abs(hn::Sub(a, b)));
    if constexpr (kBase2) t = hn::Mul(t, hn::Set(d, 0.69314718055994530942));
    V l = hn::Log1p(d, hn::Exp(d, t));
    // Divided by ln 2 (not times 1 / ln 2): log1p(1) / ln 2 is exactly 1, so that
    // logaddexp2(x, x) = x + 1 is exact (logaddexp2(-1, -1) = +0).
    if constexpr (kBase2) l = hn::Div(l, hn::Set(d, 0.69314718055994530942));
    return hn::Add(hn::Max(a, b), l);
  }
  static bool covers(double a, double b) { return std::isfinite(a) && std::isfinite(b); }
  template <class D, class V>
  static HWY_INLINE auto covers(D, V a, V b) {
    return hn::And(hn::IsFinite(a), hn::IsFinite(b));
  }
  static double scalar(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<double>::quiet_NaN();
    if (a == b) return a;  // equal infinities
    // One infinite operand: +inf, or the finite one plus log1p(0) (-0 + 0 is +0, as the formula).
    return std::max(a, b) + 0.0;
  }
};

template <class Op>
void run_widened(const TensorIterator& iter, const Op& op) {
  TS_DISPATCH_FLOATING_TYPES_AND_REDUCED(iter.common_dtype(), "widened_loop",
                                         [&] { widened_loop<scalar_t>(iter, op); });
}

}  // namespace

// alpha scales the second operand (add: +alpha, sub: -alpha).
void add_floating(const TensorIterator& iter, double alpha) {
  floating_loop<2>(iter, AddOp{alpha});
}
// out = rows[0] + ... + rows[k - 1] over n contiguous float32, added in that order in double and
// rounded once (Note [Float32 row sums]).
void sum_float_rows(float* out, const float* const* rows, int64_t k, int64_t n) {
  if (k == 2) {
    const bool bcast[2] = {false, false};
    return map_contiguous<float, 2>(out, rows, bcast, n, AddOp{1});
  }
  int64_t i = 0;
#if HWY_TARGET != HWY_SCALAR  // its DemoteTo clamps to +-FLT_MAX (Note [Demoting to float32])
  const hn::ScalableTag<double> dd;
  const hn::Rebind<float, decltype(dd)> df;
  const int64_t L = static_cast<int64_t>(hn::Lanes(dd));
  const auto at = [&](int64_t j, int64_t i) {
    return hn::PromoteTo(dd, hn::LoadU(df, rows[j] + i));
  };
  for (; i + 4 * L <= n; i += 4 * L) {  // four independent chains of adds
    auto a0 = at(0, i), a1 = at(0, i + L), a2 = at(0, i + 2 * L), a3 = at(0, i + 3 * L);
    for (int64_t j = 1; j < k; ++j) {
      a0 = hn::Add(a0, at(j, i));
      a1 = hn::Add(a1, at(j, i + L));
      a2 = hn::Add(a2, at(j, i + 2 * L));
      a3 = hn::Add(a3, at(j, i + 3 * L));
    }
    hn::StoreU(hn::DemoteTo(df, a0), df, out + i);
    hn::StoreU(hn::DemoteTo(df, a1), df, out + i + L);
    hn::StoreU(hn::DemoteTo(df, a2), df, out + i + 2 * L);
    hn::StoreU(hn::DemoteTo(df, a3), df, out + i + 3 * L);
  }
#endif
  for (; i < n; ++i) {
    double a = rows[0][i];
    for (int64_t j = 1; j < k; ++j) a += rows[j][i];
    out[i] = static_cast<float>(a);
  }
}
void mul_floating(const TensorIterator& iter) {
  floating_loop<2>(iter, MulOp{});
}
void div_floating(const TensorIterator& iter) {
  floating_loop<2>(iter, DivOp{});
}
// float32 and float64 only (float16/bfloat16 round the quotient first; see div_kernel).
void div_trunc_floating(const TensorIterator& iter) {
  floating_loop<2>(iter, DivTruncOp{});
}
void div_floor_floating(const TensorIterator& iter) {
  floating_loop<2>(iter, DivFloorOp{});
}
void remainder_floating(const TensorIterator& iter) {
  floating_loop<2>(iter, RemainderOp{});
}
void pow_special_floating(const TensorIterator& iter, int kind) {
  switch (static_cast<PowSpecial>(kind)) {
    case PowSpecial::kSquare:
      return floating_loop<2>(iter, PowSpecialOp<PowSpecial::kSquare>{});
    case PowSpecial::kCube:
      return floating_loop<2>(iter, PowSpecialOp<PowSpecial::kCube>{});
    case PowSpecial::kSqrt:
      return floating_loop<2>(iter, PowSpecialOp<PowSpecial::kSqrt>{});
    case PowSpecial::kReciprocal:
      return floating_loop<2>(iter, PowSpecialOp<PowSpecial::kReciprocal>{});
  }
}
void pow_widened(const TensorIterator& iter) {
  run_widened(iter, PowWideOp{});
}
void pow_scalar_widened(const TensorIterator& iter, double e) {
  widened_loop<float>(iter, PowScalarWideOp{e});
}
void atan2_widened(const TensorIterator& iter) {
  run_widened(iter, Atan2WideOp{});
}
// math (issue 16)
void fmod_floating(const TensorIterator& iter) {
  floating_loop<2>(iter, FmodOp{});
}
void copysign_floating(const TensorIterator& iter) {
  floating_loop<2>(iter, CopysignOp{});
}
// float32 and float64 only: the 16-bit floats step on their own bits, not float32's.
void nextafter_floating(const TensorIterator& iter) {
  if (iter.common_dtype() == kFloat) return vectorized_loop<float, 2>(iter, NextAfterOp{});
  vectorized_loop<double, 2>(iter, NextAfterOp{});
}
void heaviside_floating(const TensorIterator& iter) {
  floating_loop<2>(iter, HeavisideOp{});
}
void clamp_bound_floating(const TensorIterator& iter, bool is_min) {
  if (is_min) {
    floating_loop<2>(iter, ClampBoundOp<true>{});
  } else {
    floating_loop<2>(iter, ClampBoundOp<false>{});
  }
}
void hypot_widened(const TensorIterator& iter) {
  run_widened(iter, HypotWideOp{});
}
void xlogy_widened(const TensorIterator& iter) {
  run_widened(iter, XlogyWideOp{});
}
void logaddexp_widened(const TensorIterator& iter, bool base2) {
  if (base2) {
    run_widened(iter, LogAddExpWideOp<true>{});
  } else {
    run_widened(iter, LogAddExpWideOp<false>{});
  }
}

}  // namespace ts::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <atomic>

#include "optimized/cpu/binary.h"
#include "touchstone/dispatch_macros.h"
#include "touchstone/promotion.h"

namespace ts::cpu {
namespace {

HWY_EXPORT(add_floating);
HWY_EXPORT(sum_float_rows);
HWY_EXPORT(mul_floating);
HWY_EXPORT(div_floating);
HWY_EXPORT(div_trunc_floating);
HWY_EXPORT(div_floor_floating);
HWY_EXPORT(remainder_floating);
HWY_EXPORT(pow_special_floating);
HWY_EXPORT(pow_widened);
HWY_EXPORT(pow_scalar_widened);
HWY_EXPORT(atan2_widened);
HWY_EXPORT(fmod_floating);
HWY_EXPORT(copysign_floating);
HWY_EXPORT(nextafter_floating);
HWY_EXPORT(heaviside_floating);
HWY_EXPORT(clamp_bound_floating);
HWY_EXPORT(hypot_widened);
HWY_EXPORT(xlogy_widened);
HWY_EXPORT(logaddexp_widened);

// Wrapping integer arithmetic through uint64 (no signed overflow).
template <typename T>
T wrap_add(T a, T b, int64_t alpha) {
  return static_cast<T>(static_cast<uint64_t>(a) +
                        static_cast<uint64_t>(alpha) * static_cast<uint64_t>(b));
}

// The small contiguous fast path (Note [Small contiguous fast path]) for float and double;
// returns false when the call does not qualify.
template <class F>
bool small_float_binary(const KernelCall& c, const F& f) {
  const ScalarType t = c.p.compute_dtype;
  if ((t != kFloat && t != kDouble) || !is_small_contiguous(c)) return false;
  if (t == kFloat) {
    small_contiguous_binary<float>(c, f);
  } else {
    small_contiguous_binary<double>(c, f);
  }
  return true;
}

void add_sub_kernel(const KernelCall& c, double sign) {
  // a + alpha * b with alpha = +-1 is a single rounding in the vector loop as well (AddOp).
  const Scalar& alpha_arg = c.params<AlphaParams>().alpha;
  const double alpha = sign * alpha_arg.to_double();
  if (alpha == 1 && small_float_binary(c, [](auto a, auto b) { return a + b; })) return;
  if (alpha == -1 && small_float_binary(c, [](auto a, auto b) { return a - b; })) return;
  TensorIterator iter = binary_iter(c);
  const ScalarType t = iter.common_dtype();
  if (is_floating_type(t)) {
    HWY_DYNAMIC_DISPATCH(add_floating)(iter, alpha);
  } else if (t == kBool) {
    // a + alpha * b in wrapping int64, then != 0, as the reference (alpha may be 0 or -1).
    const uint64_t alpha = static_cast<uint64_t>(alpha_arg.to_long());
    scalar_loop<bool, bool, 2>(iter, [alpha](bool a, bool b) {
      return static_cast<uint64_t>(a) + alpha * static_cast<uint64_t>(b) != 0;
    });
  } else {
    const int64_t alpha = static_cast<int64_t>(sign) * alpha_arg.to_long();
    TS_DISPATCH_INTEGRAL_TYPES(t, "add", [&] {
      scalar_loop<scalar_t, scalar_t, 2>(
          iter, [alpha](scalar_t a, scalar_t b) { return wrap_add<scalar_t>(a, b, alpha); });
    });
  }
  iter.cast_outputs();
}

void add_kernel(const KernelCall& c) {
  add_sub_kernel(c, 1);
}
void sub_kernel(const KernelCall& c) {
  add_sub_kernel(c, -1);
}

void mul_kernel(const KernelCall& c) {
  if (small_float_binary(c, [](auto a, auto b) { return a * b; })) return;
  TensorIterator iter = binary_iter(c);
  const ScalarType t = iter.common_dtype();
  if (is_floating_type(t)) {
    HWY_DYNAMIC_DISPATCH(mul_floating)(iter);
  } else if (t == kBool) {
    scalar_loop<bool, bool, 2>(iter, [](bool a, bool b) { return a && b; });
  } else {
    TS_DISPATCH_INTEGRAL_TYPES(t, "mul", [&] {
      scalar_loop<scalar_t, scalar_t, 2>(iter, [](scalar_t a, scalar_t b) {
        return static_cast<scalar_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
      });
    });
  }
  iter.cast_outputs();
}

// Note [Divisors that turn zero]
// The kernels check every divisor before the loop, yet an in-place self that overlaps itself
// (as_strided) or the divisor can write a zero into a divisor read later: the element's value
// is then unspecified (0 here), but never undefined behaviour (SIGFPE).

// Integer division rounded toward zero. MIN / -1 wraps to MIN (no signed overflow).
template <typename T>
T int_div_trunc(T a, T b) {
  if (b == 0) return 0;  // Note [Divisors that turn zero]
  if constexpr (std::is_signed_v<T>) {
    if (b == -1) return static_cast<T>(0 - static_cast<uint64_t>(a));
  }
  return static_cast<T>(a / b);
}

template <typename T>
T int_div_floor(T a, T b) {
  if (b == 0) return 0;  // Note [Divisors that turn zero]
  const T q = int_div_trunc(a, b);
  if constexpr (std::is_signed_v<T>) {
    if (b != -1 && a % b != 0 && (a < 0) != (b < 0)) return static_cast<T>(q - 1);
  }
  return q;
}

// Python's modulo: the result has the sign of b (or is zero); b != 0.
template <typename T>
T int_remainder(T a, T b) {
  if (b == 0) return 0;  // Note [Divisors that turn zero]
  if constexpr (std::is_signed_v<T>) {
    if (b == -1) return 0;
    const T r = static_cast<T>(a % b);
    return r != 0 && (r < 0) != (b < 0) ? static_cast<T>(r + b) : r;
  } else {
    return static_cast<T>(a % b);
  }
}

// The reference's Note [Integer pow]: squaring in uint64 (wraps like the narrow dtypes); a
// negative exponent gives 1 for base 1, +-1 for base -1 and 0 otherwise.
template <typename T>
T int_pow(T base, T exp) {
  if constexpr (std::is_signed_v<T>) {
    if (exp < 0) {
      if (base == 1) return 1;
      if (base == -1) return (exp & 1) != 0 ? -1 : 1;
      return 0;
    }
  }
  uint64_t result = 1;
  uint64_t b = static_cast<uint64_t>(base);
  for (uint64_t e = static_cast<uint64_t>(exp); e != 0; e >>= 1) {
    if ((e & 1) != 0) result *= b;
    b *= b;
  }
  return static_cast<T>(result);
}

// True when input `arg` (an operand index) holds a zero. Note [Integer division by zero] in
// the reference: the check runs before anything is written, so a failed call changes nothing.
template <typename T>
bool has_zero(const TensorIterator& iter, int arg) {
  if (iter.numel() == 0) return false;
  if (iter.is_scalar(arg)) return *reinterpret_cast<const T*>(iter.data_ptr(arg)) == 0;
  const int nt = iter.ntensors();
  std::atomic<bool> found{false};
  iter.for_each([&](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
    bool zero = false;
    for (int64_t j = 0; j < n1; ++j) {
      const char* p = data[arg] + j * strides[nt + arg];
      for (int64_t i = 0; i < n0; ++i)
        zero |= *reinterpret_cast<const T*>(p + i * strides[arg]) == 0;
    }
    if (zero) found.store(true, std::memory_order_relaxed);
  });
  return found.load();
}

template <typename T>
void check_no_zero_divisor(const KernelCall& c, const TensorIterator& iter) {
  TS_CHECK(!has_zero<T>(iter, 2), op_info(c.op).name, ": ZeroDivisionError");
}

// float16/bfloat16 trunc division: trunc of the quotient rounded to T, as the reference.
template <typename T>
void div_trunc_reduced(const TensorIterator& iter) {
  scalar_loop<T, T, 2>(iter, [](T a, T b) {
    const float q = T(static_cast<float>(a) / static_cast<float>(b));
    return T(std::trunc(q));
  });
}

void div_kernel(const KernelCall& c) {
  // True division (floating only), or the quotient rounded toward zero or toward -inf.
  const RoundingMode mode = c.params<DivParams>().rounding_mode;
  if (mode == RoundingMode::None && small_float_binary(c, [](auto a, auto b) { return a / b; })) {
    return;
  }
  TensorIterator iter = binary_iter(c);
  const ScalarType t = iter.common_dtype();
  if (mode == RoundingMode::None) {
    HWY_DYNAMIC_DISPATCH(div_floating)(iter);
  } else if (mode == RoundingMode::Floor && is_floating_type(t)) {
    HWY_DYNAMIC_DISPATCH(div_floor_floating)(iter);
  } else if (t == kFloat || t == kDouble) {
    HWY_DYNAMIC_DISPATCH(div_trunc_floating)(iter);
  } else if (t == kHalf) {
    div_trunc_reduced<Half>(iter);
  } else if (t == kBFloat16) {
    div_trunc_reduced<BFloat16>(iter);
  } else {
    TS_DISPATCH_INTEGRAL_TYPES(t, "div", [&] {
      check_no_zero_divisor<scalar_t>(c, iter);
      if (mode == RoundingMode::Trunc) {
        scalar_loop<scalar_t, scalar_t, 2>(
            iter, [](scalar_t a, scalar_t b) { return int_div_trunc(a, b); });
      } else {
        scalar_loop<scalar_t, scalar_t, 2>(
            iter, [](scalar_t a, scalar_t b) { return int_div_floor(a, b); });
      }
    });
  }
  iter.cast_outputs();
}

void remainder_kernel(const KernelCall& c) {
  TensorIterator iter = binary_iter(c);
  const ScalarType t = iter.common_dtype();
  if (is_floating_type(t)) {
    HWY_DYNAMIC_DISPATCH(remainder_floating)(iter);
  } else {
    TS_DISPATCH_INTEGRAL_TYPES(t, "remainder", [&] {
      check_no_zero_divisor<scalar_t>(c, iter);
      scalar_loop<scalar_t, scalar_t, 2>(
          iter, [](scalar_t a, scalar_t b) { return int_remainder(a, b); });
    });
  }
  iter.cast_outputs();
}

// The special-cased exponent a broadcast scalar holds (-1 when none applies).
int pow_special_kind(const TensorIterator& iter) {
  if (iter.numel() == 0 || !iter.is_scalar(2)) return -1;
  const double e = TS_DISPATCH_FLOATING_TYPES_AND_REDUCED(iter.common_dtype(), "pow", [&] {
    return static_cast<double>(
        static_cast<compute_t<scalar_t>>(*reinterpret_cast<const scalar_t*>(iter.data_ptr(2))));
  });
  if (e == 2) return 0;
  if (e == 3) return 1;
  if (e == 0.5) return 2;
  if (e == -1) return 3;
  return -1;
}

void pow_kernel(const KernelCall& c) {
  TensorIterator iter = binary_iter(c);
  const ScalarType t = iter.common_dtype();
  if (is_floating_type(t)) {
    const int kind = pow_special_kind(iter);
    if (kind >= 0) {
      HWY_DYNAMIC_DISPATCH(pow_special_floating)(iter, kind);
    } else if (t == kFloat && is_wrapped_number_or_view(c.inputs[1])) {
      // The reference's Note [float32 pow with a Scalar exponent]: the exponent in double.
      const double e = c.inputs[1].as_strided({}, {}).item().to_double();  // expanded
      HWY_DYNAMIC_DISPATCH(pow_scalar_widened)(iter, e);
    } else if (t == kDouble) {
      // Highway's double Exp/Log would lose ~|y log x| ULPs; the C library's pow is accurate.
      scalar_loop<double, double, 2>(iter, [](double a, double b) { return std::pow(a, b); });
    } else {
      HWY_DYNAMIC_DISPATCH(pow_widened)(iter);
    }
  } else {
    TS_DISPATCH_INTEGRAL_TYPES(t, "pow", [&] {
      if (iter.numel() > 0 && iter.is_scalar(2) &&
          *reinterpret_cast<const scalar_t*>(iter.data_ptr(2)) == 2) {
        scalar_loop<scalar_t, scalar_t, 2>(iter, [](scalar_t a, scalar_t) {
          return static_cast<scalar_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(a));
        });
      } else {
        scalar_loop<scalar_t, scalar_t, 2>(iter,
                                           [](scalar_t a, scalar_t b) { return int_pow(a, b); });
      }
    });
  }
  iter.cast_outputs();
}

void atan2_kernel(const KernelCall& c) {
  TensorIterator iter = binary_iter(c);
  HWY_DYNAMIC_DISPATCH(atan2_widened)(iter);
  iter.cast_outputs();
}

// ---- math (issue 16) ----

// C's integer fmod: the remainder with the sign of a; b != 0 was checked.
template <typename T>
T int_fmod(T a, T b) {
  if (b == 0) return 0;  // Note [Divisors that turn zero]
  if constexpr (std::is_signed_v<T>) {
    if (b == -1) return 0;  // MIN % -1 overflows
  }
  return static_cast<T>(a % b);
}

void fmod_kernel(const KernelCall& c) {
  TensorIterator iter = binary_iter(c);
  const ScalarType t = iter.common_dtype();
  if (is_floating_type(t)) {
    HWY_DYNAMIC_DISPATCH(fmod_floating)(iter);
  } else {
    TS_DISPATCH_INTEGRAL_TYPES(t, "fmod", [&] {
      check_no_zero_divisor<scalar_t>(c, iter);
      scalar_loop<scalar_t, scalar_t, 2>(iter,
                                         [](scalar_t a, scalar_t b) { return int_fmod(a, b); });
    });
  }
  iter.cast_outputs();
}

// div(rounding_mode='floor')'s loops.
void floor_divide_kernel(const KernelCall& c) {
  TensorIterator iter = binary_iter(c);
  const ScalarType t = iter.common_dtype();
  if (is_floating_type(t)) {
    HWY_DYNAMIC_DISPATCH(div_floor_floating)(iter);
  } else {
    TS_DISPATCH_INTEGRAL_TYPES(t, "floor_divide", [&] {
      check_no_zero_divisor<scalar_t>(c, iter);
      scalar_loop<scalar_t, scalar_t, 2>(
          iter, [](scalar_t a, scalar_t b) { return int_div_floor(a, b); });
    });
  }
  iter.cast_outputs();
}

void copysign_kernel(const KernelCall& c) {
  TensorIterator iter = binary_iter(c);
  HWY_DYNAMIC_DISPATCH(copysign_floating)(iter);
  iter.cast_outputs();
}

// float32 and the 16-bit floats widened to double vectors; float64 with the C library (double
// vectors would lose the ULPs a float result hides).
template <class Widened, class Scalar64>
void widened_or_scalar(const KernelCall& c, Widened widened, Scalar64 scalar64) {
  TensorIterator iter = binary_iter(c);
  if (iter.common_dtype() == kDouble) {
    scalar_loop<double, double, 2>(iter, scalar64);
  } else {
    widened(iter);
  }
  iter.cast_outputs();
}

void hypot_kernel(const KernelCall& c) {
  widened_or_scalar(
      c,
      [](const TensorIterator& iter) {
        HWY_DYNAMIC_DISPATCH(hypot_widened)
        (iter);
      },
      [](double a, double b) { return std::hypot(a, b); });
}

void xlogy_kernel(const KernelCall& c) {
  widened_or_scalar(
      c,
      [](const TensorIterator& iter) {
        HWY_DYNAMIC_DISPATCH(xlogy_widened)
        (iter);
      },
      [](double x, double y) {
        if (std::isnan(y)) return std::numeric_limits<double>::quiet_NaN();
        return x == 0 ? 0.0 : x * std::log(y);
      });
}

template <bool kBase2>
void logaddexp_kernel(const KernelCall& c) {
  widened_or_scalar(
      c,
      [](const TensorIterator& iter) {
        HWY_DYNAMIC_DISPATCH(logaddexp_widened)
        (iter, kBase2);
      },
      [](double a, double b) {
        if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<double>::quiet_NaN();
        if (std::isinf(a) && a == b) return a;
        const double t = -std::fabs(a - b);
        return std::max(a, b) + (kBase2 ? std::log1p(std::exp2(t)) / 0.69314718055994530942
                                        : std::log1p(std::exp(t)));
      });
}

// Note [nextafter of 16-bit floats]
// IEEE formats order like sign-magnitude integers: the neighbour of a nonzero x toward y is its
// bit pattern plus or minus one (away from zero: plus); 0 steps to the smallest subnormal with
// y's sign. float and double do the same in lanes (NextAfterOp).
template <typename T>
T nextafter_bits(T a, T b) {
  const float fa = static_cast<float>(a), fb = static_cast<float>(b);
  if (std::isnan(fa) || std::isnan(fb)) return T(std::numeric_limits<float>::quiet_NaN());
  if (fa == fb) return b;
  T r;
  if (fa == 0) {
    r.x = static_cast<uint16_t>(fb < 0 ? 0x8001 : 0x0001);
  } else {
    r.x = static_cast<uint16_t>((fb > fa) == (fa > 0) ? a.x + 1 : a.x - 1);
  }
  return r;
}

void nextafter_kernel(const KernelCall& c) {
  TensorIterator iter = binary_iter(c, /*cast_output=*/true);
  const ScalarType t = iter.common_dtype();
  if (t == kFloat || t == kDouble) {
    HWY_DYNAMIC_DISPATCH(nextafter_floating)(iter);
  } else if (t == kHalf) {
    scalar_loop<Half, Half, 2>(iter, [](Half a, Half b) { return nextafter_bits(a, b); });
  } else {
    scalar_loop<BFloat16, BFloat16, 2>(iter,
                                       [](BFloat16 a, BFloat16 b) { return nextafter_bits(a, b); });
  }
  iter.cast_outputs();
}

void heaviside_kernel(const KernelCall& c) {
  TensorIterator iter = binary_iter(c);
  const ScalarType t = iter.common_dtype();
  if (is_floating_type(t)) {
    HWY_DYNAMIC_DISPATCH(heaviside_floating)(iter);
  } else {
    TS_DISPATCH_INTEGRAL_TYPES_AND_BOOL(t, "heaviside", [&] {
      scalar_loop<scalar_t, scalar_t, 2>(iter, [](scalar_t x, scalar_t values) {
        return x == 0 ? values : static_cast<scalar_t>(x > 0);
      });
    });
  }
  iter.cast_outputs();
}

template <bool kMin>
void clamp_bound_kernel(const KernelCall& c) {
  TensorIterator iter = binary_iter(c);
  const ScalarType t = iter.common_dtype();
  if (is_floating_type(t)) {
    HWY_DYNAMIC_DISPATCH(clamp_bound_floating)(iter, kMin);
  } else {
    TS_DISPATCH_INTEGRAL_TYPES(t, kMin ? "clamp_min" : "clamp_max", [&] {
      scalar_loop<scalar_t, scalar_t, 2>(iter, [](scalar_t x, scalar_t bound) {
        return kMin ? std::max(x, bound) : std::min(x, bound);
      });
    });
  }
  iter.cast_outputs();
}

}  // namespace

void sum_contiguous_floats(float* out, const float* const* rows, int64_t k, int64_t n) {
  HWY_DYNAMIC_DISPATCH(sum_float_rows)(out, rows, k, n);
}

TS_REGISTER_KERNELS(optimized, binary) {
  m.impl(OpId::add, kCPU, add_kernel);
  m.impl(OpId::sub, kCPU, sub_kernel);
  m.impl(OpId::mul, kCPU, mul_kernel);
  m.impl(OpId::div, kCPU, div_kernel);
  m.impl(OpId::remainder, kCPU, remainder_kernel);
  m.impl(OpId::pow, kCPU, pow_kernel);
  m.impl(OpId::atan2, kCPU, atan2_kernel);
  // math (issue 16)
  m.impl(OpId::hypot, kCPU, hypot_kernel);
  m.impl(OpId::copysign, kCPU, copysign_kernel);
  m.impl(OpId::nextafter, kCPU, nextafter_kernel);
  m.impl(OpId::fmod, kCPU, fmod_kernel);
  m.impl(OpId::floor_divide, kCPU, floor_divide_kernel);
  m.impl(OpId::xlogy, kCPU, xlogy_kernel);
  m.impl(OpId::logaddexp, kCPU, logaddexp_kernel<false>);
  m.impl(OpId::logaddexp2, kCPU, logaddexp_kernel<true>);
  m.impl(OpId::heaviside, kCPU, heaviside_kernel);
  m.impl(OpId::clamp_min, kCPU, clamp_bound_kernel<true>);
  m.impl(OpId::clamp_max, kCPU, clamp_bound_kernel<false>);
}

}  // namespace ts::cpu
#endif  // HWY_ONCE
