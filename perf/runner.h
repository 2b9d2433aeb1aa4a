#pragma once
// Runs the catalog's benchmark cases (catalog/bench.h) on Google Benchmark: case by case, every
// kernel set side by side in one process, so that the ratios between sets are taken under the
// same machine conditions.
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/bench.h"
#include "perf/probes.h"

namespace ts::perf {

using catalog::BenchCase;

struct RunOptions {
  std::vector<std::string> kernel_sets = {"optimized", "reference"};
  std::string device = "cpu";
  catalog::BenchOptions catalog;
  int threads = 0;           // 0: the current ts::get_num_threads()
  int repetitions = 0;       // 0: 3 quick, 5 full (fewer for slow calls, Note [Slow calls])
  double min_time = 0;       // seconds per repetition; 0: 0.01 quick, 0.1 full
  std::string slowdown;      // "PATTERN=FACTOR": run matching cases FACTOR times per iteration
  bool probes = true;        // measure the roofline (tests turn it off)
  bool allow_empty = false;  // a selection of no case runs nothing instead of failing
  std::string command;       // the command line, recorded in the report
};

// One kernel set on one case. status: "ok", "skipped" (the set lacks a kernel) or "error".
struct SetResult {
  std::string set;
  std::string status = "ok";
  std::string reason;
  std::vector<double> samples_s;      // seconds per call, one per repetition
  std::vector<double> cpu_samples_s;  // the calling thread's CPU seconds per call, likewise
  std::vector<double> preempted;      // involuntary context switches of the process, likewise
  std::vector<double> waited;         // seconds the process's threads waited for a core, likewise
  int64_t iterations = 0;             // calls per repetition (the last repetition's)
  double median_s = 0, min_s = 0, max_s = 0, mean_s = 0, stddev_s = 0;
  double cpu_wall = 0;  // median over repetitions of CPU time / wall time of the calling thread
  double preempted_per_s = 0;  // median over repetitions of involuntary switches per second
  double waited_share = 0;     // median over repetitions of waited / wall time
  // The pool's offers to its workers over the repetitions, those withdrawn because the worker
  // had not started, and of those the ones whose worker was awake (detail::pool_counts; zero for
  // sets that do not use touchstone's pool).
  double offered = 0, withdrawn = 0, missed = 0;
  std::string noise;  // why the figures are not to be trusted (Note [Noisy cases]); empty: ok
};

struct CaseResult {
  std::string name, family, op, shape, layout, dtype;
  double bytes = 0, flops = 0;
  int slowdown = 1;                // the planted factor (1: none)
  std::vector<SetResult> results;  // in --kernels order
  double load_avg = 0;             // the 1-minute load average when the case started
  double steal_pct = 0;            // % of the machine's CPU time the hypervisor took while it ran
  double others_pct = 0;           // % of the machine's CPU time other processes used meanwhile
};

struct RunResult {
  RunOptions options;
  Roofline roofline;
  nlohmann::json machine;
  nlohmann::json gbench_context;                         // Google Benchmark's context object
  nlohmann::json gbench_runs = nlohmann::json::array();  // its "benchmarks" entries
  std::vector<CaseResult> cases;
  std::string timestamp;
  double seconds = 0;
};

// The cases `options` select, after every check run_bench makes before it measures anything:
// the device, the kernel sets (known, none twice), threads, repetitions and min_time (>= 0, 0:
// the default), --plant-slowdown, an --ops pattern that selects no case, an empty selection
// (unless allow_empty). Throws a ts::Error that names the flag.
std::vector<BenchCase> select_cases(const RunOptions& options);

// Checks the options (select_cases), sets the thread count, measures the roofline, then runs
// every case; prints one line per case to `progress`.
RunResult run_bench(const RunOptions& options, std::ostream& progress);

// "PATTERN=FACTOR" -> {PATTERN, FACTOR} with FACTOR an integer >= 1; empty -> {"", 1}.
std::pair<std::string, int> parse_slowdown(const std::string& spec);

// Fills median/min/max/mean/stddev from samples_s.
void summarize(SetResult& r);

// Note [Noisy cases]
// A timing is distorted when the calling thread did not run for the whole of it, or when its
// repetitions disagree. The calling thread computes a share of every call and spins while it
// waits for the rest (Note [Waiting on a shared machine] in lib/src/parallel.cpp), so on a quiet
// machine its CPU time is its wall time; when another process takes the core it loses CPU time
// but not wall time. Sets `noise` (and cpu_wall) when the median CPU / wall ratio is below
// kMinCpuWall, the repetitions spread by more than kMaxSpread (max / min), or the hypervisor took
// more than kMaxStealPct of the CPU time while the case ran, or the pool's workers missed more
// than kMaxMissed of the jobs offered to them (of at least kMinOffers) while awake. The caller
// withdraws an offer a worker has not taken when it runs out of pieces and runs the worker's
// share itself (Note [Claimed pieces] in lib/src/parallel.cpp): the case then ran on fewer
// cores than asked while the calling thread's CPU time still matched its wall time. A worker
// asleep on its futex is late on a quiet machine too (zeros of 1M: 99 % of its offers, each call
// faulting in fresh pages for longer than the workers spin), so only misses while spinning,
// when another process had the worker's core, count. Neither test sees another library's threads
// (ATen's OpenMP workers), nor a neighbour on the core the case left idle (a one-thread ATen
// cummax ran 20 % slower beside busy loops at nice 19, every thread of ours on its core). So two
// more ask the kernel: the time every thread of the process spent runnable but waiting for a
// core (run_queue_wait_s), summed, is held to kMaxWaited of the wall time, and the CPU time other
// processes used while the case ran (others_pct) to kMaxOthersPct % of the machine's (at most
// 10.7 % of one case, 5.4 % at the 99th percentile, in a quick run on the idle 2-vCPU VM; 15 to
// 90 % beside busy loops at nice 19). GPU timings skip the CPU tests.
inline constexpr double kMinCpuWall = 0.8, kMaxSpread = 1.3, kMaxStealPct = 5;
inline constexpr double kMaxMissed = 0.2, kMinOffers = 10, kMaxWaited = 0.1;
inline constexpr double kMaxOthersPct = 10;
void classify_noise(SetResult& r, double steal_pct, bool cpu_device, double others_pct = 0);

}  // namespace ts::perf
