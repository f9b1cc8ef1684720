//===- UnflattenGather.cpp - ONNX's flattened embedding gathers -----------===//
//
// ONNX's Gather of table rows by a `[B, S]` index tensor arrives as a gather
// over the flattened indices, `expand(gather(table, collapse(P)))`: rows of
// `[B*S, D]` regrouped to `[B, S, D]`. The same gather over `P`'s own shape
// computes the same elements; in that form posenc-raise-absolute reads it
// like torch-mlir's, and posenc-raise-rotary GPT-J's sin/cos table. Only
// gathers read the way the pass reads them next are rewritten.
//
//===----------------------------------------------------------------------===//

#include "UnflattenGather.h"

#include "posenc/Raising/Match.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::posenc;
using namespace mlir::posenc::raising;

namespace {

/// Whether `user` reads a gathered table as `use` says.
bool isUse(Operation *user, GatherUse use) {
  if (use == GatherUse::Sliced) {
    auto slice = dyn_cast<tensor::ExtractSliceOp>(user);
    return slice && matchLastDimSlice(slice.getResult()).has_value();
  }
  auto add = dyn_cast<linalg::GenericOp>(user);
  return add && add->getNumResults() == 1 &&
         matchElementwise<arith::AddFOp>(add->getResult(0));
}

struct UnflattenGather : OpRewritePattern<tensor::ExpandShapeOp> {
  UnflattenGather(MLIRContext *ctx, GatherUse use)
      : OpRewritePattern(ctx), use(use) {}

  LogicalResult matchAndRewrite(tensor::ExpandShapeOp expand,
                                PatternRewriter &rewriter) const override {
    // Only where the pass reads it next.
    if (expand->use_empty() ||
        !llvm::all_of(expand->getUsers(),
                      [&](Operation *user) { return isUse(user, use); }))
      return rewriter.notifyMatchFailure(expand, "not read as a table");
    auto gather = expand.getSrc().getDefiningOp<linalg::GenericOp>();
    if (!gather || !gather->hasOneUse() || gather.getNumDpsInputs() != 1 ||
        gather.getNumDpsInits() != 1 || gather.getNumLoops() != 2 ||
        gather.getNumParallelLoops() != 2)
      return rewriter.notifyMatchFailure(expand, "not a gather over rows");
    MLIRContext *ctx = rewriter.getContext();
    AffineExpr row = getAffineDimExpr(0, ctx);
    SmallVector<AffineMap> maps = gather.getIndexingMapsArray();
    // The indices per row, or broadcast over the columns first (a copy, as
    // ONNX's GatherElements form has them).
    Value indices = gather.getDpsInputs()[0];
    AffineMap indexMap = maps[0];
    if (OpOperand *in = indexMap.isIdentity() ? matchCopy(indices) : nullptr) {
      indexMap =
          cast<linalg::GenericOp>(in->getOwner()).getMatchingIndexingMap(in);
      indices = in->get();
    }
    if (indexMap != AffineMap::get(2, 0, {row}, ctx) || !maps[1].isIdentity())
      return rewriter.notifyMatchFailure(expand, "not one index per row");
    auto collapse = indices.getDefiningOp<tensor::CollapseShapeOp>();
    if (!collapse || collapse.getResultType().getRank() != 1)
      return rewriter.notifyMatchFailure(expand, "indices not flattened");
    // The expand regroups the rows as the collapse grouped the indices (up
    // to unit dimensions): loop d of the rows reads index dimension e.
    RankedTensorType indicesType = collapse.getSrcType();
    RankedTensorType type = expand.getResultType();
    int64_t rank = type.getRank() - 1;
    SmallVector<ReassociationIndices> groups = expand.getReassociationIndices();
    SmallVector<AffineExpr> rowExprs;
    int64_t d = 0;
    // Equal element counts then make one dynamic size the other's.
    if (llvm::count_if(indicesType.getShape(), ShapedType::isDynamic) > 1)
      return rewriter.notifyMatchFailure(expand, "two dynamic sizes");
    for (int64_t n : indicesType.getShape()) {
      while (n != 1 && d < rank && type.getDimSize(d) == 1)
        ++d;
      if (n == 1) {
        rowExprs.push_back(getAffineConstantExpr(0, ctx));
        continue;
      }
      if (d == rank || type.getDimSize(d) != n)
        return rewriter.notifyMatchFailure(expand, "rows regrouped otherwise");
      rowExprs.push_back(getAffineDimExpr(d++, ctx));
    }
    while (d < rank && type.getDimSize(d) == 1)
      ++d;
    if (groups.size() != 2 || groups[1] != ReassociationIndices{rank} ||
        d != rank)
      return rewriter.notifyMatchFailure(expand, "rows regrouped otherwise");
    // The body reads the flattened row only through the index input.
    Block *body = gather.getBody();
    bool columnOnly =
        llvm::all_of(body->getOps<linalg::IndexOp>(),
                     [](linalg::IndexOp i) { return i.getDim() == 1; });
    if (!columnOnly)
      return rewriter.notifyMatchFailure(expand, "the flat row index is read");

    Location loc = gather.getLoc();
    SmallVector<OpFoldResult> sizes = expand.getMixedOutputShape();
    Value init =
        tensor::EmptyOp::create(rewriter, loc, sizes, type.getElementType());
    AffineMap rowsMap = AffineMap::get(rank + 1, 0, rowExprs, ctx);
    AffineMap outMap = rewriter.getMultiDimIdentityMap(rank + 1);
    SmallVector<utils::IteratorType> parallel(rank + 1,
                                              utils::IteratorType::parallel);
    auto unflat = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, ValueRange{collapse.getSrc()},
        ValueRange{init}, ArrayRef<AffineMap>{rowsMap, outMap}, parallel);
    IRMapping mapping;
    rewriter.cloneRegionBefore(gather.getRegion(), unflat.getRegion(),
                               unflat.getRegion().end(), mapping);
    // The column is now the last loop.
    for (linalg::IndexOp index :
         llvm::to_vector(unflat.getBody()->getOps<linalg::IndexOp>())) {
      rewriter.setInsertionPoint(index);
      rewriter.replaceOpWithNewOp<linalg::IndexOp>(index, rank);
    }
    rewriter.replaceOp(expand, unflat.getResult(0));
    rewriter.eraseOp(gather);
    return success();
  }

  GatherUse use;
};

} // namespace

void raising::populateUnflattenGatherPatterns(RewritePatternSet &patterns,
                                              GatherUse use) {
  patterns.add<UnflattenGather>(patterns.getContext(), use);
}
