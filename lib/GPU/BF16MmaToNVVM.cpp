//===- BF16MmaToNVVM.cpp - the posenc-bf16-mma-to-nvvm pass ---------------===//
//
// bf16 nvgpu.mma.sync, which MLIR 22's convert-nvgpu-to-nvvm cannot type,
// as nvvm.mma.sync on packed 32-bit registers.
//
//===----------------------------------------------------------------------===//

#include "posenc/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace posenc {
#define GEN_PASS_DEF_POSENCBF16MMATONVVM
#include "posenc/GPU/Passes.h.inc"
} // namespace posenc
} // namespace mlir

using namespace mlir;
using namespace mlir::posenc;

namespace {

/// The rows of `fragment` (vector<Nx2xbf16>) as N packed i32 registers.
/// Only 1-D vector ops: the GPU module's vector lowering does not unroll
/// n-D bitcasts.
SmallVector<Value> packRows(PatternRewriter &rewriter, Location loc,
                            Value fragment) {
  auto type = cast<VectorType>(fragment.getType());
  auto packed = VectorType::get({1}, rewriter.getI32Type());
  SmallVector<Value> registers;
  for (int64_t i = 0; i < type.getDimSize(0); ++i) {
    Value row = vector::ExtractOp::create(rewriter, loc, fragment,
                                          ArrayRef<int64_t>{i});
    Value cast = vector::BitCastOp::create(rewriter, loc, packed, row);
    registers.push_back(
        vector::ExtractOp::create(rewriter, loc, cast, ArrayRef<int64_t>{0}));
  }
  return registers;
}

struct BF16MmaSyncToNVVM : OpRewritePattern<nvgpu::MmaSyncOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(nvgpu::MmaSyncOp op,
                                PatternRewriter &rewriter) const override {
    auto aType = cast<VectorType>(op.getMatrixA().getType());
    auto bType = cast<VectorType>(op.getMatrixB().getType());
    auto cType = cast<VectorType>(op.getMatrixC().getType());
    if (!aType.getElementType().isBF16() ||
        op.getMmaShapeAsArray() != std::array<int64_t, 3>{16, 8, 16} ||
        aType.getShape() != ArrayRef<int64_t>{4, 2} ||
        bType.getShape() != ArrayRef<int64_t>{2, 2} ||
        cType.getShape() != ArrayRef<int64_t>{2, 2} ||
        !cType.getElementType().isF32())
      return rewriter.notifyMatchFailure(op, "not bf16 m16n8k16 into f32");
    Location loc = op.getLoc();
    SmallVector<Value> a = packRows(rewriter, loc, op.getMatrixA());
    SmallVector<Value> b = packRows(rewriter, loc, op.getMatrixB());
    SmallVector<Value> c;
    for (int64_t i = 0; i < 2; ++i)
      for (int64_t j = 0; j < 2; ++j)
        c.push_back(vector::ExtractOp::create(rewriter, loc, op.getMatrixC(),
                                              ArrayRef<int64_t>{i, j}));
    Type f32 = rewriter.getF32Type();
    auto resultType = LLVM::LLVMStructType::getLiteral(
        rewriter.getContext(), SmallVector<Type>(4, f32));
    auto mma = NVVM::MmaOp::create(
        rewriter, loc, resultType, a, b, c, ArrayRef<int64_t>{16, 8, 16},
        std::nullopt, std::nullopt,
        std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16,
                                      NVVM::MMATypes::bf16},
        std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                       NVVM::MMALayout::col});
    // D's rows (d0, d1), (d2, d3) into the 2x2 result, again in 1-D ops.
    Value result = arith::ConstantOp::create(
        rewriter, loc,
        DenseElementsAttr::get(cType, rewriter.getF32FloatAttr(0.0f)));
    auto rowType = VectorType::get({2}, f32);
    for (int64_t i = 0; i < 2; ++i) {
      Value row = vector::FromElementsOp::create(
          rewriter, loc, rowType,
          ValueRange{
              LLVM::ExtractValueOp::create(rewriter, loc, mma, 2 * i),
              LLVM::ExtractValueOp::create(rewriter, loc, mma, 2 * i + 1)});
      result = vector::InsertOp::create(rewriter, loc, row, result,
                                        ArrayRef<int64_t>{i});
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct PosEncBF16MmaToNVVMPass
    : posenc::impl::PosEncBF16MmaToNVVMBase<PosEncBF16MmaToNVVMPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<BF16MmaSyncToNVVM>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
