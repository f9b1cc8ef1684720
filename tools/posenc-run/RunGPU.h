//===- RunGPU.h - posenc-run --gpu -----------------------------*- C++ -*-===//
//
// The --gpu path of posenc-run: the CUDA device, device buffers, timing
// with CUDA events and the comparison with the CPU pipeline (--compare-cpu).
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_TOOLS_POSENC_RUN_RUNGPU_H
#define POSENC_TOOLS_POSENC_RUN_RUNGPU_H

#include "EntryWrapper.h"
#include "Jit.h"
#include "RunnerTensors.h"

#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <utility>

namespace mlir::posenc::run {

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

/// Flags that only mean something with --gpu or --compare-cpu.
llvm::Error checkGPUFlags();

/// Loads the CUDA driver and picks device 0; no driver or device is a
/// NoGPUError.
llvm::Error initializeGPU();

/// Copies the inputs to the device, times the entry there with CUDA events,
/// copies the results back, and reports like the CPU path, with the
/// kernels' time, the copy baseline and the CPU comparison (of `cpuModule`,
/// the module as given, compiled for the CPU) added.
llvm::Error
runOnGPU(const EntrySignature &signature, JitEntry &jit,
         llvm::MutableArrayRef<RunnerTensor> tensors,
         OwningOpRef<ModuleOp> cpuModule,
         llvm::ArrayRef<std::pair<unsigned, std::string>> outputPaths);

} // namespace mlir::posenc::run

#endif // POSENC_TOOLS_POSENC_RUN_RUNGPU_H
