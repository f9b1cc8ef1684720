//===- AttentionEmitters.h - the numerics of posenc.attention ---*- C++ -*-===//
//
// What every lowering of posenc.attention computes per logit and per softmax
// row, independent of its loops: the logit rule (scale, ALiBi, causal mask),
// the safe exponential of the online softmax, a row that starts with its
// attention sink, the normalised output, the keys a block of queries can see,
// and the rotation of Q and K. The reference lowering, the CPU flash kernel,
// its decode dot-product loop and the GPU kernel all call these, so a change
// to the rule (sliding windows, soft-capping) is one edit.
//
// Emitters work on scalars and on vectors of them alike (the decode loop
// computes a vector of keys' logits at once).
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_CODEGEN_ATTENTIONEMITTERS_H
#define POSENC_CODEGEN_ATTENTIONEMITTERS_H

#include "posenc/IR/PosEncOps.h"

#include "mlir/IR/Builders.h"

#include <utility>

namespace mlir {
namespace posenc {

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

/// f32 constants: `v`, and -inf (the softmax's masked logit).
Value f32Const(OpBuilder &b, Location loc, float v);
Value f32NegInf(OpBuilder &b, Location loc);

/// `v` as a constant of `type`, f32 or a vector of f32 (a splat).
Value f32ConstLike(OpBuilder &b, Location loc, Type type, float v);

//===----------------------------------------------------------------------===//
// Logits
//===----------------------------------------------------------------------===//

/// What decides a logit beyond its score: the op's scale, whether it is
/// causal and its ALiBi form.
struct LogitRule {
  float scale;
  bool causal;
  AlibiForm alibiForm;

  static LogitRule get(AttentionOp op);

  /// Whether a logit reads the query and key positions (with ALiBi slopes
  /// when `alibi`).
  bool needsPositions(bool alibi) const { return causal || alibi; }
};

/// The logit of (query, key) pairs from their scores (f32, scalar or
/// vector): `score * scale + alibi(slope, qPos, kPos)` (with `slope`), -inf
/// for future keys when causal (`kPos > qPos`) and where `outside` (i1 of the
/// score's shape, may be null: keys past the end of a tile). `qPos` and
/// `kPos` are i64 (of the score's shape) and may be null when the rule needs
/// no positions.
Value emitAttentionLogit(OpBuilder &b, Location loc, const LogitRule &rule,
                         Value score, Value slope, Value qPos, Value kPos,
                         Value outside = Value());

//===----------------------------------------------------------------------===//
// Softmax rows
//===----------------------------------------------------------------------===//

/// `max == -inf ? 0 : exp(x - max)` (f32), so that a fully masked softmax row
/// gives 0, not NaN. `x` may be a vector with `max` a scalar (a row's keys).
Value emitSafeExp(OpBuilder &b, Location loc, Value x, Value max);

/// The state of a softmax row whose first column is its attention sink
/// (`sink`, any float scalar) and which has no value row: max = sink (f32),
/// sum = emitSafeExp(sink, sink).
std::pair<Value, Value> emitSinkStart(OpBuilder &b, Location loc, Value sink);

/// A softmax row's output entry: `acc / sum` (f32) converted to
/// `elementType`, 0 when `sum` is 0 (every key masked, no sink).
Value emitNormalizedOutput(OpBuilder &b, Location loc, Value acc, Value sum,
                           Type elementType);

//===----------------------------------------------------------------------===//
// Positions and visible keys
//===----------------------------------------------------------------------===//

/// The shift (index) of default query positions under `alignment`:
/// bottom_right puts query row i at key position i + Sk - Sq; top_left at i
/// (null).
Value emitQueryShift(OpBuilder &b, Location loc, Alignment alignment,
                     OpFoldResult queries, OpFoldResult keys);

/// Whether the keys a query sees end at its position: causal with default
/// query and key positions (a block's loop over keys can stop there).
bool hasCausalKeyBound(AttentionOp op);

/// The end of the keys that a block of `rows` queries, the first at position
/// `firstQuery`, sees under hasCausalKeyBound: `min(end, firstQuery + rows)`
/// (index).
Value emitVisibleKeyEnd(OpBuilder &b, Location loc, Value end, Value firstQuery,
                        Value rows);

//===----------------------------------------------------------------------===//
// RoPE
//===----------------------------------------------------------------------===//

/// posenc.rotary of a [B, H, S, D] slice of `op`'s Q or K by `op`'s RoPE,
/// its tokens at `positions` or, without them, at `index + offset` (`offset`
/// may be null).
Value createAttentionRotary(OpBuilder &b, Location loc, AttentionOp op, Value x,
                            Value positions, Value offset);

} // namespace posenc
} // namespace mlir

#endif // POSENC_CODEGEN_ATTENTIONEMITTERS_H
