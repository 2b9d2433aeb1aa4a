#pragma once
// The JSON report of a conformance run (reports/schema/conformance.schema.json), its partial
// form streamed during the run, the merge of shard reports, and JUnit XML.
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "conformance/runner.h"

namespace ts::conformance {

// 3: the run's identity (every filter, the shard as {index, count}, 1-based).
inline constexpr int kReportSchemaVersion = 3;

nlohmann::json report_json(const RunResult& result, const RunOptions& options);
// The report without its results (seconds, skipped_samples, summary, cases): tool, machine,
// and the run's identity (Note [Merging shards]).
nlohmann::json report_header(const RunOptions& options);

// One case as the report writes it, and back (the isolation protocol uses both).
nlohmann::json case_to_json(const CaseResult& c);
CaseResult case_from_json(const nlohmann::json& j);

// The violations of reports/schema/conformance.schema.json by `j` (empty: valid).
std::vector<std::string> schema_violations(const nlohmann::json& j);
// Throws a ts::Error naming the first violations, when there are any; `what` names the report.
void check_schema(const nlohmann::json& j, const std::string& what);

// Note [Merging shards]
// Shard reports merge into the report of the whole run, as if it ran unsharded (shard 1/1):
// cases in catalog order, summary recomputed, seconds and skipped samples summed, the latest
// timestamp. They must be exactly shards 1..N of one run: the same identity (schema and tool
// version, commit, kernel set, device, every option, N), each shard once. A duplicate, a missing
// shard or a differing field is a ts::Error saying which (the names of `names`, else "report K").
nlohmann::json merge_reports(const std::vector<nlohmann::json>& reports,
                             const std::vector<std::string>& names = {});

// The cases, kernel set and seconds of a report (for JUnit from a merged report).
RunResult result_from_report(const nlohmann::json& report);

// JUnit XML: a test suite per op, a test case per case. Failed cases carry a <failure>; error,
// crashed, timeout and overrun cases an <error type="STATUS"> (the kernel did not return a
// value to judge); documented ones <skipped> with the reason. Suites count tests, failures,
// errors, skipped and time.
std::string junit_xml(const RunResult& result);

// The report as JSON text, written atomically (reports/files.h); `what` names the command.
void write_report(const std::string& path, const nlohmann::json& j, std::string_view what);

// Note [Partial report]
// While a run with --report goes on, REPORT.partial holds one JSON line per finished case,
// written with write(2) as each case ends (so it survives a crash), after a first line with the
// run's identity (the report without cases and summary, plus "partial": true). The final report
// replaces it at the end: write it, then finish() removes the partial file.
class PartialReport {
 public:
  PartialReport(const std::string& report_path, const nlohmann::json& header);
  ~PartialReport();
  PartialReport(const PartialReport&) = delete;
  PartialReport& operator=(const PartialReport&) = delete;
  void append(const CaseResult& c);
  void finish();
  const std::string& path() const { return path_; }

 private:
  void write_line(const std::string& line);
  std::string path_;
  int fd_ = -1;
};

}  // namespace ts::conformance
