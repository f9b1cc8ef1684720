//===- LinalgBuilders.h - linalg pieces of posenc lowerings -----*- C++ -*-===//
//
// Helpers for building the linalg form of posenc ops: shapes, indexing maps
// and operand lists of generics, loop-index positions, the runtime position
// check. The scalar numerics inside the generics come from
// posenc/Codegen/Emitters.h and posenc/Codegen/AttentionEmitters.h.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_CODEGEN_LINALGBUILDERS_H
#define POSENC_CODEGEN_LINALGBUILDERS_H

#include "posenc/Codegen/AttentionEmitters.h"
#include "posenc/Codegen/Emitters.h"

#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir {
namespace posenc {

/// Extents of `tensor` as OpFoldResults (static ones as attributes).
SmallVector<OpFoldResult> getSizes(OpBuilder &b, Location loc, Value tensor);

/// `tensor.empty` of `shape` (with the dynamic extents of `sizes`).
Value emptyLike(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> sizes,
                Type elementType);

/// Static extents of `sizes` (dynamic where an extent is a value).
SmallVector<int64_t> staticShape(ArrayRef<OpFoldResult> sizes);

/// `tensor.empty` of `sizes` filled with `value` (of the element type).
Value filled(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> sizes,
             Value value);

/// A new tensor of `sizes` whose entries are `x` read through `inputMap`
/// (over the new tensor's dims) and converted to `elementType`: a cast, a
/// transpose when `inputMap` permutes, a broadcast when it projects.
Value emitConverted(OpBuilder &b, Location loc, Value x, AffineMap inputMap,
                    ArrayRef<OpFoldResult> sizes, Type elementType);

/// A per-query-head vector `[Hq]` (ALiBi slopes, attention sinks) viewed as
/// `[Hkv, G]`, the grouped heads of attention's lowerings.
Value splitHeadVector(OpBuilder &b, Location loc, Value perHead,
                      int64_t kvHeads, int64_t group);

/// The attention sink's share of softmax denominators, one entry per row of
/// `rowSizes`: `emitSafeExp(sink, max)`, the sink read from `sinks` through
/// `sinksMap` (over the row dims), `max` from `rowMax` (of the rows' shape)
/// or, when null, the sink itself (a row that has seen only its sink). Reads
/// the sinks, not a row tensor that a max reduction overwrites in place.
Value emitSinkTerm(OpBuilder &b, Location loc, Value sinks, AffineMap sinksMap,
                   Value rowMax, ArrayRef<OpFoldResult> rowSizes);

/// Body of an f32 contraction generic: yields `acc + f32(lhs) * f32(rhs)`
/// for block arguments (lhs, rhs, acc).
void emitMulAdd(OpBuilder &b, Location loc, ValueRange args);

/// Indexing map over `numDims` loops selecting `dims`.
AffineMap mapOf(MLIRContext *ctx, unsigned numDims, ArrayRef<unsigned> dims);

/// All-parallel iterator list of `rank` loops.
SmallVector<utils::IteratorType> parallelIterators(unsigned rank);

/// The inputs of a linalg.generic being assembled, with their indexing maps.
struct GenericInputs {
  SmallVector<Value> values;
  SmallVector<AffineMap> maps;

  /// Appends `value` read through `map`; returns the index of its block
  /// argument, or -1 (and appends nothing) when `value` is null.
  int add(Value value, AffineMap map);

  /// Appends a positions operand (`[S]` or `[B, S]`, see getPositionsMap);
  /// -1 when `positions` is null.
  int addPositions(Value positions, unsigned numLoops, unsigned tokenDim);

  /// The generic's indexing maps: the inputs', then `outputMaps`.
  SmallVector<AffineMap> mapsWith(ArrayRef<AffineMap> outputMaps) const;
};

/// Block argument `index` of `args`, or null when `index` is -1 (an absent
/// operand of GenericInputs).
inline Value getArgOrNull(ValueRange args, int index) {
  return index >= 0 ? args[index] : Value();
}

/// Indexing map of a positions operand (`[S]` or `[B, S]`) in a generic of
/// `numLoops` loops whose loop 0 is the batch and loop `tokenDim` the token.
AffineMap getPositionsMap(Value positions, unsigned numLoops,
                          unsigned tokenDim);

/// In a generic's body: the i64 position of the current token, read from the
/// block argument `positionArg` of a positions operand or, without one (null),
/// the index of loop `tokenDim`; plus `offset` (i64) when given.
Value emitLoopPosition(OpBuilder &b, Location loc, Value positionArg,
                       unsigned tokenDim, Value offset);

/// i1: every row a kernel reads from a table of `rows` rows (i64) exists:
/// `positions[...] + offset` for every entry of `positions`, or, without
/// positions, `offset + s` for `s` in [0, `tokens`) (i64; checked without
/// forming the sum, which could wrap past the check). `offset` is i64.
Value emitPositionsInTable(OpBuilder &b, Location loc, Value positions,
                           Value offset, Value tokens, Value rows);

/// cf.assert with `message` that every position of the tokens of `x` (its
/// dim `tokenAxis`; `positions` when given, plus `offset`) is a row of
/// `table`: a position outside a table is a runtime error, never an
/// out-of-bounds read.
void emitPositionsInTableAssert(OpBuilder &b, Location loc, Value positions,
                                Value offset, Value x, int64_t tokenAxis,
                                Value table, StringRef message);

} // namespace posenc
} // namespace mlir

#endif // POSENC_CODEGEN_LINALGBUILDERS_H
