//===- LoweringUtils.h - shared pieces of the posenc lowering ---*- C++ -*-===//

#ifndef POSENC_LIB_CONVERSION_POSENCTOLINALG_LOWERINGUTILS_H
#define POSENC_LIB_CONVERSION_POSENCTOLINALG_LOWERINGUTILS_H

#include "posenc/IR/PosEncAttrs.h"

#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

#include <utility>

namespace mlir {
namespace posenc {

/// Converts an integer or index scalar to i64 (sign-extending).
Value toI64(OpBuilder &b, Location loc, Value v);

/// Converts between float types (extf / truncf / identity).
Value castFloat(OpBuilder &b, Location loc, Value v, Type to);

/// cos and sin of `pos * inv` (times `factor` when given), as f32.
/// `pos` is i64; `inv` is f32 (the angle is one f32 product, as HF computes
/// it) or f64 (the angle is exact to ~1e-10 rad up to 2^20). Either way the
/// angle is reduced modulo 2*pi in f64 before the f32 cos/sin.
std::pair<Value, Value> emitCosSin(OpBuilder &b, Location loc, Value pos,
                                   Value inv, Value factor);

/// The angle `pos * inv` of `emitCosSin`, reduced to [-pi, pi] as f32.
Value emitReducedAngle(OpBuilder &b, Location loc, Value pos, Value inv);

/// math.sin / math.cos of an angle from emitReducedAngle, marked
/// `posenc.reduced_angle` (posenc-approximate-trig may approximate them).
Value emitReducedSin(OpBuilder &b, Location loc, Value angle);
Value emitReducedCos(OpBuilder &b, Location loc, Value angle);

/// Extents of `tensor` as OpFoldResults (static ones as attributes).
SmallVector<OpFoldResult> getSizes(OpBuilder &b, Location loc, Value tensor);

/// `tensor.empty` of `shape` (with the dynamic extents of `sizes`).
Value emptyLike(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> sizes,
                Type elementType);

/// All-parallel iterator list of `rank` loops.
SmallVector<utils::IteratorType> parallelIterators(unsigned rank);

/// i1: every row a kernel reads from a table of `rows` rows (i64) exists:
/// `positions[...] + offset` for every entry of `positions`, or, without
/// positions, `offset + s` for `s` in [0, `tokens`) (i64; checked without
/// forming the sum, which could wrap past the check). `offset` is i64.
Value emitPositionsInTable(OpBuilder &b, Location loc, Value positions,
                           Value offset, Value tokens, Value rows);

/// f32 constant of the ALiBi slopes of the `heads` heads of a shard.
Value emitAlibiSlopes(OpBuilder &b, Location loc, AlibiSlopesAttr config,
                      int64_t heads);

/// ALiBi bias of one (query, key) pair: `-m*|q-k|` or `m*k` (f32).
Value emitAlibiBias(OpBuilder &b, Location loc, Value slope, Value qPos,
                    Value kPos, AlibiForm form);

} // namespace posenc
} // namespace mlir

#endif // POSENC_LIB_CONVERSION_POSENCTOLINALG_LOWERINGUTILS_H
