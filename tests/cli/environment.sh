#!/usr/bin/env bash
# Bad TOUCHSTONE_* settings never abort the process (Note [Environment errors]): a command refuses
# to run (exit 2) naming the variable, `touchstone env` still runs and shows the problem.
# Usage: environment.sh TOUCHSTONE_BINARY
set -uo pipefail
ts=$1
fails=0
passes=0
check() {  # check NAME EXPECTED_RC PATTERN -- command...
  local name=$1 want=$2 pattern=$3
  shift 4
  local out rc
  out=$("$@" 2>&1)
  rc=$?
  if [ "$rc" != "$want" ] || ! grep -qE -- "$pattern" <<<"$out"; then
    echo "FAIL $name: exit $rc (want $want), output:"
    echo "$out" | head -20
    fails=$((fails + 1))
  else
    echo "ok   $name"
    passes=$((passes + 1))
  fi
}
check "unknown capability refuses ops" 2 \
  "TOUCHSTONE_CPU_CAPABILITY='avx9': set_capability: unknown CPU capability 'avx9'.*" -- \
  env TOUCHSTONE_CPU_CAPABILITY=avx9 "$ts" ops
check "unknown capability: the refusal names the command" 2 "refusing to run 'ops'" -- \
  env TOUCHSTONE_CPU_CAPABILITY=avx9 "$ts" ops
if "$ts" --help 2>&1 | grep -qE '^ +env( |$)'; then  # `env` comes with the perf library
  check "env runs with an unknown capability" 0 "TOUCHSTONE_CPU_CAPABILITY='avx9'" -- \
    env TOUCHSTONE_CPU_CAPABILITY=avx9 "$ts" env
fi
for bad in abc -3 0 2x 99999999999; do
  check "TOUCHSTONE_NUM_THREADS=$bad refuses selfcheck" 2 \
    "TOUCHSTONE_NUM_THREADS='$bad': expected a whole number of threads from 1 to 4096" -- \
    env TOUCHSTONE_NUM_THREADS=$bad "$ts" selfcheck
done
check "TOUCHSTONE_STREAMING_STORES=yes refuses ops" 2 \
  "TOUCHSTONE_STREAMING_STORES='yes': expected 1 \\(on, the default\\) or 0 \\(off\\); using 1" -- \
  env TOUCHSTONE_STREAMING_STORES=yes "$ts" ops
check "TOUCHSTONE_STREAMING_STORES=0 runs" 0 "ops" -- env TOUCHSTONE_STREAMING_STORES=0 "$ts" ops
check "a flag CLI11 refuses is exit 2" 2 "unknown-flag" -- "$ts" ops --unknown-flag
check "--help is exit 0" 0 "Usage" -- "$ts" ops --help
check "a good setting runs" 0 "ops" -- env TOUCHSTONE_NUM_THREADS=1 "$ts" ops
echo "$passes passed, $fails failed"
[ "$fails" -eq 0 ]
