//===- FlashAttention.h - posenc.attention as a flash loop nest -*- C++ -*-===//
//
// The transform behind posenc-tile-attention, for hosts that drive it
// themselves: a schedule chosen from the op's static shape and the options
// (tiles, key splitting for decode, the key loop's form), then the loop nest
// built from it (scf.forall over blocks, scf.for over key tiles with an
// online softmax, small linalg or vector ops inside). The numerics are those
// of posenc/Codegen/AttentionEmitters.h, shared with every other lowering.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_TRANSFORMS_FLASHATTENTION_H
#define POSENC_TRANSFORMS_FLASHATTENTION_H

#include "posenc/IR/PosEncOps.h"
#include "posenc/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace posenc {

/// A tile extent along a sequence: `tile` rows from a start, fewer at the end
/// of the sequence unless every tile is known to be full (then static).
struct TileExtent {
  int64_t tile;
  bool full;

  /// The extent of the tile from `start` in a sequence of `limit`.
  OpFoldResult size(OpBuilder &b, Location loc, Value start, Value limit) const;
};

/// How one attention becomes a flash loop nest, chosen before any IR is
/// built.
struct FlashSchedule {
  /// Query rows per block (per query head of a group); keys per step of the
  /// key loop.
  TileExtent queryTile, keyTile;
  /// Few query rows per kv head (decode, `G * Sq <= decode-rows`).
  bool fewRows;
  /// Keys split into chunks of `chunk` keys that run in parallel, combined
  /// afterwards.
  bool splitKeys;
  int64_t chunk;
  /// Lanes of the dot-product key loop of few-row blocks; 0: linalg tile ops.
  int64_t dotLanes;
  /// Lanes of the tile ops' running sum and tile max (1: plain reductions).
  int64_t softmaxLanes;
  /// K rotated once before the nest instead of in each key tile.
  bool prerotateKeys;
  /// cos/sin of every key position computed once before the nest for the
  /// key tiles' rotations (prefill blocks with in-kernel rotation).
  bool keyTables;
  /// bf16 scores of the dot-product key loop as AVX-512 BF16 dot products.
  bool bf16Dot;
  /// `vector-width`: f32 lanes of the host's vector registers.
  int64_t vectorWidth;
};

/// The schedule of `op` under `options`; failure when the nest cannot take
/// the op (dynamic head counts or head dims, ALiBi slopes of more heads than
/// a constant holds), which the reference lowering then takes.
FailureOr<FlashSchedule>
chooseFlashSchedule(AttentionOp op, const PosEncTileAttentionOptions &options);

/// Rewrites `op` into the flash loop nest of `schedule` (from
/// chooseFlashSchedule); returns the value that replaced it.
FailureOr<Value> tileAttention(RewriterBase &rewriter, AttentionOp op,
                               const FlashSchedule &schedule);

/// Whether the score matrix of `op` (B x Hq x Sq x Sk) is not known to have
/// `minScores` elements (fewer, or a dynamic extent): `min-scores` leaves
/// such ops to the reference lowering.
bool hasFewerScores(AttentionOp op, int64_t minScores);

} // namespace posenc
} // namespace mlir

#endif // POSENC_TRANSFORMS_FLASHATTENTION_H
