// `touchstone conform --isolate` against the faulty plug-in (Note [Planted faults] in
// tests/plugins/faulty_plugin.cpp): every planted bug is caught case by case, the run completes,
// and the JSON report and JUnit XML say exactly which.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "conformance/report.h"
#include "touchstone/sanitizers.h"

namespace {

namespace fs = std::filesystem;

struct FaultyRun {
  int exit_status = -1;
  nlohmann::json report;
  std::string junit;
  // The second run: --repeat 3 over the flaky abs and the int8 add seen through linear.
  int repeat_exit_status = -1;
  nlohmann::json repeat_report;
  std::string repeat_junit, repeat_output;
};

size_t occurrences(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The second run, in process: --repeat 3 and at most 2 failures printed.
void run_repeated(const fs::path& dir) {
  const std::string cmd = std::string(TS_CLI_PATH) + " conform --kernels faulty --plugin " +
                          TS_FAULTY_PLUGIN_PATH +
                          " --ops abs,linear --dtypes int8,float32 --no-grad --repeat 3"
                          " --max-failures-shown 2 --report " +
                          (dir / "f.json").string() + " --junit " + (dir / "f.xml").string() +
                          " > " + (dir / "f.txt").string() + " 2>&1";
  const int status = std::system(cmd.c_str());
  std::ofstream(dir / "f_status.txt") << (WIFEXITED(status) ? WEXITSTATUS(status) : -1) << "\n";
}

// Runs the faulty set into `dir`: the report r.json, the JUnit r.xml; returns the exit status.
int run_faulty(const fs::path& dir) {
  fs::create_directories(dir);
  run_repeated(dir);
  const std::string cmd = std::string(TS_CLI_PATH) + " conform --kernels faulty --plugin " +
                          TS_FAULTY_PLUGIN_PATH +
                          " --ops mul,exp,sub,neg,sqrt,cos,relu --dtypes int32,float32,float64"
                          " --isolate --timeout 1 --report " +
                          (dir / "r.json").string() + " --junit " + (dir / "r.xml").string() +
                          " > " + (dir / "out.txt").string() + " 2>&1";
  const int status = std::system(cmd.c_str());
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ofstream(dir / "status.txt") << code << "\n";
  return code;
}

// Note [One faulty run]
// ctest makes the run once (the fixture conform.faulty.run, TS_FAULTY_FRESH=1) into
// TS_FAULTY_DIR and every test case reads it; run by hand, the binary makes its own.
const FaultyRun& faulty_run() {
  static const FaultyRun run = [] {
    FaultyRun r;
    const char* shared = std::getenv("TS_FAULTY_DIR");
    const bool fresh = shared == nullptr || std::getenv("TS_FAULTY_FRESH") != nullptr;
    const fs::path dir =
        shared != nullptr ? fs::path(shared)
                          : fs::temp_directory_path() / ("ts_faults_" + std::to_string(::getpid()));
    if (fresh) {
      fs::remove_all(dir);
      run_faulty(dir);
    }
    std::ifstream(dir / "status.txt") >> r.exit_status;
    std::ifstream in(dir / "r.json");
    if (in) r.report = nlohmann::json::parse(in);
    r.junit = read_text(dir / "r.xml");
    std::ifstream(dir / "f_status.txt") >> r.repeat_exit_status;
    std::ifstream f(dir / "f.json");
    if (f) r.repeat_report = nlohmann::json::parse(f);
    r.repeat_junit = read_text(dir / "f.xml");
    r.repeat_output = read_text(dir / "f.txt");
    if (shared == nullptr) fs::remove_all(dir);
    return r;
  }();
  return run;
}

// The cases of `op` in `dtype` whose sample, layout, variant and check match (empty: any), in
// the first run's report (or `report`).
std::vector<nlohmann::json> cases(const std::string& op, const std::string& dtype,
                                  const std::string& sample = "", const std::string& layout = "",
                                  const std::string& variant = "", const std::string& check = "",
                                  const nlohmann::json* report = nullptr) {
  std::vector<nlohmann::json> out;
  for (const nlohmann::json& c : (report ? *report : faulty_run().report).at("cases")) {
    if (c["op"] != op || c["dtype"] != dtype) continue;
    if (!sample.empty() && c["sample"] != sample) continue;
    if (!layout.empty() && c["layout"] != layout) continue;
    if (!variant.empty() && c["variant"] != variant) continue;
    if (!check.empty() && c["check"] != check) continue;
    out.push_back(c);
  }
  return out;
}

std::string status_of(const std::string& op, const std::string& dtype, const std::string& sample,
                      const std::string& layout, const std::string& variant = "functional",
                      const std::string& check = "forward") {
  const auto v = cases(op, dtype, sample, layout, variant, check);
  return v.size() == 1 ? v[0]["status"].get<std::string>() : "missing";
}

// One expected status: `status` for the case of the op in dtype, sample, layout, variant, check.
struct Status {
  std::string status, dtype, sample, layout, variant = "functional", check = "forward";
};

void expect_statuses(const std::string& op, const std::vector<Status>& want) {
  for (const Status& w : want) {
    EXPECT_EQ(status_of(op, w.dtype, w.sample, w.layout, w.variant, w.check), w.status)
        << op << " " << w.dtype << " " << w.sample << " " << w.layout << " " << w.variant << " "
        << w.check;
  }
}

TEST(ConformanceFaults, TheRunCompletesAndFails) {
  const FaultyRun& r = faulty_run();
  ASSERT_FALSE(r.report.is_null()) << "no report written";
  EXPECT_EQ(r.exit_status, 1);
  const auto& s = r.report["summary"];
  EXPECT_GT(s["passed"].get<int>(), 1000);
  EXPECT_GT(s["failed"].get<int>(), 0);
  EXPECT_GT(s["crashed"].get<int>(), 0);
  EXPECT_GT(s["timeout"].get<int>(), 0);
  EXPECT_GT(s["overrun"].get<int>(), 0);
  EXPECT_EQ(r.report["cases"].size(), s["cases"].get<size_t>());
  EXPECT_EQ(ts::conformance::schema_violations(r.report), std::vector<std::string>{});
}

TEST(ConformanceFaults, WrongValueForOneDtype) {
  expect_statuses("mul", {{"failed", "int32", "same", "contiguous"},
                          {"failed", "int32", "same", "out_resized", "out"},
                          {"failed", "int32", "same", "contiguous", "inplace"},
                          {"passed", "float32", "same", "contiguous"},
                          {"passed", "float64", "big_bcast", "transposed"},
                          {"passed", "float64", "same", "contiguous", "functional", "backward"}});
}

TEST(ConformanceFaults, IgnoredStride) {
  expect_statuses("exp", {{"passed", "float32", "big", "contiguous"},
                          {"failed", "float32", "big", "sliced_step2"},
                          {"failed", "float32", "big", "expanded"},
                          {"passed", "float64", "big", "sliced_step2"}});
}

TEST(ConformanceFaults, WrongBroadcast) {
  expect_statuses("sub", {{"passed", "float32", "same", "contiguous"},
                          {"passed", "float32", "bcast_trailing", "contiguous"},
                          {"failed", "float32", "bcast_outer", "contiguous"},
                          {"passed", "float64", "bcast_outer", "contiguous"}});
}

TEST(ConformanceFaults, WrongGradientOnly) {
  for (const nlohmann::json& c : cases("neg", "float64")) {
    if (c["check"] == "forward") {
      EXPECT_EQ(c["status"], "passed") << c.dump();
    }
  }
  expect_statuses("neg", {{"failed", "float64", "big", "contiguous", "functional", "backward"},
                          {"failed", "float64", "cube", "permuted", "functional", "backward"},
                          {"passed", "float32", "big", "contiguous", "functional", "backward"}});
}

TEST(ConformanceFaults, CrashIsACaseAndTheGroupGoesOn) {
  const auto crashed = cases("sqrt", "float32", "big", "contiguous", "functional", "forward");
  ASSERT_EQ(crashed.size(), 1u);
  EXPECT_EQ(crashed[0]["status"], "crashed");
  // SIGSEGV; under AddressSanitizer its handler reports and aborts (SIGABRT) instead.
  EXPECT_NE(crashed[0]["message"].get<std::string>().find("killed by signal"), std::string::npos)
      << crashed[0].dump();
  // Cases after the crash ran in a fresh child.
  expect_statuses("sqrt", {{"passed", "float32", "big", "out_resized", "out"},
                           {"passed", "float32", "size1", "contiguous"},
                           {"passed", "float64", "big", "contiguous"}});
}

TEST(ConformanceFaults, HangIsATimeout) {
  expect_statuses("cos", {{"timeout", "float32", "mat3x4", "contiguous"},
                          {"passed", "float32", "mat3x4", "transposed"},
                          {"passed", "float32", "big", "contiguous"}});
}

TEST(ConformanceFaults, OneElementOverrun) {
  const auto c = cases("relu", "float32", "big", "contiguous", "functional", "forward");
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0]["status"], "overrun");
  EXPECT_NE(c[0]["message"].get<std::string>().find("at byte 0 past the end of a 7844-byte"),
            std::string::npos)
      << c[0].dump();
  EXPECT_EQ(status_of("relu", "float64", "big", "contiguous"), "passed");
}

TEST(ConformanceFaults, EveryFailureHasAReproLineAndAJUnitEntry) {
  int failures = 0;
  for (const nlohmann::json& c : faulty_run().report.at("cases")) {
    if (c["status"] == "passed") continue;
    ++failures;
    const std::string repro = c.value("repro", "");
    EXPECT_EQ(repro.rfind("touchstone conform --kernels faulty --plugin ", 0), 0u) << c.dump();
    EXPECT_NE(repro.find("--ops " + c["op"].get<std::string>()), std::string::npos) << repro;
    // The run's --isolate --timeout 1 (a hang reruns as it timed out); no --repeat (not given).
    EXPECT_NE(repro.find(" --isolate --timeout 1"), std::string::npos) << repro;
    EXPECT_EQ(repro.find("--repeat"), std::string::npos) << repro;
  }
  EXPECT_GT(failures, 0);
}

// Note [Repeated cases]: abs float32 is wrong on every third functional call, so with --repeat 3
// each of its functional forward cases fails in exactly one of its three runs.
TEST(ConformanceFaults, FlakyCasesAreReportedWithTheirCount) {
  const FaultyRun& r = faulty_run();
  ASSERT_FALSE(r.repeat_report.is_null()) << r.repeat_output;
  EXPECT_EQ(r.repeat_exit_status, 1);
  EXPECT_EQ(ts::conformance::schema_violations(r.repeat_report), std::vector<std::string>{});
  EXPECT_EQ(r.repeat_report["options"]["repeat"], 3);
  int64_t flaky = 0;
  for (const nlohmann::json& c : r.repeat_report.at("cases")) {
    if (c["op"] != "abs") continue;
    EXPECT_EQ(c["runs"], 3) << c.dump();
    const bool planted = c["dtype"] == "float32" && c["variant"] == "functional";
    if (c["status"] == "passed") continue;
    ++flaky;
    EXPECT_TRUE(planted) << c.dump();
    EXPECT_EQ(c["status"], "flaky") << c.dump();
    EXPECT_EQ(c["failed_runs"], 1) << c.dump();
    EXPECT_EQ(c["message"].get<std::string>().rfind("failed in 1 of 3 runs; first: failed: ", 0),
              0u)
        << c.dump();
    EXPECT_NE(c["repro"].get<std::string>().find(" --repeat 3"), std::string::npos) << c.dump();
  }
  EXPECT_GT(flaky, 10);
  EXPECT_EQ(r.repeat_report["summary"]["flaky"], flaky);
  EXPECT_EQ(occurrences(r.repeat_junit, "<failure type=\"flaky\""), static_cast<size_t>(flaky));
}

// Note [Attribution]: the int8 add's wrong tail shows in linear int8 (mm, then the bias added);
// the report names both kernels and points at add, which fails alone, not at mm or mv.
TEST(ConformanceFaults, CompositeFailureIsAttributedToTheKernelThatFailsAlone) {
  const nlohmann::json& report = faulty_run().repeat_report;
  int64_t attributed = 0;
  for (const nlohmann::json& c : cases("linear", "int8", "", "", "", "", &report)) {
    if (c["status"] == "passed") continue;
    ++attributed;
    EXPECT_EQ(c["status"], "failed") << c.dump();
    EXPECT_EQ(c["failed_runs"], 3) << c.dump();
    const auto kernels = c.value("kernels", std::vector<std::string>{});
    EXPECT_NE(std::find(kernels.begin(), kernels.end(), "add int8 faulty"), kernels.end())
        << c.dump();
    // The product: mm, or mv for a 1-D input.
    EXPECT_TRUE(std::find(kernels.begin(), kernels.end(), "mm int8 faulty") != kernels.end() ||
                std::find(kernels.begin(), kernels.end(), "mv int8 faulty") != kernels.end())
        << c.dump();
    const auto alone = c.value("fails_alone", std::vector<std::string>{});
    ASSERT_EQ(alone.size(), 1u) << c.dump();
    EXPECT_EQ(alone[0].rfind("add int8 faulty fails alone: its own forward cases, ", 0), 0u)
        << alone[0];
    // The tail bug does not depend on grad mode: both passes see it.
    EXPECT_NE(alone[0].find("with grad mode on"), std::string::npos) << alone[0];
    EXPECT_NE(alone[0].find("with grad mode off"), std::string::npos) << alone[0];
  }
  EXPECT_GT(attributed, 0);
  for (const nlohmann::json& c : cases("linear", "float32", "", "", "", "", &report)) {
    EXPECT_EQ(c["status"], "passed") << c.dump();
  }
  EXPECT_NE(faulty_run().repeat_junit.find("add int8 faulty fails alone"), std::string::npos);
}

// neg float64 is wrong only with grad mode off: its backward cases point at neg under no-grad.
TEST(ConformanceFaults, BackwardFailureIsAttributedUnderNoGrad) {
  int64_t attributed = 0;
  for (const nlohmann::json& c : cases("neg", "float64", "", "", "functional", "backward")) {
    if (c["status"] != "failed") continue;
    ++attributed;
    const auto alone = c.value("fails_alone", std::vector<std::string>{});
    ASSERT_EQ(alone.size(), 1u) << c.dump();
    EXPECT_EQ(alone[0].rfind("neg float64 faulty fails alone: its own forward cases, ", 0), 0u)
        << alone[0];
    EXPECT_NE(alone[0].find("with grad mode off"), std::string::npos) << alone[0];
    EXPECT_EQ(alone[0].find("with grad mode on"), std::string::npos) << alone[0];
  }
  EXPECT_GT(attributed, 0);
}

// Note [Failure cap]: --max-failures-shown 2 prints two failing cases, then the count of the rest;
// the report keeps them all.
TEST(ConformanceFaults, FailureOutputIsCapped) {
  const FaultyRun& r = faulty_run();
  const auto& s = r.repeat_report["summary"];
  const int64_t failing =
      s["cases"].get<int64_t>() - s["passed"].get<int64_t>() - s["documented"].get<int64_t>();
  ASSERT_GT(failing, 2);
  EXPECT_EQ(occurrences(r.repeat_output, "\n  repro: "), 2u) << r.repeat_output;
  EXPECT_NE(r.repeat_output.find("... and " + std::to_string(failing - 2) +
                                 " more failures (see the report; --max-failures-shown N shows "
                                 "more)\n"),
            std::string::npos)
      << r.repeat_output;
  EXPECT_EQ(r.repeat_report["cases"].size(), s["cases"].get<size_t>());
}

// The attributes of the start tag at `at` ("<testsuite name=..." -> {name: ...}).
std::map<std::string, std::string> attributes(const std::string& x, size_t at) {
  std::map<std::string, std::string> out;
  const std::string tag = x.substr(at, x.find('>', at) - at);
  static const std::regex attr("([a-z]+)=\"([^\"]*)\"");
  for (std::sregex_iterator it(tag.begin(), tag.end(), attr), end; it != end; ++it) {
    out[(*it)[1]] = (*it)[2];
  }
  return out;
}

// Note [JUnit counts]: each suite's tests/failures/errors/skipped/time attributes must equal what
// its <testcase> elements hold, and the totals the JSON report's summary.
TEST(ConformanceFaults, JUnitCountsMatchTheCases) {
  const std::string& x = faulty_run().junit;
  ASSERT_FALSE(x.empty()) << "no JUnit written";
  struct Counts {
    int64_t tests = 0, failures = 0, errors = 0, skipped = 0;
  };
  Counts total;
  std::map<std::string, std::set<std::string>> error_types;  // suite -> <error type=...>
  size_t suites = 0;
  for (size_t at = x.find("<testsuite "); at != std::string::npos;
       at = x.find("<testsuite ", at + 1)) {
    ++suites;
    const auto attr = attributes(x, at);
    const std::string suite = attr.at("name");
    const size_t end = x.find("</testsuite>", at);
    ASSERT_NE(end, std::string::npos);
    Counts c;
    double seconds = 0;
    for (size_t t = x.find("<testcase ", at); t < end; t = x.find("<testcase ", t + 1)) {
      ++c.tests;
      seconds += std::stod(attributes(x, t).at("time"));
      const size_t close = x.find("<testcase ", t + 1) < end ? x.find("<testcase ", t + 1) : end;
      const std::string body = x.substr(t, close - t);
      c.failures += body.find("<failure type=\"failed\"") != std::string::npos;
      c.skipped += body.find("<skipped ") != std::string::npos;
      const size_t e = body.find("<error type=\"");
      if (e != std::string::npos) {
        ++c.errors;
        error_types[suite].insert(attributes(body, e).at("type"));
      }
    }
    EXPECT_EQ(std::stoll(attr.at("tests")), c.tests) << suite;
    EXPECT_EQ(std::stoll(attr.at("failures")), c.failures) << suite;
    EXPECT_EQ(std::stoll(attr.at("errors")), c.errors) << suite;
    EXPECT_EQ(std::stoll(attr.at("skipped")), c.skipped) << suite;
    EXPECT_NEAR(std::stod(attr.at("time")), seconds, 1e-5 * static_cast<double>(c.tests) + 1e-9)
        << suite;
    total.tests += c.tests;
    total.failures += c.failures;
    total.errors += c.errors;
    total.skipped += c.skipped;
  }
  EXPECT_EQ(suites, 7u);  // mul, exp, sub, neg, sqrt, cos, relu
  const auto& s = faulty_run().report["summary"];
  const auto root = attributes(x, x.find("<testsuites "));
  EXPECT_EQ(std::stoll(root.at("tests")), total.tests);
  EXPECT_EQ(std::stoll(root.at("failures")), total.failures);
  EXPECT_EQ(std::stoll(root.at("errors")), total.errors);
  EXPECT_EQ(std::stoll(root.at("skipped")), total.skipped);
  EXPECT_EQ(total.tests, s["cases"].get<int64_t>());
  EXPECT_EQ(total.failures, s["failed"].get<int64_t>());
  EXPECT_EQ(total.errors, s["errors"].get<int64_t>() + s["crashed"].get<int64_t>() +
                              s["timeout"].get<int64_t>() + s["overrun"].get<int64_t>());
  EXPECT_EQ(total.skipped, s["documented"].get<int64_t>());
  // The planted crash, hang and overrun are errors of their kind, never failures.
#if TS_ASAN
  // Under ASan the planted SIGSEGV dies through ASan's report (symbolized, at -O0, slowly on a
  // loaded machine), so the fixture's 1 s per-case timeout may fire first for some cases.
  EXPECT_TRUE(error_types["sqrt"].count("crashed") == 1 && error_types["sqrt"].size() <= 2 &&
              (error_types["sqrt"].size() == 1 || error_types["sqrt"].count("timeout") == 1));
#else
  EXPECT_EQ(error_types["sqrt"], std::set<std::string>{"crashed"});
#endif
  EXPECT_EQ(error_types["cos"], std::set<std::string>{"timeout"});
  EXPECT_EQ(error_types["relu"], std::set<std::string>{"overrun"});
  EXPECT_EQ(error_types.count("mul"), 0u);
  EXPECT_EQ(x.find("<failure type=\"crashed\""), std::string::npos);
}

}  // namespace
