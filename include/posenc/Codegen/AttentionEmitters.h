//===- AttentionEmitters.h - the numerics of posenc.attention ---*- C++ -*-===//
//
// What every lowering of posenc.attention computes per logit and per softmax
// row, independent of its loops: the logit rule (scale, ALiBi, causal mask),
// the safe exponential of the online softmax, a row that starts with its
// attention sink, the normalised output, the keys a block of queries can see
// (and a sequence's key limit), and the rotation of Q and K. The reference
// lowering, the CPU flash kernel, its decode dot-product loop and the GPU
// kernel all call these, so a change to the rule (sliding windows, chunks,
// soft-capping) is one edit.
//
// Emitters work on scalars and on vectors of them alike (the decode loop
// computes a vector of keys' logits at once).
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_CODEGEN_ATTENTIONEMITTERS_H
#define POSENC_CODEGEN_ATTENTIONEMITTERS_H

#include "posenc/IR/PosEncOps.h"

#include "mlir/IR/Builders.h"

#include <optional>
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

/// What decides a logit beyond its score: the op's scale, its query
/// temperature and soft-cap, its ALiBi form and its positional masks
/// (causal, sliding window, chunks).
struct LogitRule {
  float scale;
  bool causal;
  AlibiForm alibiForm;
  /// The window's inclusive extents (`windowRight` only with `windowLeft`).
  std::optional<int64_t> windowLeft, windowRight;
  std::optional<int64_t> chunk;
  std::optional<float> softcap;
  /// Llama 4's temperature tuning: floor_scale, attn_scale.
  std::optional<std::pair<float, float>> temperature;

  static LogitRule get(AttentionOp op);

  /// Whether some key is masked by position (causal, window or chunk).
  bool hasPositionalMask() const { return causal || windowLeft || chunk; }

  /// Whether a logit reads the query and key positions (with ALiBi slopes
  /// when `alibi`).
  bool needsPositions(bool alibi) const {
    return hasPositionalMask() || alibi || temperature;
  }
};

/// The logit of (query, key) pairs from their scores (f32, scalar or
/// vector): `score * scale`, times the query temperature, soft-capped, plus
/// `alibi(slope, qPos, kPos)` (with `slope`); -inf for keys the positional
/// masks hide (future keys when causal, keys outside the window or the
/// query's chunk) and where `outside` (i1 of the score's shape, may be null:
/// keys past the end of a tile). `qPos` and `kPos` are i64 (of the score's
/// shape) and may be null when the rule needs no positions; a `qPos` that is
/// a vector.broadcast has its own terms computed on the scalar.
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

/// Whether the keys a block of queries sees form a range that a key loop
/// can be bounded to: a positional mask (causal, window, chunk) with default
/// query and key positions, so that key positions are key indices.
bool hasVisibleKeyRange(AttentionOp op);

/// Narrows the keys [begin, end) a block of `rows` queries, the first at
/// position `firstQuery` (index), loops over to those its positional masks
/// can let through (under hasVisibleKeyRange): past the causal bound or the
/// window's right edge, before the window's left edge or outside the chunks
/// of the block's queries. `begin` is rounded down to a multiple of `align`
/// (the loop's full key tiles stay inside the keys); the keys of the range
/// that a row must not see are still masked by the logit rule. The range
/// may be empty (begin >= end).
std::pair<Value, Value> emitVisibleKeyRange(OpBuilder &b, Location loc,
                                            const LogitRule &rule, Value begin,
                                            Value end, Value firstQuery,
                                            Value rows, int64_t align);

/// The keys [0, limit) of a sequence with `key_lengths` entry `length` (i32,
/// i64 or index): `length` clamped to [0, keys] (index; `keys` an index).
/// The lowerings mask or never visit keys at or past the limit.
Value emitKeyLimit(OpBuilder &b, Location loc, Value length, Value keys);

/// Whether `key_mask` entries `entry` (any integer type, scalar or vector)
/// hide their keys: entry == 0, as HF's `attention_mask` pads.
Value emitKeyMaskHides(OpBuilder &b, Location loc, Value entry);

/// `x or y` of i1 masks (scalars or vectors); either may be null.
Value orMasks(OpBuilder &b, Location loc, Value x, Value y);

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
