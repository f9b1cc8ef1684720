//===- DotKeyLoop.cpp - the key loop of few-row attention blocks ----------===//
//
// A block of few query rows (decode: the G heads of a kv head times one or a
// few tokens) uses each key once per row, so packing every K tile transposed
// for an outer-product micro-kernel, and running the softmax as row
// reductions over [rows, keys] tiles, cost several times what streaming the
// K/V bytes does. This key loop is written in vector ops of `lanes` lanes:
//
// - Scores as dot products over the head dim: a K row is read in place, a
//   chunk of `lanes` channels at a time, and each chunk feeds one FMA per
//   query row. The lane partials of a group of `lanes` keys are summed by a
//   transposing tree (two shuffles and an add halve the lanes per key), so
//   lane j of the result is key j's score: no horizontal sum per key.
// - The online softmax on those key vectors: the tile max (one horizontal max
//   per row and step), exp, the running sum kept per lane (summed once per
//   block), the accumulator rescaled.
// - P.V streams V rows: each chunk of a V row feeds one FMA per query row.
//
// Numerics (f32): a score sums, per lane, the head-dim chunks with FMAs,
// then the lanes pairwise; the running sum adds each lane's keys in order
// and the lanes pairwise at the end; the linalg form sums both in one
// sequential order. Both are f32 sums of the same terms, error
// O(log2(lanes) + D / lanes) ulps of the sum of |terms| for a score (the
// sequential order: O(D)).
//
//===----------------------------------------------------------------------===//

#include "DotKeyLanes.h"
#include "FlashAttentionImpl.h"

#include "posenc/Codegen/AttentionEmitters.h"
#include "posenc/Codegen/Emitters.h"
#include "posenc/Codegen/LinalgBuilders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"

#include "llvm/ADT/bit.h"

#include <numeric>

using namespace mlir;
using namespace mlir::posenc;
using namespace mlir::posenc::flash;

namespace {

/// How far ahead of each of the K and V streams a step prefetches (into L1).
/// The scores loop prefetches both streams (a core reads two interleaved
/// streams faster than one); P.V issues none of its own. 1 KiB per stream
/// measured best on bench case c (the measurements: docs/performance-notes.md,
/// "decode prefetch").
constexpr int64_t kPrefetchBytes = 1024;

/// Vector registers of a host whose registers hold `vectorWidth` f32 lanes:
/// 32 with AVX-512's 16 lanes, 16 with AVX2's 8 (and narrower).
int64_t vectorRegisters(int64_t vectorWidth) {
  return vectorWidth >= 16 ? 32 : 16;
}

/// An entry of a transposing reduction in progress: a vector whose lanes are
/// `lanes >> level` lane sums of each of `1 << level` keys.
struct Partial {
  Value value;
  int64_t level;
};

/// The online-softmax state of a block carried by the key loop: per row the
/// max (f32) and per-lane sums (vector), and buffers: the accumulator
/// [rows, Dv], the scores, then probabilities, of a step [rows, keys], and
/// the lane partials of a key group's scores [rows, lanes, lanes].
struct LoopState {
  SmallVector<Value> max, sum;
  Value acc, scores, partials;
};

class DotKernel {
public:
  DotKernel(OpBuilder &b, Location loc, const Problem &p,
            const QueryBlock &block, TileExtent keyTile, int64_t lanes,
            int64_t vectorWidth)
      : b(b), loc(loc), p(p), block(block), keyTile(keyTile), lanes(lanes),
        vectorWidth(vectorWidth), rowsPerHead(*getConstantIntValue(block.rows)),
        rows(p.group * rowsPerHead), chunks(p.headDim / lanes),
        valueChunks(p.valueDim / lanes),
        bf16Dot(static_cast<bool>(block.qNarrow)),
        exact(keyTile.full && keyTile.tile % lanes == 0),
        laneType(VectorType::get({lanes}, b.getF32Type())),
        feed(transposingFeedOrder(lanes)) {}

  SoftmaxState emit(Value begin, Value end, Value keyLimit, Value keys);

private:
  Value index(int64_t v) { return indexConst(b, loc, v); }
  Value add(Value x, Value y) {
    return b.createOrFold<arith::AddIOp>(loc, x, y);
  }
  Value constF32(float v) { return f32ConstLike(b, loc, laneType, v); }
  /// [0, lanes) as i64 lanes.
  Value laneIndices() {
    auto type = VectorType::get({lanes}, b.getI64Type());
    SmallVector<int64_t> values(lanes);
    std::iota(values.begin(), values.end(), 0);
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(type, ArrayRef<int64_t>(values)));
  }
  Value splat(Value scalar) {
    return vector::BroadcastOp::create(
        b, loc, VectorType::get({lanes}, scalar.getType()), scalar);
  }
  /// `lanes` elements of `x` from `indices` (the last one along the lanes),
  /// converted to f32.
  Value read(Value x, ValueRange indices);
  /// `2 * lanes` bf16 elements of `x` from `indices` (the last along the
  /// lanes), as they are: a BF16 dot product's operand.
  Value readPairs(Value x, ValueRange indices);
  /// The lane partials of each query row against key row `keyRow` of the
  /// step's tile, chunk by chunk (each chunk of the key row shared by the
  /// rows).
  void emitRowPartials(Value keyRow, MutableArrayRef<Value> dots);
  Value write(Value vector, Value x, ValueRange indices) {
    return vector::TransferWriteOp::create(b, loc, vector, x, indices,
                                           ArrayRef<bool>{true})
        .getResult();
  }
  /// Row `key` of the step's key tile (the last row for keys past a partial
  /// tile's end, which are masked).
  Value tileRow(Value key) {
    return lastRow ? b.createOrFold<arith::MinSIOp>(loc, key, lastRow) : key;
  }
  /// Software prefetch, in the [B, Hkv, Sk, *] `buffer`, of the key
  /// kPrefetchBytes of rows after key `key` of the step (clamped to the last
  /// key), `count` channels from `column`.
  void prefetchRow(Value buffer, Value key, Value column, int64_t count);
  /// Query row `r`'s position (i64) and ALiBi slope.
  Value rowPosition(Value r);
  Value rowSlope(Value r);
  /// `lanes` entries of a tile's [rows] vector from `key0` (0 past its end).
  Value readLanes(Value perKey, Value key0);
  /// Pushes the lane partials of the next key (in feed order) into a row's
  /// transposing reduction, combining equal levels.
  void push(SmallVectorImpl<Partial> &stack, Value partial);

  /// The logits of the step's keys (one group of `lanes`) into
  /// `state.scores` (through
  /// `state.partials`).
  void emitScores(LoopState &state);
  /// The online softmax's update: logits -> probabilities in `scores`, new
  /// max and sums, per-row rescale factors.
  LoopState emitUpdate(const LoopState &state, SmallVectorImpl<Value> &alpha);
  /// acc = acc * alpha + probabilities . V.
  Value emitValues(Value acc, Value probs, ArrayRef<Value> alpha);
  /// emitValues for rows [r0, r0 + rowBlock), `width` value chunks at a time.
  Value emitValueBlock(Value acc, Value probs, ArrayRef<Value> alpha,
                       int64_t r0, int64_t rowBlock, int64_t width);
  LoopState emitStep(Value keys, const LoopState &state);

  OpBuilder &b;
  Location loc;
  const Problem &p;
  const QueryBlock &block;
  TileExtent keyTile;
  int64_t lanes, vectorWidth, rowsPerHead, rows, chunks, valueChunks;
  /// Scores as AVX-512 BF16 dot products of bf16 Q and K rows.
  bool bf16Dot;
  bool exact;
  VectorType laneType;
  SmallVector<int64_t> feed;
  /// The block's query rows [rows, D] (f32), and in bf16 with bf16Dot.
  Value q, qNarrow;
  /// Per step: its start, key limit and tile.
  Value start, keyLimit, lastRow;
  KeyTile tile;
  /// Read-only buffers of the keys and values, for prefetches.
  Value keyBuffer, valueBuffer;
};

void DotKernel::prefetchRow(Value buffer, Value key, Value column,
                            int64_t count) {
  auto type = cast<MemRefType>(buffer.getType());
  int64_t elementBytes = type.getElementTypeBitWidth() / 8;
  int64_t rowBytes = type.getShape().back() * elementBytes;
  int64_t lineElements = std::max<int64_t>(1, 64 / elementBytes);
  Value ahead = b.createOrFold<arith::MinSIOp>(
      loc,
      add(add(start, key),
          index(std::max<int64_t>(1, kPrefetchBytes / rowBytes))),
      b.createOrFold<arith::SubIOp>(loc, p.keysV, index(1)));
  for (int64_t offset = 0; offset < count; offset += lineElements)
    memref::PrefetchOp::create(
        b, loc, buffer,
        ValueRange{block.batch, block.head, ahead, add(column, index(offset))},
        /*isWrite=*/false, /*localityHint=*/3,
        /*isDataCache=*/true);
}

Value DotKernel::read(Value x, ValueRange indices) {
  Type element = cast<RankedTensorType>(x.getType()).getElementType();
  Value vector = vector::TransferReadOp::create(
      b, loc, VectorType::get({lanes}, element), x, indices,
      arith::ConstantOp::create(b, loc, b.getZeroAttr(element)),
      ArrayRef<bool>{true});
  if (element.isF32())
    return vector;
  return arith::ExtFOp::create(b, loc, laneType, vector);
}

Value DotKernel::readPairs(Value x, ValueRange indices) {
  Type bf16 = b.getBF16Type();
  return vector::TransferReadOp::create(
      b, loc, VectorType::get({2 * lanes}, bf16), x, indices,
      arith::ConstantOp::create(b, loc, b.getZeroAttr(bf16)),
      ArrayRef<bool>{true});
}

void DotKernel::emitRowPartials(Value keyRow, MutableArrayRef<Value> dots) {
  Value zero = index(0);
  if (bf16Dot) {
    // Lane l of chunk c sums channels c * 2L + 2l and + 1 (exact bf16
    // products, f32 sums); the transposing tree then sums the lanes.
    for (int64_t c = 0; c < p.headDim / (2 * lanes); ++c) {
      Value column = index(c * 2 * lanes);
      Value k = readPairs(tile.keys, {zero, zero, keyRow, column});
      for (int64_t r = 0; r < rows; ++r) {
        Value acc = c == 0 ? constF32(0.0f) : dots[r];
        dots[r] = x86vector::DotBF16Op::create(
            b, loc, laneType, acc, readPairs(qNarrow, {index(r), column}), k);
      }
    }
    return;
  }
  // Chunk by chunk, so that a chunk of the key row is live only for its
  // rows' FMAs (AVX2 holds a 128-channel row in all of its registers).
  for (int64_t c = 0; c < chunks; ++c) {
    Value k = read(tile.keys, {zero, zero, keyRow, index(c * lanes)});
    for (int64_t r = 0; r < rows; ++r) {
      Value qc = read(q, {index(r), index(c * lanes)});
      dots[r] = c == 0 ? arith::MulFOp::create(b, loc, qc, k).getResult()
                       : vector::FMAOp::create(b, loc, qc, k, dots[r]);
    }
  }
}

Value DotKernel::rowPosition(Value r) {
  Value i = b.createOrFold<arith::RemUIOp>(loc, r, index(rowsPerHead));
  if (block.positions)
    return toI64(b, loc, tensor::ExtractOp::create(b, loc, block.positions, i));
  return toI64(b, loc, add(block.qOffset, i));
}

Value DotKernel::readLanes(Value perKey, Value key0) {
  Type element = cast<RankedTensorType>(perKey.getType()).getElementType();
  return vector::TransferReadOp::create(
      b, loc, VectorType::get({lanes}, element), perKey, ValueRange{key0},
      arith::ConstantOp::create(b, loc, b.getZeroAttr(element)),
      ArrayRef<bool>{exact});
}

Value DotKernel::rowSlope(Value r) {
  Value g = b.createOrFold<arith::DivUIOp>(loc, r, index(rowsPerHead));
  return tensor::ExtractOp::create(b, loc, block.slopes, g);
}

void DotKernel::push(SmallVectorImpl<Partial> &stack, Value partial) {
  int64_t level = 0;
  while (!stack.empty() && stack.back().level == level) {
    // x and y hold segments of `segment` lanes, one per key; the result
    // holds each segment's two halves summed, x's and y's interleaved.
    Value x = stack.pop_back_val().value;
    int64_t segment = lanes >> level, half = segment / 2;
    SmallVector<int64_t> low, high;
    for (int64_t s = 0; s < lanes; s += segment) {
      for (int64_t from : {int64_t(0), lanes})
        for (int64_t k = 0; k < half; ++k)
          low.push_back(from + s + k);
      for (int64_t from : {int64_t(0), lanes})
        for (int64_t k = 0; k < half; ++k)
          high.push_back(from + s + half + k);
    }
    partial = arith::AddFOp::create(
        b, loc, vector::ShuffleOp::create(b, loc, x, partial, low),
        vector::ShuffleOp::create(b, loc, x, partial, high));
    ++level;
  }
  stack.push_back({partial, level});
}

void DotKernel::emitScores(LoopState &state) {
  // Lane partials, one key at a time (an scf.for: unrolled, LLVM schedules
  // the keys' independent FMA chains side by side and runs out of
  // registers): each chunk of the key row feeds one FMA per query row.
  Value zero = index(0), key0 = zero;
  auto keyLoop = scf::ForOp::create(b, loc, zero, index(lanes), index(1),
                                    ValueRange{state.partials});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(keyLoop.getBody());
    Value j = keyLoop.getInductionVar();
    Value row = tileRow(add(key0, j));
    prefetchRow(keyBuffer, add(key0, j), zero, p.headDim);
    prefetchRow(valueBuffer, add(key0, j), zero, p.valueDim);
    SmallVector<Value> dots(rows);
    emitRowPartials(row, dots);
    Value partials = keyLoop.getRegionIterArgs()[0];
    for (int64_t r = 0; r < rows; ++r)
      partials = write(dots[r], partials, {index(r), j, zero});
    scf::YieldOp::create(b, loc, partials);
  }
  state.partials = keyLoop.getResult(0);

  // Key positions and tile-end mask of the group (shared by the rows).
  LogitRule rule = LogitRule::get(p.op);
  Value kPositions;
  if (rule.needsPositions(static_cast<bool>(block.slopes))) {
    if (tile.positions) {
      Type element =
          cast<RankedTensorType>(tile.positions.getType()).getElementType();
      Value positions = readLanes(tile.positions, key0);
      auto i64 = VectorType::get({lanes}, b.getI64Type());
      if (element.isIndex())
        kPositions = arith::IndexCastOp::create(b, loc, i64, positions);
      else if (element.getIntOrFloatBitWidth() < 64)
        kPositions = arith::ExtSIOp::create(b, loc, i64, positions);
      else
        kPositions = positions;
    } else {
      kPositions = arith::AddIOp::create(
          b, loc, splat(toI64(b, loc, add(start, key0))), laneIndices());
    }
  }
  Value missing;
  if (!exact)
    missing = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::sge,
        arith::AddIOp::create(b, loc, splat(toI64(b, loc, key0)),
                              laneIndices()),
        splat(toI64(b, loc, add(lastRow, index(1)))));
  if (tile.keyMask) {
    missing = orMasks(b, loc, missing,
                      emitKeyMaskHides(b, loc, readLanes(tile.keyMask, key0)));
  }

  // Per row (an scf.for, for the same reason): the transposing reduction of
  // the group's partials, then the logits (scale, ALiBi, causal, tile-end
  // and key_mask masks).
  auto rowLoop = scf::ForOp::create(b, loc, zero, index(rows), index(1),
                                    ValueRange{state.scores});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(rowLoop.getBody());
  Value r = rowLoop.getInductionVar();
  SmallVector<Partial> stack;
  for (int64_t t = 0; t < lanes; ++t)
    push(stack, read(state.partials, {r, index(feed[t]), zero}));
  Value qPosition = kPositions ? splat(rowPosition(r)) : Value();
  Value logit = emitAttentionLogit(b, loc, rule, stack.front().value,
                                   block.slopes ? splat(rowSlope(r)) : Value(),
                                   qPosition, kPositions, missing);
  scf::YieldOp::create(b, loc,
                       write(logit, rowLoop.getRegionIterArgs()[0], {r, key0}));
  state.scores = rowLoop.getResult(0);
}

LoopState DotKernel::emitUpdate(const LoopState &state,
                                SmallVectorImpl<Value> &alpha) {
  // m' = max(m, tile max), alpha = exp(m - m'), p = exp(logits - m'),
  // l' = l alpha + p (per lane).
  // Every logit is read before the first probability overwrites the buffer
  // (in place: a read after it would need a copy).
  SmallVector<Value> rowLogits;
  for (int64_t r = 0; r < rows; ++r)
    rowLogits.push_back(read(state.scores, {index(r), index(0)}));
  LoopState next = state;
  next.max.clear();
  next.sum.clear();
  for (int64_t r = 0; r < rows; ++r) {
    Value max = arith::MaximumFOp::create(
        b, loc, state.max[r],
        vector::ReductionOp::create(b, loc, vector::CombiningKind::MAXIMUMF,
                                    rowLogits[r]));
    alpha.push_back(splat(emitSafeExp(b, loc, state.max[r], max)));
    Value prob = emitSafeExp(b, loc, rowLogits[r], max);
    Value sum = arith::AddFOp::create(
        b, loc, arith::MulFOp::create(b, loc, state.sum[r], alpha.back()),
        prob);
    next.scores = write(prob, next.scores, {index(r), index(0)});
    next.max.push_back(max);
    next.sum.push_back(sum);
  }
  return next;
}

Value DotKernel::emitValues(Value acc, Value probs, ArrayRef<Value> alpha) {
  // Blocks of rows x `width` value chunks: their accumulators stay in
  // registers over the step's keys, each V row chunk
  // feeds one FMA per row, each probability is a broadcast load. The
  // accumulators take half the registers: the V chunks and broadcasts, the
  // rest. Whole V rows (blocks of rows) before parts of rows (blocks of
  // chunks): a block's pass then streams V rows from memory in order and
  // the next row block finds the tile in cache; passes over parts of each
  // row would stream K/V with gaps (measured slower, bench case c).
  int64_t registersPerVector =
      llvm::divideCeil(lanes, std::min<int64_t>(vectorWidth, 16));
  int64_t accumulators = vectorRegisters(vectorWidth) / 2 / registersPerVector;
  int64_t width = valueChunks, rowBlock = 1;
  if (valueChunks <= accumulators)
    rowBlock = largestDivisor(rows, accumulators / valueChunks);
  else
    width = largestDivisor(valueChunks, accumulators);
  for (int64_t r0 = 0; r0 < rows; r0 += rowBlock)
    acc = emitValueBlock(acc, probs, alpha, r0, rowBlock, width);
  return acc;
}

Value DotKernel::emitValueBlock(Value acc, Value probs, ArrayRef<Value> alpha,
                                int64_t r0, int64_t rowBlock, int64_t width) {
  auto columns = scf::ForOp::create(b, loc, index(0), index(valueChunks),
                                    index(width), ValueRange{acc});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(columns.getBody());
  Value chunk0 = columns.getInductionVar();
  Value accBlock = columns.getRegionIterArgs()[0];
  auto column = [&](int64_t c) {
    return b.createOrFold<arith::MulIOp>(loc, add(chunk0, index(c)),
                                         index(lanes));
  };
  SmallVector<Value> init;
  for (int64_t r = r0; r < r0 + rowBlock; ++r)
    for (int64_t c = 0; c < width; ++c)
      init.push_back(arith::MulFOp::create(
          b, loc, read(accBlock, {index(r), column(c)}), alpha[r]));
  SmallVector<Value> sums(init);
  Value zero = index(0);
  for (int64_t j = 0; j < lanes; ++j) {
    Value key = index(j);
    Value row = tileRow(key);
    SmallVector<Value> v;
    for (int64_t c = 0; c < width; ++c)
      v.push_back(read(tile.values, {zero, zero, row, column(c)}));
    for (int64_t r = 0; r < rowBlock; ++r) {
      Value weight = splat(tensor::ExtractOp::create(
          b, loc, probs, ValueRange{index(r0 + r), key}));
      for (int64_t c = 0; c < width; ++c)
        sums[r * width + c] =
            vector::FMAOp::create(b, loc, weight, v[c], sums[r * width + c]);
    }
  }
  for (int64_t r = 0; r < rowBlock; ++r)
    for (int64_t c = 0; c < width; ++c)
      accBlock =
          write(sums[r * width + c], accBlock, {index(r0 + r), column(c)});
  scf::YieldOp::create(b, loc, accBlock);
  return columns.getResult(0);
}

LoopState DotKernel::emitStep(Value keys, const LoopState &state) {
  tile = sliceKeyTile(b, loc, p, block, start, keyLimit, keyTile, keys);
  lastRow = Value();
  if (!exact)
    lastRow = b.createOrFold<arith::SubIOp>(
        loc, getValueOrCreateConstantIndexOp(b, loc, tile.rows), index(1));

  LoopState scored = state;
  emitScores(scored);

  SmallVector<Value> alpha;
  LoopState next = emitUpdate(scored, alpha);
  next.acc = emitValues(next.acc, next.scores, alpha);
  return next;
}

SoftmaxState DotKernel::emit(Value begin, Value end, Value limit, Value keys) {
  // Read-only views of K and V for software prefetches ahead of each
  // stream (bufferized to the tensors' own buffers).
  auto view = [&](Value x) -> Value {
    return bufferization::ToBufferOp::create(
        b, loc,
        bufferization::getMemRefTypeWithFullyDynamicLayout(
            cast<TensorType>(x.getType())),
        x, /*read_only=*/true);
  };
  keyBuffer = view(keys);
  valueBuffer = view(p.v);
  // The block's query rows as [rows, D]; the state's buffers.
  q = tensor::CollapseShapeOp::create(
      b, loc, block.q, ArrayRef<ReassociationIndices>{{0, 1}, {2}});
  if (bf16Dot)
    qNarrow = tensor::CollapseShapeOp::create(
        b, loc, block.qNarrow, ArrayRef<ReassociationIndices>{{0, 1}, {2}});
  LoopState init;
  for (int64_t r = 0; r < rows; ++r) {
    // The sink column is seen first: max = sink, sum = exp(sink - sink) in
    // lane 0.
    Value sum = constF32(0.0f);
    if (block.sinks) {
      auto [max, term] =
          emitSinkStart(b, loc,
                        tensor::ExtractOp::create(b, loc, block.sinks,
                                                  index(r / rowsPerHead)));
      init.max.push_back(max);
      sum = vector::InsertOp::create(b, loc, term, sum, 0);
    } else {
      init.max.push_back(f32NegInf(b, loc));
    }
    init.sum.push_back(sum);
  }
  init.acc = filled(b, loc, {b.getIndexAttr(rows), b.getIndexAttr(p.valueDim)},
                    f32Const(b, loc, 0.0f));
  init.scores = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{rows, lanes},
                                        b.getF32Type());
  init.partials = tensor::EmptyOp::create(
      b, loc, ArrayRef<int64_t>{rows, lanes, lanes}, b.getF32Type());

  auto pack = [&](const LoopState &state) {
    SmallVector<Value> values(state.max);
    llvm::append_range(values, state.sum);
    values.append({state.acc, state.scores, state.partials});
    return values;
  };
  auto unpack = [&](ValueRange values) {
    LoopState state;
    state.max.assign(values.begin(), values.begin() + rows);
    state.sum.assign(values.begin() + rows, values.begin() + 2 * rows);
    state.acc = values[2 * rows];
    state.scores = values[2 * rows + 1];
    state.partials = values[2 * rows + 2];
    return state;
  };
  auto loop =
      scf::ForOp::create(b, loc, begin, end, index(keyTile.tile), pack(init));
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    start = loop.getInductionVar();
    keyLimit = limit;
    scf::YieldOp::create(
        b, loc, pack(emitStep(keys, unpack(loop.getRegionIterArgs()))));
  }
  LoopState last = unpack(loop.getResults());

  SoftmaxState out;
  auto rowType = RankedTensorType::get({p.group, rowsPerHead}, b.getF32Type());
  SmallVector<Value> sums;
  for (Value sum : last.sum)
    sums.push_back(vector::ReductionOp::create(b, loc,
                                               vector::CombiningKind::ADD, sum,
                                               arith::FastMathFlags::reassoc));
  out.max = tensor::FromElementsOp::create(b, loc, rowType, last.max);
  out.sum = tensor::FromElementsOp::create(b, loc, rowType, sums);
  out.acc = tensor::ExpandShapeOp::create(
      b, loc,
      RankedTensorType::get({p.group, rowsPerHead, p.valueDim}, b.getF32Type()),
      last.acc, ArrayRef<ReassociationIndices>{{0, 1}, {2}});
  return out;
}

} // namespace

SoftmaxState flash::emitDotKeyLoop(OpBuilder &b, Location loc, const Problem &p,
                                   const QueryBlock &block, Value begin,
                                   Value end, Value keyLimit,
                                   TileExtent keyTile, Value keys,
                                   int64_t lanes, int64_t vectorWidth) {
  return DotKernel(b, loc, p, block, keyTile, lanes, vectorWidth)
      .emit(begin, end, keyLimit, keys);
}
