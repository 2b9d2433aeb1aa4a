// Target-independent helpers of the optimized CPU kernels; see elementwise.h.
#include "optimized/cpu/elementwise.h"

#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <string>

#include "touchstone/environment.h"
#include "touchstone/parallel.h"

namespace ts::cpu {

TensorIterator elementwise_iter(const KernelCall& c, bool cast_output) {
  TensorIteratorConfig config;
  config.add_output(c.outputs[0]);
  for (const Tensor& t : c.inputs) config.add_input(t);
  // Meta already checked overlap and dtypes; the inputs arrive expanded to the output's shape.
  return config.check_mem_overlap(false)
      .declare_common_dtype(c.p.compute_dtype)
      .cast_common_dtype_to_outputs(cast_output)
      .build();
}

namespace {

// Note [The LLC a VM reports]
// sysfs's index3 gives the cache this CPU shares with its neighbours (32 MiB on a Zen 5 CCD).
// Some VMs hide it, and then sysconf answers from CPUID leaf 0x80000006, which the hypervisor
// fills with the socket's total: 320 MiB on one EPYC VM, 508 MiB on another, neither usable by
// one core. With 508 MiB, no catalog output streamed: a 2-thread add of 16M float32 took 2.98
// ms stored, 2.61 ms streamed. sysfs may say the same: an Emerald Rapids VM of 2 vCPUs reports
// the socket's 260 MiB, which its neighbours share; its outputs of 64 MiB streamed took 1.4-2.4x
// less time (1 thread: add 14.5 -> 10.3 ms, copy_ 10.7 -> 4.1, neg 11.9 -> 4.8). So the
// threshold is at most 32 MiB, from either source.
int64_t llc_bytes() {
  constexpr int64_t kCap = int64_t{32} << 20;
  std::ifstream f("/sys/devices/system/cpu/cpu0/cache/index3/size");
  std::string text;
  if (f >> text && !text.empty()) {
    const int64_t v = std::strtoll(text.c_str(), nullptr, 10);
    const char unit = text.back();
    if (v > 0) return std::min(kCap, unit == 'K' ? v << 10 : unit == 'M' ? v << 20 : v);
  }
  const long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
  return l3 > 0 ? std::min(int64_t{l3}, kCap) : kCap;
}

// The smallest output streamed: the LLC's size, or none with TOUCHSTONE_STREAMING_STORES=0 (to
// measure them). Twice the LLC once kept constant_pad_nd's 35 MiB fill in cache for the copy that
// followed; it fills only the border now, and outputs between one and two LLCs gained from
// streaming: diff of 4096^2 at 2 threads 3.7-6.2 -> 2.4 ms, the paddings 1.7-3.3 -> 1.3-1.5
// (Note [Streaming stores]). Read before main, so a bad value is reported as Note [Environment
// errors] asks.
const int64_t kStreamThreshold =
    detail::env_switch("TOUCHSTONE_STREAMING_STORES") ? llc_bytes() : INT64_MAX;

}  // namespace

// Note [Streaming stores]
bool stream_output(int64_t bytes) {
  return bytes >= kStreamThreshold;
}

void stream_fence() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_sfence();
#endif
}

// Note [One fence per piece]
// Streamed stores are fenced once per parallel piece, before the pool's completion flag, not per
// 2-D chunk: an iteration of more than two dims calls the body per chunk (kron 16 x 256: 16 rows
// of 1 KiB), and its 4096 fences a call made kron slower streamed than through the cache (2.8
// against 2.4 ms at 1 thread).
void for_each_streamed(const TensorIterator& iter, bool stream, TensorIterator::loop2d_t body) {
  const auto piece = [&](int64_t b, int64_t e) {
    iter.serial_for_each(body, {b, e});
    if (stream) stream_fence();
  };
  const int64_t n = iter.numel();
  if (n == 0) return;
  if (n < 32768 || get_num_threads() == 1 || in_parallel_region()) {  // as TensorIterator::for_each
    piece(0, n);
  } else {
    parallel_for(0, n, 32768, piece);
  }
}

}  // namespace ts::cpu
