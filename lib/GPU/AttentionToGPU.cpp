//===- AttentionToGPU.cpp - the posenc-attention-to-gpu pass --------------===//
//
// posenc.attention as one flash-attention gpu.launch, written directly in
// scf/memref/arith (Passes.td says why not through linalg). A block owns
// (batch, kv head, query tile): the G query heads of the kv head times Tq
// query rows, against K/V tiles staged in workgroup memory. Each thread owns
// one row's online-softmax state and a strided slice of its value channels.
//
// The kernel is scalar f32 arithmetic on every element type (16-bit inputs
// are widened as they are read); the numerics are the shared emitters'.
//
//===----------------------------------------------------------------------===//

#include "posenc/GPU/Passes.h"
#include "posenc/IR/PosEncNumerics.h"
#include "posenc/IR/PosEncOps.h"

#include "../Conversion/PosEncToLinalg/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir {
namespace posenc {
#define GEN_PASS_DEF_POSENCATTENTIONTOGPU
#include "posenc/GPU/Passes.h.inc"
} // namespace posenc
} // namespace mlir

using namespace mlir;
using namespace mlir::posenc;

namespace {

/// The kernel's static shape: block rows R = G * Tq, L lanes per row,
/// C value channels per lane, key tile Tk.
struct KernelShape {
  int64_t group, queryTile, rows, lanes, channels, keyTile, threads;
  int64_t headDim, valueDim, keyPad;
};

/// Bytes of workgroup memory the tiles take.
int64_t sharedBytes(const KernelShape &s, int64_t elementBytes) {
  return elementBytes * (s.rows * s.headDim + s.keyTile * s.keyPad +
                         s.keyTile * s.valueDim) +
         4 * s.rows * (s.keyTile + 1);
}

FailureOr<KernelShape> chooseShape(AttentionOp op, int64_t threads,
                                   int64_t budget) {
  auto qType = cast<RankedTensorType>(op.getQuery().getType());
  auto kType = cast<RankedTensorType>(op.getKey().getType());
  auto vType = cast<RankedTensorType>(op.getValue().getType());
  if (qType.isDynamicDim(1) || kType.isDynamicDim(1) || qType.isDynamicDim(3) ||
      vType.isDynamicDim(3))
    return op.emitError("posenc-attention-to-gpu: head counts and head dims "
                        "must be static");
  KernelShape s;
  s.group = qType.getDimSize(1) / kType.getDimSize(1);
  s.headDim = qType.getDimSize(3);
  s.valueDim = vType.getDimSize(3);
  int64_t elementBytes = qType.getElementTypeBitWidth() / 8;
  // One spare 32-bit word per K row: the logit phase's threads read rows
  // Tk apart, which would otherwise hit one bank.
  s.keyPad = s.headDim + std::max<int64_t>(1, 4 / elementBytes);
  // At most 32 accumulators per thread: they live in registers.
  int64_t minLanes = llvm::divideCeil(s.valueDim, 32);
  s.queryTile = std::max<int64_t>(1, threads / (s.group * minLanes));
  int64_t sq = qType.getDimSize(2);
  if (!ShapedType::isDynamic(sq))
    s.queryTile = std::min(s.queryTile, std::max<int64_t>(sq, 1));
  s.rows = s.group * s.queryTile;
  s.lanes = std::min(std::max(minLanes, threads / s.rows), s.valueDim);
  s.threads = s.rows * s.lanes;
  s.channels = llvm::divideCeil(s.valueDim, s.lanes);
  if (s.threads > 1024)
    return op.emitError("posenc-attention-to-gpu: ")
           << s.threads << " threads per block (G = " << s.group << ", "
           << s.lanes << " lanes per row) exceed 1024";
  for (s.keyTile = 64; s.keyTile > 1; s.keyTile /= 2)
    if (sharedBytes(s, elementBytes) <= budget)
      break;
  if (sharedBytes(s, elementBytes) > budget)
    return op.emitError("posenc-attention-to-gpu: the Q tile and one key do "
                        "not fit in ")
           << budget << " bytes of workgroup memory";
  return s;
}

Value cIdx(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// The kernel being built: the launch's ids, the buffers and the shape.
struct Kernel {
  mutable AttentionOp op;
  KernelShape s;
  Type elementType;
  Value q, k, v, out, invFreq, factor, slopes, qPositions, kPositions, sinks;
  // Inside the launch:
  Value batch, kvHead, qStart, tid, sq, sk, qShift;
  Value qTile, kTile, vTile, logits;
  SmallVector<Type> sharedTypes;

  /// i64 position of query index `i` (< Sq) and key index `j` (< Sk).
  Value queryPosition(OpBuilder &b, Location loc, Value i) const {
    if (qPositions)
      return emitPosition(b, loc, loadPosition(b, loc, qPositions, i), Value());
    return emitPosition(b, loc, i, qShift ? toI64(b, loc, qShift) : Value());
  }
  Value keyPosition(OpBuilder &b, Location loc, Value j) const {
    if (kPositions)
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

/// min(i, n - 1): an in-bounds index for rows past the end, whose values
/// are masked.
Value clampIndex(OpBuilder &b, Location loc, Value i, Value n) {
  return arith::MinSIOp::create(
      b, loc, i, arith::SubIOp::create(b, loc, n, cIdx(b, loc, 1)));
}

/// Stages the block's Q rows (rotated once) into the Q tile.
void stageQueries(OpBuilder &b, Location loc, const Kernel &kn, bool rope) {
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
void stageKeys(OpBuilder &b, Location loc, const Kernel &kn, Value kt,
               bool rope) {
  const KernelShape &s = kn.s;
  int64_t half = rope ? kn.op.getRopeAttr().getRotaryDim() / 2 : 0;
  auto keyRow = [&](OpBuilder &nb, Location nloc, Value jj, Value &index,
                    Value &valid) {
    Value j = arith::AddIOp::create(nb, nloc, kt, jj);
    valid =
        arith::CmpIOp::create(nb, nloc, arith::CmpIPredicate::slt, j, kn.sk);
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

/// The logits of the tile: `q . k * scale + alibi`, -inf for keys past Sk
/// and, when causal, for future keys.
void emitLogits(OpBuilder &b, Location loc, const Kernel &kn, Value kt) {
  const KernelShape &s = kn.s;
  Type f32 = b.getF32Type();
  AttentionOp op = kn.op;
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
        Value logit = arith::MulFOp::create(
            nb, nloc, dot.getResult(0),
            f32Const(nb, nloc, static_cast<float>(op.getScaleOrDefault())));
        Value j = arith::AddIOp::create(nb, nloc, kt, jj);
        Value masked = arith::CmpIOp::create(
            nb, nloc, arith::CmpIPredicate::sge, j, kn.sk);
        if (kn.slopes || op.getCausal()) {
          Value i = arith::AddIOp::create(
              nb, nloc, kn.qStart,
              arith::RemUIOp::create(nb, nloc, r, cIdx(nb, nloc, s.queryTile)));
          Value qPos =
              kn.queryPosition(nb, nloc, clampIndex(nb, nloc, i, kn.sq));
          Value kPos = kn.keyPosition(nb, nloc, clampIndex(nb, nloc, j, kn.sk));
          if (kn.slopes) {
            Value head = arith::AddIOp::create(
                nb, nloc,
                arith::MulIOp::create(nb, nloc, kn.kvHead,
                                      cIdx(nb, nloc, s.group)),
                arith::DivUIOp::create(nb, nloc, r,
                                       cIdx(nb, nloc, s.queryTile)));
            Value slope =
                memref::LoadOp::create(nb, nloc, kn.slopes, ValueRange{head});
            logit = arith::AddFOp::create(
                nb, nloc, logit,
                emitAlibiBias(nb, nloc, slope, qPos, kPos, op.getAlibiForm()));
          }
          if (op.getCausal())
            masked = arith::OrIOp::create(
                nb, nloc, masked,
                arith::CmpIOp::create(nb, nloc, arith::CmpIPredicate::sgt, kPos,
                                      qPos));
        }
        logit = arith::SelectOp::create(nb, nloc, masked, f32NegInf(nb, nloc),
                                        logit);
        memref::StoreOp::create(nb, nloc, logit, kn.logits, ValueRange{r, jj});
      });
}

/// One thread's online-softmax step over the tile: `state` is (max, sum,
/// C accumulators) of row `r`; channel `t` of the thread is `lane + L * t`.
SmallVector<Value> emitRowUpdate(OpBuilder &b, Location loc, const Kernel &kn,
                                 Value r, Value lane, ValueRange state) {
  const KernelShape &s = kn.s;
  Type f32 = b.getF32Type();
  Value zero = cIdx(b, loc, 0), one = cIdx(b, loc, 1);
  Value tileKeys = cIdx(b, loc, s.keyTile);
  auto tileMax = scf::ForOp::create(
      b, loc, zero, tileKeys, one, ValueRange{f32NegInf(b, loc)},
      [&](OpBuilder &nb, Location nloc, Value jj, ValueRange acc) {
        Value x =
            memref::LoadOp::create(nb, nloc, kn.logits, ValueRange{r, jj});
        scf::YieldOp::create(
            nb, nloc,
            ValueRange{arith::MaximumFOp::create(nb, nloc, acc[0], x)});
      });
  Value max = arith::MaximumFOp::create(b, loc, state[0], tileMax.getResult(0));
  Value alpha = emitSafeExp(b, loc, state[0], max);
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

/// The kernel body at `b` (the launch's block).
void emitKernel(OpBuilder &b, Location loc, Kernel &kn, gpu::LaunchOp launch) {
  const KernelShape &s = kn.s;
  AttentionOp op = kn.op;
  bool rope = static_cast<bool>(op.getRopeAttr());
  kn.qStart = arith::MulIOp::create(b, loc, launch.getBlockIds().x,
                                    cIdx(b, loc, s.queryTile));
  kn.kvHead = launch.getBlockIds().y;
  kn.batch = launch.getBlockIds().z;
  kn.tid = launch.getThreadIds().x;
  kn.sq = memref::DimOp::create(b, loc, kn.q, 2);
  kn.sk = memref::DimOp::create(b, loc, kn.k, 2);
  if (!kn.qPositions)
    kn.qShift = emitQueryShift(b, loc, op.getAlignment(), kn.sq, kn.sk);
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

  stageQueries(b, loc, kn, rope);

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
    max = memref::LoadOp::create(b, loc, kn.sinks, ValueRange{head});
    sum = emitSafeExp(b, loc, max, max);
  }
  SmallVector<Value> state{max, sum};
  state.append(s.channels, f32Const(b, loc, 0.0f));

  // Key tiles [0, end): with causal and default positions, none past the
  // block's last query position.
  Value end = kn.sk;
  if (op.getCausal() && !kn.qPositions && !op.getKPositions()) {
    Value rows =
        arith::MinSIOp::create(b, loc, cIdx(b, loc, s.queryTile),
                               arith::SubIOp::create(b, loc, kn.sq, kn.qStart));
    Value visible = arith::AddIOp::create(b, loc, kn.qStart, rows);
    if (kn.qShift)
      visible = arith::AddIOp::create(b, loc, visible, kn.qShift);
    end = arith::MinSIOp::create(b, loc, end, visible);
  }
  auto keyLoop = scf::ForOp::create(
      b, loc, cIdx(b, loc, 0), end, cIdx(b, loc, s.keyTile), state,
      [&](OpBuilder &nb, Location nloc, Value kt, ValueRange iter) {
        // The previous tile's readers are done before it is overwritten.
        gpu::BarrierOp::create(nb, nloc);
        stageKeys(nb, nloc, kn, kt, rope);
        gpu::BarrierOp::create(nb, nloc);
        emitLogits(nb, nloc, kn, kt);
        gpu::BarrierOp::create(nb, nloc);
        scf::YieldOp::create(nb, nloc,
                             emitRowUpdate(nb, nloc, kn, r, lane, iter));
      });

  // Rows past Sq and channels past Dv write nothing.
  Value i = arith::AddIOp::create(
      b, loc, kn.qStart,
      arith::RemUIOp::create(b, loc, r, cIdx(b, loc, s.queryTile)));
  Value rowValid =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, i, kn.sq);
  Value total = keyLoop.getResult(1);
  for (int64_t t = 0; t < s.channels; ++t) {
    Value c = arith::AddIOp::create(b, loc, lane, cIdx(b, loc, s.lanes * t));
    Value valid = arith::AndIOp::create(
        b, loc, rowValid,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, c,
                              cIdx(b, loc, s.valueDim)));
    scf::IfOp::create(b, loc, valid, [&](OpBuilder &nb, Location nloc) {
      Value o = emitSoftmaxOutput(nb, nloc, keyLoop.getResult(2 + t), total,
                                  kn.elementType);
      memref::StoreOp::create(nb, nloc, o, kn.out,
                              ValueRange{kn.batch, head, i, c});
      scf::YieldOp::create(nb, nloc);
    });
  }
  gpu::TerminatorOp::create(b, loc);
}

/// `tensor`'s buffer, read only, with the identity layout.
Value readBuffer(OpBuilder &b, Location loc, Value tensor) {
  if (!tensor)
    return Value();
  auto type = cast<RankedTensorType>(tensor.getType());
  return bufferization::ToBufferOp::create(
      b, loc, MemRefType::get(type.getShape(), type.getElementType()), tensor,
      /*read_only=*/true);
}

LogicalResult lowerAttention(RewriterBase &rewriter, AttentionOp op,
                             int64_t threads, int64_t budget) {
  FailureOr<KernelShape> shape = chooseShape(op, threads, budget);
  if (failed(shape))
    return failure();
  if (op.getRopeAttr() && (op.getRopeAttr().getRotaryDim() % 2 ||
                           op.getRopeAttr().getRotaryDim() > shape->headDim))
    return op.emitError("posenc-attention-to-gpu: unsupported rotary_dim");
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Kernel kn;
  kn.op = op;
  kn.s = *shape;
  auto qType = cast<RankedTensorType>(op.getQuery().getType());
  kn.elementType = qType.getElementType();
  kn.q = readBuffer(rewriter, loc, op.getQuery());
  kn.k = readBuffer(rewriter, loc, op.getKey());
  kn.v = readBuffer(rewriter, loc, op.getValue());
  kn.invFreq = readBuffer(rewriter, loc, op.getInvFreq());
  kn.factor = op.getAttentionFactor();
  kn.qPositions = readBuffer(rewriter, loc, op.getQPositions());
  kn.kPositions = readBuffer(rewriter, loc, op.getKPositions());
  kn.sinks = readBuffer(rewriter, loc, op.getSinks());
  Value slopes = op.getAlibiSlopes();
  if (AlibiSlopesAttr alibi = op.getAlibiAttr())
    slopes = emitAlibiSlopes(rewriter, loc, alibi, qType.getDimSize(1));
  kn.slopes = readBuffer(rewriter, loc, slopes);

  // The result: straight into the buffer it is materialized in, when that
  // is its only use; else a new buffer.
  auto resultType = cast<RankedTensorType>(op.getResult().getType());
  Operation *materialize = nullptr;
  if (op->hasOneUse())
    if (auto m = dyn_cast<bufferization::MaterializeInDestinationOp>(
            *op->user_begin());
        m && m.getWritable() && m.getRestrict() &&
        isa<MemRefType>(m.getDest().getType()) &&
        cast<MemRefType>(m.getDest().getType()).getLayout().isIdentity())
      materialize = m;
  SmallVector<Value> sizes;
  for (auto [d, size] : llvm::enumerate(resultType.getShape()))
    if (ShapedType::isDynamic(size))
      sizes.push_back(memref::DimOp::create(rewriter, loc, kn.q, d));
  if (materialize) {
    kn.out =
        cast<bufferization::MaterializeInDestinationOp>(materialize).getDest();
  } else {
    kn.out = memref::AllocOp::create(
        rewriter, loc,
        MemRefType::get(resultType.getShape(), resultType.getElementType()),
        sizes);
  }

  // Grid: (query tiles, kv heads, batch).
  const KernelShape &s = kn.s;
  Value sq = memref::DimOp::create(rewriter, loc, kn.q, 2);
  Value tiles = arith::DivUIOp::create(
      rewriter, loc,
      arith::AddIOp::create(rewriter, loc, sq,
                            cIdx(rewriter, loc, s.queryTile - 1)),
      cIdx(rewriter, loc, s.queryTile));
  auto kType = cast<RankedTensorType>(op.getKey().getType());
  Value batch = memref::DimOp::create(rewriter, loc, kn.q, 0);
  Attribute workgroup = gpu::AddressSpaceAttr::get(
      rewriter.getContext(), gpu::AddressSpace::Workgroup);
  auto tile = [&](int64_t rows, int64_t cols, Type type) -> Type {
    return MemRefType::get({rows, cols}, type, MemRefLayoutAttrInterface(),
                           workgroup);
  };
  kn.sharedTypes = {tile(s.rows, s.headDim, kn.elementType),
                    tile(s.keyTile, s.keyPad, kn.elementType),
                    tile(s.keyTile, s.valueDim, kn.elementType),
                    tile(s.rows, s.keyTile + 1, rewriter.getF32Type())};
  Value one = cIdx(rewriter, loc, 1);
  auto launch = gpu::LaunchOp::create(
      rewriter, loc, tiles, cIdx(rewriter, loc, kType.getDimSize(1)), batch,
      cIdx(rewriter, loc, s.threads), one, one, /*dynamicSharedMemorySize=*/
      Value());
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(&launch.getBody().front());
    emitKernel(rewriter, loc, kn, launch);
  }
  if (materialize) {
    rewriter.eraseOp(materialize);
    rewriter.eraseOp(op);
    return success();
  }
  rewriter.replaceOp(op, bufferization::ToTensorOp::create(
                             rewriter, loc, resultType, kn.out,
                             /*restrict=*/true, /*writable=*/true));
  return success();
}

/// gpu.barrier orders workgroup memory: it reads and writes it. MLIR 22
/// declares no effects for it, and the buffer deallocation that runs after
/// this pass rejects ops with unknown effects.
struct BarrierEffects
    : MemoryEffectOpInterface::ExternalModel<BarrierEffects, gpu::BarrierOp> {
  void
  getEffects(Operation *op,
             SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
                 &effects) const {
    effects.emplace_back(MemoryEffects::Read::get());
    effects.emplace_back(MemoryEffects::Write::get());
  }
};

struct PosEncAttentionToGPUPass
    : posenc::impl::PosEncAttentionToGPUBase<PosEncAttentionToGPUPass> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registry.addExtension(+[](MLIRContext *ctx, gpu::GPUDialect *) {
      std::optional<RegisteredOperationName> barrier =
          RegisteredOperationName::lookup(gpu::BarrierOp::getOperationName(),
                                          ctx);
      if (barrier && !barrier->hasInterface<MemoryEffectOpInterface>())
        gpu::BarrierOp::attachInterface<BarrierEffects>(*ctx);
    });
  }

  void runOnOperation() override {
    if (threads <= 0 || threads > 1024 || sharedMemory <= 0) {
      getOperation()->emitError("posenc-attention-to-gpu: threads must be in "
                                "[1, 1024] and shared-memory positive");
      return signalPassFailure();
    }
    SmallVector<AttentionOp> ops;
    getOperation()->walk([&](AttentionOp op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (AttentionOp op : ops)
      if (failed(lowerAttention(rewriter, op, threads, sharedMemory)))
        return signalPassFailure();
  }
};

} // namespace
