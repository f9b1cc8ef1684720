//===- DType.cpp - Element types posenc-run moves -------------------------===//

#include "DType.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/ErrorHandling.h"

using namespace mlir;

namespace mlir::posenc::run {

std::optional<DType> getDType(Type elementType) {
  if (elementType.isF16())
    return DType::F16;
  if (elementType.isBF16())
    return DType::BF16;
  if (elementType.isF32())
    return DType::F32;
  if (elementType.isF64())
    return DType::F64;
  // i1 is one byte per element in memory (0 or 1), as numpy's bool.
  if (elementType.isInteger(1))
    return DType::I1;
  // Signless and signed integers share the two's-complement bits numpy uses.
  if (elementType.isInteger(8) && !elementType.isUnsignedInteger())
    return DType::I8;
  if (elementType.isInteger(16) && !elementType.isUnsignedInteger())
    return DType::I16;
  if (elementType.isInteger(32) && !elementType.isUnsignedInteger())
    return DType::I32;
  if (elementType.isIndex() ||
      (elementType.isInteger(64) && !elementType.isUnsignedInteger()))
    return DType::I64;
  return std::nullopt;
}

llvm::StringRef getNpyDescr(DType type) {
  switch (type) {
  case DType::F16:
    return "<f2";
  case DType::BF16:
    return "<u2";
  case DType::F32:
    return "<f4";
  case DType::F64:
    return "<f8";
  case DType::I1:
    return "|b1";
  case DType::I8:
    return "|i1";
  case DType::I16:
    return "<i2";
  case DType::I32:
    return "<i4";
  case DType::I64:
    return "<i8";
  }
  llvm_unreachable("unknown DType");
}

unsigned getByteWidth(DType type) {
  switch (type) {
  case DType::I1:
  case DType::I8:
    return 1;
  case DType::F16:
  case DType::BF16:
  case DType::I16:
    return 2;
  case DType::F32:
  case DType::I32:
    return 4;
  case DType::F64:
  case DType::I64:
    return 8;
  }
  llvm_unreachable("unknown DType");
}

bool isFloat(DType type) {
  switch (type) {
  case DType::F16:
  case DType::BF16:
  case DType::F32:
  case DType::F64:
    return true;
  case DType::I1:
  case DType::I8:
  case DType::I16:
  case DType::I32:
  case DType::I64:
    return false;
  }
  llvm_unreachable("unknown DType");
}

uint64_t getIntegerBound(DType type) {
  switch (type) {
  case DType::I1:
    return 2;
  case DType::I8:
    return 1ull << 7;
  case DType::I16:
    return 1ull << 15;
  case DType::I32:
    return 1ull << 31;
  case DType::I64:
    return 1ull << 63;
  default:
    return 0;
  }
}

uint16_t floatToHalfBits(float value) {
  uint32_t bits = llvm::bit_cast<uint32_t>(value);
  uint32_t sign = (bits >> 16) & 0x8000u;
  uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude >= 0x7f800000u) // Inf stays Inf, NaN stays a quiet NaN.
    return sign | 0x7c00u | (magnitude > 0x7f800000u ? 0x0200u : 0u);
  if (magnitude >= 0x477ff000u) // Rounds to 65520 or more: overflows.
    return sign | 0x7c00u;
  if (magnitude < 0x38800000u) {
    // Below the smallest normal half: adding 0.5f aligns the half subnormal
    // unit (2^-24) with the float's last mantissa bit, so the FPU rounds.
    float shifted = llvm::bit_cast<float>(magnitude) + 0.5f;
    return sign | (llvm::bit_cast<uint32_t>(shifted) - 0x3f000000u);
  }
  uint32_t oddMantissa = (magnitude >> 13) & 1u;
  // Rebias the exponent (127 -> 15) and round to nearest even.
  magnitude += 0xc8000fffu + oddMantissa;
  return sign | (magnitude >> 13);
}

float halfBitsToFloat(uint16_t bits) {
  uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
  uint32_t exponent = (bits >> 10) & 0x1fu;
  uint32_t mantissa = bits & 0x3ffu;
  if (exponent == 0) {
    // Zero or subnormal: mantissa * 2^-24, exact in float.
    float magnitude = static_cast<float>(mantissa) * 0x1p-24f;
    return sign ? -magnitude : magnitude;
  }
  if (exponent == 31)
    return llvm::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
  return llvm::bit_cast<float>(sign | ((exponent + 112) << 23) |
                               (mantissa << 13));
}

uint16_t floatToBF16Bits(float value) {
  uint32_t bits = llvm::bit_cast<uint32_t>(value);
  if ((bits & 0x7fffffffu) > 0x7f800000u) // NaN: keep it quiet.
    return static_cast<uint16_t>((bits >> 16) | 0x0040u);
  bits += 0x7fffu + ((bits >> 16) & 1u);
  return static_cast<uint16_t>(bits >> 16);
}

float bf16BitsToFloat(uint16_t bits) {
  return llvm::bit_cast<float>(static_cast<uint32_t>(bits) << 16);
}

} // namespace mlir::posenc::run
