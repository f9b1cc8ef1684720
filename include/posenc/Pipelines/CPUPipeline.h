//===- CPUPipeline.h - posenc to vectorized, threaded LLVM ------*- C++ -*-===//

#ifndef POSENC_PIPELINES_CPUPIPELINE_H
#define POSENC_PIPELINES_CPUPIPELINE_H

#include "mlir/Pass/PassOptions.h"

#include <string>

namespace mlir {
class OpPassManager;
namespace posenc {

/// Options of `posenc-cpu-pipeline`.
struct CPUPipelineOptions : public PassPipelineOptions<CPUPipelineOptions> {
  PassOptions::Option<int64_t> vectorWidth{
      *this, "vector-width",
      llvm::cl::desc("Elements per vector on the innermost parallel dimension "
                     "(16 x f32 = AVX-512)"),
      llvm::cl::init(16)};
  PassOptions::Option<int64_t> blockElements{
      *this, "block-elements",
      llvm::cl::desc("Iterations per thread-level block "
                     "(posenc-tile-and-vectorize)"),
      llvm::cl::init(262144)};
  PassOptions::Option<bool> openmp{
      *this, "openmp",
      llvm::cl::desc("Run the tiles of each kernel on OpenMP threads (the "
                     "thread count comes from OMP_NUM_THREADS at run time)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> approximateTrig{
      *this, "approximate-trig",
      llvm::cl::desc("Polynomial f32 sin/cos (posenc-approximate-trig) "
                     "instead of one libm call per lane"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> nontemporalStores{
      *this, "nontemporal-stores",
      llvm::cl::desc("Stream large write-only outputs with non-temporal "
                     "stores (posenc-nontemporal-stores)"),
      llvm::cl::init(true)};
};

/// The textual pass pipeline (on builtin.module) that lowers posenc and
/// linalg-on-tensors to the LLVM dialect: fold frequencies, lower posenc to
/// linalg, tile and vectorize, one-shot bufferize, deallocate, map scf.forall
/// to OpenMP, lower vectors and everything else to LLVM.
std::string getCPUPipelineText(const CPUPipelineOptions &options);

/// Adds `posenc-cpu-pipeline` to `pm` (anchored on builtin.module).
void buildCPUPipeline(OpPassManager &pm, const CPUPipelineOptions &options);

/// Registers `posenc-cpu-pipeline`.
void registerCPUPipeline();

} // namespace posenc
} // namespace mlir

#endif // POSENC_PIPELINES_CPUPIPELINE_H
