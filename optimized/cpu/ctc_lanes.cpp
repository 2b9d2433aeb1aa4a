// ctc_loss's log-sum rows in vector lanes, per SIMD target (Note [ctc_loss's rows in lanes]).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "optimized/cpu/ctc_lanes.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
// Must come after foreach_target.h.
#include <limits>

#include "hwy/contrib/math/math-inl.h"
#include "hwy/highway.h"
#include "optimized/cpu/ctc_lanes.h"

HWY_BEFORE_NAMESPACE();
namespace ts::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace {

// Note [ctc_loss's rows in lanes]
// A frame's states depend only on the frame before (alpha) or after (beta), so a whole row of
// states is one batch of log-sums: a lane per state, its predecessors loaded at offsets 0, -1
// and -2 (alpha; beta: 0, +1, +2) from a row padded with -inf. Each lane sums as log_sum in
// loss.cpp: exp about the largest term, which itself adds exactly 1 (the first of equal ones),
// then log1p with Goldberg's correction, in Highway's double Exp and Log (1 ULP of a double, so
// the sums move in the last bits only). Glibc's exp and log per state took 0.8 ms of a 50 x 16
// x 20 batch at 1 thread (ATen 0.55).
// Note [No subnormal exp in ctc_loss]
// Unreachable states hold -inf, and their lanes went to Exp clamped at -745: a subnormal result,
// which Intel cores finish in a microcode assist (Emerald Rapids, 50 x 16 x 20 at 1 thread: 1.08
// ms, ATen 0.75; Zen 4 has no such penalty). Terms below exp(-700) are now 0: next to the
// largest term's 1 they are 290 orders of magnitude under a double's last bit.
constexpr double kFloor = -700.0;

template <class D>
HWY_INLINE hn::Vec<D> log_sum3(D d, hn::Vec<D> a, hn::Vec<D> b, hn::Vec<D> c, hn::Mask<D> keep_c,
                               hn::Vec<D> add) {
  using V = hn::Vec<D>;
  const V ninf = hn::Set(d, -std::numeric_limits<double>::infinity());
  c = hn::IfThenElse(keep_c, c, ninf);
  const V m = hn::Max(hn::Max(a, b), c);
  const auto dead = hn::Eq(m, ninf);
  const V mm = hn::IfThenZeroElse(dead, m);
  // exp(x - m), or 0 for the largest term (counted as the 1 below) and below kFloor: Note
  // [No subnormal exp in ctc_loss].
  const V floor = hn::Set(d, kFloor);
  const auto term = [&](V x, hn::Mask<D> largest) {
    const V diff = hn::Sub(x, mm);
    const auto none = hn::Or(largest, hn::Lt(diff, floor));
    return hn::IfThenZeroElse(none, hn::Exp(d, hn::Max(diff, floor)));
  };
  const auto ta = hn::Eq(a, m);
  const auto tb = hn::AndNot(ta, hn::Eq(b, m));
  const auto tc = hn::AndNot(hn::Or(ta, tb), hn::Eq(c, m));
  const V e = hn::Add(hn::Add(term(a, ta), term(b, tb)), term(c, tc));
  const V one = hn::Set(d, 1.0);
  const V u = hn::Add(one, e);  // log1p(e) = log(u) e / (u - 1), exact at u == 1
  const V l =
      hn::IfThenElse(hn::Eq(u, one), e, hn::Mul(hn::Log(d, u), hn::Div(e, hn::Sub(u, one))));
  return hn::IfThenElse(dead, ninf, hn::Add(hn::Add(m, l), add));
}

template <class D>
HWY_INLINE void row_at(D d, const double* a, const double* b, const double* c, const double* keep_c,
                       const double* add, int64_t s, double* out) {
  const auto keep = hn::Eq(hn::LoadU(d, keep_c + s), hn::Set(d, 1.0));
  hn::StoreU(log_sum3(d, hn::LoadU(d, a + s), hn::LoadU(d, b + s), hn::LoadU(d, c + s), keep,
                      hn::LoadU(d, add + s)),
             d, out + s);
}

}  // namespace

void log_sum_row(const double* a, const double* b, const double* c, const double* keep_c,
                 const double* add, int64_t n, double* out) {
  const hn::ScalableTag<double> d;
  static_assert(kCtcPad % hn::MaxLanes(hn::ScalableTag<double>()) == 0, "kCtcPad: whole vectors");
  for (int64_t s = 0; s < n; s += static_cast<int64_t>(hn::Lanes(d))) {
    row_at(d, a, b, c, keep_c, add, s, out);
  }
}

}  // namespace ts::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace ts::cpu {

HWY_EXPORT(log_sum_row);

void ctc_log_sum_row(const double* a, const double* b, const double* c, const double* keep_c,
                     const double* add, int64_t n, double* out) {
  HWY_DYNAMIC_DISPATCH(log_sum_row)(a, b, c, keep_c, add, n, out);
}

}  // namespace ts::cpu
#endif  // HWY_ONCE
