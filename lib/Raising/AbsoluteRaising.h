//===- AbsoluteRaising.h - the parts of posenc-raise-absolute ---*- C++ -*-===//
//
// posenc-raise-absolute raises learned embeddings (RaiseAbsolute.cpp) and
// sinusoidal tables (SinusoidalTables.cpp); both reshape what they build to
// the shape they replace.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_LIB_RAISING_ABSOLUTERAISING_H
#define POSENC_LIB_RAISING_ABSOLUTERAISING_H

#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace mlir {
namespace posenc {
namespace raising {

/// Reshapes between shapes that differ in unit dimensions only: collapse to
/// the non-unit shape, then expand.
struct ReshapePlan {
  SmallVector<int64_t> mid;
  std::optional<SmallVector<ReassociationIndices>> collapse, expand;
};

/// The reshapes from `from` to `to`, if they differ in unit dimensions
/// only.
std::optional<ReshapePlan> planReshape(ArrayRef<int64_t> from,
                                       ArrayRef<int64_t> to);

/// `v` reshaped to `to` by `plan`.
Value applyReshape(PatternRewriter &rewriter, Location loc, Value v,
                   const ReshapePlan &plan, ArrayRef<int64_t> to);

/// Adds the patterns raising sinusoidal tables, counting them in `count`.
void populateSinusoidalPatterns(RewritePatternSet &patterns, int64_t &count);

} // namespace raising
} // namespace posenc
} // namespace mlir

#endif // POSENC_LIB_RAISING_ABSOLUTERAISING_H
