#pragma once
// The JSON report of a conformance run (reports/schema/conformance.schema.json), its merge, and
// JUnit XML.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "conformance/runner.h"

namespace ts::conformance {

inline constexpr int kReportSchemaVersion = 2;

nlohmann::json report_json(const RunResult& result, const RunOptions& options);

// One case as the report writes it, and back (the isolation protocol uses both).
nlohmann::json case_to_json(const CaseResult& c);
CaseResult case_from_json(const nlohmann::json& j);

// The violations of reports/schema/conformance.schema.json by `j` (empty: valid).
std::vector<std::string> schema_violations(const nlohmann::json& j);
// Throws a ts::Error naming the first violations, when there are any; `what` names the report.
void check_schema(const nlohmann::json& j, const std::string& what);

// Shard reports of one kernel set merged into one: cases concatenated, summary recomputed,
// seconds summed. Throws when the reports disagree on kernel set, device or schema version.
nlohmann::json merge_reports(const std::vector<nlohmann::json>& reports);

// JUnit XML: a test suite per op, a test case per case; failures carry the message and repro.
std::string junit_xml(const RunResult& result);

// Writes `text` to `path` atomically: a temporary file in the same directory, then std::rename.
void write_file_atomically(const std::string& path, const std::string& text);
void write_report(const std::string& path, const nlohmann::json& j);

}  // namespace ts::conformance
