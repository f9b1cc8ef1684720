//===- AttentionSoftmax.h - the softmax of decomposed attention -*- C++ -*-===//
//
// Matchers of posenc-raise-attention that read attention probabilities
// `[B, H, Sq, Sk]` back to the logits they are the last-axis softmax of.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_LIB_RAISING_ATTENTIONSOFTMAX_H
#define POSENC_LIB_RAISING_ATTENTIONSOFTMAX_H

#include "mlir/IR/Value.h"

namespace mlir {
namespace posenc {
namespace raising {

/// `softmax(x)` over the last axis: max, subtract, exp, sum, divide.
Value matchSoftmax(Value p);

/// gpt-oss's attention sinks: `softmax(concat(logits, sink)[..., :Sk])`
/// where the sink column broadcasts `sinks[h]` over batch and queries (HF
/// subtracts the row max first, which softmax cancels). Returns the logits
/// and sets `sinks` to the `[Hq]` tensor.
Value matchSinkSoftmax(Value probs, Value &sinks);

/// SDPA's decomposition zeroes the probabilities of fully masked rows:
/// `select(rowAll(logits == -inf), 0, p)` (sets `logitsOut` to the logits
/// compared), or, as ONNX exports it, `select(isnan(p), 0, p)` (leaves
/// `logitsOut` null): softmax gives NaN exactly on the fully masked rows
/// for finite logits. posenc.attention gives those rows 0 already; returns
/// `p`.
Value stripMaskedRowGuard(Value v, Value &logitsOut);

} // namespace raising
} // namespace posenc
} // namespace mlir

#endif // POSENC_LIB_RAISING_ATTENTIONSOFTMAX_H
