// The optimized set's reductions and cumsum against the reference set, on every dtype, dim
// combination, layout and SIMD capability; hand-computed values where double accumulation or
// NaN order matters; and bitwise identical results for 1, 2, 3 and 8 threads.
//
// Tolerances: torch.testing.assert_close's defaults for the result dtype (optimized_check.h).
// Both sets accumulate floating values in double, so float32/float16/bfloat16 results differ by at
// most one rounding of the result (an ulp, inside rtol) plus, for float32 sums and means, u sum|x|
// from the float pairs of Note [Float pairs before double]; float64 results differ by the order of
// the double additions, at most about (block + log2 n) * 2^-53 * sum|x| (block <= 4096 terms
// summed in a row), for which float64 sums over n terms get atol = n * max|x| * 2^-40 on top.
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "optimized_check.h"
#include "test_util.h"
#include "touchstone/cpu_capability.h"
#include "touchstone/parallel.h"

namespace {

using ts::Tensor;
using namespace ts::testing;  // sample, layouts, name, kAll, kFloating, kNaN, ...

// Extra absolute tolerance for a float64 result summing n values of magnitude <= mag.
double sum_atol(ts::ScalarType t, int64_t n, double mag) {
  const double base = default_atol(t);
  return t == ts::kDouble ? base + static_cast<double>(n) * mag * std::ldexp(1.0, -40) : base;
}

// `t` (contiguous) with NaN written at every `every`-th element from `first`.
Tensor with_nans(Tensor t, int64_t every, int64_t first = 0) {
  for (int64_t i = first; i < t.numel(); i += every) {
    store(element_ptr(t, i), t.dtype(), kNaN);
  }
  return t;
}

// 3-D inputs in layouts whose reduced dims are not simply innermost or outermost.
Layouts layouts3(const Tensor& t) {
  ts::KernelSetGuard g("reference");
  auto out = layouts(t);
  out.emplace_back("permuted", t.permute({2, 0, 1}).contiguous().permute({1, 2, 0}));
  out.emplace_back("expanded", t.narrow(1, 0, 1).expand(t.sizes()));
  return out;
}

struct DimCase {
  std::vector<int64_t> dims;
  bool keepdim;
};
const std::vector<DimCase> kDims2 = {{{}, false},   {{0}, false},   {{1}, true},
                                     {{-1}, false}, {{0, 1}, true}, {{-2, -1}, false}};
const std::vector<DimCase> kDims3 = {{{0}, false},    {{2}, true},  {{0, 2}, false},
                                     {{-1, 0}, true}, {{1}, false}, {{0, 1, 2}, false}};

std::string dims_name(const DimCase& d) {
  std::string s = "dims [";
  for (int64_t x : d.dims) s += std::to_string(x) + " ";
  return s + "] keepdim " + std::to_string(d.keepdim);
}

// ---- sum, mean, prod ----

TEST(OptimizedReduce, SumMeanProdOnEveryDtypeLayoutAndDims) {
  for (ts::ScalarType dt : kAll) {
    const Tensor a = sample({37, 45}, dt, -8, 8, 1);
    const Tensor small = sample({37, 45}, dt, 0.5, 1.5, 2);  // products stay finite
    for_each_layout(layouts(a), [&](const std::string& la, const Tensor& ta) {
      for (const DimCase& d : kDims2) {
        const std::string what = name(dt) + " " + la + " " + dims_name(d);
        expect_matches_reference([&] { return ts::sum(ta, d.dims, d.keepdim); }, "sum " + what, -1,
                                 sum_atol(dt, 45 * 37, 8));
        if (ts::is_floating_type(dt)) {
          expect_matches_reference([&] { return ts::mean(ta, d.dims, d.keepdim); }, "mean " + what);
        }
      }
    });
    for_each_layout(layouts(small), [&](const std::string& la, const Tensor& t) {
      const std::string what = name(dt) + " " + la;
      expect_matches_reference([&] { return ts::prod(t, 0, false); }, "prod dim 0 " + what);
      expect_matches_reference([&] { return ts::prod(t, -1, true); }, "prod dim -1 " + what);
      expect_matches_reference([&] { return ts::prod(t.narrow(0, 0, 3)); }, "prod all " + what);
    });
  }
}

TEST(OptimizedReduce, SumOverThreeDimsAndLayouts) {
  for (ts::ScalarType dt : {ts::kFloat, ts::kDouble, ts::kHalf, ts::kInt, ts::kBool}) {
    const Tensor a = sample({6, 7, 40}, dt, -4, 4, 3);
    for_each_layout(layouts3(a), [&](const std::string& la, const Tensor& ta) {
      for (const DimCase& d : kDims3) {
        const std::string what = name(dt) + " " + la + " " + dims_name(d);
        expect_matches_reference([&] { return ts::sum(ta, d.dims, d.keepdim); }, "sum " + what, -1,
                                 sum_atol(dt, 6 * 7 * 40, 4));
        if (ts::is_floating_type(dt)) {
          expect_matches_reference([&] { return ts::var(ta, d.dims, 1, d.keepdim); },
                                   "var " + what);
          expect_matches_reference([&] { return ts::amax(ta, d.dims, d.keepdim); }, "amax " + what);
        }
      }
    });
  }
}

TEST(OptimizedReduce, SumDtypeArgumentAndIntegerWrap) {
  const Tensor i32 = sample({30, 20}, ts::kInt, -100, 100, 4);
  const Tensor f = sample({30, 20}, ts::kFloat, -100, 100, 5);
  const Tensor h = sample({30, 20}, ts::kHalf, -4, 4, 6);
  expect_matches_reference([&] { return ts::sum(i32, {1}, false, ts::kChar); }, "int32 -> int8");
  expect_matches_reference([&] { return ts::sum(i32, {0}, false, ts::kBool); }, "int32 -> bool");
  expect_matches_reference([&] { return ts::prod(i32, 1, false, ts::kShort); }, "prod -> int16");
  expect_matches_reference([&] { return ts::sum(f, {0}, false, ts::kLong); }, "float -> int64");
  expect_matches_reference([&] { return ts::sum(i32, {1}, false, ts::kHalf); }, "int32 -> half");
  expect_matches_reference([&] { return ts::mean(h, {1}, false, ts::kDouble); }, "half -> f64");
  expect_matches_reference([&] { return ts::sum(f.t(), {1}, true, ts::kBFloat16); }, "f -> bf16");
  // int64 wraps like two's complement in both sets.
  const Tensor big = make_long({kI64Max, 1, 5}, {3});
  ts::KernelSetGuard g("optimized");
  EXPECT_EQ(long_values(ts::sum(big)), (std::vector<int64_t>{kI64Min + 5}));
}

// Values whose sum needs more precision than the dtype has: only wider accumulation gets them.
TEST(OptimizedReduce, ReducedAndSinglePrecisionSumsAccumulateWide) {
  ts::KernelSetGuard g("optimized");
  // 4096 halves of 1: accumulating in float16 would stop at 2048.
  EXPECT_TENSOR(ts::sum(ts::ones({4096}, ts::kHalf)), ts::kHalf, {}, {4096});
  EXPECT_TENSOR(ts::sum(ts::ones({64, 1000}, ts::kBFloat16), {1}).narrow(0, 0, 1), ts::kBFloat16,
                {1}, {1000});  // bfloat16 would stop at 256
  // 2^24 + 1 + 1 + ... in float32: each 1 alone is lost; together they are 4096.
  Tensor f = ts::ones({4097}, ts::kFloat);
  store(element_ptr(f, 0), ts::kFloat, 16777216.0);
  EXPECT_TENSOR(ts::sum(f), ts::kFloat, {}, {16777216.0 + 4096});
  // Catastrophic cancellation: 1e8 + 1 - 1e8 per row, 3 rows, in float32 gives 1 per row.
  const Tensor c = make(ts::kFloat, {1e8, 1, -1e8, 1e8, 1, -1e8, 1e8, 1, -1e8}, {3, 3});
  EXPECT_TENSOR(ts::sum(c, {1}), ts::kFloat, {3}, {1, 1, 1});
  EXPECT_TENSOR(ts::sum(c.t(), {0}), ts::kFloat, {3}, {1, 1, 1});
  EXPECT_TENSOR(ts::mean(make(ts::kFloat, {1e8, 3, -1e8, 1})), ts::kFloat, {}, {1});
}

// Note [Float pairs before double]: a float32 sum or mean with a float result adds element j of
// each 64 to element j + 32 in float first. x[0] = 2^24, x[32] = 1, x[1] = 1: the reference sums
// 2^24 + 2 (a float32); the pair 2^24 + 1 rounds to 2^24 (a tie, to even), and 2^24 + 1 rounds to
// 2^24 again at the end: 2 below, within conformance's 1 ulp (2) + u sum|x| (1). On every target
// and thread count; a double result takes no pairs.
TEST(OptimizedReduce, Float32SumsAddPairsInFloatFirst) {
  std::vector<double> v(64, 0.0);
  v[0] = 16777216.0, v[32] = 1, v[1] = 1;
  const Tensor x = make(ts::kFloat, v, {64});
  std::vector<double> w(40, 0.0);
  w[0] = 16777216.0, w[32] = 1, w[1] = 1, w[2] = 1;
  const Tensor y = make(ts::kFloat, w, {40});
  {
    ts::KernelSetGuard g("reference");
    EXPECT_TENSOR(ts::sum(x), ts::kFloat, {}, {16777218.0});
    EXPECT_TENSOR(ts::sum(y), ts::kFloat, {}, {16777220.0});
  }
  ts::KernelSetGuard g("optimized");
  for_each_thread_count({1, 2}, [&](int) {
    for_each_capability([&](const std::string& cap) {
      SCOPED_TRACE(cap);
      EXPECT_TENSOR(ts::sum(x), ts::kFloat, {}, {16777216.0});
      EXPECT_TENSOR(ts::mean(x), ts::kFloat, {}, {262144.0});  // the reference: 262144.03125
      EXPECT_TENSOR(ts::sum(x, ts::kDouble), ts::kDouble, {}, {16777218.0});
      // 2 x 64 rows: the pairs count from each row's start.
      EXPECT_TENSOR(ts::sum(ts::cat({x, x}).view({2, 64}), {1}), ts::kFloat, {2},
                    {16777216.0, 16777216.0});
      // A run's last, partial group (40 = 32 + 8) pairs j with j + 32 where that exists:
      // 2^24 + 1 rounds to 2^24 in float, then 2 ones; unpaired, 2^24 + 3 rounds to 2^24 + 4.
      EXPECT_TENSOR(ts::sum(y), ts::kFloat, {}, {16777218.0});
      EXPECT_TENSOR(ts::sum(y, ts::kDouble), ts::kDouble, {}, {16777219.0});
    });
  });
}

// ---- extremes ----

TEST(OptimizedReduce, AmaxAminMaxMinArgmaxOnEveryDtypeLayoutWithTiesAndNaN) {
  for (ts::ScalarType dt : kAll) {
    // Few distinct values: many ties, so the first index must win.
    Tensor a = sample({23, 41}, dt, -3, 3, 7);
    if (ts::is_floating_type(dt)) a = with_nans(a, 97, 5);  // a NaN in some rows and columns
    for_each_layout(layouts(a), [&](const std::string& la, const Tensor& ta) {
      const std::string what = name(dt) + " " + la;
      for (const DimCase& d : kDims2) {
        expect_matches_reference([&] { return ts::amax(ta, d.dims, d.keepdim); },
                                 "amax " + what + dims_name(d));
        expect_matches_reference([&] { return ts::amin(ta, d.dims, d.keepdim); },
                                 "amin " + what + dims_name(d));
      }
      expect_matches_reference([&] { return ts::max(ta); }, "max() " + what);
      expect_matches_reference([&] { return ts::min(ta); }, "min() " + what);
      for (int64_t dim : {0, 1, -1}) {
        for (bool keep : {false, true}) {
          const std::string w =
              what + " dim " + std::to_string(dim) + " keep " + std::to_string(keep);
          expect_matches_reference([&] { return std::get<0>(ts::max(ta, dim, keep)); },
                                   "max values " + w);
          expect_matches_reference([&] { return std::get<1>(ts::max(ta, dim, keep)); },
                                   "max indices " + w);
          expect_matches_reference([&] { return std::get<0>(ts::min(ta, dim, keep)); },
                                   "min values " + w);
          expect_matches_reference([&] { return std::get<1>(ts::min(ta, dim, keep)); },
                                   "min indices " + w);
          if (dt != ts::kBool) {
            expect_matches_reference([&] { return ts::argmax(ta, dim, keep); }, "argmax " + w);
            expect_matches_reference([&] { return ts::argmin(ta, dim, keep); }, "argmin " + w);
          }
        }
      }
      if (dt != ts::kBool) {
        expect_matches_reference([&] { return ts::argmax(ta); }, "argmax all " + what);
        expect_matches_reference([&] { return ts::argmin(ta, std::nullopt, true); },
                                 "argmin all " + what);
      }
    });
  }
}

TEST(OptimizedReduce, ArgmaxGivesTheFirstNaNAndTheFirstTie) {
  ts::KernelSetGuard g("optimized");
  for (ts::ScalarType dt : kFloating) {
    // Long enough for vector lanes and a tail: 5 at 3 and 40, NaN at 17 and 9 (of 45).
    Tensor t = ts::zeros({45}, dt);
    for (int64_t i : {3, 40}) store(element_ptr(t, i), dt, 5);
    EXPECT_EQ(long_values(ts::argmax(t)), std::vector<int64_t>{3}) << name(dt);
    EXPECT_EQ(long_values(ts::argmin(t.neg())), std::vector<int64_t>{3}) << name(dt);
    for (int64_t i : {17, 9}) store(element_ptr(t, i), dt, kNaN);
    EXPECT_EQ(long_values(ts::argmax(t)), std::vector<int64_t>{9}) << name(dt);
    EXPECT_EQ(long_values(ts::argmin(t)), std::vector<int64_t>{9}) << name(dt);
    EXPECT_TRUE(std::isnan(get(ts::amax(t, {0})))) << name(dt);
    EXPECT_TRUE(std::isnan(get(ts::min(t)))) << name(dt);
    // Transposed: the index is PyTorch's row-major one, not the memory order.
    Tensor m = ts::zeros({3, 4}, dt).t();  // 4 x 3, column-major memory
    store(element_ptr(m, 7), dt, 2);       // (2, 1)
    store(element_ptr(m, 5), dt, 2);       // (1, 2): earlier in row-major
    EXPECT_EQ(long_values(ts::argmax(m)), std::vector<int64_t>{5}) << name(dt);
    EXPECT_EQ(long_values(std::get<1>(ts::max(m, 0))), (std::vector<int64_t>{0, 2, 1})) << name(dt);
  }
}

// Note [NaN in a sum of lanes]: four vectors are tested for NaN through their sum, which an
// infinity of each sign in one lane also makes NaN; such a span is scanned again, so
// infinities are told from NaN on every target (+inf at 0, -inf at 4, 8 and 16 share lane 0
// of a group of four vectors of 4, 8 or 16 lanes).
TEST(OptimizedReduce, ExtremesTellOppositeInfinitiesFromNaN) {
  const double inf = std::numeric_limits<double>::infinity();
  for_each_capability([&](const std::string& cap) {
    for (ts::ScalarType dt : {ts::kFloat, ts::kDouble}) {
      Tensor t = ts::zeros({2, 300}, dt);
      for (int64_t r = 0; r < 2; ++r) {
        store(element_ptr(t, r * 300), dt, inf);
        for (int64_t i : {4, 8, 16}) store(element_ptr(t, r * 300 + i), dt, -inf);
      }
      store(element_ptr(t, 300 + 123), dt, kNaN);  // row 1 has a NaN as well
      const std::string what = name(dt) + " [" + cap + "]";
      const Tensor mx = ts::amax(t, {1}), mn = ts::amin(t, {1});
      EXPECT_EQ(get(mx.select(0, 0)), inf) << what;
      EXPECT_EQ(get(mn.select(0, 0)), -inf) << what;
      EXPECT_TRUE(std::isnan(get(mx.select(0, 1))) && std::isnan(get(mn.select(0, 1)))) << what;
      EXPECT_EQ(get(ts::amax(t.select(0, 0))), inf) << what;
      EXPECT_TRUE(std::isnan(get(ts::amin(t)))) << what;
    }
  });
}

// ---- var, std, norm, logsumexp ----

TEST(OptimizedReduce, VarStdNormLogsumexpOnFloatingDtypesLayoutsAndDims) {
  for (ts::ScalarType dt : kFloating) {
    const Tensor a = sample({29, 47}, dt, -3, 5, 8);
    for_each_layout(layouts(a), [&](const std::string& la, const Tensor& ta) {
      for (const DimCase& d : kDims2) {
        const std::string what = name(dt) + " " + la + " " + dims_name(d);
        for (double corr : {0.0, 1.0, 2.5}) {
          expect_matches_reference([&] { return ts::var(ta, d.dims, corr, d.keepdim); },
                                   "var " + what);
          expect_matches_reference([&] { return ts::std(ta, d.dims, corr, d.keepdim); },
                                   "std " + what);
        }
        for (double p : {1.0, 2.0, kInf}) {
          expect_matches_reference([&] { return ts::norm(ta, p, d.dims, d.keepdim); },
                                   "norm " + std::to_string(p) + " " + what);
        }
        expect_matches_reference([&] { return ts::logsumexp(ta, d.dims, d.keepdim); },
                                 "logsumexp " + what);
      }
    });
  }
}

TEST(OptimizedReduce, SpecialValuesInVarNormLogsumexp) {
  // Rows: plain, with +inf, with -inf everywhere, with NaN, with a lone +inf and -infs.
  const Tensor x = make(ts::kFloat, {1,     2,     3, 4,    1, kInf, 3,     4,    -kInf, -kInf,
                                     -kInf, -kInf, 1, kNaN, 3, 4,    -kInf, kInf, -kInf, -kInf},
                        {5, 4});
  for (const Tensor& t : {x, x.to(ts::kDouble), x.to(ts::kHalf), x.t().contiguous().t()}) {
    expect_matches_reference([&] { return ts::logsumexp(t, {1}); }, "logsumexp");
    expect_matches_reference([&] { return ts::var(t, {1}); }, "var");
    expect_matches_reference([&] { return ts::norm(t, kInf, {1}); }, "norm inf");
    expect_matches_reference([&] { return ts::norm(t, 2, {1}); }, "norm 2");
    expect_matches_reference([&] { return ts::amax(t, {1}); }, "amax");
    expect_matches_reference([&] { return ts::prod(t, 1); }, "prod");
  }
  ts::KernelSetGuard g("optimized");
  EXPECT_TENSOR_NEAR(ts::logsumexp(x, {1}).narrow(0, 0, 1), ts::kFloat, {1},
                     {4 + std::log(1 + std::exp(-1.0) + std::exp(-2.0) + std::exp(-3.0))}, 1e-6);
  EXPECT_TENSOR(ts::logsumexp(x, {1}).narrow(0, 1, 4), ts::kFloat, {4}, {kInf, -kInf, kNaN, kInf});
  EXPECT_TENSOR(ts::var(x, {1}).narrow(0, 0, 1), ts::kFloat, {1}, {5.0 / 3}, 1e-6);
  // Correction >= N: var of 1 element with correction 1 is 0 / 0.
  EXPECT_TENSOR(ts::var(make(ts::kFloat, {2}), {0}), ts::kFloat, {}, {kNaN});
}

TEST(OptimizedReduce, LogsumexpOfIntegersAndOutDtypes) {
  const Tensor i = sample({10, 12}, ts::kInt, -5, 5, 9);
  expect_matches_reference([&] { return ts::logsumexp(i, {1}); }, "int -> float");
  expect_matches_reference([&] { return ts::logsumexp(sample({8, 9}, ts::kBool), {0}); }, "bool");
  const Tensor f = sample({10, 12}, ts::kFloat, -5, 5, 10);
  expect_matches_reference(
      [&] {
        Tensor out = ts::empty({10}, ts::kDouble);
        ts::logsumexp_out(out, f, {1});
        return out;
      },
      "logsumexp_out float -> double");
}

// ---- all, any ----

TEST(OptimizedReduce, AllAnyOnEveryDtypeAndLayout) {
  for (ts::ScalarType dt : kAll) {
    // Mostly non-zero (all decides per row) and mostly zero (any decides per row).
    const Tensor mostly = sample({21, 34}, dt, 1, 40, 11);
    Tensor sparse = ts::zeros({21, 34}, dt);
    {
      ts::KernelSetGuard g("reference");
      sparse = ts::where(ts::lt(ts::rand({21, 34}), 0.03), mostly, sparse);
    }
    Tensor holes = mostly.clone();
    for (int64_t k = 0; k < holes.numel(); k += 50) {
      store(element_ptr(holes, k), dt, 0);
    }
    if (ts::is_floating_type(dt)) holes = with_nans(holes, 31, 1);  // NaN is true
    for (const Tensor& t : {holes, sparse}) {
      for_each_layout(layouts(t), [&](const std::string& la, const Tensor& ta) {
        const std::string what = name(dt) + " " + la;
        expect_matches_reference([&] { return ts::all(ta); }, "all " + what);
        expect_matches_reference([&] { return ts::any(ta); }, "any " + what);
        for (int64_t dim : {0, 1}) {
          expect_matches_reference([&] { return ts::all(ta, dim, dim == 1); }, "all dim " + what);
          expect_matches_reference([&] { return ts::any(ta, dim, false); }, "any dim " + what);
        }
      });
    }
  }
  expect_matches_reference(
      [&] {
        Tensor out = ts::empty({34}, ts::kByte);
        ts::any_out(out, sample({21, 34}, ts::kFloat, -1, 1), 0);
        return out;
      },
      "any_out uint8");
}

// ---- cumsum ----

TEST(OptimizedReduce, CumsumOnEveryDtypeLayoutAndDim) {
  for (ts::ScalarType dt : kAll) {
    const Tensor a = sample({19, 33}, dt, -6, 6, 12);
    for_each_layout(layouts(a), [&](const std::string& la, const Tensor& ta) {
      for (int64_t dim : {0, 1, -1}) {
        const std::string what = name(dt) + " " + la + " dim " + std::to_string(dim);
        expect_matches_reference([&] { return ts::cumsum(ta, dim); }, "cumsum " + what, -1,
                                 sum_atol(dt, 33, 6));
      }
    });
  }
  const Tensor i8 = sample({7, 9, 11}, ts::kChar, -100, 100, 13);
  for_each_layout(layouts3(i8), [&](const std::string& la, const Tensor& t) {
    for (int64_t dim : {0, 1, 2}) {
      expect_matches_reference([&] { return ts::cumsum(t, dim); }, "cumsum int8 " + la);
      expect_matches_reference([&] { return ts::cumsum(t, dim, ts::kChar); }, "int8 wrap " + la);
      expect_matches_reference([&] { return ts::cumsum(t, dim, ts::kHalf); }, "int8 -> f16 " + la);
    }
  });
}

TEST(OptimizedReduce, CumsumLongLinesInPiecesInPlaceAndOut) {
  // 40000 > 16384 per line and 3 lines: the piecewise scan.
  for (ts::ScalarType dt : {ts::kFloat, ts::kDouble, ts::kBFloat16, ts::kLong}) {
    const Tensor a = sample({3, 40000}, dt, -1, 1.5, 14);
    expect_matches_reference([&] { return ts::cumsum(a, 1); }, "long lines " + name(dt), -1,
                             sum_atol(dt, 40000, 1.5));
    expect_matches_reference([&] { return ts::cumsum(a.t(), 0); }, "long columns " + name(dt), -1,
                             sum_atol(dt, 40000, 1.5));
  }
  const Tensor b = sample({50, 20}, ts::kFloat, -1, 1, 15);
  expect_matches_reference(
      [&] {
        Tensor t = b.clone();
        t.cumsum_(0);
        return t;
      },
      "cumsum_ dim 0");
  expect_matches_reference(
      [&] {
        Tensor t = b.t().contiguous().t();
        t.cumsum_(1);
        return t;
      },
      "cumsum_ transposed dim 1");
  expect_matches_reference(
      [&] {
        Tensor out = ts::empty({20, 50}, ts::kDouble).t();
        ts::cumsum_out(out, b, 1);
        return out;
      },
      "cumsum_out into transposed float64");
}

// Note [Lines side by side]: 4 lines at a time, each in its own order, so the bits are the
// reference's (double running sums, each output rounded once) for the groups and the tail.
TEST(OptimizedReduce, CumsumLinesSideBySideKeepTheReferenceBits) {
  // 67 lines (16 groups of 4 and 3 more) of 300 elements (a 256-element block and a tail).
  for (ts::ScalarType dt : {ts::kFloat, ts::kDouble, ts::kHalf}) {
    const Tensor a = sample({67, 300}, dt, -100, 100, 16);
    Tensor want;
    {
      ts::KernelSetGuard g("reference");
      want = ts::cumsum(a, 1);
    }
    for_each_capability([&](const std::string& cap) {
      for_each_thread_count({1, 3}, [&](int threads) {
        const std::string what = name(dt) + " [" + cap + "] threads " + std::to_string(threads);
        expect_same_bits(ts::cumsum(a, 1), want, "cumsum " + what);
        Tensor t = a.clone();
        t.cumsum_(1);
        expect_same_bits(t, want, "cumsum_ " + what);
      });
    });
  }
}

// ---- empty, 0-dim, expanded, out= ----

// Note [all and any in lanes]: -0.0 is zero and a NaN is not, for every floating width; rows
// wider than a 512-column block and not a multiple of the lanes; bool and int16 bits.
TEST(OptimizedReduce, AllAnyTestBitsInLanes) {
  for (ts::ScalarType dt : {ts::kFloat, ts::kDouble, ts::kHalf, ts::kBFloat16}) {
    // Rows 0 and 2: -0.0 everywhere but one NaN (row 0) or one 3 (row 2); row 1: all 2.
    Tensor t = ts::full({3, 1100}, -0.0, dt);
    {
      ts::KernelSetGuard g("reference");
      t.select(0, 1).fill_(2.0);
      t.select(0, 0).select(0, 777).fill_(NAN);
      t.select(0, 2).select(0, 1099).fill_(3.0);
    }
    for (int64_t dim : {0, 1}) {
      expect_matches_reference([&] { return ts::all(t, dim); },
                               "all dim " + std::to_string(dim) + " " + name(dt));
      expect_matches_reference([&] { return ts::any(t, dim); },
                               "any dim " + std::to_string(dim) + " " + name(dt));
    }
    // By hand: over dim 1 only row 1 is all non-zero; every row has a non-zero.
    const Tensor all1 = ts::all(t, 1), any1 = ts::any(t, 1);
    EXPECT_FALSE(all1.select(0, 0).item<bool>());
    EXPECT_TRUE(all1.select(0, 1).item<bool>());
    EXPECT_FALSE(all1.select(0, 2).item<bool>());
    EXPECT_TRUE(any1.select(0, 0).item<bool>() && any1.select(0, 2).item<bool>());
    // Over dim 0: column 5 has one non-zero (row 1), so all is false and any true.
    EXPECT_FALSE(ts::all(t, 0).select(0, 5).item<bool>());
    EXPECT_TRUE(ts::any(t, 0).select(0, 5).item<bool>());
    EXPECT_FALSE(ts::any(t.narrow(0, 2, 1), 0).select(0, 5).item<bool>());  // -0.0 alone
  }
  for (ts::ScalarType dt : {ts::kBool, ts::kShort}) {
    const Tensor t = sample({5, 1037}, dt, 0, 2, 41);  // 0 and 1
    for (int64_t dim : {0, 1}) {
      expect_matches_reference([&] { return ts::all(t, dim); }, "all " + name(dt));
      expect_matches_reference([&] { return ts::any(t, dim); }, "any " + name(dt));
    }
  }
}

TEST(OptimizedReduce, EmptyAndZeroDimInputs) {
  const Tensor e = ts::empty({0, 5});
  const Tensor z = sample({}, ts::kFloat, -2, 2, 16);
  const Tensor zi = sample({}, ts::kInt, -5, 5, 17);
  for (const Tensor& t : {e, z, e.to(ts::kInt), zi}) {
    expect_matches_reference([&] { return ts::sum(t); }, "sum");
    expect_matches_reference([&] { return ts::sum(t, {0}, true); }, "sum dim 0");
    expect_matches_reference([&] { return ts::prod(t, 0); }, "prod dim 0");
    expect_matches_reference([&] { return ts::cumsum(t, 0); }, "cumsum");
    expect_matches_reference([&] { return ts::all(t, 0); }, "all");
    expect_matches_reference([&] { return ts::any(t); }, "any");
    if (t.is_floating_point()) {
      expect_matches_reference([&] { return ts::mean(t, {0}); }, "mean (0 / 0 = nan)");
      expect_matches_reference([&] { return ts::var(t, {0}); }, "var");
      expect_matches_reference([&] { return ts::var(t, {0}, -1); }, "var correction -1");
      expect_matches_reference([&] { return ts::norm(t, kInf, {0}); }, "norm inf");
      expect_matches_reference([&] { return ts::norm(t, 2); }, "norm 2");
      expect_matches_reference([&] { return ts::logsumexp(t, {0}); }, "logsumexp");
    }
  }
  for (const auto& t_dim : {std::pair{e.t(), 0}, std::pair{ts::empty({3, 0, 4}), -1}}) {
    const auto& t = t_dim.first;
    const auto& dim = t_dim.second;
    // No outputs at all.
    expect_matches_reference([&] { return ts::amax(t, {dim}); }, "amax of nothing");
    expect_matches_reference([&] { return std::get<1>(ts::max(t, dim)); }, "max dim");
    expect_matches_reference([&] { return ts::argmin(t, dim); }, "argmin dim");
  }
  for (const Tensor& t : {z, zi}) {
    expect_matches_reference([&] { return ts::amax(t); }, "amax 0-dim");
    expect_matches_reference([&] { return std::get<1>(ts::min(t, 0, true)); }, "min 0-dim");
    expect_matches_reference([&] { return ts::argmax(t); }, "argmax 0-dim");
    expect_matches_reference([&] { return ts::max(t); }, "max() 0-dim");
  }
}

TEST(OptimizedReduce, ExpandedInputsAndStridedOutputs) {
  const Tensor row = sample({1, 50}, ts::kFloat, -2, 2, 18);
  const Tensor col = sample({40, 1}, ts::kDouble, -2, 2, 19);
  for (const Tensor& t : {row.expand({40, 50}), col.expand({40, 50})}) {
    for (const DimCase& d : kDims2) {
      expect_matches_reference([&] { return ts::sum(t, d.dims, d.keepdim); }, "sum expanded");
      expect_matches_reference([&] { return ts::logsumexp(t, d.dims); }, "logsumexp expanded");
      expect_matches_reference([&] { return ts::var(t, d.dims); }, "var expanded");
    }
    expect_matches_reference([&] { return ts::argmax(t, 1); }, "argmax expanded");
    expect_matches_reference([&] { return ts::cumsum(t, 0); }, "cumsum expanded");
  }
  const Tensor a = sample({12, 9, 10}, ts::kFloat, -2, 2, 20);
  expect_matches_reference(
      [&] {
        Tensor out = ts::empty({9, 12}).t();  // 12 x 9, column-major
        ts::sum_out(out, a, {2});
        return out;
      },
      "sum_out into a transposed out");
  expect_matches_reference(
      [&] {
        Tensor out = ts::empty({0}, ts::kDouble);
        ts::mean_out(out, a, {0, 2}, true);
        return out;
      },
      "mean_out resizes a float64 out");
  for (int which = 0; which < 2; ++which) {
    expect_matches_reference(
        [&] {
          Tensor values = ts::empty({10, 12}).t(), indices = ts::empty({12, 10}, ts::kLong);
          ts::max_out(values, indices, a, 1);
          return which == 0 ? values : indices;
        },
        "max_out");
  }
  for (auto op : {0, 1, 2, 3, 4}) {
    expect_matches_reference(
        [&] {
          Tensor out = ts::empty({0}, ts::kFloat);
          if (op == 0) ts::amin_out(out, a, {1});
          if (op == 1) ts::var_out(out, a, {1}, 0);
          if (op == 2) ts::norm_out(out, a, 1, {0});
          if (op == 3) ts::prod_out(out, a, 2);
          if (op == 4) {
            out = ts::empty({0}, ts::kLong);
            ts::argmin_out(out, a, 2);
          }
          return out;
        },
        "out= " + std::to_string(op));
  }
}

// Note [Outer column blocks]: blocks of up to 8192 columns, with a narrower last one; (4, 5, 8259)
// over dim 1 takes blocks of 8192 + 67 (four outer slices), (5, 8259) over dim 0 four of 2112.
TEST(OptimizedReduce, WideOuterBlocksAgreeWithTheReference) {
  for (const auto& [shape, reduced] : {std::pair{std::vector<int64_t>{4, 5, 8259}, int64_t{1}},
                                       std::pair{std::vector<int64_t>{5, 8259}, int64_t{0}}}) {
    const int64_t dim = reduced;  // clang 14's lambdas do not capture structured bindings
    for (ts::ScalarType t : {ts::kFloat, ts::kDouble, ts::kHalf, ts::kInt}) {
      const Tensor a = sample(shape, t, -3, 5, 24);
      const std::string what = name(t) + " over dim " + std::to_string(dim);
      expect_matches_reference([&] { return ts::sum(a, {dim}); }, "sum " + what);
      expect_matches_reference([&] { return ts::amax(a, {dim}); }, "amax " + what);
      expect_matches_reference([&] { return ts::argmin(a, dim); }, "argmin " + what);
      expect_matches_reference([&] { return ts::cumsum(a, dim); }, "cumsum " + what);
      if (!ts::is_floating_type(t)) continue;
      expect_matches_reference([&] { return ts::mean(a, {dim}); }, "mean " + what);
      expect_matches_reference([&] { return ts::var(a, {dim}); }, "var " + what);
      expect_matches_reference([&] { return ts::logsumexp(a, {dim}); }, "logsumexp " + what);
    }
  }
}

// ---- thread invariance ----

// Note [Thread-invariance test]
// Large reductions over inner and outer dims (full sums that split into many fixed chunks,
// outer reductions with many row partials, long scans in pieces) must give the same bits with 1,
// 2, 3 and 8 threads, on every SIMD target the CPU runs (scalar, SSE4, AVX2, AVX-512).

TEST(OptimizedReduce, ResultsAreBitwiseIdenticalForAnyThreadCountAndSimdTarget) {
  const Tensor flat = sample({400000}, ts::kFloat, -3, 5, 21);
  const Tensor tall = sample({9000, 70}, ts::kFloat, -3, 5, 22);     // outer: 3 row partials
  const Tensor narrow = sample({30000, 3}, ts::kDouble, -3, 5, 23);  // outer: 6 row partials
  const Tensor wide = sample({40, 40000}, ts::kHalf, -3, 5, 24);     // inner: 3 chunks per row
  const Tensor short62 = sample({3000, 62}, ts::kFloat, -3, 5, 25);  // rows: a partial pair group
  const Tensor short45 = sample({3000, 45}, ts::kFloat, -3, 5, 26);  // and one of 45 (>32)
  const std::vector<std::pair<std::string, std::function<Tensor()>>> cases = {
      {"sum flat", [&] { return ts::sum(flat); }},
      {"mean flat f64", [&] { return ts::mean(flat.to(ts::kDouble)); }},
      {"var flat", [&] { return ts::var(flat, {0}); }},
      {"std tall dim 0", [&] { return ts::std(tall, {0}); }},
      {"norm 2 flat", [&] { return ts::norm(flat, 2); }},
      {"norm 1 tall dim 0", [&] { return ts::norm(tall, 1, {0}); }},
      {"logsumexp flat", [&] { return ts::logsumexp(flat, {0}); }},
      {"logsumexp tall dim 0", [&] { return ts::logsumexp(tall, {0}); }},
      {"sum tall dim 0", [&] { return ts::sum(tall, {0}); }},
      {"sum tall dim 1", [&] { return ts::sum(tall, {1}); }},
      {"sum tall.t() dim 1", [&] { return ts::sum(tall.t(), {1}); }},
      {"mean narrow dim 0", [&] { return ts::mean(narrow, {0}); }},
      {"var narrow dim 0", [&] { return ts::var(narrow, {0}); }},
      {"sum wide dim 1", [&] { return ts::sum(wide, {1}); }},
      {"sum rows of 62", [&] { return ts::sum(short62, {1}); }},
      {"mean rows of 45", [&] { return ts::mean(short45, {1}); }},
      {"sum rows of 45, float64 to float32",
       [&] { return ts::sum(short45.to(ts::kDouble), {1}, false, ts::kFloat); }},
      {"sum of 3 spans of 50",
       [&] {
         return ts::sum(short62.view({1000, 3, 62}).narrow(2, 0, 50), {1, 2});
       }},
      {"logsumexp wide dim 1", [&] { return ts::logsumexp(wide, {1}); }},
      {"prod narrow dim 0", [&] { return ts::prod(narrow.narrow(0, 0, 500), 0); }},
      {"argmax flat", [&] { return ts::argmax(flat); }},
      {"max tall dim 0", [&] { return std::get<1>(ts::max(tall, 0)); }},
      {"cumsum flat", [&] { return ts::cumsum(flat, 0); }},
      {"cumsum tall dim 0", [&] { return ts::cumsum(tall, 0); }},
      {"cumsum narrow.t() dim 1", [&] { return ts::cumsum(narrow.t(), 1); }},
      {"sum int flat", [&] { return ts::sum(flat.to(ts::kInt)); }},
  };
  // Every SIMD target the CPU runs, each with 1, 2, 3 and 8 threads: one set of bits. (The
  // sanitizer builds compile one target: Note [Highway targets] in optimized/CMakeLists.txt.)
  const std::string saved = ts::cpu::capability();
  const std::vector<std::string> targets = ts::cpu::supported_capabilities();
  for (const auto& what_f : cases) {
    const auto& what = what_f.first;
    const auto& f = what_f.second;
    Tensor first;
    for (const std::string& target : targets) {
      ts::cpu::set_capability(target);
      for_each_thread_count({1, 2, 3, 8}, [&](int threads) {
        ts::KernelSetGuard g("optimized");
        const Tensor r = f();
        if (!first.defined()) {
          first = r;
        } else {
          expect_same_bits(
              r, first, what + " on " + target + " with " + std::to_string(threads) + " threads");
        }
      });
    }
  }
  ts::cpu::set_capability(saved);
  // And they are right: the full sum against the reference.
  expect_matches_reference([&] { return ts::sum(flat); }, "sum flat");
  expect_matches_reference([&] { return ts::sum(tall, {0}); }, "sum tall dim 0");
  expect_matches_reference([&] { return ts::sum(short62, {1}); }, "sum rows of 62");
  expect_matches_reference([&] { return ts::mean(short45, {1}); }, "mean rows of 45");
  expect_matches_reference([&] { return ts::sum(short45.to(ts::kDouble), {1}, false, ts::kFloat); },
                           "sum rows of 45, float64 to float32");
}

// Every floating reduction op in every floating dtype, over a long flat input (many fixed
// chunks) and down the rows of a tall one (row partials), on every target and thread count.
TEST(OptimizedReduce, EveryReductionOpAndDtypeIsBitwiseIdenticalAcrossTargetsAndThreads) {
  const std::string saved = ts::cpu::capability();
  const std::vector<std::string> targets = ts::cpu::supported_capabilities();
  for (ts::ScalarType dtype : {ts::kFloat, ts::kDouble, ts::kHalf, ts::kBFloat16}) {
    const Tensor flat = sample({100003}, dtype, -2, 2, 31);
    const Tensor tall = sample({20011, 5}, dtype, -2, 2, 32);
    const std::vector<std::pair<std::string, std::function<Tensor(const Tensor&, int64_t)>>> ops = {
        {"sum", [](const Tensor& t, int64_t d) { return ts::sum(t, {d}); }},
        {"mean", [](const Tensor& t, int64_t d) { return ts::mean(t, {d}); }},
        {"var", [](const Tensor& t, int64_t d) { return ts::var(t, {d}); }},
        {"std", [](const Tensor& t, int64_t d) { return ts::std(t, {d}); }},
        {"norm", [](const Tensor& t, int64_t d) { return ts::norm(t, 2, {d}); }},
        {"logsumexp", [](const Tensor& t, int64_t d) { return ts::logsumexp(t, {d}); }},
        {"amax", [](const Tensor& t, int64_t d) { return ts::amax(t, {d}); }},
        {"amin", [](const Tensor& t, int64_t d) { return ts::amin(t, {d}); }},
        {"argmax", [](const Tensor& t, int64_t d) { return ts::argmax(t, d); }},
        {"cumsum", [](const Tensor& t, int64_t d) { return ts::cumsum(t, d); }}};
    for (const auto& name_op : ops) {  // no structured bindings: clang 14 cannot capture them
      const std::string& name = name_op.first;
      const auto& op = name_op.second;
      for (const auto& input_shape : {std::pair{&flat, "flat"}, std::pair{&tall, "tall"}}) {
        const Tensor* input = input_shape.first;
        const char* shape = input_shape.second;
        Tensor first;
        for (const std::string& target : targets) {
          ts::cpu::set_capability(target);
          for_each_thread_count({1, 2, 3, 8}, [&](int threads) {
            ts::KernelSetGuard g("optimized");
            const Tensor r = op(*input, 0);
            if (!first.defined()) {
              first = r;
            } else {
              expect_same_bits(r, first,
                               name + " " + shape + " " + std::string(ts::dtype_name(dtype)) +
                                   " on " + target + " with " + std::to_string(threads) +
                                   " threads");
            }
          });
        }
      }
    }
  }
  ts::cpu::set_capability(saved);
}

}  // namespace
