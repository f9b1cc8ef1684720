//===- TileAttention.cpp - the posenc-tile-attention pass -----------------===//
//
// posenc.attention as a flash-attention loop nest on tensors: scf.forall over
// (batch, kv head, query tile, key chunk), an scf.for over key tiles with an
// online softmax (running max, running sum, rescaled accumulator), and small
// linalg ops on tiles that posenc-tile-and-vectorize (or a host's codegen)
// tiles to registers. No Sq x Sk buffer exists at any size.
//
// - GQA: the G query heads of a kv head are one [G, Tq, D] block against the
//   same K/V tile; K/V are never copied per query head.
// - RoPE: posenc.rotary on the Q block (once) and on each K tile (once per
//   kv head and query tile, shared by the G heads), from cos/sin rows of the
//   tile's positions; or K rotated once before the nest (`prerotate-keys`).
// - Causal with default positions: key tiles past the block's last query
//   position are not visited; the mask and ALiBi come from indices.
// - Decode (few query rows per kv head): the keys are split into chunks that
//   run in parallel; partial (max, sum, accumulator) are combined after.
//   With `vector-width`, such blocks run the dot-product key loop of
//   DotKeyLoop.cpp (vector ops, K rows read in place) instead of tile ops.
//
// Numerics match the reference decomposition (AttentionToLinalg.cpp): f32
// accumulation, logits `s * scale + alibi`, fully masked rows give 0,
// attention sinks as a first key column that has no value row.
//
//===----------------------------------------------------------------------===//

#include "ExtentChecks.h"
#include "FlashAttention.h"
#include "LoweringUtils.h"

#include "posenc/Conversion/Passes.h"
#include "posenc/IR/PosEncNumerics.h"
#include "posenc/IR/PosEncOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"
#include "mlir/IR/PatternMatch.h"

#include "llvm/Support/MathExtras.h"

namespace mlir {
namespace posenc {
#define GEN_PASS_DEF_POSENCTILEATTENTION
#include "posenc/Conversion/Passes.h.inc"
} // namespace posenc
} // namespace mlir

using namespace mlir;
using namespace mlir::posenc;
using namespace mlir::posenc::flash;

Value flash::indexConst(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

OpFoldResult TileExtent::size(OpBuilder &b, Location loc, Value start,
                              Value limit) const {
  if (full)
    return b.getIndexAttr(tile);
  Value left = arith::SubIOp::create(b, loc, limit, start);
  return arith::MinSIOp::create(b, loc, indexConst(b, loc, tile), left)
      .getResult();
}

namespace {

using utils::IteratorType;

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

/// Positions `[S]` or `[B, S]` sliced to the `rows` tokens from `start` of
/// batch `batch`: `[rows]`, or `[1, rows]` from `[B, S]` with `keepBatch`
/// (the positions of a [1, H, rows, D] tile for posenc.rotary).
Value slicePositions(OpBuilder &b, Location loc, Value positions, Value batch,
                     Value start, OpFoldResult rows, bool keepBatch = false) {
  auto type = cast<RankedTensorType>(positions.getType());
  int64_t staticRows = staticShape({rows})[0];
  OpFoldResult one = b.getIndexAttr(1);
  if (type.getRank() == 1)
    return tensor::ExtractSliceOp::create(
        b, loc, RankedTensorType::get({staticRows}, type.getElementType()),
        positions, ArrayRef<OpFoldResult>{start}, ArrayRef<OpFoldResult>{rows},
        ArrayRef<OpFoldResult>{one});
  SmallVector<int64_t> shape{staticRows};
  if (keepBatch)
    shape.insert(shape.begin(), 1);
  return tensor::ExtractSliceOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), positions,
      ArrayRef<OpFoldResult>{batch, start}, ArrayRef<OpFoldResult>{one, rows},
      ArrayRef<OpFoldResult>{one, one});
}

/// `x[batch, head0 : head0 + heads, start : start + rows, :]` as
/// [1, heads, rows, D].
Value sliceHeads(OpBuilder &b, Location loc, Value x, Value batch,
                 OpFoldResult head0, int64_t heads, Value start,
                 OpFoldResult rows) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t dim = type.getDimSize(3);
  SmallVector<OpFoldResult> offsets{batch, head0, start, b.getIndexAttr(0)};
  SmallVector<OpFoldResult> sizes{b.getIndexAttr(1), b.getIndexAttr(heads),
                                  rows, b.getIndexAttr(dim)};
  SmallVector<OpFoldResult> strides(4, b.getIndexAttr(1));
  auto sliceType =
      RankedTensorType::get(staticShape(sizes), type.getElementType());
  return tensor::ExtractSliceOp::create(b, loc, sliceType, x, offsets, sizes,
                                        strides);
}

/// posenc.rotary of a [1, 1, rows, D] key tile from `start` with rows of the
/// problem's key cos/sin tables.
Value rotateTileFromTables(OpBuilder &b, Location loc, const Problem &p,
                           Value tile, Value start) {
  RopeAttr rope = p.op.getRopeAttr();
  return RotaryOp::create(b, loc, tile.getType(), tile, Value(), p.keyCos,
                          p.keySin, Value(), start, Value(), rope.getLayout(),
                          rope.getRotaryDim(), IntegerAttr(),
                          DenseI64ArrayAttr(), MRopeLayoutAttr());
}

/// The cos/sin tables [Sk, rotary_dim/2] of key positions 0 .. Sk - 1 (the
/// values posenc.rotary's lowering computes per tile: same emitters).
std::pair<Value, Value> emitKeyTables(OpBuilder &b, Location loc,
                                      const Problem &p) {
  MLIRContext *ctx = b.getContext();
  int64_t half = p.op.getRopeAttr().getRotaryDim() / 2;
  SmallVector<OpFoldResult> sizes{p.keys, b.getIndexAttr(half)};
  Value attentionFactor = p.op.getAttentionFactor();
  Type f32 = b.getF32Type();
  AffineMap id = b.getMultiDimIdentityMap(2);
  Value cosInit = emptyLike(b, loc, sizes, f32);
  Value sinInit = emptyLike(b, loc, sizes, f32);
  auto tables = linalg::GenericOp::create(
      b, loc, TypeRange{cosInit.getType(), sinInit.getType()},
      ValueRange{p.op.getInvFreq()}, ValueRange{cosInit, sinInit},
      ArrayRef<AffineMap>{mapOf(ctx, 2, {1}), id, id}, parallelIterators(2),
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value pos = emitPosition(nb, nloc, linalg::IndexOp::create(nb, nloc, 0),
                                 Value());
        auto [cos, sin] = emitCosSin(nb, nloc, pos, args[0], attentionFactor);
        linalg::YieldOp::create(nb, nloc, ValueRange{cos, sin});
      });
  return {tables.getResult(0), tables.getResult(1)};
}

/// [1, H, rows, D] -> [H, rows, D].
Value dropBatch(OpBuilder &b, Location loc, Value tile) {
  return tensor::CollapseShapeOp::create(
      b, loc, tile, ArrayRef<ReassociationIndices>{{0, 1}, {2}, {3}});
}

/// The key tile [n, D] transposed to [D, n] and converted to f32: the
/// right-hand side of QK^T with the keys contiguous, so that a register tile
/// reads a row of keys per step. Packed once per key tile, read by the
/// G * Tq query rows.
Value emitPackedKeys(OpBuilder &b, Location loc, Value keys) {
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, keys);
  return emitConverted(b, loc, keys, mapOf(b.getContext(), 2, {1, 0}),
                       {sizes[1], sizes[0]}, b.getF32Type());
}

/// `x` converted to f32 (itself when it is f32): 16-bit operands of the
/// contractions are widened once per block, not once per use.
Value emitWidened(OpBuilder &b, Location loc, Value x) {
  auto type = cast<RankedTensorType>(x.getType());
  if (type.getElementType().isF32())
    return x;
  return emitConverted(b, loc, x, b.getMultiDimIdentityMap(type.getRank()),
                       tensor::getMixedSizes(b, loc, x), b.getF32Type());
}

/// scores[g, i, n] = sum_r q[g, i, r] * kt[r, n] (loops g, i, n, r).
Value emitTileScores(OpBuilder &b, Location loc, Value q, Value kt,
                     ArrayRef<OpFoldResult> scoreSizes) {
  MLIRContext *ctx = b.getContext();
  Value init = filled(b, loc, scoreSizes, f32Const(b, loc, 0.0f));
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ValueRange{q, kt},
             ValueRange{init},
             ArrayRef<AffineMap>{mapOf(ctx, 4, {0, 1, 3}),
                                 mapOf(ctx, 4, {3, 2}),
                                 mapOf(ctx, 4, {0, 1, 2})},
             ArrayRef<IteratorType>{
                 IteratorType::parallel, IteratorType::parallel,
                 IteratorType::parallel, IteratorType::reduction},
             emitMulAdd)
      .getResult(0);
}

/// The logits of a tile: `scores * scale + alibi`, -inf for future keys when
/// causal (loops g, i, n).
Value emitTileLogits(OpBuilder &b, Location loc, const Problem &p,
                     const QueryBlock &block, Value scores, Value kPositions,
                     Value kOffset) {
  MLIRContext *ctx = b.getContext();
  GenericInputs inputs;
  inputs.add(scores, b.getMultiDimIdentityMap(3));
  int slopeArg = inputs.add(block.slopes, mapOf(ctx, 3, {0}));
  int qArg = inputs.add(block.positions, mapOf(ctx, 3, {1}));
  int kArg = inputs.add(kPositions, mapOf(ctx, 3, {2}));
  Value qOffset = block.positions ? Value() : toI64(b, loc, block.qOffset);
  Value kOffset64 = kPositions ? Value() : toI64(b, loc, kOffset);
  LogitRule rule = LogitRule::get(p.op);
  auto body = [&](OpBuilder &nb, Location nloc, ValueRange args) {
    Value qPos, kPos;
    if (rule.needsPositions(slopeArg >= 0)) {
      qPos = emitLoopPosition(nb, nloc, getArgOrNull(args, qArg), 1, qOffset);
      kPos = emitLoopPosition(nb, nloc, getArgOrNull(args, kArg), 2, kOffset64);
    }
    Value logit = emitAttentionLogit(nb, nloc, rule, args[0],
                                     getArgOrNull(args, slopeArg), qPos, kPos);
    linalg::YieldOp::create(nb, nloc, logit);
  };
  auto type = cast<RankedTensorType>(scores.getType());
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, inputs.values,
             ValueRange{tensor::EmptyOp::create(
                 b, loc, tensor::getMixedSizes(b, loc, scores),
                 type.getElementType())},
             inputs.mapsWith({b.getMultiDimIdentityMap(3)}),
             parallelIterators(3), body)
      .getResult(0);
}

/// A generic with `inputs` and one `init`, body `fn(args)`.
Value emitGeneric(OpBuilder &b, Location loc, ValueRange inputs, Value init,
                  ArrayRef<AffineMap> maps, ArrayRef<IteratorType> iterators,
                  function_ref<Value(OpBuilder &, Location, ValueRange)> fn) {
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, inputs, ValueRange{init}, maps,
             iterators,
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               linalg::YieldOp::create(nb, nloc, fn(nb, nloc, args));
             })
      .getResult(0);
}

/// `x` [G, rows, n] viewed as [G, rows, n / lanes, lanes] (chunks of `lanes`
/// keys; `lanes` divides n).
Value splitKeyLanes(OpBuilder &b, Location loc, Value x, int64_t lanes) {
  auto type = cast<RankedTensorType>(x.getType());
  SmallVector<int64_t> shape(type.getShape());
  int64_t n = shape.back();
  shape.back() = ShapedType::isDynamic(n) ? n : n / lanes;
  shape.push_back(lanes);
  return tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), x,
      ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}});
}

/// One step of the online softmax over a tile of logits [G, rows, n] and
/// values [n, Dv]; the running sum is kept per lane, [G, rows, lanes] (the
/// keys of each lane in order), and summed across lanes after the key loop.
SoftmaxState emitSoftmaxStep(OpBuilder &b, Location loc, Value logits,
                             Value values, const SoftmaxState &state,
                             int64_t lanes) {
  MLIRContext *ctx = b.getContext();
  auto par = IteratorType::parallel, red = IteratorType::reduction;
  AffineMap id2 = b.getMultiDimIdentityMap(2);
  AffineMap id3 = b.getMultiDimIdentityMap(3);
  AffineMap rows3 = mapOf(ctx, 3, {0, 1});
  // The running state is updated in place (scf.for iter_args must bufferize
  // to the same buffers): each of max, sum, acc is read only by the op that
  // overwrites it.
  // t = max_n logits; m' = max(m, t); alpha = exp(m - m') rescales what was
  // accumulated against m.
  // The tile max in two stages: per lane over the chunks of `lanes` keys
  // (elementwise maxima), then across the lanes. Reduced along the keys in
  // one stage, the reduction gets its rows in vector lanes and transposes
  // every 16 x 16 block of logits (11% of bench case a's time).
  SmallVector<OpFoldResult> rowSizes = tensor::getMixedSizes(b, loc, state.max);
  SmallVector<OpFoldResult> laneSizes =
      tensor::getMixedSizes(b, loc, state.sum);
  auto maximum = [](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
    return arith::MaximumFOp::create(nb, nloc, args[0], args[1]);
  };
  AffineMap id4 = b.getMultiDimIdentityMap(4);
  AffineMap lanes4 = mapOf(ctx, 4, {0, 1, 3});
  Value laneMax =
      emitGeneric(b, loc, ValueRange{splitKeyLanes(b, loc, logits, lanes)},
                  filled(b, loc, laneSizes, f32NegInf(b, loc)), {id4, lanes4},
                  {par, par, red, par}, maximum);
  Value tileMax = emitGeneric(b, loc, ValueRange{laneMax},
                              filled(b, loc, rowSizes, f32NegInf(b, loc)),
                              {id3, rows3}, {par, par, red}, maximum);
  auto update = linalg::GenericOp::create(
      b, loc, TypeRange{state.max.getType(), state.max.getType()},
      ValueRange{tileMax},
      ValueRange{state.max, emptyLike(b, loc, rowSizes, b.getF32Type())},
      ArrayRef<AffineMap>{id2, id2, id2}, ArrayRef<IteratorType>{par, par},
      [](OpBuilder &nb, Location nloc, ValueRange args) {
        Value max = arith::MaximumFOp::create(nb, nloc, args[1], args[0]);
        linalg::YieldOp::create(
            nb, nloc, ValueRange{max, emitSafeExp(nb, nloc, args[1], max)});
      });
  Value max = update.getResult(0), alpha = update.getResult(1);
  // p = exp(logits - m')
  Value probs = emitGeneric(
      b, loc, ValueRange{logits, max},
      tensor::EmptyOp::create(b, loc, tensor::getMixedSizes(b, loc, logits),
                              b.getF32Type()),
      {id3, rows3, id3}, {par, par, par},
      [](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        return emitSafeExp(nb, nloc, args[0], args[1]);
      });
  // l' = l * alpha + sum_n p, per lane
  Value sumScaled = emitGeneric(
      b, loc, ValueRange{alpha}, state.sum, {rows3, id3}, {par, par, par},
      [](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        return arith::MulFOp::create(nb, nloc, args[1], args[0]);
      });
  Value sum =
      emitGeneric(b, loc, ValueRange{splitKeyLanes(b, loc, probs, lanes)},
                  sumScaled, {id4, lanes4}, {par, par, red, par},
                  [](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
                    return arith::AddFOp::create(nb, nloc, args[0], args[1]);
                  });
  // acc' = acc * alpha + p . v  (loops g, i, e, n)
  Value accScaled = emitGeneric(
      b, loc, ValueRange{alpha}, state.acc, {rows3, id3}, {par, par, par},
      [](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        return arith::MulFOp::create(nb, nloc, args[1], args[0]);
      });
  Value acc =
      linalg::GenericOp::create(
          b, loc, TypeRange{accScaled.getType()}, ValueRange{probs, values},
          ValueRange{accScaled},
          ArrayRef<AffineMap>{mapOf(ctx, 4, {0, 1, 3}), mapOf(ctx, 4, {3, 2}),
                              mapOf(ctx, 4, {0, 1, 2})},
          ArrayRef<IteratorType>{par, par, par, red}, emitMulAdd)
          .getResult(0);
  return {max, sum, acc};
}

} // namespace

KeyTile flash::sliceKeyTile(OpBuilder &b, Location loc, const Problem &p,
                            const QueryBlock &block, Value start,
                            Value keyLimit, TileExtent keyTile, Value keys) {
  KeyTile tile;
  tile.rows = keyTile.size(b, loc, start, keyLimit);
  tile.keys =
      sliceHeads(b, loc, keys, block.batch, block.head, 1, start, tile.rows);
  Value kPositionsAll = p.op.getKPositions();
  if (p.keyCos) {
    tile.keys = rotateTileFromTables(b, loc, p, tile.keys, start);
  } else if (p.rotateKeysInKernel) {
    Value positions = kPositionsAll
                          ? slicePositions(b, loc, kPositionsAll, block.batch,
                                           start, tile.rows, /*keepBatch=*/true)
                          : Value();
    tile.keys =
        createAttentionRotary(b, loc, p.op, tile.keys, positions, start);
  }
  tile.values =
      sliceHeads(b, loc, p.v, block.batch, block.head, 1, start, tile.rows);
  if (kPositionsAll)
    tile.positions =
        slicePositions(b, loc, kPositionsAll, block.batch, start, tile.rows);
  return tile;
}

namespace {

/// Lanes of the tile ops' running sum and tile max (emitSoftmaxStep): the
/// host's f32 lanes `vectorWidth` where they divide every key tile, else 1
/// (plain row reductions).
int64_t chooseSoftmaxLanes(int64_t vectorWidth, TileExtent keyTile) {
  if (vectorWidth > 1 && keyTile.full && keyTile.tile % vectorWidth == 0)
    return vectorWidth;
  return 1;
}

/// The online softmax over the key tiles [begin, end) of a query block
/// (keys are read up to `keyLimit`), its statistics in `lanes` lanes.
SoftmaxState emitKeyLoop(OpBuilder &b, Location loc, const Problem &p,
                         const QueryBlock &block, Value begin, Value end,
                         Value keyLimit, TileExtent keyTile, Value rotatedK,
                         int64_t lanes) {
  MLIRContext *ctx = b.getContext();
  auto par = IteratorType::parallel, red = IteratorType::reduction;
  OpFoldResult g = b.getIndexAttr(p.group);
  SmallVector<OpFoldResult> rowSizes{g, block.rows};
  SmallVector<OpFoldResult> laneSizes{g, block.rows, b.getIndexAttr(lanes)};
  SmallVector<OpFoldResult> accSizes{g, block.rows, b.getIndexAttr(p.valueDim)};
  SoftmaxState init;
  init.sum = filled(b, loc, laneSizes, f32Const(b, loc, 0.0f));
  if (block.sinks) {
    // The sink column is seen first: max = sink, sum = exp(sink - sink) (in
    // lane 0).
    AffineMap sinkMap = mapOf(ctx, 2, {0});
    init.max =
        emitConverted(b, loc, block.sinks, sinkMap, rowSizes, b.getF32Type());
    Value term = emitSinkTerm(b, loc, block.sinks, sinkMap, Value(), rowSizes);
    // [G, rows] -> [G, rows, 1] before inserting: a rank-reducing insert is
    // ambiguous once canonicalization makes `rows` a static 1 or G 1 (it
    // re-infers the dropped unit dim and casts [1, ?] to [?, 1]).
    auto termType = cast<RankedTensorType>(term.getType());
    SmallVector<int64_t> laneShape(termType.getShape());
    laneShape.push_back(1);
    term = tensor::ExpandShapeOp::create(
        b, loc, termType.clone(laneShape), term,
        ArrayRef<ReassociationIndices>{{0}, {1, 2}},
        ArrayRef<OpFoldResult>{g, block.rows, b.getIndexAttr(1)});
    init.sum = tensor::InsertSliceOp::create(
        b, loc, term, init.sum,
        ArrayRef<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(0),
                               b.getIndexAttr(0)},
        ArrayRef<OpFoldResult>{g, block.rows, b.getIndexAttr(1)},
        SmallVector<OpFoldResult>(3, b.getIndexAttr(1)));
  } else {
    init.max = filled(b, loc, rowSizes, f32NegInf(b, loc));
  }
  init.acc = filled(b, loc, accSizes, f32Const(b, loc, 0.0f));
  auto loop = scf::ForOp::create(
      b, loc, begin, end, indexConst(b, loc, keyTile.tile),
      ValueRange{init.max, init.sum, init.acc},
      [&](OpBuilder &nb, Location nloc, Value start, ValueRange iterArgs) {
        KeyTile tile = sliceKeyTile(nb, nloc, p, block, start, keyLimit,
                                    keyTile, rotatedK);
        auto square = [&](Value x) {
          // [1, 1, n, D] -> [n, D]
          return tensor::CollapseShapeOp::create(
              nb, nloc, x, ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}});
        };
        Value scores = emitTileScores(
            nb, nloc, block.q, emitPackedKeys(nb, nloc, square(tile.keys)),
            {nb.getIndexAttr(p.group), block.rows, tile.rows});
        Value logits =
            emitTileLogits(nb, nloc, p, block, scores, tile.positions, start);
        SoftmaxState next = emitSoftmaxStep(
            nb, nloc, logits, square(tile.values),
            SoftmaxState{iterArgs[0], iterArgs[1], iterArgs[2]}, lanes);
        scf::YieldOp::create(nb, nloc,
                             ValueRange{next.max, next.sum, next.acc});
      });
  // The lanes' sums, lane 0 first.
  Value sum = emitGeneric(
      b, loc, ValueRange{loop.getResult(1)},
      filled(b, loc, rowSizes, f32Const(b, loc, 0.0f)),
      {b.getMultiDimIdentityMap(3), mapOf(ctx, 3, {0, 1})}, {par, par, red},
      [](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        return arith::AddFOp::create(nb, nloc, args[1], args[0]);
      });
  return {loop.getResult(0), sum, loop.getResult(2)};
}

/// The normalized block output [G, rows, Dv] in the element type.
Value emitNormalized(OpBuilder &b, Location loc, const Problem &p,
                     const SoftmaxState &state) {
  MLIRContext *ctx = b.getContext();
  auto par = IteratorType::parallel;
  Type elementType = p.elementType;
  return emitGeneric(
      b, loc, ValueRange{state.acc, state.sum},
      tensor::EmptyOp::create(b, loc, tensor::getMixedSizes(b, loc, state.acc),
                              elementType),
      {b.getMultiDimIdentityMap(3), mapOf(ctx, 3, {0, 1}),
       b.getMultiDimIdentityMap(3)},
      {par, par, par},
      [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        return emitNormalizedOutput(nb, nloc, args[0], args[1], elementType);
      });
}

/// Inserts `tile` ([G, rows, ...]) into `dest` ([B, Hkv, (C,) G, Sq, ...])
/// at the block's place, in the forall's terminator.
void insertBlockTile(OpBuilder &b, Location loc, scf::ForallOp forall,
                     Value tile, Value dest, const QueryBlock &block,
                     Value chunk) {
  auto destType = cast<RankedTensorType>(dest.getType());
  auto tileType = cast<RankedTensorType>(tile.getType());
  SmallVector<OpFoldResult> offsets{block.batch, block.head};
  SmallVector<OpFoldResult> sizes{b.getIndexAttr(1), b.getIndexAttr(1)};
  if (chunk) {
    offsets.push_back(chunk);
    sizes.push_back(b.getIndexAttr(1));
  }
  offsets.append({b.getIndexAttr(0), block.start});
  sizes.append({tensor::getMixedSize(b, loc, tile, 0),
                tensor::getMixedSize(b, loc, tile, 1)});
  for (int64_t d = 2; d < tileType.getRank(); ++d) {
    offsets.push_back(b.getIndexAttr(0));
    sizes.push_back(tensor::getMixedSize(b, loc, tile, d));
  }
  SmallVector<OpFoldResult> strides(destType.getRank(), b.getIndexAttr(1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(b, loc, tile, dest, offsets, sizes,
                                        strides);
}

/// The partial results of key chunks combined:
/// `out = sum_c acc_c w_c / (e_sink + sum_c l_c w_c)`, `w_c = exp(m_c - M)`,
/// `M = max(sink, max_c m_c)`, `e_sink = exp(sink - M)`; without sinks
/// `sink = -inf` (`e_sink = 0`). The chunks start without the sink, so it is
/// counted once, here.
Value emitCombine(OpBuilder &b, Location loc, const Problem &p, Value maxes,
                  Value sums, Value accs, ArrayRef<OpFoldResult> outSizes) {
  MLIRContext *ctx = b.getContext();
  auto par = IteratorType::parallel, red = IteratorType::reduction;
  // Loops (b, h, g, i, c) for the max and the sum.
  SmallVector<OpFoldResult> rowSizes(outSizes.begin(), outSizes.end() - 1);
  Value sinks =
      p.sinks ? splitHeadVector(b, loc, p.sinks, p.kvHeads, p.group) : Value();
  AffineMap sinkMap = mapOf(ctx, 4, {1, 2});
  Value max = emitGeneric(
      b, loc, ValueRange{maxes},
      sinks ? emitConverted(b, loc, sinks, sinkMap, rowSizes, b.getF32Type())
            : filled(b, loc, rowSizes, f32NegInf(b, loc)),
      {mapOf(ctx, 5, {0, 1, 4, 2, 3}), mapOf(ctx, 5, {0, 1, 2, 3})},
      {par, par, par, par, red},
      [](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        return arith::MaximumFOp::create(nb, nloc, args[0], args[1]);
      });
  Value sum = emitGeneric(
      b, loc, ValueRange{sums, maxes, max},
      sinks ? emitSinkTerm(b, loc, sinks, sinkMap, max, rowSizes)
            : filled(b, loc, rowSizes, f32Const(b, loc, 0.0f)),
      {mapOf(ctx, 5, {0, 1, 4, 2, 3}), mapOf(ctx, 5, {0, 1, 4, 2, 3}),
       mapOf(ctx, 5, {0, 1, 2, 3}), mapOf(ctx, 5, {0, 1, 2, 3})},
      {par, par, par, par, red},
      [](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        Value w = emitSafeExp(nb, nloc, args[1], args[2]);
        return arith::AddFOp::create(
            nb, nloc, args[3], arith::MulFOp::create(nb, nloc, args[0], w));
      });
  SmallVector<OpFoldResult> accSizes(outSizes.begin(), outSizes.end());
  // Loops (b, h, g, i, c, e): the chunk dim before the value channels, so a
  // register tile reads each chunk's channels contiguously (no transpose).
  Value acc = emitGeneric(
      b, loc, ValueRange{accs, maxes, max},
      filled(b, loc, accSizes, f32Const(b, loc, 0.0f)),
      {mapOf(ctx, 6, {0, 1, 4, 2, 3, 5}), mapOf(ctx, 6, {0, 1, 4, 2, 3}),
       mapOf(ctx, 6, {0, 1, 2, 3}), mapOf(ctx, 6, {0, 1, 2, 3, 5})},
      {par, par, par, par, red, par},
      [](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        Value w = emitSafeExp(nb, nloc, args[1], args[2]);
        return arith::AddFOp::create(
            nb, nloc, args[3], arith::MulFOp::create(nb, nloc, args[0], w));
      });
  Type elementType = p.elementType;
  return emitGeneric(
      b, loc, ValueRange{acc, sum}, emptyLike(b, loc, outSizes, elementType),
      {b.getMultiDimIdentityMap(5), mapOf(ctx, 5, {0, 1, 2, 3}),
       b.getMultiDimIdentityMap(5)},
      {par, par, par, par, par},
      [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        return emitNormalizedOutput(nb, nloc, args[0], args[1], elementType);
      });
}

/// Most key chunks of a decode split with a static key count.
constexpr int64_t kMaxDecodeChunks = 16;

/// Largest rows x (D + Dv) of a block on the dot-product key loop (8 rows of
/// 128 + 128 channels: Llama-3-70B's GQA 64/8 decode).
constexpr int64_t kMaxDotRowChannels = 2048;

struct FlashOptions {
  int64_t queryTile, keyTile, decodeRows, decodeChunk, vectorWidth;
  bool prerotateKeys, bf16DotProducts;
};

/// Rewrites `op` into the flash loop nest.
LogicalResult lowerAttention(RewriterBase &rewriter, AttentionOp op,
                             const FlashOptions &options) {
  Location loc = op.getLoc();
  auto qType = cast<RankedTensorType>(op.getQuery().getType());
  auto kType = cast<RankedTensorType>(op.getKey().getType());
  auto vType = cast<RankedTensorType>(op.getValue().getType());
  if (qType.isDynamicDim(1) || kType.isDynamicDim(1) || qType.isDynamicDim(3) ||
      vType.isDynamicDim(3))
    return rewriter.notifyMatchFailure(op, "dynamic heads or head dims");
  if (op.getAlibiAttr() && qType.getDimSize(1) > kMaxConstantElements)
    return rewriter.notifyMatchFailure(op, "too many ALiBi heads");
  rewriter.setInsertionPoint(op);
  emitExtentAsserts(rewriter, op);

  Problem p;
  p.op = op;
  p.q = op.getQuery();
  p.k = op.getKey();
  p.v = op.getValue();
  p.elementType = qType.getElementType();
  p.kvHeads = kType.getDimSize(1);
  p.group = qType.getDimSize(1) / p.kvHeads;
  p.headDim = qType.getDimSize(3);
  p.valueDim = vType.getDimSize(3);
  SmallVector<OpFoldResult> qSizes = getSizes(rewriter, loc, p.q);
  p.batch = qSizes[0];
  p.queries = qSizes[2];
  p.keys = getSizes(rewriter, loc, p.k)[2];
  p.queriesV = getValueOrCreateConstantIndexOp(rewriter, loc, p.queries);
  p.keysV = getValueOrCreateConstantIndexOp(rewriter, loc, p.keys);
  if (!op.getQPositions())
    p.qShift =
        emitQueryShift(rewriter, loc, op.getAlignment(), p.queries, p.keys);
  p.slopes = op.getAlibiSlopes();
  if (AlibiSlopesAttr alibi = op.getAlibiAttr())
    p.slopes = emitAlibiSlopes(rewriter, loc, alibi, qType.getDimSize(1));
  if (p.slopes) {
    auto staticType =
        RankedTensorType::get({qType.getDimSize(1)}, rewriter.getF32Type());
    if (p.slopes.getType() != staticType)
      p.slopes = tensor::CastOp::create(rewriter, loc, staticType, p.slopes);
  }
  p.sinks = op.getSinks();
  bool rope = static_cast<bool>(op.getRopeAttr());
  p.rotateKeysInKernel = rope && !options.prerotateKeys;
  p.skipFutureKeys = hasCausalKeyBound(op);
  Value keysForTiles = p.k;
  if (rope && options.prerotateKeys) {
    Value positions = op.getKPositions();
    keysForTiles =
        createAttentionRotary(rewriter, loc, op, p.k, positions, Value());
  }

  // Few query rows per kv head (decode): split the keys, and with
  // vector-width, the dot-product key loop for blocks of static rows.
  int64_t sq = qType.getDimSize(2), sk = kType.getDimSize(2);
  bool fewRows =
      !ShapedType::isDynamic(sq) && p.group * sq <= options.decodeRows;
  bool splitKeys =
      fewRows && (ShapedType::isDynamic(sk) || sk > options.decodeChunk);
  TileExtent queryTile = chooseExtent(sq, options.queryTile);
  // The dot-product key loop unrolls rows x (D + Dv) channels per key step,
  // and one-shot bufferization analyses that IR in superlinear time (8 rows
  // of D = 128: 15 s; 14 rows: 130 s, 16 rows: 240 s in the default
  // pipeline, issue 22): larger blocks take the tile ops.
  bool dotFits = !ShapedType::isDynamic(sq) &&
                 p.group * sq * (p.headDim + p.valueDim) <= kMaxDotRowChannels;
  int64_t lanes =
      fewRows && queryTile.full && dotFits
          ? chooseDotLanes(options.vectorWidth, p.headDim, p.valueDim)
          : 0;
  // The dot-product key loop steps one group of `lanes` keys (kDotMaxLanes
  // in DotKeyLoop.cpp); `key-tile` sizes the tile ops' steps.
  int64_t keyTileSize = lanes ? lanes : options.keyTile;
  // At most kMaxDecodeChunks chunks of a static Sk: enough work items for
  // the threads, and the combine (a reduction over chunks, unrolled when
  // vectorized) stays small; LLVM took 14 s on 64 chunks.
  int64_t chunk = options.decodeChunk;
  if (splitKeys && !ShapedType::isDynamic(sk)) {
    int64_t spread = llvm::divideCeil(sk, kMaxDecodeChunks);
    spread = llvm::divideCeil(spread, keyTileSize) * keyTileSize;
    chunk = std::max(chunk, spread);
  }
  TileExtent keyTile =
      chooseExtent(sk, std::min(keyTileSize, chunk), splitKeys ? chunk : 0);
  // Blocks of many rows (prefill) rotate each key tile once per query block
  // and kv head: its cos/sin come from tables of every key position,
  // computed once (a few percent of bench case a when each rotation computed
  // its own); a decode block rotates each tile once.
  if (p.rotateKeysInKernel && !op.getKPositions() && !fewRows)
    std::tie(p.keyCos, p.keySin) = emitKeyTables(rewriter, loc, p);

  OpFoldResult one = rewriter.getIndexAttr(1), zero = rewriter.getIndexAttr(0);
  OpFoldResult hkv = rewriter.getIndexAttr(p.kvHeads);
  OpFoldResult g = rewriter.getIndexAttr(p.group);
  OpFoldResult dv = rewriter.getIndexAttr(p.valueDim);
  auto ceilDiv = [&](Value x, int64_t d) -> OpFoldResult {
    Value dm1 = indexConst(rewriter, loc, d - 1);
    return rewriter.createOrFold<arith::DivUIOp>(
        loc, rewriter.createOrFold<arith::AddIOp>(loc, x, dm1),
        indexConst(rewriter, loc, d));
  };
  OpFoldResult queryTiles = ceilDiv(p.queriesV, queryTile.tile);
  OpFoldResult chunks = splitKeys ? ceilDiv(p.keysV, chunk) : one;

  SmallVector<OpFoldResult> outSizes{p.batch, hkv, g, p.queries, dv};
  SmallVector<Value> outputs;
  if (splitKeys) {
    for (int i = 0; i < 2; ++i)
      outputs.push_back(emptyLike(rewriter, loc,
                                  {p.batch, hkv, chunks, g, p.queries},
                                  rewriter.getF32Type()));
    outputs.push_back(emptyLike(rewriter, loc,
                                {p.batch, hkv, chunks, g, p.queries, dv},
                                rewriter.getF32Type()));
  } else {
    outputs.push_back(emptyLike(rewriter, loc, outSizes, p.elementType));
  }

  auto forall = scf::ForallOp::create(
      rewriter, loc, SmallVector<OpFoldResult>{zero, zero, zero, zero},
      SmallVector<OpFoldResult>{p.batch, hkv, queryTiles, chunks},
      SmallVector<OpFoldResult>{one, one, one, one}, outputs, std::nullopt);
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(forall.getTerminator());
    SmallVector<Value> ivs = forall.getInductionVars();
    ValueRange shared = forall.getRegionIterArgs();
    QueryBlock block;
    block.batch = ivs[0];
    block.head = ivs[1];
    block.start = arith::MulIOp::create(
        rewriter, loc, ivs[2], indexConst(rewriter, loc, queryTile.tile));
    block.rows = queryTile.size(rewriter, loc, block.start, p.queriesV);
    Value qHead0 = arith::MulIOp::create(rewriter, loc, block.head,
                                         indexConst(rewriter, loc, p.group));
    Value qTile = sliceHeads(rewriter, loc, p.q, block.batch, qHead0, p.group,
                             block.start, block.rows);
    Value qPositionsAll = op.getQPositions();
    block.qOffset =
        p.qShift ? arith::AddIOp::create(rewriter, loc, block.start, p.qShift)
                       .getResult()
                 : block.start;
    if (rope) {
      Value positions =
          qPositionsAll ? slicePositions(rewriter, loc, qPositionsAll,
                                         block.batch, block.start, block.rows,
                                         /*keepBatch=*/true)
                        : Value();
      qTile = createAttentionRotary(rewriter, loc, op, qTile, positions,
                                    block.qOffset);
    }
    Value qRows = dropBatch(rewriter, loc, qTile);
    block.q = emitWidened(rewriter, loc, qRows);
    if (lanes && options.bf16DotProducts &&
        canUseBF16Dot(p, getElementTypeOrSelf(keysForTiles.getType()), lanes))
      block.qNarrow = qRows;
    if (qPositionsAll)
      block.positions = slicePositions(rewriter, loc, qPositionsAll,
                                       block.batch, block.start, block.rows);
    if (p.slopes)
      block.slopes = tensor::ExtractSliceOp::create(
          rewriter, loc, p.slopes, ArrayRef<OpFoldResult>{qHead0},
          ArrayRef<OpFoldResult>{g}, ArrayRef<OpFoldResult>{one});
    if (p.sinks && !splitKeys)
      block.sinks = tensor::ExtractSliceOp::create(
          rewriter, loc, p.sinks, ArrayRef<OpFoldResult>{qHead0},
          ArrayRef<OpFoldResult>{g}, ArrayRef<OpFoldResult>{one});

    // Keys [begin, end) of this chunk; past the block's last query position
    // when causal, none are visible.
    Value begin = indexConst(rewriter, loc, 0);
    Value limit = p.keysV;
    if (splitKeys) {
      begin = arith::MulIOp::create(rewriter, loc, ivs[3],
                                    indexConst(rewriter, loc, chunk));
      limit = arith::MinSIOp::create(
          rewriter, loc,
          arith::AddIOp::create(rewriter, loc, begin,
                                indexConst(rewriter, loc, chunk)),
          p.keysV);
    }
    Value end = limit;
    if (p.skipFutureKeys) {
      Value rows = getValueOrCreateConstantIndexOp(rewriter, loc, block.rows);
      end = emitVisibleKeyEnd(rewriter, loc, end, block.qOffset, rows);
    }
    SoftmaxState state =
        lanes
            ? emitDotKeyLoop(rewriter, loc, p, block, begin, end, limit,
                             keyTile, keysForTiles, lanes, options.vectorWidth)
            : emitKeyLoop(rewriter, loc, p, block, begin, end, limit, keyTile,
                          keysForTiles,
                          chooseSoftmaxLanes(options.vectorWidth, keyTile));
    if (splitKeys) {
      insertBlockTile(rewriter, loc, forall, state.max, shared[0], block,
                      ivs[3]);
      insertBlockTile(rewriter, loc, forall, state.sum, shared[1], block,
                      ivs[3]);
      insertBlockTile(rewriter, loc, forall, state.acc, shared[2], block,
                      ivs[3]);
    } else {
      insertBlockTile(rewriter, loc, forall,
                      emitNormalized(rewriter, loc, p, state), shared[0], block,
                      Value());
    }
  }

  Value out = splitKeys ? emitCombine(rewriter, loc, p, forall.getResult(0),
                                      forall.getResult(1), forall.getResult(2),
                                      outSizes)
                        : forall.getResult(0);
  out = tensor::CollapseShapeOp::create(
      rewriter, loc, out,
      ArrayRef<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
  if (out.getType() != op.getResult().getType())
    out = tensor::CastOp::create(rewriter, loc, op.getResult().getType(), out);
  rewriter.replaceOp(op, out);
  return success();
}

/// Whether the score matrix of `op` (B x Hq x Sq x Sk) is not known to have
/// `minScores` elements (fewer, or a dynamic extent): `min-scores` leaves
/// such ops to the reference lowering.
bool hasFewerScores(AttentionOp op, int64_t minScores) {
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

struct PosEncTileAttentionPass
    : posenc::impl::PosEncTileAttentionBase<PosEncTileAttentionPass> {
  using Base::Base;

  void runOnOperation() override {
    if (queryTile <= 0 || keyTile <= 0 || decodeChunk <= 0 || decodeRows < 0 ||
        vectorWidth < 0) {
      getOperation()->emitError(
          "posenc-tile-attention: query-tile, key-tile and decode-chunk must "
          "be positive, decode-rows and vector-width non-negative");
      return signalPassFailure();
    }
    FlashOptions options{queryTile,      keyTile,     decodeRows,
                         decodeChunk,    vectorWidth, prerotateKeys,
                         bf16DotProducts};
    SmallVector<AttentionOp> ops;
    getOperation()->walk([&](AttentionOp op) {
      if (!hasFewerScores(op, minScores))
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (AttentionOp op : ops)
      (void)lowerAttention(rewriter, op, options);
  }
};

} // namespace
