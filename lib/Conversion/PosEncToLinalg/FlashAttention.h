//===- FlashAttention.h - pieces of posenc-tile-attention -------*- C++ -*-===//
//
// What the flash loop nest (TileAttention.cpp) and the dot-product key loop
// of its few-row blocks (DotKeyLoop.cpp) share: the problem, a query block,
// the online-softmax state and the key tiles a key loop step reads.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_LIB_CONVERSION_POSENCTOLINALG_FLASHATTENTION_H
#define POSENC_LIB_CONVERSION_POSENCTOLINALG_FLASHATTENTION_H

#include "posenc/IR/PosEncOps.h"

#include "mlir/IR/Builders.h"

namespace mlir {
namespace posenc {
namespace flash {

Value indexConst(OpBuilder &b, Location loc, int64_t v);

/// A tile extent along a sequence: `tile` rows from `start`, fewer at the
/// end of `limit` unless every tile is known to be full (then static).
struct TileExtent {
  int64_t tile;
  bool full;

  OpFoldResult size(OpBuilder &b, Location loc, Value start, Value limit) const;
};

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
  /// Key tiles past the last query position of a block can be skipped.
  bool skipFutureKeys;
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
/// the kernel) and [1, 1, rows, Dv] values, and their [rows] positions (null:
/// `index + start`).
struct KeyTile {
  OpFoldResult rows;
  Value keys, values, positions;
};

/// The key tile of a key loop step from `start`; keys are read from `keys`
/// ([B, Hkv, Sk, D]) up to `keyLimit`.
KeyTile sliceKeyTile(OpBuilder &b, Location loc, const Problem &p,
                     const QueryBlock &block, Value start, Value keyLimit,
                     TileExtent keyTile, Value keys);

/// Lanes of the dot-product key loop for head dims `headDim` and `valueDim`:
/// the widest power of two up to `vectorWidth` and 8 (kDotMaxLanes) dividing
/// both; 0 (use the tile ops) when `vectorWidth` is 0 or that is under 4
/// lanes.
int64_t chooseDotLanes(int64_t vectorWidth, int64_t headDim, int64_t valueDim);

/// The online softmax over the key tiles [begin, end) of a block whose rows
/// (`G * block.rows`, static) are few, in the dot-product form: vector ops of
/// `lanes` lanes, K rows read in place (DotKeyLoop.cpp); `vectorWidth` (the
/// host's register in f32 lanes) sizes its register blocks. With
/// `block.qNarrow` and bf16 keys, scores take AVX-512 BF16 dot products
/// (canUseBF16Dot).
SoftmaxState emitDotKeyLoop(OpBuilder &b, Location loc, const Problem &p,
                            const QueryBlock &block, Value begin, Value end,
                            Value keyLimit, TileExtent keyTile, Value keys,
                            int64_t lanes, int64_t vectorWidth);

/// Whether the dot-product key loop of `lanes` lanes can compute bf16 scores
/// with AVX-512 BF16 dot products: bf16 Q and K, `lanes` f32 lanes of 128,
/// 256 or 512 bits, and chunks of 2 x lanes channels dividing the head dim.
bool canUseBF16Dot(const Problem &p, Type keyElementType, int64_t lanes);

} // namespace flash
} // namespace posenc
} // namespace mlir

#endif // POSENC_LIB_CONVERSION_POSENCTOLINALG_FLASHATTENTION_H
