//===- AllocsToScratch.cpp - the posenc-allocs-to-scratch pass ------------===//
//
// A freestanding kernel's buffers as slots of its workgroup's slice of a
// scratch argument: no heap, and no stack beyond the host's small one.
//
//===----------------------------------------------------------------------===//

#include "WorkgroupKernel.h"

#include "posenc/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/MathExtras.h"

namespace mlir {
namespace posenc {
#define GEN_PASS_DEF_POSENCALLOCSTOSCRATCH
#include "posenc/Transforms/Passes.h.inc"
} // namespace posenc
} // namespace mlir

using namespace mlir;
using namespace mlir::posenc;

namespace {

constexpr int64_t kSlotAlignment = 64;

/// A use of `alloc`'s buffer (or of a view of it, or of a loop argument it
/// initializes) that carries it into the next iteration of a loop it was
/// allocated in: the next run of the alloc would overwrite a live buffer.
Operation *findLoopCarriedUse(memref::AllocOp alloc) {
  SmallVector<Value> worklist = {alloc.getResult()};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (auto view = dyn_cast<ViewLikeOpInterface>(user)) {
        if (view.getViewSource() == value)
          llvm::append_range(worklist, user->getResults());
        continue;
      }
      if (auto loop = dyn_cast<scf::ForOp>(user)) {
        if (BlockArgument arg = loop.getTiedLoopRegionIterArg(&use)) {
          worklist.push_back(arg);
          worklist.push_back(loop.getTiedLoopResult(&use));
        }
        continue;
      }
      if (isa<scf::YieldOp>(user) &&
          user->getParentOp()->isProperAncestor(alloc))
        return user;
    }
  }
  return nullptr;
}

FailureOr<int64_t> getSizeBound(Value value);

/// A constant upper bound of dimension `dim` of the buffer `memref`: through
/// the views the flash nest takes of its tiles (upstream's memref value
/// bounds do not model reshapes).
FailureOr<int64_t> getDimBound(Value memref, int64_t dim) {
  auto type = cast<MemRefType>(memref.getType());
  if (!type.isDynamicDim(dim))
    return type.getDimSize(dim);
  Operation *def = memref.getDefiningOp();
  if (auto cast = dyn_cast_if_present<memref::CastOp>(def))
    return getDimBound(cast.getSource(), dim);
  if (auto subview = dyn_cast_if_present<memref::SubViewOp>(def)) {
    llvm::SmallBitVector dropped = subview.getDroppedDims();
    int64_t seen = -1;
    for (auto [i, size] : llvm::enumerate(subview.getMixedSizes())) {
      if (dropped.test(i) || ++seen != dim)
        continue;
      if (std::optional<int64_t> constant = getConstantIntValue(size))
        return *constant;
      return getSizeBound(cast<Value>(size));
    }
  }
  if (auto collapse = dyn_cast_if_present<memref::CollapseShapeOp>(def)) {
    int64_t product = 1;
    // getReassociationIndices() returns a temporary: keep it alive.
    SmallVector<ReassociationIndices> groups =
        collapse.getReassociationIndices();
    for (int64_t source : groups[dim]) {
      FailureOr<int64_t> bound = getDimBound(collapse.getSrc(), source);
      if (failed(bound))
        return failure();
      product *= *bound;
    }
    return product;
  }
  if (auto expand = dyn_cast_if_present<memref::ExpandShapeOp>(def)) {
    OpFoldResult size = expand.getMixedOutputShape()[dim];
    if (std::optional<int64_t> constant = getConstantIntValue(size))
      return *constant;
    return getSizeBound(cast<Value>(size));
  }
  return ValueBoundsConstraintSet::computeConstantBound(
      presburger::BoundType::UB,
      ValueBoundsConstraintSet::Variable(memref, dim),
      /*stopCondition=*/nullptr, /*closedUB=*/true);
}

/// A constant upper bound of the size `value`: through arith.minsi/minui
/// (the flash nest clamps its partial tiles with them; upstream value bounds
/// do not model them) and memref.dim, else value bounds.
FailureOr<int64_t> getSizeBound(Value value) {
  if (auto dim = value.getDefiningOp<memref::DimOp>()) {
    if (std::optional<int64_t> index = dim.getConstantIndex())
      return getDimBound(dim.getSource(), *index);
  }
  if (isa_and_present<arith::MinSIOp, arith::MinUIOp>(value.getDefiningOp())) {
    FailureOr<int64_t> best = failure();
    for (Value operand : value.getDefiningOp()->getOperands()) {
      FailureOr<int64_t> bound = getSizeBound(operand);
      if (succeeded(bound) && (failed(best) || *bound < *best))
        best = bound;
    }
    return best;
  }
  return ValueBoundsConstraintSet::computeConstantBound(
      presburger::BoundType::UB, ValueBoundsConstraintSet::Variable(value),
      /*stopCondition=*/nullptr, /*closedUB=*/true);
}

/// Whether `alloc`'s buffer (or a view of it) is used inside `forall` and
/// after it: a partial result that the combine after the loop reads.
bool isReadAfter(memref::AllocOp alloc, scf::ForallOp forall) {
  bool inside = false, after = false;
  SmallVector<Value> worklist = {alloc.getResult()};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (Operation *user : value.getUsers()) {
      if (auto view = dyn_cast<ViewLikeOpInterface>(user))
        if (view.getViewSource() == value)
          llvm::append_range(worklist, user->getResults());
      if (forall->isProperAncestor(user)) {
        inside = true;
        continue;
      }
      Operation *top = forall->getBlock()->findAncestorOpInBlock(*user);
      after |= top && forall->isBeforeInBlock(top);
    }
  }
  return inside && after;
}

/// Whether `arg` is a `memref<?xi8>` (identity layout).
bool isByteBuffer(Value arg) {
  auto type = dyn_cast<MemRefType>(arg.getType());
  return type && type.getRank() == 1 && type.isDynamicDim(0) &&
         type.getElementType().isInteger(8) && type.getLayout().isIdentity();
}

struct PosEncAllocsToScratchPass
    : posenc::impl::PosEncAllocsToScratchBase<PosEncAllocsToScratchPass> {
  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    // Bounds of partial tiles' sizes, for hosts that register no models.
    affine::registerValueBoundsOpInterfaceExternalModels(registry);
    arith::registerValueBoundsOpInterfaceExternalModels(registry);
    memref::registerValueBoundsOpInterfaceExternalModels(registry);
    scf::registerValueBoundsOpInterfaceExternalModels(registry);
  }

  void runOnOperation() override {
    FunctionOpInterface func = getOperation();
    BlockArgument scratch = getMarkedArgument(func, kScratchAttr);
    if (!scratch)
      return;
    BlockArgument id = getMarkedArgument(func, kWorkgroupIdAttr);
    if (!id || !id.getType().isIndex() || !isByteBuffer(scratch)) {
      func.emitError() << "needs a memref<?xi8> argument marked `"
                       << kScratchAttr << "` and an index argument marked `"
                       << kWorkgroupIdAttr << "`";
      return signalPassFailure();
    }
    // Split decode keys: the partial results of the parallel loop, read by
    // the combine after it (a second dispatch), are shared by the
    // workgroups: they live in the shared scratch argument.
    BlockArgument sharedScratch = getMarkedArgument(func, kSharedScratchAttr);
    scf::ForallOp split = findSplitForall(func, scratch);
    if (split && (!sharedScratch || !isByteBuffer(sharedScratch))) {
      split.emitOpError()
          << "computes partial results that the ops after it combine: the "
             "kernel needs a memref<?xi8> argument marked `"
          << kSharedScratchAttr << "` for them";
      return signalPassFailure();
    }

    // One slot per alloc, in program order; shared ones in the shared
    // scratch.
    const DataLayout &layout = DataLayout::closest(func);
    SmallVector<std::pair<memref::AllocOp, int64_t>> slots, sharedSlots;
    int64_t bytes = 0, sharedBytes = 0;
    WalkResult result = func.walk([&](memref::AllocOp alloc) {
      MemRefType type = alloc.getType();
      // Dynamic sizes (partial tiles) take the slot of their largest value.
      int64_t elements = 1;
      auto dynamicSizes = alloc.getDynamicSizes().begin();
      for (int64_t size : type.getShape()) {
        if (ShapedType::isDynamic(size)) {
          FailureOr<int64_t> bound = getSizeBound(*dynamicSizes++);
          if (failed(bound)) {
            alloc.emitOpError("has a size without a constant upper bound: "
                              "its scratch slot cannot be sized");
            return WalkResult::interrupt();
          }
          size = std::max<int64_t>(*bound, 0);
        }
        elements *= size;
      }
      if (!type.getLayout().isIdentity() || type.getMemorySpace()) {
        alloc.emitOpError("needs the identity layout and the default memory "
                          "space to live in scratch memory");
        return WalkResult::interrupt();
      }
      if (Operation *carried = findLoopCarriedUse(alloc)) {
        InFlightDiagnostic diag = alloc.emitOpError(
            "outlives the loop iteration that allocates it: its scratch "
            "slot would be reused while live");
        diag.attachNote(carried->getLoc()) << "carried here";
        return WalkResult::interrupt();
      }
      int64_t alignment =
          std::max<int64_t>(kSlotAlignment, alloc.getAlignment().value_or(1));
      bool isShared = split && isReadAfter(alloc, split);
      int64_t &end = isShared ? sharedBytes : bytes;
      end = llvm::alignTo(end, alignment);
      (isShared ? sharedSlots : slots).emplace_back(alloc, end);
      end += elements *
             static_cast<int64_t>(
                 layout.getTypeSize(type.getElementType()).getFixedValue());
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();
    bytes = llvm::alignTo(bytes, kSlotAlignment);
    sharedBytes = llvm::alignTo(sharedBytes, kSlotAlignment);

    IRRewriter rewriter(&getContext());
    rewriter.setInsertionPointToStart(&func.getFunctionBody().front());
    Location loc = func.getLoc();
    Value base = arith::MulIOp::create(
        rewriter, loc, id,
        arith::ConstantIndexOp::create(rewriter, loc, bytes));
    auto place = [&](ArrayRef<std::pair<memref::AllocOp, int64_t>> allocs,
                     Value buffer, Value start) {
      for (auto [alloc, offset] : allocs) {
        rewriter.setInsertionPoint(alloc);
        Value shift = arith::AddIOp::create(
            rewriter, alloc.getLoc(), start,
            arith::ConstantIndexOp::create(rewriter, alloc.getLoc(), offset));
        for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
          if (isa<memref::DeallocOp>(user))
            rewriter.eraseOp(user);
        rewriter.replaceOpWithNewOp<memref::ViewOp>(
            alloc, alloc.getType(), buffer, shift, alloc.getDynamicSizes());
      }
    };
    place(slots, scratch, base);
    if (!sharedSlots.empty()) {
      rewriter.setInsertionPointToStart(&func.getFunctionBody().front());
      place(sharedSlots, sharedScratch,
            arith::ConstantIndexOp::create(rewriter, loc, 0));
    }
    func->setAttr(kScratchBytesAttr, rewriter.getI64IntegerAttr(bytes));
    if (split)
      func->setAttr(kSharedScratchBytesAttr,
                    rewriter.getI64IntegerAttr(sharedBytes));
  }
};

} // namespace
