//===- Passes.cpp - C API of posenc passes and pipelines ------------------===//

#include "posenc-c/Passes.h"

#include "posenc/InitPosEnc.h"
#include "posenc/Pipelines/LinalgPipeline.h"

#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

void mlirPosEncRegisterPasses(void) { posenc::registerPosEncPasses(); }

MlirLogicalResult mlirPosEncAddPipeline(MlirOpPassManager passManager,
                                        MlirStringRef pipelineText,
                                        MlirStringCallback errorCallback,
                                        void *userData) {
  posenc::registerPosEncPasses();
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  LogicalResult result = parsePassPipeline(unwrap(pipelineText),
                                           *unwrap(passManager), errorStream);
  if (failed(result) && errorCallback)
    errorCallback(wrap(llvm::StringRef(errors)), userData);
  return wrap(result);
}

MlirPosEncLoweringOptions mlirPosEncLoweringOptionsGetDefault(void) {
  static const posenc::PosEncLoweringOptions defaults;
  MlirPosEncLoweringOptions options;
  options.anchor = wrap(llvm::StringRef(defaults.anchor.getValue()));
  options.foldFrequencies = defaults.foldFrequencies;
  options.cleanup = defaults.cleanup;
  options.flashAttention = defaults.flashAttention;
  return options;
}

void mlirPosEncBuildToLinalgPipeline(MlirOpPassManager passManager,
                                     MlirPosEncLoweringOptions options) {
  posenc::PosEncLoweringOptions cppOptions;
  cppOptions.anchor = unwrap(options.anchor).str();
  cppOptions.foldFrequencies = options.foldFrequencies;
  cppOptions.cleanup = options.cleanup;
  cppOptions.flashAttention = options.flashAttention;
  posenc::buildPosEncToLinalgPipeline(*unwrap(passManager), cppOptions);
}
