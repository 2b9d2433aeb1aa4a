// `touchstone env`: the machine context perf reports carry and the environment variables
// touchstone reads; --probe adds the roofline probes.
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <memory>

#include "command.h"
#include "perf/machine.h"
#include "perf/probes.h"
#include "touchstone/error.h"
#include "touchstone/parallel.h"

namespace ts::tools {
namespace {

struct EnvVar {
  const char* name;
  const char* effect;
};

// Every variable the library reads (getenv in lib/ and optimized/), with what it sets.
constexpr EnvVar kEnvironment[] = {
    {"TOUCHSTONE_NUM_THREADS",
     "threads of the optimized set (default: the CPUs this process may run on)"},
    {"TOUCHSTONE_CPU_CAPABILITY", "highest SIMD target used: scalar, sse4, avx2 or avx512"},
    {"TOUCHSTONE_KERNELS", "the default kernel set (default: reference)"},
    {"TOUCHSTONE_CPU_CACHE_MB", "CPU block cache limit in MiB (default 1024; 0: off)"},
    {"TOUCHSTONE_CUDA_FORCE_64BIT_INDEX", "CUDA builds: 64-bit indexing in every kernel (1)"},
    {"TOUCHSTONE_STREAMING_STORES", "non-temporal stores for outputs beyond the LLC (1; 0: off)"},
    {"TOUCHSTONE_CONV_WINOGRAD", "Winograd 3x3 float32 convolutions (1; 0: the direct kernel)"},
};

// {name -> value, or null when unset}.
nlohmann::json environment() {
  nlohmann::json out = nlohmann::json::object();
  for (const EnvVar& v : kEnvironment) {
    const char* value = std::getenv(v.name);
    out[v.name] = value != nullptr ? nlohmann::json(value) : nlohmann::json(nullptr);
  }
  return out;
}

void print_environment(const nlohmann::json& env) {
  std::cout << "environment (the variables touchstone reads):\n";
  for (const EnvVar& v : kEnvironment) {
    const nlohmann::json& value = env.at(v.name);
    std::cout << "  " << std::left << std::setw(34) << v.name << std::setw(12)
              << (value.is_null() ? "(unset)" : value.get<std::string>()) << " " << v.effect
              << "\n";
  }
}

}  // namespace

Command add_env_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "env", "Print the machine context that perf reports carry and the environment variables");
  struct Args {
    bool json = false, probe = false, quick = false;
    int threads = 0;
    CLI::Option* threads_opt = nullptr;
  };
  auto a = std::make_shared<Args>();
  cmd->add_flag("--json", a->json, "Print JSON");
  cmd->add_flag("--probe", a->probe, "Also measure the roofline (STREAM copy/add, GEMM peak)");
  cmd->add_flag("--quick", a->quick, "With --probe: the quick probes");
  a->threads_opt =
      cmd->add_option("--threads", a->threads, "Threads, >= 1 (default: TOUCHSTONE_NUM_THREADS)");
  cmd->footer(
      "Exit status: 0 printed (odd values of the variables are shown as they are);\n"
      "  2 usage error: a bad flag value.");
  return {cmd, [a] {
            TS_CHECK(a->threads_opt->count() == 0 || a->threads >= 1,
                     "env: --threads must be a positive number, got ", a->threads);
            TS_CHECK(!a->quick || a->probe, "env: --quick applies to --probe, which is not given");
            if (a->threads_opt->count() > 0) set_num_threads(a->threads);
            nlohmann::json ctx = perf::machine_context(get_num_threads());
            if (a->probe) {
              const perf::Roofline r = perf::measure_roofline(a->quick, get_num_threads());
              ctx["roofline"] = {{"probe", r.probe},
                                 {"stream_elements", r.stream_elements},
                                 {"copy_gbs", r.copy_gbs},
                                 {"add_gbs", r.add_gbs},
                                 {"gemm_n", r.gemm_n},
                                 {"sgemm_gflops", r.sgemm_gflops},
                                 {"dgemm_gflops", r.dgemm_gflops}};
            }
            const nlohmann::json env = environment();
            if (a->json) {
              ctx["environment"] = env;
              // Variables are bytes: invalid UTF-8 is printed replaced, never thrown on.
              std::cout << ctx.dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
                        << "\n";
              return 0;
            }
            for (const auto& [key, value] : ctx.items()) {
              std::cout << std::left << std::setw(16) << key
                        << (value.is_string() ? value.get<std::string>() : value.dump()) << "\n";
            }
            print_environment(env);
            return 0;
          }};
}

}  // namespace ts::tools
