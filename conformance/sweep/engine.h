#pragma once
// The exhaustive sweep (issue 18): every input of a dtype (or a range, or the --quick sample)
// through each kernel set's kernel, in contiguous batches through the normal dispatch, compared
// with the correctly rounded oracle (oracle.h).
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
  std::vector<std::string> ops;      // empty: every op the oracle covers
  std::vector<std::string> kernels;  // kernel set names ("libm": register_libm_kernel_set)
  std::vector<ScalarType> dtypes;    // float32, float16, bfloat16
  std::optional<std::pair<double, double>> range;  // inputs LO <= x <= HI
  bool quick = false;  // every 256th float32 input and the special values
  int64_t batch = int64_t{1} << 20;
};

// Histogram buckets of the distance, in values of the format, from the correctly rounded result.
inline constexpr std::array<const char*, 7> kUlpBuckets = {"0",    "1",      "2",   "3-4",
                                                           "5-16", "17-256", ">256"};

struct SweepRow {
  std::string op, kernels, dtype;
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
  double kernel_seconds = 0;  // summed over the threads
  double wall_seconds = 0;    // the op and dtype's whole sweep (oracle and every set)
  uint64_t mpfr_calls = 0;    // the oracle's MPFR fallbacks for this op and dtype
};

// One row per (op, dtype, kernel set), in that order; ts::get_num_threads() workers take the
// batches (ts::parallel_for), each running the kernels single-threaded.
std::vector<SweepRow> run_sweep(const SweepOptions& options);

// A kernel set "libm" whose kernels call glibc's float functions (expf, logf, ...) per element
// for the swept ops; idempotent.
void register_libm_kernel_set();

// The JSON report: {"schema": "touchstone-sweep/1", "options": ..., "rows": [...]}.
nlohmann::json sweep_to_json(const SweepOptions& options, const std::vector<SweepRow>& rows);

}  // namespace ts::sweep
