//===- LearnedAbsoluteToLinalg.cpp - lower posenc.learned_absolute --------===//
//
// A learned table cannot extrapolate: the lowering first checks at run time
// that every position is inside the table (cf.assert with a message, never a
// silent out-of-bounds read), then gathers rows and adds them.
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

constexpr const char *kOutOfTable =
    "posenc.learned_absolute: position outside the learned table (absolute "
    "embeddings cannot extrapolate)";

struct LowerLearnedAbsolute : OpRewritePattern<LearnedAbsoluteOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(LearnedAbsoluteOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    Value x = op.getInput(), table = op.getTable();
    auto type = cast<RankedTensorType>(x.getType());
    int64_t rank = type.getRank();
    Value rows =
        toI64(rewriter, loc, tensor::DimOp::create(rewriter, loc, table, 0));
    Value offset = op.getOffset()
                       ? toI64(rewriter, loc, op.getOffset())
                       : Value(arith::ConstantOp::create(
                             rewriter, loc, rewriter.getI64IntegerAttr(0)));
    Value positions = op.getPositions();

    // Runtime bounds check.
    Value tokens =
        positions ? Value()
                  : toI64(rewriter, loc,
                          tensor::DimOp::create(rewriter, loc, x, rank - 2));
    cf::AssertOp::create(
        rewriter, loc,
        emitPositionsInTable(rewriter, loc, positions, offset, tokens, rows),
        kOutOfTable);

    // Gather and add.
    SmallVector<Value> inputs{x};
    AffineMap id = rewriter.getMultiDimIdentityMap(rank);
    SmallVector<AffineMap> maps{id};
    if (positions) {
      SmallVector<AffineExpr> exprs;
      if (cast<RankedTensorType>(positions.getType()).getRank() == 2)
        exprs.push_back(getAffineDimExpr(0, ctx));
      exprs.push_back(getAffineDimExpr(rank - 2, ctx));
      inputs.push_back(positions);
      maps.push_back(AffineMap::get(rank, 0, exprs, ctx));
    }
    maps.push_back(id);
    Value init = emptyLike(rewriter, loc, getSizes(rewriter, loc, x),
                           type.getElementType());
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, inputs, ValueRange{init}, maps,
        parallelIterators(rank),
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          Value pos =
              positions
                  ? toI64(b, nloc, args[1])
                  : toI64(b, nloc, linalg::IndexOp::create(b, nloc, rank - 2));
          pos = arith::AddIOp::create(b, nloc, pos, offset);
          Value row =
              arith::IndexCastOp::create(b, nloc, b.getIndexType(), pos);
          Value column = linalg::IndexOp::create(b, nloc, rank - 1);
          Value embedding =
              tensor::ExtractOp::create(b, nloc, table, {row, column});
          // f32 arithmetic for f16/bf16 inputs, rounded once.
          Type f32 = b.getF32Type();
          Value sum =
              arith::AddFOp::create(b, nloc, castFloat(b, nloc, args[0], f32),
                                    castFloat(b, nloc, embedding, f32));
          linalg::YieldOp::create(
              b, nloc, castFloat(b, nloc, sum, type.getElementType()));
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

} // namespace

void mlir::posenc::populateLearnedAbsoluteLoweringPatterns(
    RewritePatternSet &patterns) {
  patterns.add<LowerLearnedAbsolute>(patterns.getContext());
}
