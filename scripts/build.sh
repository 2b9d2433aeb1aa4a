#!/usr/bin/env bash
# Configures and builds one preset (default: $TS_PRESET or "default").
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${TS_PRESET:-default}"
scripts/setup.sh
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset"
