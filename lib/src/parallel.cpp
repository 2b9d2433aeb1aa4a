// parallel_for on OpenMP; see parallel.h.
#include "touchstone/parallel.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <exception>

#include "touchstone/environment.h"
#include "touchstone/error.h"
#include "touchstone/op_scope.h"

namespace ts {
namespace {

constexpr long kMaxThreads = 4096;

std::atomic<int>& num_threads() {
  static std::atomic<int> n = [] {
    const int procs = std::max(1, omp_get_num_procs());
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

void detail::parallel_run(int64_t begin, int64_t end, int64_t grain,
                          const std::function<void(int64_t, int64_t)>& f) {
  const int64_t n = end - begin;
  const int64_t max_chunks = (n + grain - 1) / std::max<int64_t>(grain, 1);
  const int nthreads = static_cast<int>(std::min<int64_t>(get_num_threads(), max_chunks));
  std::exception_ptr error;
  std::atomic<bool> failed{false};
  const char* user_op = detail::user_op;  // workers' errors name the caller's op too
#pragma omp parallel num_threads(nthreads)
  {
    const int tid = omp_get_thread_num();
    const int nt = omp_get_num_threads();
    const int64_t chunk = (n + nt - 1) / nt;
    const int64_t b = begin + tid * chunk;
    const int64_t e = std::min(end, b + chunk);
    if (b < e) {
      const UserOpScope scope(user_op);
      tls_in_parallel = true;
      try {
        f(b, e);
      } catch (...) {
        if (!failed.exchange(true)) error = std::current_exception();
      }
      tls_in_parallel = false;
    }
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace ts
