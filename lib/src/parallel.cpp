// parallel_for on touchstone's own thread pool; see parallel.h and Note [Waiting on a shared
// machine] below.
#include "touchstone/parallel.h"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "touchstone/environment.h"
#include "touchstone/error.h"
#include "touchstone/op_scope.h"

namespace ts {
namespace {

constexpr long kMaxThreads = 4096;

// The CPUs this process may run on (taskset and cgroup cpusets included).
int available_cpus() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) return std::max(1, CPU_COUNT(&set));
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

std::atomic<int>& num_threads() {
  static std::atomic<int> n = [] {
    const int procs = available_cpus();
    const char* env = std::getenv("TOUCHSTONE_NUM_THREADS");
    if (env == nullptr || *env == '\0') return procs;
    char* end = nullptr;
    errno = 0;
    const long v = std::strtol(env, &end, 10);
    if (errno != 0 || *end != '\0' || v < 1 || v > kMaxThreads) {
      detail::add_environment_error(detail::str_cat(
          "TOUCHSTONE_NUM_THREADS='", env, "': expected a whole number of threads from 1 to ",
          kMaxThreads, "; using ", procs, " (one per core)"));
      return procs;
    }
    return static_cast<int>(v);
  }();
  return n;
}

thread_local bool tls_in_parallel = false;

// Note [Waiting on a shared machine]
// A fork-join pool must decide how a thread waits: for the next job (workers) or for the last
// worker (the caller). Spinning forever (libgomp's default, OMP_WAIT_POLICY=active) is fastest
// on an idle machine but, when other processes compete for the cores, a spinning thread burns
// the time slice the thread it waits for needs: `touchstone bench --quick --threads 2` with four
// busy loops beside it took 12.0 ms for every case (a 1M-element add that takes 90 us idle).
// Sleeping at once (passive) costs a futex wake-up per job: the idle add went from 90 to 139
// us. So a waiter here spins for kSpin, yielding now and then, and then sleeps on a futex
// (std::atomic::wait): back-to-back jobs never sleep, and a descheduled partner costs at most
// kSpin of spinning. Figures: perf/README.md, "Waiting on a shared machine".
constexpr auto kSpin = std::chrono::microseconds(50);

// Spins until pred() holds or kSpin has passed; true if it holds.
template <class Pred>
bool spin_until(const Pred& pred) {
  const auto start = std::chrono::steady_clock::now();
  for (int i = 1;; ++i) {
    if (pred()) return true;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
    if (i % 256 == 0) {
      if (std::chrono::steady_clock::now() - start > kSpin) return pred();
      sched_yield();  // lets a descheduled partner on this core run
    }
  }
}

// Note [Pieces in streams]
// The pieces are dealt out as one contiguous stretch per thread (the caller's first, then each
// worker's); a thread claims pieces from the front of its own stretch, then from the others'
// (a late or descheduled thread's share is still taken piece by piece). Claiming from one
// shared counter made the threads jump between stretches: a 2-thread fill of 64 MiB in 8 pieces
// ran at a median of 0.86-1.19 ms against 0.75-0.88 in 2; in stretches, 0.71-0.76 ms.

// Note [Claimed pieces]
// A job is cut into pieces that the caller and the workers it offers the job to claim one at a
// time. The caller never waits for a worker that has not started: when it runs out of pieces
// it withdraws every offer not yet taken (a compare-exchange on the worker's flag: the worker
// takes an offer by the same exchange, so exactly one of them wins) and waits only for workers
// that took the job. On a loaded machine a descheduled worker then costs nothing: the caller
// does its pieces.
class Pool {
 public:
  // Never destroyed: workers may outlive static teardown. A child of fork() has none of the
  // parent's workers, so it starts a pool of its own (conform --isolate forks).
  static Pool& get() {
    static std::once_flag once;
    std::call_once(once, [] {
      instance = new Pool();
      pthread_atfork(nullptr, nullptr, [] { instance = new Pool(); });
    });
    return *instance;
  }

  // Runs f over [begin, end) in pieces with up to `nthreads` threads; false if another
  // thread's job holds the pool (the caller then runs serially).
  bool run(int64_t begin, int64_t end, int64_t pieces, int nthreads,
           const std::function<void(int64_t, int64_t)>& f) {
    std::unique_lock<std::mutex> lock(mutex_, std::try_to_lock);
    if (!lock.owns_lock()) return false;
    while (static_cast<int>(workers_.size()) + 1 < nthreads) {
      auto w = std::make_unique<Worker>();
      w->stream = static_cast<int>(workers_.size()) + 1;
      w->thread = std::thread([this, p = w.get()] { work(*p); });
      workers_.push_back(std::move(w));
    }
    if (nthreads > stream_capacity_) {  // no job runs: no thread reads streams_
      streams_ = std::make_unique<Stream[]>(static_cast<size_t>(nthreads));
      stream_capacity_ = nthreads;
    }
    const int64_t piece = (end - begin + pieces - 1) / pieces;
    job_ =
        Job{&f, begin, end, piece, nthreads, (pieces + nthreads - 1) / nthreads, detail::user_op};
    for (int i = 0; i < nthreads; ++i) streams_[i].next.store(0, std::memory_order_relaxed);
    finished_.store(0, std::memory_order_relaxed);
    error_ = nullptr;
    generation_ += 2;
    const uint32_t offer = generation_ | 1;  // odd: offered; even: taken or idle
    for (int i = 0; i + 1 < nthreads; ++i) {
      Worker& w = *workers_[i];
      w.flag.store(offer);  // seq_cst, as the worker's `sleeping` store before its check
      if (w.sleeping.load()) w.flag.notify_one();
    }
    run_pieces(0);
    int taken = 0, awake = 0;
    for (int i = 0; i + 1 < nthreads; ++i) {
      uint32_t expected = offer;
      if (!workers_[i]->flag.compare_exchange_strong(expected, 0)) {
        ++taken;
      } else if (!workers_[i]->sleeping.load(std::memory_order_relaxed)) {
        ++awake;  // spinning, yet it did not see the offer: it was off its core
      }
    }
    offered_.fetch_add(static_cast<uint64_t>(nthreads - 1), std::memory_order_relaxed);
    withdrawn_.fetch_add(static_cast<uint64_t>(nthreads - 1 - taken), std::memory_order_relaxed);
    withdrawn_awake_.fetch_add(static_cast<uint64_t>(awake), std::memory_order_relaxed);
    const auto done = [&] { return finished_.load(std::memory_order_acquire) == taken; };
    if (!spin_until(done)) {
      caller_sleeping_.store(true);
      for (int n = finished_.load(); n != taken; n = finished_.load()) finished_.wait(n);
      caller_sleeping_.store(false);
    }
    if (error_) std::rethrow_exception(error_);
    return true;
  }

  detail::PoolCounts counts() const {
    return {offered_.load(std::memory_order_relaxed), withdrawn_.load(std::memory_order_relaxed),
            withdrawn_awake_.load(std::memory_order_relaxed)};
  }

 private:
  struct Job {
    const std::function<void(int64_t, int64_t)>* f = nullptr;
    int64_t begin = 0, end = 0, piece = 0;
    int streams = 1;         // one per thread (Note [Pieces in streams])
    int64_t per_stream = 0;  // pieces
    const char* user_op = nullptr;
  };
  struct Worker {
    std::thread thread;
    std::atomic<uint32_t> flag{0};  // an offered job (odd), or idle / taken (even)
    std::atomic<bool> sleeping{false};
    int stream = 0;  // its stretch of a job's pieces (Note [Pieces in streams])
  };
  struct alignas(64) Stream {
    std::atomic<int64_t> next{0};  // the stream's next unclaimed piece
  };

  // Claims and runs pieces until none is left: stream `own` first, then the others'.
  void run_pieces(int own) {
    const UserOpScope scope(job_.user_op);  // workers' errors name the caller's op too
    tls_in_parallel = true;
    for (int t = 0; t < job_.streams; ++t) {
      const int s = (own + t) % job_.streams;
      for (int64_t j;
           (j = streams_[s].next.fetch_add(1, std::memory_order_relaxed)) < job_.per_stream;) {
        const int64_t b = job_.begin + (s * job_.per_stream + j) * job_.piece;
        if (b >= job_.end) break;
        try {
          (*job_.f)(b, std::min(job_.end, b + job_.piece));
        } catch (...) {
          const std::lock_guard<std::mutex> g(error_mutex_);
          if (!error_) error_ = std::current_exception();
        }
      }
    }
    tls_in_parallel = false;
  }

  [[noreturn]] void work(Worker& w) {
    for (;;) {
      uint32_t v = w.flag.load(std::memory_order_acquire);
      if ((v & 1) == 0) {
        const auto offered = [&] { return ((v = w.flag.load(std::memory_order_acquire)) & 1); };
        if (!spin_until(offered)) {
          w.sleeping.store(true);
          while (!offered()) w.flag.wait(v);
          w.sleeping.store(false);
        }
      }
      if (!w.flag.compare_exchange_strong(v, v + 1)) continue;  // the caller withdrew it
      run_pieces(w.stream);
      finished_.fetch_add(1);  // seq_cst, as the caller's `caller_sleeping_` store before its check
      if (caller_sleeping_.load()) finished_.notify_one();
    }
  }

  static inline Pool* instance = nullptr;
  std::mutex mutex_;  // held by the thread whose job runs
  std::vector<std::unique_ptr<Worker>> workers_;
  Job job_;
  uint32_t generation_ = 0;
  std::unique_ptr<Stream[]> streams_;
  int stream_capacity_ = 0;
  std::atomic<int> finished_{0};  // workers that took the job and are done with it
  std::atomic<bool> caller_sleeping_{false};
  std::atomic<uint64_t> offered_{0}, withdrawn_{0}, withdrawn_awake_{0};  // detail::pool_counts
  std::mutex error_mutex_;
  std::exception_ptr error_;
};

}  // namespace

int get_num_threads() {
  return num_threads().load(std::memory_order_relaxed);
}

void set_num_threads(int n) {
  TS_CHECK(n > 0 && n <= kMaxThreads, "set_num_threads: expected a number of threads from 1 to ",
           kMaxThreads, ", got ", n);
  num_threads() = n;
}

bool in_parallel_region() {
  return tls_in_parallel;
}

detail::PoolCounts detail::pool_counts() {
  return Pool::get().counts();
}

void detail::parallel_run(int64_t begin, int64_t end, int64_t grain,
                          const std::function<void(int64_t, int64_t)>& f) {
  const int64_t n = end - begin;
  const int64_t max_chunks = (n + grain - 1) / std::max<int64_t>(grain, 1);
  const int nthreads = static_cast<int>(std::min<int64_t>(get_num_threads(), max_chunks));
  // Up to 4 pieces a thread, so a late worker's share is picked up in small steps.
  const int64_t pieces = std::min<int64_t>(max_chunks, int64_t{4} * nthreads);
  if (nthreads > 1 && Pool::get().run(begin, end, pieces, nthreads, f)) return;
  // One chunk, or the pool is busy with another thread's job: run here, as a nested call does.
  tls_in_parallel = true;
  try {
    f(begin, end);
  } catch (...) {
    tls_in_parallel = false;
    throw;
  }
  tls_in_parallel = false;
}

}  // namespace ts
