// The `touchstone` binary's conform, merge and ops commands as a user runs them: exit codes,
// messages, reports on disk (run identity, merge refusals, partial reports), the crash handler.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "conformance/report.h"
#include "touchstone/sanitizers.h"

namespace {

namespace fs = std::filesystem;

struct Outcome {
  int status = -1;  // as waitpid gives it
  std::string out, err;
  int exit_code() const { return WIFEXITED(status) ? WEXITSTATUS(status) : -1; }
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A scratch directory per test, removed at the end.
class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("ts_cli_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  // Runs `touchstone ARGS...` directly (no shell, so a signal death shows as one).
  Outcome touchstone(const std::vector<std::string>& args) const {
    const std::string out = path("stdout.txt"), err = path("stderr.txt");
    const pid_t pid = ::fork();
    if (pid == 0) {
      const int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      ::dup2(o, STDOUT_FILENO);
      ::dup2(e, STDERR_FILENO);
      std::vector<char*> argv{const_cast<char*>(TS_CLI_PATH)};
      for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      ::execv(TS_CLI_PATH, argv.data());
      ::_exit(127);
    }
    Outcome r;
    ::waitpid(pid, &r.status, 0);
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
  }

  nlohmann::json json_file(const std::string& name) const {
    std::ifstream in(path(name));
    return nlohmann::json::parse(in);
  }

  fs::path dir_;
};

// A small run: neg and exp in three dtypes, forward only (5 op x dtype groups).
std::vector<std::string> small_run(std::vector<std::string> more) {
  std::vector<std::string> args = {
      "conform",  "--kernels", "optimized", "--ops", "neg,exp", "--dtypes", "float32,float64,int32",
      "--no-grad"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

std::string case_id(const nlohmann::json& c) {
  return c["op"].get<std::string>() + " " + c["dtype"].get<std::string>() + " " +
         c["sample"].get<std::string>() + "/" + c["layout"].get<std::string>() + "/" +
         c["variant"].get<std::string>() + "/" + c["check"].get<std::string>();
}

std::vector<std::string> case_ids(const nlohmann::json& cases) {
  std::vector<std::string> out;
  for (const nlohmann::json& c : cases) out.push_back(case_id(c));
  return out;
}

// ---- merge ----

TEST_F(Cli, MergeOfAllShardsIsTheWholeRun) {
  ASSERT_EQ(touchstone(small_run({"--report", path("whole.json")})).exit_code(), 0);
  for (int i = 1; i <= 3; ++i) {
    const std::string shard = std::to_string(i) + "/3";
    const Outcome r = touchstone(
        small_run({"--shard", shard, "--report", path("s" + shard.substr(0, 1) + ".json")}));
    ASSERT_EQ(r.exit_code(), 0) << r.out << r.err;
  }
  const nlohmann::json s2 = json_file("s2.json");
  EXPECT_EQ(s2["shard"], (nlohmann::json{{"index", 2}, {"count", 3}}));
  EXPECT_EQ(s2["options"]["ops"], (nlohmann::json{"exp", "neg"}));
  EXPECT_EQ(s2["options"]["dtypes"], (nlohmann::json{"int32", "float32", "float64"}));
  EXPECT_EQ(s2["options"]["grad"], false);
  EXPECT_EQ(s2["options"]["timeout_s"], nullptr);
  const Outcome m = touchstone({"merge", path("s3.json"), path("s1.json"), path("s2.json"), "-o",
                                path("merged.json"), "--junit", path("merged.xml")});
  ASSERT_EQ(m.exit_code(), 0) << m.out << m.err;
  const nlohmann::json whole = json_file("whole.json"), merged = json_file("merged.json");
  EXPECT_EQ(case_ids(merged["cases"]), case_ids(whole["cases"]));
  EXPECT_EQ(merged["summary"], whole["summary"]);
  EXPECT_EQ(merged["options"], whole["options"]);
  EXPECT_EQ(merged["shard"], (nlohmann::json{{"index", 1}, {"count", 1}}));
  const std::string xml = slurp(path("merged.xml"));
  EXPECT_NE(xml.find("<testsuites name=\"touchstone conform optimized\" tests=\"" +
                     std::to_string(whole["cases"].size()) +
                     "\" failures=\"0\" errors=\"0\" skipped=\"0\""),
            std::string::npos)
      << xml.substr(0, 300);
}

TEST_F(Cli, MergeRefusesGapsDuplicatesAndOtherRuns) {
  for (const char* shard : {"1/3", "2/3", "3/3"}) {
    const std::string name = std::string("s") + shard[0] + ".json";
    ASSERT_EQ(touchstone(small_run({"--shard", shard, "--report", path(name)})).exit_code(), 0);
  }
  const std::string s1 = path("s1.json"), s2 = path("s2.json"), s3 = path("s3.json");
  Outcome r = touchstone({"merge", s1, s3, "-o", path("m.json")});
  EXPECT_EQ(r.exit_code(), 2);
  EXPECT_NE(r.err.find("merge: shard 2/3 missing (given: 1/3, 3/3)"), std::string::npos) << r.err;
  r = touchstone({"merge", s1, s2, s2, s3, "-o", path("m.json")});
  EXPECT_EQ(r.exit_code(), 2);
  EXPECT_NE(r.err.find("merge: shard 2/3 is given twice ('" + s2 + "' and '" + s2 + "')"),
            std::string::npos)
      << r.err;
  // Shard 2 of a run with another --dtypes filter.
  ASSERT_EQ(touchstone({"conform", "--kernels", "optimized", "--ops", "neg,exp", "--dtypes",
                        "float32,float64", "--no-grad", "--shard", "2/3", "--report",
                        path("other2.json")})
                .exit_code(),
            0);
  r = touchstone({"merge", s1, path("other2.json"), s3, "-o", path("m.json")});
  EXPECT_EQ(r.exit_code(), 2);
  EXPECT_NE(r.err.find("merge: '" + path("other2.json") + "' and '" + s1 +
                       "' are not shards of one run: "),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("options.dtypes is [\"float32\",\"float64\"] in '" + path("other2.json") +
                       "' and [\"int32\",\"float32\",\"float64\"] in '" + s1 + "'"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(path("m.json")));
  // An unreadable shard is an I/O error naming it.
  r = touchstone({"merge", s1, path("nope.json"), "-o", path("m.json")});
  EXPECT_EQ(r.exit_code(), 2);
  EXPECT_NE(r.err.find("merge: cannot read '" + path("nope.json") + "': No such file or directory"),
            std::string::npos)
      << r.err;
}

TEST_F(Cli, AnEmptyShardIsFineAnEmptyMergedRunIsNot) {
  // One group (neg float32) over two shards: shard 2 has none.
  const std::vector<std::string> one = {"conform", "--kernels", "optimized", "--ops",
                                        "neg",     "--dtypes",  "float32",   "--no-grad"};
  for (const char* shard : {"1/2", "2/2"}) {
    std::vector<std::string> args = one;
    args.insert(args.end(), {"--shard", shard, "--report", path(std::string("s") + shard[0])});
    const Outcome r = touchstone(args);
    EXPECT_EQ(r.exit_code(), 0) << shard << "\n" << r.err;
  }
  EXPECT_EQ(json_file("s2")["cases"].size(), 0u);
  EXPECT_EQ(touchstone({"merge", path("s1"), path("s2"), "-o", path("m.json")}).exit_code(), 0);
  // A --case that no case of neg matches (functional cases have no out= layout): every shard
  // is empty, so the merged run is, which is an error unless asked for.
  for (const char* shard : {"1/2", "2/2"}) {
    std::vector<std::string> args = one;
    args.insert(args.end(), {"--case", "big/out_offset/functional", "--shard", shard, "--report",
                             path(std::string("e") + shard[0])});
    EXPECT_EQ(touchstone(args).exit_code(), 0) << shard;
  }
  Outcome r = touchstone({"merge", path("e1"), path("e2"), "-o", path("m.json")});
  EXPECT_EQ(r.exit_code(), 2);
  EXPECT_NE(r.err.find("merge: the shards have no case at all"), std::string::npos) << r.err;
  r = touchstone({"merge", path("e1"), path("e2"), "-o", path("m.json"), "--allow-empty"});
  EXPECT_EQ(r.exit_code(), 0) << r.err;
  // Unsharded, the same filters are an error, and leave no partial report behind.
  std::vector<std::string> args = one;
  args.insert(args.end(), {"--case", "big/out_offset/functional", "--report", path("u.json")});
  r = touchstone(args);
  EXPECT_EQ(r.exit_code(), 2);
  EXPECT_NE(r.err.find("conform: no case selected: the 1 op x dtype groups that match --ops 'neg' "
                       "--dtypes float32 --case 'big/out_offset/functional' have no case to run"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(path("u.json.partial")));
}

// ---- output paths ----

TEST_F(Cli, OutputPathsAreCheckedBeforeTheRun) {
  Outcome r = touchstone(small_run({"--report", "/nonexistent_ts_dir/r.json"}));
  EXPECT_EQ(r.exit_code(), 2);
  EXPECT_NE(r.err.find("touchstone: --report: cannot write '/nonexistent_ts_dir/r.json': directory "
                       "'/nonexistent_ts_dir': No such file or directory"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.out.find("kernel set optimized:"), std::string::npos) << "the run went on";
  r = touchstone(small_run({"--junit", dir_.string()}));  // a directory
  EXPECT_EQ(r.exit_code(), 2);
  EXPECT_NE(r.err.find("--junit: cannot write '" + dir_.string() + "': Is a directory"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.out.find("kernel set optimized:"), std::string::npos) << "the run went on";
  // merge checks -o and --junit before it reads a shard (these do not exist).
  r = touchstone({"merge", path("a.json"), "-o", "/nonexistent_ts_dir/m.json"});
  EXPECT_EQ(r.exit_code(), 2);
  EXPECT_NE(r.err.find("-o: cannot write '/nonexistent_ts_dir/m.json'"), std::string::npos)
      << r.err;
  r = touchstone(
      {"merge", path("a.json"), "-o", path("m.json"), "--junit", "/nonexistent_ts_dir/m.xml"});
  EXPECT_EQ(r.exit_code(), 2);
  EXPECT_NE(r.err.find("--junit: cannot write '/nonexistent_ts_dir/m.xml'"), std::string::npos)
      << r.err;
}

// ---- a crash without --isolate ----

TEST_F(Cli, ACrashNamesTheCaseAndThePartialReportKeepsTheCasesBeforeIt) {
  // The same cases on a set that does not crash: the order the crashing run goes in.
  const std::vector<std::string> sqrt_f32 = {"--ops", "sqrt", "--dtypes", "float32", "--no-grad"};
  std::vector<std::string> ok = {"conform", "--kernels", "optimized", "--report", path("ok.json")};
  ok.insert(ok.end(), sqrt_f32.begin(), sqrt_f32.end());
  ASSERT_EQ(touchstone(ok).exit_code(), 0);
  EXPECT_TRUE(fs::exists(path("ok.json")));
  EXPECT_FALSE(fs::exists(path("ok.json.partial"))) << "the final report replaces the partial one";
  std::vector<std::string> before;
  for (const std::string& id : case_ids(json_file("ok.json")["cases"])) {
    if (id == "sqrt float32 big/contiguous/functional/forward") break;
    before.push_back(id);
  }
  ASSERT_FALSE(before.empty());

  std::vector<std::string> bad = {"conform",     "--kernels",           "faulty",
                                  "--plugin",    TS_FAULTY_PLUGIN_PATH, "--report",
                                  path("r.json")};
  bad.insert(bad.end(), sqrt_f32.begin(), sqrt_f32.end());
  const Outcome r = touchstone(bad);
  ASSERT_TRUE(WIFSIGNALED(r.status)) << "exit " << r.exit_code() << "\n" << r.err;
#if !TS_ASAN
  EXPECT_EQ(WTERMSIG(r.status), SIGSEGV);
#endif
  EXPECT_NE(r.err.find("touchstone conform: killed by SIGSEGV in case sqrt float32 "
                       "big/contiguous/functional/forward\n  repro: touchstone conform --kernels "
                       "faulty --plugin " +
                       std::string(TS_FAULTY_PLUGIN_PATH) +
                       " --ops sqrt --dtypes float32 --case big/contiguous/functional/forward\n"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("rerun with --isolate"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(path("r.json")));
  std::ifstream partial(path("r.json.partial"));
  ASSERT_TRUE(partial.good()) << "no partial report";
  std::string line;
  ASSERT_TRUE(std::getline(partial, line));
  const nlohmann::json header = nlohmann::json::parse(line);
  EXPECT_EQ(header["partial"], true);
  EXPECT_EQ(header["kernel_set"], "faulty");
  EXPECT_EQ(header["options"]["ops"], nlohmann::json{"sqrt"});
  std::vector<std::string> done;
  while (std::getline(partial, line)) {
    const nlohmann::json c = nlohmann::json::parse(line);
    EXPECT_EQ(c["status"], "passed") << line;
    done.push_back(case_id(c));
  }
  EXPECT_EQ(done, before);
}

// ---- flags ----

TEST_F(Cli, BadFlagsAreUsageErrors) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> bad = {
      {{"--isolate", "--timeout", "-1"},
       "conform: --timeout must be a positive number of seconds, got -1"},
      {{"--isolate", "--timeout", "0"},
       "conform: --timeout must be a positive number of seconds, got 0"},
      {{"--timeout", "5"}, "--timeout requires --isolate"},
      {{"--repeat", "0"}, "conform: --repeat must be a number of runs >= 1, got 0"},
      {{"--max-failures-shown", "-1"}, "conform: --max-failures-shown must be >= 0, got -1"},
      {{"--case", "x/y/z/w"},
       "conform: --case 'x/y/z/w': no layout named 'y' (layouts: contiguous"},
      {{"--case", "big/contiguous/out/forward/x"},
       "conform: --case expects SAMPLE/LAYOUT/VARIANT/CHECK"},
      {{"--case", "nosample/contiguous"},
       "no sample named 'nosample' in the selected ops (their samples: "},
      {{"--ops", "neg,nosuchop"},
       "conform: --ops: 'nosuchop' matches no op of the catalog (`touchstone ops` lists"},
      {{"--families", "unary, nosuch"}, "conform: --families: no op family named 'nosuch'"},
      {{"--dtypes", "float32,float33"}, "conform: --dtypes: unknown dtype 'float33'"},
      {{"--shard", "3/2"},
       "conform: --shard expects I/N with 1 <= I <= N (shard I of N, e.g. 1/4), got '3/2'"},
      {{"--shard", "0/2"}, "got '0/2'"},
      {{"--shard", "x"}, "got 'x'"},
      {{"--shard", "1/0"}, "got '1/0'"},
      {{"--families", "factory"},
       "conform: no case selected: no op x dtype matches --ops 'neg,exp' --families 'factory'"},
      {{"--no-such-flag"}, "--no-such-flag"},
  };
  for (const auto& [flags, message] : bad) {
    // small_run's own --ops and --dtypes give way to those under test.
    std::vector<std::string> args = {"conform", "--kernels", "optimized"};
    if (flags[0] != "--ops") args.insert(args.end(), {"--ops", "neg"});
    args.insert(args.end(), flags.begin(), flags.end());
    const bool own = flags[0] == "--ops" || flags[0] == "--dtypes";
    const Outcome r = touchstone(own ? args : small_run(flags));
    std::string cmd;
    for (const std::string& f : flags) cmd += f + " ";
    EXPECT_EQ(r.exit_code(), 2) << cmd << "\n" << r.out << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << cmd << "\n" << r.err;
    EXPECT_EQ(r.out.find("kernel set optimized:"), std::string::npos) << cmd << ": it ran";
  }
  // An empty selection is fine when asked for.
  const Outcome r = touchstone(small_run({"--families", "factory", "--allow-empty"}));
  EXPECT_EQ(r.exit_code(), 0) << r.err;
  EXPECT_NE(r.out.find("no case ran"), std::string::npos) << r.out;
}

TEST_F(Cli, ListsMayHaveSpacesAfterCommas) {
  const Outcome r =
      touchstone({"conform", "--kernels", "optimized", "--ops", "neg, exp", "--dtypes",
                  "float32, float64", "--families", "unary, binary", "--no-grad", "--case",
                  "big/contiguous/functional/forward", "--report", path("r.json")});
  ASSERT_EQ(r.exit_code(), 0) << r.err;
  const nlohmann::json j = json_file("r.json");
  std::set<std::string> ids;
  for (const std::string& id : case_ids(j["cases"])) ids.insert(id);
  EXPECT_EQ(ids, (std::set<std::string>{"neg float32 big/contiguous/functional/forward",
                                        "neg float64 big/contiguous/functional/forward",
                                        "exp float32 big/contiguous/functional/forward",
                                        "exp float64 big/contiguous/functional/forward"}));
  EXPECT_EQ(j["options"]["families"], (nlohmann::json{"binary", "unary"}));
  EXPECT_EQ(j["options"]["case"], "big/contiguous/functional/forward");
}

TEST_F(Cli, HelpDocumentsTheExitCodes) {
  for (const char* command : {"conform", "merge", "ops"}) {
    const Outcome r = touchstone({command, "--help"});
    EXPECT_EQ(r.exit_code(), 0) << command;
    EXPECT_NE(r.out.find("Exit status: 0 "), std::string::npos) << command << "\n" << r.out;
    EXPECT_NE(r.out.find("2 a usage"), std::string::npos) << command << "\n" << r.out;
  }
  EXPECT_NE(touchstone({"conform", "--help"}).out.find("139 for SIGSEGV"), std::string::npos);
}

// ---- ops ----

TEST_F(Cli, OpsShowsAPluginsKernelSet) {
  auto faulty_dtypes = [](const Outcome& r) {
    for (const nlohmann::json& op : nlohmann::json::parse(r.out)) {
      if (op["name"] == "sqrt") return op["kernel_sets"].value("faulty", nlohmann::json());
    }
    return nlohmann::json();
  };
  const Outcome plain = touchstone({"ops", "--json"});
  ASSERT_EQ(plain.exit_code(), 0) << plain.err;
  EXPECT_EQ(faulty_dtypes(plain), nlohmann::json());
  const Outcome with = touchstone({"ops", "--json", "--plugin", TS_FAULTY_PLUGIN_PATH});
  ASSERT_EQ(with.exit_code(), 0) << with.err;
  const nlohmann::json sets = faulty_dtypes(with);
  ASSERT_TRUE(sets.contains("cpu")) << with.out.substr(0, 500);
  const std::vector<std::string> dtypes = sets["cpu"];
  EXPECT_NE(std::find(dtypes.begin(), dtypes.end(), "float32"), dtypes.end());
  const Outcome missing = touchstone({"ops", "--plugin", path("nope.so")});
  EXPECT_EQ(missing.exit_code(), 2);
  EXPECT_NE(missing.err.find("nope.so"), std::string::npos) << missing.err;
}

// The table's name column fits the longest name: "scaled_dot_product_attention composite", not
// the name run into its kind.
TEST_F(Cli, OpsTableSeparatesLongNamesFromTheirKind) {
  const Outcome r = touchstone({"ops"});
  ASSERT_EQ(r.exit_code(), 0) << r.err;
  std::istringstream lines(r.out);
  int rows = 0;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string name, kind;
    words >> name >> kind;
    if (name == "op" || kind == "ops" || kind.empty()) continue;  // the header, the count
    EXPECT_TRUE(kind == "kernel" || kind == "composite") << line;
    ++rows;
  }
  EXPECT_GT(rows, 200);
}

}  // namespace
