// Report assembly: machine description, summary, one object per case; atomic writes.
#include "conformance/report.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <thread>

#include "touchstone/cpu_capability.h"
#include "touchstone/version.h"

#ifndef TS_GIT_COMMIT
#define TS_GIT_COMMIT "unknown"
#endif

namespace ts::conformance {
namespace {

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("model name", 0) == 0) {
      const size_t colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  }
  return "unknown";
}

std::string utc_timestamp() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

nlohmann::json case_json(const CaseResult& c) {
  nlohmann::json j = {{"op", c.op},
                      {"dtype", c.dtype},
                      {"sample", c.sample},
                      {"layout", c.layout},
                      {"variant", c.variant},
                      {"check", c.check},
                      {"status", c.status},
                      {"max_abs_err", c.max_abs_err},
                      {"max_rel_err", c.max_rel_err},
                      {"max_ulp", c.max_ulp},
                      {"mistrusted", c.mistrusted}};
  if (!c.message.empty()) j["message"] = c.message;
  if (!c.repro.empty()) j["repro"] = c.repro;
  return j;
}

}  // namespace

nlohmann::json report_json(const RunResult& result, const RunOptions& options) {
  const Summary s = result.summary();
  nlohmann::json cases = nlohmann::json::array();
  for (const CaseResult& c : result.cases) cases.push_back(case_json(c));
  return {{"schema_version", kReportSchemaVersion},
          {"tool_version", kVersion},
          {"git_commit", TS_GIT_COMMIT},
          {"timestamp", utc_timestamp()},
          {"machine",
           {{"cpu_model", cpu_model()},
            {"cores", std::thread::hardware_concurrency()},
            {"simd_target", cpu::capability()}}},
          {"kernel_set", result.kernel_set},
          {"device", "cpu"},
          {"ops_pattern", options.ops},
          {"seconds", result.seconds},
          {"skipped_samples", result.skipped_samples},
          {"summary",
           {{"cases", s.cases},
            {"passed", s.passed},
            {"failed", s.failed},
            {"errors", s.errors},
            {"crashed", s.crashed},
            {"timeout", s.timeout},
            {"mistrusted", s.mistrusted}}},
          {"cases", cases}};
}

void write_report(const std::string& path, const nlohmann::json& j) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::trunc);
    TS_CHECK(out.good(), "conform: cannot write ", tmp);
    out << j.dump(1) << "\n";
    out.flush();
    TS_CHECK(out.good(), "conform: writing ", tmp, " failed");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    TS_CHECK(false, "conform: cannot rename ", tmp, " to ", path);
  }
}

}  // namespace ts::conformance
