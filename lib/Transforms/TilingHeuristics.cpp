//===- TilingHeuristics.cpp - block, tile and vector sizes ---------------===//

#include "posenc/Transforms/TilingHeuristics.h"

#include "mlir/Interfaces/TilingInterface.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::posenc;

namespace {

/// Tiles whose vector would exceed this many elements stay scalar: a static
/// reduction extent (or vector-width) is user input, and vectorizing builds
/// IR (masks, constants) proportional to the vector size. Reductions are
/// untiled, and the CPU pipeline unrolls a vectorized one into an op per
/// reduction element (lower-vector-multi-reduction), in one block, which
/// convert-vector-to-llvm and convert-math-to-libm handle in quadratic time:
/// 2^16 elements (a 4096-position bounds check, or attention over 4096 keys
/// x 16 lanes) took minutes. At 2^12 the worst case compiles in ~2 s.
constexpr int64_t kMaxVectorElements = int64_t(1) << 12;

/// Tiles whose reduction would unroll into more steps than this stay scalar.
/// Each step is one vector op of the tile's parallel lanes, so a 1-lane
/// tile (e.g. a row of a block one row high) reducing 4096 elements became
/// 4096 dependent scalar ops in one basic block, which LLVM's JIT took over a
/// minute to compile; 16 lanes x 256 steps compiles in about a second.
constexpr int64_t kMaxReductionSteps = 256;

/// Rows of a contraction's register tile (its innermost M dim): each row of
/// the right-hand side loaded feeds this many FMAs, and the accumulators
/// (rows x one vector) fit the 16 vector registers of AVX2 with room for the
/// operands, and hide the FMA latency of both FMA ports.
constexpr int64_t kContractionRows = 8;

/// Contraction tiles are allowed this many vector elements: they lower to
/// outer products (one FMA per row and reduction step), whose IR grows with
/// rows x steps, not with the vector size.
constexpr int64_t kMaxContractionElements = int64_t(1) << 15;

/// AVX-512's 16-lane vectors come with 32 registers: a contraction tile of
/// kContractionRows rows x 2 vectors keeps 16 accumulators, and each
/// broadcast left-hand-side element feeds two FMAs. With one vector per row
/// (8 accumulators), the broadcast loads outnumbered the FMAs and the QK^T
/// micro-kernel of bench/attention case a ran at 63% of the sgemm rate.
constexpr int64_t kWideContractionWidth = 16;

/// Whether tiles of `sizes` (0: whole) cover the static `ranges` without a
/// partial (masked) tile.
bool tilesExactly(ArrayRef<int64_t> ranges, ArrayRef<int64_t> sizes) {
  for (auto [range, size] : llvm::zip_equal(ranges, sizes))
    if (ShapedType::isDynamic(range) || (size != 0 && range % size != 0))
      return false;
  return true;
}

/// A full contraction tile of `sizes` (rows x `width` lanes) at 2 x `width`
/// lanes on the hosts of kWideContractionWidth, where the lanes dim divides
/// exactly and the tile stays within kMaxContractionElements.
void widenContractionTile(ArrayRef<int64_t> ranges,
                          ArrayRef<utils::IteratorType> iterators,
                          int64_t width, SmallVectorImpl<int64_t> &sizes) {
  if (width != kWideContractionWidth)
    return;
  unsigned lanesDim = 0;
  for (auto [i, it] : llvm::enumerate(iterators))
    if (it == utils::IteratorType::parallel)
      lanesDim = i;
  if (sizes[lanesDim] != width || ShapedType::isDynamic(ranges[lanesDim]) ||
      ranges[lanesDim] % (2 * width) != 0)
    return;
  int64_t elements = 2;
  for (auto [range, size] : llvm::zip_equal(ranges, sizes))
    elements *= size != 0 ? size : range;
  if (elements <= kMaxContractionElements)
    sizes[lanesDim] *= 2;
}

/// The innermost M dim of a contraction whose innermost parallel dim is an
/// N dim (read by the right-hand side, where the vector lanes go), if any.
std::optional<unsigned> getRowDim(linalg::LinalgOp op) {
  if (op.getNumReductionLoops() == 0 || op.getNumDpsInputs() != 2)
    return std::nullopt;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.empty() || dims->n.empty() || dims->k.empty())
    return std::nullopt;
  unsigned innermost = 0;
  for (auto [i, it] : llvm::enumerate(op.getIteratorTypesArray()))
    if (it == utils::IteratorType::parallel)
      innermost = i;
  if (!llvm::is_contained(dims->n, innermost))
    return std::nullopt;
  // The innermost M dim with more than one row (a decode block is
  // [G heads, 1 query]: the rows are the heads).
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<unsigned> rows(dims->m.begin(), dims->m.end());
  llvm::sort(rows);
  for (unsigned dim : llvm::reverse(rows))
    if (ranges[dim] != 1)
      return dim;
  return rows.back();
}

} // namespace

llvm::SmallBitVector mlir::posenc::getSemiAffineDims(linalg::LinalgOp op) {
  llvm::SmallBitVector dims(op.getNumLoops(), false);
  for (AffineMap map : op.getIndexingMapsArray())
    for (AffineExpr result : map.getResults())
      result.walk([&](AffineExpr expr) {
        if (expr.getKind() != AffineExprKind::FloorDiv &&
            expr.getKind() != AffineExprKind::CeilDiv &&
            expr.getKind() != AffineExprKind::Mod)
          return;
        expr.walk([&](AffineExpr inner) {
          if (auto dim = dyn_cast<AffineDimExpr>(inner))
            dims.set(dim.getPosition());
        });
      });
  return dims;
}

bool mlir::posenc::isTileable(linalg::LinalgOp op) {
  // Ops with an empty (static 0) iteration space compute nothing, and tiling
  // them crashes upstream (MLIR 22 linalg::computeTileSizes).
  return op.hasPureTensorSemantics() && op.getNumLoops() > 0 &&
         !llvm::is_contained(op.getStaticLoopRanges(), 0) &&
         isa<TilingInterface>(op.getOperation());
}

SmallVector<OpOperand *>
mlir::posenc::getFusableOperands(linalg::LinalgOp consumer) {
  SmallVector<OpOperand *> fused;
  for (OpOperand *operand : consumer.getDpsInputOperands()) {
    auto producer = operand->get().getDefiningOp<linalg::LinalgOp>();
    if (!producer || !isTileable(producer) ||
        !consumer.getMatchingIndexingMap(operand).isProjectedPermutation() ||
        getSemiAffineDims(producer).any())
      continue;
    fused.push_back(operand);
  }
  return fused;
}

llvm::SmallBitVector mlir::posenc::getReuseDims(linalg::LinalgOp consumer,
                                                ArrayRef<OpOperand *> fused) {
  llvm::SmallBitVector reuse(consumer.getNumLoops(), false);
  if (fused.empty())
    return reuse;
  for (auto [i, it] : llvm::enumerate(consumer.getIteratorTypesArray()))
    reuse[i] = it == utils::IteratorType::parallel;
  for (OpOperand *operand : fused)
    for (AffineExpr expr :
         consumer.getMatchingIndexingMap(operand).getResults())
      if (auto dim = dyn_cast<AffineDimExpr>(expr))
        reuse[dim.getPosition()] = false;
  return reuse;
}

SmallVector<int64_t>
mlir::posenc::chooseBlockSizes(linalg::LinalgOp op,
                               const llvm::SmallBitVector &reuse,
                               int64_t blockElements) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  llvm::SmallBitVector semiAffine = getSemiAffineDims(op);
  SmallVector<int64_t> sizes(ranges.size(), 0);
  int64_t elements = 1;
  auto grow = [&](int64_t extent) {
    // Dynamic extents count as large.
    if (ShapedType::isDynamic(extent) || extent > blockElements / elements)
      elements = blockElements + 1;
    else
      elements *= extent;
  };
  for (auto [i, range] : llvm::enumerate(ranges))
    if (iterators[i] != utils::IteratorType::parallel || reuse[i])
      grow(range);
  bool tiled = false;
  for (int64_t i = static_cast<int64_t>(ranges.size()) - 1; i >= 0; --i) {
    if (iterators[i] != utils::IteratorType::parallel || reuse[i])
      continue;
    if (tiled) {
      sizes[i] = 1;
      continue;
    }
    int64_t range = ranges[i];
    if (!ShapedType::isDynamic(range) && elements <= blockElements &&
        range <= blockElements / elements) {
      elements *= range;
      continue; // whole
    }
    sizes[i] =
        std::max<int64_t>(1, blockElements / std::max<int64_t>(1, elements));
    if (!ShapedType::isDynamic(range))
      sizes[i] = std::min(sizes[i], range);
    if (semiAffine[i])
      sizes[i] = 1;
    tiled = true;
  }
  if (!tiled)
    return {};
  return sizes;
}

SmallVector<int64_t> mlir::posenc::chooseRegisterTileSizes(linalg::LinalgOp op,
                                                           int64_t width) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  llvm::SmallBitVector semiAffine = getSemiAffineDims(op);
  SmallVector<int64_t> sizes(ranges.size(), 0);
  for (auto [i, it] : llvm::enumerate(iterators))
    if (it == utils::IteratorType::parallel)
      sizes[i] = 1;
  int64_t lanes = width;
  for (int64_t i = static_cast<int64_t>(ranges.size()) - 1; i >= 0 && lanes > 1;
       --i) {
    if (iterators[i] != utils::IteratorType::parallel)
      continue;
    if (semiAffine[i])
      break; // lanes stop here: an outer dim would not be contiguous
    int64_t extent = ranges[i];
    if (ShapedType::isDynamic(extent)) {
      sizes[i] = lanes;
      break;
    }
    sizes[i] = std::min(lanes, extent);
    lanes /= sizes[i];
    if (extent > sizes[i])
      break; // a partial tile of this dim: outer dims stay 1
  }
  // Transposes (one input read through a permutation): the input's innermost
  // dim gets lanes too, so a tile reads whole rows of both layouts and
  // transposes in registers instead of gathering one element per lane.
  if (op.getNumDpsInputs() == 1 && op.getNumDpsInits() == 1 &&
      op.getNumReductionLoops() == 0) {
    AffineMap map = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
    if (map.isPermutation() && !map.isIdentity() && map.getNumResults() > 0) {
      unsigned inner =
          cast<AffineDimExpr>(map.getResults().back()).getPosition();
      int64_t extent = ranges[inner];
      if (sizes[inner] == 1 && !semiAffine[inner])
        sizes[inner] = ShapedType::isDynamic(extent)
                           ? width
                           : std::min<int64_t>(width, extent);
    }
  }
  // Contractions: several rows per tile, so that each right-hand-side vector
  // loaded feeds several FMAs (an outer-product micro-kernel).
  // Only where every tile is full: a masked tile's broadcasting operand
  // reads stay whole-iteration-space vectors (8 x 16 x 128 lanes), which
  // LLVM took minutes to compile.
  std::optional<unsigned> row = getRowDim(op);
  if (row && sizes[*row] == 1 && !semiAffine[*row]) {
    int64_t rows = std::min(kContractionRows, ranges[*row]);
    sizes[*row] = rows;
    if (!tilesExactly(ranges, sizes))
      sizes[*row] = 1;
    else
      widenContractionTile(ranges, iterators, width, sizes);
  }
  return sizes;
}

SmallVector<int64_t>
mlir::posenc::chooseVectorSizes(linalg::LinalgOp tiled,
                                ArrayRef<int64_t> tileSizes) {
  SmallVector<int64_t> ranges = tiled.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = tiled.getIteratorTypesArray();
  SmallVector<int64_t> sizes;
  int64_t elements = 1, steps = 1;
  const int64_t maxElements =
      getRowDim(tiled) && tilesExactly(ranges, tileSizes)
          ? kMaxContractionElements
          : kMaxVectorElements;
  for (auto [range, tile, iterator] :
       llvm::zip_equal(ranges, tileSizes, iterators)) {
    int64_t size = tile != 0 ? tile : range;
    // Dynamic reductions and empty extents (no vector type) stay scalar.
    if (ShapedType::isDynamic(size) || size == 0)
      return {};
    if (size > maxElements / elements)
      return {};
    if (iterator == utils::IteratorType::reduction) {
      if (size > kMaxReductionSteps / steps)
        return {};
      steps *= size;
    }
    elements *= size;
    sizes.push_back(size);
  }
  // 16-bit float vectors of odd lengths (<9 x bfloat> masked loads, from a
  // head dim of 9 at 16 lanes) abort LLVM 22's JIT in type legalization
  // ("Do not know how to soft promote this operator's operand"): such tiles
  // stay scalar.
  bool halfFloats = llvm::any_of(tiled->getOperandTypes(), [](Type type) {
    Type element = getElementTypeOrSelf(type);
    return element.isBF16() || element.isF16();
  });
  if (halfFloats && !llvm::isPowerOf2_64(elements))
    return {};
  return sizes;
}

GPUTileSizes mlir::posenc::chooseGPUTileSizes(linalg::LinalgOp op,
                                              int64_t threads,
                                              int64_t threadTile) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  llvm::SmallBitVector semiAffine = getSemiAffineDims(op);
  GPUTileSizes sizes;
  sizes.thread = ranges;
  SmallVector<unsigned> parallel; // innermost first
  for (int64_t i = static_cast<int64_t>(ranges.size()) - 1; i >= 0; --i)
    if (iterators[i] == utils::IteratorType::parallel)
      parallel.push_back(i);
  for (unsigned dim : parallel)
    sizes.thread[dim] = 1;
  if (!parallel.empty() && !semiAffine[parallel.front()])
    sizes.thread[parallel.front()] =
        std::clamp<int64_t>(threadTile, 1, ranges[parallel.front()]);
  sizes.block = sizes.thread;
  int64_t left = std::max<int64_t>(1, threads);
  for (unsigned dim : parallel) {
    int64_t tiles = llvm::divideCeil(ranges[dim], sizes.thread[dim]);
    if (tiles <= left) {
      sizes.block[dim] = ranges[dim];
      left /= tiles;
      continue;
    }
    if (!semiAffine[dim])
      sizes.block[dim] = left * sizes.thread[dim];
    break;
  }
  return sizes;
}
