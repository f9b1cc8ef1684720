//===- ConstantEvaluatorOps.cpp - scalar semantics of the evaluator -------===//
//
// What the constant evaluator (ConstantEvaluator.cpp) computes for one op of
// a generic's body: arith and math on doubles, rounded as the program
// rounds, and the ops that may touch an element of the symbolic key mask.
//
//===----------------------------------------------------------------------===//

#include "ConstantEvaluatorOps.h"

#include "posenc/Raising/Match.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

using namespace mlir;
using namespace mlir::posenc;
using namespace mlir::posenc::raising;

/// `x` rounded to the float type `type` as a program computing in it rounds
/// (integers and f64 stay).
double raising::roundTo(Type type, double x) {
  auto floatType = dyn_cast<FloatType>(type);
  if (!floatType || floatType.isF64())
    return x;
  APFloat value(x);
  bool lost;
  value.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                &lost);
  return value.convertToDouble();
}

static std::optional<double> applyExact(Operation &op, ArrayRef<double> a);

/// `cmpi` on integers held as doubles, at the operands' width (index: 64
/// bits; i1's true is -1 for the signed predicates, as in arith).
static std::optional<double> compareInts(arith::CmpIOp cmp, double a,
                                         double b) {
  Type type = cmp.getLhs().getType();
  unsigned width = type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
  auto bits = [&](double x) -> std::optional<APInt> {
    if (x != std::trunc(x) || std::abs(x) >= 0x1p63)
      return std::nullopt;
    return APInt(64, int64_t(x), /*isSigned=*/true).sextOrTrunc(width);
  };
  std::optional<APInt> lhs = bits(a), rhs = bits(b);
  if (!lhs || !rhs)
    return std::nullopt;
  return double(arith::applyCmpPredicate(cmp.getPredicate(), *lhs, *rhs));
}

/// `op` on `a`, rounded to its float result type as the program rounds.
std::optional<double> raising::applyScalarOp(Operation &op,
                                             ArrayRef<double> a) {
  std::optional<double> r = applyExact(op, a);
  if (!r || op.getNumResults() != 1)
    return r;
  return roundTo(op.getResult(0).getType(), *r);
}

static std::optional<double> applyExact(Operation &op, ArrayRef<double> a) {
  if (isa<cf::AssertOp>(op))
    return a[0] != 0 ? std::optional(a[0]) : std::nullopt;
  if (isa<math::PowFOp>(op))
    return std::pow(a[0], a[1]);
  if (isa<math::AbsFOp, math::AbsIOp>(op))
    return std::abs(a[0]);
  if (isa<math::FloorOp>(op))
    return std::floor(a[0]);
  // Llama 4's temperature tables; a library's f32 log1p may differ from
  // this rounding by an ulp: users of the values compare with a tolerance.
  if (isa<math::Log1pOp>(op))
    return std::log1p(a[0]);
  // Narrowing an index to i32 (torch-mlir's int32 aranges): exact when
  // the value fits, as it does for any position.
  if (auto trunc = dyn_cast<arith::TruncIOp>(op)) {
    unsigned width =
        getElementTypeOrSelf(trunc.getType()).getIntOrFloatBitWidth();
    if (width < 2 || width > 53 ||
        std::abs(a[0]) >= std::ldexp(1.0, int(width) - 1))
      return std::nullopt;
    return a[0];
  }
  if (isa<arith::IndexCastOp, arith::ExtSIOp, arith::ExtUIOp, arith::SIToFPOp,
          arith::UIToFPOp, arith::ExtFOp>(op))
    return a[0];
  if (isa<arith::TruncFOp>(op))
    return double(float(a[0]));
  if (isa<arith::FPToSIOp>(op))
    return std::trunc(a[0]);
  if (isa<arith::AddIOp, arith::AddFOp>(op))
    return a[0] + a[1];
  if (isa<arith::SubIOp, arith::SubFOp>(op))
    return a[0] - a[1];
  if (isa<arith::MulIOp, arith::MulFOp>(op))
    return a[0] * a[1];
  if (isa<arith::DivFOp>(op))
    return a[0] / a[1];
  if (isa<arith::NegFOp>(op))
    return -a[0];
  if (isa<arith::SelectOp>(op))
    return a[0] != 0 ? a[1] : a[2];
  if (isa<arith::AndIOp>(op))
    return double(a[0] != 0 && a[1] != 0);
  if (isa<arith::OrIOp>(op))
    return double(a[0] != 0 || a[1] != 0);
  if (isa<arith::XOrIOp>(op) && op.getResult(0).getType().isInteger(1))
    return double((a[0] != 0) != (a[1] != 0));
  if (isa<arith::MaximumFOp, arith::MaxSIOp>(op))
    return std::max(a[0], a[1]);
  if (isa<arith::MinimumFOp, arith::MinSIOp>(op))
    return std::min(a[0], a[1]);
  if (auto cmp = dyn_cast<arith::CmpIOp>(op))
    return compareInts(cmp, a[0], a[1]);
  if (auto cmp = dyn_cast<arith::CmpFOp>(op))
    return double(arith::applyCmpPredicate(cmp.getPredicate(), APFloat(a[0]),
                                           APFloat(a[1])));
  return std::nullopt;
}

std::optional<double> raising::applyToLiteral(Operation &op,
                                              ArrayRef<double> a) {
  // false and x = false, true and x = x, x and x = x; `or` swaps the roles
  // of true and false.
  auto absorb = [&](double absorbing,
                    double identity) -> std::optional<double> {
    if (a[0] == absorbing || a[1] == absorbing)
      return absorbing;
    if (a[0] == identity || a[0] == a[1])
      return a[1];
    return a[1] == identity ? std::optional(a[0]) : std::nullopt;
  };
  if (isa<arith::AndIOp>(op))
    return absorb(0.0, 1.0);
  if (isa<arith::OrIOp>(op))
    return absorb(1.0, 0.0);
  if (isa<arith::SelectOp>(op) && a[0] < KeyMaskedTensor::kKeyLiteral)
    return a[0] != 0.0 ? a[1] : a[2];
  return std::nullopt;
}
