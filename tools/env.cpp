// `touchstone env`: the machine context perf reports carry; --probe adds the roofline probes.
#include <iomanip>
#include <iostream>
#include <memory>

#include "command.h"
#include "perf/machine.h"
#include "perf/probes.h"
#include "touchstone/parallel.h"

namespace ts::tools {

Command add_env_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("env", "Print the machine context that perf reports carry");
  struct Args {
    bool json = false, probe = false, quick = false;
    int threads = 0;
  };
  auto a = std::make_shared<Args>();
  cmd->add_flag("--json", a->json, "Print JSON");
  cmd->add_flag("--probe", a->probe, "Also measure the roofline (STREAM copy/add, GEMM peak)");
  cmd->add_flag("--quick", a->quick, "With --probe: the quick probes");
  cmd->add_option("--threads", a->threads, "Threads (default: TOUCHSTONE_NUM_THREADS)");
  return {cmd, [a] {
            if (a->threads > 0) set_num_threads(a->threads);
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
            if (a->json) {
              std::cout << ctx.dump(2) << "\n";
              return 0;
            }
            for (const auto& [key, value] : ctx.items()) {
              std::cout << std::left << std::setw(16) << key
                        << (value.is_string() ? value.get<std::string>() : value.dump()) << "\n";
            }
            return 0;
          }};
}

}  // namespace ts::tools
