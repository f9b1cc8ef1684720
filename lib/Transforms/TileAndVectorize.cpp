//===- TileAndVectorize.cpp - the posenc-tile-and-vectorize pass ----------===//
//
// A driver over Transforms.h with the sizes of TilingHeuristics.h.
//
//===----------------------------------------------------------------------===//

#include "posenc/Transforms/Passes.h"
#include "posenc/Transforms/TilingHeuristics.h"
#include "posenc/Transforms/Transforms.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/TilingInterfaceImpl.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/CSE.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "posenc-tile-and-vectorize"

namespace mlir {
namespace posenc {
#define GEN_PASS_DEF_POSENCTILEANDVECTORIZE
#include "posenc/Transforms/Passes.h.inc"
} // namespace posenc
} // namespace mlir

using namespace mlir;
using namespace mlir::posenc;

namespace {

/// Level 1: each linalg op whose result no other linalg op consumes becomes
/// scf.forall blocks (one task per block on the CPU pipeline's threads) with
/// its direct producers fused. Returns whether any op was tiled.
bool tileRootsIntoBlocks(RewriterBase &rewriter, FunctionOpInterface func,
                         int64_t blockElements) {
  SmallVector<linalg::LinalgOp> roots;
  func.walk([&](linalg::LinalgOp op) {
    if (!isTileable(op) || op->getParentOfType<scf::ForallOp>())
      return;
    if (llvm::none_of(op->getUsers(), llvm::IsaPred<linalg::LinalgOp>))
      roots.push_back(op);
  });
  for (linalg::LinalgOp root : llvm::reverse(roots)) {
    SmallVector<OpOperand *> fused = getFusableOperands(root);
    SmallVector<int64_t> blockSizes =
        chooseBlockSizes(root, getReuseDims(root, fused), blockElements);
    if (blockSizes.empty())
      continue;
    if (failed(tileIntoBlocks(rewriter, root, blockSizes, fused)))
      LDBG() << "no blocks (still correct): " << root;
  }
  // Producers fused into every consumer are dead now.
  SmallVector<linalg::LinalgOp> dead;
  func.walk([&](linalg::LinalgOp op) {
    if (op.hasPureTensorSemantics() && op->use_empty() &&
        isMemoryEffectFree(op))
      dead.push_back(op);
  });
  for (linalg::LinalgOp op : dead)
    rewriter.eraseOp(op);
  return !roots.empty();
}

/// Between the levels: fills of fresh tensors (not fused into a consumer's
/// blocks, which fills slices) become 1-D fills (flattenFreshFill).
void flattenFreshFills(RewriterBase &rewriter, FunctionOpInterface func) {
  SmallVector<linalg::FillOp> fills;
  func.walk([&](linalg::FillOp fill) { fills.push_back(fill); });
  for (linalg::FillOp fill : fills)
    (void)flattenFreshFill(rewriter, fill);
}

/// Level 2: every tileable op, inside blocks or not, tiled to register-sized
/// pieces and vectorized where the heuristics allow.
void tileAndVectorizeToRegisters(RewriterBase &rewriter,
                                 FunctionOpInterface func,
                                 int64_t vectorWidth) {
  SmallVector<linalg::LinalgOp> targets;
  func.walk([&](linalg::LinalgOp op) {
    if (isTileable(op))
      targets.push_back(op);
  });
  for (linalg::LinalgOp op : targets) {
    SmallVector<int64_t> tileSizes = chooseRegisterTileSizes(op, vectorWidth);
    FailureOr<SmallVector<linalg::LinalgOp>> tiles =
        tileToRegisters(rewriter, op, tileSizes);
    if (failed(tiles))
      continue; // left whole: it still lowers, just without vectors
    for (linalg::LinalgOp tile : *tiles) {
      SmallVector<int64_t> vectorSizes = chooseVectorSizes(tile, tileSizes);
      if (!vectorSizes.empty() &&
          failed(vectorizeTile(rewriter, tile, vectorSizes)))
        LDBG() << "stays scalar: " << tile;
    }
  }
}

struct PosEncTileAndVectorizePass
    : posenc::impl::PosEncTileAndVectorizeBase<PosEncTileAndVectorizePass> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    // Tiling goes through linalg's TilingInterface models. Hosts that do not
    // register every upstream extension (unlike mlir-opt and posenc-opt)
    // would otherwise leave the promised interface unimplemented.
    linalg::registerTilingInterfaceExternalModels(registry);
  }

  void runOnOperation() override {
    FunctionOpInterface func = getOperation();
    if (vectorWidth <= 0) {
      func.emitError("vector-width must be positive");
      return signalPassFailure();
    }
    if (blockElements <= 0) {
      func.emitError("block-elements must be positive");
      return signalPassFailure();
    }
    IRRewriter rewriter(&getContext());
    if (tileRootsIntoBlocks(rewriter, func, blockElements)) {
      // A producer with several results read by one consumer (RoPE's cos
      // and sin rows) is fused once per result: the copies are identical.
      DominanceInfo domInfo(func);
      eliminateCommonSubExpressions(rewriter, domInfo, func);
    }
    flattenFreshFills(rewriter, func);
    tileAndVectorizeToRegisters(rewriter, func, vectorWidth);
    if (failed(cleanupVectorIR(func)))
      return signalPassFailure();
  }
};

} // namespace
