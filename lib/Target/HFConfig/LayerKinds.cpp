//===- LayerKinds.cpp - Per-layer attention of a config -------------------===//
//
// Current models mix kinds of attention layer: Gemma 2 alternates sliding
// windows with full attention, Gemma 3 has five local layers (their own RoPE
// base) per global one, gpt-oss alternates by `layer_types`, Qwen2 windows
// its upper layers, Llama 4 chunks its RoPE layers and leaves every fourth
// layer without RoPE but with a query temperature. This reads which layers
// are which, with transformers v5's per-family defaults, into LayerKinds;
// the emitter makes one function per kind. A key that the config's family
// does not apply in transformers, or that the importer does not implement,
// is rejected by name: never imported as plain attention.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "llvm/ADT/StringSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::posenc;
using namespace mlir::posenc::hf;

namespace {

enum class LayerType { full, sliding, chunked };

StringRef getTypeName(LayerType type) {
  switch (type) {
  case LayerType::full:
    return "full_attention";
  case LayerType::sliding:
    return "sliding_attention";
  case LayerType::chunked:
    return "chunked_attention";
  }
  llvm_unreachable("unknown layer type");
}

/// What the family reads: the layer types (one per layer) and which layers
/// rotate (Llama 4's NoPE layers do not).
struct Layers {
  SmallVector<LayerType> types;
  SmallVector<bool> rope;
};

bool isFamily(const AttentionConfig &cfg, ArrayRef<StringRef> types) {
  return llvm::is_contained(types, StringRef(cfg.modelType));
}

/// `key` is in the config but transformers' `cfg.modelType` does not apply
/// it (or the importer does not implement it there).
LogicalResult notApplied(ImportContext &ic, StringRef key, const Twine &what) {
  return ic.r.error(ic.top, key)
         << what << ", which the importer implements only for the model "
         << "types that apply it in transformers; it rejects the config "
            "rather than drop the key";
}

/// The most layers a config may name. Real models have at most a few hundred;
/// the cap bounds the per-layer tables (and the `posenc.layers` lists).
constexpr int64_t kMaxLayers = int64_t{1} << 16;

/// Reads `num_hidden_layers`, required when the layers are told apart.
FailureOr<int64_t> requireLayerCount(ImportContext &ic,
                                     const AttentionConfig &cfg,
                                     StringRef why) {
  if (cfg.numLayers)
    return *cfg.numLayers;
  return ic.r.missing(ic.top, "num_hidden_layers") << " (" << why << ")";
}

/// `layer_types`, when given: one of full_attention, sliding_attention,
/// chunked_attention per layer.
LogicalResult readLayerTypeList(ImportContext &ic, AttentionConfig &cfg,
                                std::optional<SmallVector<LayerType>> &out) {
  const llvm::json::Value *value = ic.top.find("layer_types");
  if (!value)
    return success();
  const llvm::json::Array *list = value->getAsArray();
  if (!list)
    return ic.r.error(ic.top, "layer_types") << "must be a list of strings";
  if (list->size() > static_cast<size_t>(kMaxLayers))
    return ic.r.error(ic.top, "layer_types")
           << "has " << list->size() << " entries, more than the " << kMaxLayers
           << " layers the importer accepts";
  SmallVector<LayerType> types;
  for (const llvm::json::Value &entry : *list) {
    std::optional<StringRef> name = entry.getAsString();
    std::optional<LayerType> type;
    if (name)
      type = llvm::StringSwitch<std::optional<LayerType>>(*name)
                 .Case("full_attention", LayerType::full)
                 .Case("sliding_attention", LayerType::sliding)
                 .Case("chunked_attention", LayerType::chunked)
                 .Default(std::nullopt);
    if (!type)
      return ic.r.error(ic.top, "layer_types")
             << "holds " << (name ? quote(*name) : std::string("a non-string"))
             << " (supported: full_attention, sliding_attention, "
                "chunked_attention)";
    types.push_back(*type);
  }
  if (cfg.numLayers && *cfg.numLayers != static_cast<int64_t>(types.size()))
    return ic.r.error(ic.top, "layer_types")
           << "has " << types.size() << " entries but 'num_hidden_layers' is "
           << *cfg.numLayers;
  cfg.numLayers = static_cast<int64_t>(types.size());
  out = std::move(types);
  return success();
}

/// Llama 4: `no_rope_layers` (1: RoPE; default every
/// `no_rope_layer_interval`-th layer, 4, without), chunked RoPE layers
/// (`attention_chunk_size`, default 8192; null: none).
LogicalResult readLlama4Layers(ImportContext &ic, AttentionConfig &cfg,
                               Layers &layers, std::optional<int64_t> &chunk) {
  ConfigReader &r = ic.r;
  FailureOr<int64_t> count =
      requireLayerCount(ic, cfg, "Llama 4's layers differ");
  if (failed(count))
    return failure();
  layers.rope.assign(*count, true);
  const llvm::json::Value *noRope = ic.top.find("no_rope_layers");
  const llvm::json::Array *list = noRope ? noRope->getAsArray() : nullptr;
  if (noRope && !list)
    return r.error(ic.top, "no_rope_layers") << "must be a list of 0/1";
  if (list && !list->empty()) {
    if (static_cast<int64_t>(list->size()) != *count)
      return r.error(ic.top, "no_rope_layers")
             << "has " << list->size() << " entries but 'num_hidden_layers' is "
             << *count;
    for (auto [i, entry] : llvm::enumerate(*list)) {
      std::optional<int64_t> v = entry.getAsInteger();
      if (!v || (*v != 0 && *v != 1))
        return r.error(ic.top, "no_rope_layers") << "must be a list of 0/1";
      layers.rope[i] = *v == 1;
    }
  } else {
    std::optional<int64_t> interval;
    if (failed(r.readInt(ic.top, "no_rope_layer_interval", interval)))
      return failure();
    for (int64_t i = 0; i < *count; ++i)
      layers.rope[i] = (i + 1) % interval.value_or(4) != 0;
  }
  // Absent: transformers' default 8192; null: no chunks.
  if (!ic.top.object->get("attention_chunk_size"))
    chunk = 8192;
  else if (failed(r.readInt(ic.top, "attention_chunk_size", chunk)))
    return failure();
  return success();
}

/// The layer types transformers derives when `layer_types` is absent.
LogicalResult deriveLayerTypes(ImportContext &ic, AttentionConfig &cfg,
                               std::optional<int64_t> window,
                               std::optional<int64_t> chunk, Layers &layers) {
  ConfigReader &r = ic.r;
  auto fill = [&](function_ref<LayerType(int64_t)> typeOf) -> LogicalResult {
    FailureOr<int64_t> count =
        requireLayerCount(ic, cfg, "the layers' attention differs");
    if (failed(count))
      return failure();
    for (int64_t i = 0; i < *count; ++i)
      layers.types.push_back(typeOf(i));
    return success();
  };
  if (isFamily(cfg, {"gemma2"}))
    return fill([](int64_t i) {
      return (i + 1) % 2 ? LayerType::sliding : LayerType::full;
    });
  if (isFamily(cfg, {"gemma3_text"})) {
    std::optional<int64_t> pattern;
    if (failed(r.readInt(ic.top, "sliding_window_pattern", pattern)))
      return failure();
    return fill([p = pattern.value_or(6)](int64_t i) {
      return (i + 1) % p ? LayerType::sliding : LayerType::full;
    });
  }
  if (isFamily(cfg, {"llama4_text"}))
    return fill([&](int64_t i) {
      return layers.rope[i] && chunk ? LayerType::chunked : LayerType::full;
    });
  if (!window)
    return success();
  if (isFamily(cfg, {"qwen2", "qwen2_moe"})) {
    std::optional<int64_t> firstWindowed;
    if (failed(r.readInt(ic.top, "max_window_layers", firstWindowed,
                         /*min=*/0)))
      return failure();
    return fill([first = firstWindowed.value_or(28)](int64_t i) {
      return i >= first ? LayerType::sliding : LayerType::full;
    });
  }
  // Families whose every layer applies `sliding_window`: one kind, so the
  // layer count is not needed.
  if (isFamily(cfg, {"mistral", "mixtral", "phi3", "starcoder2"})) {
    layers.types.assign(cfg.numLayers.value_or(1), LayerType::sliding);
    return success();
  }
  return notApplied(ic, "sliding_window",
                    "(" + Twine(*window) +
                        ") is a sliding-window mask of "
                        "model type " +
                        quote(cfg.modelType));
}

/// A value of a family-specific key that asks for nothing: `false` for a
/// switch, a `no_rope_layers` list of 1s (RoPE on every layer).
bool isNeutral(const Section &section, StringRef key) {
  const llvm::json::Value *value = section.find(key);
  if (std::optional<bool> flag = value->getAsBoolean())
    return !*flag;
  if (const llvm::json::Array *list = value->getAsArray())
    return key == "no_rope_layers" &&
           llvm::all_of(*list, [](const llvm::json::Value &entry) {
             return entry.getAsInteger() == std::optional<int64_t>(1);
           });
  return false;
}

/// Keys that only some families apply: present elsewhere with a value that
/// asks for something, they are rejected by name.
LogicalResult rejectForeignLayerKeys(ImportContext &ic,
                                     const AttentionConfig &cfg) {
  bool llama4 = isFamily(cfg, {"llama4_text"});
  for (auto [key, what, applies] : {
           std::tuple<StringRef, StringRef, bool>{
               "sliding_window_pattern", "alternates sliding-window layers",
               isFamily(cfg, {"gemma3_text"})},
           {"rope_local_base_freq", "gives local layers a RoPE of their own",
            isFamily(cfg, {"gemma3_text"})},
           {"attention_chunk_size", "is chunked attention", llama4},
           {"no_rope_layers", "has layers without RoPE (NoPE)", llama4},
           {"attn_temperature_tuning", "scales queries by position", llama4},
           {"use_qk_norm", "normalizes queries and keys", llama4},
           {"attn_logit_softcapping", "caps the attention logits",
            isFamily(cfg, {"gemma2", "gemma3_text"})},
       })
    if (!applies && ic.top.has(key) && !isNeutral(ic.top, key))
      return notApplied(ic, key, what);
  return success();
}

/// `query_pre_attn_scalar` (Gemma): softmax scale scalar^-0.5.
LogicalResult readQueryScalar(ImportContext &ic, AttentionConfig &cfg) {
  std::optional<double> scalar;
  if (failed(ic.r.readNumber(ic.top, "query_pre_attn_scalar",
                             NumberRule::Positive, scalar)))
    return failure();
  if (!scalar || *scalar == static_cast<double>(cfg.qkHeadDim))
    return success();
  if (cfg.scale)
    return ic.r.error(ic.top, "query_pre_attn_scalar")
           << "and the family's own softmax scale are both given";
  cfg.scale = 1.0 / std::sqrt(*scalar);
  return success();
}

/// Llama 4's temperature tuning of NoPE layers (default on).
LogicalResult
readTemperature(ImportContext &ic,
                std::optional<std::pair<double, double>> &temperature) {
  ConfigReader &r = ic.r;
  std::optional<bool> tuning;
  std::optional<double> floorScale, attnScale;
  if (failed(r.readBool(ic.top, "attn_temperature_tuning", tuning)) ||
      failed(r.readNumber(ic.top, "floor_scale", NumberRule::Positive,
                          floorScale)) ||
      failed(r.readNumber(ic.top, "attn_scale", NumberRule::Finite, attnScale)))
    return failure();
  if (tuning.value_or(true))
    temperature = {floorScale.value_or(8192.0), attnScale.value_or(0.1)};
  return success();
}

/// Llama 4's `use_qk_norm` (default on): an L2 norm of the RoPE layers' q
/// and k with `rms_norm_eps` (default 1e-5).
LogicalResult readQKNorm(ImportContext &ic, AttentionConfig &cfg) {
  std::optional<bool> norm;
  std::optional<double> eps;
  if (failed(ic.r.readBool(ic.top, "use_qk_norm", norm)) ||
      failed(
          ic.r.readNumber(ic.top, "rms_norm_eps", NumberRule::Positive, eps)))
    return failure();
  if (norm.value_or(true))
    cfg.qkNormEps = eps.value_or(1e-5);
  return success();
}

} // namespace

void mlir::posenc::hf::applyFamilyDefaults(ImportContext &ic,
                                           const AttentionConfig &cfg) {
  using Default = std::pair<StringRef, llvm::json::Value>;
  SmallVector<Default> defaults;
  // transformers v5's configuration_<family>.py defaults of the keys that
  // decide the attention.
  if (isFamily(cfg, {"mistral"}))
    defaults = {{"sliding_window", 4096}};
  else if (isFamily(cfg, {"gemma2"}))
    defaults = {
        {"sliding_window", 4096},       {"attn_logit_softcapping", 50.0},
        {"query_pre_attn_scalar", 256}, {"head_dim", 256},
        {"num_attention_heads", 8},     {"num_key_value_heads", 4},
        {"rope_theta", 10000.0}};
  else if (isFamily(cfg, {"gemma3_text"}))
    defaults = {{"sliding_window", 4096},
                {"query_pre_attn_scalar", 256},
                {"head_dim", 256},
                {"num_attention_heads", 8},
                {"num_key_value_heads", 4},
                {"rope_theta", 1000000.0},
                {"max_position_embeddings", 131072}};
  else if (isFamily(cfg, {"llama4_text"}))
    defaults = {{"head_dim", 128},
                {"num_attention_heads", 40},
                {"num_key_value_heads", 8},
                {"rope_theta", 500000.0},
                {"num_hidden_layers", 48}};
  if (defaults.empty())
    return;
  ic.withDefaults = *ic.top.object;
  for (Default &entry : defaults)
    if (!ic.withDefaults.get(entry.first))
      ic.withDefaults[entry.first] = std::move(entry.second);
  ic.top.object = &ic.withDefaults;
}

LogicalResult mlir::posenc::hf::readLayerKinds(ImportContext &ic,
                                               AttentionConfig &cfg) {
  ConfigReader &r = ic.r;
  if (failed(rejectForeignLayerKeys(ic, cfg)) ||
      failed(readQueryScalar(ic, cfg)) ||
      failed(r.readInt(ic.top, "num_hidden_layers", cfg.numLayers, /*min=*/1,
                       kMaxLayers)) ||
      failed(r.readNumber(ic.top, "attn_logit_softcapping",
                          NumberRule::Positive, cfg.softcap)))
    return failure();

  // The window transformers applies: `use_sliding_window: false` (Qwen2)
  // turns it off; one covering max_position_embeddings keeps every key.
  std::optional<int64_t> window, maxPositions;
  std::optional<bool> useWindow;
  if (failed(r.readInt(ic.top, "sliding_window", window)) ||
      failed(r.readBool(ic.top, "use_sliding_window", useWindow)) ||
      failed(r.readInt(ic.top, "max_position_embeddings", maxPositions)))
    return failure();
  if (useWindow && !*useWindow)
    window.reset();

  Layers layers;
  std::optional<int64_t> chunk;
  std::optional<std::pair<double, double>> temperature;
  bool llama4 = isFamily(cfg, {"llama4_text"});
  if (llama4 &&
      (failed(readLlama4Layers(ic, cfg, layers, chunk)) ||
       failed(readTemperature(ic, temperature)) || failed(readQKNorm(ic, cfg))))
    return failure();
  std::optional<SmallVector<LayerType>> listed;
  if (failed(readLayerTypeList(ic, cfg, listed)))
    return failure();
  if (listed)
    layers.types = std::move(*listed);
  else if (failed(deriveLayerTypes(ic, cfg, window, chunk, layers)))
    return failure();
  if (layers.rope.empty())
    layers.rope.assign(layers.types.size(), true);
  else if (layers.rope.size() != layers.types.size())
    return r.error(ic.top, "layer_types")
           << "and 'no_rope_layers' disagree on the number of layers";

  std::optional<double> localBase;
  if (isFamily(cfg, {"gemma3_text"}) && !cfg.alibi) {
    std::optional<double> base;
    if (failed(r.readNumber(ic.top, "rope_local_base_freq",
                            NumberRule::AboveOne, base)))
      return failure();
    localBase = base.value_or(10000.0);
  }

  for (auto [i, type] : llvm::enumerate(layers.types)) {
    LayerKind kind;
    kind.rope = layers.rope[i];
    if (type == LayerType::sliding) {
      if (!window)
        return r.missing(ic.top, "sliding_window")
               << " (layer " << i << " is a sliding_attention layer)";
      if (*window <= 0)
        return r.error(ic.top, "sliding_window")
               << "must be > 0, got " << *window;
      // A window covering every position keeps every key.
      if (!maxPositions || *window < *maxPositions)
        kind.windowLeft = *window - 1;
      kind.localBase = localBase;
    } else if (type == LayerType::chunked) {
      if (!chunk)
        return r.missing(ic.top, "attention_chunk_size")
               << " (layer " << i << " is a chunked_attention layer)";
      kind.chunk = *chunk;
    }
    if (!kind.rope)
      kind.temperature = temperature;
    kind.name = getTypeName(type).str();
    auto *same = llvm::find_if(
        cfg.kinds, [&](const LayerKind &k) { return k.sameAttention(kind); });
    if (same == cfg.kinds.end())
      same = &cfg.kinds.emplace_back(std::move(kind));
    same->layers.push_back(static_cast<int64_t>(i));
  }
  // Names tell kinds apart: "_nope" for a NoPE kind sharing its type's name.
  for (LayerKind &kind : cfg.kinds)
    if (!kind.rope && llvm::count_if(cfg.kinds, [&](const LayerKind &k) {
                        return k.name == kind.name;
                      }) > 1)
      kind.name += "_nope";
  if (cfg.kinds.size() == 1 && cfg.kinds.front().sameAttention(LayerKind()))
    cfg.kinds.clear();
  return success();
}
