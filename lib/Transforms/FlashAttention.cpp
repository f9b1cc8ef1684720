//===- FlashAttention.cpp - posenc.attention as a flash loop nest ---------===//
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
// The schedule (FlashSchedule.cpp) decides tiles and key loops; this file
// builds the nest, FlashKeyLoop.cpp and DotKeyLoop.cpp its key loops. The
// numerics are posenc/Codegen/AttentionEmitters.h's, as in the reference
// decomposition: f32 accumulation, logits `s * scale + alibi`, fully masked
// rows give 0, attention sinks as a first key column without a value row.
//
//===----------------------------------------------------------------------===//

#include "FlashAttentionImpl.h"

#include "posenc/Codegen/AttentionEmitters.h"
#include "posenc/Codegen/Emitters.h"
#include "posenc/Codegen/ExtentChecks.h"
#include "posenc/Codegen/LinalgBuilders.h"
#include "posenc/IR/PosEncNumerics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::posenc;
using namespace mlir::posenc::flash;

namespace {

using utils::IteratorType;

/// [1, H, rows, D] -> [H, rows, D].
Value dropBatch(OpBuilder &b, Location loc, Value tile) {
  return tensor::CollapseShapeOp::create(
      b, loc, tile, ArrayRef<ReassociationIndices>{{0, 1}, {2}, {3}});
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

/// The loop-invariant pieces of `op` under `schedule`, built before the
/// nest: extents, the default query shift, ALiBi slopes, sinks, key tables.
Problem buildProblem(OpBuilder &b, Location loc, AttentionOp op,
                     const FlashSchedule &schedule) {
  auto qType = cast<RankedTensorType>(op.getQuery().getType());
  auto kType = cast<RankedTensorType>(op.getKey().getType());
  Problem p;
  p.op = op;
  p.q = op.getQuery();
  p.k = op.getKey();
  p.v = op.getValue();
  p.elementType = qType.getElementType();
  p.kvHeads = kType.getDimSize(1);
  p.group = qType.getDimSize(1) / p.kvHeads;
  p.headDim = qType.getDimSize(3);
  p.valueDim = cast<RankedTensorType>(p.v.getType()).getDimSize(3);
  SmallVector<OpFoldResult> qSizes = getSizes(b, loc, p.q);
  p.batch = qSizes[0];
  p.queries = qSizes[2];
  p.keys = getSizes(b, loc, p.k)[2];
  p.queriesV = getValueOrCreateConstantIndexOp(b, loc, p.queries);
  p.keysV = getValueOrCreateConstantIndexOp(b, loc, p.keys);
  if (!op.getLogitQPositions())
    p.qShift = emitQueryShift(b, loc, op.getAlignment(), p.queries, p.keys);
  p.keyBase = indexConst(b, loc, 0);
  p.keyEnd = p.keysV;
  if (schedule.splitKeys && hasVisibleKeyRange(op)) {
    Value first = p.qShift ? p.qShift : indexConst(b, loc, 0);
    std::tie(p.keyBase, p.keyEnd) =
        emitVisibleKeyRange(b, loc, LogitRule::get(op), p.keyBase, p.keyEnd,
                            first, p.queriesV, schedule.keyTile.tile);
  }
  p.slopes = op.getAlibiSlopes();
  if (AlibiSlopesAttr alibi = op.getAlibiAttr())
    p.slopes = emitAlibiSlopes(b, loc, alibi, qType.getDimSize(1));
  if (p.slopes) {
    auto staticType =
        RankedTensorType::get({qType.getDimSize(1)}, b.getF32Type());
    if (p.slopes.getType() != staticType)
      p.slopes = tensor::CastOp::create(b, loc, staticType, p.slopes);
  }
  p.sinks = op.getSinks();
  p.rotateKeysInKernel = op.getRopeAttr() && !schedule.prerotateKeys;
  if (schedule.keyTables)
    std::tie(p.keyCos, p.keySin) = emitKeyTables(b, loc, p);
  return p;
}

/// A slice [G] of a per-query-head vector at the block's first head.
Value sliceBlockHeads(OpBuilder &b, Location loc, const Problem &p,
                      Value perHead, Value qHead0) {
  return tensor::ExtractSliceOp::create(
      b, loc, perHead, ArrayRef<OpFoldResult>{qHead0},
      ArrayRef<OpFoldResult>{b.getIndexAttr(p.group)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
}

/// The query block of the forall iteration `ivs` (batch, kv head, query
/// tile, key chunk): its rows, rotated and widened, positions, slopes and
/// (without split keys) sinks.
QueryBlock buildQueryBlock(OpBuilder &b, Location loc, const Problem &p,
                           const FlashSchedule &schedule, ValueRange ivs) {
  AttentionOp op = p.op;
  QueryBlock block;
  block.batch = ivs[0];
  block.head = ivs[1];
  block.start = arith::MulIOp::create(
      b, loc, ivs[2], indexConst(b, loc, schedule.queryTile.tile));
  block.rows = schedule.queryTile.size(b, loc, block.start, p.queriesV);
  Value qHead0 =
      arith::MulIOp::create(b, loc, block.head, indexConst(b, loc, p.group));
  Value qTile = sliceHeads(b, loc, p.q, block.batch, qHead0, p.group,
                           block.start, block.rows);
  Value qPositionsAll = op.getQPositions();
  block.qOffset =
      p.qShift
          ? arith::AddIOp::create(b, loc, block.start, p.qShift).getResult()
          : block.start;
  if (op.getRopeAttr()) {
    Value positions =
        qPositionsAll
            ? slicePositions(b, loc, qPositionsAll, block.batch, block.start,
                             block.rows, /*keepBatch=*/true)
            : Value();
    qTile = createAttentionRotary(b, loc, op, qTile, positions, block.qOffset);
  }
  Value qRows = dropBatch(b, loc, qTile);
  block.q = emitWidened(b, loc, qRows);
  if (schedule.bf16Dot)
    block.qNarrow = qRows;
  if (Value logitPositions = op.getLogitQPositions())
    block.positions = slicePositions(b, loc, logitPositions, block.batch,
                                     block.start, block.rows);
  if (p.slopes)
    block.slopes = sliceBlockHeads(b, loc, p, p.slopes, qHead0);
  if (p.sinks && !schedule.splitKeys)
    block.sinks = sliceBlockHeads(b, loc, p, p.sinks, qHead0);
  return block;
}

/// The online softmax of one forall iteration's block over its keys: those
/// of its chunk (`chunk`, with split keys) before its sequence's key limit,
/// narrowed to the range its positional masks (causal, window, attention
/// chunks) can let through.
SoftmaxState emitBlockKeys(OpBuilder &b, Location loc, const Problem &p,
                           const FlashSchedule &schedule,
                           const QueryBlock &block, Value chunk,
                           Value keysForTiles) {
  Value begin = indexConst(b, loc, 0);
  Value limit = p.keysV;
  if (schedule.splitKeys) {
    begin = b.createOrFold<arith::AddIOp>(
        loc, p.keyBase,
        arith::MulIOp::create(b, loc, chunk,
                              indexConst(b, loc, schedule.chunk)));
    limit = arith::MinSIOp::create(
        b, loc,
        arith::AddIOp::create(b, loc, begin,
                              indexConst(b, loc, schedule.chunk)),
        p.keysV);
  }
  // Keys past the sequence's length are never read: the tiles stop there.
  if (Value lengths = p.op.getKeyLengths()) {
    Value length = tensor::ExtractOp::create(b, loc, lengths, block.batch);
    limit = arith::MinSIOp::create(b, loc, limit,
                                   emitKeyLimit(b, loc, length, p.keysV));
  }
  Value end = limit;
  if (hasVisibleKeyRange(p.op)) {
    Value rows = getValueOrCreateConstantIndexOp(b, loc, block.rows);
    std::tie(begin, end) =
        emitVisibleKeyRange(b, loc, LogitRule::get(p.op), begin, end,
                            block.qOffset, rows, schedule.keyTile.tile);
  }
  if (schedule.dotLanes)
    return emitDotKeyLoop(b, loc, p, block, begin, end, limit, schedule.keyTile,
                          keysForTiles, schedule.dotLanes,
                          schedule.vectorWidth);
  return emitKeyLoop(b, loc, p, block, begin, end, limit, schedule.keyTile,
                     keysForTiles, schedule.softmaxLanes);
}

/// The forall over (batch, kv head, query tile, key chunk) and its outputs:
/// the block outputs [B, Hkv, G, Sq, Dv], or with split keys each chunk's
/// max and sum [B, Hkv, C, G, Sq] and accumulator [B, Hkv, C, G, Sq, Dv].
scf::ForallOp createNest(OpBuilder &b, Location loc, const Problem &p,
                         const FlashSchedule &schedule,
                         ArrayRef<OpFoldResult> outSizes) {
  OpFoldResult one = b.getIndexAttr(1), zero = b.getIndexAttr(0);
  OpFoldResult hkv = b.getIndexAttr(p.kvHeads), g = b.getIndexAttr(p.group);
  auto ceilDiv = [&](Value x, int64_t d) -> OpFoldResult {
    Value dm1 = indexConst(b, loc, d - 1);
    return b.createOrFold<arith::DivUIOp>(
        loc, b.createOrFold<arith::AddIOp>(loc, x, dm1), indexConst(b, loc, d));
  };
  OpFoldResult queryTiles = ceilDiv(p.queriesV, schedule.queryTile.tile);
  // At least one chunk: an empty range still gives every row its (empty)
  // partial for the combine.
  OpFoldResult chunks = one;
  if (schedule.splitKeys)
    chunks = b.createOrFold<arith::MaxSIOp>(
        loc,
        getValueOrCreateConstantIndexOp(
            b, loc,
            ceilDiv(b.createOrFold<arith::SubIOp>(loc, p.keyEnd, p.keyBase),
                    schedule.chunk)),
        indexConst(b, loc, 1));
  SmallVector<Value> outputs;
  if (schedule.splitKeys) {
    for (int i = 0; i < 2; ++i)
      outputs.push_back(emptyLike(b, loc, {p.batch, hkv, chunks, g, p.queries},
                                  b.getF32Type()));
    outputs.push_back(emptyLike(
        b, loc,
        {p.batch, hkv, chunks, g, p.queries, b.getIndexAttr(p.valueDim)},
        b.getF32Type()));
  } else {
    outputs.push_back(emptyLike(b, loc, outSizes, p.elementType));
  }
  return scf::ForallOp::create(
      b, loc, SmallVector<OpFoldResult>{zero, zero, zero, zero},
      SmallVector<OpFoldResult>{p.batch, hkv, queryTiles, chunks},
      SmallVector<OpFoldResult>{one, one, one, one}, outputs, std::nullopt);
}

/// The body of the nest's forall: one block's key loop, its result inserted
/// into the shared outputs.
void emitNestBody(OpBuilder &b, Location loc, const Problem &p,
                  const FlashSchedule &schedule, scf::ForallOp forall,
                  Value keysForTiles) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(forall.getTerminator());
  SmallVector<Value> ivs = forall.getInductionVars();
  ValueRange shared = forall.getRegionIterArgs();
  QueryBlock block = buildQueryBlock(b, loc, p, schedule, ivs);
  SoftmaxState state =
      emitBlockKeys(b, loc, p, schedule, block, ivs[3], keysForTiles);
  if (schedule.splitKeys) {
    insertBlockTile(b, loc, forall, state.max, shared[0], block, ivs[3]);
    insertBlockTile(b, loc, forall, state.sum, shared[1], block, ivs[3]);
    insertBlockTile(b, loc, forall, state.acc, shared[2], block, ivs[3]);
  } else {
    insertBlockTile(b, loc, forall, emitNormalized(b, loc, p, state), shared[0],
                    block, Value());
  }
}

} // namespace

FailureOr<Value> mlir::posenc::tileAttention(RewriterBase &rewriter,
                                             AttentionOp op,
                                             const FlashSchedule &schedule) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  emitExtentAsserts(rewriter, op);
  Problem p = buildProblem(rewriter, loc, op, schedule);
  Value keysForTiles = p.k;
  if (schedule.prerotateKeys)
    keysForTiles = createAttentionRotary(rewriter, loc, op, p.k,
                                         op.getKPositions(), Value());

  SmallVector<OpFoldResult> outSizes{p.batch, rewriter.getIndexAttr(p.kvHeads),
                                     rewriter.getIndexAttr(p.group), p.queries,
                                     rewriter.getIndexAttr(p.valueDim)};
  scf::ForallOp forall = createNest(rewriter, loc, p, schedule, outSizes);
  emitNestBody(rewriter, loc, p, schedule, forall, keysForTiles);

  Value out =
      schedule.splitKeys
          ? emitCombine(rewriter, loc, p, forall.getResult(0),
                        forall.getResult(1), forall.getResult(2), outSizes)
          : forall.getResult(0);
  out = tensor::CollapseShapeOp::create(
      rewriter, loc, out,
      ArrayRef<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
  if (out.getType() != op.getResult().getType())
    out = tensor::CastOp::create(rewriter, loc, op.getResult().getType(), out);
  rewriter.replaceOp(op, out);
  return out;
}
