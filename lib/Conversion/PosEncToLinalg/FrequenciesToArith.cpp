//===- FrequenciesToArith.cpp - lower posenc.rope_frequencies -------------===//
//
// Static schemes become constants computed in fp64 and rounded once; the
// runtime schemes (HF dynamic NTK, HF LongRoPE switch) become arith/math on
// the runtime sequence length.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "Patterns.h"

#include "posenc/IR/PosEncNumerics.h"
#include "posenc/IR/PosEncOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/PatternMatch.h"

#include <limits>

using namespace mlir;
using namespace mlir::posenc;

namespace {

Value f64Const(OpBuilder &b, Location loc, double v) {
  return arith::ConstantOp::create(b, loc, b.getF64FloatAttr(v));
}

/// HF dynamic NTK on the runtime length `len` (i64):
/// base' = base * (s * max(len, M) / M - (s - 1))^(d/(d-2)),
/// inv[i] = 1 / base'^(2i/d).
Value emitDynamicNtk(OpBuilder &b, Location loc, DynamicNtkAttr ntk,
                     int64_t rotaryDim, double base, Value len,
                     RankedTensorType type) {
  double s = ntk.getFactor();
  int64_t maxPos = ntk.getMaxPositionEmbeddings();
  double d = static_cast<double>(rotaryDim);
  Value length = arith::MaxSIOp::create(
      b, loc, len,
      arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(maxPos)));
  Value lengthF = arith::SIToFPOp::create(b, loc, b.getF64Type(), length);
  Value ratio = arith::SubFOp::create(
      b, loc,
      arith::MulFOp::create(b, loc, lengthF,
                            f64Const(b, loc, s / static_cast<double>(maxPos))),
      f64Const(b, loc, s - 1.0));
  Value scaledBase = arith::MulFOp::create(
      b, loc, f64Const(b, loc, base),
      math::PowFOp::create(b, loc, ratio, f64Const(b, loc, d / (d - 2.0))));

  Value init =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  AffineMap id = b.getMultiDimIdentityMap(1);
  auto generic = linalg::GenericOp::create(
      b, loc, type, ValueRange{}, ValueRange{init}, ArrayRef<AffineMap>{id},
      parallelIterators(1), [&](OpBuilder &nb, Location nloc, ValueRange) {
        Value i = linalg::IndexOp::create(nb, nloc, 0);
        Value twoI = arith::IndexCastOp::create(
            nb, nloc, nb.getI64Type(),
            arith::ShLIOp::create(nb, nloc, i,
                                  arith::ConstantIndexOp::create(nb, nloc, 1)));
        Value exponent = arith::DivFOp::create(
            nb, nloc, arith::SIToFPOp::create(nb, nloc, nb.getF64Type(), twoI),
            f64Const(nb, nloc, d));
        Value inv = arith::DivFOp::create(
            nb, nloc, f64Const(nb, nloc, 1.0),
            math::PowFOp::create(nb, nloc, scaledBase, exponent));
        linalg::YieldOp::create(
            nb, nloc, castFloat(nb, nloc, inv, type.getElementType()));
      });
  return generic.getResult(0);
}

struct LowerRopeFrequencies : OpRewritePattern<RopeFrequenciesOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(RopeFrequenciesOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getInvFreq().getType();
    RopeScalingAttrInterface scaling = op.getScalingAttr();
    int64_t rotaryDim = op.getRotaryDim();
    double base = op.getBase().convertToDouble();
    auto constant = [&](ArrayRef<double> values) -> Value {
      return arith::ConstantOp::create(rewriter, loc,
                                       getRoundedElements(type, values));
    };
    auto factorConstant = [&](double factor) -> Value {
      return arith::ConstantOp::create(
          rewriter, loc, rewriter.getF32FloatAttr(static_cast<float>(factor)));
    };

    // Every scheme but HF dynamic NTK is lowered to constant tables.
    if (rotaryDim / 2 > kMaxConstantElements &&
        !(scaling && isa<DynamicNtkAttr>(scaling) && scaling.needsSeqLen()))
      return op.emitOpError("rotary_dim/2 = ")
             << rotaryDim / 2 << " frequencies exceed the "
             << kMaxConstantElements
             << " the lowering materializes as a constant";

    if (!scaling || !scaling.needsSeqLen()) {
      RopeFrequencies freqs =
          computeRopeFrequencies(scaling, rotaryDim, base, std::nullopt);
      rewriter.replaceOp(
          op, {constant(freqs.invFreq), factorConstant(freqs.attentionFactor)});
      return success();
    }

    Value len = toI64(rewriter, loc, op.getSeqLen());
    if (auto ntk = dyn_cast<DynamicNtkAttr>(scaling)) {
      Value inv =
          emitDynamicNtk(rewriter, loc, ntk, rotaryDim, base, len, type);
      rewriter.replaceOp(op, {inv, factorConstant(1.0)});
      return success();
    }
    if (auto longRope = dyn_cast<LongRopeAttr>(scaling)) {
      // Both factor sets are static; the runtime length picks one (HF: long
      // iff seq_len > original_max_position_embeddings).
      int64_t original = longRope.getOriginalMaxPositionEmbeddings();
      RopeFrequencies shortFreqs =
          computeRopeFrequencies(scaling, rotaryDim, base, original);
      // No i64 length exceeds original = 2^63 - 1: the long set is then never
      // selected (and original + 1 would overflow).
      RopeFrequencies longFreqs = computeRopeFrequencies(
          scaling, rotaryDim, base,
          original == std::numeric_limits<int64_t>::max() ? original
                                                          : original + 1);
      Value useLong = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::sgt, len,
          arith::ConstantOp::create(rewriter, loc,
                                    rewriter.getI64IntegerAttr(original)));
      Value inv = arith::SelectOp::create(rewriter, loc, useLong,
                                          constant(longFreqs.invFreq),
                                          constant(shortFreqs.invFreq));
      rewriter.replaceOp(op, {inv, factorConstant(longFreqs.attentionFactor)});
      return success();
    }
    return rewriter.notifyMatchFailure(op, "no runtime lowering for scheme");
  }
};

} // namespace

void mlir::posenc::populateFrequencyLoweringPatterns(
    RewritePatternSet &patterns) {
  patterns.add<LowerRopeFrequencies>(patterns.getContext());
}
