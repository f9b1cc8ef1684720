//===- TileAndVectorize.cpp - the posenc-tile-and-vectorize pass ----------===//

#include "posenc/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/TilingInterfaceImpl.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
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

/// Tile sizes of `op`: the `width` vector lanes go to the innermost parallel
/// dims (innermost first, each up to its static extent, e.g. 8 x 2 for an
/// interleaved [..., pairs, 2] view), 1 on the other parallel dims, 0
/// (untiled) on reductions.
SmallVector<int64_t> chooseTileSizes(linalg::LinalgOp op, int64_t width) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<int64_t> sizes(ranges.size(), 0);
  for (auto [i, it] : llvm::enumerate(iterators))
    if (it == utils::IteratorType::parallel)
      sizes[i] = 1;
  int64_t lanes = width;
  for (int64_t i = static_cast<int64_t>(ranges.size()) - 1; i >= 0 && lanes > 1;
       --i) {
    if (iterators[i] != utils::IteratorType::parallel)
      continue;
    int64_t extent = ranges[i];
    if (ShapedType::isDynamic(extent)) {
      sizes[i] = lanes;
      break;
    }
    sizes[i] = std::min(lanes, extent);
    lanes /= sizes[i];
    if (extent > sizes[i])
      break; // a partial tile of this dim: outer dims stay 1
  }
  return sizes;
}

/// Tiles whose vector would exceed this many elements stay scalar: a static
/// reduction extent (or vector-width) is user input, and vectorizing builds
/// IR (masks, constants) proportional to the vector size. Reductions are
/// untiled, and the CPU pipeline unrolls a vectorized one into an op per
/// reduction element (lower-vector-multi-reduction), in one block, which
/// convert-vector-to-llvm and convert-math-to-libm handle in quadratic time:
/// 2^16 elements (a 4096-position bounds check, or attention over 4096 keys
/// x 16 lanes) took minutes. At 2^12 the worst case compiles in ~2 s.
constexpr int64_t kMaxVectorElements = int64_t(1) << 12;

/// Vector sizes of a tile: the tile sizes, and the full (static) extent of
/// untiled dims. Empty when a reduction extent is dynamic or zero, or the
/// vector would exceed kMaxVectorElements.
SmallVector<int64_t> vectorSizesOf(linalg::LinalgOp tiled,
                                   ArrayRef<int64_t> tileSizes) {
  SmallVector<int64_t> ranges = tiled.getStaticLoopRanges();
  SmallVector<int64_t> sizes;
  int64_t elements = 1;
  for (auto [range, tile] : llvm::zip_equal(ranges, tileSizes)) {
    int64_t size = tile != 0 ? tile : range;
    // Dynamic reductions and empty extents (no vector type) stay scalar.
    if (ShapedType::isDynamic(size) || size == 0)
      return {};
    if (size > kMaxVectorElements / elements)
      return {};
    elements *= size;
    sizes.push_back(size);
  }
  return sizes;
}

struct PosEncTileAndVectorizePass
    : posenc::impl::PosEncTileAndVectorizeBase<PosEncTileAndVectorizePass> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    // Tiling goes through linalg's TilingInterface models. Hosts that do not
    // register every upstream extension (unlike mlir-opt and posenc-opt)
    // would otherwise leave the promised interface unimplemented.
    linalg::registerTilingInterfaceExternalModels(registry);
  }

  void runOnOperation() override {
    FunctionOpInterface func = getOperation();
    MLIRContext *ctx = &getContext();
    if (vectorWidth <= 0) {
      func.emitError("vector-width must be positive");
      return signalPassFailure();
    }
    SmallVector<linalg::LinalgOp> targets;
    func.walk([&](linalg::LinalgOp op) {
      // Ops with an empty (static 0) iteration space compute nothing, and
      // tiling them crashes upstream (MLIR 22 linalg::computeTileSizes).
      if (op.hasPureTensorSemantics() && op.getNumLoops() > 0 &&
          !llvm::is_contained(op.getStaticLoopRanges(), 0))
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
      // Registered by getDependentDialects; an op without the model stays
      // whole.
      auto tileable = dyn_cast<TilingInterface>(op.getOperation());
      if (!tileable)
        continue;
      FailureOr<scf::SCFTilingResult> tiled =
          scf::tileUsingSCF(rewriter, tileable, options);
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
      // MLIR 22 masks a vectorized tensor.extract with a mask of the wrong
      // shape (vector.mask does not verify): tiles that need masks (dynamic
      // or remainder extents) and read with tensor.extract stay scalar.
      bool needsMask = llvm::any_of(
          llvm::zip_equal(op.getStaticLoopRanges(), vectorSizes),
          [](auto pair) { return std::get<0>(pair) != std::get<1>(pair); });
      if (needsMask && llvm::any_of(op.getBlock()->getOperations(),
                                    llvm::IsaPred<tensor::ExtractOp>))
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
    // one greedy rewrite can loop forever. Masks go first: later folds may
    // move ops into a vector.mask region, which must hold exactly one op.
    {
      RewritePatternSet patterns(ctx);
      vector::populateVectorMaskLoweringPatternsForSideEffectingOps(patterns);
      if (failed(applyPatternsGreedily(func, std::move(patterns))))
        return signalPassFailure();
    }
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
