//===- AlignWorkgroupMemory.cpp - posenc-align-workgroup-memory -----------===//
//
// Workgroup attributions aligned for vector and ldmatrix accesses.
//
//===----------------------------------------------------------------------===//

#include "posenc/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/Support/MathExtras.h"

namespace mlir {
namespace posenc {
#define GEN_PASS_DEF_POSENCALIGNWORKGROUPMEMORY
#include "posenc/GPU/Passes.h.inc"
} // namespace posenc
} // namespace mlir

using namespace mlir;
using namespace mlir::posenc;

namespace {

struct PosEncAlignWorkgroupMemoryPass
    : posenc::impl::PosEncAlignWorkgroupMemoryBase<
          PosEncAlignWorkgroupMemoryPass> {
  using Base::Base;

  void runOnOperation() override {
    gpu::GPUFuncOp func = getOperation();
    if (alignment <= 0 || !llvm::isPowerOf2_64(alignment)) {
      func.emitError("posenc-align-workgroup-memory: alignment must be a "
                     "power of two");
      return signalPassFailure();
    }
    StringRef name = LLVM::LLVMDialect::getAlignAttrName();
    auto value =
        IntegerAttr::get(IntegerType::get(&getContext(), 64), alignment);
    for (unsigned i = 0, e = func.getNumWorkgroupAttributions(); i < e; ++i)
      if (!func.getWorkgroupAttributionAttr(i, name))
        func.setWorkgroupAttributionAttr(i, name, value);
  }
};

} // namespace
