//===- RopeSchemes.cpp - rope_type -> posenc scaling attribute ------------===//
//
// One reader per `rope_type` of transformers v5 (`ROPE_INIT_FUNCTIONS` in
// `modeling_rope_utils.py`, plus v4's static "ntk"), looked up in a table.
// Each reads and validates its keys of the RoPE dict and builds the
// attribute with `getChecked`.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>

using namespace mlir;
using namespace mlir::posenc;
using namespace mlir::posenc::hf;

namespace {

/// A scaling attribute and the factor `s` it was built from.
struct Scaling {
  RopeScalingAttrInterface attr;
  std::optional<double> factor;
};

/// Reads the scheme of one RoPE dict; the table below picks the method.
class SchemeReader {
public:
  SchemeReader(ImportContext &ic, const Section &rope, StringRef typeKey,
               const RopeDefaults &defaults, const AttentionConfig &cfg)
      : ic(ic), r(ic.r), rope(rope), typeKey(typeKey), defaults(defaults),
        cfg(cfg) {}

  FailureOr<Scaling> readLinear();
  FailureOr<Scaling> readNtk();
  FailureOr<Scaling> readDynamic();
  FailureOr<Scaling> readYarn();
  FailureOr<Scaling> readLlama3();
  FailureOr<Scaling> readLongRope();

private:
  LogicalResult requirePositive(StringRef key, std::optional<double> &out);
  LogicalResult requireMaxPos(std::optional<int64_t> &out);
  LogicalResult requireNtkRotaryDim();
  LogicalResult resolveOriginalMax(std::optional<int64_t> &out);
  LogicalResult checkLongRopeList(StringRef key,
                                  const std::optional<SmallVector<double>> &);
  template <typename AttrT, typename... Args>
  FailureOr<Scaling> build(std::optional<double> factor, Args &&...args);

  ImportContext &ic;
  ConfigReader &r;
  const Section &rope;
  StringRef typeKey;
  const RopeDefaults &defaults;
  const AttentionConfig &cfg;
};

using ReadScheme = FailureOr<Scaling> (SchemeReader::*)();

struct RopeScheme {
  StringRef name;
  /// The name it stands for (`su` was LongRoPE's name in Phi-3), else empty.
  StringRef aliasOf;
  /// nullptr: no scaling.
  ReadScheme read;
};

} // namespace

/// Every supported `rope_type`, in the order diagnostics list them.
static constexpr RopeScheme kRopeSchemes[] = {
    {"default", "", nullptr},
    {"linear", "", &SchemeReader::readLinear},
    {"dynamic", "", &SchemeReader::readDynamic},
    {"ntk", "", &SchemeReader::readNtk},
    {"yarn", "", &SchemeReader::readYarn},
    {"llama3", "", &SchemeReader::readLlama3},
    {"longrope", "", &SchemeReader::readLongRope},
    {"su", "longrope", &SchemeReader::readLongRope},
};

static const RopeScheme *findRopeScheme(StringRef name) {
  const auto *it = llvm::find_if(
      kRopeSchemes, [&](const RopeScheme &s) { return s.name == name; });
  return it == std::end(kRopeSchemes) ? nullptr : it;
}

StringRef mlir::posenc::hf::canonicalRopeType(StringRef ropeType) {
  const RopeScheme *scheme = findRopeScheme(ropeType);
  return scheme && !scheme->aliasOf.empty() ? scheme->aliasOf : ropeType;
}

LogicalResult mlir::posenc::hf::readRopeScaling(ImportContext &ic,
                                                const Section &rope,
                                                StringRef typeKey,
                                                const RopeDefaults &defaults,
                                                AttentionConfig &cfg) {
  const RopeScheme *scheme = findRopeScheme(cfg.ropeType);
  if (!scheme) {
    auto names = llvm::map_range(kRopeSchemes,
                                 [](const RopeScheme &s) { return s.name; });
    return ic.r.error(rope, typeKey)
           << "= " << quote(cfg.ropeType)
           << " is not supported (supported: " << llvm::join(names, ", ")
           << ")";
  }
  if (!scheme->read)
    return success();
  SchemeReader reader(ic, rope, typeKey, defaults, cfg);
  FailureOr<Scaling> scaling = (reader.*(scheme->read))();
  if (failed(scaling))
    return failure();
  cfg.scaling = scaling->attr;
  cfg.scalingFactor = scaling->factor;
  return success();
}

//===----------------------------------------------------------------------===//
// Shared keys
//===----------------------------------------------------------------------===//

/// `AttrT::getChecked` for an attribute read from the RoPE dict. Its verifier
/// names parameters (`'mscale' ...`); those are the dict's keys, so the error
/// is re-emitted as `'rope_scaling.mscale' ...` like the importer's own.
template <typename AttrT, typename... Args>
FailureOr<Scaling> SchemeReader::build(std::optional<double> factor,
                                       Args &&...args) {
  std::optional<std::string> message;
  AttrT attr;
  {
    ScopedDiagnosticHandler capture(ic.ctx, [&](Diagnostic &diag) {
      if (!message)
        message = diag.str();
      return success();
    });
    attr = AttrT::getChecked([&] { return emitError(ic.loc); }, ic.ctx,
                             std::forward<Args>(args)...);
  }
  if (attr)
    return Scaling{attr, factor};
  if (!message)
    return failure();
  StringRef text = *message;
  auto isQuote = [](char c) { return c == '\''; };
  if (text.consume_front("'"))
    emitError(ic.loc) << "'" << rope.keyPath(text.take_until(isQuote))
                      << text.drop_until(isQuote);
  else
    emitError(ic.loc) << "invalid '" << rope.path << "': " << text;
  return failure();
}

LogicalResult SchemeReader::requirePositive(StringRef key,
                                            std::optional<double> &out) {
  if (failed(r.readNumber(rope, key, NumberRule::Positive, out)))
    return failure();
  if (!out)
    return r.missing(rope, key)
           << " (required by rope_type " << quote(cfg.ropeType) << ")";
  return success();
}

LogicalResult SchemeReader::requireMaxPos(std::optional<int64_t> &out) {
  if (failed(r.readInt(ic.top, "max_position_embeddings", out)))
    return failure();
  if (!out)
    return r.missing(ic.top, "max_position_embeddings")
           << " (required by rope_type " << quote(cfg.ropeType) << ")";
  return success();
}

/// NTK variants raise to d/(d-2), which has no value for d = 2.
LogicalResult SchemeReader::requireNtkRotaryDim() {
  if (cfg.rotaryDim <= 2)
    return r.error(rope, typeKey)
           << "= " << quote(cfg.ropeType) << " needs rotary_dim > 2, got "
           << cfg.rotaryDim;
  return success();
}

/// `original_max_position_embeddings` of llama3/yarn/longrope: a top-level
/// key wins (Phi-3 style, transformers v5 `standardize_rope_params`), then the
/// RoPE dict, then `max_position_embeddings`.
LogicalResult SchemeReader::resolveOriginalMax(std::optional<int64_t> &out) {
  constexpr StringRef key = "original_max_position_embeddings";
  for (const Section *section :
       {static_cast<const Section *>(&ic.top), &rope}) {
    if (failed(r.readInt(*section, key, out)))
      return failure();
    if (out)
      return success();
  }
  if (failed(r.readInt(ic.top, "max_position_embeddings", out)))
    return failure();
  if (!out)
    return r.missing(rope, key)
           << " (and 'max_position_embeddings' is not given either)";
  return success();
}

//===----------------------------------------------------------------------===//
// Schemes
//===----------------------------------------------------------------------===//

FailureOr<Scaling> SchemeReader::readLinear() {
  std::optional<double> factor;
  if (failed(requirePositive("factor", factor)))
    return failure();
  return build<LinearAttr>(factor, Real(*factor));
}

/// transformers <= v4 static NTK (not in v5). vLLM's "ntk" is a different
/// formula (`#posenc.ntk<form = vllm>`) and not what a transformers config
/// means.
FailureOr<Scaling> SchemeReader::readNtk() {
  std::optional<double> factor;
  if (failed(requirePositive("factor", factor)) ||
      failed(requireNtkRotaryDim()))
    return failure();
  return build<NtkAttr>(factor, Real(*factor), NtkForm::hf);
}

/// HF dynamic NTK: the base grows with the runtime length beyond
/// `max_position_embeddings`.
FailureOr<Scaling> SchemeReader::readDynamic() {
  std::optional<double> factor;
  std::optional<int64_t> maxPos;
  if (failed(requirePositive("factor", factor)) ||
      failed(requireMaxPos(maxPos)) || failed(requireNtkRotaryDim()))
    return failure();
  return build<DynamicNtkAttr>(factor, Real(*factor), *maxPos,
                               DynamicNtkRule::hf);
}

static std::optional<Real> toReal(std::optional<double> value) {
  if (!value)
    return std::nullopt;
  return Real(*value);
}

FailureOr<Scaling> SchemeReader::readYarn() {
  std::optional<int64_t> originalMax, maxPos;
  std::optional<double> factor, betaFast, betaSlow, mscale, mscaleAllDim,
      attentionFactor;
  std::optional<bool> truncate;
  if (failed(resolveOriginalMax(originalMax)) ||
      failed(r.readNumber(rope, "factor", NumberRule::Positive, factor)) ||
      failed(
          r.readNumber(rope, "beta_fast", NumberRule::NonNegative, betaFast)) ||
      failed(
          r.readNumber(rope, "beta_slow", NumberRule::NonNegative, betaSlow)) ||
      failed(r.readBool(rope, "truncate", truncate)) ||
      failed(r.readNumber(rope, "mscale", NumberRule::Finite, mscale)) ||
      failed(r.readNumber(rope, "mscale_all_dim", NumberRule::Finite,
                          mscaleAllDim)) ||
      failed(r.readNumber(rope, "attention_factor", NumberRule::Positive,
                          attentionFactor)))
    return failure();
  // `factor` null: transformers uses max_position_embeddings / original.
  if (!factor) {
    if (failed(r.readInt(ic.top, "max_position_embeddings", maxPos)))
      return failure();
    if (!maxPos)
      return r.missing(rope, "factor")
             << " (and 'max_position_embeddings' is not given to derive it)";
    factor = static_cast<double>(*maxPos) / static_cast<double>(*originalMax);
  }
  // `rope_parameters.get("beta_fast") or 32`: 0 and null mean the default.
  double fast = betaFast && *betaFast != 0.0 ? *betaFast : 32.0;
  double slow = betaSlow && *betaSlow != 0.0 ? *betaSlow : 1.0;
  if (fast < slow)
    return r.error(rope, "beta_fast")
           << "(" << formatNumber(fast) << ") must be >= '"
           << rope.keyPath("beta_slow") << "' (" << formatNumber(slow)
           << "): swapping them inverts which frequencies are interpolated";
  bool truncateRange = truncate.value_or(defaults.yarnTruncate);
  return build<YarnAttr>(factor, Real(*factor), *originalMax, Real(fast),
                         Real(slow), truncateRange, toReal(mscale),
                         toReal(mscaleAllDim), toReal(attentionFactor),
                         YarnFactorRule::explicit_factor,
                         std::optional<int64_t>());
}

FailureOr<Scaling> SchemeReader::readLlama3() {
  std::optional<double> factor, low, high;
  std::optional<int64_t> originalMax;
  if (failed(requirePositive("factor", factor)) ||
      failed(requirePositive("low_freq_factor", low)) ||
      failed(requirePositive("high_freq_factor", high)) ||
      failed(resolveOriginalMax(originalMax)))
    return failure();
  if (*low > *high)
    return r.error(rope, "low_freq_factor")
           << "(" << formatNumber(*low) << ") must be <= '"
           << rope.keyPath("high_freq_factor") << "' (" << formatNumber(*high)
           << ")";
  return build<Llama3Attr>(factor, Real(*factor), Real(*low), Real(*high),
                           *originalMax);
}

/// A LongRoPE factor list must be given and have rotary_dim / 2 entries.
LogicalResult SchemeReader::checkLongRopeList(
    StringRef key, const std::optional<SmallVector<double>> &list) {
  if (!list)
    return r.missing(rope, key)
           << " (required by rope_type " << quote(cfg.ropeType) << ")";
  int64_t expected = cfg.rotaryDim / 2;
  if (static_cast<int64_t>(list->size()) != expected)
    return r.error(rope, key)
           << "has " << list->size()
           << " entries, expected rotary_dim/2 = " << expected
           << " (rotary_dim " << cfg.rotaryDim << ")";
  return success();
}

FailureOr<Scaling> SchemeReader::readLongRope() {
  std::optional<SmallVector<double>> shortFactor, longFactor;
  std::optional<int64_t> originalMax, maxPos;
  std::optional<double> factor, attentionFactor;
  if (failed(r.readPositiveList(rope, "short_factor", shortFactor)) ||
      failed(r.readPositiveList(rope, "long_factor", longFactor)) ||
      failed(resolveOriginalMax(originalMax)) ||
      failed(requireMaxPos(maxPos)) ||
      failed(r.readNumber(rope, "factor", NumberRule::Positive, factor)) ||
      failed(r.readNumber(rope, "attention_factor", NumberRule::Positive,
                          attentionFactor)) ||
      failed(checkLongRopeList("short_factor", shortFactor)) ||
      failed(checkLongRopeList("long_factor", longFactor)))
    return failure();
  // transformers: s = factor, else max_position_embeddings / original;
  // attention factor sqrt(1 + ln(s) / ln(original)) unless given.
  double s = factor.value_or(static_cast<double>(*maxPos) /
                             static_cast<double>(*originalMax));
  double derived =
      s <= 1.0
          ? 1.0
          : std::sqrt(1.0 + std::log(s) /
                                std::log(static_cast<double>(*originalMax)));
  if (!attentionFactor && !std::isfinite(derived))
    return r.error(rope, "original_max_position_embeddings")
           << "(" << *originalMax
           << ") gives no finite LongRoPE attention factor; give "
              "'attention_factor' explicitly";
  // The attribute's default derives s from max_position_embeddings /
  // original; an explicit `factor` is spelled out as the attention factor.
  if (!attentionFactor && factor)
    attentionFactor = derived;
  SmallVector<Real> shortReal(shortFactor->begin(), shortFactor->end());
  SmallVector<Real> longReal(longFactor->begin(), longFactor->end());
  return build<LongRopeAttr>(s, ArrayRef<Real>(shortReal),
                             ArrayRef<Real>(longReal), *originalMax, *maxPos,
                             toReal(attentionFactor), LongRopeSelect::hf);
}
