//===- RotaryRaising.h - the parts of posenc-raise-rotary -------*- C++ -*-===//
//
// posenc-raise-rotary reads rotary embeddings in several forms (real
// products of half-split or interleaved tables, Meta's complex product);
// these are what its files share: reading the cos/sin tables
// (RotaryTables.cpp), building the raised op with its frequencies
// (RotaryFrequencies.cpp) and the complex form (RotaryComplexForm.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_LIB_RAISING_ROTARYRAISING_H
#define POSENC_LIB_RAISING_ROTARYRAISING_H

#include "posenc/IR/PosEncOps.h"
#include "posenc/Raising/Match.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace posenc {
namespace raising {

/// What a cos or sin table is computed from:
/// `[factor *] trig([concat(f, f) | repeat_interleave(f, 2) | f])`,
/// `f = float(positions) * invFreq`; or the columns of a table `[P, C]`
/// gathered by positions (GPT-J's `embed_positions`).
struct TableSource {
  Value positions;    // integer [S] or [B, S]; null for an arange
  int64_t offset = 0; // first position of the arange
  Value invFreq;      // any shape with one non-unit dimension
  Value factor;       // scalar attention factor, or null
  std::optional<double> factorValue; // its value when constant
  Value angles;                      // `f`, to check that cos and sin agree
  Value table;                       // the gathered [P, C] table, or null
  int64_t column = 0; // first of the rotary_dim/2 columns read from `table`
  /// `positions` index `table` with PyTorch's negative-index wrap
  /// (`p < 0 ? p + P : p`): the raised rotary reads the wrapped positions.
  bool wrapPositions = false;
};

/// How a full-width table spreads rotary_dim/2 frequencies over the
/// channels: half-split pairs `(i, i + r/2)` read `concat(f, f)`, interleaved
/// pairs `(2i, 2i+1)` read `repeat_interleave(f, 2)`.
enum class TableWidth { Half, Concat, Interleaved };

/// The pieces of a raised rotary, checked; building it is separate.
struct RotaryMatch {
  Value input;
  int64_t rotaryDim;
  int64_t tokenDim;
  TableSource source;    // of the cos table
  int64_t sinColumn = 0; // with a `source.table`: the first sin column (of
                         // the real view of a complex table, see
                         // tableOperands)
};

//===----------------------------------------------------------------------===//
// Tables (RotaryTables.cpp)
//===----------------------------------------------------------------------===//

/// True when `groups` reshape `[..., w]` (rank `n`) to or from
/// `[..., w, 2]`: every dimension alone but the last, which pairs with the
/// new one (of size `pairSize`, which must be 2).
bool splitsLastIntoPairs(ArrayRef<ReassociationIndices> groups, int64_t n,
                         int64_t pairSize);

/// The positions of rows gathered from a table `[P, C]` (`gathered`, unit
/// reshapes stripped; columns from 0). Positions must stay in `[0, P)`: an
/// arange checked statically, or runtime positions without the
/// negative-index wrap (outside `[0, P)` the gather is undefined; with the
/// wrap, a negative position reads row `pos + P`, which no angle `pos * w`
/// reproduces).
std::optional<TableSource> matchGatheredRows(Value gathered);

/// The token axis of the rotary input read through a table's broadcast:
/// the table's non-unit dimensions are `[B?, S, W]` and the multiply reads
/// them through `map`; the channel must be the input's last axis.
std::optional<int64_t> tokenAxis(AffineMap map, ShapedType tableType,
                                 RankedTensorType inputType);

/// Checks the operands that the tables must satisfy for input `x` of the
/// rotary multiply: both read through the same broadcast, both computed from
/// the same angles (or gathered from one table by the same positions),
/// half-width or full-width per `width`.
std::optional<RotaryMatch> matchTables(Value x, const Elementwise &cosMul,
                                       unsigned cosIdx,
                                       const Elementwise &sinMul,
                                       unsigned sinIdx, TableWidth width,
                                       int64_t rotaryDim);

//===----------------------------------------------------------------------===//
// Building (RotaryFrequencies.cpp)
//===----------------------------------------------------------------------===//

/// Builds `posenc.rotary` for `m` in place of `root`.
Value buildRotary(PatternRewriter &rewriter, Location loc, const RotaryMatch &m,
                  RotaryLayout layout);

//===----------------------------------------------------------------------===//
// The complex form (RotaryComplexForm.cpp)
//===----------------------------------------------------------------------===//

/// Adds the pattern raising Meta's complex product, counting raised
/// rotaries in `count`.
void populateComplexRotaryPatterns(RewritePatternSet &patterns, int64_t &count);

} // namespace raising
} // namespace posenc
} // namespace mlir

#endif // POSENC_LIB_RAISING_ROTARYRAISING_H
