//===- EntryWrapper.h - The runner's memref entry point -------*- C++ -*-===//
//
// posenc-run compiles a tensor function behind a generated wrapper whose
// arguments are the memrefs the runner owns:
//
//   func.func @__posenc_run_entry(%in0: memref<..>, ..., %out0: memref<..>, ..)
//       attributes {llvm.emit_c_interface} {
//     %t0 = bufferization.to_tensor %in0 restrict : memref<..> to tensor<..>
//     %r:N = func.call @entry(%t0, ...)
//     bufferization.materialize_in_destination %r#0 in restrict writable %out0
//     return
//   }
//
// so that one-shot bufferization writes results straight into the runner's
// output buffers.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_TOOLS_POSENC_RUN_ENTRYWRAPPER_H
#define POSENC_TOOLS_POSENC_RUN_ENTRYWRAPPER_H

#include "DType.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir::posenc::run {

/// Name of the generated wrapper. Its C interface, which the runner calls,
/// is `_mlir_ciface___posenc_run_entry`.
constexpr llvm::StringLiteral kEntryWrapperName = "__posenc_run_entry";

/// One argument or result of the entry function.
struct TensorSpec {
  mlir::RankedTensorType type;
  DType dtype;
  /// Size of the tensor in bytes.
  uint64_t byteSize;
};

/// The tensors the entry function consumes and produces.
struct EntrySignature {
  std::string name;
  llvm::SmallVector<TensorSpec> inputs;
  llvm::SmallVector<TensorSpec> results;
};

/// Finds the entry function of `module`: the function called `name`, or,
/// when `name` is empty, the only public function with a body.
llvm::Expected<mlir::func::FuncOp> findEntry(mlir::ModuleOp module,
                                             llvm::StringRef name);

/// Checks that every argument and result of `entry` is a ranked tensor with a
/// static shape and a supported element type.
llvm::Expected<EntrySignature> getEntrySignature(mlir::func::FuncOp entry);

/// Adds the wrapper around `entry` to `module` and makes every other function
/// private, so that the inliner drops them once they are inlined. Inputs are
/// marked `writable` only if `writableInputs`: bufferization may then reuse
/// their buffers in place.
llvm::Error buildEntryWrapper(mlir::ModuleOp module, mlir::func::FuncOp entry,
                              bool writableInputs);

} // namespace mlir::posenc::run

#endif // POSENC_TOOLS_POSENC_RUN_ENTRYWRAPPER_H
