//===- AttentionTerms.h - logit terms of decomposed attention --*- C++ -*-===//
//
// Matchers of posenc-raise-attention for what the logits of a decomposed
// attention add to or apply on the scaled scores: positional masks, ALiBi,
// scales, soft-cap, and the query temperature.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_LIB_RAISING_ATTENTIONTERMS_H
#define POSENC_LIB_RAISING_ATTENTIONTERMS_H

#include "posenc/IR/PosEncOps.h"

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"

#include <optional>

namespace mlir {
namespace posenc {
namespace raising {

struct Elementwise;

/// What the logits add to the scaled scores, and the positional mask.
struct Terms {
  bool causal = false;
  /// A sliding window `k >= q - windowLeft` (with `causal`).
  std::optional<int64_t> windowLeft;
  /// Chunked attention: keys of the query's own chunk (with `causal`).
  std::optional<int64_t> chunk;
  /// `softcap * tanh(s / softcap)` of the scaled scores.
  std::optional<double> softcap;
  AlibiOp alibi;
  /// HF's `attention_mask != 0` ([B, Sk] i1): keys hidden where false.
  Value keyMask;

  bool hasMask() const { return causal || windowLeft || chunk; }
};

/// The iteration space of the logits: `[B, H, Sq, Sk]`, or `[B*H, Sq, Sk]`
/// (scores before their expansion; B must be 1 there so that axis 0 is the
/// head).
struct LogitsSpace {
  unsigned head, row, col;
  int64_t hq, sq, sk;
  /// The batch axis (`[B, H, Sq, Sk]` logits) and its extent; none in the
  /// `[B*H, Sq, Sk]` space (B = 1 there).
  std::optional<unsigned> batch;
  int64_t b = 1;
  /// Where a dynamic Sq and Sk are read: a tensor and its dimension (the
  /// logits', or Q's and K's where no logits tensor exists).
  struct Extent {
    Value of;
    unsigned dim = 0;
  };
  Extent rows, cols;

  /// Dynamic lengths: only classifySymbolicValidity reads the masks (the
  /// other classifiers evaluate them element by element).
  bool isDynamic() const {
    return ShapedType::isDynamic(sq) || ShapedType::isDynamic(sk);
  }
};

/// Llama 4's attention temperature on the queries of a `[B, S, H, D]`
/// tensor before the head transpose: `x * t[s]` with a constant `t` of
/// `log(floor((s + 1) / f) + 1) * a + 1` at token positions `s`.
struct QueryTemperature {
  Value unscaled; // x, [B, S, H, D]
  double floorScale, attnScale;
};

/// A constant additive mask over `[Sq, Sk]` (broadcast over batch and
/// heads): all zeros (no mask) or causal with bottom-right alignment,
/// optionally windowed or chunked.
LogicalResult classifyMask(Value term, AffineMap map, const LogitsSpace &space,
                           Terms &terms);

/// `select(masked, fill, logits)` (PyTorch's masked_fill): a constant
/// boolean mask over `[Sq, Sk]` that is causal (optionally windowed or
/// chunked), and a fill that masks.
LogicalResult classifySelectMask(const Elementwise &select,
                                 const LogitsSpace &space, Terms &terms);

/// HF's padding mask: `select(mask, 0, fill)` with `mask = positional and
/// attention_mask[b, j] != 0` over `[B, 1, Sq, Sk]`, a positional part that
/// classifyMask accepts (or none) and a fill that masks. Sets
/// `terms.keyMask` to the `[B, Sk]` i1 validity.
LogicalResult classifyKeyMask(Value term, AffineMap map,
                              const LogitsSpace &space, Terms &terms);

/// A boolean mask that keeps the logits where it is true (the `i1` mask of
/// SDPA and of IREE's attention op), read through `map`: constant and
/// positional as classifyMask accepts (or all true), or HF's padding mask
/// as classifyKeyMask accepts behind its select.
LogicalResult classifyKeepMask(Value keep, AffineMap map,
                               const LogitsSpace &space, Terms &terms);

/// classifyKeyMask's mask at dynamic lengths: `valid` read symbolically
/// (SymbolicMask.cpp) must be `keys[b, j]`, optionally with `i - j >= 0`
/// (causal; Sq = Sk proven) and then `j - i + L >= 0` (window L), for every
/// length.
LogicalResult classifySymbolicValidity(Value valid, AffineMap map,
                                       const LogitsSpace &space, Terms &terms);

/// A posenc.alibi bias `[B?, H, Sq?, Sk]` read with heads on the head axis
/// and keys on the key axis, from the attention's positions.
LogicalResult classifyAlibi(Value term, AffineMap map, const LogitsSpace &space,
                            Terms &terms);

/// `x * c` or `x / c` with `c` a positive scalar constant; returns `x` and
/// multiplies `scale` by the factor.
Value peelScale(Value v, double &scale);

/// Gemma 2's soft-cap `tanh(x / c) * c` (or `tanh(x * (1/c)) * c`) with a
/// positive finite constant `c`, or a bare `tanh(x)` (c = 1: PyTorch drops
/// the division and product by 1.0): returns `x` and sets `cap`.
Value peelSoftcap(Value v, std::optional<double> &cap);

/// `transpose(x * t, [0, 2, 1, 3])` with `t` a temperature table broadcast
/// over batch, heads and channels; positions are the token indices (the
/// attention's default when Sq = Sk).
std::optional<QueryTemperature> matchQueryTemperature(Value q);

} // namespace raising
} // namespace posenc
} // namespace mlir

#endif // POSENC_LIB_RAISING_ATTENTIONTERMS_H
