//===- UnflattenGather.h - ONNX's flattened embedding gathers ---*- C++ -*-===//
//
// Shared by posenc-raise-absolute (learned positions) and posenc-raise-rotary
// (GPT-J's sin/cos table).
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_LIB_RAISING_UNFLATTENGATHER_H
#define POSENC_LIB_RAISING_UNFLATTENGATHER_H

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace posenc {
namespace raising {

/// Where a pass reads a gathered table next: added to embeddings, or sliced
/// along its columns (cos and sin halves).
enum class GatherUse { Added, Sliced };

/// Adds the pattern reading ONNX's flattened gather `expand(gather(table,
/// collapse(P)))` as the gather over `P` where every use of it is `use`.
void populateUnflattenGatherPatterns(RewritePatternSet &patterns,
                                     GatherUse use);

} // namespace raising
} // namespace posenc
} // namespace mlir

#endif // POSENC_LIB_RAISING_UNFLATTENGATHER_H
