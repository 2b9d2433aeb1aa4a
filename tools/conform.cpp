// `touchstone conform`, `touchstone selfcheck` (its known-answer cases) and `touchstone merge`:
// failing cases with repro lines, a summary table per op, JSON and JUnit reports.
#include "conform.h"

#include <unistd.h>

#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "command.h"
#include "conformance/report.h"
#include "reports/files.h"
#include "reports/partial_report.h"

namespace ts::tools {
namespace {

// One row per op, or per op family with `by_family`.
void print_table(const conformance::RunResult& result, bool by_family) {
  std::map<std::string, std::string> family;
  for (const catalog::OpEntry& e : catalog::entries()) family[e.name] = e.family;
  std::map<std::string, conformance::RunResult> per_op;
  for (const conformance::CaseResult& c : result.cases) {
    per_op[by_family ? family[c.op] : c.op].cases.push_back(c);
  }
  std::cout << std::left << std::setw(18) << (by_family ? "family" : "op") << std::right
            << std::setw(8) << "cases" << std::setw(8) << "passed" << std::setw(8) << "failed"
            << std::setw(8) << "flaky" << std::setw(8) << "errors" << std::setw(8) << "crashed"
            << std::setw(8) << "timeout" << std::setw(8) << "overrun" << std::setw(11)
            << "documented" << std::setw(11) << "mistrusted" << std::setw(9) << "warnings";
  // Note [Delegation]: a column only when some case ran another set's kernels.
  const bool any_delegated = result.summary().delegated > 0;
  if (any_delegated) std::cout << std::setw(11) << "delegated";
  std::cout << "\n";
  for (const auto& [op, r] : per_op) {
    const conformance::Summary t = r.summary();
    std::cout << std::left << std::setw(18) << op << std::right << std::setw(8) << t.cases
              << std::setw(8) << t.passed << std::setw(8) << t.failed << std::setw(8) << t.flaky
              << std::setw(8) << t.errors << std::setw(8) << t.crashed << std::setw(8) << t.timeout
              << std::setw(8) << t.overrun << std::setw(11) << t.documented << std::setw(11)
              << t.mistrusted << std::setw(9) << t.warnings;
    if (any_delegated) std::cout << std::setw(11) << t.delegated;
    std::cout << "\n";
  }
}

// A positive integer, all digits; nullopt otherwise.
std::optional<int> positive_int(const std::string& s) {
  if (s.empty() || s.size() > 6 || s.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  const int v = std::stoi(s);
  return v > 0 ? std::optional<int>(v) : std::nullopt;
}

// "I/N", 1 <= I <= N -> (I, N).
void parse_shard(const std::string& s, conformance::RunOptions& o) {
  const size_t slash = s.find('/');
  const std::optional<int> i = positive_int(s.substr(0, slash));
  const std::optional<int> n =
      slash == std::string::npos ? std::nullopt : positive_int(s.substr(slash + 1));
  TS_CHECK(i && n && *i <= *n, "conform: --shard expects I/N with 1 <= I <= N (shard I of N, ",
           "e.g. 1/4), got '", s, "'");
  o.shard_index = *i;
  o.shard_count = *n;
}

// "a, b" -> "a,b": the parts trimmed (spaces after commas are accepted).
std::string trimmed_list(const std::string& s) {
  std::string out;
  for (const std::string& p : split_list(s)) out += (out.empty() ? "" : ",") + p;
  return out;
}

const char* const kExitCodes =
    "Exit status: 0 every case passed or is documented (an empty run with --allow-empty too);\n"
    "1 a case failed (failed, flaky, error, crashed, timeout, overrun); 2 a usage or I/O error (a "
    "bad\n"
    "flag, a filter that selects nothing, an unwritable --report/--junit: checked before the\n"
    "run). A kernel that crashes without --isolate kills the run with its signal (a shell shows\n"
    "128+N, 139 for SIGSEGV): stderr then names the case and its repro line, and REPORT.partial\n"
    "holds the cases finished before it. With --isolate a crash is a `crashed` case instead.";

const char* const kMergeExitCodes =
    "Exit status: 0 every case of the merged run passed or is documented; 1 a case failed;\n"
    "2 a usage or I/O error: an unreadable or invalid report, shards of different runs (the\n"
    "differing field is named), a shard given twice or missing, no case at all (unless\n"
    "--allow-empty), an unwritable -o/--junit (checked before reading the shards).";

}  // namespace

// Note [Failure cap]
// At most `max_shown` failing cases are printed (a line, its repro, its attribution), then
// "... and K more failures (see the report)": a broken kernel set fails thousands of cases,
// which a terminal or a CI log cannot show usefully. The JSON report and JUnit keep them all.
void print_failures(const conformance::RunResult& result, int64_t max_shown, bool has_report) {
  int64_t shown = 0, more = 0;
  for (const conformance::CaseResult& c : result.cases) {
    if (c.status == "passed" || c.status == "documented") continue;
    if (shown >= max_shown) {
      ++more;
      continue;
    }
    ++shown;
    std::cout << c.status << ": " << c.op << " " << c.dtype << " " << c.sample << "/" << c.layout
              << " (" << c.variant << ", " << c.check << ")"
              << (c.delegated_to.empty() ? "" : " [delegated to " + c.delegated_to + "]") << ": "
              << c.message << "\n  repro: " << c.repro << "\n";
    if (c.fails_alone.empty()) continue;
    std::cout << "  kernels:";
    for (size_t k = 0; k < c.kernels.size(); ++k) std::cout << (k ? ", " : " ") << c.kernels[k];
    std::cout << "\n";
    for (const std::string& f : c.fails_alone) std::cout << "  " << f << "\n";
  }
  if (more > 0) {
    std::cout << "... and " << more << " more failures ("
              << (has_report ? "see the report" : "--report FILE.json keeps them all") << "; "
              << "--max-failures-shown N shows more)\n";
  }
}

int run_conform(conformance::RunOptions options, bool quiet, int64_t max_failures_shown) {
  // Flags and output paths first: a typo must not cost the run.
  conformance::validate_options(options);
  if (!options.report_path.empty()) reports::check_output_path(options.report_path, "--report");
  if (!options.junit_path.empty()) reports::check_output_path(options.junit_path, "--junit");
  std::optional<reports::PartialReport> partial;
  if (!options.report_path.empty()) {
    partial.emplace(options.report_path, conformance::report_header(options), "conform");
    options.on_case = [&partial](const conformance::CaseResult& c) {
      partial->append(conformance::case_to_json(c));
    };
  }
  const bool tty = ::isatty(STDOUT_FILENO) != 0;
  if (tty) {
    options.progress = [](size_t i, size_t n, const std::string& op, ScalarType dt) {
      std::cout << "\r\033[K[" << i + 1 << "/" << n << "] " << op << " " << dtype_name(dt)
                << std::flush;
    };
  }
  conformance::RunResult result;
  try {
    result = conformance::run_conformance(options);
  } catch (const Error&) {
    if (partial) partial->finish();  // a usage error found once the samples are made
    throw;
  }
  if (tty) std::cout << "\r\033[K";
  print_failures(result, max_failures_shown, !options.report_path.empty());
  print_table(result, quiet);
  const conformance::Summary s = result.summary();
  if (s.cases == 0) {
    std::cout << "no case ran"
              << (options.shard_count > 1 ? " (this shard has none of the selected cases)" : "")
              << "\n";
  }
  std::cout << "kernel set " << result.kernel_set << ": " << s.cases << " cases, " << s.passed
            << " passed, " << s.failed << " failed, " << s.flaky << " flaky, " << s.errors
            << " errors, " << s.crashed << " crashed, " << s.timeout << " timeout, " << s.overrun
            << " overrun, " << s.documented << " documented, " << s.mistrusted << " mistrusted ("
            << s.nonempty_mistrusted << " of the " << s.nonempty << " non-empty cases, "
            << std::fixed << std::setprecision(1)
            << (s.nonempty > 0 ? 100.0 * static_cast<double>(s.nonempty_mistrusted) /
                                     static_cast<double>(s.nonempty)
                               : 0.0)
            << "%), " << s.warnings << " warnings, " << result.skipped_samples
            << " samples skipped (documented in the catalog), " << std::fixed
            << std::setprecision(2) << result.seconds << " s\n";
  if (s.delegated > 0) {
    std::set<std::string> targets;
    for (const conformance::CaseResult& c : result.cases) {
      if (!c.delegated_to.empty()) targets.insert(c.delegated_to);
    }
    std::string names;
    for (const std::string& t : targets) names += (names.empty() ? "" : ", ") + t;
    std::cout << "delegated: " << s.delegated << " of these cases ran kernels that "
              << result.kernel_set << " delegates to " << names
              << " (Note [Delegation]): they judged those sets, not " << result.kernel_set
              << "'s own kernels\n";
  }
  if (!options.report_path.empty()) {
    const nlohmann::json report = conformance::report_json(result, options);
    conformance::check_schema(report, "conform: the report");
    reports::write_json(options.report_path, report, "conform");
    partial->finish();
    std::cout << "report: " << options.report_path << "\n";
  }
  if (!options.junit_path.empty()) {
    reports::write_file_atomically(options.junit_path, conformance::junit_xml(result), "conform");
    std::cout << "junit: " << options.junit_path << "\n";
  }
  return s.ok() ? 0 : 1;
}

Command add_conform_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "conform", "Check a kernel set against the reference set over the conformance catalog");
  cmd->footer(kExitCodes);
  struct Args {
    conformance::RunOptions options;
    std::string dtypes, shard, device = "cpu";
    bool no_guard = false, quiet = false;
    int64_t max_failures_shown = kDefaultFailuresShown;
  };
  auto a = std::make_shared<Args>();
  conformance::RunOptions& o = a->options;
  cmd->add_option("--kernels", o.kernel_set, "Kernel set to check")->capture_default_str();
  cmd->add_option("--device", a->device,
                  "Device the kernel set runs on (cpu, cuda, cuda:N); the reference runs on cpu")
      ->capture_default_str();
  cmd->add_option("--ops", o.ops,
                  "Ops to run: comma-separated names, substrings or globs; each must match an op");
  cmd->add_option("--families", o.families,
                  "Op families to run: unary, binary, reduce, ... (comma-separated)");
  cmd->add_option("--dtypes", a->dtypes, "Comma-separated dtypes (default: every dtype)");
  cmd->add_option("--case", o.case_filter,
                  "Only the cases SAMPLE/LAYOUT/VARIANT/CHECK (parts may be empty or left off)");
  cmd->add_flag("--grad,!--no-grad", o.grad, "Check gradients (default) or not");
  cmd->add_option("--shard", a->shard,
                  "Run shard I of N (I/N, 1 <= I <= N); `touchstone merge` joins the reports");
  auto* isolate =
      cmd->add_flag("--isolate", o.isolate,
                    "Run each op x dtype in a child process: crashes and hangs become cases");
  cmd->add_option("--timeout", o.case_timeout_s,
                  "Per-case timeout in seconds with --isolate (a positive number)")
      ->capture_default_str()
      ->needs(isolate);
  cmd->add_option("--repeat", o.repeat,
                  "Run each case N times (>= 1); one failing in some runs only is `flaky`")
      ->capture_default_str();
  cmd->add_option("--max-failures-shown", a->max_failures_shown,
                  "Print at most N failing cases (>= 0), then a count; the report keeps all")
      ->capture_default_str();
  cmd->add_flag("--no-guard", a->no_guard, "No guard bytes around allocations");
  cmd->add_flag("--allow-empty", o.allow_empty,
                "Accept filters that select no case (otherwise an error, exit 2)");
  cmd->add_flag("--quiet", a->quiet, "The summary per op family instead of per op");
  cmd->add_option("--report", o.report_path,
                  "Write a JSON report to FILE (FILE.partial holds the cases done while it runs)");
  cmd->add_option("--junit", o.junit_path, "Write JUnit XML to FILE");
  cmd->add_option("--plugin", o.plugins, "Load a kernel-set plug-in (repeatable)");
  return {cmd, [a] {
            conformance::RunOptions& o = a->options;
            for (const std::string& d : split_list(a->dtypes)) {
              try {
                o.dtypes.push_back(parse_dtype(d));
              } catch (const Error& e) {
                TS_CHECK(false, "conform: --dtypes: ", e.what());
              }
            }
            if (!a->shard.empty()) parse_shard(a->shard, o);
            o.ops = trimmed_list(o.ops);
            o.families = trimmed_list(o.families);
            o.device = Device(a->device);
            o.guard = !a->no_guard;
            TS_CHECK(a->max_failures_shown >= 0, "conform: --max-failures-shown must be >= 0, got ",
                     a->max_failures_shown);
            load_kernel_sets(o.plugins, {o.kernel_set});
            return run_conform(o, a->quiet, a->max_failures_shown);
          }};
}

// Note [selfcheck]
// The catalog's known answers (Note [Known answers] in catalog/catalog.h) on one kernel set,
// the reference by default: `conform --kernels SET --case known --no-grad`. The forward cases
// of those samples compare the set with answers computed by hand, so the reference itself is
// checked against something other than itself; a quick check of an installation.
Command add_selfcheck_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "selfcheck",
      "Check a kernel set (the reference by default) against the catalog's hand-computed known "
      "answers: conform --case known --no-grad");
  cmd->footer(
      "Exit status: 0 every known answer matched; 1 one did not (its repro line is printed);\n"
      "2 a usage error.");
  struct Args {
    conformance::RunOptions options;
    bool verbose = false;
  };
  auto a = std::make_shared<Args>();
  a->options.kernel_set = "reference";
  a->options.case_filter = "known";
  a->options.grad = false;
  cmd->add_option("--kernels", a->options.kernel_set, "Kernel set to check")->capture_default_str();
  cmd->add_option("--plugin", a->options.plugins, "Load a kernel-set plug-in (repeatable)");
  cmd->add_flag("-v,--verbose", a->verbose, "A row per op instead of per op family");
  return {cmd, [a] {
            load_kernel_sets(a->options.plugins, {a->options.kernel_set});
            return run_conform(a->options, !a->verbose, kDefaultFailuresShown);
          }};
}

Command add_merge_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "merge", "Merge the reports of shards 1..N of one conformance run into the run's report");
  cmd->footer(kMergeExitCodes);
  struct Args {
    std::vector<std::string> inputs;
    std::string output, junit;
    bool allow_empty = false;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("reports", a->inputs, "Shard reports (JSON), each shard once")->required();
  cmd->add_option("-o,--output", a->output, "The merged report")->required();
  cmd->add_option("--junit", a->junit, "Also write the merged run as JUnit XML to FILE");
  cmd->add_flag("--allow-empty", a->allow_empty,
                "Accept shards that have no case at all (otherwise an error, exit 2)");
  return {cmd, [a] {
            reports::check_output_path(a->output, "-o");
            if (!a->junit.empty()) reports::check_output_path(a->junit, "--junit");
            std::vector<nlohmann::json> shards;
            for (const std::string& path : a->inputs) {
              try {
                shards.push_back(nlohmann::json::parse(reports::read_file(path, "merge")));
              } catch (const nlohmann::json::exception& e) {
                TS_CHECK(false, "merge: '", path, "' is not JSON: ", e.what());
              }
            }
            const nlohmann::json merged = conformance::merge_reports(shards, a->inputs);
            TS_CHECK(a->allow_empty || !merged["cases"].empty(),
                     "merge: the shards have no case at all: their filters select none "
                     "(--allow-empty accepts an empty run)");
            conformance::check_schema(merged, "merge: the merged report");
            reports::write_json(a->output, merged, "merge");
            const conformance::RunResult result = conformance::result_from_report(merged);
            if (!a->junit.empty()) {
              reports::write_file_atomically(a->junit, conformance::junit_xml(result), "merge");
            }
            const conformance::Summary s = result.summary();
            std::cout << "merged " << shards.size() << " shards: " << s.cases << " cases, "
                      << s.passed << " passed, " << s.documented << " documented, "
                      << s.cases - s.passed - s.documented << " failing -> " << a->output << "\n";
            return s.ok() ? 0 : 1;
          }};
}

}  // namespace ts::tools
