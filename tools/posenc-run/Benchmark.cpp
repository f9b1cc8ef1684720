//===- Benchmark.cpp - Timing the compiled entry --------------------------===//

#include "Benchmark.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Format.h"

#include <chrono>

using namespace llvm;

namespace mlir::posenc::run {

TimingStats measure(function_ref<void()> call, function_ref<void()> prepare,
                    unsigned warmup, unsigned iterations) {
  using Clock = std::chrono::steady_clock;
  for (unsigned i = 0; i < warmup; ++i) {
    if (prepare)
      prepare();
    call();
  }
  SmallVector<double> times;
  times.reserve(iterations);
  for (unsigned i = 0; i < iterations; ++i) {
    if (prepare)
      prepare();
    Clock::time_point start = Clock::now();
    call();
    Clock::time_point end = Clock::now();
    times.push_back(
        std::chrono::duration<double, std::milli>(end - start).count());
  }
  return summarize(times);
}

TimingStats summarize(ArrayRef<double> times) {
  SmallVector<double> sorted(times);
  llvm::sort(sorted);
  TimingStats stats;
  size_t mid = sorted.size() / 2;
  stats.medianMs =
      sorted.size() % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  stats.minMs = sorted.front();
  stats.maxMs = sorted.back();
  return stats;
}

void printTiming(raw_ostream &os, StringRef entry, const TimingStats &stats,
                 unsigned warmup, unsigned iterations, uint64_t bytesMoved,
                 std::optional<double> flops, ArrayRef<std::string> extraLines,
                 ArrayRef<std::pair<std::string, std::string>> extraKeys) {
  double seconds = stats.medianMs * 1e-3;
  // A call faster than the clock's resolution has no meaningful rate.
  double gbps =
      seconds > 0 ? static_cast<double>(bytesMoved) / seconds / 1e9 : 0.0;
  std::optional<double> gflops;
  if (flops)
    gflops = seconds > 0 ? *flops / seconds / 1e9 : 0.0;

  os << "@" << entry << ": " << iterations << " iterations after " << warmup
     << " warmup, " << bytesMoved << " bytes moved per call\n";
  os << format("  median %.6g ms  min %.6g ms  max %.6g ms  %.4g GB/s",
               stats.medianMs, stats.minMs, stats.maxMs, gbps);
  if (gflops)
    os << format("  %.4g GFLOP/s", *gflops);
  os << "\n";
  for (const std::string &line : extraLines)
    os << "  " << line << "\n";
  os << "RESULT entry=" << entry
     << format(" median_ms=%.6g min_ms=%.6g max_ms=%.6g gbps=%.6g",
               stats.medianMs, stats.minMs, stats.maxMs, gbps);
  if (gflops)
    os << format(" gflops=%.6g", *gflops);
  for (const auto &[key, value] : extraKeys)
    os << " " << key << "=" << value;
  os << "\n";
}

} // namespace mlir::posenc::run
