//===- StoreAlignment.h - alignment of vector stores ------------*- C++ -*-===//
//
// A streaming store needs an aligned address (vmovntps faults otherwise, so
// LLVM uses narrower stores unless it knows the alignment, and it cannot see
// through the functions OpenMP outlines). The address of a store is
// base + (offset + sum(index_d * stride_d)) * element size; this analysis
// proves a power-of-two divisor of it from `memref.assume_alignment` on the
// root buffer, view offsets and strides, and loop bounds and steps.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_LIB_TRANSFORMS_STOREALIGNMENT_H
#define POSENC_LIB_TRANSFORMS_STOREALIGNMENT_H

#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir {
namespace posenc {

/// A power-of-two alignment (bytes) of the address `store` writes; 1 when
/// nothing is known.
int64_t getStoreAlignment(vector::StoreOp store);

} // namespace posenc
} // namespace mlir

#endif // POSENC_LIB_TRANSFORMS_STOREALIGNMENT_H
