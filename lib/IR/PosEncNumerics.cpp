//===- PosEncNumerics.cpp - reference numerics of posenc ------------------===//
//
// The fp64 numerics shared by every op: the RoPE ladder, YaRN and LongRoPE
// attention factors, finiteness of the tables, ALiBi slopes, sinusoidal
// columns, rounding. The schemes' own formulas are in RopeScaling.cpp.
//
//===----------------------------------------------------------------------===//

#include "posenc/IR/PosEncNumerics.h"

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::posenc;

//===----------------------------------------------------------------------===//
// Formulas stated once (ScalingFormulas.h)
//===----------------------------------------------------------------------===//

ScalarArith::~ScalarArith() = default;
RuntimeFrequencyBuilder::~RuntimeFrequencyBuilder() = default;

double ScalarArith::evaluate(Kind kind, double lhs, double rhs) {
  switch (kind) {
  case Kind::Add:
    return lhs + rhs;
  case Kind::Sub:
    return lhs - rhs;
  case Kind::Mul:
    return lhs * rhs;
  case Kind::Div:
    return lhs / rhs;
  case Kind::Pow:
    return std::pow(lhs, rhs);
  case Kind::Max:
    return std::max(lhs, rhs);
  }
  llvm_unreachable("unknown ScalarArith::Kind");
}

Scalar ScalarArith::emit(Kind, Scalar, Scalar) {
  llvm::report_fatal_error("posenc: a formula evaluated in fp64 met a "
                           "runtime value");
}

Scalar mlir::posenc::ropeInvFreq(ScalarArith &arith, Scalar base, Scalar twoI,
                                 int64_t rotaryDim) {
  Scalar exponent = arith.div(twoI, static_cast<double>(rotaryDim));
  return arith.div(1.0, arith.pow(base, exponent));
}

SmallVector<double> mlir::posenc::defaultInvFreq(int64_t rotaryDim,
                                                 double base) {
  ScalarArith fp64;
  SmallVector<double> inv;
  inv.reserve(rotaryDim / 2);
  for (int64_t i = 0; i < rotaryDim / 2; ++i)
    inv.push_back(ropeInvFreq(fp64, base, static_cast<double>(2 * i), rotaryDim)
                      .getConstant());
  return inv;
}

FailureOr<RuntimeFrequencies> mlir::posenc::buildSwitchedFrequencies(
    RopeScalingAttrInterface scaling, RuntimeFrequencyBuilder &builder,
    int64_t rotaryDim, double base, int64_t length) {
  Value exceeds = builder.emitSeqLenExceeds(length);
  RopeFrequencies upTo =
      computeRopeFrequencies(scaling, rotaryDim, base, length);
  // No i64 length exceeds 2^63 - 1: the second table is then never selected
  // (and length + 1 would overflow).
  RopeFrequencies beyond = computeRopeFrequencies(
      scaling, rotaryDim, base,
      length == std::numeric_limits<int64_t>::max() ? length : length + 1);
  FailureOr<Value> beyondTable = builder.buildConstantTable(beyond.invFreq);
  if (failed(beyondTable))
    return failure();
  FailureOr<Value> upToTable = builder.buildConstantTable(upTo.invFreq);
  if (failed(upToTable))
    return failure();
  Value invFreq = builder.emitSelect(exceeds, *beyondTable, *upToTable);
  Value factor = builder.buildAttentionFactor(beyond.attentionFactor);
  // The attention factor folds to f32: select only when it differs there.
  if (static_cast<float>(upTo.attentionFactor) !=
      static_cast<float>(beyond.attentionFactor))
    factor = builder.emitSelect(
        exceeds, factor, builder.buildAttentionFactor(upTo.attentionFactor));
  return RuntimeFrequencies{invFreq, factor};
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

std::optional<NonFiniteFrequency>
mlir::posenc::findNonFiniteFrequency(RopeScalingAttrInterface scaling,
                                     int64_t rotaryDim, double base,
                                     FloatType elementType) {
  // base^(-2i/d) lies in (0, 1] for base > 1: only scaling can overflow it.
  if (!scaling)
    return std::nullopt;
  SmallVector<std::optional<int64_t>, 2> lengths = {std::nullopt};
  if (scaling.needsSeqLen())
    lengths.assign(llvm::to_vector_of<std::optional<int64_t>>(
        scaling.getCriticalSeqLens()));
  for (std::optional<int64_t> seqLen : lengths) {
    RopeFrequencies freqs =
        computeRopeFrequencies(scaling, rotaryDim, base, seqLen);
    for (auto [index, entry] : llvm::enumerate(freqs.invFreq)) {
      if (isFiniteIn(entry, elementType))
        continue;
      auto [parameter, value] = scaling.getScalingParameter(index, seqLen);
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
