//===- ExpandDestinations.cpp - the posenc-expand-destinations pass -------===//
//
// materialize_in_destination(collapse_shape(x), dest) becomes a
// materialization of x in an expanded view of dest. eliminate-empty-tensors
// then finds x's tensor.empty through shape-preserving ops only, and the
// kernel writes the caller's buffer instead of a temporary that is copied.
//
//===----------------------------------------------------------------------===//

#include "posenc/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "posenc-expand-destinations"

namespace mlir {
namespace posenc {
#define GEN_PASS_DEF_POSENCEXPANDDESTINATIONS
#include "posenc/Transforms/Passes.h.inc"
} // namespace posenc
} // namespace mlir

using namespace mlir;
using namespace mlir::posenc;

namespace {

struct ExpandMaterializeDestination
    : OpRewritePattern<bufferization::MaterializeInDestinationOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(bufferization::MaterializeInDestinationOp op,
                                PatternRewriter &rewriter) const override {
    auto collapse = op.getSource().getDefiningOp<tensor::CollapseShapeOp>();
    if (!collapse)
      return rewriter.notifyMatchFailure(op, "source is not a collapse");
    Location loc = op.getLoc();
    Value source = collapse.getSrc();
    auto sourceType = cast<RankedTensorType>(source.getType());
    SmallVector<ReassociationIndices> reassociation =
        collapse.getReassociationIndices();
    // The verifier of tensor.collapse_shape (MLIR 22) accepts some
    // non-contiguous groups that memref.expand_shape rejects: only
    // 0, 1, ..., rank-1 in order is rewritten.
    int64_t next = 0;
    for (const ReassociationIndices &group : reassociation)
      for (int64_t index : group)
        if (index != next++)
          return rewriter.notifyMatchFailure(op, "unusual reassociation");
    if (next != sourceType.getRank())
      return rewriter.notifyMatchFailure(op, "unusual reassociation");
    Value dest = op.getDest();
    FailureOr<MemRefType> expandedMemRefType;
    if (auto memrefType = dyn_cast<MemRefType>(dest.getType())) {
      expandedMemRefType = memref::ExpandShapeOp::computeExpandedType(
          memrefType, sourceType.getShape(), reassociation);
      if (failed(expandedMemRefType))
        return rewriter.notifyMatchFailure(op, "layout not expandable");
    }
    LDBG() << "expanding the destination of: " << op;
    // The expanded sizes, in terms of the collapse's own operand.
    rewriter.setInsertionPoint(op);
    SmallVector<OpFoldResult> expandedSizes =
        tensor::getMixedSizes(rewriter, loc, source);

    if (succeeded(expandedMemRefType)) {
      Value view =
          memref::ExpandShapeOp::create(rewriter, loc, *expandedMemRefType,
                                        dest, reassociation, expandedSizes);
      rewriter.modifyOpInPlace(op, [&] {
        op.getSourceMutable().assign(source);
        op.getDestMutable().assign(view);
      });
      return success();
    }

    // Tensor destination: materialize in its expansion, collapse the result.
    auto destType = cast<RankedTensorType>(dest.getType());
    auto expandedType =
        RankedTensorType::get(sourceType.getShape(), destType.getElementType(),
                              destType.getEncoding());
    Value view = tensor::ExpandShapeOp::create(
        rewriter, loc, expandedType, dest, reassociation, expandedSizes);
    auto materialized = bufferization::MaterializeInDestinationOp::create(
        rewriter, loc, expandedType, source, view);
    materialized.setRestrict(op.getRestrict());
    materialized.setWritable(op.getWritable());
    rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(
        op, destType, materialized.getResult(), reassociation);
    return success();
  }
};

struct PosEncExpandDestinationsPass
    : posenc::impl::PosEncExpandDestinationsBase<PosEncExpandDestinationsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpandMaterializeDestination>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
