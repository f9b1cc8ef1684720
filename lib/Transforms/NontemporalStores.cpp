//===- NontemporalStores.cpp - the posenc-nontemporal-stores pass ---------===//

#include "StoreAlignment.h"

#include "posenc/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "posenc-nontemporal-stores"

namespace mlir {
namespace posenc {
#define GEN_PASS_DEF_POSENCNONTEMPORALSTORES
#include "posenc/Transforms/Passes.h.inc"
} // namespace posenc
} // namespace mlir

using namespace mlir;

namespace {

/// Wider writes keep their lowering: streaming is for register-sized stores.
constexpr int64_t kMaxStoreLanes = 1024;

/// The value `v` is a view of (memref views and casts only), or null.
Value getViewSource(Value v) {
  Operation *def = v.getDefiningOp();
  if (!def)
    return {};
  if (auto view = dyn_cast<ViewLikeOpInterface>(def))
    return view.getViewSource();
  if (auto meta = dyn_cast<memref::ExtractStridedMetadataOp>(def))
    return v == meta.getBaseBuffer() ? meta.getSource() : Value();
  return {};
}

/// The function argument `v` is a view of, or null.
BlockArgument getRootArgument(Value v, FunctionOpInterface func) {
  while (Value source = getViewSource(v))
    v = source;
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg || arg.getOwner() != &func.getFunctionBody().front())
    return {};
  return arg;
}

/// Whether every use of `memref` and of its views only writes it.
bool isWriteOnly(Value memref) {
  SmallVector<Value> worklist{memref};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (auto store = dyn_cast<vector::StoreOp>(user)) {
        if (use.get() == store.getBase())
          continue;
        return false; // the memref itself is stored somewhere
      }
      if (auto store = dyn_cast<vector::MaskedStoreOp>(user)) {
        if (use.get() == store.getBase())
          continue;
        return false;
      }
      if (auto write = dyn_cast<vector::TransferWriteOp>(user)) {
        if (use.get() == write.getBase())
          continue;
        return false;
      }
      if (auto store = dyn_cast<memref::StoreOp>(user)) {
        if (use.get() == store.getMemRef())
          continue;
        return false;
      }
      if (isa<memref::DimOp>(user))
        continue;
      if (auto meta = dyn_cast<memref::ExtractStridedMetadataOp>(user)) {
        worklist.push_back(meta.getBaseBuffer());
        continue;
      }
      if (auto view = dyn_cast<ViewLikeOpInterface>(user);
          view && view.getViewSource() == v) {
        for (Value result : user->getResults())
          worklist.push_back(result);
        continue;
      }
      return false; // a read, a call, a copy, a return, ...
    }
  }
  return true;
}

struct PosEncNontemporalStoresPass
    : posenc::impl::PosEncNontemporalStoresBase<PosEncNontemporalStoresPass> {
  using Base::Base;

  void runOnOperation() override {
    FunctionOpInterface func = getOperation();
    if (func.isExternal())
      return;
    // Rank-1, in-bounds, unmasked, minor-identity, unit-stride
    // transfer_writes on memrefs become vector.stores (upstream's transfer
    // lowering, applied to exactly these: it aborted on a 2^31-lane write
    // found by the fuzzer); others keep their lowering and are not streamed.
    SmallVector<Operation *> writes;
    func.walk([&](vector::TransferWriteOp write) {
      auto type = dyn_cast<MemRefType>(write.getShapedType());
      SmallVector<int64_t> strides;
      int64_t offset;
      if (type && type.getRank() >= 1 && write.getVectorType().getRank() == 1 &&
          write.getVectorType().getNumElements() <= kMaxStoreLanes &&
          write.getVectorType().getElementType() == type.getElementType() &&
          !write.getMask() && write.getPermutationMap().isMinorIdentity() &&
          llvm::all_of(write.getInBoundsValues(), [](bool b) { return b; }) &&
          succeeded(type.getStridesAndOffset(strides, offset)) &&
          strides.back() == 1)
        writes.push_back(write);
      else
        LDBG() << "keeps its lowering, not streamed: " << write;
    });
    RewritePatternSet patterns(&getContext());
    vector::populateVectorTransferLoweringPatterns(patterns,
                                                   /*maxTransferRank=*/1);
    if (failed(applyOpPatternsGreedily(writes, std::move(patterns))))
      return signalPassFailure();

    DenseMap<BlockArgument, bool> streamed;
    auto isStreamed = [&](BlockArgument arg) {
      auto [it, inserted] = streamed.try_emplace(arg, false);
      if (inserted) {
        auto type = dyn_cast<MemRefType>(arg.getType());
        // index elements have no fixed width here: not streamed.
        it->second = type && type.hasStaticShape() &&
                     type.getElementType().isIntOrFloat() &&
                     type.getElementTypeBitWidth() % 8 == 0 &&
                     type.getNumElements() >=
                         minBytes / (type.getElementTypeBitWidth() / 8) &&
                     isWriteOnly(arg);
        LDBG() << "argument " << arg.getArgNumber() << " (" << arg.getType()
               << ") "
               << (it->second ? "streamed"
                              : "not streamed (not a static, write-only "
                                "memref of at least min-bytes)");
      }
      return it->second;
    };

    // Fences go before the end of each thread's work (omp.parallel) and
    // before each return of the function.
    SetVector<Operation *> fenceBefore;
    bool any = false;
    func.walk([&](vector::StoreOp store) {
      BlockArgument root = getRootArgument(store.getBase(), func);
      if (!root || !isStreamed(root))
        return;
      store.setNontemporal(true);
      int64_t alignment = posenc::getStoreAlignment(store);
      if (alignment > 1)
        store.setAlignment(alignment);
      any = true;
      if (auto parallel = store->getParentOfType<omp::ParallelOp>())
        fenceBefore.insert(parallel.getRegion().back().getTerminator());
    });
    if (!any)
      return;
    for (Block &block : func.getFunctionBody())
      if (block.mightHaveTerminator() &&
          block.getTerminator()->hasTrait<OpTrait::ReturnLike>())
        fenceBefore.insert(block.getTerminator());
    LDBG() << "fences before " << fenceBefore.size() << " terminators";
    OpBuilder builder(&getContext());
    for (Operation *op : fenceBefore) {
      builder.setInsertionPoint(op);
      LLVM::FenceOp::create(builder, op->getLoc(),
                            LLVM::AtomicOrdering::seq_cst);
    }
  }
};

} // namespace
