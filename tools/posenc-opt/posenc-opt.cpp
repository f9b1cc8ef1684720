//===- posenc-opt.cpp - posenc optimizer driver ---------------------------===//
//
// An mlir-opt with every upstream dialect, extension and pass, plus posenc.
// MlirOptMain's own driver reads its input with MemoryBuffer, which reads a
// device such as /dev/zero until memory runs out; this one reads it with a
// cap (ToolSupport.h) and hands the buffer to MlirOptMain, on a thread with a
// large stack.
//
//===----------------------------------------------------------------------===//

#include "posenc/InitPosEnc.h"

#include "ToolSupport.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/ToolOutputFile.h"

#include <cstdio>

using namespace mlir;

/// The driver proper; main runs it on a thread with a large stack.
static int posencOptMain(int argc, char **argv) {
  registerAllPasses();
  posenc::registerPosEncPasses();

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  posenc::registerPosEncDialects(registry);
  // gpu-module-to-binary (posenc-gpu-pipeline) translates kernels to LLVM
  // IR; mlir-opt registers these the same way.
  registerAllGPUToLLVMIRTranslations(registry);

  // What MlirOptMain(argc, argv, toolName, registry) does, but for the input.
  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv, "posenc optimizer driver\n", registry);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects()) {
    llvm::outs() << "Available Dialects: ";
    llvm::interleave(registry.getDialectNames(), llvm::outs(), ",");
    llvm::outs() << "\n";
    return 0;
  }
  if (config.shouldListPasses()) {
    printRegisteredPasses();
    return 0;
  }
  if (inputFilename == "-" &&
      llvm::sys::Process::FileDescriptorIsDisplayed(fileno(stdin)))
    llvm::errs() << "(processing input from stdin now, hit ctrl-c/ctrl-d to "
                    "interrupt)\n";

  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> input =
      posenc::tools::readInputFile(
          inputFilename, posenc::tools::kMaxStreamedMlirBytes,
          "MLIR input from a pipe or device", /*limitRegularFiles=*/false);
  if (!input) {
    llvm::errs() << llvm::toString(input.takeError()) << "\n";
    return 1;
  }
  std::string errorMessage;
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << errorMessage << "\n";
    return 1;
  }
  if (failed(MlirOptMain(output->os(), std::move(*input), registry, config)))
    return 1;
  if (llvm::Error err =
          posenc::tools::finishOutput(output->os(), outputFilename)) {
    llvm::errs() << "error: " << llvm::toString(std::move(err)) << "\n";
    return 1;
  }
  output->keep();
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // MLIR's parser recurses per nesting level: 12000 nested regions overflowed
  // the 8 MiB main-thread stack.
  return posenc::tools::runOnLargeStack(
      [&] { return posencOptMain(argc, argv); });
}
