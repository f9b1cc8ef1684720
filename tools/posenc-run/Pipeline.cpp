//===- Pipeline.cpp - The lowering pipeline of posenc-run -----------------===//

#include "Pipeline.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/Timing.h"

using namespace mlir;

namespace mlir::posenc::run {

llvm::Error runPipeline(ModuleOp module, llvm::StringRef pipeline) {
  // Anchor on builtin.module: a PassManager constructed from a context alone
  // is op-agnostic and would not run module passes.
  auto pm = PassManager::on<ModuleOp>(module.getContext());
  std::string parseErrors;
  llvm::raw_string_ostream errorStream(parseErrors);
  if (failed(parsePassPipeline(pipeline, pm, errorStream)))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "invalid pass pipeline: " + parseErrors);
  if (failed(applyPassManagerCLOptions(pm)))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "invalid pass manager options");
  applyDefaultTimingPassManagerCLOptions(pm);
  if (failed(pm.run(module)))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the pass pipeline failed");
  return llvm::Error::success();
}

} // namespace mlir::posenc::run
