//===- RotaryToLinalg.cpp - lower posenc.rotary ---------------------------===//
//
// posenc.rotary becomes two generics: one builds f32 cos/sin rows indexed by
// (batch?, token, pair) — they depend on the position, not on the head, so
// every head reuses them — and one rotates each pair of channels. The
// pass-through channels [rotary_dim, D) are copied.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "posenc/Codegen/ExtentChecks.h"
#include "posenc/Codegen/LinalgBuilders.h"
#include "posenc/IR/PosEncOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::posenc;

namespace {

/// What the steps of one rotary lowering share.
struct RotaryLowering {
  RotaryOp op;
  Value x;
  RankedTensorType xType;
  SmallVector<OpFoldResult> xSizes;
  int64_t rank, tokenAxis, rotaryDim, half;
  /// Positions are [B, S] (or [axes, B, S]): cos/sin rows per sequence.
  bool perBatch;
  bool interleaved;
  /// The offset operand as i64 (0 when absent).
  Value offset;

  RotaryLowering(OpBuilder &b, Location loc, RotaryOp op)
      : op(op), x(op.getInput()), xType(op.getInput().getType()),
        xSizes(getSizes(b, loc, op.getInput())), rank(xType.getRank()),
        tokenAxis(op.getTokenAxis()), rotaryDim(op.getRotaryDim()),
        half(rotaryDim / 2),
        perBatch(
            op.getPositions() &&
            cast<RankedTensorType>(op.getPositions().getType()).getRank() ==
                (op.getMropeSections() ? 3 : 2)),
        interleaved(op.getLayout() == RotaryLayout::interleaved) {}

  Type getElementType() const { return xType.getElementType(); }
};

//===----------------------------------------------------------------------===//
// cos/sin rows
//===----------------------------------------------------------------------===//

/// The position (i64) of the token of a cos/sin row: an entry of the
/// positions operand (`positionArg`), the entry on the M-RoPE axis of `pair`,
/// or the token index; plus the offset.
Value emitRowPosition(OpBuilder &b, Location loc, const RotaryLowering &r,
                      Value positionArg, Value pair, Value token) {
  RotaryOp op = r.op;
  Value source = positionArg ? positionArg : token;
  if (std::optional<ArrayRef<int64_t>> sections = op.getMropeSections()) {
    SmallVector<Value> indices{
        emitMRopeAxis(b, loc, pair, *sections,
                      op.getMropeLayout().value_or(MRopeLayout::chunked))};
    if (r.perBatch)
      indices.push_back(linalg::IndexOp::create(b, loc, 0));
    indices.push_back(token);
    source = tensor::ExtractOp::create(b, loc, op.getPositions(), indices);
  }
  return emitPosition(b, loc, source, r.offset);
}

/// cos and sin (f32) at row `pos` and column `pair` of the op's cos/sin
/// tables.
std::pair<Value, Value> emitTableCosSin(OpBuilder &b, Location loc, RotaryOp op,
                                        Value pos, Value pair) {
  Type f32 = b.getF32Type();
  Value row = arith::IndexCastOp::create(b, loc, b.getIndexType(), pos);
  auto gather = [&](Value table) {
    return castFloat(
        b, loc, tensor::ExtractOp::create(b, loc, table, {row, pair}), f32);
  };
  Value cos = gather(op.getCos());
  Value sin = gather(op.getSin());
  return {cos, sin};
}

/// The cos and sin rows [B?, S, rotary_dim/2] (f32): from `inv_freq` (with
/// the attention factor) or gathered from the op's tables; f32 tables read at
/// `offset + s` (no positions) are sliced instead (rows S from the offset, in
/// range by the op's runtime check): no copy of the rows.
std::pair<Value, Value> emitCosSinRows(OpBuilder &b, Location loc,
                                       const RotaryLowering &r) {
  RotaryOp op = r.op;
  if (op.getCos() && !op.getPositions() &&
      getElementTypeOrSelf(op.getCos().getType()).isF32()) {
    OpFoldResult start =
        arith::IndexCastOp::create(b, loc, b.getIndexType(), r.offset)
            .getResult();
    SmallVector<OpFoldResult> offsets{start, b.getIndexAttr(0)};
    SmallVector<OpFoldResult> sizes{r.xSizes[r.tokenAxis],
                                    b.getIndexAttr(r.half)};
    SmallVector<OpFoldResult> strides(2, b.getIndexAttr(1));
    auto slice = [&](Value table) -> Value {
      return tensor::ExtractSliceOp::create(b, loc, table, offsets, sizes,
                                            strides);
    };
    return {slice(op.getCos()), slice(op.getSin())};
  }
  MLIRContext *ctx = b.getContext();
  Type f32 = b.getF32Type();
  SmallVector<OpFoldResult> sizes;
  if (r.perBatch)
    sizes.push_back(r.xSizes[0]);
  sizes.push_back(r.xSizes[r.tokenAxis]);
  sizes.push_back(b.getIndexAttr(r.half));
  unsigned numLoops = sizes.size();
  Value cosInit = emptyLike(b, loc, sizes, f32);
  Value sinInit = emptyLike(b, loc, sizes, f32);

  GenericInputs inputs;
  int invArg = inputs.add(
      op.getInvFreq(),
      AffineMap::get(numLoops, 0, {getAffineDimExpr(numLoops - 1, ctx)}, ctx));
  // M-RoPE positions are read per pair (tensor.extract), not as an input.
  Value positions = op.getPositions();
  int positionArg = -1;
  if (positions && !op.getMropeSections())
    positionArg =
        inputs.add(positions, getPositionsMap(positions, numLoops,
                                              /*tokenDim=*/numLoops - 2));
  AffineMap id = b.getMultiDimIdentityMap(numLoops);
  auto rows = linalg::GenericOp::create(
      b, loc, TypeRange{cosInit.getType(), sinInit.getType()}, inputs.values,
      ValueRange{cosInit, sinInit}, inputs.mapsWith({id, id}),
      parallelIterators(numLoops),
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value pair = linalg::IndexOp::create(nb, nloc, numLoops - 1);
        Value token = linalg::IndexOp::create(nb, nloc, numLoops - 2);
        Value pos = emitRowPosition(
            nb, nloc, r, positionArg >= 0 ? args[positionArg] : Value(), pair,
            token);
        auto [cos, sin] = invArg >= 0
                              ? emitCosSin(nb, nloc, pos, args[invArg],
                                           op.getAttentionFactor())
                              : emitTableCosSin(nb, nloc, op, pos, pair);
        linalg::YieldOp::create(nb, nloc, ValueRange{cos, sin});
      });
  return {rows.getResult(0), rows.getResult(1)};
}

//===----------------------------------------------------------------------===//
// Rotation
//===----------------------------------------------------------------------===//

/// The two channels of every pair as slices of x: x1 = channels [0, half),
/// x2 = [half, d) (half_split), or the even and odd channels (interleaved).
std::pair<Value, Value> emitPairSlices(OpBuilder &b, Location loc,
                                       const RotaryLowering &r) {
  SmallVector<OpFoldResult> offsets(r.rank, b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes(r.xSizes);
  sizes.back() = b.getIndexAttr(r.half);
  SmallVector<OpFoldResult> strides(r.rank, b.getIndexAttr(1));
  if (r.interleaved)
    strides.back() = b.getIndexAttr(2);
  auto slice = [&](int64_t channel) -> Value {
    offsets.back() = b.getIndexAttr(channel);
    return tensor::ExtractSliceOp::create(b, loc, r.x, offsets, sizes, strides);
  };
  Value x1 = slice(0);
  Value x2 = slice(r.interleaved ? 1 : r.half);
  return {x1, x2};
}

/// The rotated channels [..., rotary_dim] of x. They are computed as
/// [..., 2, half] (half_split) or [..., half, 2] (interleaved), one generic
/// with one output writing channel c of pair i:
///   c = 0: x1 * cos - x2 * sin,   c = 1: x2 * cos + x1 * sin,
/// and collapsed to [..., rotary_dim]. The generic's own init is a
/// tensor.empty of that shape (not a reshape of a larger one), so that
/// eliminate-empty-tensors can place it in the final destination
/// (posenc-expand-destinations moves the collapse onto the destination).
Value emitRotation(OpBuilder &b, Location loc, const RotaryLowering &r,
                   Value cosRows, Value sinRows) {
  MLIRContext *ctx = b.getContext();
  Type f32 = b.getF32Type();
  Type elementType = r.getElementType();
  int64_t rank = r.rank;
  auto [x1, x2] = emitPairSlices(b, loc, r);

  SmallVector<OpFoldResult> expandedSizes(r.xSizes.begin(), r.xSizes.end() - 1);
  OpFoldResult half = b.getIndexAttr(r.half), two = b.getIndexAttr(2);
  expandedSizes.append(
      {r.interleaved ? half : two, r.interleaved ? two : half});
  Value init = emptyLike(b, loc, expandedSizes, elementType);

  // Loops: the leading dims of x, then (channel, pair) or (pair, channel).
  int64_t numLoops = rank + 1;
  int64_t channelDim = r.interleaved ? rank : rank - 1;
  AffineExpr pair = getAffineDimExpr(r.interleaved ? rank - 1 : rank, ctx);
  SmallVector<AffineExpr> lead;
  for (int64_t i = 0; i < rank - 1; ++i)
    lead.push_back(getAffineDimExpr(i, ctx));
  SmallVector<AffineExpr> pairExprs(lead);
  pairExprs.push_back(pair);
  AffineMap pairMap = AffineMap::get(numLoops, 0, pairExprs, ctx);
  SmallVector<AffineExpr> rowExprs;
  if (r.perBatch)
    rowExprs.push_back(lead[0]);
  rowExprs.append({lead[r.tokenAxis], pair});
  AffineMap rowMap = AffineMap::get(numLoops, 0, rowExprs, ctx);
  AffineMap outMap = b.getMultiDimIdentityMap(numLoops);

  auto rotate = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, ValueRange{x1, x2, cosRows, sinRows},
      ValueRange{init},
      ArrayRef<AffineMap>{pairMap, pairMap, rowMap, rowMap, outMap},
      parallelIterators(numLoops),
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        auto [o1, o2] = emitRotatedPair(
            nb, nloc, castFloat(nb, nloc, args[0], f32),
            castFloat(nb, nloc, args[1], f32), args[2], args[3]);
        Value isFirst =
            arith::CmpIOp::create(nb, nloc, arith::CmpIPredicate::eq,
                                  linalg::IndexOp::create(nb, nloc, channelDim),
                                  arith::ConstantIndexOp::create(nb, nloc, 0));
        Value out = arith::SelectOp::create(nb, nloc, isFirst, o1, o2);
        linalg::YieldOp::create(nb, nloc,
                                castFloat(nb, nloc, out, elementType));
      });

  SmallVector<ReassociationIndices> reassociation;
  for (int64_t i = 0; i < rank - 1; ++i)
    reassociation.push_back({i});
  reassociation.push_back({rank - 1, rank});
  SmallVector<int64_t> shape(r.xType.getShape());
  shape.back() = r.rotaryDim;
  return tensor::CollapseShapeOp::create(
      b, loc, RankedTensorType::get(shape, elementType), rotate.getResult(0),
      reassociation);
}

//===----------------------------------------------------------------------===//
// Pass-through channels
//===----------------------------------------------------------------------===//

/// The result: `rotated` as channels [0, rotary_dim), the channels
/// [rotary_dim, D) of x copied after it (a linalg.copy, tiled and vectorized
/// like the rest).
Value emitWithPassThrough(OpBuilder &b, Location loc, const RotaryLowering &r,
                          Value rotated) {
  int64_t headDim = r.xType.getShape().back();
  if (r.rotaryDim == headDim)
    return rotated;
  SmallVector<OpFoldResult> zeros(r.rank, b.getIndexAttr(0));
  SmallVector<OpFoldResult> unit(r.rank, b.getIndexAttr(1));
  SmallVector<OpFoldResult> rotatedSizes(r.xSizes);
  rotatedSizes.back() = b.getIndexAttr(r.rotaryDim);
  Value full = emptyLike(b, loc, r.xSizes, r.getElementType());
  Value result = tensor::InsertSliceOp::create(b, loc, rotated, full, zeros,
                                               rotatedSizes, unit);
  SmallVector<OpFoldResult> passSizes(r.xSizes);
  passSizes.back() = b.getIndexAttr(headDim - r.rotaryDim);
  SmallVector<OpFoldResult> passOffsets(zeros);
  passOffsets.back() = b.getIndexAttr(r.rotaryDim);
  Value pass =
      tensor::ExtractSliceOp::create(b, loc, r.x, passOffsets, passSizes, unit);
  Value passInit = tensor::ExtractSliceOp::create(b, loc, result, passOffsets,
                                                  passSizes, unit);
  Value copied = linalg::CopyOp::create(b, loc, pass, passInit).getResult(0);
  return tensor::InsertSliceOp::create(b, loc, copied, result, passOffsets,
                                       passSizes, unit);
}

struct LowerRotary : OpRewritePattern<RotaryOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(RotaryOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RotaryLowering r(rewriter, loc, op);
    // No elements: nothing to rotate. (The slices below would have offset 0
    // in an extent of 0, which tensor.extract_slice rejects.)
    if (llvm::is_contained(r.xType.getShape(), 0)) {
      rewriter.replaceOp(
          op, emptyLike(rewriter, loc, r.xSizes, r.getElementType()));
      return success();
    }
    emitExtentAsserts(rewriter, op);
    r.offset = emitOffsetOrZero(rewriter, loc, op.getOffset());
    // Table rows are positions: as for posenc.learned_absolute, a position
    // outside the tables is a runtime error, never an out-of-bounds read.
    if (op.getCos())
      emitPositionsInTableAssert(
          rewriter, loc, op.getPositions(), r.offset, r.x, r.tokenAxis,
          op.getCos(), "posenc.rotary: position outside the cos/sin tables");
    auto [cosRows, sinRows] = emitCosSinRows(rewriter, loc, r);
    Value rotated = emitRotation(rewriter, loc, r, cosRows, sinRows);
    rewriter.replaceOp(op, emitWithPassThrough(rewriter, loc, r, rotated));
    return success();
  }
};

} // namespace

void mlir::posenc::populateRotaryLoweringPatterns(RewritePatternSet &patterns) {
  patterns.add<LowerRotary>(patterns.getContext());
}
