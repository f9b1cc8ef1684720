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
#include "posenc/Transforms/Passes.h"

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
  /// (`posenc-tile-attention`) instead of the reference decomposition (an
  /// Sq x Sk score matrix). On by default: through IREE 3.13 the nest (as
  /// scf.for, below) ran prefill 32/8 heads at S = 2048 in 0.56-0.62x the
  /// time of the reference decomposition, with no score matrix
  /// (docs/integration.md); small attentions keep the reference form
  /// (attention-min-scores).
  PassOptions::Option<bool> flashAttention{
      *this, "flash-attention",
      llvm::cl::desc("Lower attention to a tiled online-softmax loop nest "
                     "(posenc-tile-attention); false: the reference "
                     "decomposition with an Sq x Sk score matrix"),
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
      llvm::cl::init(int64_t{1} << 22)};
  /// Tiles of the nest. The host defaults (512 x 512) are larger than
  /// posenc-tile-attention's (64 x 64, which posenc-cpu-pipeline passes):
  /// through IREE each step of the key loop is a handful of dispatches, and
  /// 256-512 tiles were 2-2.4x faster than 64 at S = 2048.
  PassOptions::Option<int64_t> attentionQueryTile{
      *this, "attention-query-tile",
      llvm::cl::desc("Query rows per block (posenc-tile-attention)"),
      llvm::cl::init(512)};
  PassOptions::Option<int64_t> attentionKeyTile{
      *this, "attention-key-tile",
      llvm::cl::desc("Keys per online-softmax step (posenc-tile-attention)"),
      llvm::cl::init(512)};
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
  /// bf16 scores of the dot-product key loop as AVX-512 BF16 dot products
  /// (x86vector.avx512.dot); posenc-cpu-pipeline passes its
  /// attention-bf16-dot-products.
  PassOptions::Option<bool> attentionBF16DotProducts{
      *this, "attention-bf16-dot-products",
      llvm::cl::desc("bf16 scores of the dot-product key loop as AVX-512 "
                     "BF16 dot products (posenc-tile-attention "
                     "bf16-dot-products; needs avx512bf16)"),
      llvm::cl::init(false)};
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
