//===- OpVerification.cpp - checks shared by posenc op verifiers ----------===//

#include "OpVerification.h"
#include "posenc/IR/PosEncNumerics.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::posenc;

namespace mlir::posenc::detail {

bool staticMismatch(int64_t a, int64_t b) {
  return !ShapedType::isDynamic(a) && !ShapedType::isDynamic(b) && a != b;
}

bool staticMismatch(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  if (a.size() != b.size())
    return true;
  return llvm::any_of(llvm::zip_equal(a, b), [](auto pair) {
    return staticMismatch(std::get<0>(pair), std::get<1>(pair));
  });
}

std::string formatSum(int64_t a, int64_t b) {
  return llvm::toString(APInt(128, a, /*isSigned=*/true) +
                            APInt(128, b, /*isSigned=*/true),
                        10, /*Signed=*/true);
}

LogicalResult verifyRotaryDim(Operation *op, int64_t rotaryDim,
                              int64_t headDim) {
  if (failed(checkRotaryDim([&]() { return op->emitOpError(); }, rotaryDim)))
    return failure();
  if (!ShapedType::isDynamic(headDim) && rotaryDim > headDim)
    return op->emitOpError("rotary_dim (")
           << rotaryDim << ") exceeds head_dim (" << headDim << ")";
  return success();
}

LogicalResult verifyInvFreq(Operation *op, Value invFreq, int64_t rotaryDim) {
  auto type = cast<RankedTensorType>(invFreq.getType());
  if (staticMismatch(type.getDimSize(0), rotaryDim / 2))
    return op->emitOpError("inv_freq must have rotary_dim/2 = ")
           << rotaryDim / 2 << " entries, got " << type.getDimSize(0);
  return success();
}

LogicalResult verifyPositions(Operation *op, StringRef name, Value positions,
                              std::optional<int64_t> batch, int64_t tokens,
                              ArrayRef<int64_t> prefix) {
  auto type = cast<RankedTensorType>(positions.getType());
  ArrayRef<int64_t> shape = type.getShape();
  int64_t n = prefix.size();
  int64_t rank = type.getRank();
  if (rank != n + 1 && !(batch && rank == n + 2)) {
    InFlightDiagnostic diag = op->emitOpError()
                              << name << " must have rank " << n + 1;
    if (batch)
      diag << " ([S]) or " << n + 2 << " ([B, S])";
    return diag << ", got rank " << rank;
  }
  for (auto [i, extent] : llvm::enumerate(prefix))
    if (staticMismatch(shape[i], extent))
      return op->emitOpError() << name << " dimension " << i << " must be "
                               << extent << ", got " << shape[i];
  if (rank == n + 2 && staticMismatch(shape[n], *batch))
    return op->emitOpError() << name << " batch extent (" << shape[n]
                             << ") does not match the batch (" << *batch << ")";
  if (staticMismatch(shape.back(), tokens))
    return op->emitOpError()
           << name << " token extent (" << shape.back()
           << ") does not match the sequence length (" << tokens << ")";
  return success();
}

LogicalResult verifyAlibiHeads(Operation *op, AlibiSlopesAttr config,
                               Value slopes, int64_t heads) {
  if (static_cast<bool>(config) == static_cast<bool>(slopes))
    return op->emitOpError("needs exactly one slope source: "
                           "#posenc.alibi_slopes or a slopes tensor");
  // 0 <= head_offset < num_heads (attribute verifier); compared without
  // forming head_offset + heads, which can overflow.
  if (config && !ShapedType::isDynamic(heads) &&
      heads > config.getNumHeads() - config.getHeadOffset())
    return op->emitOpError("heads [")
           << config.getHeadOffset() << ", "
           << formatSum(config.getHeadOffset(), heads)
           << ") exceed num_heads = " << config.getNumHeads();
  if (slopes &&
      staticMismatch(cast<RankedTensorType>(slopes.getType()).getDimSize(0),
                     heads))
    return op->emitOpError("slopes must have one entry per head (")
           << heads << "), got " << slopes.getType();
  return success();
}

} // namespace mlir::posenc::detail
