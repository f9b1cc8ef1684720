//===- PosEncNumerics.h - reference numerics of posenc ----------*- C++ -*-===//
//
// The fp64 formulas behind every posenc op (HF transformers v5 semantics by
// default; see docs/numerics.md). Folders and lowerings both call these, so
// a folded table and a lowered kernel cannot disagree on a formula.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_IR_POSENCNUMERICS_H
#define POSENC_IR_POSENCNUMERICS_H

#include "posenc/IR/PosEncAttrs.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir {
namespace posenc {

/// The largest table (frequencies, ALiBi slopes, sinusoidal columns) that
/// folders and lowerings materialize as a constant, in elements: far above
/// real models (rotary_dim/2 <= 512, d_model <= 2^14, heads <= 2^10) and
/// cheap to fold. Shapes are user input and reach 2^63 - 1; larger tables
/// stay unfolded, and the lowering rejects them with a diagnostic instead of
/// exhausting memory.
constexpr int64_t kMaxConstantElements = int64_t(1) << 16;

/// Inverse frequencies and the attention factor (which multiplies cos and
/// sin) of one RoPE configuration.
struct RopeFrequencies {
  llvm::SmallVector<double> invFreq;
  double attentionFactor = 1.0;
};

/// RoPE's inverse frequency `1 / base^(2i/d)` of the pair whose first
/// channel is `twoI` = 2i (`d` = `rotaryDim`): the one statement of the
/// ladder. defaultInvFreq evaluates it in fp64; runtime tables (dynamic NTK)
/// emit it with a runtime base.
Scalar ropeInvFreq(ScalarArith &arith, Scalar base, Scalar twoI,
                   int64_t rotaryDim);

/// `base^(-2i/d)` for `i in [0, d/2)`: the unscaled RoPE ladder.
llvm::SmallVector<double> defaultInvFreq(int64_t rotaryDim, double base);

/// YaRN's magnitude correction: 1 for `scale <= 1`, else
/// `0.1 * mscale * ln(scale) + 1`.
double yarnMscale(double scale, double mscale = 1.0);

/// YaRN's attention factor for scale `s`: `attentionFactor` when given; else
/// `yarnMscale(s, mscale) / yarnMscale(s, mscaleAllDim)` when both are given
/// and non-zero; else `yarnMscale(s)`.
double yarnAttentionFactor(double scale, std::optional<double> mscale,
                           std::optional<double> mscaleAllDim,
                           std::optional<double> attentionFactor);

/// LongRoPE's default attention factor: `sqrt(1 + ln(s) / ln(original))` with
/// `s = maxPos / original`, 1 when `s <= 1`.
double longRopeAttentionFactor(double maxPos, double original);

/// Frequencies of `scaling` (null: unscaled). `seqLen` is required when the
/// scheme depends on the runtime length.
RopeFrequencies computeRopeFrequencies(RopeScalingAttrInterface scaling,
                                       int64_t rotaryDim, double base,
                                       std::optional<int64_t> seqLen);

/// The runtime form of a scheme whose table changes at one sequence length:
/// the table up to `length` and the one beyond (computeFrequencies at
/// `length` and `length + 1`, in fp64) become constants and the runtime
/// length selects (HF LongRoPE: long factors iff seq_len > `length`). The
/// rule itself stays in the scheme's computeFrequencies.
FailureOr<RuntimeFrequencies>
buildSwitchedFrequencies(RopeScalingAttrInterface scaling,
                         RuntimeFrequencyBuilder &builder, int64_t rotaryDim,
                         double base, int64_t length);

/// True when `value` rounded once to `semantics` (or `type`) is finite.
bool roundsToFinite(double value, const llvm::fltSemantics &semantics);
bool isFiniteIn(double value, FloatType type);

/// A scaling parameter that is valid on its own but makes an entry of the
/// frequency table non-finite (a factor of 1e-320 divides by almost 0).
struct NonFiniteFrequency {
  /// The parameter: `factor`, `short_factor[3]`, `long_factor[0]`.
  std::string parameter;
  double value;
  /// The first non-finite entry, its fp64 value and the element type.
  int64_t index;
  double entry;
  FloatType elementType;
  /// The runtime sequence length the table was computed for, if it has one.
  std::optional<int64_t> seqLen;

  /// "makes the RoPE frequency table non-finite: inv_freq[0] = inf".
  std::string describe() const;
};

/// Computes the table of `scaling` in fp64 (a runtime scheme at every length
/// that changes its formula: dynamic NTK at `max_position_embeddings` and
/// 2^63 - 1, LongRoPE with both factor lists) and returns its first entry
/// that is not finite once rounded to `elementType`, naming the parameter
/// responsible. Unscaled tables (`base > 1`) are always finite.
std::optional<NonFiniteFrequency>
findNonFiniteFrequency(RopeScalingAttrInterface scaling, int64_t rotaryDim,
                       double base, FloatType elementType);

/// ALiBi slope of global head `head` out of `numHeads` (Press et al.,
/// BLOOM, MPT and llama.cpp agree): with `c = 2^floor(log2 n)`,
/// `2^(-b(h+1)/c)` for `h < c`, else `2^(-b(2(h-c)+1)/(2c))`.
double alibiSlope(int64_t head, int64_t numHeads, double maxBias);

/// Per-column description of a sinusoidal table of width `dim`: column `c`
/// is `sin(p * invFreq[c])`, `cos(p * invFreq[c])` or 0.
enum class SinusoidalColumn { Sin, Cos, Zero };
struct SinusoidalColumns {
  llvm::SmallVector<double> invFreq;
  llvm::SmallVector<SinusoidalColumn> kind;
};
SinusoidalColumns sinusoidalColumns(int64_t dim, double base,
                                    SinusoidalLayout layout);

/// `values` rounded once to the float element type of `type`.
DenseElementsAttr getRoundedElements(RankedTensorType type,
                                     ArrayRef<double> values);

} // namespace posenc
} // namespace mlir

#endif // POSENC_IR_POSENCNUMERICS_H
