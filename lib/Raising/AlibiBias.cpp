//===- AlibiBias.cpp - ALiBi biases as posenc.alibi -----------------------===//
//
// What posenc-raise-alibi's patterns share: the slope configuration and the
// positions a bias's values imply, and the posenc.alibi that computes it.
//
//===----------------------------------------------------------------------===//

#include "AlibiBias.h"

#include "posenc/IR/PosEncNumerics.h"
#include "posenc/Raising/Match.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace mlir;
using namespace mlir::posenc;
using namespace mlir::posenc::raising;

/// `v` reshaped to `type`, which differs from it only by unit dimensions:
/// collapsed to the common non-unit shape, then expanded.
Value raising::reshapeUnitDims(PatternRewriter &rewriter, Location loc, Value v,
                               RankedTensorType type) {
  auto groupsOf = [](ArrayRef<int64_t> shape) {
    SmallVector<ReassociationIndices> groups;
    ReassociationIndices pending;
    for (int64_t d = 0, e = shape.size(); d < e; ++d) {
      pending.push_back(d);
      if (shape[d] != 1) {
        groups.push_back(pending);
        pending.clear();
      }
    }
    if (!groups.empty())
      groups.back().append(pending.begin(), pending.end());
    return groups;
  };
  auto srcType = cast<RankedTensorType>(v.getType());
  if (srcType == type)
    return v;
  SmallVector<int64_t> common = nonUnitShape(v);
  auto commonType = RankedTensorType::get(common, type.getElementType());
  if (srcType != commonType)
    v = tensor::CollapseShapeOp::create(rewriter, loc, commonType, v,
                                        groupsOf(srcType.getShape()));
  if (commonType != type)
    v = tensor::ExpandShapeOp::create(rewriter, loc, type, v,
                                      groupsOf(type.getShape()));
  return v;
}

bool raising::isArangeFrom(ArrayRef<int64_t> values, int64_t start) {
  for (auto [i, x] : llvm::enumerate(values))
    if (x != start + int64_t(i))
      return false;
  return true;
}

static Value createPositions(PatternRewriter &rewriter, Location loc,
                             ArrayRef<int64_t> values) {
  auto type =
      RankedTensorType::get({int64_t(values.size())}, rewriter.getI64Type());
  return arith::ConstantOp::create(rewriter, loc,
                                   DenseIntElementsAttr::get(type, values));
}

/// A posenc.alibi of `type` ([B?, H, Sq, Sk]) whose bias at (i, j) uses
/// query position `qPos[i]` (symmetric only) and key position `kPos[j]`,
/// with positions implicit where the op's defaults give them.
AlibiOp raising::createAlibi(PatternRewriter &rewriter, Location loc,
                             RankedTensorType type, AlibiSlopesAttr config,
                             Value slopes, AlibiForm form,
                             ArrayRef<int64_t> qPos, ArrayRef<int64_t> kPos) {
  int64_t sq = type.getDimSize(type.getRank() - 2);
  int64_t sk = type.getDimSize(type.getRank() - 1);
  SmallVector<int64_t> q(qPos), k(kPos);
  // |q - k| only sees the difference: shift key aranges to start at 0.
  if (form == AlibiForm::symmetric && isArangeFrom(k, k.front())) {
    int64_t shift = k.front();
    for (int64_t &x : q)
      x -= shift;
    for (int64_t &x : k)
      x -= shift;
  }
  Value kOperand =
      isArangeFrom(k, 0) ? Value() : createPositions(rewriter, loc, k);
  Value qOperand;
  Alignment alignment = Alignment::bottom_right;
  if (form == AlibiForm::symmetric) {
    if (isArangeFrom(q, sk - sq))
      alignment = Alignment::bottom_right;
    else if (isArangeFrom(q, 0))
      alignment = Alignment::top_left;
    else
      qOperand = createPositions(rewriter, loc, q);
  }
  return AlibiOp::create(rewriter, loc, type, slopes, qOperand, kOperand,
                         config, form, alignment);
}

/// The `max_bias` for which posenc's slope formula gives exactly `slopes`
/// (as f32) for `slopes.size()` heads: the usual 8, or the one the first
/// slope implies (`slope_0 = 2^(-b/c)`) rounded to a multiple of 1/256
/// (MPT's `alibi_bias_max = 16`). Any geometric ladder fits some real `b`;
/// only round ones are what a model configured.
std::optional<double> raising::matchSlopeConfig(ArrayRef<double> slopes) {
  int64_t heads = slopes.size();
  double c = double(int64_t(1) << llvm::Log2_64(heads));
  double implied = -c * std::log2(slopes.front());
  for (double maxBias : {8.0, std::round(implied * 256.0) / 256.0}) {
    if (!std::isfinite(maxBias) || maxBias <= 0.0)
      continue;
    bool equal = true;
    for (int64_t h = 0; h < heads && equal; ++h)
      equal = float(alibiSlope(h, heads, maxBias)) == float(slopes[h]);
    if (equal)
      return maxBias;
  }
  return std::nullopt;
}

/// `pos` as key_linear positions `c + j` on every row, or as symmetric
/// `-|i + a - j|`.
std::optional<BiasForm>
raising::classifyPositions(ArrayRef<SmallVector<int64_t>> pos) {
  int64_t sq = pos.size(), sk = pos.front().size();
  // key_linear: `slope * (c + j)` on every row.
  BiasForm bias{AlibiForm::key_linear, {}, SmallVector<int64_t>(pos.front())};
  SmallVector<int64_t> &kPos = bias.kPos;
  bool rowsEqual = llvm::all_equal(pos);
  if (rowsEqual && isArangeFrom(kPos, kPos.front()))
    return bias;
  // symmetric: `-slope * |i + a - j|`.
  bias.form = AlibiForm::symmetric;
  std::optional<int64_t> shift;
  for (int64_t a : {-pos[0][0], pos[0][0]}) {
    bool ok = true;
    for (int64_t i = 0; i < sq && ok; ++i)
      for (int64_t j = 0; j < sk && ok; ++j)
        ok = pos[i][j] == -std::abs(i + a - j);
    if (ok) {
      shift = a;
      break;
    }
  }
  if (!shift)
    return std::nullopt;
  bias.qPos = llvm::to_vector(llvm::seq<int64_t>(*shift, *shift + sq));
  bias.kPos = llvm::to_vector(llvm::seq<int64_t>(0, sk));
  return bias;
}

AlibiOp raising::buildAlibiBias(PatternRewriter &rewriter, Location loc,
                                ArrayRef<double> slopeList,
                                const BiasExtents &extents,
                                const BiasForm &bias, bool &configured) {
  int64_t heads = extents.heads;
  AlibiSlopesAttr config;
  Value slopeTensor;
  configured = false;
  if (std::optional<double> maxBias = matchSlopeConfig(slopeList)) {
    config = AlibiSlopesAttr::get(rewriter.getContext(), heads,
                                  /*headOffset=*/0, *maxBias);
    configured = true;
  } else {
    auto slopesType = RankedTensorType::get({heads}, rewriter.getF32Type());
    SmallVector<float> values(slopeList.begin(), slopeList.end());
    slopeTensor = arith::ConstantOp::create(
        rewriter, loc, DenseFPElementsAttr::get(slopesType, values));
  }
  SmallVector<int64_t> alibiShape;
  if (extents.batch != 1)
    alibiShape.push_back(extents.batch);
  alibiShape.append({heads, extents.sq, extents.sk});
  auto alibiType = RankedTensorType::get(alibiShape, rewriter.getF32Type());
  return createAlibi(rewriter, loc, alibiType, config, slopeTensor, bias.form,
                     bias.qPos, bias.kPos);
}
