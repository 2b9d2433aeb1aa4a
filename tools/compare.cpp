// `touchstone compare BASE.json NEW.json`: per-case ratios, geomeans, regressions first; exit
// status 1 when a case got slower beyond the threshold (for CI gates).
#include <fstream>
#include <iostream>
#include <memory>

#include "command.h"
#include "perf/compare.h"
#include "perf/report.h"

namespace ts::tools {

Command add_compare_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "compare", "Compare two perf reports; exits 1 when a case regressed beyond the threshold");
  struct Args {
    std::string base, neu, threshold = "5%", html;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("BASE", a->base, "The baseline report")->required();
  cmd->add_option("NEW", a->neu, "The report to judge")->required();
  cmd->add_option("--threshold", a->threshold, "Slowdown that counts as a regression")
      ->capture_default_str();
  cmd->add_option("--html", a->html, "Write a self-contained HTML page with plots to FILE");
  return {cmd, [a] {
            const double threshold = perf::parse_threshold(a->threshold);
            const nlohmann::json base = perf::load_report(a->base);
            const nlohmann::json neu = perf::load_report(a->neu);
            const perf::Comparison c = perf::compare_reports(base, neu, threshold);
            std::cout << "base: " << a->base << "\nnew:  " << a->neu << "\n";
            perf::print_comparison(c, std::cout);
            if (!a->html.empty()) {
              std::ofstream out(a->html, std::ios::trunc);
              TS_CHECK(out.good(), "compare: cannot write ", a->html);
              out << perf::comparison_html(c, base, neu);
              TS_CHECK(out.good(), "compare: writing ", a->html, " failed");
              std::cout << "html: " << a->html << "\n";
            }
            return c.regressions > 0 ? 1 : 0;
          }};
}

}  // namespace ts::tools
