#!/usr/bin/env bash
# The main job: set up, build, list the ops, run the self-check (the catalog's known answers on the
# reference set), the conformance suite of the optimized set and a quick perf run.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
bin="build/${TS_PRESET:-default}/tools/touchstone"
"$bin" --version
"$bin" ops
"$bin" selfcheck
# The optimized set against the reference over the whole catalog: forward and backward, every
# layout, in-place and out= (about half a minute on 2 cores); prints the summary per op family.
"$bin" conform --kernels optimized --quiet --report "build/${TS_PRESET:-default}/conform.json"
# A quick perf run: the optimized and reference sets side by side over the benchmark catalog with
# the roofline probes (about a minute on 2 cores); prints the summary per op family.
"$bin" bench --quick --quiet --report "build/${TS_PRESET:-default}/perf-quick.json"
