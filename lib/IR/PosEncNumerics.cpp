//===- PosEncNumerics.cpp - reference numerics of posenc ------------------===//
//
// fp64 formulas of every RoPE scaling scheme, ALiBi slopes and sinusoidal
// tables, written from the published implementations (HF transformers v5 by
// default; the vLLM / llama.cpp variants where an attribute names them).
//
//===----------------------------------------------------------------------===//

#include "posenc/IR/PosEncNumerics.h"

#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::posenc;

static constexpr double kPi = 3.14159265358979323846;

SmallVector<double> mlir::posenc::defaultInvFreq(int64_t rotaryDim,
                                                 double base) {
  SmallVector<double> inv;
  inv.reserve(rotaryDim / 2);
  for (int64_t i = 0; i < rotaryDim / 2; ++i)
    inv.push_back(1.0 / std::pow(base, static_cast<double>(2 * i) /
                                           static_cast<double>(rotaryDim)));
  return inv;
}

double mlir::posenc::yarnMscale(double scale, double mscale) {
  return scale <= 1.0 ? 1.0 : 0.1 * mscale * std::log(scale) + 1.0;
}

double
mlir::posenc::yarnAttentionFactor(double scale, std::optional<double> mscale,
                                  std::optional<double> mscaleAllDim,
                                  std::optional<double> attentionFactor) {
  if (attentionFactor)
    return *attentionFactor;
  if (mscale && mscaleAllDim && *mscale != 0.0 && *mscaleAllDim != 0.0)
    return yarnMscale(scale, *mscale) / yarnMscale(scale, *mscaleAllDim);
  return yarnMscale(scale);
}

double mlir::posenc::longRopeAttentionFactor(double maxPos, double original) {
  double s = maxPos / original;
  return s <= 1.0 ? 1.0 : std::sqrt(1.0 + std::log(s) / std::log(original));
}

RopeFrequencies
mlir::posenc::computeRopeFrequencies(RopeScalingAttrInterface scaling,
                                     int64_t rotaryDim, double base,
                                     std::optional<int64_t> seqLen) {
  RopeFrequencies result;
  if (!scaling) {
    result.invFreq = defaultInvFreq(rotaryDim, base);
    return result;
  }
  scaling.computeFrequencies(rotaryDim, base, seqLen, result.invFreq,
                             result.attentionFactor);
  return result;
}

//===----------------------------------------------------------------------===//
// Scaling schemes
//===----------------------------------------------------------------------===//

// HF `_compute_linear_scaling_rope_parameters`: position interpolation.
void LinearAttr::computeFrequencies(int64_t rotaryDim, double base,
                                    std::optional<int64_t>,
                                    SmallVectorImpl<double> &invFreq,
                                    double &attentionFactor) const {
  double factor = getFactor();
  for (double inv : defaultInvFreq(rotaryDim, base))
    invFreq.push_back(inv / factor);
  attentionFactor = 1.0;
}

/// The NTK exponent d/(d-2) (verified d > 2).
static double ntkExponent(int64_t rotaryDim) {
  return static_cast<double>(rotaryDim) / static_cast<double>(rotaryDim - 2);
}

// HF (<= v4) `ntk`: base' = base * s^(d/(d-2)). vLLM
// `NTKScalingRotaryEmbedding` (mixed_b unset): inv(b*s) / s^(2/d).
void NtkAttr::computeFrequencies(int64_t rotaryDim, double base,
                                 std::optional<int64_t>,
                                 SmallVectorImpl<double> &invFreq,
                                 double &attentionFactor) const {
  double s = getFactor();
  attentionFactor = 1.0;
  if (getForm() == NtkForm::hf) {
    invFreq.append(
        defaultInvFreq(rotaryDim, base * std::pow(s, ntkExponent(rotaryDim))));
    return;
  }
  double divisor = std::pow(s, 2.0 / static_cast<double>(rotaryDim));
  for (double inv : defaultInvFreq(rotaryDim, base * s))
    invFreq.push_back(inv / divisor);
}

// HF `_compute_dynamic_ntk_parameters`; vLLM legacy evaluates it once at
// L = s * max_position_embeddings.
void DynamicNtkAttr::computeFrequencies(int64_t rotaryDim, double base,
                                        std::optional<int64_t> seqLen,
                                        SmallVectorImpl<double> &invFreq,
                                        double &attentionFactor) const {
  double s = getFactor();
  double maxPos = static_cast<double>(getMaxPositionEmbeddings());
  double length;
  if (getRule() == DynamicNtkRule::hf) {
    assert(seqLen && "hf dynamic NTK needs the runtime sequence length");
    length = std::max(static_cast<double>(*seqLen), maxPos);
  } else {
    length = s * maxPos;
  }
  double scaledBase =
      base * std::pow(s * length / maxPos - (s - 1.0), ntkExponent(rotaryDim));
  invFreq.append(defaultInvFreq(rotaryDim, scaledBase));
  attentionFactor = 1.0;
}

double YarnAttr::getScale() const {
  if (getFactorRule() == YarnFactorRule::context_ratio)
    return static_cast<double>(*getMaxPositionEmbeddings()) /
           static_cast<double>(getOriginalMaxPositionEmbeddings());
  return getFactor();
}

// HF `_compute_yarn_parameters` (v5: explicit factor, optional truncation).
void YarnAttr::computeFrequencies(int64_t rotaryDim, double base,
                                  std::optional<int64_t>,
                                  SmallVectorImpl<double> &invFreq,
                                  double &attentionFactor) const {
  double s = getScale();
  double d = static_cast<double>(rotaryDim);
  double original = static_cast<double>(getOriginalMaxPositionEmbeddings());
  // Pair index at which the wavelength equals original / rotations.
  auto correctionDim = [&](double rotations) {
    return d * std::log(original / (rotations * 2.0 * kPi)) /
           (2.0 * std::log(base));
  };
  double low = correctionDim(getBetaFast());
  double high = correctionDim(getBetaSlow());
  if (getTruncate()) {
    low = std::floor(low);
    high = std::ceil(high);
  }
  low = std::max(low, 0.0);
  high = std::min(high, d - 1.0);
  if (low == high)
    high += 0.001; // HF/vLLM singularity guard.

  SmallVector<double> extrapolation = defaultInvFreq(rotaryDim, base);
  for (auto [i, extrap] : llvm::enumerate(extrapolation)) {
    double ramp =
        std::clamp((static_cast<double>(i) - low) / (high - low), 0.0, 1.0);
    double keep = 1.0 - ramp; // weight of the original frequency
    double interp = extrap / s;
    invFreq.push_back(interp * (1.0 - keep) + extrap * keep);
  }

  auto toDouble = [](std::optional<Real> v) -> std::optional<double> {
    if (v)
      return static_cast<double>(*v);
    return std::nullopt;
  };
  attentionFactor =
      yarnAttentionFactor(s, toDouble(getMscale()), toDouble(getMscaleAllDim()),
                          toDouble(getAttentionFactor()));
}

// HF `_compute_llama3_parameters` (vLLM: no smoothing when the bands meet).
void Llama3Attr::computeFrequencies(int64_t rotaryDim, double base,
                                    std::optional<int64_t>,
                                    SmallVectorImpl<double> &invFreq,
                                    double &attentionFactor) const {
  double s = getFactor();
  double low = getLowFreqFactor();
  double high = getHighFreqFactor();
  double original = static_cast<double>(getOriginalMaxPositionEmbeddings());
  double lowWavelen = original / low;
  double highWavelen = original / high;
  for (double inv : defaultInvFreq(rotaryDim, base)) {
    double wavelen = 2.0 * kPi / inv;
    if (wavelen < highWavelen) {
      invFreq.push_back(inv);
    } else if (wavelen > lowWavelen) {
      invFreq.push_back(inv / s);
    } else {
      double smooth =
          high == low ? 0.0 : (original / wavelen - low) / (high - low);
      invFreq.push_back((1.0 - smooth) * inv / s + smooth * inv);
    }
  }
  attentionFactor = 1.0;
}

// HF `_compute_longrope_parameters`: per-pair factors divide the frequency.
void LongRopeAttr::computeFrequencies(int64_t rotaryDim, double base,
                                      std::optional<int64_t> seqLen,
                                      SmallVectorImpl<double> &invFreq,
                                      double &attentionFactor) const {
  int64_t original = getOriginalMaxPositionEmbeddings();
  bool useLong;
  switch (getSelect()) {
  case LongRopeSelect::hf:
    assert(seqLen && "hf LongRoPE needs the runtime sequence length");
    useLong = *seqLen > original;
    break;
  case LongRopeSelect::fixed_short:
    useLong = false;
    break;
  case LongRopeSelect::fixed_long:
    useLong = true;
    break;
  }
  ArrayRef<Real> factors = useLong ? getLongFactor() : getShortFactor();
  for (auto [inv, factor] :
       llvm::zip_equal(defaultInvFreq(rotaryDim, base), factors))
    invFreq.push_back(inv / factor);
  if (std::optional<Real> explicitFactor = getAttentionFactor())
    attentionFactor = *explicitFactor;
  else
    attentionFactor =
        longRopeAttentionFactor(static_cast<double>(getMaxPositionEmbeddings()),
                                static_cast<double>(original));
}

//===----------------------------------------------------------------------===//
// Finiteness of the tables
//===----------------------------------------------------------------------===//

bool mlir::posenc::roundsToFinite(double value,
                                  const llvm::fltSemantics &semantics) {
  APFloat rounded(value);
  bool losesInfo;
  rounded.convert(semantics, APFloat::rmNearestTiesToEven, &losesInfo);
  return rounded.isFinite();
}

bool mlir::posenc::isFiniteIn(double value, FloatType type) {
  return roundsToFinite(value, type.getFloatSemantics());
}

std::string NonFiniteFrequency::describe() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "makes the RoPE frequency table non-finite: inv_freq[" << index
     << "] = ";
  if (std::isnan(entry))
    os << "nan";
  else if (std::isinf(entry))
    os << (entry > 0 ? "inf" : "-inf");
  else
    os << llvm::format("%g", entry) << ", beyond the range of " << elementType;
  if (seqLen)
    os << " at seq_len " << *seqLen;
  return text;
}

/// The parameter that scales entry `index` of `scaling`'s table computed for
/// `seqLen`: LongRoPE's per-pair factor, else the scheme's single factor.
static std::pair<std::string, double>
getScalingParameter(RopeScalingAttrInterface scaling, int64_t index,
                    std::optional<int64_t> seqLen) {
  if (auto longRope = dyn_cast<LongRopeAttr>(scaling)) {
    bool useLong = longRope.getSelect() == LongRopeSelect::fixed_long ||
                   (longRope.getSelect() == LongRopeSelect::hf && seqLen &&
                    *seqLen > longRope.getOriginalMaxPositionEmbeddings());
    ArrayRef<Real> factors =
        useLong ? longRope.getLongFactor() : longRope.getShortFactor();
    return {
        (Twine(useLong ? "long_factor[" : "short_factor[") + Twine(index) + "]")
            .str(),
        factors[index]};
  }
  double factor =
      llvm::TypeSwitch<Attribute, double>(scaling)
          .Case<LinearAttr, NtkAttr, DynamicNtkAttr, YarnAttr, Llama3Attr>(
              [](auto attr) { return static_cast<double>(attr.getFactor()); })
          .Default([](Attribute) { return 0.0; });
  return {"factor", factor};
}

std::optional<NonFiniteFrequency>
mlir::posenc::findNonFiniteFrequency(RopeScalingAttrInterface scaling,
                                     int64_t rotaryDim, double base,
                                     FloatType elementType) {
  // base^(-2i/d) lies in (0, 1] for base > 1: only scaling can overflow it.
  if (!scaling)
    return std::nullopt;
  SmallVector<std::optional<int64_t>, 2> lengths = {std::nullopt};
  if (scaling.needsSeqLen()) {
    if (auto ntk = dyn_cast<DynamicNtkAttr>(scaling)) {
      // The base ratio s*L/M - (s-1) grows from 1 at L = M; it cancels worst
      // there (to 0 for s = 1e17) and overflows, harmlessly, at the top.
      lengths = {ntk.getMaxPositionEmbeddings(),
                 std::numeric_limits<int64_t>::max()};
    } else if (auto longRope = dyn_cast<LongRopeAttr>(scaling)) {
      int64_t original = longRope.getOriginalMaxPositionEmbeddings();
      lengths = {original};
      if (original != std::numeric_limits<int64_t>::max())
        lengths.push_back(original + 1);
    }
  }
  for (std::optional<int64_t> seqLen : lengths) {
    RopeFrequencies freqs =
        computeRopeFrequencies(scaling, rotaryDim, base, seqLen);
    for (auto [index, entry] : llvm::enumerate(freqs.invFreq)) {
      if (isFiniteIn(entry, elementType))
        continue;
      auto [parameter, value] = getScalingParameter(scaling, index, seqLen);
      return NonFiniteFrequency{parameter,
                                value,
                                static_cast<int64_t>(index),
                                entry,
                                elementType,
                                scaling.needsSeqLen() ? seqLen : std::nullopt};
    }
  }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// ALiBi and sinusoidal
//===----------------------------------------------------------------------===//

double mlir::posenc::alibiSlope(int64_t head, int64_t numHeads,
                                double maxBias) {
  int64_t pow2 = int64_t(1) << llvm::Log2_64(numHeads);
  double c = static_cast<double>(pow2);
  if (head < pow2)
    return std::exp2(-maxBias * static_cast<double>(head + 1) / c);
  return std::exp2(-maxBias * static_cast<double>(2 * (head - pow2) + 1) /
                   (2.0 * c));
}

SinusoidalColumns mlir::posenc::sinusoidalColumns(int64_t dim, double base,
                                                  SinusoidalLayout layout) {
  SinusoidalColumns cols;
  cols.invFreq.resize(dim, 0.0);
  cols.kind.resize(dim, SinusoidalColumn::Zero);
  if (layout == SinusoidalLayout::interleaved) {
    // Vaswani et al.: PE[p, 2i] = sin(p / base^(2i/d)), PE[p, 2i+1] = cos.
    for (int64_t c = 0; c < dim; ++c) {
      int64_t i = c / 2;
      cols.invFreq[c] = 1.0 / std::pow(base, static_cast<double>(2 * i) /
                                                 static_cast<double>(dim));
      cols.kind[c] = c % 2 == 0 ? SinusoidalColumn::Sin : SinusoidalColumn::Cos;
    }
    return cols;
  }
  // tensor2tensor get_timing_signal_1d / fairseq: [sin | cos], spacing
  // ln(base) / max(n-1, 1), one zero column when d is odd.
  int64_t n = dim / 2;
  double increment =
      std::log(base) / static_cast<double>(std::max<int64_t>(n - 1, 1));
  for (int64_t i = 0; i < n; ++i) {
    double inv = std::exp(-static_cast<double>(i) * increment);
    cols.invFreq[i] = cols.invFreq[n + i] = inv;
    cols.kind[i] = SinusoidalColumn::Sin;
    cols.kind[n + i] = SinusoidalColumn::Cos;
  }
  return cols;
}

DenseElementsAttr mlir::posenc::getRoundedElements(RankedTensorType type,
                                                   ArrayRef<double> values) {
  Type elementType = type.getElementType();
  if (elementType.isF64())
    return DenseElementsAttr::get(type, values);
  SmallVector<APFloat> rounded;
  rounded.reserve(values.size());
  const llvm::fltSemantics &semantics =
      cast<FloatType>(elementType).getFloatSemantics();
  for (double v : values) {
    APFloat value(v);
    bool losesInfo;
    value.convert(semantics, APFloat::rmNearestTiesToEven, &losesInfo);
    rounded.push_back(value);
  }
  return DenseElementsAttr::get(type, rounded);
}
