//===- SinusoidalToLinalg.cpp - lower posenc.sinusoidal -------------------===//
//
// One generic over [rows..., d]: each column has an fp64 frequency and a kind
// (sin, cos or zero) computed at compile time; the angle is reduced modulo
// 2*pi in f64 as for RoPE.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "Patterns.h"

#include "posenc/IR/PosEncNumerics.h"
#include "posenc/IR/PosEncOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::posenc;

namespace {

struct LowerSinusoidal : OpRewritePattern<SinusoidalOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(SinusoidalOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    auto type = op.getResult().getType();
    int64_t rank = type.getRank();
    int64_t dim = type.getShape().back();
    if (dim > kMaxConstantElements)
      return op.emitOpError("encoding dimension ")
             << dim << " exceeds the " << kMaxConstantElements
             << " columns the lowering materializes as constants";
    SinusoidalColumns columns =
        sinusoidalColumns(dim, op.getBase().convertToDouble(), op.getLayout());

    auto invType = RankedTensorType::get({dim}, rewriter.getF64Type());
    Value inv = arith::ConstantOp::create(
        rewriter, loc,
        DenseElementsAttr::get(invType, ArrayRef<double>(columns.invFreq)));
    SmallVector<int32_t> kinds =
        llvm::map_to_vector(columns.kind, [](SinusoidalColumn k) {
          return static_cast<int32_t>(k);
        });
    auto kindType = RankedTensorType::get({dim}, rewriter.getI32Type());
    Value kind = arith::ConstantOp::create(
        rewriter, loc,
        DenseElementsAttr::get(kindType, ArrayRef<int32_t>(kinds)));

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
    SmallVector<Value> inputs{inv, kind};
    SmallVector<AffineMap> maps{columnMap, columnMap};
    if (positions) {
      inputs.push_back(positions);
      maps.push_back(
          rewriter.getMultiDimIdentityMap(rank).getMajorSubMap(rank - 1));
    }
    maps.push_back(rewriter.getMultiDimIdentityMap(rank));

    Type elementType = type.getElementType();
    Value init = emptyLike(rewriter, loc, sizes, elementType);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, inputs, ValueRange{init}, maps,
        parallelIterators(rank),
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          Value pos = positions
                          ? toI64(b, nloc, args[2])
                          : toI64(b, nloc, linalg::IndexOp::create(b, nloc, 0));
          if (offset)
            pos = arith::AddIOp::create(b, nloc, pos, offset);
          Value angle = emitReducedAngle(b, nloc, pos, args[0]);
          auto isKind = [&](SinusoidalColumn k) {
            return arith::CmpIOp::create(
                b, nloc, arith::CmpIPredicate::eq, args[1],
                arith::ConstantOp::create(
                    b, nloc, b.getI32IntegerAttr(static_cast<int32_t>(k))));
          };
          Value value = arith::SelectOp::create(
              b, nloc, isKind(SinusoidalColumn::Sin),
              emitReducedSin(b, nloc, angle), emitReducedCos(b, nloc, angle));
          value = arith::SelectOp::create(
              b, nloc, isKind(SinusoidalColumn::Zero),
              arith::ConstantOp::create(b, nloc, b.getF32FloatAttr(0.0f)),
              value);
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
