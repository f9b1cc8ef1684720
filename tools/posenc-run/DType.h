//===- DType.h - Element types posenc-run moves ---------------*- C++ -*-===//
//
// The element types posenc-run can allocate, fill, read from and write to
// .npy files, and the mapping between MLIR types, .npy dtype descriptors and
// byte widths.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_TOOLS_POSENC_RUN_DTYPE_H
#define POSENC_TOOLS_POSENC_RUN_DTYPE_H

#include "mlir/IR/Types.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace mlir::posenc::run {

/// An element type of a tensor the runner owns. `index` maps to I64.
enum class DType : uint8_t { F16, BF16, F32, F64, I1, I8, I16, I32, I64 };

/// Returns the DType of an MLIR element type, or nullopt when posenc-run does
/// not support it.
std::optional<DType> getDType(mlir::Type elementType);

/// The .npy descriptor posenc-run reads and writes for `type`: `<f2`, `<u2`
/// (bf16 as raw bits), `<f4`, `<f8`, `|b1` (i1: numpy bool, one byte),
/// `|i1`, `<i2`, `<i4`, `<i8`.
llvm::StringRef getNpyDescr(DType type);

/// Size of one element in bytes.
unsigned getByteWidth(DType type);

bool isFloat(DType type);

/// One more than the largest non-negative value an integer DType holds
/// (2 for i1), 0 for floats.
uint64_t getIntegerBound(DType type);

/// IEEE half and bfloat16 conversions, round to nearest even.
uint16_t floatToHalfBits(float value);
float halfBitsToFloat(uint16_t bits);
uint16_t floatToBF16Bits(float value);
float bf16BitsToFloat(uint16_t bits);

} // namespace mlir::posenc::run

#endif // POSENC_TOOLS_POSENC_RUN_DTYPE_H
