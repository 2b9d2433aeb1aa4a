#pragma once
// Runs the catalog against a kernel set: every op x dtype x sample x layout x variant x check.
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "catalog/catalog.h"

namespace ts::conformance {

// The catalog's types, as the harness names them (catalog/catalog.h).
using catalog::entry_dtypes;
using catalog::hash_name;
using catalog::KnownDifference;
using catalog::OpEntry;
using catalog::Range;
using catalog::Sample;
using catalog::SampleArgs;
using catalog::SampleContext;

// Every entry of the catalog (catalog::entries()).
inline const std::vector<OpEntry>& catalog() {
  return catalog::entries();
}

// The kernel sets' documented differences (conformance/known_differences.json).
const std::vector<KnownDifference>& known_differences();
// The rows of a known-differences table (JSON text; Note [Known differences as data]), one per
// op of each row; throws a ts::Error naming the row when a row is malformed.
std::vector<KnownDifference> parse_known_differences(const std::string& text);

struct CaseResult;

struct RunOptions {
  std::string kernel_set = "optimized";
  Device device = kCPU;  // where the candidate runs (Note [Device runs]); the reference: cpu
  std::string ops;       // comma-separated patterns (see matches_pattern); empty: all
  std::string families;  // comma-separated families (unary, binary, ...); empty: all
  std::vector<ScalarType> dtypes;  // empty: every dtype of each op
  // "SAMPLE/LAYOUT/VARIANT/CHECK"; any part may be empty or left off; empty: all.
  std::string case_filter;
  std::string report_path;           // JSON report; empty: none
  std::string junit_path;            // JUnit XML; empty: none
  std::vector<std::string> plugins;  // loaded by the caller; named in repro lines
  bool grad = true;                  // backward and gradcheck checks
  // Note [Shards]: shard I of N (1-based) runs the groups g (0-based, catalog order) with
  // g % N == I - 1.
  int shard_index = 1, shard_count = 1;
  // Note [Fault isolation]: groups run in forked children; a crash or a hang ends the child and
  // its case is reported, and a new child resumes after it.
  bool isolate = false;
  double case_timeout_s = 20;  // with isolate: a case running longer is a timeout
  bool guard = true;           // guard bytes around every CPU allocation (overrun detection)
  // Whether a run that selects no case is fine; otherwise it is an error (a filter's typo).
  bool allow_empty = false;
  // Note [Repeated cases]: each case runs `repeat` times; failing in some runs only is `flaky`.
  int repeat = 1;
  // Every case keeps the kernels its candidate calls ran (CaseResult::kernels); otherwise only
  // failing ones do (Note [Attribution]).
  bool record_kernels = false;
  // Forward cases run with grad mode off (the attribution's second pass).
  bool no_grad_mode = false;
  // Called before each group (entry x dtype) with its position; for a progress line.
  std::function<void(size_t index, size_t total, const std::string& op, ScalarType dtype)> progress;
  // Called with each finished case, final status and repro included, as the run goes.
  std::function<void(const CaseResult&)> on_case;
};

struct CaseResult {
  std::string op, dtype, sample, layout;
  std::string variant = "functional";  // functional | inplace | out
  std::string check = "forward";       // forward | backward | gradcheck
  // passed | failed | flaky | error | crashed | timeout | overrun | documented
  std::string status = "passed";
  std::string message;
  std::string repro;
  int runs = 1, failed_runs = 0;  // with --repeat: the runs, and those that did not pass
  // The candidate's kernels ("op dtype set", first use first), and of those, the ones whose own
  // cases fail (Note [Attribution]).
  std::vector<std::string> kernels, fails_alone;
  double max_abs_err = 0, max_rel_err = 0, max_ulp = 0;
  // Note [Mistrusted cases]
  // An output proves little when it is empty, all NaN or constant (one element: only 0), since
  // a kernel that ignores its inputs could match it (is_mistrusted in compare.h). A case is
  // mistrusted when none of the outputs it compares proves anything; max's values beside its
  // indices along a size-1 dim (all 0) still catch a wrong kernel, and that case is trusted.
  // Outputs constant by definition (Note [Constant by definition] in catalog.h) are trusted.
  bool mistrusted = false;
  // Within the tolerance but beyond the budget (Note [Tolerance model] in compare.h): the case
  // passes; warning_message names the first element over budget.
  bool warning = false;
  std::string warning_message;
  // The kernel sets the candidate's calls were delegated to (Note [Delegation]), joined with
  // '+': the case then judged those sets' kernels, not the candidate's own. Empty: none.
  std::string delegated_to;
  int64_t numel = 0;  // elements of the reference output(s)
  // A tensor input has 0 elements (a deliberately empty sample: a sum over an empty dim compares
  // zeros it never summed, a batch of 0 images a weight gradient of zeros).
  bool empty_inputs = false;
  double seconds = 0;
};

struct Summary {
  int64_t cases = 0, passed = 0, failed = 0, flaky = 0, errors = 0, crashed = 0, timeout = 0,
          overrun = 0, documented = 0, mistrusted = 0;
  int64_t warnings = 0;   // passed or documented cases beyond their budget
  int64_t delegated = 0;  // cases (of any status) that ran another set's kernels
  // Cases that compared at least one element on inputs with elements (not empty_inputs), and
  // those of them mistrusted: the share that measures the samples, outside deliberately empty
  // ones (Note [Mistrusted cases]).
  int64_t nonempty = 0, nonempty_mistrusted = 0;
  // Whether every case passed or is documented (an empty run has no failing case).
  bool ok() const { return passed + documented == cases; }
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

// Throws a ts::Error naming the flag when an option is invalid: an unknown kernel set, a shard
// outside 1..N, a timeout <= 0, an --ops pattern or a family that matches no entry, a malformed
// --case or one naming an unknown layout, variant or check, or (unless allow_empty) filters
// that select no op x dtype group at all. run_conformance calls it first.
void validate_options(const RunOptions& options,
                      const std::vector<OpEntry>& entries = catalog::entries());

// Runs the shard's groups. Throws (after the run: samples are known only once made) when
// --case names a sample no selected op has, or when an unsharded run ran no case and
// !allow_empty. Without isolate, a crash handler names the running case (crash.h).
RunResult run_conformance(const RunOptions& options,
                          const std::vector<OpEntry>& entries = catalog::entries());

// ---- internals shared by runner.cpp, checks.cpp and isolate.cpp ----

// One unit of work: an entry in one dtype. Groups are numbered in catalog order.
struct Group {
  const OpEntry* entry;
  ScalarType dtype;
};
// The groups the filters select over all shards, and those of the options' shard.
std::vector<Group> matching_groups(const RunOptions& options, const std::vector<OpEntry>& entries);
std::vector<Group> selected_groups(const RunOptions& options, const std::vector<OpEntry>& entries);

// What running groups yields besides cases: samples skipped (OpEntry::skips), sample names made.
struct GroupStats {
  int64_t skipped_samples = 0;
  std::set<std::string> samples;
};

// Called before each case with its running index within the group; returns whether to run it.
using CaseGate = std::function<bool(int64_t index, const CaseResult& c)>;
using CaseSink = std::function<void(CaseResult)>;
// Runs one group in this process; `emit` receives each finished case.
void run_group(const RunOptions& options, const Group& g, const CaseGate& gate,
               const CaseSink& emit, GroupStats& stats);
// Runs the groups in forked children (Note [Fault isolation]); `emit` as above.
// Runs `f` in a forked child (Note [Device probe in a child]); returns what it threw, else "".
std::string run_in_child(const std::function<void()>& f);
void run_groups_isolated(const RunOptions& options, const std::vector<Group>& groups,
                         const CaseSink& emit, GroupStats& stats);

// The parts of a --case filter, trimmed, empty ones kept: "big//out" -> {"big", "", "out"}.
std::vector<std::string> case_filter_parts(const std::string& filter);

// Marks a failed or erroring case "documented" when a row of the entry's `documented` or of
// known_differences() matches it within the row's bounds (Note [Narrow documented differences]).
void apply_known_differences(const std::string& kernel_set, const OpEntry* entry, CaseResult& c,
                             const std::string& device = "cpu");

// The repro line of a case.
std::string repro_line(const RunOptions& options, const CaseResult& c);

}  // namespace ts::conformance
