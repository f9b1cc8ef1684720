//===- Passes.h - posenc transformation passes ------------------*- C++ -*-===//

#ifndef POSENC_TRANSFORMS_PASSES_H
#define POSENC_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;
namespace posenc {

#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "posenc/Transforms/Passes.h.inc"

/// Folds static `posenc.rope_frequencies` and drops unit attention factors.
void populateFoldFrequenciesPatterns(RewritePatternSet &patterns);

} // namespace posenc
} // namespace mlir

#endif // POSENC_TRANSFORMS_PASSES_H
