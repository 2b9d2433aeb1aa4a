// `touchstone bench`: every listed kernel set runs every catalog case side by side; prints one
// line per case and a summary per op family, writes the JSON report.
#include <cmath>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>

#include "command.h"
#include "perf/report.h"
#include "perf/runner.h"

namespace ts::tools {
namespace {

// Per family: geomean of each other set's time over the first set's, median % of roofline of
// the first set.
void print_summary(const perf::RunResult& r) {
  const std::string& first = r.options.kernel_sets.front();
  struct Acc {
    int64_t cases = 0;
    std::map<std::string, std::pair<double, int64_t>> log_ratio;
    std::vector<double> pct;
  };
  std::map<std::string, Acc> fam;
  int64_t skipped = 0, errors = 0;
  for (const perf::CaseResult& c : r.cases) {
    Acc& a = fam[c.family];
    ++a.cases;
    const perf::SetResult& f = c.results.front();
    for (const perf::SetResult& s : c.results) {
      skipped += s.status == "skipped";
      errors += s.status == "error";
      if (s.status != "ok" || f.status != "ok") continue;
      if (&s == &f) {
        a.pct.push_back(
            perf::roofline_pct(r.roofline, parse_dtype(c.dtype), c.bytes, c.flops, s.median_s));
      } else {
        a.log_ratio[s.set].first += std::log(s.median_s / f.median_s);
        a.log_ratio[s.set].second += 1;
      }
    }
  }
  const perf::Roofline& roof = r.roofline;
  if (r.options.probes) {
    std::cout << "\nroofline (" << roof.probe << " probes, " << roof.threads
              << " threads): STREAM copy " << std::fixed << std::setprecision(1) << roof.copy_gbs
              << " GB/s, add " << roof.add_gbs << " GB/s; sgemm " << roof.sgemm_gflops << ", dgemm "
              << roof.dgemm_gflops << " GFLOP/s";
  }
  std::cout << "\nsummary: time of each set / time of " << first << " (geomean per family), "
            << first << "'s median % of roofline\n";
  for (auto& [family, a] : fam) {
    std::cout << "  " << std::left << std::setw(10) << family << std::right << std::setw(4)
              << a.cases << " cases";
    if (!a.pct.empty()) {
      std::sort(a.pct.begin(), a.pct.end());
      std::cout << "  " << first << " " << std::fixed << std::setprecision(1)
                << a.pct[a.pct.size() / 2] << " % roof";
    }
    for (const auto& [set, lr] : a.log_ratio) {
      std::cout << "  " << set << " x" << std::fixed << std::setprecision(2)
                << std::exp(lr.first / static_cast<double>(lr.second));
    }
    std::cout << "\n";
  }
  std::cout << r.cases.size() << " cases, " << skipped << " skipped (no kernel), " << errors
            << " errors, " << std::fixed << std::setprecision(1) << r.seconds << " s\n";
}

struct BenchArgs {
  perf::RunOptions options;
  std::string kernels = "optimized,reference";
  std::string dtypes;
  std::string report;
  std::vector<std::string> plugins;
  bool quiet = false;
};

// The command as the user could retype it (recorded in the report).
std::string command_line(const BenchArgs& a) {
  const perf::RunOptions& o = a.options;
  std::string s = "touchstone bench --kernels " + a.kernels;
  if (o.device != "cpu") s += " --device " + o.device;
  if (!o.catalog.ops.empty()) s += " --ops " + o.catalog.ops;
  if (!a.dtypes.empty()) s += " --dtypes " + a.dtypes;
  if (o.catalog.quick) s += " --quick";
  if (o.threads > 0) s += " --threads " + std::to_string(o.threads);
  if (o.repetitions > 0) s += " --repetitions " + std::to_string(o.repetitions);
  if (o.min_time > 0) s += " --min-time " + std::to_string(o.min_time);
  if (!o.slowdown.empty()) s += " --plant-slowdown " + o.slowdown;
  if (!o.probes) s += " --no-probes";
  if (!a.report.empty()) s += " --report " + a.report;
  return s;
}

}  // namespace

Command add_bench_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "bench", "Time kernel sets side by side over the benchmark catalog, with roofline figures");
  auto a = std::make_shared<BenchArgs>();
  cmd->add_option("--kernels", a->kernels, "Comma-separated kernel sets; ratios are to the first")
      ->capture_default_str();
  cmd->add_option("--device", a->options.device, "Device to run on")->capture_default_str();
  cmd->add_option("--ops", a->options.catalog.ops,
                  "Ops or families: comma-separated names, substrings or globs");
  cmd->add_option("--dtypes", a->dtypes,
                  "Comma-separated dtypes (default: float32, or the op's own kind)");
  cmd->add_flag("--quick", a->options.catalog.quick,
                "Small shapes, 3 repetitions, quick roofline probes (CI)");
  cmd->add_option("--threads", a->options.threads, "Threads (default: TOUCHSTONE_NUM_THREADS)");
  cmd->add_option("--repetitions", a->options.repetitions, "Repetitions per case and set");
  cmd->add_option("--min-time", a->options.min_time, "Seconds per repetition");
  cmd->add_option("--report", a->report, "Write the JSON report to FILE");
  cmd->add_flag("--quiet", a->quiet, "Print the summary only, not a line per case");
  cmd->add_flag_callback(
      "--no-probes", [a] { a->options.probes = false; },
      "Skip the roofline probes (no % roofline)");
  cmd->add_option("--plugin", a->plugins, "Load a kernel-set plug-in (repeatable)");
  cmd->add_option("--plant-slowdown", a->options.slowdown,
                  "PATTERN=FACTOR: run matching ops FACTOR times per call (tests the CI gate)");
  return {cmd, [a] {
            a->options.kernel_sets = split_list(a->kernels);
            for (const std::string& d : split_list(a->dtypes)) {
              a->options.catalog.dtypes.push_back(parse_dtype(d));
            }
            load_kernel_sets(a->plugins, a->options.kernel_sets);
            a->options.command = command_line(*a);
            std::ostream silent(nullptr);  // --quiet: a stream that drops the per-case lines
            const perf::RunResult result =
                perf::run_bench(a->options, a->quiet ? silent : std::cout);
            print_summary(result);
            if (!a->report.empty()) {
              perf::write_report(a->report, perf::report_json(result));
              std::cout << "report: " << a->report << "\n";
            }
            return 0;
          }};
}

}  // namespace ts::tools
