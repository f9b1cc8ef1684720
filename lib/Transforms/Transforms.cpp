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

/// Whether `v` is a `tensor.extract_slice`, possibly seen through
/// expand/collapse reshapes: a strided view once bufferized.
static bool isSliceView(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (isa<tensor::ExtractSliceOp>(def))
      return true;
    if (!isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(def))
      return false;
    v = def->getOperand(0);
  }
  return false;
}

/// The indices into the source of the view `def` (extract_slice, expand or
/// collapse) of its element `indices`.
static SmallVector<Value> viewSourceIndices(RewriterBase &rewriter,
                                            Location loc, Operation *def,
                                            ValueRange indices) {
  auto index = [&](OpFoldResult ofr) {
    return getValueOrCreateConstantIndexOp(rewriter, loc, ofr);
  };
  SmallVector<Value> result;
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(def)) {
    llvm::SmallBitVector dropped = slice.getDroppedDims();
    SmallVector<OpFoldResult> offsets = slice.getMixedOffsets();
    SmallVector<OpFoldResult> strides = slice.getMixedStrides();
    unsigned next = 0;
    for (unsigned d = 0; d < offsets.size(); ++d) {
      Value offset = index(offsets[d]);
      if (dropped.test(d)) {
        result.push_back(offset);
        continue;
      }
      result.push_back(arith::AddIOp::create(
          rewriter, loc, offset,
          arith::MulIOp::create(rewriter, loc, indices[next++],
                                index(strides[d]))));
    }
    return result;
  }
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(def)) {
    // A source index is its group's indices, row-major.
    SmallVector<OpFoldResult> sizes = expand.getMixedOutputShape();
    for (const ReassociationIndices &group : expand.getReassociationIndices()) {
      Value linear = indices[group.front()];
      for (int64_t e : llvm::drop_begin(group))
        linear = arith::AddIOp::create(
            rewriter, loc,
            arith::MulIOp::create(rewriter, loc, linear, index(sizes[e])),
            indices[e]);
      result.push_back(linear);
    }
    return result;
  }
  // A collapsed index splits into its group's source indices.
  auto collapse = cast<tensor::CollapseShapeOp>(def);
  for (auto [i, group] : llvm::enumerate(collapse.getReassociationIndices())) {
    SmallVector<Value> split(group.size());
    Value rest = indices[i];
    for (size_t k = group.size(); k-- > 1;) {
      Value size = index(
          tensor::getMixedSize(rewriter, loc, collapse.getSrc(), group[k]));
      split[k] = arith::RemUIOp::create(rewriter, loc, rest, size);
      rest = arith::DivUIOp::create(rewriter, loc, rest, size);
    }
    split[0] = rest;
    result.append(split);
  }
  return result;
}

/// Reads `tensor.extract` of an extract_slice, possibly through reshapes, as
/// `tensor.extract` of the slice's source at the corresponding indices.
/// MLIR 22 vectorizes such an extract into a vector.gather whose indices,
/// after bufferization, are applied to the strided view as if it were
/// contiguous (a silent miscompile of posenc.rotary with column slices of a
/// cos/sin table, and of GPT-J's repeat_interleave of a table slice
/// expanded by unit dimensions; fixed upstream after 22); reading the
/// source avoids the view.
static void readExtractsThroughViews(RewriterBase &rewriter,
                                     linalg::LinalgOp tile) {
  SmallVector<tensor::ExtractOp> extracts;
  tile.getBlock()->walk([&](tensor::ExtractOp op) {
    if (isSliceView(op.getTensor()))
      extracts.push_back(op);
  });
  for (tensor::ExtractOp extract : extracts) {
    rewriter.setInsertionPoint(extract);
    Value tensor = extract.getTensor();
    SmallVector<Value> indices(extract.getIndices());
    while (isSliceView(tensor)) {
      Operation *def = tensor.getDefiningOp();
      indices = viewSourceIndices(rewriter, extract.getLoc(), def, indices);
      tensor = def->getOperand(0);
    }
    rewriter.replaceOpWithNewOp<tensor::ExtractOp>(extract, tensor, indices);
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
  readExtractsThroughViews(rewriter, tile);
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

/// arith.cmpf on bf16 vectors compares the operands widened to f32 by their
/// bits (a bf16 is the upper half of the f32 of the same value, NaNs
/// included: exact). LLVM 22's x86 instruction selection aborts ("Cannot
/// select: X86ISD::CMPP") on a 16-lane bf16 fcmp whose mask is extended to
/// i16 on AVX-512 BF16 hosts (D14); an arith.extf would not do, since
/// InstCombine folds `fcmp (fpext a), (fpext b)` back to the bf16 compare.
struct CompareBF16VectorsInF32 : OpRewritePattern<arith::CmpFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::CmpFOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<VectorType>(op.getLhs().getType());
    if (!type || !type.getElementType().isBF16())
      return rewriter.notifyMatchFailure(op, "not a bf16 vector compare");
    Location loc = op.getLoc();
    auto bits16 = type.clone(rewriter.getI16Type());
    auto bits32 = type.clone(rewriter.getI32Type());
    Value shift = arith::ConstantOp::create(
        rewriter, loc, DenseElementsAttr::get(bits32, APInt(32, 16)));
    auto widen = [&](Value x) -> Value {
      Value bits = arith::BitcastOp::create(rewriter, loc, bits16, x);
      bits = arith::ExtUIOp::create(rewriter, loc, bits32, bits);
      bits = arith::ShLIOp::create(rewriter, loc, bits, shift);
      return arith::BitcastOp::create(rewriter, loc,
                                      type.clone(rewriter.getF32Type()), bits);
    };
    rewriter.replaceOpWithNewOp<arith::CmpFOp>(
        op, op.getPredicateAttr(), widen(op.getLhs()), widen(op.getRhs()),
        op.getFastmathAttr());
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
    patterns.add<ExpandMultiDimAbsI, CompareBF16VectorsInF32>(ctx);
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
