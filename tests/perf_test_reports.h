#pragma once
// Hand-made perf reports (the minimum perf.schema.json asks for) for the compare tests.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ts_test {

using nlohmann::json;

struct Timing {
  std::string name, family, set;
  double median_s;
};

// A minimal report that satisfies perf.schema.json.
inline json make_report(const std::vector<Timing>& timings, int threads) {
  json cases = json::array();
  for (const Timing& t : timings) {
    json* c = nullptr;
    for (json& e : cases) {
      if (e["name"] == t.name) c = &e;
    }
    if (c == nullptr) {
      cases.push_back({{"name", t.name},
                       {"family", t.family},
                       {"op", t.name.substr(0, t.name.find('/'))},
                       {"dtype", "float32"},
                       {"shape", "16"},
                       {"layout", "contiguous"},
                       {"bytes", 192.0},
                       {"flops", 16.0},
                       {"intensity", 16.0 / 192},
                       {"results", json::object()},
                       {"ratios", json::object()}});
      c = &cases.back();
    }
    (*c)["results"][t.set] = {
        {"status", "ok"},      {"median_s", t.median_s}, {"min_s", t.median_s},
        {"max_s", t.median_s}, {"mean_s", t.median_s},   {"stddev_s", 0.0},
        {"repetitions", 3},    {"iterations", 10},       {"gbs", 1.0},
        {"gflops", 1.0},       {"roofline_pct", 5.0}};
  }
  return {{"schema_version", 1},
          {"kind", "touchstone-perf"},
          {"tool_version", "0.1.0"},
          {"timestamp", "2026-11-23T10:00:00Z"},
          {"machine",
           {{"cpu_model", "Test CPU"},
            {"cores", 2},
            {"threads", threads},
            {"simd_target", "avx2"},
            {"gpu", nullptr},
            {"compiler", "gcc"},
            {"build_type", "Release"},
            {"git_commit", "abc1234"},
            {"libraries",
             {{"touchstone", "0.1.0"}, {"google_benchmark", "1.7.1"}, {"openblas", "x"}}}}},
          {"run",
           {{"kernel_sets", {"optimized"}},
            {"device", "cpu"},
            {"quick", true},
            {"threads", threads},
            {"repetitions", 3},
            {"min_time_s", 0.02},
            {"seconds", 1.0}}},
          {"roofline",
           {{"probe", "quick"},
            {"threads", threads},
            {"stream_elements", 1},
            {"copy_gbs", 10.0},
            {"add_gbs", 9.0},
            {"bandwidth_gbs", 10.0},
            {"gemm_n", 64},
            {"sgemm_gflops", 100.0},
            {"dgemm_gflops", 50.0}}},
          {"cases", cases},
          {"context", {{"host_name", "h"}, {"num_cpus", 2}}},
          {"benchmarks", json::array()}};
}

inline const std::vector<Timing> kBase = {
    {"add/float32/16/contiguous", "binary", "optimized", 1.0},
    {"mul/float32/16/contiguous", "binary", "optimized", 2.0},
    {"exp/float32/16/contiguous", "unary", "optimized", 4.0},
    {"exp/float32/16/contiguous", "unary", "reference", 40.0},
};

}  // namespace ts_test
