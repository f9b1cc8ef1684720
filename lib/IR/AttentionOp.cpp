//===- AttentionOp.cpp - posenc.attention verification -------------------===//
//
// posenc.attention's verifier: shapes, the encoding clauses (RoPE, ALiBi,
// positions, sinks) and the positional masks and logit terms.
//
//===----------------------------------------------------------------------===//

#include "OpVerification.h"
#include "posenc/IR/PosEncOps.h"

#include <cmath>

using namespace mlir;
using namespace mlir::posenc;
using namespace mlir::posenc::detail;

double AttentionOp::getScaleOrDefault() {
  if (std::optional<APFloat> scale = getScale())
    return scale->convertToDouble();
  return 1.0 /
         std::sqrt(static_cast<double>(getQuery().getType().getShape().back()));
}

/// Ranks, element types, head counts and extents of q, k, v and the result.
static LogicalResult verifyAttentionShapes(AttentionOp op) {
  auto qType = op.getQuery().getType();
  auto kType = op.getKey().getType();
  auto vType = op.getValue().getType();
  auto outType = op.getResult().getType();
  for (auto [name, type] :
       {std::pair<StringRef, RankedTensorType>{"query", qType},
        {"key", kType},
        {"value", vType},
        {"result", outType}})
    if (type.getRank() != 4)
      return op.emitOpError()
             << name << " must have shape [B, H, S, D], got " << type;
  Type elementType = qType.getElementType();
  if (kType.getElementType() != elementType ||
      vType.getElementType() != elementType ||
      outType.getElementType() != elementType)
    return op.emitOpError("query, key, value and result must share one element "
                          "type");

  // The lowering splits the query heads into groups of Hq/Hkv when it is
  // built: without static head counts it could only fail to legalize.
  for (auto [name, type] :
       {std::pair<StringRef, RankedTensorType>{"query", qType},
        {"key", kType},
        {"value", vType},
        {"result", outType}})
    if (type.isDynamicDim(1))
      return op.emitOpError("requires static head counts (the GQA group size "
                            "Hq/Hkv is resolved at compile time), but the ")
             << name << " has a dynamic head count: " << type;

  ArrayRef<int64_t> q = qType.getShape(), k = kType.getShape(),
                    v = vType.getShape(), out = outType.getShape();
  if (staticMismatch(q[0], k[0]) || staticMismatch(q[0], v[0]) ||
      staticMismatch(q[0], out[0]))
    return op.emitOpError("batch sizes differ");
  // The key's too: RoPE rotates k's channels [0, rotary_dim) and passes the
  // rest through, which needs its width.
  if (ShapedType::isDynamic(q[3]) || ShapedType::isDynamic(k[3]) ||
      ShapedType::isDynamic(v[3]))
    return op.emitOpError("head dims must be static");
  if (staticMismatch(q[3], k[3]))
    return op.emitOpError("query head_dim (")
           << q[3] << ") differs from key head_dim (" << k[3] << ")";
  if (staticMismatch(k[1], v[1]) || staticMismatch(k[2], v[2]))
    return op.emitOpError("key and value must have the same heads and sequence "
                          "length");
  if (q[1] == 0 || k[1] == 0)
    return op.emitOpError("needs at least one query and one key/value head");
  // A query/key head dim of 0 makes every logit 0 and a value head dim of 0
  // an empty result: no model has them, and the tiled lowerings divide by
  // the head dim, so they are rejected rather than given a meaning.
  if (q[3] == 0 || v[3] == 0)
    return op.emitOpError("head dims must be > 0, got query/key head_dim ")
           << q[3] << " and value head_dim " << v[3];
  if (q[1] % k[1] != 0)
    return op.emitOpError("query heads (")
           << q[1] << ") must be a multiple of key/value heads (" << k[1]
           << ") for GQA";
  if (staticMismatch(out[1], q[1]) || staticMismatch(out[2], q[2]) ||
      staticMismatch(out[3], v[3]))
    return op.emitOpError("result must be [B, Hq, Sq, Dv] = [")
           << q[0] << ", " << q[1] << ", " << q[2] << ", " << v[3] << "], got "
           << outType;
  return success();
}

LogicalResult AttentionOp::verify() {
  if (failed(verifyAttentionShapes(*this)))
    return failure();
  ArrayRef<int64_t> q = getQuery().getType().getShape(),
                    k = getKey().getType().getShape();
  if (std::optional<APFloat> scale = getScale()) {
    double s = scale->convertToDouble();
    if (!std::isfinite(s) || s <= 0.0)
      return emitOpError("scale must be finite and > 0, got ") << s;
  }

  if (std::optional<int64_t> chunk = getChunkSize(); chunk && *chunk <= 0)
    return emitOpError("chunk_size must be > 0, got ") << *chunk;
  if (std::optional<APFloat> cap = getSoftcap()) {
    double c = cap->convertToDouble();
    if (!std::isfinite(c) || c <= 0.0)
      return emitOpError("softcap must be finite and > 0, got ") << c;
  }

  if (RopeAttr rope = getRopeAttr()) {
    if (!getInvFreq())
      return emitOpError("rope configuration needs an inv_freq operand");
    if (failed(verifyRotaryDim(*this, rope.getRotaryDim(), q[3])) ||
        failed(verifyInvFreq(*this, getInvFreq(), rope.getRotaryDim())))
      return failure();
  } else if (getInvFreq() || getAttentionFactor()) {
    return emitOpError("inv_freq and attention_factor need a rope "
                       "configuration");
  }

  if ((getAlibiAttr() || getAlibiSlopes()) &&
      failed(verifyAlibiHeads(*this, getAlibiAttr(), getAlibiSlopes(), q[1])))
    return failure();

  if (getQPositions() && failed(verifyPositions(*this, "q_positions",
                                                getQPositions(), q[0], q[2])))
    return failure();
  if (getKPositions() && failed(verifyPositions(*this, "k_positions",
                                                getKPositions(), k[0], k[2])))
    return failure();
  // One sink logit per query head; the lowering reads sinks[h] unchecked.
  if (Value sinks = getSinks()) {
    auto type = cast<RankedTensorType>(sinks.getType());
    if (type.isDynamicDim(0) || type.getDimSize(0) != q[1])
      return emitOpError("sinks must have one entry per query head (")
             << q[1] << "), got " << type;
  }
  if (getRopeOnlyPositions() &&
      (!getRopeAttr() || (!getQPositions() && !getKPositions())))
    return emitOpError("rope_only_positions needs rope and q_positions or "
                       "k_positions");
  // One length per sequence; the lowerings read key_lengths[b] unchecked.
  if (Value lengths = getKeyLengths()) {
    auto type = cast<RankedTensorType>(lengths.getType());
    if (staticMismatch(type.getDimSize(0), q[0]))
      return emitOpError("key_lengths must have one entry per sequence (")
             << q[0] << "), got " << type;
  }
  // One row per sequence, one entry per key; read unchecked like the lengths.
  if (Value mask = getKeyMask()) {
    auto type = cast<RankedTensorType>(mask.getType());
    if (staticMismatch(type.getDimSize(0), q[0]) ||
        staticMismatch(type.getDimSize(1), k[2]))
      return emitOpError("key_mask must be [batch, keys] ([")
             << q[0] << ", " << k[2] << "]), got " << type;
  }
  return success();
}
