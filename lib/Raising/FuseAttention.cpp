//===- FuseAttention.cpp - the posenc-fuse-attention pass -----------------===//
//
// Folds the rotary embeddings of Q and K into the posenc.attention that
// consumes them, so that the lowering rotates tiles in the kernel instead of
// writing rotated copies of Q and K to memory.
//
//===----------------------------------------------------------------------===//

#include "posenc/IR/PosEncOps.h"
#include "posenc/Raising/Match.h"
#include "posenc/Raising/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/Support/raw_ostream.h"

#define DEBUG_TYPE "posenc-fuse-attention"

namespace mlir {
namespace posenc {
#define GEN_PASS_DEF_POSENCFUSEATTENTION
#include "posenc/Raising/Passes.h.inc"
} // namespace posenc
} // namespace mlir

using namespace mlir;
using namespace mlir::posenc;

namespace {

/// The attention applies one RoPE configuration to Q and K: the same
/// layout, rotary dimension, frequency operand and attention factor, on the
/// token axis of `[B, H, S, D]`, from frequencies (not cos/sin tables).
bool sameRotation(RotaryOp q, RotaryOp k) {
  auto sameFactor = [](Value a, Value b) {
    if (a == b)
      return true;
    std::optional<double> x = a ? raising::getConstantFloat(a) : std::nullopt;
    std::optional<double> y = b ? raising::getConstantFloat(b) : std::nullopt;
    return x && y && *x == *y;
  };
  auto plain = [](RotaryOp r) {
    auto type = cast<RankedTensorType>(r.getInput().getType());
    return r.getInvFreq() && !r.getCos() && !r.getMropeSections() &&
           r.getTokenAxis() == type.getRank() - 2 && type.getRank() == 4;
  };
  return plain(q) && plain(k) && q.getLayout() == k.getLayout() &&
         q.getRotaryDim() == k.getRotaryDim() &&
         q.getInvFreq() == k.getInvFreq() &&
         sameFactor(q.getAttentionFactor(), k.getAttentionFactor());
}

std::optional<int64_t> constantOffset(RotaryOp r) {
  if (!r.getOffset())
    return 0;
  APInt value;
  if (matchPattern(r.getOffset(), m_ConstantInt(&value)))
    return value.getSExtValue();
  return std::nullopt;
}

struct FuseRotaryIntoAttention : OpRewritePattern<AttentionOp> {
  FuseRotaryIntoAttention(MLIRContext *ctx, int64_t &count)
      : OpRewritePattern(ctx), count(count) {}

  LogicalResult matchAndRewrite(AttentionOp op,
                                PatternRewriter &rewriter) const override {
    auto q = op.getQuery().getDefiningOp<RotaryOp>();
    auto k = op.getKey().getDefiningOp<RotaryOp>();
    if (!q || !k || op.getRope() || op.getQPositions() || op.getKPositions())
      return rewriter.notifyMatchFailure(op, "no rotary pair to fuse");
    if (!sameRotation(q, k))
      return rewriter.notifyMatchFailure(op, "Q and K rotated differently");
    // The attention's own positions must be the rotations' positions.
    Value qPositions, kPositions;
    std::optional<int64_t> qOffset = constantOffset(q);
    std::optional<int64_t> kOffset = constantOffset(k);
    if (!qOffset || !kOffset)
      return rewriter.notifyMatchFailure(op, "runtime rotary offsets");
    if (!q.getPositions() && !k.getPositions()) {
      // Implicit positions: k_pos = j; q_pos = i (top_left) or
      // i + Sk - Sq (bottom_right), which must be the query's offset.
      int64_t sq =
          cast<RankedTensorType>(op.getQuery().getType()).getDimSize(2);
      int64_t sk = cast<RankedTensorType>(op.getKey().getType()).getDimSize(2);
      int64_t expected = 0;
      if (op.getAlignment() == Alignment::bottom_right) {
        if (ShapedType::isDynamic(sq) || ShapedType::isDynamic(sk))
          return rewriter.notifyMatchFailure(op, "dynamic query alignment");
        expected = sk - sq;
      }
      if (*kOffset != 0 || *qOffset != expected)
        return rewriter.notifyMatchFailure(op, "offsets differ from alignment");
    } else if (q.getPositions() && k.getPositions() && *qOffset == 0 &&
               *kOffset == 0 && !op.getCausal() && !op.getAlibi() &&
               !op.getAlibiSlopes()) {
      // Explicit positions also drive the mask and the bias; with neither
      // they only feed RoPE.
      qPositions = q.getPositions();
      kPositions = k.getPositions();
    } else {
      return rewriter.notifyMatchFailure(op,
                                         "positions differ from the mask's");
    }
    auto rope =
        RopeAttr::get(rewriter.getContext(), q.getLayout(), q.getRotaryDim());
    rewriter.modifyOpInPlace(op, [&] {
      op.getQueryMutable().assign(q.getInput());
      op.getKeyMutable().assign(k.getInput());
      op.getInvFreqMutable().assign(q.getInvFreq());
      if (Value factor = q.getAttentionFactor())
        op.getAttentionFactorMutable().assign(factor);
      if (qPositions) {
        op.getQPositionsMutable().assign(qPositions);
        op.getKPositionsMutable().assign(kPositions);
      }
      op.setRopeAttr(rope);
    });
    ++count;
    return success();
  }

  int64_t &count;
};

struct PosEncFuseAttentionPass
    : posenc::impl::PosEncFuseAttentionBase<PosEncFuseAttentionPass> {
  using Base::Base;

  void runOnOperation() override {
    int64_t numFused = 0;
    RewritePatternSet patterns(&getContext());
    patterns.add<FuseRotaryIntoAttention>(&getContext(), numFused);
    GreedyRewriteConfig config;
    config.enableFolding(false);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      signalPassFailure();
    if (printStats)
      llvm::errs() << "posenc-fuse-attention: " << numFused
                   << " fused-rotary\n";
  }
};

} // namespace
