// `touchstone conform` and `touchstone merge`: failing cases with repro lines, a summary table
// per op, JSON and JUnit reports.
#include "conform.h"

#include <unistd.h>

#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>

#include "command.h"
#include "conformance/report.h"

namespace ts::tools {
namespace {

// One row per op, or per op family with `by_family`.
void print_table(const conformance::RunResult& result, bool by_family) {
  std::map<std::string, std::string> family;
  for (const conformance::OpEntry& e : conformance::catalog()) family[e.name] = e.family;
  std::map<std::string, conformance::RunResult> per_op;
  for (const conformance::CaseResult& c : result.cases) {
    per_op[by_family ? family[c.op] : c.op].cases.push_back(c);
  }
  std::cout << std::left << std::setw(18) << (by_family ? "family" : "op") << std::right
            << std::setw(8) << "cases" << std::setw(8) << "passed" << std::setw(8) << "failed"
            << std::setw(8) << "errors" << std::setw(8) << "crashed" << std::setw(8) << "timeout"
            << std::setw(8) << "overrun" << std::setw(11) << "documented" << std::setw(11)
            << "mistrusted"
            << "\n";
  for (const auto& [op, r] : per_op) {
    const conformance::Summary t = r.summary();
    std::cout << std::left << std::setw(18) << op << std::right << std::setw(8) << t.cases
              << std::setw(8) << t.passed << std::setw(8) << t.failed << std::setw(8) << t.errors
              << std::setw(8) << t.crashed << std::setw(8) << t.timeout << std::setw(8) << t.overrun
              << std::setw(11) << t.documented << std::setw(11) << t.mistrusted << "\n";
  }
}

// "I/N" -> (I, N).
void parse_shard(const std::string& s, conformance::RunOptions& o) {
  const size_t slash = s.find('/');
  TS_CHECK(slash != std::string::npos, "conform: --shard expects I/N, got '", s, "'");
  try {
    o.shard_index = std::stoi(s.substr(0, slash));
    o.shard_count = std::stoi(s.substr(slash + 1));
  } catch (const std::exception&) {
    TS_CHECK(false, "conform: --shard expects I/N with integers, got '", s, "'");
  }
}

}  // namespace

int run_conform(conformance::RunOptions options, bool quiet) {
  const bool tty = ::isatty(STDOUT_FILENO) != 0;
  if (tty) {
    options.progress = [](size_t i, size_t n, const std::string& op, ScalarType dt) {
      std::cout << "\r\033[K[" << i + 1 << "/" << n << "] " << op << " " << dtype_name(dt)
                << std::flush;
    };
  }
  const conformance::RunResult result = conformance::run_conformance(options);
  if (tty) std::cout << "\r\033[K";
  for (const conformance::CaseResult& c : result.cases) {
    if (c.status == "passed" || c.status == "documented") continue;
    std::cout << c.status << ": " << c.op << " " << c.dtype << " " << c.sample << "/" << c.layout
              << " (" << c.variant << ", " << c.check << "): " << c.message
              << "\n  repro: " << c.repro << "\n";
  }
  print_table(result, quiet);
  const conformance::Summary s = result.summary();
  if (s.cases == 0) std::cout << "no case matches the filters\n";
  std::cout << "kernel set " << result.kernel_set << ": " << s.cases << " cases, " << s.passed
            << " passed, " << s.failed << " failed, " << s.errors << " errors, " << s.crashed
            << " crashed, " << s.timeout << " timeout, " << s.overrun << " overrun, "
            << s.documented << " documented, " << s.mistrusted << " mistrusted, "
            << result.skipped_samples << " samples skipped (documented in the catalog), "
            << std::fixed << std::setprecision(2) << result.seconds << " s\n";
  if (!options.report_path.empty()) {
    const nlohmann::json report = conformance::report_json(result, options);
    conformance::check_schema(report, "conform: the report");
    conformance::write_report(options.report_path, report);
    std::cout << "report: " << options.report_path << "\n";
  }
  if (!options.junit_path.empty()) {
    conformance::write_file_atomically(options.junit_path, conformance::junit_xml(result));
    std::cout << "junit: " << options.junit_path << "\n";
  }
  return s.ok() ? 0 : 1;
}

Command add_conform_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "conform", "Check a kernel set against the reference set over the conformance catalog");
  struct Args {
    conformance::RunOptions options;
    std::string dtypes, shard, device = "cpu";
    bool no_guard = false, quiet = false;
  };
  auto a = std::make_shared<Args>();
  conformance::RunOptions& o = a->options;
  cmd->add_option("--kernels", o.kernel_set, "Kernel set to check")->capture_default_str();
  cmd->add_option("--device", a->device,
                  "Device the kernel set runs on (cpu, cuda, cuda:N); the reference runs on cpu")
      ->capture_default_str();
  cmd->add_option("--ops", o.ops, "Ops to run: comma-separated names, substrings or globs");
  cmd->add_option("--families", o.families,
                  "Op families to run: unary, binary, reduce, ... (comma-separated)");
  cmd->add_option("--dtypes", a->dtypes, "Comma-separated dtypes (default: every dtype)");
  cmd->add_option("--case", o.case_filter,
                  "Only the cases SAMPLE/LAYOUT/VARIANT/CHECK (parts may be empty or left off)");
  cmd->add_flag("--grad,!--no-grad", o.grad, "Check gradients (default) or not");
  cmd->add_option("--shard", a->shard, "Run shard I of N (I/N, 0-based); merge the reports");
  cmd->add_flag("--isolate", o.isolate,
                "Run each op x dtype in a child process: crashes and hangs become cases");
  cmd->add_option("--timeout", o.case_timeout_s, "Per-case timeout in seconds with --isolate")
      ->capture_default_str();
  cmd->add_flag("--no-guard", a->no_guard, "No guard bytes around allocations");
  cmd->add_flag("--quiet", a->quiet, "The summary per op family instead of per op");
  cmd->add_option("--report", o.report_path, "Write a JSON report to FILE");
  cmd->add_option("--junit", o.junit_path, "Write JUnit XML to FILE");
  cmd->add_option("--plugin", o.plugins, "Load a kernel-set plug-in (repeatable)");
  return {cmd, [a] {
            for (const std::string& d : split_list(a->dtypes)) {
              a->options.dtypes.push_back(parse_dtype(d));
            }
            if (!a->shard.empty()) parse_shard(a->shard, a->options);
            a->options.device = Device(a->device);
            a->options.guard = !a->no_guard;
            load_kernel_sets(a->options.plugins, {a->options.kernel_set});
            return run_conform(a->options, a->quiet);
          }};
}

Command add_merge_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("merge", "Merge conformance reports of shards into one");
  struct Args {
    std::vector<std::string> inputs;
    std::string output;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("reports", a->inputs, "Shard reports (JSON)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("-o,--output", a->output, "The merged report")->required();
  return {cmd, [a] {
            std::vector<nlohmann::json> reports;
            for (const std::string& path : a->inputs) {
              std::ifstream in(path);
              try {
                reports.push_back(nlohmann::json::parse(in));
              } catch (const nlohmann::json::exception& e) {
                TS_CHECK(false, "merge: ", path, " is not JSON: ", e.what());
              }
            }
            const nlohmann::json merged = conformance::merge_reports(reports);
            conformance::check_schema(merged, "merge: the merged report");
            conformance::write_report(a->output, merged);
            const auto& s = merged["summary"];
            std::cout << "merged " << reports.size() << " reports: " << s["cases"] << " cases, "
                      << s["passed"] << " passed, " << s["documented"] << " documented -> "
                      << a->output << "\n";
            return s["passed"].get<int64_t>() + s["documented"].get<int64_t>() ==
                               s["cases"].get<int64_t>() &&
                           s["cases"].get<int64_t>() > 0
                       ? 0
                       : 1;
          }};
}

}  // namespace ts::tools
