//===- StoreAlignment.cpp - alignment of vector stores --------------------===//

#include "StoreAlignment.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/bit.h"

using namespace mlir;

namespace {

/// Alignment only needs the power of two dividing a value: values are
/// represented by that exponent, capped at kZero (which stands for 0, a
/// multiple of everything). Products add exponents, sums take the minimum.
constexpr unsigned kZero = 64;

unsigned log2Of(int64_t v) {
  return v == 0 ? kZero : llvm::countr_zero(static_cast<uint64_t>(v));
}
unsigned addLog2(unsigned a, unsigned b) { return std::min(a + b, kZero); }

/// k such that 2^k divides the integer `v` (0 when unknown).
unsigned knownLog2Divisor(Value v, unsigned depth = 0) {
  if (depth > 16)
    return 0;
  APInt constant;
  if (matchPattern(v, m_ConstantInt(&constant)))
    return constant.isZero() ? kZero : constant.countr_zero();
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    Operation *owner = arg.getOwner()->getParentOp();
    auto iv = [&](Value lb, Value step) {
      return std::min(knownLog2Divisor(lb, depth + 1),
                      knownLog2Divisor(step, depth + 1));
    };
    if (auto nest = dyn_cast<omp::LoopNestOp>(owner)) {
      unsigned k = arg.getArgNumber();
      return iv(nest.getLoopLowerBounds()[k], nest.getLoopSteps()[k]);
    }
    if (auto loop = dyn_cast<scf::ForOp>(owner);
        loop && arg == loop.getInductionVar())
      return iv(loop.getLowerBound(), loop.getStep());
    if (auto loop = dyn_cast<scf::ParallelOp>(owner)) {
      unsigned k = arg.getArgNumber();
      return iv(loop.getLowerBound()[k], loop.getStep()[k]);
    }
    return 0;
  }
  Operation *def = v.getDefiningOp();
  if (!def)
    return 0;
  if (isa<arith::AddIOp, arith::SubIOp>(def))
    return std::min(knownLog2Divisor(def->getOperand(0), depth + 1),
                    knownLog2Divisor(def->getOperand(1), depth + 1));
  if (isa<arith::MulIOp>(def))
    return addLog2(knownLog2Divisor(def->getOperand(0), depth + 1),
                   knownLog2Divisor(def->getOperand(1), depth + 1));
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
          arith::ExtUIOp>(def))
    return knownLog2Divisor(def->getOperand(0), depth + 1);
  return 0;
}

/// The alignment (log2 bytes) of the start of `memref`'s buffer, and the
/// log2 divisor of its offset (elements) from there, through views of an
/// aligned root.
struct BaseAlignment {
  unsigned log2Bytes = 0;
  unsigned offsetLog2 = 0;
};

BaseAlignment getBaseAlignment(Value memref, unsigned depth = 0) {
  if (depth > 32)
    return {};
  auto type = dyn_cast<MemRefType>(memref.getType());
  Operation *def = memref.getDefiningOp();
  if (!type || !def)
    return {}; // an argument: no known alignment
  SmallVector<int64_t> strides;
  int64_t offset;
  if (auto assume = dyn_cast<memref::AssumeAlignmentOp>(def)) {
    BaseAlignment base = getBaseAlignment(assume.getMemref(), depth + 1);
    base.log2Bytes = std::max(base.log2Bytes, log2Of(assume.getAlignment()));
    if (type.getLayout().isIdentity())
      base.offsetLog2 = kZero;
    else if (succeeded(type.getStridesAndOffset(strides, offset)) &&
             !ShapedType::isDynamic(offset))
      base.offsetLog2 = log2Of(offset);
    else
      base.offsetLog2 = 0;
    return base;
  }
  if (isa<memref::ExpandShapeOp, memref::CollapseShapeOp, memref::CastOp>(def))
    return getBaseAlignment(def->getOperand(0), depth + 1);
  if (auto subview = dyn_cast<memref::SubViewOp>(def)) {
    BaseAlignment base = getBaseAlignment(subview.getSource(), depth + 1);
    if (failed(
            subview.getSource().getType().getStridesAndOffset(strides, offset)))
      return {base.log2Bytes, 0};
    for (auto [ofr, stride] :
         llvm::zip_equal(subview.getMixedOffsets(), strides)) {
      if (ShapedType::isDynamic(stride))
        return {base.log2Bytes, 0};
      unsigned k;
      if (std::optional<int64_t> c = getConstantIntValue(ofr))
        k = log2Of(*c);
      else
        k = knownLog2Divisor(cast<Value>(ofr));
      base.offsetLog2 = std::min(base.offsetLog2, addLog2(k, log2Of(stride)));
    }
    return base;
  }
  return {};
}

} // namespace

int64_t mlir::posenc::getStoreAlignment(vector::StoreOp store) {
  MemRefType type = store.getMemRefType();
  if (!type.getElementType().isIntOrFloat() ||
      type.getElementTypeBitWidth() % 8 != 0)
    return 1;
  BaseAlignment base = getBaseAlignment(store.getBase());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (base.log2Bytes == 0 || failed(type.getStridesAndOffset(strides, offset)))
    return 1;
  unsigned elements = base.offsetLog2;
  for (auto [index, stride] : llvm::zip_equal(store.getIndices(), strides)) {
    if (ShapedType::isDynamic(stride))
      return 1;
    elements =
        std::min(elements, addLog2(knownLog2Divisor(index), log2Of(stride)));
  }
  unsigned bytes = addLog2(elements, log2Of(type.getElementTypeBitWidth() / 8));
  // Alignments above 2^62 are meaningless (and would not fit the shift).
  return int64_t(1) << std::min({base.log2Bytes, bytes, 62u});
}
