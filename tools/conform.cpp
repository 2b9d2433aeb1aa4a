// `touchstone conform`: failing cases with repro lines, then a summary table per op.
#include "conform.h"

#include <iomanip>
#include <iostream>
#include <map>

#include "conformance/report.h"

namespace ts::tools {
namespace {

struct OpTally {
  int64_t cases = 0, passed = 0, failed = 0, errors = 0, mistrusted = 0;
};

void print_table(const conformance::RunResult& result) {
  std::map<std::string, OpTally> per_op;
  for (const conformance::CaseResult& c : result.cases) {
    OpTally& t = per_op[c.op];
    ++t.cases;
    t.passed += c.status == "passed";
    t.failed += c.status == "failed";
    t.errors += c.status == "error";
    t.mistrusted += c.mistrusted;
  }
  std::cout << std::left << std::setw(16) << "op" << std::right << std::setw(8) << "cases"
            << std::setw(8) << "passed" << std::setw(8) << "failed" << std::setw(8) << "errors"
            << std::setw(12) << "mistrusted"
            << "\n";
  for (const auto& [op, t] : per_op) {
    std::cout << std::left << std::setw(16) << op << std::right << std::setw(8) << t.cases
              << std::setw(8) << t.passed << std::setw(8) << t.failed << std::setw(8) << t.errors
              << std::setw(12) << t.mistrusted << "\n";
  }
}

}  // namespace

int run_conform(const conformance::RunOptions& options) {
  const conformance::RunResult result = conformance::run_conformance(options);
  for (const conformance::CaseResult& c : result.cases) {
    if (c.status == "passed") continue;
    std::cout << c.status << ": " << c.op << " " << c.dtype << " " << c.sample << "/" << c.layout
              << " (" << c.variant << "): " << c.message << "\n  repro: " << c.repro << "\n";
  }
  print_table(result);
  const conformance::Summary s = result.summary();
  if (s.cases == 0) std::cout << "no case matches the filters\n";
  std::cout << "kernel set " << result.kernel_set << ": " << s.cases << " cases, " << s.passed
            << " passed, " << s.failed << " failed, " << s.errors << " errors, " << s.mistrusted
            << " mistrusted, " << result.skipped_samples
            << " samples skipped (documented in the catalog), " << std::fixed
            << std::setprecision(2) << result.seconds << " s\n";
  if (!options.report_path.empty()) {
    conformance::write_report(options.report_path, conformance::report_json(result, options));
    std::cout << "report: " << options.report_path << "\n";
  }
  return s.cases > 0 && s.passed == s.cases ? 0 : 1;
}

}  // namespace ts::tools
