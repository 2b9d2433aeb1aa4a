// reports/: text helpers, JUnit XML, the partial report, /proc fields and JSON writes, each on
// hand-made input with the expected text written out.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "reports/files.h"
#include "reports/junit.h"
#include "reports/machine.h"
#include "reports/partial_report.h"
#include "reports/text.h"
#include "touchstone/error.h"

namespace {

namespace fs = std::filesystem;

// A fresh directory per test, removed at the end.
class TempDir {
 public:
  TempDir() : dir_(fs::temp_directory_path() / ("ts_reports_" + std::to_string(::getpid()))) {
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  ~TempDir() { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

 private:
  fs::path dir_;
};

std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

TEST(ReportsText, GlobsMatchLikeAShell) {
  using ts::reports::glob_match;
  EXPECT_TRUE(glob_match("*", ""));
  EXPECT_TRUE(glob_match("a*c", "abbbc"));
  EXPECT_TRUE(glob_match("a?c", "abc"));
  EXPECT_FALSE(glob_match("a?c", "ac"));
  EXPECT_TRUE(glob_match("*_out", "add_out"));
  EXPECT_FALSE(glob_match("*_out", "add_outer"));
}

TEST(ReportsText, EscapesForXmlAndHtml) {
  EXPECT_EQ(ts::reports::xml_escape("a<b & \"c\" 'd'\x01\n"),
            "a&lt;b &amp; &quot;c&quot; &#39;d&#39;?\n");
  EXPECT_EQ(ts::reports::xml_escape("plain"), "plain");
}

TEST(ReportsText, TimestampsAreUtcIso8601) {
  const std::string t = ts::reports::utc_timestamp();
  ASSERT_EQ(t.size(), 20u) << t;
  EXPECT_EQ(t[4], '-');
  EXPECT_EQ(t[10], 'T');
  EXPECT_EQ(t.back(), 'Z');
}

TEST(ReportsText, TimesPickTheirUnit) {
  using ts::reports::format_time;
  EXPECT_EQ(format_time(1.5e-6), "1.500 us");  // below 10 us: three decimals
  EXPECT_EQ(format_time(2.5e-5), "25.0 us");
  EXPECT_EQ(format_time(0.0123), "12.3 ms");
  EXPECT_EQ(format_time(2.0), "2.00 s");
}

TEST(ReportsJUnit, SuitesInNameOrderWithTheirCountsAndEachOutcome) {
  using ts::reports::JUnitCase;
  using Outcome = JUnitCase::Outcome;
  const std::vector<JUnitCase> cases = {
      {"sin", "set.sin", "float32 a", 0.5, Outcome::passed, "", "", ""},
      {"add", "set.add", "float32 <b>", 0.25, Outcome::failure, "failed", "off by 1", "repro: x"},
      {"add", "set.add", "int64 c", 0.125, Outcome::error, "crashed", "SIGSEGV", "repro: y"},
      {"add", "set.add", "bool d", 0, Outcome::skipped, "", "documented \"why\"", ""},
  };
  EXPECT_EQ(
      ts::reports::junit_xml("touchstone conform set", cases, 2),
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<testsuites name=\"touchstone conform set\" tests=\"4\" failures=\"1\" errors=\"1\" "
      "skipped=\"1\" time=\"2.000000\">\n"
      " <testsuite name=\"add\" tests=\"3\" failures=\"1\" errors=\"1\" skipped=\"1\" "
      "time=\"0.375000\">\n"
      "  <testcase classname=\"set.add\" name=\"float32 &lt;b&gt;\" time=\"0.250000\"><failure "
      "type=\"failed\" message=\"off by 1\">repro: x</failure></testcase>\n"
      "  <testcase classname=\"set.add\" name=\"int64 c\" time=\"0.125000\"><error "
      "type=\"crashed\" message=\"SIGSEGV\">repro: y</error></testcase>\n"
      "  <testcase classname=\"set.add\" name=\"bool d\" time=\"0.000000\"><skipped "
      "message=\"documented &quot;why&quot;\"/></testcase>\n"
      " </testsuite>\n"
      " <testsuite name=\"sin\" tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"0\" "
      "time=\"0.500000\">\n"
      "  <testcase classname=\"set.sin\" name=\"float32 a\" time=\"0.500000\"/>\n"
      " </testsuite>\n"
      "</testsuites>\n");
}

TEST(ReportsFiles, PartialReportHoldsTheHeaderThenOneLineEachUntilFinished) {
  const TempDir dir;
  const std::string report = dir.path("r.json");
  ts::reports::PartialReport partial(report, {{"kernel_set", "optimized"}}, "conform");
  EXPECT_EQ(partial.path(), report + ".partial");
  partial.append({{"op", "add"}});
  partial.append({{"op", "sub"}});
  EXPECT_EQ(lines_of(report + ".partial"),
            (std::vector<std::string>{R"({"kernel_set":"optimized","partial":true})",
                                      R"({"op":"add"})", R"({"op":"sub"})"}));
  partial.finish();
  EXPECT_FALSE(fs::exists(report + ".partial"));
  try {
    ts::reports::PartialReport bad(dir.path("missing/r.json"), {}, "conform");
    FAIL() << "expected a ts::Error";
  } catch (const ts::Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("conform: cannot write '" + dir.path("missing/r.json") +
                                              ".partial': No such file or directory",
                                          0),
              0u)
        << e.what();
  }
}

TEST(ReportsFiles, JsonIsWrittenWholeAndInvalidUtf8Replaced) {
  const TempDir dir;
  const std::string path = dir.path("j.json");
  ts::reports::write_json(path, {{"a", 1}, {"host", std::string("x\xff")}}, "bench");
  EXPECT_EQ(lines_of(path),
            (std::vector<std::string>{"{", " \"a\": 1,", " \"host\": \"x\xef\xbf\xbd\"", "}"}));
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  EXPECT_TRUE(ts::reports::write_all(fds[1], "abc"));
  char buf[4] = {};
  EXPECT_EQ(::read(fds[0], buf, 3), 3);
  EXPECT_EQ(std::string(buf), "abc");
  EXPECT_FALSE(ts::reports::write_all(fds[0], "x"));  // a pipe's read end: EBADF
  EXPECT_EQ(errno, EBADF);
  ::close(fds[0]);
  ::close(fds[1]);
}

TEST(ReportsMachine, ProcFieldsAreTheValueAfterTheColon) {
  const TempDir dir;
  const std::string path = dir.path("cpuinfo");
  std::ofstream(path) << "processor\t: 0\nmodel name\t: Some CPU @ 2.0GHz\nflags\t\t:\n"
                         "model name\t: second\n";
  EXPECT_EQ(ts::reports::proc_field(path, "model name"), "Some CPU @ 2.0GHz");
  EXPECT_EQ(ts::reports::proc_field(path, "flags"), "");
  EXPECT_EQ(ts::reports::proc_field(path, "stepping"), "");
  EXPECT_EQ(ts::reports::proc_field(dir.path("absent"), "model name"), "");
  EXPECT_EQ(ts::reports::first_line(path), "processor\t: 0");
  EXPECT_EQ(ts::reports::first_line(dir.path("absent")), "");
}

}  // namespace
