#!/usr/bin/env bash
# scripts/fuzz.sh [SECONDS]: builds the `fuzz` preset (clang-14, libFuzzer, ASan + UBSan; or
# $TS_PRESET, e.g. ci-asan, which builds the same target with the tests) and runs the
# differential fuzzer for SECONDS (default 120) on fuzz/corpus. New inputs go to
# build/<preset>/fuzz-corpus (the repository's corpus is only read). On a finding: the input is
# saved under build/<preset>/fuzz-artifacts/, minimized (libFuzzer -minimize_crash=1), its
# program printed as one line, and the script exits 1. Exit 2 on a usage error. See
# fuzz/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-120}"
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -eq 0 ]; then
  echo "usage: scripts/fuzz.sh [SECONDS]   (a positive number of seconds, default 120)" >&2
  exit 2
fi

preset="${TS_PRESET:-fuzz}"
scripts/setup.sh
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" --target fuzz_ops_libfuzzer

bin=build/$preset/fuzz/fuzz_ops_libfuzzer
work=build/$preset/fuzz-corpus
artifacts=build/$preset/fuzz-artifacts
mkdir -p "$work" "$artifacts"
# allocator_may_return_null: an allocation too large for memory must throw ts::Error, not abort.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:allocator_may_return_null=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export LSAN_OPTIONS=suppressions=$PWD/scripts/lsan.supp

status=0
# TS_FUZZ_DETECT_LEAKS=0 skips LeakSanitizer's per-input check (to look for other findings
# while a known leak is open).
"$bin" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 -max_len=512 \
  -detect_leaks="${TS_FUZZ_DETECT_LEAKS:-1}" \
  -print_final_stats=1 -artifact_prefix="$artifacts/" "$work" fuzz/corpus || status=$?
if [ "$status" -eq 0 ]; then
  echo "fuzz.sh: no finding in ${seconds} s"
  exit 0
fi

crash=$(ls -t "$artifacts"/crash-* "$artifacts"/leak-* "$artifacts"/timeout-* "$artifacts"/oom-* \
  2>/dev/null | head -1 || true)
if [ -z "$crash" ]; then
  echo "fuzz.sh: libFuzzer exited with status $status and saved no input" >&2
  exit 1
fi
echo "fuzz.sh: FINDING: $crash (exit status $status); minimizing for 60 s"
"$bin" -minimize_crash=1 -max_total_time=60 -exact_artifact_path="$crash.min" "$crash" \
  >/dev/null 2>&1 || true
[ -s "$crash.min" ] || cp "$crash" "$crash.min"
echo "fuzz.sh: the minimized input's program, statement by statement, up to the finding:"
TS_FUZZ_TRACE=1 "$bin" "$crash.min" 2>&1 | grep -E '^fuzz: |ERROR|runtime error' | head -60 || true
echo "fuzz.sh: replay with: $bin $crash.min   (or: build/fuzz/fuzz/fuzz_ops --trace $crash.min)"
exit 1
