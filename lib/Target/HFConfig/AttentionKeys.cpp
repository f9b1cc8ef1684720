//===- AttentionKeys.cpp - Attention keys the importer does not implement -===//
//
// Keys of current models that change what attention computes: sliding
// windows, per-layer attention kinds, logit soft-capping, chunked
// attention, NoPE layers, query temperature, a query scale of its own. The
// importer emits one plain causal attention; a config with any of these in
// effect is rejected with the key named (importing it would give a
// plausible function with wrong numerics, e.g. Gemma 2 off by 25%).
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::posenc;
using namespace mlir::posenc::hf;

/// `key` is in effect: the importer cannot represent it.
static LogicalResult unsupported(ImportContext &ic, StringRef key,
                                 const Twine &what) {
  return ic.r.error(ic.top, key)
         << what << ": posenc.attention has no such attention yet; the "
         << "importer rejects the config rather than drop the key";
}

/// transformers applies `sliding_window` unless `use_sliding_window` is false
/// (Qwen2); a window of at least max_position_embeddings keeps every key of
/// every supported length, so it changes nothing.
static LogicalResult checkSlidingWindow(ImportContext &ic) {
  ConfigReader &r = ic.r;
  std::optional<int64_t> window, maxPositions;
  std::optional<bool> useWindow;
  if (failed(r.readInt(ic.top, "sliding_window", window)) ||
      failed(r.readBool(ic.top, "use_sliding_window", useWindow)) ||
      failed(r.readInt(ic.top, "max_position_embeddings", maxPositions)))
    return failure();
  if (!window || (useWindow && !*useWindow))
    return success();
  if (maxPositions && *window >= *maxPositions)
    return success();
  return unsupported(ic, "sliding_window",
                     "(" + Twine(*window) + ") is a sliding-window mask");
}

/// `layer_types` with any layer other than full attention.
static LogicalResult checkLayerTypes(ImportContext &ic) {
  const llvm::json::Value *types = ic.top.find("layer_types");
  if (!types)
    return success();
  const llvm::json::Array *list = types->getAsArray();
  if (!list)
    return ic.r.error(ic.top, "layer_types") << "must be a list of strings";
  for (const llvm::json::Value &type : *list) {
    std::optional<StringRef> name = type.getAsString();
    if (!name)
      return ic.r.error(ic.top, "layer_types") << "must be a list of strings";
    if (*name != "full_attention")
      return unsupported(ic, "layer_types",
                         "holds \"" + *name +
                             "\" layers (one attention per layer kind)");
  }
  return success();
}

/// `query_pre_attn_scalar` sets the softmax scale to its inverse square root:
/// the default scale only when it equals the head dim.
static LogicalResult checkQueryScalar(ImportContext &ic) {
  std::optional<double> scalar;
  std::optional<int64_t> headDim;
  if (failed(ic.r.readNumber(ic.top, "query_pre_attn_scalar",
                             NumberRule::Positive, scalar)) ||
      failed(ic.r.readInt(ic.top, "head_dim", headDim)))
    return failure();
  if (!scalar || (headDim && *scalar == static_cast<double>(*headDim)))
    return success();
  return unsupported(ic, "query_pre_attn_scalar",
                     "sets a softmax scale other than 1/sqrt(head_dim)");
}

LogicalResult
mlir::posenc::hf::rejectUnsupportedAttentionKeys(ImportContext &ic) {
  if (failed(checkSlidingWindow(ic)) || failed(checkLayerTypes(ic)) ||
      failed(checkQueryScalar(ic)))
    return failure();
  // Keys whose mere presence (non-null) changes the attention.
  for (auto [key, what] : {
           std::pair<StringRef, StringRef>{"sliding_window_pattern",
                                           "alternates sliding-window layers"},
           {"attn_logit_softcapping", "caps the attention logits"},
           {"attention_chunk_size", "is chunked attention"},
           {"rope_local_base_freq", "gives local layers a RoPE of their own"},
       })
    if (ic.top.has(key))
      return unsupported(ic, key, what);
  std::optional<bool> temperature;
  if (failed(ic.r.readBool(ic.top, "attn_temperature_tuning", temperature)))
    return failure();
  if (temperature && *temperature)
    return unsupported(ic, "attn_temperature_tuning",
                       "scales queries by position (Llama 4)");
  // NoPE layers: a 0 entry is a layer without RoPE.
  if (const llvm::json::Value *layers = ic.top.find("no_rope_layers")) {
    const llvm::json::Array *list = layers->getAsArray();
    if (!list)
      return ic.r.error(ic.top, "no_rope_layers") << "must be a list";
    for (const llvm::json::Value &layer : *list)
      if (std::optional<int64_t> v = layer.getAsInteger(); !v || *v == 0)
        return unsupported(ic, "no_rope_layers",
                           "has layers without RoPE (NoPE)");
  }
  return success();
}
