//===- ConstantEvaluatorOps.h - scalar semantics of the evaluator -*- C++
//-*-===//
//
// One op of a generic's body on double-valued operands, for the constant
// evaluator (ConstantEvaluator.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_LIB_RAISING_CONSTANTEVALUATOROPS_H
#define POSENC_LIB_RAISING_CONSTANTEVALUATOROPS_H

#include "mlir/IR/Operation.h"

#include <optional>

namespace mlir {
namespace posenc {
namespace raising {

/// `x` rounded to the float type `type` as a program computing in it rounds
/// (integers and f64 stay).
double roundTo(Type type, double x);

/// `op` on `a`, rounded to its float result type as the program rounds;
/// nullopt for an op the evaluator does not compute.
std::optional<double> applyScalarOp(Operation &op, ArrayRef<double> a);

/// `op` on operands of which some are elements of the symbolic key mask
/// (KeyMaskedTensor): only what is exact whatever their values.
std::optional<double> applyToLiteral(Operation &op, ArrayRef<double> a);

} // namespace raising
} // namespace posenc
} // namespace mlir

#endif // POSENC_LIB_RAISING_CONSTANTEVALUATOROPS_H
