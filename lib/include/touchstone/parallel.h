#pragma once
// ts::parallel_for on touchstone's own thread pool; never nests (an inner call runs serially on
// its thread), and waits as Note [Waiting on a shared machine] in parallel.cpp says.
// The thread count comes from TOUCHSTONE_NUM_THREADS or ts::set_num_threads.
#include <cstdint>
#include <functional>

namespace ts {

int get_num_threads();
void set_num_threads(int n);
bool in_parallel_region();

namespace detail {
void parallel_run(int64_t begin, int64_t end, int64_t grain,
                  const std::function<void(int64_t, int64_t)>& f);
// Since the process started: jobs offered to the pool's workers (one per worker per job); offers
// the caller withdrew because the worker had not started, running its pieces itself (Note
// [Claimed pieces] in parallel.cpp); and of those, the ones whose worker was awake, not asleep
// on its futex: another process had its core. The bench harness's noise test reads them.
struct PoolCounts {
  uint64_t offered = 0, withdrawn = 0, withdrawn_awake = 0;
};
PoolCounts pool_counts();
}  // namespace detail

// Calls f(chunk_begin, chunk_end) over [begin, end) split into chunks of at least `grain`
// elements. Chunk boundaries depend on the thread count; see parallel_for_fixed for reductions.
template <typename F>
void parallel_for(int64_t begin, int64_t end, int64_t grain, const F& f) {
  if (begin >= end) return;
  if (end - begin <= grain || in_parallel_region() || get_num_threads() == 1) {
    f(begin, end);
    return;
  }
  detail::parallel_run(begin, end, grain, f);
}

// Note [Fixed chunking]
// Calls f(chunk_index, chunk_begin, chunk_end) for chunks of exactly `chunk` elements (the last
// may be shorter), whatever the thread count: a reduction that combines per-chunk partials in
// chunk order gives bitwise identical results on 1, 2 or 64 threads.
template <typename F>
void parallel_for_fixed(int64_t begin, int64_t end, int64_t chunk, const F& f) {
  if (begin >= end) return;
  const int64_t nchunks = (end - begin + chunk - 1) / chunk;
  parallel_for(0, nchunks, 1, [&](int64_t c0, int64_t c1) {
    for (int64_t c = c0; c < c1; ++c) {
      const int64_t b = begin + c * chunk;
      f(c, b, std::min(end, b + chunk));
    }
  });
}

}  // namespace ts
