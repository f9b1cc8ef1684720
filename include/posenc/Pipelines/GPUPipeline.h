//===- GPUPipeline.h - posenc to PTX through NVVM ---------------*- C++ -*-===//
//
// `posenc-gpu-pipeline`: the elementwise posenc ops to one NVVM kernel each,
// serialized to PTX (or cubin) by gpu-module-to-binary. The kernels come
// from the same linalg lowering as the CPU's; only the tiling (blocks x
// threads) and the target steps differ. Before outlining, the kernels
// (gpu.launch bodies) also run on the CPU (emulate-on-host), which is how
// machines without a GPU check their numerics.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_PIPELINES_GPUPIPELINE_H
#define POSENC_PIPELINES_GPUPIPELINE_H

#include "posenc/GPU/Passes.h"

#include "mlir/Pass/PassOptions.h"

#include <string>

namespace mlir {
class OpPassManager;
namespace posenc {

/// Options of `posenc-gpu-pipeline`. Defaults of options that belong to a
/// pass come from that pass's generated options (Passes.td).
struct GPUPipelineOptions : public PassPipelineOptions<GPUPipelineOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("Target GPU (sm_80, sm_90; passed to NVVM as is)"),
      llvm::cl::init("sm_80")};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX features, e.g. the PTX ISA version +ptx80 (empty: "
                     "the chip's minimum, 7.0 for sm_80, 7.8 for sm_90)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("What gpu-module-to-binary emits: isa (PTX text), bin "
                     "(cubin, runs ptxas) or fatbin"),
      llvm::cl::init("isa")};
  PassOptions::Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("CUDA toolkit root, for libdevice (and ptxas with "
                     "format=bin); default: $CUDA_ROOT, $CUDA_HOME, "
                     "$CUDA_PATH, else /usr/local/cuda if it has libdevice"),
      llvm::cl::init("")};
  PassOptions::Option<int> optLevel{
      *this, "opt-level",
      llvm::cl::desc("LLVM optimization level of the kernels"),
      llvm::cl::init(3)};
  PassOptions::Option<int64_t> threads{
      *this, "threads",
      llvm::cl::desc("Threads per block (posenc-tile-to-gpu)"),
      llvm::cl::init(PosEncTileToGPUOptions().threads)};
  PassOptions::Option<int64_t> threadTile{
      *this, "thread-tile",
      llvm::cl::desc("Consecutive innermost elements per thread "
                     "(posenc-tile-to-gpu)"),
      llvm::cl::init(PosEncTileToGPUOptions().threadTile)};
  PassOptions::Option<int64_t> attentionThreads{
      *this, "attention-threads",
      llvm::cl::desc("Threads per block of attention kernels aimed at "
                     "(posenc-attention-to-gpu)"),
      llvm::cl::init(PosEncAttentionToGPUOptions().threads)};
  PassOptions::Option<bool> tensorCores{
      *this, "tensor-cores",
      llvm::cl::desc("f16/bf16 attention on tensor cores (nvgpu.mma.sync "
                     "m16n8k16 + ldmatrix; emulated per lane with "
                     "emulate-on-host)"),
      llvm::cl::init(PosEncAttentionToGPUOptions().tensorCores)};
  PassOptions::Option<bool> approximateTrig{
      *this, "approximate-trig",
      llvm::cl::desc("Polynomial f32 sin/cos of the reduced angles "
                     "(posenc-approximate-trig), as on the CPU, instead of "
                     "libdevice's"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> stopBeforeOutlining{
      *this, "stop-before-outlining",
      llvm::cl::desc("Stop at the bufferized scf.forall nests mapped to "
                     "blocks and threads (before gpu.launch)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> emulateOnHost{
      *this, "emulate-on-host",
      llvm::cl::desc("Instead of outlining, run each gpu.launch as loops "
                     "over its blocks and threads and lower everything to "
                     "LLVM for the host CPU: the kernels' tiling, thread "
                     "mapping and arithmetic on machines without a GPU"),
      llvm::cl::init(false)};

  /// The options of the pipeline's posenc-attention-to-gpu.
  PosEncAttentionToGPUOptions getAttentionToGPUOptions() const {
    PosEncAttentionToGPUOptions options;
    options.threads = attentionThreads;
    options.tensorCores = tensorCores;
    return options;
  }

  /// The options of the pipeline's posenc-verify-gpu-support: those of its
  /// posenc-attention-to-gpu, whose kernels it checks.
  PosEncVerifyGPUSupportOptions getVerifyGPUSupportOptions() const {
    PosEncAttentionToGPUOptions attention = getAttentionToGPUOptions();
    PosEncVerifyGPUSupportOptions options;
    options.threads = attention.threads;
    options.sharedMemory = attention.sharedMemory;
    options.tensorCores = attention.tensorCores;
    return options;
  }

  /// The options of the pipeline's posenc-tile-to-gpu.
  PosEncTileToGPUOptions getTileToGPUOptions() const {
    PosEncTileToGPUOptions options;
    options.threads = threads;
    options.threadTile = threadTile;
    return options;
  }
};

/// Appends posenc-gpu-pipeline to `pm` (anchored on builtin.module):
/// inline; reject posenc.attention (posenc-verify-gpu-support); posenc ->
/// linalg on tensors (buildPosEncToLinalgPipeline); one scf.forall nest
/// mapped to blocks x threads per kernel (posenc-tile-to-gpu); polynomial
/// sin/cos; one-shot bufferization in place (stop-before-outlining stops
/// here); gpu.launch (posenc-map-forall-to-gpu). Then on the host
/// (emulate-on-host) the launches become loops lowered to LLVM; otherwise
/// outlining, NVVM and gpu-module-to-binary (the steps of upstream's
/// gpu-lower-to-nvvm-pipeline, with a toolkit path for libdevice). Hosts
/// that serialize must register the LLVM IR translations of the GPU
/// dialects (registerAllGPUToLLVMIRTranslations, as mlir-opt does).
void buildGPUPipeline(OpPassManager &pm, const GPUPipelineOptions &options);

/// Registers `posenc-gpu-pipeline`.
void registerGPUPipeline();

} // namespace posenc
} // namespace mlir

#endif // POSENC_PIPELINES_GPUPIPELINE_H
