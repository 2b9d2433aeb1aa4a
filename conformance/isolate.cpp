// Note [Fault isolation]
// Each group runs in a forked child that reports over a pipe: "B <case>" before a case,
// "R <case>" after it, and "S <stats>" (skipped samples, sample names) when the group is done. A
// child that dies between the two crashed in that case; one silent for longer than the case timeout
// is killed and its case timed out. Either way a new child reruns the group, skipping the cases
// already reported and the one that failed. The parent runs no kernel, so nothing (the thread
// pool's workers, OpenBLAS's) is half-initialized in the children.
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <optional>

#include "conformance/guard.h"
#include "conformance/report.h"
#include "conformance/runner.h"
#include "reports/files.h"

namespace ts::conformance {
namespace {

void write_line(int fd, const std::string& line) {
  if (!reports::write_all(fd, line + "\n")) ::_exit(120);  // the parent is gone
}

[[noreturn]] void child_main(int fd, const RunOptions& o, const Group& g, int64_t resume_from) {
  std::optional<GuardScope> guard;
  if (o.guard) guard.emplace();
  GroupStats stats;
  const CaseGate gate = [&](int64_t index, const CaseResult& c) {
    if (index < resume_from) return false;
    nlohmann::json j = case_to_json(c);
    j["index"] = index;
    write_line(fd, "B " + j.dump());
    return true;
  };
  try {
    run_group(
        o, g, gate, [&](CaseResult c) { write_line(fd, "R " + case_to_json(c).dump()); }, stats);
  } catch (const std::exception& e) {
    write_line(fd, "E " + nlohmann::json(e.what()).dump());
  }
  write_line(
      fd,
      "S " + nlohmann::json{{"skipped", stats.skipped_samples}, {"samples", stats.samples}}.dump());
  ::close(fd);
  ::_exit(0);
}

std::string death(int status) {
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    return std::string("killed by signal ") + std::to_string(sig) + " (" + strsignal(sig) + ")";
  }
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  return "ended";
}

// One child's life: returns the index to resume from, or -1 when the group is done.
int64_t supervise(const RunOptions& o, const Group& g, int64_t resume_from, const CaseSink& emit,
                  GroupStats& stats) {
  int fds[2];
  TS_CHECK(::pipe(fds) == 0, "conform: pipe failed: ", std::strerror(errno));
  const pid_t pid = ::fork();
  TS_CHECK(pid >= 0, "conform: fork failed: ", std::strerror(errno));
  if (pid == 0) {
    ::close(fds[0]);
    child_main(fds[1], o, g, resume_from);
  }
  ::close(fds[1]);
  std::optional<nlohmann::json> current;  // the case begun and not reported
  std::string buffer;
  nlohmann::json done;  // the child's stats, counted only when it completes the group
  bool timed_out = false;
  auto last = std::chrono::steady_clock::now();
  for (;;) {
    pollfd p{fds[0], POLLIN, 0};
    const int r = ::poll(&p, 1, 200);
    if (r < 0 && errno == EINTR) continue;
    if (r == 0) {
      const double idle =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - last).count();
      if (current && idle > o.case_timeout_s) {
        ::kill(pid, SIGKILL);
        timed_out = true;
        break;
      }
      continue;
    }
    char chunk[65536];
    const ssize_t n = ::read(fds[0], chunk, sizeof(chunk));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // the child closed its end: done or dead
    buffer.append(chunk, static_cast<size_t>(n));
    for (size_t nl; (nl = buffer.find('\n')) != std::string::npos;) {
      const std::string line = buffer.substr(0, nl);
      buffer.erase(0, nl + 1);
      if (line.size() < 2) continue;
      const std::string body = line.substr(2);
      if (line[0] == 'B') {
        current = nlohmann::json::parse(body);
        last = std::chrono::steady_clock::now();
      } else if (line[0] == 'R') {
        emit(case_from_json(nlohmann::json::parse(body)));
        current.reset();
        last = std::chrono::steady_clock::now();
      } else if (line[0] == 'S') {
        done = nlohmann::json::parse(body);
      } else if (line[0] == 'E') {
        CaseResult c;
        c.op = g.entry->name;
        c.dtype = std::string(dtype_name(g.dtype));
        c.sample = c.layout = "*";
        c.status = "error";
        c.message = "harness: " + nlohmann::json::parse(body).get<std::string>();
        emit(std::move(c));
      }
    }
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!current) {
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
      if (done.is_object()) {
        stats.skipped_samples += done.value("skipped", int64_t{0});
        for (const auto& name : done.value("samples", nlohmann::json::array())) {
          stats.samples.insert(name.get<std::string>());
        }
      }
      return -1;
    }
    // Died outside any case (while making samples, say): report it once for the group.
    CaseResult c;
    c.op = g.entry->name;
    c.dtype = std::string(dtype_name(g.dtype));
    c.sample = c.layout = "*";
    c.status = "crashed";
    c.message = "the child " + death(status) + " outside a case";
    emit(std::move(c));
    return -1;
  }
  CaseResult c = case_from_json(*current);
  c.status = timed_out ? "timeout" : "crashed";
  c.message = timed_out ? "no result after " + std::to_string(o.case_timeout_s) + " s; killed"
                        : "the child " + death(status);
  emit(std::move(c));
  return (*current)["index"].get<int64_t>() + 1;
}

}  // namespace

void run_groups_isolated(const RunOptions& options, const std::vector<Group>& groups,
                         const CaseSink& emit, GroupStats& stats) {
  for (size_t i = 0; i < groups.size(); ++i) {
    const Group& g = groups[i];
    if (options.progress) options.progress(i, groups.size(), g.entry->name, g.dtype);
    for (int64_t resume = 0; resume >= 0;) resume = supervise(options, g, resume, emit, stats);
  }
}

}  // namespace ts::conformance
