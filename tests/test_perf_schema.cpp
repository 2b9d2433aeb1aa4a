// The perf report schema: a report from a real (tiny) run validates; broken ones do not, with
// errors that point at the member; the validator's keywords one by one; atomic write + load;
// unreadable inputs are errors that name the path.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "catalog/bench.h"
#include "perf/report.h"
#include "perf/runner.h"
#include "reports/compare.h"
#include "reports/files.h"
#include "reports/json_schema.h"

namespace {

using nlohmann::json;

bool has_error(const std::vector<std::string>& errors, const std::string& part) {
  for (const std::string& e : errors) {
    if (e.find(part) != std::string::npos) return true;
  }
  return false;
}

// One tiny run: neg on 1 M floats, both built-in sets, one repetition, no roofline probes.
const json& tiny_report() {
  static const json report = [] {
    ts::perf::RunOptions o;
    o.catalog.quick = true;
    o.catalog.ops = "neg";
    o.repetitions = 1;
    o.min_time = 0.001;
    o.probes = false;
    std::ostringstream progress;
    return ts::perf::report_json(ts::perf::run_bench(o, progress));
  }();
  return report;
}

std::vector<std::string> errors_of(const json& report) {
  return ts::reports::validate_json(ts::reports::perf_schema(), report);
}

TEST(PerfSchema, AReportFromARunValidates) {
  const json& r = tiny_report();
  EXPECT_EQ(errors_of(r), std::vector<std::string>{});
  ASSERT_EQ(r["cases"].size(), 1u);
  EXPECT_EQ(r["cases"][0]["name"], "neg/float32/1048576/contiguous");
  EXPECT_EQ(r["cases"][0]["results"]["optimized"]["status"], "ok");
  EXPECT_TRUE(r["cases"][0]["ratios"].contains("reference"));
  // Google Benchmark's own entries: one per repetition plus its aggregates, per set.
  EXPECT_GE(r["benchmarks"].size(), 2u);
  EXPECT_EQ(r["benchmarks"][0]["run_type"], "iteration");
}

// Every family of the catalog's bench cases, full and quick, is one the schema accepts: the
// families of issue 16 (conv, pool, loss, ...) were missing, and compare rejected every full run.
TEST(PerfSchema, EveryCatalogFamilyIsInTheSchema) {
  const json& families =
      ts::reports::perf_schema()["$defs"]["case"]["properties"]["family"]["enum"];
  ASSERT_TRUE(families.is_array());
  for (const bool quick : {false, true}) {
    ts::catalog::BenchOptions o;
    o.quick = quick;
    for (const ts::catalog::BenchCase& c : ts::catalog::bench_cases(o)) {
      EXPECT_NE(std::find(families.begin(), families.end(), json(c.family)), families.end())
          << c.family << " (" << c.name() << ")";
    }
  }
}

TEST(PerfSchema, BrokenReportsAreRejectedAtTheRightMember) {
  json r = tiny_report();
  r.erase("machine");
  EXPECT_TRUE(has_error(errors_of(r), "/: missing required member \"machine\""));

  r = tiny_report();
  r["schema_version"] = 3;
  EXPECT_TRUE(has_error(errors_of(r), "/schema_version: 3 is not one of [1,2]"));
  r["schema_version"] = 1;  // version 1 reports (before noisy cases) still compare
  EXPECT_TRUE(errors_of(r).empty());

  r = tiny_report();
  r["cases"][0]["results"]["optimized"]["noisy"] = "yes";
  EXPECT_TRUE(has_error(errors_of(r), "/cases/0/results/optimized/noisy: expected type"));

  r = tiny_report();
  r["cases"][0]["results"]["optimized"].erase("median_s");
  EXPECT_TRUE(has_error(errors_of(r), "/cases/0/results/optimized: missing required member"));

  r = tiny_report();
  r["cases"][0]["results"]["optimized"] = {{"status", "skipped"}};  // no reason
  EXPECT_TRUE(has_error(errors_of(r), "missing required member \"reason\""));

  r = tiny_report();
  r["cases"][0]["bytes"] = -1;
  EXPECT_TRUE(has_error(errors_of(r), "/cases/0/bytes"));

  r = tiny_report();
  r["run"]["surprise"] = true;
  EXPECT_TRUE(has_error(errors_of(r), "/run: unexpected member \"surprise\""));

  r = tiny_report();
  r["roofline"]["threads"] = "two";
  EXPECT_TRUE(has_error(errors_of(r), "/roofline/threads: expected type"));

  r = tiny_report();
  r["cases"][0]["family"] = "misc";
  EXPECT_TRUE(has_error(errors_of(r), "/cases/0/family: \"misc\" is not one of"));

  r = tiny_report();
  r["timestamp"] = "yesterday";
  EXPECT_TRUE(has_error(errors_of(r), "/timestamp: \"yesterday\" does not match"));
}

TEST(PerfSchema, ValidatorKeywords) {
  const json schema = json::parse(R"({
    "type": "object",
    "required": ["n"],
    "properties": {
      "n": {"type": "integer", "minimum": 0, "maximum": 10},
      "x": {"type": ["number", "null"], "exclusiveMinimum": 0},
      "tags": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/tag"}}
    },
    "additionalProperties": false,
    "$defs": {"tag": {"type": "string", "minLength": 2, "pattern": "^[a-z]+$"}}
  })");
  using ts::reports::validate_json;
  EXPECT_TRUE(validate_json(schema, json::parse(R"({"n": 3})")).empty());
  EXPECT_TRUE(validate_json(schema, json::parse(R"({"n": 3.0, "x": null})")).empty());
  EXPECT_EQ(validate_json(schema, json::parse(R"({"n": 3.5})")).size(), 1u);
  EXPECT_EQ(validate_json(schema, json::parse(R"({"n": 11})")).size(), 1u);
  EXPECT_EQ(validate_json(schema, json::parse(R"({"n": 1, "x": 0})")).size(), 1u);
  EXPECT_EQ(validate_json(schema, json::parse(R"({"n": 1, "tags": []})")).size(), 1u);
  EXPECT_EQ(validate_json(schema, json::parse(R"({"n": 1, "tags": ["ok", "A", "b"]})")),
            (std::vector<std::string>{"/tags/1: string shorter than 2",
                                      "/tags/1: \"A\" does not match \"^[a-z]+$\"",
                                      "/tags/2: string shorter than 2"}));
  EXPECT_EQ(validate_json(schema, json::parse(R"({})")),
            std::vector<std::string>{"/: missing required member \"n\""});
  const json bad_ref = json::parse(R"({"$ref": "#/$defs/none"})");
  EXPECT_THROW(validate_json(bad_ref, json(1)), ts::Error);
}

TEST(PerfSchema, IfThenElse) {
  const json schema = json::parse(R"({
    "if": {"properties": {"status": {"const": "ok"}}},
    "then": {"required": ["time"]},
    "else": {"required": ["reason"]}
  })");
  using ts::reports::validate_json;
  EXPECT_TRUE(validate_json(schema, json::parse(R"({"status": "ok", "time": 1})")).empty());
  EXPECT_EQ(validate_json(schema, json::parse(R"({"status": "ok"})")).size(), 1u);
  EXPECT_TRUE(validate_json(schema, json::parse(R"({"status": "no", "reason": "x"})")).empty());
  EXPECT_EQ(validate_json(schema, json::parse(R"({"status": "no"})")).size(), 1u);
}

TEST(PerfSchema, WrittenReportsLoadBackAndBrokenFilesAreNamed) {
  const std::string path = ::testing::TempDir() + "perf_report_test.json";
  ts::reports::write_json(path, tiny_report(), "bench");
  EXPECT_EQ(ts::reports::load_perf_report(path), tiny_report());
  {
    std::ofstream out(path, std::ios::trunc);
    out << R"({"schema_version": 1})";
  }
  try {
    ts::reports::load_perf_report(path);
    FAIL() << "expected a ts::Error";
  } catch (const ts::Error& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("does not match perf.schema.json"), std::string::npos);
  }
  std::remove(path.c_str());
  EXPECT_THROW(ts::reports::load_perf_report(path), ts::Error);
}

// The message of the ts::Error load_perf_report throws ("" when it loads).
std::string load_error(const std::string& path) {
  try {
    ts::reports::load_perf_report(path, "compare: BASE");
  } catch (const ts::Error& e) {
    return e.what();
  }
  return "";
}

// Before: a directory threw std::ios_failure (touchstone aborted), and a conformance report
// read as 12 schema errors.
TEST(PerfSchema, UnreadableReportsAreErrorsNamingThePath) {
  const std::string dir = ::testing::TempDir() + "perf_unreadable_dir";
  std::filesystem::create_directories(dir);
  EXPECT_EQ(load_error(dir), "compare: BASE: cannot read '" + dir + "': Is a directory");
  const std::string missing = dir + "/missing.json";
  EXPECT_EQ(load_error(missing),
            "compare: BASE: cannot read '" + missing + "': No such file or directory");
  const std::string path = dir + "/r.json";
  auto write = [&](const std::string& text) { std::ofstream(path, std::ios::trunc) << text; };
  write("touchstone bench output, not JSON");
  EXPECT_EQ(load_error(path).rfind("compare: BASE: '" + path + "' is not JSON (", 0), 0u)
      << load_error(path);
  write("");
  EXPECT_EQ(load_error(path).rfind("compare: BASE: '" + path + "' is not JSON (", 0), 0u);
  write("[1, 2]");
  EXPECT_EQ(load_error(path), "compare: BASE: '" + path +
                                  "' holds a JSON array, not a perf report (touchstone bench "
                                  "--report)");
  write(R"({"schema_version": 2, "kernel_set": "optimized", "summary": {}, "cases": []})");
  EXPECT_EQ(load_error(path), "compare: BASE: '" + path +
                                  "' is a conformance report (touchstone conform), not a perf "
                                  "report (touchstone bench --report)");
  std::filesystem::remove_all(dir);
}

}  // namespace
