//===- LinalgPipeline.cpp - posenc-to-linalg-pipeline ---------------------===//

#include "posenc/Pipelines/LinalgPipeline.h"

#include "ModulePipeline.h"

#include "posenc/Conversion/Passes.h"
#include "posenc/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::posenc;

void mlir::posenc::addPosEncToLinalgSteps(OpPassManager &nested,
                                          const LinalgLoweringSteps &steps) {
  if (steps.foldFrequencies)
    nested.addPass(createPosEncFoldFrequencies());
  if (steps.attention)
    nested.addPass(createPosEncTileAttention(*steps.attention));
  nested.addPass(createConvertPosEncToLinalg());
  if (steps.cleanup) {
    nested.addPass(createCanonicalizerPass());
    nested.addPass(createCSEPass());
  }
  // After the cleanup, whose scf.forall patterns make the shared outputs
  // static (their sizes are constants computed by the tiling); scf.for has
  // no such pattern for results with several uses (decode's partial
  // results), and IREE rejects the dynamic loop-carried tensors.
  if (steps.attention && steps.attentionForallToFor) {
    nested.addPass(createPosEncForallToFor());
    if (steps.cleanup) {
      nested.addPass(createCanonicalizerPass());
      nested.addPass(createCSEPass());
    }
  }
}

void mlir::posenc::buildPosEncToLinalgPipeline(
    OpPassManager &pm, const PosEncLoweringOptions &options) {
  OpPassManager &nested = options.anchor.getValue().empty()
                              ? pm.nestAny()
                              : pm.nest(options.anchor.getValue());
  LinalgLoweringSteps steps;
  steps.foldFrequencies = options.foldFrequencies;
  if (options.flashAttention) {
    steps.attention = options.getTileAttentionOptions();
    steps.attention->minScores = options.attentionMinScores;
  }
  steps.attentionForallToFor = options.attentionForallToFor;
  steps.cleanup = options.cleanup;
  addPosEncToLinalgSteps(nested, steps);
}

void mlir::posenc::buildPosEncToLinalgPipeline(OpPassManager &pm) {
  buildPosEncToLinalgPipeline(pm, PosEncLoweringOptions());
}

void mlir::posenc::registerPosEncToLinalgPipeline() {
  registerModulePipeline<PosEncLoweringOptions>(
      "posenc-to-linalg-pipeline",
      "Lower posenc to linalg on tensors and stop (the entry point for hosts "
      "with their own codegen)",
      [](OpPassManager &pm, const PosEncLoweringOptions &options) {
        buildPosEncToLinalgPipeline(pm, options);
      });
}
