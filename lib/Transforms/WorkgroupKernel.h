//===- WorkgroupKernel.h - kernels a host dispatches over workgroups -*- C++
//-*-===//
//
// What posenc-forall-to-workgroups and posenc-allocs-to-scratch share: the
// argument markers and where a buffer comes from.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_LIB_TRANSFORMS_WORKGROUPKERNEL_H
#define POSENC_LIB_TRANSFORMS_WORKGROUPKERNEL_H

#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir {
namespace posenc {

/// Argument markers (unit attributes) and the attributes the passes set.
inline constexpr llvm::StringLiteral kWorkgroupIdAttr = "posenc.workgroup_id";
inline constexpr llvm::StringLiteral kWorkgroupCountAttr =
    "posenc.workgroup_count";
inline constexpr llvm::StringLiteral kScratchAttr = "posenc.scratch";
inline constexpr llvm::StringLiteral kWorkgroupUnitsAttr =
    "posenc.workgroup_units";
inline constexpr llvm::StringLiteral kScratchBytesAttr = "posenc.scratch_bytes";

/// The argument of `func` marked `marker`, or null (none, or a declaration).
BlockArgument getMarkedArgument(FunctionOpInterface func, StringRef marker);

/// The buffer `value` is a view of: through view-like ops, and through
/// scf.for iter_args and results to their initial values (bufferized loops
/// carry their buffers in place).
Value getRootBuffer(Value value);

} // namespace posenc
} // namespace mlir

#endif // POSENC_LIB_TRANSFORMS_WORKGROUPKERNEL_H
