//===- LearnedAbsoluteToLinalg.cpp - lower posenc.learned_absolute --------===//
//
// A learned table cannot extrapolate: the lowering first checks at run time
// that every position is inside the table (cf.assert with a message, never a
// silent out-of-bounds read), then gathers rows and adds them.
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

constexpr const char *kOutOfTable =
    "posenc.learned_absolute: position outside the learned table (absolute "
    "embeddings cannot extrapolate)";

/// `x + table[pos]` of every token, in f32 for f16/bf16 inputs (rounded
/// once); `offset` is i64.
Value emitGatherAdd(OpBuilder &b, Location loc, LearnedAbsoluteOp op,
                    Value offset) {
  Value x = op.getInput(), table = op.getTable();
  RankedTensorType type = op.getInput().getType();
  int64_t rank = type.getRank();
  AffineMap id = b.getMultiDimIdentityMap(rank);
  GenericInputs inputs;
  inputs.add(x, id);
  int positionArg = inputs.addPositions(op.getPositions(), rank, rank - 2);
  Value init = emptyLike(b, loc, getSizes(b, loc, x), type.getElementType());
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, inputs.values, ValueRange{init},
             inputs.mapsWith({id}), parallelIterators(rank),
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               Value pos = emitLoopPosition(
                   nb, nloc, getArgOrNull(args, positionArg), rank - 2, offset);
               Value row =
                   arith::IndexCastOp::create(nb, nloc, nb.getIndexType(), pos);
               Value column = linalg::IndexOp::create(nb, nloc, rank - 1);
               Value embedding =
                   tensor::ExtractOp::create(nb, nloc, table, {row, column});
               Type f32 = nb.getF32Type();
               Value sum = arith::AddFOp::create(
                   nb, nloc, castFloat(nb, nloc, args[0], f32),
                   castFloat(nb, nloc, embedding, f32));
               linalg::YieldOp::create(
                   nb, nloc, castFloat(nb, nloc, sum, type.getElementType()));
             })
      .getResult(0);
}

struct LowerLearnedAbsolute : OpRewritePattern<LearnedAbsoluteOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(LearnedAbsoluteOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    emitExtentAsserts(rewriter, op);
    Value offset = emitOffsetOrZero(rewriter, loc, op.getOffset());
    emitPositionsInTableAssert(
        rewriter, loc, op.getPositions(), offset, op.getInput(),
        op.getInput().getType().getRank() - 2, op.getTable(), kOutOfTable);
    rewriter.replaceOp(op, emitGatherAdd(rewriter, loc, op, offset));
    return success();
  }
};

} // namespace

void mlir::posenc::populateLearnedAbsoluteLoweringPatterns(
    RewritePatternSet &patterns) {
  patterns.add<LowerLearnedAbsolute>(patterns.getContext());
}
