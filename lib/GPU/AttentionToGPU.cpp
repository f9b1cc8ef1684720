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

#include "AttentionKernel.h"

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
using namespace mlir::posenc::gpu_attention;

namespace {

/// `tensor`'s buffer, read only, with the identity layout.
Value readBuffer(OpBuilder &b, Location loc, Value tensor) {
  if (!tensor)
    return Value();
  auto type = cast<RankedTensorType>(tensor.getType());
  return bufferization::ToBufferOp::create(
      b, loc, MemRefType::get(type.getShape(), type.getElementType()), tensor,
      /*read_only=*/true);
}

/// The op's operands as read-only buffers of the kernel (ALiBi slopes from
/// the attribute materialized first).
void bindOperands(OpBuilder &b, Location loc, AttentionOp op, Kernel &kn) {
  auto qType = cast<RankedTensorType>(op.getQuery().getType());
  kn.elementType = qType.getElementType();
  kn.q = readBuffer(b, loc, op.getQuery());
  kn.k = readBuffer(b, loc, op.getKey());
  kn.v = readBuffer(b, loc, op.getValue());
  kn.invFreq = readBuffer(b, loc, op.getInvFreq());
  kn.factor = op.getAttentionFactor();
  kn.qPositions = readBuffer(b, loc, op.getQPositions());
  kn.kPositions = readBuffer(b, loc, op.getKPositions());
  kn.sinks = readBuffer(b, loc, op.getSinks());
  kn.keyLengths = readBuffer(b, loc, op.getKeyLengths());
  kn.keyMask = readBuffer(b, loc, op.getKeyMask());
  Value slopes = op.getAlibiSlopes();
  if (AlibiSlopesAttr alibi = op.getAlibiAttr())
    slopes = emitAlibiSlopes(b, loc, alibi, qType.getDimSize(1));
  kn.slopes = readBuffer(b, loc, slopes);
}

/// Where the result goes: when its only use (possibly through a
/// tensor.cast: dynamic lengths inside a static entry) materializes it in a
/// writable buffer, that buffer (`materialize` and `resultCast` are then the
/// ops to erase); else a new buffer.
struct ResultBuffer {
  Value buffer;
  Operation *materialize = nullptr;
  tensor::CastOp resultCast;
};

/// The materialize_in_destination that is `v`'s only use, when it writes a
/// writable, restrict, identity-layout buffer.
Operation *getOnlyMaterialize(Value v) {
  if (!v.hasOneUse())
    return nullptr;
  auto m = dyn_cast<bufferization::MaterializeInDestinationOp>(*v.user_begin());
  if (m && m.getWritable() && m.getRestrict() &&
      isa<MemRefType>(m.getDest().getType()) &&
      cast<MemRefType>(m.getDest().getType()).getLayout().isIdentity())
    return m;
  return nullptr;
}

ResultBuffer bindResult(OpBuilder &b, Location loc, AttentionOp op,
                        const Kernel &kn) {
  auto resultType = cast<RankedTensorType>(op.getResult().getType());
  auto bufferType =
      MemRefType::get(resultType.getShape(), resultType.getElementType());
  ResultBuffer result;
  result.materialize = getOnlyMaterialize(op.getResult());
  if (!result.materialize && op->hasOneUse())
    if ((result.resultCast = dyn_cast<tensor::CastOp>(*op->user_begin())))
      if (!(result.materialize =
                getOnlyMaterialize(result.resultCast.getResult())))
        result.resultCast = nullptr;
  SmallVector<Value> sizes;
  for (auto [d, size] : llvm::enumerate(resultType.getShape()))
    if (ShapedType::isDynamic(size))
      sizes.push_back(memref::DimOp::create(b, loc, kn.q, d));
  if (result.materialize) {
    result.buffer =
        cast<bufferization::MaterializeInDestinationOp>(result.materialize)
            .getDest();
    if (result.resultCast)
      result.buffer = memref::CastOp::create(b, loc, bufferType, result.buffer);
  } else {
    result.buffer = memref::AllocOp::create(b, loc, bufferType, sizes);
  }
  return result;
}

/// The workgroup tiles of the kernel's shape: Q, K, V, logits and, with
/// tensor cores, P and the tile's P V.
SmallVector<Type> getSharedTypes(OpBuilder &b, const Kernel &kn) {
  const KernelShape &s = kn.s;
  Attribute workgroup =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  auto tile = [&](int64_t rows, int64_t cols, Type type) -> Type {
    return MemRefType::get({rows, cols}, type, MemRefLayoutAttrInterface(),
                           workgroup);
  };
  Type f32 = b.getF32Type();
  if (s.mma)
    return {tile(s.mmaRows, s.qStride(), kn.elementType),
            tile(s.keyTile, s.qStride(), kn.elementType),
            tile(s.keyTile, s.vStride(), kn.elementType),
            tile(s.rows, s.keyTile + 1, f32),
            tile(s.mmaRows, s.pStride(), kn.elementType),
            tile(s.rows, s.vWidth, f32)};
  return {tile(s.rows, s.headDim, kn.elementType),
          tile(s.keyTile, s.keyPad, kn.elementType),
          tile(s.keyTile, s.valueDim, kn.elementType),
          tile(s.rows, s.keyTile + 1, f32)};
}

/// The launch over the grid (query tiles, kv heads, batch), its body the
/// kernel.
void emitLaunch(OpBuilder &b, Location loc, AttentionOp op, Kernel &kn) {
  const KernelShape &s = kn.s;
  Value sq = memref::DimOp::create(b, loc, kn.q, 2);
  Value tiles = arith::DivUIOp::create(
      b, loc, arith::AddIOp::create(b, loc, sq, cIdx(b, loc, s.queryTile - 1)),
      cIdx(b, loc, s.queryTile));
  auto kType = cast<RankedTensorType>(op.getKey().getType());
  Value batch = memref::DimOp::create(b, loc, kn.q, 0);
  kn.sharedTypes = getSharedTypes(b, kn);
  Value one = cIdx(b, loc, 1);
  auto launch = gpu::LaunchOp::create(
      b, loc, tiles, cIdx(b, loc, kType.getDimSize(1)), batch,
      cIdx(b, loc, s.threads), one, one, /*dynamicSharedMemorySize=*/Value());
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&launch.getBody().front());
  emitKernel(b, loc, kn, launch);
}

LogicalResult lowerAttention(RewriterBase &rewriter, AttentionOp op,
                             int64_t threads, int64_t budget,
                             bool tensorCores) {
  FailureOr<KernelShape> shape = chooseShape(op, threads, budget, tensorCores);
  if (failed(shape))
    return failure();
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Kernel kn;
  kn.op = op;
  kn.s = *shape;
  bindOperands(rewriter, loc, op, kn);
  ResultBuffer result = bindResult(rewriter, loc, op, kn);
  kn.out = result.buffer;
  emitLaunch(rewriter, loc, op, kn);
  if (result.materialize) {
    rewriter.eraseOp(result.materialize);
    if (result.resultCast)
      rewriter.eraseOp(result.resultCast);
    rewriter.eraseOp(op);
    return success();
  }
  rewriter.replaceOp(op, bufferization::ToTensorOp::create(
                             rewriter, loc, op.getResult().getType(), kn.out,
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
