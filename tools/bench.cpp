// `touchstone bench`: every listed kernel set runs every catalog case side by side; prints one
// line per case and a summary per op family, writes the JSON report.
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>

#include "command.h"
#include "perf/report.h"
#include "perf/runner.h"
#include "perf/stats.h"
#include "reports/files.h"

namespace ts::tools {
namespace {

// For each other set, the cases where it beat the first set, split by the U test (Note
// [Significance of a ratio] in perf/stats.cpp); the significant ones are listed, widest gap first.
void print_faster_cases(const perf::RunResult& r) {
  const std::string& first = r.options.kernel_sets.front();
  struct Faster {
    double ratio, p;  // time of the set / time of the first; the U test's p-value
    bool testable;    // enough repetitions for p to go below kSignificance
    std::string name;
  };
  std::map<std::string, std::vector<Faster>> faster;
  for (const perf::CaseResult& c : r.cases) {
    const perf::SetResult& f = c.results.front();
    for (const perf::SetResult& s : c.results) {
      if (&s == &f || s.status != "ok" || f.status != "ok" || s.median_s >= f.median_s) continue;
      const int n = static_cast<int>(f.samples_s.size()), m = static_cast<int>(s.samples_s.size());
      faster[s.set].push_back(
          {s.median_s / f.median_s, perf::mann_whitney_p(f.samples_s, s.samples_s),
           n >= 2 && m >= 2 && perf::smallest_p(n, m) < perf::kSignificance, c.name});
    }
  }
  for (auto& [set, cases] : faster) {
    std::sort(cases.begin(), cases.end(),
              [](const Faster& a, const Faster& b) { return a.ratio < b.ratio; });
    int64_t significant = 0, untestable = 0;
    for (const Faster& f : cases) {
      significant += f.p < perf::kSignificance;
      untestable += !f.testable;
    }
    std::cout << set << " faster than " << first << " on " << cases.size()
              << " cases: " << significant << " significant (U test over the repetitions, p < "
              << perf::kSignificance << "), " << cases.size() - significant - untestable
              << " within the noise, " << untestable << " with too few repetitions to tell\n";
    for (const Faster& f : cases) {
      if (f.p >= perf::kSignificance) continue;
      std::cout << "  x" << std::fixed << std::setprecision(2) << f.ratio << "  " << f.name
                << "  p=" << std::setprecision(3) << f.p << "\n";
    }
  }
}

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
              << " GB/s, add " << roof.add_gbs << " GB/s, read " << roof.read_gbs << " GB/s; sgemm "
              << roof.sgemm_gflops << ", dgemm " << roof.dgemm_gflops << " GFLOP/s";
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
  print_faster_cases(r);
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
  // The options whose explicit 0 (or empty value) is an error, not the default.
  CLI::Option *threads_opt = nullptr, *repetitions_opt = nullptr, *min_time_opt = nullptr;
  CLI::Option *ops_opt = nullptr, *dtypes_opt = nullptr, *report_opt = nullptr;
};

// "add, mul" -> {"add", "mul"}: names trimmed of blanks. An empty name or list is an error
// naming `flag`.
std::vector<std::string> parse_list(const std::string& text, const char* flag) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  for (std::string item; std::getline(ss, item, ',');) {
    const size_t first = item.find_first_not_of(" \t");
    TS_CHECK(first != std::string::npos, "bench: ", flag, ": empty name in '", text, "'");
    out.push_back(item.substr(first, item.find_last_not_of(" \t") - first + 1));
  }
  TS_CHECK(!out.empty(), "bench: ", flag, ": the list is empty");
  TS_CHECK(text.find_last_not_of(" \t") == std::string::npos ||
               text[text.find_last_not_of(" \t")] != ',',
           "bench: ", flag, ": empty name in '", text, "'");
  return out;
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : ",") + x;
  return s;
}

// Note [Bench checks before the run]
// A bench run takes minutes, and its roofline probes alone tens of seconds: every flag is
// checked before anything is measured (here, then perf::select_cases at the start of
// run_bench), and the --report path too, so that a typo costs nothing and exits 2.
void check_and_resolve(BenchArgs& a) {
  perf::RunOptions& o = a.options;
  TS_CHECK(a.threads_opt->count() == 0 || o.threads >= 1,
           "bench: --threads must be a positive number, got ", o.threads);
  TS_CHECK(a.repetitions_opt->count() == 0 || o.repetitions >= 1,
           "bench: --repetitions must be a positive number, got ", o.repetitions);
  TS_CHECK(a.min_time_opt->count() == 0 || (std::isfinite(o.min_time) && o.min_time > 0),
           "bench: --min-time must be a positive number of seconds, got ", o.min_time);
  o.kernel_sets = parse_list(a.kernels, "--kernels");
  a.kernels = join(o.kernel_sets);
  if (a.ops_opt->count() > 0) {
    o.catalog.ops = join(parse_list(o.catalog.ops, "--ops"));
  }
  o.catalog.dtypes.clear();
  if (a.dtypes_opt->count() > 0) {
    for (const std::string& d : parse_list(a.dtypes, "--dtypes")) {
      ScalarType t = kFloat;
      try {
        t = parse_dtype(d);
      } catch (const Error& e) {
        TS_ERROR("bench: --dtypes: ", e.what());
      }
      TS_CHECK(
          std::find(o.catalog.dtypes.begin(), o.catalog.dtypes.end(), t) == o.catalog.dtypes.end(),
          "bench: --dtypes lists ", dtype_name(t), " twice ('", a.dtypes, "')");
      o.catalog.dtypes.push_back(t);
    }
    std::vector<std::string> names;
    for (ScalarType t : o.catalog.dtypes) names.emplace_back(dtype_name(t));
    a.dtypes = join(names);
  }
  if (a.report_opt->count() > 0) reports::check_output_path(a.report, "bench: --report");
  try {
    load_kernel_sets(a.plugins, o.kernel_sets);
  } catch (const Error& e) {
    TS_ERROR("bench: ", e.what());
  }
}

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
  if (o.allow_empty) s += " --allow-empty";
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
  a->ops_opt = cmd->add_option("--ops", a->options.catalog.ops,
                               "Ops or families: comma-separated names, substrings or globs; "
                               "each must select a case");
  a->dtypes_opt = cmd->add_option(
      "--dtypes", a->dtypes, "Comma-separated dtypes (default: float32, or the op's own kind)");
  cmd->add_flag("--quick", a->options.catalog.quick,
                "Small shapes, 3 repetitions, quick roofline probes (CI)");
  a->threads_opt = cmd->add_option("--threads", a->options.threads,
                                   "Threads, >= 1 (default: TOUCHSTONE_NUM_THREADS)");
  a->repetitions_opt = cmd->add_option("--repetitions", a->options.repetitions,
                                       "Repetitions per case and set, >= 1");
  a->min_time_opt =
      cmd->add_option("--min-time", a->options.min_time, "Seconds per repetition, > 0");
  a->report_opt = cmd->add_option("--report", a->report,
                                  "Write the JSON report to FILE (its directory is checked first)");
  cmd->add_flag("--allow-empty", a->options.allow_empty,
                "Run (nothing) when --ops and --dtypes select no case, instead of failing");
  cmd->add_flag("--quiet", a->quiet, "Print the summary only, not a line per case");
  cmd->add_flag_callback(
      "--no-probes", [a] { a->options.probes = false; },
      "Skip the roofline probes (no % roofline)");
  cmd->add_option("--plugin", a->plugins, "Load a kernel-set plug-in (repeatable)");
  cmd->add_option("--plant-slowdown", a->options.slowdown,
                  "PATTERN=FACTOR: run matching ops FACTOR times per call (tests the CI gate)");
  cmd->footer(
      "Exit status: 0 the run completed (a kernel set that cannot run a case is reported as\n"
      "    skipped or error, per case, in the output and the report);\n"
      "  2 usage or I/O error, found before anything is measured: a bad flag value, an unknown\n"
      "    kernel set or dtype, an --ops pattern that selects no case, an empty selection\n"
      "    (unless --allow-empty), a malformed --plant-slowdown, an unwritable --report path.");
  return {cmd, [a] {
            check_and_resolve(*a);
            a->options.command = command_line(*a);
            std::ostream silent(nullptr);  // --quiet: a stream that drops the per-case lines
            const perf::RunResult result =
                perf::run_bench(a->options, a->quiet ? silent : std::cout);
            print_summary(result);
            if (!a->report.empty()) {
              reports::write_json(a->report, perf::report_json(result), "bench");
              std::cout << "report: " << a->report << "\n";
            }
            return 0;
          }};
}

}  // namespace ts::tools
