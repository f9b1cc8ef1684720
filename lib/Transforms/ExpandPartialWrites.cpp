//===- ExpandPartialWrites.cpp - the posenc-expand-partial-writes pass ----===//
//
// Upstream's TransferWriteOp::bufferizesToMemoryRead pairs tensor and vector
// dimensions by position, so a rank-reducing or permuted write at zero
// indices can count as a full overwrite and lose its copy when it bufferizes
// out of place. Full-rank identity writes are judged correctly.
//
//===----------------------------------------------------------------------===//

#include "posenc/Transforms/Passes.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/ADT/STLExtras.h"

namespace mlir {
namespace posenc {
#define GEN_PASS_DEF_POSENCEXPANDPARTIALWRITES
#include "posenc/Transforms/Passes.h.inc"
} // namespace posenc
} // namespace mlir

using namespace mlir;

namespace {

/// Whether upstream (MLIR 22) takes `op` for a write of its whole tensor:
/// static shape, constant-zero indices, no mask, and each tensor dimension
/// at most the vector dimension at the same position.
bool upstreamTakesForFullOverwrite(vector::TransferWriteOp op,
                                   RankedTensorType tensor) {
  if (!tensor.hasStaticShape() || op.getMask())
    return false;
  if (!llvm::all_of(op.getIndices(),
                    [](Value index) { return isZeroInteger(index); }))
    return false;
  return llvm::all_of(
      llvm::zip(tensor.getShape(), op.getVectorType().getShape()),
      [](auto dims) { return std::get<0>(dims) <= std::get<1>(dims); });
}

/// The extent `op` writes along each tensor dimension (1 where no vector
/// dimension maps to it), from zero indices.
SmallVector<int64_t> getWrittenExtents(vector::TransferWriteOp op,
                                       RankedTensorType tensor) {
  SmallVector<int64_t> extents(tensor.getRank(), 1);
  AffineMap map = op.getPermutationMap();
  for (auto [i, size] : llvm::enumerate(op.getVectorType().getShape()))
    extents[map.getDimPosition(i)] = size;
  return extents;
}

struct ExpandPartialWrite : OpRewritePattern<vector::TransferWriteOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransferWriteOp op,
                                PatternRewriter &rewriter) const override {
    auto tensor = dyn_cast<RankedTensorType>(op.getShapedType());
    VectorType vectorType = op.getVectorType();
    if (!tensor || vectorType.isScalable() ||
        !op.getPermutationMap().isProjectedPermutation() ||
        !upstreamTakesForFullOverwrite(op, tensor))
      return rewriter.notifyMatchFailure(op, "upstream judges it correctly");
    SmallVector<int64_t> extents = getWrittenExtents(op, tensor);
    bool coversTensor =
        llvm::all_of(llvm::zip(tensor.getShape(), extents), [](auto dims) {
          return std::get<0>(dims) <= std::get<1>(dims);
        });
    if (coversTensor || tensor.getNumElements() == 0)
      return rewriter.notifyMatchFailure(op, "writes the whole tensor");

    // Vector dimensions in tensor-dimension order, then the unit dimensions
    // of the tensor dimensions no vector dimension maps to.
    AffineMap map = op.getPermutationMap();
    SmallVector<int64_t> order =
        llvm::to_vector(llvm::seq<int64_t>(0, vectorType.getRank()));
    llvm::sort(order, [&](int64_t a, int64_t b) {
      return map.getDimPosition(a) < map.getDimPosition(b);
    });
    Location loc = op.getLoc();
    Value vector = op.getVector();
    if (!llvm::equal(order, llvm::seq<int64_t>(0, vectorType.getRank())))
      vector = vector::TransposeOp::create(rewriter, loc, vector, order);
    auto fullType = VectorType::get(extents, vectorType.getElementType());
    vector = vector::ShapeCastOp::create(rewriter, loc, fullType, vector);

    SmallVector<bool> inBounds(tensor.getRank(), true);
    for (auto [i, inBound] : llvm::enumerate(op.getInBoundsValues()))
      inBounds[map.getDimPosition(i)] = inBound;
    rewriter.replaceOpWithNewOp<vector::TransferWriteOp>(
        op, vector, op.getBase(), op.getIndices(), ArrayRef<bool>(inBounds));
    return success();
  }
};

struct PosEncExpandPartialWritesPass
    : posenc::impl::PosEncExpandPartialWritesBase<
          PosEncExpandPartialWritesPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpandPartialWrite>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
