//===- Jit.h - Compiling the lowered module to native code ----*- C++ -*-===//

#ifndef POSENC_TOOLS_POSENC_RUN_JIT_H
#define POSENC_TOOLS_POSENC_RUN_JIT_H

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace mlir::posenc::run {

/// `void fn(void **args)`: args[i] points to the i-th argument of the C
/// interface, i.e. to a pointer to the i-th memref descriptor.
using PackedEntryFn = void (*)(void **);

/// The memref descriptor of a C-order buffer, as the C interface expects it:
/// {allocated ptr, aligned ptr, offset, sizes[rank], strides[rank]}, every
/// field 64 bits wide.
llvm::SmallVector<int64_t> makeMemRefDescriptor(void *data,
                                                llvm::ArrayRef<int64_t> shape);

/// Shared libraries the JIT loads for `lowered`: the MLIR C runner utils
/// (memrefCopy and friends) when installed, libomp when the module uses the
/// OpenMP dialect or `needOpenMP` is set, then `extraLibs`. Fails if a
/// required library is missing.
llvm::Expected<llvm::SmallVector<std::string>>
getRuntimeLibraries(mlir::ModuleOp lowered, bool needOpenMP,
                    llvm::ArrayRef<std::string> extraLibs);

/// JIT-compiles `lowered` (LLVM dialect) for the host CPU at -O3.
llvm::Expected<std::unique_ptr<mlir::ExecutionEngine>>
createEngine(mlir::ModuleOp lowered, llvm::ArrayRef<std::string> sharedLibs);

/// Looks up the packed form of the entry wrapper's C interface.
llvm::Expected<PackedEntryFn> lookupEntry(mlir::ExecutionEngine &engine);

} // namespace mlir::posenc::run

#endif // POSENC_TOOLS_POSENC_RUN_JIT_H
