//===- GPULaunchToLoops.cpp - the posenc-gpu-launch-to-loops pass ---------===//

#include "posenc/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir {
namespace posenc {
#define GEN_PASS_DEF_POSENCGPULAUNCHTOLOOPS
#include "posenc/GPU/Passes.h.inc"
} // namespace posenc
} // namespace mlir

using namespace mlir;
using namespace mlir::posenc;

namespace {

/// Whether `launch` is one the host can run: no async tokens, clusters,
/// dynamic or private memory, one block.
LogicalResult checkLaunch(gpu::LaunchOp launch) {
  if (launch.getAsyncToken() || !launch.getAsyncDependencies().empty())
    return launch.emitError("cannot run an async gpu.launch as host loops");
  if (launch.hasClusterSize() || launch.getDynamicSharedMemorySize() ||
      !launch.getPrivateAttributions().empty())
    return launch.emitError("cannot run a gpu.launch with clusters, dynamic "
                            "shared memory or private memory as host loops");
  if (!launch.getBody().hasOneBlock())
    return launch.emitError("cannot run a gpu.launch with several blocks as "
                            "host loops");
  return success();
}

/// Whether a value of `type` can live in a per-thread host buffer: scalars
/// and vectors of them (posenc-emulate-nvgpu's fragments).
bool isCarriable(Type type) {
  if (auto vector = dyn_cast<VectorType>(type))
    return !vector.isScalable() &&
           vector.getElementType().isIntOrIndexOrFloat();
  return type.isIntOrIndexOrFloat();
}

bool containsBarrier(Operation *op) {
  return op->walk([](gpu::BarrierOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

/// Runs the threads of a block whose threads synchronize as a sequence of
/// loops over the threads, one per stretch of code between barriers: the
/// launch body is split at its barriers (at the top level and in the bodies
/// of scf.for loops with barriers, whose bounds must be the same in every
/// thread). Values one thread carries across a barrier (loop-carried
/// values, values defined before and used after) go through per-thread
/// buffers; thread-invariant computations stay outside the thread loops.
class ThreadSerializer {
public:
  ThreadSerializer(RewriterBase &rewriter, gpu::LaunchOp launch)
      : rewriter(rewriter), launch(launch), body(launch.getBody().front()) {}

  LogicalResult run();

  /// Per-block buffers the host allocates (and frees) around the body.
  SmallVector<Value> buffers;

private:
  /// Same in every thread: defined above the launch, a launch argument but
  /// a thread id, a pure op of such values, a barrier loop's counter.
  bool isUniform(Value v) const {
    if (!launch.getBody().isAncestor(v.getParentRegion()))
      return true;
    if (auto arg = dyn_cast<BlockArgument>(v); arg && arg.getOwner() == &body)
      return !llvm::is_contained(threadIds(), v);
    return uniform.contains(v);
  }
  SmallVector<Value> threadIds() const {
    gpu::KernelDim3 ids = launch.getThreadIds();
    return {ids.z, ids.y, ids.x};
  }
  SmallVector<Value> blockSizes() const {
    gpu::KernelDim3 sizes = launch.getBlockSize();
    return {sizes.z, sizes.y, sizes.x};
  }
  LogicalResult findUniform();
  Value newBuffer(Location loc, Type type);
  LogicalResult loopStateToMemory(scf::ForOp loop);
  /// Top-level ops of `block` split into stretches between separators
  /// (barriers, loops with barriers, the host's buffer ops); thread-
  /// invariant pure ops belong to none.
  SmallVector<SmallVector<Operation *>> segments(Block &block);
  LogicalResult spill(Block &block);
  void wrap(Block &block);

  RewriterBase &rewriter;
  mutable gpu::LaunchOp launch;
  Block &body;
  DenseSet<Value> uniform;
  DenseSet<Operation *> hostOps;
  SmallVector<Block *> blocks;
};

/// The buffer `v` views (through casts, alignment assumptions, subviews).
static Value viewRoot(Value v) {
  while (auto view = v.getDefiningOp<ViewLikeOpInterface>())
    v = view.getViewSource();
  return v;
}

/// Whether some op in `launch` may write the buffer `root` or a view of it.
static bool isWrittenIn(gpu::LaunchOp launch, Value root) {
  WalkResult result = launch.getBody().walk([&](Operation *op) {
    for (Value operand : op->getOperands()) {
      if (!isa<BaseMemRefType>(operand.getType()) ||
          viewRoot(operand) != root || isa<ViewLikeOpInterface>(op))
        continue;
      auto effects = dyn_cast<MemoryEffectOpInterface>(op);
      if (!effects || effects.getEffectOnValue<MemoryEffects::Write>(operand))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

LogicalResult ThreadSerializer::findUniform() {
  uniform.clear();
  WalkResult result = body.walk<WalkOrder::PreOrder>([&](Operation *op) {
    bool uniformOperands =
        llvm::all_of(op->getOperands(), [&](Value v) { return isUniform(v); });
    if (op->getNumRegions() == 0 && isMemoryEffectFree(op) && uniformOperands) {
      uniform.insert_range(op->getResults());
      return WalkResult::advance();
    }
    // A load at uniform indices of a uniform buffer (from above, a global)
    // that the kernel only reads: a sequence's key_lengths entry, indexed by
    // the block's batch.
    if (auto load = dyn_cast<memref::LoadOp>(op);
        load && uniformOperands && isUniform(viewRoot(load.getMemRef())) &&
        !isWrittenIn(launch, viewRoot(load.getMemRef()))) {
      uniform.insert(load.getResult());
      return WalkResult::advance();
    }
    if (isa<gpu::BarrierOp>(op) || !containsBarrier(op))
      return WalkResult::advance();
    auto loop = dyn_cast<scf::ForOp>(op);
    if (!loop || !isUniform(loop.getLowerBound()) ||
        !isUniform(loop.getUpperBound()) || !isUniform(loop.getStep())) {
      op->emitError("cannot run threads that synchronize as host loops: a "
                    "barrier must be at the top level of the kernel or of an "
                    "scf.for whose bounds are the same in every thread");
      return WalkResult::interrupt();
    }
    uniform.insert(loop.getInductionVar());
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

Value ThreadSerializer::newBuffer(Location loc, Type type) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(&body);
  SmallVector<Value> sizes = blockSizes();
  auto buffer = memref::AllocOp::create(
      rewriter, loc,
      MemRefType::get(
          {ShapedType::kDynamic, ShapedType::kDynamic, ShapedType::kDynamic},
          type),
      sizes);
  hostOps.insert(buffer);
  buffers.push_back(buffer);
  return buffer;
}

LogicalResult ThreadSerializer::loopStateToMemory(scf::ForOp loop) {
  if (loop.getInitArgs().empty())
    return success();
  Location loc = loop.getLoc();
  SmallVector<Value> ids = threadIds();
  SmallVector<Value> state;
  for (Value init : loop.getInitArgs()) {
    if (!isCarriable(init.getType()))
      return loop.emitError("cannot carry a ")
             << init.getType() << " across barriers on the host";
    state.push_back(newBuffer(loc, init.getType()));
  }
  rewriter.setInsertionPoint(loop);
  for (auto [init, buffer] : llvm::zip(loop.getInitArgs(), state))
    memref::StoreOp::create(rewriter, loc, init, buffer, ids);
  auto replacement =
      scf::ForOp::create(rewriter, loc, loop.getLowerBound(),
                         loop.getUpperBound(), loop.getStep(), ValueRange{});
  Block *newBody = replacement.getBody();
  rewriter.setInsertionPointToStart(newBody);
  SmallVector<Value> arguments{replacement.getInductionVar()};
  for (Value buffer : state)
    arguments.push_back(memref::LoadOp::create(rewriter, loc, buffer, ids));
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  rewriter.setInsertionPoint(yield);
  for (auto [value, buffer] : llvm::zip(yield.getOperands(), state))
    memref::StoreOp::create(rewriter, loc, value, buffer, ids);
  rewriter.eraseOp(newBody->getTerminator());
  rewriter.mergeBlocks(loop.getBody(), newBody, arguments);
  rewriter.setInsertionPointToEnd(newBody);
  rewriter.replaceOpWithNewOp<scf::YieldOp>(yield);
  rewriter.setInsertionPointAfter(replacement);
  SmallVector<Value> results;
  for (Value buffer : state)
    results.push_back(memref::LoadOp::create(rewriter, loc, buffer, ids));
  rewriter.replaceOp(loop, results);
  return success();
}

SmallVector<SmallVector<Operation *>> ThreadSerializer::segments(Block &block) {
  SmallVector<SmallVector<Operation *>> result(1);
  for (Operation &op : block.without_terminator()) {
    if (isa<gpu::BarrierOp>(op) || hostOps.contains(&op) ||
        containsBarrier(&op)) {
      result.emplace_back();
      continue;
    }
    // Uniform loads too (findUniform takes only loads nothing writes).
    if (op.getNumRegions() == 0 &&
        (isMemoryEffectFree(&op) || isa<memref::LoadOp>(op)) &&
        llvm::all_of(op.getResults(), [&](Value v) { return isUniform(v); }))
      continue;
    result.back().push_back(&op);
  }
  llvm::erase_if(result, [](auto &segment) { return segment.empty(); });
  return result;
}

LogicalResult ThreadSerializer::spill(Block &block) {
  DenseMap<Operation *, unsigned> segmentOf;
  for (auto [i, segment] : llvm::enumerate(segments(block)))
    for (Operation *op : segment)
      segmentOf[op] = i;
  SmallVector<Value> ids = threadIds();
  for (auto [op, segment] : llvm::to_vector(segmentOf)) {
    for (Value result : op->getResults()) {
      SmallVector<OpOperand *> crossing;
      for (OpOperand &use : result.getUses()) {
        Operation *user = block.findAncestorOpInBlock(*use.getOwner());
        auto it = segmentOf.find(user);
        if (it == segmentOf.end() || it->second != segment)
          crossing.push_back(&use);
      }
      if (crossing.empty())
        continue;
      if (!isCarriable(result.getType()))
        return op->emitError("cannot carry a ")
               << result.getType() << " across barriers on the host";
      Value buffer = newBuffer(op->getLoc(), result.getType());
      rewriter.setInsertionPointAfter(op);
      memref::StoreOp::create(rewriter, op->getLoc(), result, buffer, ids);
      for (OpOperand *use : crossing) {
        rewriter.setInsertionPoint(use->getOwner());
        Value reload =
            memref::LoadOp::create(rewriter, op->getLoc(), buffer, ids);
        rewriter.modifyOpInPlace(use->getOwner(), [&] { use->set(reload); });
      }
    }
  }
  return success();
}

void ThreadSerializer::wrap(Block &block) {
  SmallVector<Value> ids = threadIds();
  Value zero, one;
  for (SmallVector<Operation *> &segment : segments(block)) {
    Location loc = segment.front()->getLoc();
    rewriter.setInsertionPointAfter(segment.back());
    if (!zero) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(&body);
      zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    }
    scf::LoopNest nest =
        scf::buildLoopNest(rewriter, loc, SmallVector<Value>(3, zero),
                           blockSizes(), SmallVector<Value>(3, one));
    Operation *terminator = nest.loops.back().getBody()->getTerminator();
    for (Operation *op : segment)
      rewriter.moveOpBefore(op, terminator);
    for (auto [id, loop] : llvm::zip(ids, nest.loops))
      rewriter.replaceUsesWithIf(
          id, loop.getInductionVar(), [&](OpOperand &use) {
            return nest.loops.front()->isAncestor(use.getOwner());
          });
  }
}

LogicalResult ThreadSerializer::run() {
  // Loops with barriers carry their state in memory, then every stretch
  // between barriers becomes a thread loop.
  SmallVector<scf::ForOp> loops;
  body.walk([&](scf::ForOp loop) {
    if (containsBarrier(loop))
      loops.push_back(loop);
  });
  for (scf::ForOp loop : loops)
    if (failed(loopStateToMemory(loop)))
      return failure();
  if (failed(findUniform()))
    return failure();
  SmallVector<Block *> blocks{&body};
  body.walk([&](scf::ForOp loop) {
    if (containsBarrier(loop))
      blocks.push_back(loop.getBody());
  });
  for (Block *block : blocks)
    if (failed(spill(*block)))
      return failure();
  if (failed(findUniform()))
    return failure();
  for (Block *block : blocks)
    wrap(*block);
  SmallVector<gpu::BarrierOp> barriers;
  body.walk([&](gpu::BarrierOp barrier) { barriers.push_back(barrier); });
  for (gpu::BarrierOp barrier : barriers)
    rewriter.eraseOp(barrier);
  for (Value id : threadIds())
    if (!id.use_empty())
      return launch.emitError("a thread id is used outside the thread loops "
                              "of the host emulation");
  return success();
}

/// Loops over the blocks (z, y, x), inside which `body` runs with the given
/// ids; returns the innermost loop's terminator.
Operation *buildBlockLoops(RewriterBase &rewriter, gpu::LaunchOp launch,
                           SmallVector<Value> &ids) {
  Location loc = launch.getLoc();
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  scf::LoopNest nest =
      scf::buildLoopNest(rewriter, loc, SmallVector<Value>(3, zero),
                         {grid.z, grid.y, grid.x}, SmallVector<Value>(3, one));
  for (scf::ForOp loop : nest.loops)
    ids.push_back(loop.getInductionVar());
  return nest.loops.back().getBody()->getTerminator();
}

/// A launch whose threads synchronize or share memory: per block, the
/// workgroup buffers on the host heap and the threads serialized between
/// barriers.
LogicalResult lowerSynchronizingLaunch(RewriterBase &rewriter,
                                       gpu::LaunchOp launch) {
  ThreadSerializer serializer(rewriter, launch);
  if (failed(serializer.run()))
    return failure();
  Location loc = launch.getLoc();
  rewriter.setInsertionPoint(launch);
  SmallVector<Value> ids;
  Operation *end = buildBlockLoops(rewriter, launch, ids);
  rewriter.setInsertionPoint(end);
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
  // Thread ids have no uses left; any value stands in for them.
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  SmallVector<Value> arguments = {ids[2], ids[1],  ids[0],  zero,
                                  zero,   zero,    grid.x,  grid.y,
                                  grid.z, block.x, block.y, block.z};
  // Workgroup memory as host buffers of the same shape (loads and stores
  // do not look at the memory space).
  SmallVector<Value> shared;
  for (BlockArgument attribution : launch.getWorkgroupAttributions()) {
    auto type = cast<MemRefType>(attribution.getType());
    for (OpOperand &use : attribution.getUses())
      if (!isa<memref::LoadOp, memref::StoreOp>(use.getOwner()))
        return use.getOwner()->emitError(
            "workgroup memory is emulated on the host for memref.load and "
            "memref.store only");
    Value buffer = memref::AllocOp::create(
        rewriter, loc, MemRefType::get(type.getShape(), type.getElementType()));
    shared.push_back(buffer);
    arguments.push_back(buffer);
  }
  Block &body = launch.getBody().front();
  Operation *terminator = body.getTerminator();
  rewriter.inlineBlockBefore(&body, end, arguments);
  rewriter.eraseOp(terminator);
  rewriter.setInsertionPoint(end);
  for (Value buffer : llvm::concat<Value>(shared, serializer.buffers))
    memref::DeallocOp::create(rewriter, loc, buffer);
  rewriter.eraseOp(launch);
  return success();
}

LogicalResult lowerLaunch(RewriterBase &rewriter, gpu::LaunchOp launch) {
  if (failed(checkLaunch(launch)))
    return failure();
  if (containsBarrier(launch) || !launch.getWorkgroupAttributions().empty())
    return lowerSynchronizingLaunch(rewriter, launch);
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
