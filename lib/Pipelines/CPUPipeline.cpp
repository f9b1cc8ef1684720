//===- CPUPipeline.cpp - posenc-cpu-pipeline ------------------------------===//

#include "posenc/Pipelines/CPUPipeline.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::posenc;

std::string
mlir::posenc::getCPUPipelineText(const CPUPipelineOptions &options) {
  // Stages: inline (so results land in the caller's destinations); posenc ->
  // linalg on tensors; blocks with fused producers, then register-sized
  // tiles, vectorized; polynomial sin/cos; destinations expanded to the
  // kernels' shapes; buffers (in place where possible, self-copies folded,
  // temporaries freed); threads; streaming stores; LLVM.
  std::string parallel =
      options.openmp
          ? "func.func(scf-forall-to-parallel),convert-scf-to-openmp,"
          : "func.func(scf-forall-to-for),";
  std::string trig = options.approximateTrig ? "posenc-approximate-trig," : "";
  std::string streaming =
      options.nontemporalStores ? "func.func(posenc-nontemporal-stores)," : "";
  return llvm::formatv(
      "inline,posenc-fold-frequencies,convert-posenc-to-linalg,canonicalize,"
      "cse,"
      "func.func(posenc-tile-and-vectorize{{vector-width={0} "
      "block-elements={4}}),{2}canonicalize,"
      "cse,posenc-expand-destinations,eliminate-empty-tensors,"
      "one-shot-bufferize{{bufferize-function-boundaries "
      "function-boundary-type-conversion=identity-layout-map},"
      "canonicalize,buffer-deallocation-pipeline,"
      "convert-bufferization-to-memref,convert-linalg-to-loops,{1}canonicalize,"
      "func.func(lower-vector-multi-reduction,lower-vector-mask),"
      "convert-vector-to-scf{{full-unroll=true},lower-affine,{3}convert-scf-to-"
      "cf,"
      "expand-strided-metadata,lower-affine,convert-vector-to-llvm,"
      "convert-math-to-llvm,convert-math-to-libm,convert-to-llvm,"
      "reconcile-unrealized-casts",
      options.vectorWidth.getValue(), parallel, trig, streaming,
      options.blockElements.getValue());
}

void mlir::posenc::buildCPUPipeline(OpPassManager &pm,
                                    const CPUPipelineOptions &options) {
  std::string text = getCPUPipelineText(options);
  // The pipeline text is ours and fixed: failing to parse it is a bug.
  if (failed(parsePassPipeline(text, pm, llvm::errs())))
    llvm::report_fatal_error("posenc-cpu-pipeline: invalid pipeline text");
}

void mlir::posenc::registerCPUPipeline() {
  // As PassPipelineRegistration<CPUPipelineOptions>, but a pipeline text
  // that does not parse is reported through the error handler: the text
  // names upstream passes, and a host that registered only posenc's
  // (registerPosEncPasses, the C API's mlirPosEncAddPipeline) must get an
  // error, not buildCPUPipeline's fatal error.
  registerPassPipeline(
      "posenc-cpu-pipeline",
      "Lower posenc (and linalg on tensors) to vectorized, OpenMP-threaded "
      "LLVM dialect code for the host CPU",
      [](OpPassManager &pm, StringRef optionsText,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        CPUPipelineOptions options;
        if (failed(options.parseFromString(optionsText)))
          return failure();
        std::string errors;
        llvm::raw_string_ostream errorStream(errors);
        if (failed(parsePassPipeline(getCPUPipelineText(options), pm,
                                     errorStream)))
          return errorHandler("posenc-cpu-pipeline needs upstream MLIR "
                              "passes that are not registered (e.g. "
                              "mlir::registerAllPasses()): " +
                              StringRef(errors).trim());
        return success();
      },
      [](function_ref<void(const detail::PassOptions &)> optionsHandler) {
        optionsHandler(CPUPipelineOptions());
      });
}
