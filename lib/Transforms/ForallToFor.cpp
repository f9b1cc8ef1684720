//===- ForallToFor.cpp - the posenc-forall-to-for pass --------------------===//
//
// scf.forall on tensors as nested scf.for loops with iter_args, for hosts
// that compile scf.for but not scf.forall (iree-compile 3.13). Upstream's
// scf-forall-to-for handles foralls without results only (MLIR 22 leaves the
// results of a tensor forall dangling and crashes in the verifier).
//
//===----------------------------------------------------------------------===//

#include "posenc/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace posenc {
#define GEN_PASS_DEF_POSENCFORALLTOFOR
#include "posenc/Transforms/Passes.h.inc"
} // namespace posenc
} // namespace mlir

using namespace mlir;

namespace {

/// Rewrites a forall with `shared_outs` whose terminator holds only
/// tensor.parallel_insert_slice ops into its shared outputs into nested
/// scf.for loops carrying the shared outputs as iter_args. Fails, changing
/// nothing, on other terminators.
LogicalResult forallToForOnTensors(RewriterBase &rewriter,
                                   scf::ForallOp forall) {
  scf::InParallelOp terminator = forall.getTerminator();
  auto shared = forall.getRegionIterArgs();
  for (Operation &op : terminator.getYieldingOps()) {
    auto insert = dyn_cast<tensor::ParallelInsertSliceOp>(op);
    if (!insert || !llvm::is_contained(shared, insert.getDest()))
      return failure();
  }

  Location loc = forall.getLoc();
  rewriter.setInsertionPoint(forall);
  SmallVector<Value> lbs = forall.getLowerBound(rewriter);
  SmallVector<Value> ubs = forall.getUpperBound(rewriter);
  SmallVector<Value> steps = forall.getStep(rewriter);

  SmallVector<scf::ForOp> loops;
  SmallVector<Value> ivs;
  ValueRange inits = forall.getOutputs();
  for (auto [lb, ub, step] : llvm::zip_equal(lbs, ubs, steps)) {
    auto loop = scf::ForOp::create(rewriter, loc, lb, ub, step, inits);
    if (!loops.empty()) {
      // The enclosing loop yields what this one returns.
      scf::YieldOp::create(rewriter, loc, loop.getResults());
    }
    loops.push_back(loop);
    ivs.push_back(loop.getInductionVar());
    inits = loop.getRegionIterArgs();
    rewriter.setInsertionPointToStart(loop.getBody());
  }

  // The forall's body runs as the innermost loop's body: its induction
  // variables are the loops', its shared outputs the innermost iter_args.
  scf::ForOp innermost = loops.back();
  SmallVector<Value> arguments(ivs);
  llvm::append_range(arguments, innermost.getRegionIterArgs());
  rewriter.mergeBlocks(forall.getBody(), innermost.getBody(), arguments);

  // Each parallel_insert_slice becomes an insert_slice into the current
  // value of its output, in the terminator's order.
  SmallVector<Value> current(innermost.getRegionIterArgs());
  rewriter.setInsertionPoint(terminator);
  for (Operation &op :
       llvm::make_early_inc_range(terminator.getYieldingOps())) {
    auto insert = cast<tensor::ParallelInsertSliceOp>(op);
    // After the merge, the destination is an iter_arg of the innermost loop
    // (block argument 0 is its induction variable).
    auto dest = cast<BlockArgument>(insert.getDest());
    Value &value = current[dest.getArgNumber() - 1];
    value = tensor::InsertSliceOp::create(
        rewriter, insert.getLoc(), insert.getSource(), value,
        insert.getMixedOffsets(), insert.getMixedSizes(),
        insert.getMixedStrides());
  }
  scf::YieldOp::create(rewriter, loc, current);
  rewriter.eraseOp(terminator);
  rewriter.replaceOp(forall, loops.front().getResults());
  return success();
}

struct PosEncForallToForPass
    : posenc::impl::PosEncForallToForBase<PosEncForallToForPass> {
  void runOnOperation() override {
    SmallVector<scf::ForallOp> foralls;
    getOperation()->walk([&](scf::ForallOp forall) {
      if (!forall.getMapping())
        foralls.push_back(forall);
    });
    IRRewriter rewriter(&getContext());
    // Post-order: inner foralls first; each rewrite moves the body of its
    // forall and leaves the other collected foralls in place.
    for (scf::ForallOp forall : foralls) {
      if (forall.getOutputs().empty()) {
        rewriter.setInsertionPoint(forall);
        if (failed(scf::forallToForLoop(rewriter, forall)))
          return signalPassFailure();
        continue;
      }
      // A terminator with other ops than parallel_insert_slice is left
      // alone.
      (void)forallToForOnTensors(rewriter, forall);
    }
  }
};

} // namespace
