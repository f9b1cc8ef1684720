//===- ScalingFormulas.h - formulas stated once, folded or emitted -*- C++ -*-//
//
// A RoPE scaling scheme (RopeScalingAttrInterface) states each formula once,
// in terms of ScalarArith. Folding and verification evaluate it in fp64: the
// base class computes with the C++ operators and <cmath>. The lowering of a
// runtime scheme (`needsSeqLen()`) evaluates the same code with the runtime
// sequence length as an SSA value: the operations that involve it become
// arith/math ops (posenc/Codegen/Emitters.h: ScalarArithBuilder), those on
// constants are still folded in fp64. A folded table and a runtime table
// cannot disagree on a formula, only on the libm behind `pow`.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_IR_SCALINGFORMULAS_H
#define POSENC_IR_SCALINGFORMULAS_H

#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <cassert>

namespace mlir {
namespace posenc {

/// A real number of a formula: an fp64 constant, or an f64 SSA value known
/// at run time only.
class Scalar {
public:
  Scalar(double number) : number(number) {}
  Scalar(Value value) : value(value) { assert(value && "null runtime scalar"); }

  bool isConstant() const { return !value; }
  double getConstant() const {
    assert(isConstant() && "a runtime value where a constant is required");
    return number;
  }
  Value getValue() const { return value; }

private:
  double number = 0.0;
  Value value;
};

/// fp64 arithmetic on Scalars. Constants are combined exactly as the C++
/// expression would combine them (so a formula evaluated on constants is
/// plain fp64 code, bit for bit); an operation with a runtime operand is
/// handed to `emit`, which only a subclass that builds IR implements.
class ScalarArith {
public:
  enum class Kind { Add, Sub, Mul, Div, Pow, Max };

  virtual ~ScalarArith();

  Scalar add(Scalar lhs, Scalar rhs) { return apply(Kind::Add, lhs, rhs); }
  Scalar sub(Scalar lhs, Scalar rhs) { return apply(Kind::Sub, lhs, rhs); }
  Scalar mul(Scalar lhs, Scalar rhs) { return apply(Kind::Mul, lhs, rhs); }
  Scalar div(Scalar lhs, Scalar rhs) { return apply(Kind::Div, lhs, rhs); }
  /// `std::pow(lhs, rhs)`.
  Scalar pow(Scalar lhs, Scalar rhs) { return apply(Kind::Pow, lhs, rhs); }
  /// `std::max(lhs, rhs)` (operands are never NaN).
  Scalar max(Scalar lhs, Scalar rhs) { return apply(Kind::Max, lhs, rhs); }

  /// The fp64 result of `kind` on two constants.
  static double evaluate(Kind kind, double lhs, double rhs);

protected:
  /// Builds `kind` where an operand is a runtime value. The base class has
  /// no runtime values and aborts.
  virtual Scalar emit(Kind kind, Scalar lhs, Scalar rhs);

private:
  Scalar apply(Kind kind, Scalar lhs, Scalar rhs) {
    if (lhs.isConstant() && rhs.isConstant())
      return evaluate(kind, lhs.getConstant(), rhs.getConstant());
    return emit(kind, lhs, rhs);
  }
};

/// The inverse frequency and attention factor of a runtime scheme, as the
/// results of posenc.rope_frequencies.
struct RuntimeFrequencies {
  Value invFreq;
  Value attentionFactor;
};

/// What the runtime form of a scheme (`needsSeqLen()`) is built from; the
/// lowering implements it (the linalg one in FrequenciesToArith.cpp).
/// Tables have the result's `rotary_dim/2` entries and element type.
class RuntimeFrequencyBuilder {
public:
  virtual ~RuntimeFrequencyBuilder();

  /// The arithmetic of runtime scalars: emits arith/math ops on f64.
  virtual ScalarArith &getArith() = 0;
  /// The runtime sequence length (f64).
  virtual Scalar getSeqLen() = 0;
  /// i1: the runtime sequence length exceeds `length` (compared exactly, as
  /// integers).
  virtual Value emitSeqLenExceeds(int64_t length) = 0;
  /// A table whose entry for pair i is `entry(arith, 2i)`, computed at run
  /// time with the arithmetic passed to `entry`.
  virtual Value
  buildTable(function_ref<Scalar(ScalarArith &, Scalar twoI)> entry) = 0;
  /// A constant table of fp64 `values`, rounded once; fails with a
  /// diagnostic when it is too large to materialize.
  virtual FailureOr<Value> buildConstantTable(ArrayRef<double> values) = 0;
  /// The attention factor `factor` (f32).
  virtual Value buildAttentionFactor(double factor) = 0;
  /// `condition ? onTrue : onFalse`.
  virtual Value emitSelect(Value condition, Value onTrue, Value onFalse) = 0;
};

} // namespace posenc
} // namespace mlir

#endif // POSENC_IR_SCALINGFORMULAS_H
