//===- PosEncAttrs.cpp - posenc attributes --------------------------------===//

#include "posenc/IR/PosEncAttrs.h"
#include "posenc/IR/PosEncDialect.h"
#include "posenc/IR/PosEncNumerics.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::posenc;

#include "posenc/IR/PosEncEnums.cpp.inc"

#include "posenc/IR/PosEncInterfaces.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "posenc/IR/PosEncAttrs.cpp.inc"

using EmitErrorFn = function_ref<InFlightDiagnostic()>;

FailureOr<bool> mlir::posenc::parseBoolKeyword(AsmParser &parser) {
  if (succeeded(parser.parseOptionalKeyword("true")))
    return true;
  if (succeeded(parser.parseOptionalKeyword("false")))
    return false;
  return parser.emitError(parser.getCurrentLocation(),
                          "expected 'true' or 'false'");
}

FailureOr<SmallVector<Real>> mlir::posenc::parseRealArray(AsmParser &parser) {
  SmallVector<Real> values;
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() {
        double value;
        if (parser.parseFloat(value))
          return failure();
        values.push_back(value);
        return success();
      }))
    return failure();
  return values;
}

void mlir::posenc::printRealArray(AsmPrinter &printer, ArrayRef<Real> values) {
  printer << '[';
  llvm::interleaveComma(values, printer,
                        [&](Real r) { printer << static_cast<double>(r); });
  printer << ']';
}

void PosEncDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "posenc/IR/PosEncAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Shared parameter checks
//===----------------------------------------------------------------------===//

static LogicalResult checkPositive(EmitErrorFn emitError, StringRef name,
                                   double value) {
  if (!std::isfinite(value) || value <= 0.0)
    return emitError() << "'" << name << "' must be finite and > 0, got "
                       << value;
  return success();
}

static LogicalResult checkPositiveIfPresent(EmitErrorFn emitError,
                                            StringRef name,
                                            std::optional<Real> value) {
  return value ? checkPositive(emitError, name, static_cast<double>(*value))
               : success();
}

static LogicalResult checkPositive(EmitErrorFn emitError, StringRef name,
                                   int64_t value) {
  if (value <= 0)
    return emitError() << "'" << name << "' must be > 0, got " << value;
  return success();
}

static LogicalResult checkFinite(EmitErrorFn emitError, StringRef name,
                                 std::optional<Real> value) {
  if (value && !std::isfinite(*value))
    return emitError() << "'" << name << "' must be finite";
  return success();
}

/// The attention factor multiplies cos and sin as an f32 (the op's result):
/// parameters that are valid on their own may still overflow it.
template <typename T>
static LogicalResult checkAttentionFactor(EmitErrorFn emitError,
                                          StringRef scheme, StringRef name,
                                          T value, double factor) {
  if (roundsToFinite(factor, llvm::APFloat::IEEEsingle()))
    return success();
  InFlightDiagnostic diag = emitError()
                            << "'" << name << "' (" << value << ") makes the "
                            << scheme << " attention factor non-finite: ";
  if (std::isfinite(factor))
    return diag << factor << ", beyond the range of f32";
  return diag << (std::isnan(factor) ? "nan" : factor > 0 ? "inf" : "-inf");
}

//===----------------------------------------------------------------------===//
// Scaling attributes (their interface: RopeScaling.cpp)
//===----------------------------------------------------------------------===//

LogicalResult LinearAttr::verify(EmitErrorFn emitError, Real factor) {
  return checkPositive(emitError, "factor", factor);
}

LogicalResult NtkAttr::verify(EmitErrorFn emitError, Real factor, NtkForm) {
  return checkPositive(emitError, "factor", factor);
}

LogicalResult DynamicNtkAttr::verify(EmitErrorFn emitError, Real factor,
                                     int64_t maxPositionEmbeddings,
                                     DynamicNtkRule) {
  if (failed(checkPositive(emitError, "factor", factor)) ||
      failed(checkPositive(emitError, "max_position_embeddings",
                           maxPositionEmbeddings)))
    return failure();
  return success();
}

LogicalResult YarnAttr::verify(EmitErrorFn emitError, Real factor,
                               int64_t originalMax, Real betaFast,
                               Real betaSlow, bool, std::optional<Real> mscale,
                               std::optional<Real> mscaleAllDim,
                               std::optional<Real> attentionFactor,
                               YarnFactorRule factorRule,
                               std::optional<int64_t> maxPositionEmbeddings) {
  if (failed(checkPositive(emitError, "factor", factor)) ||
      failed(checkPositive(emitError, "original_max_position_embeddings",
                           originalMax)) ||
      failed(checkPositive(emitError, "beta_fast", betaFast)) ||
      failed(checkPositive(emitError, "beta_slow", betaSlow)) ||
      failed(checkFinite(emitError, "mscale", mscale)) ||
      failed(checkFinite(emitError, "mscale_all_dim", mscaleAllDim)) ||
      failed(checkPositiveIfPresent(emitError, "attention_factor",
                                    attentionFactor)))
    return failure();
  if (factorRule == YarnFactorRule::context_ratio && !maxPositionEmbeddings)
    return emitError() << "factor_rule = context_ratio needs "
                          "'max_position_embeddings'";
  if (maxPositionEmbeddings &&
      failed(checkPositive(emitError, "max_position_embeddings",
                           *maxPositionEmbeddings)))
    return failure();
  // beta_fast marks the high-frequency end of the ramp; swapping them inverts
  // which pairs are interpolated (HF only warns, GGML and HF then disagree).
  if (betaFast < betaSlow)
    return emitError() << "'beta_fast' (" << static_cast<double>(betaFast)
                       << ") must be >= 'beta_slow' ("
                       << static_cast<double>(betaSlow) << ")";
  // The correction dimension of a boundary is d * ln(L / (2 pi beta)) /
  // (2 ln base): a beta of 1e-320 makes it inf, and the ramp then nan.
  for (auto [name, beta] : {std::pair<StringRef, double>{"beta_fast", betaFast},
                            {"beta_slow", betaSlow}}) {
    double ratio = static_cast<double>(originalMax) /
                   (beta * 2.0 * 3.14159265358979323846);
    if (!std::isfinite(std::log(ratio)))
      return emitError() << "'" << name << "' (" << beta
                         << ") makes the YaRN correction dimension "
                            "non-finite (it takes ln(original_max_position_"
                            "embeddings / (2 pi "
                         << name << ")))";
  }
  // The attention factor: explicit, mscale / mscale_all_dim, or from s.
  double scale = factorRule == YarnFactorRule::context_ratio
                     ? static_cast<double>(*maxPositionEmbeddings) /
                           static_cast<double>(originalMax)
                     : static_cast<double>(factor);
  auto toDouble = [](std::optional<Real> v) -> std::optional<double> {
    if (v)
      return static_cast<double>(*v);
    return std::nullopt;
  };
  double af =
      yarnAttentionFactor(scale, toDouble(mscale), toDouble(mscaleAllDim),
                          toDouble(attentionFactor));
  if (attentionFactor)
    return checkAttentionFactor(emitError, "YaRN", "attention_factor",
                                static_cast<double>(*attentionFactor), af);
  if (mscale && mscaleAllDim && *mscale != 0.0 && *mscaleAllDim != 0.0) {
    // Blame the numerator when it overflows, else the (small) denominator.
    bool blameMscale = !std::isfinite(yarnMscale(scale, *mscale)) ||
                       std::abs(yarnMscale(scale, *mscaleAllDim)) >= 1.0;
    return blameMscale
               ? checkAttentionFactor(emitError, "YaRN", "mscale",
                                      static_cast<double>(*mscale), af)
               : checkAttentionFactor(emitError, "YaRN", "mscale_all_dim",
                                      static_cast<double>(*mscaleAllDim), af);
  }
  return success();
}

LogicalResult Llama3Attr::verify(EmitErrorFn emitError, Real factor,
                                 Real lowFreqFactor, Real highFreqFactor,
                                 int64_t originalMax) {
  if (failed(checkPositive(emitError, "factor", factor)) ||
      failed(checkPositive(emitError, "low_freq_factor", lowFreqFactor)) ||
      failed(checkPositive(emitError, "high_freq_factor", highFreqFactor)) ||
      failed(checkPositive(emitError, "original_max_position_embeddings",
                           originalMax)))
    return failure();
  if (lowFreqFactor > highFreqFactor)
    return emitError() << "'low_freq_factor' ("
                       << static_cast<double>(lowFreqFactor)
                       << ") must be <= 'high_freq_factor' ("
                       << static_cast<double>(highFreqFactor) << ")";
  return success();
}

static LogicalResult checkFactorList(EmitErrorFn emitError, StringRef name,
                                     ArrayRef<Real> factors) {
  if (factors.empty())
    return emitError() << "'" << name << "' must not be empty";
  for (auto [i, f] : llvm::enumerate(factors))
    if (!std::isfinite(f) || f <= 0.0)
      return emitError() << "'" << name << "'[" << i
                         << "] must be finite and > 0, got "
                         << static_cast<double>(f);
  return success();
}

LogicalResult LongRopeAttr::verify(EmitErrorFn emitError,
                                   ArrayRef<Real> shortFactor,
                                   ArrayRef<Real> longFactor,
                                   int64_t originalMax, int64_t maxPos,
                                   std::optional<Real> attentionFactor,
                                   LongRopeSelect) {
  if (failed(checkFactorList(emitError, "short_factor", shortFactor)) ||
      failed(checkFactorList(emitError, "long_factor", longFactor)) ||
      failed(checkPositive(emitError, "original_max_position_embeddings",
                           originalMax)) ||
      failed(checkPositive(emitError, "max_position_embeddings", maxPos)) ||
      failed(checkPositiveIfPresent(emitError, "attention_factor",
                                    attentionFactor)))
    return failure();
  if (shortFactor.size() != longFactor.size())
    return emitError() << "'short_factor' and 'long_factor' must have the "
                          "same length, got "
                       << shortFactor.size() << " and " << longFactor.size();
  if (attentionFactor)
    return checkAttentionFactor(emitError, "LongRoPE", "attention_factor",
                                static_cast<double>(*attentionFactor),
                                *attentionFactor);
  // The default divides by ln(original_max_position_embeddings): 1 has none.
  return checkAttentionFactor(
      emitError, "LongRoPE", "original_max_position_embeddings", originalMax,
      longRopeAttentionFactor(static_cast<double>(maxPos),
                              static_cast<double>(originalMax)));
}

//===----------------------------------------------------------------------===//
// Configuration attributes
//===----------------------------------------------------------------------===//

LogicalResult AlibiSlopesAttr::verify(EmitErrorFn emitError, int64_t numHeads,
                                      int64_t headOffset, Real maxBias) {
  if (failed(checkPositive(emitError, "num_heads", numHeads)) ||
      failed(checkPositive(emitError, "max_bias", maxBias)))
    return failure();
  if (headOffset < 0 || headOffset >= numHeads)
    return emitError() << "'head_offset' must be in [0, num_heads = "
                       << numHeads << "), got " << headOffset;
  return success();
}

LogicalResult WindowAttr::verify(EmitErrorFn emitError, int64_t left,
                                 std::optional<int64_t> right) {
  // An extent of 0 is the query alone (HF's sliding_window = 1).
  if (left < 0)
    return emitError() << "'left' must be >= 0, got " << left;
  if (right && *right < 0)
    return emitError() << "'right' must be >= 0, got " << *right;
  return success();
}

LogicalResult QueryTemperatureAttr::verify(EmitErrorFn emitError,
                                           Real floorScale, Real attnScale) {
  return failure(
      failed(checkPositive(emitError, "floor_scale", floorScale)) ||
      failed(checkFinite(emitError, "attn_scale", std::optional(attnScale))));
}

LogicalResult mlir::posenc::checkRotaryDim(EmitErrorFn emitError,
                                           int64_t rotaryDim) {
  // Pairs (i, i + d/2) or (2i, 2i+1) need an even count of rotated channels.
  if (rotaryDim <= 0 || rotaryDim % 2 != 0)
    return emitError() << "'rotary_dim' must be positive and even, got "
                       << rotaryDim;
  return success();
}

LogicalResult RopeAttr::verify(EmitErrorFn emitError, RotaryLayout,
                               int64_t rotaryDim) {
  return checkRotaryDim(emitError, rotaryDim);
}
