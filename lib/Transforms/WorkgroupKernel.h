//===- WorkgroupKernel.h - kernels a host dispatches over workgroups -*- C++
//-*-===//
//
// What posenc-forall-to-workgroups and posenc-allocs-to-scratch share: the
// argument markers and where a buffer comes from.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_LIB_TRANSFORMS_WORKGROUPKERNEL_H
#define POSENC_LIB_TRANSFORMS_WORKGROUPKERNEL_H

#include "mlir/Dialect/SCF/IR/SCF.h"
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
inline constexpr llvm::StringLiteral kSharedScratchAttr =
    "posenc.shared_scratch";
inline constexpr llvm::StringLiteral kSharedScratchBytesAttr =
    "posenc.shared_scratch_bytes";
inline constexpr llvm::StringLiteral kWorkgroupPhaseAttr =
    "posenc.workgroup_phase";
inline constexpr llvm::StringLiteral kWorkgroupPhasesAttr =
    "posenc.workgroup_phases";

/// The argument of `func` marked `marker`, or null (none, or a declaration).
BlockArgument getMarkedArgument(FunctionOpInterface func, StringRef marker);

/// The buffer `value` is a view of: through view-like ops, and through
/// scf.for iter_args and results to their initial values (bufferized loops
/// carry their buffers in place).
Value getRootBuffer(Value value);

/// Whether `buffer` is the workgroup's own memory: allocated by the function,
/// or in `scratch` (whose slices are the workgroups' own after
/// posenc-allocs-to-scratch).
bool isPrivateBuffer(Value buffer, Value scratch);

/// The first op in `root` (itself included, `skip` and its body excluded)
/// that writes memory other than the workgroup's own, or may (side effects
/// unknown); null if none.
Operation *findSharedWrite(Operation *root, Value scratch,
                           Operation *skip = nullptr);

/// A kernel in two phases (split decode keys): no top-level scf.forall of
/// `func` writes memory other than the function's own, and ops after the
/// last one do (the combine of what it computed). Returns that forall, or
/// null.
scf::ForallOp findSplitForall(FunctionOpInterface func, Value scratch);

} // namespace posenc
} // namespace mlir

#endif // POSENC_LIB_TRANSFORMS_WORKGROUPKERNEL_H
