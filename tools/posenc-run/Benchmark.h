//===- Benchmark.h - Timing the compiled entry ----------------*- C++ -*-===//

#ifndef POSENC_TOOLS_POSENC_RUN_BENCHMARK_H
#define POSENC_TOOLS_POSENC_RUN_BENCHMARK_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace mlir::posenc::run {

struct TimingStats {
  double medianMs = 0;
  double minMs = 0;
  double maxMs = 0;
};

/// Median (of an even count: the mean of the middle two), min and max of
/// `times` (at least one).
TimingStats summarize(llvm::ArrayRef<double> times);

/// Runs `warmup` untimed calls, then `iterations` (at least 1) timed calls of
/// `call`. `prepare`, if given, runs before every call, outside the timing.
TimingStats measure(llvm::function_ref<void()> call,
                    llvm::function_ref<void()> prepare, unsigned warmup,
                    unsigned iterations);

/// Prints the human-readable summary and the machine-readable line
///   RESULT entry=NAME median_ms=.. min_ms=.. max_ms=.. gbps=.. [gflops=..]
/// where GB/s counts `bytesMoved` (all inputs and outputs) per median call.
/// `extraLines` go under the summary (indented), `extraKeys` at the end of
/// the RESULT line, in order (--gpu's).
void printTiming(
    llvm::raw_ostream &os, llvm::StringRef entry, const TimingStats &stats,
    unsigned warmup, unsigned iterations, uint64_t bytesMoved,
    std::optional<double> flops, llvm::ArrayRef<std::string> extraLines = {},
    llvm::ArrayRef<std::pair<std::string, std::string>> extraKeys = {});

} // namespace mlir::posenc::run

#endif // POSENC_TOOLS_POSENC_RUN_BENCHMARK_H
