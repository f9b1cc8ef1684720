//===- Jit.cpp - Compiling the lowered module to native code --------------===//

#include "Jit.h"

#include "EntryWrapper.h"
#include "ToolSupport.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Target/LLVMIR/LLVMTranslationInterface.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/TargetSelect.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

using namespace mlir;
using llvm::Error;
using llvm::Expected;

namespace mlir::posenc::run {

EntryCall::EntryCall(PackedEntryFn fn, llvm::ArrayRef<BufferRef> buffers)
    : fn(fn) {
  static_assert(sizeof(void *) == sizeof(int64_t), "64-bit hosts only");
  for (const BufferRef &buffer : buffers) {
    auto pointer =
        static_cast<int64_t>(reinterpret_cast<intptr_t>(buffer.data));
    llvm::SmallVector<int64_t> &descriptor = descriptors.emplace_back();
    descriptor = {pointer, pointer, /*offset=*/0};
    descriptor.append(buffer.shape.begin(), buffer.shape.end());
    llvm::SmallVector<int64_t> strides(buffer.shape.size());
    int64_t stride = 1;
    for (size_t i = buffer.shape.size(); i-- > 0;) {
      strides[i] = stride;
      stride *= buffer.shape[i];
    }
    descriptor.append(strides);
  }
  // Only now that `descriptors` no longer grows are the pointers stable.
  for (llvm::SmallVector<int64_t> &descriptor : descriptors)
    descriptorPtrs.push_back(descriptor.data());
  for (void *&pointer : descriptorPtrs)
    args.push_back(&pointer);
}

//===----------------------------------------------------------------------===//
// Checked allocation for the kernel's temporaries
//===----------------------------------------------------------------------===//

// The lowered code allocates its per-call temporaries (an attention's score
// matrix, ...) with malloc and never checks the result, so an allocation
// beyond the available memory was a segfault inside the kernel. The JIT
// resolves the allocation functions to these, which end the run with one
// error line and exit status 1 instead. Async-signal-safe enough for a dying
// process: no allocation on the way out.

[[noreturn]] static void failTemporaryAllocation(uint64_t size) {
  std::fflush(stdout);
  char message[128];
  int length = std::snprintf(message, sizeof(message),
                             "posenc-run: error: out of memory allocating %llu "
                             "bytes for a temporary of the kernel\n",
                             static_cast<unsigned long long>(size));
  if (length > 0)
    (void)!::write(STDERR_FILENO, message,
                   std::min<size_t>(length, sizeof(message) - 1));
  std::_Exit(1);
}

static std::atomic<bool> poisonAllocations{false};

void poisonKernelAllocations(bool enable) { poisonAllocations = enable; }

static void *poison(void *block, size_t size) {
  if (block && poisonAllocations.load(std::memory_order_relaxed))
    std::memset(block, 0xFF, size);
  return block;
}

static void *checkedMalloc(size_t size) {
  void *result = std::malloc(size);
  if (!result && size)
    failTemporaryAllocation(size);
  return poison(result, size);
}

static void *checkedCalloc(size_t count, size_t size) {
  void *result = std::calloc(count, size);
  if (!result && count && size)
    failTemporaryAllocation(llvm::SaturatingMultiply<uint64_t>(count, size));
  return result;
}

static void *checkedRealloc(void *pointer, size_t size) {
  void *result = std::realloc(pointer, size);
  if (!result && size)
    failTemporaryAllocation(size);
  return result;
}

static void *checkedAlignedAlloc(size_t alignment, size_t size) {
  void *result = std::aligned_alloc(alignment, size);
  if (!result && size)
    failTemporaryAllocation(size);
  return poison(result, size);
}

/// Definitions in the main JITDylib win over the process's symbols, which the
/// engine only searches for names still unresolved.
static llvm::orc::SymbolMap
getCheckedAllocators(llvm::orc::MangleAndInterner interner) {
  auto define = [](auto *function) {
    return llvm::orc::ExecutorSymbolDef(
        llvm::orc::ExecutorAddr::fromPtr(function),
        llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable);
  };
  llvm::orc::SymbolMap symbols;
  symbols[interner("malloc")] = define(&checkedMalloc);
  symbols[interner("calloc")] = define(&checkedCalloc);
  symbols[interner("realloc")] = define(&checkedRealloc);
  symbols[interner("aligned_alloc")] = define(&checkedAlignedAlloc);
  return symbols;
}

//===----------------------------------------------------------------------===//
// Compiling
//===----------------------------------------------------------------------===//

static bool usesOpenMP(ModuleOp module) {
  return module
      .walk([](Operation *op) {
        Dialect *dialect = op->getDialect();
        return dialect && dialect->getNamespace() == "omp"
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

static Expected<llvm::SmallVector<std::string>>
getRuntimeLibraries(ModuleOp lowered, bool needOpenMP,
                    llvm::ArrayRef<std::string> extraLibs) {
  const std::string libDir = POSENC_LLVM_LIBRARY_DIR;
  llvm::SmallVector<std::string> libs;
  std::string runnerUtils = libDir + "/libmlir_c_runner_utils.so";
  if (llvm::sys::fs::exists(runnerUtils))
    libs.push_back(runnerUtils);
  if (needOpenMP || usesOpenMP(lowered)) {
    std::string omp = libDir + "/libomp.so";
    if (!llvm::sys::fs::exists(omp))
      return llvm::createStringError(
          "the module needs OpenMP but '" + omp +
          "' does not exist (install libomp-22-dev)");
    libs.push_back(omp);
  }
  for (const std::string &lib : extraLibs) {
    if (!llvm::sys::fs::exists(lib))
      return llvm::createStringError("shared library '" + lib +
                                     "' does not exist");
    // The JIT only warns about a library it cannot load and runs on without
    // it: load it here, where a failure is an error.
    std::string message;
    if (!llvm::sys::DynamicLibrary::getPermanentLibrary(lib.c_str(), &message)
             .isValid())
      return llvm::createStringError("cannot load shared library '" + lib +
                                     "': " + message);
    libs.push_back(lib);
  }
  return libs;
}

/// Fails with a one-line message naming the first op that has no translation
/// to LLVM IR, instead of the translator's dump of the whole op.
static Error checkTranslatable(ModuleOp lowered) {
  Operation *untranslatable = nullptr;
  lowered.walk<WalkOrder::PreOrder>([&](Operation *op) {
    Dialect *dialect = op->getDialect();
    if (dialect &&
        dialect->getRegisteredInterface<LLVMTranslationDialectInterface>())
      return WalkResult::advance();
    untranslatable = op;
    return WalkResult::interrupt();
  });
  if (!untranslatable)
    return Error::success();
  std::string where;
  llvm::raw_string_ostream os(where);
  if (auto loc = dyn_cast<FileLineColLoc>(untranslatable->getLoc()))
    os << " (" << loc.getFilename().getValue() << ":" << loc.getLine() << ":"
       << loc.getColumn() << ")";
  return llvm::createStringError(
      "the lowered module still contains '" +
      untranslatable->getName().getStringRef() + "'" + where +
      ", which has no translation to LLVM IR; the pipeline must "
      "lower everything to the llvm dialect (see --dump-ir)");
}

/// LLVM fully unrolls small-bodied loops of dozens of iterations (a row loop
/// of masked tail stores, a zero fill); SelectionDAG's store merging then
/// compares the hundreds of stores of the resulting block pairwise: minutes
/// to compile an attention or ALiBi kernel at vector width 2-8 (issue 22).
/// posenc's kernels are unrolled to register tiles before LLVM sees them, so
/// LLVM fully unrolls loops of at most this many iterations.
constexpr unsigned kMaxFullUnrollCount = 16;

/// Sets LLVM's `unroll-full-max-count` to kMaxFullUnrollCount, unless it was
/// given on the command line.
static void capFullUnrolling() {
  auto &options = llvm::cl::getRegisteredOptions();
  auto it = options.find("unroll-full-max-count");
  if (it == options.end() || it->second->getNumOccurrences())
    return;
  // The unroller reads the option only when it occurred, as if given.
  (void)it->second->addOccurrence(/*pos=*/0, it->second->ArgStr,
                                  std::to_string(kMaxFullUnrollCount));
}

Expected<JitEntry>
jitCompile(ModuleOp lowered, bool needOpenMP,
           llvm::ArrayRef<std::string> extraLibs, llvm::StringRef dumpLLVMPath,
           std::function<llvm::orc::SymbolMap(llvm::orc::MangleAndInterner)>
               extraSymbols,
           bool initialize) {
  if (Error err = checkTranslatable(lowered))
    return std::move(err);
  Expected<llvm::SmallVector<std::string>> sharedLibs =
      getRuntimeLibraries(lowered, needOpenMP, extraLibs);
  if (!sharedLibs)
    return sharedLibs.takeError();
  static const bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    capFullUnrolling();
    return true;
  }();
  (void)initialized;

  // Optimize for the host CPU (vector width, ISA extensions) rather than a
  // generic target.
  Expected<llvm::orc::JITTargetMachineBuilder> tmBuilder =
      llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!tmBuilder)
    return tmBuilder.takeError();
  tmBuilder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  Expected<std::unique_ptr<llvm::TargetMachine>> tm =
      tmBuilder->createTargetMachine();
  if (!tm)
    return tm.takeError();
  auto optimize = makeOptimizingTransformer(
      /*optLevel=*/3, /*sizeLevel=*/0, tm->get());
  // The file is opened up front and its write error kept for after the JIT:
  // ExecutionEngine::create calls the transformer under cantFail, so an
  // error returned from it is undefined behaviour in a release build.
  std::shared_ptr<llvm::raw_fd_ostream> dump;
  auto dumpError = std::make_shared<std::string>();
  if (!dumpLLVMPath.empty()) {
    std::error_code ec;
    dump = std::make_shared<llvm::raw_fd_ostream>(dumpLLVMPath, ec);
    if (ec)
      return llvm::createStringError("cannot write '" + dumpLLVMPath +
                                     "': " + ec.message());
  }
  auto transformer = [optimize, dump, dumpError, dumpPath = dumpLLVMPath.str()](
                         llvm::Module *module) -> Error {
    if (Error err = optimize(module))
      return err;
    if (dump) {
      module->print(*dump, nullptr);
      if (Error err = tools::finishOutput(*dump, dumpPath))
        *dumpError = toString(std::move(err));
    }
    return Error::success();
  };

  llvm::SmallVector<llvm::StringRef> libs(sharedLibs->begin(),
                                          sharedLibs->end());
  ExecutionEngineOptions options;
  options.transformer = transformer;
  options.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  options.sharedLibPaths = libs;
  Expected<std::unique_ptr<ExecutionEngine>> engine =
      ExecutionEngine::create(lowered, options, std::move(*tm));
  if (!engine)
    return llvm::createStringError("cannot JIT-compile the lowered module: " +
                                   toString(engine.takeError()));
  if (!dumpError->empty())
    return llvm::createStringError(*dumpError);
  // Before anything is materialized (initialize() runs global constructors).
  (*engine)->registerSymbols(getCheckedAllocators);
  if (extraSymbols)
    (*engine)->registerSymbols(extraSymbols);
  if (initialize)
    (*engine)->initialize();

  std::string name = ("_mlir_ciface_" + kEntryWrapperName).str();
  Expected<void (*)(void **)> fn = (*engine)->lookupPacked(name);
  if (!fn) {
    // Unresolved functions surface here, when the entry is linked.
    std::string message = toString(fn.takeError());
    if (llvm::StringRef(message).contains("Symbols not found"))
      return llvm::createStringError("cannot link the lowered module: " +
                                     message);
    return llvm::createStringError(
        "the lowered module has no " + name +
        "; the pipeline must keep llvm.emit_c_interface (for "
        "example convert-func-to-llvm or convert-to-llvm)");
  }
  return JitEntry{std::move(*engine), *fn};
}

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

KernelAbortGuard::KernelAbortGuard() {
  struct sigaction action = {};
  action.sa_handler = onKernelAbort;
  sigemptyset(&action.sa_mask);
  sigaction(SIGABRT, &action, &previous);
}

KernelAbortGuard::~KernelAbortGuard() {
  sigaction(SIGABRT, &previous, nullptr);
}

} // namespace mlir::posenc::run
