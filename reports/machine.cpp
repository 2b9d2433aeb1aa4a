// See machine.h.
#include "reports/machine.h"

#include <fstream>

#ifndef TS_GIT_COMMIT
#define TS_GIT_COMMIT "unknown"
#endif

namespace ts::reports {

std::string proc_field(const std::string& path, const std::string& key) {
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(key, 0) != 0) continue;
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    const size_t start = line.find_first_not_of(" \t", colon + 1);
    return start == std::string::npos ? "" : line.substr(start);
  }
  return "";
}

std::string first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

std::string cpu_model(const std::string& fallback) {
  const std::string model = proc_field("/proc/cpuinfo", "model name");
  return model.empty() ? fallback : model;
}

const char* git_commit() {
  return TS_GIT_COMMIT;
}

}  // namespace ts::reports
