//===- posenc-run.cpp - JIT runner and benchmark for tensor functions -----===//
//
// Compiles a function on tensors through a pass pipeline to native code,
// runs it on buffers the runner owns (from .npy files or seeded random
// data), times it, and prints or saves its results. See docs/posenc-run.md.
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"
#include "Compile.h"
#include "EntryWrapper.h"
#include "GPURuntime.h"
#include "Jit.h"
#include "Options.h"
#include "RunGPU.h"
#include "RunnerTensors.h"
#include "ToolSupport.h"

#include "posenc/InitPosEnc.h"
#include "posenc/Pipelines/HostCPU.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"

#include <cstdlib>
#include <cstring>
#include <optional>

using namespace mlir;
using namespace mlir::posenc::run;
using llvm::Error;
using llvm::Expected;
using llvm::Twine;

/// Calls the entry --warmup times, then --iterations times timed. With
/// --writable-inputs, every call starts from pristine copies of the inputs.
static Expected<TimingStats>
timeEntry(PackedEntryFn fn, ArrayRef<RunnerTensor> tensors, size_t numInputs) {
  EntryCall call(fn, llvm::map_to_vector(tensors, [](const RunnerTensor &t) {
                   return BufferRef{t.buffer.data(), t.spec->type.getShape()};
                 }));
  SmallVector<HostBuffer> pristine;
  if (writableInputs)
    for (const RunnerTensor &tensor : tensors.take_front(numInputs)) {
      Expected<HostBuffer> copy = HostBuffer::allocate(tensor.buffer.size());
      if (!copy)
        return copy.takeError();
      std::memcpy(copy->data(), tensor.buffer.data(), tensor.buffer.size());
      pristine.push_back(std::move(*copy));
    }
  auto restoreInputs = [&] {
    for (auto [copy, tensor] : llvm::zip(pristine, tensors))
      std::memcpy(tensor.buffer.data(), copy.data(), copy.size());
  };
  KernelAbortGuard abortGuard;
  return measure(call,
                 writableInputs ? llvm::function_ref<void()>(restoreInputs)
                                : nullptr,
                 warmup, iterations);
}

/// Checks the flags that bound the run.
static Error checkFlags() {
  if (iterations == 0)
    return llvm::createStringError("--iterations must be at least 1");
  if (iterations > kMaxIterations)
    return llvm::createStringError(
        "--iterations=" + Twine(iterations) + " is more than the " +
        Twine(kMaxIterations) + " calls posenc-run times in one run");
  if (intMax == 0)
    return llvm::createStringError("--int-max must be at least 1");
  if (flops.getNumOccurrences() && !(flops > 0))
    return llvm::createStringError("--flops must be positive");
  return checkGPUFlags();
}

static Error run(MLIRContext &context) {
  if (Error err = checkFlags())
    return err;
  // Before anything slow: without a device there is nothing to run.
  if (useGPU && !dryRun)
    if (Error err = initializeGPU())
      return err;

  // A regular file is mapped; a pipe or device (/dev/zero) is read up to a
  // cap instead of until memory runs out.
  Expected<std::unique_ptr<llvm::MemoryBuffer>> file =
      posenc::tools::readInputFile(
          inputFilename, posenc::tools::kMaxStreamedMlirBytes,
          "MLIR input from a pipe or device", /*limitRegularFiles=*/false);
  if (!file)
    return file.takeError();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return llvm::createStringError("cannot parse '" + inputFilename + "'");

  Expected<func::FuncOp> entry = findEntry(*module, entryName);
  if (!entry)
    return entry.takeError();
  Expected<EntrySignature> signature = getEntrySignature(*entry);
  if (!signature)
    return signature.takeError();
  Expected<SmallVector<std::string>> inputPaths = getInputPaths(*signature);
  if (!inputPaths)
    return inputPaths.takeError();
  auto outputPaths = getOutputPaths(*signature);
  if (!outputPaths)
    return outputPaths.takeError();
  if (Error err = checkMemory(*signature))
    return err;
  // Inputs before compiling: a bad file is reported before the slow part. A
  // dry run reads and allocates nothing.
  SmallVector<RunnerTensor> tensors;
  if (!dryRun) {
    Expected<SmallVector<RunnerTensor>> allocated =
        allocateTensors(*signature, *inputPaths);
    if (!allocated)
      return allocated.takeError();
    tensors = std::move(*allocated);
  }
  // --compare-cpu compiles the module as given a second time.
  OwningOpRef<ModuleOp> cpuModule;
  if (compareCPU)
    cpuModule = module->clone();

  CompileMode mode{getPipeline(), useGPU, "", /*dump=*/true};
  Expected<JitEntry> jit = compile(*module, *entry, mode);
  if (!jit)
    return jit.takeError();
  if (dryRun) {
    llvm::outs() << "dry run: @" << signature->name
                 << " compiled and linked, not run\n";
    return Error::success();
  }
  if (useGPU)
    return runOnGPU(*signature, *jit, tensors, std::move(cpuModule),
                    *outputPaths);

  size_t numInputs = signature->inputs.size();
  Expected<TimingStats> stats = timeEntry(jit->fn, tensors, numInputs);
  if (!stats)
    return stats.takeError();
  return reportResults(signature->name, *stats, getBytesMoved(tensors),
                       ArrayRef(tensors).drop_front(numInputs), *outputPaths);
}

/// --list-runtime-symbols, --gpu-info and --print-pipeline print and exit:
/// the exit status, or nullopt for a run.
static std::optional<int> runInfoMode() {
  if (listRuntimeSymbols) {
    size_t count = 0;
    const cuda::RuntimeSymbol *symbols = cuda::getRuntimeSymbols(count);
    for (size_t i = 0; i < count; ++i)
      llvm::outs() << symbols[i].name << ": " << symbols[i].llvmType << "\n";
    return 0;
  }

  if (gpuInfo) {
    if (Error err = initializeGPU()) {
      llvm::handleAllErrors(
          std::move(err), [](const llvm::ErrorInfoBase &info) {
            llvm::errs() << "posenc-run: no CUDA driver/GPU: " << info.message()
                         << "\n";
          });
      return kNoGPUExitCode;
    }
    return 0;
  }

  if (printPipeline) {
    posenc::HostCPU host = posenc::detectHostCPU();
    llvm::outs() << "host: " << host.name << ", " << host.vectorBytes * 8
                 << "-bit vectors, " << host.cacheLineBytes
                 << "-byte lines, L2 " << host.l2Bytes / 1024 << " KiB\n"
                 << "pipeline: " << getPipeline() << "\n";
    return 0;
  }
  return std::nullopt;
}

/// The runner proper; main runs it on a thread with a large stack.
static int posencRunMain(int argc, char **argv) {
  // Passes first: --mlir-print-ir-after=PASS resolves names when registered.
  registerAllPasses();
  mlir::posenc::registerPosEncPasses();
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  // libLLVM registers an undocumented --threads of its own; move it aside so
  // that posenc-run's --threads takes the name.
  auto &registered = cl::getRegisteredOptions();
  if (auto it = registered.find("threads"); it != registered.end())
    it->second->setArgStr("llvm-threads");
  static cl::opt<unsigned, /*ExternalStorage=*/true> threadsOpt(
      "threads",
      cl::desc("Set OMP_NUM_THREADS (1 to 1024) and load libomp (default: "
               "unset)"),
      cl::value_desc("N"), cl::location(threads), cl::cat(runCategory));
  // --help lists posenc-run's own flags; --help-hidden adds LLVM's and
  // MLIR's (--mlir-print-ir-after=PASS, --mlir-timing, ...).
  cl::HideUnrelatedOptions(runCategory);
  cl::ParseCommandLineOptions(argc, argv,
                              "posenc-run: JIT runner and benchmark of a "
                              "function on tensors\n");
  // 0 would read as "not set" below; an absent flag keeps the default.
  if (threadsOpt.getNumOccurrences() &&
      (threads < 1 || threads > kMaxThreads)) {
    llvm::WithColor::error(llvm::errs(), "posenc-run")
        << "--threads must be in [1, " << kMaxThreads << "], got " << threads
        << "\n";
    return 1;
  }

  if (std::optional<int> status = runInfoMode())
    return *status;

  // libomp reads OMP_NUM_THREADS when the JIT loads it.
  if (threads > 0)
    ::setenv("OMP_NUM_THREADS", std::to_string(threads).c_str(),
             /*overwrite=*/1);

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  mlir::posenc::registerPosEncDialects(registry);
  MLIRContext context(registry);
  context.loadDialect<func::FuncDialect, bufferization::BufferizationDialect,
                      LLVM::LLVMDialect>();

  if (Error err = run(context)) {
    int status = 1;
    llvm::handleAllErrors(
        std::move(err),
        [&](const NoGPUError &noGPU) {
          llvm::outs().flush();
          llvm::errs() << "posenc-run: no CUDA driver/GPU: " << noGPU.reason
                       << "\n";
          status = kNoGPUExitCode;
        },
        [](const llvm::ErrorInfoBase &info) {
          llvm::WithColor::error(llvm::errs(), "posenc-run")
              << info.message() << "\n";
        });
    return status;
  }
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // MLIR's parser recurses per nesting level: 12000 nested regions overflowed
  // the 8 MiB main-thread stack.
  return posenc::tools::runOnLargeStack(
      [&] { return posencRunMain(argc, argv); });
}
