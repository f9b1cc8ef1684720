//===- AttentionToGPU.cpp - the posenc-attention-to-gpu pass --------------===//
//
// posenc.attention as one flash-attention gpu.launch, written directly in
// scf/memref/arith (Passes.td says why not through linalg). A block owns
// (batch, kv head, query tile): the G query heads of the kv head times Tq
// query rows, against K/V tiles staged in workgroup memory. Each thread owns
// one row's online-softmax state and a strided slice of its value channels.
//
// f32 inputs: scalar f32 arithmetic. f16/bf16 inputs (with tensor-cores):
// Q K^T and P V are warp-level m16n8k16 mma.sync on fragments loaded with
// ldmatrix from the staged tiles, the softmax stays per row in f32. The
// numerics are the shared emitters'.
//
//===----------------------------------------------------------------------===//

#include "posenc/Codegen/AttentionEmitters.h"
#include "posenc/Codegen/Emitters.h"
#include "posenc/GPU/Passes.h"
#include "posenc/IR/PosEncNumerics.h"
#include "posenc/IR/PosEncOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>

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
  // Tensor cores: rows padded to the mma's 16, Q/K columns to its k of 16,
  // V columns to its n of 8; tile rows of 16-byte multiples for ldmatrix,
  // plus 16 bytes so that the 8 rows an ldmatrix reads hit different banks.
  bool mma = false;
  int64_t mmaRows = 0, qkWidth = 0, vWidth = 0;
  int64_t qStride() const { return qkWidth + 8; }
  int64_t vStride() const { return vWidth + 8; }
  int64_t pStride() const { return keyTile + 8; }
};

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

FailureOr<KernelShape> chooseShape(AttentionOp op, int64_t threads,
                                   int64_t budget, bool tensorCores) {
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
    return op.emitError("posenc-attention-to-gpu: ")
           << s.threads << " threads per block (G = " << s.group << ", "
           << s.lanes << " lanes per row) exceed 1024";
  // An mma's k (P V) and n (Q K^T) need whole 16-key tiles.
  int64_t minKeyTile = s.mma ? 16 : 1;
  for (s.keyTile = 64; s.keyTile > minKeyTile; s.keyTile /= 2)
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
  Value pTile, pv, warp, lane; // tensor cores only
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

/// The logit of row `r` and key `kt + jj` from its dot product `dot`:
/// `dot * scale + alibi`, -inf for keys past Sk and, when causal, for
/// future keys.
Value emitLogit(OpBuilder &b, Location loc, const Kernel &kn, Value kt, Value r,
                Value jj, Value dot) {
  const KernelShape &s = kn.s;
  AttentionOp op = kn.op;
  LogitRule rule = LogitRule::get(op);
  Value j = arith::AddIOp::create(b, loc, kt, jj);
  Value outside =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, j, kn.sk);
  Value qPos, kPos, slope;
  if (rule.needsPositions(static_cast<bool>(kn.slopes))) {
    Value i = arith::AddIOp::create(
        b, loc, kn.qStart,
        arith::RemUIOp::create(b, loc, r, cIdx(b, loc, s.queryTile)));
    qPos = kn.queryPosition(b, loc, clampIndex(b, loc, i, kn.sq));
    kPos = kn.keyPosition(b, loc, clampIndex(b, loc, j, kn.sk));
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

/// The logits of the tile, one scalar dot product per (row, key).
void emitLogits(OpBuilder &b, Location loc, const Kernel &kn, Value kt) {
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

/// Row `r`'s running max after the tile's logits and the factor that
/// rescales the state kept under `oldMax`.
std::pair<Value, Value> emitTileMax(OpBuilder &b, Location loc,
                                    const Kernel &kn, Value r, Value oldMax) {
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

/// One thread's online-softmax step over the tile: `state` is (max, sum,
/// C accumulators) of row `r`; channel `t` of the thread is `lane + L * t`.
SmallVector<Value> emitRowUpdate(OpBuilder &b, Location loc, const Kernel &kn,
                                 Value r, Value lane, ValueRange state) {
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

/// Zeroes what the mma tiles hold beyond the data and no phase writes (Q
/// rows past R, Q and K columns past D, V columns past Dv, P rows past R),
/// so that padded products are exact zeros.
void zeroPads(OpBuilder &b, Location loc, const Kernel &kn) {
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

/// The tile's logits with tensor cores: Q K^T from the Q and K tiles.
void emitLogitsMma(OpBuilder &b, Location loc, const Kernel &kn, Value kt) {
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
void emitProductMma(OpBuilder &b, Location loc, const Kernel &kn) {
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
SmallVector<Value> emitRowSoftmaxMma(OpBuilder &b, Location loc,
                                     const Kernel &kn, Value r, Value lane,
                                     Value oldMax) {
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
SmallVector<Value> emitRowAccumulateMma(OpBuilder &b, Location loc,
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
  if (s.mma) {
    kn.pTile = shared[4];
    kn.pv = shared[5];
    kn.warp = arith::DivUIOp::create(b, loc, kn.tid, cIdx(b, loc, 32));
    kn.lane = arith::RemUIOp::create(b, loc, kn.tid, cIdx(b, loc, 32));
    zeroPads(b, loc, kn);
  }

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
    std::tie(max, sum) = emitSinkStart(
        b, loc, memref::LoadOp::create(b, loc, kn.sinks, ValueRange{head}));
  }
  SmallVector<Value> state{max, sum};
  state.append(s.channels, f32Const(b, loc, 0.0f));

  // Key tiles [0, end): with causal and default positions, none past the
  // block's last query position.
  Value end = kn.sk;
  if (hasCausalKeyBound(op)) {
    Value rows =
        arith::MinSIOp::create(b, loc, cIdx(b, loc, s.queryTile),
                               arith::SubIOp::create(b, loc, kn.sq, kn.qStart));
    Value first = kn.qShift
                      ? arith::AddIOp::create(b, loc, kn.qStart, kn.qShift)
                      : kn.qStart;
    end = emitVisibleKeyEnd(b, loc, end, first, rows);
  }
  auto keyLoop = scf::ForOp::create(
      b, loc, cIdx(b, loc, 0), end, cIdx(b, loc, s.keyTile), state,
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
      Value o = emitNormalizedOutput(nb, nloc, keyLoop.getResult(2 + t), total,
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
                             int64_t threads, int64_t budget,
                             bool tensorCores) {
  FailureOr<KernelShape> shape = chooseShape(op, threads, budget, tensorCores);
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
  // is its only use (possibly through a tensor.cast: dynamic lengths inside
  // a static entry); else a new buffer.
  auto resultType = cast<RankedTensorType>(op.getResult().getType());
  Operation *materialize = nullptr;
  tensor::CastOp resultCast;
  auto onlyMaterialize = [](Value v) -> Operation * {
    if (!v.hasOneUse())
      return nullptr;
    auto m =
        dyn_cast<bufferization::MaterializeInDestinationOp>(*v.user_begin());
    if (m && m.getWritable() && m.getRestrict() &&
        isa<MemRefType>(m.getDest().getType()) &&
        cast<MemRefType>(m.getDest().getType()).getLayout().isIdentity())
      return m;
    return nullptr;
  };
  materialize = onlyMaterialize(op.getResult());
  if (!materialize && op->hasOneUse())
    if ((resultCast = dyn_cast<tensor::CastOp>(*op->user_begin())))
      if (!(materialize = onlyMaterialize(resultCast.getResult())))
        resultCast = nullptr;
  SmallVector<Value> sizes;
  for (auto [d, size] : llvm::enumerate(resultType.getShape()))
    if (ShapedType::isDynamic(size))
      sizes.push_back(memref::DimOp::create(rewriter, loc, kn.q, d));
  if (materialize) {
    kn.out =
        cast<bufferization::MaterializeInDestinationOp>(materialize).getDest();
    if (resultCast)
      kn.out = memref::CastOp::create(
          rewriter, loc,
          MemRefType::get(resultType.getShape(), resultType.getElementType()),
          kn.out);
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
  Type f32 = rewriter.getF32Type();
  if (s.mma)
    kn.sharedTypes = {tile(s.mmaRows, s.qStride(), kn.elementType),
                      tile(s.keyTile, s.qStride(), kn.elementType),
                      tile(s.keyTile, s.vStride(), kn.elementType),
                      tile(s.rows, s.keyTile + 1, f32),
                      tile(s.mmaRows, s.pStride(), kn.elementType),
                      tile(s.rows, s.vWidth, f32)};
  else
    kn.sharedTypes = {tile(s.rows, s.headDim, kn.elementType),
                      tile(s.keyTile, s.keyPad, kn.elementType),
                      tile(s.keyTile, s.valueDim, kn.elementType),
                      tile(s.rows, s.keyTile + 1, f32)};
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
    if (resultCast)
      rewriter.eraseOp(resultCast);
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
      if (failed(
              lowerAttention(rewriter, op, threads, sharedMemory, tensorCores)))
        return signalPassFailure();
  }
};

} // namespace
