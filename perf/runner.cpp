// The bench runner: per case, set up the inputs once, check each kernel set can run it (a set
// without a kernel is skipped, loudly), then time every set in one Google Benchmark run.
#include "perf/runner.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <map>
#include <mutex>
#include <ostream>
#include <sstream>

#include "perf/gbench_json.h"
#include "perf/interference.h"
#include "perf/machine.h"
#include "reports/text.h"
#include "touchstone/cuda.h"
#include "touchstone/parallel.h"

namespace ts::perf {
namespace {

// Collects Google Benchmark's runs instead of printing them.
class Collector : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context& ctx) override {
    if (context.is_null()) context = context_json(ctx);
    return true;
  }
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs) {
      gbench_runs.push_back(gbench_run_json(r));
      if (r.run_type != Run::RT_Iteration) continue;
      SetRuns& s = by_name[r.run_name.function_name];
      if (r.error_occurred) s.error = r.error_message;
      if (r.iterations > 0) {
        const double n = static_cast<double>(r.iterations);
        s.samples.push_back(r.real_accumulated_time / n);
        s.cpu_samples.push_back(r.cpu_accumulated_time / n);
        const auto counter = [&](const char* name) {
          const auto p = r.counters.find(name);
          return p == r.counters.end() ? 0.0 : p->second.value;
        };
        s.preempted.push_back(counter("preempted"));
        s.waited.push_back(counter("waited"));
        s.offered += counter("offered");
        s.withdrawn += counter("withdrawn");
        s.missed += counter("missed");
        s.iterations = r.iterations;
      }
    }
  }

  struct SetRuns {
    std::vector<double> samples, cpu_samples, preempted, waited;
    double offered = 0, withdrawn = 0, missed = 0;  // the pool's, over every repetition
    int64_t iterations = 0;
    std::string error;
  };
  std::map<std::string, SetRuns> by_name;
  nlohmann::json context;
  nlohmann::json gbench_runs = nlohmann::json::array();

 private:
  static nlohmann::json context_json(const Context& ctx) {
    nlohmann::json caches = nlohmann::json::array();
    for (const auto& c : ctx.cpu_info.caches) {
      caches.push_back(
          {{"type", c.type}, {"level", c.level}, {"size", c.size}, {"num_sharing", c.num_sharing}});
    }
    return {{"host_name", ctx.sys_info.name},
            {"num_cpus", ctx.cpu_info.num_cpus},
            {"mhz_per_cpu", std::lround(ctx.cpu_info.cycles_per_second / 1e6)},
            {"cpu_scaling_enabled", ctx.cpu_info.scaling == benchmark::CPUInfo::Scaling::ENABLED},
            {"caches", caches},
            {"load_avg", ctx.cpu_info.load_avg},
            {"library_build_type", "release"}};
  }
};

// Why `set` cannot run the case on `device` (empty when it can): a kernel op without a kernel
// for the dtype, or one the set delegates to another set (its time would be the other set's:
// the case is skipped and says so, Note [Delegation] in lib/src/dispatch.cpp).
std::string missing_kernel(const BenchCase& c, KernelSetId set, DeviceType device) {
  const std::string cell =
      " (" + std::string(dtype_name(c.dtype)) + ", " + std::string(device_type_name(device)) + ")";
  const std::string name = "kernel set '" + std::string(kernel_set_name(set)) + "'";
  for (OpId op : c.ops) {
    if (!supported_dtypes(op, device, set).has(c.dtype)) {
      return name + " has no kernel for " + std::string(op_info(op).name) + cell;
    }
    if (delegated_dtypes(op, device, set).has(c.dtype)) {
      const auto to = kernel_delegate(op, device, set, c.dtype);  // none for a composite
      return name + " delegates " + std::string(op_info(op).name) + cell + " to " +
             (to ? "'" + std::string(kernel_set_name(*to)) + "'" : "another set") +
             ": not timed as its own";
    }
  }
  return "";
}

// Note [CUDA runs]
// `bench --device cuda` runs the same catalog on the GPU: each case's inputs are made on the
// device (BenchCase::setup), every timed call ends with a device synchronization (its time is the
// kernels' plus one synchronization, some microseconds: the large cases are what it is for), a
// set without CUDA kernels (the reference) is skipped per case, and the roofline probes are the
// device's own: copy_ and add_out over float32 arrays and mm (cuBLAS) in float32 and float64,
// through the optimized set. TOUCHSTONE_CUDA_FORCE_64BIT_INDEX=1 times the forced 64-bit indexing
// path. It replaces the stand-alone perf/bench_cuda (device copy bandwidth: the roofline's copy
// and the copy_ cases; add, mul, casts, rand, sum, argmax, softmax, layer_norm, cumsum: their
// catalog cases). Builds without CUDA refuse the device before anything runs.
void synchronize(const Device& device) {
#if defined(TS_HAVE_CUDA)
  if (device.is_cuda()) cuda::synchronize();
#else
  (void)device;
#endif
}

// The best time of `trials` calls of `f` on `device`, after one warm-up call.
double best_seconds(const Device& device, int trials, const std::function<void()>& f) {
  f();
  synchronize(device);
  double best = 0;
  for (int i = 0; i < trials; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    synchronize(device);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    best = i == 0 ? s : std::min(best, s);
  }
  return best;
}

Roofline device_roofline(bool quick, const Device& device, int threads) {
  KernelSetGuard guard("optimized");
  Roofline r;
  r.probe = quick ? "quick" : "full";
  r.threads = threads;
  r.stream_elements = quick ? int64_t{32} << 20 : int64_t{128} << 20;
  r.gemm_n = quick ? 2048 : 4096;
  const int trials = quick ? 3 : 5;
  const int64_t n = r.stream_elements;
  const TensorOptions f32 = TensorOptions(kFloat).device(device);
  Tensor a = full({n}, 1, f32), b = full({n}, 2, f32), c = empty({n}, f32);
  r.copy_gbs =
      8.0 * static_cast<double>(n) / best_seconds(device, trials, [&] { c.copy_(a); }) / 1e9;
  r.add_gbs =
      12.0 * static_cast<double>(n) / best_seconds(device, trials, [&] { add_out(c, a, b); }) / 1e9;
  const int64_t g = r.gemm_n;
  const double gemm_flops =
      2.0 * static_cast<double>(g) * static_cast<double>(g) * static_cast<double>(g);
  for (ScalarType t : {kFloat, kDouble}) {
    const TensorOptions o = TensorOptions(t).device(device);
    Tensor x = full({g, g}, 0.5, o), y = full({g, g}, 0.25, o), z = empty({g, g}, o);
    const double gflops = gemm_flops / best_seconds(device, 3, [&] { mm_out(z, x, y); }) / 1e9;
    (t == kFloat ? r.sgemm_gflops : r.dgemm_gflops) = gflops;
  }
  return r;
}

// Note [Slow calls]
// Note [Interleaved repetitions]
// Google Benchmark runs a benchmark's repetitions back to back, so on a shared VM, whose memory
// bandwidth moves by tens of percent over seconds, one set could be timed in a fast stretch and
// the next in a slow one, and their ratio carried the drift. Its random interleaving runs the
// repetitions of a case's sets in a shuffled order instead: each set samples the same stretch.
void interleave_repetitions() {
  static std::once_flag once;
  std::call_once(once, [] {
    char name[] = "touchstone", flag[] = "--benchmark_enable_random_interleaving=true";
    char* argv[] = {name, flag, nullptr};
    int argc = 2;
    benchmark::Initialize(&argc, argv);
  });
}

// A call slower than the run's min_time runs once per repetition, and the first (untimed) call
// was its warm-up. Calls that would need more than a budget of 1 s (quick) or 5 s (full) for
// all repetitions (the reference set's large GEMMs) run fewer, down to one; the report records
// each set's repetitions.
int slow_call_repetitions(const RunOptions& o, double call_s) {
  const double budget = o.catalog.quick ? 1.0 : 5.0;
  if (call_s * o.repetitions <= budget) return o.repetitions;
  return std::max(1, static_cast<int>(budget / call_s));
}

std::string fixed(double v, int digits) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(digits) << v;
  return o.str();
}

void print_case(std::ostream& out, size_t index, size_t total, const CaseResult& c,
                const Roofline& roof, ScalarType dtype) {
  out << "[" << std::setw(4) << index << "/" << total << "] " << std::left << std::setw(48)
      << c.name << std::right;
  const SetResult* first = nullptr;
  for (const SetResult& r : c.results) {
    out << "  " << r.set << " ";
    if (r.status != "ok") {
      out << r.status.substr(0, 4);
      continue;
    }
    out << reports::format_time(r.median_s) << (r.noise.empty() ? "" : " noisy");
    if (first == nullptr) {
      first = &r;
      out << " (" << std::fixed << std::setprecision(0)
          << roofline_pct(roof, dtype, c.bytes, c.flops, r.median_s) << " % roof)";
    } else {
      out << " (x" << std::fixed << std::setprecision(2) << r.median_s / first->median_s << ")";
    }
  }
  out << "\n";
  for (const SetResult& r : c.results) {
    if (r.status != "ok") out << "        " << r.status << " " << r.set << ": " << r.reason << "\n";
    if (!r.noise.empty()) out << "        noisy " << r.set << ": " << r.noise << "\n";
  }
  out.flush();
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

}  // namespace

std::pair<std::string, int> parse_slowdown(const std::string& s) {
  if (s.empty()) return {"", 1};
  const size_t eq = s.rfind('=');
  TS_CHECK(eq != std::string::npos && eq > 0 && eq + 1 < s.size(),
           "bench: --plant-slowdown expects PATTERN=FACTOR (such as add=2), got '", s, "'");
  const std::string digits = s.substr(eq + 1);
  int factor = 0;
  if (digits.find_first_not_of("0123456789") == std::string::npos && digits.size() <= 6) {
    factor = std::stoi(digits);
  }
  TS_CHECK(factor >= 1,
           "bench: --plant-slowdown: FACTOR must be an integer from 1 to 999999, got '", digits,
           "' in '", s, "'");
  return {s.substr(0, eq), factor};
}

std::vector<BenchCase> select_cases(const RunOptions& o) {
  TS_CHECK(o.device == "cpu" || o.device == "cuda", "bench: --device must be cpu or cuda (the ",
           "current CUDA device), got '", o.device, "'");
  const Device device(o.device);
#if defined(TS_HAVE_CUDA)
  TS_CHECK(device.is_cpu() || cuda::device_count() > 0, "bench: --device ", o.device,
           ": no CUDA device is visible");
#else
  TS_CHECK(device.is_cpu(), "bench: --device ", o.device,
           ": this build has no CUDA kernel set (configure with the cuda preset)");
#endif
  TS_CHECK(!o.kernel_sets.empty(), "bench: --kernels names no kernel set");
  for (size_t i = 0; i < o.kernel_sets.size(); ++i) {
    const std::string& name = o.kernel_sets[i];
    TS_CHECK(find_kernel_set(name).has_value(), "bench: --kernels: no kernel set named '", name,
             "' (known: ", join(kernel_set_names()), ")");
    TS_CHECK(std::find(o.kernel_sets.begin(), o.kernel_sets.begin() + i, name) ==
                 o.kernel_sets.begin() + i,
             "bench: --kernels lists '", name, "' twice");
  }
  TS_CHECK(o.threads >= 0, "bench: --threads must be a positive number, got ", o.threads);
  TS_CHECK(o.repetitions >= 0, "bench: --repetitions must be a positive number, got ",
           o.repetitions);
  TS_CHECK(std::isfinite(o.min_time) && o.min_time >= 0,
           "bench: --min-time must be a positive number of seconds, got ", o.min_time);
  const std::string slow_pattern = parse_slowdown(o.slowdown).first;
  const std::vector<std::string> unmatched = catalog::unmatched_patterns(o.catalog);
  TS_CHECK(unmatched.empty(), "bench: --ops: ", unmatched.size() == 1 ? "pattern '" : "patterns '",
           join(unmatched), unmatched.size() == 1 ? "' selects" : "' select",
           " no benchmark case (an op name, a family such as binary or reduce, a substring or a "
           "glob; `touchstone ops` lists the ops)");
  std::vector<BenchCase> cases = catalog::bench_cases(o.catalog);
  if (cases.empty()) {
    std::vector<std::string> dtypes;
    for (ScalarType t : o.catalog.dtypes) dtypes.emplace_back(dtype_name(t));
    const std::string of_ops = o.catalog.ops.empty() ? "" : " of --ops '" + o.catalog.ops + "'";
    TS_CHECK(o.allow_empty, "bench: the selection is empty: no case", of_ops, " runs in --dtypes ",
             join(dtypes), " (--allow-empty accepts an empty run)");
  }
  if (!slow_pattern.empty()) {
    const bool hit = std::any_of(cases.begin(), cases.end(), [&](const BenchCase& c) {
      return reports::glob_match(slow_pattern, c.op);
    });
    TS_CHECK(hit || cases.empty(), "bench: --plant-slowdown: pattern '", slow_pattern,
             "' matches no selected op");
  }
  return cases;
}

void summarize(SetResult& r) {
  std::vector<double> v = r.samples_s;
  if (v.empty()) return;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  r.median_s = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  r.min_s = v.front();
  r.max_s = v.back();
  double sum = 0;
  for (double x : v) sum += x;
  r.mean_s = sum / static_cast<double>(n);
  double sq = 0;
  for (double x : v) sq += (x - r.mean_s) * (x - r.mean_s);
  r.stddev_s = n > 1 ? std::sqrt(sq / static_cast<double>(n - 1)) : 0;
}

namespace {
double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
}  // namespace

void classify_noise(SetResult& r, double steal, bool cpu_device, double others) {
  r.noise.clear();
  std::vector<double> ratios;
  for (size_t i = 0; i < r.samples_s.size() && i < r.cpu_samples_s.size(); ++i) {
    if (r.samples_s[i] > 0) ratios.push_back(r.cpu_samples_s[i] / r.samples_s[i]);
  }
  const size_t n = ratios.size();
  r.cpu_wall = median(ratios);
  std::vector<double> rates;
  for (size_t i = 0; i < r.samples_s.size() && i < r.preempted.size(); ++i) {
    const double wall = r.samples_s[i] * static_cast<double>(r.iterations);
    if (wall > 0) rates.push_back(r.preempted[i] / wall);
  }
  r.preempted_per_s = median(rates);
  std::vector<double> shares;
  for (size_t i = 0; i < r.samples_s.size() && i < r.waited.size(); ++i) {
    const double wall = r.samples_s[i] * static_cast<double>(r.iterations);
    if (wall > 0) shares.push_back(r.waited[i] / wall);
  }
  r.waited_share = median(shares);
  std::vector<std::string> why;
  if (cpu_device && n > 0 && r.cpu_wall < kMinCpuWall) {
    why.push_back("the calling thread ran " + fixed(100 * r.cpu_wall, 0) +
                  " % of the wall time (another process had the core)");
  }
  if (r.samples_s.size() > 1 && r.min_s > 0 && r.max_s / r.min_s > kMaxSpread) {
    why.push_back("repetitions spread x" + fixed(r.max_s / r.min_s, 2) + " (" +
                  reports::format_time(r.min_s) + " to " + reports::format_time(r.max_s) + ")");
  }
  if (steal > kMaxStealPct) {
    why.push_back("the hypervisor took " + fixed(steal, 1) + " % of the CPU time");
  }
  if (cpu_device && r.offered >= kMinOffers && r.missed > kMaxMissed * r.offered) {
    why.push_back("the pool's workers missed " + fixed(r.missed, 0) + " of " + fixed(r.offered, 0) +
                  " jobs while off their cores (the calling thread ran their pieces)");
  }
  if (cpu_device && others > kMaxOthersPct) {
    why.push_back("other processes used " + fixed(others, 0) + " % of the machine's CPU time");
  }
  if (cpu_device && r.waited_share > kMaxWaited) {
    why.push_back("the process's threads waited " + fixed(100 * r.waited_share, 0) +
                  " % of the wall time for a core (another process's threads, or another library's "
                  "spinning in this one)");
  }
  for (const std::string& w : why) r.noise += (r.noise.empty() ? "" : "; ") + w;
}

namespace {
// Note [Warming the pool]
// A new worker thread starts on its creator's core, and the scheduler moves it some milliseconds
// later: until then it spins beside the calling thread, misses its jobs (the caller runs their
// pieces) and the run's first case ran on one core, at twice its time, and was flagged noisy by
// the late-worker test (zeros of 1M at 2 threads: 44.6 us first in a run, 23.0 us after ones).
// So before the first case the pool runs short jobs until, for 20 in a row, its workers take
// every offer (at most 200 ms).
void warm_pool(int threads) {
  if (threads < 2) return;
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const auto spin = [](int64_t, int64_t) {
    const auto t0 = Clock::now();
    while (Clock::now() - t0 < std::chrono::microseconds(50)) {
    }
  };
  while (Clock::now() - start < std::chrono::milliseconds(200)) {
    const detail::PoolCounts before = detail::pool_counts();
    for (int j = 0; j < 20; ++j) parallel_for(0, 2 * int64_t{threads}, 1, spin);
    if (detail::pool_counts().withdrawn == before.withdrawn) return;
  }
}
}  // namespace

RunResult run_bench(const RunOptions& options, std::ostream& progress) {
  const auto t0 = std::chrono::steady_clock::now();
  // Every check first: a typo must not cost the roofline probes.
  const std::vector<BenchCase> cases = select_cases(options);
  const Device device(options.device);
  std::vector<KernelSetId> sets;
  for (const std::string& name : options.kernel_sets) sets.push_back(*find_kernel_set(name));
  RunResult result;
  result.options = options;
  if (result.options.threads <= 0) result.options.threads = get_num_threads();
  const bool quick = options.catalog.quick;
  if (result.options.repetitions <= 0) result.options.repetitions = quick ? 3 : 5;
  if (result.options.min_time <= 0) result.options.min_time = quick ? 0.01 : 0.1;
  const RunOptions& o = result.options;
  set_num_threads(o.threads);
  if (device.is_cpu()) warm_pool(o.threads);
  result.timestamp = reports::utc_timestamp();
  result.machine = machine_context(o.threads);
  if (o.probes) {
    progress << "roofline probes (" << (quick ? "quick" : "full") << ", " << o.threads
             << " threads) ...\n";
    result.roofline = device.is_cpu() ? measure_roofline(quick, o.threads)
                                      : device_roofline(quick, device, o.threads);
    const Roofline& r = result.roofline;
    progress << "  STREAM copy " << std::fixed << std::setprecision(1) << r.copy_gbs
             << " GB/s, add " << r.add_gbs << " GB/s, read " << r.read_gbs << " GB/s";
    for (const auto& [bytes, gbs] : r.cache_gbs) {
      progress << (&gbs == &r.cache_gbs.front().second ? "; caches " : ", ") << bytes / 1024
               << " KiB " << gbs << " GB/s";
    }
    progress << "; sgemm " << r.sgemm_gflops << " GFLOP/s, dgemm " << r.dgemm_gflops
             << " GFLOP/s (n = " << r.gemm_n << ")\n";
  }
  const auto [slow_pattern, slow_factor] = parse_slowdown(o.slowdown);
  progress << cases.size() << " cases x " << sets.size() << " kernel sets, " << o.repetitions
           << " repetitions of >= " << std::defaultfloat << o.min_time << " s\n";
  interleave_repetitions();
  Collector collector;
  for (size_t ci = 0; ci < cases.size(); ++ci) {
    const BenchCase& c = cases[ci];
    CaseResult cr{c.name(), c.family, c.op, c.shape, c.layout, std::string(dtype_name(c.dtype)),
                  c.bytes,  c.flops,  1,    {}};
    if (!slow_pattern.empty() && reports::glob_match(slow_pattern, c.op)) {
      cr.slowdown = slow_factor;
    }
    // Making the inputs can need a kernel the device lacks (sorted inputs, say): that skips the
    // case, as a missing kernel of the op itself does.
    std::function<void()> call;
    std::string setup_error;
    try {
      call = c.setup(device);
    } catch (const Error& e) {
      setup_error = std::string("making the inputs: ") + e.what();
    }
    if (call && !device.is_cpu())
      call = [call, device] {
        call();
        synchronize(device);
      };
    const int repeat = cr.slowdown;
    double load[1] = {0};
    if (getloadavg(load, 1) == 1) cr.load_avg = load[0];
    for (KernelSetId set : sets) {
      SetResult sr;
      sr.set = std::string(kernel_set_name(set));
      sr.reason = setup_error.empty() ? missing_kernel(c, set, device.type()) : setup_error;
      if (!sr.reason.empty()) {
        sr.status = sr.reason.find("has no kernel") != std::string::npos || setup_error.empty()
                        ? "skipped"
                        : "error";
      }
      double first_call_s = 0;
      if (sr.status == "ok") {
        // One call before timing: it must run (an error skips the set), and it warms up.
        try {
          KernelSetGuard guard(sr.set);
          const auto c0 = std::chrono::steady_clock::now();
          call();
          first_call_s =
              std::chrono::duration<double>(std::chrono::steady_clock::now() - c0).count();
        } catch (const Error& e) {
          sr.reason = e.what();
          sr.status = sr.reason.find("has no kernel") != std::string::npos ? "skipped" : "error";
        }
      }
      if (sr.status == "ok") {
        const std::string name = cr.name + "/" + sr.set;
        const std::string set_name = sr.set;
        benchmark::RegisterBenchmark(
            name.c_str(),
            [call, set_name, repeat, cpu = device.is_cpu()](benchmark::State& state) {
              KernelSetGuard guard(set_name);
              if (cpu) settle_other_threads();
              const int64_t before = involuntary_switches();
              const double waited = run_queue_wait_s();
              const detail::PoolCounts pool = detail::pool_counts();
              for (auto _ : state) {
                for (int r = 0; r < repeat; ++r) call();
              }
              state.counters["preempted"] = static_cast<double>(involuntary_switches() - before);
              // A thread that exits meanwhile takes its wait along: never below zero.
              state.counters["waited"] = std::max(0.0, run_queue_wait_s() - waited);
              const detail::PoolCounts now = detail::pool_counts();
              state.counters["offered"] = static_cast<double>(now.offered - pool.offered);
              state.counters["withdrawn"] = static_cast<double>(now.withdrawn - pool.withdrawn);
              state.counters["missed"] =
                  static_cast<double>(now.withdrawn_awake - pool.withdrawn_awake);
            })
            ->UseRealTime()
            ->Unit(benchmark::kMicrosecond)
            ->Repetitions(slow_call_repetitions(o, first_call_s))
            ->MinTime(o.min_time)
            ->MinWarmUpTime(first_call_s < o.min_time ? o.min_time / 2 : 0)
            ->ComputeStatistics(
                "min",
                [](const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); })
            ->ComputeStatistics("max", [](const std::vector<double>& v) {
              return *std::max_element(v.begin(), v.end());
            });
      }
      cr.results.push_back(std::move(sr));
    }
    const CpuTimes before = read_cpu_times();
    benchmark::RunSpecifiedBenchmarks(&collector);
    benchmark::ClearRegisteredBenchmarks();
    const CpuTimes after = read_cpu_times();
    cr.steal_pct = steal_pct(before, after);
    cr.others_pct = others_pct(before, after);
    for (SetResult& sr : cr.results) {
      if (sr.status != "ok") continue;
      auto it = collector.by_name.find(cr.name + "/" + sr.set);
      if (it == collector.by_name.end() || !it->second.error.empty() ||
          it->second.samples.empty()) {
        sr.status = "error";
        sr.reason = it == collector.by_name.end() ? "no measurement" : it->second.error;
        continue;
      }
      sr.samples_s = it->second.samples;
      sr.cpu_samples_s = it->second.cpu_samples;
      sr.preempted = it->second.preempted;
      sr.waited = it->second.waited;
      sr.offered = it->second.offered;
      sr.withdrawn = it->second.withdrawn;
      sr.missed = it->second.missed;
      sr.iterations = it->second.iterations;
      summarize(sr);
      classify_noise(sr, cr.steal_pct, device.is_cpu(), cr.others_pct);
    }
    print_case(progress, ci + 1, cases.size(), cr, result.roofline, c.dtype);
    result.cases.push_back(std::move(cr));
  }
  result.gbench_context = collector.context;
  result.gbench_runs = std::move(collector.gbench_runs);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return result;
}

nlohmann::json gbench_run_json(const benchmark::BenchmarkReporter::Run& r) {
  using Run = benchmark::BenchmarkReporter::Run;
  const bool agg = r.run_type == Run::RT_Aggregate;
  const bool percentage = agg && r.aggregate_unit == benchmark::kPercentage;
  nlohmann::json j = {{"name", r.benchmark_name()},
                      {"family_index", r.family_index},
                      {"per_family_instance_index", r.per_family_instance_index},
                      {"run_name", r.run_name.str()},
                      {"run_type", agg ? "aggregate" : "iteration"},
                      {"repetitions", r.repetitions},
                      {"threads", r.threads},
                      {"iterations", r.iterations}};
  // A percentage aggregate (cv) is a fraction: GetAdjusted*Time would scale it as a time.
  j["real_time"] = percentage ? r.real_accumulated_time : r.GetAdjustedRealTime();
  j["cpu_time"] = percentage ? r.cpu_accumulated_time : r.GetAdjustedCPUTime();
  j["time_unit"] = benchmark::GetTimeUnitString(r.time_unit);
  if (agg) {
    j["aggregate_name"] = r.aggregate_name;
    j["aggregate_unit"] = percentage ? "percentage" : "time";
  } else {
    j["repetition_index"] = r.repetition_index;
  }
  for (const auto& [k, c] : r.counters) j[k] = c.value;
  if (r.error_occurred) {
    j["error_occurred"] = true;
    j["error_message"] = r.error_message;
  }
  return j;
}

}  // namespace ts::perf
