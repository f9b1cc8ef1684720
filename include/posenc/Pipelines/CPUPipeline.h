//===- CPUPipeline.h - posenc to vectorized, threaded LLVM ------*- C++ -*-===//
//
// `posenc-cpu-pipeline`: posenc (and linalg on tensors) to the LLVM dialect
// for the host CPU. One options struct serves the C++ API, the textual
// registration and the C API (posenc-c/Passes.h).
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_PIPELINES_CPUPIPELINE_H
#define POSENC_PIPELINES_CPUPIPELINE_H

#include "posenc/Conversion/Passes.h"
#include "posenc/Pipelines/AttentionOptions.h"
#include "posenc/Transforms/Passes.h"

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
namespace posenc {

/// Options of `posenc-cpu-pipeline`. Defaults of options that belong to a
/// pass come from that pass's generated options (Passes.td).
struct CPUPipelineOptions
    : public AttentionPipelineOptions<CPUPipelineOptions> {
  /// Defaults of the attention options (AttentionOptions.h):
  /// posenc-tile-attention's, with the dot-product key loop on 16-lane
  /// registers (posenc-run passes the host's; HostCPU.h).
  static PosEncTileAttentionOptions attentionDefaults() {
    PosEncTileAttentionOptions options;
    options.vectorWidth = 16;
    return options;
  }

  PassOptions::Option<int64_t> vectorWidth{
      *this, "vector-width",
      llvm::cl::desc("Elements per vector on the innermost parallel dimension "
                     "(posenc-tile-and-vectorize)"),
      llvm::cl::init(PosEncTileAndVectorizeOptions().vectorWidth)};
  PassOptions::Option<int64_t> blockElements{
      *this, "block-elements",
      llvm::cl::desc("Iterations per thread-level block "
                     "(posenc-tile-and-vectorize)"),
      llvm::cl::init(PosEncTileAndVectorizeOptions().blockElements)};
  PassOptions::Option<bool> openmp{
      *this, "openmp",
      llvm::cl::desc("Run the tiles of each kernel on OpenMP threads (the "
                     "thread count comes from OMP_NUM_THREADS at run time)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> workgroups{
      *this, "workgroups",
      llvm::cl::desc("Compile kernels that a host dispatches over its own "
                     "workgroups (IREE): functions with arguments marked "
                     "posenc.workgroup_id, posenc.workgroup_count and "
                     "posenc.scratch run their parallel loop's iterations "
                     "as workgroups and keep their buffers in scratch "
                     "memory (posenc-forall-to-workgroups, "
                     "posenc-allocs-to-scratch); no OpenMP. Split decode "
                     "keys make a kernel of two phases (an argument marked "
                     "posenc.workgroup_phase; partial results in one "
                     "marked posenc.shared_scratch)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> approximateTrig{
      *this, "approximate-trig",
      llvm::cl::desc("Polynomial f32 sin/cos (posenc-approximate-trig) "
                     "instead of one libm call per lane"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> approximateExp{
      *this, "approximate-exp",
      llvm::cl::desc("Polynomial f32 exp (posenc-approximate-trig{exp}, the "
                     "attention softmax) instead of one libm call per lane"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> nontemporalStores{
      *this, "nontemporal-stores",
      llvm::cl::desc("Stream large write-only outputs with non-temporal "
                     "stores (posenc-nontemporal-stores)"),
      llvm::cl::init(true)};

  PassOptions::Option<int64_t> nontemporalMinBytes{
      *this, "nontemporal-min-bytes",
      llvm::cl::desc("Smallest output (bytes) that is streamed "
                     "(posenc-nontemporal-stores)"),
      llvm::cl::init(PosEncNontemporalStoresOptions().minBytes)};

  /// The options of the pipeline's posenc-tile-and-vectorize.
  PosEncTileAndVectorizeOptions getTileAndVectorizeOptions() const {
    PosEncTileAndVectorizeOptions options;
    options.vectorWidth = vectorWidth;
    options.blockElements = blockElements;
    return options;
  }

  /// The options of the pipeline's posenc-nontemporal-stores.
  PosEncNontemporalStoresOptions getNontemporalStoresOptions() const {
    PosEncNontemporalStoresOptions options;
    options.minBytes = nontemporalMinBytes;
    return options;
  }
};

/// Appends posenc-cpu-pipeline to `pm` (anchored on builtin.module):
/// inline; posenc -> linalg on tensors (buildPosEncToLinalgPipeline); blocks
/// with fused producers, register tiles, vectors; polynomial sin/cos;
/// destinations expanded to the kernels' shapes; one-shot bufferization in
/// place, temporaries freed; blocks on OpenMP threads (or loops); streaming
/// stores; everything to the LLVM dialect. Upstream passes are constructed
/// directly, so hosts need not register them.
void buildCPUPipeline(OpPassManager &pm, const CPUPipelineOptions &options);

/// Registers `posenc-cpu-pipeline`.
void registerCPUPipeline();

} // namespace posenc
} // namespace mlir

#endif // POSENC_PIPELINES_CPUPIPELINE_H
