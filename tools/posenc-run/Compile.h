//===- Compile.h - Lowering and JIT-compiling the entry --------*- C++ -*-===//
//
// posenc-run adds the entry wrapper, runs the pass pipeline (--pipeline, or
// the default CPU or GPU one) and JIT-compiles the lowered module.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_TOOLS_POSENC_RUN_COMPILE_H
#define POSENC_TOOLS_POSENC_RUN_COMPILE_H

#include "Jit.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir::posenc::run {

/// How compile() lowers the module.
struct CompileMode {
  std::string pipeline;
  /// The lowered host code runs on device buffers (prepareHostCodeForGPU)
  /// and calls the GPU runtime.
  bool forGPU = false;
  /// Appended to the "compiled @NAME" line.
  std::string label;
  /// --dump-ir and --dump-llvm apply (the main compilation, not
  /// --compare-cpu's).
  bool dump = true;
};

/// --pipeline, or the default pipeline with the options of this host
/// spelled out, so that the run can be reproduced elsewhere.
std::string getCPUPipeline();

/// The pipeline of the run: --pipeline, else the default GPU pipeline with
/// --gpu, else getCPUPipeline().
std::string getPipeline();

/// Adds the entry wrapper, runs the pipeline and JIT-compiles the module;
/// reports how long that took. A dry run links but runs no constructor.
llvm::Expected<JitEntry> compile(ModuleOp module, func::FuncOp entry,
                                 const CompileMode &mode);

} // namespace mlir::posenc::run

#endif // POSENC_TOOLS_POSENC_RUN_COMPILE_H
