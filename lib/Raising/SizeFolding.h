//===- SizeFolding.h - size arithmetic decided by value bounds --*- C++ -*-===//
//
// Part of posenc-unify-dynamic-dims.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_LIB_RAISING_SIZEFOLDING_H
#define POSENC_LIB_RAISING_SIZEFOLDING_H

#include "mlir/IR/Operation.h"

namespace mlir {
namespace posenc {
namespace raising {

/// Folds the integer comparisons, min/max and selects on sizes whose outcome
/// the sizes decide (ValueBoundsOpInterface: a size is never negative, `n +
/// 1 > n`): torch's negative-dimension handling in `view` shapes and its
/// slice-bound normalization (`min(start, n)`, `max(end - start, 0)`).
/// Returns whether anything changed.
bool foldDecidedSizeArithmetic(Operation *root);

} // namespace raising
} // namespace posenc
} // namespace mlir

#endif // POSENC_LIB_RAISING_SIZEFOLDING_H
