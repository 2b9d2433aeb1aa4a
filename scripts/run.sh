#!/usr/bin/env bash
# The main job: set up, build, list the ops, run the reference self-check and a quick perf run.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
bin="build/${TS_PRESET:-default}/tools/touchstone"
"$bin" --version
"$bin" ops
"$bin" selfcheck
# A quick perf run: the optimized and reference sets side by side over the benchmark catalog with
# the roofline probes (about a minute on 2 cores); prints the summary per op family.
"$bin" bench --quick --quiet --report "build/${TS_PRESET:-default}/perf-quick.json"
