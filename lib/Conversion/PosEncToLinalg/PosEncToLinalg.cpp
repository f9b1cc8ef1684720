//===- PosEncToLinalg.cpp - the convert-posenc-to-linalg pass -------------===//

#include "Patterns.h"

#include "posenc/Conversion/Passes.h"
#include "posenc/IR/PosEncDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "convert-posenc-to-linalg"

namespace mlir {
namespace posenc {
#define GEN_PASS_DEF_CONVERTPOSENCTOLINALG
#include "posenc/Conversion/Passes.h.inc"
} // namespace posenc
} // namespace mlir

using namespace mlir;
using namespace mlir::posenc;

void mlir::posenc::populatePosEncToLinalgPatterns(RewritePatternSet &patterns) {
  populateFrequencyLoweringPatterns(patterns);
  populateRotaryLoweringPatterns(patterns);
  populateAlibiLoweringPatterns(patterns);
  populateSinusoidalLoweringPatterns(patterns);
  populateLearnedAbsoluteLoweringPatterns(patterns);
  populateAttentionLoweringPatterns(patterns);
}

namespace {
struct ConvertPosEncToLinalgPass
    : posenc::impl::ConvertPosEncToLinalgBase<ConvertPosEncToLinalgPass> {
  using Base::Base;

  void runOnOperation() override {
    ConversionTarget target(getContext());
    target.addIllegalDialect<PosEncDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    RewritePatternSet patterns(&getContext());
    populatePosEncToLinalgPatterns(patterns);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns)))) {
      LDBG() << "a posenc op was not lowered (its pattern's reason: "
                "-debug-only=dialect-conversion)";
      signalPassFailure();
    }
  }
};
} // namespace
