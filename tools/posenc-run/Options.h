//===- Options.h - The command-line flags of posenc-run --------*- C++ -*-===//
//
// posenc-run's flags, shared by the files of the runner (--threads itself
// is registered in main, see there).
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_TOOLS_POSENC_RUN_OPTIONS_H
#define POSENC_TOOLS_POSENC_RUN_OPTIONS_H

#include "llvm/Support/CommandLine.h"

#include <cstdint>
#include <string>

namespace mlir::posenc::run {

namespace cl = llvm::cl;

extern cl::OptionCategory runCategory;
extern cl::opt<std::string> inputFilename;
extern cl::opt<std::string> entryName;
extern cl::opt<std::string> pipelineOpt;
extern cl::list<std::string> inputSpecs;
extern cl::list<std::string> inputList;
extern cl::opt<uint64_t> seed;
extern cl::opt<uint64_t> intMax;
extern cl::opt<bool> writableInputs;
extern cl::opt<bool> poisonAllocations;
extern cl::list<std::string> outputSpecs;
extern cl::opt<std::string> outputsDir;
extern cl::opt<bool> printOutput;
extern cl::opt<unsigned> iterations;
/// Each timed call keeps its time (8 bytes, 16 on the GPU) for the median.
inline constexpr unsigned kMaxIterations = 10000000;
extern cl::opt<unsigned> warmup;
extern cl::opt<double> flops;
extern cl::opt<bool> dumpIR;
extern cl::opt<bool> printPipeline;
extern cl::opt<std::string> dumpLLVM;
extern cl::opt<bool> useGPU;
extern cl::opt<std::string> chip;
extern cl::opt<bool> dryRun;
extern cl::opt<bool> compareCPU;
extern cl::opt<double> tolerance;
extern cl::opt<bool> copyBaseline;
extern cl::opt<bool> gpuInfo;
extern cl::opt<bool> listRuntimeSymbols;
/// Exit status of a --gpu run on a machine without a usable CUDA driver or
/// device: automake's "skipped", distinct from errors (1).
inline constexpr int kNoGPUExitCode = 77;
/// Storage of --threads, which is registered in main (see there); 0 when
/// the flag is absent.
extern unsigned threads;
/// --threads accepts 1 to this many: oversubscribing a machine many times
/// over is never a useful benchmark, and libomp caps its team size anyway.
inline constexpr unsigned kMaxThreads = 1024;
extern cl::list<std::string> sharedLibs;

} // namespace mlir::posenc::run

#endif // POSENC_TOOLS_POSENC_RUN_OPTIONS_H
