//===- FrequenciesToArith.cpp - lower posenc.rope_frequencies -------------===//
//
// Static schemes become constants computed in fp64 and rounded once; the
// runtime schemes (HF dynamic NTK, HF LongRoPE switch) build their runtime
// form (RopeScalingAttrInterface::buildRuntimeFrequencies) from the
// arith/math/linalg pieces of LinalgFrequencyBuilder. Which scheme is which
// is the interface's business, not this file's.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

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

/// The diagnostic of a table too large to materialize as a constant.
LogicalResult emitTableTooLarge(RopeFrequenciesOp op) {
  return op.emitOpError("rotary_dim/2 = ")
         << op.getRotaryDim() / 2 << " frequencies exceed the "
         << kMaxConstantElements << " the lowering materializes as a constant";
}

/// The f32 attention factor constant.
Value buildFactorConstant(OpBuilder &b, Location loc, double factor) {
  return arith::ConstantOp::create(
      b, loc, b.getF32FloatAttr(static_cast<float>(factor)));
}

/// Runtime frequencies at the pattern's insertion point: scalars as arith /
/// math ops on f64, tables as a linalg.generic over the pairs or constants.
class LinalgFrequencyBuilder : public RuntimeFrequencyBuilder {
public:
  LinalgFrequencyBuilder(OpBuilder &b, RopeFrequenciesOp op)
      : b(b), op(op), loc(op.getLoc()), arith(b, loc),
        seqLen(toI64(b, loc, op.getSeqLen())) {}

  ScalarArith &getArith() override { return arith; }

  Scalar getSeqLen() override {
    return Value(arith::SIToFPOp::create(b, loc, b.getF64Type(), seqLen));
  }

  Value emitSeqLenExceeds(int64_t length) override {
    return arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::sgt, seqLen,
        arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(length)));
  }

  Value
  buildTable(function_ref<Scalar(ScalarArith &, Scalar twoI)> entry) override {
    RankedTensorType type = op.getInvFreq().getType();
    Value init =
        tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
    AffineMap id = b.getMultiDimIdentityMap(1);
    auto generic = linalg::GenericOp::create(
        b, loc, type, ValueRange{}, ValueRange{init}, ArrayRef<AffineMap>{id},
        parallelIterators(1), [&](OpBuilder &nb, Location nloc, ValueRange) {
          Value i = linalg::IndexOp::create(nb, nloc, 0);
          Value twoI = arith::IndexCastOp::create(
              nb, nloc, nb.getI64Type(),
              arith::ShLIOp::create(
                  nb, nloc, i, arith::ConstantIndexOp::create(nb, nloc, 1)));
          ScalarArithBuilder bodyArith(nb, nloc);
          Value value = bodyArith.materialize(entry(
              bodyArith,
              Value(arith::SIToFPOp::create(nb, nloc, nb.getF64Type(), twoI))));
          linalg::YieldOp::create(
              nb, nloc, castFloat(nb, nloc, value, type.getElementType()));
        });
    return generic.getResult(0);
  }

  FailureOr<Value> buildConstantTable(ArrayRef<double> values) override {
    if (static_cast<int64_t>(values.size()) > kMaxConstantElements)
      return emitTableTooLarge(op);
    return Value(arith::ConstantOp::create(
        b, loc, getRoundedElements(op.getInvFreq().getType(), values)));
  }

  Value buildAttentionFactor(double factor) override {
    return buildFactorConstant(b, loc, factor);
  }

  Value emitSelect(Value condition, Value onTrue, Value onFalse) override {
    return arith::SelectOp::create(b, loc, condition, onTrue, onFalse);
  }

private:
  OpBuilder &b;
  RopeFrequenciesOp op;
  Location loc;
  ScalarArithBuilder arith;
  /// The runtime sequence length (i64).
  Value seqLen;
};

struct LowerRopeFrequencies : OpRewritePattern<RopeFrequenciesOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(RopeFrequenciesOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RopeScalingAttrInterface scaling = op.getScalingAttr();
    int64_t rotaryDim = op.getRotaryDim();
    double base = op.getBase().convertToDouble();

    if (!scaling || !scaling.needsSeqLen()) {
      if (rotaryDim / 2 > kMaxConstantElements)
        return emitTableTooLarge(op);
      RopeFrequencies freqs =
          computeRopeFrequencies(scaling, rotaryDim, base, std::nullopt);
      Value invFreq = arith::ConstantOp::create(
          rewriter, loc,
          getRoundedElements(op.getInvFreq().getType(), freqs.invFreq));
      rewriter.replaceOp(
          op,
          {invFreq, buildFactorConstant(rewriter, loc, freqs.attentionFactor)});
      return success();
    }

    LinalgFrequencyBuilder builder(rewriter, op);
    FailureOr<RuntimeFrequencies> freqs =
        scaling.buildRuntimeFrequencies(builder, rotaryDim, base);
    if (failed(freqs))
      return rewriter.notifyMatchFailure(op, "no runtime form of the scheme");
    rewriter.replaceOp(op, {freqs->invFreq, freqs->attentionFactor});
    return success();
  }
};

} // namespace

void mlir::posenc::populateFrequencyLoweringPatterns(
    RewritePatternSet &patterns) {
  patterns.add<LowerRopeFrequencies>(patterns.getContext());
}
