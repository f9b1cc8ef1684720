//===- AttentionEmitters.cpp - the numerics of posenc.attention -----------===//

#include "posenc/Codegen/AttentionEmitters.h"
#include "posenc/Codegen/Emitters.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <limits>

using namespace mlir;
using namespace mlir::posenc;

Value mlir::posenc::f32Const(OpBuilder &b, Location loc, float v) {
  return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
}

Value mlir::posenc::f32NegInf(OpBuilder &b, Location loc) {
  return f32ConstLike(b, loc, b.getF32Type(),
                      -std::numeric_limits<float>::infinity());
}

Value mlir::posenc::f32ConstLike(OpBuilder &b, Location loc, Type type,
                                 float v) {
  FloatAttr value = b.getF32FloatAttr(v);
  if (auto vector = dyn_cast<VectorType>(type))
    return arith::ConstantOp::create(b, loc,
                                     DenseElementsAttr::get(vector, value));
  return arith::ConstantOp::create(b, loc, value);
}

LogitRule LogitRule::get(AttentionOp op) {
  return {static_cast<float>(op.getScaleOrDefault()), op.getCausal(),
          op.getAlibiForm()};
}

Value mlir::posenc::emitAttentionLogit(OpBuilder &b, Location loc,
                                       const LogitRule &rule, Value score,
                                       Value slope, Value qPos, Value kPos,
                                       Value outside) {
  Type type = score.getType();
  Value logit = arith::MulFOp::create(b, loc, score,
                                      f32ConstLike(b, loc, type, rule.scale));
  if (slope)
    logit = arith::AddFOp::create(
        b, loc, logit,
        emitAlibiBias(b, loc, slope, qPos, kPos, rule.alibiForm));
  Value masked = outside;
  if (rule.causal) {
    Value future =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, kPos, qPos);
    masked = masked ? arith::OrIOp::create(b, loc, masked, future).getResult()
                    : future;
  }
  if (!masked)
    return logit;
  return arith::SelectOp::create(
      b, loc, masked,
      f32ConstLike(b, loc, type, -std::numeric_limits<float>::infinity()),
      logit);
}

Value mlir::posenc::emitSafeExp(OpBuilder &b, Location loc, Value x,
                                Value max) {
  Value masked = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, max,
                                       f32NegInf(b, loc));
  Value shifted = max;
  if (isa<VectorType>(x.getType()) && !isa<VectorType>(max.getType()))
    shifted = vector::BroadcastOp::create(b, loc, x.getType(), max);
  Value e =
      math::ExpOp::create(b, loc, arith::SubFOp::create(b, loc, x, shifted));
  return arith::SelectOp::create(b, loc, masked,
                                 f32ConstLike(b, loc, x.getType(), 0.0f), e);
}

std::pair<Value, Value> mlir::posenc::emitSinkStart(OpBuilder &b, Location loc,
                                                    Value sink) {
  Value max = castFloat(b, loc, sink, b.getF32Type());
  return {max, emitSafeExp(b, loc, max, max)};
}

Value mlir::posenc::emitNormalizedOutput(OpBuilder &b, Location loc, Value acc,
                                         Value sum, Type elementType) {
  Value empty = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, sum,
                                      f32Const(b, loc, 0.0f));
  Value out = arith::SelectOp::create(b, loc, empty, f32Const(b, loc, 0.0f),
                                      arith::DivFOp::create(b, loc, acc, sum));
  return castFloat(b, loc, out, elementType);
}

Value mlir::posenc::emitQueryShift(OpBuilder &b, Location loc,
                                   Alignment alignment, OpFoldResult queries,
                                   OpFoldResult keys) {
  if (alignment != Alignment::bottom_right)
    return Value();
  Value sq = getValueOrCreateConstantIndexOp(b, loc, queries);
  Value sk = getValueOrCreateConstantIndexOp(b, loc, keys);
  return b.createOrFold<arith::SubIOp>(loc, sk, sq);
}

bool mlir::posenc::hasCausalKeyBound(AttentionOp op) {
  return op.getCausal() && !op.getQPositions() && !op.getKPositions();
}

Value mlir::posenc::emitVisibleKeyEnd(OpBuilder &b, Location loc, Value end,
                                      Value firstQuery, Value rows) {
  Value visible = arith::AddIOp::create(b, loc, firstQuery, rows);
  return arith::MinSIOp::create(b, loc, end, visible);
}

Value mlir::posenc::createAttentionRotary(OpBuilder &b, Location loc,
                                          AttentionOp op, Value x,
                                          Value positions, Value offset) {
  RopeAttr rope = op.getRopeAttr();
  return RotaryOp::create(b, loc, x.getType(), x, op.getInvFreq(), Value(),
                          Value(), positions, positions ? Value() : offset,
                          op.getAttentionFactor(), rope.getLayout(),
                          rope.getRotaryDim(), IntegerAttr(),
                          DenseI64ArrayAttr(), MRopeLayoutAttr());
}
