// The optimized set's index_select, gather, scatter_add, cat, and index_put and put with
// accumulate against the reference set, bit for bit, for every dtype and layout, negative dims,
// int32/int64 indices, 0-dim and empty tensors, out= and in-place forms, every SIMD capability
// and 1, 2 and 3 threads (scatter_add promises the reference's bits on any number of threads:
// Note [Deterministic scatter_add]; index_put and put: Note [Sums by region]).
#include <cmath>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "optimized_check.h"
#include "touchstone/parallel.h"

namespace {

using ts::Tensor;
using namespace ts::testing;  // sample, layouts, kAll, name, expect_same_bits, ...

// Runs `f` under the reference set, then under the optimized set for every supported SIMD
// capability and 1, 2 and 3 threads, and expects the same bits.
void expect_bitwise(const std::function<Tensor()>& f, const std::string& what) {
  Tensor want;
  {
    ts::KernelSetGuard g("reference");
    want = f();
  }
  for_each_capability([&](const std::string& cap) {
    for_each_thread_count({1, 2, 3}, [&](int threads) {
      expect_same_bits(f(), want, what + " [" + cap + ", " + std::to_string(threads) + " threads]");
    });
  });
}

// Index values in [0, n), with repeats, in `dtype` (int64 or int32).
Tensor indices(std::vector<int64_t> sizes, int64_t n, uint64_t seed,
               ts::ScalarType dtype = ts::kLong) {
  return sample(sizes, dtype, 0, static_cast<double>(n), seed);
}

// The same values as `t` (3-D, contiguous) in a permuted layout.
Tensor permuted_layout(const Tensor& t) {
  ts::KernelSetGuard g("reference");
  return t.permute({2, 0, 1}).contiguous().permute({1, 2, 0});
}

// ---- index_select ----

TEST(OptimizedIndexSelect, EveryDtypeLayoutDimAndIndexType) {
  for (ts::ScalarType dt : kAll) {
    const Tensor x = sample({13, 17}, dt, -50, 50, 1);
    for_each_layout(layouts(x), [&](const std::string& layout, const Tensor& t) {
      for (int64_t dim : {0, 1, -1, -2}) {
        const int64_t n = t.size(dim);
        for (ts::ScalarType it : {ts::kLong, ts::kInt}) {
          const Tensor index = indices({9}, n, 2, it);
          const Tensor strided = indices({18}, n, 3, it).slice(0, 0, std::nullopt, 2);
          const std::string what = "index_select " + name(dt) + " " + layout + " dim " +
                                   std::to_string(dim) + " " + name(it);
          expect_bitwise([&] { return ts::index_select(t, dim, index); }, what);
          expect_bitwise([&] { return ts::index_select(t, dim, strided); }, what + " strided");
        }
      }
    });
  }
}

TEST(OptimizedIndexSelect, ThreeDimsLargeZeroDimAndEmpty) {
  const Tensor x3 = permuted_layout(sample({6, 40, 50}, ts::kFloat));
  for (int64_t dim : {0, 1, 2, -1}) {
    const Tensor index = indices({30}, x3.size(dim), 4, ts::kInt);
    expect_bitwise([&] { return ts::index_select(x3, dim, index); }, "3-D permuted");
  }
  const Tensor big = sample({300, 200}, ts::kDouble);  // parallel: 10^5 output elements
  expect_bitwise([&] { return ts::index_select(big, 0, indices({500}, 300, 5)); }, "big dim 0");
  expect_bitwise([&] { return ts::index_select(big, 1, indices({500}, 200, 6)); }, "big dim 1");
  expect_bitwise([&] { return ts::index_select(big.t(), 1, indices({500}, 300, 7)); }, "big t()");

  const Tensor s = sample({}, ts::kHalf);
  const Tensor zero = ts::zeros({}, ts::kLong);
  expect_bitwise([&] { return ts::index_select(s, 0, ts::zeros({1}, ts::kLong)); }, "0-dim self");
  expect_bitwise([&] { return ts::index_select(s, -1, zero); }, "0-dim self and index");
  expect_bitwise([&] { return ts::index_select(big, 1, zero + 3); }, "0-dim index");
  expect_bitwise([&] { return ts::index_select(sample({5}, ts::kChar), 0, zero + 4); }, "1-D");
  expect_bitwise([&] { return ts::index_select(big, 0, ts::empty({0}, ts::kLong)); }, "no index");
  expect_bitwise(
      [&] {
        return ts::index_select(ts::empty({0, 4}), 1, indices({3}, 4, 8));
      },
      "empty self");
}

TEST(OptimizedIndexSelect, OutVariants) {
  const Tensor x = sample({20, 30}, ts::kFloat);
  const Tensor index = indices({25}, 30, 9, ts::kInt);
  const auto select = [&](const Tensor& out) { ts::index_select_out(out, x, 1, index); };
  expect_bitwise(into(empty_out({0}, ts::kFloat), select), "out resized");
  expect_bitwise(into(transposed_out({20, 25}, ts::kFloat), select), "out transposed");
  // ATen 1.13 refuses out= of another dtype ("self and result must have the same scalar type").
  const Tensor longs = sample({20, 30}, ts::kLong, -300, 300);
  expect_bitwise(
      into(empty_out({0}, ts::kLong),
           [&](const Tensor& out) { ts::index_select_out(out, longs, 0, indices({7}, 20, 10)); }),
      "int64 into an empty int64 out");
}

// ---- gather ----

TEST(OptimizedGather, EveryDtypeLayoutAndDim) {
  for (ts::ScalarType dt : kAll) {
    const Tensor x = sample({13, 17}, dt, -50, 50, 11);
    for_each_layout(layouts(x), [&](const std::string& layout, const Tensor& t) {
      for (int64_t dim : {0, 1, -1}) {
        const int64_t n = t.size(dim);
        const std::string what =
            "gather " + name(dt) + " " + layout + " dim " + std::to_string(dim);
        const Tensor same = indices({13, 17}, n, 12);
        // Smaller than self off `dim`, longer than it along `dim`.
        std::vector<int64_t> sizes{5, 7};
        sizes[dim < 0 ? 1 : dim] = 20;
        const Tensor other = indices(sizes, n, 13);
        const Tensor transposed = indices({17, 13}, n, 14).t();
        expect_bitwise([&] { return ts::gather(t, dim, same); }, what);
        expect_bitwise([&] { return ts::gather(t, dim, other); }, what + " other shape");
        expect_bitwise([&] { return ts::gather(t, dim, transposed); }, what + " transposed index");
      }
    });
  }
}

TEST(OptimizedGather, ThreeDimsLargeZeroDimEmptyAndOut) {
  const Tensor x3 = permuted_layout(sample({6, 40, 50}, ts::kDouble));
  for (int64_t dim : {0, 1, 2, -2}) {
    expect_bitwise(
        [&] {
          return ts::gather(x3, dim, indices({6, 30, 50}, x3.size(dim), 15));
        },
        "3-D permuted dim " + std::to_string(dim));
  }
  const Tensor big = sample({400, 300}, ts::kFloat);  // parallel
  expect_bitwise([&] { return ts::gather(big, 0, indices({400, 300}, 400, 16)); }, "big dim 0");
  expect_bitwise([&] { return ts::gather(big, 1, indices({400, 300}, 300, 17)); }, "big dim 1");

  const Tensor zero = ts::zeros({}, ts::kLong);
  expect_bitwise([&] { return ts::gather(sample({}, ts::kInt), 0, zero); }, "0-dim");
  expect_bitwise([&] { return ts::gather(sample({}, ts::kInt), 0, ts::zeros({1}, ts::kLong)); },
                 "0-dim self, 1-D index");
  expect_bitwise([&] { return ts::gather(sample({4}, ts::kFloat), 0, zero + 3); }, "0-dim index");
  expect_bitwise([&] { return ts::gather(big, 1, ts::empty({0}, ts::kLong)); }, "empty index");
  expect_bitwise([&] { return ts::gather(big, 0, ts::empty({0, 300}, ts::kLong)); }, "no rows");
  const Tensor index = indices({9, 30}, 300, 18);
  const auto gather = [&](const Tensor& out) { ts::gather_out(out, big, 1, index); };
  expect_bitwise(into(transposed_out({9, 30}, ts::kFloat), gather), "out transposed");
  expect_bitwise(into(empty_out({0}, ts::kFloat), gather), "out resized");
  // out= must have self's dtype (ATen), a wider one too.
  EXPECT_THROW(gather(ts::empty({0}, ts::kDouble)), ts::Error);
}

// ---- scatter_add ----

// Index rows beyond self's size along dim make every output element collect several sums.
TEST(OptimizedScatterAdd, EveryDtypeLayoutAndDimWithCollisions) {
  for (ts::ScalarType dt : kAll) {
    const Tensor self = sample({13, 17}, dt, -50, 50, 21);
    for_each_layout(layouts(self), [&](const std::string& ls, const Tensor& s) {
      for (int64_t dim : {0, 1, -2}) {
        const int64_t d = dim < 0 ? dim + 2 : dim;
        std::vector<int64_t> sizes{13, 17};
        sizes[d] *= 3;
        const Tensor index = indices(sizes, self.size(d), 22);
        sizes[1 - d] += 2;  // src may be larger than the index
        const Tensor src = sample(sizes, dt, -50, 50, 23);
        const std::string what =
            "scatter_add " + name(dt) + " " + ls + " dim " + std::to_string(dim);
        expect_bitwise([&] { return ts::scatter_add(s, dim, index, src); }, what);
        expect_bitwise(
            [&] {
              return ts::scatter_add(s, dim, index.t().contiguous().t(), src.t().contiguous().t());
            },
            what + " transposed index and src");
        expect_bitwise(into([&] { return s.clone(); },
                            [&](const Tensor& t) { t.scatter_add_(dim, index, src); }),
                       what + " in place");
      }
    });
  }
}

TEST(OptimizedScatterAdd, ManyCollisionsRoundOnceAndIntegersWrap) {
  // 4000 values into 10 slots: float16 sums rounded once, as the reference does.
  for (ts::ScalarType dt : {ts::kHalf, ts::kBFloat16, ts::kFloat, ts::kDouble, ts::kChar, ts::kByte,
                            ts::kShort, ts::kBool}) {
    const Tensor self = sample({10}, dt, -3, 3, 24);
    const Tensor index = indices({4000}, 10, 25);
    const Tensor src = sample({4000}, dt, -100, 100, 26);
    expect_bitwise([&] { return ts::scatter_add(self, 0, index, src); }, "1-D " + name(dt));
  }
  // Hand-computed: 0.1f added 10 times in double is 1.0000000149..., rounded once to 1.0f.
  ts::KernelSetGuard g("optimized");
  const Tensor r = ts::scatter_add(ts::zeros({1}, ts::kFloat), 0, ts::zeros({10}, ts::kLong),
                                   ts::full({10}, 0.1f, ts::kFloat));
  EXPECT_EQ(r.data_ptr<float>()[0], 1.0f);
  const Tensor w = ts::scatter_add(ts::full({1}, 100, ts::kChar), 0, ts::zeros({3}, ts::kLong),
                                   ts::full({3}, 20, ts::kChar));
  EXPECT_EQ(w.data_ptr<int8_t>()[0], static_cast<int8_t>(-96));  // 160 wraps
}

TEST(OptimizedScatterAdd, LargeParallelThreeDimsZeroDimEmptyAndOut) {
  // Parallel over lines: 2000 lines of 40 index elements each.
  const Tensor a = sample({16, 2000}, ts::kDouble);
  const Tensor ia = indices({40, 2000}, 16, 27), sa = sample({40, 2000}, ts::kDouble);
  expect_bitwise([&] { return ts::scatter_add(a, 0, ia, sa); }, "big dim 0");
  const Tensor b = sample({2000, 16}, ts::kHalf);
  const Tensor ib = indices({2000, 40}, 16, 28), sb = sample({2000, 40}, ts::kHalf);
  expect_bitwise([&] { return ts::scatter_add(b, 1, ib, sb); }, "big dim 1");
  // Float sums in a line buffer (Note [Scatter_add in a line buffer]): along dim 0 in groups of
  // 16 lines (2003 columns: a last group of 3), along dim 1 a line at a time; narrower indices.
  const Tensor f = sample({16, 2003}, ts::kFloat);
  expect_bitwise(
      [&] {
        return ts::scatter_add(f, 0, indices({40, 2003}, 16, 34),
                               sample({40, 2003}, ts::kFloat, -1, 1, 35));
      },
      "float32 dim 0");
  expect_bitwise(
      [&] {
        return ts::scatter_add(f, 0, indices({40, 1500}, 16, 36),
                               sample({40, 2003}, ts::kFloat, -1, 1, 37));
      },
      "float32 dim 0, narrower index");
  const Tensor g = sample({2003, 16}, ts::kBFloat16);
  expect_bitwise(
      [&] {
        return ts::scatter_add(g, 1, indices({1500, 40}, 16, 38),
                               sample({2003, 40}, ts::kBFloat16, -1, 1, 39));
      },
      "bfloat16 dim 1, fewer rows");
  const Tensor c = permuted_layout(sample({5, 8, 9}, ts::kDouble));
  for (int64_t dim : {0, 1, 2}) {
    expect_bitwise(
        [&] {
          return ts::scatter_add(c, dim, indices({5, 8, 9}, c.size(dim), 29),
                                 permuted_layout(sample({5, 8, 9}, ts::kDouble, -1, 1, 30)));
        },
        "3-D permuted dim " + std::to_string(dim));
  }
  const Tensor s = sample({}, ts::kFloat), zero = ts::zeros({}, ts::kLong);
  expect_bitwise([&] { return ts::scatter_add(s, 0, zero, sample({}, ts::kFloat, 0, 1, 31)); },
                 "0-dim");
  expect_bitwise(
      [&] { return ts::scatter_add(s, 0, ts::zeros({1}, ts::kLong), sample({1}, ts::kFloat)); },
      "0-dim self, 1-D index and src");
  expect_bitwise([&] { return ts::scatter_add(a, 1, ts::empty({0}, ts::kLong), a); }, "no index");
  expect_bitwise(
      [&] {
        return ts::scatter_add(ts::empty({0, 3}), 0, ts::empty({0, 3}, ts::kLong),
                               ts::empty({0, 3}));
      },
      "empty");
  const Tensor self = sample({12, 7}, ts::kHalf), index = indices({30, 7}, 12, 32);
  const Tensor src = sample({30, 7}, ts::kHalf, -4, 4, 33);
  const auto scatter_add = [&](const Tensor& out) {
    ts::scatter_add_out(out, self, 0, index, src);
  };
  expect_bitwise(into(transposed_out({12, 7}, ts::kHalf), scatter_add), "transposed out");
  EXPECT_THROW(scatter_add(ts::empty({12, 7}, ts::kFloat)), ts::Error);  // self's dtype only
  expect_bitwise(into(empty_out({0}, ts::kHalf), scatter_add), "out resized");
}

// ---- cat and stack ----

TEST(OptimizedCat, EveryDtypeLayoutAndDim) {
  for (ts::ScalarType dt : kAll) {
    const Tensor a = sample({13, 17}, dt, -50, 50, 41);
    const Tensor b = sample({13, 17}, dt, -50, 50, 42);
    for_each_layout(layouts(a), [&](const std::string& la, const Tensor& ta) {
      for_each_layout(layouts(b), [&](const std::string& lb, const Tensor& tb) {
        const std::string what = "cat " + name(dt) + " " + la + " + " + lb;
        for (int64_t dim : {0, 1, -1}) {
          expect_bitwise(
              [&] {
                return ts::cat({ta, tb, ta}, dim);
              },
              what + " dim " + std::to_string(dim));
        }
      });
    });
    const Tensor narrow = sample({13, 4}, dt, -50, 50, 43);
    expect_bitwise(
        [&] {
          return ts::cat({a, narrow, ts::empty({13, 0}, dt), a}, 1);
        },
        "cat uneven " + name(dt));
  }
}

TEST(OptimizedCat, MixedDtypesLegacyEmptyLargeAndManyInputs) {
  const Tensor i = sample({6, 5}, ts::kInt, -1000, 1000);
  const Tensor f = sample({6, 5}, ts::kFloat);
  const Tensor l = ts::full({6, 5}, int64_t{(int64_t{1} << 40) + 3}, ts::kLong);
  const Tensor h = sample({6, 5}, ts::kHalf);
  expect_bitwise([&] { return ts::cat({i, f}, 0); }, "int32 + float32");
  expect_bitwise([&] { return ts::cat({l, h}, 1); }, "int64 + float16 (rounded once)");
  expect_bitwise(
      [&] {
        return ts::cat({sample({6, 5}, ts::kBool), sample({6, 2}, ts::kByte)}, 1);
      },
      "bool + uint8");
  const Tensor legacy = ts::empty({0}, ts::kDouble);
  expect_bitwise(
      [&] {
        return ts::cat({legacy, f, legacy, f.t().contiguous().t()}, 1);
      },
      "legacy empty inputs");
  expect_bitwise([&] { return ts::cat({legacy, legacy}); }, "only legacy empty");
  // Large: the contiguous path splits the output's bytes among threads.
  const Tensor p = sample({8, 100, 64}, ts::kFloat), q = sample({8, 37, 64}, ts::kFloat);
  expect_bitwise([&] { return ts::cat({p, q, p}, 1); }, "large 3-D dim 1");
  expect_bitwise([&] { return ts::cat({p, p}, 0); }, "large 3-D dim 0");
  expect_bitwise([&] { return ts::cat({p, p}, -1); }, "large 3-D dim -1");
  expect_bitwise([&] { return ts::cat({permuted_layout(p), p}, 2); }, "large permuted");
  std::vector<Tensor> many;
  for (int k = 0; k < 60; ++k) many.push_back(sample({300, 1 + k % 3}, ts::kShort, -9, 9, k));
  expect_bitwise([&] { return ts::cat(many, 1); }, "60 inputs");
  expect_bitwise([&] { return ts::stack({f, f.t().contiguous().t(), f}, 1); }, "stack");
}

TEST(OptimizedCat, OutVariants) {
  const Tensor a = sample({7, 9}, ts::kFloat), b = sample({7, 3}, ts::kFloat);
  const auto cat = [&](const Tensor& out) { ts::cat_out(out, {a, b}, 1); };
  expect_bitwise(into(transposed_out({7, 12}, ts::kFloat), cat), "out transposed");
  expect_bitwise(into(empty_out({0}, ts::kDouble), cat), "out float64");
  // int64 -> float32 -> float64.
  const Tensor big = ts::full({7, 9}, int64_t{(int64_t{1} << 30) + 1}, ts::kLong);
  expect_bitwise(into(empty_out({7, 12}, ts::kDouble),
                      [&](const Tensor& out) {
                        ts::cat_out(out, {big, b}, 1);
                      }),
                 "two roundings as the reference");
  expect_bitwise(into(empty_out({0}, ts::kFloat),
                      [&](const Tensor& out) {
                        ts::stack_out(out, {a, a}, 0);
                      }),
                 "stack_out");
}

// ---- index_put and put with accumulate (Note [Sums by region]) ----

// k destinations in [0, n) (a tenth of them negative, as -n..-1), dense in the first and the
// last region of 64K elements and sparse in the region between.
Tensor region_indices(int64_t k, int64_t n, uint64_t seed) {
  Tensor t = ts::empty({k}, ts::kLong);
  int64_t* p = t.data_ptr<int64_t>();
  uint64_t x = seed;
  for (int64_t i = 0; i < k; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    const auto r = static_cast<int64_t>(x >> 33);
    constexpr int64_t kR = 65536;
    int64_t d = i % 1000 == 0 ? kR + r % kR : (i % 2 ? r % kR : 2 * kR + r % (n - 2 * kR));
    if (i % 10 == 3) d -= n;
    p[i] = d;
  }
  return t;
}

TEST(OptimizedIndexPut, SumsByRegionAreTheReferenceBits) {
  // 150000 elements (three regions), 140000 values: two chunks of pairs at 2 and 3 threads, the
  // middle region on the sparse path; every dtype rounds or wraps each sum once.
  constexpr int64_t kRows = 600, kCols = 250, kN = kRows * kCols, kK = 140000;
  const Tensor flat = region_indices(kK, kN, 31);
  Tensor rows, cols;
  {
    ts::KernelSetGuard g("reference");
    const Tensor pos = ts::remainder(flat, kN);
    rows = ts::floor_divide(pos, kCols);
    cols = ts::sub(ts::remainder(pos, kCols), kCols);  // negative column indices
  }
  using L = std::vector<std::optional<Tensor>>;
  // Plain loops, no SIMD target code: 1, 2 and 3 threads under the optimized set's own target.
  const auto check = [](const std::function<Tensor()>& f, const std::string& what) {
    Tensor want;
    {
      ts::KernelSetGuard g("reference");
      want = f();
    }
    ts::KernelSetGuard g("optimized");
    for_each_thread_count({1, 2, 3}, [&](int threads) {
      expect_same_bits(f(), want, what + " [" + std::to_string(threads) + " threads]");
    });
  };
  for (ts::ScalarType dt :
       {ts::kFloat, ts::kDouble, ts::kHalf, ts::kBFloat16, ts::kChar, ts::kLong, ts::kBool}) {
    const Tensor self = sample({kRows, kCols}, dt, -20, 20, 32);
    const Tensor vals = sample({kK}, dt, -20, 20, 33);
    for_each_layout(layouts(self), [&](const std::string& ls, const Tensor& s) {
      const std::string what = name(dt) + " " + ls;
      check([&] { return ts::index_put(s, L{rows, cols}, vals, true); }, "index_put " + what);
      check(into([&] { return s.clone(); },
                 [&](const Tensor& t) {
                   t.index_put_(L{rows, cols}, vals, true);
                 }),
            "index_put_ " + what);
      check([&] { return ts::put(s, flat, vals, true); }, "put " + what);
      check(into([&] { return s.clone(); }, [&](const Tensor& t) { t.put_(flat, vals, true); }),
            "put_ " + what);
    });
    const Tensor line = sample({kN}, dt, -20, 20, 35), one = sample({1}, dt, 1, 5, 34);
    check([&] { return ts::index_put(line, L{flat}, vals, true); }, "1-D " + name(dt));
    check([&] { return ts::index_put(line, L{flat}, one, true); }, "broadcast value " + name(dt));
  }
}

TEST(OptimizedIndexPut, RepeatedDestinationsRoundOnceSinglesAsTheDtype) {
  // Hand-computed, float32 over two regions: repeated terms sum in double and round once (added
  // one by one in float32, 1 + 2^-24 ties back to 1 each time); a single 1 + 2^-24 ties to 1.
  const float u = std::ldexp(1.0f, -24);
  ts::KernelSetGuard g("optimized");
  Tensor x = ts::ones({80000});
  const Tensor index = ts::empty({5}, ts::kLong);
  const int64_t at[] = {79999, 7, 79999, 8, -1};
  std::memcpy(index.data_ptr<int64_t>(), at, sizeof(at));
  x.index_put_({index}, ts::full({5}, u), true);
  const float* p = x.data_ptr<float>();
  // 79999 and -1: 1 + 3 x 2^-24 exactly, halfway between 1 + 2^-23 and 1 + 2^-22: the even one.
  EXPECT_EQ(p[79999], 1.0f + 4 * u);
  EXPECT_EQ(p[7], 1.0f);
  EXPECT_EQ(p[8], 1.0f);
  EXPECT_EQ(p[0], 1.0f);
  // int8 wraps: 100 + 3 x 20 = 160 -> -96; bool sums are any().
  Tensor w = ts::full({80000}, 100, ts::kChar);
  w.put_(index, ts::full({5}, 20, ts::kChar), true);
  EXPECT_EQ(w.data_ptr<int8_t>()[79999], static_cast<int8_t>(-96));
  EXPECT_EQ(w.data_ptr<int8_t>()[7], 120);
  Tensor b = ts::zeros({80000}, ts::kBool);
  b.index_put_({index}, ts::ones({5}, ts::kBool), true);
  EXPECT_TRUE(b.data_ptr<bool>()[79999]);
  EXPECT_FALSE(b.data_ptr<bool>()[0]);
}

TEST(OptimizedIndex, EveryKernelIsRegisteredForTheReferenceDtypes) {
  const auto opt = ts::find_kernel_set("optimized");
  const auto ref = ts::find_kernel_set("reference");
  ASSERT_TRUE(opt && ref);
  for (ts::OpId op :
       {ts::OpId::index_select, ts::OpId::gather, ts::OpId::scatter_add, ts::OpId::cat}) {
    EXPECT_EQ(ts::get_kernel(op, ts::kCPU, *opt).dtypes.bits(),
              ts::get_kernel(op, ts::kCPU, *ref).dtypes.bits())
        << ts::op_info(op).name;
  }
}

}  // namespace
