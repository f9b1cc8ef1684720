//===- Passes.h - passes that raise model IR into posenc --------*- C++ -*-===//

#ifndef POSENC_RAISING_PASSES_H
#define POSENC_RAISING_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;
namespace posenc {

#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "posenc/Raising/Passes.h.inc"

} // namespace posenc
} // namespace mlir

#endif // POSENC_RAISING_PASSES_H
