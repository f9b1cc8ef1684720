//===- posenc-run.cpp - JIT runner and benchmark for tensor functions -----===//
//
// Compiles a function on tensors through a pass pipeline to native code,
// runs it on buffers the runner owns (from .npy files or seeded random
// data), times it, and prints or saves its results. See docs/posenc-run.md.
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"
#include "DType.h"
#include "EntryWrapper.h"
#include "GPUHost.h"
#include "GPURuntime.h"
#include "HostBuffer.h"
#include "Jit.h"
#include "Npy.h"
#include "Pipeline.h"
#include "TensorData.h"
#include "ToolSupport.h"

#include "posenc/InitPosEnc.h"
#include "posenc/Pipelines/HostCPU.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

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
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"

#include <chrono>
#include <cstdlib>
#include <cstring>

namespace cl = llvm::cl;
using namespace mlir;
using namespace mlir::posenc::run;
using llvm::Error;
using llvm::Expected;
using llvm::Twine;

static cl::OptionCategory runCategory("posenc-run options");

static cl::opt<std::string> inputFilename(cl::Positional,
                                          cl::desc("<input.mlir>"),
                                          cl::init("-"), cl::cat(runCategory));
static cl::opt<std::string>
    entryName("entry",
              cl::desc("Function to run (default: the only public function)"),
              cl::value_desc("name"), cl::cat(runCategory));
static cl::opt<std::string> pipelineOpt(
    "pipeline",
    cl::desc(
        "Pass pipeline on builtin.module, without the builtin.module(...) "
        "wrapper (default: the built-in CPU pipeline; --dump-ir shows it)"),
    cl::value_desc("passes"), cl::cat(runCategory));
static cl::list<std::string>
    inputSpecs("input", cl::desc("Read argument IDX from a .npy file"),
               cl::value_desc("idx=path"), cl::cat(runCategory));
static cl::list<std::string>
    inputList("inputs", cl::CommaSeparated,
              cl::desc("One .npy file per argument, in order"),
              cl::value_desc("path,path,..."), cl::cat(runCategory));
static cl::opt<uint64_t> seed("seed",
                              cl::desc("Seed of the random inputs (default 0)"),
                              cl::init(0), cl::cat(runCategory));
static cl::opt<uint64_t>
    intMax("int-max",
           cl::desc("Random integers are drawn from [0, N) (default 4096, "
                    "clamped to i1, i8 and i16)"),
           cl::value_desc("N"), cl::init(4096), cl::cat(runCategory));
static cl::opt<bool> writableInputs(
    "writable-inputs",
    cl::desc("Let bufferization reuse input buffers in place; inputs are "
             "restored before every call, outside the timing"),
    cl::cat(runCategory));
static cl::list<std::string>
    outputSpecs("output", cl::desc("Write result IDX to a .npy file"),
                cl::value_desc("idx=path"), cl::cat(runCategory));
static cl::opt<std::string>
    outputsDir("outputs-dir",
               cl::desc("Write every result to DIR/out<IDX>.npy"),
               cl::value_desc("dir"), cl::cat(runCategory));
static cl::opt<bool>
    printOutput("print-output",
                cl::desc("Print the results with full precision"),
                cl::cat(runCategory));
static cl::opt<unsigned>
    iterations("iterations", cl::desc("Timed calls (default 10, at most 10^7)"),
               cl::init(10), cl::cat(runCategory));
/// Each timed call keeps its time (8 bytes, 16 on the GPU) for the median.
static constexpr unsigned kMaxIterations = 10000000;
static cl::opt<unsigned> warmup("warmup",
                                cl::desc("Untimed calls first (default 1)"),
                                cl::init(1), cl::cat(runCategory));
static cl::opt<double>
    flops("flops",
          cl::desc("Floating-point operations per call: print GFLOP/s"),
          cl::value_desc("F"), cl::cat(runCategory));
static cl::opt<bool>
    dumpIR("dump-ir",
           cl::desc("Print the module with its entry wrapper and the lowered "
                    "module to stderr"),
           cl::cat(runCategory));
static cl::opt<bool> printPipeline(
    "print-pipeline",
    cl::desc("Print the host CPU and the pass pipeline posenc-run would use "
             "(the default one with its host-tuned options), then exit"),
    cl::cat(runCategory));
static cl::opt<std::string>
    dumpLLVM("dump-llvm",
             cl::desc("Write the optimized LLVM IR that the JIT compiles to "
                      "FILE (for llc / llvm-mca)"),
             cl::value_desc("file"), cl::cat(runCategory));
static cl::opt<bool> useGPU(
    "gpu",
    cl::desc("Compile with posenc-gpu-pipeline and run on the CUDA device "
             "(driver loaded at run time; exit status 77 without one)"),
    cl::cat(runCategory));
static cl::opt<std::string> chip(
    "chip",
    cl::desc("With --gpu: the target of the default GPU pipeline (default: "
             "the device's, e.g. sm_90; sm_90 without a device)"),
    cl::value_desc("sm_XY"), cl::cat(runCategory));
static cl::opt<bool> dryRun(
    "dry-run",
    cl::desc("Compile and link, check the runtime functions the host code "
             "imports, but do not run (no device needed with --gpu)"),
    cl::cat(runCategory));
static cl::opt<bool> compareCPU(
    "compare-cpu",
    cl::desc("With --gpu: also run the default CPU pipeline on the same "
             "inputs and print the max abs error of every result"),
    cl::cat(runCategory));
static cl::opt<double> tolerance(
    "tolerance",
    cl::desc("With --compare-cpu: fail when the max abs error exceeds T"),
    cl::value_desc("T"), cl::cat(runCategory));
static cl::opt<bool> copyBaseline(
    "copy-baseline",
    cl::desc("With --gpu: also time a device-to-device copy moving the same "
             "bytes (the bandwidth ceiling)"),
    cl::cat(runCategory));
static cl::opt<bool> gpuInfo(
    "gpu-info",
    cl::desc("Print the CUDA device and exit (exit status 77 without one)"),
    cl::cat(runCategory));
static cl::opt<bool> listRuntimeSymbols(
    "list-runtime-symbols",
    cl::desc("Print the mgpu* functions the GPU runtime provides to host "
             "code, with their LLVM IR types, and exit"),
    cl::cat(runCategory));
/// Exit status of a --gpu run on a machine without a usable CUDA driver or
/// device: automake's "skipped", distinct from errors (1).
static constexpr int kNoGPUExitCode = 77;

/// Storage of --threads, which is registered in main (see there); 0 when
/// the flag is absent.
static unsigned threads = 0;
/// --threads accepts 1 to this many: oversubscribing a machine many times
/// over is never a useful benchmark, and libomp caps its team size anyway.
static constexpr unsigned kMaxThreads = 1024;
static cl::list<std::string>
    sharedLibs("shared-libs", cl::CommaSeparated,
               cl::desc("Extra shared libraries for the JIT"),
               cl::value_desc("path,path,..."), cl::cat(runCategory));

namespace {
/// No usable CUDA driver or device: not a failure of the run but a machine
/// it cannot run on (exit status kNoGPUExitCode).
class NoGPUError : public llvm::ErrorInfo<NoGPUError> {
public:
  static char ID;
  explicit NoGPUError(std::string reason) : reason(std::move(reason)) {}
  void log(llvm::raw_ostream &os) const override { os << reason; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }
  std::string reason;
};
char NoGPUError::ID = 0;
} // namespace

/// "1 argument", "2 arguments".
static std::string pluralize(size_t n, StringRef noun) {
  return std::to_string(n) + " " + noun.str() + (n == 1 ? "" : "s");
}

static std::string typeToString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

/// A buffer the runner owns for one argument or result of the entry.
struct RunnerTensor {
  const TensorSpec *spec;
  HostBuffer buffer;
};

/// Parses `IDX=PATH`, checking IDX against the `size` `what`s of the entry.
static Expected<std::pair<unsigned, std::string>>
parseIndexedPath(StringRef flag, StringRef spec, unsigned size, StringRef what,
                 StringRef entry) {
  auto [indexText, path] = spec.split('=');
  unsigned index = 0;
  if (!spec.contains('=') || path.empty() || indexText.getAsInteger(10, index))
    return llvm::createStringError("invalid --" + flag + "=" + spec +
                                   ": expected IDX=PATH");
  if (index >= size)
    return llvm::createStringError("--" + flag + "=" + spec + ": @" + entry +
                                   " has no " + what + " " + Twine(index) +
                                   " (it has " + pluralize(size, what) + ")");
  return std::make_pair(index, path.str());
}

/// The .npy file of every argument; an empty path means random data.
static Expected<SmallVector<std::string>>
getInputPaths(const EntrySignature &signature) {
  unsigned numInputs = signature.inputs.size();
  SmallVector<std::string> paths(numInputs);
  if (!inputList.empty() && !inputSpecs.empty())
    return llvm::createStringError("use either --inputs or --input, not both");
  if (!inputList.empty()) {
    if (inputList.size() != numInputs)
      return llvm::createStringError(
          "@" + signature.name + " takes " + pluralize(numInputs, "argument") +
          " but --inputs names " + pluralize(inputList.size(), "file"));
    if (llvm::is_contained(inputList, ""))
      return llvm::createStringError("--inputs has an empty path");
    llvm::copy(inputList, paths.begin());
  }
  for (const std::string &spec : inputSpecs) {
    auto parsed =
        parseIndexedPath("input", spec, numInputs, "argument", signature.name);
    if (!parsed)
      return parsed.takeError();
    auto &[index, path] = *parsed;
    if (!paths[index].empty())
      return llvm::createStringError("argument " + Twine(index) +
                                     " is given twice");
    paths[index] = path;
  }
  return paths;
}

/// Every (result, path) pair to write.
static Expected<SmallVector<std::pair<unsigned, std::string>>>
getOutputPaths(const EntrySignature &signature) {
  unsigned numResults = signature.results.size();
  SmallVector<std::pair<unsigned, std::string>> paths;
  for (const std::string &spec : outputSpecs) {
    auto parsed =
        parseIndexedPath("output", spec, numResults, "result", signature.name);
    if (!parsed)
      return parsed.takeError();
    paths.push_back(std::move(*parsed));
  }
  if (!outputsDir.empty())
    for (unsigned i = 0; i < numResults; ++i) {
      llvm::SmallString<128> path(outputsDir);
      llvm::sys::path::append(path, "out" + Twine(i) + ".npy");
      paths.emplace_back(i, path.str().str());
    }
  return paths;
}

/// Allocates the buffer of argument `index` and fills it from `path`, or
/// with random data when `path` is empty.
static Expected<HostBuffer> loadInput(const EntrySignature &signature,
                                      unsigned index, StringRef path) {
  const TensorSpec &spec = signature.inputs[index];
  std::string what = "argument " + std::to_string(index) + " of @" +
                     signature.name + " (" + typeToString(spec.type) + ")";
  std::optional<NpyReader> reader;
  if (!path.empty()) {
    Expected<NpyReader> opened = NpyReader::open(path);
    if (!opened)
      return opened.takeError();
    const NpyHeader &header = opened->getHeader();
    StringRef expected = getNpyDescr(spec.dtype);
    if (header.descr != expected)
      return llvm::createStringError(
          path + ": dtype '" + header.descr + "' does not match " + what +
          ", which needs '" + expected + "'" +
          (spec.dtype == DType::BF16
               ? " (bf16 is stored as raw bits, np.uint16)"
               : ""));
    if (ArrayRef<int64_t>(header.shape) != spec.type.getShape())
      return llvm::createStringError(
          path + ": shape " + formatNpyShape(header.shape) +
          " does not match " + what + ", which needs " +
          formatNpyShape(spec.type.getShape()));
    reader.emplace(std::move(*opened));
  } else if (!isFloat(spec.dtype) && intMax.getNumOccurrences() &&
             intMax > getIntegerBound(spec.dtype)) {
    return llvm::createStringError("--int-max=" + Twine(intMax) +
                                   " does not fit " + what);
  }

  Expected<HostBuffer> buffer = HostBuffer::allocate(spec.byteSize);
  if (!buffer)
    return buffer.takeError();
  // The header matched the argument: read exactly its bytes, in place.
  if (!reader)
    // The default bound is clamped to narrow types (i1: 0 or 1).
    fillRandom(buffer->bytes(), spec.dtype, seed, index,
               isFloat(spec.dtype)
                   ? intMax
                   : std::min<uint64_t>(intMax, getIntegerBound(spec.dtype)));
  else if (Error err = reader->readData(buffer->bytes()))
    return std::move(err);
  return buffer;
}

/// Checks that all buffers fit in the machine's memory before touching any.
static Error checkMemory(const EntrySignature &signature) {
  // Each size is below 2^63; saturate the sum.
  uint64_t total = 0;
  for (const TensorSpec &spec : signature.inputs)
    total =
        llvm::SaturatingAdd(total, llvm::SaturatingMultiply<uint64_t>(
                                       spec.byteSize, writableInputs ? 2 : 1));
  for (const TensorSpec &spec : signature.results)
    total = llvm::SaturatingAdd(total, spec.byteSize);
  uint64_t physical = getPhysicalMemorySize();
  if (physical && total > physical)
    return llvm::createStringError(
        "the buffers of @" + signature.name + " need " + Twine(total) +
        " bytes, more than the machine's " + Twine(physical));
  return Error::success();
}

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

/// Allocates the runner's buffers: the inputs, read or random, then the
/// outputs.
static Expected<SmallVector<RunnerTensor>>
allocateTensors(const EntrySignature &signature,
                ArrayRef<std::string> inputPaths) {
  SmallVector<RunnerTensor> tensors;
  for (auto [i, spec] : llvm::enumerate(signature.inputs)) {
    Expected<HostBuffer> buffer = loadInput(signature, i, inputPaths[i]);
    if (!buffer)
      return buffer.takeError();
    tensors.push_back({&spec, std::move(*buffer)});
  }
  for (const TensorSpec &spec : signature.results) {
    Expected<HostBuffer> buffer = HostBuffer::allocate(spec.byteSize);
    if (!buffer)
      return buffer.takeError();
    tensors.push_back({&spec, std::move(*buffer)});
  }
  return tensors;
}

/// --pipeline, or the default pipeline with the options of this host
/// spelled out, so that the run can be reproduced elsewhere.
static std::string getCPUPipeline() {
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

static std::string getPipeline() {
  if (!pipelineOpt.empty())
    return pipelineOpt.getValue();
  if (useGPU)
    return "posenc-gpu-pipeline{chip=" + getGPUChip() + "}";
  return getCPUPipeline();
}

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

/// Adds the entry wrapper, runs the pipeline and JIT-compiles the module;
/// reports how long that took. A dry run links but runs no constructor.
static Expected<JitEntry> compile(ModuleOp module, func::FuncOp entry,
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

/// Calls the entry --warmup times, then --iterations times timed. With
/// --writable-inputs, every call starts from pristine copies of the inputs.
///
/// Generated code reports a failed runtime check (cf.assert, e.g. a position
/// outside a learned table) by printing its message and calling abort().
/// While the kernel runs, that becomes the message, one error line and exit
/// code 1, not a crash dump.
static void onKernelAbort(int) {
  std::fflush(stdout);
  static const char message[] =
      "posenc-run: error: a runtime check of the kernel failed (see the "
      "message above)\n";
  (void)!::write(STDERR_FILENO, message, sizeof(message) - 1);
  std::_Exit(1);
}

namespace {
struct KernelAbortGuard {
  struct sigaction previous;
  KernelAbortGuard() {
    struct sigaction action = {};
    action.sa_handler = onKernelAbort;
    sigemptyset(&action.sa_mask);
    sigaction(SIGABRT, &action, &previous);
  }
  ~KernelAbortGuard() { sigaction(SIGABRT, &previous, nullptr); }
};
} // namespace

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

static Error
writeOutputs(ArrayRef<RunnerTensor> outputs,
             ArrayRef<std::pair<unsigned, std::string>> outputPaths) {
  if (!outputsDir.empty())
    if (std::error_code ec = llvm::sys::fs::create_directories(outputsDir))
      return llvm::createStringError("cannot create '" + outputsDir +
                                     "': " + ec.message());
  for (const auto &[index, path] : outputPaths) {
    const RunnerTensor &tensor = outputs[index];
    if (Error err =
            writeNpy(path, getNpyDescr(tensor.spec->dtype),
                     tensor.spec->type.getShape(), tensor.buffer.bytes()))
      return err;
  }
  return Error::success();
}

//===----------------------------------------------------------------------===//
// --gpu
//===----------------------------------------------------------------------===//

/// Flags that only mean something with --gpu or --compare-cpu.
static Error checkGPUFlags() {
  for (const cl::Option *flag : std::initializer_list<const cl::Option *>{
           &chip, &compareCPU, &copyBaseline})
    if (flag->getNumOccurrences() && !useGPU)
      return llvm::createStringError("--" + flag->ArgStr + " needs --gpu");
  if (tolerance.getNumOccurrences() && !compareCPU)
    return llvm::createStringError("--tolerance needs --compare-cpu");
  if (tolerance.getNumOccurrences() && !(tolerance >= 0))
    return llvm::createStringError("--tolerance must be at least 0");
  if (chip.getNumOccurrences() && !pipelineOpt.empty())
    return llvm::createStringError(
        "--chip sets the target of the default GPU pipeline; with "
        "--pipeline, give chip= in the pipeline");
  return Error::success();
}

/// Loads the CUDA driver and picks device 0; no driver or device is a
/// NoGPUError.
static Error initializeGPU() {
  posencGpuSetProgramName("posenc-run");
  int status = posencGpuInit(0);
  if (status == POSENC_GPU_NO_DRIVER || status == POSENC_GPU_STUB_LIBRARY ||
      status == POSENC_GPU_NO_DEVICE)
    return llvm::make_error<NoGPUError>(posencGpuMessage());
  if (status != POSENC_GPU_READY)
    return llvm::createStringError(Twine("cannot use the CUDA driver: ") +
                                   posencGpuMessage());
  int driver = posencGpuDriverVersion();
  llvm::outs() << llvm::format(
      "gpu: %s, sm_%d, %d SMs, %.1f GiB, CUDA driver %d.%d\n",
      posencGpuDeviceName(), posencGpuComputeCapability(),
      posencGpuMultiprocessors(),
      static_cast<double>(posencGpuTotalMemory()) / (1ull << 30), driver / 1000,
      driver % 1000 / 10);
  return Error::success();
}

namespace {
/// Device memory owned by the runner.
struct DeviceBuffer {
  void *pointer = nullptr;
  uint64_t size = 0;
  DeviceBuffer() = default;
  DeviceBuffer(DeviceBuffer &&other) noexcept
      : pointer(std::exchange(other.pointer, nullptr)), size(other.size) {}
  DeviceBuffer &operator=(DeviceBuffer &&) = delete;
  ~DeviceBuffer() { posencGpuFree(pointer); }
};

/// Restores device inputs from pristine device copies (--writable-inputs).
struct RestoreInputs {
  ArrayRef<DeviceBuffer> pristine;
  ArrayRef<DeviceBuffer> inputs;
  bool failed = false;
};
} // namespace

static void restoreDeviceInputs(void *context) {
  auto *restore = static_cast<RestoreInputs *>(context);
  for (auto [copy, input] : llvm::zip(restore->pristine, restore->inputs))
    restore->failed |=
        posencGpuCopyOnDevice(input.pointer, copy.pointer, copy.size) != 0;
}

static Error gpuError(const Twine &what) {
  return llvm::createStringError(what + ": " + posencGpuMessage());
}

static Expected<DeviceBuffer> allocateOnDevice(uint64_t size) {
  DeviceBuffer buffer;
  buffer.pointer = posencGpuAlloc(size);
  buffer.size = size;
  if (!buffer.pointer)
    return gpuError("device memory");
  return std::move(buffer);
}

/// Runs the CPU pipeline's code once on the same (host) inputs and compares
/// every result with the GPU's.
static Expected<SmallVector<TensorDifference>>
compareWithCPU(ModuleOp cpuModule, const EntrySignature &signature,
               ArrayRef<RunnerTensor> tensors) {
  Expected<func::FuncOp> entry = findEntry(cpuModule, signature.name);
  if (!entry)
    return entry.takeError();
  CompileMode mode{getCPUPipeline(), /*forGPU=*/false, " for the CPU",
                   /*dump=*/false};
  Expected<JitEntry> jit = compile(cpuModule, *entry, mode);
  if (!jit)
    return jit.takeError();
  size_t numInputs = signature.inputs.size();
  SmallVector<HostBuffer> cpuOutputs;
  SmallVector<BufferRef> buffers;
  for (const RunnerTensor &input : tensors.take_front(numInputs))
    buffers.push_back({input.buffer.data(), input.spec->type.getShape()});
  for (const TensorSpec &spec : signature.results) {
    Expected<HostBuffer> buffer = HostBuffer::allocate(spec.byteSize);
    if (!buffer)
      return buffer.takeError();
    buffers.push_back({buffer->data(), spec.type.getShape()});
    cpuOutputs.push_back(std::move(*buffer));
  }
  EntryCall call(jit->fn, buffers);
  {
    KernelAbortGuard abortGuard;
    call();
  }
  SmallVector<TensorDifference> differences;
  for (auto [gpuOutput, cpuOutput] :
       llvm::zip(tensors.drop_front(numInputs), cpuOutputs))
    differences.push_back(compareTensors(
        gpuOutput.buffer.bytes(), cpuOutput.bytes(), gpuOutput.spec->dtype));
  return differences;
}

/// Copies the inputs to the device, times the entry there with CUDA events,
/// copies the results back, and reports like the CPU path, with the
/// kernels' time, the copy baseline and the CPU comparison added.
static Error runOnGPU(const EntrySignature &signature, JitEntry &jit,
                      MutableArrayRef<RunnerTensor> tensors,
                      OwningOpRef<ModuleOp> cpuModule,
                      ArrayRef<std::pair<unsigned, std::string>> outputPaths) {
  size_t numInputs = signature.inputs.size();
  uint64_t bytesMoved = 0;
  for (const RunnerTensor &tensor : tensors)
    bytesMoved += tensor.spec->byteSize;
  uint64_t deviceBytes = bytesMoved;
  if (writableInputs)
    for (const TensorSpec &spec : signature.inputs)
      deviceBytes += spec.byteSize;
  if (deviceBytes > posencGpuTotalMemory())
    return llvm::createStringError(
        "the buffers of @" + signature.name + " need " + Twine(deviceBytes) +
        " bytes of device memory, more than the device's " +
        Twine(posencGpuTotalMemory()));

  // Allocated and filled outside the timing; outputs start as zeros.
  SmallVector<DeviceBuffer> device, pristine;
  for (const RunnerTensor &tensor : tensors) {
    Expected<DeviceBuffer> buffer = allocateOnDevice(tensor.buffer.size());
    if (!buffer)
      return buffer.takeError();
    if (posencGpuCopyToDevice(buffer->pointer, tensor.buffer.data(),
                              tensor.buffer.size()))
      return gpuError("copying to the device");
    device.push_back(std::move(*buffer));
  }
  if (writableInputs)
    for (const DeviceBuffer &input : ArrayRef(device).take_front(numInputs)) {
      Expected<DeviceBuffer> copy = allocateOnDevice(input.size);
      if (!copy)
        return copy.takeError();
      if (posencGpuCopyOnDevice(copy->pointer, input.pointer, input.size))
        return gpuError("copying on the device");
      pristine.push_back(std::move(*copy));
    }
  SmallVector<BufferRef> buffers;
  for (auto [buffer, tensor] : llvm::zip(device, tensors))
    buffers.push_back({buffer.pointer, tensor.spec->type.getShape()});
  EntryCall call(jit.fn, buffers);

  RestoreInputs restore{pristine, ArrayRef(device).take_front(numInputs)};
  SmallVector<double> callMs(iterations), kernelMs(iterations);
  unsigned launches = 0;
  if (posencGpuTimeCalls(call.getFunction(), call.getArgs(), warmup, iterations,
                         writableInputs ? restoreDeviceInputs : nullptr,
                         &restore, callMs.data(), kernelMs.data(), &launches))
    return gpuError("running @" + signature.name + " on the GPU");
  if (restore.failed)
    return gpuError("restoring the inputs on the device");
  for (auto [buffer, tensor] : llvm::zip(ArrayRef(device).drop_front(numInputs),
                                         tensors.drop_front(numInputs)))
    if (posencGpuCopyToHost(tensor.buffer.data(), buffer.pointer, buffer.size))
      return gpuError("copying from the device");

  SmallVector<std::string> lines;
  SmallVector<std::pair<std::string, std::string>> keys;
  auto number = [](double value) {
    return llvm::formatv("{0}", llvm::format("%.6g", value)).str();
  };
  auto rate = [&](double ms, uint64_t bytes) {
    return ms > 0 ? static_cast<double>(bytes) / (ms * 1e-3) / 1e9 : 0.0;
  };
  TimingStats kernels = summarize(kernelMs);
  lines.push_back(
      llvm::formatv("kernels: {0} launch{1} per call, median "
                    "{2} ms  min {3} ms  max {4} ms  {5} GB/s",
                    launches, launches == 1 ? "" : "es",
                    number(kernels.medianMs), number(kernels.minMs),
                    number(kernels.maxMs),
                    llvm::format("%.4g", rate(kernels.medianMs, bytesMoved)))
          .str());
  keys.push_back(
      {"chip", "sm_" + std::to_string(posencGpuComputeCapability())});
  keys.push_back({"kernel_ms", number(kernels.medianMs)});
  keys.push_back({"kernel_gbps", number(rate(kernels.medianMs, bytesMoved))});
  keys.push_back({"launches", std::to_string(launches)});
  if (copyBaseline) {
    // A copy of half the bytes reads and writes them all.
    uint64_t copied = bytesMoved / 2 / 4 * 4;
    SmallVector<double> copyMs(iterations);
    if (copied > 0 &&
        posencGpuTimeCopy(copied, warmup, iterations, copyMs.data()))
      return gpuError("timing the device copy");
    TimingStats copy = summarize(copyMs);
    double copyRate = rate(copy.medianMs, 2 * copied);
    lines.push_back(llvm::formatv("device copy of {0} bytes (cuMemcpyDtoD): "
                                  "median {1} ms  {2} GB/s",
                                  copied, number(copy.medianMs),
                                  llvm::format("%.4g", copyRate))
                        .str());
    keys.push_back({"copy_ms", number(copy.medianMs)});
    keys.push_back({"copy_gbps", number(copyRate)});
  }
  std::optional<TensorDifference> worst;
  unsigned worstOutput = 0;
  if (compareCPU) {
    Expected<SmallVector<TensorDifference>> differences =
        compareWithCPU(*cpuModule, signature, tensors);
    if (!differences)
      return differences.takeError();
    for (auto [i, difference] : llvm::enumerate(*differences)) {
      lines.push_back(llvm::formatv("compare-cpu: output {0}: max abs error "
                                    "{1} (max |cpu| {2})",
                                    i, number(difference.maxAbsError),
                                    number(difference.maxAbsExpected))
                          .str());
      if (!worst || difference.maxAbsError > worst->maxAbsError) {
        worst = difference;
        worstOutput = i;
      }
    }
    keys.push_back({"max_abs_err", number(worst->maxAbsError)});
  }

  llvm::raw_ostream &os = llvm::outs();
  std::optional<double> flopsPerCall;
  if (flops.getNumOccurrences())
    flopsPerCall = flops;
  printTiming(os, signature.name, summarize(callMs), warmup, iterations,
              bytesMoved, flopsPerCall, lines, keys);
  ArrayRef<RunnerTensor> outputs = tensors.drop_front(numInputs);
  if (printOutput)
    for (auto [i, tensor] : llvm::enumerate(outputs)) {
      os << "output " << i << ": " << tensor.spec->type << "\n";
      printTensor(os, tensor.buffer.bytes(), tensor.spec->dtype,
                  tensor.spec->type.getShape());
    }
  os.flush();
  if (Error err = writeOutputs(outputs, outputPaths))
    return err;
  if (worst && tolerance.getNumOccurrences() &&
      !(worst->maxAbsError <= tolerance))
    return llvm::createStringError(
        "--compare-cpu: output " + Twine(worstOutput) +
        " differs from the "
        "CPU's by " +
        number(worst->maxAbsError) + " at element " + Twine(worst->worstIndex) +
        ", more than --tolerance=" + number(tolerance));
  return Error::success();
}

static Error run(MLIRContext &context) {
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
  if (Error err = checkGPUFlags())
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

  llvm::raw_ostream &os = llvm::outs();
  uint64_t bytesMoved = 0;
  for (const RunnerTensor &tensor : tensors)
    bytesMoved += tensor.spec->byteSize;
  std::optional<double> flopsPerCall;
  if (flops.getNumOccurrences())
    flopsPerCall = flops;
  printTiming(os, signature->name, *stats, warmup, iterations, bytesMoved,
              flopsPerCall);
  ArrayRef<RunnerTensor> outputs = ArrayRef(tensors).drop_front(numInputs);
  if (printOutput)
    for (auto [i, tensor] : llvm::enumerate(outputs)) {
      os << "output " << i << ": " << tensor.spec->type << "\n";
      printTensor(os, tensor.buffer.bytes(), tensor.spec->dtype,
                  tensor.spec->type.getShape());
    }
  os.flush();
  return writeOutputs(outputs, *outputPaths);
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
