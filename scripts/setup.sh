#!/usr/bin/env bash
# Installs the Debian packages touchstone needs, when missing. Idempotent; silent when all present.
set -euo pipefail

packages=(cmake ninja-build g++ git libgtest-dev libgmock-dev libbenchmark-dev libopenblas-dev
  nlohmann-json3-dev libcli11-dev libhwy-dev libmpfr-dev ccache libtorch-dev libdnnl-dev
  ocl-icd-opencl-dev libxnnpack-dev libpthreadpool-dev clang-format
  clang libclang-rt-dev)  # the last two: the tsan preset (scripts/tsan.sh)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  echo "touchstone setup: missing packages: ${missing[*]}" >&2
  echo "run as root, or: sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
echo "touchstone setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
