//===- Recompute.cpp - recompute values inside a kernel -------------------===//

#include "Recompute.h"

#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;

void mlir::posenc::recomputeInside(
    RewriterBase &rewriter, Region &region,
    function_ref<bool(Operation *)> canRecompute) {
  SetVector<Value> above;
  getUsedValuesDefinedAbove(region, above);
  SmallVector<Value> worklist(above.begin(), above.end());
  SetVector<Operation *> toClone;
  while (!worklist.empty()) {
    Operation *def = worklist.pop_back_val().getDefiningOp();
    if (!def || toClone.contains(def) || !canRecompute(def))
      continue;
    toClone.insert(def);
    worklist.append(def->operand_begin(), def->operand_end());
  }
  if (toClone.empty())
    return;
  SetVector<Operation *> sorted = topologicalSort(toClone);
  rewriter.setInsertionPointToStart(&region.front());
  IRMapping mapping;
  for (Operation *op : sorted)
    rewriter.clone(*op, mapping);
  Operation *parent = region.getParentOp();
  for (Operation *op : sorted)
    for (Value result : op->getResults())
      rewriter.replaceUsesWithIf(
          result, mapping.lookup(result), [&](OpOperand &use) {
            return parent->isProperAncestor(use.getOwner());
          });
  for (Operation *op : llvm::reverse(sorted))
    if (op->use_empty())
      rewriter.eraseOp(op);
}
