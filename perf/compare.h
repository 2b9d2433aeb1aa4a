#pragma once
// Comparing two perf reports: per-case time ratios (new / base), geomeans per op family and
// overall, regressions beyond a threshold listed first; an HTML page with the plots.
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ts::perf {

struct CompareRow {
  std::string case_name, family, set;
  double base_s = 0, new_s = 0;
  double ratio = 1;  // new / base: > 1 is slower
};

struct GeomeanRow {
  std::string family;  // "all" for the overall row
  std::string set;
  int64_t cases = 0;
  double geomean = 1;
};

struct Comparison {
  double threshold = 0.05;
  std::vector<CompareRow> rows;  // regressions first (worst first), then the rest by ratio
  int64_t regressions = 0, improvements = 0;
  std::vector<GeomeanRow> geomeans;  // per (family, set), then per set over all families
  double overall_geomean = 1;        // every row of every set
  std::vector<std::string> only_in_base, only_in_new;  // "case/set" measured on one side
  std::vector<std::string> notes;  // context differences (threads, CPU, commit, quick)
};

// "5%", "5" (both percent) or "0.05" (a fraction when below 1) -> 0.05.
double parse_threshold(const std::string& s);

// Rows for every (case, set) measured (status ok) in both reports.
Comparison compare_reports(const nlohmann::json& base, const nlohmann::json& neu, double threshold);

void print_comparison(const Comparison& c, std::ostream& out);

// One self-contained page (inline SVG, no script, no network): geomeans, a bar chart of the
// ratios per case, the roofline scatter of each report, the table.
std::string comparison_html(const Comparison& c, const nlohmann::json& base,
                            const nlohmann::json& neu);

}  // namespace ts::perf
