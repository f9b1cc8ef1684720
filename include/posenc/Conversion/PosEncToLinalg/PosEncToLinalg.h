//===- PosEncToLinalg.h - posenc to linalg patterns -------------*- C++ -*-===//

#ifndef POSENC_CONVERSION_POSENCTOLINALG_POSENCTOLINALG_H
#define POSENC_CONVERSION_POSENCTOLINALG_POSENCTOLINALG_H

namespace mlir {
class RewritePatternSet;
namespace posenc {

/// Patterns rewriting every posenc op into linalg/tensor/arith/math on
/// tensors. Usable in a greedy rewrite or a dialect conversion.
void populatePosEncToLinalgPatterns(RewritePatternSet &patterns);

} // namespace posenc
} // namespace mlir

#endif // POSENC_CONVERSION_POSENCTOLINALG_POSENCTOLINALG_H
