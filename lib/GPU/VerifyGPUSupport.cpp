//===- VerifyGPUSupport.cpp - the posenc-verify-gpu-support pass ----------===//

#include "posenc/GPU/Passes.h"
#include "posenc/IR/PosEncOps.h"

namespace mlir {
namespace posenc {
#define GEN_PASS_DEF_POSENCVERIFYGPUSUPPORT
#include "posenc/GPU/Passes.h.inc"
} // namespace posenc
} // namespace mlir

using namespace mlir;
using namespace mlir::posenc;

namespace {

/// What posenc-attention-to-gpu's kernel needs: static head counts and head
/// dims (the block's shape), whole channel pairs to rotate.
LogicalResult verifyAttention(AttentionOp op) {
  auto q = cast<RankedTensorType>(op.getQuery().getType());
  auto k = cast<RankedTensorType>(op.getKey().getType());
  auto v = cast<RankedTensorType>(op.getValue().getType());
  if (q.isDynamicDim(1) || k.isDynamicDim(1) || q.isDynamicDim(3) ||
      v.isDynamicDim(3))
    return op.emitError("the GPU pipeline compiles posenc.attention with "
                        "static head counts and head dims only");
  if (RopeAttr rope = op.getRopeAttr();
      rope &&
      (rope.getRotaryDim() % 2 || rope.getRotaryDim() > q.getDimSize(3)))
    return op.emitError("the GPU pipeline rotates whole channel pairs within "
                        "the head dim (rotary_dim ")
           << rope.getRotaryDim() << ")";
  return success();
}

struct PosEncVerifyGPUSupportPass
    : posenc::impl::PosEncVerifyGPUSupportBase<PosEncVerifyGPUSupportPass> {
  using Base::Base;

  void runOnOperation() override {
    bool unsupported = false;
    getOperation()->walk(
        [&](AttentionOp op) { unsupported |= failed(verifyAttention(op)); });
    if (unsupported)
      signalPassFailure();
  }
};

} // namespace
