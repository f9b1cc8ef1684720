//===- AllocsToScratch.cpp - the posenc-allocs-to-scratch pass ------------===//
//
// A freestanding kernel's buffers as slots of its workgroup's slice of a
// scratch argument: no heap, and no stack beyond the host's small one.
//
//===----------------------------------------------------------------------===//

#include "WorkgroupKernel.h"

#include "posenc/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
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

struct PosEncAllocsToScratchPass
    : posenc::impl::PosEncAllocsToScratchBase<PosEncAllocsToScratchPass> {
  void runOnOperation() override {
    FunctionOpInterface func = getOperation();
    BlockArgument scratch = getMarkedArgument(func, kScratchAttr);
    if (!scratch)
      return;
    BlockArgument id = getMarkedArgument(func, kWorkgroupIdAttr);
    auto scratchType = dyn_cast<MemRefType>(scratch.getType());
    if (!id || !id.getType().isIndex() || !scratchType ||
        scratchType.getRank() != 1 || !scratchType.isDynamicDim(0) ||
        !scratchType.getElementType().isInteger(8) ||
        !scratchType.getLayout().isIdentity()) {
      func.emitError() << "needs a memref<?xi8> argument marked `"
                       << kScratchAttr << "` and an index argument marked `"
                       << kWorkgroupIdAttr << "`";
      return signalPassFailure();
    }

    // One slot per alloc, in program order.
    const DataLayout &layout = DataLayout::closest(func);
    SmallVector<std::pair<memref::AllocOp, int64_t>> slots;
    int64_t bytes = 0;
    WalkResult result = func.walk([&](memref::AllocOp alloc) {
      MemRefType type = alloc.getType();
      if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
          type.getMemorySpace()) {
        alloc.emitOpError("needs a static shape, identity layout and the "
                          "default memory space to live in scratch memory");
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
      bytes = llvm::alignTo(bytes, alignment);
      slots.emplace_back(alloc, bytes);
      bytes += type.getNumElements() *
               static_cast<int64_t>(
                   layout.getTypeSize(type.getElementType()).getFixedValue());
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();
    bytes = llvm::alignTo(bytes, kSlotAlignment);

    IRRewriter rewriter(&getContext());
    rewriter.setInsertionPointToStart(&func.getFunctionBody().front());
    Location loc = func.getLoc();
    Value base = arith::MulIOp::create(
        rewriter, loc, id, arith::ConstantIndexOp::create(rewriter, loc, bytes));
    for (auto [alloc, offset] : slots) {
      rewriter.setInsertionPoint(alloc);
      Value shift = arith::AddIOp::create(
          rewriter, alloc.getLoc(), base,
          arith::ConstantIndexOp::create(rewriter, alloc.getLoc(), offset));
      for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
        if (isa<memref::DeallocOp>(user))
          rewriter.eraseOp(user);
      rewriter.replaceOpWithNewOp<memref::ViewOp>(alloc, alloc.getType(),
                                                  scratch, shift, ValueRange());
    }
    func->setAttr(kScratchBytesAttr, rewriter.getI64IntegerAttr(bytes));
  }
};

} // namespace
