#pragma once
// The JSON report of a conformance run (reports/schema/conformance.schema.json) built from the
// runner's results, the merge of shard reports, and its JUnit cases. Writing them, the partial
// report and the XML are reports/ (files.h, partial_report.h, junit.h).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "conformance/runner.h"

namespace ts::conformance {

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

// JUnit XML (reports::junit_xml): a test suite per op, a test case per case. Failed cases carry
// a <failure>; error, crashed, timeout and overrun cases an <error type="STATUS"> (the kernel
// did not return a value to judge); documented ones <skipped> with the reason.
std::string junit_xml(const RunResult& result);

}  // namespace ts::conformance
