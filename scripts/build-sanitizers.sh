#!/usr/bin/env bash
# Configures and builds posenc with AddressSanitizer + UndefinedBehaviorSanitizer,
# assert() enabled in our code and the libFuzzer targets, into
# ${POSENC_ASAN_BUILD_DIR:-build-asan}. Used by scripts/test-sanitizers.sh and
# scripts/fuzz.sh. libMLIR.so itself stays uninstrumented (Debian's release
# build); every posenc library, tool and fuzz target is instrumented.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${POSENC_ASAN_BUILD_DIR:-build-asan}
LLVM_PREFIX=/usr/lib/llvm-22

# -O1 keeps the build quick on 2 cores; line tables give symbolized reports.
SAN_FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all"
SAN_FLAGS+=" -fno-omit-frame-pointer -gline-tables-only"
cmake -G Ninja -S . -B "$BUILD_DIR" -Wno-dev \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_FLAGS_RELEASE="-O1" -DCMAKE_CXX_FLAGS_RELEASE="-O1" \
  -DCMAKE_C_FLAGS="$SAN_FLAGS" -DCMAKE_CXX_FLAGS="$SAN_FLAGS" \
  -DPOSENC_ENABLE_ASSERTIONS=ON -DPOSENC_ENABLE_FUZZERS=ON \
  -DMLIR_DIR=$LLVM_PREFIX/lib/cmake/mlir \
  -DLLVM_DIR=$LLVM_PREFIX/lib/cmake/llvm \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DLLVM_USE_LINKER=lld \
  -DMLIR_LINK_MLIR_DYLIB=ON \
  -DLLVM_EXTERNAL_LIT=$LLVM_PREFIX/bin/lit \
  -DPython3_EXECUTABLE="$(command -v python3)" >/dev/null
ninja -C "$BUILD_DIR" all mlir-doc
