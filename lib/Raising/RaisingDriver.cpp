//===- RaisingDriver.cpp - the driver of the raising passes ---------------===//

#include "RaisingDriver.h"

#include "posenc/Raising/Match.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::posenc;
using namespace mlir::posenc::raising;

LogicalResult raising::applyRaisingPatterns(Operation *root,
                                            RewritePatternSet &&patterns,
                                            StringRef passName, bool printStats,
                                            ArrayRef<RaisingStat> stats) {
  // No folding: a raising pass rewrites the idioms it recognizes and leaves
  // the rest of the IR as the importer wrote it.
  GreedyRewriteConfig config;
  config.enableFolding(false);
  LogicalResult result =
      applyPatternsGreedily(root, std::move(patterns), config);
  if (printStats) {
    // One write per line: functions run on several threads.
    std::string line;
    llvm::raw_string_ostream os(line);
    os << passName << ": ";
    llvm::interleaveComma(stats, os, [&](const RaisingStat &stat) {
      os << stat.count << " " << stat.name;
    });
    os << "\n";
    llvm::errs() << line;
  }
  return result;
}

namespace {
/// A `tm_tensor.scan` cumulative sum without users: MLIR keeps unregistered
/// ops whatever their uses; this one only computes its results.
struct EraseDeadCumsum : RewritePattern {
  EraseDeadCumsum(MLIRContext *ctx, int64_t &count)
      : RewritePattern("tm_tensor.scan", /*benefit=*/1, ctx), count(count) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!op->use_empty() || !matchCumsumScan(op))
      return failure();
    rewriter.eraseOp(op);
    ++count;
    return success();
  }

  int64_t &count;
};

/// A generic without users whose only effects are `cf.assert` guards, which
/// the evaluator checks at every point (MPT's nonzero check before the
/// reciprocal of its slope powers): no guard can fail, so it goes like any
/// dead pure op.
struct EraseDeadCheckedGeneric : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp generic,
                                PatternRewriter &rewriter) const override {
    if (!generic->use_empty() || generic.getNumResults() == 0 ||
        !generic.hasPureTensorSemantics())
      return failure();
    bool guarded = false;
    for (Operation &op : generic.getBody()->without_terminator()) {
      if (isa<cf::AssertOp>(op))
        guarded = true;
      else if (!isPure(&op))
        return failure();
    }
    if (!guarded || !evaluateConstantTensor(generic.getResult(0)))
      return failure();
    rewriter.eraseOp(generic);
    return success();
  }
};
} // namespace

void raising::populateDeadMaskPatterns(RewritePatternSet &patterns,
                                       int64_t &erasedScans) {
  patterns.add<EraseDeadCumsum>(patterns.getContext(), erasedScans);
  patterns.add<EraseDeadCheckedGeneric>(patterns.getContext());
}
