//===- RaiseAttention.cpp - the posenc-raise-attention pass ---------------===//
//
// Reads `softmax(Q K^T * scale + terms) V` back from the batch matmuls,
// reshapes, broadcasts and elementwise generics importers emit, and replaces
// it by posenc.attention when every term is one posenc.attention expresses.
//
//===----------------------------------------------------------------------===//

#include "AttentionOperands.h"
#include "AttentionSoftmax.h"
#include "AttentionTerms.h"
#include "RaisingDriver.h"

#include "posenc/IR/PosEncOps.h"
#include "posenc/Raising/Match.h"
#include "posenc/Raising/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

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

struct RaiseAttentionChain : OpRewritePattern<linalg::BatchMatmulOp> {
  RaiseAttentionChain(MLIRContext *ctx, RaiseAttentionStats &stats,
                      bool zeroPaddingRows)
      : OpRewritePattern(ctx), stats(stats), zeroPaddingRows(zeroPaddingRows) {}

  LogicalResult matchAndRewrite(linalg::BatchMatmulOp pv,
                                PatternRewriter &rewriter) const override {
    FailureOr<AttentionMatch> m = matchAttention(pv, rewriter);
    if (failed(m))
      return failure();
    rewriter.replaceOp(pv, buildAttention(rewriter, pv.getLoc(),
                                          pv.getResult(0).getType(), *m));
    stats.count(*m);
    return success();
  }

  /// Reads the attention that `pv`, the batch matmul of the probabilities
  /// by V, ends.
  FailureOr<AttentionMatch> matchAttention(linalg::BatchMatmulOp pv,
                                           PatternRewriter &rewriter) const {
    if (!matchPlainBatchMatmul(pv.getResult(0)))
      return failure();
    Value probs = collapsedFrom(pv.getDpsInputs()[0], {{0, 1}, {2}, {3}});
    std::optional<KvSource> v = kvFromBatchOperand(pv.getDpsInputs()[1]);
    if (!probs || !v)
      return rewriter.notifyMatchFailure(pv, "not [B*H, S, S] x V");
    AttentionMatch m;
    m.value = *v;
    Value guardedLogits;
    bool guarded = false;
    if (Value inner = stripMaskedRowGuard(probs, guardedLogits)) {
      probs = inner;
      guarded = true;
    }
    Value logits = matchSinkSoftmax(probs, m.sinks);
    if (!logits)
      logits = matchSoftmax(probs);
    if (!logits || (guardedLogits && guardedLogits != logits))
      return rewriter.notifyMatchFailure(pv, "no last-axis softmax");
    auto logitsType = cast<RankedTensorType>(logits.getType());
    // Dynamic lengths only: batch and heads are static.
    if (logitsType.isDynamicDim(0) || logitsType.isDynamicDim(1))
      return rewriter.notifyMatchFailure(pv, "dynamic batch or heads");
    m.space = LogitsSpace{1,
                          2,
                          3,
                          logitsType.getDimSize(1),
                          logitsType.getDimSize(2),
                          logitsType.getDimSize(3),
                          /*batch=*/0u,
                          logitsType.getDimSize(0),
                          {logits, 2},
                          {logits, 3}};
    FailureOr<linalg::BatchMatmulOp> qk =
        peelTerms(pv, logits, logitsType.getDimSize(0), m, rewriter);
    if (failed(qk) || failed(matchQueryAndKey(pv, *qk, m, rewriter)))
      return failure();
    // A row whose keys are all padding: 0 under SDPA's guard and in
    // posenc.attention; eager's finite fill averages V, -inf gives NaN.
    if (m.terms.keyMask && !guarded && !zeroPaddingRows)
      return rewriter.notifyMatchFailure(
          pv, "a padding mask without SDPA's masked-row guard (see "
              "zero-padding-rows)");
    if (m.sinks &&
        cast<RankedTensorType>(m.sinks.getType()).getDimSize(0) != m.space.hq)
      return rewriter.notifyMatchFailure(pv, "one sink per query head");
    return m;
  }

  /// Peels additive terms, masks and scale factors off `logits` (of `batch`
  /// entries) down to Q K^T, recording them in `m`; returns that matmul.
  FailureOr<linalg::BatchMatmulOp> peelTerms(linalg::BatchMatmulOp pv,
                                             Value logits, int64_t batch,
                                             AttentionMatch &m,
                                             PatternRewriter &rewriter) const {
    LogitsSpace &space = m.space;
    Value x = logits;
    bool merged = false; // in the [B*H, Sq, Sk] space of the scores
    bool capped = false; // below the soft-cap
    while (true) {
      if (auto expand = x.getDefiningOp<tensor::ExpandShapeOp>();
          expand && !merged) {
        if (expand.getReassociationIndices() !=
            SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}})
          return rewriter.notifyMatchFailure(pv, "scores not [B*H] batched");
        x = expand.getSrc();
        merged = true;
        space = LogitsSpace{0,
                            1,
                            2,
                            space.hq,
                            space.sq,
                            space.sk,
                            /*batch=*/std::nullopt,
                            1,
                            space.rows,
                            space.cols};
      }
      if (merged) {
        if (linalg::BatchMatmulOp qk = matchPlainBatchMatmul(x))
          return qk;
        // Terms on merged heads read the head from axis 0 only if B == 1.
        if (batch != 1)
          return rewriter.notifyMatchFailure(pv, "terms on B*H scores");
      }
      auto e = matchElementwise(x);
      if (!e)
        return rewriter.notifyMatchFailure(pv, "unknown logits term");
      // The cap applies to the scaled scores: no scale outside it, and no
      // mask or ALiBi inside it (peeled after it).
      if (!capped && m.scale == 1.0) {
        if (Value inner = peelSoftcap(x, m.terms.softcap)) {
          x = inner;
          capped = true;
          continue;
        }
      }
      if (Value inner = peelScale(x, m.scale)) {
        // Terms peeled so far were added outside this multiply: unscaled.
        x = inner;
        continue;
      }
      if (capped)
        return rewriter.notifyMatchFailure(pv, "a term inside the soft-cap");
      if (isa<arith::SelectOp>(e->body) && e->isIdentityInput(2) &&
          succeeded(classifySelectMask(*e, space, m.terms))) {
        x = e->getInput(2)->get();
        continue;
      }
      if (!isa<arith::AddFOp>(e->body) || !e->getInput(0) || !e->getInput(1))
        return rewriter.notifyMatchFailure(pv, "unknown logits term");
      x = peelAddedTerm(*e, space, m.scale, m.terms);
      if (!x)
        return rewriter.notifyMatchFailure(pv,
                                           "a term attention cannot express");
    }
  }

  /// `x + term` (either order) with a term attention expresses; returns `x`.
  /// An ALiBi term added before a scale would have been scaled with it:
  /// classifyAlibi only runs while no scale has been peeled (scale == 1),
  /// i.e. outside every multiply.
  static Value peelAddedTerm(const Elementwise &add, const LogitsSpace &space,
                             double scale, Terms &terms) {
    for (unsigned t = 0; t < 2; ++t) {
      if (!add.isIdentityInput(1 - t))
        continue;
      Value term = add.getInput(t)->get();
      AffineMap map = add.getMap(t);
      if (succeeded(classifyMask(term, map, space, terms)) ||
          succeeded(classifyKeyMask(term, map, space, terms)) ||
          (scale == 1.0 && succeeded(classifyAlibi(term, map, space, terms))))
        return add.getInput(1 - t)->get();
    }
    return Value();
  }

  /// Q and K behind the score matmul `qk`, with SDPA's scales of each peeled
  /// into `m.scale`, and checked against V and the logits' heads.
  LogicalResult matchQueryAndKey(linalg::BatchMatmulOp pv,
                                 linalg::BatchMatmulOp qk, AttentionMatch &m,
                                 PatternRewriter &rewriter) const {
    Value q = collapsedFrom(qk.getDpsInputs()[0], {{0, 1}, {2}, {3}});
    Value kT = collapsedFrom(qk.getDpsInputs()[1], {{0, 1}, {2}, {3}});
    if (!q)
      return rewriter.notifyMatchFailure(pv, "scores not Q x K^T");
    // SDPA's decomposition scales Q by sqrt(scale).
    if (Value inner = peelScale(q, m.scale))
      q = inner;
    std::optional<KvSource> key;
    if (kT) {
      key = matchKey(kT, m.scale);
    } else if (auto t =
                   qk.getDpsInputs()[1].getDefiningOp<linalg::TransposeOp>();
               t && t.getPermutation() == ArrayRef<int64_t>{0, 2, 1}) {
      // BLOOM's baddbmm transposes the collapsed [B*H, Sk, D] keys.
      if (Value k4 = collapsedFrom(t.getInput(), {{0, 1}, {2}, {3}}))
        key = readThroughRepeatKv(k4);
    }
    if (!key)
      return rewriter.notifyMatchFailure(pv, "scores not Q x K^T");
    auto qType = cast<RankedTensorType>(q.getType());
    Type kElement = getElementTypeOrSelf(key->value.getType());
    Type vElement = getElementTypeOrSelf(m.value.value.getType());
    int64_t hq = m.space.hq;
    if (key->groups != m.value.groups ||
        key->numHeads() != m.value.numHeads() ||
        qType.getElementType() != kElement ||
        qType.getElementType() != vElement || qType.getDimSize(1) != hq ||
        key->numHeads() * key->groups != hq)
      return rewriter.notifyMatchFailure(pv, "K and V heads disagree");
    m.q = q;
    m.key = *key;
    // Positions of the temperature are token indices: the attention's own
    // only when queries and keys align (Sq = Sk); ALiBi or a scale inside
    // is fine, the temperature multiplies q before both.
    if (!m.space.isDynamic() && m.space.sq == m.space.sk)
      m.temperature = matchQueryTemperature(q);
    return success();
  }

  RaiseAttentionStats &stats;
  bool zeroPaddingRows;
};

struct PosEncRaiseAttentionPass
    : posenc::impl::PosEncRaiseAttentionBase<PosEncRaiseAttentionPass> {
  using Base::Base;

  void runOnOperation() override {
    RaiseAttentionStats stats;
    RewritePatternSet patterns(&getContext());
    patterns.add<RaiseAttentionChain>(&getContext(), stats, zeroPaddingRows);
    populateRaiseIreeAttentionPatterns(patterns, stats, zeroPaddingRows);
    // Masks built with a cumsum (HF's chunked mask counting left padding)
    // leave the scan dead once raised.
    populateDeadMaskPatterns(patterns, stats.scans);
    if (failed(applyRaisingPatterns(
            getOperation(), std::move(patterns), getArgument(), printStats,
            {{"raised-attention", stats.raised},
             {"raised-causal-masks", stats.causal},
             {"raised-repeat-kv", stats.gqa},
             {"raised-window-masks", stats.windows},
             {"raised-chunk-masks", stats.chunks},
             {"raised-softcaps", stats.softcaps},
             {"raised-query-temperatures", stats.temperatures},
             {"erased-scans", stats.scans},
             {"raised-key-masks", stats.keyMasks}})))
      signalPassFailure();
  }
};

} // namespace
