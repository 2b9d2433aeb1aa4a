// Machine context from /proc, /sys, uname and compile-time facts (compiler, build, commit).
#include "perf/machine.h"

#include <cblas.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "reports/machine.h"
#include "touchstone/cpu_capability.h"
#include "touchstone/touchstone.h"
#include "touchstone/version.h"

#ifndef TS_BUILD_TYPE
#define TS_BUILD_TYPE "unknown"
#endif
#ifndef TS_BENCHMARK_VERSION
#define TS_BENCHMARK_VERSION "unknown"
#endif
#ifndef TS_HWY_VERSION
#define TS_HWY_VERSION "unknown"
#endif

namespace ts::perf {
namespace {

using reports::first_line;
using reports::proc_field;

// The NVIDIA driver's /proc files, when present (no process is spawned).
nlohmann::json gpu_context() {
  namespace fs = std::filesystem;
  const fs::path root = "/proc/driver/nvidia";
  std::error_code ec;
  if (!fs::exists(root / "version", ec)) return nullptr;
  nlohmann::json gpus = nlohmann::json::array();
  for (const auto& entry : fs::directory_iterator(root / "gpus", ec)) {
    gpus.push_back(proc_field((entry.path() / "information").string(), "Model"));
  }
  return {{"name", gpus.empty() ? "unknown" : gpus[0].get<std::string>()},
          {"count", gpus.size()},
          {"driver", first_line((root / "version").string())}};
}

// Unreadable or odd sysfs files (containers, other kernels) leave fields empty, never throw.
nlohmann::json caches() {
  nlohmann::json out = nlohmann::json::array();
  const std::string base = "/sys/devices/system/cpu/cpu0/cache/index";
  for (int i = 0; i < 8; ++i) {
    const std::string dir = base + std::to_string(i) + "/";
    std::error_code ec;
    if (!std::filesystem::exists(dir + "size", ec)) break;
    out.push_back({{"level", std::atoi(first_line(dir + "level").c_str())},
                   {"type", first_line(dir + "type")},
                   {"size", first_line(dir + "size")}});
  }
  return out;
}

std::string compiler() {
#if defined(__clang__)
  return std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
  return std::string("gcc ") + __VERSION__;
#else
  return "unknown";
#endif
}

}  // namespace

nlohmann::json machine_context(int threads) {
  utsname u{};
  uname(&u);
  char host[256] = {};
  gethostname(host, sizeof(host) - 1);
  return {{"cpu_model", reports::cpu_model()},
          {"cores", std::max(1u, std::thread::hardware_concurrency())},
          {"threads", threads},
          {"simd_target", cpu::capability()},
          {"simd_supported", cpu::supported_capabilities()},
          {"memory_total", proc_field("/proc/meminfo", "MemTotal")},
          {"caches", caches()},
          {"gpu", gpu_context()},
          {"os", std::string(u.sysname) + " " + u.release + " " + u.machine},
          {"host_name", host},
          {"compiler", compiler()},
          {"build_type", TS_BUILD_TYPE},
          {"git_commit", reports::git_commit()},
          {"kernel_sets", kernel_set_names()},
          {"libraries",
           {{"touchstone", kVersion},
            {"google_benchmark", TS_BENCHMARK_VERSION},
            {"openblas", openblas_get_config()},
            {"highway", TS_HWY_VERSION},
            {"nlohmann_json", std::to_string(NLOHMANN_JSON_VERSION_MAJOR) + "." +
                                  std::to_string(NLOHMANN_JSON_VERSION_MINOR) + "." +
                                  std::to_string(NLOHMANN_JSON_VERSION_PATCH)}}}};
}

}  // namespace ts::perf
