//===- CPUPipeline.cpp - posenc-cpu-pipeline ------------------------------===//

#include "posenc/Pipelines/CPUPipeline.h"

#include "ModulePipeline.h"

#include "posenc/Pipelines/LinalgPipeline.h"
#include "posenc/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/Vector/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::posenc;

/// Tiles and vectorizes on tensors; the approximation marks what the
/// lowering reduced to [-pi, pi].
static void addTensorCodegen(OpPassManager &pm,
                             const CPUPipelineOptions &options) {
  // Importers emit `x ** 2` as math.fpowi with an i64 exponent; vectorized,
  // its exponent becomes a vector that llvm.intr.powi rejects. Constant
  // exponents become multiplies here.
  pm.addPass(math::createMathExpandOpsPass({{"fpowi"}}));
  pm.addNestedPass<func::FuncOp>(
      createPosEncTileAndVectorize(options.getTileAndVectorizeOptions()));
  if (options.approximateTrig || options.approximateExp) {
    PosEncApproximateTrigOptions approximate;
    approximate.trig = options.approximateTrig;
    approximate.exp = options.approximateExp;
    pm.addPass(createPosEncApproximateTrig(approximate));
  }
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

/// Buffers: destinations expanded so that the kernels write the caller's
/// buffers in place, partial writes in the form upstream bufferizes
/// correctly, self-copies folded, temporaries freed.
static void addBufferization(OpPassManager &pm,
                             const CPUPipelineOptions &options) {
  pm.addPass(createPosEncExpandDestinations());
  pm.addPass(bufferization::createEmptyTensorEliminationPass());
  pm.addPass(createPosEncExpandPartialWrites());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  pm.addPass(createCanonicalizerPass());
  // Before deallocation: buffers in scratch memory are never freed.
  if (options.workgroups)
    pm.addNestedPass<func::FuncOp>(createPosEncAllocsToScratch());
  bufferization::buildBufferDeallocationPipeline(pm);
  pm.addPass(createConvertBufferizationToMemRefPass());
  pm.addPass(createConvertLinalgToLoopsPass());
}

/// Blocks become OpenMP work items (or sequential loops); vectors are
/// lowered to unrolled transfers; large outputs are streamed.
static void addLoopsAndVectors(OpPassManager &pm,
                               const CPUPipelineOptions &options) {
  if (options.workgroups) {
    pm.addNestedPass<func::FuncOp>(createPosEncForallToWorkgroups());
    pm.addNestedPass<func::FuncOp>(createForallToForLoopPass());
  } else if (options.openmp) {
    pm.addNestedPass<func::FuncOp>(createForallToParallelLoopPass());
    pm.addPass(createConvertSCFToOpenMPPass());
  } else {
    pm.addNestedPass<func::FuncOp>(createForallToForLoopPass());
  }
  pm.addPass(createCanonicalizerPass());
  // Upstream's lowering, except for odd lane counts (LLVM 22 x86 fault).
  pm.addNestedPass<func::FuncOp>(createPosEncLowerMultiReductions());
  pm.addNestedPass<func::FuncOp>(vector::createLowerVectorMaskPass());
  VectorTransferToSCFOptions transfers;
  transfers.enableFullUnroll();
  pm.addPass(createConvertVectorToSCFPass(transfers));
  pm.addPass(createLowerAffinePass());
  if (options.nontemporalStores)
    pm.addNestedPass<func::FuncOp>(
        createPosEncNontemporalStores(options.getNontemporalStoresOptions()));
}

static void addLLVMLowering(OpPassManager &pm,
                            const CPUPipelineOptions &options) {
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  // Before upstream's vector lowering, which reads i1 memrefs (bytes) as
  // bit-packed vectors.
  pm.addPass(createPosEncLowerI1VectorMemory());
  // Contractions (register tiles of rows x lanes) become outer products:
  // one broadcast-FMA per row and reduction step.
  ConvertVectorToLLVMPassOptions vectorToLLVM;
  vectorToLLVM.vectorContractLowering =
      vector::VectorContractLowering::OuterProduct;
  vectorToLLVM.vectorTransposeLowering =
      vector::VectorTransposeLowering::Shuffle16x16;
  // x86vector.avx512.dot (bf16 attention scores) to its LLVM intrinsic.
  vectorToLLVM.x86Vector = options.attentionBF16DotProducts;
  pm.addPass(createConvertVectorToLLVMPass(vectorToLLVM));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::posenc::buildCPUPipeline(OpPassManager &pm,
                                    const CPUPipelineOptions &options) {
  // Inlined first, so that results land in the caller's destinations.
  pm.addPass(createInlinerPass());
  // posenc -> linalg on tensors as posenc-to-linalg-pipeline by default,
  // every attention fused (no min-scores), its blocks on OpenMP threads.
  LinalgLoweringSteps lowering;
  if (options.flashAttention) {
    lowering.attention = options.getTileAttentionOptions();
  }
  addPosEncToLinalgSteps(pm.nest(func::FuncOp::getOperationName()), lowering);
  addTensorCodegen(pm, options);
  addBufferization(pm, options);
  addLoopsAndVectors(pm, options);
  addLLVMLowering(pm, options);
}

void mlir::posenc::registerCPUPipeline() {
  registerModulePipeline<CPUPipelineOptions>(
      "posenc-cpu-pipeline",
      "Lower posenc (and linalg on tensors) to vectorized, OpenMP-threaded "
      "LLVM dialect code for the host CPU",
      buildCPUPipeline);
}
