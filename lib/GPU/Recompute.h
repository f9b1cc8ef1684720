//===- Recompute.h - recompute values inside a kernel -----------*- C++ -*-===//

#ifndef POSENC_LIB_GPU_RECOMPUTE_H
#define POSENC_LIB_GPU_RECOMPUTE_H

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace posenc {

/// Clones into the start of `region`'s entry block the ops above it that
/// `canRecompute` accepts and whose results it reads, transitively through
/// their operands, and makes the region use the clones. Originals left
/// without uses are erased. Kernels use it to read the function's buffers
/// and scalars only (not views, constants or scalars derived from them).
void recomputeInside(RewriterBase &rewriter, Region &region,
                     function_ref<bool(Operation *)> canRecompute);

} // namespace posenc
} // namespace mlir

#endif // POSENC_LIB_GPU_RECOMPUTE_H
