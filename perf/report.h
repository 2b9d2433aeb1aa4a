#pragma once
// The perf report (schema_version 1, reports/schema/perf.schema.json): writing it atomically,
// reading and validating it.
#include <string>

#include <nlohmann/json.hpp>

#include "perf/runner.h"

namespace ts::perf {

inline constexpr int kPerfSchemaVersion = 1;

nlohmann::json report_json(const RunResult& result);

// Writes `j` to `path` atomically: a temporary file in the same directory, then std::rename.
void write_report(const std::string& path, const nlohmann::json& j);

// Reads a report and validates it against the schema; throws a ts::Error naming the file and
// the first violations.
nlohmann::json load_report(const std::string& path);

}  // namespace ts::perf
