#pragma once
// Google Benchmark's JSON for one run, as its own JSONReporter writes it (the report's
// "benchmarks" array, so that Google Benchmark's tools read touchstone's reports).
#include <benchmark/benchmark.h>

#include <nlohmann/json.hpp>

namespace ts::perf {

// An entry of the "benchmarks" array: JSONReporter's fields and values for `r` (a percentage
// aggregate such as cv is a plain fraction there, neither scaled by the time unit nor divided by
// the iterations).
nlohmann::json gbench_run_json(const benchmark::BenchmarkReporter::Run& r);

}  // namespace ts::perf
