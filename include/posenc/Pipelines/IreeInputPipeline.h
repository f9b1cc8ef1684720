//===- IreeInputPipeline.h - posenc-iree-input-pipeline ---------*- C++ -*-===//
//
// Raising on IREE's input IR: its util.func bodies raised and fused like
// func.func ones, posenc lowered to linalg, the functions restored, so that
// iree-compile takes the module back.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_PIPELINES_IREEINPUTPIPELINE_H
#define POSENC_PIPELINES_IREEINPUTPIPELINE_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
namespace posenc {

/// Options of `posenc-iree-input-pipeline{...}`.
struct IreeInputPipelineOptions
    : public PassPipelineOptions<IreeInputPipelineOptions> {
  PassOptions::Option<bool> zeroPaddingRows{
      *this, "zero-padding-rows",
      llvm::cl::desc("Raise padding masks whose fully masked rows are not "
                     "guarded (IREE's attention gives NaN there, "
                     "posenc.attention 0)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> printStats{
      *this, "print-stats",
      llvm::cl::desc("Print what each raising pass raised to stderr"),
      llvm::cl::init(false)};
};

/// Appends posenc-wrap-foreign-functions, func.func(posenc-raise-pipeline),
/// posenc-to-linalg-pipeline and posenc-unwrap-foreign-functions.
void buildIreeInputPipeline(OpPassManager &pm,
                            const IreeInputPipelineOptions &options);

/// Registers the textual pipeline `posenc-iree-input-pipeline`.
void registerIreeInputPipeline();

} // namespace posenc
} // namespace mlir

#endif // POSENC_PIPELINES_IREEINPUTPIPELINE_H
