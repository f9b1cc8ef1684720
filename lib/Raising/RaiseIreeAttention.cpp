//===- RaiseIreeAttention.cpp - IREE's attention op as posenc.attention ---===//
//
// `iree_linalg_ext.attention` (IREE's input IR, read with
// --allow-unregistered-dialect) computes `softmax(scale * Q K^T + mask) V`
// over `[B*H, S, D]` operands. When those come from `[B, H, S, D]` tensors
// (K and V through GQA's repeat_kv) and the mask is one posenc.attention
// expresses, the op becomes a posenc.attention, which posenc-fuse-attention
// can then fuse with the RoPE of its inputs.
//
//===----------------------------------------------------------------------===//

#include "AttentionOperands.h"

#include "posenc/Raising/Match.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;
using namespace mlir::posenc;
using namespace mlir::posenc::raising;

namespace {

/// IREE's attention maps over `(batch, m, n, k1, k2)`: Q `(b, m, k1)`, K
/// `(b, k2, k1)`, V `(b, k2, n)`, the scale `()`, the mask `(b, m, k2)` and
/// the result `(b, m, n)`.
bool hasPlainMaps(Operation *op, bool masked) {
  auto maps = op->getAttrOfType<ArrayAttr>("indexing_maps");
  MLIRContext *ctx = op->getContext();
  auto map = [&](ArrayRef<unsigned> dims) {
    SmallVector<AffineExpr> results;
    for (unsigned d : dims)
      results.push_back(getAffineDimExpr(d, ctx));
    return AffineMapAttr::get(AffineMap::get(5, 0, results, ctx));
  };
  SmallVector<Attribute> want = {map({0, 1, 3}), map({0, 4, 3}), map({0, 4, 2}),
                                 map({})};
  if (masked)
    want.push_back(map({0, 1, 4}));
  want.push_back(map({0, 1, 2}));
  return maps && maps.getValue() == ArrayRef<Attribute>(want);
}

/// The mask `[B*H, Sq, Sk]` as the `[B, H, Sq, Sk]` tensor it collapses,
/// through a broadcast copy over batch or heads: the tensor read and its
/// map over the logits.
std::optional<std::pair<Value, AffineMap>> maskSource(Value mask) {
  Value m4 = collapsedFrom(mask, {{0, 1}, {2}, {3}});
  if (!m4)
    return std::nullopt;
  if (OpOperand *copy = matchCopy(m4))
    return std::make_pair(
        copy->get(),
        cast<linalg::GenericOp>(copy->getOwner()).getMatchingIndexingMap(copy));
  return std::make_pair(m4,
                        AffineMap::getMultiDimIdentityMap(4, m4.getContext()));
}

struct RaiseIreeAttention : RewritePattern {
  RaiseIreeAttention(MLIRContext *ctx, RaiseAttentionStats &stats,
                     bool zeroPaddingRows)
      : RewritePattern("iree_linalg_ext.attention", /*benefit=*/1, ctx),
        stats(stats), zeroPaddingRows(zeroPaddingRows) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    unsigned n = op->getNumOperands();
    if (op->getNumResults() != 1 || op->getNumRegions() != 1 ||
        (n != 5 && n != 6))
      return rewriter.notifyMatchFailure(op,
                                         "not (q, k, v, scale, mask?, out)");
    // Every attribute is one this pattern reads: anything else (a
    // decomposition config, lowering attributes) may change the op.
    SmallVector<NamedAttribute> attrs(op->getAttrs());
    if (auto props =
            dyn_cast_or_null<DictionaryAttr>(op->getPropertiesAsAttribute()))
      llvm::append_range(attrs, props.getValue());
    for (NamedAttribute attr : attrs)
      if (attr.getName() != "indexing_maps")
        return rewriter.notifyMatchFailure(op, "an attribute not raised");
    bool masked = n == 6;
    if (!hasPlainMaps(op, masked))
      return rewriter.notifyMatchFailure(op, "not the plain indexing maps");
    Region &region = op->getRegion(0);
    if (!region.hasOneBlock() || region.front().getNumArguments() != 1 ||
        !llvm::hasSingleElement(region.front()) ||
        region.front().back().getNumOperands() != 1 ||
        region.front().back().getOperand(0) != region.front().getArgument(0))
      return rewriter.notifyMatchFailure(op, "a score modification");

    auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    Value q = collapsedFrom(op->getOperand(0), {{0, 1}, {2}, {3}});
    std::optional<KvSource> key = kvFromBatchOperand(op->getOperand(1));
    std::optional<KvSource> value = kvFromBatchOperand(op->getOperand(2));
    std::optional<double> scale = getConstantFloat(op->getOperand(3));
    if (!resultType || !q || !key || !value || !scale || !(*scale > 0.0))
      return rewriter.notifyMatchFailure(op, "not [B*H, S, D] operands");
    // Only sequence lengths may be dynamic: Q [B, H, Sq, D], the result
    // [B*H, Sq, Dv].
    auto qType = cast<RankedTensorType>(q.getType());
    Type element = qType.getElementType();
    int64_t hq = qType.getDimSize(1);
    if (qType.isDynamicDim(0) || qType.isDynamicDim(1) ||
        qType.isDynamicDim(3) || resultType.isDynamicDim(0) ||
        resultType.isDynamicDim(2))
      return rewriter.notifyMatchFailure(op, "dynamic batch, heads or depth");
    if (key->groups != value->groups || key->numHeads() != value->numHeads() ||
        key->numHeads() * key->groups != hq ||
        getElementTypeOrSelf(key->value.getType()) != element ||
        getElementTypeOrSelf(value->value.getType()) != element ||
        resultType.getElementType() != element)
      return rewriter.notifyMatchFailure(op, "Q, K and V heads disagree");

    AttentionMatch m;
    m.q = q;
    m.key = *key;
    m.value = *value;
    m.scale = *scale;
    auto kType = cast<RankedTensorType>(op->getOperand(1).getType());
    m.space = LogitsSpace{1,
                          2,
                          3,
                          hq,
                          qType.getDimSize(2),
                          kType.getDimSize(1),
                          /*batch=*/0u,
                          qType.getDimSize(0),
                          {q, 2},
                          {key->value, key->tokenMajor ? 1u : 2u}};
    if (masked) {
      std::optional<std::pair<Value, AffineMap>> mask =
          maskSource(op->getOperand(4));
      if (!mask)
        return rewriter.notifyMatchFailure(op, "mask not [B, H, Sq, Sk]");
      auto [src, map] = *mask;
      bool ok =
          getElementTypeOrSelf(src.getType()).isInteger(1)
              ? succeeded(classifyKeepMask(src, map, m.space, m.terms))
              : succeeded(classifyMask(src, map, m.space, m.terms)) ||
                    succeeded(classifyKeyMask(src, map, m.space, m.terms));
      if (!ok)
        return rewriter.notifyMatchFailure(op,
                                           "a mask attention cannot express");
    }
    // A row whose keys are all padding is NaN in IREE's attention (-inf
    // everywhere) and 0 in posenc.attention.
    if (m.terms.keyMask && !zeroPaddingRows)
      return rewriter.notifyMatchFailure(
          op, "a padding mask (IREE's fully masked rows are NaN; see "
              "zero-padding-rows)");
    rewriter.replaceOp(op,
                       buildAttention(rewriter, op->getLoc(), resultType, m));
    stats.count(m);
    return success();
  }

  RaiseAttentionStats &stats;
  bool zeroPaddingRows;
};

} // namespace

void raising::populateRaiseIreeAttentionPatterns(RewritePatternSet &patterns,
                                                 RaiseAttentionStats &stats,
                                                 bool zeroPaddingRows) {
  patterns.add<RaiseIreeAttention>(patterns.getContext(), stats,
                                   zeroPaddingRows);
}
