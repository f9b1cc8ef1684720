//===- SinusoidalToLinalg.cpp - lower posenc.sinusoidal -------------------===//
//
// One generic over [rows..., d]: each column has an fp64 frequency and a kind
// (sin, cos or zero) computed at compile time; the angle is reduced modulo
// 2*pi in f64 as for RoPE.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "posenc/Codegen/ExtentChecks.h"
#include "posenc/Codegen/LinalgBuilders.h"
#include "posenc/IR/PosEncNumerics.h"
#include "posenc/IR/PosEncOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::posenc;

namespace {

/// The per-column constants of a sinusoidal table of width `dim`: the fp64
/// inverse frequency [dim] and the kind (i32 SinusoidalColumn) [dim].
std::pair<Value, Value> emitColumnConstants(OpBuilder &b, Location loc,
                                            SinusoidalOp op, int64_t dim) {
  SinusoidalColumns columns =
      sinusoidalColumns(dim, op.getBase().convertToDouble(), op.getLayout());
  auto invType = RankedTensorType::get({dim}, b.getF64Type());
  Value inv = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(invType, ArrayRef<double>(columns.invFreq)));
  SmallVector<int32_t> kinds = llvm::map_to_vector(
      columns.kind, [](SinusoidalColumn k) { return static_cast<int32_t>(k); });
  auto kindType = RankedTensorType::get({dim}, b.getI32Type());
  Value kind = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(kindType, ArrayRef<int32_t>(kinds)));
  return {inv, kind};
}

struct LowerSinusoidal : OpRewritePattern<SinusoidalOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(SinusoidalOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    emitExtentAsserts(rewriter, op);
    MLIRContext *ctx = op.getContext();
    auto type = op.getResult().getType();
    int64_t rank = type.getRank();
    int64_t dim = type.getShape().back();
    if (dim > kMaxConstantElements)
      return op.emitOpError("encoding dimension ")
             << dim << " exceeds the " << kMaxConstantElements
             << " columns the lowering materializes as constants";
    auto [inv, kind] = emitColumnConstants(rewriter, loc, op, dim);

    // Rows [S] or [B, S] (the positions' extents), then the columns.
    Value positions = op.getPositions();
    SmallVector<OpFoldResult> sizes;
    for (int64_t d = 0; d < rank - 1; ++d)
      sizes.push_back(type.isDynamicDim(d)
                          ? tensor::getMixedSize(rewriter, loc, positions, d)
                          : rewriter.getIndexAttr(type.getDimSize(d)));
    sizes.push_back(rewriter.getIndexAttr(dim));
    Value offset =
        op.getOffset() ? toI64(rewriter, loc, op.getOffset()) : Value();

    AffineMap columnMap =
        AffineMap::get(rank, 0, {getAffineDimExpr(rank - 1, ctx)}, ctx);
    GenericInputs inputs;
    inputs.add(inv, columnMap);
    inputs.add(kind, columnMap);
    int positionArg = inputs.addPositions(positions, rank, rank - 2);
    Type elementType = type.getElementType();
    Value init = emptyLike(rewriter, loc, sizes, elementType);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, inputs.values, ValueRange{init},
        inputs.mapsWith({rewriter.getMultiDimIdentityMap(rank)}),
        parallelIterators(rank),
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          Value pos = emitLoopPosition(b, nloc, getArgOrNull(args, positionArg),
                                       rank - 2, offset);
          Value value = emitSinusoidalEntry(b, nloc, pos, args[0], args[1]);
          linalg::YieldOp::create(b, nloc,
                                  castFloat(b, nloc, value, elementType));
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

} // namespace

void mlir::posenc::populateSinusoidalLoweringPatterns(
    RewritePatternSet &patterns) {
  patterns.add<LowerSinusoidal>(patterns.getContext());
}
