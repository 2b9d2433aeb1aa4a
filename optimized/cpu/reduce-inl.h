// Per-target parts of the optimized reductions (Highway): loading floating blocks (float16 and
// bfloat16 converted to float32 exactly), and the vector reducers of floating dtypes that
// run_reduction (reduce.h) drives. A kernel file includes this after hwy/foreach_target.h.
// See Note [Optimized reductions] in reduce.cpp.
#if defined(TS_OPTIMIZED_CPU_REDUCE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef TS_OPTIMIZED_CPU_REDUCE_INL_H_
#undef TS_OPTIMIZED_CPU_REDUCE_INL_H_
#else
#define TS_OPTIMIZED_CPU_REDUCE_INL_H_
#endif

#include <algorithm>
#include <cstring>
#include <limits>
#include <type_traits>

#include "hwy/contrib/math/math-inl.h"
#include "hwy/highway.h"
#include "optimized/cpu/reduce.h"

HWY_BEFORE_NAMESPACE();
namespace ts::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

inline constexpr int kMaxLanes = HWY_MAX_BYTES / sizeof(float);

// ---- loading ----

// float16 bits (in 32-bit lanes) to float, exactly: the exponent rebiased (twice for inf and
// NaN), subnormals through one exact float subtraction. Highway 1.0.3's emulated f16 PromoteTo
// (SSE4, scalar) turns inf and NaN into 65536, so we do not use it.
template <class DF>
HWY_INLINE hn::Vec<DF> f16_to_float(DF df, hn::Vec<hn::RebindToUnsigned<DF>> h) {
  const hn::RebindToUnsigned<DF> du;
  const auto exp_mask = hn::Set(du, 0x7c00u << 13);
  auto o = hn::ShiftLeft<13>(hn::And(h, hn::Set(du, 0x7fffu)));
  const auto exp = hn::And(o, exp_mask);
  o = hn::Add(o, hn::Set(du, (127u - 15u) << 23));
  o = hn::IfThenElse(hn::Eq(exp, exp_mask), hn::Add(o, hn::Set(du, (128u - 16u) << 23)), o);
  const auto sub = hn::Sub(hn::BitCast(df, hn::Add(o, hn::Set(du, 1u << 23))),
                           hn::BitCast(df, hn::Set(du, 113u << 23)));
  o = hn::IfThenElse(hn::Eq(exp, hn::Zero(du)), hn::BitCast(du, sub), o);
  return hn::BitCast(df, hn::Or(o, hn::ShiftLeft<16>(hn::And(h, hn::Set(du, 0x8000u)))));
}

// n 16-bit floats (bits b) of dtype t to float.
template <class D>
HWY_INLINE void convert_16bit(D df, const uint16_t* b, int64_t i, ScalarType t, float* out) {
  const hn::RebindToUnsigned<D> du;
  const auto h = hn::PromoteTo(du, hn::LoadU(hn::Rebind<uint16_t, decltype(du)>(), b + i));
  hn::StoreU(t == kHalf ? f16_to_float(df, h) : hn::BitCast(df, hn::ShiftLeft<16>(h)), df, out + i);
}

// n elements of floating dtype t, `stride` bytes apart, as a contiguous array of V (double for
// float64, float for the rest): the data itself when it already is one, else converted into buf
// (n <= kBlock).
template <class V>
HWY_INLINE const V* load_block(const char* p, int64_t stride, int64_t n, ScalarType t,
                               V* HWY_RESTRICT buf) {
  if (t == kDouble || t == kFloat) {
    if (stride == static_cast<int64_t>(sizeof(V))) return reinterpret_cast<const V*>(p);
    for (int64_t i = 0; i < n; ++i) std::memcpy(buf + i, p + i * stride, sizeof(V));
    return buf;
  }
  if constexpr (std::is_same_v<V, float>) {
    alignas(64) uint16_t gathered[kBlock];
    const uint16_t* b = reinterpret_cast<const uint16_t*>(p);
    if (stride != 2) {
      for (int64_t i = 0; i < n; ++i) std::memcpy(gathered + i, p + i * stride, 2);
      b = gathered;
    }
    const hn::ScalableTag<float> df;
    const hn::CappedTag<float, 1> d1;
    const int64_t L = static_cast<int64_t>(hn::Lanes(df));
    int64_t i = 0;
    for (; i + L <= n; i += L) convert_16bit(df, b, i, t, buf);
    for (; i < n; ++i) convert_16bit(d1, b, i, t, buf);
  }
  return buf;
}

// One element of floating dtype t as V; storing a V (that came from dtype t) back.
template <class V>
HWY_INLINE V load_one(const char* p, ScalarType t) {
  V v;
  return *load_block<V>(p, 0, 1, t, &v);
}
template <class V>
HWY_INLINE void store_one(char* p, ScalarType t, V v) {
  switch (t) {
    case kDouble:
    case kFloat:
      std::memcpy(p, &v, sizeof(V));
      break;
    case kHalf:
      *reinterpret_cast<Half*>(p) = Half(static_cast<float>(v));
      break;
    default:
      *reinterpret_cast<BFloat16*>(p) = BFloat16(static_cast<float>(v));
  }
}

// Lanes(dd) values of V at p, as doubles.
template <class DD, class V>
HWY_INLINE hn::Vec<DD> load_double(DD dd, const V* p) {
  if constexpr (std::is_same_v<V, double>) {
    return hn::LoadU(dd, p);
  } else {
    return hn::PromoteTo(dd, hn::LoadU(hn::Rebind<V, DD>(), p));
  }
}

// ---- double-accumulating reductions (sum, prod, mean, norm, var, logsumexp, amax, amin) ----

struct AddOp {
  static constexpr double kIdentity = 0;
  static double scalar(double a, double b) { return a + b; }
  template <class V>
  static HWY_INLINE V vec(V a, V b) {
    return hn::Add(a, b);
  }
};
struct MulOp {
  static constexpr double kIdentity = 1;
  static double scalar(double a, double b) { return a * b; }
  template <class V>
  static HWY_INLINE V vec(V a, V b) {
    return hn::Mul(a, b);
  }
};
// max/min that propagate NaN (a + b is NaN when either is).
template <bool kMax>
struct ExtremeOp {
  static constexpr double kIdentity =
      kMax ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  static double scalar(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return a + b;
    return (kMax ? b > a : b < a) ? b : a;
  }
  template <class V>
  static HWY_INLINE V vec(V a, V b) {
    const auto nan = hn::Or(hn::IsNaN(a), hn::IsNaN(b));
    return hn::IfThenElse(nan, hn::Add(a, b), kMax ? hn::Max(a, b) : hn::Min(a, b));
  }
};

// Element transforms before accumulating, on doubles (post) or, for exp, on V values in blocks
// (pre). `s` is the output's shift (var: the mean; logsumexp: the max).
struct IdentityX {
  static constexpr bool kPre = false, kShift = false;
  template <class D, class V>
  static HWY_INLINE V post(D, V x, V) {
    return x;
  }
  static double post1(double x, double) { return x; }
};
struct AbsX : IdentityX {
  template <class D, class V>
  static HWY_INLINE V post(D, V x, V) {
    return hn::Abs(x);
  }
  static double post1(double x, double) { return std::fabs(x); }
};
struct SquareX : IdentityX {
  template <class D, class V>
  static HWY_INLINE V post(D, V x, V) {
    return hn::Mul(x, x);
  }
  static double post1(double x, double) { return x * x; }
};
// norm with p = 0: 1 for a nonzero x (NaN too), else 0.
struct NonZeroX : IdentityX {
  template <class D, class V>
  static HWY_INLINE V post(D d, V x, V) {
    return hn::IfThenZeroElse(hn::Eq(x, hn::Zero(d)), hn::Set(d, 1.0));
  }
  static double post1(double x, double) { return x != 0 ? 1.0 : 0.0; }
};
// norm with any other finite p: |x|^s, the shift being p (Highway has no Pow: lane by lane).
struct PowAbsX : IdentityX {
  static constexpr bool kShift = true;
  template <class D, class V>
  static HWY_INLINE V post(D d, V x, V s) {
    alignas(64) double xs[HWY_MAX_BYTES / sizeof(double)], ps[HWY_MAX_BYTES / sizeof(double)];
    hn::Store(x, d, xs);
    hn::Store(s, d, ps);
    for (size_t i = 0; i < hn::Lanes(d); ++i) xs[i] = post1(xs[i], ps[i]);
    return hn::Load(d, xs);
  }
  static double post1(double x, double s) { return std::pow(std::fabs(x), s); }
};
struct DevSquareX : IdentityX {
  static constexpr bool kShift = true;
  template <class D, class V>
  static HWY_INLINE V post(D, V x, V s) {
    const V d = hn::Sub(x, s);
    return hn::Mul(d, d);
  }
  static double post1(double x, double s) { return (x - s) * (x - s); }
};
// exp(x - s) in V. Differences below the floor (and NaN, met only by outputs whose result is
// decided without this pass) are taken as the floor, where Highway's Exp gives 0.
struct ExpX : IdentityX {
  static constexpr bool kPre = true, kShift = true;
  template <class D, class V>
  static HWY_INLINE V pre(D d, V x, V s) {
    using T = hn::TFromD<D>;
    const V floor = hn::Set(d, static_cast<T>(sizeof(T) == 4 ? -200.0 : -2000.0));
    const V diff = hn::Sub(x, s);
    return hn::Exp(d, hn::IfThenElse(hn::Ge(diff, floor), diff, floor));
  }
  // out[i] = pre(x[i], s[i], or s[0] unless per_column) for n elements; out may be x.
  template <class V>
  static HWY_INLINE void pre_block(const V* x, const V* s, bool per_column, int64_t n, V* out) {
    const hn::ScalableTag<V> d;
    const hn::CappedTag<V, 1> d1;
    const int64_t L = static_cast<int64_t>(hn::Lanes(d));
    int64_t i = 0;
    for (; i + L <= n; i += L) {
      const auto sv = per_column ? hn::LoadU(d, s + i) : hn::Set(d, s[0]);
      hn::StoreU(pre(d, hn::LoadU(d, x + i), sv), d, out + i);
    }
    for (; i < n; ++i) {
      hn::StoreU(pre(d1, hn::LoadU(d1, x + i), hn::LoadU(d1, s + (per_column ? i : 0))), d1,
                 out + i);
    }
  }
};

// Note [Target-independent accumulators]
// A sum's bits must not depend on the SIMD target (issue 19), so the accumulators are logical,
// not vector lanes: element i of a contiguous run feeds accumulator i % kLogical (held as
// kLogical / lanes vectors: 4 on AVX-512, 8 on AVX2, 16 on SSE4), the run's last n % kLogical
// included (masked loads, the missing lanes adding the identity), and fold() adds the kLogical
// values in one fixed pairwise tree. Every target then performs the same additions in the same
// order. (With 4 vectors of lanes each, float64 sums differed between SSE4 and AVX-512 in the
// last bits.) The tail went through a scalar chain once: a sum over rows of 250 floats spent
// 4x ATen's time there and in the fold (now vector adds down to one vector).
inline constexpr size_t kLogical = 32;
static_assert(kBlock % (2 * kLogical) == 0, "a block holds whole pairs of kLogical");

// Note [Accumulators in registers]
// The logical accumulators must live in vector registers: GCC 12 kept an array of them in
// memory when the loop over them was not unrolled, so every add waited for the previous store
// (sum of 1M float32 in cache, 1 thread: 46 GB/s against ATen's 91). The loops over them are
// unrolled by pragma, and 32 logical accumulators give AVX-512 four independent add chains (the
// add latency is 4 cycles), AVX2 eight.

template <class Op>
struct DoubleState {
  using DD = hn::ScalableTag<double>;
  static constexpr size_t kVecs = kLogical / hn::MaxLanes(DD());
  static_assert(kVecs >= 1 && kVecs * hn::MaxLanes(DD()) == kLogical,
                "kLogical must be a multiple of every target's double lanes");
  hn::Vec<DD> a[kVecs];
  DoubleState() {
    const DD dd;
    HWY_UNROLL(32)
    for (size_t v = 0; v < kVecs; ++v) a[v] = hn::Set(dd, Op::kIdentity);
  }
  // The kLogical accumulators pairwise: accumulator i with i + n / 2 for n = kLogical, ... 2.
  // While n / 2 spans whole vectors, that is vector v with v + n / (2 lanes); then the lower
  // half of the vector with its upper half. (Unrolled, so the vectors stay in registers.)
  HWY_INLINE double fold() const {
    hn::Vec<DD> b[kVecs];
    HWY_UNROLL(32)
    for (size_t v = 0; v < kVecs; ++v) b[v] = a[v];
    fold_vectors<kVecs>(b);
    return fold_halves(DD(), b[0]);
  }
  template <size_t N>
  static HWY_INLINE void fold_vectors(hn::Vec<DD>* b) {
    if constexpr (N > 1) {
      HWY_UNROLL(32)
      for (size_t v = 0; v < N / 2; ++v) b[v] = Op::vec(b[v], b[v + N / 2]);
      fold_vectors<N / 2>(b);
    }
  }
  template <class D>
  static HWY_INLINE double fold_halves(D d, hn::Vec<D> v) {
#if HWY_TARGET == HWY_SCALAR
    (void)d;
    return hn::GetLane(v);
#else
    if constexpr (hn::MaxLanes(d) == 1) {
      return hn::GetLane(v);
    } else {
      const hn::Half<D> dh;
      return fold_halves(dh, Op::vec(hn::LowerHalf(dh, v), hn::UpperHalf(dh, v)));
    }
#endif
  }
};

// Note [Float pairs before double]
// A float32 sum or mean widens each element to double and adds it there (Note [Optimized
// reductions]): one conversion and one double add per element, which on this Zen 4 share two
// FP pipes and held a sum of 4096 x 4096 floats, partly in the L3, to 0.76x ATen at 2 threads.
// When the result is float32 or 16-bit, element j of each 64 first adds to element j + 32 in
// float, and the pair widens: half the conversions and double adds. One float rounding per pair
// errs by at most u |x_j + x_{j+32}|, so the whole error stays within 1 ulp of the result plus
// u sum |x| (u = 2^-24), conformance's budget for sums (Note [Summation bound] in
// conformance/checks.cpp), where ATen's float accumulation may drift further. The pairing
// counts from the start of the run, by logical position, so every target and thread count adds
// the same pairs; 256-element blocks (kBlock) hold whole groups of 64, so a run fed in blocks
// pairs as the whole run does. A last group of 33..63 pairs j with j + 32 where that exists
// (a sum over 65536 rows of 62 floats, 1 thread: 437 us, 505 with the halves one by one).

// Accumulates n contiguous values (transformed by Xf::post with shift sh) into s; with `paired`
// (V float, sum or mean: Note [Float pairs before double]) element j of each 2 kLogical adds to
// element j + kLogical in V first.
template <class Op, class Xf, class V>
HWY_INLINE void accumulate_contiguous(DoubleState<Op>& s, const V* HWY_RESTRICT x, int64_t n,
                                      double sh, bool paired = false) {
  const hn::ScalableTag<double> dd;
  const auto shv = hn::Set(dd, sh);
  constexpr int64_t L = static_cast<int64_t>(hn::MaxLanes(dd));
  constexpr int64_t K = static_cast<int64_t>(kLogical);
  constexpr size_t kVecs = DoubleState<Op>::kVecs;
  hn::Vec<decltype(dd)> a[kVecs];  // Note [Accumulators in registers]
  for (size_t v = 0; v < kVecs; ++v) a[v] = s.a[v];
  int64_t i = 0;
  paired = paired && std::is_same_v<V, float>;  // (a float64 input summed to float32: no pairs)
  if constexpr (std::is_same_v<V, float>) {
    if (paired) {
      const hn::Rebind<float, decltype(dd)> df;
      for (; i + 2 * K <= n; i += 2 * K) {
        HWY_UNROLL(32)
        for (size_t v = 0; v < kVecs; ++v) {
          const auto pair = hn::Add(hn::LoadU(df, x + i + v * L), hn::LoadU(df, x + i + K + v * L));
          a[v] = Op::vec(a[v], hn::PromoteTo(dd, pair));
        }
      }
    }
  }
  for (; i + K <= n && !paired; i += K) {
    HWY_UNROLL(32)
    for (size_t v = 0; v < kVecs; ++v) {
      a[v] = Op::vec(a[v], Xf::post(dd, load_double(dd, x + i + v * L), shv));
    }
  }
  if (i < n) {  // Note [Target-independent accumulators]: the last n % kLogical (or % 2 kLogical)
    const hn::Rebind<V, decltype(dd)> dv;
#if HWY_TARGET <= HWY_AVX2
    const V* src = x + i;  // masked loads that never touch the lanes past n
#else
    alignas(64) V src[2 * K] = {};  // SSE4's masked load reads whole vectors
    std::memcpy(src, x + i, static_cast<size_t>(n - i) * sizeof(V));
#endif
    auto load = [&](int64_t j) {  // src[j, j + L) as double, zero past n
      const int64_t m = std::clamp<int64_t>(n - i - j, 0, L);
      return hn::MaskedLoad(hn::FirstN(dv, static_cast<size_t>(m)), dv, src + j);
    };
    if (paired && n - i > K) {  // a part of a 2 kLogical group: pairs where j + kLogical exists
      if constexpr (std::is_same_v<V, float>) {
        HWY_UNROLL(32)
        for (size_t v = 0; v < kVecs; ++v) {
          const auto pair = hn::Add(hn::LoadU(dv, src + v * L), load(K + v * L));
          a[v] = Op::vec(a[v], hn::PromoteTo(dd, pair));
        }
      }
    } else {
      const auto identity = hn::Set(dd, Op::kIdentity);
      HWY_UNROLL(32)
      for (size_t v = 0; v < kVecs; ++v) {
        const int64_t j = static_cast<int64_t>(v) * L;
        hn::Vec<decltype(dd)> xv;
        if constexpr (std::is_same_v<V, double>) {
          xv = load(j);
        } else {
          xv = hn::PromoteTo(dd, load(j));
        }
        const auto valid =
            hn::FirstN(dd, static_cast<size_t>(std::clamp<int64_t>(n - i - j, 0, L)));
        a[v] = Op::vec(a[v], hn::IfThenElse(valid, Xf::post(dd, xv, shv), identity));
      }
    }
  }
  for (size_t v = 0; v < kVecs; ++v) s.a[v] = a[v];
}

// acc[c] = op(acc[c], xf(row 0) op xf(row 1) ...) for R = 1 or 4 rows (4: combined pairwise
// first, which keeps the dependency chain on acc short), c < w, per-column shifts sh. Vector
// lanes and the scalar tail do the same arithmetic, so a column's result does not depend on
// where it sits in the block.
template <class Op, class Xf, int R, class V>
HWY_INLINE void accumulate_rows(double* HWY_RESTRICT acc, const V* const* rows, int64_t w,
                                const double* sh) {
  static_assert(R == 1 || R == 4, "accumulate_rows takes 1 or 4 rows");
  const hn::ScalableTag<double> dd;
  const int64_t L = static_cast<int64_t>(hn::Lanes(dd));
  int64_t c = 0;
  for (; c + L <= w; c += L) {
    const auto s = Xf::kShift ? hn::LoadU(dd, sh + c) : hn::Zero(dd);
    auto x = Xf::post(dd, load_double(dd, rows[0] + c), s);
    if constexpr (R == 4) {
      x = Op::vec(Op::vec(x, Xf::post(dd, load_double(dd, rows[1] + c), s)),
                  Op::vec(Xf::post(dd, load_double(dd, rows[2] + c), s),
                          Xf::post(dd, load_double(dd, rows[3] + c), s)));
    }
    hn::StoreU(Op::vec(hn::LoadU(dd, acc + c), x), dd, acc + c);
  }
  for (; c < w; ++c) {
    const double s = Xf::kShift ? sh[c] : 0.0;
    auto at = [&](int r) { return Xf::post1(static_cast<double>(rows[r][c]), s); };
    double x = at(0);
    if constexpr (R == 4) x = Op::scalar(Op::scalar(x, at(1)), Op::scalar(at(2), at(3)));
    acc[c] = Op::scalar(acc[c], x);
  }
}

// V is double for float64 inputs, float for float32, float16 and bfloat16 (p.dtype).
template <class V, class Op, class Xf>
struct DoubleReducer {
  using Acc = double;
  const ReducePlan& p;
  Finisher fin;
  const double* shift = nullptr;  // per output, for Xf::kShift
  bool paired = false;            // Note [Float pairs before double]

  double inner(const char* base, int64_t o, int64_t k0, int64_t k1) const {
    const double sh = Xf::kShift ? shift[o] : 0.0;
    // One contiguous run of V: the accumulators stay in registers, no lambda captures them
    // (rows of 64 floats spent 2x ATen's time while they lived on the stack).
    if (direct() && k0 == 0 && k1 <= p.span_size) {
      DoubleState<Op> s;
      accumulate_contiguous<Op, Xf>(s, reinterpret_cast<const V*>(base), k1, sh, paired);
      return s.fold();
    }
    return inner_spans(base, sh, k0, k1);
  }
  // A span of V itself in one call, not per 256-element block: blocks are multiples of
  // kLogical, so every element meets the same accumulator either way (the same bits).
  bool direct() const {
    return !Xf::kPre && (p.dtype == kFloat || p.dtype == kDouble) &&
           p.span_stride == static_cast<int64_t>(sizeof(V));
  }
  HWY_NOINLINE double inner_spans(const char* base, double sh, int64_t k0, int64_t k1) const {
    DoubleState<Op> s;
    const V shv = static_cast<V>(sh);
    const int64_t st = p.span_stride;
    const bool contiguous = direct();
    for_each_span(p, base, k0, k1, [&](const char* ptr, int64_t n, int64_t) {
      if (contiguous) {
        return accumulate_contiguous<Op, Xf>(s, reinterpret_cast<const V*>(ptr), n, sh, paired);
      }
      alignas(64) V buf[kBlock];
      for (int64_t b = 0; b < n; b += kBlock) {
        const int64_t m = std::min(kBlock, n - b);
        const V* x = load_block<V>(ptr + b * st, st, m, p.dtype, buf);
        if constexpr (Xf::kPre) {
          Xf::pre_block(x, &shv, false, m, buf);
          x = buf;
        }
        accumulate_contiguous<Op, Xf>(s, x, m, sh, paired);
      }
    });
    return s.fold();
  }

  void outer(const char* base, int64_t o0, int64_t w, int64_t k0, int64_t k1, double* acc) const {
    std::fill(acc, acc + w, Op::kIdentity);
    const double* sh = Xf::kShift ? shift + o0 : nullptr;
    alignas(64) V shv[kCols];
    if constexpr (Xf::kPre) {
      for (int64_t c = 0; c < w; ++c) shv[c] = static_cast<V>(sh[c]);
    }
    Walker rw(p.rows, k0);
    int64_t k = k0;
    const bool direct = (p.dtype == kFloat || p.dtype == kDouble) &&
                        p.col_stride == static_cast<int64_t>(sizeof(V));
    if (!Xf::kPre && direct) {  // four rows per pass over the accumulators
      for (; k + 4 <= k1; k += 4) {
        const V* r[4];
        for (int i = 0; i < 4; ++i, rw.next()) r[i] = reinterpret_cast<const V*>(base + rw.off[0]);
        accumulate_rows<Op, Xf, 4>(acc, r, w, sh);
      }
    }
    alignas(64) V buf[kCols];
    for (; k < k1; ++k, rw.next()) {
      const V* x = load_block<V>(base + rw.off[0], p.col_stride, w, p.dtype, buf);
      if constexpr (Xf::kPre) {
        Xf::pre_block(x, shv, true, w, buf);
        x = buf;
      }
      accumulate_rows<Op, Xf, 1>(acc, &x, w, sh);
    }
  }

  double combine(double a, double b) const { return Op::scalar(a, b); }
  void finish(int64_t o, double acc, char* const* out) const { fin(o, acc, out); }
};

template <class V, class Op, class Xf>
void run_double(const ReducePlan& p, const Finisher& fin, const double* shift = nullptr,
                bool paired = false) {
  run_reduction(p, DoubleReducer<V, Op, Xf>{p, fin, shift, paired});
}

// amax, amin, norm inf (kAbs: of |x|) and logsumexp's max, in V lanes (exact; twice the lanes
// of double). Inner mode tracks NaN in a separate vector (any NaN makes the result NaN), so
// hn::Max/Min's NaN behaviour does not matter; outer mode uses the NaN-propagating ExtremeOp.
template <class V, bool kMax, bool kAbs>
struct ExtremeReducer {
  using Acc = double;
  using Op = ExtremeOp<kMax>;
  const ReducePlan& p;
  Finisher fin;

  template <class D>
  static HWY_INLINE hn::Vec<D> xf(hn::Vec<D> x) {
    return kAbs ? hn::Abs(x) : x;
  }
  template <class D>
  static HWY_INLINE hn::Vec<D> pick(hn::Vec<D> a, hn::Vec<D> b) {
    return kMax ? hn::Max(a, b) : hn::Min(a, b);
  }
  static double xf1(V x) { return kAbs ? std::fabs(static_cast<double>(x)) : x; }

  // Note [NaN in a sum of lanes]
  // A NaN among four vectors makes their sum NaN in its lane: one compare per four vectors, not
  // one each (amax over rows of 8192 x 16384 at 1 thread: 0.94x ATen). An infinity of each sign
  // in a lane does too, so a flagged span is scanned again, element by element.
  bool has_nan(const char* base, int64_t k0, int64_t k1) const {
    bool found = false;
    for_each_span(p, base, k0, k1, [&](const char* ptr, int64_t n, int64_t) {
      alignas(64) V buf[kBlock];
      for (int64_t b = 0; b < n && !found; b += kBlock) {
        const int64_t m = std::min(kBlock, n - b);
        const V* x = load_block<V>(ptr + b * p.span_stride, p.span_stride, m, p.dtype, buf);
        for (int64_t i = 0; i < m; ++i) found = found || std::isnan(x[i]);
      }
    });
    return found;
  }

  double inner(const char* base, int64_t, int64_t k0, int64_t k1) const {
    using D = hn::ScalableTag<V>;
    const D d;
    const int64_t L = static_cast<int64_t>(hn::Lanes(d));
    auto a0 = hn::Set(d, static_cast<V>(Op::kIdentity)), a1 = a0, a2 = a0, a3 = a0;
    auto nan = hn::Zero(d);  // all ones in lanes that may have seen a NaN
    double tail = Op::kIdentity;
    const int64_t st = p.span_stride;
    for_each_span(p, base, k0, k1, [&](const char* ptr, int64_t n, int64_t) {
      alignas(64) V buf[kBlock];
      auto b0 = a0, b1 = a1, b2 = a2, b3 = a3, bn = nan;  // in registers (ArgReducer::inner)
      for (int64_t b = 0; b < n; b += kBlock) {
        const int64_t m = std::min(kBlock, n - b);
        const V* x = load_block<V>(ptr + b * st, st, m, p.dtype, buf);
        int64_t i = 0;
        for (; i + 4 * L <= m; i += 4 * L) {
          const auto v0 = xf<D>(hn::LoadU(d, x + i)), v1 = xf<D>(hn::LoadU(d, x + i + L));
          const auto v2 = xf<D>(hn::LoadU(d, x + i + 2 * L));
          const auto v3 = xf<D>(hn::LoadU(d, x + i + 3 * L));
          b0 = pick<D>(b0, v0);
          b1 = pick<D>(b1, v1);
          b2 = pick<D>(b2, v2);
          b3 = pick<D>(b3, v3);
          // Note [NaN in a sum of lanes]
          const auto sum = hn::Add(hn::Add(v0, v1), hn::Add(v2, v3));
          bn = hn::Or(bn, hn::VecFromMask(d, hn::IsNaN(sum)));
        }
        for (; i < m; ++i) tail = Op::scalar(tail, xf1(x[i]));
      }
      a0 = b0;
      a1 = b1;
      a2 = b2;
      a3 = b3;
      nan = bn;
    });
    if (!hn::AllFalse(d, hn::MaskFromVec(nan)) && has_nan(base, k0, k1)) {
      return std::numeric_limits<double>::quiet_NaN();
    }
    alignas(64) V lanes[kMaxLanes] = {};  // (GCC 12 warned, wrongly, of uninitialized lanes)
    hn::Store(pick<D>(pick<D>(a0, a1), pick<D>(a2, a3)), d, lanes);
    for (int64_t l = 0; l < L; ++l) tail = Op::scalar(tail, lanes[l]);
    return tail;
  }

  void outer(const char* base, int64_t, int64_t w, int64_t k0, int64_t k1, double* acc) const {
    using D = hn::ScalableTag<V>;
    const D d;
    const int64_t L = static_cast<int64_t>(hn::Lanes(d));
    alignas(64) V best[kCols], buf[kCols];
    std::fill(best, best + w, static_cast<V>(Op::kIdentity));
    Walker rw(p.rows, k0);
    int64_t k = k0;
    // Four rows per pass over `best` (as DoubleReducer::outer): a tree of picks takes the
    // rightmost extreme on ties, as the row-by-row loop does (hn::Max/Min return the second
    // operand when equal), so the bits are the same.
    if ((p.dtype == kFloat || p.dtype == kDouble) &&
        p.col_stride == static_cast<int64_t>(sizeof(V))) {
      for (; k + 4 <= k1; k += 4) {
        const V* r[4];
        for (int i = 0; i < 4; ++i, rw.next()) r[i] = reinterpret_cast<const V*>(base + rw.off[0]);
        int64_t c = 0;
        for (; c + L <= w; c += L) {
          const auto x01 = Op::vec(xf<D>(hn::LoadU(d, r[0] + c)), xf<D>(hn::LoadU(d, r[1] + c)));
          const auto x23 = Op::vec(xf<D>(hn::LoadU(d, r[2] + c)), xf<D>(hn::LoadU(d, r[3] + c)));
          hn::StoreU(Op::vec(hn::LoadU(d, best + c), Op::vec(x01, x23)), d, best + c);
        }
        for (; c < w; ++c) {
          for (int i = 0; i < 4; ++i) best[c] = static_cast<V>(Op::scalar(best[c], xf1(r[i][c])));
        }
      }
    }
    for (; k < k1; ++k, rw.next()) {
      const V* x = load_block<V>(base + rw.off[0], p.col_stride, w, p.dtype, buf);
      int64_t c = 0;
      for (; c + L <= w; c += L) {
        hn::StoreU(Op::vec(hn::LoadU(d, best + c), xf<D>(hn::LoadU(d, x + c))), d, best + c);
      }
      for (; c < w; ++c) best[c] = static_cast<V>(Op::scalar(best[c], xf1(x[c])));
    }
    std::copy(best, best + w, acc);
  }

  double combine(double a, double b) const { return Op::scalar(a, b); }
  void finish(int64_t o, double acc, char* const* out) const { fin(o, acc, out); }
};

template <class V, bool kMax, bool kAbs>
void run_extreme(const ReducePlan& p, const Finisher& fin) {
  run_reduction(p, ExtremeReducer<V, kMax, kAbs>{p, fin});
}

// ---- value and index (argmax, argmin, max/min with a dim) on floating dtypes ----

// Note [Extremes with indices]
// The reduced dims are walked in PyTorch's index order (plan in_order), so each vector lane and
// each chunk sees increasing indices: a lane takes a new value only when strictly better, or NaN
// over a non-NaN (the first NaN wins). Lanes, tails and chunks then combine by a total order:
// NaN above everything (below, for min), ties to the smaller index. Lanes start from the chunk's
// first element and count indices relative to the chunk in V (exact below 2^24).
template <class V, bool kMax>
struct ArgReducer {
  struct Acc {
    V value;
    int64_t index;
  };
  const ReducePlan& p;

  static bool beats(const Acc& a, const Acc& b) {
    const bool an = std::isnan(a.value), bn = std::isnan(b.value);
    if (an || bn) return an && (!bn || a.index < b.index);
    if (a.value == b.value) return a.index < b.index;
    return kMax ? a.value > b.value : a.value < b.value;
  }
  template <class D>
  static HWY_INLINE auto better(D, hn::Vec<D> x, hn::Vec<D> best) {
    return hn::Or(kMax ? hn::Gt(x, best) : hn::Lt(x, best),
                  hn::AndNot(hn::IsNaN(best), hn::IsNaN(x)));
  }

  Acc inner(const char* base, int64_t, int64_t k0, int64_t k1) const {
    const hn::ScalableTag<V> d;
    const int64_t L = static_cast<int64_t>(hn::Lanes(d));
    const Walker w0(p.rows, k0 / p.span_size);
    const V first = load_one<V>(base + w0.off[0] + k0 % p.span_size * p.span_stride, p.dtype);
    // Two (best, index) pairs take alternate vectors, so two compare-and-blend chains overlap.
    hn::Vec<decltype(d)> best[2] = {hn::Set(d, first), hn::Set(d, first)};
    hn::Vec<decltype(d)> idx[2] = {hn::Zero(d), hn::Zero(d)};
    Acc tail{first, k0};
    for_each_span(p, base, k0, k1, [&](const char* ptr, int64_t n, int64_t k) {
      alignas(64) V buf[kBlock];
      const auto step = hn::Set(d, static_cast<V>(L));
      // Locals, not the captured best/idx: GCC kept those in memory, and each masked store
      // stalled the next iteration's load (max over dim 1 of 4096^2: 8.5 ms, ATen 6.5).
      auto b0 = best[0], b1 = best[1], i0 = idx[0], i1 = idx[1];
      for (int64_t b = 0; b < n; b += kBlock) {
        const int64_t m = std::min(kBlock, n - b);
        const V* x = load_block<V>(ptr + b * p.span_stride, p.span_stride, m, p.dtype, buf);
        auto kv = hn::Iota(d, static_cast<V>(k + b - k0));
        int64_t i = 0;
        for (; i + 2 * L <= m; i += 2 * L) {
          const auto v0 = hn::LoadU(d, x + i), v1 = hn::LoadU(d, x + i + L);
          const auto kv1 = hn::Add(kv, step);
          const auto m0 = better(d, v0, b0), m1 = better(d, v1, b1);
          b0 = hn::IfThenElse(m0, v0, b0);
          i0 = hn::IfThenElse(m0, kv, i0);
          b1 = hn::IfThenElse(m1, v1, b1);
          i1 = hn::IfThenElse(m1, kv1, i1);
          kv = hn::Add(kv1, step);
        }
        for (; i + L <= m; i += L, kv = hn::Add(kv, step)) {
          const auto v = hn::LoadU(d, x + i);
          const auto mask = better(d, v, b0);
          b0 = hn::IfThenElse(mask, v, b0);
          i0 = hn::IfThenElse(mask, kv, i0);
        }
        for (; i < m; ++i) {
          const Acc a{x[i], k + b + i};
          if (beats(a, tail)) tail = a;
        }
      }
      best[0] = b0;
      best[1] = b1;
      idx[0] = i0;
      idx[1] = i1;
    });
    alignas(64) V bl[kMaxLanes], il[kMaxLanes];
    for (int j = 0; j < 2; ++j) {
      hn::Store(best[j], d, bl);
      hn::Store(idx[j], d, il);
      for (int64_t l = 0; l < L; ++l) {
        const Acc a{bl[l], k0 + static_cast<int64_t>(il[l])};
        if (beats(a, tail)) tail = a;
      }
    }
    return tail;
  }

  void outer(const char* base, int64_t, int64_t w, int64_t k0, int64_t k1, Acc* acc) const {
    const hn::ScalableTag<V> d;
    const int64_t L = static_cast<int64_t>(hn::Lanes(d));
    alignas(64) V best[kCols], idx[kCols], buf[kCols];
    Walker rw(p.rows, k0);
    const V* x = load_block<V>(base + rw.off[0], p.col_stride, w, p.dtype, buf);
    std::copy(x, x + w, best);
    std::fill(idx, idx + w, V(0));
    for (int64_t k = k0 + 1; k < k1; ++k) {
      rw.next();
      x = load_block<V>(base + rw.off[0], p.col_stride, w, p.dtype, buf);
      const auto kv = hn::Set(d, static_cast<V>(k - k0));
      int64_t c = 0;
      for (; c + L <= w; c += L) {
        const auto v = hn::LoadU(d, x + c), b = hn::LoadU(d, best + c);
        const auto mask = better(d, v, b);
        hn::StoreU(hn::IfThenElse(mask, v, b), d, best + c);
        hn::StoreU(hn::IfThenElse(mask, kv, hn::LoadU(d, idx + c)), d, idx + c);
      }
      for (; c < w; ++c) {
        if (beats(Acc{x[c], k - k0}, Acc{best[c], static_cast<int64_t>(idx[c])})) {
          best[c] = x[c];
          idx[c] = static_cast<V>(k - k0);
        }
      }
    }
    for (int64_t c = 0; c < w; ++c) acc[c] = Acc{best[c], k0 + static_cast<int64_t>(idx[c])};
  }

  Acc combine(const Acc& a, const Acc& b) const { return beats(b, a) ? b : a; }
  void finish(int64_t, const Acc& acc, char* const* out) const {
    if (p.noutputs == 2) {
      store_one<V>(out[0], p.dtype, acc.value);
      std::memcpy(out[1], &acc.index, 8);
    } else {
      std::memcpy(out[0], &acc.index, 8);
    }
  }
};

}  // namespace ts::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // include guard toggle
