//===- RopeParameters.cpp - The RoPE dict of a config ---------------------===//
//
// Which dict holds the RoPE parameters (`rope_scaling`, `rope_parameters`),
// its type, `rope_theta`, the rotary dim (`partial_rotary_factor`), the
// layout (`rope_interleave`), and a check that the scheme's frequency table
// is finite. transformers v5 semantics (`RotaryEmbeddingConfigMixin`,
// `standardize_rope_params`).
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "posenc/IR/PosEncNumerics.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::posenc;
using namespace mlir::posenc::hf;
namespace json = llvm::json;

/// transformers v5: a truthy `rope_scaling` (legacy name) replaces
/// `rope_parameters`. Per-layer-type RoPE (`{"full_attention": {...},
/// "sliding_attention": {...}}`) would need one function per layer type.
static FailureOr<Section> selectRopeDict(ImportContext &ic) {
  ConfigReader &r = ic.r;
  std::optional<Section> scaling, params;
  if (failed(r.readSection(ic.top, "rope_scaling", scaling)) ||
      failed(r.readSection(ic.top, "rope_parameters", params)))
    return failure();
  Section rope{nullptr, "rope_parameters"};
  if (scaling && !scaling->isEmpty()) {
    rope = *scaling;
    if (params && !params->isEmpty())
      r.warning(ic.top, "rope_parameters")
          << "is ignored: 'rope_scaling' is also given and takes precedence "
             "(as in transformers)";
  } else if (params) {
    rope = *params;
  }

  if (!rope.isEmpty() &&
      llvm::all_of(*rope.object, [](const json::Object::value_type &entry) {
        return entry.second.getAsObject() != nullptr;
      })) {
    SmallVector<std::string> keys;
    for (const auto &entry : *rope.object)
      keys.push_back(quote(entry.first.str()));
    llvm::sort(keys);
    return r.error() << "'" << rope.path
                     << "' holds per-layer-type parameters ("
                     << llvm::join(keys, ", ")
                     << "); only a single RoPE configuration is supported";
  }
  return rope;
}

/// `rope_type` wins over the legacy `type`; neither means "default". Returns
/// the key the type came from.
static FailureOr<StringRef> readRopeType(ImportContext &ic, const Section &rope,
                                         AttentionConfig &cfg) {
  ConfigReader &r = ic.r;
  std::optional<std::string> ropeType, legacyType;
  if (failed(r.readString(rope, "rope_type", ropeType)) ||
      failed(r.readString(rope, "type", legacyType)))
    return failure();
  StringRef typeKey = ropeType ? "rope_type" : "type";
  if (ropeType && legacyType && *ropeType != *legacyType)
    r.warning(rope, "type")
        << "= " << quote(*legacyType) << " differs from '"
        << rope.keyPath("rope_type") << "' = " << quote(*ropeType)
        << "; using 'rope_type'";
  cfg.ropeType = ropeType ? *ropeType : legacyType.value_or("default");
  if (!ropeType && !legacyType && rope.has("factor"))
    r.warning(rope, "factor")
        << "is ignored: '" << rope.path
        << "' has no 'rope_type' (or 'type'), which means \"default\" (no "
           "scaling)";
  cfg.ropeType = canonicalRopeType(cfg.ropeType).str();
  return typeKey;
}

/// rotary_dim = int(head_dim * partial_rotary_factor). transformers v5 moves a
/// top-level `partial_rotary_factor` into the RoPE dict, overriding one there.
static LogicalResult readRotaryDim(ImportContext &ic, const Section &rope,
                                   AttentionConfig &cfg) {
  ConfigReader &r = ic.r;
  const Section &prfSection =
      ic.top.has("partial_rotary_factor") ? ic.top : rope;
  std::optional<double> prf;
  if (failed(r.readNumber(prfSection, "partial_rotary_factor",
                          NumberRule::UnitInterval, prf)))
    return failure();
  int64_t headDim = cfg.qkHeadDim;
  // Python's int() truncates: 80 * 0.4 = 32.00000000000001 -> 32.
  cfg.rotaryDim =
      prf ? static_cast<int64_t>(static_cast<double>(headDim) * *prf) : headDim;
  if (prf && (cfg.rotaryDim <= 0 || cfg.rotaryDim % 2 != 0))
    return r.error(prfSection, "partial_rotary_factor")
           << formatNumber(*prf) << " gives "
           << (cfg.rotaryDim <= 0 ? "" : "odd ") << "rotary_dim "
           << cfg.rotaryDim << " (head_dim " << headDim
           << "); RoPE needs a positive, even number of channels";
  if (cfg.rotaryDim % 2 != 0)
    return r.error() << "head_dim " << headDim << " (" << cfg.headDimSource
                     << ") is odd: RoPE rotates pairs of channels (a "
                        "'partial_rotary_factor' can select an even part)";
  return success();
}

/// A factor valid on its own can still overflow the table (1e-320 divides by
/// almost 0); tables larger than kMaxConstantElements are rejected when
/// lowered.
static LogicalResult checkFiniteTable(ImportContext &ic, const Section &rope,
                                      const AttentionConfig &cfg) {
  if (!cfg.scaling || cfg.rotaryDim / 2 > kMaxConstantElements)
    return success();
  Builder b(ic.ctx);
  FloatType freqType =
      ic.opts.f64Frequencies ? FloatType(b.getF64Type()) : b.getF32Type();
  if (std::optional<NonFiniteFrequency> bad = findNonFiniteFrequency(
          cfg.scaling, cfg.rotaryDim, cfg.base, freqType))
    return ic.r.error(rope, bad->parameter)
           << "(" << formatNumber(bad->value) << ") " << bad->describe();
  return success();
}

FailureOr<Section> mlir::posenc::hf::readRopeParameters(
    ImportContext &ic, const RopeDefaults &defaults, AttentionConfig &cfg) {
  ConfigReader &r = ic.r;
  FailureOr<Section> rope = selectRopeDict(ic);
  if (failed(rope))
    return failure();
  FailureOr<StringRef> typeKey = readRopeType(ic, *rope, cfg);
  if (failed(typeKey))
    return failure();

  // rope_theta: the RoPE dict's own value wins, then the top level.
  const Section &thetaSection = rope->has("rope_theta") ? *rope : ic.top;
  std::optional<double> theta;
  if (failed(r.readNumber(thetaSection, "rope_theta", NumberRule::AboveOne,
                          theta)))
    return failure();
  cfg.base = theta.value_or(10000.0);

  if (!defaults.rotaryDimFromHeads && failed(readRotaryDim(ic, *rope, cfg)))
    return failure();

  std::optional<bool> interleave;
  if (failed(r.readBool(ic.top, "rope_interleave", interleave)))
    return failure();
  if (interleave)
    cfg.layout =
        *interleave ? RotaryLayout::interleaved : RotaryLayout::half_split;
  else
    cfg.layout = defaults.layout;

  if (failed(readRopeScaling(ic, *rope, *typeKey, defaults, cfg)))
    return failure();
  if (cfg.scaling &&
      failed(cfg.scaling.verifyRotaryDim(ic.attrError(*rope), cfg.rotaryDim)))
    return failure();
  if (failed(checkFiniteTable(ic, *rope, cfg)))
    return failure();
  return rope;
}
