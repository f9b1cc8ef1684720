//===- LoweringUtils.cpp - shared pieces of the posenc lowering -----------===//

#include "LoweringUtils.h"

#include "posenc/IR/PosEncDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::posenc;

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

SmallVector<OpFoldResult> mlir::posenc::getSizes(OpBuilder &b, Location loc,
                                                 Value tensor) {
  return tensor::getMixedSizes(b, loc, tensor);
}

Value mlir::posenc::emptyLike(OpBuilder &b, Location loc,
                              ArrayRef<OpFoldResult> sizes, Type elementType) {
  return tensor::EmptyOp::create(b, loc, sizes, elementType);
}

Value mlir::posenc::emitPositionsInTable(OpBuilder &b, Location loc,
                                         Value positions, Value offset,
                                         Value tokens, Value rows) {
  auto i64 = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v));
  };
  if (!positions) {
    // 0 <= offset and offset + tokens <= rows, as offset <= rows - tokens
    // (rows, tokens >= 0: no overflow).
    return arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, offset,
                              i64(0)),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, offset,
                              arith::SubIOp::create(b, loc, rows, tokens)));
  }
  // A reduction over every position: all(0 <= p + offset < rows).
  auto type = cast<RankedTensorType>(positions.getType());
  int64_t rank = type.getRank();
  Value init =
      tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{}, b.getI1Type());
  Value allTrue =
      linalg::FillOp::create(
          b, loc,
          ValueRange{arith::ConstantOp::create(b, loc, b.getBoolAttr(true))},
          ValueRange{init})
          .getResult(0);
  auto check = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, ValueRange{positions},
      ValueRange{allTrue},
      ArrayRef<AffineMap>{b.getMultiDimIdentityMap(rank),
                          AffineMap::get(rank, 0, {}, b.getContext())},
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::reduction),
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value pos =
            arith::AddIOp::create(nb, nloc, toI64(nb, nloc, args[0]), offset);
        Value inRange = arith::AndIOp::create(
            nb, nloc,
            arith::CmpIOp::create(
                nb, nloc, arith::CmpIPredicate::sge, pos,
                arith::ConstantOp::create(nb, nloc, nb.getI64IntegerAttr(0))),
            arith::CmpIOp::create(nb, nloc, arith::CmpIPredicate::slt, pos,
                                  rows));
        linalg::YieldOp::create(
            nb, nloc,
            ValueRange{arith::AndIOp::create(nb, nloc, args[1], inRange)});
      });
  return tensor::ExtractOp::create(b, loc, check.getResult(0), ValueRange{});
}

SmallVector<utils::IteratorType>
mlir::posenc::parallelIterators(unsigned rank) {
  return SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel);
}
