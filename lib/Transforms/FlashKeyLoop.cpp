//===- FlashKeyLoop.cpp - the key loop of posenc-tile-attention -----------===//
//
// The key loop of a query block in linalg tile ops: per key tile, the keys
// rotated (from per-tile cos/sin or from tables of every key position),
// packed transposed for the scores contraction, the logits of the shared
// rule, and one online-softmax step whose statistics are kept in vector
// lanes. posenc-tile-and-vectorize (or a host's codegen) tiles these ops to
// registers.
//
//===----------------------------------------------------------------------===//

#include "FlashAttentionImpl.h"

#include "posenc/Codegen/AttentionEmitters.h"
#include "posenc/Codegen/LinalgBuilders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::posenc;
using namespace mlir::posenc::flash;

using utils::IteratorType;

Value flash::indexConst(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// Positions `[S]` or `[B, S]` sliced to the `rows` tokens from `start` of
/// batch `batch`: `[rows]`, or `[1, rows]` from `[B, S]` with `keepBatch`
/// (the positions of a [1, H, rows, D] tile for posenc.rotary).
Value flash::slicePositions(OpBuilder &b, Location loc, Value positions,
                            Value batch, Value start, OpFoldResult rows,
                            bool keepBatch) {
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
Value flash::sliceHeads(OpBuilder &b, Location loc, Value x, Value batch,
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

/// The cos/sin tables [Sk, rotary_dim/2] of key positions 0 .. Sk - 1 (the
/// values posenc.rotary's lowering computes per tile: same emitters).
std::pair<Value, Value> flash::emitKeyTables(OpBuilder &b, Location loc,
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

/// A generic with `inputs` and one `init`, body `fn(args)`.
Value flash::emitGeneric(
    OpBuilder &b, Location loc, ValueRange inputs, Value init,
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

namespace {

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

/// The key tile [n, D] transposed to [D, n] and converted to f32: the
/// right-hand side of QK^T with the keys contiguous, so that a register tile
/// reads a row of keys per step. Packed once per key tile, read by the
/// G * Tq query rows.
Value emitPackedKeys(OpBuilder &b, Location loc, Value keys) {
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, keys);
  return emitConverted(b, loc, keys, mapOf(b.getContext(), 2, {1, 0}),
                       {sizes[1], sizes[0]}, b.getF32Type());
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

/// The logits of a tile: `scores * scale + alibi`, -inf where the positional
/// masks or the tile's key_mask entries hide a key and at tile rows from
/// `validKeys` on (a tail tile padded to the full tile; null: every row is a
/// key) (loops g, i, n).
Value emitTileLogits(OpBuilder &b, Location loc, const Problem &p,
                     const QueryBlock &block, Value scores, const KeyTile &tile,
                     Value kOffset, Value validKeys) {
  Value kPositions = tile.positions;
  MLIRContext *ctx = b.getContext();
  GenericInputs inputs;
  inputs.add(scores, b.getMultiDimIdentityMap(3));
  int slopeArg = inputs.add(block.slopes, mapOf(ctx, 3, {0}));
  int qArg = inputs.add(block.positions, mapOf(ctx, 3, {1}));
  int kArg = inputs.add(kPositions, mapOf(ctx, 3, {2}));
  int maskArg = inputs.add(tile.keyMask, mapOf(ctx, 3, {2}));
  Value qOffset = block.positions ? Value() : toI64(b, loc, block.qOffset);
  Value kOffset64 = kPositions ? Value() : toI64(b, loc, kOffset);
  LogitRule rule = LogitRule::get(p.op);
  auto body = [&](OpBuilder &nb, Location nloc, ValueRange args) {
    Value qPos, kPos;
    if (rule.needsPositions(slopeArg >= 0)) {
      qPos = emitLoopPosition(nb, nloc, getArgOrNull(args, qArg), 1, qOffset);
      kPos = emitLoopPosition(nb, nloc, getArgOrNull(args, kArg), 2, kOffset64);
    }
    Value outside;
    if (validKeys)
      outside = arith::CmpIOp::create(nb, nloc, arith::CmpIPredicate::sge,
                                      linalg::IndexOp::create(nb, nloc, 2),
                                      validKeys);
    if (maskArg >= 0)
      outside =
          orMasks(nb, nloc, outside, emitKeyMaskHides(nb, nloc, args[maskArg]));
    Value logit =
        emitAttentionLogit(nb, nloc, rule, args[0],
                           getArgOrNull(args, slopeArg), qPos, kPos, outside);
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
  if (Value logitPositions = p.op.getLogitKPositions())
    tile.positions =
        slicePositions(b, loc, logitPositions, block.batch, start, tile.rows);
  if (Value mask = p.op.getKeyMask())
    tile.keyMask = slicePositions(b, loc, mask, block.batch, start, tile.rows);
  return tile;
}

/// Where the whole tiles of the loop over [begin, end) in steps of `tile`
/// end: the first step whose tile would reach past `keyLimit` (or `end`).
static Value emitWholeTilesEnd(OpBuilder &b, Location loc, Value begin,
                               Value end, Value keyLimit, int64_t tile) {
  Value zero = indexConst(b, loc, 0), step = indexConst(b, loc, tile);
  Value whole = arith::DivSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, keyLimit, begin), step);
  Value steps = arith::CeilDivSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, end, begin), step);
  Value n = arith::MaxSIOp::create(
      b, loc, arith::MinSIOp::create(b, loc, whole, steps), zero);
  return arith::AddIOp::create(b, loc, begin,
                               arith::MulIOp::create(b, loc, n, step));
}

/// `tile` with its keys, values and positions padded with zeros to `rows`
/// rows (the zero rows are masked: their products are 0, never NaN).
static KeyTile padKeyTile(OpBuilder &b, Location loc, const KeyTile &tile,
                          int64_t rows) {
  auto pad = [&](Value x) -> Value {
    if (!x)
      return x;
    auto type = cast<RankedTensorType>(x.getType());
    int64_t rank = type.getRank();
    // Rows are the dim before the channels, or the only dim of positions.
    int64_t rowDim = rank == 1 ? 0 : rank - 2;
    SmallVector<int64_t> shape(type.getShape());
    shape[rowDim] = rows;
    SmallVector<OpFoldResult> low(rank, b.getIndexAttr(0)),
        high(rank, b.getIndexAttr(0));
    high[rowDim] =
        arith::SubIOp::create(b, loc, indexConst(b, loc, rows),
                              tensor::DimOp::create(b, loc, x, rowDim))
            .getResult();
    Value zero =
        arith::ConstantOp::create(b, loc, b.getZeroAttr(type.getElementType()));
    return tensor::PadOp::create(b, loc, type.clone(shape), x, low, high, zero);
  };
  KeyTile padded;
  padded.rows = b.getIndexAttr(rows);
  padded.keys = pad(tile.keys);
  padded.values = pad(tile.values);
  padded.positions = pad(tile.positions);
  padded.keyMask = pad(tile.keyMask); // zeros: the padding keys are masked
  return padded;
}

/// The online softmax over the key tiles [begin, end) of a query block
/// (keys are read up to `keyLimit`), its statistics in `lanes` lanes.
SoftmaxState flash::emitKeyLoop(OpBuilder &b, Location loc, const Problem &p,
                                const QueryBlock &block, Value begin, Value end,
                                Value keyLimit, TileExtent keyTile,
                                Value rotatedK, int64_t lanes) {
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
  // One loop of whole tiles; where the last tile may be partial (Sk not a
  // multiple of the tile, dynamic, or a sequence's key_lengths), the tiles
  // before `keyLimit` take the static loop and the partial one a second
  // loop (at most one step) whose tile is padded with zero keys and values
  // up to the full tile and masked: every step has static shapes.
  auto emitLoop = [&](Value from, Value to, const SoftmaxState &state,
                      bool padded) {
    TileExtent extent = keyTile;
    extent.full = !padded;
    return scf::ForOp::create(
        b, loc, from, to, indexConst(b, loc, keyTile.tile),
        ValueRange{state.max, state.sum, state.acc},
        [&](OpBuilder &nb, Location nloc, Value start, ValueRange iterArgs) {
          KeyTile tile = sliceKeyTile(nb, nloc, p, block, start, keyLimit,
                                      extent, rotatedK);
          Value validKeys;
          if (padded) {
            validKeys = getValueOrCreateConstantIndexOp(nb, nloc, tile.rows);
            tile = padKeyTile(nb, nloc, tile, keyTile.tile);
          }
          auto square = [&](Value x) {
            // [1, 1, n, D] -> [n, D]
            return tensor::CollapseShapeOp::create(
                nb, nloc, x, ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}});
          };
          Value scores = emitTileScores(
              nb, nloc, block.q, emitPackedKeys(nb, nloc, square(tile.keys)),
              {nb.getIndexAttr(p.group), block.rows, tile.rows});
          Value logits = emitTileLogits(nb, nloc, p, block, scores, tile, start,
                                        validKeys);
          SoftmaxState next = emitSoftmaxStep(
              nb, nloc, logits, square(tile.values),
              SoftmaxState{iterArgs[0], iterArgs[1], iterArgs[2]}, lanes);
          scf::YieldOp::create(nb, nloc,
                               ValueRange{next.max, next.sum, next.acc});
        });
  };
  SoftmaxState state = init;
  Value wholeEnd = end;
  if (!keyTile.full) {
    wholeEnd = emitWholeTilesEnd(b, loc, begin, end, keyLimit, keyTile.tile);
    auto whole = emitLoop(begin, wholeEnd, state, /*padded=*/false);
    state = {whole.getResult(0), whole.getResult(1), whole.getResult(2)};
  }
  auto loop = emitLoop(keyTile.full ? begin : wholeEnd, end, state,
                       /*padded=*/!keyTile.full);
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
