//===- Passes.h - posenc GPU codegen passes ---------------------*- C++ -*-===//

#ifndef POSENC_GPU_PASSES_H
#define POSENC_GPU_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace posenc {

#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "posenc/GPU/Passes.h.inc"

} // namespace posenc
} // namespace mlir

#endif // POSENC_GPU_PASSES_H
