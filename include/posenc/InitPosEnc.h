//===- InitPosEnc.h - register everything posenc provides -------*- C++ -*-===//
//
// One place that lists posenc's dialects, passes and pipelines, so that every
// host (posenc-opt, the mlir-opt plugin, the C API, embedding compilers)
// exposes the same set.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_INITPOSENC_H
#define POSENC_INITPOSENC_H

namespace mlir {
class DialectRegistry;
namespace posenc {

/// Adds the posenc dialect (and the dialects its ops and lowerings create).
void registerPosEncDialects(DialectRegistry &registry);

/// Registers every posenc pass and pass pipeline with the global registry
/// (for textual pipelines and opt-style command lines). Idempotent.
void registerPosEncPasses();

} // namespace posenc
} // namespace mlir

#endif // POSENC_INITPOSENC_H
