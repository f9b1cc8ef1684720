//===- GPULaunchToLoops.cpp - the posenc-gpu-launch-to-loops pass ---------===//

#include "posenc/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir {
namespace posenc {
#define GEN_PASS_DEF_POSENCGPULAUNCHTOLOOPS
#include "posenc/GPU/Passes.h.inc"
} // namespace posenc
} // namespace mlir

using namespace mlir;
using namespace mlir::posenc;

namespace {

/// Whether threads of `launch` may run one after another: they share no
/// memory and do not wait for each other.
LogicalResult checkSequentialThreads(gpu::LaunchOp launch) {
  if (launch.getAsyncToken() || !launch.getAsyncDependencies().empty())
    return launch.emitError("cannot run an async gpu.launch as host loops");
  if (launch.hasClusterSize() || launch.getDynamicSharedMemorySize() ||
      !launch.getWorkgroupAttributions().empty() ||
      !launch.getPrivateAttributions().empty())
    return launch.emitError("cannot run a gpu.launch with clusters or "
                            "attributed memory as host loops");
  if (!launch.getBody().hasOneBlock())
    return launch.emitError("cannot run a gpu.launch with several blocks as "
                            "host loops");
  WalkResult barrier = launch.getBody().walk([](gpu::BarrierOp barrier) {
    barrier.emitError("cannot run threads that synchronize as host loops");
    return WalkResult::interrupt();
  });
  return failure(barrier.wasInterrupted());
}

LogicalResult lowerLaunch(RewriterBase &rewriter, gpu::LaunchOp launch) {
  if (failed(checkSequentialThreads(launch)))
    return failure();
  Location loc = launch.getLoc();
  rewriter.setInsertionPoint(launch);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  // Loops z, y, x of the grid, then of the block: x fastest, as threads are
  // numbered.
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
  SmallVector<Value> ubs = {grid.z, grid.y, grid.x, block.z, block.y, block.x};
  scf::LoopNest nest =
      scf::buildLoopNest(rewriter, loc, SmallVector<Value>(6, zero), ubs,
                         SmallVector<Value>(6, one));
  SmallVector<Value> ids;
  for (scf::ForOp loop : nest.loops)
    ids.push_back(loop.getInductionVar());
  // The body's arguments: block ids, thread ids, grid sizes, block sizes.
  SmallVector<Value> arguments = {ids[2], ids[1],  ids[0],  ids[5],
                                  ids[4], ids[3],  grid.x,  grid.y,
                                  grid.z, block.x, block.y, block.z};
  Block &body = launch.getBody().front();
  Operation *terminator = body.getTerminator();
  Block *loopBody = nest.loops.back().getBody();
  rewriter.inlineBlockBefore(&body, loopBody->getTerminator(), arguments);
  rewriter.eraseOp(terminator);
  rewriter.eraseOp(launch);
  return success();
}

struct PosEncGPULaunchToLoopsPass
    : posenc::impl::PosEncGPULaunchToLoopsBase<PosEncGPULaunchToLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<gpu::LaunchOp> launches;
    getOperation()->walk(
        [&](gpu::LaunchOp launch) { launches.push_back(launch); });
    IRRewriter rewriter(&getContext());
    for (gpu::LaunchOp launch : launches)
      if (failed(lowerLaunch(rewriter, launch)))
        return signalPassFailure();
  }
};

} // namespace
