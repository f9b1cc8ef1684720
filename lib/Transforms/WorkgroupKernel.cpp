//===- WorkgroupKernel.cpp - kernels a host dispatches over workgroups ----===//

#include "WorkgroupKernel.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;

BlockArgument mlir::posenc::getMarkedArgument(FunctionOpInterface func,
                                              StringRef marker) {
  if (func.isExternal())
    return {};
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
    if (func.getArgAttr(i, marker))
      return func.getArgument(i);
  return {};
}

Value mlir::posenc::getRootBuffer(Value value) {
  while (true) {
    if (auto view = value.getDefiningOp<ViewLikeOpInterface>()) {
      value = view.getViewSource();
      continue;
    }
    if (auto loop = value.getDefiningOp<scf::ForOp>()) {
      value = loop.getInits()[cast<OpResult>(value).getResultNumber()];
      continue;
    }
    auto arg = dyn_cast<BlockArgument>(value);
    if (auto loop = arg ? dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp())
                        : nullptr) {
      if (OpOperand *init = loop.getTiedLoopInit(arg)) {
        value = init->get();
        continue;
      }
    }
    return value;
  }
}

bool mlir::posenc::isPrivateBuffer(Value buffer, Value scratch) {
  Value root = getRootBuffer(buffer);
  return (scratch && root == scratch) ||
         isa_and_present<memref::AllocOp, memref::AllocaOp>(
             root.getDefiningOp());
}

Operation *mlir::posenc::findSharedWrite(Operation *root, Value scratch,
                                         Operation *skip) {
  Operation *found = nullptr;
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == skip)
      return WalkResult::skip();
    // A prefetch declares it writes its memref (upstream) but changes none.
    if (isa<memref::PrefetchOp>(op))
      return WalkResult::advance();
    // An op's own effects first (linalg ops on buffers have both theirs
    // and recursive ones); nested ops are visited next.
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects) {
      if (op->hasTrait<OpTrait::HasRecursiveMemoryEffects>() ||
          op->hasTrait<OpTrait::IsTerminator>() || isa<FunctionOpInterface>(op))
        return WalkResult::advance();
      found = op;
      return WalkResult::interrupt();
    }
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffects(instances);
    for (MemoryEffects::EffectInstance &effect : instances) {
      if (!isa<MemoryEffects::Write>(effect.getEffect()))
        continue;
      Value written = effect.getValue();
      if (!written || !isPrivateBuffer(written, scratch)) {
        found = op;
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return found;
}

scf::ForallOp mlir::posenc::findSplitForall(FunctionOpInterface func,
                                            Value scratch) {
  if (func.isExternal())
    return {};
  scf::ForallOp last;
  for (auto forall : func.getFunctionBody().front().getOps<scf::ForallOp>()) {
    if (findSharedWrite(forall, scratch))
      return {};
    last = forall;
  }
  if (!last)
    return {};
  for (Operation *op = last->getNextNode(); op; op = op->getNextNode())
    if (findSharedWrite(op, scratch))
      return last;
  return {};
}
