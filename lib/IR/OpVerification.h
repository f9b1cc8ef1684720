//===- OpVerification.h - checks shared by posenc op verifiers --*- C++ -*-===//
//
// Private to lib/IR: the shape and attribute checks that several ops'
// verifiers share, with one wording of each diagnostic.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_LIB_IR_OPVERIFICATION_H
#define POSENC_LIB_IR_OPVERIFICATION_H

#include "posenc/IR/PosEncAttrs.h"

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

#include <optional>
#include <string>

namespace mlir::posenc::detail {

/// True when both extents are static and differ.
bool staticMismatch(int64_t a, int64_t b);
/// True when the ranks differ or any pair of static extents differs.
bool staticMismatch(ArrayRef<int64_t> a, ArrayRef<int64_t> b);

/// `a + b` in decimal, exact even where int64_t overflows (for diagnostics;
/// extents and attribute values reach 2^63 - 1).
std::string formatSum(int64_t a, int64_t b);

/// A valid rotary_dim that fits the head dim.
LogicalResult verifyRotaryDim(Operation *op, int64_t rotaryDim,
                              int64_t headDim);

/// inv_freq has rotary_dim / 2 entries.
LogicalResult verifyInvFreq(Operation *op, Value invFreq, int64_t rotaryDim);

/// Checks a position tensor of shape `[prefix..., S]` or `[prefix..., B, S]`.
/// `batch` is the batch extent positions may carry (std::nullopt when the
/// consumer has no batch axis), `tokens` the token extent they index.
LogicalResult verifyPositions(Operation *op, StringRef name, Value positions,
                              std::optional<int64_t> batch, int64_t tokens,
                              ArrayRef<int64_t> prefix = {});

/// Checks the heads `[offset, offset + heads)` of a shard against the global
/// slope configuration.
LogicalResult verifyAlibiHeads(Operation *op, AlibiSlopesAttr config,
                               Value slopes, int64_t heads);

} // namespace mlir::posenc::detail

#endif // POSENC_LIB_IR_OPVERIFICATION_H
