//===- ApproximateTrig.cpp - the posenc-approximate-trig pass -------------===//

#include "posenc/IR/PosEncDialect.h"
#include "posenc/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "posenc-approximate-trig"

namespace mlir {
namespace posenc {
#define GEN_PASS_DEF_POSENCAPPROXIMATETRIG
#include "posenc/Transforms/Passes.h.inc"
} // namespace posenc
} // namespace mlir

using namespace mlir;

namespace {

struct PosEncApproximateTrigPass
    : posenc::impl::PosEncApproximateTrigBase<PosEncApproximateTrigPass> {
  using Base::Base;

  void runOnOperation() override {
    // Only angles the posenc lowering reduced to [-pi, pi], unless asked for
    // every op: the polynomial's own range reduction loses accuracy on large
    // arguments (1e-5 absolute at |x| ~ 2000).
    auto reduced = posenc::PosEncDialect::ReducedAngleAttrHelper(&getContext());
    auto softcap = posenc::PosEncDialect::SoftcapTanhAttrHelper(&getContext());
    SmallVector<Operation *> targets;
    getOperation()->walk([&](Operation *op) {
      if ((exp && isa<math::ExpOp>(op)) ||
          (tanh && isa<math::TanhOp>(op) && softcap.isAttrPresent(op))) {
        targets.push_back(op);
        return;
      }
      if (!trig || !isa<math::SinOp, math::CosOp>(op))
        return;
      if (all || reduced.isAttrPresent(op))
        targets.push_back(op);
      else
        LDBG() << "left exact (angle not reduced to [-pi, pi]): " << *op;
    });
    LDBG() << targets.size() << " sin/cos/exp/tanh to approximate (f32 only)";
    if (targets.empty())
      return;
    RewritePatternSet patterns(&getContext());
    // Upstream's patterns match f32 (and vectors of it) only.
    populateMathPolynomialApproximationPatterns(patterns, [](StringRef name) {
      return name == math::SinOp::getOperationName() ||
             name == math::CosOp::getOperationName() ||
             name == math::ExpOp::getOperationName() ||
             name == math::TanhOp::getOperationName();
    });
    (void)applyOpPatternsGreedily(targets, std::move(patterns));
  }
};

} // namespace
