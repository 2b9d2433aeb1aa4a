#pragma once
// The perf report (schema_version 1, reports/schema/perf.schema.json): writing it atomically,
// reading and validating it.
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "perf/runner.h"

namespace ts::perf {

inline constexpr int kPerfSchemaVersion = 1;

nlohmann::json report_json(const RunResult& result);

// Writes `j` to `path` atomically (reports::write_file_atomically); errors start with "bench".
void write_report(const std::string& path, const nlohmann::json& j);

// Reads a report and validates it against the schema. Any unreadable input (missing, a
// directory, not JSON, another kind of report, a schema violation) is a ts::Error that starts
// with `what` ("compare: BASE") and names the path.
nlohmann::json load_report(const std::string& path, std::string_view what = "compare");

}  // namespace ts::perf
