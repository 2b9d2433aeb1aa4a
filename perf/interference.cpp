// Readers of /proc for the bench's noise tests (perf/interference.h).
#include "perf/interference.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>

namespace ts::perf {
namespace {

// Reads a small /proc file whole into buf (NUL-terminated); false when it cannot.
bool read_small(const std::string& path, char (&buf)[512]) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return false;
  buf[n] = '\0';
  return true;
}

// Calls f(path) with /proc/self/task/TID/ for each thread of the process; TID is also passed.
template <typename F>
void for_each_thread(F f) {
  DIR* dir = opendir("/proc/self/task");
  if (dir == nullptr) return;
  while (const dirent* e = readdir(dir)) {
    if (e->d_name[0] != '.') f(std::string("/proc/self/task/") + e->d_name + "/", e->d_name);
  }
  closedir(dir);
}

}  // namespace

CpuTimes read_cpu_times() {
  CpuTimes t;
  rusage u{};
  if (getrusage(RUSAGE_SELF, &u) == 0) {
    t.self_s = static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
               1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
  }
  std::ifstream in("/proc/stat");
  std::string cpu;
  if (!(in >> cpu) || cpu != "cpu") return t;
  double v = 0;
  for (int i = 0; i < 8 && in >> v; ++i) {  // user nice system idle iowait irq softirq steal
    t.total += v;
    if (i == 7) t.steal = v;
    if (i != 3 && i != 4 && i != 7) t.busy += v;
  }
  return t;
}

double steal_pct(const CpuTimes& a, const CpuTimes& b) {
  const double total = b.total - a.total;
  return total > 0 ? 100 * (b.steal - a.steal) / total : 0;
}

double others_pct(const CpuTimes& a, const CpuTimes& b) {
  static const double hz = static_cast<double>(sysconf(_SC_CLK_TCK));
  const double total = b.total - a.total;
  if (total <= 0 || hz <= 0) return 0;
  const double others = (b.busy - a.busy) - (b.self_s - a.self_s) * hz;
  return std::clamp(100 * others / total, 0.0, 100.0);
}

int64_t involuntary_switches() {
  rusage u{};
  return getrusage(RUSAGE_SELF, &u) == 0 ? u.ru_nivcsw : 0;
}

double run_queue_wait_s() {
  int64_t total = -1, on_core = 0;
  for_each_thread([&](const std::string& dir, const char*) {
    char buf[512];
    if (!read_small(dir + "schedstat", buf)) return;  // "ns on a core, ns waiting, slices"
    char* end = nullptr;
    on_core += std::strtoll(buf, &end, 10);
    const char* wait = end;
    const long long ns = std::strtoll(wait, &end, 10);
    if (end != wait) total = std::max<int64_t>(total, 0) + ns;
  });
  // A kernel without schedstats or delay accounting reports zeros: it keeps none.
  return total < 0 || on_core == 0 ? -1 : static_cast<double>(total) * 1e-9;
}

bool other_threads_running() {
  const std::string self = std::to_string(gettid());
  bool running = false;
  for_each_thread([&](const std::string& dir, const char* tid) {
    char buf[512];
    if (running || self == tid || !read_small(dir + "stat", buf)) return;
    const char* paren = std::strrchr(buf, ')');  // the name may hold spaces and parentheses
    running = paren != nullptr && paren[1] == ' ' && paren[2] == 'R';
  });
  return running;
}

// Note [Other libraries' spinning workers]
// The bench interleaves the repetitions of a case's kernel sets (Note [Interleaved repetitions]
// in runner.cpp), so a set's repetition often follows another set's. An OpenMP runtime's workers
// spin after each parallel region before they sleep (libgomp: milliseconds), and the repetition
// after ATen's began with ATen's worker holding one of the two cores: in a quick 2-thread run on
// an idle machine 194 of the optimized set's 330 results were noisy, against 22 without ATen
// beside it and 25 with GOMP_SPINCOUNT=0 (which slows ATen instead). So each repetition first
// waits until no other thread of the process is running; a set's own workers, woken by its first
// call, then cost it one wake-up per repetition, as they would in its own program. The wait
// stops at 20 ms: OpenBLAS's workers (ATen's GEMMs) spin 103 ms after a call, and waiting them
// out left ATen's next repetition with workers woken beside its calling thread (mm 128^3: 55
// instead of 30 us, unflagged); the results they disturb are flagged by waited_share instead.
void settle_other_threads() {
  for (int step = 0; step < 200 && other_threads_running(); ++step) {
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
}

}  // namespace ts::perf
