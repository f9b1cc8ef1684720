//===- SizeFolding.cpp - size arithmetic decided by value bounds ----------===//
//
// Importers normalize dynamic sizes the way PyTorch does at run time:
// `n < 0 ? n + d : n` for `view` shapes, `min(start, n)` and `max(end -
// start, 0)` for slices. On sizes (never negative, and related to each other
// once posenc-unify-dynamic-dims has made them one value) each such choice is
// decided; folding it leaves the sizes in the form the patterns compare.
//
//===----------------------------------------------------------------------===//

#include "SizeFolding.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

using namespace mlir;
using namespace mlir::posenc;

namespace {

using Cmp = ValueBoundsConstraintSet::ComparisonOperator;

/// `v` as an index value for ValueBounds: itself (index), the index it
/// casts (an `index_cast` to i64), or its constant.
std::optional<OpFoldResult> asIndex(Value v) {
  if (v.getType().isIndex())
    return OpFoldResult(v);
  APInt c;
  if (matchPattern(v, m_ConstantInt(&c)))
    return OpFoldResult(Builder(v.getContext()).getIndexAttr(c.getSExtValue()));
  if (auto cast = v.getDefiningOp<arith::IndexCastOp>())
    if (cast.getIn().getType().isIndex())
      return OpFoldResult(cast.getIn());
  return std::nullopt;
}

/// Whether `lhs op rhs` provably holds.
bool holds(Value lhs, Cmp op, Value rhs) {
  std::optional<OpFoldResult> a = asIndex(lhs), b = asIndex(rhs);
  if (!a || !b)
    return false;
  if (isa<Attribute>(*a) && isa<Attribute>(*b))
    return false; // constants: arith's own folders
  return ValueBoundsConstraintSet::compare(
      ValueBoundsConstraintSet::Variable(*a), op,
      ValueBoundsConstraintSet::Variable(*b));
}

/// The signed predicate as a comparison, and its negation.
std::optional<std::pair<Cmp, Cmp>> comparison(arith::CmpIPredicate p) {
  switch (p) {
  case arith::CmpIPredicate::slt:
    return std::make_pair(Cmp::LT, Cmp::GE);
  case arith::CmpIPredicate::sle:
    return std::make_pair(Cmp::LE, Cmp::GT);
  case arith::CmpIPredicate::sgt:
    return std::make_pair(Cmp::GT, Cmp::LE);
  case arith::CmpIPredicate::sge:
    return std::make_pair(Cmp::GE, Cmp::LT);
  default:
    return std::nullopt;
  }
}

/// The value `op` folds to, if decided.
Value decide(Operation *op) {
  if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
    std::optional<std::pair<Cmp, Cmp>> c = comparison(cmp.getPredicate());
    std::optional<bool> value;
    if (c && holds(cmp.getLhs(), c->first, cmp.getRhs()))
      value = true;
    else if (c && holds(cmp.getLhs(), c->second, cmp.getRhs()))
      value = false;
    if (!value)
      return {};
    OpBuilder builder(cmp);
    return arith::ConstantIntOp::create(builder, cmp.getLoc(),
                                        builder.getI1Type(), *value);
  }
  if (isa<arith::MinSIOp, arith::MaxSIOp>(op)) {
    Value a = op->getOperand(0), b = op->getOperand(1);
    bool min = isa<arith::MinSIOp>(op);
    if (holds(a, Cmp::LE, b))
      return min ? a : b;
    if (holds(a, Cmp::GE, b))
      return min ? b : a;
    return {};
  }
  if (auto select = dyn_cast<arith::SelectOp>(op)) {
    APInt cond;
    if (!select.getType().isIntOrIndex() ||
        !matchPattern(select.getCondition(), m_ConstantInt(&cond)))
      return {};
    return cond.isZero() ? select.getFalseValue() : select.getTrueValue();
  }
  // A cast of a decided constant, for the ops that read it next.
  if (auto cast = dyn_cast<arith::IndexCastOp>(op)) {
    APInt c;
    if (!matchPattern(cast.getIn(), m_ConstantInt(&c)))
      return {};
    OpBuilder builder(cast);
    if (cast.getType().isIndex())
      return arith::ConstantIndexOp::create(builder, cast.getLoc(),
                                            c.getSExtValue());
    if (auto type = dyn_cast<IntegerType>(cast.getType()))
      return arith::ConstantIntOp::create(builder, cast.getLoc(), type,
                                          c.getSExtValue());
  }
  return {};
}

} // namespace

bool raising::foldDecidedSizeArithmetic(Operation *root) {
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    if (isa<arith::CmpIOp, arith::MinSIOp, arith::MaxSIOp, arith::SelectOp,
            arith::IndexCastOp>(op))
      ops.push_back(op);
  });
  // In program order: a decided value decides its users.
  bool changed = false;
  for (Operation *op : ops) {
    if (op->use_empty())
      continue;
    if (Value folded = decide(op)) {
      op->getResult(0).replaceAllUsesWith(folded);
      changed = true;
    }
  }
  return changed;
}
