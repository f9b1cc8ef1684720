//===- ForallToWorkgroups.cpp - the posenc-forall-to-workgroups pass ------===//
//
// A kernel's parallel loop as the iterations of a host's workgroups: each
// workgroup runs a range of whole slices of the linearized forall, or the
// iterations id, id + count, ... of it.
//
//===----------------------------------------------------------------------===//

#include "WorkgroupKernel.h"

#include "posenc/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir {
namespace posenc {
#define GEN_PASS_DEF_POSENCFORALLTOWORKGROUPS
#include "posenc/Transforms/Passes.h.inc"
} // namespace posenc
} // namespace mlir

using namespace mlir;
using namespace mlir::posenc;

namespace {

/// Replaces `forall` (on buffers) by a loop over the linearized iterations
/// of workgroup `id` of `count`. Returns the static iteration count, or 0.
int64_t distribute(RewriterBase &rewriter, scf::ForallOp forall, Value id,
                   Value count) {
  Location loc = forall.getLoc();
  rewriter.setInsertionPoint(forall);
  SmallVector<Value> lbs = forall.getLowerBound(rewriter);
  SmallVector<Value> ubs = forall.getUpperBound(rewriter);
  SmallVector<Value> steps = forall.getStep(rewriter);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value units = one;
  SmallVector<OpFoldResult> basis;
  for (auto [lb, ub, step] : llvm::zip_equal(lbs, ubs, steps)) {
    // ceil((ub - lb) / step) for positive steps; empty ranges run nothing.
    Value extent = rewriter.createOrFold<arith::SubIOp>(loc, ub, lb);
    Value bumped = rewriter.createOrFold<arith::AddIOp>(
        loc, extent, rewriter.createOrFold<arith::SubIOp>(loc, step, one));
    Value trips = rewriter.createOrFold<arith::MaxSIOp>(
        loc, rewriter.createOrFold<arith::DivSIOp>(loc, bumped, step),
        arith::ConstantIndexOp::create(rewriter, loc, 0));
    units = rewriter.createOrFold<arith::MulIOp>(loc, units, trips);
    basis.push_back(getAsOpFoldResult(trips));
  }
  // Two ways to share the iterations, chosen at run time. When the count
  // divides the leading dimensions (all but the last: the flash nest's
  // batch x kv head, its unit dimensions folded away), each workgroup takes
  // a contiguous range of whole slices, last dimension fastest: equal work,
  // and consecutive iterations read the same keys and values (cache reuse).
  // Otherwise iterations id, id + count, ... with the first dimension
  // fastest: consecutive iterations (those the workgroups run side by side)
  // share the last dimension, so a workgroup's stride sweeps it, and with
  // the nest's query blocks every workgroup gets light and heavy (causal)
  // blocks alike.
  Value outer = one;
  for (size_t i = 0; i + 1 < basis.size(); ++i)
    outer = rewriter.createOrFold<arith::MulIOp>(
        loc, outer, getValueOrCreateConstantIndexOp(rewriter, loc, basis[i]));
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value blocked = arith::CmpIOp::create(
      rewriter, loc, arith::CmpIPredicate::eq,
      rewriter.createOrFold<arith::RemUIOp>(loc, outer, count), zero);
  Value perGroup = rewriter.createOrFold<arith::DivUIOp>(loc, units, count);
  Value begin = rewriter.createOrFold<arith::MulIOp>(loc, id, perGroup);
  auto loop = scf::ForOp::create(
      rewriter, loc, arith::SelectOp::create(rewriter, loc, blocked, begin, id),
      arith::SelectOp::create(
          rewriter, loc, blocked,
          rewriter.createOrFold<arith::AddIOp>(loc, begin, perGroup), units),
      arith::SelectOp::create(rewriter, loc, blocked, one, count));
  rewriter.setInsertionPointToStart(loop.getBody());
  Value iv = loop.getInductionVar();
  SmallVector<Value> lastFastest(
      affine::AffineDelinearizeIndexOp::create(rewriter, loc, iv, basis,
                                               /*hasOuterBound=*/true)
          .getResults());
  std::reverse(basis.begin(), basis.end());
  SmallVector<Value> indices(
      affine::AffineDelinearizeIndexOp::create(rewriter, loc, iv, basis,
                                               /*hasOuterBound=*/true)
          .getResults());
  std::reverse(indices.begin(), indices.end());
  for (auto [index, other] : llvm::zip_equal(indices, lastFastest))
    index = arith::SelectOp::create(rewriter, loc, blocked, other, index);
  SmallVector<Value> ivs;
  for (auto [index, lb, step] : llvm::zip_equal(indices, lbs, steps))
    ivs.push_back(rewriter.createOrFold<arith::AddIOp>(
        loc, lb, rewriter.createOrFold<arith::MulIOp>(loc, index, step)));
  Operation *terminator = forall.getBody()->getTerminator();
  rewriter.inlineBlockBefore(forall.getBody(), loop.getBody()->getTerminator(),
                             ivs);
  rewriter.eraseOp(terminator);
  rewriter.eraseOp(forall);
  std::optional<int64_t> staticUnits = getConstantIntValue(units);
  return staticUnits ? *staticUnits : 0;
}

/// Moves the body of `func` (but its terminator, which must return nothing)
/// under `scf.if id == 0`.
LogicalResult runOnFirstWorkgroup(RewriterBase &rewriter,
                                  FunctionOpInterface func, Value id) {
  Block &body = func.getFunctionBody().front();
  Operation *terminator = body.getTerminator();
  if (terminator->getNumOperands() != 0)
    return func.emitError("returns values: a kernel without a parallel loop "
                          "can run as workgroup 0 only if it returns nothing");
  rewriter.setInsertionPointToStart(&body);
  Location loc = func.getLoc();
  Value first =
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, id,
                            arith::ConstantIndexOp::create(rewriter, loc, 0));
  auto onFirst =
      scf::IfOp::create(rewriter, loc, first, /*withElseRegion=*/false);
  Block *then = onFirst.thenBlock();
  for (Operation &op : llvm::make_early_inc_range(llvm::make_range(
           std::next(onFirst->getIterator()), terminator->getIterator())))
    rewriter.moveOpBefore(&op, then->getTerminator());
  return success();
}

/// Phase 0 runs `distributed` (the parallel loop), phase 1 what follows it
/// on workgroup 0; what precedes it (private work) runs in both.
LogicalResult splitPhases(RewriterBase &rewriter, FunctionOpInterface func,
                          scf::ForallOp distributed, Value id, Value phase) {
  Block &body = func.getFunctionBody().front();
  Operation *terminator = body.getTerminator();
  if (terminator->getNumOperands() != 0)
    return func.emitError("returns values: a kernel in two phases must "
                          "return nothing");
  SmallVector<Operation *> after;
  for (Operation *op = distributed->getNextNode(); op != terminator;
       op = op->getNextNode())
    after.push_back(op);
  Location loc = distributed.getLoc();
  rewriter.setInsertionPoint(distributed);
  auto isPhase = [&](int64_t value) -> Value {
    return arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, phase,
        arith::ConstantIndexOp::create(rewriter, loc, value));
  };
  auto parallel =
      scf::IfOp::create(rewriter, loc, isPhase(0), /*withElseRegion=*/false);
  rewriter.moveOpBefore(distributed, parallel.thenBlock()->getTerminator());
  rewriter.setInsertionPoint(terminator);
  Value onFirst =
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, id,
                            arith::ConstantIndexOp::create(rewriter, loc, 0));
  auto combine = scf::IfOp::create(
      rewriter, loc, arith::AndIOp::create(rewriter, loc, isPhase(1), onFirst),
      /*withElseRegion=*/false);
  for (Operation *op : after)
    rewriter.moveOpBefore(op, combine.thenBlock()->getTerminator());
  func->setAttr(kWorkgroupPhasesAttr, rewriter.getI64IntegerAttr(2));
  return success();
}

struct PosEncForallToWorkgroupsPass
    : posenc::impl::PosEncForallToWorkgroupsBase<PosEncForallToWorkgroupsPass> {
  void runOnOperation() override {
    FunctionOpInterface func = getOperation();
    BlockArgument id = getMarkedArgument(func, kWorkgroupIdAttr);
    BlockArgument count = getMarkedArgument(func, kWorkgroupCountAttr);
    if (!id && !count)
      return;
    if (!id || !count || !id.getType().isIndex() ||
        !count.getType().isIndex()) {
      func.emitError() << "needs an index argument marked `" << kWorkgroupIdAttr
                       << "` and one marked `" << kWorkgroupCountAttr << "`";
      return signalPassFailure();
    }

    Value scratch = getMarkedArgument(func, kScratchAttr);
    // The foralls not nested in another: the one that writes arguments is
    // distributed, the others run whole in every workgroup.
    SmallVector<scf::ForallOp> shared, local;
    WalkResult onTensors = func.getFunctionBody().walk<WalkOrder::PreOrder>(
        [&](scf::ForallOp forall) {
          if (!forall.getOutputs().empty()) {
            forall.emitOpError("on tensors: posenc-forall-to-workgroups "
                               "runs after bufferization");
            return WalkResult::interrupt();
          }
          (findSharedWrite(forall, scratch) ? shared : local).push_back(forall);
          return WalkResult::skip();
        });
    if (onTensors.wasInterrupted())
      return signalPassFailure();
    IRRewriter rewriter(&getContext());
    if (shared.empty() && findSharedWrite(func, scratch)) {
      // A kernel too small for a parallel loop is one iteration: workgroup
      // 0 runs it.
      if (failed(runOnFirstWorkgroup(rewriter, func, id)))
        return signalPassFailure();
      for (scf::ForallOp forall : local) {
        rewriter.setInsertionPoint(forall);
        if (failed(scf::forallToForLoop(rewriter, forall)))
          return signalPassFailure();
      }
      func->setAttr(kWorkgroupUnitsAttr, rewriter.getI64IntegerAttr(1));
      return;
    }
    if (shared.size() != 1) {
      InFlightDiagnostic diag = func.emitError()
                                << "needs exactly one top-level scf.forall "
                                   "that writes the kernel's arguments, found "
                                << shared.size();
      for (scf::ForallOp forall : shared)
        diag.attachNote(forall.getLoc()) << "this one";
      return signalPassFailure();
    }
    scf::ForallOp distributed = shared.front();
    if (distributed->getBlock() != &func.getFunctionBody().front()) {
      distributed.emitOpError("must be in the kernel's entry block to run as "
                              "workgroups");
      return signalPassFailure();
    }
    // Writes after the loop only, with a phase argument: a kernel in two
    // phases (the combine of split decode keys reads what every workgroup
    // wrote), dispatched twice.
    BlockArgument phase = getMarkedArgument(func, kWorkgroupPhaseAttr);
    Operation *race = findSharedWrite(func, scratch, distributed);
    bool twoPhases = race && phase && phase.getType().isIndex();
    for (Operation *op = distributed->getPrevNode(); twoPhases && op;
         op = op->getPrevNode())
      if (Operation *before = findSharedWrite(op, scratch)) {
        race = before;
        twoPhases = false;
      }
    if (race && !twoPhases) {
      InFlightDiagnostic diag = race->emitOpError(
          "writes the kernel's arguments (or memory it does not allocate) "
          "outside the scf.forall that becomes the workgroups: every "
          "workgroup would run it");
      if (!phase &&
          distributed->isBeforeInBlock(
              func.getFunctionBody().front().findAncestorOpInBlock(*race)))
        diag << " (after it: an index argument marked `" << kWorkgroupPhaseAttr
             << "` runs it as a second phase)";
      return signalPassFailure();
    }
    if (twoPhases &&
        failed(splitPhases(rewriter, func, distributed, id, phase)))
      return signalPassFailure();

    for (scf::ForallOp forall : local) {
      rewriter.setInsertionPoint(forall);
      if (failed(scf::forallToForLoop(rewriter, forall)))
        return signalPassFailure();
    }
    if (int64_t units = distribute(rewriter, distributed, id, count))
      func->setAttr(kWorkgroupUnitsAttr, rewriter.getI64IntegerAttr(units));
  }
};

} // namespace
