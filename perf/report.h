#pragma once
// The perf report (schema_version 1, reports/schema/perf.schema.json) of a bench run; written
// with reports::write_json, read back by reports::load_perf_report (reports/compare.h).
#include <nlohmann/json.hpp>

#include "perf/runner.h"

namespace ts::perf {

nlohmann::json report_json(const RunResult& result);

}  // namespace ts::perf
