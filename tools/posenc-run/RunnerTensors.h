//===- RunnerTensors.h - The buffers posenc-run owns ------------*- C++ -*-===//
//
// The runner's buffers for the arguments and results of the entry: read
// from .npy files (--input, --inputs) or filled with seeded random data,
// and, after the run, printed (--print-output) and written (--output,
// --outputs-dir).
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_TOOLS_POSENC_RUN_RUNNERTENSORS_H
#define POSENC_TOOLS_POSENC_RUN_RUNNERTENSORS_H

#include "Benchmark.h"
#include "EntryWrapper.h"
#include "HostBuffer.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <string>
#include <utility>

namespace mlir::posenc::run {

/// A buffer the runner owns for one argument or result of the entry.
struct RunnerTensor {
  const TensorSpec *spec;
  HostBuffer buffer;
};

/// The .npy file of every argument; an empty path means random data.
llvm::Expected<llvm::SmallVector<std::string>>
getInputPaths(const EntrySignature &signature);

/// Every (result, path) pair to write.
llvm::Expected<llvm::SmallVector<std::pair<unsigned, std::string>>>
getOutputPaths(const EntrySignature &signature);

/// Checks that all buffers fit in the machine's memory before touching any.
llvm::Error checkMemory(const EntrySignature &signature);

/// Allocates the runner's buffers: the inputs, read or random, then the
/// outputs.
llvm::Expected<llvm::SmallVector<RunnerTensor>>
allocateTensors(const EntrySignature &signature,
                llvm::ArrayRef<std::string> inputPaths);

/// Prints the timing of the entry (with --gpu's `extraLines` and
/// `extraKeys`, see printTiming) and, with --print-output, the results; then
/// writes the results to their files.
llvm::Error reportResults(
    llvm::StringRef entry, const TimingStats &stats, uint64_t bytesMoved,
    llvm::ArrayRef<RunnerTensor> outputs,
    llvm::ArrayRef<std::pair<unsigned, std::string>> outputPaths,
    llvm::ArrayRef<std::string> extraLines = {},
    llvm::ArrayRef<std::pair<std::string, std::string>> extraKeys = {});

/// The bytes a call reads and writes: all inputs and outputs.
uint64_t getBytesMoved(llvm::ArrayRef<RunnerTensor> tensors);

} // namespace mlir::posenc::run

#endif // POSENC_TOOLS_POSENC_RUN_RUNNERTENSORS_H
