#!/usr/bin/env bash
# Builds the tsan preset (clang, -fsanitize=thread) and runs the threaded tests under
# ThreadSanitizer. Exit status: 0 when every test passes and TSan reports nothing, else nonzero.
# Extra arguments go to ctest (e.g. -R test_concurrency to run one test binary).
#
# Note [TSan and threads]
# ts::parallel_for runs on touchstone's own pool (lib/src/parallel.cpp): std::thread workers that
# hand jobs over through std::atomic flags and counters (wait/notify), all of which TSan sees, so
# it checks the real parallel path of our code with no runtime support. (Before, parallel_for was
# OpenMP, and TSan needed LLVM's libomp with its Archer tool to see libgomp-style barriers.)
# OpenBLAS is not instrumented: its worker threads' memory accesses are invisible to TSan, and
# ignore_noninstrumented_modules keeps the allocations and copies made inside it (intercepted
# calls) out of the race detector. Our own accesses to the matrices before and after a BLAS call
# are still checked.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake --preset tsan >/dev/null
cmake --build --preset tsan

export TSAN_OPTIONS="halt_on_error=0 second_deadlock_stack=1 ignore_noninstrumented_modules=1"

# The tests that run threads: the concurrency workload, the autograd engine (both kernel sets),
# the optimized reductions, binary ops and matmul (parallel_for, OpenBLAS), the dispatcher.
# (The build preset builds just these; ctest lists the others as *_NOT_BUILT.)
tests='^(Concurrency|(optimized\.)?AutogradEngine|OptimizedReduce|(Ops/)?OptimizedBinary(Op)?'
tests+='|Optimized(Addmm|Bmm|Dot|Mm|Mv|Outer)|Check|Dispatch|KernelSet[A-Za-z]*|OpTable|Plugin)\.'
ctest --test-dir build/tsan -R "$tests" -j 2 --output-on-failure "$@"
