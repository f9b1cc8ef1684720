//===- LinalgPipeline.cpp - posenc-to-linalg-pipeline ---------------------===//

#include "posenc/Pipelines/LinalgPipeline.h"

#include "posenc/Conversion/Passes.h"
#include "posenc/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::posenc;

void mlir::posenc::buildPosEncToLinalgPipeline(
    OpPassManager &pm, const PosEncLoweringOptions &options) {
  OpPassManager &nested =
      options.anchor.empty() ? pm.nestAny() : pm.nest(options.anchor);
  if (options.foldFrequencies)
    nested.addPass(createPosEncFoldFrequencies());
  nested.addPass(createConvertPosEncToLinalg());
  if (options.cleanup) {
    nested.addPass(createCanonicalizerPass());
    nested.addPass(createCSEPass());
  }
}

namespace {
/// The textual form of PosEncLoweringOptions.
struct LinalgPipelineOptions : PassPipelineOptions<LinalgPipelineOptions> {
  PassOptions::Option<std::string> anchor{
      *this, "anchor",
      llvm::cl::desc("Op the passes nest on ('' = every isolated-from-above "
                     "child op)"),
      llvm::cl::init("func.func")};
  PassOptions::Option<bool> foldFrequencies{
      *this, "fold-frequencies",
      llvm::cl::desc("Fold static frequency tables before lowering"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> cleanup{
      *this, "cleanup",
      llvm::cl::desc("Run canonicalize and cse after lowering"),
      llvm::cl::init(true)};
};
} // namespace

void mlir::posenc::registerPosEncToLinalgPipeline() {
  PassPipelineRegistration<LinalgPipelineOptions>(
      "posenc-to-linalg-pipeline",
      "Lower posenc to linalg on tensors and stop (the entry point for hosts "
      "with their own codegen)",
      [](OpPassManager &pm, const LinalgPipelineOptions &cl) {
        PosEncLoweringOptions options;
        options.anchor = cl.anchor;
        options.foldFrequencies = cl.foldFrequencies;
        options.cleanup = cl.cleanup;
        buildPosEncToLinalgPipeline(pm, options);
      });
}
