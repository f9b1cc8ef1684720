//===- TileToGPU.cpp - the posenc-tile-to-gpu pass ------------------------===//
//
// linalg on tensors -> one scf.forall nest per kernel, mapped to GPU blocks
// and threads. The sizes come from TilingHeuristics.h (chooseGPUTileSizes).
//
//===----------------------------------------------------------------------===//

#include "Recompute.h"

#include "posenc/GPU/Passes.h"
#include "posenc/Transforms/TilingHeuristics.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/TilingInterfaceImpl.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace posenc {
#define GEN_PASS_DEF_POSENCTILETOGPU
#include "posenc/GPU/Passes.h.inc"
} // namespace posenc
} // namespace mlir

using namespace mlir;
using namespace mlir::posenc;

namespace {

/// Linear GPU mapping attributes for `count` loops, the innermost loop
/// `linear_dim_0` so that consecutive ids walk the innermost dim.
template <typename MappingAttr>
SmallVector<Attribute> getLinearMapping(MLIRContext *ctx, unsigned count) {
  SmallVector<Attribute> mapping;
  for (unsigned i = 0; i < count; ++i)
    mapping.push_back(MappingAttr::get(
        ctx, static_cast<gpu::MappingId>(
                 static_cast<uint64_t>(gpu::MappingId::LinearDim0) + count - 1 -
                 i)));
  return mapping;
}

/// Whether `op` can be recomputed inside a kernel instead of being read from
/// the host: constants, and side-effect-free scalar ops (the extraction of
/// an offset from a tensor, the index arithmetic on it).
bool isRecomputable(Operation *op) {
  if (op->getNumRegions() != 0 || !isMemoryEffectFree(op))
    return false;
  if (isa<arith::ConstantOp>(op))
    return true;
  return llvm::all_of(op->getResultTypes(),
                      [](Type type) { return type.isIntOrIndexOrFloat(); });
}

/// Fuses an elementwise producer into the consumer that is its only user
/// (RoPE's cos/sin rows into the rotation): one kernel per op, each thread
/// computing the producer values it needs. Upstream's fusion pattern set
/// would also replace inits that the payload does not read with
/// tensor.empty (RemoveOutsDependency), dropping the caller's buffer that
/// empty-tensor elimination put there: the result would then be computed
/// in a temporary and copied on the host.
struct FuseIntoSoleConsumer : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp consumer,
                                PatternRewriter &rewriter) const override {
    for (OpOperand &operand : consumer->getOpOperands()) {
      Operation *producer = operand.get().getDefiningOp();
      if (!producer || !linalg::areElementwiseOpsFusable(&operand) ||
          llvm::any_of(producer->getUsers(),
                       [&](Operation *user) { return user != consumer; }))
        continue;
      FailureOr<linalg::ElementwiseOpFusionResult> fused =
          linalg::fuseElementwiseOps(rewriter, &operand);
      if (failed(fused))
        return rewriter.notifyMatchFailure(consumer, "fusion failed");
      // The producer's results had no other user.
      for (auto [original, replacement] : fused->replacements)
        if (original.getDefiningOp() == consumer)
          rewriter.replaceAllUsesWith(original, replacement);
      rewriter.eraseOp(consumer);
      return success();
    }
    return failure();
  }
};

LogicalResult fuseIntoSoleConsumers(FunctionOpInterface func) {
  RewritePatternSet patterns(func.getContext());
  patterns.add<FuseIntoSoleConsumer>(func.getContext());
  // Fusing cos and sin of one angle repeats its operands.
  linalg::populateEraseUnusedOperandsAndResultsPatterns(patterns);
  return applyPatternsGreedily(func, std::move(patterns));
}

/// Makes a linalg op whose result is inserted into a larger tensor (the
/// rotated channels of a partial RoPE, through a collapse_shape) compute
/// into that slice of the destination: `insert_slice(collapse(op(empty)),
/// dest)` becomes `insert_slice(collapse(op(expand(extract_slice(dest)))),
/// dest)`, which bufferizes in place. Upstream's empty-tensor elimination
/// does not look through the collapse; without this the result would be
/// copied into its destination on the host.
void computeIntoInsertDestination(RewriterBase &rewriter,
                                  tensor::InsertSliceOp insert) {
  Value source = insert.getSource();
  auto collapse = source.getDefiningOp<tensor::CollapseShapeOp>();
  if (collapse)
    source = collapse.getSrc();
  auto result = dyn_cast<OpResult>(source);
  auto op = result ? dyn_cast<linalg::LinalgOp>(result.getOwner()) : nullptr;
  if (!op || !op.hasPureTensorSemantics() || !source.hasOneUse())
    return;
  OpOperand *init = op.getDpsInitOperand(result.getResultNumber());
  auto empty = init->get().getDefiningOp<tensor::EmptyOp>();
  if (!empty || !empty->hasOneUse())
    return;
  // The destination must exist before the op: move its definition up if
  // needed, when that is a tensor.empty or the tensor of the caller's buffer
  // (which no tensor op writes before the result is materialized).
  DominanceInfo dominance;
  if (!dominance.properlyDominates(insert.getDest(), op)) {
    Operation *dest = insert.getDest().getDefiningOp();
    if (!isa_and_nonnull<tensor::EmptyOp, bufferization::ToTensorOp>(dest) ||
        dest->getBlock() != op->getBlock() ||
        llvm::any_of(dest->getOperands(), [&](Value operand) {
          return !dominance.properlyDominates(operand, op);
        }))
      return;
    rewriter.moveOpBefore(dest, op);
  }
  rewriter.setInsertionPoint(op);
  Value slice = tensor::ExtractSliceOp::create(
      rewriter, insert.getLoc(), insert.getSourceType(), insert.getDest(),
      insert.getMixedOffsets(), insert.getMixedSizes(),
      insert.getMixedStrides());
  if (collapse)
    slice = tensor::ExpandShapeOp::create(rewriter, collapse.getLoc(),
                                          collapse.getSrcType(), slice,
                                          collapse.getReassociationIndices());
  rewriter.modifyOpInPlace(op, [&] { init->set(slice); });
  rewriter.eraseOp(empty);
}

/// Creates `scf.forall` nest of one block and one thread before the
/// insertion point and returns the thread loop.
scf::ForallOp createSingleThreadNest(RewriterBase &rewriter, Location loc) {
  MLIRContext *ctx = rewriter.getContext();
  SmallVector<OpFoldResult> one = {rewriter.getIndexAttr(1)};
  auto blocks = scf::ForallOp::create(
      rewriter, loc, one, ValueRange(),
      rewriter.getArrayAttr(
          getLinearMapping<gpu::GPUBlockMappingAttr>(ctx, 1)));
  rewriter.setInsertionPoint(blocks.getBody()->getTerminator());
  auto threads = scf::ForallOp::create(
      rewriter, loc, one, ValueRange(),
      rewriter.getArrayAttr(
          getLinearMapping<gpu::GPUThreadMappingAttr>(ctx, 1)));
  return threads;
}

/// Moves a runtime check whose condition is computed from tensors (a bounds
/// check reduced over the positions, or an offset extracted from a tensor)
/// into a kernel of one thread, with the ops that compute the condition.
/// The originals stay where other ops use them (the gather reads the
/// offset too: it recomputes it in its own kernel).
void moveCheckIntoKernel(RewriterBase &rewriter, cf::AssertOp check) {
  BackwardSliceOptions options;
  options.inclusive = true;
  options.omitBlockArguments = true;
  options.omitUsesFromAbove = false;
  // The kernel reads what side-effecting ops (the tensor of a caller's
  // buffer) produce; it recomputes the rest.
  Block *block = check->getBlock();
  options.filter = [&](Operation *op) {
    return op->getBlock() == block && isMemoryEffectFree(op);
  };
  SetVector<Operation *> slice;
  if (failed(getBackwardSlice(check.getArg(), &slice, options)))
    return;
  bool readsTensors = llvm::any_of(slice, [](Operation *op) {
    return llvm::any_of(op->getOperandTypes(), llvm::IsaPred<TensorType>);
  });
  if (!readsTensors)
    return;
  rewriter.setInsertionPoint(check);
  scf::ForallOp thread = createSingleThreadNest(rewriter, check.getLoc());
  rewriter.setInsertionPoint(thread.getBody()->getTerminator());
  IRMapping mapping;
  for (Operation *op : slice)
    rewriter.clone(*op, mapping);
  rewriter.clone(*check, mapping);
  rewriter.eraseOp(check);
  for (Operation *op : llvm::reverse(slice))
    if (op->use_empty())
      rewriter.eraseOp(op);
}

/// Tiles `op` with scf.forall to `sizes` (extents; the whole dim is not
/// tiled), mapped linearly by `MappingAttr`. A nest needs a loop at each
/// level: when nothing is tiled, the outermost tileable dim gets a loop of
/// one iteration. Returns the tiled op.
template <typename MappingAttr>
FailureOr<linalg::LinalgOp>
tileMapped(RewriterBase &rewriter, linalg::LinalgOp op,
           ArrayRef<int64_t> extents, ArrayRef<int64_t> sizes) {
  SmallVector<int64_t> tileSizes(sizes.size(), 0);
  unsigned loops = 0;
  for (auto [i, size] : llvm::enumerate(sizes))
    if (size < extents[i]) {
      tileSizes[i] = size;
      ++loops;
    }
  if (loops == 0) {
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    auto *it = llvm::find(iterators, utils::IteratorType::parallel);
    if (it == iterators.end())
      return failure();
    unsigned dim = std::distance(iterators.begin(), it);
    tileSizes[dim] = sizes[dim];
    loops = 1;
  }
  if (loops > 10)
    return failure(); // linear mappings stop at linear_dim_9
  scf::SCFTilingOptions options;
  options.setTileSizes(
      getAsIndexOpFoldResult(rewriter.getContext(), tileSizes));
  options.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  options.setMapping(
      getLinearMapping<MappingAttr>(rewriter.getContext(), loops));
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(tiled) || tiled->tiledOps.size() != 1)
    return failure();
  auto tiledOp = dyn_cast<linalg::LinalgOp>(tiled->tiledOps.front());
  if (!tiledOp)
    return failure();
  rewriter.replaceOp(op, tiled->replacements);
  return tiledOp;
}

struct PosEncTileToGPUPass
    : posenc::impl::PosEncTileToGPUBase<PosEncTileToGPUPass> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    // Hosts that do not register every upstream extension would otherwise
    // miss linalg's TilingInterface models.
    linalg::registerTilingInterfaceExternalModels(registry);
  }

  void runOnOperation() override {
    FunctionOpInterface func = getOperation();
    if (threads <= 0 || threads > 1024) {
      func.emitError("threads must be in [1, 1024]");
      return signalPassFailure();
    }
    if (threadTile <= 0) {
      func.emitError("thread-tile must be positive");
      return signalPassFailure();
    }
    if (failed(fuseIntoSoleConsumers(func)))
      return signalPassFailure();

    IRRewriter rewriter(&getContext());
    SmallVector<tensor::InsertSliceOp> inserts;
    func.walk([&](tensor::InsertSliceOp insert) { inserts.push_back(insert); });
    for (tensor::InsertSliceOp insert : inserts)
      computeIntoInsertDestination(rewriter, insert);

    SmallVector<cf::AssertOp> checks;
    func.walk([&](cf::AssertOp check) {
      if (!check->getParentOfType<scf::ForallOp>())
        checks.push_back(check);
    });
    for (cf::AssertOp check : checks)
      moveCheckIntoKernel(rewriter, check);

    // Every linalg op left outside a nest is a kernel, unless it is dead (a
    // check's condition, now computed in the check's kernel).
    SmallVector<linalg::LinalgOp> ops, kernels;
    func.walk([&](linalg::LinalgOp op) {
      if (!op->getParentOfType<scf::ForallOp>())
        ops.push_back(op);
    });
    for (linalg::LinalgOp op : llvm::reverse(ops)) {
      if (op->use_empty() && isMemoryEffectFree(op))
        rewriter.eraseOp(op);
      else
        kernels.push_back(op);
    }
    for (linalg::LinalgOp op : llvm::reverse(kernels)) {
      if (!isTileable(op) || op.getNumParallelLoops() == 0 ||
          llvm::any_of(op.getStaticLoopRanges(), ShapedType::isDynamic)) {
        op.emitError("posenc-tile-to-gpu: cannot map this op to GPU threads "
                     "(it needs static shapes on tensors and a parallel "
                     "loop)");
        return signalPassFailure();
      }
      Location loc = op.getLoc();
      SmallVector<int64_t> extents = op.getStaticLoopRanges();
      GPUTileSizes sizes = chooseGPUTileSizes(op, threads, threadTile);
      FailureOr<linalg::LinalgOp> block = tileMapped<gpu::GPUBlockMappingAttr>(
          rewriter, op, extents, sizes.block);
      FailureOr<linalg::LinalgOp> thread =
          failed(block) ? block
                        : tileMapped<gpu::GPUThreadMappingAttr>(
                              rewriter, *block, sizes.block, sizes.thread);
      if (failed(thread)) {
        emitError(loc, "posenc-tile-to-gpu: tiling into blocks and threads "
                       "failed");
        return signalPassFailure();
      }
    }

    SmallVector<scf::ForallOp> blocks;
    func.walk([&](scf::ForallOp forall) {
      if (!forall->getParentOfType<scf::ForallOp>())
        blocks.push_back(forall);
    });
    for (scf::ForallOp forall : blocks)
      recomputeInside(rewriter, forall.getRegion(), isRecomputable);
  }
};

} // namespace
