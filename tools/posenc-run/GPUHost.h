//===- GPUHost.h - The host code of a --gpu run ---------------*- C++ -*-===//
//
// With --gpu, posenc-run hands the lowered host code device pointers: the
// host code may only pass them to kernels. These functions check that it
// does (no copy, load or store of a buffer on the host, no host stack
// memory given to a kernel), make its own allocations device memory, and
// list the runtime functions it imports against those GPURuntime.h
// provides.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_TOOLS_POSENC_RUN_GPUHOST_H
#define POSENC_TOOLS_POSENC_RUN_GPUHOST_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ExecutionEngine/Orc/Core.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir::posenc::run {

/// The chip of the default GPU pipeline when neither --chip nor a device
/// says: the H100's and H200's.
inline constexpr llvm::StringLiteral kDefaultGPUChip = "sm_90";

/// Checks that the lowered host code (LLVM dialect, kernels in gpu.binary)
/// touches no buffer on the host, then turns its allocations (malloc,
/// aligned_alloc and free of memref.alloc/dealloc) into mgpuMemAlloc and
/// mgpuMemFree: with --gpu every buffer lives on the device.
llvm::Error prepareHostCodeForGPU(mlir::ModuleOp lowered);

/// A function the host code's LLVM IR declares and the runtime must
/// resolve.
struct RuntimeImport {
  std::string name;
  /// Its LLVM IR type, e.g. `ptr (ptr, i64)`.
  std::string type;
  /// Whether it is an mgpu* function (resolved by posenc-run's GPU runtime)
  /// rather than a function of the process (libc, libm).
  bool isGPURuntime = false;
  /// For mgpu* functions: provided by the runtime with this type.
  bool provided = false;
};

/// Translates `lowered` to LLVM IR and lists the functions it declares.
llvm::Expected<llvm::SmallVector<RuntimeImport>>
getRuntimeImports(mlir::ModuleOp lowered);

/// Fails, naming each one, if an imported mgpu* function is not provided
/// with the type the host code calls it with.
llvm::Error checkRuntimeImports(llvm::ArrayRef<RuntimeImport> imports);

/// The mgpu* functions of GPURuntime.h, for the JIT.
llvm::orc::SymbolMap getGPURuntimeSymbols(llvm::orc::MangleAndInterner mangle);

} // namespace mlir::posenc::run

#endif // POSENC_TOOLS_POSENC_RUN_GPUHOST_H
