//===- ValueBounds.cpp - result shapes of posenc ops for value bounds -----===//
//
// ValueBoundsOpInterface: a dynamic dimension of a posenc op's result is a
// dimension of an operand, so analyses (and the raising patterns comparing
// dynamic sequence lengths) see through the ops.
//
//===----------------------------------------------------------------------===//

#include "posenc/IR/PosEncOps.h"

using namespace mlir;
using namespace mlir::posenc;

void RotaryOp::populateBoundsForShapedValueDim(Value value, int64_t dim,
                                               ValueBoundsConstraintSet &cstr) {
  cstr.bound(value)[dim] == cstr.getExpr(getInput(), dim);
}

void LearnedAbsoluteOp::populateBoundsForShapedValueDim(
    Value value, int64_t dim, ValueBoundsConstraintSet &cstr) {
  cstr.bound(value)[dim] == cstr.getExpr(getInput(), dim);
}

// `[B, Hq, Sq, Dv]`: the query's batch, heads and length, the value's depth.
void AttentionOp::populateBoundsForShapedValueDim(
    Value value, int64_t dim, ValueBoundsConstraintSet &cstr) {
  if (dim < 3)
    cstr.bound(value)[dim] == cstr.getExpr(getQuery(), dim);
  else if (dim == 3)
    cstr.bound(value)[dim] == cstr.getExpr(getValue(), dim);
}
