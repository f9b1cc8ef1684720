//===- Pipeline.h - The lowering pipeline of posenc-run -------*- C++ -*-===//
//
// posenc-run lowers the module with a textual pass pipeline anchored on
// builtin.module (written without the `builtin.module(...)` wrapper).
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_TOOLS_POSENC_RUN_PIPELINE_H
#define POSENC_TOOLS_POSENC_RUN_PIPELINE_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace mlir::posenc::run {

/// The pipeline used when --pipeline is not given: posenc's CPU pipeline
/// (posenc and linalg on tensors -> vectorized, OpenMP-threaded LLVM
/// dialect; docs/pipelines.md). It inlines the entry first, so that
/// empty-tensor elimination sees the entry's body next to the wrapper's
/// materialize_in_destination and results are computed in the runner's
/// output buffers (no copy, no allocation); temporaries are freed by its
/// buffer-deallocation-pipeline.
inline constexpr llvm::StringLiteral kDefaultPipeline = "posenc-cpu-pipeline";

/// Parses `pipeline` and runs it on `module`. Honors the --mlir-print-ir-*
/// and --mlir-timing command-line options. Pass failures have already been
/// reported as diagnostics when this returns an error.
llvm::Error runPipeline(mlir::ModuleOp module, llvm::StringRef pipeline);

} // namespace mlir::posenc::run

#endif // POSENC_TOOLS_POSENC_RUN_PIPELINE_H
