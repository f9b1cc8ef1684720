//===- VerifyGPUSupport.cpp - the posenc-verify-gpu-support pass ----------===//
//
// Every posenc.attention that posenc-attention-to-gpu cannot build a kernel
// for, rejected at the op before anything is lowered: the kernel's shape is
// chosen here with the same options (AttentionKernelShape.cpp), and the
// limits it can exceed (threads per block, workgroup memory) are reported
// with the figures.
//
//===----------------------------------------------------------------------===//

#include "AttentionKernel.h"

#include "posenc/GPU/Passes.h"

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
    if (threads <= 0 || threads > 1024 || sharedMemory <= 0) {
      getOperation()->emitError("posenc-verify-gpu-support: threads must be "
                                "in [1, 1024] and shared-memory positive");
      return signalPassFailure();
    }
    bool unsupported = false;
    getOperation()->walk([&](AttentionOp op) {
      unsupported |= failed(
          gpu_attention::chooseShape(op, threads, sharedMemory, tensorCores));
    });
    if (unsupported)
      signalPassFailure();
  }
};

} // namespace
