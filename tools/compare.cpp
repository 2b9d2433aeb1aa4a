// `touchstone compare BASE.json NEW.json`: per-case ratios, geomeans, regressions first; exit
// status 1 when a case got slower beyond the threshold or vanished from NEW (for CI gates).
// With three or more reports (or --matrix): the matrix against a baseline (compare_matrix.h).
#include <iostream>
#include <memory>

#include "command.h"
#include "reports/compare.h"
#include "reports/compare_matrix.h"
#include "reports/files.h"
#include "touchstone/error.h"

namespace ts::tools {

namespace {

struct CompareArgs {
  std::vector<std::string> reports;
  std::string threshold = "5%", html;
  bool allow_missing = false, include_noisy = false, matrix = false;
  size_t baseline = 1;
};

int run_matrix(const CompareArgs& a) {
  TS_CHECK(a.baseline >= 1 && a.baseline <= a.reports.size(), "compare: --baseline ", a.baseline,
           " is not a report: give 1 to ", a.reports.size());
  std::vector<nlohmann::json> reports;
  std::vector<std::string> names;
  for (size_t i = 0; i < a.reports.size(); ++i) {
    reports.push_back(
        reports::load_perf_report(a.reports[i], "compare: report " + std::to_string(i + 1)));
    names.push_back(a.reports[i]);
  }
  const reports::Matrix m =
      reports::compare_matrix(reports, names, a.baseline - 1, a.include_noisy);
  reports::print_matrix(m, std::cout);
  if (!a.html.empty()) {
    reports::write_file_atomically(a.html, reports::matrix_html(m), "compare");
    std::cout << "html: " << a.html << "\n";
  }
  return 0;
}

}  // namespace

Command add_compare_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "compare",
      "Compare two perf reports (BASE NEW; exits 1 when a case regressed beyond the threshold "
      "or a case of BASE is missing from NEW), or N reports as a matrix against a baseline");
  auto a = std::make_shared<CompareArgs>();
  cmd->add_option("REPORTS", a->reports,
                  "BASE NEW, or three or more reports (machines, thread counts, commits)")
      ->required()
      ->expected(2, -1);
  cmd->add_flag("--matrix", a->matrix, "The matrix view for two reports as well");
  cmd->add_option("--baseline", a->baseline,
                  "Matrix: the report (1-based, in the order given) the ratios are to")
      ->capture_default_str();
  cmd->add_option("--threshold", a->threshold, "Slowdown that counts as a regression")
      ->capture_default_str();
  cmd->add_option("--html", a->html, "Write a self-contained HTML page with plots to FILE");
  cmd->add_flag("--allow-missing", a->allow_missing,
                "Pass although case/set pairs measured in BASE are missing from NEW");
  cmd->add_flag("--include-noisy", a->include_noisy,
                "Also compare case/set pairs that either report marks noisy (timings distorted "
                "by other processes; left out by default)");
  cmd->footer(
      "Matrix (three or more reports, or --matrix): per case and set each report's time, its\n"
      "  % of its own roofline and its ratio to --baseline's, geomeans per family; exit 0.\n"
      "Exit status: 0 no regression (and every case/set pair of BASE measured in NEW);\n"
      "  1 a regression beyond the threshold, or pairs of BASE missing from NEW (unless\n"
      "    --allow-missing);\n"
      "  2 usage or I/O error: a bad flag, an unreadable or invalid report, an unwritable --html\n"
      "    path (checked before comparing), or no case/set pair in common (nothing to compare).");
  return {cmd, [a] {
            // Checked before comparing: exit status 1 must mean a regression, never "the page
            // could not be written".
            if (!a->html.empty()) reports::check_output_path(a->html, "compare: --html");
            if (a->matrix || a->reports.size() > 2) return run_matrix(*a);
            reports::CompareOptions o;
            o.threshold = reports::parse_threshold(a->threshold);
            o.allow_missing = a->allow_missing;
            o.include_noisy = a->include_noisy;
            const std::string& base_path = a->reports[0];
            const std::string& new_path = a->reports[1];
            o.base_name = "BASE '" + base_path + "'";
            o.new_name = "NEW '" + new_path + "'";
            const nlohmann::json base = reports::load_perf_report(base_path, "compare: BASE");
            const nlohmann::json neu = reports::load_perf_report(new_path, "compare: NEW");
            const reports::Comparison c = reports::compare_reports(base, neu, o);
            std::cout << "base: " << base_path << "\nnew:  " << new_path << "\n";
            reports::print_comparison(c, std::cout);
            if (!a->html.empty()) {
              reports::write_file_atomically(a->html, reports::comparison_html(c, base, neu),
                                             "compare");
              std::cout << "html: " << a->html << "\n";
            }
            return c.exit_status();
          }};
}

}  // namespace ts::tools
