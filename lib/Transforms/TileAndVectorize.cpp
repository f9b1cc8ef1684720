//===- TileAndVectorize.cpp - the posenc-tile-and-vectorize pass ----------===//

#include "posenc/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace posenc {
#define GEN_PASS_DEF_POSENCTILEANDVECTORIZE
#include "posenc/Transforms/Passes.h.inc"
} // namespace posenc
} // namespace mlir

using namespace mlir;
using namespace mlir::posenc;

namespace {

/// Tile sizes of `op`: 1 on parallel dims, `width` (capped by a static
/// extent) on the innermost parallel dim, 0 (untiled) on reductions.
SmallVector<int64_t> chooseTileSizes(linalg::LinalgOp op, int64_t width) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<int64_t> sizes(ranges.size(), 0);
  int64_t innermostParallel = -1;
  for (auto [i, it] : llvm::enumerate(iterators)) {
    if (it != utils::IteratorType::parallel)
      continue;
    sizes[i] = 1;
    innermostParallel = i;
  }
  if (innermostParallel >= 0) {
    int64_t extent = ranges[innermostParallel];
    sizes[innermostParallel] =
        ShapedType::isDynamic(extent) ? width : std::min(width, extent);
  }
  return sizes;
}

/// Vector sizes of a tile: the tile sizes, and the full (static) extent of
/// untiled dims. Empty when a reduction extent is dynamic.
SmallVector<int64_t> vectorSizesOf(linalg::LinalgOp tiled,
                                   ArrayRef<int64_t> tileSizes) {
  SmallVector<int64_t> ranges = tiled.getStaticLoopRanges();
  SmallVector<int64_t> sizes;
  for (auto [range, tile] : llvm::zip_equal(ranges, tileSizes)) {
    if (tile != 0) {
      sizes.push_back(tile);
      continue;
    }
    if (ShapedType::isDynamic(range))
      return {};
    sizes.push_back(range);
  }
  return sizes;
}

struct PosEncTileAndVectorizePass
    : posenc::impl::PosEncTileAndVectorizeBase<PosEncTileAndVectorizePass> {
  using Base::Base;

  void runOnOperation() override {
    FunctionOpInterface func = getOperation();
    MLIRContext *ctx = &getContext();
    if (vectorWidth <= 0) {
      func.emitError("vector-width must be positive");
      return signalPassFailure();
    }
    SmallVector<linalg::LinalgOp> targets;
    func.walk([&](linalg::LinalgOp op) {
      if (op.hasPureTensorSemantics() && op.getNumLoops() > 0)
        targets.push_back(op);
    });

    IRRewriter rewriter(ctx);
    SmallVector<std::pair<linalg::LinalgOp, SmallVector<int64_t>>> tiles;
    for (linalg::LinalgOp op : targets) {
      SmallVector<int64_t> tileSizes = chooseTileSizes(op, vectorWidth);
      rewriter.setInsertionPoint(op);
      scf::SCFTilingOptions options;
      options.setTileSizes(getAsIndexOpFoldResult(ctx, tileSizes));
      options.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
      FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
          rewriter, cast<TilingInterface>(op.getOperation()), options);
      if (failed(tiled)) {
        // Leave the op whole: it still lowers, just without vectors.
        continue;
      }
      rewriter.replaceOp(op, tiled->replacements);
      for (Operation *tiledOp : tiled->tiledOps)
        if (auto linalgOp = dyn_cast<linalg::LinalgOp>(tiledOp))
          tiles.emplace_back(linalgOp, tileSizes);
    }

    for (auto &[op, tileSizes] : tiles) {
      SmallVector<int64_t> vectorSizes = vectorSizesOf(op, tileSizes);
      if (vectorSizes.empty())
        continue;
      rewriter.setInsertionPoint(op);
      SmallVector<bool> scalable(vectorSizes.size(), false);
      FailureOr<linalg::VectorizationResult> result =
          linalg::vectorize(rewriter, op, vectorSizes, scalable,
                            /*vectorizeNDExtract=*/true);
      if (failed(result))
        continue; // stays scalar; still correct
      rewriter.replaceOp(op, result->replacements);
    }

    // Cleanup, staged: mixing canonicalization with shape-cast lowering in
    // one greedy rewrite can loop forever.
    {
      RewritePatternSet patterns(ctx);
      tensor::populateFoldTensorSubsetIntoVectorTransferPatterns(patterns);
      vector::populateVectorReductionToContractPatterns(patterns);
      vector::populateSinkVectorOpsPatterns(patterns);
      vector::TransferReadOp::getCanonicalizationPatterns(patterns, ctx);
      vector::TransferWriteOp::getCanonicalizationPatterns(patterns, ctx);
      if (failed(applyPatternsGreedily(func, std::move(patterns))))
        return signalPassFailure();
    }
    {
      RewritePatternSet patterns(ctx);
      vector::populateDropUnitDimWithShapeCastPatterns(patterns);
      vector::populateVectorTransferDropUnitDimsPatterns(patterns);
      if (failed(applyPatternsGreedily(func, std::move(patterns))))
        return signalPassFailure();
    }
  }
};

} // namespace
