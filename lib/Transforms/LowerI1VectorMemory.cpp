//===- LowerI1VectorMemory.cpp - the posenc-lower-i1-vector-memory pass ---===//
//
// memref<...xi1> holds one byte per element, but LLVM lays <N x i1> out
// bit-packed in memory: a vector load of i1 must read bytes and truncate.
//
//===----------------------------------------------------------------------===//

#include "posenc/Transforms/Passes.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/ADT/TypeSwitch.h"

namespace mlir {
namespace posenc {
#define GEN_PASS_DEF_POSENCLOWERI1VECTORMEMORY
#include "posenc/Transforms/Passes.h.inc"
} // namespace posenc
} // namespace mlir

using namespace mlir;

namespace {

bool isI1MemRef(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && memref.getElementType().isInteger(1);
}

/// The vector memory op's memref operand if it is a memref of i1, else null.
Value getI1Base(Operation *op) {
  Value base =
      TypeSwitch<Operation *, Value>(op)
          .Case<vector::LoadOp, vector::StoreOp, vector::MaskedLoadOp,
                vector::MaskedStoreOp, vector::ExpandLoadOp,
                vector::CompressStoreOp, vector::TransferReadOp,
                vector::TransferWriteOp>([](auto op) { return op.getBase(); })
          .Default([](Operation *) { return Value(); });
  return base && isI1MemRef(base.getType()) ? base : Value();
}

/// `type` (an LLVM vector of i1) with i8 elements: memory holds i1 in bytes.
VectorType toBytes(Type type) {
  auto vector = cast<VectorType>(type);
  return vector.clone(IntegerType::get(type.getContext(), 8));
}

unsigned getByteAlignment(std::optional<uint64_t> alignment) {
  return alignment ? static_cast<unsigned>(*alignment) : 1;
}

/// Shared checks: a rank-0/1 fixed vector that converts to an LLVM vector.
template <typename OpTy>
LogicalResult getLLVMVectorType(const LLVMTypeConverter &converter, OpTy op,
                                VectorType &llvmType) {
  VectorType type = op.getVectorType();
  if (type.getRank() > 1 || type.isScalable())
    return failure();
  llvmType = dyn_cast_or_null<VectorType>(converter.convertType(type));
  return success(llvmType != nullptr);
}

struct LoadI1 : ConvertOpToLLVMPattern<vector::LoadOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(vector::LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    VectorType type;
    if (failed(getLLVMVectorType(*getTypeConverter(), op, type)))
      return failure();
    Location loc = op.getLoc();
    Value ptr = getStridedElementPtr(rewriter, loc, op.getMemRefType(),
                                     adaptor.getBase(), adaptor.getIndices());
    Value bytes = LLVM::LoadOp::create(
        rewriter, loc, toBytes(type), ptr, getByteAlignment(op.getAlignment()),
        /*isVolatile=*/false, op.getNontemporal());
    rewriter.replaceOpWithNewOp<LLVM::TruncOp>(op, type, bytes);
    return success();
  }
};

struct StoreI1 : ConvertOpToLLVMPattern<vector::StoreOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(vector::StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    VectorType type;
    if (failed(getLLVMVectorType(*getTypeConverter(), op, type)))
      return failure();
    Location loc = op.getLoc();
    Value ptr = getStridedElementPtr(rewriter, loc, op.getMemRefType(),
                                     adaptor.getBase(), adaptor.getIndices());
    Value bytes = LLVM::ZExtOp::create(rewriter, loc, toBytes(type),
                                       adaptor.getValueToStore());
    rewriter.replaceOpWithNewOp<LLVM::StoreOp>(
        op, bytes, ptr, getByteAlignment(op.getAlignment()),
        /*isVolatile=*/false, op.getNontemporal());
    return success();
  }
};

struct MaskedLoadI1 : ConvertOpToLLVMPattern<vector::MaskedLoadOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(vector::MaskedLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    VectorType type;
    if (failed(getLLVMVectorType(*getTypeConverter(), op, type)))
      return failure();
    Location loc = op.getLoc();
    Value ptr = getStridedElementPtr(rewriter, loc, op.getMemRefType(),
                                     adaptor.getBase(), adaptor.getIndices());
    Value passThru = LLVM::ZExtOp::create(rewriter, loc, toBytes(type),
                                          adaptor.getPassThru());
    Value bytes = LLVM::MaskedLoadOp::create(
        rewriter, loc, toBytes(type), ptr, adaptor.getMask(), passThru,
        getByteAlignment(op.getAlignment()));
    rewriter.replaceOpWithNewOp<LLVM::TruncOp>(op, type, bytes);
    return success();
  }
};

struct MaskedStoreI1 : ConvertOpToLLVMPattern<vector::MaskedStoreOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(vector::MaskedStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    VectorType type;
    if (failed(getLLVMVectorType(*getTypeConverter(), op, type)))
      return failure();
    Location loc = op.getLoc();
    Value ptr = getStridedElementPtr(rewriter, loc, op.getMemRefType(),
                                     adaptor.getBase(), adaptor.getIndices());
    Value bytes = LLVM::ZExtOp::create(rewriter, loc, toBytes(type),
                                       adaptor.getValueToStore());
    rewriter.replaceOpWithNewOp<LLVM::MaskedStoreOp>(
        op, bytes, ptr, adaptor.getMask(), getByteAlignment(op.getAlignment()));
    return success();
  }
};

struct PosEncLowerI1VectorMemoryPass
    : posenc::impl::PosEncLowerI1VectorMemoryBase<
          PosEncLowerI1VectorMemoryPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    Operation *root = getOperation();

    // Rank-1 transfers become the four contiguous ops (out-of-bounds ones
    // masked first), exactly as convert-vector-to-llvm would lower them.
    SmallVector<Operation *> transfers;
    root->walk([&](Operation *op) {
      if (isa<vector::TransferReadOp, vector::TransferWriteOp>(op) &&
          getI1Base(op))
        transfers.push_back(op);
    });
    if (!transfers.empty()) {
      RewritePatternSet patterns(ctx);
      vector::populateVectorMaskMaterializationPatterns(
          patterns, force32BitVectorIndices);
      vector::populateVectorTransferLoweringPatterns(patterns,
                                                     /*maxTransferRank=*/1);
      GreedyRewriteConfig config;
      config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
      if (failed(
              applyOpPatternsGreedily(transfers, std::move(patterns), config)))
        return signalPassFailure();
    }

    // What upstream would lower to a bit-packed access, and this pass cannot
    // lower, is an error rather than a wrong result.
    bool unsupported = false;
    root->walk([&](Operation *op) {
      if (isa<vector::TransferReadOp, vector::TransferWriteOp>(op) ||
          !getI1Base(op))
        return;
      // Expand loads and compress stores have no case: never lowered here.
      auto type = TypeSwitch<Operation *, VectorType>(op)
                      .Case<vector::LoadOp, vector::StoreOp,
                            vector::MaskedLoadOp, vector::MaskedStoreOp>(
                          [](auto op) { return op.getVectorType(); })
                      .Default([](Operation *) { return VectorType(); });
      if (type && type.getRank() <= 1 && !type.isScalable())
        return;
      op->emitOpError("on an i1 memref (one byte per element) is not "
                      "supported: only rank-1 fixed-size vector loads, "
                      "stores, masked loads and masked stores are lowered");
      unsupported = true;
    });
    if (unsupported)
      return signalPassFailure();

    LowerToLLVMOptions options(ctx);
    LLVMTypeConverter converter(ctx, options);
    RewritePatternSet patterns(ctx);
    patterns.add<LoadI1, StoreI1, MaskedLoadI1, MaskedStoreI1>(converter);
    ConversionTarget target(*ctx);
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    target.addDynamicallyLegalOp<vector::LoadOp, vector::StoreOp,
                                 vector::MaskedLoadOp, vector::MaskedStoreOp>(
        [](Operation *op) { return !getI1Base(op); });
    if (failed(applyPartialConversion(root, target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
