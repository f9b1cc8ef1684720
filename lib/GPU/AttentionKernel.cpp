//===- AttentionKernel.cpp - phases of the GPU attention kernel ----------===//
//
// The phases every posenc-attention-to-gpu kernel runs: Q and K/V rows
// staged in workgroup memory (rotated as they are staged), the logit of
// each (row, key) by the shared rule, and the key loop that carries each
// row's online softmax; the products inside come from the scalar or the
// tensor-core half.
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

namespace {

/// Copies row `src` of `x` (`[B, H, S, D]`, `head`, token `index`, zero
/// when `valid` is false) into row `dstRow` of the workgroup tile `tile`,
/// rotating channel pairs when `rope` (position `pos`): work item `u` of
/// the row is a channel pair (u < rotary_dim / 2) or a pass-through channel.
void stageRowItem(OpBuilder &b, Location loc, const Kernel &kn, Value x,
                  Value head, Value index, Value valid, Value pos, Value tile,
                  Value dstRow, Value u, bool rope) {
  Type f32 = b.getF32Type();
  Value zero = arith::ConstantOp::create(b, loc, kn.elementType,
                                         b.getZeroAttr(kn.elementType));
  auto load = [&](Value c) -> Value {
    Value xv =
        memref::LoadOp::create(b, loc, x, ValueRange{kn.batch, head, index, c});
    return arith::SelectOp::create(b, loc, valid, xv, zero);
  };
  auto store = [&](Value value, Value c) {
    memref::StoreOp::create(b, loc, value, tile, ValueRange{dstRow, c});
  };
  RopeAttr ropeAttr = kn.op.getRopeAttr();
  int64_t half = rope ? ropeAttr.getRotaryDim() / 2 : 0;
  if (!half) {
    store(load(u), u);
    return;
  }
  Value isPair = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, u,
                                       cIdx(b, loc, half));
  scf::IfOp::create(
      b, loc, isPair,
      [&](OpBuilder &tb, Location tloc) {
        bool interleaved = ropeAttr.getLayout() == RotaryLayout::interleaved;
        Value c1 = interleaved
                       ? arith::MulIOp::create(tb, tloc, u, cIdx(tb, tloc, 2))
                       : u;
        Value c2 = arith::AddIOp::create(
            tb, tloc, c1, cIdx(tb, tloc, interleaved ? 1 : half));
        Value inv = memref::LoadOp::create(tb, tloc, kn.invFreq, ValueRange{u});
        auto [cos, sin] = emitCosSin(tb, tloc, pos, inv, kn.factor);
        auto [o1, o2] =
            emitRotatedPair(tb, tloc, castFloat(tb, tloc, load(c1), f32),
                            castFloat(tb, tloc, load(c2), f32), cos, sin);
        // Rounded to the element type, as posenc.rotary's result is.
        store(castFloat(tb, tloc, o1, kn.elementType), c1);
        store(castFloat(tb, tloc, o2, kn.elementType), c2);
        scf::YieldOp::create(tb, tloc);
      },
      [&](OpBuilder &eb, Location eloc) {
        Value c = arith::AddIOp::create(eb, eloc, u, cIdx(eb, eloc, half));
        store(load(c), c);
        scf::YieldOp::create(eb, eloc);
      });
}

} // namespace

/// Loops `for t < ceil(total / threads)`, `e = tid + t * threads`, the body
/// under `e < total`: a phase where the block's threads share `total` items.
void gpu_attention::forEachItem(
    OpBuilder &b, Location loc, const Kernel &kn, int64_t total,
    function_ref<void(OpBuilder &, Location, Value)> body) {
  int64_t steps = llvm::divideCeil(total, kn.s.threads);
  scf::ForOp::create(
      b, loc, cIdx(b, loc, 0), cIdx(b, loc, steps), cIdx(b, loc, 1),
      ValueRange{}, [&](OpBuilder &nb, Location nloc, Value t, ValueRange) {
        Value e = arith::AddIOp::create(
            nb, nloc, kn.tid,
            arith::MulIOp::create(nb, nloc, t, cIdx(nb, nloc, kn.s.threads)));
        Value inside = arith::CmpIOp::create(
            nb, nloc, arith::CmpIPredicate::ult, e, cIdx(nb, nloc, total));
        scf::IfOp::create(nb, nloc, inside, [&](OpBuilder &ib, Location iloc) {
          body(ib, iloc, e);
          scf::YieldOp::create(ib, iloc);
        });
        scf::YieldOp::create(nb, nloc);
      });
}

/// min(i, n - 1): an in-bounds index for rows past the end, whose values
/// are masked.
Value gpu_attention::clampIndex(OpBuilder &b, Location loc, Value i, Value n) {
  return arith::MinSIOp::create(
      b, loc, i, arith::SubIOp::create(b, loc, n, cIdx(b, loc, 1)));
}

/// Stages the block's Q rows (rotated once) into the Q tile.
void gpu_attention::stageQueries(OpBuilder &b, Location loc, const Kernel &kn,
                                 bool rope) {
  const KernelShape &s = kn.s;
  int64_t half = rope ? kn.op.getRopeAttr().getRotaryDim() / 2 : 0;
  int64_t items = s.headDim - half;
  forEachItem(
      b, loc, kn, s.rows * items, [&](OpBuilder &nb, Location nloc, Value e) {
        Value r = arith::DivUIOp::create(nb, nloc, e, cIdx(nb, nloc, items));
        Value u = arith::RemUIOp::create(nb, nloc, e, cIdx(nb, nloc, items));
        Value g =
            arith::DivUIOp::create(nb, nloc, r, cIdx(nb, nloc, s.queryTile));
        Value i =
            arith::RemUIOp::create(nb, nloc, r, cIdx(nb, nloc, s.queryTile));
        Value head = arith::AddIOp::create(
            nb, nloc,
            arith::MulIOp::create(nb, nloc, kn.kvHead, cIdx(nb, nloc, s.group)),
            g);
        Value qi = arith::AddIOp::create(nb, nloc, kn.qStart, i);
        Value valid = arith::CmpIOp::create(nb, nloc, arith::CmpIPredicate::slt,
                                            qi, kn.sq);
        Value index = clampIndex(nb, nloc, qi, kn.sq);
        Value pos = rope ? kn.queryPosition(nb, nloc, index) : Value();
        stageRowItem(nb, nloc, kn, kn.q, head, index, valid, pos, kn.qTile, r,
                     u, rope);
      });
}

/// Stages keys [kt, kt + Tk) into the K tile (rotated) and the V tile.
void gpu_attention::stageKeys(OpBuilder &b, Location loc, const Kernel &kn,
                              Value kt, bool rope) {
  const KernelShape &s = kn.s;
  int64_t half = rope ? kn.op.getRopeAttr().getRotaryDim() / 2 : 0;
  auto keyRow = [&](OpBuilder &nb, Location nloc, Value jj, Value &index,
                    Value &valid) {
    Value j = arith::AddIOp::create(nb, nloc, kt, jj);
    valid = arith::CmpIOp::create(nb, nloc, arith::CmpIPredicate::slt, j,
                                  kn.keyEnd);
    index = clampIndex(nb, nloc, j, kn.sk);
  };
  int64_t kItems = s.headDim - half;
  forEachItem(b, loc, kn, s.keyTile * kItems,
              [&](OpBuilder &nb, Location nloc, Value e) {
                Value jj =
                    arith::DivUIOp::create(nb, nloc, e, cIdx(nb, nloc, kItems));
                Value u =
                    arith::RemUIOp::create(nb, nloc, e, cIdx(nb, nloc, kItems));
                Value index, valid;
                keyRow(nb, nloc, jj, index, valid);
                Value pos = rope ? kn.keyPosition(nb, nloc, index) : Value();
                stageRowItem(nb, nloc, kn, kn.k, kn.kvHead, index, valid, pos,
                             kn.kTile, jj, u, rope);
              });
  forEachItem(b, loc, kn, s.keyTile * s.valueDim,
              [&](OpBuilder &nb, Location nloc, Value e) {
                Value jj = arith::DivUIOp::create(nb, nloc, e,
                                                  cIdx(nb, nloc, s.valueDim));
                Value c = arith::RemUIOp::create(nb, nloc, e,
                                                 cIdx(nb, nloc, s.valueDim));
                Value index, valid;
                keyRow(nb, nloc, jj, index, valid);
                stageRowItem(nb, nloc, kn, kn.v, kn.kvHead, index, valid,
                             Value(), kn.vTile, jj, c, /*rope=*/false);
              });
}

/// The logit of row `r` and key `kt + jj` from its dot product `dot`:
/// `dot * scale + alibi`, -inf for keys past the key limit or hidden by
/// key_mask and, when causal, for future keys.
Value gpu_attention::emitLogit(OpBuilder &b, Location loc, const Kernel &kn,
                               Value kt, Value r, Value jj, Value dot) {
  const KernelShape &s = kn.s;
  AttentionOp op = kn.op;
  LogitRule rule = LogitRule::get(op);
  Value j = arith::AddIOp::create(b, loc, kt, jj);
  Value outside =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, j, kn.keyEnd);
  if (kn.keyMask)
    outside =
        orMasks(b, loc, outside,
                emitKeyMaskHides(
                    b, loc,
                    memref::LoadOp::create(
                        b, loc, kn.keyMask,
                        ValueRange{kn.batch, clampIndex(b, loc, j, kn.sk)})));
  Value qPos, kPos, slope;
  if (rule.needsPositions(static_cast<bool>(kn.slopes))) {
    Value i = arith::AddIOp::create(
        b, loc, kn.qStart,
        arith::RemUIOp::create(b, loc, r, cIdx(b, loc, s.queryTile)));
    qPos = kn.queryPosition(b, loc, clampIndex(b, loc, i, kn.sq),
                            /*logit=*/true);
    kPos = kn.keyPosition(b, loc, clampIndex(b, loc, j, kn.sk),
                          /*logit=*/true);
    if (kn.slopes) {
      Value head = arith::AddIOp::create(
          b, loc,
          arith::MulIOp::create(b, loc, kn.kvHead, cIdx(b, loc, s.group)),
          arith::DivUIOp::create(b, loc, r, cIdx(b, loc, s.queryTile)));
      slope = memref::LoadOp::create(b, loc, kn.slopes, ValueRange{head});
    }
  }
  return emitAttentionLogit(b, loc, rule, dot, slope, qPos, kPos, outside);
}

/// Row `r`'s running max after the tile's logits and the factor that
/// rescales the state kept under `oldMax`.
std::pair<Value, Value> gpu_attention::emitTileMax(OpBuilder &b, Location loc,
                                                   const Kernel &kn, Value r,
                                                   Value oldMax) {
  Value zero = cIdx(b, loc, 0), one = cIdx(b, loc, 1);
  Value tileKeys = cIdx(b, loc, kn.s.keyTile);
  auto tileMax = scf::ForOp::create(
      b, loc, zero, tileKeys, one, ValueRange{f32NegInf(b, loc)},
      [&](OpBuilder &nb, Location nloc, Value jj, ValueRange acc) {
        Value x =
            memref::LoadOp::create(nb, nloc, kn.logits, ValueRange{r, jj});
        scf::YieldOp::create(
            nb, nloc,
            ValueRange{arith::MaximumFOp::create(nb, nloc, acc[0], x)});
      });
  Value max = arith::MaximumFOp::create(b, loc, oldMax, tileMax.getResult(0));
  return {max, emitSafeExp(b, loc, oldMax, max)};
}

namespace {

/// The launch's ids and extents and the workgroup tiles, into `kn`.
void bindLaunch(OpBuilder &b, Location loc, Kernel &kn, gpu::LaunchOp launch) {
  const KernelShape &s = kn.s;
  kn.qStart = arith::MulIOp::create(b, loc, launch.getBlockIds().x,
                                    cIdx(b, loc, s.queryTile));
  kn.kvHead = launch.getBlockIds().y;
  kn.batch = launch.getBlockIds().z;
  kn.tid = launch.getThreadIds().x;
  kn.sq = memref::DimOp::create(b, loc, kn.q, 2);
  kn.sk = memref::DimOp::create(b, loc, kn.k, 2);
  kn.keyEnd = kn.sk;
  if (kn.keyLengths)
    kn.keyEnd = emitKeyLimit(
        b, loc,
        memref::LoadOp::create(b, loc, kn.keyLengths, ValueRange{kn.batch}),
        kn.sk);
  if (!kn.op.getLogitQPositions())
    kn.qShift = emitQueryShift(b, loc, kn.op.getAlignment(), kn.sq, kn.sk);
  // Workgroup memory as allocas until bufferization is done: the buffer
  // deallocation that runs before posenc-map-forall-to-gpu turns them into
  // attributions would treat attributions (block arguments) as buffers it
  // owns.
  SmallVector<Value> shared;
  for (Type type : kn.sharedTypes)
    shared.push_back(memref::AllocaOp::create(b, loc, cast<MemRefType>(type)));
  kn.qTile = shared[0];
  kn.kTile = shared[1];
  kn.vTile = shared[2];
  kn.logits = shared[3];
  if (s.mma) {
    kn.pTile = shared[4];
    kn.pv = shared[5];
    kn.warp = arith::DivUIOp::create(b, loc, kn.tid, cIdx(b, loc, 32));
    kn.lane = arith::RemUIOp::create(b, loc, kn.tid, cIdx(b, loc, 32));
    zeroPads(b, loc, kn);
  }
}

/// The key loop over tiles [0, end) carrying row `r`'s online softmax
/// (`state`: max, sum, the lane's accumulators); with causal and default
/// positions, no tile past the block's last query position.
scf::ForOp emitKeyTiles(OpBuilder &b, Location loc, const Kernel &kn, Value r,
                        Value lane, ValueRange state) {
  const KernelShape &s = kn.s;
  AttentionOp op = kn.op;
  bool rope = static_cast<bool>(op.getRopeAttr());
  Value begin = cIdx(b, loc, 0), end = kn.keyEnd;
  if (hasVisibleKeyRange(op)) {
    Value rows =
        arith::MinSIOp::create(b, loc, cIdx(b, loc, s.queryTile),
                               arith::SubIOp::create(b, loc, kn.sq, kn.qStart));
    Value first = kn.qShift
                      ? arith::AddIOp::create(b, loc, kn.qStart, kn.qShift)
                      : kn.qStart;
    std::tie(begin, end) = emitVisibleKeyRange(
        b, loc, LogitRule::get(op), begin, end, first, rows, s.keyTile);
  }
  return scf::ForOp::create(
      b, loc, begin, end, cIdx(b, loc, s.keyTile), state,
      [&](OpBuilder &nb, Location nloc, Value kt, ValueRange iter) {
        // The previous tile's readers are done before it is overwritten.
        gpu::BarrierOp::create(nb, nloc);
        stageKeys(nb, nloc, kn, kt, rope);
        gpu::BarrierOp::create(nb, nloc);
        if (!s.mma) {
          emitLogits(nb, nloc, kn, kt);
          gpu::BarrierOp::create(nb, nloc);
          scf::YieldOp::create(nb, nloc,
                               emitRowUpdate(nb, nloc, kn, r, lane, iter));
          return;
        }
        emitLogitsMma(nb, nloc, kn, kt);
        gpu::BarrierOp::create(nb, nloc);
        SmallVector<Value> softmax =
            emitRowSoftmaxMma(nb, nloc, kn, r, lane, iter[0]);
        gpu::BarrierOp::create(nb, nloc);
        emitProductMma(nb, nloc, kn);
        gpu::BarrierOp::create(nb, nloc);
        scf::YieldOp::create(
            nb, nloc,
            emitRowAccumulateMma(nb, nloc, kn, r, lane, softmax, iter));
      });
}

/// Row `r`'s normalised output channels of this lane (`final`: max, sum,
/// accumulators) stored at query head `head`; rows past Sq and channels
/// past Dv write nothing.
void storeRow(OpBuilder &b, Location loc, const Kernel &kn, Value r, Value lane,
              Value head, ValueRange final) {
  const KernelShape &s = kn.s;
  Value i = arith::AddIOp::create(
      b, loc, kn.qStart,
      arith::RemUIOp::create(b, loc, r, cIdx(b, loc, s.queryTile)));
  Value rowValid =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, i, kn.sq);
  Value total = final[1];
  for (int64_t t = 0; t < s.channels; ++t) {
    Value c = arith::AddIOp::create(b, loc, lane, cIdx(b, loc, s.lanes * t));
    Value valid = arith::AndIOp::create(
        b, loc, rowValid,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, c,
                              cIdx(b, loc, s.valueDim)));
    scf::IfOp::create(b, loc, valid, [&](OpBuilder &nb, Location nloc) {
      Value o =
          emitNormalizedOutput(nb, nloc, final[2 + t], total, kn.elementType);
      memref::StoreOp::create(nb, nloc, o, kn.out,
                              ValueRange{kn.batch, head, i, c});
      scf::YieldOp::create(nb, nloc);
    });
  }
}

} // namespace

void gpu_attention::emitKernel(OpBuilder &b, Location loc, Kernel &kn,
                               gpu::LaunchOp launch) {
  const KernelShape &s = kn.s;
  bindLaunch(b, loc, kn, launch);
  stageQueries(b, loc, kn, static_cast<bool>(kn.op.getRopeAttr()));

  // This thread's row and lane, and its row's starting state.
  Value r = arith::DivUIOp::create(b, loc, kn.tid, cIdx(b, loc, s.lanes));
  Value lane = arith::RemUIOp::create(b, loc, kn.tid, cIdx(b, loc, s.lanes));
  Value g = arith::DivUIOp::create(b, loc, r, cIdx(b, loc, s.queryTile));
  Value head = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, kn.kvHead, cIdx(b, loc, s.group)),
      g);
  Value max = f32NegInf(b, loc), sum = f32Const(b, loc, 0.0f);
  if (kn.sinks) {
    // The sink as a first key without a value row.
    std::tie(max, sum) = emitSinkStart(
        b, loc, memref::LoadOp::create(b, loc, kn.sinks, ValueRange{head}));
  }
  SmallVector<Value> state{max, sum};
  state.append(s.channels, f32Const(b, loc, 0.0f));

  scf::ForOp keys = emitKeyTiles(b, loc, kn, r, lane, state);
  storeRow(b, loc, kn, r, lane, head, keys.getResults());
  gpu::TerminatorOp::create(b, loc);
}
