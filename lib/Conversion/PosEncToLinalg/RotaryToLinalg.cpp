//===- RotaryToLinalg.cpp - lower posenc.rotary ---------------------------===//
//
// posenc.rotary becomes two generics: one builds f32 cos/sin rows indexed by
// (batch?, token, pair) — they depend on the position, not on the head, so
// every head reuses them — and one rotates each pair of channels. The
// pass-through channels [rotary_dim, D) are copied.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "Patterns.h"

#include "posenc/IR/PosEncOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::posenc;

namespace {

/// Index (as i64) of the position axis that M-RoPE pair `pair` reads.
Value emitMRopeAxis(OpBuilder &b, Location loc, Value pair,
                    ArrayRef<int64_t> sections, MRopeLayout layout) {
  auto idx = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value axis = idx(0);
  if (layout == MRopeLayout::chunked) {
    // Pair block k (sections[k] pairs) reads axis k.
    int64_t start = 0;
    for (auto [k, size] : llvm::enumerate(sections.drop_back())) {
      start += size;
      Value past = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                         pair, idx(start));
      axis = arith::SelectOp::create(b, loc, past, idx(k + 1), axis);
    }
    return axis;
  }
  // Interleaved (Qwen3-VL): pair c reads h if c%3==1 && c<3*sec[1], w if
  // c%3==2 && c<3*sec[2], t otherwise.
  Value mod3 = arith::RemUIOp::create(b, loc, pair, idx(3));
  int64_t pairs = llvm::sum_of(sections); // rotary_dim/2 (verified)
  for (int64_t k : {1, 2}) {
    Value isLane =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, mod3, idx(k));
    // pair < 3 * sec[k], with the bound capped at the pair count (every pair
    // is below it), so that it cannot overflow.
    int64_t bound = sections[k] > pairs / 3 ? pairs : 3 * sections[k];
    Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                          pair, idx(bound));
    axis = arith::SelectOp::create(
        b, loc, arith::AndIOp::create(b, loc, isLane, inRange), idx(k), axis);
  }
  return axis;
}

struct LowerRotary : OpRewritePattern<RotaryOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(RotaryOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    Value x = op.getInput();
    auto xType = cast<RankedTensorType>(x.getType());
    Type elementType = xType.getElementType();
    Type f32 = rewriter.getF32Type();
    int64_t rank = xType.getRank();
    int64_t tokenAxis = op.getTokenAxis();
    int64_t rotaryDim = op.getRotaryDim();
    int64_t half = rotaryDim / 2;
    std::optional<ArrayRef<int64_t>> sections = op.getMropeSections();
    Value positions = op.getPositions();
    int64_t prefix = sections ? 1 : 0;
    bool perBatch =
        positions &&
        cast<RankedTensorType>(positions.getType()).getRank() == prefix + 2;

    SmallVector<OpFoldResult> xSizes = getSizes(rewriter, loc, x);
    // No elements: nothing to rotate. (The slices below would have offset 0
    // in an extent of 0, which tensor.extract_slice rejects.)
    if (llvm::is_contained(xType.getShape(), 0)) {
      rewriter.replaceOp(op, emptyLike(rewriter, loc, xSizes, elementType));
      return success();
    }
    Value offset = op.getOffset()
                       ? toI64(rewriter, loc, op.getOffset())
                       : Value(arith::ConstantOp::create(
                             rewriter, loc, rewriter.getI64IntegerAttr(0)));

    // cos/sin rows: [B?, S, half] in f32.
    SmallVector<OpFoldResult> tableSizes;
    if (perBatch)
      tableSizes.push_back(xSizes[0]);
    tableSizes.push_back(xSizes[tokenAxis]);
    tableSizes.push_back(rewriter.getIndexAttr(half));
    int64_t tableRank = tableSizes.size();
    Value cosInit = emptyLike(rewriter, loc, tableSizes, f32);
    Value sinInit = emptyLike(rewriter, loc, tableSizes, f32);

    SmallVector<Value> tableInputs;
    SmallVector<AffineMap> tableMaps;
    AffineExpr pairDim = getAffineDimExpr(tableRank - 1, ctx);
    if (Value inv = op.getInvFreq()) {
      tableInputs.push_back(inv);
      tableMaps.push_back(AffineMap::get(tableRank, 0, {pairDim}, ctx));
    }
    bool positionsAsInput = positions && !sections;
    if (positionsAsInput) {
      tableInputs.push_back(positions);
      tableMaps.push_back(AffineMap::getMultiDimIdentityMap(tableRank, ctx)
                              .getMajorSubMap(tableRank - 1));
    }
    AffineMap tableId = rewriter.getMultiDimIdentityMap(tableRank);
    tableMaps.append({tableId, tableId});

    Value attentionFactor = op.getAttentionFactor();
    Value cosTable = op.getCos(), sinTable = op.getSin();
    if (cosTable) {
      // Table rows are positions: as for posenc.learned_absolute, a position
      // outside the tables is a runtime error, never an out-of-bounds read.
      Value rows = toI64(rewriter, loc,
                         tensor::DimOp::create(rewriter, loc, cosTable, 0));
      Value tokens =
          positions ? Value()
                    : toI64(rewriter, loc,
                            tensor::DimOp::create(rewriter, loc, x, tokenAxis));
      cf::AssertOp::create(
          rewriter, loc,
          emitPositionsInTable(rewriter, loc, positions, offset, tokens, rows),
          "posenc.rotary: position outside the cos/sin "
          "tables");
    }
    auto tables = linalg::GenericOp::create(
        rewriter, loc, TypeRange{cosInit.getType(), sinInit.getType()},
        tableInputs, ValueRange{cosInit, sinInit}, tableMaps,
        parallelIterators(tableRank),
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          Value pair = linalg::IndexOp::create(b, nloc, tableRank - 1);
          Value token = linalg::IndexOp::create(b, nloc, tableRank - 2);
          Value pos;
          if (positionsAsInput) {
            pos = toI64(b, nloc, args[op.getInvFreq() ? 1 : 0]);
          } else if (sections) {
            SmallVector<Value> indices{emitMRopeAxis(
                b, nloc, pair, *sections,
                op.getMropeLayout().value_or(MRopeLayout::chunked))};
            if (perBatch)
              indices.push_back(linalg::IndexOp::create(b, nloc, 0));
            indices.push_back(token);
            pos = toI64(b, nloc,
                        tensor::ExtractOp::create(b, nloc, positions, indices));
          } else {
            pos = arith::IndexCastOp::create(b, nloc, b.getI64Type(), token);
          }
          pos = arith::AddIOp::create(b, nloc, pos, offset);
          Value cos, sin;
          if (op.getInvFreq()) {
            std::tie(cos, sin) =
                emitCosSin(b, nloc, pos, args[0], attentionFactor);
          } else {
            Value row =
                arith::IndexCastOp::create(b, nloc, b.getIndexType(), pos);
            cos = castFloat(
                b, nloc,
                tensor::ExtractOp::create(b, nloc, cosTable, {row, pair}), f32);
            sin = castFloat(
                b, nloc,
                tensor::ExtractOp::create(b, nloc, sinTable, {row, pair}), f32);
          }
          linalg::YieldOp::create(b, nloc, ValueRange{cos, sin});
        });

    // Rotation. The two channels of each pair are read as slices of x
    // (x1 = channels [0, half), x2 = [half, d); interleaved: stride 2). The
    // rotated channels are computed as [..., 2, half] (half_split) or
    // [..., half, 2] (interleaved), one generic with one output writing
    // channel c of pair i:
    //   c = 0: x1 * cos - x2 * sin,   c = 1: x2 * cos + x1 * sin,
    // and collapsed to [..., rotary_dim]. The generic's own init is a
    // tensor.empty of that shape (not a reshape of a larger one), so that
    // eliminate-empty-tensors can place it in the final destination
    // (posenc-expand-destinations moves the collapse onto the destination).
    bool interleaved = op.getLayout() == RotaryLayout::interleaved;
    int64_t headDim = xType.getShape().back();
    SmallVector<OpFoldResult> zeros(rank, rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> unit(rank, rewriter.getIndexAttr(1));
    SmallVector<OpFoldResult> halfSizes(xSizes);
    halfSizes.back() = rewriter.getIndexAttr(half);
    SmallVector<OpFoldResult> strides(unit);
    if (interleaved)
      strides.back() = rewriter.getIndexAttr(2);
    auto pairSlice = [&](int64_t channel) -> Value {
      SmallVector<OpFoldResult> at(zeros);
      at.back() = rewriter.getIndexAttr(channel);
      return tensor::ExtractSliceOp::create(rewriter, loc, x, at, halfSizes,
                                            strides);
    };
    Value x1 = pairSlice(0), x2 = pairSlice(interleaved ? 1 : half);

    SmallVector<OpFoldResult> rotSizes(xSizes);
    rotSizes.back() = rewriter.getIndexAttr(rotaryDim);
    SmallVector<ReassociationIndices> reassociation;
    for (int64_t i = 0; i < rank - 1; ++i)
      reassociation.push_back({i});
    reassociation.push_back({rank - 1, rank});
    SmallVector<OpFoldResult> expSizes(xSizes.begin(), xSizes.end() - 1);
    if (interleaved)
      expSizes.append({rewriter.getIndexAttr(half), rewriter.getIndexAttr(2)});
    else
      expSizes.append({rewriter.getIndexAttr(2), rewriter.getIndexAttr(half)});
    Value destExp = emptyLike(rewriter, loc, expSizes, elementType);

    int64_t numLoops = rank + 1;
    int64_t channelDim = interleaved ? rank : rank - 1;
    AffineExpr pair = getAffineDimExpr(interleaved ? rank - 1 : rank, ctx);
    SmallVector<AffineExpr> lead;
    for (int64_t i = 0; i < rank - 1; ++i)
      lead.push_back(getAffineDimExpr(i, ctx));
    SmallVector<AffineExpr> pairExprs(lead);
    pairExprs.push_back(pair);
    AffineMap pairMap = AffineMap::get(numLoops, 0, pairExprs, ctx);
    SmallVector<AffineExpr> tableExprs;
    if (perBatch)
      tableExprs.push_back(lead[0]);
    tableExprs.append({lead[tokenAxis], pair});
    AffineMap tableMap = AffineMap::get(numLoops, 0, tableExprs, ctx);
    AffineMap outMap = rewriter.getMultiDimIdentityMap(numLoops);

    auto rotate = linalg::GenericOp::create(
        rewriter, loc, TypeRange{destExp.getType()},
        ValueRange{x1, x2, tables.getResult(0), tables.getResult(1)},
        ValueRange{destExp},
        ArrayRef<AffineMap>{pairMap, pairMap, tableMap, tableMap, outMap},
        parallelIterators(numLoops),
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          Value x1 = castFloat(b, nloc, args[0], f32);
          Value x2 = castFloat(b, nloc, args[1], f32);
          Value cos = args[2], sin = args[3];
          Value o1 = arith::SubFOp::create(
              b, nloc, arith::MulFOp::create(b, nloc, x1, cos),
              arith::MulFOp::create(b, nloc, x2, sin));
          Value o2 = arith::AddFOp::create(
              b, nloc, arith::MulFOp::create(b, nloc, x2, cos),
              arith::MulFOp::create(b, nloc, x1, sin));
          Value isFirst = arith::CmpIOp::create(
              b, nloc, arith::CmpIPredicate::eq,
              linalg::IndexOp::create(b, nloc, channelDim),
              arith::ConstantIndexOp::create(b, nloc, 0));
          Value out = arith::SelectOp::create(b, nloc, isFirst, o1, o2);
          linalg::YieldOp::create(b, nloc,
                                  castFloat(b, nloc, out, elementType));
        });
    SmallVector<int64_t> rotShape(xType.getShape());
    rotShape.back() = rotaryDim;
    Value rotated = tensor::CollapseShapeOp::create(
        rewriter, loc, RankedTensorType::get(rotShape, elementType),
        rotate.getResult(0), reassociation);

    // Assemble the rotated channels and the pass-through ones (a linalg.copy,
    // tiled and vectorized like the rest).
    Value result = rotated;
    if (rotaryDim < headDim) {
      Value full = emptyLike(rewriter, loc, xSizes, elementType);
      result = tensor::InsertSliceOp::create(rewriter, loc, rotated, full,
                                             zeros, rotSizes, unit);
      SmallVector<OpFoldResult> passSizes(xSizes);
      passSizes.back() = rewriter.getIndexAttr(headDim - rotaryDim);
      SmallVector<OpFoldResult> passOffsets(zeros);
      passOffsets.back() = rewriter.getIndexAttr(rotaryDim);
      Value pass = tensor::ExtractSliceOp::create(rewriter, loc, x, passOffsets,
                                                  passSizes, unit);
      Value passInit = tensor::ExtractSliceOp::create(
          rewriter, loc, result, passOffsets, passSizes, unit);
      Value copied =
          linalg::CopyOp::create(rewriter, loc, pass, passInit).getResult(0);
      result = tensor::InsertSliceOp::create(rewriter, loc, copied, result,
                                             passOffsets, passSizes, unit);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::posenc::populateRotaryLoweringPatterns(RewritePatternSet &patterns) {
  patterns.add<LowerRotary>(patterns.getContext());
}
