//===- Passes.h - posenc conversion passes ----------------------*- C++ -*-===//

#ifndef POSENC_CONVERSION_PASSES_H
#define POSENC_CONVERSION_PASSES_H

#include "posenc/Conversion/PosEncToLinalg/PosEncToLinalg.h"

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace posenc {

#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "posenc/Conversion/Passes.h.inc"

} // namespace posenc
} // namespace mlir

#endif // POSENC_CONVERSION_PASSES_H
