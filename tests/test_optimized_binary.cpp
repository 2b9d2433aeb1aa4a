// The optimized set's binary kernels against the reference set, on every layout and capability.
#include "optimized_check.h"

namespace {

using ts::Tensor;
using ts::testing::expect_matches_reference;
using ts::testing::layouts;
using ts::testing::sample;

constexpr ts::ScalarType kAll[] = {ts::kBool, ts::kByte, ts::kChar,     ts::kShort, ts::kInt,
                                   ts::kLong, ts::kHalf, ts::kBFloat16, ts::kFloat, ts::kDouble};

TEST(OptimizedBinary, AddSubMulOnEveryLayoutAndDtype) {
  for (ts::ScalarType dt : kAll) {
    Tensor a = sample({67, 45}, dt, -50, 50, 1);
    Tensor b = sample({67, 45}, dt, -50, 50, 2);
    for (const auto& [la, ta] : layouts(a)) {
      for (const auto& [lb, tb] : layouts(b)) {
        const std::string what = std::string(ts::dtype_name(dt)) + " " + la + " x " + lb;
        expect_matches_reference([&] { return ts::add(ta, tb); }, "add " + what);
        expect_matches_reference([&] { return ts::mul(ta, tb); }, "mul " + what);
        if (dt != ts::kBool) {
          expect_matches_reference([&] { return ts::sub(ta, tb, 3); }, "sub alpha " + what);
        }
      }
    }
  }
}

TEST(OptimizedBinary, BroadcastScalarsZeroDimAndEmpty) {
  Tensor a = sample({33, 17}, ts::kFloat);
  Tensor row = sample({17}, ts::kFloat, -1, 1, 3);
  Tensor col = sample({33, 1}, ts::kFloat, -1, 1, 4);
  expect_matches_reference([&] { return ts::add(a, row); }, "row broadcast");
  expect_matches_reference([&] { return ts::add(col, a); }, "column broadcast");
  expect_matches_reference([&] { return ts::mul(a, 2.5); }, "wrapped scalar");
  expect_matches_reference([&] { return ts::add(sample({}, ts::kFloat), sample({}, ts::kFloat)); },
                           "0-dim");
  expect_matches_reference([&] { return ts::add(ts::empty({0, 5}), ts::empty({5})); }, "empty");
  expect_matches_reference([&] { return ts::add(sample({5}, ts::kInt), 2.5); }, "int + float");
  expect_matches_reference([&] { return ts::div(sample({40}, ts::kHalf), 3); }, "half / 3");
}

TEST(OptimizedBinary, MixedLayoutAddUsesTilesAndMatches) {
  Tensor a = sample({300, 200}, ts::kFloat);
  Tensor b = sample({200, 300}, ts::kFloat, -4, 4, 5);
  expect_matches_reference([&] { return ts::add(a.t(), b); }, "a.t() + b");
  expect_matches_reference([&] { return ts::add(b, a.t()); }, "b + a.t()");
}

TEST(OptimizedBinary, InPlaceAndOutVariants) {
  Tensor b = sample({20, 30}, ts::kFloat, -4, 4, 7);
  expect_matches_reference([&] { Tensor a = sample({20, 30}, ts::kFloat); a.add_(b); return a; },
                           "add_");
  expect_matches_reference(
      [&] {
        Tensor out = ts::empty({0}, ts::kDouble);
        ts::mul_out(out, sample({20, 30}, ts::kFloat), b);
        return out;
      },
      "mul_out into float64");
}

}  // namespace
