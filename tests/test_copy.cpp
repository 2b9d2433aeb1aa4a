// copy_, clone, contiguous, to, fill_ and zero_. Inputs are written and results read through
// typed pointers (no touchstone op involved); expected values are worked out by hand from
// IEEE 754 (round to nearest, ties to even) and PyTorch's conversion rules.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

#include "test_util.h"
#include "touchstone/parallel.h"
#include "touchstone/touchstone.h"

namespace {

using namespace ts::testing;
using ts::ScalarType;
using ts::Tensor;

// The raw bits of float16/bfloat16 element i.
uint16_t bits16(const Tensor& t, int64_t i = 0) {
  return load_as<uint16_t>(element_ptr(t, i));
}

// `src` (one value of dtype `from`) copied into a fresh 1-element tensor of dtype `to`.
Tensor convert(double v, ScalarType from, ScalarType to) {
  Tensor dst = ts::empty({1}, to);
  dst.copy_(make(from, {v}));
  return dst;
}

// ---- copy_: conversions ----

TEST(CopyConvert, EveryDtypePairOnValuesAllDtypesHold) {
  // 0, 1, 5, 100 and 127 are exact in every dtype; bool holds them as v != 0.
  const std::vector<double> vals = {0, 1, 5, 100, 127};
  for (ScalarType from : kAll) {
    for (ScalarType to : kAll) {
      std::vector<double> src = vals;
      if (from == ts::kBool) src = {0, 1, 1, 1, 1};
      Tensor dst = ts::empty({5}, to);
      dst.copy_(make(from, src));
      std::vector<double> want = src;
      if (to == ts::kBool) want = {0, 1, 1, 1, 1};
      EXPECT_EQ(values(dst), want) << from << " -> " << to;
    }
  }
}

TEST(CopyConvert, NegativeValuesIntoEveryDtype) {
  const ScalarType signed_sources[] = {ts::kChar, ts::kShort, ts::kInt,      ts::kLong,
                                       ts::kHalf, ts::kFloat, ts::kBFloat16, ts::kDouble};
  for (ScalarType from : signed_sources) {
    for (ScalarType to : kAll) {
      const double want = to == ts::kBool ? 1 : to == ts::kByte ? 253 : -3;  // 256 - 3
      EXPECT_EQ(get(convert(-3, from, to)), want) << from << " -> " << to;
    }
  }
}

TEST(CopyConvert, FloatToIntegerTruncatesTowardZero) {
  for (ScalarType from : {ts::kFloat, ts::kDouble, ts::kHalf, ts::kBFloat16}) {
    for (ScalarType to : {ts::kChar, ts::kShort, ts::kInt, ts::kLong}) {
      Tensor dst = ts::empty({4}, to);
      dst.copy_(make(from, {2.75, -2.75, 0.5, -0.5}));  // exact in bfloat16 too
      EXPECT_EQ(values(dst), (std::vector<double>{2, -2, 0, 0})) << from << " -> " << to;
    }
    EXPECT_EQ(get(convert(255.5, ts::kFloat, ts::kByte)), 255);
  }
}

TEST(CopyConvert, AnythingToBoolIsNonZero) {
  for (ScalarType from : {ts::kFloat, ts::kDouble, ts::kHalf, ts::kBFloat16}) {
    Tensor dst = ts::empty({6}, ts::kBool);
    dst.copy_(make(from, {kNaN, -0.0, 0.0, 0.5, -kInf, 1e-3}));
    EXPECT_EQ(values(dst), (std::vector<double>{1, 0, 0, 1, 1, 1})) << from;
  }
  // Integers are not wrapped into bool: 256 is true although its low byte is 0.
  Tensor dst = ts::empty({3}, ts::kBool);
  dst.copy_(make(ts::kLong, {256, 0, -1}));
  EXPECT_EQ(values(dst), (std::vector<double>{1, 0, 1}));
}

TEST(CopyConvert, IntegersWrapModuloTheWidth) {
  Tensor u8 = ts::empty({4}, ts::kByte);
  u8.copy_(make(ts::kLong, {300, -1, 256, 511}));
  EXPECT_EQ(values(u8), (std::vector<double>{44, 255, 0, 255}));
  Tensor i8 = ts::empty({3}, ts::kChar);
  i8.copy_(make(ts::kInt, {128, -129, 255}));
  EXPECT_EQ(values(i8), (std::vector<double>{-128, 127, -1}));
  EXPECT_EQ(get(convert(255, ts::kByte, ts::kChar)), -1);
  EXPECT_EQ(get(convert(65541, ts::kLong, ts::kShort)), 5);  // 65536 + 5
  Tensor i32 = ts::empty({1}, ts::kInt);
  i32.copy_(make_long({(int64_t{1} << 32) + 7}));
  EXPECT_EQ(get(i32), 7);
}

TEST(CopyConvert, NegativeZeroKeepsItsSign) {
  EXPECT_TRUE(std::signbit(get(convert(-0.0, ts::kFloat, ts::kDouble))));
  EXPECT_EQ(bits16(convert(-0.0, ts::kDouble, ts::kHalf)), 0x8000);
  EXPECT_EQ(bits16(convert(-0.0, ts::kFloat, ts::kBFloat16)), 0x8000);
  EXPECT_EQ(bits16(convert(-0.0, ts::kBFloat16, ts::kHalf)), 0x8000);
  EXPECT_EQ(get(convert(-0.0, ts::kDouble, ts::kInt)), 0);
}

TEST(CopyConvert, HalfOverflowAndSubnormals) {
  // 65504 is half's max; 65520 is the midpoint to 65536 (inf), a tie that rounds to even: inf.
  EXPECT_EQ(get(convert(65519, ts::kDouble, ts::kHalf)), 65504);
  EXPECT_EQ(get(convert(65519.99, ts::kFloat, ts::kHalf)), 65504);
  EXPECT_EQ(get(convert(65520, ts::kDouble, ts::kHalf)), kInf);
  EXPECT_EQ(get(convert(-65520, ts::kFloat, ts::kHalf)), -kInf);
  EXPECT_EQ(get(convert(65520, ts::kLong, ts::kHalf)), kInf);
  EXPECT_EQ(get(convert(1e300, ts::kDouble, ts::kHalf)), kInf);
  // The smallest subnormal is 2^-24 (5.96e-8): 1e-8 is below half of it, 3e-8 above.
  EXPECT_EQ(bits16(convert(1e-8, ts::kDouble, ts::kHalf)), 0x0000);
  EXPECT_EQ(bits16(convert(3e-8, ts::kDouble, ts::kHalf)), 0x0001);
  EXPECT_EQ(bits16(convert(1e-7, ts::kFloat, ts::kHalf)), 0x0002);  // 1.68 * 2^-24 -> 2
  EXPECT_EQ(get(convert(std::ldexp(1.0, -24), ts::kHalf, ts::kDouble)), std::ldexp(1.0, -24));
  EXPECT_TRUE(std::isnan(get(convert(kNaN, ts::kDouble, ts::kHalf))));
}

TEST(CopyConvert, BFloat16RoundsTiesToEven) {
  // bfloat16 keeps 8 significant bits: the ulp at 1 is 2^-7.
  EXPECT_EQ(get(convert(1 + std::ldexp(1.0, -8), ts::kDouble, ts::kBFloat16)), 1.0);
  EXPECT_EQ(get(convert(1 + 3 * std::ldexp(1.0, -8), ts::kFloat, ts::kBFloat16)),
            1 + std::ldexp(1.0, -6));
  EXPECT_EQ(get(convert(1 + 3 * std::ldexp(1.0, -9), ts::kDouble, ts::kBFloat16)),
            1 + std::ldexp(1.0, -7));  // above the midpoint
  EXPECT_EQ(get(convert(3e38, ts::kDouble, ts::kBFloat16)),
            std::ldexp(113.0, 121));  // 225.69 -> 226 / 128
  EXPECT_EQ(get(convert(3.4e38, ts::kFloat, ts::kBFloat16)), kInf);
  EXPECT_TRUE(std::isnan(get(convert(kNaN, ts::kFloat, ts::kBFloat16))));
  // half 65504 = 0xFFE0 needs 11 bits; 8 of them round up to 65536.
  EXPECT_EQ(get(convert(65504, ts::kHalf, ts::kBFloat16)), 65536);
  EXPECT_EQ(get(convert(3e38, ts::kBFloat16, ts::kHalf)), kInf);
}

TEST(CopyConvert, DoubleRoundsOnceToHalfAndBFloat16) {
  // Through float these would first lose the 2^-40 and then tie down to 1.
  const double tiny = std::ldexp(1.0, -40);
  EXPECT_EQ(get(convert(1 + std::ldexp(1.0, -8) + tiny, ts::kDouble, ts::kBFloat16)),
            1 + std::ldexp(1.0, -7));
  EXPECT_EQ(get(convert(1 + std::ldexp(1.0, -11) + tiny, ts::kDouble, ts::kHalf)),
            1 + std::ldexp(1.0, -10));
}

TEST(CopyConvert, LargeIntegersRoundOnce) {
  const int64_t big = (int64_t{1} << 60) + (int64_t{1} << 36) + 1;
  Tensor src = make_long({big, INT64_MIN, INT64_MAX, 16777217, 16842753});
  Tensor f = ts::empty({5}, ts::kFloat);
  f.copy_(src);
  // Just above the midpoint between 2^60 and 2^60 + 2^37 (float's ulp there): rounds up.
  EXPECT_EQ(get(f, 0), std::ldexp(1.0, 60) + std::ldexp(1.0, 37));
  EXPECT_EQ(get(f, 1), -std::ldexp(1.0, 63));
  EXPECT_EQ(get(f, 2), std::ldexp(1.0, 63));
  EXPECT_EQ(get(f, 3), 16777216);  // 2^24 + 1: a tie, to even
  Tensor d = ts::empty({5}, ts::kDouble);
  d.copy_(src);
  EXPECT_EQ(get(d, 0), std::ldexp(1.0, 60) + std::ldexp(1.0, 36));  // double's ulp is 2^8
  EXPECT_EQ(get(d, 3), 16777217);
  // 2^24 + 2^16 + 1 to bfloat16 (ulp 2^17 there) is above the midpoint. PyTorch goes through
  // float32 (a tie at 2^24 + 2^16) and gives 2^24; touchstone rounds once.
  Tensor b = ts::empty({5}, ts::kBFloat16);
  b.copy_(src);
  EXPECT_EQ(get(b, 4), 16908288);
  Tensor back = ts::empty({3}, ts::kLong);
  back.copy_(make(ts::kDouble, {std::ldexp(1.0, 62), -4.5e15, 1e15}));
  EXPECT_EQ(long_values(back)[0], int64_t{1} << 62);
  EXPECT_EQ(long_values(back)[1], -4500000000000000);
}

TEST(CopyConvert, BoolAndReducedFloatSources) {
  Tensor f = ts::empty({2}, ts::kFloat);
  f.copy_(make(ts::kBool, {1, 0}));
  EXPECT_EQ(values(f), (std::vector<double>{1, 0}));
  // bfloat16 0x3EAB = 0.333984375 is exact in half (11 bits).
  Tensor bf = ts::empty({1}, ts::kBFloat16);
  std::memcpy(bf.data_ptr(), "\xAB\x3E", 2);
  Tensor h = ts::empty({1}, ts::kHalf);
  h.copy_(bf);
  EXPECT_EQ(get(h), 0.333984375);
}

// ---- copy_: layouts ----

TEST(Copy, BroadcastsSrcToSelf) {
  Tensor dst = ts::empty({2, 3}, ts::kFloat);
  dst.copy_(make(ts::kInt, {1, 2, 3}));
  EXPECT_EQ(values(dst), (std::vector<double>{1, 2, 3, 1, 2, 3}));
  dst.copy_(make(ts::kDouble, {7, 8}, {2, 1}));
  EXPECT_EQ(values(dst), (std::vector<double>{7, 7, 7, 8, 8, 8}));
  dst.copy_(make(ts::kHalf, {-1.5}, {}));  // 0-dim src
  EXPECT_EQ(values(dst), std::vector<double>(6, -1.5));
}

TEST(Copy, NonContiguousSelfAndSrc) {
  // self: the transpose of a 3x2 buffer; src: every other element of a 12-element buffer.
  Tensor base = make(ts::kDouble, {0, 0, 0, 0, 0, 0}, {3, 2});
  Tensor self = ts::make_view(base, {2, 3}, {1, 2}, 0);
  Tensor buf = make(ts::kInt, {1, -1, 2, -1, 3, -1, 4, -1, 5, -1, 6, -1});
  Tensor src = ts::make_view(buf, {2, 3}, {6, 2}, 0);
  self.copy_(src);
  EXPECT_EQ(values(self), (std::vector<double>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(values(base), (std::vector<double>{1, 4, 2, 5, 3, 6}));
  // An expanded (stride 0) src is read, not written: fine.
  Tensor one = make(ts::kFloat, {9});
  self.copy_(one.expand({2, 3}));
  EXPECT_EQ(values(base), std::vector<double>(6, 9));
}

TEST(Copy, ThroughViewOps) {
  // Transposed self, transposed and step-sliced src: base ends up equal to src's rows.
  Tensor base = make(ts::kFloat, std::vector<double>(6, 0), {2, 3});
  Tensor src = make(ts::kInt, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, {2, 6}).slice(1, 0, 6, 2);
  base.t().copy_(src.t());
  EXPECT_EQ(values(base), (std::vector<double>{0, 2, 4, 6, 8, 10}));
  base.select(0, 1).copy_(make(ts::kDouble, {-1}, {}));
  EXPECT_EQ(values(base), (std::vector<double>{0, 2, 4, -1, -1, -1}));
}

TEST(Copy, ZeroDimAndEmpty) {
  Tensor s = make(ts::kLong, {0}, {});
  s.copy_(make(ts::kFloat, {-7.9}, {}));
  EXPECT_EQ(get(s), -7);
  // A 1-element src of rank 1 would grow a 0-dim self: an error, as in ATen.
  EXPECT_ERROR(s.copy_(make(ts::kFloat, {5})),
               "copy_: output with shape [] doesn't match the broadcast shape [1]");
  EXPECT_EQ(get(s), -7);
  Tensor e = ts::empty({2, 0}, ts::kHalf);
  EXPECT_TRUE(e.copy_(ts::empty({0}, ts::kBool)).is_same(e));
  EXPECT_EQ(e.numel(), 0);
}

// ---- copy_: the optimized set's loops (Note [copy_ loops] in optimized/cpu/copy.cpp) ----

// `dst.copy_(src)` on the optimized set (when built in); its values must equal `want(i, j)`
// (NaN: any NaN).
template <class F>
void expect_optimized_copy(const Tensor& dst, const Tensor& src, F want) {
  if (!ts::find_kernel_set("optimized")) GTEST_SKIP() << "no optimized kernel set";
  const ts::KernelSetGuard g("optimized");
  dst.copy_(src);
  const int64_t rows = dst.size(0), cols = dst.size(1);
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j) {
      const double got = get(dst, i * cols + j), w = want(i, j);
      if (std::isnan(w)) {
        ASSERT_TRUE(std::isnan(got)) << "at " << i << ", " << j;
      } else {
        ASSERT_EQ(got, w) << "at " << i << ", " << j;
      }
    }
  }
}

TEST(CopyOptimized, TransposedSourceInTilesAndTails) {
  // 100 x 70 (not multiples of the 64-element tile): dst[i][j] = base[j][i] = 100 j + i.
  // 103 x 69: tails of 39 and 5, not multiples of the 4 x 4 blocks of 4-byte types either.
  for (const auto& [rows, cols] : {std::pair<int64_t, int64_t>{100, 70}, {103, 69}}) {
    for (ScalarType t : {ts::kFloat, ts::kDouble, ts::kInt, ts::kLong, ts::kShort}) {
      const Tensor src = iota({cols, rows}, t).t();
      Tensor dst = ts::empty({rows, cols}, t);
      expect_optimized_copy(dst, src, [rows = rows](int64_t i, int64_t j) {
        return static_cast<double>(rows * j + i);
      });
    }
  }
}

TEST(CopyOptimized, TransposedSourceSplitAcrossThreads) {
  // 69000 elements (above the iterator's grain): chunks start and end mid-row on 2 threads.
  const int saved = ts::get_num_threads();
  ts::set_num_threads(2);
  Tensor dst = ts::empty({300, 230}, ts::kFloat);
  expect_optimized_copy(dst, iota({230, 300}, ts::kFloat).t(),
                        [](int64_t i, int64_t j) { return static_cast<double>(300 * j + i); });
  ts::set_num_threads(saved);
}

TEST(CopyOptimized, TransposedSourceConverts) {
  // double -> float rounds once; 0.1 + k is not exact in float, so compare with one cast each.
  Values v(130 * 70);
  for (size_t k = 0; k < v.size(); ++k) v[k] = 0.1 + static_cast<double>(k);
  const Tensor src = make(ts::kDouble, v, {70, 130}).t();
  Tensor dst = ts::empty({130, 70}, ts::kFloat);
  expect_optimized_copy(dst, src, [&](int64_t i, int64_t j) {
    return static_cast<double>(static_cast<float>(v[static_cast<size_t>(130 * j + i)]));
  });
  // A 3-D permutation: dims 0 and 1 of dst coalesce (210 rows of stride 80), transposed.
  if (!ts::find_kernel_set("optimized")) GTEST_SKIP() << "no optimized kernel set";
  const Tensor base = iota({3, 70, 80}, ts::kLong);
  Tensor out = ts::empty({80, 3, 70}, ts::kDouble);
  {
    const ts::KernelSetGuard g("optimized");
    out.copy_(base.permute({2, 0, 1}));
  }
  for (int64_t a = 0; a < 80; ++a) {
    for (int64_t b = 0; b < 3; ++b) {
      for (int64_t c = 0; c < 70; ++c) {
        ASSERT_EQ(get(out, (a * 3 + b) * 70 + c), static_cast<double>(b * 5600 + c * 80 + a));
      }
    }
  }
}

TEST(CopyOptimized, ExpandedSources) {
  // A column expanded along the rows (inner stride 0) and a row expanded down the columns.
  const Tensor col = make(ts::kFloat, {1.5, -0.0, kNaN, 7}, {4, 1});
  Tensor dst = ts::empty({4, 100}, ts::kFloat);
  expect_optimized_copy(dst, col.expand({4, 100}), [&](int64_t i, int64_t) { return get(col, i); });
  for (int64_t j = 0; j < 100; ++j) {
    EXPECT_TRUE(signbit_at(dst, 100 + j));
    EXPECT_TRUE(std::isnan(get(dst, 200 + j)));
  }
  // Converting: double 0.1 rounds once to float16 (0x2E66), then fills the row; so does
  // 1 + 2^-11 + 2^-40 (to 1 + 2^-10; through float it would tie down to 1).
  Tensor half = ts::empty({3, 50}, ts::kHalf);
  const double tenth = 0.0999755859375, above_tie = 1 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  expect_optimized_copy(half, make(ts::kDouble, {0.1, above_tie, -3}, {3, 1}).expand({3, 50}),
                        [&](int64_t i, int64_t) {
                          return i == 0 ? tenth : i == 1 ? 1 + std::ldexp(1.0, -10) : -3;
                        });
  for (int64_t j = 0; j < 50; ++j) EXPECT_EQ(bits16(half, j), 0x2E66);
  const Tensor row = iota({1, 80}, ts::kShort);
  Tensor rows = ts::empty({5, 80}, ts::kInt);
  expect_optimized_copy(rows, row.expand({5, 80}),
                        [](int64_t, int64_t j) { return static_cast<double>(j); });
  // A 0-dim source broadcast to a strided (transposed) destination.
  Tensor base = ts::empty({40, 30}, ts::kDouble);
  Tensor tdst = base.t();
  expect_optimized_copy(tdst, make(ts::kInt, {-4}, {}), [](int64_t, int64_t) { return -4.0; });
}

TEST(CopyOptimized, SlicedSourcesAndDestinations) {
  // Every other column of a 6 x 200 matrix, and a step-3 slice of its rows.
  const Tensor base = iota({6, 200}, ts::kFloat);
  Tensor dst = ts::empty({6, 100}, ts::kFloat);
  expect_optimized_copy(dst, base.slice(1, 0, 200, 2),
                        [](int64_t i, int64_t j) { return static_cast<double>(200 * i + 2 * j); });
  Tensor d2 = ts::empty({2, 200}, ts::kDouble);
  expect_optimized_copy(d2, base.slice(0, 1, 6, 3), [](int64_t i, int64_t j) {
    return static_cast<double>(200 * (1 + 3 * i) + j);
  });
  // A sliced destination (the middle of a padded buffer), contiguous source.
  Tensor padded = ts::zeros({8, 70}, ts::kFloat);
  Tensor mid = padded.slice(0, 1, 7).slice(1, 3, 67);
  expect_optimized_copy(mid, iota({6, 64}, ts::kFloat),
                        [](int64_t i, int64_t j) { return static_cast<double>(64 * i + j); });
  EXPECT_EQ(get(padded, 3), 0);        // row 0: padding
  EXPECT_EQ(get(padded, 70 + 2), 0);   // row 1, left of the copy
  EXPECT_EQ(get(padded, 70 + 4), 1);   // mid[0][1]
  EXPECT_EQ(get(padded, 70 + 67), 0);  // right of the copy
  EXPECT_EQ(get(padded, 7 * 70 + 5), 0);
  // Views copied onto other views of the same elements (rows, columns): unchanged.
  Tensor same = iota({4, 6}, ts::kFloat);
  expect_optimized_copy(same.slice(0, 0, 4, 2), same.slice(0, 0, 4, 2),
                        [](int64_t i, int64_t j) { return static_cast<double>(12 * i + j); });
  expect_optimized_copy(same.slice(1, 0, 6, 2), same.slice(1, 0, 6, 2),
                        [](int64_t i, int64_t j) { return static_cast<double>(6 * i + 2 * j); });
}

TEST(CopyOptimized, StepTwoSlicesInLanes) {
  // Every second element, in lanes of two source vectors (Note [Every second element]): widths
  // around every vector length, from a source whose storage ends at the slice's last element
  // (the last vector may not load past it; ASan sees one element more), even and odd offsets.
  for (ScalarType t : {ts::kFloat, ts::kDouble, ts::kInt, ts::kLong}) {
    for (int64_t n = 1; n <= 70; ++n) {
      Tensor dst = ts::empty({1, n}, t);
      expect_optimized_copy(dst, iota({1, 2 * n - 1}, t).slice(1, 0, 2 * n - 1, 2),
                            [](int64_t, int64_t j) { return static_cast<double>(2 * j); });
      Tensor rows = ts::empty({3, n}, t);
      expect_optimized_copy(
          rows, iota({3, 2 * n}, t).slice(1, 1, 2 * n, 2),
          [n](int64_t i, int64_t j) { return static_cast<double>(2 * n * i + 2 * j + 1); });
    }
  }
}

TEST(CopyOptimized, ZeroDimAndEmpty) {
  if (!ts::find_kernel_set("optimized")) GTEST_SKIP() << "no optimized kernel set";
  const ts::KernelSetGuard g("optimized");
  Tensor s = make(ts::kHalf, {0}, {});
  s.copy_(make(ts::kDouble, {0.1}, {}));
  EXPECT_EQ(bits16(s), 0x2E66);
  Tensor e = ts::empty({0, 40}, ts::kFloat);
  e.copy_(ts::empty({40, 0}, ts::kDouble).t());
  EXPECT_EQ(e.numel(), 0);
}

TEST(Copy, OntoItselfIsANoOp) {
  Tensor t = make(ts::kFloat, {1, 2, 3});
  EXPECT_TRUE(t.copy_(t).is_same(t));
  EXPECT_EQ(values(t), (std::vector<double>{1, 2, 3}));
  // Another handle on the same memory, even an internally overlapping one, is the same data.
  Tensor e = t.expand({2, 3});
  Tensor alias = ts::make_view(e, {2, 3}, {0, 1}, 0);
  EXPECT_NO_THROW(e.copy_(alias));
  EXPECT_EQ(values(t), (std::vector<double>{1, 2, 3}));
}

TEST(Copy, ReturnsSelf) {
  Tensor t = ts::empty({2}, ts::kInt);
  Tensor& r = t.copy_(make(ts::kInt, {4, 5}));
  EXPECT_TRUE(r.is_same(t));
}

// ---- copy_: errors (and the tensors they leave untouched) ----

TEST(CopyErrors, ShapeMismatch) {
  Tensor dst = make(ts::kFloat, {1, 2});
  EXPECT_ERROR(dst.copy_(make(ts::kFloat, {1, 2, 3})),
               "copy_: The size of tensor a (2) must match the size of tensor b (3) at "
               "non-singleton dimension 0");
  EXPECT_ERROR(dst.copy_(make(ts::kFloat, {1, 2, 3, 4}, {2, 2})),
               "copy_: output with shape [2] doesn't match the broadcast shape [2, 2]");
  EXPECT_EQ(values(dst), (std::vector<double>{1, 2}));
}

TEST(CopyErrors, UndefinedTensors) {
  Tensor dst = make(ts::kFloat, {1});
  EXPECT_ERROR(dst.copy_(Tensor()), "copy_: expected a defined tensor for argument 'src'");
  EXPECT_ERROR(Tensor().copy_(dst), "copy_: expected a defined tensor for argument 'self'");
}

TEST(CopyErrors, InternalOverlapInSelf) {
  Tensor base = make(ts::kFloat, {1, 2, 3});
  Tensor expanded = base.expand({2, 3});
  EXPECT_ERROR(expanded.copy_(make(ts::kFloat, {7, 8, 9, 10, 11, 12}, {2, 3})),
               "copy_: unsupported operation: more than one element of the written-to tensor "
               "(argument 'self') refers to a single memory location");
  EXPECT_EQ(values(base), (std::vector<double>{1, 2, 3}));
}

TEST(CopyErrors, PartialOverlapWithSrc) {
  Tensor base = make(ts::kFloat, {1, 2, 3, 4});
  Tensor head = ts::make_view(base, {3}, {1}, 0);
  Tensor tail = ts::make_view(base, {3}, {1}, 1);
  EXPECT_ERROR(head.copy_(tail),
               "copy_: unsupported operation: some elements of the input tensor (argument 'src') "
               "and the written-to tensor (argument 'self') refer to a single memory location");
  // The transpose of the same memory overlaps it partially too (as in ATen).
  Tensor square = ts::make_view(base, {2, 2}, {2, 1}, 0);
  EXPECT_ERROR(square.copy_(ts::make_view(base, {2, 2}, {1, 2}, 0)),
               "some elements of the input tensor (argument 'src') and the written-to tensor");
  EXPECT_EQ(values(base), (std::vector<double>{1, 2, 3, 4}));
  // Disjoint views of one storage are fine.
  ts::make_view(base, {2}, {1}, 0).copy_(ts::make_view(base, {2}, {1}, 2));
  EXPECT_EQ(values(base), (std::vector<double>{3, 4, 3, 4}));
}

// ---- clone, contiguous, to ----

TEST(Clone, CopiesIntoNewMemory) {
  Tensor t = make(ts::kHalf, {1.5, -2, 3}, {3});
  Tensor c = ts::clone(t);
  EXPECT_EQ(c.dtype(), ts::kHalf);
  EXPECT_NE(c.data_ptr(), t.data_ptr());
  EXPECT_EQ(values(c), (std::vector<double>{1.5, -2, 3}));
  c.fill_(0);
  EXPECT_EQ(values(t), (std::vector<double>{1.5, -2, 3}));
  EXPECT_EQ(values(t.clone()), (std::vector<double>{1.5, -2, 3}));
}

TEST(Clone, KeepsADenseTransposedLayout) {
  Tensor base = make(ts::kInt, {1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor t = ts::make_view(base, {3, 2}, {1, 3}, 0);
  Tensor c = t.clone();
  EXPECT_EQ(c.strides(), ts::IntArrayRef({1, 3}));
  EXPECT_EQ(values(c), (std::vector<double>{1, 4, 2, 5, 3, 6}));
  // A zero-dim and an expanded tensor clone to contiguous memory.
  Tensor e = make(ts::kBool, {1, 0}).expand({3, 2});
  Tensor ce = e.clone();
  EXPECT_TRUE(ce.is_contiguous());
  EXPECT_EQ(values(ce), (std::vector<double>{1, 0, 1, 0, 1, 0}));
  EXPECT_EQ(get(make(ts::kBFloat16, {2.5}, {}).clone()), 2.5);
  EXPECT_ERROR(ts::clone(Tensor()), "clone: expected a defined tensor");
}

TEST(Contiguous, ReturnsSelfOrAContiguousCopy) {
  Tensor t = make(ts::kFloat, {1, 2, 3, 4, 5, 6}, {2, 3});
  EXPECT_TRUE(t.contiguous().is_same(t));
  EXPECT_TRUE(ts::contiguous(t).is_same(t));
  Tensor tr = ts::make_view(t, {3, 2}, {1, 3}, 0);
  Tensor c = tr.contiguous();
  EXPECT_FALSE(c.is_same(tr));
  EXPECT_TRUE(c.is_contiguous());
  EXPECT_EQ(c.strides(), ts::IntArrayRef({2, 1}));
  EXPECT_EQ(values(c), (std::vector<double>{1, 4, 2, 5, 3, 6}));
  Tensor stepped = ts::make_view(t, {3}, {2}, 0);  // elements 0, 2, 4
  EXPECT_EQ(values(stepped.contiguous()), (std::vector<double>{1, 3, 5}));
}

TEST(To, ConvertsOrReturnsSelf) {
  Tensor t = make(ts::kFloat, {1.75, -0.5, 300});
  EXPECT_TRUE(t.to(ts::kFloat).is_same(t));
  Tensor copy = t.to(ts::kFloat, /*copy=*/true);
  EXPECT_FALSE(copy.is_same(t));
  EXPECT_NE(copy.data_ptr(), t.data_ptr());
  EXPECT_EQ(values(copy), values(t));
  Tensor i = t.to(ts::kInt);
  EXPECT_EQ(i.dtype(), ts::kInt);
  EXPECT_EQ(values(i), (std::vector<double>{1, 0, 300}));
  EXPECT_EQ(values(t.to(ts::kBool)), (std::vector<double>{1, 1, 1}));
  EXPECT_EQ(values(t.to(ts::kByte)), (std::vector<double>{1, 0, 44}));
  // A transposed input keeps its layout.
  Tensor tr = ts::make_view(make(ts::kFloat, {1, 2, 3, 4}, {2, 2}), {2, 2}, {1, 2}, 0);
  Tensor d = tr.to(ts::kDouble);
  EXPECT_EQ(d.strides(), ts::IntArrayRef({1, 2}));
  EXPECT_EQ(values(d), (std::vector<double>{1, 3, 2, 4}));
}

// ---- fill_ and zero_ ----

TEST(Fill, CastsTheValueToSelfsDtype) {
  Tensor i = ts::empty({3}, ts::kInt);
  i.fill_(2.7);
  EXPECT_EQ(values(i), std::vector<double>(3, 2));
  i.fill_(-2.7);
  EXPECT_EQ(values(i), std::vector<double>(3, -2));
  Tensor b = ts::empty({2}, ts::kBool);
  b.fill_(0.5);
  EXPECT_EQ(values(b), std::vector<double>(2, 1));
  b.fill_(false);
  EXPECT_EQ(values(b), std::vector<double>(2, 0));
  Tensor u = ts::empty({2}, ts::kByte);
  u.fill_(-1);  // a negative integer wraps into uint8, as c10's checked_convert allows
  EXPECT_EQ(values(u), std::vector<double>(2, 255));
  Tensor h = ts::empty({2}, ts::kHalf);
  h.fill_(1.0 / 3);
  EXPECT_EQ(bits16(h, 1), 0x3555);  // 0.333251953125
  h.fill_(-std::numeric_limits<double>::infinity());
  EXPECT_EQ(get(h), -kInf);
  Tensor bf = ts::empty({1}, ts::kBFloat16);
  bf.fill_(1.0 / 3);
  EXPECT_EQ(bits16(bf), 0x3EAB);
  Tensor f = ts::empty({1}, ts::kFloat);
  f.fill_(true);
  EXPECT_EQ(get(f), 1);
  f.fill_(kNaN);
  EXPECT_TRUE(std::isnan(get(f)));
  Tensor l = ts::empty({1}, ts::kLong);
  l.fill_(INT64_MIN);
  EXPECT_EQ(long_values(l)[0], INT64_MIN);
  Tensor d = ts::empty({1}, ts::kDouble);
  d.fill_(int64_t{9007199254740993});  // 2^53 + 1, a tie: to even
  EXPECT_EQ(get(d), 9007199254740992.0);
}

TEST(Fill, TheValueRoundsOnce) {
  // As copy_ (CopyConvert.DoubleRoundsOnceToHalfAndBFloat16, LargeIntegersRoundOnce): through
  // float32 the first two would tie down to 1 and the third to 2^24.
  Tensor h = ts::empty({2}, ts::kHalf);
  h.fill_(1 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40));
  EXPECT_EQ(values(h), std::vector<double>(2, 1 + std::ldexp(1.0, -10)));
  Tensor b = ts::empty({2}, ts::kBFloat16);
  b.fill_(1 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40));
  EXPECT_EQ(values(b), std::vector<double>(2, 1 + std::ldexp(1.0, -7)));
  b.fill_(int64_t{16842753});  // 2^24 + 2^16 + 1: above the midpoint of bfloat16's 2^17 ulp
  EXPECT_EQ(values(b), std::vector<double>(2, 16908288));
}

TEST(Fill, EveryDtypeAndLayout) {
  for (ScalarType t : kAll) {
    Tensor x = ts::empty({2, 3}, t);
    EXPECT_TRUE(x.fill_(1).is_same(x));
    EXPECT_EQ(values(x), std::vector<double>(6, 1)) << t;
    x.zero_();
    EXPECT_EQ(values(x), std::vector<double>(6, 0)) << t;
  }
  // Only the view's elements are written.
  Tensor base = make(ts::kShort, {1, 2, 3, 4, 5, 6});
  ts::make_view(base, {3}, {2}, 1).fill_(-7);
  EXPECT_EQ(values(base), (std::vector<double>{1, -7, 3, -7, 5, -7}));
  ts::make_view(base, {2}, {3}, 0).zero_();
  EXPECT_EQ(values(base), (std::vector<double>{0, -7, 3, 0, 5, -7}));
  Tensor s = make(ts::kDouble, {1}, {});
  s.fill_(-0.25);
  EXPECT_EQ(get(s), -0.25);
  Tensor e = ts::empty({0, 4}, ts::kFloat);
  EXPECT_NO_THROW(e.fill_(1));
  EXPECT_NO_THROW(e.zero_());
}

TEST(Fill, ExpandedSelfIsAllowed) {
  // Filling is idempotent, so ATen allows internal overlap here (unlike copy_).
  Tensor base = make(ts::kFloat, {1, 2});
  base.expand({3, 2}).fill_(4);
  EXPECT_EQ(values(base), (std::vector<double>{4, 4}));
  base.expand({5, 2}).zero_();
  EXPECT_EQ(values(base), (std::vector<double>{0, 0}));
}

TEST(FillOptimized, RowsOfAViewAndOnlyThem) {
  // Runs of 40 and of 3 inside rows of 50 (constant_pad_nd's border): vector fills per row.
  if (!ts::find_kernel_set("optimized")) GTEST_SKIP() << "no optimized kernel set";
  const ts::KernelSetGuard g("optimized");
  for (ScalarType t : {ts::kByte, ts::kShort, ts::kFloat, ts::kDouble}) {
    Tensor x = ts::zeros({6, 50}, t);
    x.slice(0, 1, 5).slice(1, 5, 45).fill_(3);
    x.slice(0, 1, 5).slice(1, 47, 50).fill_(9);
    const std::vector<double> v = values(x);
    for (int64_t i = 0; i < 6; ++i) {
      for (int64_t j = 0; j < 50; ++j) {
        const bool row = i >= 1 && i < 5;
        const double want = row && j >= 5 && j < 45 ? 3 : (row && j >= 47 ? 9 : 0);
        ASSERT_EQ(v[static_cast<size_t>(50 * i + j)], want) << t << " at " << i << ", " << j;
      }
    }
  }
}

TEST(FillErrors, ValueMustFitTheDtype) {
  Tensor u = make(ts::kByte, {7, 7});
  EXPECT_ERROR(u.fill_(256), "fill_: value cannot be converted to type uint8 without overflow");
  EXPECT_ERROR(u.fill_(-256), "fill_: value cannot be converted to type uint8 without overflow");
  EXPECT_ERROR(u.fill_(-1.0), "value cannot be converted to type uint8");  // floats don't wrap
  EXPECT_EQ(values(u), (std::vector<double>{7, 7}));
  // Any value converts to bool (nonzero is true), as in ATen.
  Tensor b = make(ts::kBool, {0});
  b.fill_(2);
  EXPECT_EQ(values(b), (std::vector<double>{1}));
  b.fill_(0.0);
  b.fill_(1.5);
  EXPECT_EQ(values(b), (std::vector<double>{1}));
  Tensor i = make(ts::kInt, {3});
  EXPECT_ERROR(i.fill_(kNaN), "fill_: value cannot be converted to type int32 without overflow");
  EXPECT_ERROR(i.fill_(int64_t{1} << 31), "value cannot be converted to type int32");
  EXPECT_ERROR(make(ts::kChar, {0}).fill_(-129.0), "value cannot be converted to type int8");
  EXPECT_ERROR(make(ts::kLong, {0}).fill_(1e19), "value cannot be converted to type int64");
  Tensor h = make(ts::kHalf, {1});
  EXPECT_ERROR(h.fill_(65505), "fill_: value cannot be converted to type float16 without overflow");
  EXPECT_ERROR(h.fill_(-1e5), "value cannot be converted to type float16");
  EXPECT_ERROR(make(ts::kFloat, {0}).fill_(1e300), "value cannot be converted to type float32");
  EXPECT_EQ(get(i), 3);
  EXPECT_EQ(get(h), 1);
  EXPECT_ERROR(Tensor().fill_(1), "fill_: expected a defined tensor for argument 'self'");
  // The boundaries themselves fit.
  EXPECT_NO_THROW(u.fill_(255));
  EXPECT_NO_THROW(u.fill_(-255));
  EXPECT_NO_THROW(h.fill_(-65504.0));
  EXPECT_NO_THROW(b.fill_(-1));
}

}  // namespace
