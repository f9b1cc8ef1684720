//===- AlibiToLinalg.cpp - lower posenc.alibi -----------------------------===//
//
// One generic over [B?, H, Sq, Sk] computing the bias from indices: slopes
// are fp64-computed constants (or the slopes operand), positions come from
// the operands or from the alignment rule.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "Patterns.h"

#include "posenc/IR/PosEncNumerics.h"
#include "posenc/IR/PosEncOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::posenc;

Value mlir::posenc::emitAlibiSlopes(OpBuilder &b, Location loc,
                                    AlibiSlopesAttr config, int64_t heads) {
  SmallVector<double> slopes;
  for (int64_t h = 0; h < heads; ++h)
    slopes.push_back(alibiSlope(config.getHeadOffset() + h,
                                config.getNumHeads(), config.getMaxBias()));
  auto type = RankedTensorType::get({heads}, b.getF32Type());
  return arith::ConstantOp::create(b, loc, getRoundedElements(type, slopes));
}

Value mlir::posenc::emitAlibiBias(OpBuilder &b, Location loc, Value slope,
                                  Value qPos, Value kPos, AlibiForm form) {
  Type f32 = b.getF32Type();
  if (form == AlibiForm::key_linear)
    return arith::MulFOp::create(b, loc, slope,
                                 arith::SIToFPOp::create(b, loc, f32, kPos));
  // -m * |q - k|, the distance formed exactly in integers as max(q-k, k-q):
  // arith lowers n-D vectors to LLVM, math.absi does not.
  Value distance =
      arith::MaxSIOp::create(b, loc, arith::SubIOp::create(b, loc, qPos, kPos),
                             arith::SubIOp::create(b, loc, kPos, qPos));
  return arith::NegFOp::create(
      b, loc,
      arith::MulFOp::create(b, loc, slope,
                            arith::SIToFPOp::create(b, loc, f32, distance)));
}

namespace {

struct LowerAlibi : OpRewritePattern<AlibiOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AlibiOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    auto type = op.getResult().getType();
    int64_t rank = type.getRank();
    bool batched = rank == 4;
    int64_t hDim = rank - 3, qDim = rank - 2, kDim = rank - 1;
    if (!op.getSlopes() && type.getDimSize(hDim) > kMaxConstantElements)
      return op.emitOpError("ALiBi slopes of ")
             << type.getDimSize(hDim) << " heads exceed the "
             << kMaxConstantElements
             << " the lowering materializes as a constant; pass a slopes "
                "tensor";

    // Result extents, dynamic ones read from the operands (see verifier).
    SmallVector<OpFoldResult> sizes;
    auto dimOf = [&](Value v, int64_t d) {
      return tensor::getMixedSize(rewriter, loc, v, d);
    };
    auto extent = [&](int64_t d, Value source, int64_t sourceDim) {
      if (!type.isDynamicDim(d))
        return OpFoldResult(rewriter.getIndexAttr(type.getDimSize(d)));
      return dimOf(source, sourceDim);
    };
    Value qp = op.getQPositions(), kp = op.getKPositions();
    auto rankOf = [](Value v) {
      return v ? cast<RankedTensorType>(v.getType()).getRank() : 0;
    };
    if (batched)
      sizes.push_back(extent(0, rankOf(qp) == 2 ? qp : kp, 0));
    sizes.push_back(extent(hDim, op.getSlopes(), 0));
    sizes.push_back(extent(qDim, qp, rankOf(qp) - 1));
    sizes.push_back(extent(kDim, kp, rankOf(kp) - 1));

    Value slopes = op.getSlopes();
    if (!slopes)
      slopes = emitAlibiSlopes(rewriter, loc, op.getConfigAttr(),
                               type.getDimSize(hDim));

    SmallVector<Value> inputs{slopes};
    SmallVector<AffineMap> maps{
        AffineMap::get(rank, 0, {getAffineDimExpr(hDim, ctx)}, ctx)};
    auto positionMap = [&](Value positions, int64_t tokenDim) {
      SmallVector<AffineExpr> exprs;
      if (rankOf(positions) == 2)
        exprs.push_back(getAffineDimExpr(0, ctx));
      exprs.push_back(getAffineDimExpr(tokenDim, ctx));
      return AffineMap::get(rank, 0, exprs, ctx);
    };
    if (qp) {
      inputs.push_back(qp);
      maps.push_back(positionMap(qp, qDim));
    }
    if (kp) {
      inputs.push_back(kp);
      maps.push_back(positionMap(kp, kDim));
    }
    maps.push_back(rewriter.getMultiDimIdentityMap(rank));

    // Bottom-right alignment: query row i sits at key position i + Sk - Sq.
    Value qShift;
    if (!qp && op.getAlignment() == Alignment::bottom_right) {
      Value sq = getValueOrCreateConstantIndexOp(rewriter, loc, sizes[qDim]);
      Value sk = getValueOrCreateConstantIndexOp(rewriter, loc, sizes[kDim]);
      qShift = toI64(rewriter, loc,
                     rewriter.createOrFold<arith::SubIOp>(loc, sk, sq));
    }

    Type elementType = type.getElementType();
    Value init = emptyLike(rewriter, loc, sizes, elementType);
    AlibiForm form = op.getForm();
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, inputs, ValueRange{init}, maps,
        parallelIterators(rank),
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          unsigned next = 1;
          Value qPos, kPos;
          if (qp) {
            qPos = toI64(b, nloc, args[next++]);
          } else {
            qPos = toI64(b, nloc, linalg::IndexOp::create(b, nloc, qDim));
            if (qShift)
              qPos = arith::AddIOp::create(b, nloc, qPos, qShift);
          }
          kPos = kp ? toI64(b, nloc, args[next++])
                    : toI64(b, nloc, linalg::IndexOp::create(b, nloc, kDim));
          Value bias = emitAlibiBias(b, nloc, args[0], qPos, kPos, form);
          linalg::YieldOp::create(b, nloc,
                                  castFloat(b, nloc, bias, elementType));
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

} // namespace

void mlir::posenc::populateAlibiLoweringPatterns(RewritePatternSet &patterns) {
  patterns.add<LowerAlibi>(patterns.getContext());
}
