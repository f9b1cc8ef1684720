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
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SmallBitVector.h"

namespace mlir {
namespace posenc {
#define GEN_PASS_DEF_POSENCTILEANDVECTORIZE
#include "posenc/Transforms/Passes.h.inc"
} // namespace posenc
} // namespace mlir

using namespace mlir;
using namespace mlir::posenc;

namespace {

/// Loop dims of `op` that an indexing map uses inside a floordiv, ceildiv or
/// mod (e.g. GQA's `h floordiv G`). Upstream tiling slices an operand at
/// `map(offset)` and keeps the map for the tile's local indices, which is
/// exact only for linear maps: `(h0 + l) floordiv G != h0 floordiv G +
/// l floordiv G` unless h0 is aligned to G. Such dims are tiled by 1 (local
/// index 0) or not at all.
llvm::SmallBitVector getSemiAffineDims(linalg::LinalgOp op) {
  llvm::SmallBitVector dims(op.getNumLoops(), false);
  for (AffineMap map : op.getIndexingMapsArray())
    for (AffineExpr result : map.getResults())
      result.walk([&](AffineExpr expr) {
        if (expr.getKind() != AffineExprKind::FloorDiv &&
            expr.getKind() != AffineExprKind::CeilDiv &&
            expr.getKind() != AffineExprKind::Mod)
          return;
        expr.walk([&](AffineExpr inner) {
          if (auto dim = dyn_cast<AffineDimExpr>(inner))
            dims.set(dim.getPosition());
        });
      });
  return dims;
}

/// Tile sizes of `op`: the `width` vector lanes go to the innermost parallel
/// dims (innermost first, each up to its static extent, e.g. 8 x 2 for an
/// interleaved [..., pairs, 2] view), 1 on the other parallel dims, 0
/// (untiled) on reductions. Semi-affine dims (getSemiAffineDims) get 1.
SmallVector<int64_t> chooseTileSizes(linalg::LinalgOp op, int64_t width) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  llvm::SmallBitVector semiAffine = getSemiAffineDims(op);
  SmallVector<int64_t> sizes(ranges.size(), 0);
  for (auto [i, it] : llvm::enumerate(iterators))
    if (it == utils::IteratorType::parallel)
      sizes[i] = 1;
  int64_t lanes = width;
  for (int64_t i = static_cast<int64_t>(ranges.size()) - 1; i >= 0 && lanes > 1;
       --i) {
    if (iterators[i] != utils::IteratorType::parallel)
      continue;
    if (semiAffine[i])
      break; // lanes stop here: an outer dim would not be contiguous
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

/// Tiles whose reduction would unroll into more steps than this stay scalar.
/// Each step is one vector op of the tile's parallel lanes, so a 1-lane
/// tile (e.g. a row of a block one row high) reducing 4096 elements became
/// 4096 dependent scalar ops in one basic block, which LLVM's JIT took over a
/// minute to compile; 16 lanes x 256 steps compiles in about a second.
constexpr int64_t kMaxReductionSteps = 256;

/// Vector sizes of a tile: the tile sizes, and the full (static) extent of
/// untiled dims. Empty when a reduction extent is dynamic or zero, or the
/// vector would exceed kMaxVectorElements or kMaxReductionSteps.
SmallVector<int64_t> vectorSizesOf(linalg::LinalgOp tiled,
                                   ArrayRef<int64_t> tileSizes) {
  SmallVector<int64_t> ranges = tiled.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = tiled.getIteratorTypesArray();
  SmallVector<int64_t> sizes;
  int64_t elements = 1, steps = 1;
  for (auto [range, tile, iterator] :
       llvm::zip_equal(ranges, tileSizes, iterators)) {
    int64_t size = tile != 0 ? tile : range;
    // Dynamic reductions and empty extents (no vector type) stay scalar.
    if (ShapedType::isDynamic(size) || size == 0)
      return {};
    if (size > kMaxVectorElements / elements)
      return {};
    if (iterator == utils::IteratorType::reduction) {
      if (size > kMaxReductionSteps / steps)
        return {};
      steps *= size;
    }
    elements *= size;
    sizes.push_back(size);
  }
  return sizes;
}

/// Parallel dims of `consumer` that no operand produced by a fusable
/// producer indexes: a block keeps them whole, so that a fused producer tile
/// (e.g. RoPE's cos/sin rows, indexed by token and pair but not by head) is
/// computed once per block and reused across them.
llvm::SmallBitVector getReuseDims(linalg::LinalgOp consumer,
                                  ArrayRef<OpOperand *> fused) {
  llvm::SmallBitVector reuse(consumer.getNumLoops(), false);
  if (fused.empty())
    return reuse;
  for (auto [i, it] : llvm::enumerate(consumer.getIteratorTypesArray()))
    reuse[i] = it == utils::IteratorType::parallel;
  for (OpOperand *operand : fused)
    for (AffineExpr expr :
         consumer.getMatchingIndexingMap(operand).getResults())
      if (auto dim = dyn_cast<AffineDimExpr>(expr))
        reuse[dim.getPosition()] = false;
  return reuse;
}

/// Operands of `consumer` worth computing inside its blocks: results of
/// tileable linalg producers on tensors, read through a projected
/// permutation (so that blocks partition the producer's iteration space and
/// nothing is computed twice). Producers with semi-affine maps are not
/// fused: their tile would be an arbitrary slice of a semi-affine dim
/// (getSemiAffineDims).
SmallVector<OpOperand *> getFusableOperands(linalg::LinalgOp consumer) {
  SmallVector<OpOperand *> fused;
  for (OpOperand *operand : consumer.getDpsInputOperands()) {
    auto producer = operand->get().getDefiningOp<linalg::LinalgOp>();
    if (!producer || !producer.hasPureTensorSemantics() ||
        !isa<TilingInterface>(producer.getOperation()) ||
        producer.getNumLoops() == 0 ||
        llvm::is_contained(producer.getStaticLoopRanges(), 0) ||
        !consumer.getMatchingIndexingMap(operand).isProjectedPermutation() ||
        getSemiAffineDims(producer).any())
      continue;
    fused.push_back(operand);
  }
  return fused;
}

/// Block (thread-level) tile sizes of `op`: reuse dims and reductions whole,
/// then whole inner parallel dims while the block stays within
/// `blockElements` iterations, a partial tile of the next one (1 for a
/// semi-affine dim), 1 outside. Empty when the whole op is one block.
SmallVector<int64_t> chooseBlockSizes(linalg::LinalgOp op,
                                      const llvm::SmallBitVector &reuse,
                                      int64_t blockElements) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  llvm::SmallBitVector semiAffine = getSemiAffineDims(op);
  SmallVector<int64_t> sizes(ranges.size(), 0);
  int64_t elements = 1;
  auto grow = [&](int64_t extent) {
    // Dynamic extents count as large.
    if (ShapedType::isDynamic(extent) || extent > blockElements / elements)
      elements = blockElements + 1;
    else
      elements *= extent;
  };
  for (auto [i, range] : llvm::enumerate(ranges))
    if (iterators[i] != utils::IteratorType::parallel || reuse[i])
      grow(range);
  bool tiled = false;
  for (int64_t i = static_cast<int64_t>(ranges.size()) - 1; i >= 0; --i) {
    if (iterators[i] != utils::IteratorType::parallel || reuse[i])
      continue;
    if (tiled) {
      sizes[i] = 1;
      continue;
    }
    int64_t range = ranges[i];
    if (!ShapedType::isDynamic(range) && elements <= blockElements &&
        range <= blockElements / elements) {
      elements *= range;
      continue; // whole
    }
    sizes[i] =
        std::max<int64_t>(1, blockElements / std::max<int64_t>(1, elements));
    if (!ShapedType::isDynamic(range))
      sizes[i] = std::min(sizes[i], range);
    if (semiAffine[i])
      sizes[i] = 1;
    tiled = true;
  }
  if (!tiled)
    return {};
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
    if (blockElements <= 0) {
      func.emitError("block-elements must be positive");
      return signalPassFailure();
    }
    auto isTileable = [](linalg::LinalgOp op) {
      // Ops with an empty (static 0) iteration space compute nothing, and
      // tiling them crashes upstream (MLIR 22 linalg::computeTileSizes).
      return op.hasPureTensorSemantics() && op.getNumLoops() > 0 &&
             !llvm::is_contained(op.getStaticLoopRanges(), 0) &&
             isa<TilingInterface>(op.getOperation());
    };
    IRRewriter rewriter(ctx);

    // Level 1, blocks (scf.forall, one task per block on the CPU pipeline's
    // threads): each op whose result no other linalg op consumes, with its
    // direct producers fused into the block.
    SmallVector<linalg::LinalgOp> roots;
    func.walk([&](linalg::LinalgOp op) {
      if (!isTileable(op) || op->getParentOfType<scf::ForallOp>())
        return;
      bool consumed = llvm::any_of(op->getUsers(), [](Operation *user) {
        return isa<linalg::LinalgOp>(user);
      });
      if (!consumed)
        roots.push_back(op);
    });
    for (linalg::LinalgOp root : llvm::reverse(roots)) {
      SmallVector<OpOperand *> fusable = getFusableOperands(root);
      SmallVector<int64_t> blockSizes =
          chooseBlockSizes(root, getReuseDims(root, fusable), blockElements);
      if (blockSizes.empty())
        continue;
      llvm::SmallPtrSet<Value, 4> fusableValues;
      for (OpOperand *operand : fusable)
        fusableValues.insert(operand->get());
      scf::SCFTilingOptions tiling;
      tiling.setTileSizes(getAsIndexOpFoldResult(ctx, blockSizes));
      tiling.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
      scf::SCFTileAndFuseOptions options;
      options.setTilingOptions(tiling);
      options.setFusionControlFn(
          [&](tensor::ExtractSliceOp, OpResult producer, bool isDestination)
              -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
            if (isDestination || !fusableValues.contains(producer))
              return std::nullopt;
            return scf::SCFTileAndFuseOptions::ControlFnResult{};
          });
      rewriter.setInsertionPoint(root);
      FailureOr<scf::SCFTileAndFuseResult> result =
          scf::tileConsumerAndFuseProducersUsingSCF(
              rewriter, cast<TilingInterface>(root.getOperation()), options);
      if (failed(result))
        continue; // no blocks: still correct
      for (OpResult res : root->getResults())
        if (Value replacement = result->replacements.lookup(res))
          rewriter.replaceAllUsesWith(res, replacement);
      if (root->use_empty())
        rewriter.eraseOp(root);
    }
    // Producers fused into every consumer are dead now.
    SmallVector<linalg::LinalgOp> dead;
    func.walk([&](linalg::LinalgOp op) {
      if (op.hasPureTensorSemantics() && op->use_empty() &&
          isMemoryEffectFree(op))
        dead.push_back(op);
    });
    for (linalg::LinalgOp op : dead)
      rewriter.eraseOp(op);
    // A producer with several results read by one consumer (RoPE's cos and
    // sin rows) is fused once per result: the copies are identical.
    if (!roots.empty()) {
      DominanceInfo domInfo(func);
      eliminateCommonSubExpressions(rewriter, domInfo, func);
    }

    // Level 2, vectors: every op (inside blocks or not) tiled to
    // register-sized pieces with scf.for.
    SmallVector<linalg::LinalgOp> targets;
    func.walk([&](linalg::LinalgOp op) {
      if (isTileable(op))
        targets.push_back(op);
    });
    SmallVector<std::pair<linalg::LinalgOp, SmallVector<int64_t>>> tiles;
    for (linalg::LinalgOp op : targets) {
      SmallVector<int64_t> tileSizes = chooseTileSizes(op, vectorWidth);
      rewriter.setInsertionPoint(op);
      scf::SCFTilingOptions options;
      options.setTileSizes(getAsIndexOpFoldResult(ctx, tileSizes));
      options.setLoopType(scf::SCFTilingOptions::LoopType::ForOp);
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
