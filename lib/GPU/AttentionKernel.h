//===- AttentionKernel.h - the GPU attention kernel's pieces ----*- C++ -*-===//
//
// What posenc-attention-to-gpu's kernel is built from, by concern: its shape
// (AttentionKernelShape.cpp, also checked by posenc-verify-gpu-support),
// the phases every kernel runs (staging, logits, the key loop:
// AttentionKernel.cpp), and the two ways of computing a key tile's products:
// scalar f32 (AttentionKernelScalar.cpp) or warp-level tensor-core mma on
// f16/bf16 (AttentionKernelMma.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_LIB_GPU_ATTENTIONKERNEL_H
#define POSENC_LIB_GPU_ATTENTIONKERNEL_H

#include "posenc/Codegen/Emitters.h"
#include "posenc/IR/PosEncOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace posenc {
namespace gpu_attention {

/// The kernel's static shape: block rows R = G * Tq, L lanes per row,
/// C value channels per lane, key tile Tk.
struct KernelShape {
  int64_t group, queryTile, rows, lanes, channels, keyTile, threads;
  int64_t headDim, valueDim, keyPad;
  // Tensor cores: rows padded to the mma's 16, Q/K columns to its k of 16,
  // V columns to its n of 8; tile rows of 16-byte multiples for ldmatrix,
  // plus 16 bytes so that the 8 rows an ldmatrix reads hit different banks.
  bool mma = false;
  int64_t mmaRows = 0, qkWidth = 0, vWidth = 0;
  int64_t qStride() const { return qkWidth + 8; }
  int64_t vStride() const { return vWidth + 8; }
  int64_t pStride() const { return keyTile + 8; }
};

/// The kernel's shape for `op` with about `threads` threads per block,
/// `budget` bytes of workgroup memory and tensor cores when `tensorCores`;
/// an error at `op` when no block fits (over 1024 threads, or the Q tile and
/// one key tile over the budget).
FailureOr<KernelShape> chooseShape(AttentionOp op, int64_t threads,
                                   int64_t budget, bool tensorCores);

inline Value cIdx(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// The kernel being built: the launch's ids, the buffers and the shape.
struct Kernel {
  mutable AttentionOp op;
  KernelShape s;
  Type elementType;
  Value q, k, v, out, invFreq, factor, slopes, qPositions, kPositions, sinks,
      keyLengths, keyMask;
  // Inside the launch; keyEnd: the sequence's key limit (Sk without
  // key_lengths), past which keys are neither staged nor visited.
  Value batch, kvHead, qStart, tid, sq, sk, keyEnd, qShift;
  Value qTile, kTile, vTile, logits;
  Value pTile, pv, warp, lane; // tensor cores only
  SmallVector<Type> sharedTypes;

  /// i64 position of query index `i` (< Sq) and key index `j` (< Sk): for
  /// RoPE, or for the logit rule (`logit`: index positions with
  /// rope_only_positions).
  Value queryPosition(OpBuilder &b, Location loc, Value i,
                      bool logit = false) const {
    if (qPositions && !(logit && op.getRopeOnlyPositions()))
      return emitPosition(b, loc, loadPosition(b, loc, qPositions, i), Value());
    return emitPosition(b, loc, i, qShift ? toI64(b, loc, qShift) : Value());
  }
  Value keyPosition(OpBuilder &b, Location loc, Value j,
                    bool logit = false) const {
    if (kPositions && !(logit && op.getRopeOnlyPositions()))
      return emitPosition(b, loc, loadPosition(b, loc, kPositions, j), Value());
    return emitPosition(b, loc, j, Value());
  }
  Value loadPosition(OpBuilder &b, Location loc, Value positions,
                     Value i) const {
    if (cast<MemRefType>(positions.getType()).getRank() == 1)
      return memref::LoadOp::create(b, loc, positions, ValueRange{i});
    return memref::LoadOp::create(b, loc, positions, ValueRange{batch, i});
  }
};

/// Loops `for t < ceil(total / threads)`, `e = tid + t * threads`, the body
/// under `e < total`: a phase where the block's threads share `total` items.
void forEachItem(OpBuilder &b, Location loc, const Kernel &kn, int64_t total,
                 function_ref<void(OpBuilder &, Location, Value)> body);

/// min(i, n - 1): an in-bounds index for rows past the end, whose values
/// are masked.
Value clampIndex(OpBuilder &b, Location loc, Value i, Value n);

/// Stages the block's Q rows (rotated once) into the Q tile.
void stageQueries(OpBuilder &b, Location loc, const Kernel &kn, bool rope);

/// Stages keys [kt, kt + Tk) into the K tile (rotated) and the V tile.
void stageKeys(OpBuilder &b, Location loc, const Kernel &kn, Value kt,
               bool rope);

/// The logit of row `r` and key `kt + jj` from its dot product `dot`:
/// `dot * scale + alibi`, -inf for keys past Sk and, when causal, for
/// future keys.
Value emitLogit(OpBuilder &b, Location loc, const Kernel &kn, Value kt, Value r,
                Value jj, Value dot);

/// Row `r`'s running max after the tile's logits and the factor that
/// rescales the state kept under `oldMax`.
std::pair<Value, Value> emitTileMax(OpBuilder &b, Location loc,
                                    const Kernel &kn, Value r, Value oldMax);

/// The kernel body at `b` (the launch's block).
void emitKernel(OpBuilder &b, Location loc, Kernel &kn, gpu::LaunchOp launch);

//===----------------------------------------------------------------------===//
// Scalar products (f32, or tensor-cores=false)
//===----------------------------------------------------------------------===//

/// The logits of the tile, one scalar dot product per (row, key).
void emitLogits(OpBuilder &b, Location loc, const Kernel &kn, Value kt);

/// One thread's online-softmax step over the tile: `state` is (max, sum,
/// C accumulators) of row `r`; channel `t` of the thread is `lane + L * t`.
SmallVector<Value> emitRowUpdate(OpBuilder &b, Location loc, const Kernel &kn,
                                 Value r, Value lane, ValueRange state);

//===----------------------------------------------------------------------===//
// Tensor-core products (f16/bf16)
//===----------------------------------------------------------------------===//

/// Zeroes what the mma tiles hold beyond the data and no phase writes (Q
/// rows past R, Q and K columns past D, V columns past Dv, P rows past R),
/// so that padded products are exact zeros.
void zeroPads(OpBuilder &b, Location loc, const Kernel &kn);

/// The tile's logits with tensor cores: Q K^T from the Q and K tiles.
void emitLogitsMma(OpBuilder &b, Location loc, const Kernel &kn, Value kt);

/// The tile's P V with tensor cores, into the f32 `pv` tile.
void emitProductMma(OpBuilder &b, Location loc, const Kernel &kn);

/// Row `r`'s softmax over the tile with tensor cores: the new max, the
/// rescale factor of the old state and the tile's sum of exp (in f32);
/// lane `lane` writes keys lane, lane + L, ... of P, rounded to the
/// element type (what P V multiplies, as in FlashAttention).
SmallVector<Value> emitRowSoftmaxMma(OpBuilder &b, Location loc,
                                     const Kernel &kn, Value r, Value lane,
                                     Value oldMax);

/// The thread's state after a tile with tensor cores: (max, sum * alpha +
/// tile sum, accumulators * alpha + P V).
SmallVector<Value> emitRowAccumulateMma(OpBuilder &b, Location loc,
                                        const Kernel &kn, Value r, Value lane,
                                        ValueRange softmax, ValueRange state);

} // namespace gpu_attention
} // namespace posenc
} // namespace mlir

#endif // POSENC_LIB_GPU_ATTENTIONKERNEL_H
