//===- UnflattenGather.cpp - ONNX's flattened embedding gathers -----------===//
//
// ONNX's Gather of table rows by a `[B, S]` index tensor arrives as a gather
// over the flattened indices, `expand(gather(table, collapse(P)))`: rows of
// `[B*S, D]` regrouped to `[B, S, D]`. The same gather over `P`'s own shape
// computes the same elements; in that form posenc-raise-absolute reads it
// like torch-mlir's. Only gathers that are added (the form it raises) are
// rewritten.
//
//===----------------------------------------------------------------------===//

#include "AbsoluteRaising.h"

#include "posenc/Raising/Match.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::posenc;
using namespace mlir::posenc::raising;

namespace {

struct UnflattenGather : OpRewritePattern<tensor::ExpandShapeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::ExpandShapeOp expand,
                                PatternRewriter &rewriter) const override {
    // Only where posenc-raise-absolute reads it next: added to something.
    if (expand->use_empty() ||
        !llvm::all_of(expand->getUsers(), [](Operation *user) {
          auto add = dyn_cast<linalg::GenericOp>(user);
          return add && add->getNumResults() == 1 &&
                 matchElementwise<arith::AddFOp>(add->getResult(0));
        }))
      return rewriter.notifyMatchFailure(expand, "not added");
    auto gather = expand.getSrc().getDefiningOp<linalg::GenericOp>();
    if (!gather || !gather->hasOneUse() || gather.getNumDpsInputs() != 1 ||
        gather.getNumDpsInits() != 1 || gather.getNumLoops() != 2 ||
        gather.getNumParallelLoops() != 2)
      return rewriter.notifyMatchFailure(expand, "not a gather over rows");
    MLIRContext *ctx = rewriter.getContext();
    AffineExpr row = getAffineDimExpr(0, ctx);
    SmallVector<AffineMap> maps = gather.getIndexingMapsArray();
    if (maps[0] != AffineMap::get(2, 0, {row}, ctx) || !maps[1].isIdentity())
      return rewriter.notifyMatchFailure(expand, "not one index per row");
    auto collapse =
        gather.getDpsInputs()[0].getDefiningOp<tensor::CollapseShapeOp>();
    if (!collapse || collapse.getResultType().getRank() != 1)
      return rewriter.notifyMatchFailure(expand, "indices not flattened");
    // The expand regroups the rows as the collapse grouped the indices.
    RankedTensorType indices = collapse.getSrcType();
    int64_t rank = indices.getRank();
    RankedTensorType type = expand.getResultType();
    SmallVector<ReassociationIndices> groups = expand.getReassociationIndices();
    if (groups.size() != 2 || groups[1] != ReassociationIndices{rank} ||
        type.getShape().drop_back() != indices.getShape())
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
    SmallVector<AffineExpr> dims;
    for (int64_t d = 0; d < rank; ++d)
      dims.push_back(getAffineDimExpr(d, ctx));
    AffineMap indexMap = AffineMap::get(rank + 1, 0, dims, ctx);
    AffineMap outMap = rewriter.getMultiDimIdentityMap(rank + 1);
    SmallVector<utils::IteratorType> parallel(rank + 1,
                                              utils::IteratorType::parallel);
    auto unflat = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, ValueRange{collapse.getSrc()},
        ValueRange{init}, ArrayRef<AffineMap>{indexMap, outMap}, parallel);
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
};

} // namespace

void raising::populateUnflattenGatherPatterns(RewritePatternSet &patterns) {
  patterns.add<UnflattenGather>(patterns.getContext());
}
