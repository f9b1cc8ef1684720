//===- host-opt.cpp - a host compiler that embeds posenc ------------------===//
//
// Registers only the upstream dialects this host uses, plus posenc, and
// defines the host's own pipeline: posenc -> linalg on tensors (posenc's
// documented stopping point), then the host's own passes.
//
//===----------------------------------------------------------------------===//

#include "posenc/InitPosEnc.h"
#include "posenc/Pipelines/LinalgPipeline.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

static void buildHostPipeline(OpPassManager &pm) {
  posenc::PosEncLoweringOptions options;
  posenc::buildPosEncToLinalgPipeline(pm, options);
  // The host's own codegen would start here; this one only cleans up.
  pm.addPass(createSymbolDCEPass());
}

int main(int argc, char **argv) {
  registerTransformsPasses();
  posenc::registerPosEncPasses();
  PassPipelineRegistration<>(
      "host-pipeline", "posenc to linalg on tensors, then the host's passes",
      buildHostPipeline);

  DialectRegistry registry;
  registry.insert<arith::ArithDialect, func::FuncDialect, linalg::LinalgDialect,
                  tensor::TensorDialect>();
  posenc::registerPosEncDialects(registry);
  return asMainReturnCode(
      MlirOptMain(argc, argv, "host compiler with posenc\n", registry));
}
