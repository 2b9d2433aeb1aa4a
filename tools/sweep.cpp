// `touchstone sweep`: every input of a unary float op (or a range, or --quick) through each
// kernel set, against the correctly rounded oracle (conformance/sweep/).
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

std::string format_number(double v, int precision) {
  std::ostringstream os;
  os << std::setprecision(precision) << v;
  return os.str();
}

std::string format_input(uint32_t bits, const std::string& dtype) {
  const sweep::Format& fmt = sweep::format_of(parse_dtype(dtype), "sweep");
  return format_number(sweep::format_value(bits, fmt), 9);
}

void print_table(const std::vector<sweep::SweepRow>& rows) {
  std::cout << std::left << std::setw(11) << "op" << std::setw(10) << "dtype" << std::setw(11)
            << "kernels" << std::right << std::setw(11) << "inputs" << std::setw(11) << "max ulp"
            << std::setw(10) << "steps" << std::setw(16) << "worst input" << std::setw(10) << "% CR"
            << std::setw(9) << "NaN" << std::setw(9) << "inf" << std::setw(9) << "±0"
            << std::setw(9) << "wall s"
            << "\n";
  for (const sweep::SweepRow& r : rows) {
    std::cout << std::left << std::setw(11) << r.op << std::setw(10) << r.dtype << std::setw(11)
              << r.kernels << std::right;
    if (r.inputs == 0) {
      std::cout << std::setw(11) << "-"
                << "  (no kernel for this dtype)\n";
      continue;
    }
    const double pct =
        100.0 * static_cast<double>(r.correctly_rounded) / static_cast<double>(r.inputs);
    std::cout << std::setw(11) << r.inputs << std::setw(11) << format_number(r.max_ulp, 4)
              << std::setw(10) << r.max_steps << std::setw(16)
              << format_input(r.worst_input, r.dtype) << std::setw(10) << std::fixed
              << std::setprecision(4) << pct << std::setw(9) << r.nan_mismatches << std::setw(9)
              << r.inf_mismatches << std::setw(9) << r.zero_sign_mismatches << std::setw(9)
              << std::setprecision(2) << r.wall_seconds << std::defaultfloat << "\n";
  }
}

}  // namespace

Command add_sweep_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "sweep",
      "Run every input of unary float ops through kernel sets against a correctly rounded oracle");
  cmd->footer(
      "Exit status: 0 the sweep ran (its findings are in the table and the report); 2 a usage "
      "or I/O error (a bad flag, an unknown op, set or dtype, an unwritable --report).");
  struct Args {
    std::string ops, kernels = "optimized,reference", dtypes = "float32,bfloat16,float16";
    std::string range, report;
    bool quick = false;
    int threads = 0;
    std::vector<std::string> plugins;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("--ops", a->ops, "Comma-separated ops (default: every unary float op)");
  cmd->add_option("--kernels", a->kernels,
                  "Comma-separated kernel sets (libm: glibc's float functions; aten loads the "
                  "in-tree plug-in)")
      ->capture_default_str();
  cmd->add_option("--dtypes", a->dtypes, "Comma-separated dtypes: float32, bfloat16, float16")
      ->capture_default_str();
  cmd->add_option("--range", a->range, "Only the inputs LO <= x <= HI (LO:HI)");
  cmd->add_flag("--quick", a->quick,
                "float32: every 256th input and the special values (16-bit dtypes: all inputs)");
  cmd->add_option("--report", a->report, "Write the JSON report to FILE");
  cmd->add_option("--threads", a->threads, "Worker threads (default: TOUCHSTONE_NUM_THREADS)");
  cmd->add_option("--plugin", a->plugins, "Load a kernel-set plug-in (repeatable)");
  return {cmd, [a] {
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
            TS_CHECK(a->threads >= 0, "sweep: --threads expects a positive count, got ",
                     a->threads);
            if (a->threads > 0) set_num_threads(a->threads);
            if (!a->report.empty()) reports::check_output_path(a->report, "--report");
            std::vector<std::string> to_load;
            for (const std::string& k : o.kernels) {
              if (k != "libm") to_load.push_back(k);
            }
            load_kernel_sets(a->plugins, to_load);
            const std::vector<sweep::SweepRow> rows = sweep::run_sweep(o);
            print_table(rows);
            if (!a->report.empty()) {
              reports::write_json(a->report, sweep::sweep_to_json(o, rows), "sweep");
            }
            return 0;
          }};
}

}  // namespace ts::tools
