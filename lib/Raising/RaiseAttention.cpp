//===- RaiseAttention.cpp - the posenc-raise-attention pass ---------------===//
//
// Reads `softmax(Q K^T * scale + terms) V` back from the batch matmuls,
// reshapes, broadcasts and elementwise generics importers emit, and replaces
// it by posenc.attention when every term is one posenc.attention expresses.
//
//===----------------------------------------------------------------------===//

#include "posenc/IR/PosEncOps.h"
#include "posenc/Raising/Match.h"
#include "posenc/Raising/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/Support/raw_ostream.h"

#include <cmath>

#define DEBUG_TYPE "posenc-raise-attention"

namespace mlir {
namespace posenc {
#define GEN_PASS_DEF_POSENCRAISEATTENTION
#include "posenc/Raising/Passes.h.inc"
} // namespace posenc
} // namespace mlir

using namespace mlir;
using namespace mlir::posenc;
using namespace mlir::posenc::raising;

namespace {

/// Logits at or below this are masked out: HF fills with the dtype's
/// minimum (-3.4e38 for f32) rather than -inf; exp underflows to 0 alike.
constexpr double kMaskedLogit = -1e30;

/// The source of `collapse_shape(src)` when `reassociation` is exactly
/// `groups`.
Value collapsedFrom(Value v, ArrayRef<ReassociationIndices> groups) {
  auto collapse = v.getDefiningOp<tensor::CollapseShapeOp>();
  if (!collapse || collapse.getReassociationIndices() !=
                       SmallVector<ReassociationIndices>(groups))
    return Value();
  return collapse.getSrc();
}

/// `[B, Hkv, G, S, D]` built from `[B, Hkv, S, D]` by a broadcast over the
/// group axis (GQA's repeat_kv); returns the source.
Value matchGroupBroadcast(Value v) {
  auto generic = v.getDefiningOp<linalg::GenericOp>();
  if (!generic || generic.getNumDpsInputs() != 1 ||
      generic.getNumResults() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      cast<RankedTensorType>(v.getType()).getRank() != 5)
    return Value();
  Block *body = generic.getBody();
  if (!body->without_terminator().empty() ||
      body->getTerminator()->getOperand(0) != body->getArgument(0))
    return Value();
  Value src = generic.getDpsInputs()[0];
  MLIRContext *ctx = v.getContext();
  AffineMap expected =
      AffineMap::get(5, 0,
                     {getAffineDimExpr(0, ctx), getAffineDimExpr(1, ctx),
                      getAffineDimExpr(3, ctx), getAffineDimExpr(4, ctx)},
                     ctx);
  if (generic.getIndexingMapsArray()[0] != expected ||
      !generic.getIndexingMapsArray()[1].isIdentity())
    return Value();
  return src;
}

/// K or V as the attention reads them: `[B, H, S, D]` through an optional
/// repeat_kv; returns the `[B, Hkv, S, D]` source and the group count.
std::pair<Value, int64_t> readThroughRepeatKv(Value v4) {
  if (Value src5 = collapsedFrom(v4, {{0}, {1, 2}, {3}, {4}}))
    if (Value kv = matchGroupBroadcast(src5))
      return {kv, cast<RankedTensorType>(src5.getType()).getDimSize(2)};
  return {v4, 1};
}

/// The 4-D K or V behind a batch-matmul operand `[B*H, S, D]`.
std::pair<Value, int64_t> kvFromBatchOperand(Value v3) {
  if (Value src5 = collapsedFrom(v3, {{0, 1, 2}, {3}, {4}}))
    if (Value kv = matchGroupBroadcast(src5))
      return {kv, cast<RankedTensorType>(src5.getType()).getDimSize(2)};
  if (Value v4 = collapsedFrom(v3, {{0, 1}, {2}, {3}}))
    return readThroughRepeatKv(v4);
  return {Value(), 0};
}

/// A `linalg.batch_matmul` with its default maps into a zero-filled init.
linalg::BatchMatmulOp matchPlainBatchMatmul(Value v) {
  auto bmm = v.getDefiningOp<linalg::BatchMatmulOp>();
  if (!bmm || bmm.hasUserDefinedMaps())
    return nullptr;
  auto fill = bmm.getDpsInits()[0].getDefiningOp<linalg::FillOp>();
  std::optional<double> zero =
      fill ? getConstantFloat(fill.getInputs()[0]) : std::nullopt;
  if (!zero || *zero != 0.0)
    return nullptr;
  return bmm;
}

/// A reduction over the last of 4 loops into `[B, H, Sq, 1]` or
/// `[B, H, Sq]`, reading `input` through the identity map; result `result`
/// of the generic yields `Combine(in, out)` from an init filled with `init`.
template <typename Combine>
bool isRowReduction(Value v, Value input, double init) {
  auto generic = v.getDefiningOp<linalg::GenericOp>();
  if (!generic || generic.getNumDpsInputs() != 1 ||
      generic.getDpsInputs()[0] != input || generic.getNumLoops() != 4 ||
      generic.getNumReductionLoops() != 1 ||
      generic.getIteratorTypesArray()[3] != utils::IteratorType::reduction ||
      !generic.getIndexingMapsArray()[0].isIdentity())
    return false;
  unsigned r = cast<OpResult>(v).getResultNumber();
  OpOperand *initOperand = generic.getDpsInitOperand(r);
  auto fill = initOperand->get().getDefiningOp<linalg::FillOp>();
  std::optional<double> fillValue =
      fill ? getConstantFloat(fill.getInputs()[0]) : std::nullopt;
  if (!fillValue || *fillValue != init)
    return false;
  AffineMap outMap = generic.getMatchingIndexingMap(initOperand);
  auto outDims = nonUnitDims(outMap, cast<ShapedType>(v.getType()));
  auto inType = cast<ShapedType>(input.getType());
  SmallVector<unsigned> expected;
  for (unsigned d = 0; d < 3; ++d)
    if (inType.getDimSize(d) != 1)
      expected.push_back(d);
  if (!outDims || *outDims != expected)
    return false;
  Block *body = generic.getBody();
  Value yielded = body->getTerminator()->getOperand(r);
  auto combine = yielded.getDefiningOp<Combine>();
  if (!combine)
    return false;
  Value in = body->getArgument(0);
  Value out = body->getArgument(generic.getNumDpsInputs() + r);
  return (combine->getOperand(0) == in && combine->getOperand(1) == out) ||
         (combine->getOperand(0) == out && combine->getOperand(1) == in);
}

/// `x op rowValue`, with `rowValue` read as `[B, H, Sq, 1]` broadcast along
/// the keys; returns `x` and the row value's tensor.
template <typename OpTy>
std::optional<std::pair<Value, Value>> matchRowBroadcast(Value v) {
  auto e = matchElementwise<OpTy>(v);
  if (!e || !e->isIdentityInput(0) || !e->getInput(1))
    return std::nullopt;
  auto dims = nonUnitDims(e->getMap(1),
                          cast<ShapedType>(e->getInput(1)->get().getType()));
  if (!dims || llvm::is_contained(*dims, 3u))
    return std::nullopt;
  return std::make_pair(e->getInput(0)->get(), e->getInput(1)->get());
}

/// `softmax(x)` over the last axis: max, subtract, exp, sum, divide.
Value matchSoftmax(Value p) {
  auto div = matchRowBroadcast<arith::DivFOp>(p);
  if (!div)
    return Value();
  auto [e, sum] = *div;
  auto exp = matchElementwise<math::ExpOp>(e);
  if (!exp || !exp->isIdentityInput(0))
    return Value();
  if (!isRowReduction<arith::AddFOp>(stripUnitReshapes(sum), e, 0.0))
    return Value();
  auto sub = matchRowBroadcast<arith::SubFOp>(exp->getInput(0)->get());
  if (!sub)
    return Value();
  auto [x, max] = *sub;
  if (!isRowReduction<arith::MaximumFOp>(stripUnitReshapes(max), x, -INFINITY))
    return Value();
  return x;
}

/// What the logits add to the scaled scores.
struct Terms {
  bool causal = false;
  AlibiOp alibi;
};

/// A constant additive mask over `[Sq, Sk]` (broadcast over batch and
/// heads): all zeros (no mask) or causal with bottom-right alignment.
LogicalResult classifyMask(Value term, AffineMap map, int64_t sq, int64_t sk,
                           Terms &terms) {
  auto type = cast<RankedTensorType>(term.getType());
  std::optional<SmallVector<unsigned>> dims = nonUnitDims(map, type);
  if (!dims)
    return failure();
  bool hasRow = llvm::is_contained(*dims, 2u);
  bool hasCol = llvm::is_contained(*dims, 3u);
  if (dims->size() != unsigned(hasRow) + unsigned(hasCol) ||
      (hasRow && hasCol && (*dims)[0] != 2))
    return failure();
  std::optional<SmallVector<double>> values = evaluateConstantTensor(term);
  if (!values)
    return failure();
  bool allZero = true, causal = true;
  for (int64_t i = 0; i < sq; ++i) {
    for (int64_t j = 0; j < sk; ++j) {
      int64_t at = (hasRow ? i * (hasCol ? sk : 1) : 0) + (hasCol ? j : 0);
      double m = (*values)[at];
      bool visible = j <= i + (sk - sq);
      allZero &= m == 0.0;
      causal &= visible ? m == 0.0 : m <= kMaskedLogit;
    }
  }
  if (allZero)
    return success();
  if (!causal)
    return failure();
  terms.causal = true;
  return success();
}

/// A posenc.alibi bias `[B?, H, Sq?, Sk]` read with heads on axis 1 and keys
/// on axis 3, from default positions.
LogicalResult classifyAlibi(Value term, AffineMap map, int64_t hq, int64_t sq,
                            int64_t sk, Terms &terms) {
  auto alibi = stripUnitReshapes(term).getDefiningOp<AlibiOp>();
  if (!alibi || terms.alibi || alibi.getQPositions() || alibi.getKPositions())
    return failure();
  std::optional<SmallVector<unsigned>> dims =
      nonUnitDims(map, cast<ShapedType>(term.getType()));
  auto shape = nonUnitShape(alibi.getResult());
  // Symmetric biases depend on the query; key-linear ones may be one row.
  SmallVector<unsigned> full = {1, 2, 3}, row = {1, 3};
  SmallVector<int64_t> fullShape = {hq, sq, sk}, rowShape = {hq, sk};
  bool isFull = dims && *dims == full && shape == fullShape;
  bool isRow = dims && *dims == row && shape == rowShape &&
               (alibi.getForm() == AlibiForm::key_linear || sq == 1);
  if (!isFull && !isRow)
    return failure();
  terms.alibi = alibi;
  return success();
}

struct RaiseAttentionChain : OpRewritePattern<linalg::BatchMatmulOp> {
  RaiseAttentionChain(MLIRContext *ctx, int64_t &raised, int64_t &causal,
                      int64_t &gqa)
      : OpRewritePattern(ctx), raised(raised), causal(causal), gqa(gqa) {}

  LogicalResult matchAndRewrite(linalg::BatchMatmulOp pv,
                                PatternRewriter &rewriter) const override {
    if (!matchPlainBatchMatmul(pv.getResult(0)))
      return failure();
    Value probs = collapsedFrom(pv.getDpsInputs()[0], {{0, 1}, {2}, {3}});
    auto [v, vGroups] = kvFromBatchOperand(pv.getDpsInputs()[1]);
    if (!probs || !v)
      return rewriter.notifyMatchFailure(pv, "not [B*H, S, S] x V");
    Value logits = matchSoftmax(probs);
    if (!logits)
      return rewriter.notifyMatchFailure(pv, "no last-axis softmax");
    auto logitsType = cast<RankedTensorType>(logits.getType());
    if (!logitsType.hasStaticShape())
      return rewriter.notifyMatchFailure(pv, "dynamic logits");
    int64_t hq = logitsType.getDimSize(1), sq = logitsType.getDimSize(2),
            sk = logitsType.getDimSize(3);

    // Peel additive terms and scale factors down to Q K^T.
    Terms terms;
    double scale = 1.0;
    Value x = logits;
    linalg::BatchMatmulOp qk;
    while (!qk) {
      if (auto expand = x.getDefiningOp<tensor::ExpandShapeOp>()) {
        if (expand.getReassociationIndices() !=
            SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}})
          return rewriter.notifyMatchFailure(pv, "scores not [B*H] batched");
        qk = matchPlainBatchMatmul(expand.getSrc());
        if (!qk)
          return rewriter.notifyMatchFailure(pv, "scores not a batch matmul");
        break;
      }
      auto e = matchElementwise(x);
      if (!e || e->getNumOperands() != 2)
        return rewriter.notifyMatchFailure(pv, "unknown logits term");
      if (isa<arith::MulFOp, arith::DivFOp>(e->body)) {
        // A scalar scale; terms already peeled would be scaled too, which
        // only a mask (0 / -inf) survives.
        unsigned t = e->getScalar(1) ? 0 : 1;
        std::optional<double> c = e->getScalar(1 - t)
                                      ? getConstantFloat(e->getScalar(1 - t))
                                      : std::nullopt;
        if (!c || !e->isIdentityInput(t) || *c <= 0.0 ||
            (isa<arith::DivFOp>(e->body) && t != 0) || terms.alibi)
          return rewriter.notifyMatchFailure(pv, "not a positive scale");
        scale *= isa<arith::MulFOp>(e->body) ? *c : 1.0 / *c;
        x = e->getInput(t)->get();
        continue;
      }
      if (!isa<arith::AddFOp>(e->body) || !e->getInput(0) || !e->getInput(1))
        return rewriter.notifyMatchFailure(pv, "unknown logits term");
      bool peeled = false;
      for (unsigned t = 0; t < 2 && !peeled; ++t) {
        if (!e->isIdentityInput(1 - t))
          continue;
        Value term = e->getInput(t)->get();
        AffineMap map = e->getMap(t);
        if (succeeded(classifyMask(term, map, sq, sk, terms)) ||
            (scale == 1.0 &&
             succeeded(classifyAlibi(term, map, hq, sq, sk, terms)))) {
          x = e->getInput(1 - t)->get();
          peeled = true;
        }
      }
      if (!peeled)
        return rewriter.notifyMatchFailure(pv,
                                           "a term attention cannot express");
    }
    // An ALiBi term added before the scale would have been scaled with it:
    // classifyAlibi only runs while no scale has been peeled (scale == 1),
    // i.e. outside every multiply.

    Value q = collapsedFrom(qk.getDpsInputs()[0], {{0, 1}, {2}, {3}});
    Value kT = collapsedFrom(qk.getDpsInputs()[1], {{0, 1}, {2}, {3}});
    auto transpose = kT ? kT.getDefiningOp<linalg::TransposeOp>() : nullptr;
    if (!q || !transpose ||
        transpose.getPermutation() != ArrayRef<int64_t>{0, 1, 3, 2})
      return rewriter.notifyMatchFailure(pv, "scores not Q x K^T");
    auto [k, kGroups] = readThroughRepeatKv(transpose.getInput());
    auto qType = cast<RankedTensorType>(q.getType());
    auto kType = cast<RankedTensorType>(k.getType());
    auto vType = cast<RankedTensorType>(v.getType());
    if (kGroups != vGroups || kType.getDimSize(1) != vType.getDimSize(1) ||
        qType.getElementType() != kType.getElementType() ||
        qType.getElementType() != vType.getElementType() ||
        qType.getDimSize(1) != hq || kType.getDimSize(1) * kGroups != hq)
      return rewriter.notifyMatchFailure(pv, "K and V heads disagree");

    Location loc = pv.getLoc();
    auto resultType = RankedTensorType::get(
        {qType.getDimSize(0), hq, sq, vType.getDimSize(3)},
        qType.getElementType());
    double defaultScale = 1.0 / std::sqrt(double(qType.getDimSize(3)));
    FloatAttr scaleAttr;
    if (float(scale) != float(defaultScale))
      scaleAttr = rewriter.getF64FloatAttr(scale);
    AlibiSlopesAttr alibiConfig;
    Value alibiSlopes;
    AlibiForm form = AlibiForm::symmetric;
    Alignment alignment = Alignment::bottom_right;
    if (terms.alibi) {
      alibiConfig = terms.alibi.getConfigAttr();
      alibiSlopes = terms.alibi.getSlopes();
      form = terms.alibi.getForm();
      alignment = terms.alibi.getAlignment();
    }
    auto attention = AttentionOp::create(rewriter, loc, resultType, q, k, v,
                                         Value(), Value(), alibiSlopes, Value(),
                                         Value(), scaleAttr, terms.causal,
                                         nullptr, alibiConfig, form, alignment);
    Value collapsed = tensor::CollapseShapeOp::create(
        rewriter, loc, pv.getResult(0).getType(), attention,
        SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}});
    rewriter.replaceOp(pv, collapsed);
    ++raised;
    if (terms.causal)
      ++causal;
    if (kGroups > 1)
      ++gqa;
    return success();
  }

  int64_t &raised, &causal, &gqa;
};

struct PosEncRaiseAttentionPass
    : posenc::impl::PosEncRaiseAttentionBase<PosEncRaiseAttentionPass> {
  using Base::Base;

  void runOnOperation() override {
    int64_t numRaised = 0, numCausal = 0, numGqa = 0;
    RewritePatternSet patterns(&getContext());
    patterns.add<RaiseAttentionChain>(&getContext(), numRaised, numCausal,
                                      numGqa);
    GreedyRewriteConfig config;
    config.enableFolding(false);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      signalPassFailure();
    if (printStats)
      llvm::errs() << "posenc-raise-attention: " << numRaised
                   << " raised-attention, " << numCausal
                   << " raised-causal-masks, " << numGqa
                   << " raised-repeat-kv\n";
  }
};

} // namespace
