#pragma once
// The exhaustive sweep (issue 18): every input of a dtype (or a range, or the --quick sample),
// or every pair of 16-bit inputs of a binary op, through each kernel set's kernel, in contiguous
// batches through the normal dispatch, compared with the correctly rounded oracle (oracle.h);
// and the same inputs under several SIMD targets and thread counts, compared bit for bit.
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "touchstone/dtype.h"

namespace ts::sweep {

struct SweepOptions {
  std::vector<std::string> ops;      // empty: every unary op the oracle covers
  std::vector<std::string> kernels;  // kernel set names ("libm": register_libm_kernel_set)
  std::vector<ScalarType> dtypes;    // float32, float16, bfloat16
  std::optional<std::pair<double, double>> range;  // inputs (both operands) LO <= x <= HI
  bool quick = false;  // every 256th float32 input, every 257th pair, and the special values
  int64_t batch = int64_t{1} << 18;  // inputs a worker runs at a time
  // run_compare's batch: each kernel call splits it over the config's threads.
  int64_t compare_batch = int64_t{1} << 20;
  bool vector_oracle =
      true;  // libmvec for the oracle's double path (Note [The vector double path])
  // run_compare: SIMD targets (ts::cpu capability names, the first the baseline) and thread
  // counts (the first the baseline); empty: that axis is not compared.
  std::vector<std::string> targets;
  std::vector<int> threads;
};

// Histogram buckets of the distance, in values of the format, from the correctly rounded result.
inline constexpr std::array<const char*, 7> kUlpBuckets = {"0",    "1",      "2",   "3-4",
                                                           "5-16", "17-256", ">256"};
// The HTML plot's input bins: the top 8 bits of the (first operand's) value-ordered key, so bin
// 128 + e/2 holds the positive inputs of float32 exponent field e (a log axis over the range).
inline constexpr size_t kInputBins = 256;
// How many inputs not correctly rounded a row lists (SweepRow::first_misses).
inline constexpr size_t kMaxListed = 16;

struct SweepRow {
  std::string op, kernels, dtype;
  int arity = 1;  // 2: inputs are pairs, their bits packed as (a << 16) | b
  uint64_t inputs = 0;
  uint64_t correctly_rounded = 0;
  uint64_t max_steps = 0;  // the largest distance in values of the format
  double max_ulp = 0;      // the largest |result - exact| in ULPs of the exact result
  uint32_t worst_input = 0, worst_result = 0, worst_expected = 0;  // bits in the format
  std::array<uint64_t, kUlpBuckets.size()> histogram{};
  // Special-value mismatches (not in the histogram): NaN against a number, an infinity against
  // anything else, a zero of the wrong sign. first_special: the first such input's bits.
  uint64_t nan_mismatches = 0, inf_mismatches = 0, zero_sign_mismatches = 0;
  std::optional<uint32_t> first_special;
  // The first kMaxListed inputs (in input order) not correctly rounded and not special-value
  // mismatches: input, result and correctly rounded bits; a rare miss is listed in full.
  struct Miss {
    uint32_t input = 0, result = 0, expected = 0;
  };
  std::vector<Miss> first_misses;
  double kernel_seconds = 0;  // summed over the threads
  double wall_seconds = 0;    // the op and dtype's whole sweep (oracle and every set)
  uint64_t mpfr_calls = 0;    // the oracle's MPFR fallbacks for this op and dtype
  // Per input bin: the inputs, the largest distance in steps, the special-value mismatches.
  std::array<uint64_t, kInputBins> bin_inputs{}, bin_max_steps{}, bin_specials{};
};

// One row per (op, dtype, kernel set), in that order; ts::get_num_threads() workers take the
// batches (ts::parallel_for), each running the kernels single-threaded. Binary ops run 16-bit
// dtypes only (float32 is skipped: 2^64 pairs).
std::vector<SweepRow> run_sweep(const SweepOptions& options);

// An input as the table prints it: "1.5", or "(1.5, -2)" for a pair (arity 2).
std::string input_text(uint32_t bits, std::string_view dtype, int arity);

// One configuration of a kernel set against the baseline: the inputs whose result bits differ.
struct CompareRow {
  std::string op, kernels, dtype;
  int arity = 1;
  std::string baseline, config;  // "avx512 x1", "avx2 x1", "avx512 x3": target x threads
  uint64_t inputs = 0, differing = 0;
  uint64_t nan_only = 0;  // of `differing`: both results NaN, other NaN bits
  // The first differing input (packed as SweepRow's) and the baseline's and the config's bits.
  std::optional<uint32_t> first_input;
  uint32_t first_baseline = 0, first_config = 0;
};
// Runs each op, dtype and set under the baseline (targets[0] with threads[0]) and under every
// other target (with threads[0]) and every other thread count (with targets[0]), batch by
// batch on this thread, each kernel using that many threads; restores the capability and thread
// count. One row per (op, dtype, set, config).
std::vector<CompareRow> run_compare(const SweepOptions& options);
// Throws the ts::Error run_compare would for a target or thread count: checked before a run.
void check_compare_options(const SweepOptions& options);

// A kernel set "libm" whose kernels call glibc's float functions (expf, logf, ...) per element
// for the swept ops; idempotent.
void register_libm_kernel_set();

// The JSON report: {"schema": "touchstone-sweep/1", "options": ..., "rows": [...]}.
// {"schema": ..., "comparisons": [...]} when `compare` holds rows.
nlohmann::json sweep_to_json(const SweepOptions& options, const std::vector<SweepRow>& rows,
                             const std::vector<CompareRow>& compare = {});
// The page written atomically (reports/files.h: a temporary file, then rename(2)).
void write_sweep_html(const std::string& path, const SweepOptions& options,
                      const std::vector<SweepRow>& rows, const std::vector<CompareRow>& compare);

// A self-contained HTML page: per row, an inline SVG of the largest error in steps per input
// bin, special-value mismatches marked; the comparison table when `compare` holds rows.
std::string sweep_to_html(const SweepOptions& options, const std::vector<SweepRow>& rows,
                          const std::vector<CompareRow>& compare = {});
// The page written atomically (reports/files.h: a temporary file, then rename(2)).
void write_sweep_html(const std::string& path, const SweepOptions& options,
                      const std::vector<SweepRow>& rows, const std::vector<CompareRow>& compare);

}  // namespace ts::sweep
