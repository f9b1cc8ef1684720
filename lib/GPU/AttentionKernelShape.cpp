//===- AttentionKernelShape.cpp - the GPU attention kernel's shape -------===//
//
// Rows, lanes, channels and the key tile of posenc-attention-to-gpu's block,
// from the op's static shape, the threads aimed at and the workgroup memory.
//
//===----------------------------------------------------------------------===//

#include "AttentionKernel.h"

#include "llvm/Support/MathExtras.h"

#include <numeric>

using namespace mlir;
using namespace mlir::posenc;
using namespace mlir::posenc::gpu_attention;

namespace {

/// Bytes of workgroup memory the tiles take.
int64_t sharedBytes(const KernelShape &s, int64_t elementBytes) {
  if (s.mma)
    return elementBytes * (s.mmaRows * s.qStride() + s.keyTile * s.qStride() +
                           s.keyTile * s.vStride() + s.mmaRows * s.pStride()) +
           4 * s.rows * (s.keyTile + 1) + 4 * s.rows * s.vWidth;
  return elementBytes * (s.rows * s.headDim + s.keyTile * s.keyPad +
                         s.keyTile * s.valueDim) +
         4 * s.rows * (s.keyTile + 1);
}

} // namespace

FailureOr<KernelShape> gpu_attention::chooseShape(AttentionOp op,
                                                  int64_t threads,
                                                  int64_t budget,
                                                  bool tensorCores) {
  auto qType = cast<RankedTensorType>(op.getQuery().getType());
  auto kType = cast<RankedTensorType>(op.getKey().getType());
  auto vType = cast<RankedTensorType>(op.getValue().getType());
  // Head counts and head dims are static (the op verifier).
  KernelShape s;
  s.group = qType.getDimSize(1) / kType.getDimSize(1);
  s.headDim = qType.getDimSize(3);
  s.valueDim = vType.getDimSize(3);
  int64_t elementBytes = qType.getElementTypeBitWidth() / 8;
  s.mma = tensorCores && isa<Float16Type, BFloat16Type>(qType.getElementType());
  // One spare 32-bit word per K row: the logit phase's threads read rows
  // Tk apart, which would otherwise hit one bank.
  s.keyPad = s.headDim + std::max<int64_t>(1, 4 / elementBytes);
  // At most 32 accumulators per thread: they live in registers.
  int64_t minLanes = llvm::divideCeil(s.valueDim, 32);
  s.queryTile = std::max<int64_t>(1, threads / (s.group * minLanes));
  int64_t sq = qType.getDimSize(2);
  if (!ShapedType::isDynamic(sq))
    s.queryTile = std::min(s.queryTile, std::max<int64_t>(sq, 1));
  // Tensor cores: whole 16-row mma tiles unless Sq is shorter.
  int64_t unit = 16 / std::gcd<int64_t>(s.group, 16);
  if (s.mma && (ShapedType::isDynamic(sq) || sq >= unit))
    s.queryTile = unit * std::max<int64_t>(1, s.queryTile / unit);
  s.rows = s.group * s.queryTile;
  s.lanes = std::min(std::max(minLanes, threads / s.rows), s.valueDim);
  // Warp-level ops need whole warps: lanes past Dv own no channel.
  if (s.mma)
    s.lanes = llvm::alignTo(s.lanes, 32 / std::gcd<int64_t>(s.rows, 32));
  s.threads = s.rows * s.lanes;
  s.mmaRows = llvm::alignTo(s.rows, 16);
  s.qkWidth = llvm::alignTo(s.headDim, 16);
  s.vWidth = llvm::alignTo(s.valueDim, 8);
  s.channels = llvm::divideCeil(s.valueDim, s.lanes);
  if (s.threads > 1024)
    return op.emitOpError("needs ")
           << s.threads << " threads per block on the GPU (" << s.rows
           << " rows: G = " << s.group << " query heads per kv head, "
           << s.lanes << " lanes per row for Dv = " << s.valueDim
           << "), over the limit of 1024";
  // An mma's k (P V) and n (Q K^T) need whole 16-key tiles.
  int64_t minKeyTile = s.mma ? 16 : 1;
  for (s.keyTile = 64; s.keyTile > minKeyTile; s.keyTile /= 2)
    if (sharedBytes(s, elementBytes) <= budget)
      break;
  if (sharedBytes(s, elementBytes) > budget)
    return op.emitOpError("needs ")
           << sharedBytes(s, elementBytes)
           << " bytes of GPU workgroup memory (Q tile " << s.rows << " x "
           << s.headDim << ", key tile " << s.keyTile << "), over the "
           << budget << " of shared-memory";
  return s;
}
