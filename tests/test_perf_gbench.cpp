// The report's "benchmarks" array against Google Benchmark's own JSONReporter on the same runs:
// every member it writes, with the same value, aggregates (mean, median, stddev, cv) included.
#include <benchmark/benchmark.h>
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <vector>

#include "perf/gbench_json.h"

namespace {

using nlohmann::json;

// Hands every run to Google Benchmark's JSONReporter and keeps touchstone's JSON beside it.
class BothReporters : public benchmark::BenchmarkReporter {
 public:
  explicit BothReporters(std::ostream& out) {
    json_.SetOutputStream(&out);
    json_.SetErrorStream(&out);
  }
  bool ReportContext(const Context& c) override { return json_.ReportContext(c); }
  void ReportRuns(const std::vector<Run>& runs) override {
    json_.ReportRuns(runs);
    for (const Run& r : runs) ours.push_back(ts::perf::gbench_run_json(r));
  }
  void Finalize() override { json_.Finalize(); }

  std::vector<json> ours;

 private:
  benchmark::JSONReporter json_;
};

TEST(PerfGbench, RunsAreWrittenAsGoogleBenchmarksJsonReporterWritesThem) {
  benchmark::RegisterBenchmark("sum_of_squares",
                               [](benchmark::State& state) {
                                 double s = 0;
                                 for (auto _ : state) {
                                   for (int i = 0; i < 1000; ++i) s += double(i) * i;
                                   benchmark::DoNotOptimize(s);
                                 }
                               })
      ->Repetitions(3)
      ->Iterations(200)
      ->UseRealTime()
      ->Unit(benchmark::kMicrosecond);
  std::ostringstream out;
  BothReporters both(out);
  benchmark::RunSpecifiedBenchmarks(&both);
  benchmark::ClearRegisteredBenchmarks();
  const json theirs = json::parse(out.str()).at("benchmarks");
  ASSERT_EQ(theirs.size(), both.ours.size());
  bool saw_cv = false;
  for (size_t i = 0; i < theirs.size(); ++i) {
    const json& t = theirs[i];
    const json& o = both.ours[i];
    saw_cv = saw_cv || t.value("aggregate_name", "") == "cv";
    for (const auto& [key, value] : t.items()) {
      ASSERT_TRUE(o.contains(key)) << t.at("name") << ": no member " << key;
      if (value.is_number_float()) {
        EXPECT_NEAR(o.at(key).get<double>(), value.get<double>(),
                    1e-12 * std::abs(value.get<double>()))
            << t.at("name") << " " << key;
      } else {
        EXPECT_EQ(o.at(key), value) << t.at("name") << " " << key;
      }
    }
    for (const auto& [key, value] : o.items()) {
      EXPECT_TRUE(t.contains(key))
          << t.at("name") << ": touchstone writes " << key << ", Google Benchmark does not";
    }
  }
  EXPECT_TRUE(saw_cv) << "no coefficient-of-variation aggregate to check";
}

}  // namespace
