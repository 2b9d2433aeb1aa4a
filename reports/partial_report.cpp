// See partial_report.h.
#include "reports/partial_report.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "reports/files.h"
#include "touchstone/error.h"

namespace ts::reports {

PartialReport::PartialReport(const std::string& report_path, const nlohmann::json& header,
                             std::string_view what)
    : path_(report_path + ".partial"), what_(what) {
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
  if (fd_ < 0) TS_ERROR(what_, ": cannot write '", path_, "': ", std::strerror(errno));
  nlohmann::json h = header;
  h["partial"] = true;
  write_line(h.dump());
}

PartialReport::~PartialReport() {
  if (fd_ >= 0) ::close(fd_);
}

void PartialReport::append(const nlohmann::json& line) {
  write_line(line.dump());
}

void PartialReport::finish() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  std::remove(path_.c_str());
}

void PartialReport::write_line(const std::string& line) {
  // The partial file is a progress record: a failed write (a full disk) stops it, not the run.
  if (fd_ < 0 || write_all(fd_, line + "\n")) return;
  std::cerr << what_ << ": writing '" << path_ << "' failed: " << std::strerror(errno)
            << "; going on without it\n";
  ::close(fd_);
  fd_ = -1;
}

}  // namespace ts::reports
