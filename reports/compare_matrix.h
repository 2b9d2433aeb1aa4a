#pragma once
// `touchstone compare` over N perf reports (machines, thread counts, commits): a matrix of
// per-case times, each report's own % of roofline, and ratios to a chosen baseline report, with
// geomeans per op family and one plot per family on the HTML page.
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ts::reports {

struct MatrixCell {
  bool ok = false;  // measured (status ok) in this report
  bool noisy = false;
  double median_s = 0, roofline_pct = 0;
};

struct MatrixRow {
  std::string case_name, family, set;
  std::vector<MatrixCell> cells;  // one per report
};

struct MatrixFamily {
  std::string family;           // "all" for the last row
  std::vector<double> geomean;  // per report: geomean of time / baseline's time
  std::vector<int64_t> cases;   // per report: the rows that entered the geomean
};

struct Matrix {
  std::vector<std::string> names;     // the reports' labels (file names)
  std::vector<std::string> contexts;  // CPU, threads, SIMD target, commit of each
  size_t baseline = 0;
  bool include_noisy = false;
  std::vector<MatrixRow> rows;  // every (case, set) the baseline measured, catalog order
  std::vector<MatrixFamily> families;
};

// The matrix of `reports` (each validated by load_perf_report) against reports[baseline]. A row
// per (case, set) measured in the baseline; a ratio enters a geomean only where both cells are
// ok and (unless include_noisy) neither is noisy. Throws a ts::Error when fewer than 2 reports
// are given or the baseline index is out of range.
Matrix compare_matrix(const std::vector<nlohmann::json>& reports,
                      const std::vector<std::string>& names, size_t baseline, bool include_noisy);

// The legend (each report's context), geomeans per family, then the rows: time, % roof and the
// ratio to the baseline per report ("-" where not measured, "~" after a noisy cell).
void print_matrix(const Matrix& m, std::ostream& out);

// One self-contained page: the legend, the geomean table and one bar chart per family (a group
// of bars per case, one bar per report, log-scaled ratio to the baseline).
std::string matrix_html(const Matrix& m);

}  // namespace ts::reports
