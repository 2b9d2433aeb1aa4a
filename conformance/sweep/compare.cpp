// The sweep's comparison of SIMD targets and thread counts (engine.h's run_compare).
#include <algorithm>
#include <cmath>

#include "conformance/sweep/engine.h"
#include "conformance/sweep/internal.h"
#include "touchstone/cpu_capability.h"
#include "touchstone/parallel.h"
#include "touchstone/touchstone.h"

namespace ts::sweep {
namespace {

// Note [Targets and threads in one process]
// ts::cpu::set_capability switches Highway's chosen target in place (the supported targets are
// masked, then GetChosenTarget().Update): every HWY_DYNAMIC_DISPATCH after it calls that
// target's code, so one process runs every target in turn, no child process per target. The
// switch must not race a running kernel, so the comparison runs its batches on the calling
// thread and switches between kernel calls; each call splits its batch over the config's
// threads as any caller's would (chunks of ceil(n / threads)), so the chunk tails and partial
// vectors a thread count creates are what the thread comparison exercises.
struct Config {
  std::string target;
  int threads = 1;
  std::string name() const { return target + " x" + std::to_string(threads); }
};

// Puts the capability and thread count back, also when a kernel throws.
struct Restore {
  std::string target = cpu::capability();
  int threads = get_num_threads();
  ~Restore() {
    cpu::set_capability(target);
    set_num_threads(threads);
  }
};

std::vector<Config> configs(const SweepOptions& o) {
  std::vector<std::string> targets = o.targets;
  if (targets.size() == 1 && targets[0] == "all") {  // every supported target, best first
    const std::vector<std::string> s = cpu::supported_capabilities();
    targets.assign(s.rbegin(), s.rend());
  }
  if (targets.empty()) targets = {cpu::capability()};
  const std::vector<std::string> supported = cpu::supported_capabilities();
  for (const std::string& t : targets) {
    TS_CHECK(std::find(supported.begin(), supported.end(), t) != supported.end(),
             "sweep: --compare-targets: '", t, "' is not a target this build and CPU support");
  }
  const std::vector<int> threads = o.threads.empty() ? std::vector<int>{1} : o.threads;
  for (int n : threads) TS_CHECK(n > 0, "sweep: --compare-threads: expected counts > 0, got ", n);
  std::vector<Config> out = {{targets[0], threads[0]}};
  for (size_t i = 1; i < targets.size(); ++i) out.push_back({targets[i], threads[0]});
  for (size_t i = 1; i < threads.size(); ++i) out.push_back({targets[0], threads[i]});
  return out;
}

// Whether both bit patterns are NaNs of `fmt`.
bool both_nan(uint32_t x, uint32_t y, const Format& fmt) {
  return std::isnan(format_value(x, fmt)) && std::isnan(format_value(y, fmt));
}

void compare_op(const SweepOptions& o, const std::vector<Config>& cs, std::string_view op,
                const Format& fmt, std::vector<CompareRow>& rows) {
  const detail::SweptOp& fn = *detail::find_swept_op(op);
  const detail::InputSpace space = detail::input_space(fmt, fn.arity, o);
  const uint64_t count = space.count();
  const auto batch = static_cast<uint64_t>(o.compare_batch);
  std::vector<uint32_t> in_bits;
  std::vector<std::vector<uint32_t>> got(cs.size());
  for (const std::string& set : detail::sets_with_kernel(o.kernels, op, fmt.dtype)) {
    const size_t first = rows.size();
    for (size_t c = 1; c < cs.size(); ++c) {
      CompareRow r;
      r.op = op;
      r.kernels = set;
      r.dtype = dtype_name(fmt.dtype);
      r.arity = fn.arity;
      r.baseline = cs[0].name();
      r.config = cs[c].name();
      rows.push_back(r);
    }
    for (uint64_t begin = 0; begin < count; begin += batch) {
      const uint64_t n = std::min(count, begin + batch) - begin;
      in_bits.resize(n);
      for (uint64_t i = 0; i < n; ++i) in_bits[i] = space.bits(begin + i);
      Tensor a, b;
      detail::make_inputs(space, in_bits.data(), n, a, b);
      const KernelSetGuard guard(set);
      for (size_t c = 0; c < cs.size(); ++c) {
        cpu::set_capability(cs[c].target);
        set_num_threads(cs[c].threads);
        detail::read_bits(detail::run_op(fn, a, b), space.w, got[c]);
      }
      for (size_t c = 1; c < cs.size(); ++c) {
        CompareRow& r = rows[first + c - 1];
        r.inputs += n;
        for (uint64_t i = 0; i < n; ++i) {
          if (got[c][i] == got[0][i]) continue;
          ++r.differing;
          if (both_nan(got[c][i], got[0][i], fmt)) ++r.nan_only;
          if (r.first_input) continue;
          r.first_input = in_bits[i];
          r.first_baseline = got[0][i];
          r.first_config = got[c][i];
        }
      }
    }
  }
}

}  // namespace

void check_compare_options(const SweepOptions& o) {
  (void)configs(o);
}

std::vector<CompareRow> run_compare(const SweepOptions& o) {
  const std::vector<std::string> ops = detail::checked_ops(o);
  const std::vector<Config> cs = configs(o);
  const Restore restore;
  std::vector<CompareRow> rows;
  for (const std::string& op : ops) {
    for (ScalarType dt : o.dtypes) {
      const Format& fmt = format_of(dt, "sweep: --dtypes");
      if (detail::find_swept_op(op)->arity == 2 && dt == kFloat) continue;  // 2^64 pairs
      compare_op(o, cs, op, fmt, rows);
    }
  }
  return rows;
}

}  // namespace ts::sweep
