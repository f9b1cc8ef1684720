//===- SizeClasses.cpp - which dynamic sizes are equal --------------------===//
//
// Sizes are equal when the program relies on it: operands of a linalg op
// indexed by the same loop dimension (a mismatch is undefined behavior), a
// `cf.assert` of their equality, a result and its destination, sizes passed
// through empty/expand/collapse/slice/concat/cast/reshape, index casts,
// `x * c / c`, IREE's tie_shape.
//
//===----------------------------------------------------------------------===//

#include "SizeClasses.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::posenc;
using namespace mlir::posenc::raising;

bool raising::sameSize(SizeClasses &classes, SizeKey a, SizeKey b) {
  if (classes.same(a, b))
    return true;
  auto variable =
      [](SizeKey k) -> std::optional<ValueBoundsConstraintSet::Variable> {
    if (k.second >= 0)
      return ValueBoundsConstraintSet::Variable(k.first, k.second);
    if (k.first.getType().isIndex())
      return ValueBoundsConstraintSet::Variable(OpFoldResult(k.first));
    return std::nullopt;
  };
  auto va = variable(a), vb = variable(b);
  return va && vb &&
         ValueBoundsConstraintSet::compare(
             *va, ValueBoundsConstraintSet::ComparisonOperator::EQ, *vb);
}

bool raising::isDynamicDim(Value tensor, int64_t dim) {
  auto type = dyn_cast<RankedTensorType>(tensor.getType());
  return type && dim >= 0 && dim < type.getRank() && type.isDynamicDim(dim);
}

namespace {

/// `x` when `v` is `x * c` (arith.muli or an affine map `s0 * c`).
Value unscale(Value v, int64_t c) {
  APInt factor;
  if (auto mul = v.getDefiningOp<arith::MulIOp>()) {
    if (matchPattern(mul.getRhs(), m_ConstantInt(&factor)) &&
        factor.getSExtValue() == c)
      return mul.getLhs();
    return {};
  }
  auto apply = v.getDefiningOp<affine::AffineApplyOp>();
  if (!apply || apply.getMapOperands().size() != 1)
    return {};
  AffineExpr expr = apply.getAffineMap().getResult(0);
  AffineExpr var = apply.getAffineMap().getNumDims() == 1
                       ? getAffineDimExpr(0, v.getContext())
                       : getAffineSymbolExpr(0, v.getContext());
  return expr == var * c ? apply.getMapOperands()[0] : Value();
}

/// IREE's input IR (parsed as unregistered ops) states its shape facts
/// with `flow.tensor.tie_shape %t, %sizes...` (the result is `%t`, its
/// dynamic dimensions are `%sizes` in order) and `util.assume.int %x`
/// (the value `%x` with a range assumed).
void uniteIreeShapeFacts(Operation *op, SizeClasses &classes) {
  StringRef name = op->getName().getStringRef();
  if (name == "util.assume.int") {
    for (auto [result, operand] :
         llvm::zip(op->getResults(), op->getOperands()))
      if (result.getType().isIndex() && result.getType() == operand.getType())
        classes.unite(scalar(result), scalar(operand));
    return;
  }
  if (name != "flow.tensor.tie_shape" || op->getNumResults() != 1 ||
      op->getNumOperands() < 1)
    return;
  Value result = op->getResult(0);
  Value source = op->getOperand(0);
  auto type = dyn_cast<RankedTensorType>(result.getType());
  if (!type || type != source.getType() ||
      op->getNumOperands() != 1 + type.getNumDynamicDims())
    return;
  unsigned next = 1;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (!type.isDynamicDim(d))
      continue;
    classes.unite({result, d}, {source, d});
    classes.unite({result, d}, scalar(op->getOperand(next++)));
  }
}

} // namespace

void raising::collectEqualities(Operation *root, SizeClasses &classes) {
  auto uniteDims = [&](Value a, int64_t da, Value b, int64_t db) {
    if (isDynamicDim(a, da) && isDynamicDim(b, db))
      classes.unite({a, da}, {b, db});
  };
  auto uniteDim = [&](Value t, int64_t d, Value size) {
    if (isDynamicDim(t, d))
      classes.unite({t, d}, scalar(size));
  };
  // For expand/collapse: a group whose expanded side is one dynamic dimension
  // among unit ones has the collapsed dimension's size.
  auto uniteGroups = [&](Value collapsed, Value expanded,
                         ArrayRef<ReassociationIndices> groups) {
    auto expandedType = cast<RankedTensorType>(expanded.getType());
    for (auto [c, group] : llvm::enumerate(groups)) {
      std::optional<int64_t> dynamic;
      bool units = true;
      for (int64_t e : group) {
        if (expandedType.isDynamicDim(e))
          units &= !dynamic.has_value(), dynamic = e;
        else
          units &= expandedType.getDimSize(e) == 1;
      }
      if (units && dynamic)
        uniteDims(collapsed, c, expanded, *dynamic);
    }
  };
  root->walk([&](Operation *op) {
    llvm::TypeSwitch<Operation *>(op)
        .Case([&](tensor::DimOp dim) {
          if (std::optional<int64_t> index = dim.getConstantIndex())
            uniteDim(dim.getSource(), *index, dim.getResult());
        })
        .Case<arith::IndexCastOp, arith::IndexCastUIOp>([&](Operation *cast) {
          classes.unite(scalar(cast->getResult(0)),
                        scalar(cast->getOperand(0)));
        })
        .Case([&](tensor::EmptyOp empty) {
          for (int64_t d = 0, e = empty.getType().getRank(); d < e; ++d)
            if (empty.getType().isDynamicDim(d))
              uniteDim(empty.getResult(), d, empty.getDynamicSize(d));
        })
        .Case([&](tensor::ExpandShapeOp expand) {
          for (auto [d, size] : llvm::enumerate(expand.getMixedOutputShape()))
            if (auto v = dyn_cast<Value>(size))
              uniteDim(expand.getResult(), d, v);
          uniteGroups(expand.getSrc(), expand.getResult(),
                      expand.getReassociationIndices());
        })
        .Case([&](tensor::CollapseShapeOp collapse) {
          uniteGroups(collapse.getResult(), collapse.getSrc(),
                      collapse.getReassociationIndices());
        })
        .Case([&](tensor::ExtractSliceOp slice) {
          if (slice.getType().getRank() != slice.getSourceType().getRank())
            return;
          for (auto [d, size] : llvm::enumerate(slice.getMixedSizes()))
            if (auto v = dyn_cast<Value>(size))
              uniteDim(slice.getResult(), d, v);
        })
        .Case([&](tensor::ConcatOp concat) {
          for (Value input : concat.getInputs())
            for (int64_t d = 0, e = concat.getRank(); d < e; ++d)
              if (d != static_cast<int64_t>(concat.getDim()))
                uniteDims(concat.getResult(), d, input, d);
        })
        .Case([&](tensor::CastOp cast) {
          for (int64_t d = 0, e = cast.getType().getRank(); d < e; ++d)
            uniteDims(cast.getResult(), d, cast.getSource(), d);
        })
        .Case([&](tensor::ReshapeOp reshape) {
          auto shape =
              reshape.getShape().getDefiningOp<tensor::FromElementsOp>();
          if (!shape)
            return;
          for (auto [d, size] : llvm::enumerate(shape.getElements()))
            uniteDim(reshape.getResult(), d, size);
        })
        .Case([&](cf::AssertOp assertOp) {
          auto cmp = assertOp.getArg().getDefiningOp<arith::CmpIOp>();
          if (cmp && cmp.getPredicate() == arith::CmpIPredicate::eq)
            classes.unite(scalar(cmp.getLhs()), scalar(cmp.getRhs()));
        })
        .Case<arith::DivSIOp, arith::DivUIOp>([&](Operation *div) {
          APInt c;
          if (!matchPattern(div->getOperand(1), m_ConstantInt(&c)) ||
              c.getSExtValue() <= 0)
            return;
          if (Value x = unscale(div->getOperand(0), c.getSExtValue()))
            classes.unite(scalar(div->getResult(0)), scalar(x));
        });
    uniteIreeShapeFacts(op, classes);
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      SmallVector<std::optional<SizeKey>> loops(linalgOp.getNumLoops());
      for (OpOperand &operand : op->getOpOperands()) {
        if (!isa<RankedTensorType>(operand.get().getType()))
          continue;
        AffineMap map = linalgOp.getMatchingIndexingMap(&operand);
        for (auto [d, expr] : llvm::enumerate(map.getResults())) {
          auto loop = dyn_cast<AffineDimExpr>(expr);
          if (!loop || !isDynamicDim(operand.get(), d))
            continue;
          std::optional<SizeKey> &key = loops[loop.getPosition()];
          if (key)
            classes.unite(*key, {operand.get(), static_cast<int64_t>(d)});
          else
            key = SizeKey{operand.get(), static_cast<int64_t>(d)};
        }
      }
    }
    if (auto dps = dyn_cast<DestinationStyleOpInterface>(op)) {
      for (OpResult result : op->getResults()) {
        if (!isa<RankedTensorType>(result.getType()))
          continue;
        Value init = dps.getTiedOpOperand(result)->get();
        for (int64_t d = 0,
                     e = cast<RankedTensorType>(result.getType()).getRank();
             d < e; ++d)
          uniteDims(result, d, init, d);
      }
    }
  });
}
