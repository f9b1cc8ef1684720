//===- ExtentChecks.cpp - Runtime checks of operand extents ---------------===//

#include "posenc/Codegen/ExtentChecks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::posenc;

/// Dim `dim` of a ranked tensor: static when its type says so.
static OpFoldResult extentOf(OpBuilder &b, Location loc, Value tensor,
                             int64_t dim) {
  auto type = cast<RankedTensorType>(tensor.getType());
  if (!type.isDynamicDim(dim))
    return b.getIndexAttr(type.getDimSize(dim));
  return tensor::DimOp::create(b, loc, tensor, dim).getResult();
}

/// A static extent of a result type, or null (the lowering derives a dynamic
/// one from the very operand it would be compared with).
static OpFoldResult staticExtent(OpBuilder &b, RankedTensorType type,
                                 int64_t dim) {
  if (type.isDynamicDim(dim))
    return OpFoldResult();
  return b.getIndexAttr(type.getDimSize(dim));
}

void mlir::posenc::emitExtentAssert(OpBuilder &b, Location loc, Value value,
                                    int64_t dim, OpFoldResult expected,
                                    const Twine &message) {
  if (!value || !expected)
    return;
  auto type = cast<RankedTensorType>(value.getType());
  if (!type.isDynamicDim(dim) && getConstantIntValue(expected))
    return;
  Value actual = tensor::DimOp::create(b, loc, value, dim);
  Value want = getValueOrCreateConstantIndexOp(b, loc, expected);
  Value same =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, actual, want);
  cf::AssertOp::create(b, loc, same, message.str());
}

void mlir::posenc::emitPositionsExtentAsserts(
    OpBuilder &b, Location loc, Operation *op, StringRef name, Value positions,
    OpFoldResult batch, OpFoldResult tokens, unsigned prefix) {
  if (!positions)
    return;
  auto type = cast<RankedTensorType>(positions.getType());
  int64_t rank = type.getRank();
  std::string opName = op->getName().stripDialect().str();
  emitExtentAssert(b, loc, positions, rank - 1, tokens,
                   opName + ": " + name +
                       " has another length than the tokens it positions");
  if (rank == static_cast<int64_t>(prefix) + 2)
    emitExtentAssert(b, loc, positions, rank - 2, batch,
                     opName + ": " + name +
                         " has another batch extent than its input");
}

void mlir::posenc::emitExtentAsserts(OpBuilder &b, AttentionOp op) {
  Location loc = op.getLoc();
  Value q = op.getQuery(), k = op.getKey(), v = op.getValue();
  OpFoldResult batch = extentOf(b, loc, q, 0);
  emitExtentAssert(b, loc, k, 0, batch,
                   "attention: key and query batch sizes differ");
  emitExtentAssert(b, loc, v, 0, batch,
                   "attention: value and query batch sizes differ");
  auto kType = cast<RankedTensorType>(k.getType());
  auto vType = cast<RankedTensorType>(v.getType());
  if (kType.isDynamicDim(2) || vType.isDynamicDim(2))
    emitExtentAssert(b, loc, v, 2, extentOf(b, loc, k, 2),
                     "attention: key and value sequence lengths "
                     "differ");
  // Extents are read only for operands that exist (no dead tensor.dim).
  if (Value positions = op.getQPositions())
    emitPositionsExtentAsserts(b, loc, op, "q_positions", positions, batch,
                               extentOf(b, loc, q, 2));
  if (Value positions = op.getKPositions())
    emitPositionsExtentAsserts(b, loc, op, "k_positions", positions, batch,
                               extentOf(b, loc, k, 2));
  emitExtentAssert(b, loc, op.getKeyLengths(), 0, batch,
                   "attention: key_lengths has another length than the "
                   "batch");
  if (Value mask = op.getKeyMask()) {
    emitExtentAssert(b, loc, mask, 0, batch,
                     "attention: key_mask has another batch extent than the "
                     "query");
    emitExtentAssert(b, loc, mask, 1, extentOf(b, loc, k, 2),
                     "attention: key_mask has another key extent than the "
                     "key");
  }
  int64_t heads = op.getQuery().getType().getDimSize(1);
  emitExtentAssert(b, loc, op.getAlibiSlopes(), 0, b.getIndexAttr(heads),
                   "attention: alibi_slopes has another length than "
                   "the query heads");
  if (RopeAttr rope = op.getRopeAttr())
    emitExtentAssert(b, loc, op.getInvFreq(), 0,
                     b.getIndexAttr(rope.getRotaryDim() / 2),
                     "attention: inv_freq has another length than "
                     "rotary_dim / 2");
}

void mlir::posenc::emitExtentAsserts(OpBuilder &b, RotaryOp op) {
  Location loc = op.getLoc();
  Value x = op.getInput();
  int64_t tokenAxis = op.getTokenAxis();
  if (Value positions = op.getPositions()) {
    OpFoldResult batch =
        tokenAxis > 0 ? extentOf(b, loc, x, 0) : OpFoldResult();
    unsigned prefix = op.getMropeSections() ? 1 : 0; // [axes, ..., S]
    emitPositionsExtentAsserts(b, loc, op, "positions", positions, batch,
                               extentOf(b, loc, x, tokenAxis), prefix);
  }
  emitExtentAssert(b, loc, op.getInvFreq(), 0,
                   b.getIndexAttr(op.getRotaryDim() / 2),
                   "rotary: inv_freq has another length than "
                   "rotary_dim / 2");
}

void mlir::posenc::emitExtentAsserts(OpBuilder &b, AlibiOp op) {
  auto type = op.getResult().getType();
  int64_t rank = type.getRank();
  Location loc = op.getLoc();
  OpFoldResult batch = rank == 4 ? staticExtent(b, type, 0) : OpFoldResult();
  emitPositionsExtentAsserts(b, loc, op, "q_positions", op.getQPositions(),
                             batch, staticExtent(b, type, rank - 2));
  emitPositionsExtentAsserts(b, loc, op, "k_positions", op.getKPositions(),
                             batch, staticExtent(b, type, rank - 1));
  emitExtentAssert(b, loc, op.getSlopes(), 0, staticExtent(b, type, rank - 3),
                   "alibi: slopes has another length than the heads");
}

void mlir::posenc::emitExtentAsserts(OpBuilder &b, LearnedAbsoluteOp op) {
  Location loc = op.getLoc();
  Value x = op.getInput();
  Value positions = op.getPositions();
  if (!positions)
    return;
  int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
  OpFoldResult batch = rank >= 3 ? extentOf(b, loc, x, 0) : OpFoldResult();
  emitPositionsExtentAsserts(b, loc, op, "positions", positions, batch,
                             extentOf(b, loc, x, rank - 2));
}

void mlir::posenc::emitExtentAsserts(OpBuilder &b, SinusoidalOp op) {
  Value positions = op.getPositions();
  if (!positions)
    return;
  auto type = op.getResult().getType();
  int64_t rows = type.getRank() - 1;
  OpFoldResult batch = rows == 2 ? staticExtent(b, type, 0) : OpFoldResult();
  emitPositionsExtentAsserts(b, op.getLoc(), op, "positions", positions, batch,
                             staticExtent(b, type, rows - 1));
}
