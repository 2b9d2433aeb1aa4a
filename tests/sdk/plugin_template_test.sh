#!/usr/bin/env bash
# The plug-in author's path, as a new user follows it (docs/kernels.md, plugins/README.md):
# install the build into a temporary prefix, check every installed header compiles on its own
# against that prefix, build examples/plugin_template with find_package(touchstone) and with
# pkg-config, build the C test plug-in with the installed C header, then load them into the
# *installed* `touchstone` for conform and bench.
# Usage: plugin_template_test.sh BUILD_DIR SOURCE_DIR CXX
set -euo pipefail
build=$1 src=$2 cxx=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix

echo "sdk: install"; cmake --install "$build" --prefix "$prefix" >/dev/null
test -x "$prefix/bin/touchstone"
ls "$prefix"/lib/libtouchstone.so.0.1 >/dev/null  # the SONAME (Note [Library version])
test -f "$prefix/lib/cmake/touchstone/touchstoneConfigVersion.cmake"
# Private headers stay private: only lib/include/touchstone is installed.
test "$(find "$prefix/include" -mindepth 1 -maxdepth 1)" = "$prefix/include/touchstone"

# Each public header on its own, against the installed tree only.
# shellcheck disable=SC2016  # the script's $1..$3 are sh -c's own arguments
find "$prefix/include/touchstone" -name '*.h' -print0 | xargs -0 -n 1 -P 2 sh -c \
  'printf "#include \"touchstone/%s\"\n" "${3##*/}" |
     "$1" -std=c++20 -fsyntax-only -x c++ -I"$2/include" - || { echo "not self-contained: $3"; exit 255; }' \
  sh "$cxx" "$prefix"
echo '#include "touchstone/c_plugin.h"' | cc -std=c99 -pedantic -Werror -fsyntax-only -x c \
  -I"$prefix/include" -

# The template with CMake's find_package ...
cmake -S "$src/examples/plugin_template" -B "$tmp/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$tmp/build" >/dev/null
plugin=$tmp/build/libtouchstone_template.so
# ... and with pkg-config (the same source, a plain compiler line).
PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --exact-version=0.1.0 touchstone
# shellcheck disable=SC2046
"$cxx" -shared -fPIC -o "$tmp/pc_plugin.so" "$src/examples/plugin_template/template_plugin.cpp" \
  $(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags --libs touchstone)

ts=$prefix/bin/touchstone
"$ts" conform --plugin "$plugin" --kernels template --ops add,mul,exp,sum \
  --dtypes float32,float64 --report "$tmp/conform.json" | tail -n 2
# relu's gradient runs gt, copy_'s zeros the overwritten self with fill_: ops the template
# leaves to other sets, so these two are checked forward only.
"$ts" conform --plugin "$plugin" --kernels template --ops relu,copy_ --dtypes float32,float64 \
  --no-grad | tail -n 1
"$ts" conform --plugin "$tmp/pc_plugin.so" --kernels template --ops relu --dtypes float32 --no-grad |
  tail -n 1
# A C plug-in needs the installed C header only (touchstone/c_plugin.h), no C++ at all.
cc -std=c99 -shared -fPIC -o "$tmp/c_plugin.so" "$src/tests/plugins/c_plugin.c" \
  -I"$prefix/include" -lm
"$ts" conform --plugin "$tmp/c_plugin.so" --kernels c_plugin --ops add --dtypes float32 |
  tail -n 1
# A dtype the set leaves unregistered is an error naming op, dtype, device and set.
if "$ts" conform --plugin "$plugin" --kernels template --ops add --dtypes int32 >"$tmp/gap.txt"; then
  echo "conform passed a dtype the template has no kernel for"
  exit 1
fi
grep -q "add: kernel set 'template' has no kernel for dtype int32 on device cpu" "$tmp/gap.txt" ||
  { cat "$tmp/gap.txt"; exit 1; }
"$ts" bench --plugin "$plugin" --kernels template,reference --ops add,sum --quick --no-probes \
  --quiet | tail -n 3
echo "sdk: OK"
