//===- AlibiBias.h - ALiBi biases as posenc.alibi ---------------*- C++ -*-===//
//
// Shared by posenc-raise-alibi's patterns (RaiseAlibi.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_LIB_RAISING_ALIBIBIAS_H
#define POSENC_LIB_RAISING_ALIBIBIAS_H

#include "posenc/IR/PosEncOps.h"

#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace mlir {
namespace posenc {
namespace raising {

/// The extents of a bias along its axes (1 for an absent axis).
struct BiasExtents {
  int64_t batch, heads, sq, sk;
};

/// The form of a bias with positions `pos[i][j]` (`[Sq, Sk]`) and the
/// query and key positions that give it.
struct BiasForm {
  AlibiForm form;
  SmallVector<int64_t> qPos, kPos;
};

/// `pos` as key_linear positions `c + j` on every row, or as symmetric
/// `-|i + a - j|`.
std::optional<BiasForm> classifyPositions(ArrayRef<SmallVector<int64_t>> pos);

/// Whether `values` is `start, start + 1, ...`.
bool isArangeFrom(ArrayRef<int64_t> values, int64_t start);

/// `v` reshaped to `type`, which differs from it only by unit dimensions.
Value reshapeUnitDims(PatternRewriter &rewriter, Location loc, Value v,
                      RankedTensorType type);

/// A posenc.alibi of `type` ([B?, H, Sq, Sk]) whose bias at (i, j) uses
/// query position `qPos[i]` (symmetric only) and key position `kPos[j]`,
/// with positions implicit where the op's defaults give them.
AlibiOp createAlibi(PatternRewriter &rewriter, Location loc,
                    RankedTensorType type, AlibiSlopesAttr config, Value slopes,
                    AlibiForm form, ArrayRef<int64_t> qPos,
                    ArrayRef<int64_t> kPos);

/// The `max_bias` for which posenc's slope formula gives exactly `slopes`
/// (as f32), if a round one does.
std::optional<double> matchSlopeConfig(ArrayRef<double> slopes);

/// The posenc.alibi `[B?, H, Sq, Sk]` of slopes `slopeList` (a slope
/// configuration when one matches: `configured`) and positions `bias`.
AlibiOp buildAlibiBias(PatternRewriter &rewriter, Location loc,
                       ArrayRef<double> slopeList, const BiasExtents &extents,
                       const BiasForm &bias, bool &configured);

} // namespace raising
} // namespace posenc
} // namespace mlir

#endif // POSENC_LIB_RAISING_ALIBIBIAS_H
