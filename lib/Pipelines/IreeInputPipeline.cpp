//===- IreeInputPipeline.cpp - posenc-iree-input-pipeline -----------------===//

#include "posenc/Pipelines/IreeInputPipeline.h"

#include "ModulePipeline.h"

#include "posenc/Pipelines/LinalgPipeline.h"
#include "posenc/Pipelines/RaisePipeline.h"
#include "posenc/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;
using namespace mlir::posenc;

void mlir::posenc::buildIreeInputPipeline(
    OpPassManager &pm, const IreeInputPipelineOptions &options) {
  pm.addPass(createPosEncWrapForeignFunctions());
  RaisePipelineOptions raise;
  raise.zeroPaddingRows = options.zeroPaddingRows;
  raise.printStats = options.printStats;
  buildRaisePipeline(pm.nest(func::FuncOp::getOperationName()), raise);
  // IREE compiles scf.for but not a tensor scf.forall outside its dispatch
  // regions: the lowering's default (attention-forall-to-for) keeps loops.
  buildPosEncToLinalgPipeline(pm);
  pm.addPass(createPosEncUnwrapForeignFunctions());
}

void mlir::posenc::registerIreeInputPipeline() {
  registerModulePipeline<IreeInputPipelineOptions>(
      "posenc-iree-input-pipeline",
      "Raise and fuse positional encodings and attention in IREE's input IR "
      "(util.func bodies, iree_linalg_ext.attention) and lower posenc to "
      "linalg, for iree-compile",
      buildIreeInputPipeline);
}
