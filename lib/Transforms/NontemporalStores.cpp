//===- NontemporalStores.cpp - the posenc-nontemporal-stores pass ---------===//

#include "posenc/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/bit.h"

namespace mlir {
namespace posenc {
#define GEN_PASS_DEF_POSENCNONTEMPORALSTORES
#include "posenc/Transforms/Passes.h.inc"
} // namespace posenc
} // namespace mlir

using namespace mlir;

namespace {

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

//===----------------------------------------------------------------------===//
// Alignment. A streaming store needs an aligned address (vmovntps faults
// otherwise, so LLVM uses narrower stores unless it knows the alignment, and
// it cannot see through the functions OpenMP outlines). The address of a
// store is base + (offset + sum(index_d * stride_d)) * element size; the
// analysis below proves a divisor of that element count.
//===----------------------------------------------------------------------===//

/// Alignment only needs the power of two dividing a value: values are
/// represented by that exponent, capped at kZero (which stands for 0, a
/// multiple of everything). Products add exponents, sums take the minimum.
constexpr unsigned kZero = 64;

unsigned log2Of(int64_t v) {
  return v == 0 ? kZero : llvm::countr_zero(static_cast<uint64_t>(v));
}
unsigned addLog2(unsigned a, unsigned b) { return std::min(a + b, kZero); }

/// k such that 2^k divides the integer `v` (0 when unknown).
unsigned knownLog2Divisor(Value v, unsigned depth = 0) {
  if (depth > 16)
    return 0;
  APInt constant;
  if (matchPattern(v, m_ConstantInt(&constant)))
    return constant.isZero() ? kZero : constant.countr_zero();
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    Operation *owner = arg.getOwner()->getParentOp();
    auto iv = [&](Value lb, Value step) {
      return std::min(knownLog2Divisor(lb, depth + 1),
                      knownLog2Divisor(step, depth + 1));
    };
    if (auto nest = dyn_cast<omp::LoopNestOp>(owner)) {
      unsigned k = arg.getArgNumber();
      return iv(nest.getLoopLowerBounds()[k], nest.getLoopSteps()[k]);
    }
    if (auto loop = dyn_cast<scf::ForOp>(owner);
        loop && arg == loop.getInductionVar())
      return iv(loop.getLowerBound(), loop.getStep());
    if (auto loop = dyn_cast<scf::ParallelOp>(owner)) {
      unsigned k = arg.getArgNumber();
      return iv(loop.getLowerBound()[k], loop.getStep()[k]);
    }
    return 0;
  }
  Operation *def = v.getDefiningOp();
  if (!def)
    return 0;
  if (isa<arith::AddIOp, arith::SubIOp>(def))
    return std::min(knownLog2Divisor(def->getOperand(0), depth + 1),
                    knownLog2Divisor(def->getOperand(1), depth + 1));
  if (isa<arith::MulIOp>(def))
    return addLog2(knownLog2Divisor(def->getOperand(0), depth + 1),
                   knownLog2Divisor(def->getOperand(1), depth + 1));
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
          arith::ExtUIOp>(def))
    return knownLog2Divisor(def->getOperand(0), depth + 1);
  return 0;
}

/// The alignment (log2 bytes) of the start of `memref`'s buffer, and the
/// log2 divisor of its offset (elements) from there, through views of an
/// aligned root.
struct BaseAlignment {
  unsigned log2Bytes = 0;
  unsigned offsetLog2 = 0;
};

BaseAlignment getBaseAlignment(Value memref, unsigned depth = 0) {
  if (depth > 32)
    return {};
  auto type = dyn_cast<MemRefType>(memref.getType());
  Operation *def = memref.getDefiningOp();
  if (!type || !def)
    return {}; // an argument: no known alignment
  SmallVector<int64_t> strides;
  int64_t offset;
  if (auto assume = dyn_cast<memref::AssumeAlignmentOp>(def)) {
    BaseAlignment base = getBaseAlignment(assume.getMemref(), depth + 1);
    base.log2Bytes = std::max(base.log2Bytes, log2Of(assume.getAlignment()));
    if (type.getLayout().isIdentity())
      base.offsetLog2 = kZero;
    else if (succeeded(type.getStridesAndOffset(strides, offset)) &&
             !ShapedType::isDynamic(offset))
      base.offsetLog2 = log2Of(offset);
    else
      base.offsetLog2 = 0;
    return base;
  }
  if (isa<memref::ExpandShapeOp, memref::CollapseShapeOp, memref::CastOp>(def))
    return getBaseAlignment(def->getOperand(0), depth + 1);
  if (auto subview = dyn_cast<memref::SubViewOp>(def)) {
    BaseAlignment base = getBaseAlignment(subview.getSource(), depth + 1);
    if (failed(
            subview.getSource().getType().getStridesAndOffset(strides, offset)))
      return {base.log2Bytes, 0};
    for (auto [ofr, stride] :
         llvm::zip_equal(subview.getMixedOffsets(), strides)) {
      if (ShapedType::isDynamic(stride))
        return {base.log2Bytes, 0};
      unsigned k;
      if (std::optional<int64_t> c = getConstantIntValue(ofr))
        k = log2Of(*c);
      else
        k = knownLog2Divisor(cast<Value>(ofr));
      base.offsetLog2 = std::min(base.offsetLog2, addLog2(k, log2Of(stride)));
    }
    return base;
  }
  return {};
}

/// A power-of-two alignment (bytes) of the address `store` writes.
int64_t getStoreAlignment(vector::StoreOp store) {
  MemRefType type = store.getMemRefType();
  if (!type.getElementType().isIntOrFloat() ||
      type.getElementTypeBitWidth() % 8 != 0)
    return 1;
  BaseAlignment base = getBaseAlignment(store.getBase());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (base.log2Bytes == 0 || failed(type.getStridesAndOffset(strides, offset)))
    return 1;
  unsigned elements = base.offsetLog2;
  for (auto [index, stride] : llvm::zip_equal(store.getIndices(), strides)) {
    if (ShapedType::isDynamic(stride))
      return 1;
    elements =
        std::min(elements, addLog2(knownLog2Divisor(index), log2Of(stride)));
  }
  unsigned bytes = addLog2(elements, log2Of(type.getElementTypeBitWidth() / 8));
  // Alignments above 2^62 are meaningless (and would not fit the shift).
  return int64_t(1) << std::min({base.log2Bytes, bytes, 62u});
}

struct PosEncNontemporalStoresPass
    : posenc::impl::PosEncNontemporalStoresBase<PosEncNontemporalStoresPass> {
  using Base::Base;

  void runOnOperation() override {
    FunctionOpInterface func = getOperation();
    if (func.isExternal())
      return;
    // Rank-1, in-bounds, unmasked, minor-identity transfer_writes on
    // memrefs are plain vector.stores (what convert-vector-to-llvm would
    // make of them); others keep their lowering and are not streamed.
    SmallVector<vector::TransferWriteOp> writes;
    func.walk([&](vector::TransferWriteOp write) {
      auto type = dyn_cast<MemRefType>(write.getShapedType());
      SmallVector<int64_t> strides;
      int64_t offset;
      if (type && type.getRank() >= 1 && write.getVectorType().getRank() == 1 &&
          write.getVectorType().getElementType() == type.getElementType() &&
          !write.getMask() && write.getPermutationMap().isMinorIdentity() &&
          llvm::all_of(write.getInBoundsValues(), [](bool b) { return b; }) &&
          succeeded(type.getStridesAndOffset(strides, offset)) &&
          strides.back() == 1)
        writes.push_back(write);
    });
    for (vector::TransferWriteOp write : writes) {
      OpBuilder builder(write);
      vector::StoreOp::create(builder, write.getLoc(), write.getVector(),
                              write.getBase(), write.getIndices());
      write.erase();
    }

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
      int64_t alignment = getStoreAlignment(store);
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
    OpBuilder builder(&getContext());
    for (Operation *op : fenceBefore) {
      builder.setInsertionPoint(op);
      LLVM::FenceOp::create(builder, op->getLoc(),
                            LLVM::AtomicOrdering::seq_cst);
    }
  }
};

} // namespace
