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
#include "posenc/Pipelines/AttentionOptions.h"
#include "posenc/Transforms/Passes.h"

#include "mlir/Pass/PassOptions.h"

#include <optional>
#include <string>

namespace mlir {
class OpPassManager;
namespace posenc {

/// Options of `buildPosEncToLinalgPipeline`, of the textual pipeline
/// `posenc-to-linalg-pipeline{anchor=... fold-frequencies=... cleanup=...}`
/// and (mirrored field by field) of the C API.
struct PosEncLoweringOptions
    : public AttentionPipelineOptions<PosEncLoweringOptions> {
  /// Defaults of the attention options (AttentionOptions.h).
  /// `flash-attention` is on: through IREE 3.13 the nest (as scf.for, below)
  /// ran prefill 32/8 heads at S = 2048 in 0.56-0.62x the time of the
  /// reference decomposition, with no score matrix (docs/integration.md);
  /// small attentions keep the reference form (attention-min-scores). Tiles
  /// of 512 x 512, larger than posenc-tile-attention's 64 x 64 (which
  /// posenc-cpu-pipeline passes): through IREE each step of the key loop is
  /// a handful of dispatches, and 256-512 tiles were 2-2.4x faster than 64
  /// at S = 2048. The dot-product key loop (vector ops) is off for hosts.
  static PosEncTileAttentionOptions attentionDefaults() {
    PosEncTileAttentionOptions options;
    options.queryTile = 512;
    options.keyTile = 512;
    options.minScores = int64_t{1} << 22;
    return options;
  }

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
  /// With flash-attention, rewrite the nest's scf.forall into nested
  /// scf.for on tensors (`posenc-forall-to-for`): iree-compile 3.13 crashes
  /// on a function-level scf.forall and runs scf.for on its host side, each
  /// op of the body a dispatch. posenc-cpu-pipeline keeps the forall (its
  /// OpenMP threads).
  PassOptions::Option<bool> attentionForallToFor{
      *this, "attention-forall-to-for",
      llvm::cl::desc("Rewrite the flash-attention nest's scf.forall into "
                     "nested scf.for (posenc-forall-to-for), for hosts "
                     "without scf.forall at function level (IREE)"),
      llvm::cl::init(true)};
  /// With flash-attention, attention ops whose score matrix
  /// (B x Hq x Sq x Sk) has fewer elements, or a dynamic extent, keep the
  /// reference decomposition (`posenc-tile-attention{min-scores}`): through
  /// IREE 3.13 on 2 cores the fused nest was slower below about 2^22 scores
  /// (e.g. decode at Sk = 32768 with 32 heads, 1.25x) and faster above
  /// (prefill 32/8 heads at S = 512 and 2048, 1.5-3x), and IREE rejects
  /// its loop-carried tensors when they have a dynamic shape;
  /// docs/integration.md. 0: fuse every op.
  PassOptions::Option<int64_t> attentionMinScores{
      *this, "attention-min-scores",
      llvm::cl::desc("With flash-attention, keep the reference decomposition "
                     "for attention ops with fewer scores (B x Hq x Sq x Sk) "
                     "than this, or a dynamic extent (posenc-tile-attention "
                     "min-scores); 0: fuse every op"),
      llvm::cl::init(attentionDefaults().minScores)};
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

/// The passes posenc-to-linalg-pipeline nests on its anchor, for pipelines
/// that build them with their own options (posenc-cpu-pipeline).
struct LinalgLoweringSteps {
  bool foldFrequencies = true;
  /// posenc-tile-attention's options; none: the reference lowering.
  std::optional<PosEncTileAttentionOptions> attention;
  bool attentionForallToFor = false;
  bool cleanup = true;
};
void addPosEncToLinalgSteps(OpPassManager &nested,
                            const LinalgLoweringSteps &steps);

/// Registers the textual pipeline `posenc-to-linalg-pipeline`.
void registerPosEncToLinalgPipeline();

} // namespace posenc
} // namespace mlir

#endif // POSENC_PIPELINES_LINALGPIPELINE_H
