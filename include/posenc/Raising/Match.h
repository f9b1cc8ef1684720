//===- Match.h - matchers over importer-style linalg IR ---------*- C++ -*-===//
//
// Importers emit one all-parallel linalg.generic per elementwise operation,
// with broadcasts in the indexing maps and unit dimensions added and removed
// by reshapes. These helpers let a raising pattern read such IR as the
// expression it computes.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_RAISING_MATCH_H
#define POSENC_RAISING_MATCH_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Value.h"

#include <optional>

namespace mlir {
namespace posenc {
namespace raising {

/// An all-parallel `linalg.generic` with one result, written through an
/// identity map, whose body is a single operation (then `linalg.yield` of
/// its result) on input elements and on scalars: defined above, or computed
/// in the body from values defined above only (a cast of a constant).
struct Elementwise {
  mutable linalg::GenericOp generic;
  Operation *body = nullptr;

  unsigned getNumOperands() const { return body->getNumOperands(); }
  /// The input tensor that body operand `i` reads, or null when operand `i`
  /// is a scalar defined above the generic.
  OpOperand *getInput(unsigned i) const;
  /// The scalar body operand `i` (defined above the generic or in its
  /// scalar prologue; use `getConstantFloat` to read a constant one).
  Value getScalar(unsigned i) const;
  /// Body operand `i` when it is a float constant: a scalar, or an input
  /// tensor whose elements are all that constant (IREE passes ONNX's
  /// scalars as rank-0 tensors).
  std::optional<double> getConstantFloatOperand(unsigned i) const;
  /// The indexing map of the input of body operand `i`.
  AffineMap getMap(unsigned i) const;
  /// True when body operand `i` reads an input of the result's shape through
  /// the identity map (element types may differ: casts).
  bool isIdentityInput(unsigned i) const;
};

/// `v` as an elementwise generic, if it is one.
std::optional<Elementwise> matchElementwise(Value v);

/// `v` as an all-parallel generic that copies its one input to its one
/// result (written through the identity map): a broadcast or permutation.
/// Returns the input operand (its map says how it is read), or null.
OpOperand *matchCopy(Value v);

/// `v` as an elementwise generic whose body op is an `OpTy`.
template <typename OpTy> std::optional<Elementwise> matchElementwise(Value v) {
  std::optional<Elementwise> e = matchElementwise(v);
  if (!e || !isa<OpTy>(e->body))
    return std::nullopt;
  return e;
}

/// Looks through `tensor.expand_shape` / `tensor.collapse_shape` that only
/// add or remove dimensions of size 1.
Value stripUnitReshapes(Value v);

/// The static shape of `v` without its unit dimensions.
SmallVector<int64_t> nonUnitShape(Value v);

/// The value of a scalar float constant (through truncf to f32 and extf), or
/// of a splat float tensor constant.
std::optional<double> getConstantFloat(Value v);

/// Whether `size` is dimension `dim` of `shaped`: the same constant, or a
/// dynamic size that the IR proves equal (ValueBoundsOpInterface: through
/// `tensor.empty`, destinations, slices, reshapes; posenc-unify-dynamic-dims
/// makes the equal sizes of importer IR one value first).
bool isDimSize(OpFoldResult size, Value shaped, int64_t dim);

/// Whether dimension `a` of `x` and dimension `b` of `y` are provably equal
/// (static, or dynamic and proven as isDimSize does).
bool haveSameDim(Value x, int64_t a, Value y, int64_t b);

/// A `tensor.extract_slice` with a constant last-dimension offset and unit
/// strides that only slices the last dimension (every other dimension
/// whole, static or provably): `source[..., offset:offset+size]`. `size` is
/// ShapedType::kDynamic unless constant; `mixedSize` is the size either way.
struct LastDimSlice {
  Value source;
  int64_t offset;
  int64_t size;
  OpFoldResult mixedSize;
};
std::optional<LastDimSlice> matchLastDimSlice(Value v);

/// `v` is a `tensor.concat` along its last dimension; returns the pieces.
std::optional<SmallVector<Value>> matchLastDimConcat(Value v);

/// True when `v` is `-x` (negf, or a multiply by the constant -1) of `x`,
/// returned through `x`.
bool matchNegate(Value v, Value &x);

/// A row gather's shape (an embedding lookup, rows of cos/sin tables): an
/// all-parallel `linalg.generic` of one input and one output (written
/// through an identity map) whose body yields `tensor.extract %table[row,
/// linalg.index last]` of a table defined outside it. The row index (its
/// extract index 0) and the body's other ops are the caller's to match.
struct TableExtract {
  linalg::GenericOp generic;
  tensor::ExtractOp extract;
  linalg::IndexOp column;
  Value table;
};
std::optional<TableExtract> matchTableExtract(Value v);

/// The non-unit results of an indexing map over the operand `operandType`:
/// the iteration dimension each non-unit operand dimension reads, or
/// std::nullopt if some non-unit dimension is not read through a plain
/// iteration dimension.
std::optional<SmallVector<unsigned>> nonUnitDims(AffineMap map,
                                                 ShapedType operandType);

/// Integer positions `0 + offset, 1 + offset, ...` along the last dimension,
/// every other dimension of size 1: a constant or an index-based generic.
std::optional<int64_t> matchArange(Value v);

/// The elements of a statically shaped tensor that the IR computes from
/// constants alone (constants, fills, reshapes, cumsum scans, all-parallel
/// generics of index and scalar arithmetic, gathers (`tensor.extract` of such
/// a tensor in a generic's body) and integer reductions: how importers build
/// masks, position tables and ALiBi slopes), in row-major order, as doubles
/// (integers exactly up to 2^53, i1 as 0/1; float results rounded to their
/// type at each step); nullopt when it depends on anything else or has more
/// than `maxElements` elements.
std::optional<SmallVector<double>>
evaluateConstantTensor(Value v, int64_t maxElements = int64_t(1) << 24);

/// A boolean tensor computed from constants and one `[B, Sk]` i1 tensor that
/// is not (`keys`: HF's `attention_mask != 0`): each element is false, true
/// or one element of `keys`.
struct KeyMaskedTensor {
  Value keys;
  /// Row-major: 0 (false), 1 (true) or `kKeyLiteral + k` for element k
  /// (row-major) of `keys`.
  SmallVector<double> values;
  static constexpr double kKeyLiteral = 2.0;
};

/// Evaluates the i1 tensor `v` as evaluateConstantTensor does, taking the
/// first `[B, Sk]` i1 tensor it cannot evaluate as the symbol `keys`. An
/// element of `keys` may only pass through gathers, reshapes and broadcasts,
/// `andi`/`ori` with constants or itself and selects on constant
/// conditions; anything else computed from it fails, so every result is
/// exact for every value of `keys`.
std::optional<KeyMaskedTensor>
evaluateKeyMaskedTensor(Value v, int64_t maxElements = int64_t(1) << 24);

/// torch-mlir's `tm_tensor.scan` computing a cumulative sum: ins(input)
/// outs(output, accumulator), a region that adds its two arguments. posenc
/// does not register TMTensor, so the op is read by name (from generic form,
/// with --allow-unregistered-dialect): importers emit it for `cumsum`, e.g.
/// BLOOM's ALiBi positions `cumsum(attention_mask) - 1` on a constant mask.
/// It reads and writes nothing but its tensors, which MLIR cannot know of an
/// unregistered op.
struct CumsumScan {
  Value input;
  Value accumulator; // the first element of an exclusive scan
  int64_t dimension;
  bool inclusive;
};
std::optional<CumsumScan> matchCumsumScan(Operation *op);

/// Whether posenc's ops take `type` as their element type (f32, f16, bf16:
/// PosEnc_FloatElement). Raising must not build ops that do not verify.
inline bool isPosEncFloat(Type type) {
  return isa<Float32Type, Float16Type, BFloat16Type>(type);
}

} // namespace raising
} // namespace posenc
} // namespace mlir

#endif // POSENC_RAISING_MATCH_H
