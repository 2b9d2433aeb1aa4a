// `touchstone sweep`: every input of a unary float op, or every 16-bit pair of a binary one (or a
// range, or --quick), through each kernel set against the correctly rounded oracle, and across
// SIMD targets and thread counts (conformance/sweep/).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

#include "command.h"
#include "conformance/sweep/engine.h"
#include "conformance/sweep/oracle.h"
#include "reports/files.h"
#include "touchstone/parallel.h"
#include "touchstone/touchstone.h"

namespace ts::tools {
namespace {

// "LO:HI" -> (LO, HI), each a number strtod reads whole ("-1e3", "inf").
std::pair<double, double> parse_range(const std::string& s) {
  const size_t colon = s.find(':', 1);  // a leading '-' is a sign
  auto number = [&](const std::string& part, double& out) {
    if (part.empty()) return false;
    char* end = nullptr;
    out = std::strtod(part.c_str(), &end);
    return *end == '\0' && !std::isnan(out);
  };
  double lo = 0, hi = 0;
  TS_CHECK(colon != std::string::npos && number(s.substr(0, colon), lo) &&
               number(s.substr(colon + 1), hi) && lo <= hi,
           "sweep: --range expects LO:HI, two numbers with LO <= HI (e.g. -10:10), got '", s, "'");
  return {lo, hi};
}

// A thread count of --compare-threads: digits only.
int parse_count(const std::string& s) {
  char* end = nullptr;
  const long n = std::strtol(s.c_str(), &end, 10);
  TS_CHECK(!s.empty() && *end == '\0' && n > 0 && n <= 1024,
           "sweep: --compare-threads expects counts 1..1024 (e.g. 1,2,3), got '", s, "'");
  return static_cast<int>(n);
}

std::string format_number(double v, int precision) {
  std::ostringstream os;
  os << std::setprecision(precision) << v;
  return os.str();
}

void print_table(const std::vector<sweep::SweepRow>& rows) {
  std::cout << std::left << std::setw(13) << "op" << std::setw(10) << "dtype" << std::setw(11)
            << "kernels" << std::right << std::setw(11) << "inputs" << std::setw(11) << "max ulp"
            << std::setw(10) << "steps" << std::setw(30) << "worst input" << std::setw(10) << "% CR"
            << std::setw(9) << "NaN" << std::setw(9) << "inf" << std::setw(9) << "±0"
            << std::setw(9) << "wall s"
            << "\n";
  for (const sweep::SweepRow& r : rows) {
    std::cout << std::left << std::setw(13) << r.op << std::setw(10) << r.dtype << std::setw(11)
              << r.kernels << std::right;
    if (r.inputs == 0) {
      std::cout << std::setw(11) << "-"
                << "  (no kernel for this dtype)\n";
      continue;
    }
    const double pct =
        100.0 * static_cast<double>(r.correctly_rounded) / static_cast<double>(r.inputs);
    std::cout << std::setw(11) << r.inputs << std::setw(11) << format_number(r.max_ulp, 4)
              << std::setw(10) << r.max_steps << std::setw(30)
              << sweep::input_text(r.worst_input, r.dtype, r.arity) << std::setw(10) << std::fixed
              << std::setprecision(4) << pct << std::setw(9) << r.nan_mismatches << std::setw(9)
              << r.inf_mismatches << std::setw(9) << r.zero_sign_mismatches << std::setw(9)
              << std::setprecision(2) << r.wall_seconds << std::defaultfloat << "\n";
  }
}

void print_compare(const std::vector<sweep::CompareRow>& rows) {
  std::cout << "\n"
            << std::left << std::setw(11) << "op" << std::setw(10) << "dtype" << std::setw(11)
            << "kernels" << std::setw(12) << "baseline" << std::setw(12) << "config" << std::right
            << std::setw(11) << "inputs" << std::setw(11) << "differing" << std::setw(9)
            << "NaN bits"
            << "  first differing input: baseline / config\n";
  for (const sweep::CompareRow& r : rows) {
    std::cout << std::left << std::setw(11) << r.op << std::setw(10) << r.dtype << std::setw(11)
              << r.kernels << std::setw(12) << r.baseline << std::setw(12) << r.config << std::right
              << std::setw(11) << r.inputs << std::setw(11) << r.differing << std::setw(9)
              << r.nan_only;
    if (r.first_input) {
      const sweep::Format& fmt = sweep::format_of(parse_dtype(r.dtype), "sweep");
      std::cout << "  " << sweep::input_text(*r.first_input, r.dtype, r.arity) << ": "
                << format_number(sweep::format_value(r.first_baseline, fmt), 9) << " / "
                << format_number(sweep::format_value(r.first_config, fmt), 9);
    }
    std::cout << "\n";
  }
}

}  // namespace

Command add_sweep_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "sweep",
      "Run every input of unary float ops (every 16-bit pair of binary ones) through kernel sets "
      "against a correctly rounded oracle, and across SIMD targets and thread counts");
  cmd->footer(
      "Exit status: 0 the sweep ran (its findings are in the table and the report); 2 a usage "
      "or I/O error (a bad flag, an unknown op, set or dtype, an unwritable --report).");
  struct Args {
    std::string ops, kernels = "optimized,reference", dtypes = "float32,bfloat16,float16";
    std::string range, report, html, targets, compare_threads;
    bool quick = false, scalar_oracle = false;
    int threads = 0;
    std::vector<std::string> plugins;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("--ops", a->ops,
                  "Comma-separated ops (default: every unary float op; binary: add, sub, mul, "
                  "div, pow, atan2, hypot, over 16-bit dtypes)");
  cmd->add_option("--kernels", a->kernels,
                  "Comma-separated kernel sets (libm: glibc's float functions; aten loads the "
                  "in-tree plug-in)")
      ->capture_default_str();
  cmd->add_option("--dtypes", a->dtypes, "Comma-separated dtypes: float32, bfloat16, float16")
      ->capture_default_str();
  cmd->add_option("--range", a->range, "Only the inputs LO <= x <= HI (LO:HI)");
  cmd->add_flag("--quick", a->quick,
                "float32: every 256th input and the special values (16-bit dtypes: all inputs); "
                "binary ops: every 257th pair and the pairs of special values");
  cmd->add_flag("--scalar-oracle", a->scalar_oracle,
                "Evaluate the oracle's double path with the scalar C library instead of libmvec's "
                "vector functions (slower; the same results)");
  cmd->add_option("--report", a->report, "Write the JSON report to FILE");
  cmd->add_option("--html", a->html, "Write an HTML page of error against input to FILE");
  cmd->add_option("--compare-targets", a->targets,
                  "Also run each set under these SIMD targets (comma-separated, the first the "
                  "baseline; 'all': every supported one, best first) and count differing results");
  cmd->add_option("--compare-threads", a->compare_threads,
                  "Also run each set's kernels with these thread counts (e.g. 1,2,3; the first "
                  "the baseline) and count differing results");
  cmd->add_option("--threads", a->threads, "Worker threads (default: TOUCHSTONE_NUM_THREADS)");
  cmd->add_option("--plugin", a->plugins, "Load a kernel-set plug-in (repeatable)");
  return {
      cmd, [a] {
        sweep::SweepOptions o;
        o.ops = split_list(a->ops);
        o.kernels = split_list(a->kernels);
        TS_CHECK(!o.kernels.empty(), "sweep: --kernels names no kernel set");
        for (const std::string& d : split_list(a->dtypes)) {
          o.dtypes.push_back(sweep::format_of(parse_dtype(d), "sweep: --dtypes").dtype);
        }
        TS_CHECK(!o.dtypes.empty(), "sweep: --dtypes names no dtype");
        if (!a->range.empty()) o.range = parse_range(a->range);
        o.quick = a->quick;
        o.vector_oracle = !a->scalar_oracle;
        TS_CHECK(a->threads >= 0, "sweep: --threads expects a positive count, got ", a->threads);
        if (a->threads > 0) set_num_threads(a->threads);
        o.targets = split_list(a->targets);
        for (const std::string& n : split_list(a->compare_threads)) {
          o.threads.push_back(parse_count(n));
        }
        const bool comparing = !o.targets.empty() || !o.threads.empty();
        if (comparing) sweep::check_compare_options(o);
        if (!a->report.empty()) reports::check_output_path(a->report, "--report");
        if (!a->html.empty()) reports::check_output_path(a->html, "--html");
        std::vector<std::string> to_load;
        for (const std::string& k : o.kernels) {
          if (k != "libm") to_load.push_back(k);
        }
        load_kernel_sets(a->plugins, to_load);
        for (const std::string& op : o.ops) {
          const bool f32 = std::find(o.dtypes.begin(), o.dtypes.end(), kFloat) != o.dtypes.end();
          if (f32 && sweep::find_binary_oracle(op) != nullptr) {
            std::cerr << "touchstone: sweep: " << op
                      << ": binary ops run bfloat16 and float16 pairs; float32 (2^64) skipped\n";
          }
        }
        const std::vector<sweep::SweepRow> rows = sweep::run_sweep(o);
        print_table(rows);
        std::vector<sweep::CompareRow> compare;
        if (comparing) {
          compare = sweep::run_compare(o);
          print_compare(compare);
        }
        if (!a->report.empty()) {
          reports::write_json(a->report, sweep::sweep_to_json(o, rows, compare), "sweep");
        }
        if (!a->html.empty()) {
          sweep::write_sweep_html(a->html, o, rows, compare);
        }
        return 0;
      }};
}

}  // namespace ts::tools
