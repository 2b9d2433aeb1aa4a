// The kernel counters behind the bench's noise tests (perf/interference.h), on this machine:
// threads made to share one core wait for it, a busy child process shows as another process's
// CPU time, and a spinning thread is seen running until it stops.
#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "perf/interference.h"

namespace {

using Clock = std::chrono::steady_clock;

void spin_for(std::chrono::milliseconds d) {
  const auto end = Clock::now() + d;
  while (Clock::now() < end) {
  }
}

// Spins until this process has used d of CPU time (at most 10 s of wall time): on a loaded
// machine a wall-clock spin of 300 ms got 0.15 s of CPU.
void spin_cpu_for(std::chrono::milliseconds d) {
  const auto cpu_s = [] {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
  };
  const double end = cpu_s() + 1e-3 * static_cast<double>(d.count());
  const auto deadline = Clock::now() + std::chrono::seconds(10);
  while (cpu_s() < end && Clock::now() < deadline) {
  }
}

// The first CPU this process may run on.
int first_allowed_cpu() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return -1;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &set)) return c;
  }
  return -1;
}

void pin(std::thread::native_handle_type t, int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  ASSERT_EQ(pthread_setaffinity_np(t, sizeof set, &set), 0);
}

// Two threads spinning 200 ms each on one core: each waits while the other runs, about 200 ms in
// all; the summed wait must be at least a third of that.
TEST(PerfInterference, ThreadsSharingOneCoreWaitForIt) {
  const double before = ts::perf::run_queue_wait_s();
  if (before < 0) GTEST_SKIP() << "this kernel keeps no /proc/self/task/*/schedstat";
  const int cpu = first_allowed_cpu();
  ASSERT_GE(cpu, 0);
  cpu_set_t saved;
  ASSERT_EQ(pthread_getaffinity_np(pthread_self(), sizeof saved, &saved), 0);
  pin(pthread_self(), cpu);
  std::thread other([&] { spin_for(std::chrono::milliseconds(200)); });
  pin(other.native_handle(), cpu);
  spin_for(std::chrono::milliseconds(200));
  other.join();
  const double waited = ts::perf::run_queue_wait_s() - before;
  ASSERT_EQ(pthread_setaffinity_np(pthread_self(), sizeof saved, &saved), 0);
  EXPECT_GT(waited, 0.066) << "seconds waited by two threads sharing one core for 200 ms";
  EXPECT_LT(waited, 10.0);
}

// A child spinning for 300 ms while this process sleeps: of the machine's N cores' time, about
// 1/N is the child's; at least a quarter of that must show (other jobs may share its core).
TEST(PerfInterference, ABusyChildIsAnotherProcessesCpuTime) {
  const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  ASSERT_GT(cpus, 0);
  const ts::perf::CpuTimes a = ts::perf::read_cpu_times();
  if (a.total <= 0) GTEST_SKIP() << "no /proc/stat";
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    spin_for(std::chrono::milliseconds(300));
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  const ts::perf::CpuTimes b = ts::perf::read_cpu_times();
  EXPECT_GT(ts::perf::others_pct(a, b), 25.0 / static_cast<double>(cpus));

  // This process spinning alone: its own busy time is taken off (on a busy machine others may
  // still show, so only the bound that holds anyway).
  const ts::perf::CpuTimes c = ts::perf::read_cpu_times();
  spin_cpu_for(std::chrono::milliseconds(300));
  const ts::perf::CpuTimes d = ts::perf::read_cpu_times();
  EXPECT_GT(d.self_s - c.self_s, 0.2);
  EXPECT_LE(ts::perf::others_pct(c, d), 100.0);
  EXPECT_GE(ts::perf::others_pct(c, d), 0.0);
}

// A spinning thread is running; settle_other_threads waits out its 20 ms for it. A thread asleep
// on a condition variable is not (a thread just woken or made may wait for a core in state R
// first, so the test polls for up to 2 s).
TEST(PerfInterference, ASpinningThreadIsSeenRunningUntilItStops) {
  std::atomic<bool> stop{false};
  std::thread spinner([&] {
    while (!stop.load(std::memory_order_relaxed)) {
    }
  });
  spin_for(std::chrono::milliseconds(20));
  EXPECT_TRUE(ts::perf::other_threads_running());
  auto t0 = Clock::now();
  ts::perf::settle_other_threads();
  EXPECT_GE(Clock::now() - t0, std::chrono::milliseconds(20));
  stop = true;
  spinner.join();

  std::mutex m;
  std::condition_variable cv;
  bool done = false;
  std::thread sleeper([&] {
    std::unique_lock<std::mutex> lock(m);
    cv.wait(lock, [&] { return done; });
  });
  bool seen_asleep = false;
  for (t0 = Clock::now(); !seen_asleep && Clock::now() - t0 < std::chrono::seconds(2);) {
    seen_asleep = !ts::perf::other_threads_running();
  }
  EXPECT_TRUE(seen_asleep);
  {
    std::lock_guard<std::mutex> lock(m);
    done = true;
  }
  cv.notify_one();
  sleeper.join();
}

}  // namespace
