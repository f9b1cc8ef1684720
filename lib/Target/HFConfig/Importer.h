//===- Importer.h - Stages of the Hugging Face config importer --*- C++ -*-===//
//
// The importer runs in stages that share one AttentionConfig:
//
//   parseConfigJson (ConfigReader.cpp)  text -> JSON object
//   readModelFamily (ModelFamilies.cpp) heads, head dims, ALiBi, per-family
//                                       defaults; RoPE families call
//   readRopeParameters (RopeParameters.cpp)  the RoPE dict, base, rotary dim,
//                                       layout; it calls
//   readRopeScaling (RopeSchemes.cpp)   one reader per rope_type (a table)
//   emitAttentionModule (EmitAttention.cpp)  AttentionConfig -> IR
//
// Every stage validates the keys it reads before building any attribute and
// reports the first problem as one error (see ConfigReader.h).
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_LIB_TARGET_HFCONFIG_IMPORTER_H
#define POSENC_LIB_TARGET_HFCONFIG_IMPORTER_H

#include "ConfigReader.h"

#include "posenc/IR/PosEncAttrs.h"
#include "posenc/Target/HFConfig.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace mlir::posenc::hf {

/// One kind of attention layer: what its layers compute beyond the
/// model-wide parts of AttentionConfig (LayerKinds.cpp).
struct LayerKind {
  /// transformers' layer type ("full_attention", "sliding_attention",
  /// "chunked_attention"), "_nope" appended for layers without RoPE when
  /// that alone tells two kinds apart; the function is named after it.
  std::string name;
  /// posenc.attention's window `left` (HF's causal `sliding_window` - 1).
  std::optional<int64_t> windowLeft;
  std::optional<int64_t> chunk;
  bool rope = true;
  /// The kind's own RoPE base with default frequencies (Gemma 3's local
  /// layers: `rope_local_base_freq`); otherwise the model's RoPE.
  std::optional<double> localBase;
  /// Llama 4's temperature tuning: floor_scale, attn_scale.
  std::optional<std::pair<double, double>> temperature;
  /// The layers (0-based) of this kind.
  SmallVector<int64_t> layers;

  bool sameAttention(const LayerKind &other) const {
    return windowLeft == other.windowLeft && chunk == other.chunk &&
           rope == other.rope && localBase == other.localBase &&
           temperature == other.temperature;
  }
};

/// What the importer extracts from a config.
struct AttentionConfig {
  std::string modelType;
  std::string architecture;
  int64_t numHeads = 0;
  int64_t numKvHeads = 0;
  /// Head dim of q and k, and of v (they differ for DeepSeek MLA).
  int64_t qkHeadDim = 0;
  int64_t vHeadDim = 0;
  Type elementType;
  /// The keys the head dim came from, for diagnostics.
  std::string headDimSource;
  /// Softmax scale when it is not 1/sqrt(qkHeadDim).
  std::optional<double> scale;

  // RoPE (rotaryDim > 0).
  int64_t rotaryDim = 0;
  /// First channel of the rotary part inside a q/k head: 0, except for
  /// DeepSeek MLA where the rope sub-head follows the nope part.
  int64_t rotaryOffset = 0;
  RotaryLayout layout = RotaryLayout::half_split;
  double base = 10000.0;
  std::string ropeType = "default";
  RopeScalingAttrInterface scaling;
  /// The scaling factor `s` the scheme ended up with (DeepSeek's softmax
  /// scale depends on it).
  std::optional<double> scalingFactor;

  // ALiBi.
  AlibiSlopesAttr alibi;

  /// Learned attention sinks, one logit per query head (gpt-oss): the
  /// emitted function takes them as a `[Hq]` f32 argument after positions.
  bool sinks = false;

  /// Gemma 2's `attn_logit_softcapping`, on every layer.
  std::optional<double> softcap;
  /// The kinds of attention layer, in order of their first layer; one
  /// function each. Empty: every layer plain (one function, @attention).
  SmallVector<LayerKind> kinds;
  std::optional<int64_t> numLayers;
  /// Llama 4's `use_qk_norm`: the RoPE layers' q and k are L2-normalized
  /// with this epsilon (`rms_norm_eps`).
  std::optional<double> qkNormEps;
};

/// What a model family fixes before its RoPE dict is read.
struct RopeDefaults {
  /// The family set `rotaryDim` from its own keys (DeepSeek MLA:
  /// `qk_rope_head_dim`); otherwise `partial_rotary_factor` gives it.
  bool rotaryDimFromHeads = false;
  /// Layout when `rope_interleave` is absent.
  RotaryLayout layout = RotaryLayout::half_split;
  /// YaRN's `truncate` when absent (gpt-oss trains without truncation).
  bool yarnTruncate = true;
};

/// State shared by the stages: where diagnostics go, the options, the
/// config's top-level object.
struct ImportContext {
  ImportContext(MLIRContext *ctx, const HFImportOptions &opts, Location loc,
                const llvm::json::Object &root)
      : ctx(ctx), opts(opts), loc(loc), r(loc), top{&root, ""} {}

  /// emitError callback for attribute `getChecked` (a backstop: the values
  /// were validated already): `invalid '<section>': ...`.
  auto attrError(const Section &section) {
    return [loc = loc, path = section.path]() {
      return emitError(loc) << "invalid '" << path << "': ";
    };
  }

  MLIRContext *ctx;
  const HFImportOptions &opts;
  Location loc;
  ConfigReader r;
  Section top;
  /// The section `top` points to when family defaults were filled in.
  llvm::json::Object withDefaults;
};

/// Fills in the attention keys that transformers' config class of
/// `cfg.modelType` defaults when a config leaves them out (Gemma 2's
/// soft-cap of 50, Mistral's 4096-key window, Gemma 3's and Llama 4's heads
/// and RoPE base, ...): a config that omits them means those values.
void applyFamilyDefaults(ImportContext &ic, const AttentionConfig &cfg);

/// Reads `model_type`, `architectures` and the element type into `cfg`.
LogicalResult readMetadata(ImportContext &ic, AttentionConfig &cfg);

/// Reads the per-layer attention of the config into `cfg.kinds` and the
/// model-wide soft-cap and query scale (LayerKinds.cpp): sliding windows
/// (`sliding_window`, `layer_types`, `sliding_window_pattern`,
/// `use_sliding_window` + `max_window_layers`), Gemma 3's local RoPE base,
/// `attn_logit_softcapping`, `query_pre_attn_scalar`, Llama 4's chunks,
/// NoPE layers and temperature tuning, with transformers' per-family
/// defaults. A key the importer does not implement for the config's family
/// is rejected by name, never dropped.
LogicalResult readLayerKinds(ImportContext &ic, AttentionConfig &cfg);

/// Reads heads, head dims and the positional encoding of `cfg.modelType`'s
/// family (RoPE through readRopeParameters, or ALiBi).
LogicalResult readModelFamily(ImportContext &ic, AttentionConfig &cfg);

/// Reads the RoPE dict (`rope_scaling` / `rope_parameters`): type, base,
/// rotary dim (unless the family fixed it), layout and scaling scheme, and
/// checks that the frequency table is finite. Returns the dict it read.
FailureOr<Section> readRopeParameters(ImportContext &ic,
                                      const RopeDefaults &defaults,
                                      AttentionConfig &cfg);

/// The canonical name of a rope type (`su` is `longrope`); unknown names are
/// returned unchanged (readRopeScaling rejects them).
StringRef canonicalRopeType(StringRef ropeType);

/// Reads the scaling scheme of `cfg.ropeType` from the RoPE dict `rope`
/// (whose type key is `typeKey`) into `cfg.scaling` and `cfg.scalingFactor`.
LogicalResult readRopeScaling(ImportContext &ic, const Section &rope,
                              StringRef typeKey, const RopeDefaults &defaults,
                              AttentionConfig &cfg);

/// Builds the module: `posenc.hf_config` summary and `func.func @attention`.
OwningOpRef<ModuleOp> emitAttentionModule(MLIRContext *ctx, Location loc,
                                          const HFImportOptions &opts,
                                          const AttentionConfig &cfg);

} // namespace mlir::posenc::hf

#endif // POSENC_LIB_TARGET_HFCONFIG_IMPORTER_H
