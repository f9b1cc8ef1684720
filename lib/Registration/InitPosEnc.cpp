//===- InitPosEnc.cpp - register everything posenc provides ---------------===//

#include "posenc/InitPosEnc.h"

#include "posenc/Conversion/Passes.h"
#include "posenc/GPU/Passes.h"
#include "posenc/IR/PosEncDialect.h"
#include "posenc/Pipelines/CPUPipeline.h"
#include "posenc/Pipelines/GPUPipeline.h"
#include "posenc/Pipelines/IreeInputPipeline.h"
#include "posenc/Pipelines/LinalgPipeline.h"
#include "posenc/Pipelines/RaisePipeline.h"
#include "posenc/Raising/Passes.h"
#include "posenc/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/IR/DialectRegistry.h"

void mlir::posenc::registerPosEncDialects(DialectRegistry &registry) {
  registry.insert<PosEncDialect, arith::ArithDialect, cf::ControlFlowDialect,
                  linalg::LinalgDialect, math::MathDialect,
                  tensor::TensorDialect>();
  // The raising patterns compare dynamic sizes through value bounds; hosts
  // that register only posenc's dialects (the plugin, the C API) get them.
  affine::registerValueBoundsOpInterfaceExternalModels(registry);
  arith::registerValueBoundsOpInterfaceExternalModels(registry);
  linalg::registerValueBoundsOpInterfaceExternalModels(registry);
  tensor::registerValueBoundsOpInterfaceExternalModels(registry);
}

void mlir::posenc::registerPosEncPasses() {
  // Hosts may reach this more than once (C API, plugin, their own init); a
  // pipeline registered twice is a fatal error.
  static const bool registered = [] {
    registerPosEncConversionPasses();
    registerPosEncTransformsPasses();
    registerPosEncGPUPasses();
    registerPosEncRaisingPasses();
    registerCPUPipeline();
    registerGPUPipeline();
    registerPosEncToLinalgPipeline();
    registerRaisePipeline();
    registerIreeInputPipeline();
    return true;
  }();
  (void)registered;
}
