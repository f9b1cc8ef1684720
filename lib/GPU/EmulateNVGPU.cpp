//===- EmulateNVGPU.cpp - the posenc-emulate-nvgpu pass -------------------===//
//
// Warp-level nvgpu ops as per-thread code: lanes exchange operands through a
// per-warp workgroup buffer between barriers. The fragment layouts are the
// PTX ISA's (lane = 4 * group + thread-in-group).
//
//===----------------------------------------------------------------------===//

#include "posenc/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir {
namespace posenc {
#define GEN_PASS_DEF_POSENCEMULATENVGPU
#include "posenc/GPU/Passes.h.inc"
} // namespace posenc
} // namespace mlir

using namespace mlir;
using namespace mlir::posenc;

namespace {

constexpr int64_t kWarp = 32;
// Per warp, in f32 words: A (16 x 16), B (16 x 8), C (16 x 8) of an mma.
constexpr int64_t kMmaWords = 16 * 16 + 16 * 8 + 16 * 8;

Value cIdx(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// The launch's scratch buffers and lane coordinates, created on first use.
struct Emulator {
  mutable gpu::LaunchOp launch;
  int64_t warps;
  Value mmaScratch;   // [warps, kMmaWords] f32
  Value indexScratch; // [warps, 32, rank] index, one per source rank
  int64_t indexRank = 0;

  Value warp(OpBuilder &b, Location loc) const {
    return arith::DivUIOp::create(b, loc, launch.getThreadIds().x,
                                  cIdx(b, loc, kWarp));
  }
  Value lane(OpBuilder &b, Location loc) const {
    return arith::RemUIOp::create(b, loc, launch.getThreadIds().x,
                                  cIdx(b, loc, kWarp));
  }
  Value attribution(Type type, Location loc) {
    return launch.addWorkgroupAttribution(type, loc);
  }
};

/// Whether `op` runs in every thread of its launch: only scf.for between
/// it and the launch (posenc-gpu-launch-to-loops checks the loop bounds).
LogicalResult checkUniform(Operation *op, gpu::LaunchOp launch) {
  for (Operation *parent = op->getParentOp(); parent != launch;
       parent = parent->getParentOp())
    if (!isa<scf::ForOp>(parent))
      return op->emitError("posenc-emulate-nvgpu: a warp-level op must run in "
                           "every thread (at the top level of the kernel or "
                           "in scf.for loops), not under '")
             << parent->getName() << "'";
  return success();
}

Value toF32(OpBuilder &b, Location loc, Value v) {
  if (v.getType().isF32())
    return v;
  return arith::ExtFOp::create(b, loc, b.getF32Type(), v);
}

/// nvgpu.ldmatrix: lane l supplies the address of row l % 8 of matrix l / 8;
/// it receives, of matrix i, row l / 4, columns 2 (l % 4) + {0, 1}, or with
/// `transpose` rows 2 (l % 4) + {0, 1}, column l / 4.
LogicalResult emulateLdMatrix(RewriterBase &rewriter, nvgpu::LdMatrixOp op,
                              Emulator &em) {
  auto vectorType = cast<VectorType>(op.getRes().getType());
  int64_t tiles = op.getNumTiles();
  int64_t rank = op.getIndices().size();
  if (vectorType.getRank() != 2 || vectorType.getDimSize(0) != tiles ||
      vectorType.getDimSize(1) != 2 || rank < 1 ||
      vectorType.getElementTypeBitWidth() != 16)
    return op.emitError("posenc-emulate-nvgpu: only ldmatrix of 16-bit 8x8 "
                        "matrices (vector<Nx2x16-bit>) is emulated");
  if (failed(checkUniform(op, em.launch)))
    return failure();
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  if (!em.indexScratch || em.indexRank < rank) {
    if (em.indexScratch)
      return op.emitError("posenc-emulate-nvgpu: ldmatrix sources of "
                          "different ranks in one launch");
    em.indexRank = rank;
    em.indexScratch = em.attribution(
        MemRefType::get(
            {em.warps, kWarp, rank}, rewriter.getIndexType(),
            MemRefLayoutAttrInterface(),
            gpu::AddressSpaceAttr::get(rewriter.getContext(),
                                       gpu::AddressSpace::Workgroup)),
        loc);
  }
  Value warp = em.warp(rewriter, loc), lane = em.lane(rewriter, loc);
  for (auto [d, index] : llvm::enumerate(op.getIndices()))
    memref::StoreOp::create(rewriter, loc, index, em.indexScratch,
                            ValueRange{warp, lane, cIdx(rewriter, loc, d)});
  gpu::BarrierOp::create(rewriter, loc);
  Value group =
      arith::DivUIOp::create(rewriter, loc, lane, cIdx(rewriter, loc, 4));
  Value inGroup =
      arith::RemUIOp::create(rewriter, loc, lane, cIdx(rewriter, loc, 4));
  Value pair =
      arith::MulIOp::create(rewriter, loc, inGroup, cIdx(rewriter, loc, 2));
  SmallVector<Value> elements;
  for (int64_t i = 0; i < tiles; ++i) {
    for (int64_t e = 0; e < 2; ++e) {
      // The lane whose row this element is in, and the column offset.
      Value source, column;
      if (op.getTranspose()) {
        source = arith::AddIOp::create(rewriter, loc, pair,
                                       cIdx(rewriter, loc, 8 * i + e));
        column = group;
      } else {
        source = arith::AddIOp::create(rewriter, loc, group,
                                       cIdx(rewriter, loc, 8 * i));
        column =
            arith::AddIOp::create(rewriter, loc, pair, cIdx(rewriter, loc, e));
      }
      SmallVector<Value> indices;
      for (int64_t d = 0; d < rank; ++d)
        indices.push_back(memref::LoadOp::create(
            rewriter, loc, em.indexScratch,
            ValueRange{warp, source, cIdx(rewriter, loc, d)}));
      indices.back() =
          arith::AddIOp::create(rewriter, loc, indices.back(), column);
      elements.push_back(
          memref::LoadOp::create(rewriter, loc, op.getSrcMemref(), indices));
    }
  }
  Value result =
      vector::FromElementsOp::create(rewriter, loc, vectorType, elements);
  // The scratch is free again once every lane has read it.
  gpu::BarrierOp::create(rewriter, loc);
  rewriter.replaceOp(op, result);
  return success();
}

/// Fragment element (i, j) of a lane (group g, thread-in-group t) of the
/// m16n8k16 operands: A (row, k), B (k, column), C/D (row, column).
std::pair<Value, Value> fragmentA(OpBuilder &b, Location loc, Value g, Value t2,
                                  int64_t i, int64_t j) {
  Value row = arith::AddIOp::create(b, loc, g, cIdx(b, loc, 8 * (i % 2)));
  Value k = arith::AddIOp::create(b, loc, t2, cIdx(b, loc, 8 * (i / 2) + j));
  return {row, k};
}
std::pair<Value, Value> fragmentB(OpBuilder &b, Location loc, Value g, Value t2,
                                  int64_t i, int64_t j) {
  return {arith::AddIOp::create(b, loc, t2, cIdx(b, loc, 8 * i + j)), g};
}
std::pair<Value, Value> fragmentC(OpBuilder &b, Location loc, Value g, Value t2,
                                  int64_t i, int64_t j) {
  return {arith::AddIOp::create(b, loc, g, cIdx(b, loc, 8 * i)),
          arith::AddIOp::create(b, loc, t2, cIdx(b, loc, j))};
}

/// nvgpu.mma.sync m16n8k16: D = A B + C over the warp's fragments.
LogicalResult emulateMmaSync(RewriterBase &rewriter, nvgpu::MmaSyncOp op,
                             Emulator &em) {
  auto aType = cast<VectorType>(op.getMatrixA().getType());
  auto bType = cast<VectorType>(op.getMatrixB().getType());
  auto cType = cast<VectorType>(op.getMatrixC().getType());
  std::array<int64_t, 3> shape = op.getMmaShapeAsArray();
  Type ab = aType.getElementType();
  if (shape != std::array<int64_t, 3>{16, 8, 16} ||
      !isa<Float16Type, BFloat16Type>(ab) ||
      aType.getShape() != ArrayRef<int64_t>{4, 2} ||
      bType.getShape() != ArrayRef<int64_t>{2, 2} ||
      cType.getShape() != ArrayRef<int64_t>{2, 2} ||
      !cType.getElementType().isF32())
    return op.emitError("posenc-emulate-nvgpu: only m16n8k16 mma.sync on f16 "
                        "or bf16 with f32 accumulators is emulated");
  if (failed(checkUniform(op, em.launch)))
    return failure();
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  if (!em.mmaScratch)
    em.mmaScratch = em.attribution(
        MemRefType::get(
            {em.warps, kMmaWords}, rewriter.getF32Type(),
            MemRefLayoutAttrInterface(),
            gpu::AddressSpaceAttr::get(rewriter.getContext(),
                                       gpu::AddressSpace::Workgroup)),
        loc);
  Value warp = em.warp(rewriter, loc), lane = em.lane(rewriter, loc);
  Value g = arith::DivUIOp::create(rewriter, loc, lane, cIdx(rewriter, loc, 4));
  Value t2 = arith::MulIOp::create(
      rewriter, loc,
      arith::RemUIOp::create(rewriter, loc, lane, cIdx(rewriter, loc, 4)),
      cIdx(rewriter, loc, 2));
  // Word of (row, column) of a matrix with `columns` columns at `base`.
  auto word = [&](std::pair<Value, Value> rc, int64_t columns,
                  int64_t base) -> Value {
    Value w = arith::MulIOp::create(rewriter, loc, rc.first,
                                    cIdx(rewriter, loc, columns));
    w = arith::AddIOp::create(rewriter, loc, w, rc.second);
    return arith::AddIOp::create(rewriter, loc, w, cIdx(rewriter, loc, base));
  };
  constexpr int64_t aBase = 0, bBase = 16 * 16, cBase = bBase + 16 * 8;
  auto publish = [&](Value fragment, int64_t rows, auto layout, int64_t columns,
                     int64_t base) {
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < 2; ++j) {
        Value x = vector::ExtractOp::create(rewriter, loc, fragment,
                                            ArrayRef<int64_t>{i, j});
        memref::StoreOp::create(
            rewriter, loc, toF32(rewriter, loc, x), em.mmaScratch,
            ValueRange{
                warp, word(layout(rewriter, loc, g, t2, i, j), columns, base)});
      }
  };
  publish(op.getMatrixA(), 4, fragmentA, 16, aBase);
  publish(op.getMatrixB(), 2, fragmentB, 8, bBase);
  publish(op.getMatrixC(), 2, fragmentC, 8, cBase);
  gpu::BarrierOp::create(rewriter, loc);
  SmallVector<Value> elements;
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 2; ++j) {
      auto [row, column] = fragmentC(rewriter, loc, g, t2, i, j);
      Value acc = vector::ExtractOp::create(rewriter, loc, op.getMatrixC(),
                                            ArrayRef<int64_t>{i, j});
      for (int64_t k = 0; k < 16; ++k) {
        Value kk = cIdx(rewriter, loc, k);
        Value a = memref::LoadOp::create(
            rewriter, loc, em.mmaScratch,
            ValueRange{warp, word({row, kk}, 16, aBase)});
        Value b = memref::LoadOp::create(
            rewriter, loc, em.mmaScratch,
            ValueRange{warp, word({kk, column}, 8, bBase)});
        acc = arith::AddFOp::create(rewriter, loc, acc,
                                    arith::MulFOp::create(rewriter, loc, a, b));
      }
      elements.push_back(acc);
    }
  Value result = vector::FromElementsOp::create(rewriter, loc, cType, elements);
  gpu::BarrierOp::create(rewriter, loc);
  rewriter.replaceOp(op, result);
  return success();
}

LogicalResult emulateLaunch(RewriterBase &rewriter, gpu::LaunchOp launch) {
  SmallVector<Operation *> ops;
  launch.getBody().walk([&](Operation *op) {
    if (isa<nvgpu::LdMatrixOp, nvgpu::MmaSyncOp>(op))
      ops.push_back(op);
  });
  if (ops.empty())
    return success();
  auto constant = [](Value v) { return getConstantIntValue(v); };
  std::optional<int64_t> x = constant(launch.getBlockSizeX());
  std::optional<int64_t> y = constant(launch.getBlockSizeY());
  std::optional<int64_t> z = constant(launch.getBlockSizeZ());
  if (!x || !y || !z || *y != 1 || *z != 1 || *x % kWarp != 0)
    return launch.emitError("posenc-emulate-nvgpu: warp-level ops need a "
                            "static x-only block of whole warps");
  Emulator em{launch, *x / kWarp, Value(), Value()};
  for (Operation *op : ops) {
    LogicalResult result =
        isa<nvgpu::LdMatrixOp>(op)
            ? emulateLdMatrix(rewriter, cast<nvgpu::LdMatrixOp>(op), em)
            : emulateMmaSync(rewriter, cast<nvgpu::MmaSyncOp>(op), em);
    if (failed(result))
      return failure();
  }
  return success();
}

struct PosEncEmulateNVGPUPass
    : posenc::impl::PosEncEmulateNVGPUBase<PosEncEmulateNVGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<gpu::LaunchOp> launches;
    getOperation()->walk([&](gpu::LaunchOp op) { launches.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (gpu::LaunchOp launch : launches)
      if (failed(emulateLaunch(rewriter, launch)))
        return signalPassFailure();
  }
};

} // namespace
