#!/usr/bin/env bash
# Packs a `cuda` preset build for a GPU machine that lacks this project's build dependencies:
# tools/touchstone, libtouchstone, the CUDA test binaries, and the shared libraries they load
# from this machine's packages (OpenBLAS, Highway, MPFR, ...). Not packed: glibc, libstdc++,
# libgcc, and the CUDA libraries (libcuda comes with the driver, cuBLAS with the toolkit there).
#
#   scripts/cuda_bundle.sh [BUILD_DIR] [BUNDLE.tar.xz]     (defaults: build/cuda, cuda-bundle.tar.xz)
#
# There: tar xJf BUNDLE.tar.xz; LD_LIBRARY_PATH=$PWD/b/lib:/usr/local/cuda/lib64 \
#        scripts/cuda_check.sh b OUT_DIR
set -eu
build=${1:-build/cuda}
bundle=${2:-cuda-bundle.tar.xz}
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/b/tools" "$stage/b/tests" "$stage/b/lib"
cp "$build/tools/touchstone" "$stage/b/tools/"
# perf/cuda_add_variants.cu, when built beside it (its header says how)
[ -x "$build/tools/cuda_add_variants" ] && cp "$build/tools/cuda_add_variants" "$stage/b/tools/"
cp "$build"/tests/test_cuda* "$stage/b/tests/"
rm -f "$stage"/b/tests/*.cmake
cp -P "$build"/lib/libtouchstone.so* "$stage/b/lib/"
for f in "$stage"/b/tools/* "$stage"/b/tests/* "$build/lib/libtouchstone.so"; do
  ldd "$f" | awk '/=> \// {print $3}'
done | sort -u | grep -vE '/(libc|libm|libmvec|libstdc\+\+|libgcc_s|libpthread|libdl|librt|ld-linux[^/]*|libcuda|libcublas[^/]*|libcudart)\.so' |
  grep -v "$build" | while read -r lib; do cp -L "$lib" "$stage/b/lib/"; done
strip --strip-unneeded "$stage"/b/tools/* "$stage"/b/tests/* "$stage"/b/lib/* 2>/dev/null || true
tar cJf "$bundle" -C "$stage" b
ls -la "$bundle"
