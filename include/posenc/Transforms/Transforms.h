//===- Transforms.h - posenc's reusable codegen transforms ------*- C++ -*-===//
//
// The pieces posenc-tile-and-vectorize is made of, for other lowerings (a
// fused attention kernel, a GPU pipeline) to reuse: tiling a linalg op into
// thread-level blocks with producer fusion, tiling to register-sized pieces
// and vectorizing them, and cleaning up the vector IR. The size heuristics
// live apart (TilingHeuristics.h): callers may choose their own sizes.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_TRANSFORMS_TRANSFORMS_H
#define POSENC_TRANSFORMS_TRANSFORMS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace posenc {

/// Tiles `root` with `scf.forall` into blocks of `blockSizes` (0: the whole
/// dim) and fuses the producers of `fused` (operands of `root`) into every
/// block. Uses of `root` are replaced and `root` is erased when it has no
/// uses left. Fails, changing nothing, when upstream tiling fails.
FailureOr<scf::SCFTileAndFuseResult>
tileIntoBlocks(RewriterBase &rewriter, linalg::LinalgOp root,
               ArrayRef<int64_t> blockSizes, ArrayRef<OpOperand *> fused);

/// Rewrites a fill of a fresh N-D tensor (`tensor.empty` of a static shape,
/// rank >= 2) into a fill of its elements as one 1-D tensor, expanded back
/// to the shape (a view once bufferized). Register tiles of the N-D fill
/// mask every row whose length the lanes do not divide; LLVM unrolls that
/// nest into one block of hundreds of masked stores and memsets, which its
/// SelectionDAG store merging handles in quadratic time (minutes: issue 22).
/// The 1-D fill has one masked tail. Fails, changing nothing, on other fills.
FailureOr<Value> flattenFreshFill(RewriterBase &rewriter, linalg::FillOp fill);

/// Tiles `op` with `scf.for` to `tileSizes` (0: the whole dim) and replaces
/// it. Returns the tiled linalg ops (one per tile loop body).
FailureOr<SmallVector<linalg::LinalgOp>>
tileToRegisters(RewriterBase &rewriter, linalg::LinalgOp op,
                ArrayRef<int64_t> tileSizes);

/// Vectorizes one tile with `vectorSizes` (static, one per loop) and
/// replaces it. Fails, changing nothing, for tiles that must stay scalar
/// (e.g. masked `tensor.extract`, which MLIR 22 vectorizes into invalid IR).
LogicalResult vectorizeTile(RewriterBase &rewriter, linalg::LinalgOp tile,
                            ArrayRef<int64_t> vectorSizes);

/// The vector cleanups after vectorizeTile, in stages (mixing them loops
/// forever): masks into masked transfers; subsets folded into transfers,
/// reductions into contractions, sinking; unit dims dropped.
LogicalResult cleanupVectorIR(Operation *root);

} // namespace posenc
} // namespace mlir

#endif // POSENC_TRANSFORMS_TRANSFORMS_H
