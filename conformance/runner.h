#pragma once
// Runs the catalog against a kernel set: every op x dtype x sample x layout x variant.
#include <cstdint>
#include <string>
#include <vector>

#include "conformance/catalog.h"

namespace ts::conformance {

struct RunOptions {
  std::string kernel_set = "optimized";
  std::string ops;                 // comma-separated patterns (see matches_pattern); empty: all
  std::vector<ScalarType> dtypes;  // empty: every dtype of each op
  std::string case_filter;         // "SAMPLE/LAYOUT" (either part may be empty); empty: all
  std::string report_path;         // JSON report; empty: none
};

struct CaseResult {
  std::string op, dtype, sample, layout;
  std::string variant = "functional";  // functional | out
  std::string check = "forward";
  std::string status = "passed";  // passed | failed | error
  std::string message;
  std::string repro;
  double max_abs_err = 0, max_rel_err = 0, max_ulp = 0;
  bool mistrusted = false;
  int64_t numel = 0;  // elements of the reference output(s)
};

struct Summary {
  int64_t cases = 0, passed = 0, failed = 0, errors = 0, crashed = 0, timeout = 0, mistrusted = 0;
};

struct RunResult {
  std::string kernel_set;
  std::vector<CaseResult> cases;
  int64_t skipped_samples = 0;  // samples not run: OpEntry::skips
  double seconds = 0;
  Summary summary() const;
};

// Whether `name` matches one of the comma-separated `patterns`: a pattern with * or ? is a glob;
// otherwise it must equal the name if some catalog entry has exactly that name, else contain it.
bool matches_pattern(const std::string& name, const std::string& patterns);

RunResult run_conformance(const RunOptions& options,
                          const std::vector<OpEntry>& entries = catalog());

}  // namespace ts::conformance
