#!/usr/bin/env bash
# Builds the tsan preset (clang, -fsanitize=thread, libomp) and runs the threaded tests under
# ThreadSanitizer. Exit status: 0 when every test passes and TSan reports nothing, else nonzero.
# Extra arguments go to ctest (e.g. -R test_concurrency to run one test binary).
#
# Note [TSan and OpenMP]
# ts::parallel_for is OpenMP. GCC's libgomp is not built with TSan: its barriers synchronize
# through futexes and atomics TSan cannot see, so every write a worker makes before the
# region's end barrier looks racy against the caller's reads after it. LLVM's libomp instead
# reports its synchronization (barriers, region fork/join, locks) to TSan through Archer, an
# OMPT tool shipped with it (libarcher.so), so the preset builds with clang and libomp and
# loads Archer with OMP_TOOL_LIBRARIES: TSan then checks the real OpenMP path of our code.
# OpenBLAS is not instrumented: its worker threads' memory accesses are invisible to TSan, and
# ignore_noninstrumented_modules keeps the allocations and copies made inside it (intercepted
# calls) out of the race detector. Our own accesses to the matrices before and after a BLAS call
# are still checked.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake --preset tsan >/dev/null
cmake --build --preset tsan

# Archer from the libomp the build linked (Debian 12: /usr/lib/llvm-14/lib/libomp.so).
omp=$(sed -n 's/^OpenMP_omp_LIBRARY:FILEPATH=//p' build/tsan/CMakeCache.txt)
archer="$(dirname "$omp")/libarcher.so"
if [ ! -f "$archer" ]; then
  echo "tsan.sh: no Archer next to $omp (libomp-dev provides libarcher.so)" >&2
  exit 2
fi
export OMP_TOOL_LIBRARIES="$archer"
export TSAN_OPTIONS="halt_on_error=0 second_deadlock_stack=1 ignore_noninstrumented_modules=1"

# The tests that run threads: the concurrency workload, the autograd engine (both kernel sets),
# the optimized reductions, binary ops and matmul (parallel_for, OpenBLAS), the dispatcher.
# (The build preset builds just these; ctest lists the others as *_NOT_BUILT.)
tests='^(Concurrency|(optimized\.)?AutogradEngine|OptimizedReduce|(Ops/)?OptimizedBinary(Op)?'
tests+='|Optimized(Addmm|Bmm|Dot|Mm|Mv|Outer)|Check|Dispatch|KernelSet[A-Za-z]*|OpTable|Plugin)\.'
ctest --test-dir build/tsan -R "$tests" -j 2 --output-on-failure "$@"
