//===- AttentionKernelMma.cpp - tensor-core products of the GPU kernel ---===//
//
// f16/bf16 attention with tensor-cores: Q K^T and the tile's P V as
// warp-level m16n8k16 nvgpu.mma.sync on fragments loaded by nvgpu.ldmatrix
// from the staged tiles (padded with zeros), the softmax per row in f32.
//
//===----------------------------------------------------------------------===//

#include "AttentionKernel.h"

#include "posenc/Codegen/AttentionEmitters.h"
#include "posenc/IR/PosEncNumerics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::posenc;
using namespace mlir::posenc::gpu_attention;

namespace {

/// The 16x16 A fragment at (row0, col0) of `tile` (ldmatrix x4: lane l
/// gives row l % 8 of matrix l / 8, matrices at (0, 0), (8, 0), (0, 8),
/// (8, 8)).
Value loadFragmentA(OpBuilder &b, Location loc, const Kernel &kn, Value tile,
                    Value row0, Value col0) {
  Value l8 = arith::RemUIOp::create(b, loc, kn.lane, cIdx(b, loc, 8));
  Value m = arith::DivUIOp::create(b, loc, kn.lane, cIdx(b, loc, 8));
  Value row = arith::AddIOp::create(
      b, loc, arith::AddIOp::create(b, loc, row0, l8),
      arith::MulIOp::create(b, loc,
                            arith::RemUIOp::create(b, loc, m, cIdx(b, loc, 2)),
                            cIdx(b, loc, 8)));
  Value col = arith::AddIOp::create(
      b, loc, col0,
      arith::MulIOp::create(b, loc,
                            arith::DivUIOp::create(b, loc, m, cIdx(b, loc, 2)),
                            cIdx(b, loc, 8)));
  return nvgpu::LdMatrixOp::create(
      b, loc, VectorType::get({4, 2}, kn.elementType), tile,
      ValueRange{row, col}, b.getBoolAttr(false), b.getI32IntegerAttr(4));
}

/// The 16x8 (k x n) B fragment from `tile` (ldmatrix x2, lanes 0-15 give
/// the rows of matrices 0 and 1, lanes 16-31 repeat them): without
/// `transpose` the tile's rows are B's columns (K: row n0 + l % 8, columns
/// k0 + 8 (l / 8)); with it, B's rows (V: row k0 + l % 8 + 8 (l / 8)).
Value loadFragmentB(OpBuilder &b, Location loc, const Kernel &kn, Value tile,
                    Value k0, Value n0, bool transpose) {
  Value l8 = arith::RemUIOp::create(b, loc, kn.lane, cIdx(b, loc, 8));
  Value m8 = arith::MulIOp::create(
      b, loc,
      arith::RemUIOp::create(
          b, loc, arith::DivUIOp::create(b, loc, kn.lane, cIdx(b, loc, 8)),
          cIdx(b, loc, 2)),
      cIdx(b, loc, 8));
  Value row, col;
  if (transpose) {
    row = arith::AddIOp::create(b, loc, arith::AddIOp::create(b, loc, k0, l8),
                                m8);
    col = n0;
  } else {
    row = arith::AddIOp::create(b, loc, n0, l8);
    col = arith::AddIOp::create(b, loc, k0, m8);
  }
  return nvgpu::LdMatrixOp::create(
      b, loc, VectorType::get({2, 2}, kn.elementType), tile,
      ValueRange{row, col}, b.getBoolAttr(transpose), b.getI32IntegerAttr(2));
}

/// `body(rowBase, colBase, owned)` for the 16x8 output blocks of an mma
/// product with `colBlocks` blocks per 16 rows, round robin over the warps.
/// Every warp takes the same number of steps (warp-level ops and barriers
/// run in every thread); a warp past the last block recomputes it
/// (`owned` false) and stores nothing.
void forEachMmaBlock(
    OpBuilder &b, Location loc, const Kernel &kn, int64_t colBlocks,
    function_ref<void(OpBuilder &, Location, Value, Value, Value)> body) {
  const KernelShape &s = kn.s;
  int64_t blocks = s.mmaRows / 16 * colBlocks, warps = s.threads / 32;
  scf::ForOp::create(
      b, loc, cIdx(b, loc, 0), cIdx(b, loc, llvm::divideCeil(blocks, warps)),
      cIdx(b, loc, 1), ValueRange{},
      [&](OpBuilder &nb, Location nloc, Value step, ValueRange) {
        Value raw = arith::AddIOp::create(
            nb, nloc, kn.warp,
            arith::MulIOp::create(nb, nloc, step, cIdx(nb, nloc, warps)));
        Value owned = arith::CmpIOp::create(nb, nloc, arith::CmpIPredicate::ult,
                                            raw, cIdx(nb, nloc, blocks));
        Value block =
            arith::MinUIOp::create(nb, nloc, raw, cIdx(nb, nloc, blocks - 1));
        Value rowBase = arith::MulIOp::create(
            nb, nloc,
            arith::DivUIOp::create(nb, nloc, block, cIdx(nb, nloc, colBlocks)),
            cIdx(nb, nloc, 16));
        Value colBase = arith::MulIOp::create(
            nb, nloc,
            arith::RemUIOp::create(nb, nloc, block, cIdx(nb, nloc, colBlocks)),
            cIdx(nb, nloc, 8));
        body(nb, nloc, rowBase, colBase, owned);
        scf::YieldOp::create(nb, nloc);
      });
}

/// The 16x8 product at (rowBase, colBase) of A = `a` [rows, k] and B from
/// `bTile` over k in [0, depth): f32 accumulators of mma.sync m16n8k16.
Value emitMmaBlock(OpBuilder &b, Location loc, const Kernel &kn, Value a,
                   Value bTile, bool transposeB, int64_t depth, Value rowBase,
                   Value colBase) {
  Value acc = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(VectorType::get({2, 2}, b.getF32Type()),
                             b.getF32FloatAttr(0.0f)));
  for (int64_t k0 = 0; k0 < depth; k0 += 16) {
    Value k = cIdx(b, loc, k0);
    Value fa = loadFragmentA(b, loc, kn, a, rowBase, k);
    Value fb = transposeB ? loadFragmentB(b, loc, kn, bTile, k, colBase, true)
                          : loadFragmentB(b, loc, kn, bTile, k, colBase, false);
    acc = nvgpu::MmaSyncOp::create(b, loc, fa, fb, acc,
                                   ArrayRef<int64_t>{16, 8, 16});
  }
  return acc;
}

/// `store(row, col, x)` for the lane's four accumulator elements of the
/// block at (rowBase, colBase) (rows g and g + 8, columns 2 t and 2 t + 1
/// of group g = l / 4, t = l % 4), for rows < R of blocks the warp owns.
void storeFragment(
    OpBuilder &b, Location loc, const Kernel &kn, Value acc, Value rowBase,
    Value colBase, Value owned,
    function_ref<void(OpBuilder &, Location, Value, Value, Value)> store) {
  Value g = arith::DivUIOp::create(b, loc, kn.lane, cIdx(b, loc, 4));
  Value t2 = arith::MulIOp::create(
      b, loc, arith::RemUIOp::create(b, loc, kn.lane, cIdx(b, loc, 4)),
      cIdx(b, loc, 2));
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 2; ++j) {
      Value row = arith::AddIOp::create(
          b, loc, rowBase,
          arith::AddIOp::create(b, loc, g, cIdx(b, loc, 8 * i)));
      Value col = arith::AddIOp::create(
          b, loc, colBase, arith::AddIOp::create(b, loc, t2, cIdx(b, loc, j)));
      Value x = vector::ExtractOp::create(b, loc, acc, ArrayRef<int64_t>{i, j});
      Value valid = arith::AndIOp::create(
          b, loc, owned,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row,
                                cIdx(b, loc, kn.s.rows)));
      scf::IfOp::create(b, loc, valid, [&](OpBuilder &ib, Location iloc) {
        store(ib, iloc, row, col, x);
        scf::YieldOp::create(ib, iloc);
      });
    }
}

} // namespace

/// Zeroes what the mma tiles hold beyond the data and no phase writes (Q
/// rows past R, Q and K columns past D, V columns past Dv, P rows past R),
/// so that padded products are exact zeros.
void gpu_attention::zeroPads(OpBuilder &b, Location loc, const Kernel &kn) {
  const KernelShape &s = kn.s;
  Value zero = arith::ConstantOp::create(b, loc, kn.elementType,
                                         b.getZeroAttr(kn.elementType));
  auto fill = [&](Value tile, int64_t row0, int64_t row1, int64_t col0,
                  int64_t col1) {
    int64_t width = col1 - col0;
    if (row1 <= row0 || width <= 0)
      return;
    forEachItem(
        b, loc, kn, (row1 - row0) * width,
        [&](OpBuilder &nb, Location nloc, Value e) {
          Value r = arith::AddIOp::create(
              nb, nloc, cIdx(nb, nloc, row0),
              arith::DivUIOp::create(nb, nloc, e, cIdx(nb, nloc, width)));
          Value c = arith::AddIOp::create(
              nb, nloc, cIdx(nb, nloc, col0),
              arith::RemUIOp::create(nb, nloc, e, cIdx(nb, nloc, width)));
          memref::StoreOp::create(nb, nloc, zero, tile, ValueRange{r, c});
        });
  };
  fill(kn.qTile, s.rows, s.mmaRows, 0, s.qkWidth);
  fill(kn.qTile, 0, s.rows, s.headDim, s.qkWidth);
  fill(kn.kTile, 0, s.keyTile, s.headDim, s.qkWidth);
  fill(kn.vTile, 0, s.keyTile, s.valueDim, s.vWidth);
  fill(kn.pTile, s.rows, s.mmaRows, 0, s.keyTile);
}

/// The tile's logits with tensor cores: Q K^T from the Q and K tiles.
void gpu_attention::emitLogitsMma(OpBuilder &b, Location loc, const Kernel &kn,
                                  Value kt) {
  const KernelShape &s = kn.s;
  forEachMmaBlock(
      b, loc, kn, s.keyTile / 8,
      [&](OpBuilder &nb, Location nloc, Value rowBase, Value colBase,
          Value owned) {
        Value acc =
            emitMmaBlock(nb, nloc, kn, kn.qTile, kn.kTile,
                         /*transposeB=*/false, s.qkWidth, rowBase, colBase);
        storeFragment(
            nb, nloc, kn, acc, rowBase, colBase, owned,
            [&](OpBuilder &sb, Location sloc, Value r, Value jj, Value dot) {
              memref::StoreOp::create(sb, sloc,
                                      emitLogit(sb, sloc, kn, kt, r, jj, dot),
                                      kn.logits, ValueRange{r, jj});
            });
      });
}

/// The tile's P V with tensor cores, into the f32 `pv` tile.
void gpu_attention::emitProductMma(OpBuilder &b, Location loc,
                                   const Kernel &kn) {
  const KernelShape &s = kn.s;
  forEachMmaBlock(b, loc, kn, s.vWidth / 8,
                  [&](OpBuilder &nb, Location nloc, Value rowBase,
                      Value colBase, Value owned) {
                    Value acc = emitMmaBlock(nb, nloc, kn, kn.pTile, kn.vTile,
                                             /*transposeB=*/true, s.keyTile,
                                             rowBase, colBase);
                    storeFragment(nb, nloc, kn, acc, rowBase, colBase, owned,
                                  [&](OpBuilder &sb, Location sloc, Value r,
                                      Value c, Value x) {
                                    memref::StoreOp::create(sb, sloc, x, kn.pv,
                                                            ValueRange{r, c});
                                  });
                  });
}

/// Row `r`'s softmax over the tile with tensor cores: the new max, the
/// rescale factor of the old state and the tile's sum of exp (in f32);
/// lane `lane` writes keys lane, lane + L, ... of P, rounded to the
/// element type (what P V multiplies, as in FlashAttention).
SmallVector<Value> gpu_attention::emitRowSoftmaxMma(OpBuilder &b, Location loc,
                                                    const Kernel &kn, Value r,
                                                    Value lane, Value oldMax) {
  const KernelShape &s = kn.s;
  Value zero = cIdx(b, loc, 0), one = cIdx(b, loc, 1);
  Value tileKeys = cIdx(b, loc, s.keyTile);
  Value max, alpha;
  std::tie(max, alpha) = emitTileMax(b, loc, kn, r, oldMax);
  auto sum = scf::ForOp::create(
      b, loc, zero, tileKeys, one, ValueRange{f32Const(b, loc, 0.0f)},
      [&](OpBuilder &nb, Location nloc, Value jj, ValueRange acc) {
        Value x =
            memref::LoadOp::create(nb, nloc, kn.logits, ValueRange{r, jj});
        Value p = emitSafeExp(nb, nloc, x, max);
        scf::YieldOp::create(
            nb, nloc, ValueRange{arith::AddFOp::create(nb, nloc, acc[0], p)});
      });
  scf::ForOp::create(
      b, loc, lane, tileKeys, cIdx(b, loc, s.lanes), ValueRange{},
      [&](OpBuilder &nb, Location nloc, Value jj, ValueRange) {
        Value x =
            memref::LoadOp::create(nb, nloc, kn.logits, ValueRange{r, jj});
        Value p =
            castFloat(nb, nloc, emitSafeExp(nb, nloc, x, max), kn.elementType);
        memref::StoreOp::create(nb, nloc, p, kn.pTile, ValueRange{r, jj});
        scf::YieldOp::create(nb, nloc);
      });
  return {max, alpha, sum.getResult(0)};
}

/// The thread's state after a tile with tensor cores: (max, sum * alpha +
/// tile sum, accumulators * alpha + P V).
SmallVector<Value>
gpu_attention::emitRowAccumulateMma(OpBuilder &b, Location loc,
                                    const Kernel &kn, Value r, Value lane,
                                    ValueRange softmax, ValueRange state) {
  const KernelShape &s = kn.s;
  Value alpha = softmax[1];
  SmallVector<Value> next{
      softmax[0],
      arith::AddFOp::create(
          b, loc, arith::MulFOp::create(b, loc, state[1], alpha), softmax[2])};
  for (int64_t t = 0; t < s.channels; ++t) {
    Value c = arith::AddIOp::create(b, loc, lane, cIdx(b, loc, s.lanes * t));
    c = clampIndex(b, loc, c, cIdx(b, loc, s.valueDim));
    Value pv = memref::LoadOp::create(b, loc, kn.pv, ValueRange{r, c});
    next.push_back(arith::AddFOp::create(
        b, loc, arith::MulFOp::create(b, loc, state[2 + t], alpha), pv));
  }
  return next;
}
