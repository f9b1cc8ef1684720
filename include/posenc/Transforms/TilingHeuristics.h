//===- TilingHeuristics.h - block, tile and vector sizes --------*- C++ -*-===//
//
// How posenc-tile-and-vectorize chooses what it tiles and by how much; the
// mechanics are in Transforms.h. Sizes are per loop of a linalg op, 0
// meaning "the whole dim".
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_TRANSFORMS_TILINGHEURISTICS_H
#define POSENC_TRANSFORMS_TILINGHEURISTICS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/SmallBitVector.h"

namespace mlir {
namespace posenc {

/// Loop dims of `op` that an indexing map uses inside a floordiv, ceildiv or
/// mod (e.g. GQA's `h floordiv G`). Upstream tiling slices an operand at
/// `map(offset)` and keeps the map for the tile's local indices, which is
/// exact only for linear maps: `(h0 + l) floordiv G != h0 floordiv G +
/// l floordiv G` unless h0 is aligned to G. Such dims are tiled by 1 (local
/// index 0) or not at all.
llvm::SmallBitVector getSemiAffineDims(linalg::LinalgOp op);

/// Whether `op` can be tiled: tensors only, a non-empty static iteration
/// space, TilingInterface implemented.
bool isTileable(linalg::LinalgOp op);

/// Operands of `consumer` worth computing inside its blocks: results of
/// tileable linalg producers on tensors, read through a projected
/// permutation (so that blocks partition the producer's iteration space and
/// nothing is computed twice), whose own maps have no semi-affine dims.
SmallVector<OpOperand *> getFusableOperands(linalg::LinalgOp consumer);

/// Parallel dims of `consumer` that no operand in `fused` indexes: a block
/// keeps them whole, so that a fused producer tile (e.g. RoPE's cos/sin
/// rows, indexed by token and pair but not by head) is computed once per
/// block and reused across them.
llvm::SmallBitVector getReuseDims(linalg::LinalgOp consumer,
                                  ArrayRef<OpOperand *> fused);

/// Block (thread-level) tile sizes of `op`: `reuse` dims and reductions
/// whole, then whole inner parallel dims while the block stays within
/// `blockElements` iterations, a partial tile of the next one (1 for a
/// semi-affine dim), 1 outside. Empty when the whole op is one block.
SmallVector<int64_t> chooseBlockSizes(linalg::LinalgOp op,
                                      const llvm::SmallBitVector &reuse,
                                      int64_t blockElements);

/// Register tile sizes of `op`: the `width` vector lanes go to the innermost
/// parallel dims (innermost first, each up to its static extent, e.g. 8 x 2
/// for an interleaved [..., pairs, 2] view, never across a semi-affine dim),
/// 1 on the other parallel dims, 0 (untiled) on reductions. Two refinements:
/// a transpose (one input read through a permutation) also gives `width` to
/// the input's innermost dim (a lanes x lanes tile); a contraction whose
/// lanes are on an N dim gets 8 rows of its innermost M dim with more than
/// one row, when every tile is then full (no masks).
SmallVector<int64_t> chooseRegisterTileSizes(linalg::LinalgOp op,
                                             int64_t width);

/// Vector sizes of a register tile: the tile sizes, and the full (static)
/// extent of untiled dims. Empty (stay scalar) when a reduction extent is
/// dynamic or zero, or the vector would be too large to compile quickly
/// (2^12 elements; 2^15 for full contraction tiles, which lower to outer
/// products).
SmallVector<int64_t> chooseVectorSizes(linalg::LinalgOp tile,
                                       ArrayRef<int64_t> tileSizes);

/// GPU tiles of `op` (static ranges), as extents per loop: `thread` is one
/// thread's tile, `block` one block's (a multiple of `thread` on each dim,
/// or the whole dim).
struct GPUTileSizes {
  SmallVector<int64_t> block;
  SmallVector<int64_t> thread;
};

/// GPU tiles of `op`: a thread owns `threadTile` consecutive elements of the
/// innermost parallel dim (1 if it is semi-affine), one element of the other
/// parallel dims and whole reductions. A block holds about `threads` thread
/// tiles: inner parallel dims whole while they fit (consecutive threads then
/// touch consecutive addresses), then a part of the next one (1 for a
/// semi-affine dim), one thread tile of the outer ones.
GPUTileSizes chooseGPUTileSizes(linalg::LinalgOp op, int64_t threads,
                                int64_t threadTile);

} // namespace posenc
} // namespace mlir

#endif // POSENC_TRANSFORMS_TILINGHEURISTICS_H
