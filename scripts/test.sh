#!/usr/bin/env bash
# Set up, build and run every test (ctest) for $TS_PRESET (default: "default").
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
ctest --preset "${TS_PRESET:-default}" -j "$(nproc)"
