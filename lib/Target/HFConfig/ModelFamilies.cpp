//===- ModelFamilies.cpp - How each model family names its attention ------===//
//
// Heads, head dims and the positional encoding of a config, per model
// family: the Llama-style keys that most of transformers uses (llama, qwen2,
// phi3, mistral, gemma, ...), gpt-oss (YaRN untruncated), DeepSeek-V3
// (multi-head latent attention), and the ALiBi families BLOOM and MPT. A
// table keyed by `model_type` picks the reader; every other model type is
// read as Llama-style.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "llvm/ADT/STLExtras.h"

#include <cmath>

using namespace mlir;
using namespace mlir::posenc;
using namespace mlir::posenc::hf;

//===----------------------------------------------------------------------===//
// Heads
//===----------------------------------------------------------------------===//

static LogicalResult checkGqa(ImportContext &ic, const AttentionConfig &cfg,
                              StringRef headsKey, StringRef kvKey) {
  if (cfg.numHeads % cfg.numKvHeads != 0)
    return ic.r.error(ic.top, headsKey)
           << "(" << cfg.numHeads << ") must be a multiple of '" << kvKey
           << "' (" << cfg.numKvHeads << ")";
  return success();
}

/// The head dim from `hiddenKey` / `headsKey` (which must divide).
static FailureOr<int64_t>
readHeadDimFromHidden(ImportContext &ic, AttentionConfig &cfg,
                      StringRef headsKey, StringRef hiddenKey, bool llamaKeys) {
  ConfigReader &r = ic.r;
  std::optional<int64_t> hidden;
  if (failed(r.readInt(ic.top, hiddenKey, hidden)))
    return failure();
  if (!hidden)
    return r.missing(ic.top, hiddenKey)
           << (llamaKeys ? " (and 'head_dim' is not given)" : "");
  if (*hidden % cfg.numHeads != 0)
    return r.error(ic.top, hiddenKey)
           << "(" << *hidden << ") is not divisible by '" << headsKey << "' ("
           << cfg.numHeads << ")";
  cfg.headDimSource = ("'" + hiddenKey + "' / '" + headsKey + "'").str();
  return *hidden / cfg.numHeads;
}

/// Heads and head dim. With `llamaKeys`, also `num_key_value_heads` (default:
/// all heads) and `head_dim` (explicit null falls back, as transformers'
/// `getattr(config, "head_dim", None) or ...`); the head dim is otherwise
/// hidden / heads.
static LogicalResult readHeads(ImportContext &ic, AttentionConfig &cfg,
                               StringRef headsKey, StringRef hiddenKey,
                               bool llamaKeys) {
  ConfigReader &r = ic.r;
  std::optional<int64_t> heads, kvHeads, headDim;
  if (failed(r.readInt(ic.top, headsKey, heads)))
    return failure();
  if (!heads)
    return r.missing(ic.top, headsKey);
  cfg.numHeads = *heads;

  if (llamaKeys && (failed(r.readInt(ic.top, "num_key_value_heads", kvHeads)) ||
                    failed(r.readInt(ic.top, "head_dim", headDim))))
    return failure();
  cfg.numKvHeads = kvHeads.value_or(cfg.numHeads);
  if (failed(checkGqa(ic, cfg, headsKey, "num_key_value_heads")))
    return failure();

  if (headDim) {
    cfg.headDimSource = "'head_dim'";
  } else {
    FailureOr<int64_t> derived =
        readHeadDimFromHidden(ic, cfg, headsKey, hiddenKey, llamaKeys);
    if (failed(derived))
      return failure();
    headDim = *derived;
  }
  cfg.qkHeadDim = cfg.vHeadDim = *headDim;
  return success();
}

//===----------------------------------------------------------------------===//
// Llama-style RoPE families
//===----------------------------------------------------------------------===//

/// Keys of other naming schemes that the Llama-style reader would otherwise
/// silently ignore, producing a plausible but wrong function.
static LogicalResult rejectForeignKeys(ImportContext &ic) {
  ConfigReader &r = ic.r;
  for (auto [key, meaning] :
       {std::pair<StringRef, StringRef>{"rotary_pct", "GPT-NeoX rotary "
                                                      "fraction"},
        {"rotary_emb_base", "GPT-NeoX rotary base"},
        {"rotary_dim", "GPT-J rotary dimension"}})
    if (ic.top.has(key))
      return r.error(ic.top, key)
             << "(" << meaning
             << ") is not supported; use 'partial_rotary_factor' and "
                "'rope_theta'";
  std::optional<bool> alibi;
  if (failed(r.readBool(ic.top, "alibi", alibi)))
    return failure();
  if (alibi && *alibi)
    return r.error(ic.top, "alibi")
           << "= true is only supported for model_type \"bloom\" and \"mpt\"";
  if (ic.top.has("qk_rope_head_dim"))
    return r.error(ic.top, "qk_rope_head_dim")
           << "(multi-head latent attention) is only supported for "
              "model_type \"deepseek_v3\"";
  return success();
}

static LogicalResult readLlamaStyle(ImportContext &ic, AttentionConfig &cfg,
                                    const RopeDefaults &defaults) {
  if (failed(rejectForeignKeys(ic)) ||
      failed(readHeads(ic, cfg, "num_attention_heads", "hidden_size",
                       /*llamaKeys=*/true)))
    return failure();
  return readRopeParameters(ic, defaults, cfg);
}

static LogicalResult readLlama(ImportContext &ic, AttentionConfig &cfg) {
  return readLlamaStyle(ic, cfg, RopeDefaults());
}

/// gpt-oss trains YaRN with an un-truncated correction range, and every
/// layer has attention sinks (weights, so an argument of the function). Its
/// sliding-window layers are rejected with the keys (AttentionKeys.cpp).
static LogicalResult readGptOss(ImportContext &ic, AttentionConfig &cfg) {
  RopeDefaults defaults;
  defaults.yarnTruncate = false;
  cfg.sinks = true;
  return readLlamaStyle(ic, cfg, defaults);
}

//===----------------------------------------------------------------------===//
// DeepSeek-V3
//===----------------------------------------------------------------------===//

/// transformers' `get_mscale` (YaRN magnitude, DeepSeek softmax scale).
static double getMscale(double scale, double mscale) {
  return scale <= 1.0 ? 1.0 : 0.1 * mscale * std::log(scale) + 1.0;
}

/// Multi-head latent attention: q/k heads are `[nope (qk_nope_head_dim) |
/// rope (qk_rope_head_dim)]`, v heads `v_head_dim`, and only the rope part is
/// rotated.
static LogicalResult readDeepseekHeads(ImportContext &ic,
                                       AttentionConfig &cfg) {
  ConfigReader &r = ic.r;
  const Section &top = ic.top;
  std::optional<int64_t> heads, kvHeads, ropeDim, nopeDim, vDim;
  if (failed(r.readInt(top, "num_attention_heads", heads)) ||
      failed(r.readInt(top, "num_key_value_heads", kvHeads)) ||
      failed(r.readInt(top, "qk_rope_head_dim", ropeDim)) ||
      failed(r.readInt(top, "qk_nope_head_dim", nopeDim, /*min=*/0)) ||
      failed(r.readInt(top, "v_head_dim", vDim)))
    return failure();
  for (auto [key, value] : {std::pair<StringRef, std::optional<int64_t> &>{
                                "num_attention_heads", heads},
                            {"qk_rope_head_dim", ropeDim},
                            {"qk_nope_head_dim", nopeDim},
                            {"v_head_dim", vDim}})
    if (!value)
      return r.missing(top, key);
  if (*ropeDim % 2 != 0)
    return r.error(top, "qk_rope_head_dim")
           << "(" << *ropeDim
           << ") must be even: RoPE rotates pairs of channels";
  cfg.numHeads = *heads;
  cfg.numKvHeads = kvHeads.value_or(*heads);
  if (failed(checkGqa(ic, cfg, "num_attention_heads", "num_key_value_heads")))
    return failure();
  cfg.qkHeadDim = *nopeDim + *ropeDim;
  cfg.vHeadDim = *vDim;
  cfg.rotaryDim = *ropeDim;
  cfg.rotaryOffset = *nopeDim;
  return success();
}

/// Softmax scale: qk_head_dim^-0.5, times get_mscale(s, mscale_all_dim)^2
/// when a scaling scheme and a non-zero `mscale_all_dim` are given
/// (transformers `DeepseekV3Attention`).
static LogicalResult readDeepseekScale(ImportContext &ic, const Section &rope,
                                       AttentionConfig &cfg) {
  ConfigReader &r = ic.r;
  double scale = 1.0 / std::sqrt(static_cast<double>(cfg.qkHeadDim));
  if (cfg.ropeType != "default") {
    std::optional<double> mscaleAllDim;
    if (failed(r.readNumber(rope, "mscale_all_dim", NumberRule::Finite,
                            mscaleAllDim)))
      return failure();
    if (mscaleAllDim && *mscaleAllDim != 0.0) {
      if (!cfg.scalingFactor)
        return r.missing(rope, "factor")
               << " (the DeepSeek softmax scale needs it with "
                  "'mscale_all_dim')";
      double m = getMscale(*cfg.scalingFactor, *mscaleAllDim);
      scale *= m * m;
    }
  }
  if (!std::isfinite(scale) || scale <= 0.0)
    return r.error(rope, "mscale_all_dim")
           << "gives a softmax scale of " << formatNumber(scale)
           << "; it must be finite and > 0";
  cfg.scale = scale;
  return success();
}

static LogicalResult readDeepseekV3(ImportContext &ic, AttentionConfig &cfg) {
  if (failed(readDeepseekHeads(ic, cfg)))
    return failure();
  // The family fixes the rotary dim (qk_rope_head_dim); checkpoints keep
  // Meta's interleaved q/k layout (`rope_interleave` defaults to true).
  RopeDefaults defaults;
  defaults.rotaryDimFromHeads = true;
  defaults.layout = RotaryLayout::interleaved;
  FailureOr<Section> rope = readRopeParameters(ic, defaults, cfg);
  if (failed(rope))
    return failure();
  return readDeepseekScale(ic, *rope, cfg);
}

//===----------------------------------------------------------------------===//
// ALiBi families
//===----------------------------------------------------------------------===//

/// The key transformers reads of two aliases: `preferred` when the config
/// has it, else `other` when it has that, else `standard` (the name a
/// missing-key error gives). A family's `attribute_map` makes the standard
/// name win over the model's own (BloomConfig's `num_attention_heads` over
/// `n_head`); a few `__init__`s pop an old name first (BLOOM's `n_embed` over
/// `hidden_size`).
static StringRef aliasKey(const ImportContext &ic, StringRef preferred,
                          StringRef other, StringRef standard) {
  if (ic.top.has(preferred))
    return preferred;
  return ic.top.has(other) ? other : standard;
}

/// BLOOM: ALiBi with max_bias 8 on `num_attention_heads` (alias `n_head`)
/// heads; hidden size `n_embed` (old name, wins) or `hidden_size`.
static LogicalResult readBloom(ImportContext &ic, AttentionConfig &cfg) {
  StringRef headsKey =
      aliasKey(ic, "num_attention_heads", "n_head", "num_attention_heads");
  StringRef hiddenKey = aliasKey(ic, "n_embed", "hidden_size", "hidden_size");
  if (failed(readHeads(ic, cfg, headsKey, hiddenKey, /*llamaKeys=*/false)))
    return failure();
  cfg.alibi =
      AlibiSlopesAttr::getChecked(ic.attrError(ic.top), ic.ctx, cfg.numHeads,
                                  /*head_offset=*/int64_t{0}, Real(8.0));
  return success(cfg.alibi != nullptr);
}

/// MPT's `attn_config.attn_type`: multi-head, multi-query (1 kv head) or
/// grouped-query (`kv_n_heads`).
static LogicalResult readMptKvHeads(ImportContext &ic, const Section &attn,
                                    StringRef headsKey, AttentionConfig &cfg) {
  ConfigReader &r = ic.r;
  std::optional<std::string> attnType;
  if (failed(r.readString(attn, "attn_type", attnType)))
    return failure();
  StringRef kind = attnType ? StringRef(*attnType) : "multihead_attention";
  if (kind == "multihead_attention")
    return success();
  if (kind == "multiquery_attention") {
    cfg.numKvHeads = 1;
    return success();
  }
  if (kind != "grouped_query_attention")
    return r.error(attn, "attn_type")
           << "= " << quote(kind)
           << " is not supported (supported: multihead_attention, "
              "multiquery_attention, grouped_query_attention)";
  std::optional<int64_t> kvHeads;
  if (failed(r.readInt(attn, "kv_n_heads", kvHeads)))
    return failure();
  if (!kvHeads)
    return r.missing(attn, "kv_n_heads")
           << " (required by attn_type \"grouped_query_attention\")";
  cfg.numKvHeads = *kvHeads;
  if (cfg.numHeads % cfg.numKvHeads != 0)
    return r.error(ic.top, headsKey)
           << "(" << cfg.numHeads << ") must be a multiple of '"
           << attn.keyPath("kv_n_heads") << "' (" << cfg.numKvHeads << ")";
  return success();
}

/// MPT (llm-foundry): `attn_config.alibi`, `alibi_bias_max` (default 8),
/// `n_heads` and `d_model` (or their standard names `num_attention_heads` and
/// `hidden_size`, which win, as MptConfig's attribute_map makes them),
/// `attn_type`, `softmax_scale`.
static LogicalResult readMpt(ImportContext &ic, AttentionConfig &cfg) {
  ConfigReader &r = ic.r;
  std::optional<Section> attnSection;
  if (failed(r.readSection(ic.top, "attn_config", attnSection)))
    return failure();
  Section attn = attnSection.value_or(Section{nullptr, "attn_config"});
  std::optional<bool> alibi, prefixLm;
  if (failed(r.readBool(attn, "alibi", alibi)) ||
      failed(r.readBool(attn, "prefix_lm", prefixLm)))
    return failure();
  if (!alibi || !*alibi)
    return r.error(attn, "alibi")
           << (alibi ? "is false" : "is missing")
           << ": MPT without ALiBi (learned absolute positions) is not "
              "supported";
  if (prefixLm && *prefixLm)
    return r.error(attn, "prefix_lm")
           << "is true: prefix-LM (bidirectional prefix) attention is not "
              "supported";

  StringRef headsKey =
      aliasKey(ic, "num_attention_heads", "n_heads", "n_heads");
  StringRef hiddenKey = aliasKey(ic, "hidden_size", "d_model", "d_model");
  if (failed(readHeads(ic, cfg, headsKey, hiddenKey, /*llamaKeys=*/false)) ||
      failed(readMptKvHeads(ic, attn, headsKey, cfg)))
    return failure();

  std::optional<double> maxBias, softmaxScale;
  if (failed(r.readNumber(attn, "alibi_bias_max", NumberRule::Positive,
                          maxBias)) ||
      failed(r.readNumber(attn, "softmax_scale", NumberRule::Positive,
                          softmaxScale)))
    return failure();
  cfg.scale = softmaxScale;
  cfg.alibi = AlibiSlopesAttr::getChecked(
      ic.attrError(attn), ic.ctx, cfg.numHeads,
      /*head_offset=*/int64_t{0}, Real(maxBias.value_or(8.0)));
  return success(cfg.alibi != nullptr);
}

//===----------------------------------------------------------------------===//
// The family table
//===----------------------------------------------------------------------===//

namespace {
struct ModelFamily {
  StringRef modelType;
  LogicalResult (*read)(ImportContext &, AttentionConfig &);
};
} // namespace

/// Families whose keys or defaults differ from the Llama-style ones.
static constexpr ModelFamily kModelFamilies[] = {
    {"bloom", readBloom},
    {"mpt", readMpt},
    {"deepseek_v3", readDeepseekV3},
    {"gpt_oss", readGptOss},
};

LogicalResult mlir::posenc::hf::readModelFamily(ImportContext &ic,
                                                AttentionConfig &cfg) {
  const auto *family = llvm::find_if(kModelFamilies, [&](const ModelFamily &f) {
    return f.modelType == cfg.modelType;
  });
  if (family == std::end(kModelFamilies))
    return readLlama(ic, cfg);
  return family->read(ic, cfg);
}
