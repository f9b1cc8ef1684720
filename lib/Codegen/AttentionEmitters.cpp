//===- AttentionEmitters.cpp - the numerics of posenc.attention -----------===//

#include "posenc/Codegen/AttentionEmitters.h"
#include "posenc/Codegen/Emitters.h"
#include "posenc/IR/PosEncDialect.h"

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
  LogitRule rule;
  rule.scale = static_cast<float>(op.getScaleOrDefault());
  rule.causal = op.getCausal();
  rule.alibiForm = op.getAlibiForm();
  if (WindowAttr window = op.getWindowAttr()) {
    rule.windowLeft = window.getLeft();
    rule.windowRight = window.getRight();
  }
  rule.chunk = op.getChunkSize();
  if (std::optional<APFloat> cap = op.getSoftcap())
    rule.softcap = static_cast<float>(cap->convertToDouble());
  if (QueryTemperatureAttr t = op.getQueryTemperatureAttr())
    rule.temperature = {static_cast<float>(t.getFloorScale()),
                        static_cast<float>(t.getAttnScale())};
  return rule;
}

namespace {

/// The scalar that `v` broadcasts, or `v`: terms of the query alone are
/// computed once, not per key lane.
Value getSplatSource(Value v) {
  if (auto broadcast = v.getDefiningOp<vector::BroadcastOp>())
    if (!isa<VectorType>(broadcast.getSource().getType()))
      return broadcast.getSource();
  return v;
}

/// Scalar `x` broadcast to the shape of `like` when that is a vector.
Value broadcastLike(OpBuilder &b, Location loc, Value x, Type like) {
  auto vector = dyn_cast<VectorType>(like);
  if (!vector || isa<VectorType>(x.getType()))
    return x;
  return vector::BroadcastOp::create(b, loc, vector.clone(x.getType()), x);
}

Value i64ConstLike(OpBuilder &b, Location loc, Type type, int64_t v) {
  IntegerAttr value = b.getI64IntegerAttr(v);
  if (auto vector = dyn_cast<VectorType>(type))
    return arith::ConstantOp::create(b, loc,
                                     DenseElementsAttr::get(vector, value));
  return arith::ConstantOp::create(b, loc, value);
}

/// `floor(q / c) * c` (i64, c > 0): the first position of q's chunk.
Value emitChunkStart(OpBuilder &b, Location loc, Value q, int64_t c) {
  Type type = q.getType();
  Value cv = i64ConstLike(b, loc, type, c);
  Value quotient = arith::DivSIOp::create(b, loc, q, cv);
  Value negative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                         arith::RemSIOp::create(b, loc, q, cv),
                                         i64ConstLike(b, loc, type, 0));
  quotient = arith::SelectOp::create(
      b, loc, negative,
      arith::SubIOp::create(b, loc, quotient, i64ConstLike(b, loc, type, 1)),
      quotient);
  return arith::MulIOp::create(b, loc, quotient, cv);
}

/// Llama 4's `log(max(floor((q + 1) / f), 0) + 1) * a + 1` (f32, as HF
/// computes it from its float positions).
Value emitQueryTemperature(OpBuilder &b, Location loc, Value q,
                           std::pair<float, float> temperature) {
  Type f32 = b.getF32Type();
  if (auto vector = dyn_cast<VectorType>(q.getType()))
    f32 = vector.clone(f32);
  Value pos = arith::SIToFPOp::create(b, loc, f32, q);
  Value steps = math::FloorOp::create(
      b, loc,
      arith::DivFOp::create(
          b, loc,
          arith::AddFOp::create(b, loc, pos, f32ConstLike(b, loc, f32, 1)),
          f32ConstLike(b, loc, f32, temperature.first)));
  // Positions before 0 (bottom-right queries of Sq > Sk) count as 0.
  steps =
      arith::MaximumFOp::create(b, loc, steps, f32ConstLike(b, loc, f32, 0));
  Value log = math::Log1pOp::create(b, loc, steps);
  return arith::AddFOp::create(
      b, loc,
      arith::MulFOp::create(b, loc, log,
                            f32ConstLike(b, loc, f32, temperature.second)),
      f32ConstLike(b, loc, f32, 1));
}

/// `cap * tanh(x / cap)`, its tanh marked for posenc-approximate-trig.
Value emitSoftcap(OpBuilder &b, Location loc, Value x, float cap) {
  Type type = x.getType();
  auto tanh = math::TanhOp::create(
      b, loc,
      arith::DivFOp::create(b, loc, x, f32ConstLike(b, loc, type, cap)));
  PosEncDialect::SoftcapTanhAttrHelper(b.getContext())
      .setAttr(tanh, b.getUnitAttr());
  return arith::MulFOp::create(b, loc, tanh, f32ConstLike(b, loc, type, cap));
}

/// Whether the positional masks of `rule` hide key `kPos` from query `qPos`.
Value emitPositionalMask(OpBuilder &b, Location loc, const LogitRule &rule,
                         Value qPos, Value kPos) {
  Value masked;
  auto add = [&](Value m) {
    masked = masked ? arith::OrIOp::create(b, loc, masked, m).getResult() : m;
  };
  auto keyCompare = [&](arith::CmpIPredicate predicate, Value bound) {
    add(arith::CmpIOp::create(b, loc, predicate, kPos,
                              broadcastLike(b, loc, bound, kPos.getType())));
  };
  Value q = getSplatSource(qPos);
  auto shifted = [&](int64_t by) -> Value {
    return arith::AddIOp::create(b, loc, q,
                                 i64ConstLike(b, loc, q.getType(), by));
  };
  if (rule.causal)
    add(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, kPos, qPos));
  if (rule.windowLeft)
    keyCompare(arith::CmpIPredicate::slt, shifted(-*rule.windowLeft));
  if (rule.windowRight)
    keyCompare(arith::CmpIPredicate::sgt, shifted(*rule.windowRight));
  if (rule.chunk) {
    Value start = emitChunkStart(b, loc, q, *rule.chunk);
    keyCompare(arith::CmpIPredicate::slt, start);
    keyCompare(
        arith::CmpIPredicate::sge,
        arith::AddIOp::create(
            b, loc, start, i64ConstLike(b, loc, start.getType(), *rule.chunk)));
  }
  return masked;
}

} // namespace

Value mlir::posenc::emitAttentionLogit(OpBuilder &b, Location loc,
                                       const LogitRule &rule, Value score,
                                       Value slope, Value qPos, Value kPos,
                                       Value outside) {
  Type type = score.getType();
  Value logit = arith::MulFOp::create(b, loc, score,
                                      f32ConstLike(b, loc, type, rule.scale));
  if (rule.temperature)
    logit = arith::MulFOp::create(
        b, loc, logit,
        broadcastLike(b, loc,
                      emitQueryTemperature(b, loc, getSplatSource(qPos),
                                           *rule.temperature),
                      type));
  if (rule.softcap)
    logit = emitSoftcap(b, loc, logit, *rule.softcap);
  if (slope)
    logit = arith::AddFOp::create(
        b, loc, logit,
        emitAlibiBias(b, loc, slope, qPos, kPos, rule.alibiForm));
  Value masked = outside;
  if (rule.hasPositionalMask()) {
    Value positional = emitPositionalMask(b, loc, rule, qPos, kPos);
    masked = masked
                 ? arith::OrIOp::create(b, loc, masked, positional).getResult()
                 : positional;
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

bool mlir::posenc::hasVisibleKeyRange(AttentionOp op) {
  return LogitRule::get(op).hasPositionalMask() && !op.getLogitQPositions() &&
         !op.getLogitKPositions();
}

Value mlir::posenc::emitKeyLimit(OpBuilder &b, Location loc, Value length,
                                 Value keys) {
  Value n = length.getType().isIndex()
                ? length
                : arith::IndexCastOp::create(b, loc, b.getIndexType(), length)
                      .getResult();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  return arith::MaxSIOp::create(b, loc, arith::MinSIOp::create(b, loc, n, keys),
                                zero);
}

Value mlir::posenc::emitKeyMaskHides(OpBuilder &b, Location loc, Value entry) {
  Value zero = arith::ConstantOp::create(b, loc, entry.getType(),
                                         b.getZeroAttr(entry.getType()));
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, entry, zero);
}

Value mlir::posenc::orMasks(OpBuilder &b, Location loc, Value x, Value y) {
  if (!x || !y)
    return x ? x : y;
  return arith::OrIOp::create(b, loc, x, y);
}

std::pair<Value, Value>
mlir::posenc::emitVisibleKeyRange(OpBuilder &b, Location loc,
                                  const LogitRule &rule, Value begin, Value end,
                                  Value firstQuery, Value rows, int64_t align) {
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  auto add = [&](Value x, int64_t v) -> Value {
    return arith::AddIOp::create(b, loc, x, index(v));
  };
  Value pastLast = arith::AddIOp::create(b, loc, firstQuery, rows);
  Value lastQuery;
  if (rule.windowRight || rule.chunk)
    lastQuery = arith::SubIOp::create(b, loc, pastLast, index(1));
  Value callerBegin = begin;
  auto raiseBegin = [&](Value first) {
    begin = arith::MaxSIOp::create(b, loc, begin, first);
  };
  auto lowerEnd = [&](Value past) {
    end = arith::MinSIOp::create(b, loc, end, past);
  };
  if (rule.causal)
    lowerEnd(pastLast);
  if (rule.windowLeft)
    raiseBegin(add(firstQuery, -*rule.windowLeft));
  if (rule.windowRight)
    lowerEnd(add(lastQuery, *rule.windowRight + 1));
  if (rule.chunk) {
    auto chunkStart = [&](Value q) -> Value {
      return arith::IndexCastOp::create(
          b, loc, b.getIndexType(),
          emitChunkStart(b, loc, toI64(b, loc, q), *rule.chunk));
    };
    raiseBegin(chunkStart(firstQuery));
    lowerEnd(add(chunkStart(lastQuery), *rule.chunk));
  }
  // Rounded down (begin is at least the caller's, >= 0, so a truncating
  // division floors), but never below the caller's begin: a key chunk of a
  // split decode that starts off the tile grid must not reach into the
  // chunk before it (it would count those keys twice).
  if (align > 1 && (rule.windowLeft || rule.chunk))
    begin = arith::MaxSIOp::create(
        b, loc, callerBegin,
        arith::MulIOp::create(
            b, loc, arith::DivSIOp::create(b, loc, begin, index(align)),
            index(align)));
  return {begin, end};
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
