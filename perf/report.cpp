// Report assembly: run options, machine context, roofline, one object per case with its kernel
// sets' results and ratios, and Google Benchmark's own context and runs.
#include "perf/report.h"

#include <cmath>

#include "perf/stats.h"
#include "reports/json_schema.h"
#include "touchstone/version.h"

namespace ts::perf {
namespace {

nlohmann::json result_json(const CaseResult& c, const SetResult& r, const Roofline& roof,
                           ScalarType dtype) {
  nlohmann::json j = {{"status", r.status}};
  if (r.status != "ok") {
    j["reason"] = r.reason;
    return j;
  }
  j["median_s"] = r.median_s;
  j["min_s"] = r.min_s;
  j["max_s"] = r.max_s;
  j["mean_s"] = r.mean_s;
  j["stddev_s"] = r.stddev_s;
  j["repetitions"] = r.samples_s.size();
  j["iterations"] = r.iterations;
  j["gbs"] = c.bytes / r.median_s / 1e9;
  j["gflops"] = c.flops / r.median_s / 1e9;
  j["roofline_pct"] = roofline_pct(roof, dtype, c.bytes, c.flops, r.median_s);
  j["cpu_wall"] = r.cpu_wall;
  j["preempted_per_s"] = r.preempted_per_s;
  j["waited_share"] = r.waited_share;
  j["pool_offers"] = r.offered;
  j["pool_offers_withdrawn"] = r.withdrawn;
  j["pool_offers_missed_awake"] = r.missed;
  j["noisy"] = !r.noise.empty();
  if (!r.noise.empty()) j["noise"] = r.noise;
  return j;
}

nlohmann::json roofline_json(const Roofline& r, bool probed) {
  nlohmann::json cache = nlohmann::json::array();
  for (const auto& [bytes, gbs] : r.cache_gbs) cache.push_back({{"bytes", bytes}, {"gbs", gbs}});
  return {{"probe", probed ? r.probe : "none"},
          {"threads", r.threads},
          {"stream_elements", r.stream_elements},
          {"copy_gbs", r.copy_gbs},
          {"add_gbs", r.add_gbs},
          {"read_gbs", r.read_gbs},
          {"cache_gbs", cache},
          {"bandwidth_gbs", r.bandwidth_gbs()},
          {"gemm_n", r.gemm_n},
          {"sgemm_gflops", r.sgemm_gflops},
          {"dgemm_gflops", r.dgemm_gflops}};
}

}  // namespace

nlohmann::json report_json(const RunResult& result) {
  const RunOptions& o = result.options;
  Roofline roof = result.roofline;
  roof.threads = o.threads;
  nlohmann::json cases = nlohmann::json::array();
  for (const CaseResult& c : result.cases) {
    const ScalarType dtype = parse_dtype(c.dtype);
    nlohmann::json results = nlohmann::json::object(), ratios = nlohmann::json::object();
    nlohmann::json ratio_p = nlohmann::json::object();
    const SetResult* first = c.results.empty() ? nullptr : &c.results.front();
    for (const SetResult& r : c.results) {
      results[r.set] = result_json(c, r, roof, dtype);
      if (&r != first && r.status == "ok" && first->status == "ok") {
        ratios[r.set] = r.median_s / first->median_s;
        const double p = mann_whitney_p(first->samples_s, r.samples_s);
        if (!std::isnan(p)) ratio_p[r.set] = p;  // Note [Significance of a ratio]
      }
    }
    nlohmann::json j = {{"name", c.name},
                        {"family", c.family},
                        {"op", c.op},
                        {"dtype", c.dtype},
                        {"shape", c.shape},
                        {"layout", c.layout},
                        {"bytes", c.bytes},
                        {"flops", c.flops},
                        {"intensity", c.bytes > 0 ? c.flops / c.bytes : 0.0},
                        {"results", results},
                        {"ratios", ratios},
                        {"ratio_p", ratio_p},
                        {"load_avg", c.load_avg},
                        {"steal_pct", c.steal_pct},
                        {"others_cpu_pct", c.others_pct}};
    if (c.slowdown != 1) j["slowdown"] = c.slowdown;
    cases.push_back(std::move(j));
  }
  nlohmann::json dtypes = nlohmann::json::array();
  for (ScalarType t : o.catalog.dtypes) dtypes.push_back(std::string(dtype_name(t)));
  nlohmann::json run = {{"command", o.command},     {"kernel_sets", o.kernel_sets},
                        {"device", o.device},       {"ops", o.catalog.ops},
                        {"dtypes", dtypes},         {"quick", o.catalog.quick},
                        {"threads", o.threads},     {"repetitions", o.repetitions},
                        {"min_time_s", o.min_time}, {"seconds", result.seconds}};
  if (!o.slowdown.empty()) run["plant_slowdown"] = o.slowdown;
  nlohmann::json context = result.gbench_context;
  if (context.is_null()) context = {{"host_name", ""}, {"num_cpus", 1}};
  context["date"] = result.timestamp;
  context["executable"] = "touchstone bench";
  return {{"schema_version", reports::kPerfSchemaVersion},
          {"kind", "touchstone-perf"},
          {"tool_version", kVersion},
          {"timestamp", result.timestamp},
          {"machine", result.machine},
          {"run", run},
          {"roofline", roofline_json(roof, o.probes)},
          {"cases", cases},
          {"context", context},
          {"benchmarks", result.gbench_runs}};
}

}  // namespace ts::perf
