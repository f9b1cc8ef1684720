//===- ExtentChecks.h - Runtime checks of operand extents -------*- C++ -*-===//
//
// The op verifiers compare operand extents that are static on both sides. A
// positions, inv_freq or slopes operand of a dynamic length (say a slice
// `[%n]`) against a static or dynamic extent it must match can only be
// checked when the kernel runs: the lowerings emit a cf.assert per such
// pair, so that a wrong length is a runtime error (posenc-run reports "a
// runtime check of the kernel failed"), never an out-of-bounds read.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_CODEGEN_EXTENTCHECKS_H
#define POSENC_CODEGEN_EXTENTCHECKS_H

#include "posenc/IR/PosEncOps.h"

#include "mlir/IR/Builders.h"

namespace mlir {
namespace posenc {

/// cf.assert(dim `dim` of `value` == `expected`) with `message`, unless both
/// are static (the verifier compared those).
void emitExtentAssert(OpBuilder &b, Location loc, Value value, int64_t dim,
                      OpFoldResult expected, const Twine &message);

/// Asserts for a positions operand `[prefix..., S]` or `[prefix..., B, S]`
/// (`prefix` leading dims, checked by the verifier): its token extent is
/// `tokens` and its batch extent (rank prefix + 2) is `batch`.
void emitPositionsExtentAsserts(OpBuilder &b, Location loc, Operation *op,
                                StringRef name, Value positions,
                                OpFoldResult batch, OpFoldResult tokens,
                                unsigned prefix = 0);

/// The asserts of one op's operands: positions against the tokens and batch
/// they index, inv_freq against rotary_dim / 2, slopes against the heads,
/// and (attention) the batch and key lengths of q, k and v against each
/// other. Ops without dynamic operand extents get none.
void emitExtentAsserts(OpBuilder &b, AttentionOp op);
void emitExtentAsserts(OpBuilder &b, RotaryOp op);
void emitExtentAsserts(OpBuilder &b, AlibiOp op);
void emitExtentAsserts(OpBuilder &b, LearnedAbsoluteOp op);
void emitExtentAsserts(OpBuilder &b, SinusoidalOp op);

} // namespace posenc
} // namespace mlir

#endif // POSENC_CODEGEN_EXTENTCHECKS_H
