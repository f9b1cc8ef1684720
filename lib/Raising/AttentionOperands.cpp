//===- AttentionOperands.cpp - operands of a raised attention -------------===//
//
// Where the Q, K and V of a decomposed attention come from (head reshapes,
// GQA's repeat_kv, head transposes), and the posenc.attention built from a
// checked match.
//
//===----------------------------------------------------------------------===//

#include "AttentionOperands.h"

#include "posenc/Raising/Match.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Matchers.h"

#include <cmath>

using namespace mlir;
using namespace mlir::posenc;
using namespace mlir::posenc::raising;

/// The source of `collapse_shape(src)` when `reassociation` is exactly
/// `groups`.
Value raising::collapsedFrom(Value v, ArrayRef<ReassociationIndices> groups) {
  auto collapse = v.getDefiningOp<tensor::CollapseShapeOp>();
  if (!collapse || collapse.getReassociationIndices() !=
                       SmallVector<ReassociationIndices>(groups))
    return Value();
  return collapse.getSrc();
}

/// A copy-broadcast of a rank-4 tensor over a new axis `groupAxis` of a
/// rank-5 result (GQA's repeat_kv); returns the source.
static Value matchGroupBroadcast(Value v, unsigned groupAxis) {
  OpOperand *copy = matchCopy(v);
  if (!copy || cast<RankedTensorType>(v.getType()).getRank() != 5)
    return Value();
  MLIRContext *ctx = v.getContext();
  SmallVector<AffineExpr> kept;
  for (unsigned d = 0; d < 5; ++d)
    if (d != groupAxis)
      kept.push_back(getAffineDimExpr(d, ctx));
  auto generic = cast<linalg::GenericOp>(copy->getOwner());
  AffineMap map = generic.getMatchingIndexingMap(copy);
  if (map == AffineMap::get(5, 0, kept, ctx))
    return copy->get();
  // The same broadcast from the input expanded by a unit group axis (read
  // at 0): torch-mlir's form at dynamic lengths.
  SmallVector<AffineExpr> unitGroup(kept);
  unitGroup.insert(unitGroup.begin() + groupAxis,
                   getAffineConstantExpr(0, ctx));
  auto expand = copy->get().getDefiningOp<tensor::ExpandShapeOp>();
  if (map != AffineMap::get(5, 0, unitGroup, ctx) || !expand ||
      expand.getSrcType().getRank() != 4 ||
      expand.getResultType().getDimSize(groupAxis) != 1 ||
      stripUnitReshapes(expand.getResult()) != expand.getSrc())
    return Value();
  return expand.getSrc();
}

/// `[B, S, H, D]` K or V through an optional repeat_kv over `[B, S, Hkv, D]`
/// (Meta's reference code repeats before the head transpose).
static KvSource readTokenMajor(Value bshd) {
  if (Value src5 = collapsedFrom(bshd, {{0}, {1}, {2, 3}, {4}}))
    if (Value kv = matchGroupBroadcast(src5, 3))
      return {kv, true, cast<RankedTensorType>(src5.getType()).getDimSize(3)};
  return {bshd, true, 1};
}

/// K or V as the attention reads them: `[B, H, S, D]` through an optional
/// repeat_kv, applied on `[B, Hkv, S, D]` (HF) or before the head transpose
/// on `[B, S, Hkv, D]` (Meta's reference code).
KvSource raising::readThroughRepeatKv(Value v4) {
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
std::optional<KvSource> raising::kvFromBatchOperand(Value v3) {
  if (Value src5 = collapsedFrom(v3, {{0, 1, 2}, {3}, {4}}))
    if (Value kv = matchGroupBroadcast(src5, 2))
      return KvSource{kv, false,
                      cast<RankedTensorType>(src5.getType()).getDimSize(2)};
  if (Value v4 = collapsedFrom(v3, {{0, 1}, {2}, {3}}))
    return readThroughRepeatKv(v4);
  return std::nullopt;
}

/// `[B, Hkv, S, D]` of `kv`: its value or a head transpose of it.
static Value headMajor(PatternRewriter &rewriter, Location loc,
                       const KvSource &kv) {
  if (!kv.tokenMajor)
    return kv.value;
  auto type = cast<RankedTensorType>(kv.value.getType());
  SmallVector<OpFoldResult> sizes =
      tensor::getMixedSizes(rewriter, loc, kv.value);
  Value init = tensor::EmptyOp::create(rewriter, loc,
                                       {sizes[0], sizes[2], sizes[1], sizes[3]},
                                       type.getElementType());
  return linalg::TransposeOp::create(rewriter, loc, kv.value, init,
                                     ArrayRef<int64_t>{0, 2, 1, 3})
      ->getResult(0);
}

/// A `linalg.batch_matmul` with its default maps into a zero-filled init.
linalg::BatchMatmulOp raising::matchPlainBatchMatmul(Value v) {
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
std::optional<KvSource> raising::matchKey(Value kT, double &scale) {
  // SDPA's decomposition scales K^T by sqrt(scale).
  if (Value inner = peelScale(kT, scale))
    kT = inner;
  // ONNX's MatMul through IREE: the collapsed `[B*H, Sk, D]` keys
  // transposed, then expanded back to `[B, H, D, Sk]`.
  if (auto expand = kT.getDefiningOp<tensor::ExpandShapeOp>();
      expand && expand.getReassociationIndices() ==
                    SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}}) {
    auto t = expand.getSrc().getDefiningOp<linalg::TransposeOp>();
    if (!t || t.getPermutation() != ArrayRef<int64_t>{0, 2, 1})
      return std::nullopt;
    return kvFromBatchOperand(t.getInput());
  }
  auto transpose = kT.getDefiningOp<linalg::TransposeOp>();
  if (!transpose)
    return std::nullopt;
  if (transpose.getPermutation() == ArrayRef<int64_t>{0, 1, 3, 2})
    return readThroughRepeatKv(transpose.getInput());
  if (transpose.getPermutation() == ArrayRef<int64_t>{0, 2, 3, 1})
    return readTokenMajor(transpose.getInput());
  return std::nullopt;
}

/// The key_mask operand for the key validity `valid` ([B, Sk] i1): `x` when
/// `valid` is `x != 0` of an integer `x`, else `valid`.
static Value keyMaskOperand(Value valid) {
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

Value raising::buildAttention(PatternRewriter &rewriter, Location loc,
                              Type collapsedType, const AttentionMatch &m) {
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
      rewriter, loc, collapsedType, attention,
      SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}});
}
