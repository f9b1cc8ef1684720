//===- LinalgPipeline.h - posenc to linalg on tensors -----------*- C++ -*-===//
//
// The embedding entry point for compilers with their own codegen: lower every
// posenc op to linalg/tensor/arith/math on tensors and stop there, so the
// host's tiling, fusion, bufferization and code generation take over.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_PIPELINES_LINALGPIPELINE_H
#define POSENC_PIPELINES_LINALGPIPELINE_H

#include "posenc/Conversion/Passes.h"

#include "mlir/Pass/PassOptions.h"

#include <string>

namespace mlir {
class OpPassManager;
namespace posenc {

/// Options of `buildPosEncToLinalgPipeline`, of the textual pipeline
/// `posenc-to-linalg-pipeline{anchor=... fold-frequencies=... cleanup=...}`
/// and (mirrored field by field) of the C API.
struct PosEncLoweringOptions
    : public PassPipelineOptions<PosEncLoweringOptions> {
  /// The operation the passes are nested on, by name. Empty: every
  /// isolated-from-above op directly under the pass manager's op (for hosts
  /// whose functions are not `func.func`, e.g. IREE's `util.func`).
  PassOptions::Option<std::string> anchor{
      *this, "anchor",
      llvm::cl::desc("Op the passes nest on ('' = every isolated-from-above "
                     "child op)"),
      llvm::cl::init("func.func")};
  /// Fold static frequency tables to constants before lowering
  /// (`posenc-fold-frequencies`).
  PassOptions::Option<bool> foldFrequencies{
      *this, "fold-frequencies",
      llvm::cl::desc("Fold static frequency tables before lowering"),
      llvm::cl::init(true)};
  /// Lower posenc.attention to the flash-attention loop nest
  /// (`posenc-tile-attention`) instead of the reference decomposition. Off
  /// for hosts by default: the loop nest is a top-level scf.forall, on which
  /// iree-compile 3.13 crashes (docs/integration.md); posenc-cpu-pipeline
  /// turns it on.
  PassOptions::Option<bool> flashAttention{
      *this, "flash-attention",
      llvm::cl::desc("Lower attention to a tiled online-softmax loop nest "
                     "(posenc-tile-attention); false: the reference "
                     "decomposition with an Sq x Sk score matrix"),
      llvm::cl::init(false)};
  PassOptions::Option<int64_t> attentionQueryTile{
      *this, "attention-query-tile",
      llvm::cl::desc("Query rows per block (posenc-tile-attention)"),
      llvm::cl::init(PosEncTileAttentionOptions().queryTile)};
  PassOptions::Option<int64_t> attentionKeyTile{
      *this, "attention-key-tile",
      llvm::cl::desc("Keys per online-softmax step (posenc-tile-attention)"),
      llvm::cl::init(PosEncTileAttentionOptions().keyTile)};
  PassOptions::Option<bool> attentionPrerotateKeys{
      *this, "attention-prerotate-keys",
      llvm::cl::desc("Rotate K once before the attention loop nest instead "
                     "of per key tile (posenc-tile-attention)"),
      llvm::cl::init(false)};
  /// Lanes of the dot-product key loop of few-row (decode) attention blocks,
  /// written in vector ops; 0 (hosts): linalg tile ops like other blocks.
  /// posenc-cpu-pipeline passes its attention-vector-width.
  PassOptions::Option<int64_t> attentionVectorWidth{
      *this, "attention-vector-width",
      llvm::cl::desc("Lanes of the dot-product key loop of few-row "
                     "attention blocks (posenc-tile-attention vector-width); "
                     "0: linalg tile ops"),
      llvm::cl::init(PosEncTileAttentionOptions().vectorWidth)};
  /// Run `canonicalize` and `cse` after the lowering.
  PassOptions::Option<bool> cleanup{
      *this, "cleanup",
      llvm::cl::desc("Run canonicalize and cse after lowering"),
      llvm::cl::init(true)};
};

/// Appends posenc -> linalg on tensors to `pm`, which must be anchored on the
/// op that holds the functions (`builtin.module` for most hosts):
///   anchor(posenc-fold-frequencies, posenc-tile-attention,
///          convert-posenc-to-linalg, canonicalize, cse)
/// The result holds no posenc ops; numerics do not depend on the options.
void buildPosEncToLinalgPipeline(OpPassManager &pm,
                                 const PosEncLoweringOptions &options);
void buildPosEncToLinalgPipeline(OpPassManager &pm);

/// Registers the textual pipeline `posenc-to-linalg-pipeline`.
void registerPosEncToLinalgPipeline();

} // namespace posenc
} // namespace mlir

#endif // POSENC_PIPELINES_LINALGPIPELINE_H
