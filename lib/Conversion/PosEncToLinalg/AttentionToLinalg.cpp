//===- AttentionToLinalg.cpp - lower posenc.attention ---------------------===//
//
// The reference decomposition of posenc.attention: RoPE on q and k (as
// posenc.rotary, lowered by its own pattern), QK^T, scale + ALiBi + causal
// mask from indices, a numerically safe softmax (with attention sinks as one
// more column per row), and PV. All accumulation is f32. Fused, tiled kernels
// are built from this contract by later passes.
//
// GQA is a view, not an index computation: q and the result are handled as
// [B, Hkv, G, S, D] (tensor.expand_shape of the head dim), so query head
// (h, g) reads kv head h and every indexing map is a projected permutation.
// Tiling, fusion and hosts (IREE rejects semi-affine maps) can then split
// any dim at any offset; a `floordiv G` map is only exact for tiles aligned
// to G.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "posenc/Codegen/ExtentChecks.h"
#include "posenc/Codegen/LinalgBuilders.h"
#include "posenc/IR/PosEncNumerics.h"
#include "posenc/IR/PosEncOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::posenc;

namespace {

using utils::IteratorType;

/// Loop dims of the grouped attention: batch, kv head, query head within
/// the group, query token, then key token (scores) or value channel (PV),
/// then the contracted dim.
enum Dim : unsigned { kB, kH, kG, kI, kJ, kR };

/// The shapes of one attention in its grouped form.
struct GroupedShapes {
  /// [B, Hkv, G, Sq] (softmax rows) and [B, Hkv, G, Sq, Sk] (scores).
  SmallVector<OpFoldResult> rows, scores;
  /// [B, Hkv, G, Sq, Dv]: the output before its heads are merged.
  SmallVector<OpFoldResult> out;
};

/// [B, Hq, S, D] -> [B, Hkv, G, S, D].
Value splitHeads(OpBuilder &b, Location loc, Value x, int64_t kvHeads,
                 int64_t group) {
  SmallVector<OpFoldResult> sizes = getSizes(b, loc, x);
  SmallVector<OpFoldResult> grouped{sizes[0], b.getIndexAttr(kvHeads),
                                    b.getIndexAttr(group), sizes[2], sizes[3]};
  auto type = RankedTensorType::get(
      staticShape(grouped),
      cast<RankedTensorType>(x.getType()).getElementType());
  return tensor::ExpandShapeOp::create(b, loc, type, x, {{0}, {1, 2}, {3}, {4}},
                                       grouped);
}

/// f32 contraction over the last of six loops (b, h, g, i, x, r):
/// `out[lhsDims..] += lhs[..] * rhs[..]`, initialized with zeros.
Value emitContraction(OpBuilder &b, Location loc, Value lhs,
                      ArrayRef<unsigned> lhsDims, Value rhs,
                      ArrayRef<unsigned> rhsDims,
                      ArrayRef<OpFoldResult> outSizes) {
  MLIRContext *ctx = b.getContext();
  SmallVector<IteratorType> iterators(5, IteratorType::parallel);
  iterators.push_back(IteratorType::reduction);
  auto type = RankedTensorType::get(staticShape(outSizes), b.getF32Type());
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{lhs, rhs},
             ValueRange{filled(b, loc, outSizes, f32Const(b, loc, 0.0f))},
             ArrayRef<AffineMap>{mapOf(ctx, 6, lhsDims), mapOf(ctx, 6, rhsDims),
                                 mapOf(ctx, 6, {kB, kH, kG, kI, kJ})},
             iterators, emitMulAdd)
      .getResult(0);
}

/// scores[b, h, g, i, j] = sum_r q[b, h, g, i, r] * k[b, h, j, r].
Value emitScores(OpBuilder &b, Location loc, Value groupedQ, Value k,
                 const GroupedShapes &shapes) {
  return emitContraction(b, loc, groupedQ, {kB, kH, kG, kI, kR}, k,
                         {kB, kH, kJ, kR}, shapes.scores);
}

/// out[b, h, g, i, e] = sum_j p[b, h, g, i, j] * v[b, h, j, e] (the PV loops
/// are (b, h, g, i, e, j)).
Value emitWeightedValues(OpBuilder &b, Location loc, Value probs, Value v,
                         const GroupedShapes &shapes) {
  return emitContraction(b, loc, probs, {kB, kH, kG, kI, kR}, v,
                         {kB, kH, kR, kJ}, shapes.out);
}

/// The masked logits `scores * scale + alibi(q_pos, k_pos)`, -inf where the
/// positional masks hide a key and at keys past the sequence's key_lengths
/// entry. Positions come from the operands or from the indices (query index
/// + `qShift` when given).
Value emitLogits(OpBuilder &b, Location loc, AttentionOp op, Value scores,
                 Value groupedSlopes, Value qShift,
                 const GroupedShapes &shapes) {
  MLIRContext *ctx = b.getContext();
  auto scoreType = cast<RankedTensorType>(scores.getType());
  GenericInputs inputs;
  inputs.add(scores, b.getMultiDimIdentityMap(5));
  int slopeArg = inputs.add(groupedSlopes, mapOf(ctx, 5, {kH, kG}));
  int qArg = inputs.addPositions(op.getLogitQPositions(), 5, kI);
  int kArg = inputs.addPositions(op.getLogitKPositions(), 5, kJ);
  int lengthArg = inputs.add(op.getKeyLengths(), mapOf(ctx, 5, {kB}));
  int maskArg = inputs.add(op.getKeyMask(), mapOf(ctx, 5, {kB, kJ}));
  Value keys = lengthArg >= 0
                   ? getValueOrCreateConstantIndexOp(b, loc, shapes.scores[kJ])
                   : Value();

  // The shift applies to default query positions only (it is null with
  // q_positions).
  Value qShift64 = qShift ? toI64(b, loc, qShift) : Value();
  LogitRule rule = LogitRule::get(op);
  auto body = [&](OpBuilder &nb, Location nloc, ValueRange args) {
    Value qPos =
        emitLoopPosition(nb, nloc, getArgOrNull(args, qArg), kI, qShift64);
    Value kPos =
        emitLoopPosition(nb, nloc, getArgOrNull(args, kArg), kJ, Value());
    Value outside;
    if (lengthArg >= 0)
      outside =
          arith::CmpIOp::create(nb, nloc, arith::CmpIPredicate::sge,
                                linalg::IndexOp::create(nb, nloc, kJ),
                                emitKeyLimit(nb, nloc, args[lengthArg], keys));
    if (maskArg >= 0)
      outside =
          orMasks(nb, nloc, outside, emitKeyMaskHides(nb, nloc, args[maskArg]));
    Value logit =
        emitAttentionLogit(nb, nloc, rule, args[0],
                           getArgOrNull(args, slopeArg), qPos, kPos, outside);
    linalg::YieldOp::create(nb, nloc, logit);
  };
  return linalg::GenericOp::create(
             b, loc, TypeRange{scoreType}, inputs.values,
             ValueRange{emptyLike(b, loc, shapes.scores, b.getF32Type())},
             inputs.mapsWith({b.getMultiDimIdentityMap(5)}),
             parallelIterators(5), body)
      .getResult(0);
}

using BinaryFn = function_ref<Value(OpBuilder &, Location, Value, Value)>;

/// A generic over the score loops (b, h, g, i, j) whose body yields
/// `fn(args[0], args[1])` into `init`.
Value emitScoreLoops(OpBuilder &b, Location loc, ValueRange inputs, Value init,
                     ArrayRef<AffineMap> maps, ArrayRef<IteratorType> iterators,
                     BinaryFn fn) {
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, inputs, ValueRange{init}, maps,
             iterators,
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               linalg::YieldOp::create(nb, nloc,
                                       fn(nb, nloc, args[0], args[1]));
             })
      .getResult(0);
}

/// Reduces the last dim of `full` into the row tensor `init`:
/// `row = combine(full[..., j], row)`.
Value emitRowReduction(OpBuilder &b, Location loc, Value full, Value init,
                       BinaryFn combine) {
  SmallVector<IteratorType> iterators(4, IteratorType::parallel);
  iterators.push_back(IteratorType::reduction);
  return emitScoreLoops(
      b, loc, ValueRange{full}, init,
      {b.getMultiDimIdentityMap(5), mapOf(b.getContext(), 5, {kB, kH, kG, kI})},
      iterators, combine);
}

/// `result[..., j] = apply(full[..., j], row[...])`, elementwise.
Value emitRowwise(OpBuilder &b, Location loc, Value full, Value row,
                  const GroupedShapes &shapes, BinaryFn apply) {
  return emitScoreLoops(b, loc, ValueRange{full, row},
                        emptyLike(b, loc, shapes.scores, b.getF32Type()),
                        {b.getMultiDimIdentityMap(5),
                         mapOf(b.getContext(), 5, {kB, kH, kG, kI}),
                         b.getMultiDimIdentityMap(5)},
                        parallelIterators(5), apply);
}

/// Softmax over the key dim. Fully masked rows (max = -inf) give zeros, not
/// NaN. With `groupedSinks` ([Hkv, G], null without sinks) each row has one
/// more column, its head's sink, which seeds the max and the sum and is then
/// dropped.
Value emitSoftmax(OpBuilder &b, Location loc, Value logits, Value groupedSinks,
                  const GroupedShapes &shapes) {
  AffineMap sinkMap = mapOf(b.getContext(), 4, {kH, kG});
  Value rowMax = emitRowReduction(
      b, loc, logits,
      groupedSinks ? emitConverted(b, loc, groupedSinks, sinkMap, shapes.rows,
                                   b.getF32Type())
                   : filled(b, loc, shapes.rows, f32NegInf(b, loc)),
      [](OpBuilder &nb, Location nloc, Value x, Value acc) -> Value {
        return arith::MaximumFOp::create(nb, nloc, x, acc);
      });
  Value exps = emitRowwise(b, loc, logits, rowMax, shapes, emitSafeExp);
  Value rowSum = emitRowReduction(
      b, loc, exps,
      groupedSinks
          ? emitSinkTerm(b, loc, groupedSinks, sinkMap, rowMax, shapes.rows)
          : filled(b, loc, shapes.rows, f32Const(b, loc, 0.0f)),
      [](OpBuilder &nb, Location nloc, Value x, Value acc) -> Value {
        return arith::AddFOp::create(nb, nloc, x, acc);
      });
  return emitRowwise(
      b, loc, exps, rowSum, shapes,
      [](OpBuilder &nb, Location nloc, Value e, Value sum) -> Value {
        return emitNormalizedOutput(nb, nloc, e, sum, nb.getF32Type());
      });
}

/// The f32 accumulator [B, Hkv, G, Sq, Dv] cast to `elementType` and viewed
/// as [B, Hq, Sq, Dv].
Value emitMergedOutput(OpBuilder &b, Location loc, Value acc, Type elementType,
                       const GroupedShapes &shapes) {
  Value out = emitConverted(b, loc, acc, b.getMultiDimIdentityMap(5),
                            shapes.out, elementType);
  return tensor::CollapseShapeOp::create(
      b, loc, out, ArrayRef<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
}

/// The grouped shapes of `op` with `kvHeads` kv heads of `group` query heads.
GroupedShapes getGroupedShapes(OpBuilder &b, Location loc, AttentionOp op,
                               int64_t kvHeads, int64_t group) {
  SmallVector<OpFoldResult> qSizes = getSizes(b, loc, op.getQuery());
  SmallVector<OpFoldResult> kSizes = getSizes(b, loc, op.getKey());
  SmallVector<OpFoldResult> vSizes = getSizes(b, loc, op.getValue());
  OpFoldResult hkv = b.getIndexAttr(kvHeads), g = b.getIndexAttr(group);
  GroupedShapes shapes;
  shapes.rows = {qSizes[0], hkv, g, qSizes[2]};
  shapes.scores = {qSizes[0], hkv, g, qSizes[2], kSizes[2]};
  shapes.out = {qSizes[0], hkv, g, qSizes[2], vSizes[3]};
  return shapes;
}

/// q and k rotated by posenc.rotary (lowered by its own pattern); default
/// query positions are shifted by `qShift` (index, may be null).
std::pair<Value, Value> emitRope(OpBuilder &b, Location loc, AttentionOp op,
                                 Value qShift) {
  Value qPositions = op.getQPositions();
  Value q =
      createAttentionRotary(b, loc, op, op.getQuery(), qPositions, qShift);
  Value k = createAttentionRotary(b, loc, op, op.getKey(), op.getKPositions(),
                                  Value());
  return {q, k};
}

struct LowerAttention : OpRewritePattern<AttentionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AttentionOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value q = op.getQuery(), k = op.getKey(), v = op.getValue();
    auto qType = cast<RankedTensorType>(q.getType());
    auto kType = cast<RankedTensorType>(k.getType());
    // The verifier requires static head counts; keep the pattern safe for
    // IR built without verification.
    if (qType.isDynamicDim(1) || kType.isDynamicDim(1))
      return rewriter.notifyMatchFailure(op, "dynamic head counts");
    if (op.getAlibiAttr() && qType.getDimSize(1) > kMaxConstantElements)
      return op.emitOpError("ALiBi slopes of ")
             << qType.getDimSize(1) << " heads exceed the "
             << kMaxConstantElements
             << " the lowering materializes as a constant; pass alibi "
                "slopes as a tensor";
    emitExtentAsserts(rewriter, op);
    int64_t kvHeads = kType.getDimSize(1);
    int64_t group = qType.getDimSize(1) / kvHeads;

    GroupedShapes shapes = getGroupedShapes(rewriter, loc, op, kvHeads, group);
    // Default query positions: i + Sk - Sq (bottom_right) or i (top_left).
    Value qShift;
    if (!op.getLogitQPositions())
      qShift = emitQueryShift(rewriter, loc, op.getAlignment(),
                              shapes.rows.back(), shapes.scores.back());
    if (op.getRopeAttr())
      std::tie(q, k) = emitRope(rewriter, loc, op, qShift);

    Value slopes = op.getAlibiSlopes();
    if (AlibiSlopesAttr alibi = op.getAlibiAttr())
      slopes = emitAlibiSlopes(rewriter, loc, alibi, qType.getDimSize(1));
    if (slopes)
      slopes = splitHeadVector(rewriter, loc, slopes, kvHeads, group);
    Value sinks = op.getSinks();
    if (sinks)
      sinks = splitHeadVector(rewriter, loc, sinks, kvHeads, group);

    Value scores = emitScores(
        rewriter, loc, splitHeads(rewriter, loc, q, kvHeads, group), k, shapes);
    Value logits =
        emitLogits(rewriter, loc, op, scores, slopes, qShift, shapes);
    Value probs = emitSoftmax(rewriter, loc, logits, sinks, shapes);
    Value acc = emitWeightedValues(rewriter, loc, probs, v, shapes);
    Value out =
        emitMergedOutput(rewriter, loc, acc, qType.getElementType(), shapes);
    // The result type may be more or less static than the operands (e.g.
    // `-> tensor<2x128x1x?xbf16>` from a static Dv): a cast gives the op's.
    if (out.getType() != op.getResult().getType())
      out =
          tensor::CastOp::create(rewriter, loc, op.getResult().getType(), out);
    rewriter.replaceOp(op, out);
    return success();
  }
};

} // namespace

void mlir::posenc::populateAttentionLoweringPatterns(
    RewritePatternSet &patterns) {
  patterns.add<LowerAttention>(patterns.getContext());
}
