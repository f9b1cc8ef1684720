//===- RaiseAttention.cpp - the posenc-raise-attention pass ---------------===//
//
// Reads `softmax(Q K^T * scale + terms) V` back from the batch matmuls,
// reshapes, broadcasts and elementwise generics importers emit, and replaces
// it by posenc.attention when every term is one posenc.attention expresses.
//
//===----------------------------------------------------------------------===//

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

/// The source of `collapse_shape(src)` when `reassociation` is exactly
/// `groups`.
Value collapsedFrom(Value v, ArrayRef<ReassociationIndices> groups) {
  auto collapse = v.getDefiningOp<tensor::CollapseShapeOp>();
  if (!collapse || collapse.getReassociationIndices() !=
                       SmallVector<ReassociationIndices>(groups))
    return Value();
  return collapse.getSrc();
}

/// A copy-broadcast of a rank-4 tensor over a new axis `groupAxis` of a
/// rank-5 result (GQA's repeat_kv); returns the source.
Value matchGroupBroadcast(Value v, unsigned groupAxis) {
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
  SmallVector<AffineExpr> kept;
  for (unsigned d = 0; d < 5; ++d)
    if (d != groupAxis)
      kept.push_back(getAffineDimExpr(d, ctx));
  if (generic.getIndexingMapsArray()[0] != AffineMap::get(5, 0, kept, ctx) ||
      !generic.getIndexingMapsArray()[1].isIdentity())
    return Value();
  return src;
}

/// K or V as posenc.attention reads them, `[B, Hkv, S, D]`: `value`, or
/// its head transpose when `tokenMajor` (`value` is `[B, S, Hkv, D]`, built
/// at rewrite time); `groups` query heads share each kv head.
struct KvSource {
  Value value;
  bool tokenMajor = false;
  int64_t groups = 1;

  int64_t numHeads() const {
    return cast<RankedTensorType>(value.getType())
        .getDimSize(tokenMajor ? 2 : 1);
  }
};

/// `[B, S, H, D]` K or V through an optional repeat_kv over `[B, S, Hkv, D]`
/// (Meta's reference code repeats before the head transpose).
KvSource readTokenMajor(Value bshd) {
  if (Value src5 = collapsedFrom(bshd, {{0}, {1}, {2, 3}, {4}}))
    if (Value kv = matchGroupBroadcast(src5, 3))
      return {kv, true, cast<RankedTensorType>(src5.getType()).getDimSize(3)};
  return {bshd, true, 1};
}

/// K or V as the attention reads them: `[B, H, S, D]` through an optional
/// repeat_kv, applied on `[B, Hkv, S, D]` (HF) or before the head transpose
/// on `[B, S, Hkv, D]` (Meta's reference code).
KvSource readThroughRepeatKv(Value v4) {
  if (Value src5 = collapsedFrom(v4, {{0}, {1, 2}, {3}, {4}}))
    if (Value kv = matchGroupBroadcast(src5, 2))
      return {kv, false, cast<RankedTensorType>(src5.getType()).getDimSize(2)};
  if (auto t = v4.getDefiningOp<linalg::TransposeOp>();
      t && t.getPermutation() == ArrayRef<int64_t>{0, 2, 1, 3}) {
    KvSource kv = readTokenMajor(t.getInput());
    if (kv.groups > 1)
      return kv;
  }
  return {v4, false, 1};
}

/// The 4-D K or V behind a batch-matmul operand `[B*H, S, D]`.
std::optional<KvSource> kvFromBatchOperand(Value v3) {
  if (Value src5 = collapsedFrom(v3, {{0, 1, 2}, {3}, {4}}))
    if (Value kv = matchGroupBroadcast(src5, 2))
      return KvSource{kv, false,
                      cast<RankedTensorType>(src5.getType()).getDimSize(2)};
  if (Value v4 = collapsedFrom(v3, {{0, 1}, {2}, {3}}))
    return readThroughRepeatKv(v4);
  return std::nullopt;
}

/// `[B, Hkv, S, D]` of `kv`: its value or a head transpose of it.
Value headMajor(PatternRewriter &rewriter, Location loc, const KvSource &kv) {
  if (!kv.tokenMajor)
    return kv.value;
  auto type = cast<RankedTensorType>(kv.value.getType());
  ArrayRef<int64_t> shape = type.getShape();
  Value init = tensor::EmptyOp::create(
      rewriter, loc, ArrayRef<int64_t>{shape[0], shape[2], shape[1], shape[3]},
      type.getElementType());
  return linalg::TransposeOp::create(rewriter, loc, kv.value, init,
                                     ArrayRef<int64_t>{0, 2, 1, 3})
      ->getResult(0);
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

/// The key behind the transposed operand of the score matmul (`[B, H, D,
/// Sk]` collapsed): `K^T` of `[B, H, Sk, D]` (through repeat_kv), or
/// `[B, Sk, H, D]` transposed with `[0, 2, 3, 1]` (GPT-2, GPT-J, MPT).
std::optional<KvSource> matchKey(Value kT, double &scale) {
  // SDPA's decomposition scales K^T by sqrt(scale).
  if (Value inner = peelScale(kT, scale))
    kT = inner;
  auto transpose = kT.getDefiningOp<linalg::TransposeOp>();
  if (!transpose)
    return std::nullopt;
  if (transpose.getPermutation() == ArrayRef<int64_t>{0, 1, 3, 2})
    return readThroughRepeatKv(transpose.getInput());
  if (transpose.getPermutation() == ArrayRef<int64_t>{0, 2, 3, 1})
    return readTokenMajor(transpose.getInput());
  return std::nullopt;
}

/// A checked `softmax(Q K^T * scale + terms) V`, ready to build.
struct AttentionMatch {
  std::optional<QueryTemperature> temperature;
  Value q;
  KvSource key, value;
  Value sinks;
  Terms terms;
  LogitsSpace space{};
  double scale = 1.0;
};

/// The key_mask operand for the key validity `valid` ([B, Sk] i1): `x` when
/// `valid` is `x != 0` of an integer `x`, else `valid`.
Value keyMaskOperand(Value valid) {
  auto ne = matchElementwise<arith::CmpIOp>(valid);
  if (!ne || !ne->isIdentityInput(0) ||
      cast<arith::CmpIOp>(ne->body).getPredicate() != arith::CmpIPredicate::ne)
    return valid;
  APInt zero;
  Value scalar = ne->getScalar(1);
  Value x = ne->getInput(0)->get();
  Type element = getElementTypeOrSelf(x.getType());
  if (!scalar || !matchPattern(scalar, m_ConstantInt(&zero)) ||
      !zero.isZero() || !element.isSignlessInteger() ||
      !llvm::is_contained({8u, 32u, 64u}, element.getIntOrFloatBitWidth()))
    return valid;
  return x;
}

/// Builds the posenc.attention of `m` for `pv`, collapsed to its
/// `[B*H, Sq, Dv]` result.
Value buildAttention(PatternRewriter &rewriter, linalg::BatchMatmulOp pv,
                     const AttentionMatch &m) {
  Location loc = pv.getLoc();
  Value q = m.q;
  QueryTemperatureAttr temperature;
  if (m.temperature) {
    auto qType = cast<RankedTensorType>(m.q.getType());
    Value init = tensor::EmptyOp::create(rewriter, loc, qType.getShape(),
                                         qType.getElementType());
    q = linalg::TransposeOp::create(rewriter, loc, m.temperature->unscaled,
                                    init, ArrayRef<int64_t>{0, 2, 1, 3})
            .getResult()[0];
    temperature = QueryTemperatureAttr::get(rewriter.getContext(),
                                            m.temperature->floorScale,
                                            m.temperature->attnScale);
  }
  Value k = headMajor(rewriter, loc, m.key);
  Value vHeads = headMajor(rewriter, loc, m.value);
  auto qType = cast<RankedTensorType>(m.q.getType());
  auto vType = cast<RankedTensorType>(vHeads.getType());
  auto resultType = RankedTensorType::get(
      {qType.getDimSize(0), m.space.hq, m.space.sq, vType.getDimSize(3)},
      qType.getElementType());
  double defaultScale = 1.0 / std::sqrt(double(qType.getDimSize(3)));
  FloatAttr scaleAttr;
  if (float(m.scale) != float(defaultScale))
    scaleAttr = rewriter.getF64FloatAttr(m.scale);
  AlibiSlopesAttr alibiConfig;
  Value alibiSlopes;
  AlibiForm form = AlibiForm::symmetric;
  Alignment alignment = Alignment::bottom_right;
  if (AlibiOp alibi = m.terms.alibi) {
    alibiConfig = alibi.getConfigAttr();
    alibiSlopes = alibi.getSlopes();
    form = alibi.getForm();
    alignment = alibi.getAlignment();
  }
  auto attention = AttentionOp::create(
      rewriter, loc, resultType, q, k, vHeads, Value(), Value(), alibiSlopes,
      Value(), Value(), m.sinks, /*key_lengths=*/Value(),
      m.terms.keyMask ? keyMaskOperand(m.terms.keyMask) : Value(), scaleAttr,
      m.terms.causal, /*rope_only_positions=*/false,
      m.terms.windowLeft ? WindowAttr::get(rewriter.getContext(),
                                           *m.terms.windowLeft, std::nullopt)
                         : WindowAttr(),
      m.terms.chunk ? rewriter.getI64IntegerAttr(*m.terms.chunk)
                    : IntegerAttr(),
      m.terms.softcap ? rewriter.getF64FloatAttr(*m.terms.softcap)
                      : FloatAttr(),
      temperature, /*rope=*/nullptr, alibiConfig, form, alignment);
  return tensor::CollapseShapeOp::create(
      rewriter, loc, pv.getResult(0).getType(), attention,
      SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}});
}

/// What posenc-raise-attention counts (its print-stats line).
struct RaiseAttentionStats {
  int64_t raised = 0, causal = 0, gqa = 0, windows = 0, chunks = 0,
          softcaps = 0, temperatures = 0, keyMasks = 0, scans = 0;
};

struct RaiseAttentionChain : OpRewritePattern<linalg::BatchMatmulOp> {
  RaiseAttentionChain(MLIRContext *ctx, RaiseAttentionStats &stats,
                      bool zeroPaddingRows)
      : OpRewritePattern(ctx), stats(stats), zeroPaddingRows(zeroPaddingRows) {}

  LogicalResult matchAndRewrite(linalg::BatchMatmulOp pv,
                                PatternRewriter &rewriter) const override {
    FailureOr<AttentionMatch> m = matchAttention(pv, rewriter);
    if (failed(m))
      return failure();
    rewriter.replaceOp(pv, buildAttention(rewriter, pv, *m));
    ++stats.raised;
    stats.causal += m->terms.causal;
    stats.gqa += m->key.groups > 1;
    stats.windows += m->terms.windowLeft.has_value();
    stats.chunks += m->terms.chunk.has_value();
    stats.softcaps += m->terms.softcap.has_value();
    stats.temperatures += m->temperature.has_value();
    stats.keyMasks += static_cast<bool>(m->terms.keyMask);
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
    if (Value inner = stripMaskedRowGuard(probs, guardedLogits))
      probs = inner;
    Value logits = matchSinkSoftmax(probs, m.sinks);
    if (!logits)
      logits = matchSoftmax(probs);
    if (!logits || (guardedLogits && guardedLogits != logits))
      return rewriter.notifyMatchFailure(pv, "no last-axis softmax");
    auto logitsType = cast<RankedTensorType>(logits.getType());
    if (!logitsType.hasStaticShape())
      return rewriter.notifyMatchFailure(pv, "dynamic logits");
    m.space = LogitsSpace{1,
                          2,
                          3,
                          logitsType.getDimSize(1),
                          logitsType.getDimSize(2),
                          logitsType.getDimSize(3),
                          /*batch=*/0u,
                          logitsType.getDimSize(0)};
    FailureOr<linalg::BatchMatmulOp> qk =
        peelTerms(pv, logits, logitsType.getDimSize(0), m, rewriter);
    if (failed(qk) || failed(matchQueryAndKey(pv, *qk, m, rewriter)))
      return failure();
    // A row whose keys are all padding: 0 under SDPA's guard and in
    // posenc.attention; eager's finite fill averages V, -inf gives NaN.
    if (m.terms.keyMask && !guardedLogits && !zeroPaddingRows)
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
        space = LogitsSpace{
            0, 1, 2, space.hq, space.sq, space.sk, /*batch=*/std::nullopt, 1};
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
    if (m.space.sq == m.space.sk)
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
