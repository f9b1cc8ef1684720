//===- FoldFrequencies.cpp - the posenc-fold-frequencies pass -------------===//

#include "posenc/IR/PosEncOps.h"
#include "posenc/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "posenc-fold-frequencies"

namespace mlir {
namespace posenc {
#define GEN_PASS_DEF_POSENCFOLDFREQUENCIES
#include "posenc/Transforms/Passes.h.inc"
} // namespace posenc
} // namespace mlir

using namespace mlir;
using namespace mlir::posenc;

namespace {

struct FoldRopeFrequencies : OpRewritePattern<RopeFrequenciesOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(RopeFrequenciesOp op,
                                PatternRewriter &rewriter) const override {
    SmallVector<Value> folded;
    if (failed(rewriter.tryFold(op, folded))) {
      LDBG() << "left unfolded (seq_len not a non-negative constant, or more "
                "than kMaxConstantElements frequencies): "
             << op;
      return rewriter.notifyMatchFailure(op, "not foldable");
    }
    rewriter.replaceOp(op, folded);
    return success();
  }
};

bool isConstantOne(Value v) { return v && matchPattern(v, m_OneFloat()); }

/// A constant attention factor of exactly 1 is a no-op on cos/sin.
template <typename OpTy>
struct DropUnitAttentionFactor : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (!isConstantOne(op.getAttentionFactor()))
      return rewriter.notifyMatchFailure(op, "no unit attention factor");
    rewriter.modifyOpInPlace(op,
                             [&]() { op.getAttentionFactorMutable().clear(); });
    return success();
  }
};

struct PosEncFoldFrequenciesPass
    : posenc::impl::PosEncFoldFrequenciesBase<PosEncFoldFrequenciesPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateFoldFrequenciesPatterns(patterns);
    // Only our patterns: other ops are not this pass's business.
    GreedyRewriteConfig config;
    config.enableFolding(false);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      signalPassFailure();
  }
};

} // namespace

void mlir::posenc::populateFoldFrequenciesPatterns(
    RewritePatternSet &patterns) {
  patterns.add<FoldRopeFrequencies, DropUnitAttentionFactor<RotaryOp>,
               DropUnitAttentionFactor<AttentionOp>>(patterns.getContext());
}
