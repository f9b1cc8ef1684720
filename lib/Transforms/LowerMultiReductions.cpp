//===- LowerMultiReductions.cpp - posenc-lower-multi-reductions -----------===//
//
// Upstream's multi-reduction lowering, with the reductions whose parallel
// lanes are not a power of two lowered inner-reduction: LLVM 22's x86
// SelectionDAG miscompiles the odd-width shuffles and reductions that
// inner-parallel gives them (docs/upstream-x86-shuffle-miscompile.md).
//
//===----------------------------------------------------------------------===//

#include "posenc/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace posenc {
#define GEN_PASS_DEF_POSENCLOWERMULTIREDUCTIONS
#include "posenc/Transforms/Passes.h.inc"
} // namespace posenc
} // namespace mlir

using namespace mlir;

namespace {

/// The number of lanes a multi-reduction keeps: the product of its
/// non-reduced dimensions (1 when it reduces them all).
int64_t parallelLanes(vector::MultiDimReductionOp op) {
  int64_t lanes = 1;
  for (auto [dim, reduced] : llvm::zip_equal(
           op.getSourceVectorType().getShape(), op.getReductionMask()))
    if (!reduced)
      lanes *= dim;
  return lanes;
}

struct LowerMultiReductionsPass
    : posenc::impl::PosEncLowerMultiReductionsBase<LowerMultiReductionsPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    SmallVector<Operation *> oddLanes;
    getOperation()->walk([&](vector::MultiDimReductionOp op) {
      if (op.getSourceVectorType().isScalable())
        return;
      if (!llvm::isPowerOf2_64(parallelLanes(op)))
        oddLanes.push_back(op);
    });
    if (!oddLanes.empty() &&
        lowering != vector::VectorMultiReductionLowering::InnerReduction) {
      RewritePatternSet patterns(context);
      vector::populateVectorMultiReductionLoweringPatterns(
          patterns, vector::VectorMultiReductionLowering::InnerReduction);
      // The multi-reductions the patterns create on the way (flattened,
      // transposed) are lowered the same way.
      GreedyRewriteConfig config;
      config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
      if (failed(
              applyOpPatternsGreedily(oddLanes, std::move(patterns), config)))
        return signalPassFailure();
    }
    RewritePatternSet patterns(context);
    vector::populateVectorMultiReductionLoweringPatterns(patterns, lowering);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
