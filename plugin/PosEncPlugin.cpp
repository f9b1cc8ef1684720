//===- PosEncPlugin.cpp - posenc as a plugin of stock mlir-opt ------------===//
//
//   mlir-opt --load-dialect-plugin=PosEncPlugin.so \
//            --load-pass-plugin=PosEncPlugin.so \
//            --pass-pipeline='builtin.module(posenc-to-linalg-pipeline)'
//
// The dialect entry point registers posenc's dialects, the pass entry point
// its passes and pipelines; both go through InitPosEnc so the plugin exposes
// exactly what posenc-opt does.
//
//===----------------------------------------------------------------------===//

#include "posenc/InitPosEnc.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"

#include "llvm/Support/Compiler.h"

using namespace mlir;

extern "C" LLVM_ATTRIBUTE_WEAK DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "PosEnc", POSENC_VERSION_STRING,
          [](DialectRegistry *registry) {
            posenc::registerPosEncDialects(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "PosEncPasses", POSENC_VERSION_STRING,
          []() { posenc::registerPosEncPasses(); }};
}
