#!/usr/bin/env bash
# The main job: set up, build, then list the ops and run the reference self-check.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
bin="build/${TS_PRESET:-default}/tools/touchstone"
"$bin" --version
"$bin" ops
"$bin" selfcheck
