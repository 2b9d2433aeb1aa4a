#pragma once
// What the bench reads from the kernel to tell a clean timing from one another process disturbed
// (Note [Noisy cases] in perf/runner.h): the machine's CPU time by kind, this process's own, how
// long its threads waited for a core, and whether any of them is running.
#include <cstdint>

namespace ts::perf {

// The machine's CPU time from /proc/stat in clock ticks: all of it, the hypervisor's steal, and
// the busy part (user, nice, system, irq, softirq); this process's own CPU seconds (getrusage).
struct CpuTimes {
  double total = 0, steal = 0, busy = 0, self_s = 0;
};
CpuTimes read_cpu_times();

// % of the machine's CPU time between a and b that the hypervisor stole.
double steal_pct(const CpuTimes& a, const CpuTimes& b);

// % of the machine's CPU time between a and b that other processes used: busy time less this
// process's own, in [0, 100].
double others_pct(const CpuTimes& a, const CpuTimes& b);

// Times any thread of this process was descheduled because another task wanted its core.
int64_t involuntary_switches();

// Seconds the threads of this process have spent runnable but waiting for a core another task
// had (the second field of /proc/self/task/*/schedstat), summed; -1 where the kernel keeps none.
double run_queue_wait_s();

// Whether a thread of this process other than the calling one is running or runnable (state R).
bool other_threads_running();

// Waits, in steps of 100 us and for at most 20 ms, until other_threads_running() is false
// (Note [Other libraries' spinning workers] in interference.cpp).
void settle_other_threads();

}  // namespace ts::perf
