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
};

/// Reads `model_type`, `architectures` and the element type into `cfg`.
LogicalResult readMetadata(ImportContext &ic, AttentionConfig &cfg);

/// Rejects, naming the key, a config whose attention uses what the importer
/// does not emit (AttentionKeys.cpp): sliding windows, per-layer kinds,
/// soft-capping, chunked attention, NoPE layers, query temperature, a query
/// scale of its own.
LogicalResult rejectUnsupportedAttentionKeys(ImportContext &ic);

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
