//===- Emitters.cpp - the scalar numerics every posenc lowering emits -----===//

#include "posenc/Codegen/Emitters.h"

#include "posenc/IR/PosEncDialect.h"
#include "posenc/IR/PosEncNumerics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::posenc;

//===----------------------------------------------------------------------===//
// Scalars and positions
//===----------------------------------------------------------------------===//

Value mlir::posenc::toI64(OpBuilder &b, Location loc, Value v) {
  Type i64 = b.getI64Type();
  if (v.getType().isIndex())
    return b.createOrFold<arith::IndexCastOp>(loc, i64, v);
  if (v.getType().getIntOrFloatBitWidth() < 64)
    return b.createOrFold<arith::ExtSIOp>(loc, i64, v);
  return v;
}

Value mlir::posenc::castFloat(OpBuilder &b, Location loc, Value v, Type to) {
  unsigned from = v.getType().getIntOrFloatBitWidth();
  unsigned width = to.getIntOrFloatBitWidth();
  if (v.getType() == to)
    return v;
  if (width > from)
    return arith::ExtFOp::create(b, loc, to, v);
  return arith::TruncFOp::create(b, loc, to, v);
}

Value mlir::posenc::emitOffsetOrZero(OpBuilder &b, Location loc, Value offset) {
  if (offset)
    return toI64(b, loc, offset);
  return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(0));
}

Value mlir::posenc::emitPosition(OpBuilder &b, Location loc, Value source,
                                 Value offset) {
  Value pos = toI64(b, loc, source);
  if (offset)
    pos = arith::AddIOp::create(b, loc, pos, offset);
  return pos;
}

Value mlir::posenc::emitMRopeAxis(OpBuilder &b, Location loc, Value pair,
                                  ArrayRef<int64_t> sections,
                                  MRopeLayout layout) {
  auto idx = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value axis = idx(0);
  if (layout == MRopeLayout::chunked) {
    // Pair block k (sections[k] pairs) reads axis k.
    int64_t start = 0;
    for (auto [k, size] : llvm::enumerate(sections.drop_back())) {
      start += size;
      Value past = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                         pair, idx(start));
      axis = arith::SelectOp::create(b, loc, past, idx(k + 1), axis);
    }
    return axis;
  }
  // Interleaved (Qwen3-VL): pair c reads h if c%3==1 && c<3*sec[1], w if
  // c%3==2 && c<3*sec[2], t otherwise.
  Value mod3 = arith::RemUIOp::create(b, loc, pair, idx(3));
  int64_t pairs = llvm::sum_of(sections); // rotary_dim/2 (verified)
  for (int64_t k : {1, 2}) {
    Value isLane =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, mod3, idx(k));
    // pair < 3 * sec[k], with the bound capped at the pair count (every pair
    // is below it), so that it cannot overflow.
    int64_t bound = sections[k] > pairs / 3 ? pairs : 3 * sections[k];
    Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                          pair, idx(bound));
    axis = arith::SelectOp::create(
        b, loc, arith::AndIOp::create(b, loc, isLane, inRange), idx(k), axis);
  }
  return axis;
}

//===----------------------------------------------------------------------===//
// Angles, cos/sin and the rotation
//===----------------------------------------------------------------------===//

Value mlir::posenc::emitReducedAngle(OpBuilder &b, Location loc, Value pos,
                                     Value inv) {
  Type f64 = b.getF64Type();
  Value angle;
  if (inv.getType().isF64()) {
    angle = arith::MulFOp::create(
        b, loc, arith::SIToFPOp::create(b, loc, f64, pos), inv);
  } else {
    // One f32 product, as HF's `inv_freq @ position_ids` in fp32.
    Value product = arith::MulFOp::create(
        b, loc, arith::SIToFPOp::create(b, loc, inv.getType(), pos), inv);
    angle = arith::ExtFOp::create(b, loc, f64, product);
  }
  // r = angle - 2*pi*roundeven(angle / (2*pi)); |r| <= pi, error ~1e-10.
  constexpr double kTwoPi = 6.283185307179586476925286766559;
  Value turns = math::RoundEvenOp::create(
      b, loc,
      arith::MulFOp::create(
          b, loc, angle,
          arith::ConstantOp::create(b, loc, b.getF64FloatAttr(1.0 / kTwoPi))));
  Value reduced = arith::SubFOp::create(
      b, loc, angle,
      arith::MulFOp::create(
          b, loc, turns,
          arith::ConstantOp::create(b, loc, b.getF64FloatAttr(kTwoPi))));
  return arith::TruncFOp::create(b, loc, b.getF32Type(), reduced);
}

/// Marks a math.sin/math.cos of a reduced angle (PosEncBase.td).
static Value markReduced(Operation *op) {
  PosEncDialect::ReducedAngleAttrHelper(op->getContext())
      .setAttr(op, UnitAttr::get(op->getContext()));
  return op->getResult(0);
}

Value mlir::posenc::emitReducedSin(OpBuilder &b, Location loc, Value angle) {
  return markReduced(math::SinOp::create(b, loc, angle));
}

Value mlir::posenc::emitReducedCos(OpBuilder &b, Location loc, Value angle) {
  return markReduced(math::CosOp::create(b, loc, angle));
}

std::pair<Value, Value> mlir::posenc::emitCosSin(OpBuilder &b, Location loc,
                                                 Value pos, Value inv,
                                                 Value factor) {
  Value angle = emitReducedAngle(b, loc, pos, inv);
  Value cos = emitReducedCos(b, loc, angle);
  Value sin = emitReducedSin(b, loc, angle);
  if (factor) {
    cos = arith::MulFOp::create(b, loc, cos, factor);
    sin = arith::MulFOp::create(b, loc, sin, factor);
  }
  return {cos, sin};
}

std::pair<Value, Value> mlir::posenc::emitRotatedPair(OpBuilder &b,
                                                      Location loc, Value x1,
                                                      Value x2, Value cos,
                                                      Value sin) {
  Value o1 =
      arith::SubFOp::create(b, loc, arith::MulFOp::create(b, loc, x1, cos),
                            arith::MulFOp::create(b, loc, x2, sin));
  Value o2 =
      arith::AddFOp::create(b, loc, arith::MulFOp::create(b, loc, x2, cos),
                            arith::MulFOp::create(b, loc, x1, sin));
  return {o1, o2};
}

Value mlir::posenc::emitSinusoidalEntry(OpBuilder &b, Location loc, Value pos,
                                        Value inv, Value kind) {
  Value angle = emitReducedAngle(b, loc, pos, inv);
  auto isKind = [&](SinusoidalColumn k) {
    return arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq, kind,
        arith::ConstantOp::create(
            b, loc, b.getI32IntegerAttr(static_cast<int32_t>(k))));
  };
  Value value = arith::SelectOp::create(b, loc, isKind(SinusoidalColumn::Sin),
                                        emitReducedSin(b, loc, angle),
                                        emitReducedCos(b, loc, angle));
  return arith::SelectOp::create(
      b, loc, isKind(SinusoidalColumn::Zero),
      arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f)), value);
}

//===----------------------------------------------------------------------===//
// ALiBi
//===----------------------------------------------------------------------===//

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
  if (auto vector = dyn_cast<VectorType>(kPos.getType()))
    f32 = vector.clone(f32);
  if (form == AlibiForm::key_linear)
    return arith::MulFOp::create(b, loc, slope,
                                 arith::SIToFPOp::create(b, loc, f32, kPos));
  // -m * |q - k|, the distance formed exactly as an unsigned integer: the
  // larger minus the smaller position, whose wrapped difference is right as
  // unsigned for every pair (|2^62 - (-2^62)| = 2^63 does not fit signed),
  // then converted as unsigned. A select, not math.absi: arith lowers n-D
  // vectors to LLVM, math.absi does not.
  Value qFirst =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, qPos, kPos);
  Value distance = arith::SelectOp::create(
      b, loc, qFirst, arith::SubIOp::create(b, loc, qPos, kPos),
      arith::SubIOp::create(b, loc, kPos, qPos));
  return arith::NegFOp::create(
      b, loc,
      arith::MulFOp::create(b, loc, slope,
                            arith::UIToFPOp::create(b, loc, f32, distance)));
}

//===----------------------------------------------------------------------===//
// Scaling formulas at run time
//===----------------------------------------------------------------------===//

Value ScalarArithBuilder::materialize(Scalar scalar) {
  if (!scalar.isConstant())
    return scalar.getValue();
  return arith::ConstantOp::create(b, loc,
                                   b.getF64FloatAttr(scalar.getConstant()));
}

Scalar ScalarArithBuilder::emit(Kind kind, Scalar lhs, Scalar rhs) {
  Value l = materialize(lhs);
  Value r = materialize(rhs);
  switch (kind) {
  case Kind::Add:
    return Value(arith::AddFOp::create(b, loc, l, r));
  case Kind::Sub:
    return Value(arith::SubFOp::create(b, loc, l, r));
  case Kind::Mul:
    return Value(arith::MulFOp::create(b, loc, l, r));
  case Kind::Div:
    return Value(arith::DivFOp::create(b, loc, l, r));
  case Kind::Pow:
    return Value(math::PowFOp::create(b, loc, l, r));
  case Kind::Max:
    // std::max of non-NaN operands.
    return Value(arith::MaxNumFOp::create(b, loc, l, r));
  }
  llvm_unreachable("unknown ScalarArith::Kind");
}
