//===- LinalgBuilders.cpp - linalg pieces of posenc lowerings -------------===//

#include "posenc/Codegen/LinalgBuilders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::posenc;

SmallVector<OpFoldResult> mlir::posenc::getSizes(OpBuilder &b, Location loc,
                                                 Value tensor) {
  // Static exactly where the type is (not tensor::getMixedSizes, which folds
  // tensor.dim of a cast from a static tensor into a constant): types built
  // from these sizes must agree with the operands' types.
  auto type = cast<RankedTensorType>(tensor.getType());
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0, e = type.getRank(); d < e; ++d)
    sizes.push_back(
        type.isDynamicDim(d)
            ? OpFoldResult(tensor::DimOp::create(b, loc, tensor, d).getResult())
            : OpFoldResult(b.getIndexAttr(type.getDimSize(d))));
  return sizes;
}

Value mlir::posenc::emptyLike(OpBuilder &b, Location loc,
                              ArrayRef<OpFoldResult> sizes, Type elementType) {
  return tensor::EmptyOp::create(b, loc, sizes, elementType);
}

SmallVector<utils::IteratorType>
mlir::posenc::parallelIterators(unsigned rank) {
  return SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel);
}

int GenericInputs::add(Value value, AffineMap map) {
  if (!value)
    return -1;
  values.push_back(value);
  maps.push_back(map);
  return values.size() - 1;
}

int GenericInputs::addPositions(Value positions, unsigned numLoops,
                                unsigned tokenDim) {
  if (!positions)
    return -1;
  return add(positions, getPositionsMap(positions, numLoops, tokenDim));
}

SmallVector<AffineMap>
GenericInputs::mapsWith(ArrayRef<AffineMap> outputMaps) const {
  SmallVector<AffineMap> all(maps);
  all.append(outputMaps.begin(), outputMaps.end());
  return all;
}

AffineMap mlir::posenc::getPositionsMap(Value positions, unsigned numLoops,
                                        unsigned tokenDim) {
  MLIRContext *ctx = positions.getContext();
  SmallVector<AffineExpr> exprs;
  if (cast<RankedTensorType>(positions.getType()).getRank() == 2)
    exprs.push_back(getAffineDimExpr(0, ctx));
  exprs.push_back(getAffineDimExpr(tokenDim, ctx));
  return AffineMap::get(numLoops, 0, exprs, ctx);
}

Value mlir::posenc::emitLoopPosition(OpBuilder &b, Location loc,
                                     Value positionArg, unsigned tokenDim,
                                     Value offset) {
  Value source =
      positionArg ? positionArg : linalg::IndexOp::create(b, loc, tokenDim);
  return emitPosition(b, loc, source, offset);
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
        Value pos = emitPosition(nb, nloc, args[0], offset);
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

void mlir::posenc::emitPositionsInTableAssert(OpBuilder &b, Location loc,
                                              Value positions, Value offset,
                                              Value x, int64_t tokenAxis,
                                              Value table, StringRef message) {
  Value rows = toI64(b, loc, tensor::DimOp::create(b, loc, table, 0));
  Value tokens =
      positions ? Value()
                : toI64(b, loc, tensor::DimOp::create(b, loc, x, tokenAxis));
  cf::AssertOp::create(
      b, loc, emitPositionsInTable(b, loc, positions, offset, tokens, rows),
      message);
}

SmallVector<int64_t> mlir::posenc::staticShape(ArrayRef<OpFoldResult> sizes) {
  return llvm::map_to_vector(sizes, [](OpFoldResult size) {
    std::optional<int64_t> c = getConstantIntValue(size);
    return c ? *c : ShapedType::kDynamic;
  });
}

Value mlir::posenc::filled(OpBuilder &b, Location loc,
                           ArrayRef<OpFoldResult> sizes, Value value) {
  Value init = emptyLike(b, loc, sizes, value.getType());
  return linalg::FillOp::create(b, loc, ValueRange{value}, ValueRange{init})
      .getResult(0);
}

AffineMap mlir::posenc::mapOf(MLIRContext *ctx, unsigned numDims,
                              ArrayRef<unsigned> dims) {
  return AffineMap::getMultiDimMapWithTargets(numDims, dims, ctx);
}

Value mlir::posenc::emitConverted(OpBuilder &b, Location loc, Value x,
                                  AffineMap inputMap,
                                  ArrayRef<OpFoldResult> sizes,
                                  Type elementType) {
  Value init = emptyLike(b, loc, sizes, elementType);
  unsigned rank = sizes.size();
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ValueRange{x}, ValueRange{init},
             ArrayRef<AffineMap>{inputMap, b.getMultiDimIdentityMap(rank)},
             parallelIterators(rank),
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               linalg::YieldOp::create(
                   nb, nloc, castFloat(nb, nloc, args[0], elementType));
             })
      .getResult(0);
}

Value mlir::posenc::splitHeadVector(OpBuilder &b, Location loc, Value perHead,
                                    int64_t kvHeads, int64_t group) {
  auto staticType = RankedTensorType::get({kvHeads * group}, b.getF32Type());
  if (perHead.getType() != staticType)
    perHead = tensor::CastOp::create(b, loc, staticType, perHead);
  return tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get({kvHeads, group}, b.getF32Type()), perHead,
      {{0, 1}});
}

Value mlir::posenc::emitSinkTerm(OpBuilder &b, Location loc, Value sinks,
                                 AffineMap sinksMap, Value rowMax,
                                 ArrayRef<OpFoldResult> rowSizes) {
  unsigned rank = rowSizes.size();
  GenericInputs inputs;
  inputs.add(sinks, sinksMap);
  int maxArg = inputs.add(rowMax, b.getMultiDimIdentityMap(rank));
  Value init = emptyLike(b, loc, rowSizes, b.getF32Type());
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, inputs.values, ValueRange{init},
             inputs.mapsWith({b.getMultiDimIdentityMap(rank)}),
             parallelIterators(rank),
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               Value term = maxArg >= 0
                                ? emitSafeExp(nb, nloc, args[0], args[maxArg])
                                : emitSinkStart(nb, nloc, args[0]).second;
               linalg::YieldOp::create(nb, nloc, term);
             })
      .getResult(0);
}

void mlir::posenc::emitMulAdd(OpBuilder &b, Location loc, ValueRange args) {
  Type f32 = b.getF32Type();
  Value product = arith::MulFOp::create(b, loc, castFloat(b, loc, args[0], f32),
                                        castFloat(b, loc, args[1], f32));
  linalg::YieldOp::create(
      b, loc, ValueRange{arith::AddFOp::create(b, loc, args[2], product)});
}
