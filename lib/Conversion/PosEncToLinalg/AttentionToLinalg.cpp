//===- AttentionToLinalg.cpp - lower posenc.attention ---------------------===//
//
// The reference decomposition of posenc.attention: RoPE on q and k (as
// posenc.rotary, lowered by its own pattern), QK^T with GQA by indexing,
// scale + ALiBi + causal mask from indices, a numerically safe softmax, and
// PV. All accumulation is f32. Fused, tiled kernels are built from this
// contract by later passes.
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

namespace {

using utils::IteratorType;

Value f32Const(OpBuilder &b, Location loc, float v) {
  return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
}

Value negInf(OpBuilder &b, Location loc) {
  return arith::ConstantOp::create(
      b, loc,
      b.getFloatAttr(b.getF32Type(), APFloat::getInf(APFloat::IEEEsingle(),
                                                     /*Negative=*/true)));
}

/// `tensor.empty` of `sizes` filled with `value`.
Value filled(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> sizes,
             Value value) {
  Value init = emptyLike(b, loc, sizes, value.getType());
  return linalg::FillOp::create(b, loc, ValueRange{value}, ValueRange{init})
      .getResult(0);
}

AffineMap mapOf(MLIRContext *ctx, unsigned numDims,
                ArrayRef<AffineExpr> exprs) {
  return AffineMap::get(numDims, 0, exprs, ctx);
}

struct LowerAttention : OpRewritePattern<AttentionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AttentionOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    Type f32 = rewriter.getF32Type();
    Value q = op.getQuery(), k = op.getKey(), v = op.getValue();
    auto qType = cast<RankedTensorType>(q.getType());
    auto kType = cast<RankedTensorType>(k.getType());
    Type elementType = qType.getElementType();
    SmallVector<OpFoldResult> qSizes = getSizes(rewriter, loc, q);
    SmallVector<OpFoldResult> kSizes = getSizes(rewriter, loc, k);
    SmallVector<OpFoldResult> vSizes = getSizes(rewriter, loc, v);
    if (qType.isDynamicDim(1) || kType.isDynamicDim(1))
      return rewriter.notifyMatchFailure(op, "dynamic head counts");
    if (op.getAlibiAttr() && qType.getDimSize(1) > kMaxConstantElements)
      return op.emitOpError("ALiBi slopes of ")
             << qType.getDimSize(1) << " heads exceed the "
             << kMaxConstantElements
             << " the lowering materializes as a constant; pass alibi "
                "slopes as a tensor";
    int64_t group = qType.getDimSize(1) / kType.getDimSize(1);
    Value qPositions = op.getQPositions(), kPositions = op.getKPositions();

    // Default query positions: i + Sk - Sq (bottom_right) or i (top_left).
    Value qShift;
    if (!qPositions && op.getAlignment() == Alignment::bottom_right) {
      Value sq = getValueOrCreateConstantIndexOp(rewriter, loc, qSizes[2]);
      Value sk = getValueOrCreateConstantIndexOp(rewriter, loc, kSizes[2]);
      qShift = rewriter.createOrFold<arith::SubIOp>(loc, sk, sq);
    }

    if (RopeAttr rope = op.getRopeAttr()) {
      auto rotate = [&](Value x, Value positions, Value offset) -> Value {
        return RotaryOp::create(rewriter, loc, x.getType(), x, op.getInvFreq(),
                                Value(), Value(), positions, offset,
                                op.getAttentionFactor(), rope.getLayout(),
                                rope.getRotaryDim(), IntegerAttr(),
                                DenseI64ArrayAttr(), MRopeLayoutAttr());
      };
      q = rotate(q, qPositions, qPositions ? Value() : qShift);
      k = rotate(k, kPositions, Value());
    }

    // scores[b, h, i, j] = sum_d q[b, h, i, d] * k[b, h / group, j, d].
    AffineExpr b0 = getAffineDimExpr(0, ctx), h = getAffineDimExpr(1, ctx),
               i = getAffineDimExpr(2, ctx), j = getAffineDimExpr(3, ctx),
               r = getAffineDimExpr(4, ctx);
    AffineExpr kvHead = h.floorDiv(group);
    SmallVector<OpFoldResult> scoreSizes{qSizes[0], qSizes[1], qSizes[2],
                                         kSizes[2]};
    Value zero = f32Const(rewriter, loc, 0.0f);
    auto mulAdd = [&](OpBuilder &b, Location nloc, ValueRange args) {
      Value product =
          arith::MulFOp::create(b, nloc, castFloat(b, nloc, args[0], f32),
                                castFloat(b, nloc, args[1], f32));
      linalg::YieldOp::create(
          b, nloc,
          ValueRange{arith::AddFOp::create(b, nloc, args[2], product)});
    };
    SmallVector<IteratorType> contractIters{
        IteratorType::parallel, IteratorType::parallel, IteratorType::parallel,
        IteratorType::parallel, IteratorType::reduction};
    Value scores = linalg::GenericOp::create(
                       rewriter, loc,
                       TypeRange{RankedTensorType::get(
                           {qType.getDimSize(0), qType.getDimSize(1),
                            qType.getDimSize(2), kType.getDimSize(2)},
                           f32)},
                       ValueRange{q, k},
                       ValueRange{filled(rewriter, loc, scoreSizes, zero)},
                       ArrayRef<AffineMap>{mapOf(ctx, 5, {b0, h, i, r}),
                                           mapOf(ctx, 5, {b0, kvHead, j, r}),
                                           mapOf(ctx, 5, {b0, h, i, j})},
                       contractIters, mulAdd)
                       .getResult(0);
    auto scoreType = cast<RankedTensorType>(scores.getType());

    // logits = scores * scale + alibi, masked where k_pos > q_pos.
    SmallVector<Value> inputs{scores};
    SmallVector<AffineMap> maps{rewriter.getMultiDimIdentityMap(4)};
    Value slopes = op.getAlibiSlopes();
    if (AlibiSlopesAttr alibi = op.getAlibiAttr())
      slopes = emitAlibiSlopes(rewriter, loc, alibi, qType.getDimSize(1));
    auto positionMap = [&](Value positions, AffineExpr token) {
      if (cast<RankedTensorType>(positions.getType()).getRank() == 2)
        return mapOf(ctx, 4, {b0, token});
      return mapOf(ctx, 4, {token});
    };
    int slopeArg = -1, qArg = -1, kArg = -1;
    if (slopes) {
      slopeArg = inputs.size();
      inputs.push_back(slopes);
      maps.push_back(mapOf(ctx, 4, {h}));
    }
    if (qPositions) {
      qArg = inputs.size();
      inputs.push_back(qPositions);
      maps.push_back(positionMap(qPositions, i));
    }
    if (kPositions) {
      kArg = inputs.size();
      inputs.push_back(kPositions);
      maps.push_back(positionMap(kPositions, j));
    }
    maps.push_back(rewriter.getMultiDimIdentityMap(4));
    Value scale =
        f32Const(rewriter, loc, static_cast<float>(op.getScaleOrDefault()));
    Value qShift64 = qShift ? toI64(rewriter, loc, qShift) : Value();
    bool causal = op.getCausal();
    AlibiForm form = op.getAlibiForm();
    Value logits =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{scoreType}, inputs,
            ValueRange{emptyLike(rewriter, loc, scoreSizes, f32)}, maps,
            parallelIterators(4),
            [&](OpBuilder &b, Location nloc, ValueRange args) {
              Value qPos =
                  qArg >= 0
                      ? toI64(b, nloc, args[qArg])
                      : toI64(b, nloc, linalg::IndexOp::create(b, nloc, 2));
              if (qArg < 0 && qShift64)
                qPos = arith::AddIOp::create(b, nloc, qPos, qShift64);
              Value kPos =
                  kArg >= 0
                      ? toI64(b, nloc, args[kArg])
                      : toI64(b, nloc, linalg::IndexOp::create(b, nloc, 3));
              Value logit = arith::MulFOp::create(b, nloc, args[0], scale);
              if (slopeArg >= 0)
                logit = arith::AddFOp::create(
                    b, nloc, logit,
                    emitAlibiBias(b, nloc, args[slopeArg], qPos, kPos, form));
              if (causal) {
                Value future = arith::CmpIOp::create(
                    b, nloc, arith::CmpIPredicate::sgt, kPos, qPos);
                logit = arith::SelectOp::create(b, nloc, future,
                                                negInf(b, nloc), logit);
              }
              linalg::YieldOp::create(b, nloc, logit);
            })
            .getResult(0);

    // Softmax over j. Fully masked rows produce zeros, not NaN.
    SmallVector<OpFoldResult> rowSizes{qSizes[0], qSizes[1], qSizes[2]};
    auto rowType = RankedTensorType::get(
        {qType.getDimSize(0), qType.getDimSize(1), qType.getDimSize(2)}, f32);
    AffineMap full = rewriter.getMultiDimIdentityMap(4);
    AffineMap row = mapOf(ctx, 4, {b0, h, i});
    SmallVector<IteratorType> rowReduce{
        IteratorType::parallel, IteratorType::parallel, IteratorType::parallel,
        IteratorType::reduction};
    Value rowMax =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{rowType}, ValueRange{logits},
            ValueRange{filled(rewriter, loc, rowSizes, negInf(rewriter, loc))},
            ArrayRef<AffineMap>{full, row}, rowReduce,
            [&](OpBuilder &b, Location nloc, ValueRange args) {
              linalg::YieldOp::create(b, nloc,
                                      ValueRange{arith::MaximumFOp::create(
                                          b, nloc, args[0], args[1])});
            })
            .getResult(0);
    Value exps =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{scoreType}, ValueRange{logits, rowMax},
            ValueRange{emptyLike(rewriter, loc, scoreSizes, f32)},
            ArrayRef<AffineMap>{full, row, full}, parallelIterators(4),
            [&](OpBuilder &b, Location nloc, ValueRange args) {
              Value masked = arith::CmpFOp::create(
                  b, nloc, arith::CmpFPredicate::OEQ, args[1], negInf(b, nloc));
              Value e = math::ExpOp::create(
                  b, nloc, arith::SubFOp::create(b, nloc, args[0], args[1]));
              linalg::YieldOp::create(
                  b, nloc,
                  ValueRange{arith::SelectOp::create(
                      b, nloc, masked, f32Const(b, nloc, 0.0f), e)});
            })
            .getResult(0);
    Value rowSum =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{rowType}, ValueRange{exps},
            ValueRange{filled(rewriter, loc, rowSizes, zero)},
            ArrayRef<AffineMap>{full, row}, rowReduce,
            [&](OpBuilder &b, Location nloc, ValueRange args) {
              linalg::YieldOp::create(
                  b, nloc,
                  ValueRange{arith::AddFOp::create(b, nloc, args[0], args[1])});
            })
            .getResult(0);
    Value probs =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{scoreType}, ValueRange{exps, rowSum},
            ValueRange{emptyLike(rewriter, loc, scoreSizes, f32)},
            ArrayRef<AffineMap>{full, row, full}, parallelIterators(4),
            [&](OpBuilder &b, Location nloc, ValueRange args) {
              Value empty =
                  arith::CmpFOp::create(b, nloc, arith::CmpFPredicate::OEQ,
                                        args[1], f32Const(b, nloc, 0.0f));
              Value p = arith::DivFOp::create(b, nloc, args[0], args[1]);
              linalg::YieldOp::create(
                  b, nloc,
                  ValueRange{arith::SelectOp::create(
                      b, nloc, empty, f32Const(b, nloc, 0.0f), p)});
            })
            .getResult(0);

    // out[b, h, i, e] = sum_j p[b, h, i, j] * v[b, h / group, j, e].
    AffineExpr e = getAffineDimExpr(3, ctx), jr = getAffineDimExpr(4, ctx);
    SmallVector<OpFoldResult> outSizes{qSizes[0], qSizes[1], qSizes[2],
                                       vSizes[3]};
    auto accType = RankedTensorType::get(
        {qType.getDimSize(0), qType.getDimSize(1), qType.getDimSize(2),
         cast<RankedTensorType>(v.getType()).getDimSize(3)},
        f32);
    Value acc = linalg::GenericOp::create(
                    rewriter, loc, TypeRange{accType}, ValueRange{probs, v},
                    ValueRange{filled(rewriter, loc, outSizes, zero)},
                    ArrayRef<AffineMap>{mapOf(ctx, 5, {b0, h, i, jr}),
                                        mapOf(ctx, 5, {b0, kvHead, jr, e}),
                                        mapOf(ctx, 5, {b0, h, i, e})},
                    contractIters, mulAdd)
                    .getResult(0);
    Value outInit = emptyLike(rewriter, loc, outSizes, elementType);
    Value out = linalg::GenericOp::create(
                    rewriter, loc, TypeRange{outInit.getType()},
                    ValueRange{acc}, ValueRange{outInit},
                    ArrayRef<AffineMap>{full, full}, parallelIterators(4),
                    [&](OpBuilder &b, Location nloc, ValueRange args) {
                      linalg::YieldOp::create(
                          b, nloc, castFloat(b, nloc, args[0], elementType));
                    })
                    .getResult(0);
    // The result type may be more or less static than the operands (e.g.
    // `-> tensor<2x128x1x?xbf16>` from a static Dv): the generic has the
    // operands' type, a cast gives the op's.
    if (out.getType() != op.getResult().getType())
      out =
          tensor::CastOp::create(rewriter, loc, op.getResult().getType(), out);
    rewriter.replaceOp(op, out);
    return success();
  }
};

} // namespace

void mlir::posenc::populateAttentionLoweringPatterns(
    RewritePatternSet &patterns) {
  patterns.add<LowerAttention>(patterns.getContext());
}
