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

struct PosEncVerifyGPUSupportPass
    : posenc::impl::PosEncVerifyGPUSupportBase<PosEncVerifyGPUSupportPass> {
  using Base::Base;

  void runOnOperation() override {
    bool unsupported = false;
    getOperation()->walk([&](AttentionOp op) {
      op.emitError("posenc.attention is not supported by the GPU pipeline "
                   "yet (the elementwise posenc ops are); compile attention "
                   "with posenc-cpu-pipeline");
      unsupported = true;
    });
    if (unsupported)
      signalPassFailure();
  }
};

} // namespace
