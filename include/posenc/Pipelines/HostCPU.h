//===- HostCPU.h - posenc-cpu-pipeline defaults for the host ----*- C++ -*-===//
//
// Codegen options that depend on the machine (vector width, block size,
// streaming-store threshold), derived from the host CPU the JIT compiles for
// rather than fixed numbers. posenc-run uses them for its default pipeline
// and prints the resulting options (`--print-pipeline`), so a run can be
// reproduced elsewhere by passing that pipeline; posenc-opt and hosts keep
// the fixed defaults of Passes.td unless they ask for these.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_PIPELINES_HOSTCPU_H
#define POSENC_PIPELINES_HOSTCPU_H

#include "posenc/Pipelines/CPUPipeline.h"

#include <cstdint>
#include <string>

namespace mlir {
namespace posenc {

/// What the codegen defaults depend on.
struct HostCPU {
  /// LLVM's name of the CPU (e.g. "znver4", "sapphirerapids").
  std::string name;
  /// Width of the widest vector registers the CPU has (AVX-512: 64).
  int64_t vectorBytes = 16;
  /// Cache line size.
  int64_t cacheLineBytes = 64;
  /// Size of the per-core L2 cache; 0 when unknown.
  int64_t l2Bytes = 0;
  /// AVX-512 BF16 dot products (vdpbf16ps).
  bool avx512bf16 = false;
};

/// The CPU this process runs on (LLVM's host detection and the C library's
/// cache sizes).
HostCPU detectHostCPU();

/// Sets the host-dependent options of posenc-cpu-pipeline for `host`:
///  - vector-width: one cache line (or one register, if wider) of f32 per
///    vector op: 16 lanes on AVX2 (two ymm) and on AVX-512 (one zmm), which
///    bench/rope measured best on both;
///  - attention-vector-width: one register of f32 (AVX-512 16, AVX2 8): the
///    decode attention kernel holds accumulators in registers, so its vectors
///    and register blocks follow the register file, not the cache line;
///  - attention-bf16-dot-products: whether the CPU has AVX-512 BF16;
///  - block-elements: a block reads about one L2 of f32 input, so each
///    head's run of a block is long enough for the prefetchers (bench/rope:
///    blocks of 2 KiB per head ran 1.5x slower than 32 KiB on Zen 3, whose
///    1 MiB L2 gives the measured best, 262144); the Passes.td default when
///    the L2 size is unknown;
///  - nontemporal-min-bytes: outputs of at least 4 L2s are streamed (smaller
///    ones are likely to be read again from cache by the next kernel).
void setHostDefaults(CPUPipelineOptions &options, const HostCPU &host);

} // namespace posenc
} // namespace mlir

#endif // POSENC_PIPELINES_HOSTCPU_H
