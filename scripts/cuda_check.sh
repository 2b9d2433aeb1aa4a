#!/usr/bin/env bash
# The CUDA set's checks on a GPU machine, in one call (issue 20; optimized/cuda/README.md):
# the CUDA tests (also on the forced 64-bit path), compute-sanitizer, conformance of the whole
# catalog on the device, the benchmark catalog on the device (and the permuted 4-D add on the
# forced 64-bit path), and PyTorch CUDA on the same cases when python3 has torch.
#
#   scripts/cuda_check.sh [BUILD_DIR] [OUT_DIR]      (defaults: build/cuda, cuda-check)
#
# BUILD_DIR holds tools/touchstone, lib/ and tests/test_cuda* (a `cuda` preset build, or a
# bundle made by scripts/cuda_bundle.sh). Each step has its own time limit (STEP_PERCENT
# scales them, in percent), writes its log under OUT_DIR and goes on after a failure; the summary
# is last. SANITIZE=0 skips compute-sanitizer; CONFORM_FLAGS and BENCH_FLAGS add flags to the
# conformance and benchmark runs (--ops ..., --repetitions 3).
set -u
build=${1:-build/cuda}
out=${2:-cuda-check}
scale=${STEP_PERCENT:-100}
mkdir -p "$out"
log() { echo "[$(date +%T)] $*" | tee -a "$out/summary.txt"; }
limit() { echo $(( $1 * scale / 100 )); }
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | tr ' ' _)
gpu=${gpu:-unknown_gpu}
nvidia-smi >"$out/nvidia-smi.txt" 2>&1
log "gpu: $gpu"
ts=$build/tools/touchstone
missing=$(ldd "$ts" | grep "not found")
[ -n "$missing" ] && log "missing libraries: $missing"
export TOUCHSTONE_KERNELS=optimized

# 1. The CUDA tests, all at once (one GPU, several contexts), and test_cuda_ops on 64-bit paths,
#    side by side with steps 2 and 3.
pids=()
for t in "$build"/tests/test_cuda*; do
  [ -x "$t" ] || continue
  n=$(basename "$t")
  timeout "$(limit 120)" "$t" --gtest_output="xml:$out/$n.xml" >"$out/$n.log" 2>&1 &
  pids+=($!)
done
TOUCHSTONE_CUDA_FORCE_64BIT_INDEX=1 timeout "$(limit 120)" "$build/tests/test_cuda_ops" \
  --gtest_output="xml:$out/test_cuda_ops_64bit.xml" >"$out/test_cuda_ops_64bit.log" 2>&1 &
pids+=($!)

# 2. compute-sanitizer, side by side with steps 1 and 3: memcheck (out of bounds, misaligned,
#    leaks) over the device test files but the 2^31-element split, racecheck (shared memory) over
#    the block reductions and row kernels.
if [ "${SANITIZE:-1}" = 1 ] && command -v compute-sanitizer >/dev/null; then
  for n in test_cuda_reduce test_cuda_nn test_cuda_index test_cuda_ops test_cuda; do
    timeout "$(limit 150)" compute-sanitizer --tool memcheck --print-limit 20 "$build/tests/$n" \
      --gtest_filter=-*MoreThan2To31* >"$out/memcheck_$n.log" 2>&1 &
    pids+=($!)
  done
  for n in test_cuda_reduce test_cuda_nn; do
    timeout "$(limit 150)" compute-sanitizer --tool racecheck --print-limit 20 "$build/tests/$n" \
      >"$out/racecheck_$n.log" 2>&1 &
    pids+=($!)
  done
fi

# 3. Conformance of the whole catalog on the device, in shards side by side: isolated (a crash or
#    a poisoned context costs one group), and in process on the forced 64-bit path.
shards=${SHARDS:-8}
for i in $(seq 1 "$shards"); do
  timeout "$(limit 150)" "$ts" conform --kernels optimized --device cuda --quiet --isolate ${CONFORM_FLAGS:-} \
    --timeout 30 --shard "$i/$shards" --report "$out/conform-$i.json" >"$out/conform-$i.log" 2>&1 &
  pids+=($!)
  TOUCHSTONE_CUDA_FORCE_64BIT_INDEX=1 timeout "$(limit 150)" "$ts" conform --kernels optimized \
    --device cuda --quiet ${CONFORM_FLAGS:-} --shard "$i/$shards" --report "$out/conform64-$i.json" \
    >"$out/conform64-$i.log" 2>&1 &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
for f in "$out"/test_cuda*.log; do
  log "$(basename "$f" .log): $(grep -E '^\[  (PASSED|FAILED)  \]|tests? ran' "$f" | tr '\n' ' ')"
  grep -E '^\[  FAILED  \] [A-Za-z]' "$f" | sort -u | head -40 >>"$out/summary.txt"
done
for f in "$out"/conform-*.log "$out"/conform64-*.log; do
  log "$(basename "$f" .log): $(tail -3 "$f" | tr '\n' ' ')"
done
for f in "$out"/memcheck_*.log "$out"/racecheck_*.log; do
  [ -f "$f" ] && log "$(basename "$f" .log): $(grep -E 'SUMMARY|PASSED|FAILED  \]' "$f" | tr '\n' ' ')"
done

# 4. Launch shapes of the vectorized float32 add against the device copy (perf/cuda_add_variants.cu).
if [ -x "$build/tools/cuda_add_variants" ]; then
  timeout "$(limit 30)" "$build/tools/cuda_add_variants" >"$out/add_variants.log" 2>&1
  log "add variants: $(tr '\n' ';' <"$out/add_variants.log")"
fi

# 5. The benchmark catalog on the device (alone: timings), then add on the forced 64-bit path.
timeout "$(limit 120)" "$ts" bench --device cuda --kernels optimized --quiet ${BENCH_FLAGS:-} \
  --report "$out/bench-cuda-$gpu.json" >"$out/bench.log" 2>&1
log "bench: $(tail -4 "$out/bench.log" | tr '\n' ' ')"
TOUCHSTONE_CUDA_FORCE_64BIT_INDEX=1 timeout "$(limit 30)" "$ts" bench --device cuda \
  --kernels optimized --ops add --quiet --no-probes ${BENCH_FLAGS:-} \
  --report "$out/bench-cuda-64bit-$gpu.json" >"$out/bench64.log" 2>&1
log "bench 64-bit add: $(tail -2 "$out/bench64.log" | tr '\n' ' ')"

# 6. PyTorch CUDA on the cases the report holds (perf/torch_cuda_compare.py).
if python3 -c 'import torch; assert torch.cuda.is_available()' 2>/dev/null; then
  timeout "$(limit 60)" python3 "$(dirname "$0")/../perf/torch_cuda_compare.py" \
    "$out/bench-cuda-$gpu.json" "$out/torch-cuda-$gpu.json" >"$out/torch.log" 2>&1
  log "torch: $(tail -2 "$out/torch.log" | tr '\n' ' ')"
fi
log "done"
