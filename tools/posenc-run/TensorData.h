//===- TensorData.h - Filling and printing tensor contents ----*- C++ -*-===//
//
// Seeded random contents for inputs the user does not supply, and a
// full-precision text form of outputs for lit tests.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_TOOLS_POSENC_RUN_TENSORDATA_H
#define POSENC_TOOLS_POSENC_RUN_TENSORDATA_H

#include "DType.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>

namespace mlir::posenc::run {

/// Fills `data` with elements of `type` from a splitmix64 stream seeded by
/// (`seed`, `stream`): floats uniform in [-1, 1) (f16/bf16 rounded toward
/// zero so the range stays half-open), integers uniform in [0, `intMax`).
void fillRandom(llvm::MutableArrayRef<char> data, DType type, uint64_t seed,
                uint64_t stream, uint64_t intMax);

/// Prints a C-order tensor as nested brackets, one innermost row per line;
/// f32/f16/bf16 with `%.9g`, f64 with `%.17g`, integers exactly.
void printTensor(llvm::raw_ostream &os, llvm::ArrayRef<char> data, DType type,
                 llvm::ArrayRef<int64_t> shape);

/// How far one tensor is from another of the same type and size.
struct TensorDifference {
  double maxAbsError = 0;
  /// The element of the largest error (C order).
  int64_t worstIndex = 0;
  double maxAbsExpected = 0;
};

/// Compares `actual` with `expected` element by element in double
/// precision; a NaN against a number is an infinite error, NaN against NaN
/// none.
TensorDifference compareTensors(llvm::ArrayRef<char> actual,
                                llvm::ArrayRef<char> expected, DType type);

} // namespace mlir::posenc::run

#endif // POSENC_TOOLS_POSENC_RUN_TENSORDATA_H
