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
           cl::desc("Random integers are drawn from [0, N) (default 4096)"),
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
static cl::opt<unsigned> iterations("iterations",
                                    cl::desc("Timed calls (default 10)"),
                                    cl::init(10), cl::cat(runCategory));
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
  } else if (!isFloat(spec.dtype) &&
             intMax >
                 (spec.dtype == DType::I32 ? (1ull << 31) : (1ull << 63))) {
    return llvm::createStringError("--int-max=" + Twine(intMax) +
                                   " does not fit " + what);
  }

  Expected<HostBuffer> buffer = HostBuffer::allocate(spec.byteSize);
  if (!buffer)
    return buffer.takeError();
  // The header matched the argument: read exactly its bytes, in place.
  if (!reader)
    fillRandom(buffer->bytes(), spec.dtype, seed, index, intMax);
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
static std::string getPipeline() {
  if (!pipelineOpt.empty())
    return pipelineOpt.getValue();
  posenc::CPUPipelineOptions options;
  posenc::setHostDefaults(options, posenc::detectHostCPU());
  std::string text = kDefaultPipeline.str();
  llvm::raw_string_ostream os(text);
  options.print(os);
  return text;
}

/// Adds the entry wrapper, runs the pipeline and JIT-compiles the module;
/// reports how long that took.
static Expected<JitEntry> compile(ModuleOp module, func::FuncOp entry) {
  auto start = std::chrono::steady_clock::now();
  std::string name = entry.getSymName().str();
  if (Error err = buildEntryWrapper(module, entry, writableInputs))
    return std::move(err);
  std::string pipeline = getPipeline();
  if (dumpIR) {
    dumpModule(module, "module with entry wrapper");
    llvm::errs() << "// posenc-run pipeline: " << pipeline << "\n";
  }
  if (Error err = runPipeline(module, pipeline))
    return std::move(err);
  if (dumpIR)
    dumpModule(module, "lowered module");
  double pipelineMs = millisecondsSince(start);

  auto jitStart = std::chrono::steady_clock::now();
  Expected<JitEntry> jit =
      jitCompile(module, threads > 0, sharedLibs, dumpLLVM);
  if (!jit)
    return jit.takeError();
  double jitMs = millisecondsSince(jitStart);
  llvm::outs() << llvm::format(
      "compiled @%s in %.1f ms (pipeline %.1f ms, JIT %.1f ms)\n", name.c_str(),
      pipelineMs + jitMs, pipelineMs, jitMs);
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

static Error run(MLIRContext &context) {
  if (iterations == 0)
    return llvm::createStringError("--iterations must be at least 1");
  if (intMax == 0)
    return llvm::createStringError("--int-max must be at least 1");
  if (flops.getNumOccurrences() && !(flops > 0))
    return llvm::createStringError("--flops must be positive");

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
  // Inputs before compiling: a bad file is reported before the slow part.
  Expected<SmallVector<RunnerTensor>> tensors =
      allocateTensors(*signature, *inputPaths);
  if (!tensors)
    return tensors.takeError();

  Expected<JitEntry> jit = compile(*module, *entry);
  if (!jit)
    return jit.takeError();
  size_t numInputs = signature->inputs.size();
  Expected<TimingStats> stats = timeEntry(jit->fn, *tensors, numInputs);
  if (!stats)
    return stats.takeError();

  llvm::raw_ostream &os = llvm::outs();
  uint64_t bytesMoved = 0;
  for (const RunnerTensor &tensor : *tensors)
    bytesMoved += tensor.spec->byteSize;
  std::optional<double> flopsPerCall;
  if (flops.getNumOccurrences())
    flopsPerCall = flops;
  printTiming(os, signature->name, *stats, warmup, iterations, bytesMoved,
              flopsPerCall);
  ArrayRef<RunnerTensor> outputs = ArrayRef(*tensors).drop_front(numInputs);
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
    llvm::handleAllErrors(std::move(err), [](const llvm::ErrorInfoBase &info) {
      llvm::WithColor::error(llvm::errs(), "posenc-run")
          << info.message() << "\n";
    });
    return 1;
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
