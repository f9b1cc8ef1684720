//===- Jit.h - Compiling the lowered module to native code ----*- C++ -*-===//

#ifndef POSENC_TOOLS_POSENC_RUN_JIT_H
#define POSENC_TOOLS_POSENC_RUN_JIT_H

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <csignal>
#include <functional>
#include <memory>
#include <string>

namespace mlir::posenc::run {

/// `void fn(void **args)`: args[i] points to the i-th argument of the C
/// interface, i.e. to a pointer to the i-th memref descriptor.
using PackedEntryFn = void (*)(void **);

/// The JIT-compiled module and the packed form of its entry wrapper.
struct JitEntry {
  std::unique_ptr<mlir::ExecutionEngine> engine;
  PackedEntryFn fn = nullptr;
};

/// JIT-compiles `lowered` (LLVM dialect) for the host CPU at -O3 and looks up
/// the entry wrapper. The JIT loads the MLIR C runner utils (memrefCopy and
/// friends) when installed, libomp when the module contains OpenMP dialect
/// ops or `needOpenMP` is set, then `extraLibs`; a missing one is an error.
/// With a `dumpLLVMPath`, the optimized LLVM IR is written there (what the
/// JIT turns into machine code; `llc` / `llvm-mca` read it). `extraSymbols`
/// are defined before anything else resolves (the GPU runtime's mgpu*
/// functions). Without `initialize`, the module is compiled and linked but
/// its global constructors (a GPU module's load) do not run and the entry
/// must not be called: a dry run.
llvm::Expected<JitEntry>
jitCompile(mlir::ModuleOp lowered, bool needOpenMP,
           llvm::ArrayRef<std::string> extraLibs,
           llvm::StringRef dumpLLVMPath = {},
           std::function<llvm::orc::SymbolMap(llvm::orc::MangleAndInterner)>
               extraSymbols = nullptr,
           bool initialize = true);

/// From now on, every block the kernel gets from malloc or aligned_alloc is
/// filled with 0xFF bytes first (NaN as a float, -1 as an integer): a kernel
/// that reads memory it did not write then gives a visibly wrong result,
/// whatever the allocator happens to return (calloc stays zero).
void poisonKernelAllocations(bool enable);

/// A C-order buffer passed to the entry.
struct BufferRef {
  void *data;
  llvm::ArrayRef<int64_t> shape;
};

/// A call of the entry with fixed buffers (inputs, then outputs). The memref
/// descriptors are built once, so a call is one indirect call.
class EntryCall {
public:
  EntryCall(PackedEntryFn fn, llvm::ArrayRef<BufferRef> buffers);
  // `args` points into the object itself.
  EntryCall(const EntryCall &) = delete;
  EntryCall &operator=(const EntryCall &) = delete;

  void operator()() { fn(args.data()); }

  /// The packed function and its arguments, for callers that time the call
  /// themselves (the GPU runtime).
  PackedEntryFn getFunction() const { return fn; }
  void **getArgs() { return args.data(); }

private:
  PackedEntryFn fn;
  /// {allocated ptr, aligned ptr, offset, sizes[rank], strides[rank]}, every
  /// field 64 bits wide, as the C interface expects.
  llvm::SmallVector<llvm::SmallVector<int64_t>> descriptors;
  llvm::SmallVector<void *> descriptorPtrs;
  llvm::SmallVector<void *> args;
};

/// While alive, a failed runtime check of the kernel ends the process with
/// the check's message, one error line and exit status 1 (see Jit.cpp).
class KernelAbortGuard {
public:
  KernelAbortGuard();
  ~KernelAbortGuard();
  KernelAbortGuard(const KernelAbortGuard &) = delete;
  KernelAbortGuard &operator=(const KernelAbortGuard &) = delete;

private:
  struct sigaction previous;
};

} // namespace mlir::posenc::run

#endif // POSENC_TOOLS_POSENC_RUN_JIT_H
