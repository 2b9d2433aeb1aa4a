// touchstone compare on hand-made reports: ratios, geomeans per family, regressions first (a
// planted 2x slowdown), threshold parsing, unmatched cases (missing from new: a failure; only
// in new: listed), nothing matched (an error), context notes, the HTML page.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "error_text.h"
#include "perf/runner.h"
#include "perf_test_reports.h"
#include "reports/compare.h"
#include "reports/compare_matrix.h"
#include "reports/json_schema.h"
#include "touchstone/error.h"

namespace {

using nlohmann::json;

using ts::testing::error_text;
using ts_test::kBase;
using ts_test::make_report;

ts::reports::Comparison compare(const json& base, const json& neu, double threshold,
                                bool allow_missing = false) {
  ts::reports::CompareOptions o;
  o.threshold = threshold;
  o.allow_missing = allow_missing;
  return ts::reports::compare_reports(base, neu, o);
}

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
  const ts::reports::Comparison c = compare(base, neu, 0.05);
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
  EXPECT_EQ(compare(base, neu, 0.05).regressions, 1);
  EXPECT_EQ(compare(base, neu, 1.5).regressions, 0);  // 150 %
}

TEST(PerfCompare, UnmatchedCasesAndContextDifferencesAreReported) {
  const json base = make_report(kBase, 1);
  const json neu = make_report({{"add/float32/16/contiguous", "binary", "optimized", 1.0},
                                {"neg/float32/16/contiguous", "unary", "optimized", 1.0}},
                               2);
  const ts::reports::Comparison c = compare(base, neu, 0.05);
  EXPECT_EQ(c.rows.size(), 1u);
  EXPECT_EQ(c.only_in_new, std::vector<std::string>{"neg/float32/16/contiguous/optimized"});
  ASSERT_EQ(c.missing.size(), 3u);
  EXPECT_EQ(c.missing[0].pair, "exp/float32/16/contiguous/optimized");
  EXPECT_EQ(c.missing[0].in_new, "absent");
  ASSERT_EQ(c.notes.size(), 1u);
  EXPECT_EQ(c.notes[0], "threads differ: 1 vs 2");
}

TEST(PerfCompare, SkippedResultsAreNotCompared) {
  json base = make_report(kBase, 1);
  json neu = make_report(kBase, 1);
  neu["cases"][2]["results"]["reference"] = {{"status", "skipped"}, {"reason", "no kernel"}};
  const ts::reports::Comparison c = compare(base, neu, 0.05);
  EXPECT_EQ(c.rows.size(), 3u);
  ASSERT_EQ(c.missing.size(), 1u);
  EXPECT_EQ(c.missing[0].pair, "exp/float32/16/contiguous/reference");
  EXPECT_EQ(c.missing[0].in_new, "skipped");
}

TEST(PerfCompare, NoisyPairsAreLeftOutUnlessIncludedAndSaySo) {
  json base = make_report(kBase, 1);
  json neu = make_report({{"add/float32/16/contiguous", "binary", "optimized", 1.0},
                          {"mul/float32/16/contiguous", "binary", "optimized", 8.0},
                          {"exp/float32/16/contiguous", "unary", "optimized", 4.0},
                          {"exp/float32/16/contiguous", "unary", "reference", 40.0}},
                         1);
  // mul took 4x as long in NEW, but NEW marks it noisy; exp/reference is noisy in BASE.
  neu["cases"][1]["results"]["optimized"]["noisy"] = true;
  neu["cases"][1]["results"]["optimized"]["noise"] = "the calling thread ran 31 % of the wall time";
  base["cases"][2]["results"]["reference"]["noisy"] = true;
  ts::reports::Comparison c = compare(base, neu, 0.05);
  EXPECT_EQ(c.rows.size(), 2u);
  EXPECT_EQ(c.regressions, 0);
  EXPECT_EQ(c.exit_status(), 0);
  EXPECT_TRUE(c.missing.empty());  // measured in both: noisy, not missing
  EXPECT_EQ(c.noisy, (std::vector<std::string>{"exp/float32/16/contiguous/reference (BASE)",
                                               "mul/float32/16/contiguous/optimized (NEW)"}));
  std::ostringstream out;
  ts::reports::print_comparison(c, out);
  EXPECT_NE(out.str().find("-- 2 case/set pairs noisy in base or new, not compared "
                           "(--include-noisy compares them) --"),
            std::string::npos)
      << out.str();

  ts::reports::CompareOptions o;
  o.threshold = 0.05;
  o.include_noisy = true;
  c = ts::reports::compare_reports(base, neu, o);
  EXPECT_EQ(c.rows.size(), 4u);
  EXPECT_EQ(c.regressions, 1);  // mul: 2 s -> 8 s
  EXPECT_TRUE(c.noisy.empty());

  // Every pair in common noisy: nothing judged, and no "nothing in common" error either.
  for (json& cs : neu["cases"]) {
    for (auto& [set, r] : cs["results"].items()) r["noisy"] = true;
  }
  c = compare(base, neu, 0.05);
  EXPECT_TRUE(c.rows.empty());
  EXPECT_EQ(c.noisy.size(), 4u);
  EXPECT_EQ(c.exit_status(), 0);
}

TEST(PerfNoise, ADescheduledCallerOrSpreadRepetitionsMarkTheResultNoisy) {
  ts::perf::SetResult quiet;
  quiet.samples_s = {1.00e-3, 1.02e-3, 1.01e-3};
  quiet.cpu_samples_s = {0.99e-3, 1.01e-3, 1.00e-3};
  ts::perf::summarize(quiet);
  ts::perf::classify_noise(quiet, 0.0, true);
  EXPECT_EQ(quiet.noise, "");
  EXPECT_NEAR(quiet.cpu_wall, 1.00 / 1.01, 1e-9);  // the median of 0.99, 0.990196, 0.990099

  // Load 4: the calling thread had a third of the wall time; the repetitions agree.
  ts::perf::SetResult loaded = quiet;
  loaded.cpu_samples_s = {0.30e-3, 0.35e-3, 0.33e-3};
  ts::perf::classify_noise(loaded, 0.0, true);
  EXPECT_EQ(loaded.noise,
            "the calling thread ran 33 % of the wall time (another process had the "
            "core)");

  // A GPU timing's calling thread waits for the device: only the spread and steal count.
  ts::perf::classify_noise(loaded, 0.0, false);
  EXPECT_EQ(loaded.noise, "");

  ts::perf::SetResult spread;
  spread.samples_s = {1.0e-3, 1.5e-3, 1.1e-3};
  spread.cpu_samples_s = spread.samples_s;
  ts::perf::summarize(spread);
  ts::perf::classify_noise(spread, 7.5, true);
  EXPECT_EQ(
      spread.noise,
      "repetitions spread x1.50 (1.0 ms to 1.5 ms); the hypervisor took 7.5 % of the CPU time");
}

// Under load the pool's worker may be off its core when the caller runs out of pieces; the
// caller then runs the worker's share too, its CPU time still matching its wall time
// (perf/README.md, "Late workers"): a fifth of the offers missed by an awake worker marks the
// result noisy; misses of a sleeping worker (its futex wake-up) do not count.
TEST(PerfNoise, WorkersOffTheirCoresMarkTheResultNoisy) {
  ts::perf::SetResult r;
  r.samples_s = {1.00e-3, 1.02e-3, 1.01e-3};
  r.cpu_samples_s = {0.99e-3, 1.01e-3, 1.00e-3};
  ts::perf::summarize(r);
  r.offered = 300;
  r.withdrawn = 291;
  r.missed = 291;
  ts::perf::classify_noise(r, 0.0, true);
  EXPECT_EQ(r.noise,
            "the pool's workers missed 291 of 300 jobs while off their cores (the calling thread "
            "ran their pieces)");
  r.missed = 60;  // a fifth: not more than kMaxMissed
  ts::perf::classify_noise(r, 0.0, true);
  EXPECT_EQ(r.noise, "");
  r.offered = 9;  // too few offers to judge
  r.withdrawn = r.missed = 9;
  ts::perf::classify_noise(r, 0.0, true);
  EXPECT_EQ(r.noise, "");
  r.offered = 300;
  r.withdrawn = r.missed = 291;
  ts::perf::classify_noise(r, 0.0, false);  // a GPU timing
  EXPECT_EQ(r.noise, "");
}

// Another library's workers waiting for a core, or another process on the core a case left
// idle, leave the calling thread's CPU time and the pool's counts alone (perf/README.md,
// "Neighbours"): waits summed over the threads above a tenth of the wall time, or other processes
// above 10 % of the machine's CPU time, mark the result noisy.
TEST(PerfNoise, ThreadsWaitingForACoreOrBusyNeighboursMarkTheResultNoisy) {
  ts::perf::SetResult r;
  r.samples_s = {1.00e-3, 1.02e-3, 1.01e-3};
  r.cpu_samples_s = {0.99e-3, 1.01e-3, 1.00e-3};
  r.iterations = 10;
  ts::perf::summarize(r);
  r.waited = {3.06e-3, 2.02e-3, 1.0e-3};  // 0.306, 0.198, 0.099 of the wall time
  ts::perf::classify_noise(r, 0.0, true);
  EXPECT_NEAR(r.waited_share, 2.02 / 10.2, 1e-12);  // the middle repetition
  EXPECT_EQ(r.noise,
            "the process's threads waited 20 % of the wall time for a core (another process's "
            "threads, or another library's spinning in this one)");
  r.waited = {0.5e-3, 1.0e-3, 0.2e-3};  // a median of 0.099: not more than kMaxWaited
  ts::perf::classify_noise(r, 0.0, true);
  EXPECT_EQ(r.noise, "");
  ts::perf::classify_noise(r, 0.0, true, 12.6);
  EXPECT_EQ(r.noise, "other processes used 13 % of the machine's CPU time");
  ts::perf::classify_noise(r, 0.0, true, 10.0);
  EXPECT_EQ(r.noise, "");
  r.waited = {3.06e-3, 2.02e-3, 1.0e-3};
  ts::perf::classify_noise(r, 0.0, false, 50.0);  // a GPU timing
  EXPECT_EQ(r.noise, "");
}

// Before: 0 pairs compared, exit status 0, whatever the reports held.
TEST(PerfCompare, NothingMatchedIsAnErrorThatSaysWhy) {
  const json base = make_report(kBase, 1);
  const std::string no_op = error_text([&] {
    compare(base, make_report({{"neg/float32/16/contiguous", "unary", "optimized", 1.0}}, 1), 0.05);
  });
  EXPECT_EQ(no_op.rfind("compare: nothing to compare", 0), 0u) << no_op;
  EXPECT_NE(no_op.find("no op in common"), std::string::npos) << no_op;
  EXPECT_NE(no_op.find("BASE: 4 ok results, ops add, exp, mul; kernel sets optimized, reference"),
            std::string::npos)
      << no_op;
  const std::string no_set = error_text([&] {
    compare(base, make_report({{"add/float32/16/contiguous", "binary", "aten", 1.0}}, 1), 0.05);
  });
  EXPECT_NE(no_set.find("no kernel set in common"), std::string::npos) << no_set;
  const std::string no_case = error_text([&] {
    compare(base, make_report({{"add/float32/64/contiguous", "binary", "optimized", 1.0}}, 1),
            0.05);
  });
  EXPECT_NE(no_case.find("the ops and kernel sets overlap but no case does"), std::string::npos)
      << no_case;
  json skipped = make_report({{"add/float32/16/contiguous", "binary", "optimized", 1.0}}, 1);
  skipped["cases"][0]["results"]["optimized"] = {{"status", "skipped"}, {"reason", "no kernel"}};
  const std::string no_ok = error_text([&] { compare(base, skipped, 0.05); });
  EXPECT_NE(no_ok.find("NEW has no ok result"), std::string::npos) << no_ok;
}

// Before: a case gone from NEW was a line in the summary and the gate passed.
TEST(PerfCompare, PairsMissingFromNewFailUnlessAllowed) {
  const json base = make_report(kBase, 1);
  json neu = make_report({{"add/float32/16/contiguous", "binary", "optimized", 1.0},
                          {"exp/float32/16/contiguous", "unary", "optimized", 4.0},
                          {"exp/float32/16/contiguous", "unary", "reference", 40.0}},
                         1);
  neu["cases"][1]["results"]["reference"] = {{"status", "error"}, {"reason", "boom"}};
  const ts::reports::Comparison c = compare(base, neu, 0.05);
  EXPECT_EQ(c.regressions, 0);
  ASSERT_EQ(c.missing.size(), 2u);
  EXPECT_EQ(c.missing[0].pair, "exp/float32/16/contiguous/reference");
  EXPECT_EQ(c.missing[0].in_new, "error");
  EXPECT_EQ(c.missing[1].pair, "mul/float32/16/contiguous/optimized");
  EXPECT_EQ(c.missing[1].in_new, "absent");
  EXPECT_EQ(c.exit_status(), 1);
  EXPECT_EQ(compare(base, neu, 0.05, /*allow_missing=*/true).exit_status(), 0);

  std::ostringstream out;
  ts::reports::print_comparison(c, out);
  const std::string text = out.str();
  const size_t listed = text.find(
      "-- 2 case/set pairs measured in base are missing from new (a failure; --allow-missing "
      "accepts) --\n  exp/float32/16/contiguous/reference  (error in new)\n"
      "  mul/float32/16/contiguous/optimized\n");
  ASSERT_NE(listed, std::string::npos) << text;
  EXPECT_LT(listed, text.find("case  "));  // before the table
  EXPECT_NE(text.find("result: FAIL (2 pairs missing from new)"), std::string::npos) << text;
}

TEST(PerfCompare, PairsOnlyInNewAreInformational) {
  std::vector<ts_test::Timing> more = kBase;
  more.push_back({"neg/float32/16/contiguous", "unary", "optimized", 1.0});
  const ts::reports::Comparison c = compare(make_report(kBase, 1), make_report(more, 1), 0.05);
  EXPECT_EQ(c.only_in_new, std::vector<std::string>{"neg/float32/16/contiguous/optimized"});
  EXPECT_TRUE(c.missing.empty());
  EXPECT_EQ(c.exit_status(), 0);
  std::ostringstream out;
  ts::reports::print_comparison(c, out);
  EXPECT_NE(out.str().find("-- 1 case/set pairs only in new (not compared) --\n"
                           "  neg/float32/16/contiguous/optimized\n"),
            std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("result: pass"), std::string::npos);
}

TEST(PerfCompare, ARegressionFailsAndTheVerdictSaysSo) {
  const json base = make_report(kBase, 1);
  json neu = make_report(kBase, 1);
  neu["cases"][1]["results"]["optimized"]["median_s"] = 3.0;  // mul: 2 s -> 3 s
  const ts::reports::Comparison c = compare(base, neu, 0.05);
  EXPECT_EQ(c.exit_status(), 1);
  std::ostringstream out;
  ts::reports::print_comparison(c, out);
  EXPECT_NE(out.str().find("result: FAIL (1 regressions beyond 5 %)"), std::string::npos)
      << out.str();
}

TEST(PerfCompare, ThresholdParsesPercentagesAndFractions) {
  EXPECT_DOUBLE_EQ(ts::reports::parse_threshold("5%"), 0.05);
  EXPECT_DOUBLE_EQ(ts::reports::parse_threshold("5"), 0.05);
  EXPECT_DOUBLE_EQ(ts::reports::parse_threshold("0.05"), 0.05);
  EXPECT_DOUBLE_EQ(ts::reports::parse_threshold("12.5%"), 0.125);
  EXPECT_THROW(ts::reports::parse_threshold("five"), ts::Error);
  EXPECT_THROW(ts::reports::parse_threshold("-5%"), ts::Error);
  EXPECT_THROW(ts::reports::parse_threshold("5%%"), ts::Error);
}

TEST(PerfCompare, HtmlIsOneSelfContainedPageWithBarsAndRooflines) {
  const json base = make_report(kBase, 1);
  const json neu = make_report({{"mul/float32/16/contiguous", "binary", "optimized", 4.0}}, 2);
  const ts::reports::Comparison c = compare(base, neu, 0.05);
  const std::string html = ts::reports::comparison_html(c, base, neu);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("mul/float32/16/contiguous optimized: 2x"), std::string::npos);
  EXPECT_NE(html.find("Roofline: new"), std::string::npos);
  EXPECT_NE(html.find("sgemm 100 GFLOP/s"), std::string::npos);
  // Nothing to fetch: no scripts, stylesheets or images from elsewhere.
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find("src="), std::string::npos);
  // The pairs gone from new: add and both exp pairs.
  EXPECT_NE(html.find("3 case/set pairs missing from new</h2>"), std::string::npos);
  EXPECT_NE(html.find("<li>exp/float32/16/contiguous/reference</li>"), std::string::npos);
}

TEST(PerfCompareMatrix, RatiosToTheBaselineAndGeomeansPerFamilyAcrossThreeReports) {
  const json a = make_report(kBase, 1);  // add 1, mul 2, exp 4 (optimized), exp 40 (reference)
  json b = make_report({{"add/float32/16/contiguous", "binary", "optimized", 2.0},
                        {"mul/float32/16/contiguous", "binary", "optimized", 8.0},
                        {"exp/float32/16/contiguous", "unary", "optimized", 1.0}},
                       2);
  json c = make_report({{"add/float32/16/contiguous", "binary", "optimized", 0.5},
                        {"mul/float32/16/contiguous", "binary", "optimized", 1.0},
                        {"exp/float32/16/contiguous", "unary", "optimized", 4.0},
                        {"exp/float32/16/contiguous", "unary", "reference", 20.0}},
                       4);
  c["cases"][2]["results"]["optimized"]["noisy"] = true;
  const ts::reports::Matrix m =
      ts::reports::compare_matrix({a, b, c}, {"a.json", "b.json", "c.json"}, 0, false);
  ASSERT_EQ(m.rows.size(), 4u);  // every (case, set) the baseline measured
  EXPECT_EQ(m.rows[3].case_name, "exp/float32/16/contiguous");
  EXPECT_EQ(m.rows[3].set, "reference");
  EXPECT_FALSE(m.rows[3].cells[1].ok);  // b has no reference set
  auto family = [&](const std::string& name) {
    for (const auto& f : m.families) {
      if (f.family == name) return f;
    }
    return ts::reports::MatrixFamily{};
  };
  // binary: b is 2x and 4x the baseline -> sqrt(8); c is 0.5x and 0.5x -> 0.5.
  EXPECT_NEAR(family("binary").geomean[1], std::sqrt(8.0), 1e-12);
  EXPECT_NEAR(family("binary").geomean[2], 0.5, 1e-12);
  EXPECT_NEAR(family("binary").geomean[0], 1.0, 1e-12);
  // unary: b's exp optimized 1/4; c's is noisy and left out, its exp reference 20/40.
  EXPECT_NEAR(family("unary").geomean[1], 0.25, 1e-12);
  EXPECT_EQ(family("unary").cases[2], 1);
  EXPECT_NEAR(family("unary").geomean[2], 0.5, 1e-12);
  EXPECT_EQ(m.families.back().family, "all");
  EXPECT_NEAR(m.families.back().geomean[2], std::pow(0.5 * 0.5 * 0.5, 1.0 / 3), 1e-12);

  std::ostringstream out;
  ts::reports::print_matrix(m, out);
  EXPECT_NE(out.str().find("[1] a.json (baseline)"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("x0.250"), std::string::npos) << out.str();
  const std::string html = ts::reports::matrix_html(m);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  size_t svgs = 0;
  for (size_t p = html.find("<svg"); p != std::string::npos; p = html.find("<svg", p + 1)) ++svgs;
  EXPECT_EQ(svgs, 2u);  // one per family: binary, unary

  EXPECT_EQ(error_text([&] {
              ts::reports::compare_matrix({a, b}, {"a", "b"}, 2, false);
            }),
            "compare: --baseline 3 is not a report: give 1 to 2");
}

}  // namespace
