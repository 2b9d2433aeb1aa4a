// Note [Fault isolation]
// Groups run in forked children that report over a pipe: "G <group>" when a group starts, "B
// <case>" before a case, "R <case>" after it, and "S <stats>" (skipped samples, sample names) when
// the group is done. One child runs the groups in order until it dies: a child that dies between
// B and R crashed in that case; one silent for longer than the case timeout is killed and its case
// timed out. Either way a new child resumes after that case. The parent runs no kernel, so
// nothing (the thread pool's workers, OpenBLAS's, a CUDA context) is half-initialized in the
// children; a child per group would also pay a CUDA context per group (about 2 s on an H200).
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

// Forks a child that runs `child` on the pipe's write end, then exits; fds[0] is the parent's
// read end (its write end is closed).
pid_t fork_piped(int (&fds)[2], const std::function<void(int)>& child) {
  TS_CHECK(::pipe(fds) == 0, "conform: pipe failed: ", std::strerror(errno));
  const pid_t pid = ::fork();
  TS_CHECK(pid >= 0, "conform: fork failed: ", std::strerror(errno));
  if (pid == 0) {
    ::close(fds[0]);
    child(fds[1]);
    ::close(fds[1]);
    ::_exit(0);
  }
  ::close(fds[1]);
  return pid;
}

// Runs groups[first..] in order, group `first` from its case `resume_from`; "G <i>" starts group
// i. One child runs many groups: a CUDA context per child, not per group.
[[noreturn]] void child_main(int fd, const RunOptions& o, const std::vector<Group>& groups,
                             size_t first, int64_t resume_from) {
  std::optional<GuardScope> guard;
  if (o.guard) guard.emplace();
  for (size_t gi = first; gi < groups.size(); ++gi) {
    write_line(fd, "G " + std::to_string(gi));
    GroupStats stats;
    const int64_t from = gi == first ? resume_from : 0;
    const CaseGate gate = [&](int64_t index, const CaseResult& c) {
      if (index < from) return false;
      nlohmann::json j = case_to_json(c);
      j["index"] = index;
      write_line(fd, "B " + j.dump());
      return true;
    };
    try {
      run_group(
          o, groups[gi], gate, [&](CaseResult c) { write_line(fd, "R " + case_to_json(c).dump()); },
          stats);
    } catch (const std::exception& e) {
      write_line(fd, "E " + nlohmann::json(e.what()).dump());
    }
    write_line(
        fd,
        "S " +
            nlohmann::json{{"skipped", stats.skipped_samples}, {"samples", stats.samples}}.dump());
  }
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

// Where a new child starts: a group and the first of its cases to run.
struct Resume {
  size_t group = 0;
  int64_t index = 0;
};

CaseResult group_case(const Group& g, std::string status, std::string message) {
  CaseResult c;
  c.op = g.entry->name;
  c.dtype = std::string(dtype_name(g.dtype));
  c.sample = c.layout = "*";
  c.status = std::move(status);
  c.message = std::move(message);
  return c;
}

// One child's life, from `from` on: returns where the next child starts (group == the number of
// groups when all are done).
Resume supervise(const RunOptions& o, const std::vector<Group>& groups, Resume from,
                 const CaseSink& emit, GroupStats& stats) {
  int fds[2];
  const pid_t pid =
      fork_piped(fds, [&](int fd) { child_main(fd, o, groups, from.group, from.index); });
  std::optional<nlohmann::json> current;  // the case begun and not reported
  std::string buffer;
  size_t group = from.group;  // the group begun last
  bool in_group = false, started = false;
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
      if (line[0] == 'G') {
        group = std::stoul(body);
        in_group = started = true;
        const Group& g = groups[group];
        if (o.progress) o.progress(group, groups.size(), g.entry->name, g.dtype);
      } else if (line[0] == 'B') {
        current = nlohmann::json::parse(body);
        last = std::chrono::steady_clock::now();
      } else if (line[0] == 'R') {
        emit(case_from_json(nlohmann::json::parse(body)));
        current.reset();
        last = std::chrono::steady_clock::now();
      } else if (line[0] == 'S') {
        const nlohmann::json done = nlohmann::json::parse(body);
        stats.skipped_samples += done.value("skipped", int64_t{0});
        for (const auto& name : done.value("samples", nlohmann::json::array())) {
          stats.samples.insert(name.get<std::string>());
        }
        in_group = false;
      } else if (line[0] == 'E') {
        emit(group_case(groups[group], "error",
                        "harness: " + nlohmann::json::parse(body).get<std::string>()));
      }
    }
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (current) {
    CaseResult c = case_from_json(*current);
    c.status = timed_out ? "timeout" : "crashed";
    c.message = timed_out ? "no result after " + std::to_string(o.case_timeout_s) + " s; killed"
                          : "the child " + death(status);
    emit(std::move(c));
    return {group, (*current)["index"].get<int64_t>() + 1};
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && !in_group) return {groups.size(), 0};
  // Died outside any case (while making a group's samples, say): reported once for the group.
  if (!started || in_group) {
    emit(group_case(groups[group], "crashed", "the child " + death(status) + " outside a case"));
  }
  return {group + 1, 0};
}

}  // namespace

void run_groups_isolated(const RunOptions& options, const std::vector<Group>& groups,
                         const CaseSink& emit, GroupStats& stats) {
  for (Resume r; r.group < groups.size();) r = supervise(options, groups, r, emit, stats);
}

// Note [Device probe in a child]
// CUDA cannot be used in a child forked after its parent initialized it (every call there fails
// with "initialization error"), so with --isolate the parent checks the device in a throwaway
// child of its own and never touches the device itself.
std::string run_in_child(const std::function<void()>& f) {
  int fds[2];
  const pid_t pid = fork_piped(fds, [&](int fd) {
    std::string message;
    try {
      f();
    } catch (const std::exception& e) {
      message = e.what();
      if (message.empty()) message = "failed";
    }
    (void)reports::write_all(fd, message);
  });
  std::string message;
  char chunk[4096];
  for (;;) {
    const ssize_t n = ::read(fds[0], chunk, sizeof(chunk));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    message.append(chunk, static_cast<size_t>(n));
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0) && message.empty()) {
    message = "the child " + death(status);
  }
  return message;
}

}  // namespace ts::conformance
