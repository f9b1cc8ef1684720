//===- ModulePipeline.h - Registering pipelines that need a module --------===//
//
// posenc's lowering pipelines bufferize and lower whole modules: built under
// another anchor (`func.func(posenc-cpu-pipeline)`), OpPassManager::addPass
// aborts the process with "Can't add pass ... restricted to builtin.module".
// Registering them through this helper turns that into a one-line error that
// names the anchor to use.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_LIB_PIPELINES_MODULEPIPELINE_H
#define POSENC_LIB_PIPELINES_MODULEPIPELINE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include <functional>
#include <string>

namespace mlir::posenc {

/// Checks the options of a pipeline before it is built: an error message,
/// or an empty string when they are valid.
template <typename Options>
using PipelineOptionsCheck = std::function<std::string(const Options &)>;

/// Registers `arg` like PassPipelineRegistration<Options>, but fails to build
/// (an error naming `builtin.module`) unless the pass manager it is added to
/// is anchored on builtin.module, and (with `check`) when the options are
/// invalid.
template <typename Options>
void registerModulePipeline(
    StringRef arg, StringRef description,
    std::function<void(OpPassManager &, const Options &)> builder,
    PipelineOptionsCheck<Options> check = nullptr) {
  registerPassPipeline(
      arg, description,
      [name = arg.str(), builder,
       check](OpPassManager &pm, StringRef optionsText,
              function_ref<LogicalResult(const Twine &)> errorHandler) {
        Options options;
        if (failed(options.parseFromString(optionsText)))
          return failure();
        if (check)
          if (std::string problem = check(options); !problem.empty())
            return errorHandler("'" + name + "': " + problem);
        StringRef anchor = pm.getOpAnchorName();
        if (anchor != ModuleOp::getOperationName())
          return errorHandler(
              "'" + name +
              "' lowers whole modules and must be anchored on "
              "'builtin.module', not on '" +
              anchor + "': use --pass-pipeline='builtin.module(" + name + ")'");
        builder(pm, options);
        return success();
      },
      [](function_ref<void(const detail::PassOptions &)> optHandler) {
        optHandler(Options());
      });
}

} // namespace mlir::posenc

#endif // POSENC_LIB_PIPELINES_MODULEPIPELINE_H
