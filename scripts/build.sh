#!/usr/bin/env bash
# Configures (once) and builds posenc into ${POSENC_BUILD_DIR:-build}.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${POSENC_BUILD_DIR:-build}
LLVM_PREFIX=/usr/lib/llvm-22

if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -G Ninja -S . -B "$BUILD_DIR" \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=$LLVM_PREFIX/lib/cmake/mlir \
    -DLLVM_DIR=$LLVM_PREFIX/lib/cmake/llvm \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DLLVM_USE_LINKER=lld \
    -DMLIR_LINK_MLIR_DYLIB=ON \
    -DLLVM_EXTERNAL_LIT=$LLVM_PREFIX/bin/lit \
    -DPython3_EXECUTABLE="$(command -v python3)" \
    "$@"
fi
ninja -C "$BUILD_DIR" all mlir-doc
