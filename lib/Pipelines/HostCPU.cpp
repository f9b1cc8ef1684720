//===- HostCPU.cpp - posenc-cpu-pipeline defaults for the host ------------===//

#include "posenc/Pipelines/HostCPU.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>
#include <unistd.h>

using namespace mlir;
using namespace mlir::posenc;

HostCPU mlir::posenc::detectHostCPU() {
  HostCPU host;
  host.name = llvm::sys::getHostCPUName().str();
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  if (features.lookup("avx512f"))
    host.vectorBytes = 64;
  else if (features.lookup("avx"))
    host.vectorBytes = 32;
  host.avx512bf16 = features.lookup("avx512bf16");
#if defined(_SC_LEVEL2_CACHE_SIZE) // glibc; 0 or -1 when unknown
  host.l2Bytes = std::max<long>(sysconf(_SC_LEVEL2_CACHE_SIZE), 0);
  if (long line = sysconf(_SC_LEVEL1_DCACHE_LINESIZE); line > 0)
    host.cacheLineBytes = line;
#endif
  return host;
}

void mlir::posenc::setHostDefaults(CPUPipelineOptions &options,
                                   const HostCPU &host) {
  constexpr int64_t kF32Bytes = 4;
  options.vectorWidth =
      std::max(host.cacheLineBytes, host.vectorBytes) / kF32Bytes;
  options.attentionVectorWidth = host.vectorBytes / kF32Bytes;
  options.attentionBF16DotProducts = host.avx512bf16;
  // Cache sizes are only trusted when they are plausible powers of two
  // between 128 KiB and 16 MiB (some VMs report nonsense).
  int64_t l2 = host.l2Bytes;
  if (!llvm::isPowerOf2_64(l2) || l2 < (int64_t(128) << 10) ||
      l2 > (int64_t(16) << 20))
    return;
  options.blockElements = l2 / kF32Bytes;
  options.nontemporalMinBytes = 4 * l2;
}
