//===- Compile.cpp - Lowering and JIT-compiling the entry -----------------===//

#include "Compile.h"

#include "EntryWrapper.h"
#include "GPUHost.h"
#include "GPURuntime.h"
#include "Options.h"
#include "Pipeline.h"

#include "posenc/Pipelines/HostCPU.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/Support/Format.h"

#include <chrono>

using namespace mlir;
using llvm::Error;
using llvm::Expected;

namespace mlir::posenc::run {

static void dumpModule(ModuleOp module, StringRef title) {
  llvm::errs() << "// -----// posenc-run: " << title << " //----- //\n";
  module->print(llvm::errs());
  llvm::errs() << "\n";
}

static double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
}

std::string getCPUPipeline() {
  posenc::CPUPipelineOptions options;
  posenc::setHostDefaults(options, posenc::detectHostCPU());
  std::string text = kDefaultPipeline.str();
  llvm::raw_string_ostream os(text);
  options.print(os);
  return text;
}

/// --chip, else the device's (sm_XY of its compute capability) once the
/// driver is up, else kDefaultGPUChip.
static std::string getGPUChip() {
  if (!chip.empty())
    return chip.getValue();
  if (posencGpuInit(0) == POSENC_GPU_READY)
    return "sm_" + std::to_string(posencGpuComputeCapability());
  return kDefaultGPUChip.str();
}

std::string getPipeline() {
  if (!pipelineOpt.empty())
    return pipelineOpt.getValue();
  if (useGPU)
    return "posenc-gpu-pipeline{chip=" + getGPUChip() + "}";
  return getCPUPipeline();
}

/// Prints the functions the host code imports (--dry-run).
static void printRuntimeImports(llvm::raw_ostream &os,
                                ArrayRef<RuntimeImport> imports) {
  for (const RuntimeImport &import : imports)
    os << "import " << import.name << ": " << import.type << ": "
       << (!import.isGPURuntime ? "from the process"
           : import.provided    ? "provided by the GPU runtime"
                                : "NOT PROVIDED")
       << "\n";
}

/// Code with AVX-512 BF16 intrinsics (posenc-cpu-pipeline's
/// attention-bf16-dot-products) would fail in LLVM's instruction selection
/// on a CPU without them: an error naming the option instead.
static Error checkHostIntrinsics(ModuleOp module) {
  if (posenc::detectHostCPU().avx512bf16)
    return Error::success();
  std::string used;
  module.walk([&](LLVM::CallIntrinsicOp call) {
    if (call.getIntrin().starts_with("llvm.x86.avx512bf16.")) {
      used = call.getIntrin().str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (used.empty())
    return Error::success();
  return llvm::createStringError(
      "the lowered code calls " + used +
      " (attention-bf16-dot-products=true), but this CPU has no avx512bf16");
}

Expected<JitEntry> compile(ModuleOp module, func::FuncOp entry,
                           const CompileMode &mode) {
  auto start = std::chrono::steady_clock::now();
  std::string name = entry.getSymName().str();
  if (Error err = buildEntryWrapper(module, entry, writableInputs))
    return std::move(err);
  bool dump = mode.dump && dumpIR;
  if (dump) {
    dumpModule(module, "module with entry wrapper");
    llvm::errs() << "// posenc-run pipeline: " << mode.pipeline << "\n";
  }
  if (Error err = runPipeline(module, mode.pipeline))
    return std::move(err);
  if (!mode.forGPU) {
    if (Error err = checkHostIntrinsics(module))
      return std::move(err);
  } else {
    if (Error err = prepareHostCodeForGPU(module))
      return std::move(err);
    Expected<SmallVector<RuntimeImport>> imports = getRuntimeImports(module);
    if (!imports)
      return imports.takeError();
    if (dryRun)
      printRuntimeImports(llvm::outs(), *imports);
    if (Error err = checkRuntimeImports(*imports))
      return std::move(err);
  }
  if (dump)
    dumpModule(module, "lowered module");
  double pipelineMs = millisecondsSince(start);

  auto jitStart = std::chrono::steady_clock::now();
  std::function<llvm::orc::SymbolMap(llvm::orc::MangleAndInterner)> runtime;
  if (mode.forGPU)
    runtime = getGPURuntimeSymbols;
  poisonKernelAllocations(poisonAllocations);
  Expected<JitEntry> jit =
      jitCompile(module, threads > 0 && !mode.forGPU, sharedLibs,
                 mode.dump ? StringRef(dumpLLVM) : StringRef(), runtime,
                 /*initialize=*/!dryRun);
  if (!jit)
    return jit.takeError();
  double jitMs = millisecondsSince(jitStart);
  llvm::outs() << llvm::format(
      "compiled @%s%s in %.1f ms (pipeline %.1f ms, JIT %.1f ms)\n",
      name.c_str(), mode.label.c_str(), pipelineMs + jitMs, pipelineMs, jitMs);
  return jit;
}

} // namespace mlir::posenc::run
