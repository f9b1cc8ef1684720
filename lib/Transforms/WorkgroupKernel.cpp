//===- WorkgroupKernel.cpp - kernels a host dispatches over workgroups ----===//

#include "WorkgroupKernel.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
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
