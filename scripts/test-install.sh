#!/usr/bin/env bash
# Tests posenc as an installed package: installs the build into a temporary
# prefix, configures and builds examples/host-compiler against it
# (find_package(MLIR) + find_package(PosEnc)), then runs the consumer's
# host-opt and host-capi on examples/host-compiler/smoke.mlir (FileCheck) and
# the installed plugin in stock mlir-opt. Ends with "test-install: PASS".
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${POSENC_BUILD_DIR:-build}
LLVM_PREFIX=/usr/lib/llvm-22
FILECHECK=$LLVM_PREFIX/bin/FileCheck

work=$(mktemp -d "${TMPDIR:-/tmp}/posenc-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
log=$work/log
fail() {
  echo "test-install: FAIL: $1"
  [ -f "$log" ] && tail -n 40 "$log"
  exit 1
}

echo "test-install: installing $BUILD_DIR into a temporary prefix"
cmake --install "$BUILD_DIR" --prefix "$prefix" >"$log" 2>&1 || fail "cmake --install"
for f in lib/cmake/PosEnc/PosEncConfig.cmake lib/cmake/PosEnc/PosEncTargets.cmake \
         include/posenc/InitPosEnc.h include/posenc/IR/PosEncOps.h.inc \
         include/posenc/Codegen/Emitters.h lib/libPosEncCodegen.a \
         include/posenc-c/Dialects.h lib/libPosEncIR.a lib/PosEncPlugin.so \
         bin/posenc-opt; do
  [ -e "$prefix/$f" ] || fail "$f is not installed"
done
# The package must not point back into the source or build tree.
if grep -rlF -e "$(pwd)" "$prefix/lib/cmake/PosEnc" >/dev/null; then
  fail "lib/cmake/PosEnc refers to $(pwd)"
fi

echo "test-install: building examples/host-compiler against the package"
cmake -G Ninja -S examples/host-compiler -B "$work/build" \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" \
  -DMLIR_DIR=$LLVM_PREFIX/lib/cmake/mlir \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld >"$log" 2>&1 || fail "configure"
ninja -C "$work/build" >"$log" 2>&1 || fail "build"

echo "test-install: a consumer of posenc/Codegen/Emitters.h (PosEnc::PosEncCodegen)"
# The public numerics emitters are for lowerings outside posenc (a GPU one):
# their header and library must work from the package alone.
mkdir -p "$work/emitters"
cat >"$work/emitters/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(emitters-consumer LANGUAGES CXX)
set(CMAKE_CXX_STANDARD 17)
find_package(MLIR REQUIRED CONFIG)
find_package(PosEnc REQUIRED CONFIG)
separate_arguments(defs NATIVE_COMMAND ${LLVM_DEFINITIONS})
add_executable(emitters-consumer main.cpp)
target_include_directories(emitters-consumer SYSTEM PRIVATE
  ${LLVM_INCLUDE_DIRS} ${MLIR_INCLUDE_DIRS})
target_compile_definitions(emitters-consumer PRIVATE ${defs})
if(NOT LLVM_ENABLE_RTTI)
  target_compile_options(emitters-consumer PRIVATE -fno-rtti)
endif()
target_link_libraries(emitters-consumer PRIVATE PosEnc::PosEncCodegen MLIR)
CMAKE
cat >"$work/emitters/main.cpp" <<'CPP'
#include "posenc/Codegen/Emitters.h"
#include "posenc/IR/PosEncDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

// cos/sin of position * inv_freq as a GPU kernel body would emit them.
int main() {
  MLIRContext ctx;
  ctx.loadDialect<arith::ArithDialect, func::FuncDialect, math::MathDialect,
                  posenc::PosEncDialect>();
  OpBuilder b(&ctx);
  Location loc = b.getUnknownLoc();
  auto module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module.getBody());
  Type f32 = b.getF32Type();
  auto fn = func::FuncOp::create(
      b, loc, "cos_sin",
      b.getFunctionType({b.getI64Type(), f32, f32}, {f32, f32}));
  b.setInsertionPointToStart(fn.addEntryBlock());
  auto [cos, sin] =
      posenc::emitCosSin(b, loc, fn.getArgument(0), fn.getArgument(1),
                         fn.getArgument(2));
  func::ReturnOp::create(b, loc, ValueRange{cos, sin});
  if (failed(verify(module)))
    return 1;
  module.print(llvm::outs());
  module.erase();
  return 0;
}
CPP
cmake -G Ninja -S "$work/emitters" -B "$work/emitters/build" \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" \
  -DMLIR_DIR=$LLVM_PREFIX/lib/cmake/mlir \
  -DCMAKE_CXX_COMPILER=clang++-22 \
  -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld >"$log" 2>&1 || fail "configure the emitters consumer"
ninja -C "$work/emitters/build" >"$log" 2>&1 || fail "build the emitters consumer"
"$work/emitters/build/emitters-consumer" 2>"$log" |
  grep -q 'math.cos .*{posenc.reduced_angle}' || fail "emitters consumer"

echo "test-install: smoke tests"
smoke=examples/host-compiler/smoke.mlir
"$work/build/host-opt" "$smoke" --host-pipeline 2>"$log" |
  "$FILECHECK" "$smoke" || fail "host-opt --host-pipeline"
"$work/build/host-capi" "$smoke" 2>"$log" |
  "$FILECHECK" "$smoke" || fail "host-capi"
"$work/build/host-opt" --show-dialects 2>"$log" |
  "$FILECHECK" examples/host-compiler/dialects.txt || fail "host-opt dialects"
plugin=$prefix/lib/PosEncPlugin.so
"$LLVM_PREFIX/bin/mlir-opt" "$smoke" --load-dialect-plugin="$plugin" \
  --load-pass-plugin="$plugin" \
  --pass-pipeline="builtin.module(posenc-to-linalg-pipeline)" 2>"$log" |
  "$FILECHECK" "$smoke" || fail "installed plugin in mlir-opt"
echo "test-install: PASS"
