//===- FlashAttentionImpl.h - pieces of the flash nest ----------*- C++ -*-===//
//
// What the flash loop nest (FlashAttention.cpp) and its two key loops (the
// tile ops of FlashKeyLoop.cpp, the dot-product form of DotKeyLoop.cpp)
// share: the problem, a query block, the online-softmax state and the key
// tiles a key loop step reads.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_LIB_TRANSFORMS_FLASHATTENTIONIMPL_H
#define POSENC_LIB_TRANSFORMS_FLASHATTENTIONIMPL_H

#include "posenc/Transforms/FlashAttention.h"

#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace posenc {
namespace flash {

Value indexConst(OpBuilder &b, Location loc, int64_t v);

/// The loop-invariant pieces of one attention.
struct Problem {
  /// Mutable: ODS accessors are not const.
  mutable AttentionOp op;
  Value q, k, v;
  Type elementType;
  int64_t kvHeads, group, headDim, valueDim;
  OpFoldResult batch, queries, keys;
  Value queriesV, keysV;
  /// Shift of default query positions (null: none or q_positions).
  Value qShift;
  /// With split keys: the keys [keyBase, keyEnd) that some query can see
  /// (a window or chunks narrow them; decode over a long cache then splits
  /// only the window), keyBase a multiple of the key tile.
  Value keyBase, keyEnd;
  /// [Hq] f32 slopes, or null.
  Value slopes;
  /// [Hq] f32 attention sinks, or null.
  Value sinks;
  bool rotateKeysInKernel;
  /// With in-kernel rotation of keys at default positions: the [Sk,
  /// rotary_dim/2] f32 cos/sin of every key position (attention factor
  /// applied), computed once and read by the key tiles' rotations; null when
  /// each tile computes its own rows.
  Value keyCos, keySin;
};

/// The per-(batch, kv head, query tile) inputs of the key loop.
struct QueryBlock {
  Value batch, head, start;
  OpFoldResult rows;
  /// [G, rows, D] f32, rotated when RoPE applies.
  Value q;
  /// The same rows in bf16 (before widening) for BF16 dot products, or null.
  Value qNarrow;
  /// [rows] positions (i64-like), or null for `index + qOffset`.
  Value positions;
  Value qOffset;
  /// [G] f32 slopes of the block's heads, or null.
  Value slopes;
  /// [G] f32 sinks of the block's heads when its key loop counts them (not
  /// in a key chunk: the combine does), or null.
  Value sinks;
};

/// The running state of the online softmax: max and sum [G, rows], the
/// unnormalized output [G, rows, Dv].
struct SoftmaxState {
  Value max, sum, acc;
};

/// What one step of a key loop reads: keys [start, start + rows) of the
/// block's kv head, as [1, 1, rows, D] keys (rotated when RoPE is applied in
/// the kernel) and [1, 1, rows, Dv] values, their [rows] positions (null:
/// `index + start`) and [rows] key_mask entries (null: no key_mask).
struct KeyTile {
  OpFoldResult rows;
  Value keys, values, positions, keyMask;
};

/// The key tile of a key loop step from `start`; keys are read from `keys`
/// ([B, Hkv, Sk, D]) up to `keyLimit`.
KeyTile sliceKeyTile(OpBuilder &b, Location loc, const Problem &p,
                     const QueryBlock &block, Value start, Value keyLimit,
                     TileExtent keyTile, Value keys);

/// Positions `[S]` or `[B, S]` sliced to the `rows` tokens from `start` of
/// batch `batch`: `[rows]`, or `[1, rows]` from `[B, S]` with `keepBatch`
/// (the positions of a [1, H, rows, D] tile for posenc.rotary).
Value slicePositions(OpBuilder &b, Location loc, Value positions, Value batch,
                     Value start, OpFoldResult rows, bool keepBatch = false);

/// `x[batch, head0 : head0 + heads, start : start + rows, :]` as
/// [1, heads, rows, D].
Value sliceHeads(OpBuilder &b, Location loc, Value x, Value batch,
                 OpFoldResult head0, int64_t heads, Value start,
                 OpFoldResult rows);

/// The cos/sin tables [Sk, rotary_dim/2] of key positions 0 .. Sk - 1 (the
/// values posenc.rotary's lowering computes per tile: same emitters).
std::pair<Value, Value> emitKeyTables(OpBuilder &b, Location loc,
                                      const Problem &p);

/// A linalg.generic with `inputs` and one `init`, body `fn(args)`.
Value emitGeneric(OpBuilder &b, Location loc, ValueRange inputs, Value init,
                  ArrayRef<AffineMap> maps,
                  ArrayRef<utils::IteratorType> iterators,
                  function_ref<Value(OpBuilder &, Location, ValueRange)> fn);

/// The online softmax over the key tiles [begin, end) of a query block in
/// linalg tile ops (keys read up to `keyLimit` from `keys`), its statistics
/// in `lanes` lanes (FlashKeyLoop.cpp).
SoftmaxState emitKeyLoop(OpBuilder &b, Location loc, const Problem &p,
                         const QueryBlock &block, Value begin, Value end,
                         Value keyLimit, TileExtent keyTile, Value keys,
                         int64_t lanes);

/// The online softmax over the key tiles [begin, end) of a block whose rows
/// (`G * block.rows`, static) are few, in the dot-product form: vector ops of
/// `lanes` lanes, K rows read in place (DotKeyLoop.cpp); `vectorWidth` (the
/// host's register in f32 lanes) sizes its register blocks. With
/// `block.qNarrow` (FlashSchedule::bf16Dot), scores take AVX-512 BF16 dot
/// products.
SoftmaxState emitDotKeyLoop(OpBuilder &b, Location loc, const Problem &p,
                            const QueryBlock &block, Value begin, Value end,
                            Value keyLimit, TileExtent keyTile, Value keys,
                            int64_t lanes, int64_t vectorWidth);

} // namespace flash
} // namespace posenc
} // namespace mlir

#endif // POSENC_LIB_TRANSFORMS_FLASHATTENTIONIMPL_H
