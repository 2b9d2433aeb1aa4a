// ts::parallel_for on touchstone's thread pool: every index once, errors from any thread, a busy
// pool, a forked child, and a caller that does not wait for a worker that never starts.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "touchstone/error.h"
#include "touchstone/parallel.h"

namespace {

struct ThreadCount {
  explicit ThreadCount(int n) : saved_(ts::get_num_threads()) { ts::set_num_threads(n); }
  ~ThreadCount() { ts::set_num_threads(saved_); }
  int saved_;
};

// Counts how often each index of [0, n) is visited.
std::vector<int> visits(int64_t n, int64_t grain) {
  std::vector<std::atomic<int>> seen(static_cast<size_t>(n));
  ts::parallel_for(0, n, grain, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) seen[static_cast<size_t>(i)].fetch_add(1);
  });
  std::vector<int> out;
  for (auto& s : seen) out.push_back(s.load());
  return out;
}

TEST(ThreadPool, EveryIndexIsVisitedOnceForAnyThreadCountAndSize) {
  for (int threads : {1, 2, 3, 8, 2}) {  // the pool grows to 7 workers, then jobs use 1
    const ThreadCount tc(threads);
    for (int64_t n : {1, 2, 7, 1000, 100003}) {
      for (int64_t grain : {1, 64, 4096}) {
        const std::vector<int> v = visits(n, grain);
        for (int64_t i = 0; i < n; ++i) {
          ASSERT_EQ(v[static_cast<size_t>(i)], 1) << "index " << i << " of " << n << ", grain "
                                                  << grain << ", " << threads << " threads";
        }
      }
    }
  }
}

TEST(ThreadPool, ManyBackToBackJobsEachCompleteBeforeTheNextStarts) {
  const ThreadCount tc(4);
  int64_t total = 0;
  for (int job = 0; job < 2000; ++job) {
    std::atomic<int64_t> sum{0};
    ts::parallel_for(0, 64, 1, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) sum.fetch_add(i);
    });
    total += sum.load();  // 0 + 1 + ... + 63 = 2016 when the job is complete
  }
  EXPECT_EQ(total, int64_t{2000} * 2016);
}

TEST(ThreadPool, AWorkersErrorReachesTheCaller) {
  const ThreadCount tc(2);
  for (int64_t failing : {int64_t{0}, int64_t{999}}) {  // the caller's piece, then the last one
    try {
      ts::parallel_for(0, 1000, 1, [&](int64_t b, int64_t e) {
        if (b <= failing && failing < e) TS_CHECK(false, "piece with index ", failing);
      });
      FAIL() << "no error";
    } catch (const ts::Error& e) {
      EXPECT_EQ(std::string(e.what()), "piece with index " + std::to_string(failing));
    }
    EXPECT_FALSE(ts::in_parallel_region());
    EXPECT_EQ(visits(1000, 1), std::vector<int>(1000, 1));  // the pool still works
  }
}

TEST(ThreadPool, TwoCallersAtOnceBothGetEveryIndex) {
  const ThreadCount tc(2);
  std::vector<int> a, b;
  std::thread other([&] {
    for (int i = 0; i < 200; ++i) a = visits(5000, 1);
  });
  for (int i = 0; i < 200; ++i) b = visits(5000, 1);
  other.join();
  EXPECT_EQ(a, std::vector<int>(5000, 1));
  EXPECT_EQ(b, std::vector<int>(5000, 1));
}

TEST(ThreadPool, TheCallerDoesTheWorkOfAWorkerThatIsLate) {
  // A piece that blocks until the caller has done every other piece: with fixed assignment of
  // pieces to threads this would deadlock; claimed pieces let the caller finish them.
  const ThreadCount tc(2);
  std::atomic<int> done{0};
  std::atomic<bool> timed_out{false};
  ts::parallel_for(0, 8, 1, [&](int64_t b, int64_t e) {
    if (b == 0) {
      const auto start = std::chrono::steady_clock::now();
      while (done.load() < 7) {
        if (std::chrono::steady_clock::now() - start > std::chrono::seconds(5)) {
          timed_out = true;
          break;
        }
        std::this_thread::yield();
      }
    }
    done.fetch_add(static_cast<int>(e - b));
  });
  EXPECT_EQ(done.load(), 8);
  EXPECT_FALSE(timed_out.load()) << "the other pieces waited for the thread holding piece 0";
}

TEST(ThreadPool, CountsTheJobsOfferedToWorkersAndThoseTheyMissed) {
  // Two pieces, one a thread: the caller's waits until the worker has run the other, so the
  // worker takes its offer (within 5 s) and nothing is withdrawn. One offer per worker per job.
  const ThreadCount tc(2);
  const ts::detail::PoolCounts before = ts::detail::pool_counts();
  std::atomic<bool> ran{false};
  ts::parallel_for(0, 2, 1, [&](int64_t b, int64_t) {
    if (b != 0) {
      ran = true;
      return;
    }
    const auto start = std::chrono::steady_clock::now();
    while (!ran.load() && std::chrono::steady_clock::now() - start < std::chrono::seconds(5)) {
      std::this_thread::yield();
    }
  });
  EXPECT_TRUE(ran.load());
  const ts::detail::PoolCounts after = ts::detail::pool_counts();
  EXPECT_EQ(after.offered - before.offered, 1u);
  EXPECT_EQ(after.withdrawn - before.withdrawn, 0u);
  for (int i = 0; i < 10; ++i) (void)visits(1000, 10);
  const ts::detail::PoolCounts last = ts::detail::pool_counts();
  EXPECT_EQ(last.offered - after.offered, 10u);
  EXPECT_LE(last.withdrawn - after.withdrawn, 10u);
}

TEST(ThreadPool, AForkedChildRunsParallelJobsOfItsOwn) {
  const ThreadCount tc(2);
  ASSERT_EQ(visits(10000, 1), std::vector<int>(10000, 1));  // the parent's workers exist
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    // The child has none of the parent's worker threads; a job must not wait for them.
    const bool ok = visits(10000, 1) == std::vector<int>(10000, 1);
    ::_exit(ok ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

}  // namespace
