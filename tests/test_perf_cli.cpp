// `touchstone bench|compare|env` run as a user runs them: exit statuses (0 fine, 1 a regression
// or a vanished case, 2 usage or I/O error) and the messages. Bench runs are tiny (neg on 1 M
// floats, one short repetition, no roofline probes) or stop at the checks, so each test takes
// about a second.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "perf_test_reports.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct Outcome {
  int status = -1;     // the exit status; 128 + N when killed by signal N (an abort is 134)
  std::string output;  // stdout and stderr
};

// Runs `touchstone ARGS` through the shell, with `env` (VAR=value ..., or `env -u VAR ...`)
// before it.
Outcome touchstone(const std::string& args, const std::string& env = "") {
  const std::string cmd = env + " " + TS_CLI_PATH + " " + args + " 2>&1";
  Outcome r;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) return r;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof(buf), p)) > 0;) r.output.append(buf, n);
  const int st = ::pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : -1;
  return r;
}

bool has(const Outcome& r, const std::string& part) {
  return r.output.find(part) != std::string::npos;
}

using ts_test::kBase;
// kBase with mul four times slower: a regression.
const std::vector<ts_test::Timing> kMulSlower = [] {
  std::vector<ts_test::Timing> t = kBase;
  t[1] = {"mul/float32/16/contiguous", "binary", "optimized", 4.0};
  return t;
}();

class PerfCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ts_perf_cli_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Writes `report` into the test's directory; returns its path.
  std::string write(const std::string& name, const json& report) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path) << report.dump();
    return path;
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  // `touchstone compare BASE NEW EXTRA`: kBase written to b.json, `neu` to n.json.
  Outcome compare(const std::vector<ts_test::Timing>& neu, const std::string& extra = "") {
    return touchstone("compare " + write("b.json", ts_test::make_report(kBase, 1)) + " " +
                      write("n.json", ts_test::make_report(neu, 1)) + extra);
  }

  // `touchstone bench` on the tiny selection, with `changes` replacing or adding flags (an
  // empty value: a flag without one).
  Outcome bench(const std::map<std::string, std::string>& changes) {
    std::map<std::string, std::string> flags = {
        {"--quick", ""},  {"--no-probes", ""},    {"--kernels", "optimized"},
        {"--ops", "neg"}, {"--repetitions", "1"}, {"--min-time", "0.001"}};
    for (const auto& [flag, value] : changes) flags[flag] = value;
    std::string args = "bench";
    for (const auto& [flag, value] : flags) {
      args += " " + flag + (value.empty() ? "" : " '" + value + "'");
    }
    return touchstone(args);
  }

  fs::path dir_;
};

// ---- compare ----------------------------------------------------------------------------------

TEST_F(PerfCli, CompareWithoutACommonCaseIsAnError) {
  const Outcome r = compare({{"neg/float32/16/contiguous", "unary", "optimized", 1}});
  EXPECT_EQ(r.status, 2) << r.output;  // before: 0, "0 case/set pairs"
  EXPECT_TRUE(has(r,
                  "touchstone: compare: nothing to compare, no case/set pair is measured in "
                  "both reports: no op in common. BASE '" +
                      path("b.json") + "': 4 ok results"))
      << r.output;
}

TEST_F(PerfCli, CasesMissingFromNewFailUnlessAllowed) {
  std::vector<ts_test::Timing> fewer = kBase;
  fewer.erase(fewer.begin() + 1);  // mul
  const Outcome r = compare(fewer);
  EXPECT_EQ(r.status, 1) << r.output;  // before: 0
  EXPECT_TRUE(has(r,
                  "-- 1 case/set pairs measured in base are missing from new (a failure; "
                  "--allow-missing accepts) --\n  mul/float32/16/contiguous/optimized\n"))
      << r.output;
  EXPECT_TRUE(has(r, "result: FAIL (1 pairs missing from new)")) << r.output;
  const Outcome allowed =
      touchstone("compare --allow-missing " + path("b.json") + " " + path("n.json"));
  EXPECT_EQ(allowed.status, 0) << allowed.output;
  EXPECT_TRUE(has(allowed, "(allowed by --allow-missing)")) << allowed.output;
}

TEST_F(PerfCli, CasesOnlyInNewAreListedAndPass) {
  std::vector<ts_test::Timing> more = kBase;
  more.push_back({"neg/float32/16/contiguous", "unary", "optimized", 1.0});
  const Outcome r = compare(more);
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_TRUE(has(r,
                  "-- 1 case/set pairs only in new (not compared) --\n"
                  "  neg/float32/16/contiguous/optimized\n"))
      << r.output;
}

TEST_F(PerfCli, ARegressionExitsOneAndWritesThePage) {
  const std::string html = path("page.html");
  const Outcome r = compare(kMulSlower, " --html " + html);
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_TRUE(has(r, "REGRESSION")) << r.output;
  std::ifstream in(html);
  std::string first;
  std::getline(in, first);
  EXPECT_EQ(first, "<!DOCTYPE html>");
}

// An unwritable --html is found before comparing, so that 1 always means a regression.
TEST_F(PerfCli, AnUnwritableHtmlPathExitsTwoBeforeComparing) {
  const std::string html = path("no/such/dir/page.html");
  const Outcome r = compare(kMulSlower, " --html " + html);
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_EQ(r.output, "touchstone: compare: --html: cannot write '" + html + "': directory '" +
                          path("no/such/dir") + "': No such file or directory\n");
  const Outcome to_dir =
      touchstone("compare " + path("b.json") + " " + path("n.json") + " --html " + dir_.string());
  EXPECT_EQ(to_dir.status, 2) << to_dir.output;
  EXPECT_TRUE(has(to_dir, "'" + dir_.string() + "': Is a directory")) << to_dir.output;
  EXPECT_FALSE(has(to_dir, "REGRESSION")) << to_dir.output;  // nothing compared
}

// Before: a directory aborted touchstone on an uncaught std::ios_failure (status 134).
TEST_F(PerfCli, UnreadableReportsExitTwoNamingThePath) {
  const std::string good = write("good.json", ts_test::make_report(kBase, 1));
  const std::string dir = dir_.string();
  Outcome r = touchstone("compare " + dir + " " + good);
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_EQ(r.output, "touchstone: compare: BASE: cannot read '" + dir + "': Is a directory\n");
  r = touchstone("compare " + good + " " + path("missing.json"));
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_EQ(r.output, "touchstone: compare: NEW: cannot read '" + path("missing.json") +
                          "': No such file or directory\n");
  std::ofstream(path("text.json")) << "not json";
  r = touchstone("compare " + good + " " + path("text.json"));
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(has(r, "touchstone: compare: NEW: '" + path("text.json") + "' is not JSON"))
      << r.output;
  json wrong = ts_test::make_report(kBase, 1);
  wrong.erase("machine");
  r = touchstone("compare " + good + " " + write("wrong.json", wrong));
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(has(r, "touchstone: compare: NEW: '" + path("wrong.json") +
                         "' does not match perf.schema.json (1 errors):"))
      << r.output;
}

TEST_F(PerfCli, TheHelpDocumentsTheExitStatuses) {
  for (const char* cmd : {"bench", "compare", "env"}) {
    const Outcome r = touchstone(std::string(cmd) + " --help");
    EXPECT_EQ(r.status, 0) << cmd;
    EXPECT_TRUE(has(r, "Exit status: 0 ")) << cmd << ":\n" << r.output;
    EXPECT_TRUE(has(r, "  2 usage")) << cmd << ":\n" << r.output;
  }
  EXPECT_TRUE(has(touchstone("compare --help"), "  1 a regression beyond the threshold"));
}

// ---- bench ------------------------------------------------------------------------------------

TEST_F(PerfCli, BenchOfAnUnknownOpExitsTwo) {
  const Outcome r = bench({{"--ops", "nosuchop"}});
  EXPECT_EQ(r.status, 2) << r.output;  // before: 0, "0 cases"
  EXPECT_TRUE(has(r, "touchstone: bench: --ops: pattern 'nosuchop' selects no benchmark case"))
      << r.output;
}

TEST_F(PerfCli, BenchFlagsAreCheckedBeforeTheRun) {
  const std::string report = path("no/such/dir/r.json");
  const std::vector<std::pair<std::map<std::string, std::string>, std::string>> bad = {
      {{{"--threads", "-3"}}, "bench: --threads must be a positive number, got -3"},
      {{{"--threads", "0"}}, "bench: --threads must be a positive number, got 0"},
      {{{"--repetitions", "0"}}, "bench: --repetitions must be a positive number, got 0"},
      {{{"--min-time", "-1"}}, "bench: --min-time must be a positive number of seconds, got -1"},
      {{{"--min-time", "0"}}, "bench: --min-time must be a positive number of seconds, got 0"},
      {{{"--kernels", "nosuchset"}}, "bench: --kernels: no kernel set named 'nosuchset'"},
      {{{"--kernels", "optimized,optimized"}}, "bench: --kernels lists 'optimized' twice"},
      {{{"--kernels", "optimized,"}}, "bench: --kernels: empty name in 'optimized,'"},
      {{{"--dtypes", "float33"}}, "bench: --dtypes: unknown dtype 'float33'"},
      {{{"--dtypes", "float32,float"}}, "bench: --dtypes lists float32 twice"},
      {{{"--ops", "neg,,abs"}}, "bench: --ops: empty name in 'neg,,abs'"},
      {{{"--plant-slowdown", "neg"}}, "bench: --plant-slowdown expects PATTERN=FACTOR"},
      {{{"--plant-slowdown", "neg=2x"}}, "bench: --plant-slowdown: FACTOR must be an integer"},
      {{{"--report", report}},
       "bench: --report: cannot write '" + report + "': directory '" + path("no/such/dir") +
           "': No such file or directory"},
  };
  for (const auto& [flags, message] : bad) {
    const Outcome r = bench(flags);
    EXPECT_EQ(r.status, 2) << flags.begin()->first << " " << flags.begin()->second << "\n"
                           << r.output;
    EXPECT_TRUE(has(r, "touchstone: " + message)) << r.output;
    EXPECT_FALSE(has(r, "cases x")) << "the run started:\n" << r.output;
  }
}

TEST_F(PerfCli, BenchListsWithBlanksAreTrimmed) {
  const std::string report = path("r.json");
  const Outcome r = bench({{"--ops", "neg, abs"},
                           {"--kernels", "optimized, reference"},
                           {"--dtypes", " float32"},
                           {"--report", report}});
  ASSERT_EQ(r.status, 0) << r.output;
  std::ifstream in(report);
  const json j = json::parse(in);
  std::set<std::string> names;
  for (const json& c : j["cases"]) {
    names.insert(c["name"].get<std::string>());
    EXPECT_EQ(c["results"]["reference"]["status"], "ok") << c.dump();
  }
  EXPECT_EQ(names, (std::set<std::string>{"neg/float32/1048576/contiguous",
                                          "abs/float32/1048576/contiguous"}));
  EXPECT_EQ(j["run"]["kernel_sets"], (json{"optimized", "reference"}));
}

// A kernel set that delegates a dtype (the legacy port hands int32 to optimized) is not timed
// there: the time would be the other set's. The case says so instead.
TEST_F(PerfCli, DelegatedCellsAreSkippedAndNamed) {
  const std::string report = path("r.json");
  const Outcome r = bench(
      {{"--kernels", "optimized,legacy"}, {"--dtypes", "float32,int32"}, {"--report", report}});
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_TRUE(has(r,
                  "kernel set 'legacy' delegates neg (int32, cpu) to 'optimized': not timed "
                  "as its own"))
      << r.output;
  std::ifstream in(report);
  const json j = json::parse(in);
  std::map<std::string, std::string> legacy;
  for (const json& c : j["cases"]) {
    legacy[c["name"].get<std::string>()] = c["results"]["legacy"]["status"].get<std::string>();
  }
  EXPECT_EQ(legacy,
            (std::map<std::string, std::string>{{"neg/float32/1048576/contiguous", "ok"},
                                                {"neg/int32/1048576/contiguous", "skipped"}}));
}

TEST_F(PerfCli, AnEmptySelectionExitsTwoUnlessAllowed) {
  const Outcome r = bench({{"--ops", "mm"}, {"--dtypes", "int32"}});
  EXPECT_EQ(r.status, 2) << r.output;  // before: 0
  EXPECT_TRUE(has(r,
                  "touchstone: bench: the selection is empty: no case of --ops 'mm' runs in "
                  "--dtypes int32 (--allow-empty accepts an empty run)"))
      << r.output;
  const Outcome allowed = bench({{"--ops", "mm"}, {"--dtypes", "int32"}, {"--allow-empty", ""}});
  EXPECT_EQ(allowed.status, 0) << allowed.output;
  EXPECT_TRUE(has(allowed, "0 cases, 0 skipped (no kernel), 0 errors")) << allowed.output;
}

// ---- env --------------------------------------------------------------------------------------

TEST_F(PerfCli, EnvRunsInAnOddEnvironmentAndListsTheVariables) {
  const std::string odd =
      "env -u TOUCHSTONE_CPU_CAPABILITY TOUCHSTONE_NUM_THREADS=lots TOUCHSTONE_KERNELS=nosuchset "
      "TOUCHSTONE_CPU_CACHE_MB=-1";
  const Outcome r = touchstone("env", odd);
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_TRUE(has(r, "environment (the variables touchstone reads):\n")) << r.output;
  EXPECT_TRUE(has(r, "  TOUCHSTONE_KERNELS                nosuchset    the default kernel set"))
      << r.output;
  EXPECT_TRUE(has(r, "  TOUCHSTONE_CPU_CAPABILITY         (unset)      ")) << r.output;
  EXPECT_TRUE(has(r, "  TOUCHSTONE_NUM_THREADS            lots         ")) << r.output;
  // JSON, with a value that is not UTF-8 (printed replaced, not thrown on).
  const Outcome j =
      touchstone("env --json", odd + " TOUCHSTONE_CPU_CACHE_MB=\"$(printf '\\377')\"");
  ASSERT_EQ(j.status, 0) << j.output;
  // The bad thread count is a warning on stderr (Note [Environment errors]), then the JSON.
  EXPECT_TRUE(has(j,
                  "touchstone: warning: TOUCHSTONE_NUM_THREADS='lots': expected a whole "
                  "number of threads"))
      << j.output;
  const json env = json::parse(j.output.substr(j.output.find('{')))["environment"];
  EXPECT_EQ(env["TOUCHSTONE_KERNELS"], "nosuchset");
  EXPECT_EQ(env["TOUCHSTONE_CPU_CAPABILITY"], nullptr);
  EXPECT_EQ(env["TOUCHSTONE_CPU_CACHE_MB"], "\xEF\xBF\xBD");  // U+FFFD
}

TEST_F(PerfCli, EnvFlagsAreChecked) {
  Outcome r = touchstone("env --threads 0");
  EXPECT_EQ(r.status, 2) << r.output;  // before: 0, the flag ignored
  EXPECT_EQ(r.output, "touchstone: env: --threads must be a positive number, got 0\n");
  r = touchstone("env --quick");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_EQ(r.output, "touchstone: env: --quick applies to --probe, which is not given\n");
}

}  // namespace
