//===- RaisePipeline.cpp - posenc-raise-pipeline --------------------------===//

#include "posenc/Pipelines/RaisePipeline.h"

#include "posenc/Raising/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::posenc;

void mlir::posenc::buildRaisePipeline(OpPassManager &pm,
                                      const RaisePipelineOptions &options) {
  // Under a module (or `any`), the passes run on its functions: any op, or
  // `anchor`. Nested in a function-like op (`func.func(posenc-raise-
  // pipeline)`), they run on that op itself: nesting again would reach
  // nothing.
  StringRef on = pm.getOpAnchorName();
  bool onModule = on == ModuleOp::getOperationName() ||
                  on == OpPassManager::getAnyOpAnchorName();
  OpPassManager &nested = !onModule ? pm
                          : options.anchor.getValue().empty()
                              ? pm.nestAny()
                              : pm.nest(options.anchor.getValue());
  // Importers repeat identical producers (one tensor.empty or slice per
  // use); CSE lets the patterns compare values instead of structures.
  nested.addPass(createPosEncUnifyDynamicDims());
  nested.addPass(createCSEPass());
  nested.addPass(createPosEncRaiseRotary({options.printStats}));
  nested.addPass(createPosEncRaiseAlibi({options.printStats}));
  nested.addPass(createPosEncRaiseAbsolute({options.printStats}));
  nested.addPass(createCSEPass());
  nested.addPass(createPosEncRaiseAttention(
      {options.zeroPaddingRows, options.printStats}));
  if (options.fuse)
    nested.addPass(createPosEncFuseAttention({options.printStats}));
  nested.addPass(createCanonicalizerPass());
  nested.addPass(createCSEPass());
}

void mlir::posenc::registerRaisePipeline() {
  PassPipelineRegistration<RaisePipelineOptions>(
      "posenc-raise-pipeline",
      "Raise the positional encodings and attention of importer IR "
      "(linalg on tensors) into posenc ops, fused",
      [](OpPassManager &pm, const RaisePipelineOptions &options) {
        buildRaisePipeline(pm, options);
      });
}
