// Report files: output-path checks, atomic writes, reads with errno-named errors.
#include "reports/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "touchstone/error.h"

namespace ts::reports {
namespace {

std::string parent_dir(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string errno_text(int err) {
  return std::strerror(err);
}

}  // namespace

void check_output_path(const std::string& path, std::string_view option) {
  TS_CHECK(!path.empty(), option, ": the path is empty");
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    TS_CHECK(!S_ISDIR(st.st_mode), option, ": cannot write '", path, "': ", errno_text(EISDIR));
    TS_CHECK(::access(path.c_str(), W_OK) == 0, option, ": cannot write '", path,
             "': ", errno_text(errno));
  }
  const std::string dir = parent_dir(path);
  if (::stat(dir.c_str(), &st) != 0) {
    TS_ERROR(option, ": cannot write '", path, "': directory '", dir, "': ", errno_text(errno));
  }
  TS_CHECK(S_ISDIR(st.st_mode), option, ": cannot write '", path, "': '", dir,
           "' is not a directory");
  // The report is written as a temporary file beside it and renamed, so the directory must be
  // writable even when the file itself already exists.
  TS_CHECK(::access(dir.c_str(), W_OK | X_OK) == 0, option, ": cannot write '", path,
           "': directory '", dir, "': ", errno_text(errno));
}

void write_file_atomically(const std::string& path, const std::string& text,
                           std::string_view what) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) TS_ERROR(what, ": cannot write '", path, "': ", errno_text(errno));
  if (!write_all(fd, text)) {
    const int err = errno;
    ::close(fd);
    std::remove(tmp.c_str());
    TS_ERROR(what, ": writing '", path, "' failed: ", errno_text(err));
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const int err = errno;
    std::remove(tmp.c_str());
    TS_ERROR(what, ": writing '", path, "' failed: ", errno_text(err));
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    std::remove(tmp.c_str());
    TS_ERROR(what, ": cannot replace '", path, "': ", errno_text(err));
  }
}

void write_json(const std::string& path, const nlohmann::json& j, std::string_view what) {
  const std::string text = j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace);
  write_file_atomically(path, text + "\n", what);
}

bool write_all(int fd, std::string_view text) {
  for (size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

std::string read_file(const std::string& path, std::string_view what) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    TS_ERROR(what, ": cannot read '", path, "': ", errno_text(errno));
  }
  TS_CHECK(!S_ISDIR(st.st_mode), what, ": cannot read '", path, "': ", errno_text(EISDIR));
  std::ifstream in(path, std::ios::binary);
  if (!in.good()) TS_ERROR(what, ": cannot read '", path, "': ", errno_text(errno));
  std::ostringstream s;
  s << in.rdbuf();
  TS_CHECK(!in.bad(), what, ": reading '", path, "' failed");
  return s.str();
}

}  // namespace ts::reports
