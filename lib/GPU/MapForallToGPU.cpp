//===- MapForallToGPU.cpp - the posenc-map-forall-to-gpu pass -------------===//
//
// Upstream maps scf.forall to blocks and threads in the implementation of
// transform ops (transform.gpu.map_forall_to_blocks and
// map_nested_forall_to_threads), which report through a transform op and
// need static trip counts at the thread level; this pass is their
// pass-pipeline form for posenc-tile-to-gpu's nests, with a static bound
// (and a predicate) for the partial blocks at the end of a dimension.
//
//===----------------------------------------------------------------------===//

#include "Recompute.h"

#include "posenc/GPU/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

namespace mlir {
namespace posenc {
#define GEN_PASS_DEF_POSENCMAPFORALLTOGPU
#include "posenc/GPU/Passes.h.inc"
} // namespace posenc
} // namespace mlir

using namespace mlir;
using namespace mlir::posenc;

namespace {

/// CUDA's limits on a one-dimensional launch.
constexpr int64_t kMaxGridX = (int64_t(1) << 31) - 1;
constexpr int64_t kMaxBlockThreads = 1024;

/// One loop of a mapped forall: its bounds, its static trip count bound and
/// its position in the linear id (0: fastest).
struct MappedLoop {
  OpFoldResult lowerBound, upperBound, step;
  int64_t maxCount;
  int64_t linearDim;
};

/// Whether every thread of a block may run `op` (outside the thread loops):
/// it writes nothing (it may read, e.g. a kernel's offset scalar).
bool isRedundantlySafe(Operation *op) {
  if (op->getNumRegions() != 0)
    return false;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  return effects && !effects.hasEffect<MemoryEffects::Write>() &&
         !effects.hasEffect<MemoryEffects::Allocate>() &&
         !effects.hasEffect<MemoryEffects::Free>();
}

/// The loops of `forall` if it is mapped linearly by `MappingAttr`, with a
/// static bound on each trip count; a located error otherwise.
template <typename MappingAttr>
FailureOr<SmallVector<MappedLoop>> getMappedLoops(scf::ForallOp forall) {
  std::optional<ArrayAttr> mapping = forall.getMapping();
  if (!mapping || mapping->size() != static_cast<size_t>(forall.getRank()))
    return forall.emitError("expected a linear GPU mapping of every loop"),
           failure();
  SmallVector<MappedLoop> loops;
  for (auto [attr, lb, ub, step] :
       llvm::zip_equal(*mapping, forall.getMixedLowerBound(),
                       forall.getMixedUpperBound(), forall.getMixedStep())) {
    auto id = dyn_cast<MappingAttr>(attr);
    std::optional<int64_t> lbValue = getConstantIntValue(lb);
    std::optional<int64_t> stepValue = getConstantIntValue(step);
    if (!id || !id.isLinearMapping() || !lbValue || !stepValue ||
        *stepValue <= 0)
      return forall.emitError("expected linear GPU mappings and constant "
                              "lower bounds and steps"),
             failure();
    FailureOr<int64_t> ubValue = ValueBoundsConstraintSet::computeConstantBound(
        presburger::BoundType::UB, ValueBoundsConstraintSet::Variable(ub),
        /*stopCondition=*/nullptr, /*closedUB=*/true);
    if (failed(ubValue))
      return forall.emitError("trip count without a static bound"), failure();
    int64_t count =
        llvm::divideCeil(std::max<int64_t>(0, *ubValue - *lbValue), *stepValue);
    loops.push_back(
        {lb, ub, step, count, static_cast<int64_t>(id.getRelativeIndex())});
  }
  return loops;
}

int64_t getMaxCount(ArrayRef<MappedLoop> loops) {
  int64_t product = 1;
  for (const MappedLoop &loop : loops)
    product = product > kMaxGridX / std::max<int64_t>(1, loop.maxCount)
                  ? kMaxGridX + 1
                  : product * loop.maxCount;
  return product;
}

/// Replaces `forall`'s induction variables by the delinearization of `id`
/// and moves its body before `before`, under a predicate when some ids lie
/// beyond the loop's iterations (fewer iterations than ids, or a dynamic
/// trip count). The forall's terminator must be empty (bufferized loops).
void inlineMapped(RewriterBase &rewriter, scf::ForallOp forall,
                  ArrayRef<MappedLoop> loops, Value id, int64_t ids,
                  Operation *before) {
  Location loc = forall.getLoc();
  rewriter.setInsertionPoint(before);
  SmallVector<unsigned> order =
      llvm::to_vector(llvm::seq<unsigned>(0, loops.size())); // fastest first
  llvm::sort(order, [&](unsigned a, unsigned b) {
    return loops[a].linearDim < loops[b].linearDim;
  });
  SmallVector<Value> ivs(loops.size());
  Value rest = id, inRange;
  int64_t covered = 1;
  for (auto [position, dim] : llvm::enumerate(order)) {
    const MappedLoop &loop = loops[dim];
    bool outermost = position + 1 == order.size();
    Value index = rest;
    if (!outermost) {
      Value count =
          arith::ConstantIndexOp::create(rewriter, loc, loop.maxCount);
      index = arith::RemUIOp::create(rewriter, loc, rest, count);
      rest = arith::DivUIOp::create(rewriter, loc, rest, count);
    }
    covered *= loop.maxCount;
    Value iv = index;
    if (getConstantIntValue(loop.step) != 1)
      iv = arith::MulIOp::create(
          rewriter, loc, iv,
          getValueOrCreateConstantIndexOp(rewriter, loc, loop.step));
    if (getConstantIntValue(loop.lowerBound) != 0)
      iv = arith::AddIOp::create(
          rewriter, loc, iv,
          getValueOrCreateConstantIndexOp(rewriter, loc, loop.lowerBound));
    ivs[dim] = iv;
    bool staticBound = getConstantIntValue(loop.upperBound).has_value();
    if (staticBound && !(outermost && covered < ids))
      continue;
    Value ub = getValueOrCreateConstantIndexOp(rewriter, loc, loop.upperBound);
    Value cond =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt, iv, ub);
    inRange =
        inRange ? arith::AndIOp::create(rewriter, loc, inRange, cond) : cond;
  }
  Block *body = forall.getBody();
  rewriter.eraseOp(body->getTerminator());
  if (inRange) {
    auto guard = scf::IfOp::create(rewriter, loc, inRange);
    rewriter.inlineBlockBefore(body, guard.thenBlock()->getTerminator(), ivs);
  } else {
    rewriter.inlineBlockBefore(body, before, ivs);
  }
  rewriter.eraseOp(forall);
}

/// Maps one block-level forall and the thread-level foralls in its body to a
/// gpu.launch.
LogicalResult mapNest(RewriterBase &rewriter, scf::ForallOp blocks) {
  if (blocks.getNumResults() != 0)
    return blocks.emitError("map scf.forall to GPU after bufferization");
  FailureOr<SmallVector<MappedLoop>> blockLoops =
      getMappedLoops<gpu::GPUBlockMappingAttr>(blocks);
  if (failed(blockLoops))
    return failure();
  int64_t grid = getMaxCount(*blockLoops);
  if (grid > kMaxGridX)
    return blocks.emitError("more blocks than a grid holds");
  // No iterations, no launch: CUDA rejects an empty grid.
  if (grid == 0) {
    rewriter.eraseOp(blocks);
    return success();
  }

  SmallVector<scf::ForallOp> threadLoops;
  SmallVector<SmallVector<MappedLoop>> threadMappings;
  int64_t threads = 1;
  for (Operation &op : blocks.getBody()->without_terminator()) {
    auto forall = dyn_cast<scf::ForallOp>(op);
    if (!forall) {
      if (!isRedundantlySafe(&op))
        return op.emitError("only thread-mapped scf.forall and ops that "
                            "write nothing may run in a block outside its "
                            "threads");
      continue;
    }
    if (forall.getNumResults() != 0)
      return forall.emitError("map scf.forall to GPU after bufferization");
    FailureOr<SmallVector<MappedLoop>> loops =
        getMappedLoops<gpu::GPUThreadMappingAttr>(forall);
    if (failed(loops))
      return failure();
    threads = std::max(threads, getMaxCount(*loops));
    threadLoops.push_back(forall);
    threadMappings.push_back(std::move(*loops));
  }
  if (threads > kMaxBlockThreads)
    return blocks.emitError("more threads than a block holds");
  bool nested = false;
  blocks.getBody()->walk([&](scf::ForallOp inner) {
    nested |= !llvm::is_contained(threadLoops, inner);
  });
  if (nested)
    return blocks.emitError("thread-mapped scf.forall must be direct "
                            "children of the block-mapped one");

  Location loc = blocks.getLoc();
  rewriter.setInsertionPoint(blocks);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value gridSize = arith::ConstantIndexOp::create(rewriter, loc, grid);
  Value blockSize = arith::ConstantIndexOp::create(rewriter, loc, threads);
  auto launch = gpu::LaunchOp::create(rewriter, loc, gridSize, one, one,
                                      blockSize, one, one);
  Block &launchBody = launch.getBody().front();
  rewriter.setInsertionPointToEnd(&launchBody);
  auto terminator = gpu::TerminatorOp::create(rewriter, loc);

  // Threads run the block body redundantly (it holds no side effects),
  // then their share of each thread loop; a barrier orders thread loops
  // that read what an earlier one wrote.
  inlineMapped(rewriter, blocks, *blockLoops, launch.getBlockIds().x, grid,
               terminator);
  for (auto [i, forall] : llvm::enumerate(threadLoops)) {
    if (i + 1 < threadLoops.size()) {
      rewriter.setInsertionPointAfter(forall);
      gpu::BarrierOp::create(rewriter, loc);
    }
    inlineMapped(rewriter, forall, threadMappings[i], launch.getThreadIds().x,
                 threads, forall);
  }
  // The kernel recomputes views, constants and globals, so that its
  // operands are the function's buffers and scalars (upstream's
  // sinkOperationsIntoLaunchOp keeps views whose source the kernel does not
  // use already).
  recomputeInside(rewriter, launch.getBody(), [](Operation *op) {
    return op->getNumRegions() == 0 && isMemoryEffectFree(op);
  });
  return success();
}

struct PosEncMapForallToGPUPass
    : posenc::impl::PosEncMapForallToGPUBase<PosEncMapForallToGPUPass> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    // Static bounds of partial blocks' trip counts (affine.min of a tile).
    affine::registerValueBoundsOpInterfaceExternalModels(registry);
    arith::registerValueBoundsOpInterfaceExternalModels(registry);
  }

  void runOnOperation() override {
    SmallVector<scf::ForallOp> nests;
    getOperation()->walk([&](scf::ForallOp forall) {
      std::optional<ArrayAttr> mapping = forall.getMapping();
      if (mapping && !mapping->empty() &&
          isa<gpu::GPUBlockMappingAttr>(mapping->getValue().front()) &&
          !forall->getParentOfType<gpu::LaunchOp>())
        nests.push_back(forall);
    });
    SmallVector<gpu::LaunchOp> launches;
    getOperation()->walk(
        [&](gpu::LaunchOp launch) { launches.push_back(launch); });
    IRRewriter rewriter(&getContext());
    for (scf::ForallOp forall : nests)
      if (failed(mapNest(rewriter, forall)))
        return signalPassFailure();
    // Launches emitted before bufferization (posenc-attention-to-gpu's)
    // hold their workgroup memory as allocas (attributions would not have
    // survived buffer deallocation) and read constant tables
    // (memref.get_global) made since: the allocas become attributions and
    // the kernel recomputes the tables too.
    for (gpu::LaunchOp launch : launches) {
      for (auto alloca : llvm::make_early_inc_range(
               launch.getBody().front().getOps<memref::AllocaOp>())) {
        auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(
            alloca.getType().getMemorySpace());
        if (!space || space.getValue() != gpu::AddressSpace::Workgroup ||
            !alloca.getType().hasStaticShape())
          continue;
        BlockArgument shared =
            launch.addWorkgroupAttribution(alloca.getType(), alloca.getLoc());
        rewriter.replaceOp(alloca, shared);
      }
      recomputeInside(rewriter, launch.getBody(), [](Operation *op) {
        return op->getNumRegions() == 0 && isMemoryEffectFree(op);
      });
    }
  }
};

} // namespace
