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
  if (failed(parsePassPipeline(pipeline, pm, errorStream))) {
    // The parser reports "<source>:1:COL: error: MESSAGE", then the pipeline
    // and a caret: keep MESSAGE.
    llvm::StringRef message = llvm::StringRef(parseErrors).split('\n').first;
    if (size_t pos = message.find("error: "); pos != llvm::StringRef::npos)
      message = message.drop_front(pos + 7);
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "invalid pass pipeline '" + pipeline +
                                       "': " + message);
  }
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
