//===- Passes.h - C API of posenc passes and pipelines ------------*- C -*-===//
//
// Registration of posenc's passes and pipelines, and two ways to add them to
// a pass manager: by pipeline text, or the typed posenc-to-linalg pipeline.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_C_PASSES_H
#define POSENC_C_PASSES_H

#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Registers every posenc pass and pass pipeline with MLIR's global pass
/// registry (what registerPosEncPasses does in C++). Idempotent.
MLIR_CAPI_EXPORTED void mlirPosEncRegisterPasses(void);

/// Parses `pipelineText` and appends it to `passManager`. The text holds
/// pipeline elements relative to the pass manager's anchor, without the
/// anchor itself (for a pass manager on builtin.module:
/// "func.func(posenc-fold-frequencies),convert-posenc-to-linalg" or
/// "posenc-to-linalg-pipeline"). This is upstream's
/// mlirOpPassManagerAddPipeline after mlirPosEncRegisterPasses(), so posenc
/// names always resolve. On a parse error returns failure and passes the
/// message to `errorCallback` (which may be NULL).
MLIR_CAPI_EXPORTED MlirLogicalResult
mlirPosEncAddPipeline(MlirOpPassManager passManager, MlirStringRef pipelineText,
                      MlirStringCallback errorCallback, void *userData);

/// Options of the posenc-to-linalg pipeline (see PosEncLoweringOptions).
typedef struct MlirPosEncLoweringOptions {
  /// Name of the op the passes nest on; empty: every isolated-from-above op
  /// under the pass manager's op. The string is copied.
  MlirStringRef anchor;
  /// Fold static frequency tables before lowering.
  bool foldFrequencies;
  /// Run canonicalize and cse after lowering.
  bool cleanup;
  /// Lower attention to the flash-attention loop nest (posenc-tile-attention,
  /// its scf.forall rewritten into scf.for) rather than the reference
  /// decomposition; attentions with fewer than 2^22 scores, or a dynamic
  /// extent, keep the reference decomposition (the C++ options'
  /// attention-min-scores).
  bool flashAttention;
} MlirPosEncLoweringOptions;

/// The defaults: anchor "func.func", folding, cleanup and flash attention
/// on.
MLIR_CAPI_EXPORTED MlirPosEncLoweringOptions
mlirPosEncLoweringOptionsGetDefault(void);

/// Appends posenc -> linalg on tensors (buildPosEncToLinalgPipeline) to
/// `passManager`, which must be anchored on the op holding the functions.
MLIR_CAPI_EXPORTED void
mlirPosEncBuildToLinalgPipeline(MlirOpPassManager passManager,
                                MlirPosEncLoweringOptions options);

#ifdef __cplusplus
}
#endif

#endif // POSENC_C_PASSES_H
