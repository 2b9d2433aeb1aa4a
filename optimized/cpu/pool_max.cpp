// Max pooling's window maxima in vector lanes (Note [Max pooling in lanes]), per SIMD target.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "optimized/cpu/pool_max.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
// Must come after foreach_target.h.
#include <limits>

#include "hwy/highway.h"
#include "optimized/cpu/pool_max.h"

HWY_BEFORE_NAMESPACE();
namespace ts::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace {

// Note [Max pooling in lanes]
// A lane per output along the row: each window row, then each tap in it, is one vector of the
// lanes' values (a plain load at step 1, the even half of an interleaved pair at step 2, a
// gather otherwise), and every lane keeps its best value and offset with blends, no branches.
// Lanes visit their window in the order max_planes does, with its rule (take v if v > best or v
// is NaN), so values and indices are the same. The scalar loop was branch-bound, each new
// maximum a mispredict: ResNet's 3x3 stride-2 max_pool2d, 1 thread, 45.5 -> 3.2 ms (ATen 42.5).
// Offsets are int32 lanes beside float32 values (the caller checks the plane fits).

// Stores the lanes' plane offsets as int64.
template <class DI>
HWY_INLINE void store_offsets(DI di, hn::Vec<DI> at, int64_t* HWY_RESTRICT out) {
  if constexpr (sizeof(hn::TFromD<DI>) == 8) {
    hn::StoreU(at, di, out);
  } else if constexpr (hn::MaxLanes(DI()) == 1) {
    out[0] = hn::GetLane(at);
  } else {
#if HWY_TARGET != HWY_SCALAR  // one lane only, above
    const hn::Half<DI> dh;
    const hn::Rebind<int64_t, decltype(dh)> d64;
    hn::StoreU(hn::PromoteTo(d64, hn::LowerHalf(dh, at)), d64, out);
    hn::StoreU(hn::PromoteTo(d64, hn::UpperHalf(dh, at)), d64, out + hn::Lanes(d64));
#endif
  }
}

// One vector of outputs from o. At step 2 a pair load reads one element past the last lane's
// tap or, kShifted, one before the first lane's; a single lane loads its tap alone.
template <bool kShifted, class D, typename T = hn::TFromD<D>>
HWY_INLINE void block(D d, const MaxRow<T>& r, int64_t o) {
  const hn::RebindToSigned<D> di;
  using I = hn::TFromD<decltype(di)>;
  const auto lane_pos = hn::Mul(hn::Iota(di, 0), hn::Set(di, static_cast<I>(r.step)));
  const auto pos = hn::Add(lane_pos, hn::Set(di, static_cast<I>(r.start + o * r.step)));
  auto best = hn::Set(d, -std::numeric_limits<T>::infinity());
  auto at = hn::Add(pos, hn::Set(di, static_cast<I>(r.first)));
  for (int64_t w = 0; w < r.nrows; ++w) {
    const T* base = r.plane + r.rows[w] + r.start + o * r.step;
    for (int64_t k = 0; k < r.taps; ++k) {
      const T* p = base + k * r.dilation;
      hn::Vec<decltype(d)> v, other;
      if (hn::MaxLanes(d) == 1 || r.step == 1) {
        v = hn::LoadU(d, p);
      } else if (r.step == 2) {
        if constexpr (kShifted) {
          hn::LoadInterleaved2(d, p - 1, other, v);
        } else {
          hn::LoadInterleaved2(d, p, v, other);
        }
      } else {
        v = hn::GatherIndex(d, p, lane_pos);
      }
      const auto take = hn::Or(hn::Gt(v, best), hn::IsNaN(v));
      best = hn::IfThenElse(take, v, best);
      const auto off = hn::Set(di, static_cast<I>(r.rows[w] + k * r.dilation));
      at = hn::IfThenElse(hn::RebindMask(di, take), hn::Add(pos, off), at);
    }
  }
  hn::StoreU(best, d, r.y + o);
  store_offsets(di, at, r.ind + o);
}

// The outputs from o on in vectors of at most N lanes, halving N down to 1 as they run out.
template <size_t N, typename T>
HWY_INLINE void rest(const MaxRow<T>& r, int64_t o) {
  const hn::CappedTag<T, N> d;
  const int64_t n = static_cast<int64_t>(hn::Lanes(d));
  const int64_t reach = (r.taps - 1) * r.dilation;
  for (; o + n <= r.end && (n == 1 || r.step != 2 || r.start + 2 * (o + n) + reach <= r.in);
       o += n) {
    block<false>(d, r, o);
  }
  if constexpr (N > 1) rest<N / 2>(r, o);
}

template <typename T>
void row(const MaxRow<T>& r) {
  const hn::ScalableTag<T> d;
  const int64_t L = static_cast<int64_t>(hn::Lanes(d));
  const int64_t reach = (r.taps - 1) * r.dilation;
  const auto ahead = [&](int64_t o) { return r.start + 2 * (o + L) + reach <= r.in; };
  int64_t o = r.begin;
  for (; o + L <= r.end && (r.step != 2 || ahead(o)); o += L) block<false>(d, r, o);
  // The rest as one more vector ending at `end`, overlapping outputs already stored (each is a
  // function of the input alone, so they are stored again unchanged), else in smaller vectors.
  if (o < r.end && r.end - r.begin >= L) {
    const int64_t last = r.end - L;
    if (r.step != 2 || ahead(last)) {
      return block<false>(d, r, last);
    } else if (r.start + 2 * last >= 1) {
      return block<true>(d, r, last);
    }
  }
  rest<hn::MaxLanes(d) / 2 + (hn::MaxLanes(d) == 1)>(r, o);
}

}  // namespace

void max_row_f32(const MaxRow<float>& r) {
  row(r);
}
void max_row_f64(const MaxRow<double>& r) {
  row(r);
}

}  // namespace ts::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace ts::cpu {

HWY_EXPORT(max_row_f32);
HWY_EXPORT(max_row_f64);

void max_pool_row(const MaxRow<float>& r) {
  HWY_DYNAMIC_DISPATCH(max_row_f32)(r);
}
void max_pool_row(const MaxRow<double>& r) {
  HWY_DYNAMIC_DISPATCH(max_row_f64)(r);
}

}  // namespace ts::cpu
#endif  // HWY_ONCE
