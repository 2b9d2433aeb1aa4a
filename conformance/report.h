#pragma once
// The JSON report of a conformance run (schema_version 1).
#include <string>

#include <nlohmann/json.hpp>

#include "conformance/runner.h"

namespace ts::conformance {

inline constexpr int kReportSchemaVersion = 1;

nlohmann::json report_json(const RunResult& result, const RunOptions& options);

// Writes `j` to `path` atomically: a temporary file in the same directory, then std::rename.
void write_report(const std::string& path, const nlohmann::json& j);

}  // namespace ts::conformance
