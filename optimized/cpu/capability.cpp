// SIMD capability selection for the optimized CPU kernels (Highway run-time dispatch).
#include <cstdlib>

#include "hwy/targets.h"
#include "touchstone/cpu_capability.h"
#include "touchstone/environment.h"
#include "touchstone/error.h"

namespace ts::cpu {
namespace {

struct Capability {
  const char* name;
  int64_t target;
};
// Note [The scalar target]
// Highway's portable fallback is HWY_EMU128, or HWY_SCALAR where the compiler miscompiles EMU128
// (GCC before 12.3, Debian 12's 12.2 included: HWY_BROKEN_EMU128); HWY_BASELINE_SCALAR names the
// one this build compiles. Asking for EMU128 alone left "scalar" out of every supported list.
constexpr int64_t kScalar = HWY_BASELINE_SCALAR;

// Worst to best; the targets optimized/CMakeLists.txt compiles (HWY_DISABLED_TARGETS drops SSSE3).
// avx512 is HWY_AVX3 or HWY_AVX3_DL: a -march=native build (the sanitizer presets) on a CPU with
// VNNI and VBMI2 compiles AVX3_DL alone, and naming only AVX3 left "avx512" out of its supported
// list while capability() reported it.
constexpr Capability kCapabilities[] = {{"scalar", kScalar},
                                        {"sse4", HWY_SSE4},
                                        {"avx2", HWY_AVX2},
                                        {"avx512", HWY_AVX3 | HWY_AVX3_DL}};

int64_t cpu_targets() {
  static const int64_t targets = [] {
    hwy::SetSupportedTargetsForTest(0);  // the real CPU, not a previous forcing
    return hwy::SupportedTargets();
  }();
  return targets;
}

// A target (the best bit of the mask) and every worse one (Highway numbers better targets with
// lower bits).
int64_t at_most(int64_t target) {
  return ~(target - 1);
}

// See Note [Environment errors]: a bad value keeps the best target and is reported, never thrown.
const bool kApplyEnvironment = [] {
  const char* env = std::getenv("TOUCHSTONE_CPU_CAPABILITY");
  if (env == nullptr || *env == '\0') return true;
  try {
    set_capability(env);
  } catch (const Error& e) {
    detail::add_environment_error(detail::str_cat("TOUCHSTONE_CPU_CAPABILITY='", env,
                                                  "': ", e.what(), "; using ", capability()));
  }
  return true;
}();

}  // namespace

std::vector<std::string> compiled_capabilities() {
  std::vector<std::string> out;
  for (const Capability& c : kCapabilities) {
    if ((HWY_TARGETS & c.target) != 0) out.emplace_back(c.name);  // Note [Highway targets]
  }
  return out;
}

std::vector<std::string> supported_capabilities() {
  std::vector<std::string> out;
  for (const Capability& c : kCapabilities) {
    const bool compiled = (HWY_TARGETS & c.target) != 0;
    if (compiled && ((cpu_targets() & c.target) != 0 || c.target == kScalar)) {
      out.emplace_back(c.name);
    }
  }
  return out;
}

std::string capability() {
  const int64_t active = hwy::SupportedTargets();
  for (auto it = std::rbegin(kCapabilities); it != std::rend(kCapabilities); ++it) {
    if ((active & it->target) != 0) return it->name;
  }
  return "scalar";
}

void set_capability(std::string_view name) {
  for (const Capability& c : kCapabilities) {
    if (name != c.name) continue;
    const int64_t targets = (cpu_targets() | kScalar) & at_most(c.target);
    if ((targets & c.target) == 0) {
      std::string supported;
      for (const std::string& s : supported_capabilities())
        supported += (supported.empty() ? "" : ", ") + s;
      TS_ERROR("set_capability: this CPU does not support '", name, "' (supported: ", supported,
               ")");
    }
    hwy::SetSupportedTargetsForTest(targets);
    hwy::GetChosenTarget().Update(hwy::SupportedTargets());
    return;
  }
  TS_ERROR(
      "set_capability: unknown CPU capability '", name,
      "' (expected scalar, sse4, avx2 or avx512; TOUCHSTONE_CPU_CAPABILITY uses the same names)");
}

}  // namespace ts::cpu
