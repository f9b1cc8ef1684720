//===- Patterns.h - per-op posenc lowering patterns -------------*- C++ -*-===//

#ifndef POSENC_LIB_CONVERSION_POSENCTOLINALG_PATTERNS_H
#define POSENC_LIB_CONVERSION_POSENCTOLINALG_PATTERNS_H

namespace mlir {
class RewritePatternSet;
namespace posenc {

void populateFrequencyLoweringPatterns(RewritePatternSet &patterns);
void populateRotaryLoweringPatterns(RewritePatternSet &patterns);
void populateAlibiLoweringPatterns(RewritePatternSet &patterns);
void populateSinusoidalLoweringPatterns(RewritePatternSet &patterns);
void populateLearnedAbsoluteLoweringPatterns(RewritePatternSet &patterns);
void populateAttentionLoweringPatterns(RewritePatternSet &patterns);

} // namespace posenc
} // namespace mlir

#endif // POSENC_LIB_CONVERSION_POSENCTOLINALG_PATTERNS_H
