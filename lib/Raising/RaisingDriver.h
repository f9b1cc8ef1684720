//===- RaisingDriver.h - the driver of the raising passes -------*- C++ -*-===//
//
// Every raising pass applies its patterns the same way and reports the same
// kind of statistics; this is that shared body of their runOnOperation.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_LIB_RAISING_RAISINGDRIVER_H
#define POSENC_LIB_RAISING_RAISINGDRIVER_H

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace posenc {
namespace raising {

/// One number a pass prints with print-stats: `count` instances of `name`.
/// The patterns increment `count` while they run.
struct RaisingStat {
  StringRef name;
  const int64_t &count;
};

/// Applies `patterns` greedily to `root` without folding, then, when
/// `printStats`, prints `<passName>: <count> <name>, ...` to stderr (MLIR's
/// pass statistics count nothing in release builds of LLVM). Fails when the
/// greedy driver does.
LogicalResult applyRaisingPatterns(Operation *root,
                                   RewritePatternSet &&patterns,
                                   StringRef passName, bool printStats,
                                   ArrayRef<RaisingStat> stats);

/// Adds the patterns that erase what raising leaves dead and MLIR keeps: an
/// unused `tm_tensor.scan` cumsum (unregistered ops stay whatever their uses;
/// counted in `erasedScans`) and an unused generic whose only effects are
/// `cf.assert` guards the constant evaluator proves true.
void populateDeadMaskPatterns(RewritePatternSet &patterns,
                              int64_t &erasedScans);

/// A raising pattern on `OpTy` that counts what it rewrites in `count` (an
/// int64_t statistic, or a pass's struct of them).
template <typename OpTy, typename Counter = int64_t>
struct CountingPattern : OpRewritePattern<OpTy> {
  CountingPattern(MLIRContext *ctx, Counter &count)
      : OpRewritePattern<OpTy>(ctx), count(count) {}

protected:
  Counter &count;
};

} // namespace raising
} // namespace posenc
} // namespace mlir

#endif // POSENC_LIB_RAISING_RAISINGDRIVER_H
