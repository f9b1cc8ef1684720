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

/// The pipeline used when --pipeline is not given: scalar loops from linalg,
/// tensor, arith, math and scf on tensors, down to the LLVM dialect.
///   - inline, so that empty-tensor elimination sees the entry's body next to
///     the wrapper's materialize_in_destination and results are computed in
///     the runner's output buffers (no copy, no allocation);
///   - canonicalize after bufferization folds the self-copies that in-place
///     results leave behind;
///   - buffer-deallocation-pipeline frees the temporaries the body needs.
/// This is the single place to change the default: once posenc registers its
/// own CPU pipeline (e.g. `posenc-cpu-pipeline`), make this that name.
inline constexpr llvm::StringLiteral kDefaultPipeline = "posenc-cpu-pipeline";

/// Parses `pipeline` and runs it on `module`. Honors the --mlir-print-ir-*
/// and --mlir-timing command-line options. Pass failures have already been
/// reported as diagnostics when this returns an error.
llvm::Error runPipeline(mlir::ModuleOp module, llvm::StringRef pipeline);

} // namespace mlir::posenc::run

#endif // POSENC_TOOLS_POSENC_RUN_PIPELINE_H
