#pragma once
// The partial report a long run keeps beside its final one (Note [Partial report]).
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace ts::reports {

// Note [Partial report]
// While a run with --report goes on, REPORT.partial holds one JSON line per finished case,
// written with write(2) as each case ends (so it survives a crash), after a first line with the
// run's identity (the report without cases and summary, plus "partial": true). The final report
// replaces it at the end: write it, then finish() removes the partial file.
class PartialReport {
 public:
  // Creates REPORT.partial and writes `header`; errors start with `what` (the command).
  PartialReport(const std::string& report_path, const nlohmann::json& header,
                std::string_view what);
  ~PartialReport();
  PartialReport(const PartialReport&) = delete;
  PartialReport& operator=(const PartialReport&) = delete;
  void append(const nlohmann::json& line);
  void finish();
  const std::string& path() const { return path_; }

 private:
  void write_line(const std::string& line);
  std::string path_, what_;
  int fd_ = -1;
};

}  // namespace ts::reports
