//===- AttentionOperands.h - operands of a raised attention ----*- C++ -*-===//
//
// Shared by posenc-raise-attention's patterns (the decomposed chain and
// IREE's attention op): where Q, K and V come from, and the
// posenc.attention built from a checked match.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_LIB_RAISING_ATTENTIONOPERANDS_H
#define POSENC_LIB_RAISING_ATTENTIONOPERANDS_H

#include "AttentionTerms.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace mlir {
namespace posenc {
namespace raising {

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

/// The source of `collapse_shape(src)` when `reassociation` is exactly
/// `groups`.
Value collapsedFrom(Value v, ArrayRef<ReassociationIndices> groups);

/// K or V as the attention reads them: `[B, H, S, D]` through an optional
/// repeat_kv, applied on `[B, Hkv, S, D]` (HF) or before the head transpose
/// on `[B, S, Hkv, D]` (Meta's reference code).
KvSource readThroughRepeatKv(Value v4);

/// The 4-D K or V behind a batch-matmul operand `[B*H, S, D]`.
std::optional<KvSource> kvFromBatchOperand(Value v3);

/// A `linalg.batch_matmul` with its default maps into a zero-filled init.
linalg::BatchMatmulOp matchPlainBatchMatmul(Value v);

/// The key behind the transposed operand of the score matmul (`[B, H, D,
/// Sk]` collapsed): `K^T` of `[B, H, Sk, D]` (through repeat_kv), or
/// `[B, Sk, H, D]` transposed with `[0, 2, 3, 1]` (GPT-2, GPT-J, MPT).
std::optional<KvSource> matchKey(Value kT, double &scale);

/// Builds the posenc.attention of `m`, collapsed to `collapsedType`
/// (`[B*H, Sq, Dv]`).
Value buildAttention(PatternRewriter &rewriter, Location loc,
                     Type collapsedType, const AttentionMatch &m);

/// What posenc-raise-attention counts (its print-stats line).
struct RaiseAttentionStats {
  int64_t raised = 0, causal = 0, gqa = 0, windows = 0, chunks = 0,
          softcaps = 0, temperatures = 0, keyMasks = 0, scans = 0;

  /// Counts a raised `m`.
  void count(const AttentionMatch &m) {
    ++raised;
    causal += m.terms.causal;
    gqa += m.key.groups > 1;
    windows += m.terms.windowLeft.has_value();
    chunks += m.terms.chunk.has_value();
    softcaps += m.terms.softcap.has_value();
    temperatures += m.temperature.has_value();
    keyMasks += static_cast<bool>(m.terms.keyMask);
  }
};

/// Raises IREE's `iree_linalg_ext.attention` (parsed as an unregistered op)
/// when its operands and mask are ones posenc.attention expresses.
void populateRaiseIreeAttentionPatterns(RewritePatternSet &patterns,
                                        RaiseAttentionStats &stats,
                                        bool zeroPaddingRows);

} // namespace raising
} // namespace posenc
} // namespace mlir

#endif // POSENC_LIB_RAISING_ATTENTIONOPERANDS_H
