//===- FuseAttention.cpp - the posenc-fuse-attention pass -----------------===//
//
// Folds the rotary embeddings of Q and K into the posenc.attention that
// consumes them, so that the lowering rotates tiles in the kernel instead of
// writing rotated copies of Q and K to memory. Rotaries applied before a
// head transpose (GPT-J rotates [B, S, H, D], then transposes to
// [B, H, S, D]) are first moved below it.
//
//===----------------------------------------------------------------------===//

#include "RaisingDriver.h"

#include "posenc/IR/PosEncOps.h"
#include "posenc/Raising/Match.h"
#include "posenc/Raising/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

#define DEBUG_TYPE "posenc-fuse-attention"

namespace mlir {
namespace posenc {
#define GEN_PASS_DEF_POSENCFUSEATTENTION
#include "posenc/Raising/Passes.h.inc"
} // namespace posenc
} // namespace mlir

using namespace mlir;
using namespace mlir::posenc;
using namespace mlir::posenc::raising;

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

struct FuseRotaryIntoAttention : CountingPattern<AttentionOp> {
  using CountingPattern::CountingPattern;

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
    bool ropeOnly = false;
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
               *kOffset == 0) {
      // Explicit positions would also drive the masks, ALiBi and the
      // temperature, which read index positions here: then they are
      // RoPE's only (HF's position_ids after left padding).
      qPositions = q.getPositions();
      kPositions = k.getPositions();
      ropeOnly = op.getCausal() || op.getWindow() || op.getChunkSize() ||
                 op.getQueryTemperature() || op.getAlibi() ||
                 op.getAlibiSlopes();
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
        op.setRopeOnlyPositions(ropeOnly);
      }
      op.setRopeAttr(rope);
    });
    ++count;
    return success();
  }
};

/// `transpose(rotary(x), perm)` as the query or key of an attention becomes
/// `rotary(transpose(x, perm))` with the token axis `perm^-1(t)`, so that
/// FuseRotaryIntoAttention sees the rotary on [B, H, S, D]. It lives here,
/// not in posenc-raise-rotary: the key's head transpose is made by
/// posenc-raise-attention (from the K^T transpose), after rotaries are
/// raised. The rotation is per channel pair of the last axis and per token,
/// so it commutes with any permutation that keeps the channel axis last and
/// carries the token axis along; positions `[B, S]` also need the batch axis
/// to stay first. Only a rotary with no other use than sizes moves (no
/// rotation is duplicated); M-RoPE stays.
struct SinkRotaryBelowTranspose : OpRewritePattern<AttentionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AttentionOp op,
                                PatternRewriter &rewriter) const override {
    for (Value operand : {op.getQuery(), op.getKey()}) {
      auto transpose = operand.getDefiningOp<linalg::TransposeOp>();
      if (!transpose)
        continue;
      // Besides the transpose, only sizes may read the rotary (tensor.dim
      // of a dynamic length), which its input has too.
      auto rotary = transpose.getInput().getDefiningOp<RotaryOp>();
      if (!rotary || rotary.getMropeSections() ||
          llvm::any_of(rotary->getUsers(), [&](Operation *user) {
            return user != transpose && !isa<tensor::DimOp>(user);
          }))
        continue;
      ArrayRef<int64_t> perm = transpose.getPermutation();
      int64_t rank = perm.size();
      if (perm.back() != rank - 1)
        continue;
      Value positions = rotary.getPositions();
      if (positions &&
          cast<RankedTensorType>(positions.getType()).getRank() == 2 &&
          perm.front() != 0)
        continue;
      int64_t tokenAxis =
          llvm::find(perm, rotary.getTokenAxis()) - perm.begin();
      rewriter.setInsertionPoint(transpose);
      auto moved = linalg::TransposeOp::create(rewriter, transpose.getLoc(),
                                               rotary.getInput(),
                                               transpose.getInit(), perm);
      auto sunk = cast<RotaryOp>(rewriter.clone(*rotary));
      sunk.getInputMutable().assign(moved.getResult()[0]);
      sunk.getResult().setType(
          cast<RankedTensorType>(moved.getResult()[0].getType()));
      if (tokenAxis == rank - 2)
        sunk.removeTokenDimAttr();
      else
        sunk.setTokenDim(tokenAxis);
      rewriter.replaceOp(transpose, sunk.getResult());
      rewriter.replaceOp(rotary, rotary.getInput());
      return success();
    }
    return rewriter.notifyMatchFailure(op, "no transposed rotary operand");
  }
};

struct PosEncFuseAttentionPass
    : posenc::impl::PosEncFuseAttentionBase<PosEncFuseAttentionPass> {
  using Base::Base;

  void runOnOperation() override {
    int64_t numFused = 0;
    RewritePatternSet patterns(&getContext());
    patterns.add<FuseRotaryIntoAttention>(&getContext(), numFused);
    patterns.add<SinkRotaryBelowTranspose>(&getContext());
    if (failed(raising::applyRaisingPatterns(
            getOperation(), std::move(patterns), getArgument(), printStats,
            {{"fused-rotary", numFused}})))
      signalPassFailure();
  }
};

} // namespace
