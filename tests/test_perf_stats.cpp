// The U test behind a ratio's p-value (perf/stats.h), and its place in a bench report. Expected
// p-values: the exact ones by enumerating every order of the samples (a short Python script);
// the approximate ones from the normal approximation with the tie correction, computed apart.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <vector>

#include "perf/report.h"
#include "perf/runner.h"
#include "perf/stats.h"
#include "reports/json_schema.h"

namespace {

using ts::perf::mann_whitney_p;

TEST(PerfStats, SeparatedSamplesGiveTheSmallestExactP) {
  const std::vector<double> fast = {1, 2, 3, 4, 5}, slow = {6, 7, 8, 9, 10};
  // One order in C(10, 5) = 252 puts every fast sample first; two-sided: 2/252.
  EXPECT_DOUBLE_EQ(mann_whitney_p(fast, slow), 2.0 / 252);
  EXPECT_DOUBLE_EQ(mann_whitney_p(slow, fast), 2.0 / 252);
  EXPECT_DOUBLE_EQ(ts::perf::smallest_p(5, 5), 2.0 / 252);
  EXPECT_DOUBLE_EQ(ts::perf::smallest_p(3, 3), 0.1);  // 3 repetitions can never reach 0.05
}

TEST(PerfStats, ExactPOfInterleavedAndUnequalSamples) {
  // U = 10 of 25 pairs; 87 of the 252 orders have U <= 10.
  EXPECT_NEAR(mann_whitney_p({1, 3, 5, 7, 9}, {2, 4, 6, 8, 10}), 0.6904761904761905, 1e-12);
  // SciPy's mannwhitneyu documentation: U = 17, exact p = 0.1111 (14 of 126 orders).
  EXPECT_NEAR(mann_whitney_p({19, 22, 16, 29, 24}, {20, 11, 17, 12}), 0.1111111111111111, 1e-12);
}

TEST(PerfStats, TiesAndLargeSamplesTakeTheNormalApproximation) {
  // Midranks; U = 3.5, tie-corrected variance 21.94, continuity-corrected z = 1.8145.
  EXPECT_NEAR(mann_whitney_p({1, 1, 2, 3, 3}, {2, 3, 4, 4, 5}), 0.06960100257898738, 1e-12);
  std::vector<double> low, high, odd, even;
  for (int i = 1; i <= 21; ++i) {
    low.push_back(i);
    high.push_back(21 + i);
    odd.push_back(2 * i - 1);
    even.push_back(2 * i);
  }
  EXPECT_NEAR(mann_whitney_p(low, high), 3.125399998400882e-08, 1e-18);
  EXPECT_NEAR(mann_whitney_p(odd, even), 0.8013831883084928, 1e-12);
}

TEST(PerfStats, TooFewOrEqualSamples) {
  EXPECT_TRUE(std::isnan(mann_whitney_p({1}, {2, 3})));
  EXPECT_TRUE(std::isnan(mann_whitney_p({1, 2}, {})));
  EXPECT_DOUBLE_EQ(mann_whitney_p({2, 2, 2}, {2, 2}), 1.0);
}

// A run of 5 repetitions: the reference's double-precision neg is several times slower than the
// optimized set's, so nearly every repetition of one beats every one of the other.
TEST(PerfStats, AReportCarriesThePOfEachRatio) {
  ts::perf::RunOptions o;
  o.catalog.quick = true;
  o.catalog.ops = "neg";
  o.repetitions = 5;
  o.min_time = 0.002;
  o.probes = false;
  std::ostringstream progress;
  const nlohmann::json r = ts::perf::report_json(ts::perf::run_bench(o, progress));
  EXPECT_EQ(ts::reports::validate_json(ts::reports::perf_schema(), r), std::vector<std::string>{});
  ASSERT_EQ(r["cases"].size(), 1u);
  const nlohmann::json& c = r["cases"][0];
  ASSERT_TRUE(c["ratio_p"].contains("reference")) << c.dump();
  EXPECT_GT(c["ratios"]["reference"].get<double>(), 1.5);
  // At most two of the 25 pairs out of order (p = 8/252); usually none (2/252).
  EXPECT_LE(c["ratio_p"]["reference"].get<double>(), 8.0 / 252 + 1e-12);
}

}  // namespace
