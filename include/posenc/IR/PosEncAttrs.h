//===- PosEncAttrs.h - posenc attributes ------------------------*- C++ -*-===//

#ifndef POSENC_IR_POSENCATTRS_H
#define POSENC_IR_POSENCATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/bit.h"

#include "posenc/IR/ScalingFormulas.h"

#include <optional>
#include <string>
#include <utility>

#include "posenc/IR/PosEncEnums.h.inc"

#include "posenc/IR/PosEncInterfaces.h.inc"

namespace mlir {
namespace posenc {
/// A double usable as an attribute parameter: hashable and compared bitwise,
/// so that uniquing is exact. Converts implicitly to and from double.
class Real {
public:
  Real() = default;
  Real(double value) : value(value) {}
  operator double() const { return value; }
  bool operator==(const Real &other) const {
    return llvm::bit_cast<uint64_t>(value) ==
           llvm::bit_cast<uint64_t>(other.value);
  }

private:
  double value = 0.0;
};

inline llvm::hash_code hash_value(Real real) {
  return llvm::hash_value(llvm::bit_cast<uint64_t>(static_cast<double>(real)));
}

/// RoPE rotates pairs of channels: a rotary dimension must be positive and
/// even. The one check of every op and attribute that carries one
/// (posenc.rotary, posenc.rope_frequencies, posenc.attention, #posenc.rope).
LogicalResult checkRotaryDim(function_ref<InFlightDiagnostic()> emitError,
                             int64_t rotaryDim);

/// Parses `true` or `false` (attribute parameters of kind bool).
FailureOr<bool> parseBoolKeyword(AsmParser &parser);
/// Parses `[r0, r1, ...]` and prints it back.
FailureOr<SmallVector<Real>> parseRealArray(AsmParser &parser);
void printRealArray(AsmPrinter &printer, ArrayRef<Real> values);
} // namespace posenc

// Real parameters are float literals; MLIR ships integer and attribute field
// parsers only.
template <> struct FieldParser<posenc::Real> {
  static FailureOr<posenc::Real> parse(AsmParser &parser) {
    double value;
    if (parser.parseFloat(value))
      return failure();
    return posenc::Real(value);
  }
};
template <> struct FieldParser<std::optional<posenc::Real>> {
  static FailureOr<std::optional<posenc::Real>> parse(AsmParser &parser) {
    FailureOr<posenc::Real> value = FieldParser<posenc::Real>::parse(parser);
    if (failed(value))
      return failure();
    return std::optional<posenc::Real>(*value);
  }
};
} // namespace mlir

#define GET_ATTRDEF_CLASSES
#include "posenc/IR/PosEncAttrs.h.inc"

#endif // POSENC_IR_POSENCATTRS_H
