//===- Emitters.h - the scalar numerics every posenc lowering emits -*- C++
//-*-//
//
// What a posenc kernel computes per element, independent of the loops around
// it: token positions, RoPE angles reduced modulo 2*pi, cos/sin, the rotation
// of a channel pair, M-RoPE axis selection, sinusoidal columns, ALiBi slopes
// and biases. Each emitter builds arith/math ops on scalars at the builder's
// insertion point (a linalg body, an scf loop, a GPU kernel), so a CPU and a
// GPU lowering emit the same numerics. Loop structure, indexing maps and
// tensors of intermediate results belong to the lowerings.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_CODEGEN_EMITTERS_H
#define POSENC_CODEGEN_EMITTERS_H

#include "posenc/IR/PosEncAttrs.h"
#include "posenc/IR/ScalingFormulas.h"

#include "mlir/IR/Builders.h"

#include <utility>

namespace mlir {
namespace posenc {

//===----------------------------------------------------------------------===//
// Scalars and positions
//===----------------------------------------------------------------------===//

/// Converts an integer or index scalar to i64 (sign-extending).
Value toI64(OpBuilder &b, Location loc, Value v);

/// Converts between float types (extf / truncf / identity).
Value castFloat(OpBuilder &b, Location loc, Value v, Type to);

/// An op's optional `offset` operand as i64; a constant 0 when absent.
Value emitOffsetOrZero(OpBuilder &b, Location loc, Value offset);

/// The i64 position of a token (posenc's one rule, docs/design.md): `source`
/// is an element of a positions tensor (i32/i64/index) or, without one, the
/// token's index; `offset` (i64, may be null) is added when given.
Value emitPosition(OpBuilder &b, Location loc, Value source, Value offset);

/// Index (as `index`) of the M-RoPE position axis that rotary pair `pair`
/// (an index) reads: chunked sections (pair block k reads axis k) or the
/// interleaved (t, h, w) lanes of Qwen3-VL.
Value emitMRopeAxis(OpBuilder &b, Location loc, Value pair,
                    ArrayRef<int64_t> sections, MRopeLayout layout);

//===----------------------------------------------------------------------===//
// Angles, cos/sin and the rotation
//===----------------------------------------------------------------------===//

/// The angle `pos * inv` (`pos` i64), reduced to [-pi, pi] as f32. `inv` is
/// f32 (the angle is one f32 product, as HF computes it) or f64 (the angle is
/// exact to ~1e-10 rad up to 2^20); either way the reduction modulo 2*pi is
/// done in f64.
Value emitReducedAngle(OpBuilder &b, Location loc, Value pos, Value inv);

/// math.sin / math.cos of an angle from emitReducedAngle, marked
/// `posenc.reduced_angle` (posenc-approximate-trig may approximate them).
Value emitReducedSin(OpBuilder &b, Location loc, Value angle);
Value emitReducedCos(OpBuilder &b, Location loc, Value angle);

/// cos and sin of `pos * inv` (times `factor`, f32, when given), as f32.
std::pair<Value, Value> emitCosSin(OpBuilder &b, Location loc, Value pos,
                                   Value inv, Value factor);

/// The rotated channel pair (f32): `(x1 * cos - x2 * sin, x2 * cos + x1 *
/// sin)`.
std::pair<Value, Value> emitRotatedPair(OpBuilder &b, Location loc, Value x1,
                                        Value x2, Value cos, Value sin);

/// Entry of a sinusoidal table (f32) at position `pos` (i64) of a column
/// with inverse frequency `inv` (f64) and kind `kind` (i32, a
/// `SinusoidalColumn` of posenc/IR/PosEncNumerics.h): sin, cos or 0.
Value emitSinusoidalEntry(OpBuilder &b, Location loc, Value pos, Value inv,
                          Value kind);

//===----------------------------------------------------------------------===//
// ALiBi
//===----------------------------------------------------------------------===//

/// f32 constant tensor of the ALiBi slopes of the `heads` heads of a shard.
Value emitAlibiSlopes(OpBuilder &b, Location loc, AlibiSlopesAttr config,
                      int64_t heads);

/// ALiBi bias of one (query, key) pair of i64 positions: `-m*|q-k|` or `m*k`
/// (f32); elementwise on vectors of them (and of f32 slopes) alike.
Value emitAlibiBias(OpBuilder &b, Location loc, Value slope, Value qPos,
                    Value kPos, AlibiForm form);

//===----------------------------------------------------------------------===//
// Scaling formulas at run time
//===----------------------------------------------------------------------===//

/// The ScalarArith of runtime scaling formulas (posenc/IR/ScalingFormulas.h):
/// an operation with a runtime operand becomes the arith/math op on f64 at
/// the builder's insertion point (constants materialized next to it);
/// operations on constants fold in fp64 as in the fold.
class ScalarArithBuilder : public ScalarArith {
public:
  ScalarArithBuilder(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  /// `scalar` as an f64 value.
  Value materialize(Scalar scalar);

protected:
  Scalar emit(Kind kind, Scalar lhs, Scalar rhs) override;

private:
  OpBuilder &b;
  Location loc;
};

} // namespace posenc
} // namespace mlir

#endif // POSENC_CODEGEN_EMITTERS_H
