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

/// i1: `lo <= pos < hi` for i64 values.
Value inRange(OpBuilder &b, Location loc, Value pos, Value hi) {
  Value zero = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(0));
  return arith::AndIOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, pos, zero),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, pos, hi));
}

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
    if (!positions) {
      Value tokens = toI64(rewriter, loc,
                           tensor::DimOp::create(rewriter, loc, x, rank - 2));
      Value last = arith::AddIOp::create(rewriter, loc, offset, tokens);
      Value ok = arith::AndIOp::create(
          rewriter, loc,
          arith::CmpIOp::create(
              rewriter, loc, arith::CmpIPredicate::sge, offset,
              arith::ConstantOp::create(rewriter, loc,
                                        rewriter.getI64IntegerAttr(0))),
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sle, last,
                                rows));
      cf::AssertOp::create(rewriter, loc, ok, kOutOfTable);
    } else {
      auto posType = cast<RankedTensorType>(positions.getType());
      Value init = tensor::EmptyOp::create(rewriter, loc, ArrayRef<int64_t>{},
                                           rewriter.getI1Type());
      Value allTrue = linalg::FillOp::create(
                          rewriter, loc,
                          ValueRange{arith::ConstantOp::create(
                              rewriter, loc, rewriter.getBoolAttr(true))},
                          ValueRange{init})
                          .getResult(0);
      int64_t posRank = posType.getRank();
      auto check = linalg::GenericOp::create(
          rewriter, loc, TypeRange{init.getType()}, ValueRange{positions},
          ValueRange{allTrue},
          ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(posRank),
                              AffineMap::get(posRank, 0, {}, ctx)},
          SmallVector<utils::IteratorType>(posRank,
                                           utils::IteratorType::reduction),
          [&](OpBuilder &b, Location nloc, ValueRange args) {
            Value pos =
                arith::AddIOp::create(b, nloc, toI64(b, nloc, args[0]), offset);
            linalg::YieldOp::create(
                b, nloc,
                ValueRange{arith::AndIOp::create(b, nloc, args[1],
                                                 inRange(b, nloc, pos, rows))});
          });
      Value ok = tensor::ExtractOp::create(rewriter, loc, check.getResult(0),
                                           ValueRange{});
      cf::AssertOp::create(rewriter, loc, ok, kOutOfTable);
    }

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
