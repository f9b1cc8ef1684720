//===- RaisePipeline.h - raise model IR into posenc -------------*- C++ -*-===//
//
// The entry point for model IR: linalg-on-tensors as importers emit it
// (torch-mlir, ONNX) in, posenc ops out, fused into posenc.attention where
// the attention is recognized; the rest of the program is left alone.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_PIPELINES_RAISEPIPELINE_H
#define POSENC_PIPELINES_RAISEPIPELINE_H

#include "mlir/Pass/PassOptions.h"

#include <string>

namespace mlir {
class OpPassManager;
namespace posenc {

/// Options of `buildRaisePipeline` and of `posenc-raise-pipeline{...}`.
struct RaisePipelineOptions : public PassPipelineOptions<RaisePipelineOptions> {
  PassOptions::Option<std::string> anchor{
      *this, "anchor",
      llvm::cl::desc("Op the passes nest on ('' = every isolated-from-above "
                     "child op)"),
      llvm::cl::init("func.func")};
  PassOptions::Option<bool> fuse{
      *this, "fuse",
      llvm::cl::desc("Fuse raised rotaries into the raised attention "
                     "(posenc-fuse-attention)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> zeroPaddingRows{
      *this, "zero-padding-rows",
      llvm::cl::desc("posenc-raise-attention's zero-padding-rows: raise "
                     "padding masks without SDPA's masked-row guard (rows of "
                     "padding queries give 0, not eager PyTorch's average "
                     "of V)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> printStats{
      *this, "print-stats",
      llvm::cl::desc("Print what each raising pass raised to stderr"),
      llvm::cl::init(false)};
};

/// Appends, nested on the anchor: cse, posenc-raise-rotary,
/// posenc-raise-alibi, posenc-raise-absolute, cse, posenc-raise-attention,
/// posenc-fuse-attention, canonicalize, cse.
void buildRaisePipeline(OpPassManager &pm, const RaisePipelineOptions &options);

/// Registers the textual pipeline `posenc-raise-pipeline`.
void registerRaisePipeline();

} // namespace posenc
} // namespace mlir

#endif // POSENC_PIPELINES_RAISEPIPELINE_H
