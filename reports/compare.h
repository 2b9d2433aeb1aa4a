#pragma once
// Reading and comparing perf reports (schema/perf.schema.json): per-case time ratios
// (new / base), geomeans per op family and overall, regressions beyond a threshold listed first;
// an HTML page with the plots. Works on the JSON alone: `touchstone compare` needs no benchmark.
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace ts::reports {

// Reads a perf report and validates it against the schema. Any unreadable input (missing, a
// directory, not JSON, another kind of report, a schema violation) is a ts::Error that starts
// with `what` ("compare: BASE") and names the path.
nlohmann::json load_perf_report(const std::string& path, std::string_view what = "compare");

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

// A (case, set) pair measured in BASE that NEW does not measure.
struct MissingPair {
  std::string pair;    // "case/set"
  std::string in_new;  // "absent", or NEW's status for it: "skipped", "error"
};

struct CompareOptions {
  double threshold = 0.05;
  bool allow_missing = false;  // pairs missing from NEW do not fail the comparison
  bool include_noisy = false;  // compare pairs that either report marks noisy (Note [Noisy cases])
  std::string base_name = "BASE", new_name = "NEW";  // in messages: the files
};

struct Comparison {
  double threshold = 0.05;
  bool allow_missing = false;
  std::vector<CompareRow> rows;  // regressions first (worst first), then the rest by ratio
  int64_t regressions = 0, improvements = 0;
  std::vector<GeomeanRow> geomeans;      // per (family, set), then per set over all families
  double overall_geomean = 1;            // every row of every set
  std::vector<MissingPair> missing;      // measured in BASE, not in NEW: a failure unless allowed
  std::vector<std::string> only_in_new;  // "case/set" measured in NEW only: informational
  std::vector<std::string> noisy;        // "case/set (BASE|NEW|both)" left out as noisy
  std::vector<std::string> notes;        // context differences (threads, CPU, commit, quick)

  // 1 when a case regressed beyond the threshold or (unless allow_missing) a pair measured in
  // BASE is missing from NEW; else 0 (the exit status of `touchstone compare`).
  int exit_status() const;
};

// "5%", "5" (both percent) or "0.05" (a fraction when below 1) -> 0.05.
double parse_threshold(const std::string& s);

// Rows for every (case, set) measured (status ok) in both reports. Throws a ts::Error saying
// why when no pair is (no op or kernel set in common, another shape or dtype, no ok result):
// a comparison of nothing must not pass a CI gate; and when a report lacks a member it reads
// (load_perf_report's schema check rules that out).
Comparison compare_reports(const nlohmann::json& base, const nlohmann::json& neu,
                           const CompareOptions& options);

// Pairs missing from NEW first (with their count), the table (regressions first), geomeans,
// pairs only in NEW, and a last line with the verdict.
void print_comparison(const Comparison& c, std::ostream& out);

// One self-contained page (inline SVG, no script, no network): geomeans, a bar chart of the
// ratios per case, the roofline scatter of each report, the table.
std::string comparison_html(const Comparison& c, const nlohmann::json& base,
                            const nlohmann::json& neu);

}  // namespace ts::reports
