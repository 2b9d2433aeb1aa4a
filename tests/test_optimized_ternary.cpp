// The optimized set's where, lerp, addcmul and masked_fill kernels against the reference set, on
// every dtype, layout and SIMD capability, plus hand-computed values.
#include <functional>

#include "optimized_check.h"
#include "test_util.h"

namespace {

using ts::Tensor;
using namespace ts::testing;  // make, values, kAll, kInf, kNaN, sample, layouts, ...

TEST(OptimizedTernary, WhereOnEveryDtypeAndLayout) {
  const Tensor cond = sample({37, 29}, kBool, 0, 1, 1);
  for (ts::ScalarType dt : kAll) {
    const Tensor a = sample({37, 29}, dt, -50, 50, 2);
    const Tensor b = sample({37, 29}, dt, -50, 50, 3);
    for_each_layout(layouts(cond), [&](const std::string& lc, const Tensor& tc) {
      for_each_layout(layouts(a), [&](const std::string& la, const Tensor& ta) {
        const std::string what = name(dt) + " cond " + lc + " self " + la;
        expect_matches_reference([&] { return ts::where(tc, ta, b); }, "where " + what);
        expect_matches_reference([&] { return ts::where(tc, b, ta.t().t()); }, "where' " + what);
      });
    });
  }
}

TEST(OptimizedTernary, WhereBroadcastScalarsAndMixedDtypes) {
  const Tensor cond = sample({40, 33}, kBool, 0, 1, 4);
  const Tensor x = sample({40, 33}, kFloat, -5, 5, 5);
  expect_matches_reference([&] { return ts::where(cond, x, 0.0); }, "scalar other");
  expect_matches_reference([&] { return ts::where(cond, 2.5, x); }, "scalar self");
  expect_matches_reference(
      [&] {
        return ts::where(cond, sample({40, 33}, ts::kInt), x);
      },
      "int32 self, float32 other");
  expect_matches_reference(
      [&] {
        return ts::where(cond, sample({40, 33}, kHalf), sample({40, 33}, kDouble, -1, 1, 9));
      },
      "half self, double other");
  expect_matches_reference([&] { return ts::where(cond, sample({33}, kHalf), 0.1); },
                           "half row and a double scalar");
  expect_matches_reference(
      [&] {
        return ts::where(sample({40, 1}, kBool, 0, 1, 6), sample({33}, ts::kLong), 7);
      },
      "column condition, row self");
  expect_matches_reference([&] { return ts::where(sample({}, kBool), x, -x); }, "0-dim condition");
  expect_matches_reference(
      [&] {
        return ts::where(ts::empty({0, 3}, kBool), 1.0, ts::empty({3}));
      },
      "empty");
  expect_matches_reference(
      [&] {
        Tensor out = ts::empty({40, 33}, kFloat);
        ts::where_out(out, cond, x, x.neg());
        return out;
      },
      "where_out");
  const Tensor big_cond = sample({300, 257}, kBool, 0, 1, 7);
  expect_matches_reference(
      [&] {
        return ts::where(big_cond, sample({300, 257}, kDouble), sample({257}, kDouble));
      },
      "large (parallel), broadcast other");
  for_each_capability([](const std::string&) {
    const Tensor c = make(kBool, {1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1});
    const Tensor s = iota({17}, ts::kLong);
    EXPECT_TENSOR(ts::where(c, s, -1), ts::kLong, {17},
                  {0, -1, 2, -1, 4, -1, 6, -1, 8, -1, 10, -1, 12, -1, 14, -1, 16});
    EXPECT_TENSOR(ts::where(c, 1.5, make(kFloat, Values(17, kNaN))), kFloat, {17},
                  {1.5, kNaN, 1.5, kNaN, 1.5, kNaN, 1.5, kNaN, 1.5, kNaN, 1.5, kNaN, 1.5, kNaN, 1.5,
                   kNaN, 1.5});
  });
}

TEST(OptimizedTernary, LerpScalarAndTensorWeights) {
  for (ts::ScalarType dt : kFloating) {
    const Tensor s = sample({37, 29}, dt, -5, 5, 1);
    const Tensor e = sample({37, 29}, dt, -5, 5, 2);
    const Tensor w = sample({37, 29}, dt, -1, 2, 3);  // both sides of |weight| < 0.5
    for_each_layout(layouts(s), [&](const std::string& ls, const Tensor& ts_) {
      for_each_layout(layouts(w), [&](const std::string& lw, const Tensor& tw) {
        const std::string what = name(dt) + " start " + ls + " weight " + lw;
        expect_matches_reference([&] { return ts::lerp(ts_, e, tw); }, "lerp " + what);
      });
      expect_matches_reference([&] { return ts::lerp(ts_, e, 0.3); }, "lerp 0.3 " + name(dt) + ls);
      expect_matches_reference([&] { return ts::lerp(e, ts_, 0.75); },
                               "lerp 0.75 " + name(dt) + ls);
      expect_matches_reference([&] { return ts::lerp(ts_, e, 0.1); }, "lerp 0.1 " + name(dt) + ls);
    });
    expect_matches_reference([&] { return ts::lerp(s, e, w.select(0, 0)); }, "broadcast weight");
    expect_matches_reference([&] { return ts::lerp(s, e.select(1, 3).unsqueeze(1), w); },
                             "broadcast end column");
  }
  expect_matches_reference([] { return ts::lerp(sample({}, kFloat), sample({}, kFloat), 0.5); },
                           "0-dim");
  expect_matches_reference(
      [] { return ts::lerp(ts::empty({0}, kHalf), ts::empty({0}, kHalf), ts::empty({0}, kHalf)); },
      "empty");
  expect_matches_reference(
      [] {
        Tensor a = sample({20, 30}, kFloat);
        a.lerp_(sample({20, 30}, kFloat, -1, 1, 8), 0.25);
        return a;
      },
      "lerp_ scalar weight");
  expect_matches_reference(
      [] {
        Tensor a = sample({20, 30}, kHalf).t();
        a.lerp_(sample({30, 20}, kHalf, -1, 1, 8), sample({30, 20}, kHalf, 0, 1, 9));
        return a;
      },
      "lerp_ tensor weight, transposed half");
  expect_matches_reference(
      [] {
        Tensor out = ts::empty({0}, kFloat);
        ts::lerp_out(out, sample({20, 30}, kFloat), sample({20, 30}, kFloat, -1, 1, 2),
                     sample({20, 30}, kFloat, 0, 1, 3));
        return out;
      },
      "lerp_out into an empty out");
  // out= must have the result dtype, a wider one included (ATen).
  EXPECT_THROW(ts::lerp_out(ts::empty({0}, kDouble), sample({2}, kFloat), sample({2}, kFloat),
                            sample({2}, kFloat)),
               ts::Error);
  for_each_capability([](const std::string&) {
    const Tensor s = make(kFloat, {1, 1, 1, 1, 0, kInf});
    const Tensor e = make(kFloat, {3, 3, 3, 3, kNaN, kInf});
    const Tensor w = make(kFloat, {0, 0.25, 0.5, 1, 0.5, 0.5});
    // Exact at both ends: weight 0 gives start, weight 1 gives end.
    EXPECT_TENSOR(ts::lerp(s, e, w), kFloat, {6}, {1, 1.5, 2, 3, kNaN, kNaN});
    EXPECT_TENSOR(ts::lerp(make(kDouble, {0.1, 1e300}), make(kDouble, {0.7, -1e300}), 1.0), kDouble,
                  {2}, {0.7, -1e300});
  });
}

TEST(OptimizedTernary, AddcmulOnEveryDtypeAndLayout) {
  for (ts::ScalarType dt : kAll) {
    if (dt == kBool) continue;
    const Tensor s = sample({37, 29}, dt, -20, 20, 1);
    const Tensor t1 = sample({37, 29}, dt, -20, 20, 2);
    const Tensor t2 = sample({37, 29}, dt, -20, 20, 3);
    const ts::Scalar value = ts::is_floating_type(dt) ? ts::Scalar(0.3) : ts::Scalar(3);
    for_each_layout(layouts(s), [&](const std::string& ls, const Tensor& tss) {
      for_each_layout(layouts(t1), [&](const std::string& l1, const Tensor& tt1) {
        const std::string what = name(dt) + " self " + ls + " tensor1 " + l1;
        expect_matches_reference([&] { return ts::addcmul(tss, tt1, t2, value); },
                                 "addcmul " + what);
      });
    });
  }
  expect_matches_reference(
      [] {
        return ts::addcmul(sample({5, 1}, kFloat), sample({7}, ts::kInt), sample({}, kHalf));
      },
      "broadcast and promotion");
  expect_matches_reference(
      [] {
        Tensor a = sample({300, 257}, kFloat);
        a.addcmul_(sample({300, 257}, kFloat, -1, 1, 4), sample({257}, kFloat, -1, 1, 5), -2);
        return a;
      },
      "addcmul_ large with a broadcast tensor2");
  expect_matches_reference(
      [] {
        Tensor out = ts::empty({0}, ts::kLong);
        ts::addcmul_out(out, sample({20, 30}, ts::kInt), sample({20, 30}, ts::kInt, -9, 9, 2),
                        sample({20, 30}, ts::kInt, -9, 9, 3), 5);
        return out;
      },
      "addcmul_out int32 into int64");
  for_each_capability([](const std::string&) {
    EXPECT_TENSOR(ts::addcmul(make(kFloat, {1, 0, kInf}), make(kFloat, {2, kInf, 1}),
                              make(kFloat, {3, 0, 1}), 2),
                  kFloat, {3}, {13, kNaN, kInf});
    // float64 rounds the product first (Note [addcmul rounding]): DBL_MAX * -2 is -inf, and
    // inf + -inf is NaN; a fused multiply-add would give inf.
    EXPECT_TENSOR(ts::addcmul(make(kDouble, {kInf, 1}), make(kDouble, {1.7976931348623157e308, 2}),
                              make(kDouble, {-2, 3}), 1),
                  kDouble, {2}, {kNaN, 7});
    // int8 wraps: 100 + 2 * 10 * 10 = 300 = 44 (mod 256).
    EXPECT_TENSOR(
        ts::addcmul(make(ts::kChar, {100}), make(ts::kChar, {10}), make(ts::kChar, {10}), 2),
        ts::kChar, {1}, {44});
    const Tensor i64 = make_long({kI64Max});
    EXPECT_EQ(long_values(ts::addcmul(i64, make_long({1}), make_long({1}), 1)),
              (std::vector<int64_t>{kI64Min}));
  });
}

TEST(OptimizedTernary, MaskedFillOnEveryDtypeAndLayout) {
  const Tensor mask = sample({37, 29}, kBool, 0, 1, 1);
  for (ts::ScalarType dt : kAll) {
    const Tensor s = sample({37, 29}, dt, -50, 50, 2);
    const ts::Scalar value = dt == kBool                ? ts::Scalar(true)
                             : ts::is_floating_type(dt) ? ts::Scalar(0.1)
                                                        : ts::Scalar(-7);
    for_each_layout(layouts(s), [&](const std::string& ls, const Tensor& tss) {
      for_each_layout(layouts(mask), [&](const std::string& lm, const Tensor& tm) {
        const std::string what = name(dt) + " self " + ls + " mask " + lm;
        expect_matches_reference([&] { return ts::masked_fill(tss, tm, value); },
                                 "masked_fill " + what);
      });
      expect_matches_reference([&] { return ts::masked_fill(tss, mask.select(0, 2), value); },
                               "masked_fill row mask " + name(dt) + " " + ls);
      expect_matches_reference(
          [&] {
            Tensor a = tss.clone();
            a.masked_fill_(mask, value);
            return a;
          },
          "masked_fill_ " + name(dt) + " " + ls);
    });
  }
  expect_matches_reference(
      [] { return ts::masked_fill(sample({}, kFloat), sample({}, kBool), 1.5); }, "0-dim");
  expect_matches_reference(
      [] {
        return ts::masked_fill(ts::empty({0, 4}, kHalf), ts::empty({4}, kBool), 1.5);
      },
      "empty");
  expect_matches_reference(
      [] {
        return ts::masked_fill(sample({300, 257}, kFloat), sample({257}, kBool, 0, 1, 3), kInf);
      },
      "large, broadcast mask");
  for_each_capability([](const std::string&) {
    // The value is rounded once to self's dtype: 0.1 in float16 is 0.0999755859375.
    EXPECT_TENSOR(ts::masked_fill(make(kHalf, {1, 2}), make(kBool, {0, 1}), 0.1), kHalf, {2},
                  {1, 0.0999755859375});
    EXPECT_TENSOR(ts::masked_fill(make(ts::kInt, {1, 2, 3}), make(kBool, {1, 0, 1}), -2.9),
                  ts::kInt, {3}, {-2, 2, -2});
    EXPECT_TENSOR(ts::masked_fill(make(kBool, {0, 1, 0}), make(kBool, {1, 1, 0}), false), kBool,
                  {3}, {0, 0, 0});
  });
}

TEST(OptimizedTernary, MaskedFillInPlaceOnAnExpandedTensor) {
  // Note [masked_fill_ on expanded tensors]: a location takes the value if any element mapped
  // to it is masked. Large enough for the parallel path, which must not race here.
  const Tensor mask = make(kBool, Values(400 * 300, 0), {400, 300});
  for (int64_t j = 0; j < 300; j += 3) store(element_ptr(mask, 399 * 300 + j), kBool, 1);
  expect_matches_reference(
      [&] {
        Tensor base = ts::zeros({1, 300}, kFloat);
        base.expand({400, 300}).masked_fill_(mask, 5);
        return base;
      },
      "masked_fill_ on an expanded self");
  for_each_capability([&](const std::string&) {
    Tensor base = ts::zeros({1, 300}, kFloat);
    base.expand({400, 300}).masked_fill_(mask, 5);
    const Values v = values(base);
    for (int64_t j = 0; j < 300; ++j) ASSERT_EQ(v[j], j % 3 == 0 ? 5 : 0) << j;
  });
}

}  // namespace
