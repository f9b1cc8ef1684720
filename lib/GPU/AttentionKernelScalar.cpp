//===- AttentionKernelScalar.cpp - scalar products of the GPU kernel -----===//
//
// f32 attention (or tensor-cores=false): each (row, key) logit a scalar dot
// product over the staged Q and K tiles, and each thread's online-softmax
// step over its row's logits and channels of the staged V tile.
//
//===----------------------------------------------------------------------===//

#include "AttentionKernel.h"

#include "posenc/Codegen/AttentionEmitters.h"
#include "posenc/IR/PosEncNumerics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::posenc;
using namespace mlir::posenc::gpu_attention;

/// The logits of the tile, one scalar dot product per (row, key).
void gpu_attention::emitLogits(OpBuilder &b, Location loc, const Kernel &kn,
                               Value kt) {
  const KernelShape &s = kn.s;
  Type f32 = b.getF32Type();
  forEachItem(
      b, loc, kn, s.rows * s.keyTile,
      [&](OpBuilder &nb, Location nloc, Value e) {
        Value r =
            arith::DivUIOp::create(nb, nloc, e, cIdx(nb, nloc, s.keyTile));
        Value jj =
            arith::RemUIOp::create(nb, nloc, e, cIdx(nb, nloc, s.keyTile));
        auto dot = scf::ForOp::create(
            nb, nloc, cIdx(nb, nloc, 0), cIdx(nb, nloc, s.headDim),
            cIdx(nb, nloc, 1), ValueRange{f32Const(nb, nloc, 0.0f)},
            [&](OpBuilder &db, Location dloc, Value d, ValueRange acc) {
              Value qd =
                  memref::LoadOp::create(db, dloc, kn.qTile, ValueRange{r, d});
              Value kd =
                  memref::LoadOp::create(db, dloc, kn.kTile, ValueRange{jj, d});
              Value product =
                  arith::MulFOp::create(db, dloc, castFloat(db, dloc, qd, f32),
                                        castFloat(db, dloc, kd, f32));
              scf::YieldOp::create(
                  db, dloc,
                  ValueRange{arith::AddFOp::create(db, dloc, acc[0], product)});
            });
        Value logit = emitLogit(nb, nloc, kn, kt, r, jj, dot.getResult(0));
        memref::StoreOp::create(nb, nloc, logit, kn.logits, ValueRange{r, jj});
      });
}

/// One thread's online-softmax step over the tile: `state` is (max, sum,
/// C accumulators) of row `r`; channel `t` of the thread is `lane + L * t`.
SmallVector<Value> gpu_attention::emitRowUpdate(OpBuilder &b, Location loc,
                                                const Kernel &kn, Value r,
                                                Value lane, ValueRange state) {
  const KernelShape &s = kn.s;
  Type f32 = b.getF32Type();
  Value zero = cIdx(b, loc, 0), one = cIdx(b, loc, 1);
  Value tileKeys = cIdx(b, loc, s.keyTile);
  Value max, alpha;
  std::tie(max, alpha) = emitTileMax(b, loc, kn, r, state[0]);
  // Rescaled first, then the tile's terms added key by key: the CPU flash
  // loop's order.
  SmallVector<Value> init;
  for (Value x : state.drop_front())
    init.push_back(arith::MulFOp::create(b, loc, x, alpha));
  SmallVector<Value> channels;
  for (int64_t t = 0; t < s.channels; ++t) {
    // Lanes past Dv (when L does not divide it) read channel Dv - 1 and
    // write nothing.
    Value c = arith::AddIOp::create(b, loc, lane, cIdx(b, loc, s.lanes * t));
    channels.push_back(clampIndex(b, loc, c, cIdx(b, loc, s.valueDim)));
  }
  auto keys = scf::ForOp::create(
      b, loc, zero, tileKeys, one, init,
      [&](OpBuilder &nb, Location nloc, Value jj, ValueRange acc) {
        Value x =
            memref::LoadOp::create(nb, nloc, kn.logits, ValueRange{r, jj});
        Value p = emitSafeExp(nb, nloc, x, max);
        SmallVector<Value> next{arith::AddFOp::create(nb, nloc, acc[0], p)};
        for (int64_t t = 0; t < s.channels; ++t) {
          Value vv = memref::LoadOp::create(nb, nloc, kn.vTile,
                                            ValueRange{jj, channels[t]});
          next.push_back(arith::AddFOp::create(
              nb, nloc, acc[t + 1],
              arith::MulFOp::create(nb, nloc, p,
                                    castFloat(nb, nloc, vv, f32))));
        }
        scf::YieldOp::create(nb, nloc, next);
      });
  SmallVector<Value> result{max};
  llvm::append_range(result, keys.getResults());
  return result;
}
