// The optimized set's nn kernels (softmax, log_softmax, layer_norm, nll_loss, mse_loss) against
// the reference set, on every layout, dtype and SIMD capability.
// Tolerances: assert_close defaults for the dtype (optimized_check.h). Row sums run in blocks
// (Note [Fused softmax] in optimized/cpu/nn.cpp), so the defaults hold for long rows as well;
// loss sums add in double (Note [Loss reductions]), so they hold for Sum and Mean too.
#include <limits>

#include "optimized_check.h"
#include "touchstone/parallel.h"

namespace {

using ts::Reduction;
using ts::Tensor;
using namespace ts::testing;  // sample, layouts, name, ref_clone, kFloating, kNaN, ...

// ---- softmax, log_softmax ----

void expect_softmaxes(const Tensor& x, int64_t dim, const std::string& what) {
  expect_matches_reference([&] { return ts::softmax(x, dim); }, "softmax " + what);
  expect_matches_reference([&] { return ts::log_softmax(x, dim); }, "log_softmax " + what);
}

TEST(OptimizedSoftmax, EveryDimLayoutAndDtype) {
  for (ts::ScalarType dt : kFloating) {
    // 45 fills vectors along a row; 37 rows make column panels with a partial last block.
    const Tensor x = sample({37, 45}, dt, -6, 6, 1);
    for_each_layout(layouts(x), [&](const std::string& layout, const Tensor& t) {
      for (int64_t dim : {0, 1, -1}) {
        expect_softmaxes(t, dim, name(dt) + " " + layout + " dim " + std::to_string(dim));
      }
    });
  }
}

TEST(OptimizedSoftmax, ThreeDimsAndPermuted) {
  for (ts::ScalarType dt : {ts::kFloat, ts::kHalf, ts::kDouble}) {
    const Tensor x = sample({5, 33, 20}, dt, -5, 5, 2);
    const Tensor permuted = ref_clone(x.permute({2, 0, 1})).permute({1, 2, 0});  // values of x
    for (int64_t dim = 0; dim < 3; ++dim) {
      expect_softmaxes(x, dim, name(dt) + " 3-D dim " + std::to_string(dim));
      expect_softmaxes(permuted, dim, name(dt) + " permuted 3-D dim " + std::to_string(dim));
      expect_softmaxes(x.slice(1, 1, std::nullopt, 3), dim, name(dt) + " stepped 3-D");
    }
  }
}

TEST(OptimizedSoftmax, ShortAndLongRows) {
  // Short contiguous rows run as gathered columns; a 5000-long row spans several sum blocks.
  expect_softmaxes(sample({300, 5}, ts::kFloat, -3, 3, 3), 1, "short rows");
  expect_softmaxes(sample({100, 3, 7}, ts::kFloat, -3, 3, 4), 2, "short rows behind two dims");
  expect_softmaxes(sample({3, 5000}, ts::kFloat, -10, 10, 5), 1, "long rows");
  expect_softmaxes(sample({5000, 3}, ts::kFloat, -10, 10, 6), 0, "long columns");
  expect_softmaxes(sample({2, 5000}, ts::kHalf, -10, 10, 7), 1, "long half rows");
  // Large values: stable only with the max subtracted.
  expect_softmaxes(sample({20, 40}, ts::kFloat, 500, 900, 8), 1, "large values");
  expect_softmaxes(sample({20, 40}, ts::kDouble, -900, -500, 9), 0, "large negative values");
}

TEST(OptimizedSoftmax, BroadcastZeroDimEmptyAndSingleElementRows) {
  const Tensor row = sample({1, 40}, ts::kFloat, -2, 2, 10);
  expect_softmaxes(row.expand({6, 40}), 1, "expanded rows");
  expect_softmaxes(row.expand({6, 40}), 0, "expanded columns");
  expect_softmaxes(sample({}, ts::kFloat, -2, 2, 11), 0, "0-dim");
  expect_softmaxes(sample({}, ts::kBFloat16, -2, 2, 11), -1, "0-dim bfloat16");
  expect_softmaxes(ts::empty({0, 5}), 1, "empty rows");
  expect_softmaxes(ts::empty({5, 0}), 1, "empty row length");
  expect_softmaxes(sample({7, 1}, ts::kFloat, -2, 2, 12), 1, "rows of one");
}

// A row (dim 1) or column (dim 0) holding NaN, +inf, only -inf, or some -inf (a masked row).
Tensor special_values() {
  ts::KernelSetGuard g("reference");
  Tensor x = sample({8, 40}, ts::kFloat, -3, 3, 13);
  x.select(0, 1).select(0, 17).fill_(kNaN);
  x.select(0, 2).select(0, 3).fill_(kInf);
  x.select(0, 3).fill_(-kInf);
  x.select(0, 4).slice(0, 0, 30).fill_(-kInf);
  x.select(1, 33).fill_(-kInf);
  x.select(1, 35).select(0, 6).fill_(kNaN);
  return x;
}

TEST(OptimizedSoftmax, NaNAndInfinities) {
  const Tensor x = special_values();
  for (ts::ScalarType dt : kFloating) {
    Tensor t;
    {
      ts::KernelSetGuard g("reference");
      t = x.to(dt);
    }
    expect_softmaxes(t, 1, name(dt) + " special rows");
    expect_softmaxes(t, 0, name(dt) + " special columns");
    expect_softmaxes(ref_clone(t.t()).t(), 0, name(dt) + " special transposed columns");
  }
}

TEST(OptimizedSoftmax, DtypeArgumentOutAndAliasing) {
  const Tensor h = sample({9, 30}, ts::kHalf, -4, 4, 14);
  const Tensor f = sample({9, 30}, ts::kFloat, -4, 4, 15);
  const Tensor i = sample({9, 30}, ts::kLong, -4, 4, 16);
  expect_matches_reference([&] { return ts::softmax(h, 1, ts::kFloat); }, "half as float");
  expect_matches_reference([&] { return ts::log_softmax(f, 0, ts::kHalf); }, "float as half");
  expect_matches_reference([&] { return ts::softmax(i, 1, ts::kDouble); }, "int64 as double");
  expect_matches_reference(
      [&] {
        Tensor out = ts::empty({0}, ts::kDouble);
        ts::softmax_out(out, f, 1, ts::kDouble);
        return out;
      },
      "out= float64 with dtype=float64");
  // Without dtype=, out= must have self's dtype (ATen).
  EXPECT_THROW(ts::softmax_out(ts::empty({0}, ts::kDouble), f, 1), ts::Error);
  expect_matches_reference(
      [&] {
        Tensor out = ref_clone(ts::empty({30, 9}, ts::kFloat)).t();  // transposed out
        ts::log_softmax_out(out, f, 1);
        return out;
      },
      "transposed out=");
  expect_matches_reference(
      [&] {
        Tensor x = ref_clone(f);
        ts::softmax_out(x, x, 0);  // out is the input itself
        return x;
      },
      "out= the input");
}

// ---- layer_norm ----

TEST(OptimizedLayerNorm, EveryDtypeLayoutAndAffineCombination) {
  for (ts::ScalarType dt : kFloating) {
    const Tensor x = sample({13, 70}, dt, -3, 5, 20);
    const Tensor w = sample({70}, dt, 0.5, 2, 21);
    const Tensor b = sample({70}, dt, -1, 1, 22);
    for_each_layout(layouts(x), [&](const std::string& layout, const Tensor& t) {
      const std::string what = name(dt) + " " + layout;
      expect_matches_reference([&] { return ts::layer_norm(t, {70}); }, "plain " + what);
      expect_matches_reference([&] { return ts::layer_norm(t, {70}, w, b, 1e-3); },
                               "affine " + what);
      expect_matches_reference([&] { return ts::layer_norm(t, {70}, w); }, "weight " + what);
      expect_matches_reference([&] { return ts::layer_norm(t, {70}, {}, b); }, "bias " + what);
    });
  }
}

TEST(OptimizedLayerNorm, SeveralDimsStridedParamsLongRowsAndEmpty) {
  const Tensor x = sample({4, 6, 50}, ts::kFloat, -3, 3, 23);
  const Tensor w2 = sample({50, 6}, ts::kFloat, 0.5, 2, 24).t();  // non-contiguous weight
  expect_matches_reference([&] { return ts::layer_norm(x, {6, 50}, w2); }, "two dims");
  expect_matches_reference(
      [&] {
        return ts::layer_norm(x.permute({1, 0, 2}), {4, 50});
      },
      "permuted");
  expect_matches_reference(
      [&] {
        return ts::layer_norm(sample({3, 5000}, ts::kFloat, 2, 3), {5000});
      },
      "long rows with an offset");
  expect_matches_reference([&] { return ts::layer_norm(sample({7}, ts::kHalf), {7}); }, "1-D");
  expect_matches_reference([&] { return ts::layer_norm(ts::empty({0, 5}), {5}); }, "no rows");
  expect_matches_reference([&] { return ts::layer_norm(ts::empty({3, 0}), {0}); }, "empty rows");
  expect_matches_reference(
      [&] {
        return ts::layer_norm(ts::full({4, 9}, 2.0), {9});
      },
      "constant rows (variance 0)");
}

// Note [Corrected two-pass moments]: a row of one value normalizes to exactly 0, whatever the
// value and the row's length (a mean an ulp off gave 316 ulps of the value); with a bias, to it.
TEST(OptimizedLayerNorm, ConstantRowsAreExactlyZero) {
  ts::KernelSetGuard g("optimized");
  for (int k = 0; k < 200; ++k) {
    const double v = -3 + 6.0 * k / 199;
    for (int64_t m : {3, 7, 9, 31, 100, 4099}) {
      for (ts::ScalarType dt : {ts::kFloat, ts::kBFloat16}) {
        // Expanded (stride 0), as conformance's expanded layout makes it.
        const Tensor y = ts::layer_norm(ts::full({1}, v, dt).expand({m}), {m}, Tensor(),
                                        ts::full({m}, 0.25, dt));
        const Tensor yd = y.to(ts::kDouble).contiguous();
        const double* p = yd.data_ptr<double>();
        for (int64_t i = 0; i < yd.numel(); ++i) {
          ASSERT_EQ(p[i], 0.25) << name(dt) << " value " << v << " length " << m << " at " << i;
        }
      }
    }
  }
}

// ---- nll_loss ----

Tensor targets(ts::IntArrayRef sizes, int64_t classes, ts::ScalarType dt, uint64_t seed) {
  return sample(sizes, dt, 0, static_cast<double>(classes), seed);
}

TEST(OptimizedNllLoss, EveryDtypeReductionWeightAndIgnoreIndex) {
  for (ts::ScalarType dt : kFloating) {
    const Tensor x = sample({40, 7}, dt, -5, 0, 30);
    const Tensor w = sample({7}, dt, 0.1, 2, 31);
    const Tensor xt = ref_clone(x.t()).t();
    const Tensor t = targets({40}, 7, ts::kLong, 32);
    for (Reduction r : {Reduction::None, Reduction::Mean, Reduction::Sum}) {
      const std::string what = name(dt) + " reduction " + std::to_string(static_cast<int>(r));
      expect_matches_reference([&] { return ts::nll_loss(x, t, {}, r); }, what);
      expect_matches_reference([&] { return ts::nll_loss(x, t, w, r, 3); }, "weight " + what);
      expect_matches_reference([&] { return ts::nll_loss(xt, t, w, r); }, "transposed " + what);
    }
  }
}

TEST(OptimizedNllLoss, HigherDimsByteTargetsOneDAndAllIgnored) {
  const Tensor x4 = sample({3, 5, 4, 6}, ts::kFloat, -4, 0, 33);
  const Tensor t4 = targets({3, 4, 6}, 5, ts::kLong, 34);
  const Tensor x4p = ref_clone(x4.permute({0, 2, 1, 3})).permute({0, 2, 1, 3});
  for (Reduction r : {Reduction::None, Reduction::Mean, Reduction::Sum}) {
    expect_matches_reference([&] { return ts::nll_loss(x4, t4, {}, r, 2); }, "4-D");
    expect_matches_reference([&] { return ts::nll_loss(x4p, t4, {}, r); }, "4-D permuted");
  }
  const Tensor xb = sample({12, 4}, ts::kDouble, -4, 0, 35);
  expect_matches_reference([&] { return ts::nll_loss(xb, targets({12}, 4, ts::kByte, 36)); },
                           "uint8 targets");
  expect_matches_reference(
      [&] { return ts::nll_loss(sample({6}, ts::kFloat), ts::full({}, 2, ts::kLong)); },
      "1-D input");
  expect_matches_reference([&] { return ts::nll_loss(xb, ts::full({12}, -100, ts::kLong)); },
                           "all ignored: NaN");
  // 1-D targets take plain offsets (0-dim ones too: "1-D input" above): a strided target over
  // several chunks.
  const Tensor xl = sample({40001, 5}, ts::kFloat, -4, 0, 37);
  const Tensor tl = targets({80002}, 5, ts::kLong, 38).slice(0, 0, 80002, 2);
  for (Reduction r : {Reduction::None, Reduction::Mean, Reduction::Sum}) {
    expect_matches_reference([&] { return ts::nll_loss(xl, tl, {}, r, 1); }, "strided target");
  }
  expect_matches_reference(
      [&] {
        return ts::nll_loss(ts::empty({0, 4}), ts::empty({0}, ts::kLong), {}, Reduction::Sum);
      },
      "empty");
}

// ---- mse_loss ----

TEST(OptimizedMseLoss, EveryDtypeLayoutAndReduction) {
  for (ts::ScalarType dt : kFloating) {
    const Tensor a = sample({37, 45}, dt, -3, 3, 40);
    const Tensor b = sample({37, 45}, dt, -3, 3, 41);
    for_each_layout(layouts(a), [&](const std::string& la, const Tensor& ta) {
      for (Reduction r : {Reduction::None, Reduction::Mean, Reduction::Sum}) {
        const std::string what =
            name(dt) + " " + la + " reduction " + std::to_string(static_cast<int>(r));
        expect_matches_reference([&] { return ts::mse_loss(ta, b, r); }, what);
      }
    });
  }
}

TEST(OptimizedMseLoss, BroadcastMixedDtypesLargeAndEmpty) {
  const Tensor a = sample({37, 45}, ts::kFloat, -3, 3, 42);
  const Tensor row = sample({45}, ts::kFloat, -3, 3, 43);
  const Tensor h = sample({37, 45}, ts::kHalf, -3, 3, 44);
  const Tensor big = sample({100003}, ts::kFloat, -3, 3, 45);  // several chunks
  const Tensor big2 = sample({100003}, ts::kFloat, -3, 3, 46);
  for (Reduction r : {Reduction::None, Reduction::Mean, Reduction::Sum}) {
    expect_matches_reference([&] { return ts::mse_loss(a, row, r); }, "broadcast target");
    expect_matches_reference([&] { return ts::mse_loss(h, a, r); }, "half and float");
    expect_matches_reference([&] { return ts::mse_loss(big, big2, r); }, "large");
    expect_matches_reference(
        [&] { return ts::mse_loss(sample({}, ts::kDouble), sample({}, ts::kDouble, 0, 1, 2), r); },
        "0-dim");
    expect_matches_reference(
        [&] {
          return ts::mse_loss(ts::empty({0, 3}), ts::empty({0, 3}), r);
        },
        "empty (Mean is NaN)");
  }
}

// ---- thread invariance of the loss sums ----

TEST(OptimizedLosses, SumsAreBitwiseIdenticalForAnyThreadCount) {
  const Tensor a = sample({300001}, ts::kFloat, -3, 3, 50);
  const Tensor b = sample({300001}, ts::kFloat, -3, 3, 51);
  const Tensor x = sample({70001, 3}, ts::kFloat, -3, 0, 52);
  const Tensor t = targets({70001}, 3, ts::kLong, 53);
  ts::KernelSetGuard g("optimized");
  std::vector<double> results;
  for_each_thread_count({1, 2, 3, 8}, [&](int) {
    results.push_back(ts::mse_loss(a, b, Reduction::Sum).item<double>());
    results.push_back(ts::nll_loss(x, t, {}, Reduction::Mean).item<double>());
  });
  for (size_t i = 2; i < results.size(); ++i) EXPECT_EQ(results[i], results[i % 2]) << i;
}

}  // namespace
