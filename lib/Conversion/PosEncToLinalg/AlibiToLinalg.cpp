//===- AlibiToLinalg.cpp - lower posenc.alibi -----------------------------===//
//
// One generic over [B?, H, Sq, Sk] computing the bias from indices: slopes
// are fp64-computed constants (or the slopes operand), positions come from
// the operands or from the alignment rule.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "posenc/Codegen/ExtentChecks.h"
#include "posenc/Codegen/LinalgBuilders.h"
#include "posenc/IR/PosEncNumerics.h"
#include "posenc/IR/PosEncOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::posenc;

namespace {

/// Extents of the result [B?, H, Sq, Sk], dynamic ones read from the
/// operands (the verifier guarantees one has them).
SmallVector<OpFoldResult> getResultSizes(OpBuilder &b, Location loc,
                                         AlibiOp op) {
  RankedTensorType type = op.getResult().getType();
  int64_t rank = type.getRank();
  auto extent = [&](int64_t d, Value source, int64_t sourceDim) {
    if (!type.isDynamicDim(d))
      return OpFoldResult(b.getIndexAttr(type.getDimSize(d)));
    return tensor::getMixedSize(b, loc, source, sourceDim);
  };
  Value qp = op.getQPositions(), kp = op.getKPositions();
  auto rankOf = [](Value v) {
    return v ? cast<RankedTensorType>(v.getType()).getRank() : 0;
  };
  SmallVector<OpFoldResult> sizes;
  if (rank == 4)
    sizes.push_back(extent(0, rankOf(qp) == 2 ? qp : kp, 0));
  sizes.push_back(extent(rank - 3, op.getSlopes(), 0));
  sizes.push_back(extent(rank - 2, qp, rankOf(qp) - 1));
  sizes.push_back(extent(rank - 1, kp, rankOf(kp) - 1));
  return sizes;
}

/// The i64 shift of default query positions (null with q_positions or
/// top_left alignment).
Value emitQueryShift(OpBuilder &b, Location loc, AlibiOp op,
                     ArrayRef<OpFoldResult> sizes) {
  if (op.getQPositions())
    return Value();
  Value shift = emitQueryShift(b, loc, op.getAlignment(),
                               sizes[sizes.size() - 2], sizes.back());
  return shift ? toI64(b, loc, shift) : Value();
}

/// The bias generic over [B?, H, Sq, Sk]: slope of the head, positions of
/// the query and key from the operands or the indices.
Value emitBias(OpBuilder &b, Location loc, AlibiOp op, Value slopes,
               Value qShift, ArrayRef<OpFoldResult> sizes) {
  MLIRContext *ctx = b.getContext();
  RankedTensorType type = op.getResult().getType();
  int64_t rank = type.getRank();
  int64_t hDim = rank - 3, qDim = rank - 2, kDim = rank - 1;
  GenericInputs inputs;
  inputs.add(slopes,
             AffineMap::get(rank, 0, {getAffineDimExpr(hDim, ctx)}, ctx));
  int qArg = inputs.addPositions(op.getQPositions(), rank, qDim);
  int kArg = inputs.addPositions(op.getKPositions(), rank, kDim);

  Type elementType = type.getElementType();
  Value init = emptyLike(b, loc, sizes, elementType);
  AlibiForm form = op.getForm();
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, inputs.values, ValueRange{init},
             inputs.mapsWith({b.getMultiDimIdentityMap(rank)}),
             parallelIterators(rank),
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               Value qPos = emitLoopPosition(nb, nloc, getArgOrNull(args, qArg),
                                             qDim, qShift);
               Value kPos = emitLoopPosition(nb, nloc, getArgOrNull(args, kArg),
                                             kDim, Value());
               Value bias = emitAlibiBias(nb, nloc, args[0], qPos, kPos, form);
               linalg::YieldOp::create(nb, nloc,
                                       castFloat(nb, nloc, bias, elementType));
             })
      .getResult(0);
}

struct LowerAlibi : OpRewritePattern<AlibiOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AlibiOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getResult().getType();
    int64_t heads = type.getDimSize(type.getRank() - 3);
    if (!op.getSlopes() && heads > kMaxConstantElements)
      return op.emitOpError("ALiBi slopes of ")
             << heads << " heads exceed the " << kMaxConstantElements
             << " the lowering materializes as a constant; pass a slopes "
                "tensor";
    emitExtentAsserts(rewriter, op);
    SmallVector<OpFoldResult> sizes = getResultSizes(rewriter, loc, op);
    Value slopes = op.getSlopes();
    if (!slopes)
      slopes = emitAlibiSlopes(rewriter, loc, op.getConfigAttr(), heads);
    Value qShift = emitQueryShift(rewriter, loc, op, sizes);
    rewriter.replaceOp(op, emitBias(rewriter, loc, op, slopes, qShift, sizes));
    return success();
  }
};

} // namespace

void mlir::posenc::populateAlibiLoweringPatterns(RewritePatternSet &patterns) {
  patterns.add<LowerAlibi>(patterns.getContext());
}
