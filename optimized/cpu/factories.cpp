// Optimized CPU kernels for the kernel factories: arange, linspace, eye, rand, randn, randint;
// and the fills and byte copies of the other kernels (fill_elements, copy_bytes).
// Params as documented in lib/src/ops/factories.cpp; the output is always a fresh contiguous
// tensor. The random kernels reproduce the reference set bit for bit (Note [Philox streams] in
// touchstone/random.h); see Note [Vectorized Philox] and Note [Certified randn].
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "optimized/cpu/factories.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
// Must come after foreach_target.h.
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "hwy/contrib/math/math-inl.h"
#include "hwy/highway.h"
#include "optimized/cpu/elementwise.h"
#include "touchstone/random.h"

HWY_BEFORE_NAMESPACE();
namespace ts::cpu::HWY_NAMESPACE {
namespace {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET != HWY_SCALAR
// hi and lo 32 bits of a[i] * m for every u32 lane. Highway 1.0.3 has MulEven only (no MulOdd
// on x86), so the odd lanes are shifted down into even positions first.
template <class D, class V>
HWY_INLINE void mul_hi_lo(D d, V a, V m, V& hi, V& lo) {
  const hn::Repartition<uint64_t, D> d64;
  const auto even = hn::MulEven(a, m);
  const auto odd = hn::MulEven(hn::BitCast(d, hn::ShiftRight<32>(hn::BitCast(d64, a))), m);
  hi = hn::OddEven(hn::BitCast(d, odd), hn::BitCast(d, hn::ShiftRight<32>(even)));
  lo = hn::OddEven(hn::BitCast(d, hn::ShiftLeft<32>(odd)), hn::BitCast(d, even));
}
#endif

}  // namespace

// Note [Vectorized Philox]
// Each vector lane runs Philox4x32-10 for one element: lane j of a vector holds element
// first + j, whose counter is offset + first + j, exactly as philox_words() in random.h. The
// four counter words live in four vectors (structure of arrays), so a round is two 32x32->64
// multiplies per lane pair plus shuffles and xors; only integer operations, so every target
// gives the same bits. w[k * block + j] receives word k of element j, for j < n rounded up to
// whole vectors (`block` must leave room for that). HWY_SCALAR (the fallback target of GCC <
// 12.3, one lane) runs the scalar philox_words of random.h.
void philox_words(uint64_t seed, uint64_t counter, int64_t n, int64_t block,
                  uint32_t* HWY_RESTRICT w) {
#if HWY_TARGET == HWY_SCALAR
  for (int64_t j = 0; j < n; ++j) {
    const std::array<uint32_t, 4> r = ts::philox_words(seed, counter, static_cast<uint64_t>(j));
    for (int64_t k = 0; k < 4; ++k) w[k * block + j] = r[static_cast<size_t>(k)];
  }
#else
  const hn::ScalableTag<uint32_t> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  const auto m0 = hn::Set(d, 0xD2511F53u), m1 = hn::Set(d, 0xCD9E8D57u);
  const auto zero = hn::Zero(d);
  for (int64_t j = 0; j < n; j += lanes) {
    const uint64_t c = counter + static_cast<uint64_t>(j);
    const uint32_t lo = static_cast<uint32_t>(c), hi = static_cast<uint32_t>(c >> 32);
    auto c0 = hn::Iota(d, lo), c1 = hn::Set(d, hi), c2 = zero, c3 = zero;
    if (lo > UINT32_MAX - static_cast<uint32_t>(lanes - 1)) {  // the low word wraps in here
      HWY_ALIGN uint32_t l[HWY_LANES(uint32_t)];
      HWY_ALIGN uint32_t h[HWY_LANES(uint32_t)];
      for (int64_t k = 0; k < lanes; ++k) {
        const uint64_t ck = c + static_cast<uint64_t>(k);
        l[k] = static_cast<uint32_t>(ck);
        h[k] = static_cast<uint32_t>(ck >> 32);
      }
      c0 = hn::Load(d, l);
      c1 = hn::Load(d, h);
    }
    uint32_t k0 = static_cast<uint32_t>(seed), k1 = static_cast<uint32_t>(seed >> 32);
    for (int round = 0; round < 10; ++round) {
      if (round > 0) {
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
      }
      decltype(c0) hi0, lo0, hi1, lo1;
      mul_hi_lo(d, c0, m0, hi0, lo0);
      mul_hi_lo(d, c2, m1, hi1, lo1);
      c0 = hn::Xor(hn::Xor(hi1, c1), hn::Set(d, k0));
      c1 = lo1;
      c2 = hn::Xor(hn::Xor(hi0, c3), hn::Set(d, k1));
      c3 = lo0;
    }
    hn::StoreU(c0, d, w + j);
    hn::StoreU(c1, d, w + block + j);
    hn::StoreU(c2, d, w + 2 * block + j);
    hn::StoreU(c3, d, w + 3 * block + j);
  }
#endif
}

// out[i - b] = T(start + i * step) for i in [b, e) or, with `last` >= 0, T(start - (last - i) *
// step) (linspace's second half); T float or double. The arithmetic in double lanes, multiply
// then add (-ffp-contract=off keeps them apart), one rounding to T: the reference's values.
template <typename T>
void affine_range(T* HWY_RESTRICT out, int64_t b, int64_t e, double start, double step,
                  int64_t last) {
  const hn::ScalableTag<double> dd;
  const auto L = static_cast<int64_t>(hn::Lanes(dd));
  const bool down = last >= 0;
  const auto at = [&](int64_t i) { return static_cast<double>(down ? last - i : i); };
  const auto sv = hn::Set(dd, start), tv = hn::Set(dd, step);
  const auto lv = hn::Set(dd, static_cast<double>(down ? -L : L));
  auto iv = down ? hn::Sub(hn::Set(dd, at(b)), hn::Iota(dd, 0))
                 : hn::Add(hn::Iota(dd, 0), hn::Set(dd, at(b)));
  int64_t i = b;
  for (; i + L <= e; i += L, iv = hn::Add(iv, lv)) {
    const auto t = hn::Mul(iv, tv);
    const auto y = down ? hn::Sub(sv, t) : hn::Add(sv, t);
    if constexpr (std::is_same_v<T, double>) {
      hn::StoreU(y, dd, out + (i - b));
    } else {
      const hn::Rebind<float, decltype(dd)> df;
      hn::StoreU(hn::DemoteTo(df, y), df, out + (i - b));
    }
  }
  for (; i < e; ++i) {
    out[i - b] = static_cast<T>(down ? start - at(i) * step : start + at(i) * step);
  }
}
void affine_range_f32(float* out, int64_t b, int64_t e, double start, double step, int64_t last) {
  affine_range(out, b, e, start, step, last);
}
void affine_range_f64(double* out, int64_t b, int64_t e, double start, double step, int64_t last) {
  affine_range(out, b, e, start, step, last);
}

// Note [Fills in 32-byte stores]
// On the Zen 5 VM a loop of 64-byte stores filled memory slower than one of 32-byte stores: 2
// threads, interleaved runs, float32, median: 1M elements (in L2) 58.1 vs 30.9 us, 4M (in L3)
// 233 vs 161 us, 16M (DRAM) 1.11 vs 0.99 ms. Loops that also load (add) differed by 3-8 %. So
// fills store 32 bytes at a time on every target; ATen's AVX2 fill does the same.
// n copies of the element `bits` (u's width) from dst: whole vectors, 4 a step, then the tail
// (Note [Vector fills] in copy.cpp). With `stream`, the vectors from dst's first aligned one on
// are non-temporal (Note [Streaming stores] in elementwise.h; the caller fences them). The
// vectors are at most 32 bytes wide (Note [Fills in 32-byte stores]).
template <typename U>
HWY_INLINE void fill_lanes(U* HWY_RESTRICT dst, int64_t n, U bits, bool stream) {
  const hn::CappedTag<U, 32 / sizeof(U)> d;
  const auto v = hn::Set(d, bits);
  const auto L = static_cast<int64_t>(hn::Lanes(d));
  int64_t i = 0;
  if (stream) {
    const int64_t head = unaligned_head(dst, sizeof(U), static_cast<size_t>(L) * sizeof(U), n);
    for (; i < head; ++i) dst[i] = bits;
    for (; i + L <= n; i += L) hn::Stream(v, d, dst + i);
    for (; i < n; ++i) dst[i] = bits;
    return;
  }
  for (; i + 4 * L <= n; i += 4 * L) {
    hn::StoreU(v, d, dst + i);
    hn::StoreU(v, d, dst + i + L);
    hn::StoreU(v, d, dst + i + 2 * L);
    hn::StoreU(v, d, dst + i + 3 * L);
  }
  for (; i + L <= n; i += L) hn::StoreU(v, d, dst + i);
  for (; i < n; ++i) dst[i] = bits;
}

// size is 1, 2, 4 or 8 bytes; bits holds the element in its low bytes.
void fill_words(void* dst, int64_t n, uint64_t bits, size_t size, bool stream) {
  switch (size) {
    case 1:
      return fill_lanes(static_cast<uint8_t*>(dst), n, static_cast<uint8_t>(bits), stream);
    case 2:
      return fill_lanes(static_cast<uint16_t*>(dst), n, static_cast<uint16_t>(bits), stream);
    case 4:
      return fill_lanes(static_cast<uint32_t*>(dst), n, static_cast<uint32_t>(bits), stream);
    default:
      return fill_lanes(static_cast<uint64_t*>(dst), n, bits, stream);
  }
}

// Note [Demoting to float32]
// Highway's scalar target demotes float64 to float32 saturating: an infinity or a value beyond
// float32's range becomes +-FLT_MAX (ours rounds, as static_cast: to +-inf). So with
// TOUCHSTONE_CPU_CAPABILITY=scalar, float64 inf .to(float32) gave 3.4e38. That target takes the
// scalar loops instead of DemoteTo; the vector targets' conversions (cvtpd2ps) round.

// n float64 to float32 (rounded to nearest even, as static_cast) or float32 to float64 (exact);
// with `stream`, the whole vectors from dst's first aligned one on are non-temporal.
void convert_float_widths(void* dst, const void* src, int64_t n, bool to_float, bool stream) {
  const hn::ScalableTag<double> dd;
  const hn::Rebind<float, decltype(dd)> df;
  const auto L = static_cast<int64_t>(hn::Lanes(dd));
  int64_t i = 0;
  if (to_float) {
    auto* o = static_cast<float*>(dst);
    const auto* a = static_cast<const double*>(src);
#if HWY_TARGET != HWY_SCALAR  // Note [Demoting to float32]
    if (stream) {
      const int64_t head = unaligned_head(o, sizeof(float), static_cast<size_t>(L) * 4, n);
      for (; i < head; ++i) o[i] = static_cast<float>(a[i]);
      for (; i + L <= n; i += L) hn::Stream(hn::DemoteTo(df, hn::LoadU(dd, a + i)), df, o + i);
    }
    for (; i + L <= n; i += L) hn::StoreU(hn::DemoteTo(df, hn::LoadU(dd, a + i)), df, o + i);
#endif
    for (; i < n; ++i) o[i] = static_cast<float>(a[i]);
  } else {
    auto* o = static_cast<double*>(dst);
    const auto* a = static_cast<const float*>(src);
    if (stream) {
      const int64_t head = unaligned_head(o, sizeof(double), static_cast<size_t>(L) * 8, n);
      for (; i < head; ++i) o[i] = static_cast<double>(a[i]);
      for (; i + L <= n; i += L) hn::Stream(hn::PromoteTo(dd, hn::LoadU(df, a + i)), dd, o + i);
    }
    for (; i + L <= n; i += L) hn::StoreU(hn::PromoteTo(dd, hn::LoadU(df, a + i)), dd, o + i);
    for (; i < n; ++i) o[i] = static_cast<double>(a[i]);
  }
}

// Note [Every second element]
// A step-2 slice copied out (x[:, ::2], 4096^2 float32 of a 4096 x 8192 source) took a scalar
// load and store per element, through the cache. Two vectors of the source give one of the
// result (ConcatEven), stored non-temporal with `stream`. The last vector stops one lane short
// of the source's end: its upper load would read one element past the slice's last.
template <typename T>
HWY_INLINE void copy_even_lanes(T* HWY_RESTRICT o, const T* HWY_RESTRICT a, int64_t n,
                                [[maybe_unused]] bool stream) {
  int64_t i = 0;
#if HWY_TARGET != HWY_SCALAR
  const hn::ScalableTag<T> d;
  const auto L = static_cast<int64_t>(hn::Lanes(d));
  const auto even = [&](int64_t at) {
    return hn::ConcatEven(d, hn::LoadU(d, a + 2 * at + L), hn::LoadU(d, a + 2 * at));
  };
  if (stream) {
    const int64_t head = unaligned_head(o, sizeof(T), static_cast<size_t>(L) * sizeof(T), n);
    for (; i < head; ++i) o[i] = a[2 * i];
    for (; i + L < n; i += L) hn::Stream(even(i), d, o + i);
  }
  for (; i + L < n; i += L) hn::StoreU(even(i), d, o + i);
#endif
  for (; i < n; ++i) o[i] = a[2 * i];
}

// n elements of `size` (4 or 8) bytes from every second one of src (Note [Every second element]).
void copy_step2_words(void* dst, const void* src, int64_t n, size_t size, bool stream) {
  if (size == 4) {
    return copy_even_lanes(static_cast<uint32_t*>(dst), static_cast<const uint32_t*>(src), n,
                           stream);
  }
  copy_even_lanes(static_cast<uint64_t*>(dst), static_cast<const uint64_t*>(src), n, stream);
}

// n bytes from src to dst in whole vectors of d, 4 a step, then the tail. With `stream`, the
// vectors from dst's first aligned one on are non-temporal (the caller fences them).
template <class D>
HWY_INLINE void copy_vectors(D d, void* dst, const void* src, int64_t n, bool stream) {
  const auto L = static_cast<int64_t>(hn::Lanes(d));
  auto* HWY_RESTRICT o = static_cast<uint8_t*>(dst);
  const auto* HWY_RESTRICT s = static_cast<const uint8_t*>(src);
  const auto put = [&](int64_t at) {
    if (stream) {
      hn::Stream(hn::LoadU(d, s + at), d, o + at);
    } else {
      hn::StoreU(hn::LoadU(d, s + at), d, o + at);
    }
  };
  int64_t i = stream ? unaligned_head(o, 1, static_cast<size_t>(L), n) : 0;
  std::memcpy(o, s, static_cast<size_t>(i));
  for (; i + 4 * L <= n; i += 4 * L) {
    for (int64_t k = 0; k < 4; ++k) put(i + k * L);
  }
  for (; i + L <= n; i += L) put(i);
  std::memcpy(o + i, s + i, static_cast<size_t>(n - i));
}

// rows x n bytes, rows ds (dst) and ss (src) bytes apart, in 32-byte vectors (Note [Copies in
// 32-byte vectors]).
void plain_copy_rows(char* dst, int64_t ds, const char* src, int64_t ss, int64_t n, int64_t rows) {
  for (int64_t r = 0; r < rows; ++r) {
    copy_vectors(hn::CappedTag<uint8_t, 32>(), dst + r * ds, src + r * ss, n, false);
  }
}

// n bytes, dst's aligned whole vectors streamed (Note [Streaming stores]; the caller fences them).
void stream_copy(void* dst, const void* src, int64_t n) {
  copy_vectors(hn::ScalableTag<uint8_t>(), dst, src, n, true);
}

#if HWY_TARGET != HWY_SCALAR
// normal_double(words of element j) of random.h for the lanes from j, with Highway's vector Log
// and Cos: within kNormalError of the libm value (Note [Certified randn]).
template <class D>
HWY_INLINE hn::Vec<D> normal_lanes(D d, const uint32_t* HWY_RESTRICT w, int64_t j, int64_t block) {
  const hn::Rebind<uint32_t, D> d32;
  const hn::Rebind<uint64_t, D> du;
  const hn::Rebind<int64_t, D> di;
  // uniform_double(lo, hi): the top 53 bits of hi * 2^32 + lo, times 2^-53 (exact).
  const auto uniform = [&](const uint32_t* lo, const uint32_t* hi) {
    const auto bits = hn::Or(hn::ShiftLeft<32>(hn::PromoteTo(du, hn::LoadU(d32, hi + j))),
                             hn::PromoteTo(du, hn::LoadU(d32, lo + j)));
    return hn::Mul(hn::ConvertTo(d, hn::BitCast(di, hn::ShiftRight<11>(bits))),
                   hn::Set(d, 1.0 / 9007199254740992.0));
  };
  const auto u1 = hn::Sub(hn::Set(d, 1.0), uniform(w, w + block));
  const auto u2 = uniform(w + 2 * block, w + 3 * block);
  const auto radius = hn::Sqrt(hn::Mul(hn::Set(d, -2.0), hn::Log(d, u1)));
  return hn::Mul(radius, hn::Cos(d, hn::Mul(hn::Set(d, 6.283185307179586476925286766559), u2)));
}
#endif

// z[j] = normal_double(words of element j) within kNormalError, for j < n rounded up to whole
// vectors (HWY_SCALAR: normal_double itself).
void normal_values(const uint32_t* HWY_RESTRICT w, int64_t n, int64_t block,
                   double* HWY_RESTRICT z) {
#if HWY_TARGET == HWY_SCALAR
  for (int64_t j = 0; j < n; ++j) {
    z[j] = normal_double({w[j], w[block + j], w[2 * block + j], w[3 * block + j]});
  }
#else
  const hn::ScalableTag<double> d;
  const auto L = static_cast<int64_t>(hn::Lanes(d));
  for (int64_t j = 0; j < n; j += L) hn::StoreU(normal_lanes(d, w, j, block), d, z + j);
#endif
}

// out[j] = float32(normal_double(words of element j)) for the j < n whose rounding the bound
// decides (Note [Certified randn]); returns how many it left, their j in redo[].
int64_t normal_f32(const uint32_t* HWY_RESTRICT w, int64_t n, int64_t block, double error,
                   float* HWY_RESTRICT out, int64_t* HWY_RESTRICT redo) {
  int64_t left = 0;
  int64_t j = 0;
#if HWY_TARGET != HWY_SCALAR
  const hn::ScalableTag<double> d;
  const hn::Rebind<float, decltype(d)> df;
  const hn::Rebind<uint64_t, decltype(d)> du;
  const auto L = static_cast<int64_t>(hn::Lanes(d));
  const auto below = hn::Set(d, 1.0 - error), above = hn::Set(d, 1.0 + error);
  for (; j + L <= n; j += L) {
    const auto z = normal_lanes(d, w, j, block);
    const auto lo = hn::DemoteTo(df, hn::Mul(z, below));
    const auto hi = hn::DemoteTo(df, hn::Mul(z, above));
    hn::StoreU(lo, df, out + j);
    const auto ok = hn::And(hn::RebindMask(d, hn::Eq(hn::BitCast(du, hn::PromoteTo(d, lo)),
                                                     hn::BitCast(du, hn::PromoteTo(d, hi)))),
                            hn::Ne(z, hn::Zero(d)));
    if (HWY_UNLIKELY(!hn::AllTrue(d, ok))) {
      for (int64_t k = 0; k < L; ++k) redo[left++] = j + k;  // a whole vector: it is that rare
    }
  }
#else
  (void)w, (void)block, (void)error, (void)out;
#endif
  for (; j < n; ++j) redo[left++] = j;
  return left;
}

}  // namespace ts::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "optimized/cpu/convert.h"
#include "touchstone/dispatch.h"
#include "touchstone/dispatch_macros.h"
#include "touchstone/kernel_family.h"
#include "touchstone/parallel.h"
#include "touchstone/random.h"

namespace ts::cpu {
namespace {

HWY_EXPORT(philox_words);
HWY_EXPORT(normal_values);
HWY_EXPORT(normal_f32);
HWY_EXPORT(fill_words);
HWY_EXPORT(stream_copy);
HWY_EXPORT(plain_copy_rows);
HWY_EXPORT(convert_float_widths);
HWY_EXPORT(copy_step2_words);
HWY_EXPORT(affine_range_f32);
HWY_EXPORT(affine_range_f64);

// affine_range in float32 or float64 lanes; false (nothing written) for other T.
template <typename T>
bool vector_affine_range(T* out, int64_t b, int64_t e, double start, double step,
                         int64_t last = -1) {
  if constexpr (std::is_same_v<T, float>) {
    HWY_DYNAMIC_DISPATCH(affine_range_f32)(out, b, e, start, step, last);
    return true;
  } else if constexpr (std::is_same_v<T, double>) {
    HWY_DYNAMIC_DISPATCH(affine_range_f64)(out, b, e, start, step, last);
    return true;
  }
  return false;
}

// Elements per Philox block: a multiple of every target's lane count; 4 KiB of words.
constexpr int64_t kBlock = 256;

template <typename T>
T* out_data(const KernelCall& c) {
  TS_INTERNAL_ASSERT(c.outputs[0].is_contiguous(), "factory kernels expect a contiguous output");
  return static_cast<T*>(c.outputs[0].data_ptr());
}

// ---- arange, linspace, eye ----
// Memory-bound loops in plain code (auto-vectorized); the arithmetic is the reference's.

// One kernel per Kernel op of signature class Factory (Note [Kernel families]).
template <OpId op>
void kernel(const KernelCall& c) = delete;

template <>
void kernel<OpId::arange>(const KernelCall& c) {
  const int64_t n = c.outputs[0].numel();
  const ArangeParams& a = c.params<ArangeParams>();
  TS_DISPATCH_ALL_TYPES_AND_REDUCED(c.outputs[0].dtype(), "arange", [&] {
    scalar_t* out = out_data<scalar_t>(c);
    if constexpr (std::is_integral_v<scalar_t>) {  // start + i * step, wrapping
      const uint64_t start = static_cast<uint64_t>(a.start.to_long());
      const uint64_t step = static_cast<uint64_t>(a.step.to_long());
      parallel_for(0, n, 32768, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) {
          out[i] = static_cast<scalar_t>(start + static_cast<uint64_t>(i) * step);
        }
      });
    } else {
      const double start = a.start.to_double(), step = a.step.to_double();
      parallel_for(0, n, 32768, [&](int64_t b, int64_t e) {
        if (vector_affine_range(out + b, b, e, start, step)) return;
        for (int64_t i = b; i < e; ++i) {
          out[i] = double_to<scalar_t>(start + static_cast<double>(i) * step);
        }
      });
    }
  });
}

// A linspace bound converted to the output dtype first, as ATen does (Scalar::to<scalar_t>).
template <typename T>
double linspace_bound(const Scalar& s) {
  if (!std::is_integral_v<T> || s.is_floating_point()) {
    using C = std::conditional_t<is_16bit_float_v<T>, float, T>;
    return static_cast<double>(static_cast<C>(double_to<T>(s.to_double())));
  }
  return static_cast<double>(static_cast<T>(s.to_long()));
}

// PyTorch's symmetric formula: the first half steps up from start, the second down from end.
template <>
void kernel<OpId::linspace>(const KernelCall& c) {
  const LinspaceParams& l = c.params<LinspaceParams>();
  const int64_t steps = l.steps;
  TS_DISPATCH_ALL_TYPES_AND_REDUCED(c.outputs[0].dtype(), "linspace", [&] {
    scalar_t* out = out_data<scalar_t>(c);
    const double start = linspace_bound<scalar_t>(l.start);
    const double end = linspace_bound<scalar_t>(l.end);
    if (steps == 1) out[0] = double_to<scalar_t>(start);
    if (steps <= 1) return;
    const double step = (end - start) / static_cast<double>(steps - 1);
    const int64_t halfway = steps / 2;
    parallel_for(0, steps, 32768, [&](int64_t b, int64_t e) {
      const int64_t mid = std::clamp(halfway, b, e);
      if (b < mid && vector_affine_range(out + b, b, mid, start, step)) b = mid;
      if (mid < e && vector_affine_range(out + mid, mid, e, end, step, steps - 1)) e = mid;
      for (int64_t i = b; i < mid; ++i) {
        out[i] = double_to<scalar_t>(start + step * static_cast<double>(i));
      }
      for (int64_t i = mid; i < e; ++i) {
        out[i] = double_to<scalar_t>(end - step * static_cast<double>(steps - 1 - i));
      }
    });
  });
}

template <>
void kernel<OpId::eye>(const KernelCall& c) {
  const int64_t n = c.outputs[0].size(0), m = c.outputs[0].size(1);
  TS_DISPATCH_ALL_DTYPES(c.outputs[0].dtype(), "eye", [&] {
    scalar_t* out = out_data<scalar_t>(c);
    const scalar_t one = int64_to<scalar_t>(1);
    const int64_t grain = std::max<int64_t>(1, 65536 / std::max<int64_t>(m, 1));
    parallel_for(0, n, grain, [&](int64_t b, int64_t e) {
      std::memset(static_cast<void*>(out + b * m), 0,
                  static_cast<size_t>((e - b) * m) * sizeof(scalar_t));  // 0 bits are +0 / false
      for (int64_t i = b; i < std::min(e, m); ++i) out[i * m + i] = one;
    });
  });
}

// ---- rand, randn, randint ----

// Calls f(first, n, w) for consecutive blocks of the output's elements, in parallel, where
// w[k * kBlock + j] is Philox word k of element first + j (j < n). Which thread computes a block
// does not matter: an element's words depend only on (seed, offset + its index).
template <class F>
void for_each_philox_block(const KernelCall& c, int64_t grain, const F& f) {
  // RandomParams, or RandintParams, which extends it.
  const RandomParams& r = std::visit(
      [&](const auto& a) -> const RandomParams& {
        if constexpr (std::is_base_of_v<RandomParams, std::decay_t<decltype(a)>>) return a;
        return c.params<RandomParams>();  // not a random op: throws, naming it
      },
      c.p.args);
  const uint64_t seed = r.seed, offset = r.offset;
  parallel_for(0, c.outputs[0].numel(), grain, [&](int64_t b, int64_t e) {
    alignas(64) uint32_t w[4 * kBlock];
    for (int64_t i = b; i < e; i += kBlock) {
      const int64_t n = std::min(kBlock, e - i);
      HWY_DYNAMIC_DISPATCH(philox_words)(seed, offset + static_cast<uint64_t>(i), n, kBlock, w);
      f(i, n, static_cast<const uint32_t*>(w));
    }
  });
}

// Uniform [0, 1) values, exact in their dtype (random.h): k * 2^-digits from the top bits of
// w[0]. float16 and bfloat16 are assembled from the float's bits (exact, so no rounding).
template <typename T>
T uniform(uint32_t w0, uint32_t w1) {
  if constexpr (std::is_same_v<T, double>) {
    return uniform_double(w0, w1);
  } else if constexpr (std::is_same_v<T, float>) {
    return uniform_float(w0);
  } else if constexpr (std::is_same_v<T, Half>) {
    const float f = static_cast<float>(w0 >> 21) * (1.0f / 2048.0f);
    const uint32_t bits = detail::float_bits(f);  // normal: rebias the exponent 127 -> 15
    return Half(static_cast<uint16_t>(bits == 0 ? 0 : (bits >> 13) - (112u << 10)), FromBits());
  } else {
    const float f = static_cast<float>(w0 >> 24) * (1.0f / 256.0f);
    return BFloat16(static_cast<uint16_t>(detail::float_bits(f) >> 16), FromBits());
  }
}

template <>
void kernel<OpId::rand>(const KernelCall& c) {
  TS_DISPATCH_FLOATING_TYPES_AND_REDUCED(c.outputs[0].dtype(), "rand", [&] {
    scalar_t* out = out_data<scalar_t>(c);
    for_each_philox_block(c, 16384, [&](int64_t first, int64_t n, const uint32_t* w) {
      scalar_t* o = out + first;
      for (int64_t j = 0; j < n; ++j) o[j] = uniform<scalar_t>(w[j], w[kBlock + j]);
    });
  });
}

// Note [Certified randn]
// The reference rounds normal_double's libm result once to the output dtype; float64 outputs call
// normal_double itself. Narrower ones take Highway's vector Log and Cos (documented at 4 and 3
// ulp; measured against libm over 16M elements: 2.9 ulp of 1 at most, every target) and round
// z * (1 - e) and z * (1 + e), e = kNormalError. When both round to the same value, so does every
// double between them, libm's among them, and that value is stored; otherwise (5 vectors in 16M
// elements, and z = 0, whose sign is libm's) the vector's elements are recomputed with
// normal_double. The bits stay the reference's. float32, 16M elements, 1 thread: 425 -> 62 ms (ATen
// 54); 2 threads 31.
constexpr double kNormalError = 64.0 / 4503599627370496.0;  // 64 ulp of 1: 20x the measured error

template <typename T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <>
void kernel<OpId::randn>(const KernelCall& c) {
  TS_DISPATCH_FLOATING_TYPES_AND_REDUCED(c.outputs[0].dtype(), "randn", [&] {
    scalar_t* out = out_data<scalar_t>(c);
    for_each_philox_block(c, 1024, [&](int64_t first, int64_t n, const uint32_t* w) {
      const auto exact = [&](int64_t j) {
        return double_to<scalar_t>(
            normal_double({w[j], w[kBlock + j], w[2 * kBlock + j], w[3 * kBlock + j]}));
      };
      if constexpr (std::is_same_v<scalar_t, double>) {
        for (int64_t j = 0; j < n; ++j) out[first + j] = exact(j);
      } else if constexpr (std::is_same_v<scalar_t, float>) {
        int64_t redo[kBlock];
        // scalar_t is float here; the cast only lets the other dtypes' branch compile.
        float* o = reinterpret_cast<float*>(out + first);
        const int64_t left = HWY_DYNAMIC_DISPATCH(normal_f32)(w, n, kBlock, kNormalError, o, redo);
        for (int64_t k = 0; k < left; ++k) out[first + redo[k]] = exact(redo[k]);
      } else {
        alignas(64) double z[kBlock];
        HWY_DYNAMIC_DISPATCH(normal_values)(w, n, kBlock, z);
        for (int64_t j = 0; j < n; ++j) {
          const scalar_t lo = double_to<scalar_t>(z[j] * (1.0 - kNormalError));
          const scalar_t hi = double_to<scalar_t>(z[j] * (1.0 + kNormalError));
          out[first + j] = z[j] != 0.0 && same_bits(lo, hi) ? lo : exact(j);
        }
      }
    });
  });
}

// Note [randint remainder]
// For range <= 2^32 the reference takes w[0] % range. A hardware division per element costs
// more than Philox itself, so we use Lemire's direct remainder (Lemire, Kaser, Kurz, "Faster
// remainder by direct computation", 2019), exact for every 32-bit numerator and divisor:
// with M = floor((2^64 - 1) / range) + 1 (mod 2^64), w % range = ((M * w mod 2^64) * range) >> 64.
// range = 2^32 is w itself; larger ranges use bits64(w[0], w[1]) % range as the reference.
template <>
void kernel<OpId::randint>(const KernelCall& c) {
  const RandintParams& r = c.params<RandintParams>();
  const uint64_t range = static_cast<uint64_t>(r.high) - static_cast<uint64_t>(r.low);
  const uint64_t low = static_cast<uint64_t>(r.low);
  TS_DISPATCH_ALL_DTYPES(c.outputs[0].dtype(), "randint", [&] {
    scalar_t* out = out_data<scalar_t>(c);
    auto store = [&](int64_t i, uint64_t r) {
      out[i] = int64_to<scalar_t>(static_cast<int64_t>(low + r));  // wraps as the reference
    };
    if (range < (uint64_t{1} << 32)) {
      const uint64_t m = UINT64_MAX / range + 1;
      for_each_philox_block(c, 16384, [&](int64_t first, int64_t n, const uint32_t* w) {
        for (int64_t j = 0; j < n; ++j) {
          using u128 = unsigned __int128;
          const uint64_t frac = m * w[j];
          store(first + j, static_cast<uint64_t>((static_cast<u128>(frac) * range) >> 64));
        }
      });
    } else if (range == (uint64_t{1} << 32)) {
      for_each_philox_block(c, 16384, [&](int64_t first, int64_t n, const uint32_t* w) {
        for (int64_t j = 0; j < n; ++j) store(first + j, w[j]);
      });
    } else {
      for_each_philox_block(c, 16384, [&](int64_t first, int64_t n, const uint32_t* w) {
        for (int64_t j = 0; j < n; ++j) {
          store(first + j, ((static_cast<uint64_t>(w[kBlock + j]) << 32) | w[j]) % range);
        }
      });
    }
  });
}

}  // namespace

void fill_elements(void* dst, int64_t n, const void* value, size_t size, bool stream) {
  if (n <= 0) return;
  const auto* b = static_cast<const unsigned char*>(value);
  // Note [Streaming every fill]
  // Only zeros streamed once: other values streamed ran 15-20 % slower in a catalog run on the
  // EPYC VM (full, ones, fill_, meshgrid). On an Emerald Rapids VM, interleaved A/B at 1 thread,
  // 64 MiB: ones 9.0-9.1 -> 3.2 ms, full 9.2-10.4 -> 3.1-3.4, fill_ 8.1-9.8 -> 3.2-3.3, meshgrid
  // 12.2-13.1 -> 6.9-7.2 (ATen 7.9-20.6). Every value streams now (Note [Streaming stores]).
  const bool same = std::all_of(b, b + size, [&](unsigned char x) { return x == b[0]; });
  // Note [Fills stay in cache]
  // Below the streaming threshold a fill is meant to stay in cache for the op that follows, so
  // it takes plain 32-byte stores; glibc's memset of megabytes is `rep stosb`, which may write
  // around the cache, so only short fills take it.
  if (!stream && same && n * static_cast<int64_t>(size) < 4096) {
    std::memset(dst, b[0], static_cast<size_t>(n) * size);
    return;
  }
  if (size == 1 || size == 2 || size == 4 || size == 8) {
    uint64_t bits = 0;
    std::memcpy(&bits, value, size);
    HWY_DYNAMIC_DISPATCH(fill_words)(dst, n, bits, size, stream);
    return;
  }
  for (int64_t i = 0; i < n; ++i) std::memcpy(static_cast<char*>(dst) + i * size, value, size);
}

void convert_floats(void* dst, const void* src, int64_t n, bool to_float, bool stream) {
  HWY_DYNAMIC_DISPATCH(convert_float_widths)(dst, src, n, to_float, stream);
}

void copy_step2(void* dst, const void* src, int64_t n, size_t size, bool stream) {
  HWY_DYNAMIC_DISPATCH(copy_step2_words)(dst, src, n, size, stream);
}

// Note [Copies in 32-byte vectors]
// glibc's memcpy on the AVX-512 VM moves rows in 64-byte vectors, so a row whose destination is
// not 64-byte aligned splits every store across two lines: constant_pad_nd's copy into its
// result's interior (rows of 512 bytes, 12 bytes past a line) spent 63 % of its time in memmove
// and trailed ATen, whose AVX2 loop stores 32 bytes at a time (Note [Fills in 32-byte stores]).
void copy_bytes(void* dst, const void* src, int64_t n, bool stream) {
  if (stream) return HWY_DYNAMIC_DISPATCH(stream_copy)(dst, src, n);
  copy_byte_rows(static_cast<char*>(dst), 0, static_cast<const char*>(src), 0, n, 1);
}

// Rows below 64 bytes take memcpy's short copies.
void copy_byte_rows(char* dst, int64_t ds, const char* src, int64_t ss, int64_t n, int64_t rows) {
  if (n < 64) {
    for (int64_t r = 0; r < rows; ++r)
      std::memcpy(dst + r * ds, src + r * ss, static_cast<size_t>(n));
    return;
  }
  HWY_DYNAMIC_DISPATCH(plain_copy_rows)(dst, ds, src, ss, n, rows);
}

TS_REGISTER_KERNELS(optimized, factories) {
  for_each_kernel_op<OpSignature::Factory>([&](auto op) { m.impl(op, kCPU, kernel<op>); });
}

}  // namespace ts::cpu
#endif  // HWY_ONCE
