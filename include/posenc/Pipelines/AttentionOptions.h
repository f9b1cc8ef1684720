//===- AttentionOptions.h - attention options of the pipelines --*- C++ -*-===//
//
// The posenc-tile-attention options a lowering pipeline exposes
// (`flash-attention`, `attention-query-tile`, ...), declared once for every
// pipeline and projected once to the pass's options: an option added to
// posenc-tile-attention is added here, not in each pipeline.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_PIPELINES_ATTENTIONOPTIONS_H
#define POSENC_PIPELINES_ATTENTIONOPTIONS_H

#include "posenc/Transforms/Passes.h"

#include "mlir/Pass/PassOptions.h"

namespace mlir {
namespace posenc {

/// Pipeline options (CRTP over PassPipelineOptions) with the attention
/// options. `Derived::attentionDefaults()` gives the pipeline's defaults of
/// the tile sizes and the vector width (hosts with their own codegen and
/// posenc-cpu-pipeline want different ones).
template <typename Derived>
struct AttentionPipelineOptions : public PassPipelineOptions<Derived> {
  template <typename T>
  using Option = typename PassPipelineOptions<Derived>::template Option<T>;

  Option<bool> flashAttention{
      *this, "flash-attention",
      llvm::cl::desc("Lower attention to a tiled online-softmax loop nest "
                     "(posenc-tile-attention); false: the reference "
                     "decomposition with an Sq x Sk score matrix"),
      llvm::cl::init(true)};
  Option<int64_t> attentionQueryTile{
      *this, "attention-query-tile",
      llvm::cl::desc("Query rows per block (posenc-tile-attention)"),
      llvm::cl::init(Derived::attentionDefaults().queryTile)};
  Option<int64_t> attentionKeyTile{
      *this, "attention-key-tile",
      llvm::cl::desc("Keys per online-softmax step (posenc-tile-attention)"),
      llvm::cl::init(Derived::attentionDefaults().keyTile)};
  Option<bool> attentionPrerotateKeys{
      *this, "attention-prerotate-keys",
      llvm::cl::desc("Rotate K once before the attention loop nest instead "
                     "of per key tile (posenc-tile-attention)"),
      llvm::cl::init(Derived::attentionDefaults().prerotateKeys)};
  Option<int64_t> attentionVectorWidth{
      *this, "attention-vector-width",
      llvm::cl::desc("f32 lanes of the host's vector registers, for the "
                     "dot-product key loop of few-row (decode) attention "
                     "blocks (posenc-tile-attention vector-width); 0: linalg "
                     "tile ops"),
      llvm::cl::init(Derived::attentionDefaults().vectorWidth)};
  Option<bool> attentionBF16DotProducts{
      *this, "attention-bf16-dot-products",
      llvm::cl::desc("bf16 decode scores as AVX-512 BF16 dot products "
                     "(posenc-tile-attention bf16-dot-products, lowered with "
                     "x86vector); the code needs a CPU with avx512bf16"),
      llvm::cl::init(Derived::attentionDefaults().bf16DotProducts)};

  /// The options of the pipeline's posenc-tile-attention (the pass's
  /// defaults for those the pipeline does not expose).
  PosEncTileAttentionOptions getTileAttentionOptions() const {
    PosEncTileAttentionOptions options = Derived::attentionDefaults();
    options.queryTile = attentionQueryTile;
    options.keyTile = attentionKeyTile;
    options.prerotateKeys = attentionPrerotateKeys;
    options.vectorWidth = attentionVectorWidth;
    options.bf16DotProducts = attentionBF16DotProducts;
    return options;
  }
};

} // namespace posenc
} // namespace mlir

#endif // POSENC_PIPELINES_ATTENTIONOPTIONS_H
