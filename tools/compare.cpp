// `touchstone compare BASE.json NEW.json`: per-case ratios, geomeans, regressions first; exit
// status 1 when a case got slower beyond the threshold or vanished from NEW (for CI gates).
#include <iostream>
#include <memory>

#include "command.h"
#include "reports/compare.h"
#include "reports/files.h"

namespace ts::tools {

Command add_compare_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "compare",
      "Compare two perf reports; exits 1 when a case regressed beyond the threshold or a case "
      "of BASE is missing from NEW");
  struct Args {
    std::string base, neu, threshold = "5%", html;
    bool allow_missing = false, include_noisy = false;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("BASE", a->base, "The baseline report")->required();
  cmd->add_option("NEW", a->neu, "The report to judge")->required();
  cmd->add_option("--threshold", a->threshold, "Slowdown that counts as a regression")
      ->capture_default_str();
  cmd->add_option("--html", a->html, "Write a self-contained HTML page with plots to FILE");
  cmd->add_flag("--allow-missing", a->allow_missing,
                "Pass although case/set pairs measured in BASE are missing from NEW");
  cmd->add_flag("--include-noisy", a->include_noisy,
                "Also compare case/set pairs that either report marks noisy (timings distorted "
                "by other processes; left out by default)");
  cmd->footer(
      "Exit status: 0 no regression (and every case/set pair of BASE measured in NEW);\n"
      "  1 a regression beyond the threshold, or pairs of BASE missing from NEW (unless\n"
      "    --allow-missing);\n"
      "  2 usage or I/O error: a bad flag, an unreadable or invalid report, an unwritable --html\n"
      "    path (checked before comparing), or no case/set pair in common (nothing to compare).");
  return {cmd, [a] {
            reports::CompareOptions o;
            o.threshold = reports::parse_threshold(a->threshold);
            o.allow_missing = a->allow_missing;
            o.include_noisy = a->include_noisy;
            o.base_name = "BASE '" + a->base + "'";
            o.new_name = "NEW '" + a->neu + "'";
            // Checked before comparing: exit status 1 must mean a regression, never "the page
            // could not be written".
            if (!a->html.empty()) reports::check_output_path(a->html, "compare: --html");
            const nlohmann::json base = reports::load_perf_report(a->base, "compare: BASE");
            const nlohmann::json neu = reports::load_perf_report(a->neu, "compare: NEW");
            const reports::Comparison c = reports::compare_reports(base, neu, o);
            std::cout << "base: " << a->base << "\nnew:  " << a->neu << "\n";
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
