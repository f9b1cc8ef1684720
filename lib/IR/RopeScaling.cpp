//===- RopeScaling.cpp - RopeScalingAttrInterface of the scaling schemes --===//
//
// Each scheme's formula, written from the published implementations (HF
// transformers v5 by default; the vLLM / llama.cpp variants where an
// attribute names them), and everything else the op, its folder and its
// lowering ask of a scheme. Parameter validation (`verify`) is in
// PosEncAttrs.cpp.
//
//===----------------------------------------------------------------------===//

#include "posenc/IR/PosEncAttrs.h"
#include "posenc/IR/PosEncNumerics.h"

#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::posenc;

using EmitErrorFn = function_ref<InFlightDiagnostic()>;

static constexpr double kPi = 3.14159265358979323846;

//===----------------------------------------------------------------------===//
// linear
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

//===----------------------------------------------------------------------===//
// ntk and dynamic_ntk
//===----------------------------------------------------------------------===//

/// NTK variants raise to d/(d-2): a rotary dim of 2 has no such exponent.
static LogicalResult checkNtkRotaryDim(EmitErrorFn emitError, StringRef scheme,
                                       int64_t rotaryDim) {
  if (rotaryDim <= 2)
    return emitError() << scheme
                       << " scaling needs rotary_dim > 2 (exponent d/(d-2)), "
                          "got "
                       << rotaryDim;
  return success();
}

/// The NTK exponent d/(d-2) (verified d > 2).
static double ntkExponent(int64_t rotaryDim) {
  return static_cast<double>(rotaryDim) / static_cast<double>(rotaryDim - 2);
}

LogicalResult NtkAttr::verifyRotaryDim(EmitErrorFn emitError,
                                       int64_t rotaryDim) const {
  return checkNtkRotaryDim(emitError, "ntk", rotaryDim);
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

bool DynamicNtkAttr::needsSeqLen() const {
  return getRule() == DynamicNtkRule::hf;
}
LogicalResult DynamicNtkAttr::verifyRotaryDim(EmitErrorFn emitError,
                                              int64_t rotaryDim) const {
  return checkNtkRotaryDim(emitError, "dynamic_ntk", rotaryDim);
}

/// HF `_compute_dynamic_ntk_parameters`:
///   base' = base * (s * L / M - (s - 1))^(d/(d-2)),
/// L = max(seq_len, M) (`rule = hf`) or s * M (vLLM legacy), M =
/// max_position_embeddings. The one statement of the formula: the fold
/// evaluates it on the constant `seqLen`, the runtime table on the SSA one.
static Scalar getScaledBase(DynamicNtkAttr ntk, ScalarArith &arith,
                            int64_t rotaryDim, double base,
                            std::optional<Scalar> seqLen) {
  double s = ntk.getFactor();
  double maxPos = static_cast<double>(ntk.getMaxPositionEmbeddings());
  Scalar length = s * maxPos;
  if (ntk.getRule() == DynamicNtkRule::hf) {
    assert(seqLen && "hf dynamic NTK needs the runtime sequence length");
    length = arith.max(*seqLen, maxPos);
  }
  Scalar ratio = arith.sub(arith.div(arith.mul(s, length), maxPos), s - 1.0);
  return arith.mul(base, arith.pow(ratio, ntkExponent(rotaryDim)));
}

void DynamicNtkAttr::computeFrequencies(int64_t rotaryDim, double base,
                                        std::optional<int64_t> seqLen,
                                        SmallVectorImpl<double> &invFreq,
                                        double &attentionFactor) const {
  ScalarArith fp64;
  std::optional<Scalar> length;
  if (seqLen)
    length = Scalar(static_cast<double>(*seqLen));
  double scaledBase =
      getScaledBase(*this, fp64, rotaryDim, base, length).getConstant();
  invFreq.append(defaultInvFreq(rotaryDim, scaledBase));
  attentionFactor = 1.0;
}

SmallVector<int64_t> DynamicNtkAttr::getCriticalSeqLens() const {
  if (!needsSeqLen())
    return {};
  // The base ratio s*L/M - (s-1) grows from 1 at L = M; it cancels worst
  // there (to 0 for s = 1e17) and overflows, harmlessly, at the top.
  return {getMaxPositionEmbeddings(), std::numeric_limits<int64_t>::max()};
}

FailureOr<RuntimeFrequencies>
DynamicNtkAttr::buildRuntimeFrequencies(RuntimeFrequencyBuilder &builder,
                                        int64_t rotaryDim, double base) const {
  Scalar scaledBase = getScaledBase(*this, builder.getArith(), rotaryDim, base,
                                    builder.getSeqLen());
  Value invFreq = builder.buildTable([&](ScalarArith &arith, Scalar twoI) {
    return ropeInvFreq(arith, scaledBase, twoI, rotaryDim);
  });
  return RuntimeFrequencies{invFreq, builder.buildAttentionFactor(1.0)};
}

//===----------------------------------------------------------------------===//
// yarn
//===----------------------------------------------------------------------===//

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

//===----------------------------------------------------------------------===//
// llama3
//===----------------------------------------------------------------------===//

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

//===----------------------------------------------------------------------===//
// longrope
//===----------------------------------------------------------------------===//

bool LongRopeAttr::needsSeqLen() const {
  return getSelect() == LongRopeSelect::hf;
}
LogicalResult LongRopeAttr::verifyRotaryDim(EmitErrorFn emitError,
                                            int64_t rotaryDim) const {
  if (static_cast<int64_t>(getShortFactor().size()) != rotaryDim / 2)
    return emitError() << "longrope factor lists must have rotary_dim/2 = "
                       << rotaryDim / 2 << " entries, got "
                       << getShortFactor().size();
  return success();
}

/// HF's switch: the long factors apply iff seq_len exceeds
/// original_max_position_embeddings (`select = hf`); `short` / `long` fix the
/// choice. Without a length (only valid for the fixed choices) the short
/// factors apply unless fixed long.
static bool usesLongFactors(LongRopeAttr attr, std::optional<int64_t> seqLen) {
  switch (attr.getSelect()) {
  case LongRopeSelect::hf:
    return seqLen && *seqLen > attr.getOriginalMaxPositionEmbeddings();
  case LongRopeSelect::fixed_short:
    return false;
  case LongRopeSelect::fixed_long:
    return true;
  }
  llvm_unreachable("unknown LongRopeSelect");
}

// HF `_compute_longrope_parameters`: per-pair factors divide the frequency.
void LongRopeAttr::computeFrequencies(int64_t rotaryDim, double base,
                                      std::optional<int64_t> seqLen,
                                      SmallVectorImpl<double> &invFreq,
                                      double &attentionFactor) const {
  assert((!needsSeqLen() || seqLen) &&
         "hf LongRoPE needs the runtime sequence length");
  ArrayRef<Real> factors =
      usesLongFactors(*this, seqLen) ? getLongFactor() : getShortFactor();
  for (auto [inv, factor] :
       llvm::zip_equal(defaultInvFreq(rotaryDim, base), factors))
    invFreq.push_back(inv / factor);
  if (std::optional<Real> explicitFactor = getAttentionFactor())
    attentionFactor = *explicitFactor;
  else
    attentionFactor = longRopeAttentionFactor(
        static_cast<double>(getMaxPositionEmbeddings()),
        static_cast<double>(getOriginalMaxPositionEmbeddings()));
}

SmallVector<int64_t> LongRopeAttr::getCriticalSeqLens() const {
  if (!needsSeqLen())
    return {};
  // Both sides of the switch (no i64 length exceeds 2^63 - 1).
  int64_t original = getOriginalMaxPositionEmbeddings();
  SmallVector<int64_t> lengths = {original};
  if (original != std::numeric_limits<int64_t>::max())
    lengths.push_back(original + 1);
  return lengths;
}

std::pair<std::string, double>
LongRopeAttr::getScalingParameter(int64_t index,
                                  std::optional<int64_t> seqLen) const {
  bool useLong = usesLongFactors(*this, seqLen);
  ArrayRef<Real> factors = useLong ? getLongFactor() : getShortFactor();
  return {
      (Twine(useLong ? "long_factor[" : "short_factor[") + Twine(index) + "]")
          .str(),
      factors[index]};
}

FailureOr<RuntimeFrequencies>
LongRopeAttr::buildRuntimeFrequencies(RuntimeFrequencyBuilder &builder,
                                      int64_t rotaryDim, double base) const {
  return buildSwitchedFrequencies(*this, builder, rotaryDim, base,
                                  getOriginalMaxPositionEmbeddings());
}
