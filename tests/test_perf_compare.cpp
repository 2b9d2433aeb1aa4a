// touchstone compare on hand-made reports: ratios, geomeans per family, regressions first (a
// planted 2x slowdown), threshold parsing, unmatched cases, context notes, the HTML page.
#include <gtest/gtest.h>

#include <cmath>

#include "perf/compare.h"
#include "reports/json_schema.h"
#include "touchstone/error.h"

namespace {

using nlohmann::json;

struct Timing {
  std::string name, family, set;
  double median_s;
};

// A minimal report that satisfies perf.schema.json.
json make_report(const std::vector<Timing>& timings, int threads) {
  json cases = json::array();
  for (const Timing& t : timings) {
    json* c = nullptr;
    for (json& e : cases) {
      if (e["name"] == t.name) c = &e;
    }
    if (c == nullptr) {
      cases.push_back({{"name", t.name},
                       {"family", t.family},
                       {"op", t.name.substr(0, t.name.find('/'))},
                       {"dtype", "float32"},
                       {"shape", "16"},
                       {"layout", "contiguous"},
                       {"bytes", 192.0},
                       {"flops", 16.0},
                       {"intensity", 16.0 / 192},
                       {"results", json::object()},
                       {"ratios", json::object()}});
      c = &cases.back();
    }
    (*c)["results"][t.set] = {
        {"status", "ok"},      {"median_s", t.median_s}, {"min_s", t.median_s},
        {"max_s", t.median_s}, {"mean_s", t.median_s},   {"stddev_s", 0.0},
        {"repetitions", 3},    {"iterations", 10},       {"gbs", 1.0},
        {"gflops", 1.0},       {"roofline_pct", 5.0}};
  }
  return {{"schema_version", 1},
          {"kind", "touchstone-perf"},
          {"tool_version", "0.1.0"},
          {"timestamp", "2026-11-23T10:00:00Z"},
          {"machine",
           {{"cpu_model", "Test CPU"},
            {"cores", 2},
            {"threads", threads},
            {"simd_target", "avx2"},
            {"gpu", nullptr},
            {"compiler", "gcc"},
            {"build_type", "Release"},
            {"git_commit", "abc1234"},
            {"libraries",
             {{"touchstone", "0.1.0"}, {"google_benchmark", "1.7.1"}, {"openblas", "x"}}}}},
          {"run",
           {{"kernel_sets", {"optimized"}},
            {"device", "cpu"},
            {"quick", true},
            {"threads", threads},
            {"repetitions", 3},
            {"min_time_s", 0.02},
            {"seconds", 1.0}}},
          {"roofline",
           {{"probe", "quick"},
            {"threads", threads},
            {"stream_elements", 1},
            {"copy_gbs", 10.0},
            {"add_gbs", 9.0},
            {"bandwidth_gbs", 10.0},
            {"gemm_n", 64},
            {"sgemm_gflops", 100.0},
            {"dgemm_gflops", 50.0}}},
          {"cases", cases},
          {"context", {{"host_name", "h"}, {"num_cpus", 2}}},
          {"benchmarks", json::array()}};
}

const std::vector<Timing> kBase = {
    {"add/float32/16/contiguous", "binary", "optimized", 1.0},
    {"mul/float32/16/contiguous", "binary", "optimized", 2.0},
    {"exp/float32/16/contiguous", "unary", "optimized", 4.0},
    {"exp/float32/16/contiguous", "unary", "reference", 40.0},
};

TEST(PerfCompare, HandMadeReportsMatchTheSchema) {
  EXPECT_EQ(ts::reports::validate_json(ts::reports::perf_schema(), make_report(kBase, 1)),
            std::vector<std::string>{});
}

TEST(PerfCompare, PlantedTwoTimesSlowdownIsAListedFirstRegression) {
  const json base = make_report(kBase, 1);
  const json neu = make_report({{"add/float32/16/contiguous", "binary", "optimized", 1.02},
                                {"mul/float32/16/contiguous", "binary", "optimized", 4.0},
                                {"exp/float32/16/contiguous", "unary", "optimized", 2.0},
                                {"exp/float32/16/contiguous", "unary", "reference", 40.0}},
                               1);
  const ts::perf::Comparison c = ts::perf::compare_reports(base, neu, 0.05);
  ASSERT_EQ(c.rows.size(), 4u);
  EXPECT_EQ(c.regressions, 1);
  EXPECT_EQ(c.improvements, 1);  // exp optimized: 4 s -> 2 s
  EXPECT_EQ(c.rows[0].case_name, "mul/float32/16/contiguous");
  EXPECT_DOUBLE_EQ(c.rows[0].ratio, 2.0);
  // Then the rest, slowest first: add 1.02 (within 5 %), exp reference 1.0, exp optimized 0.5.
  EXPECT_DOUBLE_EQ(c.rows[1].ratio, 1.02);
  EXPECT_DOUBLE_EQ(c.rows[2].ratio, 1.0);
  EXPECT_DOUBLE_EQ(c.rows[3].ratio, 0.5);
  // Geomeans: binary/optimized sqrt(1.02 * 2), unary/optimized 0.5, overall 4th root of all.
  auto geomean = [&](const std::string& family, const std::string& set) {
    for (const auto& g : c.geomeans) {
      if (g.family == family && g.set == set) return g.geomean;
    }
    return -1.0;
  };
  EXPECT_NEAR(geomean("binary", "optimized"), std::sqrt(2.04), 1e-12);
  EXPECT_NEAR(geomean("unary", "optimized"), 0.5, 1e-12);
  EXPECT_NEAR(geomean("unary", "reference"), 1.0, 1e-12);
  EXPECT_NEAR(geomean("all", "optimized"), std::cbrt(1.02 * 2.0 * 0.5), 1e-12);
  EXPECT_NEAR(c.overall_geomean, std::pow(1.02 * 2.0 * 1.0 * 0.5, 0.25), 1e-12);
}

TEST(PerfCompare, AThresholdAboveTheSlowdownLetsItPass) {
  const json base = make_report(kBase, 1);
  const json neu = make_report({{"mul/float32/16/contiguous", "binary", "optimized", 4.0}}, 1);
  EXPECT_EQ(ts::perf::compare_reports(base, neu, 0.05).regressions, 1);
  EXPECT_EQ(ts::perf::compare_reports(base, neu, 1.5).regressions, 0);  // 150 %
}

TEST(PerfCompare, UnmatchedCasesAndContextDifferencesAreReported) {
  const json base = make_report(kBase, 1);
  const json neu = make_report({{"add/float32/16/contiguous", "binary", "optimized", 1.0},
                                {"neg/float32/16/contiguous", "unary", "optimized", 1.0}},
                               2);
  const ts::perf::Comparison c = ts::perf::compare_reports(base, neu, 0.05);
  EXPECT_EQ(c.rows.size(), 1u);
  EXPECT_EQ(c.only_in_new, std::vector<std::string>{"neg/float32/16/contiguous/optimized"});
  EXPECT_EQ(c.only_in_base.size(), 3u);
  ASSERT_EQ(c.notes.size(), 1u);
  EXPECT_EQ(c.notes[0], "threads differ: 1 vs 2");
}

TEST(PerfCompare, SkippedResultsAreNotCompared) {
  json base = make_report(kBase, 1);
  json neu = make_report(kBase, 1);
  neu["cases"][2]["results"]["reference"] = {{"status", "skipped"}, {"reason", "no kernel"}};
  const ts::perf::Comparison c = ts::perf::compare_reports(base, neu, 0.05);
  EXPECT_EQ(c.rows.size(), 3u);
  EXPECT_EQ(c.only_in_base, std::vector<std::string>{"exp/float32/16/contiguous/reference"});
}

TEST(PerfCompare, ThresholdParsesPercentagesAndFractions) {
  EXPECT_DOUBLE_EQ(ts::perf::parse_threshold("5%"), 0.05);
  EXPECT_DOUBLE_EQ(ts::perf::parse_threshold("5"), 0.05);
  EXPECT_DOUBLE_EQ(ts::perf::parse_threshold("0.05"), 0.05);
  EXPECT_DOUBLE_EQ(ts::perf::parse_threshold("12.5%"), 0.125);
  EXPECT_THROW(ts::perf::parse_threshold("five"), ts::Error);
  EXPECT_THROW(ts::perf::parse_threshold("-5%"), ts::Error);
  EXPECT_THROW(ts::perf::parse_threshold("5%%"), ts::Error);
}

TEST(PerfCompare, HtmlIsOneSelfContainedPageWithBarsAndRooflines) {
  const json base = make_report(kBase, 1);
  const json neu = make_report({{"mul/float32/16/contiguous", "binary", "optimized", 4.0}}, 2);
  const ts::perf::Comparison c = ts::perf::compare_reports(base, neu, 0.05);
  const std::string html = ts::perf::comparison_html(c, base, neu);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("mul/float32/16/contiguous optimized: 2x"), std::string::npos);
  EXPECT_NE(html.find("Roofline: new"), std::string::npos);
  EXPECT_NE(html.find("sgemm 100 GFLOP/s"), std::string::npos);
  // Nothing to fetch: no scripts, stylesheets or images from elsewhere.
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find("src="), std::string::npos);
}

}  // namespace
