//===- Transforms.cpp - posenc's reusable codegen transforms -------------===//

#include "posenc/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <numeric>

using namespace mlir;
using namespace mlir::posenc;

FailureOr<scf::SCFTileAndFuseResult>
mlir::posenc::tileIntoBlocks(RewriterBase &rewriter, linalg::LinalgOp root,
                             ArrayRef<int64_t> blockSizes,
                             ArrayRef<OpOperand *> fused) {
  llvm::SmallPtrSet<Value, 4> fusedValues;
  for (OpOperand *operand : fused)
    fusedValues.insert(operand->get());
  scf::SCFTilingOptions tiling;
  tiling.setTileSizes(
      getAsIndexOpFoldResult(rewriter.getContext(), blockSizes));
  tiling.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  scf::SCFTileAndFuseOptions options;
  options.setTilingOptions(tiling);
  options.setFusionControlFn(
      [&](tensor::ExtractSliceOp, OpResult producer, bool isDestination)
          -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
        if (isDestination || !fusedValues.contains(producer))
          return std::nullopt;
        return scf::SCFTileAndFuseOptions::ControlFnResult{};
      });
  rewriter.setInsertionPoint(root);
  FailureOr<scf::SCFTileAndFuseResult> result =
      scf::tileConsumerAndFuseProducersUsingSCF(
          rewriter, cast<TilingInterface>(root.getOperation()), options);
  if (failed(result))
    return failure();
  for (OpResult res : root->getResults())
    if (Value replacement = result->replacements.lookup(res))
      rewriter.replaceAllUsesWith(res, replacement);
  if (root->use_empty())
    rewriter.eraseOp(root);
  return result;
}

FailureOr<Value> mlir::posenc::flattenFreshFill(RewriterBase &rewriter,
                                                linalg::FillOp fill) {
  if (!fill.hasPureTensorSemantics())
    return failure();
  auto empty = fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>();
  auto type = dyn_cast<RankedTensorType>(fill.getResultTypes()[0]);
  if (!empty || !type || type.getRank() < 2 || !type.hasStaticShape())
    return failure();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(fill);
  Location loc = fill.getLoc();
  Value flatEmpty = tensor::EmptyOp::create(
      rewriter, loc, ArrayRef<int64_t>{type.getNumElements()},
      type.getElementType());
  Value flat =
      linalg::FillOp::create(rewriter, loc, fill.getInputs()[0], flatEmpty)
          .getResult(0);
  ReassociationIndices all(type.getRank());
  std::iota(all.begin(), all.end(), 0);
  Value expanded = tensor::ExpandShapeOp::create(
      rewriter, loc, type, flat, ArrayRef<ReassociationIndices>{all});
  rewriter.replaceOp(fill, expanded);
  return expanded;
}

FailureOr<SmallVector<linalg::LinalgOp>>
mlir::posenc::tileToRegisters(RewriterBase &rewriter, linalg::LinalgOp op,
                              ArrayRef<int64_t> tileSizes) {
  rewriter.setInsertionPoint(op);
  scf::SCFTilingOptions options;
  options.setTileSizes(
      getAsIndexOpFoldResult(rewriter.getContext(), tileSizes));
  options.setLoopType(scf::SCFTilingOptions::LoopType::ForOp);
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(tiled))
    return failure();
  rewriter.replaceOp(op, tiled->replacements);
  SmallVector<linalg::LinalgOp> tiles;
  for (Operation *tiledOp : tiled->tiledOps)
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(tiledOp))
      tiles.push_back(linalgOp);
  return tiles;
}

/// Reads `tensor.extract %slice[i...]` of a `tensor.extract_slice` as
/// `tensor.extract %source[offset + i * stride...]`. MLIR 22 vectorizes such
/// an extract into a vector.gather whose indices, after bufferization, are
/// applied to the strided view as if it were contiguous (a silent
/// miscompile of posenc.rotary with column slices of a cos/sin table; fixed
/// upstream after 22); reading the source avoids the view.
static void foldSlicesIntoExtracts(RewriterBase &rewriter,
                                   linalg::LinalgOp tile) {
  SmallVector<tensor::ExtractOp> extracts;
  tile.getBlock()->walk([&](tensor::ExtractOp op) {
    if (op.getTensor().getDefiningOp<tensor::ExtractSliceOp>())
      extracts.push_back(op);
  });
  for (tensor::ExtractOp extract : extracts) {
    auto slice = extract.getTensor().getDefiningOp<tensor::ExtractSliceOp>();
    rewriter.setInsertionPoint(extract);
    Location loc = extract.getLoc();
    llvm::SmallBitVector dropped = slice.getDroppedDims();
    SmallVector<OpFoldResult> offsets = slice.getMixedOffsets();
    SmallVector<OpFoldResult> strides = slice.getMixedStrides();
    SmallVector<Value> indices;
    unsigned next = 0;
    for (unsigned d = 0; d < offsets.size(); ++d) {
      Value offset = getValueOrCreateConstantIndexOp(rewriter, loc, offsets[d]);
      if (dropped.test(d)) {
        indices.push_back(offset);
        continue;
      }
      Value index = extract.getIndices()[next++];
      Value stride = getValueOrCreateConstantIndexOp(rewriter, loc, strides[d]);
      indices.push_back(arith::AddIOp::create(
          rewriter, loc, offset,
          arith::MulIOp::create(rewriter, loc, index, stride)));
    }
    rewriter.replaceOpWithNewOp<tensor::ExtractOp>(extract, slice.getSource(),
                                                   indices);
  }
}

LogicalResult mlir::posenc::vectorizeTile(RewriterBase &rewriter,
                                          linalg::LinalgOp tile,
                                          ArrayRef<int64_t> vectorSizes) {
  // MLIR 22 masks a vectorized tensor.extract with a mask of the wrong shape
  // (vector.mask does not verify): tiles that need masks (dynamic or
  // remainder extents) and read with tensor.extract stay scalar.
  bool needsMask = llvm::any_of(
      llvm::zip_equal(tile.getStaticLoopRanges(), vectorSizes),
      [](auto pair) { return std::get<0>(pair) != std::get<1>(pair); });
  if (needsMask && llvm::any_of(tile.getBlock()->getOperations(),
                                llvm::IsaPred<tensor::ExtractOp>))
    return failure();
  foldSlicesIntoExtracts(rewriter, tile);
  rewriter.setInsertionPoint(tile);
  SmallVector<bool> scalable(vectorSizes.size(), false);
  FailureOr<linalg::VectorizationResult> result =
      linalg::vectorize(rewriter, tile, vectorSizes, scalable,
                        /*vectorizeNDExtract=*/true);
  if (failed(result))
    return failure();
  rewriter.replaceOp(tile, result->replacements);
  return success();
}

/// Whether `read` is a factor of a product that a vector.multi_reduction
/// sums (a contraction's operand), possibly through an extension.
static bool feedsReduction(vector::TransferReadOp read) {
  for (Operation *user : read->getUsers()) {
    if (isa<arith::ExtFOp>(user) && user->hasOneUse())
      user = *user->getUsers().begin();
    if (!isa<arith::MulFOp>(user))
      continue;
    if (llvm::any_of(user->getUsers(),
                     llvm::IsaPred<vector::MultiDimReductionOp>))
      return true;
  }
  return false;
}

namespace {
/// math.absi on an n-D vector becomes maxsi(x, 0 - x) (the same value,
/// INT_MIN included): MLIR 22's math-to-llvm lowers absi on scalars and 1-D
/// vectors only (symmetric ALiBi's |i - j|, fuzz finding R7).
struct ExpandMultiDimAbsI : OpRewritePattern<math::AbsIOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::AbsIOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<VectorType>(op.getType());
    if (!type || type.getRank() < 2)
      return rewriter.notifyMatchFailure(op, "scalar or 1-D: lowers as is");
    Value zero = arith::ConstantOp::create(rewriter, op.getLoc(),
                                           rewriter.getZeroAttr(type));
    Value negated =
        arith::SubIOp::create(rewriter, op.getLoc(), zero, op.getOperand());
    rewriter.replaceOpWithNewOp<arith::MaxSIOp>(op, op.getOperand(), negated);
    return success();
  }
};
} // namespace

LogicalResult mlir::posenc::cleanupVectorIR(Operation *root) {
  MLIRContext *ctx = root->getContext();
  // Masks go first: later folds may move ops into a vector.mask region,
  // which must hold exactly one op.
  {
    RewritePatternSet patterns(ctx);
    vector::populateVectorMaskLoweringPatternsForSideEffectingOps(patterns);
    if (failed(applyPatternsGreedily(root, std::move(patterns))))
      return failure();
  }
  // Operands of contractions read across the other operand's dims (a
  // broadcasting transfer_read) become a minimal read and a
  // vector.broadcast, which the contraction then absorbs into its indexing
  // maps: the operands stay the size of the data, not of the iteration
  // space. Only those reads: applied to every transfer (writes and masked
  // reads included), upstream's permutation lowering miscompiled an
  // interleaved M-RoPE kernel (found by fuzz/semantic_check.py).
  {
    SmallVector<Operation *> reads;
    root->walk([&](vector::TransferReadOp read) {
      if (!read.getMask() && !read.getPermutationMap().isMinorIdentity() &&
          feedsReduction(read))
        reads.push_back(read);
    });
    RewritePatternSet patterns(ctx);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    if (failed(applyOpPatternsGreedily(reads, std::move(patterns))))
      return failure();
  }
  {
    RewritePatternSet patterns(ctx);
    tensor::populateFoldTensorSubsetIntoVectorTransferPatterns(patterns);
    vector::populateVectorReductionToContractPatterns(patterns);
    vector::populateSinkVectorOpsPatterns(patterns);
    patterns.add<ExpandMultiDimAbsI>(ctx);
    vector::TransferReadOp::getCanonicalizationPatterns(patterns, ctx);
    vector::TransferWriteOp::getCanonicalizationPatterns(patterns, ctx);
    if (failed(applyPatternsGreedily(root, std::move(patterns))))
      return failure();
  }
  RewritePatternSet patterns(ctx);
  vector::populateDropUnitDimWithShapeCastPatterns(patterns);
  vector::populateVectorTransferDropUnitDimsPatterns(patterns);
  return applyPatternsGreedily(root, std::move(patterns));
}
