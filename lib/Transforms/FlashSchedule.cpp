//===- FlashSchedule.cpp - how posenc-tile-attention tiles an attention ---===//
//
// The schedule of one attention's flash nest, from its static shape and the
// pass options: query and key tiles, whether a decode attention's keys are
// split into parallel chunks, and which key loop its blocks run (linalg tile
// ops, or the dot-product loop in vector ops for few-row blocks). Choosing
// it builds no IR.
//
//===----------------------------------------------------------------------===//

#include "posenc/Transforms/FlashAttention.h"

#include "posenc/IR/PosEncNumerics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::posenc;

OpFoldResult TileExtent::size(OpBuilder &b, Location loc, Value start,
                              Value limit) const {
  if (full)
    return b.getIndexAttr(tile);
  Value left = arith::SubIOp::create(b, loc, limit, start);
  return arith::MinSIOp::create(
             b, loc, arith::ConstantIndexOp::create(b, loc, tile), left)
      .getResult();
}

bool mlir::posenc::hasFewerScores(AttentionOp op, int64_t minScores) {
  if (minScores <= 0)
    return false;
  auto q = cast<RankedTensorType>(op.getQuery().getType());
  auto k = cast<RankedTensorType>(op.getKey().getType());
  if (!q.hasStaticShape() || !k.hasStaticShape())
    return true;
  uint64_t scores = 1;
  for (int64_t extent :
       {q.getDimSize(0), q.getDimSize(1), q.getDimSize(2), k.getDimSize(2)})
    scores = llvm::SaturatingMultiply(scores, static_cast<uint64_t>(extent));
  return scores < static_cast<uint64_t>(minScores);
}

namespace {

/// Most lanes of the dot-product form, which is also its keys per step (a
/// step is one group of `lanes` keys). Bench case c (GQA 32/8, D = 128, f32)
/// on an AVX-512 host, medians of alternating runs on the bench's inputs:
/// 16 lanes in 64-key steps (the earlier choice) 9.0-9.4 ms at 2 threads,
/// 18.3 at 1; 16 lanes in 16-key steps 8.9-9.2; 8 lanes in 32-, 16- and
/// 8-key steps 9.0, 8.3 and 7.6-8.0 ms (15.9 at 1 thread); bf16 decode
/// 6.3 -> 5.9 ms. A step of 8 keys reads 4 KiB each of K and V (D = 128):
/// the step's P.V from cache overlaps the next step's scores loop, whose
/// prefetches wait for memory, within the core's out-of-order window. (Why
/// 256-bit vectors beat 512-bit ones in this memory-bound loop, and by how
/// much, varied with the state of the shared host: by 0-18%.)
constexpr int64_t kDotMaxLanes = 8;

/// Fewest lanes worth the dot-product form: narrower vectors (a head dim
/// that only 1 or 2 divide) make its transposing reduction and unrolled
/// update cost more than the tile ops, and LLVM took minutes on them.
constexpr int64_t kDotMinLanes = 4;

/// Most key chunks of a decode split with a static key count.
constexpr int64_t kMaxDecodeChunks = 16;

/// Largest rows x (D + Dv) of a block on the dot-product key loop of
/// kDotMaxLanes lanes (8 rows of 128 + 128 channels: Llama-3-70B's GQA 64/8
/// decode); narrower lanes take proportionally fewer (the unrolled vectors
/// are what bufferization's time grows with).
constexpr int64_t kMaxDotRowChannels = 2048;

/// Tiles of `tile` along an extent `extent` (dynamic or not) whose tiles
/// start at multiples of `tile` below `bound` (a multiple of `tile`, or the
/// extent itself when 0).
TileExtent chooseExtent(int64_t extent, int64_t tile, int64_t bound = 0) {
  if (ShapedType::isDynamic(extent))
    return {tile, false};
  if (extent <= tile && bound == 0)
    return {std::max<int64_t>(extent, 1), true};
  bool divides = extent % tile == 0 && (bound == 0 || bound % tile == 0);
  return {tile, divides};
}

/// Lanes of the tile ops' running sum and tile max (emitSoftmaxStep): the
/// host's f32 lanes `vectorWidth` where they divide the key tile (a partial
/// last tile is padded to a whole one), else 1 (plain row reductions).
int64_t chooseSoftmaxLanes(int64_t vectorWidth, TileExtent keyTile) {
  if (vectorWidth > 1 && keyTile.tile % vectorWidth == 0)
    return vectorWidth;
  return 1;
}

/// Lanes of the dot-product key loop for head dims `headDim` and `valueDim`:
/// the widest power of two up to `vectorWidth` and kDotMaxLanes dividing
/// both; 0 (use the tile ops) when `vectorWidth` is 0 or that is under
/// kDotMinLanes.
int64_t chooseDotLanes(int64_t vectorWidth, int64_t headDim, int64_t valueDim) {
  if (vectorWidth <= 0)
    return 0;
  int64_t lanes = static_cast<int64_t>(llvm::bit_floor(
      static_cast<uint64_t>(std::min(vectorWidth, kDotMaxLanes))));
  while (lanes > 1 && (headDim % lanes != 0 || valueDim % lanes != 0))
    lanes /= 2;
  return lanes >= kDotMinLanes ? lanes : 0;
}

/// Whether the dot-product key loop of `lanes` lanes can compute bf16 scores
/// with AVX-512 BF16 dot products: bf16 Q and K, `lanes` f32 lanes of 128,
/// 256 or 512 bits, and chunks of 2 x lanes channels dividing the head dim.
bool canUseBF16Dot(Type queryElementType, Type keyElementType, int64_t lanes,
                   int64_t headDim) {
  return queryElementType.isBF16() && keyElementType.isBF16() &&
         llvm::is_contained({int64_t(4), int64_t(8), int64_t(16)}, lanes) &&
         headDim % (2 * lanes) == 0;
}

} // namespace

FailureOr<FlashSchedule>
mlir::posenc::chooseFlashSchedule(AttentionOp op,
                                  const PosEncTileAttentionOptions &options) {
  auto qType = cast<RankedTensorType>(op.getQuery().getType());
  auto kType = cast<RankedTensorType>(op.getKey().getType());
  auto vType = cast<RankedTensorType>(op.getValue().getType());
  if (qType.isDynamicDim(1) || kType.isDynamicDim(1) || qType.isDynamicDim(3) ||
      vType.isDynamicDim(3))
    return failure();
  if (op.getAlibiAttr() && qType.getDimSize(1) > kMaxConstantElements)
    return failure();
  int64_t group = qType.getDimSize(1) / kType.getDimSize(1);
  int64_t headDim = qType.getDimSize(3), valueDim = vType.getDimSize(3);

  FlashSchedule s;
  s.vectorWidth = options.vectorWidth;
  bool rope = static_cast<bool>(op.getRopeAttr());
  s.prerotateKeys = rope && options.prerotateKeys;
  // Few query rows per kv head (decode): split the keys, and with
  // vector-width, the dot-product key loop for blocks of static rows.
  int64_t sq = qType.getDimSize(2), sk = kType.getDimSize(2);
  s.fewRows = !ShapedType::isDynamic(sq) && group * sq <= options.decodeRows;
  s.splitKeys =
      s.fewRows && (ShapedType::isDynamic(sk) || sk > options.decodeChunk);
  s.queryTile = chooseExtent(sq, options.queryTile);
  // The dot-product key loop unrolls rows x (D + Dv) / lanes vectors per
  // key step, and one-shot bufferization analyses that IR in superlinear
  // time (8 rows of D = 128 on 8 lanes: 15 s; 14 rows: 130 s, 16 rows: 240 s
  // in the default pipeline, issue 22; 15 rows of D = 60 on 4 lanes: 134 s,
  // found by the harness, 9191:2769): larger blocks take the tile ops.
  int64_t dotLanes = chooseDotLanes(options.vectorWidth, headDim, valueDim);
  bool dotFits = !ShapedType::isDynamic(sq) &&
                 group * sq * (headDim + valueDim) * kDotMaxLanes <=
                     kMaxDotRowChannels * dotLanes;
  s.dotLanes = s.fewRows && s.queryTile.full && dotFits ? dotLanes : 0;
  // The dot-product key loop steps one group of `lanes` keys (kDotMaxLanes);
  // `key-tile` sizes the tile ops' steps.
  int64_t keyTileSize = s.dotLanes ? s.dotLanes : options.keyTile;
  // At most kMaxDecodeChunks chunks of a static Sk: enough work items for
  // the threads, and the combine (a reduction over chunks, unrolled when
  // vectorized) stays small; LLVM took 14 s on 64 chunks.
  s.chunk = options.decodeChunk;
  if (s.splitKeys && !ShapedType::isDynamic(sk)) {
    int64_t spread = llvm::divideCeil(sk, kMaxDecodeChunks);
    spread = llvm::divideCeil(spread, keyTileSize) * keyTileSize;
    s.chunk = std::max(s.chunk, spread);
  }
  // A sequence's key_lengths entry ends its keys anywhere: its last tile
  // may be partial whatever Sk is.
  s.keyTile =
      chooseExtent(op.getKeyLengths() ? ShapedType::kDynamic : sk,
                   std::min(keyTileSize, s.chunk), s.splitKeys ? s.chunk : 0);
  s.softmaxLanes = chooseSoftmaxLanes(options.vectorWidth, s.keyTile);
  // Blocks of many rows (prefill) rotate each key tile once per query block
  // and kv head: its cos/sin come from tables of every key position,
  // computed once (a few percent of bench case a when each rotation computed
  // its own); a decode block rotates each tile once.
  s.keyTables = rope && !s.prerotateKeys && !op.getKPositions() && !s.fewRows;
  s.bf16Dot = s.dotLanes && options.bf16DotProducts &&
              canUseBF16Dot(qType.getElementType(), kType.getElementType(),
                            s.dotLanes, headDim);
  return s;
}
